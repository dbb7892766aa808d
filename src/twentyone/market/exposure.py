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

Every change is incremental (O(1) per customer touched), which keeps matching fast. The
market's hot path (``Market._execute`` and ``Market._cancel``) runs the same integer formulas
inline (``contribution``, ``record_fill``, ``refresh``); the methods here are their plain
statement, and the stateful test checks both against a full recomputation.
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

_NOTHING = (0, 0, 0)


def unmatched_contribution(
    side: Side, price: int, remaining: int, divisor: int
) -> tuple[int, int, int]:
    """Per outcome, ``min(0, P&L)`` of an unmatched remainder at its limit price.

    The plain statement of what :meth:`MarketExposure.contribution` computes with its
    per-price tables (the tests check that both agree).

    >>> from twentyone.market.ladder import index_of
    >>> unmatched_contribution(Side.LAY, index_of("4.5"), 1000, 2)  # the lay's liability
    (-3500, -1250, 0)
    >>> unmatched_contribution(Side.BACK, index_of("1.2"), 1000, 2)  # a dead heat below 2 loses
    (0, -400, -1000)
    """
    if not remaining:
        return _NOTHING
    win, tie, lose = backer_outcomes(remaining, PRICES_IN_HUNDREDTHS[price], divisor)
    if side is Side.BACK:
        return 0, min(0, tie), lose
    return -win, min(0, -tie), 0


class CustomerExposure:
    """One customer's position on one market."""

    __slots__ = ("loss", "rows", "settled_net", "worst", "written")

    def __init__(self, selections: int) -> None:
        self.rows: list[Row] = [[0, 0, 0, 0, 0, 0] for _ in range(selections)]
        self.worst = [0] * selections
        self.loss = 0  # sum over unsettled selections of max(0, -worst)
        self.settled_net = 0  # P&L of the selections settled so far
        # The hold the market last wrote to the ledger for this position (its hold id's
        # amount there): the market skips the ledger when a hold is unchanged, and checks an
        # order against available + written, without looking the hold up.
        self.written = 0


class MarketExposure:
    """Positions of every customer on one market, and their holds.

    Every change is incremental: a fill or a change of an unmatched remainder adds its
    difference to the customer's row, and :meth:`refresh` moves the selection's worst and the
    customer's ``loss`` by the change of ``max(0, -worst)``, so the cost of an order does not
    grow with the number of orders. The integer arithmetic is exact: per ladder price the
    market keeps ``P x 100 - 100`` (win) and ``P x 100 - 100 x n`` (dead heat), and a figure
    is ``stake x factor`` divided by ``100`` (or ``100 x n``) rounded toward zero.
    """

    __slots__ = (
        "can_tie",
        "customers",
        "divisor",
        "rate",
        "settled",
        "tie_factor",
        "tie_scale",
        "win_factor",
    )

    def __init__(self, can_tie: Sequence[bool], rate: Fraction, divisor: int) -> None:
        self.can_tie = tuple(can_tie)
        self.rate = rate
        self.divisor = divisor
        self.settled = [False] * len(self.can_tie)
        self.customers: dict[str, CustomerExposure] = {}
        self.win_factor = tuple(h - 100 for h in PRICES_IN_HUNDREDTHS)
        self.tie_factor = tuple(h - 100 * divisor for h in PRICES_IN_HUNDREDTHS)
        self.tie_scale = 100 * divisor

    def of(self, customer: str) -> CustomerExposure:
        found = self.customers.get(customer)
        if found is None:
            found = self.customers[customer] = CustomerExposure(len(self.can_tie))
        return found

    def hold(self, customer: str) -> int:
        found = self.customers.get(customer)
        if found is None:
            return 0
        net = found.settled_net
        return found.loss + (commission(net, self.rate) if net > 0 else 0)

    def contribution(self, side: Side, price: int, remaining: int) -> tuple[int, int, int]:
        """:func:`unmatched_contribution` from the per-price tables (the hot path)."""
        if not remaining:
            return _NOTHING
        tie = remaining * self.tie_factor[price]
        if side is Side.BACK:  # loses the stake; a dead heat below 2 loses part of it
            return 0, (-(-tie // self.tie_scale) if tie < 0 else 0), -remaining
        # A lay loses S x (P - 1) on a win and, above 2, the backer's dead-heat profit.
        win = remaining * self.win_factor[price] // 100
        return -win, (-(tie // self.tie_scale) if tie > 0 else 0), 0

    def _worst(self, selection: int, row: Row) -> int:
        win = row[0] + row[3]
        lose = row[2] + row[5]
        worst = win if win < lose else lose
        if self.can_tie[selection]:
            tie = row[1] + row[4]
            if tie < worst:
                worst = tie
        return worst

    def refresh(self, exposure: CustomerExposure, selection: int) -> None:
        """Bring the selection's worst and the customer's loss up to date with its row."""
        if self.settled[selection]:
            return
        old = exposure.worst[selection]
        new = self._worst(selection, exposure.rows[selection])
        if new != old:
            exposure.worst[selection] = new
            exposure.loss += (-new if new < 0 else 0) - (-old if old < 0 else 0)

    def full_loss(self, customer: str) -> int:
        """``loss`` recomputed from the rows (what the incremental figure must always equal)."""
        found = self.customers.get(customer)
        if found is None:
            return 0
        total = 0
        for selection, row in enumerate(found.rows):
            if not self.settled[selection]:
                total += max(0, -self._worst(selection, row))
        return total

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
        would be cancelled at the same time (a re-price). The plain statement of the check
        that ``Market._execute`` runs inline.
        """
        exposure = self.customers.get(customer)
        if exposure is None:
            exposure = CustomerExposure(len(self.can_tie))
        row = list(exposure.rows[selection])
        for column, change in zip((3, 4, 5), self.contribution(side, price, size), strict=True):
            row[column] += change
        if released is not None:
            old = self.contribution(side, released[0], released[1])
            for column, change in zip((3, 4, 5), old, strict=True):
                row[column] -= change
        new = self._worst(selection, row)
        old_worst = exposure.worst[selection]
        loss = exposure.loss + max(0, -new) - max(0, -old_worst)
        net = exposure.settled_net
        return loss + commission(net, self.rate)

    def rest_whole(
        self, exposure: CustomerExposure, selection: int, side: Side, price: int, size: int
    ) -> None:
        """A new order of ``size`` rests unmatched (the common case, kept short)."""
        row = exposure.rows[selection]
        win, tie, lose = self.contribution(side, price, size)
        row[3] += win
        row[4] += tie
        row[5] += lose
        self.refresh(exposure, selection)

    def shift_unmatched(
        self,
        exposure: CustomerExposure,
        selection: int,
        side: Side,
        price: int,
        before: int,
        after: int,
    ) -> None:
        """An order's unmatched remainder went from ``before`` to ``after`` (no refresh)."""
        row = exposure.rows[selection]
        old = self.contribution(side, price, before)
        new = self.contribution(side, price, after)
        row[3] += new[0] - old[0]
        row[4] += new[1] - old[1]
        row[5] += new[2] - old[2]

    def change_unmatched(
        self, customer: str, selection: int, side: Side, price: int, before: int, after: int
    ) -> None:
        """An order's unmatched remainder went from ``before`` to ``after``."""
        exposure = self.of(customer)
        self.shift_unmatched(exposure, selection, side, price, before, after)
        self.refresh(exposure, selection)

    def record_fill(
        self, back: CustomerExposure, lay: CustomerExposure, selection: int, price: int, stake: int
    ) -> None:
        """A matched bet's P&L per outcome into both rows (no refresh)."""
        win = stake * self.win_factor[price] // 100
        tie = stake * self.tie_factor[price]
        tie = tie // self.tie_scale if tie >= 0 else -(-tie // self.tie_scale)
        back_row = back.rows[selection]
        back_row[0] += win
        back_row[1] += tie
        back_row[2] -= stake
        lay_row = lay.rows[selection]
        lay_row[0] -= win
        lay_row[1] -= tie
        lay_row[2] += stake

    def add_fill(self, backer: str, layer: str, selection: int, price: int, stake: int) -> None:
        back, lay = self.of(backer), self.of(layer)
        self.record_fill(back, lay, selection, price, stake)
        self.refresh(back, selection)
        self.refresh(lay, selection)

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
