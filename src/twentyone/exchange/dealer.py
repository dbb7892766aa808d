"""The Exchange Blackjack dealer: draws to 16, stands on all 17s, stands on reaching five cards.

With an infinite deck each card value ``v`` comes with probability ``RANKS_WITH_VALUE[v] / 13``.

>>> dealer_draws((16, False, 4)), dealer_draws((7, True, 2)), dealer_draws((14, False, 5))
(True, False, False)
>>> sorted(describe_code(code) for code in dealer_reachable((7, True, 2)))
['17']
>>> dist = dealer_finals((6, False, 1))
>>> sum(dist.values())
Fraction(1, 1)
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from twentyone.exchange.hands import (
    MAX_CARDS,
    RANKS_WITH_VALUE,
    VALUES,
    HandState,
    add_card,
    describe_code,  # noqa: F401  (doctests)
    final_code,
    is_soft,
    total,
)

#: Probability of each card value in an infinite deck.
VALUE_PROBABILITY: dict[int, Fraction] = {v: Fraction(RANKS_WITH_VALUE[v], 13) for v in VALUES}


def dealer_draws(state: HandState, hits_soft_17: bool = False) -> bool:
    """Whether a dealer hand in this state takes another card."""
    hard, _, cards = state
    if hard > 21 or cards >= MAX_CARDS:
        return False
    best = total(state)
    if best < 17:
        return True
    return hits_soft_17 and best == 17 and is_soft(state)


@cache
def dealer_finals(state: HandState, hits_soft_17: bool = False) -> dict[int, Fraction]:
    """Exact distribution of the dealer's final code from ``state`` (played out to the end)."""
    if not dealer_draws(state, hits_soft_17):
        return {final_code(state): Fraction(1)}
    out: dict[int, Fraction] = {}
    for value in VALUES:
        weight = VALUE_PROBABILITY[value]
        for code, p in dealer_finals(add_card(state, value), hits_soft_17).items():
            out[code] = out.get(code, Fraction(0)) + weight * p
    return out


@cache
def dealer_reachable(state: HandState, hits_soft_17: bool = False) -> frozenset[int]:
    """Every final code the dealer can still end on from ``state``."""
    return frozenset(dealer_finals(state, hits_soft_17))
