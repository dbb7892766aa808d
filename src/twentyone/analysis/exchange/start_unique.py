"""Exact P("All cards unique") before round 1 (no card known), computed offline.

Before round 1 the walk of :mod:`twentyone.analysis.exchange.uniqueness` (states: cards still available
of each value, and the mask of dealer positions where every hand so far is decided) reaches
millions of states per up card (7.2 million after four hands against a ten), too many for
``Fraction``s or for the hash table of :mod:`twentyone.analysis.exchange.unique_kernel`. This module
makes it exact with three choices:

* **modular arithmetic**: every path weight is an integer over ``52**cards`` (at most 25 cards
  in a game), so ``M = P * 52**25`` is an integer in ``[0, 52**25]``. The walk runs modulo
  primes just below 2**49; three of them give ``M`` by the Chinese remainder theorem (their
  product exceeds ``2 * 52**25``) and a fourth checks it;
* **a bucketed dense grid**: states are indexed by their available counts; the first four
  values pick a bucket, and a bucket's cells (the other six values, times the mask) fit in
  cache, so adding a hand writes bucket by bucket instead of all over a 30-million-cell grid;
* **the dealer by moments**: the dealer's paths from a state weigh
  ``prod_v falling(available_v, k_v) / 52**k`` with at most four cards, so the sum over all
  states needs only the "falling moments" of the state distribution with ``sum k <= 4``
  (1001 of them), computed value axis by value axis.

The up card is summed outside (its value ``u`` has probability ``cards of value u / 52``, the
walk then starts without that card), and the four player hands are alike: a play-out holds the
hand's first two cards too.

The whole figure is 40 walks (10 up cards x 4 primes), each about a minute on one core of
this machine. ``python -m twentyone.analysis.exchange.start_unique --jobs N`` runs them in parallel and
writes ``data/exchange_start_unique.json``; :func:`stored_start_unique` reads it back (``None``
when it is absent or was made for another logic table).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from twentyone.analysis.exchange.playouts import Counts, PlayerModel, add_count
from twentyone.analysis.exchange.unique_kernel import WIDTH, dealer_tables
from twentyone.exchange.hands import CARDS_WITH_VALUE, EMPTY, VALUES, add_card
from twentyone.exchange.logic_table import LogicTable, load_logic_table

IntArray = npt.NDArray[np.int64]

#: Primes just below 2**49: residues multiply exactly through the float-assisted mulmod.
PRIMES = (562949953421231, 562949953421201, 562949953421189, 562949953421173)
RECONSTRUCT = 3  # the first three rebuild M; the fourth checks it
MAX_CARDS_IN_GAME = 25  # 9 dealt, at most 3 more per player hand, at most 4 more for the dealer
DATA_FILE = "exchange_start_unique.json"
_HIGH = 4  # value axes that pick the bucket
_MAX_DEGREE = 4  # the dealer draws at most four cards after his up card


class StartUniqueError(RuntimeError):
    """The modular reconstruction did not check out (a bug, never bad input)."""


def start_options(model: PlayerModel, up_value: int) -> list[tuple[Counts, int, int]]:
    """A player hand from nothing: (values of all its cards, final code, number of orders)."""
    tally: dict[tuple[Counts, int], int] = {}
    for first in VALUES:
        for second in VALUES:
            dealt = add_count(add_count((0,) * 10, first), second)
            hand = add_card(add_card(EMPTY, first), second)
            for counts, code, orders in model.draws(hand, up_value):
                key = (tuple(a + b for a, b in zip(dealt, counts, strict=True)), code)
                tally[key] = tally.get(key, 0) + orders
    return [(counts, code, orders) for (counts, code), orders in sorted(tally.items())]


@numba.njit(cache=True)
def _mulmod(a: int, b: int, p: int, inverse: float) -> int:
    """``a * b % p`` for residues below 2**49: the float quotient is off by at most a few."""
    quotient = np.int64(float(a) * float(b) * inverse)
    rest = a * b - quotient * p  # exact modulo 2**64, and truly within a few p of [0, p)
    while rest < 0:
        rest += p
    while rest >= p:
        rest -= p
    return int(rest)


@numba.njit(cache=True)
def _add_hand(
    digits: Any,
    parts: Any,
    weights: Any,
    bucket_start: Any,
    radix: Any,
    o_values: Any,
    o_amounts: Any,
    o_start: Any,
    o_codes: Any,
    o_orders: Any,
    and_table: Any,
    n_parts: int,
    falling: Any,
    p: int,
    inverse: float,
) -> Any:
    """Add one hand; states (digits, mask index, weight) come and go grouped by bucket."""
    n_options = o_codes.shape[0]
    low_stride = np.zeros(10, dtype=np.int64)
    low_size = 1
    for v in range(9, _HIGH - 1, -1):
        low_stride[v] = low_size
        low_size *= radix[v]
    high_stride = np.zeros(_HIGH, dtype=np.int64)
    n_buckets = 1
    for v in range(_HIGH - 1, -1, -1):
        high_stride[v] = n_buckets
        n_buckets *= radix[v]
    o_high = np.zeros((n_options, _HIGH), dtype=np.int64)
    o_low = np.zeros(n_options, dtype=np.int64)
    for o in range(n_options):
        for j in range(o_start[o], o_start[o + 1]):
            v = o_values[j]
            if v < _HIGH:
                o_high[o, v] = o_amounts[j]
            else:
                o_low[o] += o_amounts[j] * low_stride[v]
    low_of = np.zeros(digits.shape[0], dtype=np.int64)
    for i in range(digits.shape[0]):
        for v in range(_HIGH, 10):
            low_of[i] += digits[i, v] * low_stride[v]
    local = np.zeros(n_parts * low_size, dtype=np.int64)
    capacity = max(1024, 4 * digits.shape[0])
    out_digits = np.zeros((capacity, 10), dtype=np.int8)
    out_parts = np.zeros(capacity, dtype=np.int64)
    out_weights = np.zeros(capacity, dtype=np.int64)
    out_start = np.zeros(n_buckets + 1, dtype=np.int64)
    size = 0
    bucket_digits = np.zeros(_HIGH, dtype=np.int64)
    for bucket in range(n_buckets):
        out_start[bucket] = size
        rest = bucket
        for v in range(_HIGH):
            bucket_digits[v] = rest // high_stride[v]
            rest -= bucket_digits[v] * high_stride[v]
        touched = False
        for o in range(n_options):
            source = 0
            fits = True
            for v in range(_HIGH):
                digit = bucket_digits[v] + o_high[o, v]
                if digit >= radix[v]:
                    fits = False
                    break
                source += digit * high_stride[v]
            if not fits:
                continue
            for i in range(bucket_start[source], bucket_start[source + 1]):
                # an exact integer: orders (< 2**7) times at most five falling factors whose
                # card counts add up to five or less (< 16**5)
                factor = o_orders[o]
                for j in range(o_start[o], o_start[o + 1]):
                    factor *= falling[digits[i, o_values[j]], o_amounts[j]]
                if factor == 0:
                    continue
                cell = and_table[parts[i], o_codes[o]] * low_size + low_of[i] - o_low[o]
                value = local[cell] + _mulmod(weights[i], factor, p, inverse)
                local[cell] = value - p if value >= p else value
                touched = True
        if not touched:
            continue
        for cell in range(n_parts * low_size):
            if local[cell] == 0:
                continue
            if size == capacity:
                capacity *= 2
                grown_digits = np.zeros((capacity, 10), dtype=np.int8)
                grown_digits[:size] = out_digits[:size]
                out_digits = grown_digits
                grown_parts = np.zeros(capacity, dtype=np.int64)
                grown_parts[:size] = out_parts[:size]
                out_parts = grown_parts
                grown_weights = np.zeros(capacity, dtype=np.int64)
                grown_weights[:size] = out_weights[:size]
                out_weights = grown_weights
            for v in range(_HIGH):
                out_digits[size, v] = bucket_digits[v]
            rest = cell % low_size
            for v in range(_HIGH, 10):
                out_digits[size, v] = rest // low_stride[v]
                rest -= (rest // low_stride[v]) * low_stride[v]
            out_parts[size] = cell // low_size
            out_weights[size] = local[cell]
            local[cell] = 0
            size += 1
    out_start[n_buckets] = size
    return out_digits[:size], out_parts[:size], out_weights[:size], out_start


@numba.njit(cache=True)
def _moments(
    digits: Any,
    parts: Any,
    weights: Any,
    part: int,
    radix: Any,
    falling: Any,
    extend: Any,
    level_sizes: Any,
    p: int,
    inverse: float,
) -> Any:
    """``sum over states of mask `part` of weight * prod_v falling[a_v, k_v]``, every ``|k| <= 4``.

    Axis by axis on a dense grid: ``current[prefix, rest]`` where ``prefix`` numbers the
    ``(k_1..k_j)`` used so far; ``extend[j, prefix, k]`` numbers the longer prefix (-1 past
    degree 4).
    """
    size = 1
    for v in range(10):
        size *= radix[v]
    current = np.zeros(size, dtype=np.int64)
    for i in range(digits.shape[0]):
        if parts[i] != part:
            continue
        index = 0
        for v in range(10):
            index = index * radix[v] + digits[i, v]
        current[index] = weights[i]
    prefixes = 1
    rest_size = size
    for v in range(10):
        rest_size //= radix[v]
        following = np.zeros(level_sizes[v + 1] * rest_size, dtype=np.int64)
        for q in range(prefixes):
            for a in range(radix[v]):
                base = (q * radix[v] + a) * rest_size
                for k in range(_MAX_DEGREE + 1):
                    target = extend[v, q, k]
                    if target < 0:
                        break
                    f = falling[a, k]
                    if f == 0:
                        continue
                    out = target * rest_size
                    for r in range(rest_size):
                        w = current[base + r]
                        if w != 0:
                            value = following[out + r] + _mulmod(w, f, p, inverse)
                            following[out + r] = value - p if value >= p else value
        current = following
        prefixes = level_sizes[v + 1]
    return current


def _prefix_tables() -> tuple[IntArray, IntArray, dict[tuple[int, ...], int]]:
    levels: list[list[tuple[int, ...]]] = [[()]]
    extend = np.full((10, 1001, _MAX_DEGREE + 1), -1, dtype=np.int64)
    for v in range(10):
        longer: list[tuple[int, ...]] = []
        for q, prefix in enumerate(levels[-1]):
            for k in range(_MAX_DEGREE + 1 - sum(prefix)):
                extend[v, q, k] = len(longer)
                longer.append((*prefix, k))
        levels.append(longer)
    sizes = np.array([len(level) for level in levels], dtype=np.int64)
    return extend, sizes, {k: i for i, k in enumerate(levels[-1])}


def _falling() -> IntArray:
    """``falling[a, k] = a (a-1) ... (a-k+1)``: the ways to draw ``k`` unseen cards of ``a``."""
    table = np.zeros((17, WIDTH), dtype=np.int64)
    for a in range(17):
        value = 1
        for k in range(WIDTH):
            table[a, k] = value
            value *= max(a - k, 0)
    return table


@numba.njit(cache=True)
def _scale(weights: Any, exponents: Any, powers: Any, p: int, inverse: float) -> Any:
    out = np.empty_like(weights)
    for i in range(weights.shape[0]):
        out[i] = _mulmod(weights[i], powers[exponents[i]], p, inverse)
    return out


def walk_residue(
    options: Sequence[tuple[Counts, int, int]],
    n_hands: int,
    up_value: int,
    available: Sequence[int],
    p: int,
) -> int:
    """``M = P * 52**(5 n_hands + 4)`` modulo ``p``, P = P(no card repeats | the game).

    The game: ``n_hands`` alike hands playing ``options``, then the dealer where it goes on;
    ``available`` counts the cards of each value still unseen (the up card already out). A
    path's weight is (ways to draw its cards unseen) / 52**cards; the walk keeps the integer
    part only, since a state's card count is fixed by its available counts, and scales each
    state and each dealer path by the power of 52 its cards leave over.
    """
    tables = dealer_tables(add_card(EMPTY, up_value))
    inverse = 1.0 / p
    radix = np.array([a + 1 for a in available], dtype=np.int64)
    falling = _falling()
    values: list[int] = []
    amounts: list[int] = []
    starts = [0]
    for counts, _, _ in options:
        for v, k in enumerate(counts):
            if k:
                values.append(v)
                amounts.append(k)
        starts.append(len(values))
    digits = np.array([list(available)], dtype=np.int8)
    parts = np.zeros(1, dtype=np.int64)  # mask index 0: every bit set
    weights = np.ones(1, dtype=np.int64)
    bucket = 0
    for v in range(_HIGH):
        bucket = bucket * int(radix[v]) + available[v]
    bucket_start = np.zeros(int(np.prod(radix[:_HIGH])) + 1, dtype=np.int64)
    bucket_start[bucket + 1 :] = 1
    for _ in range(n_hands):
        digits, parts, weights, bucket_start = _add_hand(
            digits,
            parts,
            weights,
            bucket_start,
            radix,
            np.array(values, dtype=np.int64),
            np.array(amounts, dtype=np.int64),
            np.array(starts, dtype=np.int64),
            np.array([code for _, code, _ in options], dtype=np.int64),
            np.array([orders for _, _, orders in options], dtype=np.int64),
            tables.and_table,
            tables.n_parts,
            falling,
            p,
            inverse,
        )
    player_cards = 5 * n_hands
    drawn_by_players = sum(available) - digits.astype(np.int64).sum(axis=1)
    powers = np.array([pow(52, j, p) for j in range(player_cards + 1)], dtype=np.int64)
    weights = _scale(weights, player_cards - drawn_by_players, powers, p, inverse)
    extend, level_sizes, final_index = _prefix_tables()
    total = 0
    for part in range(tables.n_parts):
        chosen = tables.chosen[tables.chosen_start[part] : tables.chosen_start[part + 1]]
        if len(chosen) == 0 or not bool((parts == part).any()):
            continue
        moments = _moments(
            digits, parts, weights, part, radix, falling, extend, level_sizes, p, inverse
        )
        for entry in chosen:
            drawn = [0] * 10
            for j in range(tables.slot_start[entry], tables.slot_start[entry + 1]):
                slot = int(tables.slots[j])
                drawn[slot // WIDTH] += slot % WIDTH
            moment = int(moments[final_index[tuple(drawn)]])
            spare = pow(52, _MAX_DEGREE - sum(drawn), p)
            total = (total + int(tables.orders[entry]) * spare * moment) % p
    return total


def from_residues(residues: Sequence[int], cards: int = MAX_CARDS_IN_GAME) -> Fraction:
    """P from the residues of the integer ``M = P * 52**cards`` (``0 <= M <= 52**cards``).

    >>> from_residues([1234567 % q for q in PRIMES], 4) == Fraction(1234567, 52**4)
    True
    """
    scale = 52**cards
    modulus, value = 1, 0
    for p, residue in zip(PRIMES[:RECONSTRUCT], residues[:RECONSTRUCT], strict=True):
        value += modulus * ((residue - value) * pow(modulus, -1, p) % p)
        modulus *= p
    if modulus <= 2 * scale or not 0 <= value <= scale:
        raise StartUniqueError(f"cannot rebuild a numerator over 52**{cards} from these primes")
    for p, residue in zip(PRIMES[RECONSTRUCT:], residues[RECONSTRUCT:], strict=True):
        if value % p != residue:
            raise StartUniqueError(f"the check modulo {p} failed")
    return Fraction(value, scale)


def _one_walk(job: tuple[LogicTable, int, int]) -> int:
    table, up, p = job
    available = [CARDS_WITH_VALUE[v] for v in VALUES]
    available[up - 1] -= 1
    return walk_residue(start_options(PlayerModel(table), up), 4, up, available, p)


#: One walk's residue for each (prime, up card value).
Walks = dict[int, dict[int, int]]


def compute_walks(table: LogicTable, jobs: int = 1) -> Walks:
    """The 40 walks (minutes each), ``jobs`` at a time."""
    work = [(table, up, p) for p in PRIMES for up in VALUES]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            found = list(pool.map(_one_walk, work))
    else:
        found = [_one_walk(job) for job in work]
    walks: Walks = {p: {} for p in PRIMES}
    for (_, up, p), residue in zip(work, found, strict=True):
        walks[p][up] = residue
    return walks


def combine_walks(walks: Walks) -> Fraction:
    """P(all cards unique) before round 1 from the walks of every up card and prime.

    ``P * 52**25 = sum over u of (cards of value u) * (walk_u * 52**24)``.
    """
    residues = [sum(CARDS_WITH_VALUE[up] * walks[p][up] for up in VALUES) % p for p in PRIMES]
    return from_residues(residues)


def compute_start_unique(table: LogicTable, jobs: int = 1) -> Fraction:
    """Exact P(all cards unique) before round 1: 40 walks of about a minute each."""
    return combine_walks(compute_walks(table, jobs))


def table_fingerprint(table: LogicTable) -> str:
    """A digest of the table's decisions (the figure depends on nothing else)."""
    return hashlib.sha256(json.dumps(table.to_json(), sort_keys=True).encode()).hexdigest()


def stored_data() -> dict[str, Any] | None:
    """The generated data file, or ``None`` when it has not been generated."""
    resource = resources.files("twentyone").joinpath("data", DATA_FILE)
    if not resource.is_file():
        return None
    data: dict[str, Any] = json.loads(resource.read_text("utf-8"))
    return data


def stored_walks(data: dict[str, Any]) -> Walks:
    return {
        int(p): {int(up): int(r) for up, r in by_up.items()} for p, by_up in data["walks"].items()
    }


@cache
def stored_start_unique(table: LogicTable) -> Fraction | None:
    """The generated figure, if the data file exists and was made for this table."""
    data = stored_data()
    if data is None or data.get("table_fingerprint") != table_fingerprint(table):
        return None
    return Fraction(int(data["numerator"]), int(data["denominator"]))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Compute the exact start-of-game figure.")
    parser.add_argument("--jobs", type=int, default=1, help="walks run in parallel")
    args = parser.parse_args(argv)
    table = load_logic_table()
    walks = compute_walks(table, args.jobs)
    figure = combine_walks(walks)
    target = Path(str(resources.files("twentyone").joinpath("data", DATA_FILE)))
    data = {
        "what": "P(All cards unique) before round 1, exact; python -m twentyone.analysis.exchange.start_unique",
        "table_fingerprint": table_fingerprint(table),
        "numerator": str(figure.numerator),
        "denominator": str(figure.denominator),
        "approximately": float(figure),
        "walks": {
            str(p): {str(up): str(r) for up, r in by_up.items()} for p, by_up in walks.items()
        },
    }
    target.write_text(json.dumps(data, indent=2) + "\n", "utf-8")
    sys.stdout.write(f"{float(figure):.15f}\n")


if __name__ == "__main__":
    main()
