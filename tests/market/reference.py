"""A slow, obviously correct model of the exchange's money, to check the fast engine against.

Everything here is recomputed from scratch with :class:`fractions.Fraction`, straight from the
spec's formulas, never from the engine's running totals.
"""

from __future__ import annotations

import math
from fractions import Fraction

from twentyone.market import Market
from twentyone.market.ladder import price_fraction
from twentyone.market.orders import Side


def toward_zero(value: Fraction) -> int:
    return math.trunc(value)


def backer_pnl(stake: int, price: Fraction, outcome: str) -> int:
    """The spec's table, rounded toward zero (dead heat: the odds divided by two)."""
    if outcome == "win":
        return toward_zero(stake * (price - 1))
    if outcome == "tie":
        return toward_zero(stake * (price / 2 - 1))
    return -stake


def outcome_names(can_tie: bool) -> tuple[str, ...]:
    return ("win", "tie", "lose") if can_tie else ("win", "lose")


def matched_pnl(market: Market, customer: str, selection: int) -> dict[str, int]:
    """The customer's matched P&L per outcome on one selection, from the fills alone."""
    out = dict.fromkeys(("win", "tie", "lose"), 0)
    for fill in market.fills:
        if fill.selection != selection:
            continue
        for outcome in out:
            pnl = backer_pnl(fill.stake, price_fraction(fill.price), outcome)
            if fill.backer == customer:
                out[outcome] += pnl
            if fill.layer == customer:
                out[outcome] -= pnl
    return out


def unmatched_pnl(market: Market, customer: str, selection: int) -> dict[str, int]:
    """Per outcome, the sum over the customer's open orders of ``min(0, P&L at the limit)``."""
    out = dict.fromkeys(("win", "tie", "lose"), 0)
    for order in market.orders.values():
        if order.customer != customer or order.selection != selection or not order.remaining:
            continue
        for outcome in out:
            pnl = backer_pnl(order.remaining, price_fraction(order.price), outcome)
            out[outcome] += min(0, -pnl if order.side is Side.LAY else pnl)
    return out


def settled_net(market: Market, customer: str) -> int:
    """The customer's P&L on the selections settled so far, from the fills alone."""
    names = {"winner": "win", "tied": "tie", "loser": "lose"}
    total = 0
    for index, result in enumerate(market.results):
        if result is not None:
            total += matched_pnl(market, customer, index)[names[result.value]]
    return total


def expected_hold(market: Market, customer: str) -> int:
    """Sum over unsettled selections of max(0, -worst) plus commission on the settled net."""
    if market.status.value != "open":
        return 0
    loss = 0
    for index, spec in enumerate(market.selections):
        if market.results[index] is not None:
            continue
        per_outcome = matched_pnl(market, customer, index)
        for order in market.orders.values():
            if order.customer != customer or order.selection != index or not order.remaining:
                continue
            for outcome in per_outcome:
                pnl = backer_pnl(order.remaining, price_fraction(order.price), outcome)
                if order.side is Side.LAY:
                    pnl = -pnl
                per_outcome[outcome] += min(0, pnl)
        worst = min(per_outcome[o] for o in outcome_names(spec.can_tie))
        loss += max(0, -worst)
    rate = market.settings.commission_rate
    return loss + max(0, math.floor(settled_net(market, customer) * rate))
