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

from twentyone.analysis.dealer_finishes import BLACKJACK, BUST, OUTCOMES, dealer_finishes
from twentyone.analysis.shoe_counts import TEN


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


@functools.cache
def dealer_table(upcard: int, hits_soft_17: bool) -> DealerTable:
    """All dealer finishes from ``upcard`` (an index, 0 = ace), grouped by multiset drawn."""
    finishes = dealer_finishes(upcard, hits_soft_17)
    keys = [(code, result) for code, result, _ in finishes]
    finished = {(code, result): orderings for code, result, orderings in finishes}
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
