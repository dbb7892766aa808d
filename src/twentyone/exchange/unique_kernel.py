"""Compiled (numba) float version of :mod:`twentyone.exchange.uniqueness`.

Same walk, same stop rule; a state is (cards still available of each value, as one integer
key; mask index). Adding a hand sends every (state, play-out) pair into an open-addressing
hash table; the dealer's paths are then summed per state, only those the stop rule lets the
game take for that state's mask. Checked against the exact Fraction walk in the tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
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
WIDTH = 6  # a hand or the dealer holds at most five cards of one value
#: The weight of each value's digit in a key (``_encode`` as a dot product).
_PLACES = np.array([_RADIX ** (9 - v) for v in range(10)], dtype=np.int64)
_GOLDEN = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit integer


@numba.njit(cache=True)
def _encode(avail: Any) -> int:
    key = 0
    for v in range(10):
        key = key * _RADIX + avail[v]
    return key


@numba.njit(cache=True)
def _rows(key: int, falling: Any, width: int, out: Any) -> None:
    """``out[v * width + k]`` = falling factor of drawing ``k`` more cards of value ``v``."""
    for v in range(9, -1, -1):
        a = key % _RADIX
        key //= _RADIX
        for k in range(width):
            out[v * width + k] = falling[a, k]


@numba.njit(cache=True)
def _slot(key: int, capacity: int) -> int:
    """Hash table slot of a key (mixed so that neighbouring keys spread out)."""
    mixed = (key ^ (key >> 29)) * _GOLDEN
    return (mixed ^ (mixed >> 32)) & (capacity - 1)


@numba.njit(cache=True)
def _combine_hashed(
    keys: Any,
    parts: Any,
    weights: Any,
    n_parts: int,
    deltas: Any,
    slots: Any,
    slot_start: Any,
    codes: Any,
    orders: Any,
    and_table: Any,
    falling: Any,
    width: int,
) -> Any:
    """Add one hand: every (state, play-out) pair, equal (cards left, mask) added up.

    Options are stored sparsely (``slots[slot_start[o]:slot_start[o+1]]`` index the per-state
    table of falling factors); the new states go into an open-addressing hash table that
    doubles when half full.
    """
    capacity = 1024
    while capacity < 4 * keys.shape[0]:
        capacity *= 2
    table_key = np.full(capacity, -1, dtype=np.int64)
    table_weight = np.zeros(capacity)
    used = 0
    row = np.zeros(10 * width)
    n_options = deltas.shape[0]
    for s in range(keys.shape[0]):
        _rows(keys[s], falling, width, row)
        w0 = weights[s]
        m = parts[s]
        for o in range(n_options):
            factor = orders[o] * w0
            for j in range(slot_start[o], slot_start[o + 1]):
                factor *= row[slots[j]]
            if factor == 0.0:
                continue
            combined = (keys[s] - deltas[o]) * n_parts + and_table[m, codes[o]]
            h = _slot(combined, capacity)
            while table_key[h] != -1 and table_key[h] != combined:
                h = (h + 1) & (capacity - 1)
            if table_key[h] == -1:
                table_key[h] = combined
                used += 1
            table_weight[h] += factor
            if 2 * used > capacity:
                # grow: rehash every entry into a table twice the size
                old_key, old_weight = table_key, table_weight
                capacity *= 2
                table_key = np.full(capacity, -1, dtype=np.int64)
                table_weight = np.zeros(capacity)
                for i in range(old_key.shape[0]):
                    if old_key[i] != -1:
                        g = _slot(old_key[i], capacity)
                        while table_key[g] != -1:
                            g = (g + 1) & (capacity - 1)
                        table_key[g] = old_key[i]
                        table_weight[g] = old_weight[i]
    out_keys = np.empty(used, dtype=np.int64)
    out_parts = np.empty(used, dtype=np.int64)
    out_weights = np.empty(used)
    n = 0
    for i in range(capacity):
        if table_key[i] != -1:
            out_keys[n] = table_key[i] // n_parts
            out_parts[n] = table_key[i] % n_parts
            out_weights[n] = table_weight[i]
            n += 1
    return out_keys, out_parts, out_weights


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


@dataclass(frozen=True)
class _DealerTables:
    """What the kernel needs about the dealer, computed once per dealer hand."""

    and_table: IntArray
    n_parts: int
    chosen: IntArray
    chosen_start: IntArray
    slots: IntArray
    slot_start: IntArray
    orders: FloatArray


def _sparse(counts: Sequence[Counts]) -> tuple[IntArray, IntArray]:
    """Each count vector as table slots ``v * WIDTH + k`` (one per value drawn)."""
    slots: list[int] = []
    start = [0]
    for entry in counts:
        slots.extend(v * WIDTH + k for v, k in enumerate(entry) if k)
        start.append(len(slots))
    return np.array(slots, dtype=np.int64), np.array(start, dtype=np.int64)


@cache
def dealer_tables(dealer: HandState) -> _DealerTables:
    types, entries = dealer_entries(dealer)
    masks = decided_masks(types)
    everything = (1 << len(types)) - 1
    index, and_table = _mask_closure(masks, everything)
    chosen: list[int] = []
    chosen_start = [0]
    for mask, _ in sorted(index.items(), key=lambda item: item[1]):
        chosen.extend(
            j for j, (_, kind, parent, _) in enumerate(entries) if _included(mask, kind, parent)
        )
        chosen_start.append(len(chosen))
    slots, slot_start = _sparse([e[0] for e in entries])
    return _DealerTables(
        and_table,
        len(index),
        np.array(chosen, dtype=np.int64),
        np.array(chosen_start, dtype=np.int64),
        slots,
        slot_start,
        np.array([e[3] for e in entries], dtype=np.float64),
    )


def unique_probability_fast(
    options_per_player: Sequence[Sequence[tuple[Counts, int, int]]],
    dealer: HandState,
    available: Sequence[int],
) -> float:
    """Float P(all cards unique), given each player's play-outs and the dealer's hand."""
    tables = dealer_tables(dealer)
    keys = np.array([_encode(np.array(list(available), dtype=np.int64))], dtype=np.int64)
    parts = np.zeros(1, dtype=np.int64)  # mask index 0: every bit set
    weights = np.ones(1)
    # Hands with few play-outs first: the walk's intermediate state sets stay small.
    for options in sorted(options_per_player, key=len):
        slots, slot_start = _sparse([c for c, _, _ in options])
        deltas = np.array([c for c, _, _ in options], dtype=np.int64).reshape(-1, 10) @ _PLACES
        codes = np.array([code for _, code, _ in options], dtype=np.int64)
        orders = np.array([n for _, _, n in options], dtype=np.float64)
        keys, parts, weights = _combine_hashed(
            keys,
            parts,
            weights,
            tables.n_parts,
            deltas,
            slots,
            slot_start,
            codes,
            orders,
            tables.and_table,
            _FALLING,
            WIDTH,
        )
    found = _finish_sparse(
        keys,
        parts,
        weights,
        tables.chosen,
        tables.chosen_start,
        tables.slots,
        tables.slot_start,
        tables.orders,
        _FALLING,
        WIDTH,
    )
    return float(found)


def player_options(
    model: PlayerModel, hands: Sequence[HandState], played: bool, up_value: int
) -> list[list[tuple[Counts, int, int]]]:
    if played:
        return [[((0,) * 10, final_code(hand), 1)] for hand in hands]
    return [model.draws(hand, up_value) for hand in hands]
