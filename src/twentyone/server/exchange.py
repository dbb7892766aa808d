"""Live Exchange Blackjack tables: the game loop on the server clock, the market on the
persistent ledger, the fan-out over WebSockets (docs/exchange-live.md is the contract).

Each table runs one game at a time: :class:`LiveGame` is the library's
:class:`~twentyone.market.table.ExchangeTable` (the card game and its market, the house market
maker) on an in-memory :class:`~twentyone.ledger.Ledger` of its own. That ledger is a *mirror*:
before a customer's order it is told his database balance, and every batch the market commits
to it (a hold grown or shrunk, a settlement, the commission) is turned into database transfers
between the customer and the game's hold account ``exchange:{id}``, written in the same
transaction as the market event's row. The database is the truth: a game is its seed and its
event rows (a round opened with its fair prices, an order with the balance it was checked
against, a cancel, a round closed), and :meth:`ExchangeTables.load` rebuilds the game by
replaying them, at start-up and whenever a write fails after the mirror had moved (so nothing
is ever half-applied).

A game whose rows cannot be replayed is voided from its :class:`ExchangePositionRow` rows alone:
each account gets back what the game held for it, less the commission on what had settled.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Any

from fastapi import FastAPI, Path, Query, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from twentyone.cards import DECK, Card
from twentyone.errors import TwentyOneError
from twentyone.exchange.game import Event
from twentyone.exchange.hands import is_soft, state_of, total
from twentyone.exchange.logic_table import LogicTable, load_logic_table
from twentyone.exchange.schedule import STANDARD, TURBO, RoundSchedule
from twentyone.exchange.selections import PLAYER_SELECTIONS, SELECTIONS
from twentyone.exchange.state import ExchangeState
from twentyone.fairness import FairSource, commitment
from twentyone.ledger import AccountKind, HoldSet, Ledger, Transfer
from twentyone.ledger.errors import InsufficientBalanceError
from twentyone.market.commission import commission
from twentyone.market.errors import (
    MarketStateError,
    ReferenceReusedError,
    RoundNotOpenError,
    SelectionClosedError,
    StaleRoundError,
)
from twentyone.market.ladder import price_text
from twentyone.market.market import COMMISSION_ACCOUNT, MarketSettings
from twentyone.market.market_maker import MARKET_MAKER_LABEL, MarketMaker, MarketMakerSettings
from twentyone.market.orders import Fill, OrderView
from twentyone.market.table import ExchangeTable, fair_prices
from twentyone.server.casino import Watcher, _socket_user
from twentyone.server.context import Player, Server, TableId, json_response
from twentyone.server.errors import ApiError, conflict, not_found, unprocessable
from twentyone.server.ticking import TickLoop, answer_pings, close_watchers
from twentyone.server.worker import analysis_worker
from twentyone.storage import ledger
from twentyone.storage.ledger import Movement
from twentyone.storage.models import (
    EXTERNAL_ACCOUNT,
    HOLD,
    HOUSE,
    HOUSE_ACCOUNT,
    OPEN,
    SETTLED,
    VOID,
    ExchangeEventRow,
    ExchangeGameRow,
    ExchangeOrderRow,
    ExchangePositionRow,
    LedgerAccount,
    User,
    exchange_hold_account,
)

log = logging.getLogger("twentyone.server.exchange")

#: The market maker's float, granted once when its account is opened (play money).
MAKER_FLOAT = 100_000_000
#: The market's settings on every table: 2.00 minimum stake, 5% commission, dead heat / 2.
MARKET_SETTINGS = MarketSettings()
#: Ledger reasons are at most 64 characters.
_REASON = "exchange {table} game {number}: {what}"


@dataclass(frozen=True)
class TableSpec:
    id: str
    name: str
    turbo: bool
    schedule: RoundSchedule


TABLES = (
    TableSpec("exchange-1", "Exchange", False, STANDARD),
    TableSpec("exchange-2", "Exchange Turbo", True, TURBO),
)


def maker_account(table_id: str) -> str:
    """The house market maker's ledger account at a table."""
    return f"house:maker:{table_id}"


# ------------------------------------------------------------------------------ bodies
class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class OrderBody(_Body):
    table: StrictStr = Field(pattern="^[a-z0-9_-]{1,32}$")
    game: StrictInt = Field(ge=1, le=2**31 - 1)
    round: StrictInt = Field(ge=1, le=6)
    selection: StrictStr = Field(min_length=1, max_length=64)
    side: StrictStr = Field(pattern="^(back|lay)$")
    #: A decimal string on the ladder ("2.06"); never a binary float.
    price: StrictStr = Field(min_length=1, max_length=16)
    size: StrictInt = Field(ge=1, le=10**12)
    ref: StrictStr = Field(min_length=1, max_length=64, pattern=r"^[ -~]+$")


# ------------------------------------------------------------------------------ one game
class Phase:
    BETTING, PAUSE, OVER = "betting", "pause", "over"


class _GameShoe:
    """The game's cards: the scripted ones first (tests only), then the provably fair
    infinite deck (``randbelow(52)`` of the seed's byte stream, one card each)."""

    def __init__(self, source: FairSource, scripted: list[Card]) -> None:
        self._source = source
        self._scripted = list(scripted)

    def start_round(self) -> None:
        pass

    def end_round(self) -> None:
        pass

    def draw(self) -> Card:
        if self._scripted:
            return self._scripted.pop(0)
        return DECK[self._source.randbelow(52)]


def _fraction_text(value: Fraction | None) -> str | None:
    return None if value is None else f"{value.numerator}/{value.denominator}"


#: The shown state of every game before round 1, and its fair prices once worked out (this
#: process's cache: a list so that it is filled in place).
_EMPTY_STATE = '{"dealer": [], "played": false, "players": [[], [], [], []]}'
_START_FAIR: list[dict[str, str | None]] = []


def fair_price_texts(state_json: str) -> dict[str, str | None]:
    """The fair prices of every selection on a shown state (its JSON), as exact fraction
    texts: what the analysis worker computes for a round's open.

    >>> fair_price_texts('{"players": [[], [], [], []], "dealer": [], "played": false}')["Player 1"]
    '4686174444973537/2251799813685248'
    """
    state = ExchangeState.from_json(json.loads(state_json))
    prices = fair_prices(state, load_logic_table())
    return {name: _fraction_text(prices.get(name)) for name in SELECTIONS}


class LiveGame:
    """One game of a table in this process: the library's table on a mirror ledger."""

    def __init__(
        self,
        row: ExchangeGameRow,
        spec: TableSpec,
        logic_table: LogicTable,
    ) -> None:
        self.row_id = row.id
        self.number = row.number
        self.spec = spec
        self.server_seed = row.server_seed
        self.commitment = row.commitment
        self.client_seed = row.client_seed
        self.scripted = row.scripted is not None
        self.started_at = row.created_at
        self.maker = maker_account(spec.id)
        self.hold_account = exchange_hold_account(row.id)
        self._capturing = False
        self._balance: dict[str, int] = {}
        self._held: dict[str, int] = {}
        self._syncs = 0
        self.ledger = Ledger(on_commit=self._mirror)
        self.ledger.open_account(self.maker, AccountKind.HOUSE)
        if row.maker_float:
            self.ledger.deposit("maker-float", self.maker, row.maker_float, "game float")
        cards = [Card.parse(text) for text in row.scripted or []]
        shoe = _GameShoe(FairSource(row.server_seed, row.client_seed, 0), cards)
        self.fair_next: dict[str, Fraction | None] = {}
        self.table = ExchangeTable(
            self.ledger,
            f"g{row.id}",
            shoe,
            MarketMaker(MarketMakerSettings(account=self.maker)),
            (),
            MARKET_SETTINGS,
            lambda _state: self.fair_next,
            logic_table,
        )
        self.market = self.table.market
        self.phase = Phase.BETTING
        self.closes_at: float | None = None
        self.pause_ends_at: float | None = None
        self.events = 0  # event rows written
        #: market order id -> (database order id, placed at)
        self.orders: dict[int, tuple[int, float]] = {}
        self.maker_orders: list[int] = []
        #: market order id -> its fills (every fill happens when its taker is placed)
        self.fills_of: dict[int, list[Fill]] = {}
        #: account -> the market ids of its orders, in order
        self.orders_of: dict[str, list[int]] = {}

    # -- the mirror ---------------------------------------------------------------------
    def _mirror(self, batch: tuple[Any, ...]) -> None:
        """Called by the ledger before it applies a batch: note what it moves."""
        if not self._capturing:
            return
        seen: dict[Any, int] = {}
        for entry in batch:
            if isinstance(entry, Transfer):
                self._balance[entry.debit] = self._balance.get(entry.debit, 0) - entry.amount
                self._balance[entry.credit] = self._balance.get(entry.credit, 0) + entry.amount
            elif isinstance(entry, HoldSet):
                before = seen.get(entry.hold_id)
                if before is None:
                    before = self.ledger.hold(entry.hold_id)
                seen[entry.hold_id] = entry.amount
                self._held[entry.account] = self._held.get(entry.account, 0) + entry.amount - before

    def capture(self) -> None:
        self._capturing = True
        self._balance.clear()
        self._held.clear()

    def discard(self) -> None:
        self._capturing = False
        self._balance.clear()
        self._held.clear()

    def movements(self, what: str) -> tuple[list[Movement], set[str]]:
        """The database transfers of what was captured since :meth:`capture`, and the
        accounts whose position changed. Each account's *available* money (balance less what
        the market holds) moves between it and the game's hold account."""
        self._capturing = False
        reason = _REASON.format(table=self.spec.id, number=self.number, what=what)[:64]
        change: dict[str, int] = {}
        touched: set[str] = set()
        for account in set(self._balance) | set(self._held):
            if account.endswith("/clearing") or account == EXTERNAL_ACCOUNT:
                continue
            available = self._balance.get(account, 0) - self._held.get(account, 0)
            target = HOUSE_ACCOUNT if account == COMMISSION_ACCOUNT else account
            if account != COMMISSION_ACCOUNT:
                touched.add(account)
            if available:
                change[target] = change.get(target, 0) + available
        self._balance.clear()
        self._held.clear()
        # Into the hold first, then out of it: the hold account never dips below zero.
        out = [
            Movement(account, self.hold_account, -amount, reason)
            for account, amount in sorted(change.items())
            if amount < 0
        ]
        out += [
            Movement(self.hold_account, account, amount, reason)
            for account, amount in sorted(change.items())
            if amount > 0
        ]
        return out, touched

    def sync(self, account: str, available: int) -> None:
        """Make the mirror's balance of ``account`` its database balance plus what this game
        holds for it (not mirrored: it is the database's own figure)."""
        if not self.ledger.has_account(account):
            self.ledger.open_account(account, AccountKind.CUSTOMER)
        target = available + self.ledger.held(account)
        difference = target - self.ledger.balance(account)
        self._syncs += 1
        was, self._capturing = self._capturing, False
        try:
            if difference > 0:
                self.ledger.deposit(f"sync/{self._syncs}", account, difference, "balance")
            elif difference < 0:
                self.ledger.withdraw(f"sync/{self._syncs}", account, -difference, "balance")
        finally:
            self._capturing = was

    # -- events (live and replayed alike) -------------------------------------------------
    def apply(self, kind: str, data: Mapping[str, Any]) -> Any:
        market = self.market
        if kind == "open":
            self.fair_next = {
                name: None if text is None else Fraction(text)
                for name, text in data["fair"].items()
            }
            first = len(market.orders.customer)
            round_no = self.table.open_round()
            if round_no != data["round"]:
                raise MarketStateError(f"round {round_no} opened, {data['round']} was stored")
            self.maker_orders = list(range(first, len(market.orders.customer)))
            self.phase = Phase.BETTING
            return round_no
        if kind == "order":
            self.sync(data["account"], data["available"])
            result = market.place(
                data["account"],
                data["ref"],
                data["selection"],
                data["side"],
                data["price"],
                data["size"],
                data["round"],
            )
            self.orders_of.setdefault(data["account"], []).append(result.order.order_id)
            for fill in result.fills:
                self.fills_of.setdefault(fill.back_order, []).append(fill)
                self.fills_of.setdefault(fill.lay_order, []).append(fill)
            return result
        if kind == "cancel":
            return market.cancel(data["account"], data["order"], data["amount"])
        if kind == "close":
            events = self.table.close_round()
            self.phase = Phase.OVER if self.table.over else Phase.PAUSE
            return events
        raise MarketStateError(f"unknown exchange event {kind!r}")

    # -- views ----------------------------------------------------------------------------
    @property
    def game(self) -> Any:
        return self.table.game

    def turned(self) -> list[dict[str, str]]:
        return [
            {"hand": hand, "card": str(card)}
            for event in self.game.events
            for hand, card in event.cards
        ]

    def fairness(self) -> dict[str, Any] | None:
        if not self.table.over:
            return None
        return {
            "server_seed": self.server_seed,
            "commitment": self.commitment,
            "client_seed": self.client_seed,
            "nonce": 0,
            "decks": None,
            "position": 0,
            "cards": [item["card"] for item in self.turned()],
            "scripted": self.scripted,
        }

    def hands(self) -> list[dict[str, Any]]:
        return [
            _hand_json(name, hand)
            for name, hand in zip(PLAYER_SELECTIONS, self.game.players, strict=True)
        ]

    def dealer(self) -> dict[str, Any]:
        return _hand_json("Dealer", self.game.dealer)

    def selection(self, name: str) -> dict[str, Any]:
        market = self.market
        view = market.selection_view(name)
        status = _STATUS.get(view.status)
        if status is None:
            status = "open" if market.round_open else "suspended"
        house: dict[str, list[list[Any]]] = {"back": [], "lay": []}
        index = market.names.index(name)
        orders = market.orders
        for order_id in self.maker_orders if market.round_open else ():
            left = orders.remaining[order_id]
            _, selection, side, price, _, _, _ = orders.fixed[order_id]
            if left and selection == index:
                # A resting maker lay is a price to back, a resting maker back one to lay.
                house["lay" if side == 0 else "back"].append([price_text(price), left])
        settlement = self.game.settlements.get(name)
        return {
            "name": name,
            "status": status,
            "fair_price": None
            if view.fair_price is None or view.status != "in play"
            else f"{float(view.fair_price):.4g}",
            "back": [[price, size] for price, size in view.to_back],
            "lay": [[price, size] for price, size in view.to_lay],
            "house": house,
            "matched": view.matched,
            "result": None if view.status == "in play" else view.status,
            "settled_round": None if settlement is None else settlement.settled_after_round,
        }

    def selections(self, names: Any = SELECTIONS) -> list[dict[str, Any]]:
        return [self.selection(name) for name in names]

    def results(self) -> dict[str, str | None]:
        out: dict[str, str | None] = {}
        for name in SELECTIONS:
            status = self.market.selection_view(name, 0).status
            out[name] = None if status == "in play" else status
        return out

    def record(self) -> dict[str, Any]:
        """What a finished game keeps (its row's ``record``)."""
        return {
            "cards": self.turned(),
            "hands": self.hands(),
            "dealer": self.dealer(),
            "selections": [
                {
                    "name": item["name"],
                    "result": item["result"],
                    "settled_round": item["settled_round"],
                }
                for item in self.selections()
            ],
            "results": self.results(),
            "commissions": sum(self.market.commissions.values()),
        }

    def order_json(self, market_id: int) -> dict[str, Any]:
        view = self.market.orders.view(market_id)
        db_id, placed_at = self.orders.get(market_id, (0, 0.0))
        fills = self.fills_of.get(market_id, [])
        return _order_json(
            view, self.market.names, self.spec.id, self.number, db_id, placed_at, fills, self.maker
        )

    def fill_json(self, fill: Fill, account: str) -> dict[str, Any]:
        other = fill.layer if fill.backer == account else fill.backer
        return {
            "selection": self.market.names[fill.selection],
            "side": "back" if fill.backer == account else "lay",
            "price": price_text(fill.price),
            "stake": fill.stake,
            "round": fill.round,
            "house": other == self.maker,
        }

    def position(self, account: str, balance: int) -> dict[str, Any]:
        market = self.market
        if account not in market.exposure.customers:
            return {
                "table": self.spec.id,
                "game": self.number,
                "balance": balance,
                "hold": 0,
                "open": [],
                "orders": [],
                "matched": [],
                "pnl": {},
                "pnl_after_commission": {},
                "settled_net": 0,
                "commission": 0,
            }
        seen = market.position(account)
        mine = self.orders_of.get(account, [])
        matched = []
        for fill in seen.matched_bets:
            sides = []
            if fill.backer == account:
                sides.append(("back", fill.back_order))
            if fill.layer == account:
                sides.append(("lay", fill.lay_order))
            for side, order_id in sides:
                item = self.fill_json(fill, account)
                item["side"] = side
                item["order"] = self.orders.get(order_id, (0, 0.0))[0]
                item["status"] = market.fill_result(fill)
                matched.append(item)
        rate = market.settings.commission_rate
        pnl: dict[str, dict[str, int]] = {}
        after: dict[str, dict[str, int]] = {}
        for name, outcomes in seen.outcomes.items():
            pnl[name] = {_OUTCOME[key]: value for key, value in outcomes.items()}
            after[name] = {}
            for key, value in pnl[name].items():
                net = seen.settled_net + value
                after[name][key] = value - commission(net, rate)
        return {
            "table": self.spec.id,
            "game": self.number,
            "balance": balance,
            "hold": self.ledger.held(account),
            "open": [self.order_json(order.order_id) for order in seen.open_orders],
            "orders": [self.order_json(market_id) for market_id in mine],
            "matched": matched,
            "pnl": pnl,
            "pnl_after_commission": after,
            "settled_net": seen.settled_net,
            "commission": seen.commission,
        }


_STATUS = {"winner": "won", "loser": "lost", "tied": "dead heat", "void": "void"}
_OUTCOME = {"win": "winner", "lose": "loser", "tie": "tied"}


def _hand_json(name: str, cards: Any) -> dict[str, Any]:
    hand = state_of(cards)
    return {
        "name": name,
        "cards": [str(card) for card in cards],
        "total": total(hand) if cards else 0,
        "soft": bool(cards) and is_soft(hand),
    }


def _order_status(view: OrderView) -> str:
    if view.remaining:
        return "open"
    if view.matched == view.size:
        return "matched"
    if view.matched:
        return "partly matched"
    if view.voided:
        return "void"
    if view.cancelled and not view.lapsed:
        return "cancelled"
    return "lapsed"


def _order_json(
    view: OrderView,
    names: tuple[str, ...],
    table_id: str,
    number: int,
    db_id: int,
    placed_at: float,
    fills: list[Fill],
    maker: str,
) -> dict[str, Any]:
    return {
        "id": db_id,
        "table": table_id,
        "game": number,
        "round": view.round,
        "ref": view.reference,
        "selection": names[view.selection],
        "side": view.side.value,
        "price": price_text(view.price),
        "size": view.size,
        "matched": view.matched,
        "remaining": view.remaining,
        "cancelled": view.cancelled,
        "lapsed": view.lapsed,
        "voided": view.voided,
        "status": _order_status(view),
        "fills": [
            {
                "price": price_text(fill.price),
                "stake": fill.stake,
                "round": fill.round,
                "house": maker in (fill.backer, fill.layer),
            }
            for fill in fills
        ],
        "placed_at": placed_at,
    }


def _refusal_status(error: TwentyOneError) -> int:
    if isinstance(
        error,
        StaleRoundError
        | RoundNotOpenError
        | SelectionClosedError
        | ReferenceReusedError
        | MarketStateError,
    ):
        return 409
    return 422


def _track(balances: dict[str, int], movements: list[Movement]) -> None:
    """Follow the database balances of a burst's bettors through its transfers so far."""
    for debit, credit, amount, _ in movements:
        if debit in balances:
            balances[debit] -= amount
        if credit in balances:
            balances[credit] += amount


@dataclass(eq=False)
class _Request:
    """An order or a cancel waiting for its table, and where its answer goes."""

    kind: str  # "order" | "cancel"
    account: str
    body: OrderBody | None = None
    order: ExchangeOrderRow | None = None
    size: int | None = None
    refusal: tuple[int, str] | None = None
    done: asyncio.Future[Any] = field(default=None)  # type: ignore[arg-type]


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


# ------------------------------------------------------------------------------ the service
@dataclass(eq=False)
class Runtime:
    spec: TableSpec
    game: LiveGame | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: Each socket watching the table, and the ledger account of its user (None: anonymous).
    watchers: dict[Watcher, str | None] = field(default_factory=dict)
    seq: int = 0
    last_number: int = 0
    #: Orders and cancels waiting for the lock: the next to get it makes them all.
    pending: list[_Request] = field(default_factory=list)
    #: The next round's fair prices being worked out, for (game id, round closed).
    fair_task: asyncio.Future[dict[str, str | None]] | None = None
    fair_key: tuple[int, int] | None = None
    #: Selections whose books changed since the last ``book`` message, and the timer that sends
    #: it (book changes are conflated: docs/exchange-live.md).
    book_changes: set[str] = field(default_factory=set)
    book_timer: asyncio.TimerHandle | None = None


FairFunction = Callable[[ExchangeState], Mapping[str, Fraction | None]]

#: Seconds over which book changes are gathered into one ``book`` message: 500 watchers and a
#: message per batch of orders made the fan-out most of the server's work (bench/exchange_table.py).
BOOK_INTERVAL = 0.1


class ExchangeTables:
    """Every exchange table of the server; see the module documentation."""

    def __init__(self, server: Server, run_loop: bool | None = None) -> None:
        self.server = server
        self.tables = {spec.id: Runtime(spec) for spec in TABLES}
        self.run_loop = run_loop
        self.logic_table = load_logic_table()
        self.fair_function: FairFunction | None = server.config.exchange_fair_prices
        self.maker_cap = server.config.exchange_maker_cap
        self.book_interval = BOOK_INTERVAL
        self._clock = TickLoop("exchange", self.tick)
        self._start_fair: dict[str, str | None] | None = None
        #: What start-up recovery did: game id -> "resumed" | "voided: reason".
        self.recovered: dict[int, str] = {}

    # -------------------------------------------------------------- life
    async def start(self) -> None:
        now = self.server.now()
        async with self.server.write() as session:
            for spec in TABLES:
                account = maker_account(spec.id)
                if await session.get(LedgerAccount, account) is None:
                    await ledger.open_account(session, account, HOUSE, now)
                    await ledger.transfer(
                        session, EXTERNAL_ACCOUNT, account, MAKER_FLOAT, "market maker float", now
                    )
            numbers = dict(
                (
                    await session.execute(
                        select(ExchangeGameRow.table_id, func.max(ExchangeGameRow.number)).group_by(
                            ExchangeGameRow.table_id
                        )
                    )
                ).all()
            )
            open_rows = (
                await session.scalars(
                    select(ExchangeGameRow.id).where(ExchangeGameRow.state == OPEN)
                )
            ).all()
        for runtime in self.tables.values():
            runtime.last_number = int(numbers.get(runtime.spec.id) or 0)
        for game_id in open_rows:
            await self._recover(game_id)
        for runtime in self.tables.values():
            if runtime.game is None:
                async with runtime.lock:
                    await self._start_game(runtime)
        self._clock.start(self.server.config.clock, self.run_loop)

    async def stop(self) -> None:
        await self._clock.stop()
        for runtime in self.tables.values():
            if runtime.fair_task is not None:
                runtime.fair_task.cancel()
            if runtime.book_timer is not None:
                runtime.book_timer.cancel()
                runtime.book_timer = None
            await close_watchers(runtime.watchers)

    async def tick(self) -> int:
        """Process every deadline due at ``server.now()``; returns the number of steps."""
        steps = 0
        for runtime in self.tables.values():
            for _ in range(50):
                # The next round's fair prices are worked out before taking the table's lock:
                # orders and cancels go on meanwhile (they are refused: no window is open).
                live, now = runtime.game, self.server.now()
                fair = None
                if (
                    live is not None
                    and live.phase == Phase.PAUSE
                    and live.pause_ends_at is not None
                    and now >= live.pause_ends_at
                ):
                    if self.fair_function is not None:  # tests: at once, deterministic
                        prices = await self._fair(live.game.state())
                    else:
                        ready = self._prepared_fair(runtime, live)
                        if ready is None:
                            break  # not yet: the window opens at a later tick
                        prices = ready
                    fair = (live, live.market.round, prices)
                async with runtime.lock:
                    now = self.server.now()
                    live = runtime.game
                    if live is None:
                        await self._start_game(runtime)
                    elif live.phase == Phase.BETTING:
                        if live.closes_at is None or now < live.closes_at:
                            break
                        await self._close(runtime, live)
                    else:
                        if live.pause_ends_at is None or now < live.pause_ends_at:
                            break
                        if live.phase == Phase.OVER:
                            await self._start_game(runtime)
                        else:
                            ready = None
                            if (
                                fair is not None
                                and fair[0] is live
                                and fair[1] == live.market.round
                            ):
                                ready = fair[2]
                            await self._open(runtime, live, ready)
                    steps += 1
        return steps

    def runtime(self, table_id: str) -> Runtime:
        runtime = self.tables.get(table_id)
        if runtime is None:
            raise not_found(f"exchange table {table_id!r}")
        return runtime

    # -------------------------------------------------------------- the loop's steps
    async def _fair(self, state: ExchangeState) -> dict[str, str | None]:
        """The fair prices for a round's open on what ``state`` shows, as exact fraction texts."""
        if not state.started and self._start_fair is not None:
            return self._start_fair  # every game starts from the same (empty) state
        if self.fair_function is not None:
            prices = dict(self.fair_function(state))
            out = {name: _fraction_text(prices.get(name)) for name in SELECTIONS}
        elif not state.started:
            # The same figures for every game and every server in this process: once, in a
            # thread at start-up (about 0.4 s).
            if not _START_FAIR:
                _START_FAIR.append(await asyncio.to_thread(fair_price_texts, _EMPTY_STATE))
            out = _START_FAIR[0]
        else:
            # The odds take from milliseconds to seconds of pure Python: in the analysis
            # worker's process (a thread would hold the GIL and stall every request), cached
            # there by the state, so both tables asking the same state cost one computation.
            text = json.dumps(state.to_json(), sort_keys=True)
            out = await analysis_worker(self.server.services).cached(fair_price_texts, text)
        if not state.started:
            self._start_fair = out
        return out

    def _prepared_fair(self, runtime: Runtime, live: LiveGame) -> dict[str, str | None] | None:
        """The next round's fair prices if they are ready, else None (they are being worked
        out in the background: the window opens at a later tick). The clock's tick never
        waits for the odds, so a test that moves time for another game is not held up."""
        key = (live.row_id, live.market.round)
        task = runtime.fair_task
        if task is None or runtime.fair_key != key:
            runtime.fair_key = key
            task = runtime.fair_task = asyncio.ensure_future(self._fair(live.game.state()))
        if not task.done():
            return None
        runtime.fair_task = None
        runtime.fair_key = None
        if task.cancelled():
            return None
        error = task.exception()
        if error is not None:
            log.warning("fair prices failed at %s: %s", runtime.spec.id, error)
            return None  # asked again at the next tick
        return task.result()

    async def _start_game(self, runtime: Runtime) -> None:
        config = self.server.config
        spec = runtime.spec
        now = self.server.now()
        seed = config.server_seeds()
        script = config.card_script
        scripted = script.take(spec.id) if script is not None else None
        number = runtime.last_number + 1
        async with self.server.read() as session:
            maker_balance = await ledger.balance(session, maker_account(spec.id))
        row = ExchangeGameRow(
            table_id=spec.id,
            number=number,
            state=OPEN,
            server_seed=seed,
            commitment=commitment(seed),
            client_seed=spec.id,
            scripted=None if scripted is None else [str(card) for card in scripted],
            maker_float=max(0, min(maker_balance, self.maker_cap)),
            record=None,
            created_at=now,
        )
        fair = await self._fair(ExchangeState(((),) * 4, (), False))
        try:
            async with self.server.write() as session:
                session.add(row)
                await session.flush()
                await ledger.open_account(session, exchange_hold_account(row.id), HOLD, now, False)
                live = LiveGame(row, spec, self.logic_table)
                live.capture()
                live.apply("open", {"round": 1, "fair": fair})
                await self._write(session, live, "open", {"round": 1, "fair": fair}, now)
        except Exception:
            log.exception("could not start a game at %s", spec.id)
            return
        runtime.last_number = number
        live.closes_at = now + spec.schedule.length(1)
        runtime.game = live
        self._publish(
            runtime,
            [
                {
                    "type": "game-start",
                    "commitment": live.commitment,
                    "client_seed": live.client_seed,
                },
                self._window_start(live),
            ],
        )

    async def _open(
        self, runtime: Runtime, live: LiveGame, fair: dict[str, str | None] | None = None
    ) -> None:
        if fair is None:
            fair = await self._fair(live.game.state())
        round_no = live.game.open_round
        data = {"round": round_no, "fair": fair}
        now = self.server.now()
        live.capture()
        try:
            live.apply("open", data)
            async with self.server.write() as session:
                await self._write(session, live, "open", data, now)
        except Exception:
            log.exception("could not open round %s at %s", round_no, runtime.spec.id)
            await self._reload(runtime)
            return
        live.closes_at = now + runtime.spec.schedule.length(round_no)
        live.pause_ends_at = None
        self._publish(runtime, [self._window_start(live)])
        self._send_private(runtime, live, {})

    async def _close(self, runtime: Runtime, live: LiveGame) -> None:
        now = self.server.now()
        round_no = live.market.round
        data = {"round": round_no}
        live.capture()
        try:
            events: list[Event] = live.apply("close", data)
            async with self.server.write() as session:
                balances, touched = await self._write(session, live, "close", data, now)
                if live.table.over:
                    await self._finish(session, live, now)
        except Exception:
            log.exception("could not close round %s at %s", round_no, runtime.spec.id)
            await self._reload(runtime)
            return
        live.closes_at = None
        live.pause_ends_at = now + runtime.spec.schedule.pause
        messages: list[dict[str, Any]] = [{"type": "window-end", "round": round_no}]
        for event in events:
            if event.cards:
                messages.append(
                    {
                        "type": "reveal",
                        "after_round": event.after_round,
                        "cards": [{"hand": h, "card": str(c)} for h, c in event.cards],
                        "hands": live.hands(),
                        "dealer": live.dealer(),
                    }
                )
            if event.settled:
                messages.append(
                    {
                        "type": "settlement",
                        "after_round": event.after_round,
                        "settled": {s.selection: s.outcome.value for s in event.settled},
                        "early": not live.table.over,
                        "selections": live.selections([s.selection for s in event.settled]),
                    }
                )
        if live.table.over:
            messages.append(
                {"type": "game-end", "results": live.results(), "fairness": live.fairness()}
            )
        self._publish(runtime, messages)
        self._send_private(runtime, live, balances, touched)

    async def _finish(self, session: AsyncSession, live: LiveGame, now: float) -> None:
        """The game is settled: its row, and every order's final answer."""
        await session.execute(
            update(ExchangeGameRow)
            .where(ExchangeGameRow.id == live.row_id)
            .values(state=SETTLED, settled_at=now, record=live.record())
        )
        for market_id, (db_id, _) in live.orders.items():
            await session.execute(
                update(ExchangeOrderRow)
                .where(ExchangeOrderRow.id == db_id)
                .values(response=live.order_json(market_id))
            )

    async def _write(
        self,
        session: AsyncSession,
        live: LiveGame,
        kind: str,
        data: Mapping[str, Any],
        now: float,
    ) -> tuple[dict[str, int], set[str]]:
        """One event: its row, its transfers and the positions it changed, in ``session``'s
        transaction. Returns the new balances of the accounts the transfers touched."""
        movements, touched = live.movements(kind)
        balances = await self._write_events(
            session, live, [(kind, dict(data))], movements, touched, now
        )
        return balances, touched

    async def _write_events(
        self,
        session: AsyncSession,
        live: LiveGame,
        events: list[tuple[str, dict[str, Any]]],
        movements: list[Movement],
        touched: set[str],
        now: float,
    ) -> dict[str, int]:
        """Events in order (their rows), their transfers as one sequence, and the positions they
        left, in ``session``'s transaction; the new balances of the accounts moved."""
        session.add_all(
            [
                ExchangeEventRow(
                    game_id=live.row_id, seq=live.events + index, kind=kind, data=data, at=now
                )
                for index, (kind, data) in enumerate(events)
            ]
        )
        balances: dict[str, int] = {}
        if movements:
            balances = await ledger.post(await session.connection(), movements, now)
        for account in sorted(touched):
            held = live.ledger.held(account)
            position = live.market.exposure.customers.get(account)
            net = 0 if position is None else position.settled_net
            done = await session.execute(
                update(ExchangePositionRow)
                .where(
                    ExchangePositionRow.game_id == live.row_id,
                    ExchangePositionRow.account == account,
                )
                .values(held=held, settled_net=net)
            )
            if done.rowcount == 0:  # type: ignore[attr-defined]
                session.add(
                    ExchangePositionRow(
                        game_id=live.row_id, account=account, held=held, settled_net=net
                    )
                )
        await session.flush()
        live.events += len(events)
        return balances

    # -------------------------------------------------------------- loading
    async def _replay(self, game_id: int) -> LiveGame:
        """Rebuild a game from its rows (any fault raises)."""
        async with self.server.read() as session:
            row = await session.get(ExchangeGameRow, game_id)
            if row is None:
                raise MarketStateError(f"there is no exchange game {game_id}")
            events = (
                await session.scalars(
                    select(ExchangeEventRow)
                    .where(ExchangeEventRow.game_id == game_id)
                    .order_by(ExchangeEventRow.seq)
                )
            ).all()
            positions = (
                await session.scalars(
                    select(ExchangePositionRow).where(ExchangePositionRow.game_id == game_id)
                )
            ).all()
            orders = (
                await session.execute(
                    select(
                        ExchangeOrderRow.market_order,
                        ExchangeOrderRow.id,
                        ExchangeOrderRow.created_at,
                    ).where(
                        ExchangeOrderRow.game_id == game_id,
                        ExchangeOrderRow.market_order.is_not(None),
                    )
                )
            ).all()
        spec = self.runtime(row.table_id).spec
        live = LiveGame(row, spec, self.logic_table)
        for expected, event in enumerate(events):
            if event.seq != expected or not isinstance(event.data, dict):
                raise MarketStateError(f"event {expected} of game {game_id} is missing")
            live.apply(event.kind, event.data)
        live.events = len(events)
        if not events:
            raise MarketStateError(f"game {game_id} has no events")
        for market_id, db_id, placed_at in orders:
            live.orders[int(market_id or 0)] = (db_id, placed_at)
        for position in positions:
            if live.ledger.held(position.account) != position.held:
                raise MarketStateError(
                    f"the replayed hold of {position.account} is {live.ledger.held(position.account)},"
                    f" {position.held} was stored"
                )
        if live.table.over:
            raise MarketStateError(f"game {game_id} is over but was not marked settled")
        return live

    def _resume_times(self, runtime: Runtime, live: LiveGame) -> None:
        now = self.server.now()
        schedule = runtime.spec.schedule
        if live.phase == Phase.BETTING:
            live.closes_at = now + schedule.length(live.market.round)  # a fresh full window
            live.pause_ends_at = None
        else:
            live.closes_at = None
            live.pause_ends_at = now + schedule.pause

    async def _recover(self, game_id: int) -> None:
        try:
            live = await self._replay(game_id)
        except Exception as error:  # unreadable: voided, whatever the fault
            reason = f"the game's stored state could not be replayed: {error}"[:500]
            log.warning("voiding exchange game %s: %s", game_id, reason)
            await self.void_stored(game_id, reason)
            self.recovered[game_id] = f"voided: {reason}"
            return
        runtime = self.tables[live.spec.id]
        self._resume_times(runtime, live)
        runtime.game = live
        self.recovered[game_id] = "resumed"

    async def _reload(self, runtime: Runtime) -> None:
        """The mirror moved but its write failed: rebuild the game from the database."""
        live = runtime.game
        if live is None:
            return
        closes_at, pause_ends_at = live.closes_at, live.pause_ends_at
        try:
            fresh = await self._replay(live.row_id)
        except Exception as error:
            reason = f"the game could not be reloaded: {error}"[:500]
            await self.void_stored(live.row_id, reason)
            runtime.game = None
            self._publish(runtime, [{"type": "void", "reason": reason}])
            return
        # The same deadlines as before the failure (nothing was written, nothing changes).
        fresh.closes_at, fresh.pause_ends_at = closes_at, pause_ends_at
        if fresh.phase == Phase.BETTING and closes_at is None:
            self._resume_times(runtime, fresh)
        if fresh.phase != Phase.BETTING and pause_ends_at is None:
            self._resume_times(runtime, fresh)
        runtime.game = fresh

    async def void_stored(self, game_id: int, reason: str) -> None:
        """Void a game from its stored positions alone: each account gets back what the game
        holds for it, less the commission on its net of the selections already settled."""
        now = self.server.now()
        rate = MARKET_SETTINGS.commission_rate
        async with self.server.write() as session:
            row = await session.get(ExchangeGameRow, game_id)
            if row is None or row.state != OPEN:
                return
            hold = exchange_hold_account(game_id)
            positions = (
                await session.scalars(
                    select(ExchangePositionRow).where(ExchangePositionRow.game_id == game_id)
                )
            ).all()
            movements: list[Movement] = []
            what = _REASON.format(table=row.table_id, number=row.number, what="void")[:64]
            for position in positions:
                owed = min(commission(position.settled_net, rate), position.held)
                if position.held - owed > 0:
                    movements.append(Movement(hold, position.account, position.held - owed, what))
                if owed > 0:
                    movements.append(Movement(hold, HOUSE_ACCOUNT, owed, what))
                position.held = 0
            if movements:
                await ledger.post(await session.connection(), movements, now)
            row.state = VOID
            row.void_reason = reason
            row.settled_at = now
            orders = (
                await session.scalars(
                    select(ExchangeOrderRow).where(
                        ExchangeOrderRow.game_id == game_id,
                        ExchangeOrderRow.market_order.is_not(None),
                    )
                )
            ).all()
            for order in orders:
                answer = dict(order.response)
                left = int(answer.get("remaining", 0))
                answer["voided"] = int(answer.get("voided", 0)) + left
                answer["remaining"] = 0
                answer["status"] = "void"
                order.response = answer
            await self.server.record_operator_action(
                session, None, "void exchange game", f"exchange-game:{game_id}", {"reason": reason}
            )

    # -------------------------------------------------------------- customers
    async def place(self, user: User, body: OrderBody) -> tuple[int, dict[str, Any]]:
        """Place an order: (201, the order), or (200, it again) for a retry of its reference."""
        runtime = self.runtime(body.table)
        answer: tuple[int, dict[str, Any]] = await self._queue(
            runtime, _Request("order", user.account_id, body=body)
        )
        return answer

    async def cancel(self, user: User, order_id: int, size: int | None) -> dict[str, Any]:
        """Cancel all (``None``) or ``size`` of one of the caller's orders' unmatched remainder."""
        account = user.account_id
        async with self.server.read() as session:
            row = await session.get(ExchangeOrderRow, order_id)
        if row is None or row.account != account or row.market_order is None:
            raise not_found(f"order {order_id} of yours")
        runtime = self.runtime(row.table_id)
        request = _Request("cancel", account, order=row, size=size)
        answer: tuple[int, dict[str, Any]] = await self._queue(runtime, request)
        return answer[1]

    async def _queue(self, runtime: Runtime, request: _Request) -> Any:
        """Make the request with whatever else waits for the table: the first to get the lock
        takes every request queued by then and writes them in one transaction (one commit
        for a burst instead of one each; see :meth:`_make_batch`)."""
        request.done = asyncio.get_running_loop().create_future()
        runtime.pending.append(request)
        async with runtime.lock:
            if runtime.pending:
                batch, runtime.pending = runtime.pending, []
                await self._make_batch(runtime, batch)
        return await request.done

    async def _make_batch(self, runtime: Runtime, batch: list[_Request]) -> None:
        try:
            await self._try_batch(runtime, batch)
        except Exception as error:
            # The mirror had moved but the write failed (a balance spent elsewhere meanwhile):
            # rebuild the game from the database and make each request on its own.
            await self._reload(runtime)
            if len(batch) == 1:
                request = batch[0]
                if not request.done.done():
                    if isinstance(error, InsufficientBalanceError):
                        error = unprocessable("the order needs more than the balance can hold")
                    request.done.set_exception(error)
                return
            for request in batch:
                if not request.done.done():
                    await self._make_batch(runtime, [request])

    async def _try_batch(self, runtime: Runtime, batch: list[_Request]) -> None:
        live = runtime.game
        accounts = sorted({request.account for request in batch})
        async with self.server.read() as session:
            balances = {
                account: int(balance)
                for account, balance in (
                    await session.execute(
                        select(LedgerAccount.id, LedgerAccount.balance).where(
                            LedgerAccount.id.in_(accounts)
                        )
                    )
                ).all()
            }
            refs = {request.body.ref for request in batch if request.body is not None}
            known = {
                (row.account, row.ref): row
                for row in (
                    await session.scalars(
                        select(ExchangeOrderRow).where(
                            ExchangeOrderRow.account.in_(accounts), ExchangeOrderRow.ref.in_(refs)
                        )
                    )
                ).all()
            }
        now = self.server.now()
        events: list[tuple[str, dict[str, Any]]] = []
        movements: list[Movement] = []
        touched: set[str] = set()
        refusals: list[ExchangeOrderRow] = []
        placed: list[tuple[_Request, Any, dict[str, Any]]] = []  # (request, result, body)
        cancelled: list[tuple[_Request, int]] = []
        seen: set[tuple[str, str]] = set()
        later: list[_Request] = []
        for request in batch:
            account = request.account
            if request.kind == "cancel":
                row = request.order
                assert row is not None
                if live is None or live.row_id != row.game_id:
                    request.done.set_exception(
                        conflict(f"order {row.id} is no longer open: nothing to cancel")
                    )
                    continue
                data = {"account": account, "order": row.market_order, "amount": request.size}
                live.capture()
                try:
                    live.apply("cancel", data)
                except TwentyOneError as error:
                    live.discard()
                    request.done.set_exception(conflict(str(error)))
                    continue
                moved, changed = live.movements("cancel")
                _track(balances, moved)
                events.append(("cancel", data))
                movements += moved
                touched |= changed
                cancelled.append((request, int(row.market_order or 0)))
                continue
            body = request.body
            assert body is not None
            key = (account, body.ref)
            if key in seen:  # the same reference twice in one burst: the second is a retry
                later.append(request)
                continue
            seen.add(key)
            asked = body.model_dump()
            found = known.get(key)
            if found is not None:
                if found.body != asked:
                    request.done.set_exception(
                        conflict(
                            f"reference reused: {body.ref!r} was already used for a different order"
                        )
                    )
                elif found.market_order is None:
                    request.done.set_exception(
                        ApiError(found.status_code, str(found.response.get("error")))
                    )
                elif live is not None and found.game_id == live.row_id:
                    request.done.set_result((200, live.order_json(found.market_order)))
                else:
                    request.done.set_result((200, dict(found.response)))
                continue
            refusal: tuple[int, str] | None = None
            if live is None:
                refusal = (409, "no game is running at this table")
            elif body.game != live.number:
                refusal = (
                    409,
                    f"game {body.game} is not the table's current game (game {live.number})",
                )
            else:
                available = balances.get(account, 0)
                data = {**asked, "account": account, "available": available}
                live.sync(account, available)
                live.capture()
                try:
                    result = live.apply("order", data)
                except TwentyOneError as error:
                    live.discard()
                    refusal = (_refusal_status(error), str(error))
                else:
                    moved, changed = live.movements("order")
                    _track(balances, moved)
                    events.append(("order", data))
                    movements += moved
                    touched |= changed
                    placed.append((request, result, asked))
            if refusal is not None:
                refusals.append(
                    ExchangeOrderRow(
                        game_id=None if live is None else live.row_id,
                        table_id=body.table,
                        account=account,
                        ref=body.ref,
                        body=asked,
                        market_order=None,
                        status_code=refusal[0],
                        response={"error": refusal[1]},
                        created_at=now,
                    )
                )
                request.refusal = refusal
        rows: list[ExchangeOrderRow] = []
        new_balances: dict[str, int] = {}
        if events or refusals:
            async with self.server.write() as session:
                if live is not None and events:
                    new_balances = await self._write_events(
                        session, live, events, movements, touched, now
                    )
                for request, result, asked in placed:
                    rows.append(
                        ExchangeOrderRow(
                            game_id=live.row_id if live is not None else None,
                            table_id=request.body.table if request.body is not None else "",
                            account=request.account,
                            ref=request.body.ref if request.body is not None else "",
                            body=asked,
                            market_order=result.order.order_id,
                            status_code=201,
                            response={},
                            created_at=now,
                        )
                    )
                session.add_all(rows + refusals)
                await session.flush()
                if live is not None:
                    for row, (_, result, _) in zip(rows, placed, strict=True):
                        live.orders[result.order.order_id] = (row.id, now)
                        row.response = live.order_json(result.order.order_id)
        # Committed: answer everyone, then tell the watchers.
        for request in batch:
            if request.refusal is not None and not request.done.done():
                request.done.set_exception(ApiError(*request.refusal))
        for row, (request, _, _) in zip(rows, placed, strict=True):
            request.done.set_result((201, dict(row.response)))
        if live is not None:
            for request, market_id in cancelled:
                request.done.set_result((200, live.order_json(market_id)))
            if placed or cancelled:
                selections = sorted(
                    {result.order.selection for _, result, _ in placed}
                    | {live.market.orders.view(m).selection for _, m in cancelled}
                )
                fills = [fill for _, result, _ in placed for fill in result.fills]
                self._after_trade(runtime, live, selections, fills, new_balances, touched)
        if later:  # still under the table's lock: the retries meet their first answers now
            await self._make_batch(runtime, later)

    async def order(self, user: User, order_id: int) -> dict[str, Any]:
        async with self.server.read() as session:
            row = await session.get(ExchangeOrderRow, order_id)
        if row is None or row.account != user.account_id or row.market_order is None:
            raise not_found(f"order {order_id} of yours")
        live = self.tables[row.table_id].game if row.table_id in self.tables else None
        if live is not None and live.row_id == row.game_id:
            return live.order_json(row.market_order)
        return dict(row.response)

    async def position(self, user: User, table_id: str) -> dict[str, Any]:
        runtime = self.runtime(table_id)
        async with self.server.read() as session:
            balance = await ledger.balance(session, user.account_id)
        live = runtime.game
        if live is None:
            raise conflict("no game is running at this table")
        return live.position(user.account_id, balance)

    # -------------------------------------------------------------- views
    def public(self, table_id: str) -> dict[str, Any]:
        runtime = self.runtime(table_id)
        spec = runtime.spec
        live = runtime.game
        base: dict[str, Any] = {
            "id": spec.id,
            "name": spec.name,
            "turbo": spec.turbo,
            "seq": runtime.seq,
            "now": self.server.now(),
            "schedule": spec.schedule.to_json(),
            "min_stake": MARKET_SETTINGS.min_stake,
            "commission_percent": str(MARKET_SETTINGS.commission_rate * 100),
            "maker_label": MARKET_MAKER_LABEL,
        }
        if live is None:
            base.update(game=None, state=None, phase="idle", round=None, selections=[])
            return base
        round_no = live.market.round
        base.update(
            game=live.number,
            state="settled" if live.table.over else OPEN,
            phase=live.phase,
            round=round_no,
            window_closes_at=live.closes_at if live.phase == Phase.BETTING else None,
            window_seconds=spec.schedule.length(round_no) if round_no else None,
            pause_ends_at=live.pause_ends_at,
            commitment=live.commitment,
            client_seed=live.client_seed,
            hands=live.hands(),
            dealer=live.dealer(),
            selections=live.selections(),
            fairness=live.fairness(),
            void_reason=None,
        )
        return base

    def _window_start(self, live: LiveGame) -> dict[str, Any]:
        round_no = live.market.round
        return {
            "type": "window-start",
            "round": round_no,
            "window_closes_at": live.closes_at,
            "window_seconds": live.spec.schedule.length(round_no),
            "now": self.server.now(),
            "selections": live.selections(),
        }

    async def game_view(self, table_id: str, number: int) -> dict[str, Any]:
        runtime = self.runtime(table_id)
        live = runtime.game
        if live is not None and live.number == number:
            return {
                "table": table_id,
                "game": number,
                "state": "settled" if live.table.over else OPEN,
                "phase": live.phase,
                "commitment": live.commitment,
                "client_seed": live.client_seed,
                "started_at": live.started_at,
                "settled_at": None,
                "void_reason": None,
                "hands": live.hands(),
                "dealer": live.dealer(),
                "cards": live.turned(),
                "selections": [
                    {"name": s["name"], "result": s["result"], "settled_round": s["settled_round"]}
                    for s in live.selections()
                ],
                "fairness": live.fairness(),
            }
        async with self.server.read() as session:
            row = await session.scalar(
                select(ExchangeGameRow).where(
                    ExchangeGameRow.table_id == table_id, ExchangeGameRow.number == number
                )
            )
        if row is None or row.state == OPEN:
            raise not_found(f"game {number} at {table_id}")
        return _stored_game(row)

    async def games(self, table_id: str, limit: int, before: int | None) -> dict[str, Any]:
        self.runtime(table_id)
        async with self.server.read() as session:
            query = select(ExchangeGameRow).where(ExchangeGameRow.table_id == table_id)
            if before is not None:
                query = query.where(ExchangeGameRow.number < before)
            rows = (
                await session.scalars(query.order_by(ExchangeGameRow.number.desc()).limit(limit))
            ).all()
        games = []
        for row in rows:
            over = row.state != OPEN
            record = row.record or {}
            games.append(
                {
                    "game": row.number,
                    "state": row.state,
                    "started_at": row.created_at,
                    "settled_at": row.settled_at,
                    "results": record.get("results", {}),
                    "commitment": row.commitment,
                    "server_seed": row.server_seed if over else None,
                    "scripted": row.scripted is not None,
                    "void_reason": row.void_reason,
                }
            )
        return {
            "games": games,
            "next": games[-1]["game"] if len(games) == limit else None,
        }

    # -------------------------------------------------------------- fan-out
    def _publish(self, runtime: Runtime, messages: list[dict[str, Any]]) -> None:
        if runtime.book_changes:  # the books as they were come first: messages stay in order
            self._flush_books(runtime)
        self._send_public(runtime, messages)

    def flush_books(self) -> None:
        """Send every table's gathered book changes now (tests: no waiting for the timer)."""
        for runtime in self.tables.values():
            self._flush_books(runtime)

    def _flush_books(self, runtime: Runtime) -> None:
        """Send one ``book`` message for every selection changed since the last one."""
        if runtime.book_timer is not None:
            runtime.book_timer.cancel()
            runtime.book_timer = None
        names, runtime.book_changes = runtime.book_changes, set()
        live = runtime.game
        if live is None or not names:
            return
        ordered = [name for name in live.market.names if name in names]
        self._send_public(
            runtime,
            [{"type": "book", "round": live.market.round, "selections": live.selections(ordered)}],
        )

    def _send_public(self, runtime: Runtime, messages: list[dict[str, Any]]) -> None:
        live = runtime.game
        for message in messages:
            runtime.seq += 1
            message["seq"] = runtime.seq
            message["table"] = runtime.spec.id
            message["game"] = None if live is None else live.number
            message["at"] = self.server.now()
            frame = _dumps(message)
            for watcher in list(runtime.watchers):
                watcher.send(frame)

    def _after_trade(
        self,
        runtime: Runtime,
        live: LiveGame,
        selections: list[int],
        fills: Any,
        balances: dict[str, int],
        touched: set[str],
    ) -> None:
        # Book changes are conflated: one ``book`` message for all the changes of the next
        # BOOK_INTERVAL (or sooner, before any other public message), as exchanges' streams
        # conflate theirs; a trade's owner learns of it at once by its answer and ``fill``.
        runtime.book_changes.update(live.market.names[index] for index in selections)
        if runtime.book_timer is None:
            runtime.book_timer = asyncio.get_running_loop().call_later(
                self.book_interval, self._flush_books, runtime
            )
        watched = {account for account in runtime.watchers.values() if account is not None}
        for fill in fills:
            for account, order_id in ((fill.backer, fill.back_order), (fill.layer, fill.lay_order)):
                if account in watched:
                    self._send_to(
                        runtime,
                        account,
                        {
                            "type": "fill",
                            "seq": runtime.seq,
                            "order": live.order_json(order_id),
                            "fill": live.fill_json(fill, account),
                        },
                    )
        self._send_private(runtime, live, balances, touched)

    def _send_private(
        self,
        runtime: Runtime,
        live: LiveGame,
        balances: dict[str, int],
        touched: set[str] | None = None,
    ) -> None:
        accounts = set(balances) | (touched or set())
        for watcher, account in list(runtime.watchers.items()):
            if account is None or account not in accounts or account not in balances:
                continue
            watcher.send(
                _dumps(
                    {
                        "type": "private",
                        "seq": runtime.seq,
                        "balance": balances[account],
                        "hold": live.ledger.held(account),
                        "position": live.position(account, balances[account]),
                    }
                )
            )

    def _send_to(self, runtime: Runtime, account: str, message: dict[str, Any]) -> None:
        frame = _dumps(message)
        for watcher, owner in list(runtime.watchers.items()):
            if owner == account:
                watcher.send(frame)


def _stored_game(row: ExchangeGameRow) -> dict[str, Any]:
    record = row.record or {}
    over = row.state != OPEN
    cards = record.get("cards", [])
    fairness = None
    if over:
        fairness = {
            "server_seed": row.server_seed,
            "commitment": row.commitment,
            "client_seed": row.client_seed,
            "nonce": 0,
            "decks": None,
            "position": 0,
            "cards": [item["card"] for item in cards],
            "scripted": row.scripted is not None,
        }
    return {
        "table": row.table_id,
        "game": row.number,
        "state": row.state,
        "phase": Phase.OVER,
        "commitment": row.commitment,
        "client_seed": row.client_seed,
        "started_at": row.created_at,
        "settled_at": row.settled_at,
        "void_reason": row.void_reason,
        "hands": record.get("hands", []),
        "dealer": record.get("dealer"),
        "cards": cards,
        "selections": record.get(
            "selections",
            [
                {
                    "name": name,
                    "result": "void" if row.state == VOID else None,
                    "settled_round": None,
                }
                for name in SELECTIONS
            ],
        ),
        "fairness": fairness,
    }


# ------------------------------------------------------------------------------ routes
def install(app: FastAPI, server: Server) -> None:
    """Adds the Exchange routes and the ``exchange`` service (docs/exchange-live.md)."""
    service = ExchangeTables(server)
    server.add_service("exchange", service)

    @app.get("/api/exchange/tables", tags=["exchange"])
    async def exchange_tables() -> Any:
        """Every exchange table: `[{"id", "name", "turbo", "game", "round", "phase"}]`."""
        out = []
        for table_id, runtime in service.tables.items():
            live = runtime.game
            out.append(
                {
                    "id": table_id,
                    "name": runtime.spec.name,
                    "turbo": runtime.spec.turbo,
                    "game": None if live is None else live.number,
                    "round": None if live is None else live.market.round,
                    "phase": "idle" if live is None else live.phase,
                }
            )
        return json_response(out)

    @app.get("/api/exchange/tables/{table_id}", tags=["exchange"])
    async def exchange_table(table_id: TableId) -> Any:
        """The table's public state: cards turned so far, every selection's book and status."""
        return json_response(service.public(table_id))

    @app.get("/api/exchange/tables/{table_id}/games", tags=["exchange"])
    async def exchange_games(
        table_id: TableId,
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
        before: Annotated[int | None, Query(ge=1, le=2**31 - 1)] = None,
    ) -> Any:
        """The table's games, newest first, with results and (once over) the server seed."""
        return json_response(await service.games(table_id, limit, before))

    @app.get("/api/exchange/tables/{table_id}/games/{number}", tags=["exchange"])
    async def exchange_game(
        table_id: TableId, number: Annotated[int, Path(ge=1, le=2**31 - 1)]
    ) -> Any:
        """One game: its cards as turned, each selection's result, and once over its record."""
        return json_response(await service.game_view(table_id, number))

    @app.post("/api/exchange/orders", tags=["exchange"], status_code=201)
    async def exchange_place(body: OrderBody, user: Player) -> Any:
        """Back or lay a selection (201; a retry with the same `ref` and body: 200)."""
        status, answer = await service.place(user, body)
        return json_response(answer, status)

    @app.delete("/api/exchange/orders/{order_id}", tags=["exchange"])
    async def exchange_cancel(
        order_id: Annotated[int, Path(ge=1, le=2**31 - 1)],
        user: Player,
        size: Annotated[int | None, Query(ge=1, le=10**12)] = None,
    ) -> Any:
        """Cancel all (or `size`) of an order's unmatched remainder."""
        return json_response(await service.cancel(user, order_id, size))

    @app.get("/api/exchange/orders/{order_id}", tags=["exchange"])
    async def exchange_order(
        order_id: Annotated[int, Path(ge=1, le=2**31 - 1)], user: Player
    ) -> Any:
        """One of the caller's orders."""
        return json_response(await service.order(user, order_id))

    @app.get("/api/exchange/orders", tags=["exchange"])
    async def exchange_orders(
        user: Player, table: Annotated[str, Query(pattern="^[a-z0-9_-]{1,32}$")]
    ) -> Any:
        """The caller's open orders, matched bets and profit or loss per result on the table's
        current game."""
        return json_response(await service.position(user, table))

    @app.websocket("/api/exchange/tables/{table_id}/stream")
    async def exchange_stream(socket: WebSocket, table_id: str) -> None:
        """The public state at once, then every numbered message; private ones to their owner."""
        runtime = service.tables.get(table_id)
        if runtime is None:
            await socket.close(code=4404)
            return
        user_id = await _socket_user(server, socket)
        account = None
        if user_id is not None:
            async with server.read() as session:
                account = await session.scalar(select(User.account_id).where(User.id == user_id))
        await socket.accept()
        watcher = Watcher(socket, user_id)
        runtime.watchers[watcher] = account
        watcher.send(
            _dumps({"type": "state", "seq": runtime.seq, "table": service.public(table_id)})
        )
        writer = asyncio.create_task(watcher.write())
        try:
            live = runtime.game
            if account is not None and live is not None:
                async with server.read() as session:
                    balance = await ledger.balance(session, account)
                live = runtime.game
                if live is not None:
                    watcher.send(
                        _dumps(
                            {
                                "type": "private",
                                "seq": runtime.seq,
                                "balance": balance,
                                "hold": live.ledger.held(account)
                                if live.ledger.has_account(account)
                                else 0,
                                "position": live.position(account, balance),
                            }
                        )
                    )
            await answer_pings(socket, watcher)
        except (WebSocketDisconnect, RuntimeError, KeyError):
            pass
        finally:
            runtime.watchers.pop(watcher, None)
            watcher.drop()
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer
