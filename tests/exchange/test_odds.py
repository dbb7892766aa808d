"""Exact odds: internal consistency, exact against float, compiled kernel against exact walk."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from twentyone.analysis.exchange import odds as odds_module
from twentyone.analysis.exchange.odds import exchange_odds, player_model
from twentyone.analysis.exchange.playouts import PlayerModel, shared_model
from twentyone.analysis.exchange.unique_kernel import player_options, unique_probability_fast
from twentyone.analysis.exchange.uniqueness import full_deck, unique_probability
from twentyone.exchange.certainty import all_decided, decided_result
from twentyone.exchange.dealer import dealer_reachable
from twentyone.exchange.game import ExchangeGame
from twentyone.exchange.hands import EMPTY, VALUES, add_card
from twentyone.exchange.selections import PLAYER_SELECTIONS, SELECTIONS
from twentyone.exchange.state import ExchangeState
from twentyone.randomness import SeededRandomSource
from twentyone.shoe import InfiniteShoe


def _states_of_random_games(seeds: range) -> list[ExchangeState]:
    states = []
    for seed in seeds:
        game = ExchangeGame(InfiniteShoe(SeededRandomSource(1000 + seed)))
        while not game.over:
            game.end_round()
            states.append(game.state())
    return states


# States after the players have drawn (the exact walk for "All cards unique" before they draw
# can take seconds with Fractions; those are checked on chosen states below).
STATES = [s for s in _states_of_random_games(range(12)) if s.played]


def test_no_hand_is_decided_before_the_players_draw() -> None:
    """So the game never ends at the first reveal (the odds of round 1 rely on it)."""
    model = player_model()
    for up in VALUES:
        reach = dealer_reachable(add_card(EMPTY, up))
        for first in VALUES:
            for second in VALUES:
                hand = add_card(add_card(EMPTY, first), second)
                assert decided_result(model.reachable(hand, up), reach) is None


@pytest.mark.parametrize("index", range(len(STATES)))
def test_exact_and_float_agree_and_sum_to_one(index: int) -> None:
    state = STATES[index]
    exact = exchange_odds(state, exact=True)
    fast = exchange_odds(state)
    assert list(exact) == list(SELECTIONS)
    for name in SELECTIONS:
        e, f = exact[name], fast[name]
        assert e is not None and f is not None
        assert e.win + e.tie + e.lose == 1
        assert all(isinstance(e[k], Fraction) and 0 <= e[k] <= 1 for k in ("win", "tie", "lose"))
        for key in ("win", "tie", "lose"):
            assert f[key] == pytest.approx(float(e[key]), abs=1e-12)
        if name not in PLAYER_SELECTIONS:
            assert e.tie == 0


def test_fair_prices() -> None:
    odds = exchange_odds(STATES[0], exact=True)
    for name in SELECTIONS:
        o = odds[name]
        assert o is not None
        chance = o.win + o.tie / 2
        assert o.fair_price == (None if chance == 0 else 1 / chance)


def _unique_case(data: dict[str, Any]) -> tuple[float, Fraction]:
    state = ExchangeState.from_json(data)
    model = player_model()
    available = full_deck()
    for card in state.shown:
        available[card.value - 1] -= 1
    hands = state.player_states()
    options = player_options(model, hands, state.played, state.up_value)
    fast = unique_probability_fast(options, state.dealer_state(), available)
    exact = unique_probability(
        model, hands, state.played, state.up_value, state.dealer_state(), available, Fraction
    )
    return fast, exact


@pytest.mark.parametrize(
    "data",
    [
        {
            "players": [["TS", "TD"], ["TH", "9S"], ["QS", "8D"], ["TC", "2H"]],
            "dealer": ["KS"],
            "played": False,
        },
        {
            "players": [["TS", "9D"], ["AH", "9S"], ["7S", "QD"], ["JC", "8H"]],
            "dealer": ["6S"],
            "played": False,
        },
        {
            "players": [["TS", "6H", "TC"], ["9D", "9C"], ["AS", "KD"], ["5C", "2H", "TD"]],
            "dealer": ["7C"],
            "played": True,
        },
        {
            "players": [["TS", "6H", "TC"], ["9D", "9C"], ["AS", "KD"], ["5C", "2H", "TD"]],
            "dealer": ["2C", "3C", "2D"],
            "played": True,
        },
    ],
)
def test_compiled_kernel_matches_the_exact_walk(data: dict[str, Any]) -> None:
    fast, exact = _unique_case(data)
    assert 0 < exact < 1
    assert fast == pytest.approx(float(exact), rel=1e-12)


def test_a_finished_game_has_certain_odds() -> None:
    state = ExchangeState.from_json(
        {
            "players": [
                ["TS", "6H", "TC"],
                ["TD", "5D", "QD"],
                ["9S", "3S", "TH"],
                ["8C", "4C", "JC"],
            ],
            "dealer": ["7C"],
            "played": True,
        }
    )
    odds = exchange_odds(state, exact=True)
    assert [(o.win, o.tie, o.lose) for o in odds.values() if o is not None] == [(0, 0, 1)] * 4 + [
        (1, 0, 0),
        (0, 0, 1),
        (1, 0, 0),
        (0, 0, 1),
    ]


def test_before_round_one_all_cards_unique_comes_from_the_generated_figure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    start = ExchangeState.from_json({"players": [[], [], [], []], "dealer": [], "played": False})
    monkeypatch.setattr(odds_module, "stored_start_unique", lambda table: None)
    odds = exchange_odds(start)
    assert odds["All cards unique"] is None  # not generated: not offered
    assert all(odds[name] is not None for name in SELECTIONS if name != "All cards unique")
    figure = Fraction(1676, 10000)
    monkeypatch.setattr(odds_module, "stored_start_unique", lambda table: figure)
    exact = exchange_odds(start, exact=True)["All cards unique"]
    assert exact is not None
    assert (exact.win, exact.tie, exact.lose) == (figure, 0, 1 - figure)
    assert exact.fair_price == 1 / figure


def test_the_shared_model_is_warm_and_equal_to_a_cold_one() -> None:
    """Every (two-card hand, up card) play-out is computed when the shared model is built,
    and equals what a fresh model computes on demand (the float odds use these exact lists).
    """
    from twentyone.analysis.exchange.playouts import TWO_CARD_STATES, PlayerModel

    warm = player_model()
    cold = PlayerModel(warm.table)
    for up in VALUES:
        for hand in TWO_CARD_STATES:
            assert (hand, up) in warm._draws and (hand, up) in warm._finals
        for hand in TWO_CARD_STATES[::5]:
            assert warm.draws(hand, up) == cold.draws(hand, up)
            assert warm.finals(hand, up) == cold.finals(hand, up)


def test_is_over_uses_the_shared_model_and_matches_a_fresh_one() -> None:
    model = player_model()
    assert shared_model(model.table) is model  # pricing and is_over share play-outs
    fresh = PlayerModel(model.table)
    checked = 0
    for seed in range(40):
        game = ExchangeGame(InfiniteShoe(SeededRandomSource(9100 + seed)))
        while True:
            state = game.state()
            expected = state.started and (
                all_decided(
                    [fresh.reachable(s, state.up_value) for s in state.player_states()],
                    dealer_reachable(state.dealer_state()),
                )
                if not state.played
                else state.is_over(model.table)
            )
            assert state.is_over(model.table) == expected
            checked += 1
            if game.open_round is None:
                break
            game.end_round()
    assert checked >= 80
