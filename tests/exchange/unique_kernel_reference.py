"""The previous "All cards unique" kernel, kept as a cross-check of the fast one (tests only).

The walk over all four hands by hashing (:func:`~twentyone.analysis.exchange.unique_kernel.
_combine_hashed`, still the fast kernel's fallback for a hand of more than 4 million pairs),
then every (state, dealer path) pair: the same float arithmetic as
:func:`~twentyone.analysis.exchange.unique_kernel.unique_probability_fast`, another order of
summation; it takes up to seconds in round 2. Moved here from the package (issue 11: the kept
cross-check kernels live in ``tests/``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numba
import numpy as np

from twentyone.analysis.exchange.playouts import Counts
from twentyone.analysis.exchange.unique_kernel import (
    _FALLING,
    WIDTH,
    _rows,
    _walk,
    dealer_tables,
)
from twentyone.exchange.hands import HandState


@numba.njit(cache=True)
def _finish_sparse(
    keys: Any,
    parts: Any,
    weights: Any,
    chosen: Any,
    chosen_start: Any,
    slots: Any,
    slot_start: Any,
    orders: Any,
    falling: Any,
    width: int,
) -> float:
    """Sum over states of weight x the dealer paths the game takes from there.

    ``chosen[chosen_start[m]:chosen_start[m+1]]`` lists the dealer entries included for mask
    ``m``; an entry's factor is a product of at most four table look-ups.
    """
    total = 0.0
    row = np.zeros(10 * width)
    for s in range(keys.shape[0]):
        m = parts[s]
        if chosen_start[m] == chosen_start[m + 1]:
            continue
        _rows(keys[s], falling, width, row)
        inner = 0.0
        for i in range(chosen_start[m], chosen_start[m + 1]):
            e = chosen[i]
            factor = orders[e]
            for j in range(slot_start[e], slot_start[e + 1]):
                factor *= row[slots[j]]
            inner += factor
        total += weights[s] * inner
    return total


def unique_probability_hashed(
    options_per_player: Sequence[Sequence[tuple[Counts, int, int]]],
    dealer: HandState,
    available: Sequence[int],
) -> float:
    """The previous kernel: the walk over all four hands, then every (state, dealer path).

    Kept as a cross-check of :func:`unique_probability_fast` (same float arithmetic, another
    order of summation); it takes up to seconds in round 2.
    """
    tables = dealer_tables(dealer)
    keys, by_part = _walk(sorted(options_per_player, key=len), tables, available)
    rows, parts = np.nonzero(by_part)
    found = _finish_sparse(
        keys[rows],
        parts.astype(np.int64),
        by_part[rows, parts],
        tables.chosen,
        tables.chosen_start,
        tables.slots,
        tables.slot_start,
        tables.orders,
        _FALLING,
        WIDTH,
    )
    return float(found)
