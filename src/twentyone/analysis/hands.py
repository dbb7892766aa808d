"""Every non-bust player hand composition of two or more cards, with its transitions.

A hand is a multiset of card values; its value never depends on the order of its cards, so
the analysis works on compositions (3072 of them for 6+ decks, 2008 for one deck).

>>> len(hand_space(1).counts), len(hand_space(6).counts), len(hand_space(None).counts)
(2008, 3072, 3072)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from twentyone.analysis.shoe_counts import ACE, TEN
from twentyone.hand import best_total, is_soft

#: ``child`` marks a draw that busts the hand.
BUSTED = -1
#: ``child`` marks a draw the deck cannot supply (more of a value than the decks hold).
IMPOSSIBLE = -2


@dataclass(frozen=True)
class HandSpace:
    """Hand compositions: ``counts[h]`` by value, ``hard``/``total``/``soft``/``cards``.

    ``child[h, v]`` is the hand after drawing value ``v`` (or BUSTED / IMPOSSIBLE);
    ``by_hard_desc`` lists the hands so that every child comes before its parent;
    ``pair_hand[v, w]`` is the two-card hand of values ``v`` and ``w``.
    """

    counts: npt.NDArray[np.int64]
    hard: npt.NDArray[np.int64]
    total: npt.NDArray[np.int64]
    soft: npt.NDArray[np.bool_]
    cards: npt.NDArray[np.int64]
    child: npt.NDArray[np.int64]
    by_hard_desc: npt.NDArray[np.int64]
    two_card: npt.NDArray[np.int64]

    def index(self, values: tuple[int, ...]) -> int:
        """Index of the hand holding card indexes ``values``."""
        counts = [0] * 10
        for value in values:
            counts[value] += 1
        return _lookup(self, tuple(counts))


def _lookup(space: HandSpace, counts: tuple[int, ...]) -> int:
    return _INDEXES[id(space)][counts]


@functools.cache
def hand_space(decks: int | None) -> HandSpace:
    """All non-bust hands of 2+ cards possible with ``decks`` decks (None: infinite)."""
    limit = [10**6 if decks is None else (16 if v == TEN else 4) * decks for v in range(10)]
    found: list[tuple[int, ...]] = []

    def extend(counts: list[int], start: int, hard: int, cards: int) -> None:
        if cards >= 2:
            found.append(tuple(counts))
        for value in range(start, 10):
            if hard + value + 1 > 21 or counts[value] >= limit[value]:
                continue
            counts[value] += 1
            extend(counts, value, hard + value + 1, cards + 1)
            counts[value] -= 1

    extend([0] * 10, 0, 0, 0)
    index = {counts: position for position, counts in enumerate(found)}
    array = np.array(found, dtype=np.int64)
    values = np.arange(1, 11)
    hard = array @ values
    # The one soft-total rule (twentyone.hand), hand by hand: built once per shoe size.
    soft = np.array(
        [is_soft(int(total), bool(aces)) for total, aces in zip(hard, array[:, ACE], strict=True)],
        dtype=np.bool_,
    )
    child = np.full((len(found), 10), BUSTED, dtype=np.int64)
    for position, counts in enumerate(found):
        for value in range(10):
            if counts[value] >= limit[value]:
                child[position, value] = IMPOSSIBLE
            elif hard[position] + value + 1 <= 21:
                grown = list(counts)
                grown[value] += 1
                child[position, value] = index[tuple(grown)]
    two_card = np.full((10, 10), -1, dtype=np.int64)
    for first in range(10):
        for second in range(10):
            counts_list = [0] * 10
            counts_list[first] += 1
            counts_list[second] += 1
            two_card[first, second] = index.get(tuple(counts_list), -1)
    space = HandSpace(
        counts=array,
        hard=hard.astype(np.int64),
        total=np.array(
            [
                best_total(int(total), bool(aces))
                for total, aces in zip(hard, array[:, ACE], strict=True)
            ],
            dtype=np.int64,
        ),
        soft=soft,
        cards=array.sum(axis=1).astype(np.int64),
        child=child,
        by_hard_desc=np.argsort(-hard, kind="stable").astype(np.int64),
        two_card=two_card,
    )
    _INDEXES[id(space)] = index
    return space


_INDEXES: dict[int, dict[tuple[int, ...], int]] = {}
