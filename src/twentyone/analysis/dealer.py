"""The dealer's final results for any shoe and up card, as floats or exact fractions.

Results are keyed ``17``..``21``, ``blackjack`` and ``bust``. ``no_blackjack=True`` conditions
on the dealer not holding a blackjack (what a player sees after a peek).

>>> from twentyone.rules import Rules
>>> infinite = Rules(decks=None)
>>> dealer_distribution(infinite, "6", exact=True)["bust"] * 13**8
Fraction(345176856, 1)
>>> round(dealer_distribution(Rules(decks=1), "T", no_blackjack=True)["20"], 6)
0.356869
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Literal, overload

import numpy as np

from twentyone.analysis import kernels
from twentyone.analysis.dealer_table import BLACKJACK, OUTCOMES, DealerTable, dealer_table
from twentyone.analysis.engine import prepare
from twentyone.analysis.shoe_counts import (
    LABELS,
    UPCARD_ORDER,
    full_shoe_counts,
    infinite_probabilities,
    label_index,
)
from twentyone.errors import InvalidRulesError
from twentyone.rules import Rules


def _upcard_index(upcard: str | int) -> int:
    if isinstance(upcard, bool) or not isinstance(upcard, str | int):
        raise InvalidRulesError(f"an up card is a label A, 2-9, T, got {upcard!r}")
    if isinstance(upcard, int):
        if not 0 <= upcard <= 9:
            raise InvalidRulesError(f"an up card index is 0..9, got {upcard}")
        return upcard
    return label_index(upcard)


@overload
def dealer_distribution(
    rules: Rules,
    upcard: str | int,
    shoe: Sequence[int] | None = ...,
    *,
    no_blackjack: bool = ...,
    exact: Literal[False] = ...,
) -> dict[str, float]: ...


@overload
def dealer_distribution(
    rules: Rules,
    upcard: str | int,
    shoe: Sequence[int] | None = ...,
    *,
    no_blackjack: bool = ...,
    exact: Literal[True],
) -> dict[str, Fraction]: ...


def dealer_distribution(
    rules: Rules,
    upcard: str | int,
    shoe: Sequence[int] | None = None,
    *,
    no_blackjack: bool = False,
    exact: bool = False,
) -> dict[str, float] | dict[str, Fraction]:
    """P(each dealer result) with ``upcard`` showing.

    ``shoe``: counts by value (A, 2..9, T) *including* the up card (default: the rules' full
    shoe); the up card is removed before the dealer draws. Only ``decks`` and
    ``dealer_hits_soft_17`` of the rules matter here.
    """
    up = _upcard_index(upcard)
    setup = prepare(rules, shoe)  # validates rules and shoe
    table = dealer_table(up, rules.dealer_hits_soft_17)
    if exact:
        results = _exact(table, setup.infinite, [int(c) for c in setup.shoe], up)
        if no_blackjack:
            kept = 1 - results[BLACKJACK]
            results = [p / kept for p in results]
            results[BLACKJACK] = Fraction(0)
        return dict(zip(OUTCOMES, results, strict=True))
    counts = setup.shoe.copy()
    if not setup.infinite:
        if counts[up] < 1:
            raise InvalidRulesError(f"the shoe holds no {LABELS[up]} to show")
        counts[up] -= 1
    floats = np.zeros(7)
    kernels.dealer_distribution(
        counts,
        setup.infinite,
        table.sparse_start,
        table.sparse_index,
        table.sparse_count,
        table.orderings,
        table.outcome,
        table.size,
        floats,
    )
    if no_blackjack:
        floats = floats / (1.0 - floats[BLACKJACK])
        floats[BLACKJACK] = 0.0
    return {name: float(value) for name, value in zip(OUTCOMES, floats, strict=True)}


def _exact(table: DealerTable, infinite: bool, counts: list[int], up: int) -> list[Fraction]:
    """Exact probabilities: powers of 1/13 (infinite) or ratios of falling factorials."""
    results = [Fraction(0)] * 7
    if infinite:
        probabilities = infinite_probabilities()
        for drawn, orderings, outcome in zip(
            table.drawn, table.orderings, table.outcome, strict=True
        ):
            term = Fraction(int(orderings))
            for value, count in enumerate(drawn):
                term *= probabilities[value] ** int(count)
            results[int(outcome)] += term
        return results
    shoe = list(counts)
    if shoe[up] < 1:
        raise InvalidRulesError(f"the shoe holds no {LABELS[up]} to show")
    shoe[up] -= 1
    total = sum(shoe)
    for drawn, orderings, outcome in zip(table.drawn, table.orderings, table.outcome, strict=True):
        numerator = int(orderings)
        denominator = 1
        position = 0
        for value, count in enumerate(drawn):
            for taken in range(int(count)):
                numerator *= shoe[value] - taken
                denominator *= total - position
                position += 1
        if numerator:
            results[int(outcome)] += Fraction(numerator, denominator)
    return results


def dealer_distributions(
    rules: Rules, *, no_blackjack: bool = False
) -> dict[str, dict[str, float]]:
    """The distribution for every up card (2..9, T, A) from the full shoe."""
    return {
        LABELS[up]: dealer_distribution(rules, up, no_blackjack=no_blackjack) for up in UPCARD_ORDER
    }


__all__ = ["OUTCOMES", "dealer_distribution", "dealer_distributions", "full_shoe_counts"]
