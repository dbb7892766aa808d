"""Exposure: how much of a customer's balance a market holds back.

Per customer and selection the market keeps, for each nominal outcome (win / tie / lose for
a selection that can tie, win / lose otherwise), the customer's profit or loss from his matched
bets plus, for each unmatched remainder, ``min(0, its P&L at its limit price)``: an unmatched
order counts as if it filled in the worst way. The selection's *worst* is the minimum over its
outcomes. The hold is::

    hold = sum over unsettled selections of max(0, -worst)  +  commission(settled net)

Decided (a stricter reading of the spec's ``max(0, -sum of worsts)`` plus worst-case
commission): a selection in profit in every outcome does not offset another's possible loss,
because selections settle one at a time and a loss posted first must be covered before a later
win arrives; in exchange, commission on profits not yet settled is not held, because those
profits pay it. With this hold no fill (fills are at the limit or better), settlement or void
can ever need more money than the customer has: each of them lowers the hold by at least what
it takes from the balance (see ``docs/exchange-market.md``).

Every change is incremental (O(1) per customer touched), which keeps matching fast.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from twentyone.market.commission import commission
from twentyone.market.ladder import PRICES_IN_HUNDREDTHS
from twentyone.market.orders import Side
from twentyone.market.settlement import LOSE, TIE, WIN, backer_outcomes

#: A row per selection: matched P&L for win, tie, lose, then unmatched worst-case for each.
Row = list[int]


def unmatched_contribution(
    side: Side, price: int, remaining: int, divisor: int
) -> tuple[int, int, int]:
    """Per outcome, ``min(0, P&L)`` of an unmatched remainder at its limit price."""
    if not remaining:
        return 0, 0, 0
    win, tie, lose = backer_outcomes(remaining, PRICES_IN_HUNDREDTHS[price], divisor)
    if side is Side.BACK:
        return 0, min(0, tie), lose
    return -win, min(0, -tie), 0


class CustomerExposure:
    """One customer's position on one market."""

    __slots__ = ("loss", "rows", "settled_net", "worst")

    def __init__(self, selections: int) -> None:
        self.rows: list[Row] = [[0, 0, 0, 0, 0, 0] for _ in range(selections)]
        self.worst = [0] * selections
        self.loss = 0  # sum over unsettled selections of max(0, -worst)
        self.settled_net = 0  # P&L of the selections settled so far


class MarketExposure:
    """Positions of every customer on one market, and their holds."""

    def __init__(self, can_tie: Sequence[bool], rate: Fraction, divisor: int) -> None:
        self.can_tie = tuple(can_tie)
        self.rate = rate
        self.divisor = divisor
        self.settled = [False] * len(self.can_tie)
        self.customers: dict[str, CustomerExposure] = {}

    def of(self, customer: str) -> CustomerExposure:
        found = self.customers.get(customer)
        if found is None:
            found = self.customers[customer] = CustomerExposure(len(self.can_tie))
        return found

    def hold(self, customer: str) -> int:
        found = self.customers.get(customer)
        if found is None:
            return 0
        return found.loss + commission(found.settled_net, self.rate)

    def _worst(self, selection: int, row: Row) -> int:
        win = row[0] + row[3]
        lose = row[2] + row[5]
        worst = win if win < lose else lose
        if self.can_tie[selection]:
            tie = row[1] + row[4]
            if tie < worst:
                worst = tie
        return worst

    def _refresh(self, exposure: CustomerExposure, selection: int) -> None:
        if self.settled[selection]:
            return
        old = exposure.worst[selection]
        new = self._worst(selection, exposure.rows[selection])
        exposure.worst[selection] = new
        exposure.loss += (-new if new < 0 else 0) - (-old if old < 0 else 0)

    def hold_with_order(
        self,
        customer: str,
        selection: int,
        side: Side,
        price: int,
        size: int,
        released: tuple[int, int] | None = None,
    ) -> int:
        """The hold if a new order of ``size`` rested unmatched at its limit (nothing changes).

        ``released`` = (price, remaining) of an order on the same selection and side that
        would be cancelled at the same time (a re-price).
        """
        exposure = self.customers.get(customer) or CustomerExposure(len(self.can_tie))
        row = list(exposure.rows[selection])
        win, tie, lose = unmatched_contribution(side, price, size, self.divisor)
        row[3] += win
        row[4] += tie
        row[5] += lose
        if released is not None:
            win, tie, lose = unmatched_contribution(side, released[0], released[1], self.divisor)
            row[3] -= win
            row[4] -= tie
            row[5] -= lose
        old = exposure.worst[selection]
        new = self._worst(selection, row)
        loss = exposure.loss + (-new if new < 0 else 0) - (-old if old < 0 else 0)
        return loss + commission(exposure.settled_net, self.rate)

    def change_unmatched(
        self, customer: str, selection: int, side: Side, price: int, before: int, after: int
    ) -> None:
        """An order's unmatched remainder went from ``before`` to ``after``."""
        exposure = self.of(customer)
        row = exposure.rows[selection]
        old = unmatched_contribution(side, price, before, self.divisor)
        new = unmatched_contribution(side, price, after, self.divisor)
        row[3] += new[0] - old[0]
        row[4] += new[1] - old[1]
        row[5] += new[2] - old[2]
        self._refresh(exposure, selection)

    def add_fill(self, backer: str, layer: str, selection: int, price: int, stake: int) -> None:
        win, tie, lose = backer_outcomes(stake, PRICES_IN_HUNDREDTHS[price], self.divisor)
        back_row = self.of(backer).rows[selection]
        back_row[WIN] += win
        back_row[TIE] += tie
        back_row[LOSE] += lose
        lay_row = self.of(layer).rows[selection]
        lay_row[WIN] -= win
        lay_row[TIE] -= tie
        lay_row[LOSE] -= lose
        self._refresh(self.customers[backer], selection)
        self._refresh(self.customers[layer], selection)

    def settle(self, selection: int, outcome: int) -> dict[str, int]:
        """Settle a selection: each customer's P&L on it (matched bets only)."""
        out: dict[str, int] = {}
        for customer, exposure in self.customers.items():
            row = exposure.rows[selection]
            pnl = row[outcome]
            worst = exposure.worst[selection]
            exposure.loss -= -worst if worst < 0 else 0
            exposure.worst[selection] = 0
            exposure.settled_net += pnl
            row[:] = [0, 0, 0, 0, 0, 0]
            out[customer] = pnl
        self.settled[selection] = True
        return out

    def void_unsettled(self) -> None:
        """Void every unsettled selection: matched bets and remainders count for nothing."""
        for selection, done in enumerate(self.settled):
            if done:
                continue
            for exposure in self.customers.values():
                worst = exposure.worst[selection]
                exposure.loss -= -worst if worst < 0 else 0
                exposure.worst[selection] = 0
                exposure.rows[selection][:] = [0, 0, 0, 0, 0, 0]
            self.settled[selection] = True

    def outcomes(self, customer: str, selection: int) -> dict[str, int]:
        """The customer's matched P&L on a selection for each of its nominal outcomes."""
        row = self.of(customer).rows[selection]
        out = {"win": row[WIN], "lose": row[LOSE]}
        if self.can_tie[selection]:
            out["tie"] = row[TIE]
        return out
