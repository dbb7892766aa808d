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
from typing import TYPE_CHECKING, Literal, overload

from twentyone.analysis.dealer_finishes import BLACKJACK, OUTCOMES, dealer_probabilities
from twentyone.analysis.shoe_counts import (
    LABELS,
    UPCARD_ORDER,
    full_shoe_counts,
    infinite_probabilities,
    label_index,
)
from twentyone.analysis.support import check_supported
from twentyone.errors import InvalidRulesError
from twentyone.rules import Rules

if TYPE_CHECKING:
    from twentyone.analysis.dealer_table import DealerTable

# numpy and the compiled kernels are imported only by the exact (fraction) path and for a
# given shoe (its checks live in the engine): the float distributions of the full shoe, all
# ``twentyone dealer`` computes, are plain Python (:mod:`~twentyone.analysis.dealer_finishes`,
# the kernel's operations in the kernel's order, so the same floats), and a process that only
# wants them does not spend half a second loading numpy and numba.


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
    if shoe is None and not exact:
        check_supported(rules)
        infinite = rules.decks is None
        if infinite:
            counts = [float(p) for p in infinite_probabilities()]
        else:
            assert rules.decks is not None
            counts = [float(count) for count in full_shoe_counts(rules.decks)]
    else:
        from twentyone.analysis.engine import prepare

        setup = prepare(rules, shoe)  # validates rules and shoe
        infinite = setup.infinite
        counts = [float(count) for count in setup.shoe]
    if exact:
        from twentyone.analysis.dealer_table import dealer_table

        table = dealer_table(up, rules.dealer_hits_soft_17)
        results = _exact(table, infinite, [int(c) for c in counts], up)
        if no_blackjack:
            kept = 1 - results[BLACKJACK]
            results = [p / kept for p in results]
            results[BLACKJACK] = Fraction(0)
        return dict(zip(OUTCOMES, results, strict=True))
    if not infinite:
        if counts[up] < 1:
            raise InvalidRulesError(f"the shoe holds no {LABELS[up]} to show")
        counts[up] -= 1
    floats = dealer_probabilities(counts, infinite, up, rules.dealer_hits_soft_17)
    if no_blackjack:
        no_blackjack_chance = 1.0 - floats[BLACKJACK]
        floats = [value / no_blackjack_chance for value in floats]
        floats[BLACKJACK] = 0.0
    return dict(zip(OUTCOMES, floats, strict=True))


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
