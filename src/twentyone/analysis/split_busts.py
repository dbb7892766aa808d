"""P(every split hand busts) on a finite shoe, exactly: a walk over the compositions drawn.

Under original-bets-only a dealer blackjack takes one bet from a split box unless every split
hand is bust, so the split's value needs P(all hands bust) with the blackjack card set aside.
The hands draw from one finite shoe, so their busts are correlated; this module follows the
split in a dealing order where each hand is played to the end as soon as its second card is
dealt (any order in which every decision uses only cards already seen gives every complete
deal the same probability, see ``docs/analysis.md``), keeping, for every way the hands so far
have all busted, the multiset of cards they used:

- a state is (pair cards drawn ``K``, finished hands ``N``, multiset ``R`` of the finished
  hands' cards); every finished hand has busted, else the state has been dropped;
- while another split is possible the next second card is a pair card (``K + 1``) or a
  non-pair card, and then the hand is played: each way it busts adds its cards to ``R``;
- once no split is possible the waiting hands take any card (a pair card included).

A hand's busting draws are grouped by multiset with their number of valid orderings (like the
dealer's table), because P(a given sequence of cards) from a finite shoe depends only on its
multiset: ``prod_v (S_v)_(m_v) / (|S|)_(|m|)`` in falling factorials.

Two exact shortcuts keep it fast: the last two hands (once no split is possible) are summed in
one step against the shoe-free table of two busted hands (:func:`pair_table`), and every "states
times table" sum is done one card value at a time (:func:`contract_compositions`), as the summand
is a product over values but for a denominator that depends on the sizes only.

>>> import numpy as np
>>> from twentyone.analysis.engine import prepare, upcard_context, split_strategy
>>> from twentyone.rules import EnhcLoses, Peek, Rules
>>> rules = Rules(decks=1, peek=Peek.NONE, enhc_loses=EnhcLoses.ORIGINAL, max_hands=2)
>>> context = upcard_context(prepare(rules, (2, 0, 2, 0, 2, 2, 0, 4, 0, 8)), 9)  # ten up
>>> shoe = context.shoe - np.eye(10)[9] * 2 - np.eye(10)[0]  # both tens, the blackjack ace
>>> round(all_bust_chance(context.setup.space, split_strategy(context, 9), 9, shoe, 2), 12)
0.011538461538
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from twentyone.analysis import kernels
from twentyone.analysis.hands import HandSpace
from twentyone.errors import UnsupportedRulesError

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
#: States of the walk by (pair cards drawn, hands finished): compositions and masses.
Level = tuple[IntArray, FloatArray]


def bust_table(
    space: HandSpace, strategy: IntArray, pair: int, seconds: list[int]
) -> tuple[IntArray, FloatArray]:
    """Every way a split hand of ``pair`` busts when its second card is one of ``seconds``:
    the multisets of its second card and draws (the pair card left out) with their numbers
    of valid orderings (the second card first)."""
    ways = np.zeros(len(space.total))
    for second in seconds:
        hand = int(space.two_card[pair, second])
        if hand >= 0:
            ways[hand] += 1.0
    bust = kernels.bust_orderings(space.child, space.total, space.by_hard_desc, strategy, ways)
    hands, values = np.nonzero(bust)
    if len(hands) == 0:
        return np.zeros((0, 10), dtype=np.int64), np.zeros(0)
    entries = space.counts[hands].copy()
    entries[np.arange(len(hands)), values] += 1
    entries[:, pair] -= 1
    # One composition can bust from several hands (its last card differs): merge them.
    unique, which = np.unique(entries, axis=0, return_inverse=True)
    orderings = np.bincount(which.reshape(-1), weights=bust[hands, values], minlength=len(unique))
    return unique.astype(np.int64), orderings.astype(np.float64)


def all_bust_chance(
    space: HandSpace, strategy: IntArray, pair: int, shoe: FloatArray, limit: int
) -> float:
    """P(every hand of a split of ``pair`` busts) from the finite ``shoe`` (counts by value,
    after the up card, both pair cards and any card set aside), hands played by ``strategy``
    (STAND / HIT / DOUBLE by hand), splitting up to ``limit`` hands."""
    low, _ = all_bust_bounds(space, strategy, pair, shoe, limit)
    return low


def all_bust_bounds(
    space: HandSpace,
    strategy: IntArray,
    pair: int,
    shoe: FloatArray,
    limit: int,
    work: float | None = None,
) -> tuple[float, float]:
    """:func:`all_bust_chance` as bounds (low, high): with ``work`` (states times table entries
    one step may cost) a step that would cost more is skipped, its states' mass (what all their
    hands busting could add) going to ``high`` only; without it both bounds are the exact chance.
    """
    non_pair = bust_table(space, strategy, pair, [c for c in range(10) if c != pair])
    any_card = bust_table(space, strategy, pair, list(range(10)))
    if len(any_card[1]) == 0:
        return 0.0, 0.0  # no split hand can bust (split aces standing, say)
    # The tables, the shoe and the limit decide the answer: the optimal analysis and the chart
    # often play the busting hands alike, and then share one walk.
    key = (shoe.tobytes(), pair, limit, work, *(a.tobytes() for a in non_pair + any_card))
    if key in _KNOWN:
        return _KNOWN[key]
    found = _walk(shoe, pair, limit, work, non_pair, any_card)
    if len(_KNOWN) >= 64:
        _KNOWN.pop(next(iter(_KNOWN)))
    _KNOWN[key] = found
    return found


#: Results of :func:`_walk` by its inputs (a few dozen, oldest dropped first).
_KNOWN: dict[tuple[object, ...], tuple[float, float]] = {}


def _walk(
    shoe: FloatArray,
    pair: int,
    limit: int,
    work: float | None,
    non_pair: tuple[IntArray, FloatArray],
    any_card: tuple[IntArray, FloatArray],
) -> tuple[float, float]:
    """:func:`all_bust_bounds` from the split hand's bust tables (see there)."""
    most = any_card[0].max(axis=0)  # the any-card table holds every non-pair entry too
    # A state never holds more of a value than the shoe (its mass would be 0), nor more than
    # `limit` hands can use: these bounds make the composition codes unique (and small: a
    # busted hand holds few cards of each value, so the codes fit whatever the shoe).
    radix = np.array(
        [min(int(shoe[v]), int(most[v]) * limit) + 1 for v in range(10)], dtype=np.int64
    )
    if float(np.prod(radix.astype(np.float64))) >= 2.0**62:
        raise UnsupportedRulesError("too many split hands for the exact original-bets-only walk")
    levels: dict[tuple[int, int], Level] = {(0, 0): (np.zeros((1, 10), dtype=np.int64), np.ones(1))}
    chance = 0.0
    skipped = 0.0
    pair_any: tuple[IntArray, FloatArray] | None = None
    for pairs in range(max(limit - 1, 1)):
        shift = np.zeros(10)
        shift[pair] = float(pairs)
        for finished in range(pairs + 2):
            level = levels.pop((pairs, finished), None)
            if level is None:
                continue
            states, masses = level
            if work is not None and len(masses) * len(any_card[1]) > work:
                skipped += float(masses.sum())
                continue
            waiting = 2 + pairs - finished
            resplit = 2 + pairs < limit
            table = non_pair if resplit else any_card
            if resplit:
                left = shoe.sum() - pairs - states.sum(axis=1)
                pair_cards = shoe[pair] - pairs - states[:, pair]
                drawn = masses * np.where(left > 0, np.maximum(pair_cards, 0.0) / left, 0.0)
                _merge(levels, (pairs + 1, finished), (states, drawn), radix)
            if waiting == 1:
                chance += contract_compositions(shoe, shift, states, masses, *table)
            elif waiting == 2 and not resplit and len(masses) > PAIR_PATH * len(any_card[1]):
                # Both last hands take any card: one pass against the table of two busted
                # hands, never building the (much larger) level in between.
                if pair_any is None:
                    pair_any = pair_table(*any_card)
                chance += contract_compositions(shoe, shift, states, masses, *pair_any)
            else:
                grown = kernels.expand_compositions(shoe, shift, states, masses, *table, radix)
                _merge(levels, (pairs, finished + 1), grown, radix)
    return chance, chance + skipped


def _merge(
    levels: dict[tuple[int, int], Level], key: tuple[int, int], level: Level, radix: IntArray
) -> None:
    states, masses = level
    keep = masses > 0.0
    states, masses = states[keep], masses[keep]
    if key in levels:
        known_states, known_masses = levels[key]
        both = np.concatenate([known_states, states])
        # One integer per composition (the walk's mixed-radix code): a 1-d unique is fast.
        weights = np.cumprod(np.concatenate([[1], radix[:-1]])).astype(np.int64)
        unique, first, which = np.unique(both @ weights, return_index=True, return_inverse=True)
        total = np.bincount(
            which.reshape(-1), weights=np.concatenate([known_masses, masses]), minlength=len(unique)
        )
        levels[key] = (both[first], total.astype(np.float64))
    else:
        levels[key] = (states, masses)


def pair_table(entries: IntArray, orderings: FloatArray) -> tuple[IntArray, FloatArray]:
    """Two hands in turn, each busting by a table entry: the multisets of both hands' cards
    with their numbers of valid orderings (a product of the hands' own, summed over splits of
    the multiset). Shoe-free: P(a sequence) depends only on its multiset.

    >>> entries, orderings = pair_table(np.array([[0, 1], [2, 0]]), np.array([1.0, 3.0]))
    >>> entries.tolist(), orderings.tolist()
    ([[4, 0], [2, 1], [0, 2]], [9.0, 6.0, 1.0])
    """
    if len(orderings) == 0:
        return entries, orderings
    radix = 2 * entries.max(axis=0).astype(np.int64) + 1
    if float(np.prod(radix.astype(np.float64))) >= 2.0**62:
        raise UnsupportedRulesError("too many split hands for the exact original-bets-only walk")
    weights = np.cumprod(np.concatenate([[1], radix[:-1]]))
    # Mixed-radix codes add without carries: no digit of a sum of two entries reaches radix.
    codes = entries @ weights
    unique, both = kernels.pair_sums(codes, orderings)
    order = np.argsort(unique)
    unique, both = unique[order], both[order]
    compositions = (unique[:, None] // weights[None, :]) % radix[None, :]
    return compositions.astype(np.int64), both.astype(np.float64)


#: States per table entry above which the last two hands are summed against
#: :func:`pair_table` (that table costs about entries squared to build; below it, growing the
#: level one hand and summing is cheaper).
PAIR_PATH = 1.0

#: Largest intermediate array (rows times columns) :func:`contract_compositions` builds
#: before it leaves a sum to the plain kernel instead (memory, not time: 8 bytes each).
CONTRACT_CELLS = 2.5e7


def contract_compositions(
    shoe: FloatArray,
    shift: FloatArray,
    states: IntArray,
    masses: FloatArray,
    entries: IntArray,
    orderings: FloatArray,
) -> float:
    """``kernels.composition_sum`` (sum over states ``s`` and entries ``e`` of ``masses[s] *
    orderings[e] * prod_v (left_v - s_v)_(e_v) / (|left| - |s|)_(|e|)``, ``left = shoe -
    shift``) by summing out one card value at a time.

    The summand is a product over values except for the denominator, which depends on ``|s|``
    and ``|e|`` only; that factor is applied first, then for value ``v`` = 0..9 the states are
    merged by their counts of the values after ``v`` and the entries by their size and counts
    up to ``v``. The cost is the sizes of those merged sets multiplied, far below states times
    entries where both are large (a split's last two hands: about 100x less).

    >>> shoe = np.array([4.0, 4, 4, 4, 4, 4, 4, 4, 4, 16])
    >>> states = np.array([[1, 0, 0, 0, 0, 0, 0, 0, 0, 2], [0, 0, 0, 0, 1, 0, 0, 0, 1, 1]])
    >>> entries = np.array([[0, 0, 0, 0, 0, 1, 0, 0, 0, 2], [2, 0, 0, 0, 0, 0, 0, 0, 0, 1]])
    >>> args = (shoe, np.zeros(10), states, np.array([0.5, 0.25]), entries, np.array([3.0, 2.0]))
    >>> bool(abs(contract_compositions(*args) - kernels.composition_sum(*args)) < 1e-17)
    True
    """
    left = shoe - shift
    # As the plain kernel: a state holding more of a value than the shoe adds nothing.
    keep = (masses != 0.0) & (states <= left[None, :]).all(axis=1)
    states, masses = states[keep], masses[keep]
    if len(masses) == 0 or len(orderings) == 0:
        return 0.0
    total = float(left.sum())
    # Rows: states by their counts of values v..9 (depth v); row_ids[v] labels each state.
    row_ids = [np.zeros(len(masses), dtype=np.int64)] * 11
    for value in range(9, -1, -1):
        codes = states[:, value] + (int(states[:, value].max()) + 1) * row_ids[value + 1]
        _, inverse = np.unique(codes, return_inverse=True)
        row_ids[value] = inverse.reshape(-1).astype(np.int64)
    # Columns: entries by their size and counts of values 0..v-1 (depth v).
    sizes = entries.sum(axis=1)
    _, first_ids = np.unique(sizes, return_inverse=True)
    column_ids = [first_ids.reshape(-1).astype(np.int64)]
    for value in range(10):
        codes = column_ids[value] * (int(entries[:, value].max()) + 1) + entries[:, value]
        _, inverse = np.unique(codes, return_inverse=True)
        column_ids.append(inverse.reshape(-1).astype(np.int64))
    rows = [int(ids.max()) + 1 for ids in row_ids]
    columns = [int(ids.max()) + 1 for ids in column_ids]
    if max(r * c for r, c in zip(rows, columns, strict=True)) > CONTRACT_CELLS:
        return float(kernels.composition_sum(shoe, shift, states, masses, entries, orderings))
    # Depth 0: each state's mass over (|left| - |s|)_k for every entry size k.
    size_values = np.unique(sizes)
    # 1 / (cards left)_k by the states' distinct sizes (few), then looked up per state.
    state_sizes, size_of_state = np.unique(states.sum(axis=1), return_inverse=True)
    by_size = np.ones((len(state_sizes), len(size_values)))
    for which_size, used in enumerate(state_sizes):
        for index, size in enumerate(size_values):
            product = float(np.prod(total - float(used) - np.arange(int(size), dtype=np.float64)))
            by_size[which_size, index] = 1.0 / product if product > 0.0 else 0.0
    falling = by_size[size_of_state.reshape(-1)]
    cells = row_ids[0][:, None] * columns[0] + np.arange(columns[0])
    current = np.bincount(
        cells.reshape(-1),
        weights=(masses[:, None] * falling).reshape(-1),
        minlength=rows[0] * columns[0],
    ).reshape(rows[0], columns[0])
    for value in range(10):
        row_map = np.zeros(rows[value], dtype=np.int64)
        row_map[row_ids[value]] = row_ids[value + 1]
        row_value = np.zeros(rows[value], dtype=np.int64)
        row_value[row_ids[value]] = states[:, value]
        parent = np.zeros(columns[value + 1], dtype=np.int64)
        parent[column_ids[value + 1]] = column_ids[value]
        count = np.zeros(columns[value + 1], dtype=np.int64)
        count[column_ids[value + 1]] = entries[:, value]
        most = int(entries[:, value].max())
        factors = np.ones((int(states[:, value].max()) + 1, most + 1))
        for drawn in range(1, most + 1):
            cards = left[value] - np.arange(factors.shape[0]) - (drawn - 1)
            factors[:, drawn] = factors[:, drawn - 1] * np.maximum(cards, 0.0)
        current = kernels.contract_step(
            current, row_map, row_value, parent, count, factors, rows[value + 1]
        )
    # Depth 10: one row, one column per distinct entry.
    weights = np.bincount(column_ids[10], weights=orderings, minlength=columns[10])
    return float(current[0] @ weights)
