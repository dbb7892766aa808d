"""The dealer's finishes from an up card, and their probabilities, in plain Python.

The enumeration (:func:`dealer_finishes`) is what :mod:`twentyone.analysis.dealer_table`
turns into arrays for the compiled kernels; :func:`dealer_probabilities` is the kernel
``dealer_distribution`` step for step (the same floating-point operations in the same order,
so the same bits). They live apart, without numpy, so that ``twentyone dealer`` (ten up cards,
a few milliseconds of work) does not pay half a second to load numpy and numba.

>>> from twentyone.analysis.shoe_counts import full_shoe_counts
>>> shoe = [float(count) for count in full_shoe_counts(6)]
>>> shoe[5] -= 1  # the up card, a 6, is out of the shoe
>>> round(dealer_probabilities(shoe, False, 5, False)[6], 6)  # bust
0.422842
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from twentyone.analysis.shoe_counts import ACE
from twentyone.hand import best_total, is_soft

#: Dealer results, in this order, everywhere in the analysis.
OUTCOMES = ("17", "18", "19", "20", "21", "blackjack", "bust")
BLACKJACK = 5
BUST = 6
#: Most cards of one value the dealer can draw (the kernels' ``MAX_DRAWN``).
MAX_DRAWN = 13


def _final_outcome(hard: int, has_ace: bool, cards: int, hits_soft_17: bool) -> int | None:
    """The dealer's result if he stops here, else None (he draws)."""
    if hard > 21:
        return BUST
    soft = is_soft(hard, has_ace)
    total = best_total(hard, has_ace)
    if cards == 2 and total == 21:
        return BLACKJACK
    if total < 17 or (total == 17 and soft and hits_soft_17):
        return None
    return total - 17


@functools.cache
def dealer_finishes(upcard: int, hits_soft_17: bool) -> tuple[tuple[int, int, int], ...]:
    """Every dealer finish from ``upcard`` (an index, 0 = ace) as ``(code, result, orderings)``,
    sorted: ``code`` is the multiset of cards drawn (one base-16 digit per value, the ace the
    lowest), ``orderings`` the number of its draw orders in which the dealer stops only at
    the end."""
    # Dynamic programming over multisets, by number of cards drawn: the number of valid
    # orderings of a multiset is the sum, over its last card, of the valid orderings of the
    # multiset without that card, provided the dealer draws on that smaller hand. A multiset
    # is coded as an integer with one base-16 digit per value (no value is drawn 16 times).
    finished: dict[tuple[int, int], int] = {}
    drawing: dict[int, list[int]] = {0: [1, upcard + 1, int(upcard == ACE), 1]}
    while drawing:
        following: dict[int, list[int]] = {}
        for code, (orderings, hard, has_ace, cards) in drawing.items():
            result = _final_outcome(hard, bool(has_ace), cards, hits_soft_17)
            if result is not None:
                finished[(code, result)] = finished.get((code, result), 0) + orderings
                continue
            for value in range(10):
                grown = code + (1 << (4 * value))
                known = following.get(grown)
                if known is None:
                    following[grown] = [
                        orderings,
                        hard + value + 1,
                        has_ace | (value == ACE),
                        cards + 1,
                    ]
                else:
                    known[0] += orderings
        drawing = following
    return tuple((code, result, finished[(code, result)]) for code, result in sorted(finished))


@functools.cache
def _sparse_finishes(
    upcard: int, hits_soft_17: bool
) -> tuple[tuple[float, int, int, tuple[tuple[int, int], ...]], ...]:
    """Each finish as ``(orderings, result, cards drawn, ((value, count), ...))``, the values
    in increasing order (the kernels' sparse layout)."""
    shifts = [(value, 4 * value) for value in range(10)]
    rows = []
    for code, result, orderings in dealer_finishes(upcard, hits_soft_17):
        counts = []
        size = 0
        for value, shift in shifts:
            count = (code >> shift) & 15
            if count:
                counts.append((value, count))
                size += count
        rows.append((float(orderings), result, size, tuple(counts)))
    return tuple(rows)


def dealer_probabilities(
    shoe: Sequence[float], infinite: bool, upcard: int, hits_soft_17: bool
) -> list[float]:
    """P(each result) (:data:`OUTCOMES` order) with ``upcard`` (an index) showing, the dealer
    drawing from ``shoe`` (counts by value, the up card already out; the probabilities of the
    values when ``infinite``)."""
    factors = [[1.0] * MAX_DRAWN for _ in range(10)]
    denominators = [1.0] * MAX_DRAWN
    if infinite:
        for value in range(10):
            row = factors[value]
            for drawn in range(1, MAX_DRAWN):
                row[drawn] = row[drawn - 1] * shoe[value]
    else:
        total = 0.0
        for value in range(10):
            total += shoe[value]
            row = factors[value]
            for drawn in range(1, MAX_DRAWN):
                remaining = shoe[value] - (drawn - 1)
                row[drawn] = row[drawn - 1] * max(remaining, 0.0)
        for drawn in range(1, MAX_DRAWN):
            denominators[drawn] = denominators[drawn - 1] * (total - (drawn - 1))
    out = [0.0] * 7
    for orderings, result, size, counts in _sparse_finishes(upcard, hits_soft_17):
        probability = orderings
        for value, count in counts:
            probability *= factors[value][count]
            if probability == 0.0:
                break
        if probability != 0.0:
            out[result] += probability / denominators[size]
    return out


__all__ = ["BLACKJACK", "BUST", "OUTCOMES", "dealer_finishes", "dealer_probabilities"]
