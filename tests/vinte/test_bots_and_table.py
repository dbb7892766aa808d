"""Bots decide from their own view only; the runner; the terminal command."""

from __future__ import annotations

from dataclasses import replace

import pytest
from click.testing import CliRunner

from twentyone.analysis.vinte.bots import Bot, HeuristicBot, RandomBot, VinteBot
from twentyone.cards import parse_cards
from twentyone.errors import ScenarioError
from twentyone.randomness import SeededRandomSource
from twentyone.tables.vinte import play_match
from twentyone.vinte.errors import VinteActionError
from twentyone.vinte.game import (
    Action,
    Bet,
    Call,
    Draw,
    Hit,
    Phase,
    Stand,
    apply,
    deal,
    new_match,
)
from twentyone.vinte.scenario import run_vinte_scenario
from twentyone.vinte.settings import SeatSpec, VinteSettings, VinteTable
from twentyone.vinte.views import SeatView, view_for


def test_a_bot_sees_only_its_view() -> None:
    """Two deals that differ only in cards seat 1 cannot see give seat 1 the same view
    and the same decision."""
    table = VinteTable.create(4, first_banker=0)
    one = deal(new_match(table), parse_cards("TS 9H 2D 5C 7S 8C"), 0.0)
    other = deal(new_match(table), parse_cards("TS 4H 3D KC 7S 8C"), 0.0)
    for state in (one, other):
        assert view_for(state, 1).hand(1).cards == (parse_cards("TS")[0],)
    assert view_for(one, 1).to_json() == view_for(other, 1).to_json()
    bot = VinteBot()
    assert bot.decide(view_for(one, 1)) == bot.decide(view_for(other, 1)) == Bet(1, 5)
    with pytest.raises(VinteActionError, match="own seat"):
        bot.decide(view_for(one, 0))  # the banker has nothing to decide while players bet


def test_the_unseen_cards_of_a_view() -> None:
    table = VinteTable.create(3, first_banker=0)
    state = deal(new_match(table), parse_cards("TS 9H 5D 6C 2S"), 0.0)
    state = apply(apply(state, Bet(1, 1), 0.0), Bet(2, 1), 0.0)
    unseen = view_for(state, 1).unseen()
    assert sum(unseen.values()) == 52 - 3  # his TS and 2S, the banker's 6C
    assert all(card in unseen for card in parse_cards("9H 5D"))  # hidden from him


def test_the_banker_bot_calls_a_sure_loser_and_draws_against_a_sure_winner() -> None:
    table = VinteTable.create(2, first_banker=0)
    # seat 1 stands on TS + 2H (12) against the banker's 10 + 9: a call wins for sure
    state = deal(new_match(table), parse_cards("TS TD 9C 2H"), 0.0)
    state = apply(apply(state, Bet(1, 5), 0.0), Stand(1), 0.0)
    assert VinteBot().decide(view_for(state, 0)) == Call(0, 1)
    # seat 1 shows 9 + T face up (so 20 or 21) against the banker's 2 + 3: a call loses
    # for sure, drawing may win
    state = deal(new_match(table), parse_cards("AS 2D 3C 9H TH"), 0.0)
    state = apply(apply(apply(state, Bet(1, 5), 0.0), Hit(1), 0.0), Stand(1), 0.0)
    assert state.phase is Phase.BANKER
    assert VinteBot().decide(view_for(state, 0)) == Draw(0)


def test_heuristic_and_random_bots_play_legally() -> None:
    table = VinteTable.create(4, bots=4, settings=VinteSettings(round_limit=6, starting_stack=15))
    source = SeededRandomSource(3)
    final = play_match(
        table,
        [HeuristicBot(), RandomBot(source), HeuristicBot(banker_draws_below=0), VinteBot()],
        source,
    )
    assert final.phase is Phase.OVER and final.total_chips() == 60


class JumpingClock:
    """Every decision's deadline has passed by the time anyone is asked."""

    def __init__(self) -> None:
        self.time = 0.0

    def now(self) -> float:
        self.time += 100.0
        return self.time


def test_away_seats_are_played_by_the_standard_bot() -> None:
    table = VinteTable.create(3, bots=3, settings=VinteSettings(round_limit=4))
    seen = []
    final = play_match(
        table,
        [HeuristicBot()] * 3,
        SeededRandomSource(5),
        clock=JumpingClock(),
        observe=lambda state: seen.append(any(s.away for s in state.seats)),
    )
    assert any(seen) and final.phase is Phase.OVER


def test_same_seed_same_match() -> None:
    table = VinteTable.create(4, bots=4, settings=VinteSettings(round_limit=5))
    agents: list[Bot] = [VinteBot(), HeuristicBot(), VinteBot(), HeuristicBot()]
    first = play_match(table, agents, SeededRandomSource(9))
    again = play_match(table, agents, SeededRandomSource(9))
    assert first == again


def test_disguised_bets_need_a_source_and_vary() -> None:
    with pytest.raises(VinteActionError, match="randomness source"):
        VinteBot(disguise_bets=0.5)
    table = VinteTable.create(2, first_banker=0)
    state = deal(new_match(table), parse_cards("AS 5D"), 0.0)
    bot = VinteBot(disguise_bets=1.0, source=SeededRandomSource(1))
    assert {bot.decide(view_for(state, 1)).chips for _ in range(40)} == {1, 2, 3, 4, 5}  # type: ignore[union-attr]


def test_reading_stands_changes_the_banker_bot() -> None:
    table = VinteTable.create(2, first_banker=0)
    # seat 1 stood on a face-up 7 after his second card; the banker holds 10 + 6 = 16
    state = deal(new_match(table), parse_cards("TS TD 6C 7H"), 0.0)
    state = apply(apply(state, Bet(1, 5), 0.0), Stand(1), 0.0)
    view = view_for(state, 0)
    assert VinteBot().decide(view) == Call(0, 1)  # uniform: 7 + hidden rarely beats 16
    assert VinteBot(read_stands=True).decide(view) == Draw(0)  # he stood: likely 17 or 18


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "JSON object"),
        ({"game": "casino", "table": {"seats": 2}, "rounds": []}, "not a vinte scenario"),
        ({"table": {"seats": 2}, "rounds": [], "oops": 1}, "unknown scenario key"),
        ({"table": {"seats": 2, "colour": 1}, "rounds": [{"cards": []}]}, "unknown table key"),
        ({"table": {"seats": 2}, "rounds": []}, "non-empty list of rounds"),
        ({"table": {"seats": 2}, "rounds": [{"cards": ["ZZ"]}]}, "unknown card"),
        (
            {"table": {"seats": 2}, "rounds": [{"cards": ["AS", "KD"], "actions": ["jump 1"]}]},
            "unknown action",
        ),
        (
            {"table": {"seats": 2}, "rounds": [{"cards": ["AS", "KD"], "actions": ["bet x 1"]}]},
            "not a whole number",
        ),
        (
            {"table": {"seats": 2, "player_21_pays_double": "yes"}, "rounds": [{"cards": []}]},
            "true or false",
        ),
        (
            {
                "table": {"seats": 2},
                "rounds": [
                    {"cards": ["AS", "KD", "2C", "3C"], "actions": ["bet 1 1"]},
                    {"cards": []},
                ],
            },
            "round 1 is not finished",
        ),
    ],
)
def test_malformed_scenarios(data: object, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        run_vinte_scenario(data)  # type: ignore[arg-type]


def test_terminal_game_is_reproducible_with_a_seed() -> None:
    from twentyone.cli.play_vinte import vinte

    answers = "3\ns\n" * 30 + "call 1\ncall 2\n" * 30
    args = ["--seed", "11", "--bots", "2", "--rounds", "3", "--banker", "1"]
    first = CliRunner().invoke(vinte, args, input=answers)
    again = CliRunner().invoke(vinte, args, input=answers)
    assert first.exit_code == 0, first.output
    assert first.output == again.output
    assert "round 3 --" in first.output and "the match is over" in first.output


def test_terminal_game_reports_bad_input_in_one_line() -> None:
    from twentyone.cli.play_vinte import vinte

    result = CliRunner().invoke(vinte, ["--bots", "7", "--stack", "10"])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "at least" in result.stderr
    assert "Traceback" not in result.output


def test_seat_swap_state_is_unchanged_on_error() -> None:
    table = VinteTable.create(2, first_banker=0)
    state = deal(new_match(table), parse_cards("TS 9H 5D 6C"), 0.0)
    before = replace(state)
    with pytest.raises(VinteActionError):
        apply(state, Bet(1, 9), 0.0)
    assert state == before


class _StandsOnThree:
    """The person of the terminal tests: bets 3 and stands (never the bank: --banker 1)."""

    def decide(self, view: SeatView) -> Action:
        return Bet(0, 3) if view.phase is Phase.BETTING else Stand(0)


def test_terminal_prints_every_result_before_the_next_deal() -> None:
    from twentyone.cli.play_vinte import describe_event, vinte
    from twentyone.tables.vinte import VinteRunner

    args = ["--seed", "11", "--bots", "2", "--rounds", "4", "--banker", "1", "--bank-rounds", "0"]
    result = CliRunner().invoke(vinte, args, input="3\ns\n" * 4)
    assert result.exit_code == 0, result.output
    # The same match through the runner: every line the player may see, in order.
    seats = (SeatSpec("You"), SeatSpec("Bot 1", bot=True), SeatSpec("Bot 2", bot=True))
    table = VinteTable(seats, settings=VinteSettings(round_limit=4, bank_rounds=0), first_banker=1)
    runner = VinteRunner(
        table,
        SeededRandomSource(11),
        {0: _StandsOnThree(), 1: VinteBot(read_stands=True), 2: VinteBot(read_stands=True)},
    )
    names = [seat.name for seat in seats]
    lines: list[str] = []
    runner.subscribe(
        lambda event: lines.append(describe_event(event.data.for_seat(0), names) or "")
    )
    runner.advance()
    position = 0
    for line in filter(None, lines):
        found = result.output.find(line, position)
        assert found >= 0, line  # the banker's calls and your own losing call included
        position = found + len(line)
    assert "call You:" in result.output and "the match is over" in result.output


def test_terminal_leave_at_the_bet_prompt_with_the_summary() -> None:
    from twentyone.cli.play_vinte import vinte

    for answers in ("q\n", ""):
        result = CliRunner().invoke(vinte, ["--seed", "3", "--banker", "1"], input=answers)
        assert result.exit_code == 0, result.output
        assert "Bet (1-5; q to leave)" in result.output
        assert "chips: You 50, Bot 1 50, Bot 2 50, Bot 3 50" in result.output
        assert result.output.rstrip().endswith(
            "You leave the match after 0 round(s) with 50 chips."
        )


def test_terminal_first_banker_is_drawn_only_when_not_given() -> None:
    from twentyone.cli.play_vinte import vinte

    given = CliRunner().invoke(vinte, ["--seed", "3", "--banker", "1"], input="q\n").output
    assert "Bot 1 holds the bank first." in given and "drawn" not in given
    mine = CliRunner().invoke(vinte, ["--seed", "3", "--banker", "0"], input="q\n").output
    assert "You hold the bank first." in mine
    drawn = CliRunner().invoke(vinte, ["--seed", "3"], input="q\n").output
    assert "drawn to hold the bank first." in drawn


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--name", ""], "--name must be 1 to 40 printable characters"),
        (["--name", "   "], "--name must be 1 to 40 printable characters"),
        (["--name", "bot 2"], "is a bot's name"),
        (["--name", "Bot 1", "--bots", "1"], "is a bot's name"),
        (["--name", "a\tb"], "printable"),
    ],
)
def test_terminal_refuses_a_missing_or_a_bots_name(args: list[str], message: str) -> None:
    from twentyone.cli.play_vinte import vinte

    result = CliRunner().invoke(vinte, args, input="q\n")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr
