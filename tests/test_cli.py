"""The command line: exit codes, one-line errors, JSON output, the terminal table."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

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
