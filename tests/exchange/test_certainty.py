"""Early settlement by exact set reasoning, checked against the exact odds; decided odds exact.

The game decides what is certain with :func:`twentyone.exchange.certainty.certain_outcomes`
(sets of reachable final codes, pure Python). Before, it settled a selection when its exact
``Fraction`` probability from the odds was 1; that rule is kept here as the reference
(:func:`_certain_by_the_odds`) and the two must agree on every state of many seeded games,
from decks biased towards long hands, five-card hands and 21s, and of the scenario files.

Issue 12 D12: a decided selection's float odds used to miss 0 and 1 by rounding
(``win = -2.2e-16``, ``fair_price = -4503599627370496.0``); now every decided selection reports
exactly 0 and 1 and no fair price.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twentyone.analysis.exchange.odds import (
    exchange_odds,
    exchange_odds_without_unique,
    player_model,
)
from twentyone.cards import DECK, Card, parse_cards
from twentyone.exchange.certainty import certain_outcomes
from twentyone.exchange.game import ExchangeGame
from twentyone.exchange.selections import ALL_UNIQUE, PLAYER_SELECTIONS, SELECTIONS, Outcome
from twentyone.exchange.state import ExchangeState
from twentyone.shoe import ScriptedShoe

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))

#: Decks that make the rare cases common: small cards (five-card hands), tens and aces (21s).
DECKS: dict[str, list[Card]] = {
    "full": list(DECK),
    "small": [card for card in DECK if card.value <= 6],
    "small_and_tens": [card for card in DECK if card.value <= 6 or card.value == 10],
    "aces_fives_tens": [card for card in DECK if card.value in (1, 5, 10)],
}

#: The state of issue 12 D12 ("One or more has 5 cards" is decided: nobody can reach five cards).
D12_STATE = {
    "players": [["QH", "8S"], ["QS", "7D"], ["3D", "7H", "3S", "5S"], ["2C", "KH", "5S"]],
    "dealer": ["QD", "5S"],
    "played": True,
}


def _certain_by_the_odds(state: ExchangeState) -> dict[str, Outcome]:
    """The previous rule: a selection is certain when its exact probability is 1."""
    model = player_model()
    state.validate(model.table)
    if not state.started:
        return {}
    out: dict[str, Outcome] = {}
    for name, odds in exchange_odds_without_unique(state, model).items():
        if odds.win == 1:
            out[name] = Outcome.WINNER
        elif odds.lose == 1:
            out[name] = Outcome.LOSER
        elif odds.tie == 1 and name in PLAYER_SELECTIONS:
            out[name] = Outcome.TIED
    shown = state.shown
    if len(set(shown)) < len(shown):
        out[ALL_UNIQUE] = Outcome.LOSER
    elif state.is_over(model.table):
        out[ALL_UNIQUE] = Outcome.WINNER
    return out


def _states(cards: list[Card]) -> list[ExchangeState]:
    """Every state a game on these cards shows (one per betting round, and the end)."""
    game = ExchangeGame(ScriptedShoe(cards))
    states = [game.state()]
    while not game.is_over:
        game.end_round()
        states.append(game.state())
    return states


def _random_cards(deck: list[Card], seed: int) -> list[Card]:
    rng = random.Random(seed)
    return [rng.choice(deck) for _ in range(25)]


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_set_reasoning_agrees_with_the_exact_odds(deck: str) -> None:
    checked = settled = 0
    for seed in range(40):
        for state in _states(_random_cards(DECKS[deck], seed)):
            expected = _certain_by_the_odds(state)
            assert certain_outcomes(state) == expected, state.to_json()
            checked += 1
            settled += len(expected)
    assert checked >= 120 and settled >= 200


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_set_reasoning_agrees_with_the_exact_odds_on_the_scenarios(path: Path) -> None:
    cards = parse_cards(json.loads(path.read_text("utf-8"))["scenario"]["cards"])
    for state in _states(cards):
        assert certain_outcomes(state) == _certain_by_the_odds(state), state.to_json()


def test_the_d12_state_reports_exact_figures_and_no_fair_price() -> None:
    state = ExchangeState.from_json(D12_STATE)
    five = exchange_odds(state)["One or more has 5 cards"]
    assert five is not None and five.decided
    assert (five.win, five.tie, five.lose) == (0.0, 0.0, 1.0)
    assert five.fair_price is None
    assert five.to_json() == {
        "win": 0.0,
        "tie": 0.0,
        "lose": 1.0,
        "fair_price": None,
        "decided": True,
    }
    exact = exchange_odds(state, exact=True)["One or more has 5 cards"]
    assert exact is not None and (exact.win, exact.lose) == (Fraction(0), Fraction(1))
    player = exchange_odds(state)["Player 1"]
    assert player is not None and not player.decided and player.fair_price is not None


def _check_figures(state: ExchangeState) -> int:
    """Every figure in [0, 1]; decided ones exactly 0/1 with no fair price. Returns decided."""
    decided = certain_outcomes(state)
    odds = exchange_odds(state)
    for name in SELECTIONS:
        figures = odds[name]
        if figures is None:  # "All cards unique" before round 1 without the data file
            continue
        values = (figures.win, figures.tie, figures.lose)
        assert all(0.0 <= value <= 1.0 for value in values), (name, values, state.to_json())
        assert figures.decided == (name in decided)
        if figures.decided:
            outcome = decided[name]
            assert values == (
                float(outcome is Outcome.WINNER),
                float(outcome is Outcome.TIED),
                float(outcome is Outcome.LOSER),
            )
            assert figures.fair_price is None and figures.to_json()["fair_price"] is None
        else:
            assert max(values) < 1.0
            price = figures.fair_price
            assert (price is None) == (figures.win + figures.tie == 0)
            assert price is None or price >= 1.0
    return len(decided)


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_decided_selections_report_exact_figures_on_a_seeded_sweep(deck: str) -> None:
    decided = 0
    for seed in range(25):
        for state in _states(_random_cards(DECKS[deck], 500 + seed)):
            if state.started and not state.played and deck != "full":
                continue  # round 2 with many small cards: the slow "All cards unique" walk
            decided += _check_figures(state)
    assert decided >= 100


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(DECKS["small_and_tens"]), min_size=25, max_size=25))
def test_decided_selections_report_exact_figures_on_hypothesis_games(cards: list[Card]) -> None:
    for state in _states(cards):
        if state.played:  # after the players draw: the odds are fast
            _check_figures(state)
