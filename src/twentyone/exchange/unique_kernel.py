"""Compiled (numba) float version of :mod:`twentyone.exchange.uniqueness`.

Same walk, same stop rule; a state is (cards still available of each value, as one integer
key; mask), kept in flat sorted arrays. Checked against the exact Fraction walk in the tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from twentyone.exchange.hands import FINAL_CODES, HandState, final_code
from twentyone.exchange.play import Counts, PlayerModel
from twentyone.exchange.uniqueness import (
    _included,
    dealer_entries,
    decided_masks,
)

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

# falling[a, k] = a (a-1) ... (a-k+1) / 52^k
_MAX = 17
_FALLING = np.zeros((_MAX + 1, _MAX + 1))
for _a in range(_MAX + 1):
    _value = 1.0
    for _k in range(_MAX + 1):
        _FALLING[_a, _k] = _value
        _value *= max(_a - _k, 0) / 52.0


_RADIX = 17  # a digit per card value: how many of that value are still available (0..16)


@numba.njit(cache=True)
def _decode(key: int, out: Any) -> None:
    for v in range(9, -1, -1):
        out[v] = key % _RADIX
        key //= _RADIX


@numba.njit(cache=True)
def _encode(avail: Any) -> int:
    key = 0
    for v in range(10):
        key = key * _RADIX + avail[v]
    return key


@numba.njit(cache=True)
def _combine(
    keys: Any,
    weights: Any,
    part_start: Any,
    counts: Any,
    codes: Any,
    orders: Any,
    and_table: Any,
    falling: Any,
    threshold: float,
) -> Any:
    """Add one hand to the walk.

    States are grouped by mask ("partitions") and sorted by key within each. Drawing the same
    cards from every state of a partition shifts every key by the same amount, so each
    (partition, option) pair yields an already sorted list; the lists bound for the same new
    mask are then merged with a heap, adding the weights of equal keys. Every memory access is
    sequential (no hash table).
    """
    n_parts = part_start.shape[0] - 1
    n_options = counts.shape[0]
    deltas = np.zeros(n_options, dtype=np.int64)
    for o in range(n_options):
        deltas[o] = _encode(counts[o])
    offsets = np.zeros(n_parts * n_options + 1, dtype=np.int64)
    for m in range(n_parts):
        size = part_start[m + 1] - part_start[m]
        for o in range(n_options):
            offsets[m * n_options + o + 1] = offsets[m * n_options + o] + size
    flat_keys = np.zeros(offsets[-1], dtype=np.int64)
    flat_weights = np.zeros(offsets[-1])
    filled = np.zeros(n_parts * n_options, dtype=np.int64)
    avail = np.zeros(10, dtype=np.int64)
    dropped = 0.0
    for m in range(n_parts):
        for s in range(part_start[m], part_start[m + 1]):
            _decode(keys[s], avail)
            w0 = weights[s]
            for o in range(n_options):
                factor = orders[o]
                for v in range(10):
                    k = counts[o, v]
                    if k > 0:
                        if k > avail[v]:
                            factor = 0.0
                            break
                        factor *= falling[avail[v], k]
                if factor == 0.0:
                    continue
                if w0 * factor < threshold:
                    dropped += w0 * factor
                    continue
                slot = m * n_options + o
                at = offsets[slot] + filled[slot]
                flat_keys[at] = keys[s] - deltas[o]
                flat_weights[at] = w0 * factor
                filled[slot] += 1
    out_keys = np.zeros(offsets[-1], dtype=np.int64)
    out_weights = np.zeros(offsets[-1])
    out_start = np.zeros(n_parts + 1, dtype=np.int64)
    size = 0
    heap_key = np.zeros(n_parts * n_options, dtype=np.int64)
    heap_list = np.zeros(n_parts * n_options, dtype=np.int64)
    position = np.zeros(n_parts * n_options, dtype=np.int64)
    for target in range(n_parts):
        out_start[target] = size
        heap_size = 0
        for m in range(n_parts):
            for o in range(n_options):
                slot = m * n_options + o
                if and_table[m, codes[o]] != target or filled[slot] == 0:
                    continue
                position[slot] = offsets[slot]
                # push
                i = heap_size
                heap_size += 1
                key = flat_keys[offsets[slot]]
                while i > 0:
                    parent = (i - 1) // 2
                    if heap_key[parent] <= key:
                        break
                    heap_key[i] = heap_key[parent]
                    heap_list[i] = heap_list[parent]
                    i = parent
                heap_key[i] = key
                heap_list[i] = slot
        first = size
        while heap_size > 0:
            slot = heap_list[0]
            key = heap_key[0]
            at = position[slot]
            if size > first and out_keys[size - 1] == key:
                out_weights[size - 1] += flat_weights[at]
            else:
                out_keys[size] = key
                out_weights[size] = flat_weights[at]
                size += 1
            position[slot] = at + 1
            if position[slot] < offsets[slot] + filled[slot]:
                key = flat_keys[at + 1]
            else:
                heap_size -= 1
                key = heap_key[heap_size]
                slot = heap_list[heap_size]
            # sift down from the root with (key, slot)
            i = 0
            while True:
                child = 2 * i + 1
                if child >= heap_size:
                    break
                if child + 1 < heap_size and heap_key[child + 1] < heap_key[child]:
                    child += 1
                if heap_key[child] >= key:
                    break
                heap_key[i] = heap_key[child]
                heap_list[i] = heap_list[child]
                i = child
            if heap_size > 0:
                heap_key[i] = key
                heap_list[i] = slot
    out_start[n_parts] = size
    return out_keys[:size], out_weights[:size], out_start, dropped


@numba.njit(cache=True)
def _finish(
    keys: Any,
    weights: Any,
    part_start: Any,
    values: Any,
    amounts: Any,
    sizes: Any,
    orders: Any,
    included: Any,
    falling: Any,
) -> float:
    # Dealer entries are stored sparsely: values[e, :sizes[e]] with amounts drawn of each.
    total = 0.0
    avail = np.zeros(10, dtype=np.int64)
    chosen = np.zeros(included.shape[1], dtype=np.int64)
    for m in range(part_start.shape[0] - 1):
        n_chosen = 0
        for e in range(included.shape[1]):
            if included[m, e]:
                chosen[n_chosen] = e
                n_chosen += 1
        for s in range(part_start[m], part_start[m + 1]):
            _decode(keys[s], avail)
            inner = 0.0
            for i in range(n_chosen):
                e = chosen[i]
                factor = orders[e]
                for j in range(sizes[e]):
                    factor *= falling[avail[values[e, j]], amounts[e, j]]
                inner += factor
            total += weights[s] * inner
    return total


def _mask_closure(masks: Sequence[int], everything: int) -> tuple[dict[int, int], IntArray]:
    """Index every mask an AND of code masks can give, and the AND table over codes."""
    found = {everything: 0}
    frontier = [everything]
    while frontier:
        mask = frontier.pop()
        for code_mask in masks:
            nxt = mask & code_mask
            if nxt not in found:
                found[nxt] = len(found)
                frontier.append(nxt)
    table = np.zeros((len(found), len(FINAL_CODES)), dtype=np.int64)
    for mask, index in found.items():
        for code, code_mask in enumerate(masks):
            table[index, code] = found[mask & code_mask]
    return found, table


def unique_probability_fast(
    options_per_player: Sequence[Sequence[tuple[Counts, int, int]]],
    dealer: HandState,
    available: Sequence[int],
    threshold: float = 0.0,
) -> tuple[float, float]:
    """Float P(all cards unique), given each player's play-outs and the dealer's hand.

    Returns (probability, dropped): with ``threshold`` > 0 paths lighter than it are left out
    and the true probability lies in [probability, probability + dropped].
    """
    types, entries = dealer_entries(dealer)
    masks = decided_masks(types)
    everything = (1 << len(types)) - 1
    index, and_table = _mask_closure(masks, everything)
    keys = np.zeros(1, dtype=np.int64)
    keys[0] = _encode(np.array(list(available), dtype=np.int64))
    weights = np.ones(1)
    part_start = np.zeros(len(index) + 1, dtype=np.int64)
    part_start[1:] = 1  # the one starting state has mask index 0 (every bit set)
    dropped = 0.0
    for options in options_per_player:
        counts = np.array([c for c, _, _ in options], dtype=np.int64).reshape(-1, 10)
        codes = np.array([code for _, code, _ in options], dtype=np.int64)
        orders = np.array([n for _, _, n in options], dtype=np.float64)
        keys, weights, part_start, lost = _combine(
            keys, weights, part_start, counts, codes, orders, and_table, _FALLING, threshold
        )
        dropped += lost
    d_orders = np.array([e[3] for e in entries], dtype=np.float64)
    values = np.zeros((len(entries), 4), dtype=np.int64)
    amounts = np.zeros((len(entries), 4), dtype=np.int64)
    sizes = np.zeros(len(entries), dtype=np.int64)
    for j, entry in enumerate(entries):
        for v, k in enumerate(entry[0]):
            if k:
                values[j, sizes[j]] = v
                amounts[j, sizes[j]] = k
                sizes[j] += 1
    included = np.zeros((len(index), len(entries)), dtype=np.bool_)
    for mask, i in index.items():
        for j, (_, kind, parent, _) in enumerate(entries):
            included[i, j] = _included(mask, kind, parent)
    found = _finish(keys, weights, part_start, values, amounts, sizes, d_orders, included, _FALLING)
    return float(found), dropped


def player_options(
    model: PlayerModel, hands: Sequence[HandState], played: bool, up_value: int
) -> list[list[tuple[Counts, int, int]]]:
    if played:
        return [[((0,) * 10, final_code(hand), 1)] for hand in hands]
    return [model.draws(hand, up_value) for hand in hands]
