"""The command line: exit codes, one-line errors, JSON output, the terminal table."""

from __future__ import annotations

import builtins
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from twentyone.cli.main import cli

SCENARIOS = Path(__file__).parent / "scenarios"


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_replay_json_matches_the_spec_example() -> None:
    code, out, _ = run("replay", str(SCENARIOS / "casino_example_from_spec.json"), "--json")
    assert code == 0
    data = json.loads(out)
    assert [box["net"] for box in data["boxes"]] == [2000, -750]


def test_replay_reads_stdin() -> None:
    scenario = {
        "game": "online",
        "boxes": [{"bet": 100}],
        "cards": ["TS", "9D", "8H", "9C"],
        "decisions": ["stand"],
    }
    code, out, _ = run("replay", "-", "--json", stdin=json.dumps(scenario))
    assert code == 0 and json.loads(out)["boxes"][0]["hands"][0]["result"] == "push"


def test_bad_input_is_one_line_and_exit_2() -> None:
    cases = [
        ("replay", "-"),  # malformed JSON
        ("replay", str(SCENARIOS / "casino_unknown_card.json")),
        ("replay", str(SCENARIOS / "casino_bet_below_minimum.json")),
        ("replay", str(SCENARIOS / "casino_fifth_hand_refused.json")),
        ("replay", "no-such-file.json"),
        ("rules", "poker"),
    ]
    for args in cases:
        code, out, err = run(*args, stdin="{not json")
        assert code == 2, (args, code, err)
        assert err.count("\n") == 1 and err.startswith("twentyone: error:"), err
        assert "Traceback" not in err + out


def test_play_casino_session() -> None:
    # Seeded shoe: bet, answer one prompt badly, then leave. The bankroll moves with the round.
    code, out, _ = run(
        "play", "casino", "--seed", "3", stdin="0.5\n500 500 500\n10\nx\ns\ns\ns\ns\nq\n"
    )
    assert code == 0
    assert "each bet must be" in out and "more than your" in out
    assert "Round:" in out and "You leave with" in out


def test_play_online_bad_bankroll() -> None:
    code, _, err = run("play", "online", "--bankroll", "lots")
    assert code == 2 and "bankroll" in err


def test_play_online_with_hints() -> None:
    code, out, _ = run("play", "online", "--seed", "5", "--hint", stdin="10\ns\ns\ns\ns\nq\n")
    assert code == 0
    assert "basic strategy:" in out


def test_every_subcommand_has_help_and_matches_its_name() -> None:
    from twentyone.cli.main import SUBCOMMANDS

    code, out, _ = run("--help")
    assert code == 0
    for name in SUBCOMMANDS:
        assert name in out
        code, _, err = run(name, "--help")
        assert code == 0, (name, err)
        command = cli.get_command(None, name)  # type: ignore[arg-type]
        assert command is not None and command.name == name


def test_starting_the_cli_loads_no_compiled_kernels() -> None:
    import subprocess
    import sys

    probe = "import sys, twentyone.cli.main; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_unknown_command_exits_2() -> None:
    code, _, err = run("fly")
    assert code == 2 and "No such command" in err


def test_rules_shows_every_preset_with_its_theoretical_return() -> None:
    code, out, _ = run("rules", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"casino", "online", "exchange", "vinte"}
    for name in ("casino", "online"):
        # Optimal composition-dependent play is never worse than basic strategy.
        assert -0.01 < data[name]["basic_strategy_ev"] <= data[name]["expected_return"] < 0
    assert round(-data["exchange"]["hand_expected_return"] * 100, 2) == 3.90
    assert data["vinte"]["rules"]["ties"] == "dealer-wins"
    assert "expected_return" not in data["vinte"]
    code, out, _ = run("rules", "casino")
    assert code == 0 and "no hole card" in out and "house edge with perfect play" in out


# -- the play commands: thin clients of the table runners (twentyone.tables) ------------------


def assert_one_line_error(code: int, out: str, err: str, *words: str) -> None:
    assert code == 2, (code, out, err)
    assert err.count("\n") == 1 and err.startswith("twentyone: error:"), err
    assert "Traceback" not in out + err
    for word in words:
        assert word in err, (word, err)


@pytest.mark.parametrize("game", ["casino", "online"])
@pytest.mark.parametrize(
    "value", ["inf", "Infinity", "1e400", "nan", "-5", "0", "0.5", "1_000", "٢٠", "10.001"]
)
def test_play_bankroll_is_decimal_money_or_refused_in_one_line(game: str, value: str) -> None:
    code, out, err = run("play", game, "--bankroll", value, stdin="10\nq\n")
    assert_one_line_error(code, out, err, "--bankroll")
    assert out == ""  # refused before the table opens


def test_play_bankroll_messages_say_what_is_wrong() -> None:
    assert "is negative" in run("play", "online", "--bankroll", "-5")[2]
    assert "minimum bet of 1.00" in run("play", "online", "--bankroll", "0")[2]
    assert "not an amount" in run("play", "online", "--bankroll", "1e400")[2]


@pytest.mark.parametrize("game", ["casino", "online", "vinte", "exchange"])
@pytest.mark.parametrize("seed", ["-1", "abc", str(2**64), "1e3"])
def test_play_seed_is_a_64_bit_whole_number_as_in_simulate(game: str, seed: str) -> None:
    code, out, err = run("play", game, "--seed", seed, stdin="q\n")
    assert_one_line_error(code, out, err, "--seed", "from 0 to")


@pytest.mark.parametrize(
    "args",
    [
        ("play", "vinte", "--bots", "0"),
        ("play", "exchange", "--games", "0"),
        ("play", "online", "--seed", "abc"),
        ("play", "vinte", "--stack", "lots"),
        ("play", "exchange", "--spread", "-1"),
    ],
)
def test_play_usage_errors_are_one_line(args: tuple[str, ...]) -> None:
    assert_one_line_error(*run(*args, stdin="q\n"))


def test_play_prompts_refuse_inf_and_nan_and_go_on() -> None:
    code, out, _ = run(
        "play", "online", "--seed", "4", stdin="inf\nInfinity\nnan\n1e400\n10\ninf\nnan\n0\nq\n"
    )
    assert code == 0, out
    assert out.count("is not an amount") == 6  # four at the bet prompt, two at insurance
    assert "Insurance for box 1?" in out and "Round:" in out and "You leave with" in out


def test_online_bet_takes_the_thousands_separator_the_prompt_prints() -> None:
    code, out, _ = run("play", "online", "--seed", "3", stdin="1,000.00\ns\nq\n")
    assert code == 0 and "Bet (1.00-1,000.00; q to leave)" in out
    assert "│ 1,000.00 │" in out  # one box of 1,000.00, not two amounts
    code, out, _ = run("play", "casino", "--seed", "3", stdin="1,5\nq\n")
    assert code == 0 and "'1,5' is not an amount" in out  # boxes are separated by spaces


def test_quitting_mid_hand_finishes_the_round_by_standing() -> None:
    # Seed 7: a 10.00 bet on TS TC against the dealer's ace; standing wins 10.00.
    for leave in ("q\n", "", None):  # q, the end of input, Ctrl-C
        if leave is None:
            code, out = run_with_ctrl_c(["play", "casino", "--seed", "7", "--bankroll", "50"], 1)
        else:
            code, out, _ = run(
                "play", "casino", "--seed", "7", "--bankroll", "50", stdin="10\n" + leave
            )
        assert code == 0, out
        assert "played out with the standard decisions" in " ".join(out.split())
        assert "Round: 10.00   bankroll: 60.00" in out
        assert out.rstrip().endswith("You leave with 60.00.")  # never the refunded 50.00


def run_with_ctrl_c(
    args: list[str], lines_before: int, stdin: str = "10\n" * 50
) -> tuple[int, str]:
    """Run a play command whose ``lines_before + 1``-th read is interrupted by Ctrl-C."""
    answers = iter(stdin.splitlines())
    calls = 0

    def fake_input(prompt: object = "") -> str:
        nonlocal calls
        calls += 1
        if calls > lines_before:
            raise KeyboardInterrupt
        return next(answers)

    original = builtins.input
    builtins.input = fake_input
    try:
        result = CliRunner().invoke(cli, args)
    finally:
        builtins.input = original
    return result.exit_code, result.stdout


@pytest.mark.parametrize(
    ("args", "stdin", "summary"),
    [
        (["play", "casino", "--seed", "3"], "10\ns\ns\ns\n", "You leave with"),
        (["play", "online", "--seed", "3"], "10\ns\n", "You leave with"),
        (["play", "vinte", "--seed", "3", "--banker", "1"], "3\n", "You leave the match after"),
        (["play", "exchange", "--seed", "3", "--no-bots"], "bets\n", "You leave with"),
    ],
)
def test_ctrl_c_and_end_of_input_end_every_game_alike(
    args: list[str], stdin: str, summary: str
) -> None:
    lines = stdin.count("\n")
    end_code, end_out, _ = run(*args, stdin=stdin)
    c_code, c_out = run_with_ctrl_c(args, lines, stdin)
    assert end_code == c_code == 0
    assert end_out == c_out and summary in end_out


hostile_words = st.one_of(
    st.sampled_from(
        [
            *("inf", "-inf", "nan", "1e400", "-0", "0", "1,000.00", "1,5", "٢", "10", "9" * 60),
            *("s", "h", "d", "p", "r", "y", "n", "q", "", "call 1", "draw", "3", "\x00"),
            *("back 1 2.06 5", "lay 2 1.5 3", "cancel 17", "bets", "back 1 2.06 inf"),
            *("cancel 20 inf", "back 9 2 2"),
        ]
    ),
    st.text(max_size=12),
    st.integers(-(10**20), 10**20).map(str),
)


@pytest.mark.parametrize(
    "args",
    [
        ["play", "casino", "--seed", "2"],
        ["play", "online", "--seed", "2", "--hint"],
        ["play", "exchange", "--seed", "2", "--no-bots"],
        ["play", "vinte", "--seed", "2", "--bots", "2", "--rounds", "3"],
    ],
)
@settings(max_examples=12, deadline=None)
@given(lines=st.lists(hostile_words, max_size=25))
def test_fuzz_every_prompt_keeps_the_game_and_ends_with_the_summary(
    args: list[str], lines: list[str]
) -> None:
    text = "\n".join(line.replace("\n", " ").replace("\r", " ") for line in lines) + "\n"
    result = CliRunner().invoke(cli, args, input=text)
    assert result.exit_code == 0, (result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert "You leave" in result.output or "match is over" in result.output


@settings(max_examples=40, deadline=None)
@given(
    option=st.sampled_from(
        [
            ("casino", "--bankroll"),
            ("online", "--seed"),
            ("exchange", "--balance"),
            ("exchange", "--size"),
            ("exchange", "--games"),
            ("exchange", "--spread"),
            ("vinte", "--bots"),
            ("vinte", "--stack"),
            ("vinte", "--name"),
            ("vinte", "--banker"),
        ]
    ),
    value=hostile_words,
)
def test_fuzz_every_play_option_follows_the_contract(option: tuple[str, str], value: str) -> None:
    game, name = option
    if value.startswith("-") and value != "-":
        value = " " + value  # a value, not an option
    result = CliRunner().invoke(cli, ["play", game, name, value], input="q\n")
    assert result.exit_code in (0, 2), (result.output, result.exception)
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("twentyone: error:")
