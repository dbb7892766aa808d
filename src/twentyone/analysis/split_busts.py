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
from twentyone.analysis.support import UnsupportedRulesError

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
                _merge(levels, (pairs + 1, finished), (states, drawn))
            if waiting == 1:
                chance += kernels.composition_sum(shoe, shift, states, masses, *table)
            else:
                grown = kernels.expand_compositions(shoe, shift, states, masses, *table, radix)
                _merge(levels, (pairs, finished + 1), grown)
    return chance, chance + skipped


def _merge(levels: dict[tuple[int, int], Level], key: tuple[int, int], level: Level) -> None:
    states, masses = level
    keep = masses > 0.0
    states, masses = states[keep], masses[keep]
    if key in levels:
        known_states, known_masses = levels[key]
        both = np.concatenate([known_states, states])
        unique, which = np.unique(both, axis=0, return_inverse=True)
        total = np.bincount(
            which.reshape(-1), weights=np.concatenate([known_masses, masses]), minlength=len(unique)
        )
        levels[key] = (unique.astype(np.int64), total.astype(np.float64))
    else:
        levels[key] = (states, masses)
