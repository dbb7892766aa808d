"""Compiled (numba) float version of :mod:`twentyone.analysis.exchange.uniqueness`.

Same walk, same stop rule, another order of summation. A state is (cards still available of
each value, as one integer key; mask index). :func:`unique_probability_fast` walks every hand
but the one with the fewest play-outs (each (state, play-out) pair written into a bucket by
its new key's high bits, each bucket summed in a small dense block: :func:`_combine_sorted`),
then sums the states against the last hand and the dealer taken together: a path's
weight is ``prod_v falling(available_v, drawn_v) / 52**drawn``, so after the walk only the
*exponents* ``drawn`` of (last play-out + dealer path) matter, and
``sum_states sum_exponents w_s w_e prod_v falling(a_sv, e_v)`` is contracted one card value
at a time (:func:`_contract`) instead of pair by pair. The previous kernel (the walk over all
four hands by hashing, :func:`_combine_hashed`, then every (state, dealer path)) is kept as a
cross-check in ``tests/exchange/unique_kernel_reference.py``; :func:`_combine_hashed` is also the
fallback of a hand with more than :data:`MAX_SORTED_PAIRS` pairs. Both are checked against the
exact Fraction walk in the tests.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from twentyone.analysis.exchange.playouts import Counts, PlayerModel
from twentyone.analysis.exchange.uniqueness import (
    _included,
    dealer_entries,
    decided_masks,
)
from twentyone.exchange.hands import FINAL_CODES, HandState, final_code

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
    weights: Any,
    deltas: Any,
    slots: Any,
    slot_start: Any,
    codes: Any,
    orders: Any,
    and_table: Any,
    falling: Any,
    width: int,
) -> Any:
    """Add one hand: every (state, play-out) pair, equal cards left added up.

    A state is its available counts (``keys``) with a weight per mask index
    (``weights[state, part]``): few mask indices occur (three for every up card), so keeping
    them side by side halves the hash-table traffic against a (cards left, mask) key.
    Options are stored sparsely (``slots[slot_start[o]:slot_start[o+1]]`` index the per-state
    table of falling factors); the new states go into an open-addressing hash table (key,
    exact as a float below 2**53, then the weights: one cache line per probe) that doubles
    when half full.
    """
    n_parts = weights.shape[1]
    stride = n_parts + 1
    capacity = 1024
    while capacity < 4 * keys.shape[0]:
        capacity *= 2
    table = np.full((capacity, stride), -1.0)
    used = 0
    row = np.zeros(10 * width)
    n_options = deltas.shape[0]
    for s in range(keys.shape[0]):
        _rows(keys[s], falling, width, row)
        for o in range(n_options):
            factor = orders[o]
            for j in range(slot_start[o], slot_start[o + 1]):
                factor *= row[slots[j]]
            if factor == 0.0:
                continue
            combined = keys[s] - deltas[o]
            code = float(combined)
            h = _slot(combined, capacity)
            while table[h, 0] != -1.0 and table[h, 0] != code:
                h = (h + 1) & (capacity - 1)
            if table[h, 0] == -1.0:
                table[h, 0] = code
                for m in range(n_parts):
                    table[h, 1 + m] = 0.0
                used += 1
            for m in range(n_parts):
                if weights[s, m] != 0.0:
                    table[h, 1 + and_table[m, codes[o]]] += factor * weights[s, m]
            if 2 * used > capacity:
                # grow: rehash every entry into a table twice the size
                old = table
                capacity *= 2
                table = np.full((capacity, stride), -1.0)
                for i in range(old.shape[0]):
                    if old[i, 0] != -1.0:
                        g = _slot(int(old[i, 0]), capacity)
                        while table[g, 0] != -1.0:
                            g = (g + 1) & (capacity - 1)
                        table[g, :] = old[i, :]
    out_keys = np.empty(used, dtype=np.int64)
    out_weights = np.empty((used, n_parts))
    n = 0
    for i in range(capacity):
        if table[i, 0] != -1.0:
            out_keys[n] = int(table[i, 0])
            out_weights[n, :] = table[i, 1:]
            n += 1
    return out_keys, out_weights


_LOCAL_BITS = 10  # the low bits of a key are summed in a dense block (1,024 x parts: in L1)


@numba.njit(cache=True)
def _combine_sorted(
    keys: Any,
    weights: Any,
    deltas: Any,
    slots: Any,
    slot_start: Any,
    codes: Any,
    orders: Any,
    and_table: Any,
    falling: Any,
    width: int,
    pairs: Any,
    pair_factors: Any,
    out_keys: Any,
    out_weights: Any,
) -> Any:
    """:func:`_combine_hashed` by bucketing instead of hashing; the states come out sorted.

    Every (state, play-out) pair with a nonzero factor is written (the new state's key in a
    compact mixed radix, above the pair's index) into a bucket by the key's high bits (sized
    by a counting pass), and each bucket is summed in a small dense block indexed by the
    key's low bits (in L1), read out in order. The compact radix gives value ``v`` only
    the digits its new counts can take (``low[v]`` to ``high[v]``), so keys need about 21
    bits, not 44, and sort like :func:`_encode` keys (aces most significant). ``pairs``,
    ``pair_factors`` (at least ``len(keys) * len(deltas)`` entries), ``out_keys`` and
    ``out_weights`` (replaced by fresh arrays when too small) are scratch space kept between
    calls by the caller: fresh arrays of megabytes cost page faults (about 0.4 ms per MB here), as
    much as the work itself.
    Returns ``(False, empty, empty)`` when a packed integer would not fit in 63 bits.
    """
    n_states = keys.shape[0]
    n_options = deltas.shape[0]
    n_parts = weights.shape[1]
    digits = np.empty((n_states, 10), dtype=np.int64)
    for s in range(n_states):
        key = keys[s]
        for v in range(9, -1, -1):
            digits[s, v] = key % _RADIX
            key //= _RADIX
    drawn = np.zeros((n_options, 10), dtype=np.int64)
    for o in range(n_options):
        delta = deltas[o]
        for v in range(9, -1, -1):
            drawn[o, v] = delta % _RADIX
            delta //= _RADIX
    low = np.empty(10, dtype=np.int64)
    high = np.empty(10, dtype=np.int64)
    for v in range(10):
        low[v] = max(0, digits[:, v].min() - drawn[:, v].max())
        high[v] = digits[:, v].max()
    place = np.empty(10, dtype=np.int64)
    size = 1
    for v in range(9, -1, -1):
        place[v] = size
        size *= high[v] - low[v] + 1
    key_bits = 1
    while (1 << key_bits) < size:
        key_bits += 1
    # the pair as (state << option_bits) | option: no division to take it apart
    option_bits = 1
    while (1 << option_bits) < n_options:
        option_bits += 1
    state_bits = 1
    while (1 << state_bits) < n_states:
        state_bits += 1
    pair_bits = option_bits + state_bits
    if key_bits + pair_bits > 62:
        return False, np.empty(0, dtype=np.int64), np.empty((0, n_parts))
    state_key = np.zeros(n_states, dtype=np.int64)
    for s in range(n_states):
        for v in range(10):
            state_key[s] += (digits[s, v] - low[v]) * place[v]
    option_key = np.zeros(n_options, dtype=np.int64)
    for o in range(n_options):
        for v in range(10):
            option_key[o] += drawn[o, v] * place[v]
    local_bits = min(_LOCAL_BITS, key_bits)
    local_size = 1 << local_bits
    n_buckets = ((size - 1) >> local_bits) + 1
    # Count the pairs per bucket first (integer work only; a pair that turns out to weigh
    # nothing may be counted, which leaves a gap), then write each pair straight into its
    # bucket: one pass over the pairs fewer than writing them out and distributing them.
    start = np.zeros(n_buckets + 1, dtype=np.int64)
    for s in range(n_states):
        for o in range(n_options):
            compact = state_key[s] - option_key[o]
            if 0 <= compact < size:
                start[(compact >> local_bits) + 1] += 1
    for b in range(n_buckets):
        start[b + 1] += start[b]
    fill = start[:-1].copy()
    row = np.zeros(10 * width)
    for s in range(n_states):
        _rows(keys[s], falling, width, row)
        for o in range(n_options):
            factor = orders[o]
            for j in range(slot_start[o], slot_start[o + 1]):
                factor *= row[slots[j]]
            if factor == 0.0:
                continue
            compact = state_key[s] - option_key[o]
            b = compact >> local_bits
            pairs[fill[b]] = (compact << pair_bits) | (s << option_bits) | o
            pair_factors[fill[b]] = factor
            fill[b] += 1
    block = np.zeros((local_size, n_parts))
    block_key = np.full(local_size, -1, dtype=np.int64)
    distinct = min(start[n_buckets], size)  # at most this many states come out
    if out_keys.shape[0] < distinct or out_weights.shape[1] < n_parts:
        out_keys = np.empty(distinct, dtype=np.int64)
        out_weights = np.empty((distinct, n_parts))
    used = 0
    pair_mask = (1 << pair_bits) - 1
    option_mask = (1 << option_bits) - 1
    local_mask = local_size - 1
    for b in range(n_buckets):
        if start[b] == fill[b]:
            continue
        for i in range(start[b], fill[b]):
            pair = pairs[i] & pair_mask
            cell = (pairs[i] >> pair_bits) & local_mask
            s = pair >> option_bits
            o = pair & option_mask
            if block_key[cell] == -1:
                block_key[cell] = keys[s] - deltas[o]
            factor = pair_factors[i]
            code = codes[o]
            # no test for a zero weight: adding 0.0 changes nothing, a mispredicted branch costs
            for m in range(n_parts):
                block[cell, and_table[m, code]] += factor * weights[s, m]
        for cell in range(local_size):
            if block_key[cell] != -1:
                out_keys[used] = block_key[cell]
                for m in range(n_parts):
                    out_weights[used, m] = block[cell, m]
                    block[cell, m] = 0.0
                block_key[cell] = -1
                used += 1
    return True, out_keys[:used].copy(), out_weights[:used, :n_parts].copy()


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
    counts: IntArray  # (entries, 10): cards of each value on each dealer path


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
        np.array([e[0] for e in entries], dtype=np.int64).reshape(-1, 10),
    )


@dataclass(frozen=True)
class _OptionArrays:
    """A hand's play-outs as the kernels take them."""

    counts: IntArray  # (play-outs, 10): cards of each value drawn
    deltas: IntArray  # the counts as a key difference (``counts @ _PLACES``)
    slots: IntArray
    slot_start: IntArray
    codes: IntArray
    orders: FloatArray


_OPTION_ARRAYS: dict[int, tuple[Sequence[tuple[Counts, int, int]], _OptionArrays]] = {}


def _option_arrays(options: Sequence[tuple[Counts, int, int]]) -> _OptionArrays:
    """The arrays of a play-out list, kept by the list's identity (1.4 ms a state otherwise).

    The lists come from :meth:`PlayerModel.draws`, which keeps them and never changes them;
    the entry holds the list, so its id cannot be reused while the entry exists. Other lists
    (tests, played hands) are kept too, up to a bound.
    """
    kept = _OPTION_ARRAYS.get(id(options))
    if kept is not None and kept[0] is options:
        return kept[1]
    counts = np.array([c for c, _, _ in options], dtype=np.int64).reshape(-1, 10)
    slots, slot_start = _sparse([c for c, _, _ in options])
    arrays = _OptionArrays(
        counts,
        counts @ _PLACES,
        slots,
        slot_start,
        np.array([code for _, code, _ in options], dtype=np.int64),
        np.array([n for _, _, n in options], dtype=np.float64),
    )
    if len(_OPTION_ARRAYS) >= 4096:
        _OPTION_ARRAYS.clear()
    _OPTION_ARRAYS[id(options)] = (options, arrays)
    return arrays


_SCRATCH = threading.local()


_Scratch = tuple[IntArray, FloatArray, IntArray, FloatArray]


#: Above this many (state, play-out) pairs a hand is added by hashing (no scratch of more
#: than 64 MB); round-2 states need at most about 540,000.
MAX_SORTED_PAIRS = 1 << 22
_WARM_PAIRS = 1 << 20  # scratch made at start-up (:func:`warm_scratch`): 24 MB per thread


def _scratch(size: int) -> _Scratch:
    """Scratch arrays of at least ``size`` pairs for :func:`_combine_sorted`, kept per thread.

    Reused between calls so that their pages stay mapped (see :func:`_combine_sorted`); a
    larger one is made (and kept) when needed, paying its page faults once.
    """
    kept: _Scratch | None = getattr(_SCRATCH, "arrays", None)
    if kept is None or kept[0].shape[0] < size:
        grown = max(size, 1 << 16)
        rows = max(grown // 4, 1 << 14)
        kept = (
            np.zeros(grown, dtype=np.int64),
            np.zeros(grown),
            np.zeros(rows, dtype=np.int64),
            np.zeros((rows, 4)),
        )
        for array in kept:  # touch every page now, not during a pricing
            array.fill(0)
        _SCRATCH.arrays = kept
    return kept


def warm_scratch() -> None:
    """Make this thread's scratch for round-2 sizes now (start-up, like compiling kernels).

    >>> warm_scratch()
    >>> _scratch(1000)[0].shape[0] >= _WARM_PAIRS
    True
    """
    _scratch(_WARM_PAIRS)
    _contract_buffers()


def _contract_buffers() -> tuple[FloatArray, FloatArray]:
    """Two buffers of 4 MB for the contraction's tables, kept per thread (see :func:`_zeroed`)."""
    kept: tuple[FloatArray, FloatArray] | None = getattr(_SCRATCH, "contract", None)
    if kept is None:
        kept = (np.zeros(1 << 19), np.zeros(1 << 19))
        for array in kept:
            array.fill(0.0)
        _SCRATCH.contract = kept
    return kept


def _walk(
    options_per_player: Sequence[Sequence[tuple[Counts, int, int]]],
    tables: _DealerTables,
    available: Sequence[int],
    by_sorting: bool = False,
) -> tuple[IntArray, FloatArray]:
    """States after the given hands: available-count keys, weights[state, mask index].

    ``by_sorting``: add each hand with :func:`_combine_sorted` (the fast kernel) rather than
    :func:`_combine_hashed` (the previous kernel, kept as its cross-check).
    """
    keys = np.array([_encode(np.array(list(available), dtype=np.int64))], dtype=np.int64)
    weights = np.zeros((1, tables.n_parts))
    weights[0, 0] = 1.0  # mask index 0: every bit set
    for options in options_per_player:
        arrays = _option_arrays(options)
        slots, slot_start, deltas = arrays.slots, arrays.slot_start, arrays.deltas
        codes, orders = arrays.codes, arrays.orders
        arguments = (
            keys,
            weights,
            deltas,
            slots,
            slot_start,
            codes,
            orders,
            tables.and_table,
            _FALLING,
            WIDTH,
        )
        pairs = keys.shape[0] * deltas.shape[0]
        if by_sorting and pairs <= MAX_SORTED_PAIRS:
            fitted, keys_sorted, weights_sorted = _combine_sorted(*arguments, *_scratch(pairs))
            if fitted:
                keys, weights = keys_sorted, weights_sorted
                continue
        keys, weights = _combine_hashed(*arguments)
    return keys, weights


@numba.njit(cache=True)
def _rest_exponents(
    o_counts: Any,
    o_codes: Any,
    o_orders: Any,
    d_counts: Any,
    d_orders: Any,
    chosen: Any,
    chosen_start: Any,
    and_table: Any,
    part: int,
    cap: Any,
) -> Any:
    """The last hand and the dealer as one list: (key of the cards drawn, summed orders).

    For states of mask index ``part``: every play-out of the last hand followed by every
    dealer path the stop rule allows after it; exponents above ``cap`` (the most cards of a
    value any state still has) weigh nothing and are dropped. Keys put tens first (the
    contraction's axis order): ``sum_v count_v * 17**v``.
    """
    # A key is additive in the counts (no digit reaches the radix: at most 3 + 4 cards of a
    # value), so an exponent's key is the sum of its two parts' keys.
    n_o, n_d = o_counts.shape[0], d_counts.shape[0]
    o_key = np.zeros(n_o, dtype=np.int64)
    for o in range(n_o):
        for v in range(9, -1, -1):
            o_key[o] = o_key[o] * _RADIX + o_counts[o, v]
    d_key = np.zeros(n_d, dtype=np.int64)
    d_nonzero = np.zeros((n_d, 4), dtype=np.int64)  # the values a dealer path draws (-1: none)
    d_nonzero[:] = -1
    for d in range(n_d):
        n = 0
        for v in range(9, -1, -1):
            d_key[d] = d_key[d] * _RADIX + d_counts[d, v]
            if d_counts[d, v] > 0:
                d_nonzero[d, n] = v
                n += 1
    capacity = 16384  # a few thousand exponents: no rehashing on the way up
    table_key = np.full(capacity, -1, dtype=np.int64)
    table_weight = np.zeros(capacity)
    used = 0
    for o in range(n_o):
        fits = True
        for v in range(10):
            if o_counts[o, v] > cap[v]:
                fits = False
        if not fits:
            continue
        m = and_table[part, o_codes[o]]
        for i in range(chosen_start[m], chosen_start[m + 1]):
            d = chosen[i]
            for j in range(4):
                v = d_nonzero[d, j]
                if v >= 0 and o_counts[o, v] + d_counts[d, v] > cap[v]:
                    fits = False
            if not fits:
                fits = True
                continue
            key = o_key[o] + d_key[d]
            h = _slot(key, capacity)
            while table_key[h] != -1 and table_key[h] != key:
                h = (h + 1) & (capacity - 1)
            if table_key[h] == -1:
                table_key[h] = key
                used += 1
            table_weight[h] += o_orders[o] * d_orders[d]
            if 2 * used > capacity:
                old_key, old_weight = table_key, table_weight
                capacity *= 2
                table_key = np.full(capacity, -1, dtype=np.int64)
                table_weight = np.zeros(capacity)
                for j in range(old_key.shape[0]):
                    if old_key[j] != -1:
                        g = _slot(old_key[j], capacity)
                        while table_key[g] != -1:
                            g = (g + 1) & (capacity - 1)
                        table_key[g] = old_key[j]
                        table_weight[g] = old_weight[j]
    out_keys = np.empty(used, dtype=np.int64)
    out_weights = np.empty(used)
    n = 0
    for j in range(capacity):
        if table_key[j] != -1:
            out_keys[n] = table_key[j]
            out_weights[n] = table_weight[j]
            n += 1
    return out_keys, out_weights


@numba.njit(cache=True)
def _argsort(keys: Any, bits: int) -> Any:
    """Stable argsort of non-negative keys below ``2**bits``: passes of an 11-bit radix."""
    n = keys.shape[0]
    order = np.arange(n)
    spare = np.empty(n, dtype=np.int64)
    count = np.empty(2049, dtype=np.int64)
    for shift in range(0, bits, 11):
        count[:] = 0
        for i in range(n):
            count[((keys[i] >> shift) & 2047) + 1] += 1
        for b in range(2048):
            count[b + 1] += count[b]
        for i in range(n):
            digit = (keys[order[i]] >> shift) & 2047
            spare[count[digit]] = order[i]
            count[digit] += 1
        order, spare = spare, order
    return order


@numba.njit(cache=True)
def _zeroed(buffer: Any, size: int) -> Any:
    """The first ``size`` entries of ``buffer`` set to zero, or a fresh array if it is short.

    The contraction's tables are a few megabytes; reusing buffers kept between calls saves
    their page faults (fresh pages cost about 0.4 ms per MB here).
    """
    if buffer.shape[0] < size:
        return np.zeros(size)
    view = buffer[:size]
    view[:] = 0.0
    return view


@numba.njit(cache=True)
def _contract(
    xd: Any, xw: Any, ed: Any, ew: Any, falling: Any, buffer_a: Any, buffer_b: Any
) -> float:
    """``sum_x sum_e xw[x] ew[e] prod_k falling[xd[x, k], ed[e, k]]``, one axis at a time.

    ``xd`` must be sorted with axis 9 most significant and ``ed`` with axis 0 most significant
    (rows of each distinct). After ``k`` axes the partial sums form a table
    ``U_k[prefix, tail]``: ``prefix`` the distinct exponents of axes ``0..k-1`` (runs of
    ``ed``), ``tail`` the distinct available counts of axes ``k..9`` (runs of ``xd``); both
    sorts make the runs nested, so a tail's children on the next axis are contiguous. The
    cost is about ``sum_k |prefixes_{k+1}| * |tails_k|`` instead of ``|xd| * |ed|``.
    """
    nx = xd.shape[0]
    ne = ed.shape[0]
    if nx == 0 or ne == 0:
        return 0.0
    # Tail runs: tail t at level k (axes k..9) is its parent at level k+1 extended by a
    # count on axis k. First count the runs per level (a row starts a new run at every level
    # up to the highest axis where it differs from the previous row).
    first_new = np.empty(nx, dtype=np.int64)  # the highest differing axis (-1: none)
    first_new[0] = 9
    n_tails = np.ones(11, dtype=np.int64)
    low = np.full(10, _RADIX, dtype=np.int64)
    highest = np.zeros(10, dtype=np.int64)
    for i in range(nx):
        if i > 0:
            high = -1
            for v in range(9, -1, -1):
                if xd[i - 1, v] != xd[i, v]:
                    high = v
                    break
            first_new[i] = high
            for k in range(high + 1):
                n_tails[k] += 1
        for k in range(10):
            low[k] = min(low[k], xd[i, k])
            highest[k] = max(highest[k], xd[i, k])
    span = np.empty(10, dtype=np.int64)
    for k in range(10):
        span[k] = highest[k] - low[k] + 1
    # digit / up of tail t at level k in one ragged array (levels shrink fast: a dense
    # (10, nx) pair of arrays cost megabytes of fresh pages per call)
    level_start = np.zeros(11, dtype=np.int64)
    for k in range(10):
        level_start[k + 1] = level_start[k] + n_tails[k]
    digit = np.empty(level_start[10], dtype=np.int64)
    up = np.empty(level_start[10], dtype=np.int64)
    current = np.zeros(11, dtype=np.int64)
    current[:] = -1
    current[10] = 0
    table = _zeroed(buffer_a, span[0] * n_tails[1])
    spare = buffer_b
    for i in range(nx):
        for k in range(first_new[i] + 1):
            current[k] += 1
        for k in range(first_new[i] + 1):
            digit[level_start[k] + current[k]] = xd[i, k]
            up[level_start[k] + current[k]] = current[k + 1]
        table[current[1] * span[0] + xd[i, 0] - low[0]] += xw[i]
    # prefix_id[i, k]: run of the i-th sorted e among prefixes over axes 0..k-1
    prefix_id = np.zeros((ne, 11), dtype=np.int64)
    for i in range(1, ne):
        a, b = i - 1, i
        first = 10
        for v in range(10):
            if ed[a, v] != ed[b, v]:
                first = v
                break
        for k in range(11):
            prefix_id[i, k] = prefix_id[i - 1, k] + (1 if first < k else 0)
    n_prefixes = np.empty(11, dtype=np.int64)
    for k in range(11):
        n_prefixes[k] = prefix_id[ne - 1, k] + 1
    # A table U_k is stored padded, per prefix a block [parent at level k+1][count - low_k]
    # (zeros stand for missing tails): a tail's sum over axis k reads one short contiguous
    # run, and the tails come out in the order of the next table's blocks, so it is written
    # almost sequentially. The transposed layout ([count][parent]: dense vector sums, but
    # writes strided by the number of parents) made the contraction 10 to 15% slower.
    for k in range(10):
        n_out = n_tails[k + 1]
        block_in = span[k] * n_out
        block_out = span[k + 1] * n_tails[k + 2] if k < 9 else 1
        parent = np.empty(n_prefixes[k + 1], dtype=np.int64)
        exponent = np.empty(n_prefixes[k + 1], dtype=np.int64)
        for i in range(ne):
            p = prefix_id[i, k + 1]
            parent[p] = prefix_id[i, k]
            exponent[p] = ed[i, k]
        following = _zeroed(spare, n_prefixes[k + 1] * block_out)
        width = span[k]
        coefficient = np.empty(width)
        # where tail t of level k+1 lands in U_{k+1}: its parent's block, then its count
        position = np.empty(n_out, dtype=np.int64)
        for t in range(n_out):
            if k < 9:
                at = level_start[k + 1] + t
                position[t] = up[at] * span[k + 1] + digit[at] - low[k + 1]
            else:
                position[t] = 0
        for p in range(n_prefixes[k + 1]):
            base = parent[p] * block_in
            # falling(x, e) is 0 for x < e: those counts are skipped
            first = max(exponent[p] - low[k], 0)
            for j in range(first, width):
                coefficient[j] = falling[low[k] + j, exponent[p]]
            out = p * block_out
            for t in range(n_out):
                start = base + t * width
                value = 0.0
                for j in range(first, width):
                    value += coefficient[j] * table[start + j]
                following[out + position[t]] = value
        table, spare = following, table
    total = 0.0
    for i in range(ne):
        total += table[prefix_id[i, 10]] * ew[i]
    return total


@numba.njit(cache=True)
def _finish_contracted(
    keys: Any,
    weights: Any,
    o_counts: Any,
    o_codes: Any,
    o_orders: Any,
    d_counts: Any,
    d_orders: Any,
    chosen: Any,
    chosen_start: Any,
    and_table: Any,
    falling: Any,
    buffer_a: Any,
    buffer_b: Any,
) -> float:
    """The walk's states against the last hand and the dealer, one mask index at a time.

    The contraction takes the axes tens first, aces last (axis ``k`` is value ``10 - k``): the
    last hand and the dealer draw few high cards (few exponent prefixes early) and the states
    differ most in the high values (the tails shrink fast); on the worst round-2 state this
    order needs 40% fewer operations than "most distinct counts first". A state key has the
    aces most significant, so sorting by it is the order the contraction wants.
    """
    n = keys.shape[0]
    ascending = True
    for i in range(1, n):
        if keys[i - 1] >= keys[i]:
            ascending = False
            break
    # the sorted walk hands its states over in order already
    order = np.arange(n) if ascending else _argsort(keys, 44)
    total = 0.0
    for part in range(weights.shape[1]):
        size = 0
        for i in range(n):
            if weights[order[i], part] != 0.0:
                size += 1
        if size == 0:
            continue
        xd = np.empty((size, 10), dtype=np.int64)
        xw = np.empty(size)
        cap = np.zeros(10, dtype=np.int64)
        row = 0
        for i in range(n):
            if weights[order[i], part] == 0.0:
                continue
            key = keys[order[i]]
            xw[row] = weights[order[i], part]
            for k in range(10):
                xd[row, k] = key % _RADIX
                key //= _RADIX
                cap[9 - k] = max(cap[9 - k], xd[row, k])
            row += 1
        e_keys, e_weights = _rest_exponents(
            o_counts,
            o_codes,
            o_orders,
            d_counts,
            d_orders,
            chosen,
            chosen_start,
            and_table,
            part,
            cap,
        )
        e_order = _argsort(e_keys, 44)
        ed = np.empty((e_keys.shape[0], 10), dtype=np.int64)
        ew = np.empty(e_keys.shape[0])
        for i in range(e_keys.shape[0]):
            key = e_keys[e_order[i]]
            ew[i] = e_weights[e_order[i]]
            for k in range(9, -1, -1):
                ed[i, k] = key % _RADIX
                key //= _RADIX
        total += _contract(xd, xw, ed, ew, falling, buffer_a, buffer_b)
    return total


def unique_probability_fast(
    options_per_player: Sequence[Sequence[tuple[Counts, int, int]]],
    dealer: HandState,
    available: Sequence[int],
) -> float:
    """Float P(all cards unique), given each player's play-outs and the dealer's hand.

    The walk adds every hand but the one with the fewest play-outs; that hand and the dealer
    become one list of exponents (cards of each value drawn after the walk), and the sum over
    (state, exponent) pairs is contracted axis by axis (:func:`_contract`). See
    docs/exchange.md, "Speed".

    >>> from fractions import Fraction
    >>> from twentyone.exchange.logic_table import load_logic_table
    >>> from twentyone.analysis.exchange.uniqueness import unique_probability
    >>> model = PlayerModel(load_logic_table())
    >>> hands, dealer, available = [(12, False, 2)] * 4, (6, False, 1), [4] * 9 + [16]
    >>> fast = unique_probability_fast(player_options(model, hands, False, 6), dealer, available)
    >>> exact = unique_probability(model, hands, False, 6, dealer, available, Fraction)
    >>> abs(fast / float(exact) - 1) < 1e-12
    True
    """
    tables = dealer_tables(dealer)
    # The hand with the fewest play-outs is contracted with the dealer (a shorter exponent
    # list): on the two worst round-2 states of the bench the same and 11% faster than the
    # most, which keeps the worst under 50 ms, at the price of a higher round-2 p99 (see
    # docs/exchange.md, "Speed"). The others are walked fewest first (the intermediate state
    # sets stay small).
    ordered = sorted(options_per_player, key=len)
    keys, weights = _walk(ordered[1:], tables, available, by_sorting=True)
    last = _option_arrays(ordered[0])
    total = _finish_contracted(
        keys,
        weights,
        last.counts,
        last.codes,
        last.orders,
        tables.counts,
        tables.orders,
        tables.chosen,
        tables.chosen_start,
        tables.and_table,
        _FALLING,
        *_contract_buffers(),
    )
    return float(total)


def player_options(
    model: PlayerModel, hands: Sequence[HandState], played: bool, up_value: int
) -> list[list[tuple[Counts, int, int]]]:
    if played:
        return [[((0,) * 10, final_code(hand), 1)] for hand in hands]
    return [model.draws(hand, up_value) for hand in hands]
