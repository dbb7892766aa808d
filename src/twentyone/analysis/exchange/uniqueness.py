"""Exact probability that every card turned face up in a game is a different card.

With an infinite deck a new card is a card not seen before, *and* of value ``v``, with
probability ``available[v] / 52``, where ``available[v]`` counts the cards of value ``v`` not
yet turned; that card is then no longer available. So the probability of a whole path of the
game with all cards different is a product of such factors, which depends on the path only
through how many cards of each value it turns. The hands are combined one by one over
"cards still available" (a composition-dependent walk, as for a one-deck shoe), then the
dealer's cards are added, stopping where the game stops: the game ends at the first dealer
checkpoint where every player hand is decided, and cards never turned do not count.

For each way a player hand can play out we keep the set of dealer positions at which its
result would be decided (a bit mask); the game stops at a dealer position when the masks of
all four hands share its bit.

>>> from fractions import Fraction
>>> from twentyone.exchange.logic_table import load_logic_table
>>> from twentyone.analysis.exchange.playouts import PlayerModel
>>> model = PlayerModel(load_logic_table())
>>> p = unique_probability(model, [(20, False, 2)] * 4, True, 6, (6, False, 1),
...                        [4] * 9 + [16], Fraction)
>>> 0 < p < 1
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from typing import TypeVar

from twentyone.analysis.exchange.playouts import NO_CARDS, Counts, PlayerModel, add_count
from twentyone.exchange.certainty import decided_result
from twentyone.exchange.dealer import dealer_draws, dealer_reachable
from twentyone.exchange.hands import (
    CARDS_WITH_VALUE,
    FINAL_CODES,
    VALUES,
    HandState,
    add_card,
    final_code,
)

N = TypeVar("N", Fraction, float)

FINAL = -1
NO_PARENT = -1
#: (cards of each value drawn, dealer position type or FINAL, parent position type, orders)
DealerEntry = tuple[Counts, int, int, int]


def full_deck() -> list[int]:
    return [CARDS_WITH_VALUE[v] for v in VALUES]


@cache
def dealer_entries(start: HandState) -> tuple[tuple[frozenset[int], ...], tuple[DealerEntry, ...]]:
    """Every dealer path from ``start``: the position types and the aggregated entries.

    A position type is the set of final codes the dealer can still reach there; the stop rule
    depends on nothing else.
    """
    types: dict[frozenset[int], int] = {}
    tally: dict[tuple[Counts, int, int], int] = {}
    stack: list[tuple[HandState, Counts, int]] = [(start, NO_CARDS, NO_PARENT)]
    while stack:
        state, counts, parent = stack.pop()
        if dealer_draws(state):
            reach = dealer_reachable(state)
            kind = types.setdefault(reach, len(types))
            key = (counts, kind, parent)
            tally[key] = tally.get(key, 0) + 1
            for value in VALUES:
                stack.append((add_card(state, value), add_count(counts, value), kind))
        else:
            key = (counts, FINAL, parent)
            tally[key] = tally.get(key, 0) + 1
    ordered = tuple(sorted(types, key=types.__getitem__))
    entries = tuple((c, k, p, n) for (c, k, p), n in sorted(tally.items()))
    return ordered, entries


def decided_masks(types: Sequence[frozenset[int]]) -> list[int]:
    """For each final code, the bit mask of dealer position types where it is decided."""
    masks = []
    for code in FINAL_CODES:
        mask = 0
        for bit, reach in enumerate(types):
            if decided_result(frozenset({code}), reach) is not None:
                mask |= 1 << bit
        masks.append(mask)
    return masks


def _included(mask: int, kind: int, parent: int) -> bool:
    """Whether the game, with players sharing ``mask``, stops exactly at this dealer entry."""
    parent_decided = parent != NO_PARENT and bool(mask >> parent & 1)
    if kind == FINAL:
        return not parent_decided
    return bool(mask >> kind & 1) and not parent_decided


def _weight(available: Sequence[int], counts: Counts, orders: int, one: N) -> tuple[N, list[int]]:
    """Probability factor of drawing ``counts`` all different, and what is left."""
    weight = one * orders
    left = list(available)
    drawn = 0
    for index, count in enumerate(counts):
        for _ in range(count):
            if left[index] <= 0:
                return one * 0, left
            weight *= left[index]
            left[index] -= 1
            drawn += 1
    return weight / (one * 52) ** drawn, left


def unique_probability(
    model: PlayerModel,
    players: Sequence[HandState],
    played: bool,
    up_value: int,
    dealer: HandState,
    available: Sequence[int],
    number: Callable[[int], N],
) -> N:
    """P(no card turned from now on repeats a turned card or another new card).

    ``players`` are the four hands as shown, ``played`` whether they have drawn, ``dealer``
    the dealer's hand, ``available`` how many cards of each value have not been turned.
    ``number`` is ``Fraction`` (exact) or ``float``.
    """
    one = number(1)
    types, entries = dealer_entries(dealer)
    masks = decided_masks(types)
    everything = (1 << len(types)) - 1
    states: dict[tuple[tuple[int, ...], int], N] = {(tuple(available), everything): one}
    for hand in players:
        options = [(NO_CARDS, final_code(hand), 1)] if played else model.draws(hand, up_value)
        states = _combine(states, options, masks, one)
    return _finish(states, entries, one)


def _combine(
    states: dict[tuple[tuple[int, ...], int], N],
    options: Sequence[tuple[Counts, int, int]],
    masks: Sequence[int],
    one: N,
) -> dict[tuple[tuple[int, ...], int], N]:
    out: dict[tuple[tuple[int, ...], int], N] = {}
    for (available, mask), weight in states.items():
        for counts, code, orders in options:
            factor, left = _weight(available, counts, orders, one)
            if not factor:
                continue
            key = (tuple(left), mask & masks[code])
            out[key] = out.get(key, one * 0) + weight * factor
    return out


def _finish(
    states: dict[tuple[tuple[int, ...], int], N], entries: Sequence[DealerEntry], one: N
) -> N:
    total = one * 0
    by_mask: dict[int, list[DealerEntry]] = {}
    for (available, mask), weight in states.items():
        chosen = by_mask.get(mask)
        if chosen is None:
            chosen = [e for e in entries if _included(mask, e[1], e[2])]
            by_mask[mask] = chosen
        for counts, _, _, orders in chosen:
            factor, _ = _weight(available, counts, orders, one)
            total += weight * factor
    return total
