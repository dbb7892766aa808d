"""The game as a state machine: the seed's sentences as scenarios, and invariants of random games."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from twentyone.analysis.exchange.odds import exchange_odds
from twentyone.cards import parse_cards
from twentyone.errors import IllegalActionError, ScenarioError, ShoeExhaustedError
from twentyone.exchange.game import ExchangeGame
from twentyone.exchange.scenario import run_exchange_scenario
from twentyone.exchange.selections import SELECTIONS, Outcome
from twentyone.randomness import SeededRandomSource
from twentyone.shoe import InfiniteShoe, ScriptedShoe

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return data


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    data = _load(path)
    out = run_exchange_scenario(data["scenario"])
    expect = data["expect"]
    assert out["selections"] == expect["selections"]
    assert out["rounds"] == expect["rounds"]
    assert out["hands"]["Dealer"]["cards"] == expect["dealer"]


def test_all_bust_game_never_shows_the_dealers_second_card() -> None:
    out = run_exchange_scenario(_load(SCENARIOS[0])["scenario"])
    assert out["hands"]["Dealer"]["cards"] == ["7C"]
    assert [e["kind"] for e in out["events"]] == ["reveal", "reveal", "settle", "end"]


def test_scenario_errors_are_typed_and_say_what() -> None:
    base = _load(SCENARIOS[0])["scenario"]
    # Cards never reached are the rest of the shoe: the game replays the same.
    longer = run_exchange_scenario({**base, "cards": [*base["cards"], "2S"]})
    assert longer == run_exchange_scenario(base)
    with pytest.raises(ScenarioError, match="ran out"):
        run_exchange_scenario({**base, "cards": base["cards"][:10]})
    with pytest.raises(ScenarioError, match="unknown card"):
        run_exchange_scenario({**base, "cards": ["ZZ", *base["cards"][1:]]})
    with pytest.raises(ScenarioError, match="only game, cards and rules"):
        run_exchange_scenario({**base, "boxes": []})
    with pytest.raises(ScenarioError, match="override only decks"):
        run_exchange_scenario({**base, "rules": {"max_hands": 2}})
    with pytest.raises(ScenarioError, match="1-deck shoe"):
        run_exchange_scenario({**base, "cards": ["6H", *base["cards"][1:]], "rules": {"decks": 1}})
    with pytest.raises(ScenarioError, match='"game": "exchange"'):
        run_exchange_scenario({**base, "game": "casino"})


def test_ending_a_finished_game_is_refused() -> None:
    game = ExchangeGame(ScriptedShoe(parse_cards(_load(SCENARIOS[0])["scenario"]["cards"])))
    game.play_out()
    with pytest.raises(IllegalActionError, match="game is over"):
        game.end_round()


def test_a_short_shoe_raises() -> None:
    game = ExchangeGame(ScriptedShoe(parse_cards("TS 6H")))
    with pytest.raises(ShoeExhaustedError):
        game.end_round()


@pytest.mark.parametrize("seed", range(40))
def test_random_games_settle_everything_consistently(seed: int) -> None:
    """Every selection settles once, at or before the last round, and agrees with the cards.

    Early settlements must be certain: the exact probability of the outcome was 1 when the
    selection settled (checked against the exact odds of the state at that moment).
    """
    game = ExchangeGame(InfiniteShoe(SeededRandomSource(seed)))
    states = {0: game.state()}
    while not game.over:
        closing = game.open_round
        game.end_round()
        assert closing is not None
        states[closing] = game.state()
    last = max(states)
    assert set(game.settlements) == set(SELECTIONS)
    for name, settlement in game.settlements.items():
        assert 1 <= settlement.settled_after_round <= last
        if settlement.settled_after_round < last:
            state = states[settlement.settled_after_round]
            odds = exchange_odds(state, exact=False)[name]
            assert odds is not None
            key = {"winner": "win", "tied": "tie", "loser": "lose"}[settlement.outcome.value]
            assert odds[key] == pytest.approx(1.0, abs=1e-12)
        if settlement.outcome is Outcome.TIED:
            assert name.startswith("Player")
    # Only cards turned count, and the game stops as soon as every player hand is decided.
    assert len(game.dealer) >= 1
