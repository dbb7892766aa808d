"""Exact certainty: when is a player hand's result the same in every continuation?

A player hand that can still end on any code in ``player_codes`` against a dealer who can
still end on any code in ``dealer_codes`` is *decided* when every pairing gives the same
result. Every continuation of an infinite-deck game has a positive probability, so this set
reasoning is the same as "the probability is exactly 1", with no floating point involved.

>>> from twentyone.exchange.hands import BLACKJACK, BUST
>>> decided_result(frozenset({BLACKJACK}), dealer_reachable((15, False, 2)))
<Result.WIN: 'win'>
>>> decided_result(frozenset({BLACKJACK}), dealer_reachable((14, False, 2))) is None
True
>>> decided_result(frozenset({BUST}), dealer_reachable((10, False, 1)))
<Result.LOSE: 'lose'>
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from twentyone.exchange.dealer import dealer_reachable
from twentyone.exchange.hands import Result, compare


@cache
def decided_result(player_codes: frozenset[int], dealer_codes: frozenset[int]) -> Result | None:
    """The result if it is certain, else ``None``."""
    results = {compare(mine, theirs) for mine in player_codes for theirs in dealer_codes}
    if len(results) == 1:
        return next(iter(results))
    return None


def all_decided(players: Iterable[frozenset[int]], dealer_codes: frozenset[int]) -> bool:
    return all(decided_result(codes, dealer_codes) is not None for codes in players)


__all__ = ["all_decided", "dealer_reachable", "decided_result"]
