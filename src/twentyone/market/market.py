"""One market (one game): the API the server calls.

A market knows its selections by name and nothing of cards: it is told when a betting round
opens (with the fair prices to show), when it closes, and how each selection settled. Every
command is checked before anything changes, and refused with a typed error whose message
says why; money moves only through the :class:`~twentyone.ledger.Ledger`.

>>> from twentyone.ledger import AccountKind, Ledger
>>> ledger = Ledger()
>>> for name in ("ann", "bob"):
...     ledger.open_account(name, AccountKind.CUSTOMER)
...     _ = ledger.deposit(f"d-{name}", name, 100_00)
>>> market = Market("g1", ledger, [SelectionSpec("Player 1", can_tie=True)])
>>> market.open_round(1)
>>> _ = market.place("bob", "b1", "Player 1", "lay", "2.5", 10_00, 1)
>>> ledger.held("bob")  # the lay's liability: 10.00 x 1.5
1500
>>> result = market.place("ann", "a1", "Player 1", "back", "2.2", 4_00, 1)
>>> [(f.stake, f.price) for f in result.fills] == [(400, index_of("2.5"))]  # at the maker's price
True
>>> market.close_round()  # bob's unmatched 6.00 lapses
>>> market.settle_selection("Player 1", "winner")
>>> ledger.balance("ann"), ledger.balance("bob"), ledger.balance("house:commission")
(10570, 9400, 30)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

from twentyone.errors import TwentyOneError
from twentyone.ledger import AccountKind, HoldSet, Ledger, LedgerEntry, Transfer
from twentyone.market.book import SelectionBook
from twentyone.market.commission import commission
from twentyone.market.errors import (
    BelowMinimumStakeError,
    CancelRejectedError,
    InsufficientFundsError,
    InvalidOrderError,
    MarketStateError,
    OrderRejectedError,
    ReferenceReusedError,
    RoundNotOpenError,
    SelectionClosedError,
    StaleRoundError,
    UnknownSelectionError,
)
from twentyone.market.exposure import MarketExposure
from twentyone.market.ladder import LADDER_SIZE, PriceInput, index_of, price_text, to_fraction
from twentyone.market.log import (
    Cancel,
    CloseRound,
    Command,
    LogEntry,
    OpenRound,
    Place,
    Reprice,
    Settle,
    Void,
)
from twentyone.market.orders import CancelResult, Fill, Order, OrderView, PlaceResult, Side
from twentyone.market.settlement import SelectionResult

COMMISSION_ACCOUNT = "house:commission"
_new = tuple.__new__  # builds a named tuple from a tuple of its fields, in C
_SIDES = {side.value: side for side in Side}


@dataclass(frozen=True)
class MarketSettings:
    """Table settings: minimum stake (minor units), commission rate, dead-heat divisor."""

    min_stake: int = 200
    commission_rate: Fraction = Fraction(5, 100)
    dead_heat_divisor: int = 2


@dataclass(frozen=True)
class SelectionSpec:
    name: str
    can_tie: bool


class MarketStatus(enum.Enum):
    OPEN = "open"  # taking orders while a round is open
    SETTLED = "settled"
    VOID = "void"


@dataclass(frozen=True)
class SelectionView:
    """What every customer sees of a selection."""

    name: str
    status: str  # "in play", "winner", "loser", "tied" or "void"
    fair_price: Fraction | None
    to_back: tuple[tuple[str, int], ...]  # resting lays, best (highest) first
    to_lay: tuple[tuple[str, int], ...]  # resting backs, best (lowest) first
    matched: int

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "status": self.status,
            "fair_price": None if self.fair_price is None else f"{float(self.fair_price):.4g}",
            "to_back": [{"price": p, "size": s} for p, s in self.to_back],
            "to_lay": [{"price": p, "size": s} for p, s in self.to_lay],
            "matched": self.matched,
        }


@dataclass(frozen=True)
class PositionView:
    """What one customer sees of his own position on the market."""

    customer: str
    open_orders: tuple[OrderView, ...]
    matched_bets: tuple[Fill, ...]
    outcomes: dict[str, dict[str, int]]  # unsettled selection -> outcome -> matched P&L
    settled_net: int
    hold: int
    commission: int


class _Reference(NamedTuple):
    body: tuple[Any, ...]
    result: PlaceResult | OrderRejectedError


@dataclass
class _Round:
    number: int = 0  # the last round opened (0: none yet)
    open: bool = False
    orders: list[Order] = field(default_factory=list)


class Market:
    """Orders, matching, exposure and settlement of one market. See the module docs."""

    def __init__(
        self,
        market_id: str,
        ledger: Ledger,
        selections: Sequence[SelectionSpec],
        settings: MarketSettings | None = None,
        commission_account: str = COMMISSION_ACCOUNT,
    ) -> None:
        self.market_id = market_id
        self.ledger = ledger
        self.settings = settings or MarketSettings()
        self.selections = tuple(selections)
        self.names = tuple(spec.name for spec in self.selections)
        if len(set(self.names)) != len(self.names) or not self.names:
            raise MarketStateError("a market needs one or more selections with distinct names")
        self._index = {name: index for index, name in enumerate(self.names)}
        self.commission_account = commission_account
        if not ledger.has_account(commission_account):
            ledger.open_account(commission_account, AccountKind.HOUSE)
        self.clearing_account = f"{market_id}/clearing"
        ledger.open_account(self.clearing_account, AccountKind.CLEARING)
        self.books = [SelectionBook() for _ in self.names]
        self.exposure = MarketExposure(
            [spec.can_tie for spec in self.selections],
            self.settings.commission_rate,
            self.settings.dead_heat_divisor,
        )
        self.status = MarketStatus.OPEN
        self.results: list[SelectionResult | None] = [None] * len(self.names)
        self.voided_selections: set[int] = set()
        self.fair_prices: list[Fraction | None] = [None] * len(self.names)
        self.orders: dict[int, Order] = {}
        self.fills: list[Fill] = []
        self.matched_totals = [0] * len(self.names)
        self.commissions: dict[str, int] = {}
        self.log: list[LogEntry] = []
        self._round = _Round()
        self._references: dict[tuple[str, str], _Reference] = {}
        self._hold_ids: dict[str, str] = {}

    # -- rounds ------------------------------------------------------------------------------
    @property
    def round(self) -> int:
        """The last round opened (0 before the first)."""
        return self._round.number

    @property
    def round_open(self) -> bool:
        return self._round.open

    def open_round(
        self, round_no: int, fair_prices: Mapping[str, Fraction | None] | None = None
    ) -> None:
        """Open betting round ``round_no`` (later than any before), with the fair prices to show."""
        prices = tuple(sorted((fair_prices or {}).items()))
        self._run(OpenRound(round_no, prices), lambda: self._open_round(round_no, dict(prices)))

    def close_round(self) -> None:
        """End the open round: every unmatched remainder lapses and its hold is released."""
        self._run(CloseRound(), self._close_round)

    # -- orders ------------------------------------------------------------------------------
    def place(
        self,
        customer: str,
        reference: str,
        selection: str,
        side: Side | str,
        price: PriceInput,
        size: int,
        round_no: int,
    ) -> PlaceResult:
        """Place a limit order; a retry with the same reference returns the first answer."""
        side_text = side.value if isinstance(side, Side) else side
        # The hot path: the same as self._run, without the closure; records are built with
        # tuple.__new__, which skips the named tuples' Python-level constructors.
        command: Place = _new(
            Place, (customer, reference, selection, side_text, price, size, round_no)
        )
        log = self.log
        try:
            result = self._place(command)
        except TwentyOneError as error:
            log.append(LogEntry(len(log), command, str(error)))
            raise
        log.append(_new(LogEntry, (len(log), command, None)))
        return result

    def cancel(self, customer: str, order_id: int, amount: int | None = None) -> CancelResult:
        """Cancel ``amount`` (default: all) of an order's unmatched remainder; keeps queue place."""
        command: Cancel = _new(Cancel, (customer, order_id, amount))
        log = self.log
        try:  # the hot path: the same as self._run, without the closure
            result = self._cancel(customer, order_id, amount)
        except TwentyOneError as error:
            log.append(LogEntry(len(log), command, str(error)))
            raise
        log.append(_new(LogEntry, (len(log), command, None)))
        return result

    def reprice(
        self, customer: str, order_id: int, reference: str, price: PriceInput
    ) -> PlaceResult:
        """Cancel an order's remainder and place it again at ``price``, atomically.

        The new order (reference ``reference``, same selection, side and round, size = the
        remainder) goes to the back of its queue. If it is refused, the old order stands as it
        was; a retry with the same reference returns the first answer.
        """
        result: PlaceResult = self._run(
            Reprice(customer, order_id, reference, price),
            lambda: self._reprice(customer, order_id, reference, price),
        )
        return result

    # -- settlement --------------------------------------------------------------------------
    def settle_selection(self, selection: str, result: SelectionResult | str) -> None:
        """Settle a decided selection (between rounds); the market settles with the last one."""
        text = result.value if isinstance(result, SelectionResult) else result
        self._run(Settle(selection, text), lambda: self._settle(selection, text))

    def void(self, reason: str) -> None:
        """Void every bet not yet settled (a game that cannot finish); closes the market."""
        self._run(Void(reason), lambda: self._void(reason))

    # -- views ------------------------------------------------------------------------------
    def selection_view(self, selection: str, depth: int = 3) -> SelectionView:
        index = self._selection_index(selection)
        book = self.books[index]
        return SelectionView(
            selection,
            self._status_of(index),
            self.fair_prices[index],
            tuple((price_text(i), s) for i, s in book.depth(Side.LAY, depth)),
            tuple((price_text(i), s) for i, s in book.depth(Side.BACK, depth)),
            self.matched_totals[index],
        )

    def position(self, customer: str) -> PositionView:
        open_orders = tuple(
            order.snapshot()
            for order in self._round.orders
            if order.customer == customer and order.remaining
        )
        bets = tuple(f for f in self.fills if customer in (f.backer, f.layer))
        exposure = self.exposure.of(customer) if customer in self.exposure.customers else None
        outcomes = {
            name: self.exposure.outcomes(customer, index)
            for index, name in enumerate(self.names)
            if exposure is not None and not self.exposure.settled[index]
        }
        return PositionView(
            customer,
            open_orders,
            bets,
            outcomes,
            exposure.settled_net if exposure is not None else 0,
            self.exposure.hold(customer),
            self.commissions.get(customer, 0),
        )

    def hold_id(self, customer: str) -> str:
        """The id of the ledger hold that covers ``customer`` on this market."""
        found = self._hold_ids.get(customer)
        if found is None:
            found = self._hold_ids[customer] = f"{self.market_id}/{customer}"
        return found

    def fill_result(self, fill: Fill) -> str:
        """``matched``, ``settled`` or ``void`` for a fill."""
        if fill.selection in self.voided_selections:
            return "void"
        return "settled" if self.results[fill.selection] is not None else "matched"

    def snapshot(self) -> dict[str, Any]:
        """Everything that defines the market's state (for replay checks)."""
        return {
            "status": self.status.value,
            "round": (self._round.number, self._round.open),
            "orders": [order.snapshot() for order in self.orders.values()],
            "fills": list(self.fills),
            "books": [[o.order_id for o in book.resting()] for book in self.books],
            "results": list(self.results),
            "holds": {c: self.exposure.hold(c) for c in self.exposure.customers},
            "commissions": dict(self.commissions),
        }

    # -- internals ----------------------------------------------------------------------------
    def _run(self, command: Command, action: Any) -> Any:
        """Run a command and log it with its outcome (refused commands included)."""
        try:
            out = action()
        except TwentyOneError as error:
            self.log.append(LogEntry(len(self.log), command, str(error)))
            raise
        self.log.append(LogEntry(len(self.log), command, None))
        return out

    def _selection_index(self, selection: str) -> int:
        index = self._index.get(selection)
        if index is None:
            raise UnknownSelectionError(
                f"unknown selection {selection!r}: this market has {', '.join(self.names)}"
            )
        return index

    def _status_of(self, index: int) -> str:
        if index in self.voided_selections:
            return "void"
        result = self.results[index]
        return "in play" if result is None else result.value

    def _check_open(self) -> None:
        if self.status is not MarketStatus.OPEN:
            raise MarketStateError(f"market {self.market_id} is {self.status.value}")

    def _open_round(self, round_no: int, fair_prices: dict[str, Fraction | None]) -> None:
        self._check_open()
        if self._round.open:
            raise MarketStateError(f"round {self._round.number} is still open: close it first")
        if type(round_no) is not int or round_no <= self._round.number:
            raise MarketStateError(
                f"round {round_no} cannot open: round {self._round.number} was already opened"
            )
        for name in fair_prices:
            self._selection_index(name)
        self.fair_prices = [fair_prices.get(name) for name in self.names]
        self._round = _Round(round_no, True)

    def _close_round(self) -> None:
        self._check_open()
        if not self._round.open:
            raise MarketStateError("no betting round is open")
        touched: set[str] = set()
        for order in self._round.orders:
            if order.remaining:
                self.exposure.change_unmatched(
                    order.customer, order.selection, order.side, order.price, order.remaining, 0
                )
                order.lapsed += order.remaining
                order.remaining = 0
                touched.add(order.customer)
        for book in self.books:
            book.clear()
        self._set_holds(sorted(touched))
        self._round = _Round(self._round.number, False)

    def _place(self, command: Place, replacing: Order | None = None) -> PlaceResult:
        customer, reference = command.customer, command.reference
        if not isinstance(reference, str) or not reference:
            raise InvalidOrderError("an order needs a client reference (a non-empty string)")
        try:  # the common case: a price on the ladder
            price_key = _LADDER_KEYS[index_of(command.price)]
        except (TwentyOneError, TypeError):
            price_key = _price_key(command.price)
        body = (command.selection, command.side, price_key, command.size, command.round)
        key = (customer, reference)
        known = self._references.get(key)
        if known is not None:
            if known.body != body:
                raise ReferenceReusedError(
                    f"reference reused: {reference!r} was already used by {customer} for a"
                    " different order"
                )
            if isinstance(known.result, OrderRejectedError):
                raise known.result
            return known.result
        try:
            result = self._new_order(command, price_key, replacing)
        except OrderRejectedError as error:
            self._references[key] = _Reference(body, error)
            raise
        self._references[key] = _new(_Reference, (body, result))
        return result

    def _reprice(
        self, customer: str, order_id: int, reference: str, price: PriceInput
    ) -> PlaceResult:
        known = self._references.get((customer, reference)) if isinstance(reference, str) else None
        old = self.orders.get(order_id)
        if known is None:  # a retry is answered from the reference record below
            if old is None or old.customer != customer:
                raise CancelRejectedError(f"there is no order {order_id} of {customer} to re-price")
            if not old.remaining:
                raise CancelRejectedError(
                    f"order {order_id} is no longer open: nothing to re-price"
                )
        if old is None:  # pragma: no cover (a known reference implies the order existed)
            raise CancelRejectedError(f"there is no order {order_id} to re-price")
        command = Place(
            customer,
            reference,
            self.names[old.selection],
            old.side.value,
            price,
            old.remaining if known is None else known.body[3],
            old.round,
        )
        return self._place(command, replacing=old if known is None else None)

    def _new_order(
        self, command: Place, price_key: Any, replacing: Order | None = None
    ) -> PlaceResult:
        """Check and place a new order; ``price_key`` is :func:`_price_key` of its price."""
        customer = command.customer
        kind = self.ledger.kind_or_none(customer) if isinstance(customer, str) else None
        if kind is None:
            raise InvalidOrderError(f"unknown customer {customer!r}: open an account first")
        if kind is not AccountKind.CUSTOMER and kind is not AccountKind.HOUSE:
            raise InvalidOrderError(f"account {customer!r} cannot bet")
        if self.status is not MarketStatus.OPEN:
            raise SelectionClosedError(
                f"market {self.market_id} is {self.status.value}: no more bets"
            )
        round_no = command.round
        current = self._round
        if type(round_no) is not int:
            raise InvalidOrderError(f"round must be a round number, got {round_no!r}")
        if round_no < current.number or (round_no == current.number and not current.open):
            raise StaleRoundError(f"round is stale: round {round_no} has closed")
        if round_no > current.number or not current.open:
            raise RoundNotOpenError(f"round not open: round {round_no} has not opened yet")
        index = self._index.get(command.selection)
        if index is None:
            index = self._selection_index(command.selection)  # raises: unknown selection
        if self.results[index] is not None:
            raise SelectionClosedError(f"{command.selection} is settled: no more bets on it")
        side = _SIDES.get(command.side) if isinstance(command.side, str) else None
        if side is None:
            raise InvalidOrderError(f"side must be 'back' or 'lay', got {command.side!r}")
        # The price was parsed once for the reference record; off the ladder: parse it again
        # for the refusal's message.
        price = price_key[1] if price_key[0] == "ladder" else index_of(command.price)
        size = command.size
        if type(size) is not int or size <= 0:
            raise InvalidOrderError(
                f"size must be a whole positive number of minor units, got {size!r}"
            )
        if size < self.settings.min_stake:
            raise BelowMinimumStakeError(
                f"stake {size} is below the minimum stake of {self.settings.min_stake}"
            )
        released = None if replacing is None else (replacing.price, replacing.remaining)
        exposure = self.exposure
        effect = exposure.order_effect(customer, index, side, price, size, released)
        needed = effect[0]
        hold_id = self._hold_ids.get(customer) or self.hold_id(customer)
        ledger = self.ledger
        current_hold = ledger.hold(hold_id)
        can_hold = ledger.available(customer) + current_hold
        if needed > can_hold:
            raise InsufficientFundsError(
                f"over balance: the order needs {needed} held on this market but {customer} has"
                f" {can_hold} available"
            )
        if replacing is not None:  # everything is checked: the old remainder goes now
            self._cancel(customer, replacing.order_id, None)
            current_hold = ledger.hold(hold_id)
        orders = self.orders
        order = Order(
            len(orders) + 1, customer, command.reference, index, side, price, size, round_no
        )
        orders[order.order_id] = order
        self._round.orders.append(order)
        book = self.books[index]
        # Match only when the order crosses the best opposite price (about half do not).
        crosses = book.best_lay >= price if side is Side.BACK else book.best_back <= price
        matches = book.match(order) if crosses else None
        if not matches:  # it rests whole: the exposure and hold are the ones just checked
            if replacing is None:
                exposure.rest_effect(customer, index, effect)
            else:  # the cancel moved the row since the check: add the order afresh
                exposure.rest_whole(exposure.of(customer), index, side, price, size)
            book.rest(order)
            if needed != current_hold:
                ledger.set_hold(hold_id, customer, needed)
            return _new(PlaceResult, (order.snapshot(), ()))
        # Every row changes first and each touched position is refreshed once at the end.
        taker = exposure.of(customer)
        all_fills = self.fills
        fills: list[Fill] = []
        touched = {customer: taker}
        order_id = order.order_id
        for maker, stake in matches:
            maker_customer = maker.customer
            maker_exposure = touched.get(maker_customer)
            if maker_exposure is None:
                maker_exposure = touched[maker_customer] = exposure.of(maker_customer)
            exposure.shift_unmatched(
                maker_exposure,
                index,
                maker.side,
                maker.price,
                maker.remaining + stake,
                maker.remaining,
            )
            if side is Side.BACK:
                back_id, lay_id, backer, layer = order_id, maker.order_id, customer, maker_customer
                exposure.record_fill(taker, maker_exposure, index, maker.price, stake)
            else:
                back_id, lay_id, backer, layer = maker.order_id, order_id, maker_customer, customer
                exposure.record_fill(maker_exposure, taker, index, maker.price, stake)
            fill: Fill = _new(
                Fill,
                (
                    len(all_fills) + 1,
                    index,
                    maker.price,
                    stake,
                    back_id,
                    lay_id,
                    backer,
                    layer,
                    round_no,
                    maker.order_id,
                ),
            )
            all_fills.append(fill)
            fills.append(fill)
            self.matched_totals[index] += stake
        if order.remaining:
            exposure.shift_unmatched(taker, index, side, price, 0, order.remaining)
            book.rest(order)
        for position in touched.values():
            exposure.refresh(position, index)
        self._set_holds(touched)
        return _new(PlaceResult, (order.snapshot(), tuple(fills)))

    def _cancel(self, customer: str, order_id: int, amount: int | None) -> CancelResult:
        order = self.orders.get(order_id)
        if order is None:
            raise CancelRejectedError(f"there is no order {order_id} on market {self.market_id}")
        if order.customer != customer:
            raise CancelRejectedError(f"order {order_id} is not {customer}'s")
        if not order.remaining:
            raise CancelRejectedError(f"order {order_id} is no longer open: nothing to cancel")
        if amount is None:
            amount = order.remaining
        if type(amount) is not int or amount <= 0:
            raise CancelRejectedError(
                f"cancel amount must be a positive whole number, got {amount!r}"
            )
        amount = min(amount, order.remaining)
        before = order.remaining
        self.books[order.selection].reduce(order, amount)
        order.cancelled += amount
        self.exposure.change_unmatched(
            customer, order.selection, order.side, order.price, before, order.remaining
        )
        self._set_holds((customer,))
        return _new(CancelResult, (order.snapshot(), amount))

    def _settle(self, selection: str, text: str) -> None:
        self._check_open()
        index = self._selection_index(selection)
        try:
            result = SelectionResult(text)
        except ValueError:
            raise MarketStateError(
                f"result must be 'winner', 'loser' or 'tied', got {text!r}"
            ) from None
        if self._round.open:
            raise MarketStateError("close the betting round before settling a selection")
        if self.results[index] is not None:
            raise MarketStateError(f"{selection} is already settled")
        if result is SelectionResult.TIED and not self.selections[index].can_tie:
            raise MarketStateError(f"{selection} cannot end in a dead heat")
        exposure = self.exposure
        outcome = result.outcome
        rate = exposure.rate
        batch: list[LedgerEntry] = []
        credits: list[LedgerEntry] = []
        holds: list[LedgerEntry] = []
        for customer in sorted(exposure.customers):
            position = exposure.customers[customer]
            pnl = position.rows[index][outcome]
            worst = position.worst[index]
            transfer_id = f"{self.market_id}/settle/{selection}/{customer}"
            reason = f"{self.market_id} {selection} {result.value}"
            if pnl < 0:
                batch.append(Transfer(transfer_id, customer, self.clearing_account, -pnl, reason))
            elif pnl > 0:
                credits.append(Transfer(transfer_id, self.clearing_account, customer, pnl, reason))
            loss = position.loss - (-worst if worst < 0 else 0)
            hold = loss + commission(position.settled_net + pnl, rate)
            holds.append(HoldSet(self.hold_id(customer), customer, hold))
        last = sum(r is None for r in self.results) == 1
        self.ledger.commit(batch + credits + holds)
        exposure.settle(index, outcome)
        self.results[index] = result
        if last:
            self._charge_commission(MarketStatus.SETTLED)

    def _void(self, reason: str) -> None:
        self._check_open()
        if not isinstance(reason, str) or not reason:
            raise MarketStateError("a void needs a reason")
        for order in self._round.orders:
            if order.remaining:
                order.voided += order.remaining
                order.remaining = 0
        for book in self.books:
            book.clear()
        self.voided_selections = {i for i, r in enumerate(self.results) if r is None}
        self.exposure.void_unsettled()
        self._round = _Round(self._round.number, False)
        self._charge_commission(MarketStatus.VOID)

    def _charge_commission(self, status: MarketStatus) -> None:
        """Commission on each customer's net, and every hold released: the market is closed."""
        batch: list[LedgerEntry] = []
        for customer in sorted(self.exposure.customers):
            owed = commission(self.exposure.customers[customer].settled_net, self.exposure.rate)
            if owed:
                batch.append(
                    Transfer(
                        f"{self.market_id}/commission/{customer}",
                        customer,
                        self.commission_account,
                        owed,
                        f"{self.market_id} commission",
                    )
                )
                self.commissions[customer] = owed
            batch.append(HoldSet(self.hold_id(customer), customer, 0))
        self.ledger.commit(batch)
        for position in self.exposure.customers.values():
            position.loss = 0
        self.status = status

    def _set_holds(self, customers: Iterable[str]) -> None:
        ledger, exposure, hold_ids = self.ledger, self.exposure, self._hold_ids
        positions, rate = exposure.customers, exposure.rate
        for customer in customers:
            hold_id = hold_ids.get(customer) or self.hold_id(customer)
            position = positions.get(customer)
            if position is None:
                hold = 0
            else:  # exposure.hold, inline
                net = position.settled_net
                hold = position.loss + (commission(net, rate) if net > 0 else 0)
            if hold != ledger.hold(hold_id):  # an unchanged hold needs no ledger entry
                ledger.set_hold(hold_id, customer, hold)


_LADDER_KEYS = tuple(("ladder", index) for index in range(LADDER_SIZE))  # shared, not rebuilt


def _price_key(price: Any) -> Any:
    """A price as compared between retries: its ladder index, else its exact value."""
    try:
        return _LADDER_KEYS[index_of(price)]
    except TwentyOneError:
        pass
    try:
        return ("value", to_fraction(price))
    except TwentyOneError:
        return ("unparsed", type(price).__name__, repr(price))


def replay(
    log: Iterable[LogEntry],
    ledger: Ledger,
    market_id: str,
    selections: Sequence[SelectionSpec],
    settings: MarketSettings | None = None,
    commission_account: str = COMMISSION_ACCOUNT,
) -> Market:
    """Rebuild a market by running its logged commands again; each must meet the same answer."""
    market = Market(market_id, ledger, selections, settings, commission_account)
    for entry in log:
        refused: str | None = None
        try:
            _apply(market, entry.command)
        except TwentyOneError as error:
            refused = str(error)
        if refused != entry.refused:
            raise MarketStateError(
                f"replay diverged at command {entry.sequence}: logged {entry.refused!r},"
                f" replayed {refused!r}"
            )
    return market


def _apply(market: Market, command: Command) -> None:
    if isinstance(command, OpenRound):
        market.open_round(command.round, dict(command.fair_prices))
    elif isinstance(command, Place):
        market.place(
            command.customer,
            command.reference,
            command.selection,
            command.side,
            command.price,
            command.size,
            command.round,
        )
    elif isinstance(command, Cancel):
        market.cancel(command.customer, command.order_id, command.amount)
    elif isinstance(command, Reprice):
        market.reprice(command.customer, command.order_id, command.reference, command.price)
    elif isinstance(command, CloseRound):
        market.close_round()
    elif isinstance(command, Settle):
        market.settle_selection(command.selection, command.result)
    else:
        market.void(command.reason)
