"""Simulation cross-check: a million games at the start and a million over later states.

Every selection's win (and, for player hands, tie) frequency must lie within 4 standard
errors of the exact odds. Seeds are fixed, so the test is deterministic.
"""

from __future__ import annotations

import math

import pytest

from twentyone.analysis.exchange.odds import exchange_odds
from twentyone.analysis.exchange.simulate import simulate
from twentyone.exchange.game import ExchangeGame
from twentyone.exchange.selections import ALL_UNIQUE, PLAYER_SELECTIONS, SELECTIONS
from twentyone.exchange.state import ExchangeState
from twentyone.randomness import SeededRandomSource
from twentyone.shoe import InfiniteShoe


def _check(state: ExchangeState, games: int, seed: int) -> None:
    exact = exchange_odds(state)
    counts = simulate(state, games, seed)
    for name in SELECTIONS:
        odds = exact[name]
        if odds is None:
            continue
        keys = ("win", "tie") if name in PLAYER_SELECTIONS else ("win",)
        for key in keys:
            p = float(odds[key])
            observed = counts.frequency(name, key)
            if p in (0.0, 1.0):
                assert observed == p, (name, key)
                continue
            error = math.sqrt(p * (1 - p) / games)
            assert abs(observed - p) < 4 * error, (name, key, p, observed)


def test_a_million_games_from_the_start() -> None:
    _check(
        ExchangeState.from_json({"players": [[], [], [], []], "dealer": [], "played": False}),
        1_000_000,
        11,
    )


def _later_states() -> list[ExchangeState]:
    """States from every round of some seeded games, the game still running."""
    states = []
    for seed in range(60):
        game = ExchangeGame(InfiniteShoe(SeededRandomSource(500 + seed)))
        game.end_round()
        while not game.over:
            states.append(game.state())
            game.end_round()
    by_round: dict[int, list[ExchangeState]] = {}
    for state in states:
        key = 2 if not state.played else 2 + len(state.dealer)
        by_round.setdefault(key, []).append(state)
    chosen = []
    for key in sorted(by_round):
        chosen += by_round[key][:2]
    return chosen


LATER = _later_states()


def test_later_states_cover_every_round() -> None:
    rounds = {2 if not s.played else 2 + len(s.dealer) for s in LATER}
    assert rounds == {2, 3, 4, 5, 6}


@pytest.mark.parametrize("index", range(len(LATER)))
def test_later_states(index: int) -> None:
    # A million games in all, shared between the sampled states.
    _check(LATER[index], 1_000_000 // len(LATER) + 1, 100 + index)


def test_all_cards_unique_is_simulated_too() -> None:
    counts = simulate(LATER[0], 1000, 1)
    assert sum(counts.counts[ALL_UNIQUE]) == 1000
