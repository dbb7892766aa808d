"""The Exchange Blackjack table runner: games one after another, their market, on a clock.

:class:`ExchangeRunner` runs the game loop of an exchange table: each game opens its betting
rounds as *windows* of the schedule's length (:class:`~twentyone.exchange.schedule.RoundSchedule`)
on an injected :class:`~twentyone.clock.Clock`; when a window closes, the market's unmatched
remainders lapse, the next cards are turned, what is now certain is settled, and the cards are
shown for the schedule's pause before the next window opens. A server calls :meth:`tick` as
often as it likes; the terminal, which waits for its player, closes each window by hand
(:meth:`close_window`) and opens the next (:meth:`open_window`).

Money is the ledger's: every customer, the market maker and the bots are ledger accounts, and
the market holds each one's exposure there (:mod:`twentyone.market`). Orders go through
:meth:`place` and :meth:`cancel`, which give each order a client reference unique to its
customer for the runner's whole life.

Events to subscribers (:class:`~twentyone.tables.listeners.TableEvent`, ``round`` is the game
number): ``game-started``, ``window-opened`` (``{"round", "closes_at"}``), ``order``
(the :class:`~twentyone.market.market.PlaceResult`), ``cancel``, ``game`` (each
:class:`~twentyone.exchange.game.Event`: reveals, settlements, the end), ``window-closed``,
``game-settled`` (``{"commissions"}``).

>>> from twentyone.clock import ManualClock
>>> from twentyone.exchange.schedule import STANDARD
>>> from twentyone.randomness import SeededRandomSource
>>> from twentyone.shoe import InfiniteShoe
>>> clock = ManualClock()
>>> source = SeededRandomSource(3)
>>> runner = ExchangeRunner(
...     Ledger(), lambda game: InfiniteShoe(source), clock=clock, schedule=STANDARD,
...     fair_price_source=lambda state: {},  # no quotes: fast
... )
>>> _ = runner.start_game()
>>> runner.window_closes_at, runner.remaining()
(30.0, 30.0)
>>> while not runner.finished:
...     runner.tick(); clock.advance(1.0)
>>> runner.table.over, clock.now() >= 30 + 3
(True, True)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from twentyone.clock import Clock, ManualClock
from twentyone.exchange.game import Event
from twentyone.exchange.schedule import STANDARD, RoundSchedule
from twentyone.ledger import AccountKind, Ledger
from twentyone.market.errors import CancelRejectedError
from twentyone.randomness import RandomSource
from twentyone.shoe import InfiniteShoe, Shoe
from twentyone.tables.errors import TableStateError
from twentyone.tables.listeners import Listener, Listeners, TableEvent

if TYPE_CHECKING:  # the market table loads the odds: imported when a game starts
    from twentyone.exchange.logic_table import LogicTable
    from twentyone.market.market import MarketSettings
    from twentyone.market.market_maker import MarketMaker, MarketMakerSettings
    from twentyone.market.orders import CancelResult, PlaceResult
    from twentyone.market.table import Bettor, ExchangeTable, FairPrices

__all__ = ["BOT_BANKROLL", "HOUSE_FLOAT", "ExchangeRunner", "WindowPhase", "WindowTimer"]

#: A practice table's market-maker float and each bot's bankroll (play money).
HOUSE_FLOAT = 1_000_000_00
BOT_BANKROLL = 10_000_00


class WindowPhase(enum.Enum):
    IDLE = "idle"  # no game, or the last one is finished
    BETTING = "betting"  # a betting window is open
    PAUSE = "pause"  # the window has closed; its cards are shown before the next opens


class WindowTimer:
    """Deadlines of the open betting window and of the pause after it, on an injected clock.

    >>> clock = ManualClock()
    >>> timer = WindowTimer(STANDARD, clock)
    >>> timer.open(1)
    >>> timer.remaining(), timer.expired()
    (30.0, False)
    >>> clock.advance(30.0)
    >>> timer.expired()
    True
    >>> timer.pause_after()
    >>> clock.advance(2.0); timer.pause_over()
    False
    >>> clock.advance(1.0); timer.pause_over()
    True
    """

    def __init__(self, schedule: RoundSchedule, clock: Clock) -> None:
        self.schedule = schedule
        self.clock = clock
        self.round: int | None = None
        self.closes_at: float | None = None
        self.pause_ends_at: float | None = None

    def open(self, round_number: int) -> None:
        self.round = round_number
        self.closes_at = self.clock.now() + self.schedule.length(round_number)
        self.pause_ends_at = None

    def remaining(self) -> float:
        """Seconds left in the open window (for the progress bar; indicative only)."""
        if self.closes_at is None:
            return 0.0
        return max(0.0, self.closes_at - self.clock.now())

    def progress(self) -> float:
        """Share of the open window gone, 0.0 to 1.0."""
        if self.round is None or self.closes_at is None:
            return 1.0
        return 1.0 - self.remaining() / self.schedule.length(self.round)

    def expired(self) -> bool:
        return self.closes_at is not None and self.clock.now() >= self.closes_at

    def pause_after(self) -> None:
        """The window has closed and its cards are turned: start the pause."""
        self.closes_at = None
        self.pause_ends_at = self.clock.now() + self.schedule.pause

    def pause_over(self) -> bool:
        return self.pause_ends_at is not None and self.clock.now() >= self.pause_ends_at


class ExchangeRunner:
    """An exchange table's game loop; see the module documentation."""

    def __init__(
        self,
        ledger: Ledger,
        new_shoe: Callable[[int], Shoe],
        *,
        clock: Clock | None = None,
        schedule: RoundSchedule = STANDARD,
        market_maker: MarketMaker | None = None,
        bettors: Sequence[Bettor] = (),
        settings: MarketSettings | None = None,
        fair_price_source: FairPrices | None = None,
        logic_table: LogicTable | None = None,
        table_id: str = "exchange",
    ) -> None:
        self.ledger = ledger
        self.new_shoe = new_shoe
        self.clock: Clock = clock or ManualClock()
        self.timer = WindowTimer(schedule, self.clock)
        self.market_maker = market_maker
        self.bettors = tuple(bettors)
        self.settings = settings
        self.fair_price_source = fair_price_source
        self.logic_table = logic_table
        self.table_id = table_id
        self.listeners = Listeners()
        self.table: ExchangeTable | None = None
        self.games = 0
        self.phase = WindowPhase.IDLE
        self._references: dict[str, int] = {}

    @classmethod
    def practice(
        cls,
        source: RandomSource,
        customer: str,
        balance: int,
        maker: MarketMakerSettings | None = None,
        bots: bool = True,
        *,
        clock: Clock | None = None,
    ) -> ExchangeRunner:
        """A practice table on a fresh ledger: ``customer`` granted ``balance``, the house
        market maker with its float and (``bots``) three labelled bots, cards from an infinite
        deck drawn with ``source``."""
        from twentyone.market.bots import FavouriteBacker, LongshotLayer, RandomBettor
        from twentyone.market.market_maker import MARKET_MAKER_ACCOUNT, MarketMaker

        bettors: list[FavouriteBacker | LongshotLayer | RandomBettor] = []
        if bots:
            bettors = [
                FavouriteBacker("bot:favourite-backer", 5_00),
                LongshotLayer("bot:longshot-layer", 3_00),
                RandomBettor("bot:random", 4_00, source=source),
            ]
        runner = cls(
            Ledger(),
            lambda game: InfiniteShoe(source),
            clock=clock,
            market_maker=MarketMaker(maker),
            bettors=bettors,
        )
        runner.open_account(customer, balance)
        runner.open_account(MARKET_MAKER_ACCOUNT, HOUSE_FLOAT, AccountKind.HOUSE)
        for bot in bettors:
            runner.open_account(bot.account, BOT_BANKROLL)
        return runner

    # -- accounts ----------------------------------------------------------------------------
    def open_account(
        self, account: str, grant: int, kind: AccountKind = AccountKind.CUSTOMER
    ) -> None:
        """Open a ledger account for a bettor (or the market maker) with a play-money grant."""
        self.ledger.open_account(account, kind)
        if grant:
            self.ledger.deposit(f"grant/{account}", account, grant, "play-money grant")

    # -- reading -----------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self.listeners.subscribe(listener)

    @property
    def finished(self) -> bool:
        """The current game is settled and its last cards have been shown for the pause."""
        table = self.table
        return table is not None and table.over and self.phase is WindowPhase.IDLE

    @property
    def window_closes_at(self) -> float | None:
        return self.timer.closes_at if self.phase is WindowPhase.BETTING else None

    def remaining(self) -> float:
        return self.timer.remaining()

    def progress(self) -> float:
        return self.timer.progress()

    def current(self) -> ExchangeTable:
        if self.table is None:
            raise TableStateError("no game has started at this table")
        return self.table

    # -- the loop ----------------------------------------------------------------------------
    def start_game(self) -> ExchangeTable:
        """Start the next game and open its first betting window."""
        from twentyone.market.table import ExchangeTable

        if self.table is not None and not self.table.over:
            raise TableStateError("a game is in progress: finish it before starting the next")
        self.games += 1
        self.table = ExchangeTable(
            self.ledger,
            f"game {self.games}",
            self.new_shoe(self.games),
            self.market_maker,
            self.bettors,
            self.settings,
            self.fair_price_source,
            self.logic_table,
        )
        self._emit("game-started", {"market": self.table.market.market_id})
        self.open_window()
        return self.table

    def open_window(self) -> int:
        """Open the game's next betting round: the market maker quotes, then each bot acts."""
        table = self.current()
        if self.phase is WindowPhase.BETTING:
            raise TableStateError("a betting window is already open")
        round_no = table.open_round()
        for bettor in self.bettors:
            bettor.act(table)
        self.timer.open(round_no)
        self.phase = WindowPhase.BETTING
        self._emit("window-opened", {"round": round_no, "closes_at": self.timer.closes_at})
        return round_no

    def close_window(self) -> list[Event]:
        """Close the open window now: remainders lapse, cards turn, certain results settle."""
        table = self.current()
        if self.phase is not WindowPhase.BETTING:
            raise TableStateError("no betting window is open")
        round_no = table.market.round
        events = table.close_round()
        self.timer.pause_after()
        self.phase = WindowPhase.PAUSE
        self._emit("window-closed", {"round": round_no})
        for event in events:
            self._emit("game", event)
        if table.over:
            self._emit("game-settled", {"commissions": dict(table.market.commissions)})
        return events

    def tick(self) -> None:
        """Close the open window when its time is up; after the pause, open the next one."""
        if self.phase is WindowPhase.BETTING and self.timer.expired():
            self.close_window()
        if self.phase is WindowPhase.PAUSE and self.timer.pause_over():
            if self.current().over:
                self.phase = WindowPhase.IDLE
            else:
                self.open_window()

    def play_out(self) -> None:
        """Close every remaining window at once (a table shutting down, a player leaving)."""
        table = self.current()
        while not table.over:
            if self.phase is not WindowPhase.BETTING:
                self.open_window()
            self.close_window()
        self.phase = WindowPhase.IDLE

    # -- orders ------------------------------------------------------------------------------
    def place(
        self, customer: str, selection: str, side: str, price: str, stake: int
    ) -> PlaceResult:
        """An order in the open window, with the next client reference of ``customer``."""
        market = self.current().market
        number = self._references[customer] = self._references.get(customer, 0) + 1
        # A refused order keeps its reference too (the market logs it): never reuse one.
        reference = f"{customer}/{self.table_id}/{number}"
        result = market.place(customer, reference, selection, side, price, stake, market.round)
        self._emit("order", result)
        return result

    def cancel(self, customer: str, order_id: int, amount: int | None = None) -> CancelResult:
        """Cancel all (``None``) or ``amount`` of an order's unmatched remainder."""
        market = self.current().market
        owners = market.orders.customer  # order id -> customer (id 0 is unused)
        if type(order_id) is int and 0 < order_id < len(owners) and owners[order_id] != customer:
            # Said to the customer who asked: the market's own words name him in the third person.
            raise CancelRejectedError(f"order {order_id} is not yours")
        result = market.cancel(customer, order_id, amount)
        self._emit("cancel", result)
        return result

    def _emit(self, kind: str, data: object = None) -> None:
        self.listeners.emit(TableEvent(kind, self.games, data, self.clock.now()))
