"""Round timing on an injected clock (the table runner's windows), and ``twentyone exchange odds``."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from twentyone.cli.main import cli
from twentyone.clock import ManualClock
from twentyone.errors import InvalidRulesError
from twentyone.exchange.schedule import STANDARD, TURBO, RoundSchedule
from twentyone.exchange.selections import SELECTIONS
from twentyone.ledger import Ledger
from twentyone.randomness import SeededRandomSource
from twentyone.shoe import InfiniteShoe
from twentyone.tables.exchange import ExchangeRunner, WindowTimer


def test_round_lengths() -> None:
    assert [STANDARD.length(r) for r in range(1, 7)] == [30.0] + [25.0] * 5
    assert [TURBO.length(r) for r in (1, 2)] == [22.0, 18.0]
    assert STANDARD.pause == 3.0
    with pytest.raises(InvalidRulesError, match="rounds 1 to 6"):
        STANDARD.length(7)
    with pytest.raises(InvalidRulesError, match="pause must be"):
        RoundSchedule(30, 25, pause=-1)
    with pytest.raises(InvalidRulesError, match="longer than 0"):
        RoundSchedule(0, 25)


def test_timer_progress() -> None:
    clock = ManualClock(100.0)
    timer = WindowTimer(TURBO, clock)
    timer.open(2)
    clock.advance(9.0)
    assert timer.progress() == pytest.approx(0.5)
    assert not timer.expired()
    clock.advance(9.0)
    assert timer.expired() and timer.remaining() == 0.0


@pytest.mark.parametrize("seed", range(5))
def test_a_whole_game_runs_on_a_manual_clock(seed: int) -> None:
    clock = ManualClock()
    source = SeededRandomSource(seed)
    loop = ExchangeRunner(
        Ledger(), lambda _: InfiniteShoe(source), clock=clock, fair_price_source=lambda _: {}
    )
    closed_at: list[float] = []
    loop.subscribe(
        lambda event: closed_at.append(clock.now()) if event.kind == "window-closed" else None
    )
    loop.start_game()
    while not loop.finished:
        loop.tick()
        clock.advance(0.5)
    game = loop.current().game
    rounds = len(closed_at)
    # Round 1 closes at 30 s; each later round opens after the 3 s pause and lasts 25 s.
    assert closed_at == [30.0 + k * 28.0 for k in range(rounds)]
    assert set(game.settlements) == set(SELECTIONS)


STATE = {
    "players": [["TS", "6H", "TC"], ["9D", "9C"], ["AS", "KD"], ["5C", "2H", "TD"]],
    "dealer": ["7C"],
    "played": True,
}


def test_cli_odds_json() -> None:
    result = CliRunner().invoke(cli, ["exchange", "odds", "--json", "-"], input=json.dumps(STATE))
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert list(out["selections"]) == list(SELECTIONS)
    p2 = out["selections"]["Player 2"]
    assert p2["win"] + p2["tie"] + p2["lose"] == pytest.approx(1.0)
    assert p2["fair_price"] == pytest.approx(1 / (p2["win"] + p2["tie"] / 2))
    assert out["selections"]["Player 1"]["fair_price"] is None


def test_cli_odds_exact_and_text() -> None:
    result = CliRunner().invoke(
        cli, ["exchange", "odds", "--exact", "--json", "-"], input=json.dumps(STATE)
    )
    assert result.exit_code == 0, result.output
    exact = json.loads(result.output)["selections"]["Player 3"]["exact"]
    assert exact["tie"] == "0"
    text = CliRunner().invoke(cli, ["exchange", "odds", "-"], input=json.dumps(STATE))
    assert text.exit_code == 0 and "Only one has 21pts" in text.output


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ("{not json", "not valid JSON"),
        (json.dumps({**STATE, "dealer": ["7C", "KD", "2C"]}), "dealer stands at card 2"),
        (json.dumps({**STATE, "players": [[]]}), "exactly 4 player hands"),
    ],
)
def test_cli_bad_input_exits_2_with_one_line(payload: str, message: str) -> None:
    result = CliRunner().invoke(cli, ["exchange", "odds", "-"], input=payload)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_cli_missing_file() -> None:
    result = CliRunner().invoke(cli, ["exchange", "odds", "/nonexistent/state.json"])
    assert result.exit_code == 2
    assert "cannot read state file" in result.output
