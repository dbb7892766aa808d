"""The exact start-of-game machinery for "All cards unique" (modular walk, reconstruction).

The full figure takes 40 walks of minutes each (``python -m twentyone.analysis.exchange.start_unique``);
these tests check the same code on games with fewer player hands against the exact Fraction
walk and the float kernel.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from twentyone.analysis.exchange.odds import exchange_odds, player_model
from twentyone.analysis.exchange.start_unique import (
    PRIMES,
    StartUniqueError,
    combine_walks,
    from_residues,
    start_options,
    stored_data,
    stored_start_unique,
    stored_walks,
    table_fingerprint,
    walk_residue,
)
from twentyone.analysis.exchange.unique_kernel import unique_probability_fast
from twentyone.analysis.exchange.uniqueness import _combine, _finish, dealer_entries, decided_masks
from twentyone.exchange.hands import CARDS_WITH_VALUE, EMPTY, VALUES, add_card
from twentyone.exchange.logic_table import load_logic_table
from twentyone.exchange.state import ExchangeState

UP = 10


def _available() -> list[int]:
    available = [CARDS_WITH_VALUE[v] for v in VALUES]
    available[UP - 1] -= 1
    return available


def test_reconstruction_is_exact_and_checked() -> None:
    numerator = 987654321987654321987654321
    residues = [numerator % q for q in PRIMES]
    assert from_residues(residues, 20) == Fraction(numerator, 52**20)
    residues[-1] = (residues[-1] + 1) % PRIMES[-1]
    with pytest.raises(StartUniqueError):
        from_residues(residues, 20)


@pytest.mark.slow
def test_one_hand_matches_the_exact_fraction_walk() -> None:
    options = start_options(player_model(), UP)
    residues = [walk_residue(options, 1, UP, _available(), p) for p in PRIMES]
    # One hand (at most 5 cards) and the dealer (at most 4 more): 9 cards at most.
    modular = from_residues(residues, 9)
    types, entries = dealer_entries(add_card(EMPTY, UP))
    masks = decided_masks(types)
    start = {(tuple(_available()), (1 << len(types)) - 1): Fraction(1)}
    exact = _finish(_combine(start, options, masks, Fraction(1)), entries, Fraction(1))
    assert modular == exact
    assert 0 < exact < 1


@pytest.mark.slow
def test_two_hands_match_the_float_kernel() -> None:
    options = start_options(player_model(), UP)
    residues = [walk_residue(options, 2, UP, _available(), p) for p in PRIMES]
    modular = from_residues(residues, 14)
    fast = unique_probability_fast([options, options], add_card(EMPTY, UP), _available())
    assert float(modular) == pytest.approx(fast, rel=1e-12)


def _generated() -> dict[str, object]:
    data = stored_data()
    if data is None:
        pytest.skip("data/exchange_start_unique.json has not been generated")
    return data


def test_the_generated_figure_is_for_the_shipped_table_and_its_walks() -> None:
    data = _generated()
    table = load_logic_table()
    assert data["table_fingerprint"] == table_fingerprint(table)
    figure = combine_walks(stored_walks(data))  # CRT over three primes, checked by the fourth
    assert figure == stored_start_unique(table)
    assert 0.16 < figure < 0.18  # the simulation cross-check is in test_simulation.py
    start = ExchangeState.from_json({"players": [[], [], [], []], "dealer": [], "played": False})
    odds = exchange_odds(start, exact=True)["All cards unique"]
    assert odds is not None and odds.win == figure and odds.lose == 1 - figure


@pytest.mark.slow
def test_one_generated_walk_is_reproduced() -> None:
    walks = stored_walks(_generated())
    options = start_options(player_model(), UP)
    assert walk_residue(options, 4, UP, _available(), PRIMES[0]) == walks[PRIMES[0]][UP]
