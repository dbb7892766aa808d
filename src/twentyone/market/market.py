"""One market (one game): the API the server calls.

A market knows its selections by name and nothing of cards: it is told when a betting round
opens (with the fair prices to show), when it closes, and how each selection settled. Every
command is checked before anything changes, and refused with a typed error whose message
says why; money moves only through the :class:`~twentyone.ledger.Ledger`.

>>> from twentyone.ledger import AccountKind, Ledger
>>> from twentyone.market.ladder import index_of
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
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

from twentyone.errors import InvalidRulesError, TwentyOneError, shown
from twentyone.ledger import AccountKind, HoldSet, Ledger, LedgerEntry, OpenAccount, Transfer
from twentyone.market.book import SelectionBook
from twentyone.market.commission import commission
from twentyone.market.errors import (
    BelowMinimumStakeError,
    CancelRejectedError,
    InsufficientFundsError,
    InvalidArgumentError,
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
    TEXT_INDEX,
    PriceInput,
    hundredths_of,
    index_of_hundredths,
    price_text,
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
from twentyone.market.references import ClientReferences
from twentyone.market.settlement import SelectionResult
from twentyone.money import MAX_AMOUNT, MoneyError, check_amount, check_ratio

COMMISSION_ACCOUNT = "house:commission"
#: The house's market-making account: the one house account that may trade (see
#: :mod:`twentyone.market.market_maker`).
MARKET_MAKER_ACCOUNT = "house:market-maker"
_new = tuple.__new__  # builds a named tuple from a tuple of its fields, in C
_SIDES = {side.value: side for side in Side}
_BACK = Side.BACK
_TEXT_INDEX = TEXT_INDEX  # the shortest text of every ladder price: the hot path's parse

#: A customer, market or account name the market accepts: ASCII letters, digits, and
#: `` _.:@+-`` inside, 64 characters at most. No ``/``: the ledger ids the market builds from
#: names (``g1/clearing``, ``g1/settle/Player 1/ann``) stay unambiguous.
NAME_PATTERN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9 _.:@+-]{0,62}[A-Za-z0-9_.:@+-])?")
#: A selection name: printable ASCII, no space at either end, 64 characters at most.
_SELECTION_PATTERN = re.compile(r"[!-~](?:[ -~]{0,62}[!-~])?")
#: The longest client reference (printable text).
MAX_REFERENCE_LENGTH = 200
#: The most selections of one market.
MAX_SELECTIONS = 64
#: The highest round number (rounds are numbered from 1).
MAX_ROUND = 10**9
#: The longest void reason.
MAX_REASON_LENGTH = 200
#: The largest dead-heat divisor (the operator's rule is 2).
MAX_DEAD_HEAT_DIVISOR = 100
#: The largest fair price the market shows (and bounds on its exact terms).
MAX_FAIR_PRICE = 10**15
_MAX_FAIR_BITS = 4096


def check_name(value: object, what: str = "a name") -> str:
    """``value`` if it matches :data:`NAME_PATTERN`, else :class:`InvalidArgumentError`.

    >>> check_name("house:market-maker"), check_name("game 3")
    ('house:market-maker', 'game 3')
    >>> check_name("x/y")
    Traceback (most recent call last):
    ...
    twentyone.market.errors.InvalidArgumentError: a name must be 1 to 64 ASCII letters, digits, spaces or _.:@+- (no space at either end, starting with a letter or digit), not 'x/y'
    """
    if type(value) is not str or not NAME_PATTERN.fullmatch(value):
        raise InvalidArgumentError(
            f"{what} must be 1 to 64 ASCII letters, digits, spaces or _.:@+- (no space at either"
            f" end, starting with a letter or digit), not {shown(value)}"
        )
    return value


def _valid_reference(reference: object) -> bool:
    return (
        type(reference) is str
        and 0 < len(reference) <= MAX_REFERENCE_LENGTH
        and reference.isprintable()
    )


@dataclass(frozen=True)
class MarketSettings:
    """Table settings: minimum stake (minor units), commission rate, dead-heat divisor.

    Checked when made (:class:`~twentyone.errors.InvalidRulesError`): ``min_stake`` an amount
    (an ``int``) from 0 to :data:`~twentyone.money.MAX_AMOUNT`; ``commission_rate`` an exact
    ratio (a ``Fraction``, or an ``int``, stored as a ``Fraction``) from 0 up to, not
    including, 1; ``dead_heat_divisor`` a whole number from 1 to 100.

    >>> MarketSettings(commission_rate=Fraction(3, 2))
    Traceback (most recent call last):
    ...
    twentyone.errors.InvalidRulesError: commission_rate must be less than 1 (a share of the net winnings), not 3/2
    """

    min_stake: int = 200
    commission_rate: Fraction = Fraction(5, 100)
    dead_heat_divisor: int = 2

    def __post_init__(self) -> None:
        # check_amount and check_ratio print the value they refuse: anything that might not
        # print (a nested list, a Fraction of huge terms) is refused here first.
        if type(self.min_stake) is not int:
            raise InvalidRulesError(
                f"min_stake must be a whole number of minor units (an int), not"
                f" {shown(self.min_stake)}"
            )
        given = self.commission_rate
        if isinstance(given, bool) or not isinstance(given, Fraction | int):
            raise InvalidRulesError(
                f"commission_rate must be an exact Fraction, such as Fraction(5, 100), not"
                f" {shown(given)}"
            )
        terms = Fraction(given)
        if max(terms.numerator.bit_length(), terms.denominator.bit_length()) > 64:
            raise InvalidRulesError(
                "commission_rate must be a ratio of whole numbers below 2**64, such as 5/100"
            )
        try:
            check_amount(self.min_stake, "min_stake")
            rate = check_ratio(given, "commission_rate")
        except MoneyError as error:
            raise InvalidRulesError(str(error)) from None
        if rate >= 1:
            raise InvalidRulesError(
                f"commission_rate must be less than 1 (a share of the net winnings), not {rate}"
            )
        object.__setattr__(self, "commission_rate", rate)
        divisor = self.dead_heat_divisor
        if type(divisor) is not int or not 1 <= divisor <= MAX_DEAD_HEAT_DIVISOR:
            raise InvalidRulesError(
                f"dead_heat_divisor must be a whole number from 1 to {MAX_DEAD_HEAT_DIVISOR},"
                f" not {shown(divisor)}"
            )


@dataclass(frozen=True)
class SelectionSpec:
    """A selection's name (printable ASCII, 64 characters at most) and whether it can tie."""

    name: str
    can_tie: bool

    def __post_init__(self) -> None:
        if type(self.name) is not str or not _SELECTION_PATTERN.fullmatch(self.name):
            raise InvalidArgumentError(
                "a selection name must be 1 to 64 printable ASCII characters with no space at"
                f" either end, not {shown(self.name)}"
            )
        if type(self.can_tie) is not bool:
            raise InvalidArgumentError(
                f"can_tie of {self.name!r} must be True or False, not {shown(self.can_tie)}"
            )


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
        market_maker_account: str | None = MARKET_MAKER_ACCOUNT,
        references: ClientReferences | None = None,
    ) -> None:
        # Every argument is checked before the ledger is touched.
        check_name(market_id, "a market id")
        if not isinstance(ledger, Ledger):
            raise InvalidArgumentError(f"ledger must be a Ledger, not {shown(ledger)}")
        if settings is not None and not isinstance(settings, MarketSettings):
            raise InvalidArgumentError(
                f"settings must be MarketSettings or None, not {shown(settings)}"
            )
        if not isinstance(selections, list | tuple) or not 0 < len(selections) <= MAX_SELECTIONS:
            raise MarketStateError(
                f"a market needs a list of 1 to {MAX_SELECTIONS} selections, not"
                f" {shown(selections)}"
            )
        for spec in selections:
            if not isinstance(spec, SelectionSpec):
                raise InvalidArgumentError(
                    f"a selection must be a SelectionSpec, not {shown(spec)}"
                )
        check_name(commission_account, "the commission account")
        if market_maker_account is not None:
            check_name(market_maker_account, "the market maker's account")
            if market_maker_account == commission_account:
                raise InvalidArgumentError(
                    "the market maker's account must not be the commission account"
                )
        if references is not None and not isinstance(references, ClientReferences):
            raise InvalidArgumentError(
                f"references must be ClientReferences or None, not {shown(references)}"
            )
        commission_kind = ledger.kind_or_none(commission_account)
        if commission_kind not in (None, AccountKind.HOUSE):
            raise InvalidArgumentError(
                f"the commission account {commission_account!r} is not a house account"
            )
        clearing_account = f"{market_id}/clearing"
        if ledger.has_account(clearing_account):
            raise MarketStateError(f"market id {market_id!r} was already used on this ledger")
        self.market_id = market_id
        self.ledger = ledger
        self.settings = settings or MarketSettings()
        self.selections = tuple(selections)
        self.names = tuple(spec.name for spec in self.selections)
        if len(set(self.names)) != len(self.names):
            raise MarketStateError("a market needs one or more selections with distinct names")
        self._index = {name: index for index, name in enumerate(self.names)}
        self.commission_account = commission_account
        #: The one house account that may trade on this market (None: none may).
        self.market_maker_account = market_maker_account
        self.clearing_account = clearing_account
        opened: list[LedgerEntry] = []
        if commission_kind is None:
            opened.append(OpenAccount(commission_account, AccountKind.HOUSE))
        opened.append(OpenAccount(clearing_account, AccountKind.CLEARING))
        ledger.commit(opened)  # both or neither
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
        # customer -> reference -> the order id, or why the order was refused (this market's)
        self._references: dict[str, dict[str, int | _Refused]] = {}
        # customer -> reference -> the market it was used on (every market on the registry)
        self.references = references if references is not None else ClientReferences.of(ledger)
        self._registry = self.references.by_customer
        self._bettors: set[str] = set()  # accounts known to be of a kind that may bet
        self._min_size = max(1, self.settings.min_stake)
        self._hold_ids: dict[str, tuple[str, str]] = {}

    # -- rounds ------------------------------------------------------------------------------
    @property
    def round(self) -> int:
        """The last round opened (0 before the first)."""
        return self._round.number

    @property
    def round_open(self) -> bool:
        return self._round.open

    def open_round(
        self,
        round_no: int,
        fair_prices: Mapping[str, Fraction | None]
        | Sequence[tuple[str, Fraction | None]]
        | None = None,
    ) -> None:
        """Open betting round ``round_no`` (later than any before), with the fair prices to show.

        ``fair_prices`` maps selection names to exact fair prices (a positive ``Fraction`` or
        ``int``, at most :data:`MAX_FAIR_PRICE`) or ``None``; it may also be given as the tuple of (name, price) pairs the
        log records.
        """
        try:
            prices: Any = fair_price_pairs(fair_prices)
        except TwentyOneError:
            prices = fair_prices  # logged as given: a replay meets the same refusal
            self._run(OpenRound(round_no, prices), lambda: fair_price_pairs(fair_prices))
            return
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
            refs = self._registry.get(customer) if type(customer) is str else None
            index = self._index.get(selection) if type(selection) is str else None
            order_side = _SIDES.get(side_text) if type(side_text) is str else None
            price_index = _TEXT_INDEX.get(price) if type(price) is str else None
            if (
                refs is not None
                and type(reference) is str
                and reference
                and reference not in refs
                and len(reference) <= MAX_REFERENCE_LENGTH
                and reference.isprintable()
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
                    refs[reference] = self.market_id  # its use, in the registry
                except OrderRejectedError as error:
                    body = (selection, side_text, PRICES_IN_HUNDREDTHS[price_index], size, round_no)
                    self._remember(customer, reference, _Refused(body, error))
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
        if type(depth) is not int or not 0 <= depth <= LADDER_SIZE:
            raise InvalidArgumentError(
                f"depth must be a whole number from 0 to {LADDER_SIZE}, not {shown(depth)}"
            )
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
        check_name(customer, "a customer")
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

    def hold_id(self, customer: str) -> tuple[str, str]:
        """The id of the ledger hold that covers ``customer`` on this market.

        A structured id, ``(market id, customer)``: no two (market, customer) pairs can share
        one, whatever their names (joined text such as ``g1/x/y`` could).
        """
        found = self._hold_ids.get(customer) if type(customer) is str else None
        if found is None:
            found = self._hold_ids[customer] = (self.market_id, check_name(customer, "a customer"))
        return found

    def fill_result(self, fill: Fill) -> str:
        """``matched``, ``settled`` or ``void`` for a fill."""
        if type(fill) is not Fill or not (
            type(fill.selection) is int and 0 <= fill.selection < len(self.names)
        ):
            raise InvalidArgumentError(f"a fill of this market is needed, not {shown(fill)}")
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
        index = self._index.get(selection) if type(selection) is str else None
        if index is None:
            raise UnknownSelectionError(
                f"unknown selection {shown(selection)}: this market has {', '.join(self.names)}"
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
        if type(round_no) is not int or not 0 < round_no <= MAX_ROUND:
            raise InvalidArgumentError(
                f"a round number must be a whole number from 1 to {MAX_ROUND}, not"
                f" {shown(round_no)}"
            )
        if round_no <= self._round.number:
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
        # The new holds are worked out on copies of the positions and written in one batch
        # before anything else changes: if the ledger refuses it, the round is still open.
        exposure = self.exposure
        table = self.orders
        copies: dict[str, CustomerExposure] = {}
        lapsing: list[tuple[int, int]] = []
        for order_id in self._round.orders:
            left = table.remaining[order_id]
            if left:
                customer = table.customer[order_id]
                copy = copies.get(customer)
                if copy is None:
                    copy = copies[customer] = _copy_position(exposure.customers[customer])
                _, selection, side, price, _, _, _ = table.fixed[order_id]
                exposure.shift_unmatched(copy, selection, SIDE_OF_CODE[side], price, left, 0)
                exposure.refresh(copy, selection)
                lapsing.append((order_id, left))
        batch: list[LedgerEntry] = []
        ledger = self.ledger
        for customer in sorted(copies):
            copy = copies[customer]
            hold = _hold_of(copy, exposure.rate)
            if hold != copy.written:  # an unchanged hold needs no entry
                batch.append(HoldSet(self.hold_id(customer), customer, hold))
                copy.written = hold
        if batch:
            ledger.commit(batch)
        # Nothing below can fail.
        for customer, copy in copies.items():
            _restore_position(exposure.customers[customer], copy)
        for order_id, left in lapsing:
            table.lapsed[order_id] += left
            table.remaining[order_id] = 0
        for book in self.books:
            book.clear()
        self._round = _Round(self._round.number, False)
        self._accepting = None

    def _check_form(self, command: Place) -> tuple[Side, int]:
        """Check that an order is well formed: its side and its price in hundredths.

        Every field of the right type and in range, the customer's and the reference's text
        valid: a malformed order is refused without being remembered against its reference
        (it is not an order at all), so a hostile value is never stored and a retry meets the
        same refusal anyway. What it refuses depends on the order's fields alone.
        """
        customer, reference = command.customer, command.reference
        if type(customer) is not str or not NAME_PATTERN.fullmatch(customer):
            raise InvalidOrderError(f"unknown customer {shown(customer)}: not an account name")
        if not _valid_reference(reference):
            raise InvalidOrderError(
                "an order needs a client reference (a non-empty string of at most"
                f" {MAX_REFERENCE_LENGTH} printable characters), not {shown(reference)}"
            )
        selection = command.selection
        if type(selection) is not str or len(selection) > 64:
            raise UnknownSelectionError(
                f"unknown selection {shown(selection)}: this market has {', '.join(self.names)}"
            )
        side = _SIDES.get(command.side) if type(command.side) is str else None
        if side is None:
            raise InvalidOrderError(f"side must be 'back' or 'lay', got {shown(command.side)}")
        hundredths = hundredths_of(command.price)  # InvalidPriceError: not a price
        size = command.size
        if type(size) is not int or not 0 < size <= MAX_AMOUNT:
            raise InvalidOrderError(
                f"size must be a whole positive number of minor units up to {MAX_AMOUNT},"
                f" got {shown(size)}"
            )
        round_no = command.round
        if type(round_no) is not int or not 0 <= round_no <= MAX_ROUND:
            raise InvalidOrderError(
                f"round must be a round number from 0 to {MAX_ROUND}, got {shown(round_no)}"
            )
        return side, hundredths

    def _check_bettor(self, customer: str) -> None:
        """Refuse an account that does not exist or may not bet (house accounts, clearing)."""
        if customer in self._bettors:
            return
        kind = self.ledger.kind_or_none(customer)
        if kind is None:
            raise InvalidOrderError(f"unknown customer {customer!r}: open an account first")
        if kind is not AccountKind.CUSTOMER and not (
            kind is AccountKind.HOUSE and customer == self.market_maker_account
        ):
            raise InvalidOrderError(
                f"account {customer!r} cannot bet: only customers and the house's market maker"
                " trade"
            )
        self._bettors.add(customer)  # an account's kind never changes

    def _remember(self, customer: str, reference: str, record: int | _Refused) -> None:
        """Record a reference's answer here, and its use on this market in the registry."""
        used = self._registry.get(customer)
        if used is None:
            used = self._registry[customer] = {}
        used[reference] = self.market_id
        mine = self._references.get(customer)
        if mine is None:
            mine = self._references[customer] = {}
        mine[reference] = record

    def _place(self, command: Place, replacing: Order | None = None) -> PlaceResult:
        """The general path of :meth:`place`: form, retries, then every rule in turn."""
        side, hundredths = self._check_form(command)
        customer, reference = command.customer, command.reference
        self._check_bettor(customer)
        used_on = self.references.market_of(customer, reference)
        if used_on is not None and used_on != self.market_id:
            raise ReferenceReusedError(
                f"reference reused: {reference!r} was already used by {customer} on market"
                f" {used_on}"
            )
        refs = self._references.get(customer)
        known = None if refs is None else refs.get(reference)
        if known is not None:
            if isinstance(known, int):
                order = self.orders[known]
                if not self._same_body(order, command, hundredths):
                    raise ReferenceReusedError(
                        f"reference reused: {reference!r} was already used by {customer} for a"
                        " different order"
                    )
                return self.placement_result(order)
            if known.body != _body(command, hundredths):
                raise ReferenceReusedError(
                    f"reference reused: {reference!r} was already used by {customer} for a"
                    " different order"
                )
            raise known.error
        try:
            result = self._new_order(command, side, hundredths, replacing)
        except OrderRejectedError as error:
            self._remember(customer, reference, _Refused(_body(command, hundredths), error))
            raise
        used = self._registry.get(customer)
        if used is None:
            used = self._registry[customer] = {}
        used[reference] = self.market_id  # its answer was recorded by _execute
        return result

    def _same_body(self, order: Order, command: Place, hundredths: int) -> bool:
        """Whether ``command`` asks for the order ``order`` was placed as (a retry)."""
        # The fields in the order a body tuple would be compared, each with ``==``.
        return bool(
            self.names[order.selection] == command.selection
            and order.side.value == command.side
            and PRICES_IN_HUNDREDTHS[order.price] == hundredths
            and order.size == command.size
            and order.round == command.round
        )

    def placement_result(self, order: Order) -> PlaceResult:
        """What :meth:`place` answered for ``order`` (and returns to a retry).

        Rebuilt, not stored: the fills of its placement are the ones it took as the taker,
        consecutive from ``order.first_fill``; right after them the order had nothing
        cancelled, lapsed or voided.
        """
        if not isinstance(order, Order) or order.table is not self.orders:
            raise InvalidArgumentError(f"an order of this market is needed, not {shown(order)}")
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
        if type(customer) is not str or not NAME_PATTERN.fullmatch(customer):
            raise CancelRejectedError(f"there is no order {shown(order_id)} of {shown(customer)}")
        refs = self._references.get(customer) if _valid_reference(reference) else None
        known = None if refs is None else refs.get(reference)
        old = self.orders.get(order_id) if type(order_id) is int else None
        if known is None:  # a retry is answered from the reference record below
            if old is None or old.customer != customer:
                raise CancelRejectedError(
                    f"there is no order {shown(order_id)} of {customer} to re-price"
                )
            if not old.remaining:
                raise CancelRejectedError(
                    f"order {order_id} is no longer open: nothing to re-price"
                )
        if old is None:  # pragma: no cover (a known reference implies the order existed)
            raise CancelRejectedError(f"there is no order {shown(order_id)} to re-price")
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
        self, command: Place, side: Side, hundredths: int, replacing: Order | None = None
    ) -> PlaceResult:
        """Check a well-formed order against the market's rules, then execute it."""
        customer = command.customer
        if self.status is not MarketStatus.OPEN:
            raise SelectionClosedError(
                f"market {self.market_id} is {self.status.value}: no more bets"
            )
        round_no = command.round
        current = self._round
        if round_no < current.number or (round_no == current.number and not current.open):
            raise StaleRoundError(f"round is stale: round {round_no} has closed")
        if round_no > current.number or not current.open:
            raise RoundNotOpenError(f"round not open: round {round_no} has not opened yet")
        index = self._selection_index(command.selection)
        if self.results[index] is not None:
            raise SelectionClosedError(f"{command.selection} is settled: no more bets on it")
        price = index_of_hundredths(hundredths)
        size = command.size
        if size < self.settings.min_stake:
            raise BelowMinimumStakeError(
                f"stake {size} is below the minimum stake of {self.settings.min_stake}"
            )
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
            row, old_worst, loss, net, written = _EMPTY_ROW, 0, 0, 0, 0
        else:
            row = position.rows[index]
            old_worst, loss, net = position.worst[index], position.loss, position.settled_net
            written = position.written
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
        ledger = self.ledger
        can_hold = ledger.available(customer) + written  # ledger.room, without the hold lookup
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
        # The reference's answer here (its use in the registry: written by the caller).
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
                position = positions[customer]
                exposure.rest_whole(position, index, side, price, size)
            book.rest(order_id, side, price, size)
            if needed != position.written:
                ledger.update_hold(
                    self._hold_ids.get(customer) or self.hold_id(customer), customer, needed
                )
                position.written = needed
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
            if hold != touched.written:  # an unchanged hold costs no ledger call
                ledger.update_hold(hold_ids.get(name) or self.hold_id(name), name, hold)
                touched.written = hold
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
            raise CancelRejectedError(
                f"there is no order {shown(order_id)} on market {self.market_id}"
            )
        if table.customer[order_id] != customer or type(customer) is not str:
            raise CancelRejectedError(f"order {order_id} is not {shown(customer)}'s")
        before = table.remaining[order_id]
        if not before:
            raise CancelRejectedError(f"order {order_id} is no longer open: nothing to cancel")
        if amount is None:
            amount = before
        elif type(amount) is not int or amount <= 0:
            raise CancelRejectedError(
                f"cancel amount must be a positive whole number, got {shown(amount)}"
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
        if hold != position.written:
            self.ledger.update_hold(
                self._hold_ids.get(customer) or self.hold_id(customer), customer, hold
            )
            position.written = hold
        return _new(CancelResult, (table.view(order_id), amount))

    def _settle(self, selection: str, text: str) -> None:
        self._check_open()
        index = self._selection_index(selection)
        result = _RESULTS.get(text) if type(text) is str else None
        if result is None:
            raise MarketStateError(f"result must be 'winner', 'loser' or 'tied', got {shown(text)}")
        if self._round.open:
            raise MarketStateError("close the betting round before settling a selection")
        if self.results[index] is not None:
            raise MarketStateError(f"{selection} is already settled")
        if result is SelectionResult.TIED and not self.selections[index].can_tie:
            raise MarketStateError(f"{selection} cannot end in a dead heat")
        # Every transfer and hold is worked out first and committed as one batch (with the
        # commission, when this is the last selection): a refusal leaves everything as it was.
        exposure = self.exposure
        outcome = result.outcome
        rate = exposure.rate
        last = sum(r is None for r in self.results) == 1
        batch: list[LedgerEntry] = []
        credits: list[LedgerEntry] = []
        holds: list[LedgerEntry] = []
        written: list[tuple[CustomerExposure, int]] = []
        nets: dict[str, int] = {}
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
            net = position.settled_net + pnl
            if last:
                nets[customer] = net
            else:
                hold = position.loss - (-worst if worst < 0 else 0) + commission(net, rate)
                holds.append(HoldSet(self.hold_id(customer), customer, hold))
                written.append((position, hold))
        closing, owed = self._closing_entries(nets) if last else ([], {})
        self.ledger.commit(batch + credits + holds + closing)
        # Nothing below can fail.
        for position, hold in written:
            position.written = hold
        exposure.settle(index, outcome)
        self.results[index] = result
        if last:
            self._close_market(MarketStatus.SETTLED, owed)

    def _void(self, reason: str) -> None:
        self._check_open()
        if (
            not isinstance(reason, str)
            or not reason
            or len(reason) > MAX_REASON_LENGTH
            or not reason.isprintable()
        ):
            raise MarketStateError(
                f"a void needs a reason (printable text of at most {MAX_REASON_LENGTH}"
                f" characters), not {shown(reason)}"
            )
        # The commission (on the selections already settled) and the released holds are
        # committed first: if the ledger refuses them, nothing has changed.
        exposure = self.exposure
        closing, owed = self._closing_entries(
            {customer: position.settled_net for customer, position in exposure.customers.items()}
        )
        self.ledger.commit(closing)
        # Nothing below can fail.
        table = self.orders
        for order_id in self._round.orders:
            table.voided[order_id] += table.remaining[order_id]
            table.remaining[order_id] = 0
        for book in self.books:
            book.clear()
        self.voided_selections = {i for i, r in enumerate(self.results) if r is None}
        exposure.void_unsettled()
        self._round = _Round(self._round.number, False)
        self._accepting = None
        self._close_market(MarketStatus.VOID, owed)

    def _closing_entries(self, nets: dict[str, int]) -> tuple[list[LedgerEntry], dict[str, int]]:
        """The commission on each customer's final net, and every hold released (not applied)."""
        batch: list[LedgerEntry] = []
        owed_by: dict[str, int] = {}
        rate = self.exposure.rate
        for customer in sorted(nets):
            owed = commission(nets[customer], rate)
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
                owed_by[customer] = owed
            batch.append(HoldSet(self.hold_id(customer), customer, 0))
        return batch, owed_by

    def _close_market(self, status: MarketStatus, owed: dict[str, int]) -> None:
        """The market is closed: its commission was charged and every hold released."""
        self.commissions.update(owed)
        for position in self.exposure.customers.values():
            position.loss = 0
            position.written = 0
        self.status = status


def _hold_of(position: CustomerExposure, rate: Fraction) -> int:
    """:meth:`MarketExposure.hold` of a position."""
    net = position.settled_net
    return position.loss + (commission(net, rate) if net > 0 else 0)


def _copy_position(position: CustomerExposure) -> CustomerExposure:
    copy = CustomerExposure(len(position.rows))
    copy.rows = [list(row) for row in position.rows]
    copy.worst = list(position.worst)
    copy.loss = position.loss
    copy.settled_net = position.settled_net
    copy.written = position.written
    return copy


def _restore_position(position: CustomerExposure, source: CustomerExposure) -> None:
    position.rows = source.rows
    position.worst = source.worst
    position.loss = source.loss
    position.settled_net = source.settled_net
    position.written = source.written


def fair_price_pairs(
    fair_prices: Mapping[str, Fraction | None] | Sequence[tuple[str, Fraction | None]] | None,
    ordered: bool = True,
) -> tuple[tuple[str, Fraction | None], ...]:
    """Fair prices as (name, price) pairs, each checked (:class:`InvalidArgumentError`).

    Sorted by name (as the log keeps them), or with ``ordered=False`` in the order given.
    """
    if fair_prices is None:
        return ()
    if isinstance(fair_prices, Mapping):
        items = list(fair_prices.items())
    elif type(fair_prices) is tuple and all(
        type(pair) is tuple and len(pair) == 2 for pair in fair_prices
    ):
        items = list(fair_prices)  # the pairs the log records
    else:
        raise InvalidArgumentError(
            f"fair prices must be a mapping of selection names to prices, not {shown(fair_prices)}"
        )
    if len(items) > MAX_SELECTIONS:
        raise InvalidArgumentError(f"fair prices for more than {MAX_SELECTIONS} selections")
    for name, price in items:
        if type(name) is not str:
            raise InvalidArgumentError(
                f"a fair price's selection must be a name, not {shown(name)}"
            )
        if price is None:
            continue
        if isinstance(price, bool) or type(price) not in (Fraction, int):
            raise InvalidArgumentError(
                f"the fair price of {shown(name)} must be an exact Fraction or None, not"
                f" {shown(price)}"
            )
        value = Fraction(price)
        if (
            max(value.numerator.bit_length(), value.denominator.bit_length()) > _MAX_FAIR_BITS
            or not 0 < value <= MAX_FAIR_PRICE
        ):
            raise InvalidArgumentError(
                f"the fair price of {shown(name)} must be above 0 and at most {MAX_FAIR_PRICE},"
                f" not {shown(price)}"
            )
    if len({name for name, _ in items}) != len(items):
        raise InvalidArgumentError("fair prices name a selection twice")
    return tuple(sorted(items, key=lambda pair: pair[0])) if ordered else tuple(items)


_RESULTS = {result.value: result for result in SelectionResult}
_EMPTY_ROW = (0, 0, 0, 0, 0, 0)  # the row of a customer with no position yet


def _body(command: Place, hundredths: int) -> tuple[Any, ...]:
    """What a retry's order must repeat: everything but the customer and the reference."""
    return (command.selection, command.side, hundredths, command.size, command.round)


def replay(
    log: Iterable[LogEntry],
    ledger: Ledger,
    market_id: str,
    selections: Sequence[SelectionSpec],
    settings: MarketSettings | None = None,
    commission_account: str = COMMISSION_ACCOUNT,
    market_maker_account: str | None = MARKET_MAKER_ACCOUNT,
) -> Market:
    """Rebuild a market by running its logged commands again; each must meet the same answer."""
    market = Market(
        market_id, ledger, selections, settings, commission_account, market_maker_account
    )
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
        market.open_round(command.round, command.fair_prices)
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
