"""Every way the dealer can finish from an up card, grouped by the multiset of cards drawn.

The probability of one draw sequence from a finite shoe depends only on the multiset of cards
drawn (a product of falling factorials), and the dealer's result depends only on that multiset,
so the sequences are grouped: each entry keeps the multiset, the number of valid orderings
(sequences in which the dealer does not stop early) and the result. A shoe's dealer
distribution is then a short sum over entries, computed in the compiled kernels.

>>> table = dealer_table(5, hits_soft_17=False)  # up card 6
>>> table.entries > 100, int(table.orderings.sum()) > table.entries
(True, True)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from twentyone.analysis.shoe_counts import ACE, TEN
from twentyone.hand import best_total, is_soft

#: Dealer results, in this order, everywhere in the analysis.
OUTCOMES = ("17", "18", "19", "20", "21", "blackjack", "bust")
BLACKJACK = 5
BUST = 6


@dataclass(frozen=True)
class DealerTable:
    """Entries for one up card: ``drawn[e]`` counts by value, ``orderings``, ``outcome``, ``size``.

    ``sparse_index``/``sparse_count`` list the non-zero counts of every entry, entry ``e``
    owning positions ``sparse_start[e]:sparse_start[e + 1]`` (the kernels loop over these).
    """

    upcard: int
    drawn: npt.NDArray[np.int64]
    orderings: npt.NDArray[np.float64]
    outcome: npt.NDArray[np.int64]
    size: npt.NDArray[np.int64]
    sparse_start: npt.NDArray[np.int64]
    sparse_index: npt.NDArray[np.int64]
    sparse_count: npt.NDArray[np.int64]

    @property
    def entries(self) -> int:
        return len(self.outcome)


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
def dealer_table(upcard: int, hits_soft_17: bool) -> DealerTable:
    """All dealer finishes from ``upcard`` (an index, 0 = ace), grouped by multiset drawn."""
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
    keys = sorted(finished)
    codes = np.array([code for code, _ in keys], dtype=np.int64)
    counts = (codes[:, None] >> (4 * np.arange(10, dtype=np.int64))) & 15
    rows, columns = np.nonzero(counts)  # row-major: each entry's values in increasing order
    starts = np.zeros(len(keys) + 1, dtype=np.int64)
    starts[1:] = np.cumsum(np.bincount(rows, minlength=len(keys)))
    return DealerTable(
        upcard=upcard,
        drawn=counts,
        orderings=np.array([finished[key] for key in keys], dtype=np.float64),
        outcome=np.array([result for _, result in keys], dtype=np.int64),
        size=counts.sum(axis=1).astype(np.int64),
        sparse_start=starts,
        sparse_index=columns.astype(np.int64),
        sparse_count=counts[rows, columns].astype(np.int64),
    )


__all__ = ["BLACKJACK", "BUST", "OUTCOMES", "TEN", "DealerTable", "dealer_table"]
