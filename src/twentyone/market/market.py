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
from twentyone.market.exposure import CustomerExposure, MarketExposure
from twentyone.market.ladder import (
    LADDER_SIZE,
    PRICES_IN_HUNDREDTHS,
    PriceInput,
    index_of,
    price_text,
    to_fraction,
)
from twentyone.market.log import (
    Cancel,
    CloseRound,
    Command,
    EventLog,
    LogEntry,
    OpenRound,
    Place,
    Reprice,
    Settle,
    Void,
)
from twentyone.market.orders import (
    SIDE_OF_CODE,
    CancelResult,
    Fill,
    FillLog,
    FillRow,
    Order,
    OrderTable,
    OrderView,
    PlaceResult,
    Side,
    as_fill,
)
from twentyone.market.settlement import SelectionResult

COMMISSION_ACCOUNT = "house:commission"
_new = tuple.__new__  # builds a named tuple from a tuple of its fields, in C
_SIDES = {side.value: side for side in Side}
_BACK = Side.BACK
#: The shortest text of every ladder price (what the views print): the hot path's parse.
_TEXT_INDEX = {price_text(index): index for index in range(len(PRICES_IN_HUNDREDTHS))}


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


class _Refused(NamedTuple):
    """A refused order's body and refusal, kept so that a retry meets the same answer.

    (An accepted order's reference record is just its order id: its body and its answer are
    rebuilt from the order, see :meth:`Market.placement_result`.)
    """

    body: tuple[Any, ...]
    error: OrderRejectedError


@dataclass
class _Round:
    number: int = 0  # the last round opened (0: none yet)
    open: bool = False
    orders: list[int] = field(default_factory=list)  # the ids of the round's orders


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
        self.orders = OrderTable()
        self.fills = FillLog()
        self.matched_totals = [0] * len(self.names)
        self.commissions: dict[str, int] = {}
        self.log = EventLog()
        self._log_commands = self.log.commands  # the hot path appends accepted commands here
        self._round = _Round()
        # The round open for orders (None: none), so that the hot path checks it at once.
        self._accepting: int | None = None
        # customer -> reference -> the order id, or why the order was refused
        self._references: dict[str, dict[str, int | _Refused]] = {}
        self._bettors: set[str] = set()  # accounts known to be of a kind that may bet
        self._min_size = max(1, self.settings.min_stake)
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
        # Logged as the plain tuple of a Place's fields (see EventLog).
        command = (customer, reference, selection, side_text, price, size, round_no)
        try:
            # The common case checked in one go: a known bettor, a new reference, the open
            # round, a selection in play, a side, a ladder price in its shortest text and a size
            # of at least the minimum stake. Anything else takes the general path, which checks
            # each field in turn and says which one is wrong (and answers retries).
            refs = self._references.get(customer) if type(customer) is str else None
            index = self._index.get(selection) if type(selection) is str else None
            order_side = _SIDES.get(side_text) if type(side_text) is str else None
            price_index = _TEXT_INDEX.get(price) if type(price) is str else None
            if (
                refs is not None
                and type(reference) is str
                and reference
                and reference not in refs
                and index is not None
                and order_side is not None
                and price_index is not None
                and type(round_no) is int
                and round_no == self._accepting
                and type(size) is int
                and size >= self._min_size
                and self.results[index] is None
                and customer in self._bettors
            ):
                try:
                    result = self._execute(
                        customer, reference, index, order_side, price_index, size, round_no, None
                    )
                except OrderRejectedError as error:
                    body = (selection, side_text, _LADDER_KEYS[price_index], size, round_no)
                    refs[reference] = _Refused(body, error)
                    raise
            else:
                result = self._place(_new(Place, command))
        except TwentyOneError as error:
            self.log.record(command, str(error))
            raise
        self._log_commands.append(command)
        return result

    def cancel(self, customer: str, order_id: int, amount: int | None = None) -> CancelResult:
        """Cancel ``amount`` (default: all) of an order's unmatched remainder; keeps queue place."""
        command = (customer, order_id, amount)  # logged as a Cancel's fields (see EventLog)
        try:  # the hot path: the same as self._run, without the closure
            result = self._cancel(customer, order_id, amount)
        except TwentyOneError as error:
            self.log.record(command, str(error))
            raise
        self._log_commands.append(command)
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
        table = self.orders
        open_orders = tuple(
            table.view(order_id)
            for order_id in self._round.orders
            if table.customer[order_id] == customer and table.remaining[order_id]
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
            "orders": [self.orders.view(order_id) for order_id in self.orders],
            "fills": list(self.fills),
            "books": [book.resting(self.orders.remaining) for book in self.books],
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
            self.log.record(command, str(error))
            raise
        self.log.record(command)
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
        self._accepting = round_no

    def _close_round(self) -> None:
        self._check_open()
        if not self._round.open:
            raise MarketStateError("no betting round is open")
        touched: set[str] = set()
        table = self.orders
        for order_id in self._round.orders:
            left = table.remaining[order_id]
            if left:
                customer = table.customer[order_id]
                _, selection, side, price, _, _, _ = table.fixed[order_id]
                self.exposure.change_unmatched(
                    customer, selection, SIDE_OF_CODE[side], price, left, 0
                )
                table.lapsed[order_id] += left
                table.remaining[order_id] = 0
                touched.add(customer)
        for book in self.books:
            book.clear()
        self._set_holds(sorted(touched))
        self._round = _Round(self._round.number, False)
        self._accepting = None

    def _place(self, command: Place, replacing: Order | None = None) -> PlaceResult:
        """The general path of :meth:`place`: retries, then every check in turn."""
        customer, reference = command.customer, command.reference
        if not isinstance(reference, str) or not reference:
            raise InvalidOrderError("an order needs a client reference (a non-empty string)")
        try:  # the common case: a price on the ladder
            price_key = _LADDER_KEYS[index_of(command.price)]
        except (TwentyOneError, TypeError):
            price_key = _price_key(command.price)
        refs = self._references.get(customer)
        known = None if refs is None else refs.get(reference)
        if known is not None:
            if isinstance(known, int):
                order = self.orders[known]
                if not self._same_body(order, command, price_key):
                    raise ReferenceReusedError(
                        f"reference reused: {reference!r} was already used by {customer} for a"
                        " different order"
                    )
                return self.placement_result(order)
            if known.body != _body(command, price_key):
                raise ReferenceReusedError(
                    f"reference reused: {reference!r} was already used by {customer} for a"
                    " different order"
                )
            raise known.error
        try:
            return self._new_order(command, price_key, replacing)
        except OrderRejectedError as error:
            if refs is None:
                refs = self._references[customer] = {}
            refs[reference] = _Refused(_body(command, price_key), error)
            raise

    def _same_body(self, order: Order, command: Place, price_key: Any) -> bool:
        """Whether ``command`` asks for the order ``order`` was placed as (a retry)."""
        # The fields in the order a body tuple would be compared, each with ``==``.
        return bool(
            self.names[order.selection] == command.selection
            and order.side.value == command.side
            and _LADDER_KEYS[order.price] == price_key
            and order.size == command.size
            and order.round == command.round
        )

    def placement_result(self, order: Order) -> PlaceResult:
        """What :meth:`place` answered for ``order`` (and returns to a retry).

        Rebuilt, not stored: the fills of its placement are the ones it took as the taker,
        consecutive from ``order.first_fill``; right after them the order had nothing
        cancelled, lapsed or voided.
        """
        order_id = order.order_id
        all_fills = self.fills
        taken: list[Fill] = []
        for position in range(order.first_fill, len(all_fills)):
            fill = all_fills[position]
            if fill.maker_order == order_id or order_id not in (fill.back_order, fill.lay_order):
                break
            taken.append(fill)
        matched = sum(fill.stake for fill in taken)
        view = OrderView(
            order_id,
            order.customer,
            order.reference,
            order.selection,
            order.side,
            order.price,
            order.size,
            order.round,
            matched,
            order.size - matched,
            0,
            0,
            0,
        )
        return PlaceResult(view, tuple(taken))

    def _reprice(
        self, customer: str, order_id: int, reference: str, price: PriceInput
    ) -> PlaceResult:
        refs = self._references.get(customer) if isinstance(reference, str) else None
        known = None if refs is None else refs.get(reference)
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
        if known is None:
            size = old.remaining
        elif isinstance(known, int):
            size = self.orders[known].size
        else:
            size = known.body[3]
        command = Place(
            customer, reference, self.names[old.selection], old.side.value, price, size, old.round
        )
        return self._place(command, replacing=old if known is None else None)

    def _new_order(
        self, command: Place, price_key: Any, replacing: Order | None = None
    ) -> PlaceResult:
        """Check a new order field by field; ``price_key`` is :func:`_price_key` of its price."""
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
        self._bettors.add(customer)  # an account's kind never changes
        return self._execute(
            customer, command.reference, index, side, price, size, round_no, replacing
        )

    def _execute(
        self,
        customer: str,
        reference: str,
        index: int,
        side: Side,
        price: int,
        size: int,
        round_no: int,
        replacing: Order | None,
    ) -> PlaceResult:
        """Check the hold of a valid order, then match it, rest its remainder, set the holds.

        The exchange's hot path, written out in one function: the exposure arithmetic of
        :class:`MarketExposure` (``contribution``, ``record_fill``, ``refresh``) and the
        matching loop of :class:`SelectionBook` (``match``) inline, with the same integer
        formulas; the stateful test checks every figure it leaves against a full
        recomputation and an independent model after every step.
        """
        exposure = self.exposure
        positions = exposure.customers
        position = positions.get(customer)
        win_factor, tie_factor, tie_scale = (
            exposure.win_factor,
            exposure.tie_factor,
            exposure.tie_scale,
        )
        can_tie = exposure.can_tie[index]
        # The order's worst case per outcome if it rested whole at its limit (contribution).
        factor = tie_factor[price]
        if side is _BACK:
            d_win = 0
            d_tie = -(-size * factor // tie_scale) if factor < 0 else 0
            d_lose = -size
        else:
            d_win = -(size * win_factor[price] // 100)
            d_tie = -(size * factor // tie_scale) if factor > 0 else 0
            d_lose = 0
        if replacing is not None:  # its old remainder is released at the same time
            old_win, old_tie, old_lose = exposure.contribution(
                side, replacing.price, replacing.remaining
            )
            d_win, d_tie, d_lose = d_win - old_win, d_tie - old_tie, d_lose - old_lose
        row: Sequence[int]
        if position is None:
            row, old_worst, loss, net = _EMPTY_ROW, 0, 0, 0
        else:
            row = position.rows[index]
            old_worst, loss, net = position.worst[index], position.loss, position.settled_net
        win = row[0] + row[3] + d_win
        lose = row[2] + row[5] + d_lose
        new_worst = win if win < lose else lose
        if can_tie:
            tie = row[1] + row[4] + d_tie
            if tie < new_worst:
                new_worst = tie
        new_loss = (
            loss + (-new_worst if new_worst < 0 else 0) - (-old_worst if old_worst < 0 else 0)
        )
        rate = exposure.rate
        needed = new_loss + (commission(net, rate) if net > 0 else 0)
        hold_id = self._hold_ids.get(customer) or self.hold_id(customer)
        ledger = self.ledger
        can_hold = ledger.room(hold_id, customer)
        if needed > can_hold:
            raise InsufficientFundsError(
                f"over balance: the order needs {needed} held on this market but {customer} has"
                f" {can_hold} available"
            )
        # Everything is checked: from here on the order is accepted.
        if replacing is not None:  # the old remainder goes first
            self._cancel(customer, replacing.order_id, None)
        table = self.orders
        all_fills = self.fills.rows
        first_fill = len(all_fills)
        # OrderTable.add, inline
        order_id = len(table.customer)
        table.customer.append(customer)
        table.fixed.append(
            (reference, index, 0 if side is _BACK else 1, price, size, round_no, first_fill)
        )
        table.matched.append(0)
        table.remaining.append(size)
        table.cancelled.append(0)
        table.lapsed.append(0)
        table.voided.append(0)
        self._round.orders.append(order_id)
        refs = self._references.get(customer)
        if refs is None:
            refs = self._references[customer] = {}
        refs[reference] = order_id
        book = self.books[index]
        if side is _BACK:
            levels, sizes, level = book.lay_levels, book.lay_sizes, book.best_lay
            crosses = level >= price
        else:
            levels, sizes, level = book.back_levels, book.back_sizes, book.best_back
            crosses = level <= price
        if not crosses:  # it rests whole (about half the orders): the figures just checked
            if replacing is None:
                if position is None:
                    position = exposure.of(customer)
                new_row = position.rows[index]
                new_row[3] += d_win
                new_row[4] += d_tie
                new_row[5] += d_lose
                position.worst[index] = new_worst
                position.loss = new_loss
            else:  # the cancel moved the row since the check: add the order afresh
                exposure.rest_whole(positions[customer], index, side, price, size)
            book.rest(order_id, side, price, size)
            ledger.update_hold(hold_id, customer, needed)
            view: OrderView = _new(
                OrderView,
                (
                    order_id,
                    customer,
                    reference,
                    index,
                    side,
                    price,
                    size,
                    round_no,
                    0,
                    size,
                    0,
                    0,
                    0,
                ),
            )
            return _new(PlaceResult, (view, ()))
        # It meets the book: best price first, then first come first served. Each fill is at
        # the maker's price; every row changes first, each position is refreshed at the end.
        taker = position if position is not None else exposure.of(customer)
        taker_row = taker.rows[index]
        makers: dict[str, CustomerExposure] = {}
        left_of, matched_of, customer_of = table.remaining, table.matched, table.customer
        remaining = size
        fill_id = first_fill
        while True:
            queue = levels[level]
            win_f = win_factor[level]
            tie_f = tie_factor[level]
            taken = 0
            while remaining and queue:
                maker_id = queue[0]
                left = left_of[maker_id]
                if not left:  # cancelled while queued: dropped when reached
                    queue.popleft()
                    continue
                stake = remaining if remaining < left else left
                before = left
                left -= stake
                left_of[maker_id] = left
                matched_of[maker_id] += stake
                remaining -= stake
                taken += stake
                if not left:
                    queue.popleft()
                maker_customer = customer_of[maker_id]
                maker_position = makers.get(maker_customer)
                if maker_position is None:
                    maker_position = makers[maker_customer] = positions[maker_customer]
                maker_row = maker_position.rows[index]
                # The backer's P&L on the fill, rounded toward zero (record_fill).
                fill_win = stake * win_f // 100
                fill_tie = stake * tie_f
                fill_tie = fill_tie // tie_scale if fill_tie >= 0 else -(-fill_tie // tie_scale)
                fill_id += 1
                if side is _BACK:  # the maker lays: its unmatched lay shrinks (shift_unmatched)
                    maker_row[3] += before * win_f // 100 - left * win_f // 100
                    if tie_f > 0:
                        maker_row[4] += before * tie_f // tie_scale - left * tie_f // tie_scale
                    taker_row[0] += fill_win
                    taker_row[1] += fill_tie
                    taker_row[2] -= stake
                    maker_row[0] -= fill_win
                    maker_row[1] -= fill_tie
                    maker_row[2] += stake
                    fill: FillRow = (
                        fill_id,
                        index,
                        level,
                        stake,
                        order_id,
                        maker_id,
                        customer,
                        maker_customer,
                        round_no,
                        maker_id,
                    )
                else:  # the maker backs: its unmatched back shrinks
                    if tie_f < 0:
                        maker_row[4] += -before * tie_f // tie_scale - (-left * tie_f // tie_scale)
                    maker_row[5] += stake
                    maker_row[0] += fill_win
                    maker_row[1] += fill_tie
                    maker_row[2] -= stake
                    taker_row[0] -= fill_win
                    taker_row[1] -= fill_tie
                    taker_row[2] += stake
                    fill = (
                        fill_id,
                        index,
                        level,
                        stake,
                        maker_id,
                        order_id,
                        maker_customer,
                        customer,
                        round_no,
                        maker_id,
                    )
                all_fills.append(fill)
            sizes[level] -= taken
            if sizes[level]:
                break  # the taker is filled before the level empties
            queue.clear()
            if side is _BACK:
                book.lay_mask &= ~(1 << level)
                level = book.best_lay = book.next_lay(level)
                if not remaining or level < price:
                    break
            else:
                book.back_mask &= ~(1 << level)
                level = book.best_back = book.next_back(level)
                if not remaining or level > price:
                    break
        matched = size - remaining
        matched_of[order_id] = matched
        left_of[order_id] = remaining
        self.matched_totals[index] += matched
        if remaining:  # the remainder rests at its limit (contribution, inline)
            factor = tie_factor[price]
            if side is _BACK:
                if factor < 0:
                    taker_row[4] -= -remaining * factor // tie_scale
                taker_row[5] -= remaining
            else:
                taker_row[3] -= remaining * win_factor[price] // 100
                if factor > 0:
                    taker_row[4] -= remaining * factor // tie_scale
            book.rest(order_id, side, price, remaining)
        makers[customer] = taker
        hold_ids = self._hold_ids
        for name, touched in makers.items():
            # refresh, inline: the selection's new worst, and the loss moved by its change
            touched_row = touched.rows[index]
            win = touched_row[0] + touched_row[3]
            lose = touched_row[2] + touched_row[5]
            worst = win if win < lose else lose
            if can_tie:
                tie = touched_row[1] + touched_row[4]
                if tie < worst:
                    worst = tie
            old_worst = touched.worst[index]
            if worst != old_worst:
                touched.worst[index] = worst
                touched.loss += (-worst if worst < 0 else 0) - (-old_worst if old_worst < 0 else 0)
            net = touched.settled_net
            hold = touched.loss + (commission(net, rate) if net > 0 else 0)
            ledger.update_hold(hold_ids.get(name) or self.hold_id(name), name, hold)
        view = _new(
            OrderView,
            (
                order_id,
                customer,
                reference,
                index,
                side,
                price,
                size,
                round_no,
                matched,
                remaining,
                0,
                0,
                0,
            ),
        )
        return _new(PlaceResult, (view, tuple(map(as_fill, all_fills[first_fill:]))))

    def _cancel(self, customer: str, order_id: int, amount: int | None) -> CancelResult:
        table = self.orders
        if type(order_id) is not int or not 0 < order_id < len(table.customer):
            raise CancelRejectedError(f"there is no order {order_id} on market {self.market_id}")
        if table.customer[order_id] != customer:
            raise CancelRejectedError(f"order {order_id} is not {customer}'s")
        before = table.remaining[order_id]
        if not before:
            raise CancelRejectedError(f"order {order_id} is no longer open: nothing to cancel")
        if amount is None:
            amount = before
        elif type(amount) is not int or amount <= 0:
            raise CancelRejectedError(
                f"cancel amount must be a positive whole number, got {amount!r}"
            )
        elif amount > before:
            amount = before
        after = before - amount
        _, index, side_code, price, _, _, _ = table.fixed[order_id]
        side = SIDE_OF_CODE[side_code]
        self.books[index].reduce(side, price, amount)
        table.remaining[order_id] = after
        table.cancelled[order_id] += amount
        # change_unmatched and refresh, inline (the hot path of a cancel)
        exposure = self.exposure
        position = exposure.customers[customer]
        row = position.rows[index]
        tie_scale = exposure.tie_scale
        factor = exposure.tie_factor[price]
        if side is _BACK:
            if factor < 0:
                row[4] += -before * factor // tie_scale - (-after * factor // tie_scale)
            row[5] += amount
        else:
            win_f = exposure.win_factor[price]
            row[3] += before * win_f // 100 - after * win_f // 100
            if factor > 0:
                row[4] += before * factor // tie_scale - after * factor // tie_scale
        win = row[0] + row[3]
        lose = row[2] + row[5]
        worst = win if win < lose else lose
        if exposure.can_tie[index]:
            tie = row[1] + row[4]
            if tie < worst:
                worst = tie
        old_worst = position.worst[index]
        if worst != old_worst:
            position.worst[index] = worst
            position.loss += (-worst if worst < 0 else 0) - (-old_worst if old_worst < 0 else 0)
        net = position.settled_net
        hold = position.loss + (commission(net, exposure.rate) if net > 0 else 0)
        self.ledger.update_hold(
            self._hold_ids.get(customer) or self.hold_id(customer), customer, hold
        )
        return _new(CancelResult, (table.view(order_id), amount))

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
        table = self.orders
        for order_id in self._round.orders:
            table.voided[order_id] += table.remaining[order_id]
            table.remaining[order_id] = 0
        for book in self.books:
            book.clear()
        self.voided_selections = {i for i, r in enumerate(self.results) if r is None}
        self.exposure.void_unsettled()
        self._round = _Round(self._round.number, False)
        self._accepting = None
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
            position = positions.get(customer)
            if position is None:
                hold = 0
            else:  # exposure.hold, inline
                net = position.settled_net
                hold = position.loss + (commission(net, rate) if net > 0 else 0)
            # an unchanged hold needs no ledger entry
            ledger.update_hold(hold_ids.get(customer) or self.hold_id(customer), customer, hold)


_LADDER_KEYS = tuple(("ladder", index) for index in range(LADDER_SIZE))  # shared, not rebuilt
_EMPTY_ROW = (0, 0, 0, 0, 0, 0)  # the row of a customer with no position yet


def _body(command: Place, price_key: Any) -> tuple[Any, ...]:
    """What a retry's order must repeat: everything but the customer and the reference."""
    return (command.selection, command.side, price_key, command.size, command.round)


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
