"""The terminal tables' look: suits, totals, BJ/BUST, rebet, refusals, summary, rules, --record."""

from __future__ import annotations

import builtins
import json
import re
from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from twentyone.cards import parse_cards
from twentyone.cli.main import cli
from twentyone.cli.play_house import TerminalTable, record_file
from twentyone.cli.play_look import Look, total_label
from twentyone.presets import CASINO, ONLINE
from twentyone.randomness import SeededRandomSource
from twentyone.rules import Rules
from twentyone.shoe import ScriptedShoe
from twentyone.tables.house import HouseTable
from twentyone.tables.summary import SessionSummary, track_exchange, track_vinte

ANSI = re.compile(r"\x1b\[")


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def play_scripted(
    monkeypatch: pytest.MonkeyPatch,
    cards: str,
    answers: list[str],
    *,
    rules: Rules = CASINO,
    terminal: bool = False,
) -> tuple[str, TerminalTable]:
    """A terminal session on a scripted shoe, fed ``answers`` (then the end of input)."""
    feed: Iterator[str] = iter(answers)

    def fake_input(prompt: object = "") -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(builtins, "input", fake_input)
    out = StringIO()
    console = Console(
        file=out,
        width=120,
        highlight=False,
        force_terminal=terminal,
        color_system="standard" if terminal else None,
    )
    table = HouseTable.session(rules, ScriptedShoe(parse_cards(cards)), 1_000_00)
    terminal_table = TerminalTable(table, console)
    terminal_table.run()
    return out.getvalue(), terminal_table


# -- cards and totals ---------------------------------------------------------------------------


def test_cards_have_coloured_suit_symbols_on_a_terminal_and_plain_codes_elsewhere() -> None:
    cards = parse_cards("AS TH QD 2C")
    assert Look(symbols=False).cards(cards) == "AS TH QD 2C"
    assert Look(symbols=True).cards(cards) == "A♠ [red]10♥[/red] [red]Q♦[/red] 2♣"
    assert Look(symbols=True).card(None) == "??"
    assert Look(symbols=True).code("7C") == "7♣" and Look(symbols=True).code("x") == "x"
    terminal = Console(file=StringIO(), force_terminal=True)
    piped = Console(file=StringIO(), force_terminal=False)
    assert Look.for_console(terminal).symbols and not Look.for_console(piped).symbols


@pytest.mark.parametrize(
    ("cards", "natural", "label"),
    [
        ("AS 4D", False, "soft 15"),
        ("AS 4D TC", False, "15"),
        ("AS AD", False, "soft 12"),
        ("AS KD", True, "BJ"),
        ("AS KD", False, "soft 21"),  # a split ace's 21 is no blackjack
        ("TS 6D 8C", False, "BUST"),
        ("TS 7D", False, "17"),
    ],
)
def test_totals_say_soft_bj_and_bust(cards: str, natural: bool, label: str) -> None:
    assert total_label(parse_cards(cards), natural=natural) == label


def test_a_piped_table_has_no_colour_codes_and_plain_cards() -> None:
    code, out, _ = run("play", "casino", "--seed", "3", stdin="10\ns\ns\n")
    assert code == 0 and not ANSI.search(out)
    assert not any(symbol in out for symbol in "♠♥♦♣")
    assert re.search(r"│ [2-9TJQKA][SHDC] ", out)


def test_a_terminal_table_shows_red_suits(monkeypatch: pytest.MonkeyPatch) -> None:
    out, _ = play_scripted(monkeypatch, "AS 9D 4H 8C", ["10", "s"], terminal=True)
    assert "A♠" in out and "\x1b[31m4♥" in out and "\x1b[31m9♦" in out


def test_soft_total_marked(monkeypatch: pytest.MonkeyPatch) -> None:
    # Box AS 4H against the dealer's 9D: soft 15; standing, the dealer makes 17 with 8C.
    out, _ = play_scripted(monkeypatch, "AS 9D 4H 8C", ["10", "s"])
    assert "│ AS 4H │ soft 15 │" in out
    assert "Box 1 (A,4 = soft 15): (h)it (s)tand (d)ouble su(r)render?" in out
    assert "│ 9D 8C │      17 │" in out
    assert "lose -10.00" in out


def test_dealer_and_player_blackjacks_are_bj_and_a_bust_is_bust(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Round 1: the dealer's ace-king (no hole card at the casino: drawn after the boxes).
    # Round 2: the player's ace-king. Round 3: 10 + 6 + 9 busts.
    # (The dealer's 9 cannot make a blackjack: against a natural he draws no second card.)
    cards = "TS AD 9C KH" + " AS 9D KH" + " TS 9D 6H 9C 8S"
    answers = ["10", "0", "s", "", "", "h"]
    out, terminal = play_scripted(monkeypatch, cards, answers)
    assert re.search(r"│ dealer +│ AD KH +│ +BJ │", out)
    assert re.search(r"│ +box 1 │ AS KH +│ +BJ │ 10.00 │ blackjack \+15.00", out)
    assert re.search(r"│ +box 1 │ TS 6H 9C │ +BUST │ 10.00 │ bust -10.00", out)
    summary = terminal.summary
    assert (summary.rounds, summary.won, summary.lost, summary.pushed) == (3, 1, 2, 0)
    assert (summary.net, summary.biggest_win) == (-5_00, 15_00)


# -- the bet prompt and refusals ----------------------------------------------------------------


def test_enter_rebets_and_x2_doubles_the_bet(monkeypatch: pytest.MonkeyPatch) -> None:
    # Three rounds of TS 8H (18) against 9D 8S (17): won every time.
    out, terminal = play_scripted(monkeypatch, "TS 9D 8H 8S " * 3, ["10", "s", "", "s", "x2", "s"])
    assert "[Enter: rebet 10.00, x2: 20.00]" in out
    stakes = re.findall(r"│ (\d+\.\d\d) │ win", out)
    assert stakes == ["10.00", "10.00", "20.00"]
    summary = terminal.summary
    assert (summary.rounds, summary.won, summary.net, summary.biggest_win) == (3, 3, 40_00, 20_00)
    assert "Session summary" in out and "+40.00" in out


def test_x2_more_than_the_bankroll_is_refused_and_asked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out, _ = play_scripted(monkeypatch, "TS 9D 8H 8S", ["10", "s", "x2 x2", "600 600"])
    assert "'x2' is not an amount" in out


def test_an_unavailable_action_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    # 10 + 2 = 12, hit 3 = 15: no double on three cards, no split of a non-pair.
    out, _ = play_scripted(monkeypatch, "TS 9D 2H 3C 8S", ["10", "p", "h", "d", "double", "s"])
    assert "split: this hand holds TS 2H; only cards of equal value split" in out
    assert out.count("double: this hand has 3 cards; double needs the first two") == 2


def test_online_says_surrender_is_not_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    out, _ = play_scripted(monkeypatch, "TS 9D 6H 8S", ["10", "r", "s"], rules=ONLINE)
    assert re.search(r"surrender: .*surrender", out)
    assert "choose one of" not in out


def test_a_word_that_is_no_action_lists_the_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    out, _ = play_scripted(monkeypatch, "TS 9D 6H 8S", ["10", "zz", "s"])
    assert "choose one of: (h)it (s)tand (d)ouble su(r)render" in out


# -- rule options -------------------------------------------------------------------------------


def test_rule_options_change_the_table() -> None:
    code, out, _ = run(
        "play", "casino", "--seed", "1", "--decks", "1", "--h17", "--bj-pays", "6:5", stdin="q\n"
    )
    assert code == 0, out
    flat = " ".join(out.split())
    assert "1 deck" in flat and "dealer hits soft 17" in flat and "blackjack pays 6:5" in flat
    code, out, _ = run("play", "online", "--surrender", "late", stdin="q\n")
    assert code == 0 and "late surrender" in " ".join(out.split())


@pytest.mark.parametrize(
    "args",
    [
        ("--bj-pays", "lots"),
        ("--decks", "0"),
        ("--preset", "online"),  # the command names the game
        ("--double", "sometimes"),
    ],
)
def test_bad_rule_options_are_one_line_errors(args: tuple[str, ...]) -> None:
    code, out, err = run("play", "casino", *args, stdin="q\n")
    assert code == 2 and out == "", (out, err)
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_seeded_session_with_rule_options_is_reproducible() -> None:
    args = ("play", "casino", "--seed", "9", "--decks", "2", "--h17", "--double", "10-11")
    stdin = "10 10\ns\ns\ns\ns\n\ns\ns\ns\ns\nx2\ns\ns\ns\ns\n"
    first, again = run(*args, stdin=stdin), run(*args, stdin=stdin)
    assert first == again and first[0] == 0 and "Session summary" in first[1]


# -- --record and replay ------------------------------------------------------------------------


def test_record_file_names_number_each_round() -> None:
    assert record_file(Path("out/hands.json"), 3) == Path("out/hands-3.json")
    assert record_file(Path("hands"), 1) == Path("hands-1.json")


@pytest.mark.parametrize(
    ("game", "options"),
    [("casino", ("--decks", "2", "--h17")), ("online", ()), ("casino", ("--bj-pays", "6:5"))],
)
def test_recorded_rounds_replay_to_the_same_results(
    tmp_path: Path, game: str, options: tuple[str, ...]
) -> None:
    target = tmp_path / "session.json"
    stdin = "10 5\n" + "h\ns\n" * 6 + "\n" + "d\ns\n" * 6 + "x2\n" + "p\ns\n" * 8 + "\n" * 3
    stdin = stdin.replace("10 5", "10") if game == "online" else stdin
    code, out, _ = run("play", game, "--seed", "21", *options, "--record", str(target), stdin=stdin)
    assert code == 0, out
    nets = [
        round(float(value.replace(",", "")) * 100)
        for value in re.findall(r"Round: (-?[\d,]+\.\d\d)", out)
    ]
    assert len(nets) >= 3
    for number, net in enumerate(nets, start=1):
        path = record_file(target, number)
        assert f"recorded round {number} to {path}" in " ".join(out.split())
        scenario = json.loads(path.read_text())
        assert scenario["game"] == game
        code, replayed, err = run("replay", str(path), "--json")
        assert code == 0, err
        assert sum(box["net"] for box in json.loads(replayed)["boxes"]) == net
    assert not record_file(target, len(nets) + 1).exists()


def test_record_into_a_missing_folder_is_refused(tmp_path: Path) -> None:
    code, out, err = run("play", "casino", "--record", str(tmp_path / "no" / "x.json"), stdin="q\n")
    assert code == 2 and "--record" in err and out == ""


# -- summaries of the other games ---------------------------------------------------------------


def test_vinte_summary_counts_the_players_rounds() -> None:
    from twentyone.analysis.vinte.bots import VinteBot
    from twentyone.tables.vinte import VinteRunner
    from twentyone.vinte.settings import VinteSettings, VinteTable

    table = VinteTable.create(3, bots=3, settings=VinteSettings(round_limit=8))
    runner = VinteRunner(table, SeededRandomSource(4), {s: VinteBot() for s in range(3)})
    summary = track_vinte(runner, 0)
    runner.advance()
    assert summary.rounds == runner.state.rounds_played == 8
    assert summary.won + summary.lost + summary.pushed == 8
    assert summary.net == runner.state.seats[0].stack - 50


def test_exchange_summary_is_the_balance_change_by_game() -> None:
    from twentyone.tables.exchange import ExchangeRunner

    runner = ExchangeRunner.practice(SeededRandomSource(3), "you", 100_00, bots=False)
    summary = track_exchange(runner, "you")
    for _ in range(2):
        table = runner.start_game()
        runner.place("you", "Player 1", "back", "2.06", 10_00)
        runner.play_out()
        assert table.over
    assert summary.unit == "games" and summary.rounds == 2
    assert summary.net == runner.ledger.balance("you") - 100_00


def test_every_game_ends_with_the_summary() -> None:
    for args, stdin in (
        (("play", "online", "--seed", "3"), "10\ns\n"),
        (("play", "vinte", "--seed", "3", "--banker", "1"), "3\ns\n"),
        (("play", "exchange", "--seed", "3", "--no-bots"), "\n"),
    ):
        code, out, _ = run(*args, stdin=stdin)
        assert code == 0 and "Session summary" in out, out
        assert not ANSI.search(out) and not any(symbol in out for symbol in "♠♥♦♣")
        assert re.search(r"rounds|games", out.split("Session summary")[1])


def test_summary_starts_empty() -> None:
    summary = SessionSummary()
    assert (summary.rounds, summary.net, summary.biggest_win) == (0, 0, 0)
