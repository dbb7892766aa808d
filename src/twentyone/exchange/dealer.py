"""The Exchange Blackjack dealer: draws to 16, stands on all 17s, stands on reaching five cards.

The game needs only *which* final codes the dealer can still reach (exact set reasoning: with an
infinite deck every card value can come next, so every reachable code has a positive
probability); the probabilities are in :mod:`twentyone.analysis.exchange.playouts`.

>>> from twentyone.exchange.hands import describe_code
>>> dealer_draws((16, False, 4)), dealer_draws((7, True, 2)), dealer_draws((14, False, 5))
(True, False, False)
>>> sorted(describe_code(code) for code in dealer_reachable((7, True, 2)))
['17']
>>> sorted(describe_code(code) for code in dealer_reachable((15, False, 4)))
['bust', 'five-card 21', 'five-card hand']
"""

from __future__ import annotations

from functools import cache

from twentyone.exchange.hands import (
    MAX_CARDS,
    VALUES,
    HandState,
    add_card,
    final_code,
    is_soft,
    total,
)


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
def dealer_reachable(state: HandState, hits_soft_17: bool = False) -> frozenset[int]:
    """Every final code the dealer can still end on from ``state`` (played out to the end)."""
    if not dealer_draws(state, hits_soft_17):
        return frozenset({final_code(state)})
    codes: set[int] = set()
    for value in VALUES:
        codes |= dealer_reachable(add_card(state, value), hits_soft_17)
    return frozenset(codes)
