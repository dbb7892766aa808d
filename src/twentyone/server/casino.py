"""Live Casino Blackjack tables: a runner per table on the server clock, its rounds and shoes in
the database, fan-out over WebSockets (docs/casino-live.md is the contract).

Every change of a table (a seat, a bet, a decision, a deadline that passed) is one step: the
runner (:class:`twentyone.tables.casino.CasinoTable`) makes it in memory under the table's
lock, then one database transaction writes the runner's new state, the round and shoe rows it
touched and its ledger transfers (stakes into the round's hold account ``casino:{id}``,
payouts out of it and from the house). If the transaction fails (a stake over the balance),
the runner is put back as it was: nothing is half-applied. After the commit the new public
state is encoded once and the same text goes to every socket watching the table; a player
whose money moved also gets a private frame with his balance.

At start-up every open table is loaded from its saved state and resumed (a betting window
reopens with a fresh full duration, its bets still held; a round in play waits for the current
box with a fresh decision time). A table whose state cannot be read or replayed, or whose
round's hold account does not carry the round's stakes, has its round voided: every stake goes
back to whoever paid it (read from the ledger's own transfers), and the void is recorded.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import FastAPI, Query, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from twentyone.cards import Card
from twentyone.errors import TwentyOneError
from twentyone.fairness import FairnessError, check_client_seed
from twentyone.ledger.errors import InsufficientBalanceError
from twentyone.protocol import GameStateError
from twentyone.server.context import (
    PAGE_MAX,
    SESSION_COOKIE,
    Cursor,
    Operator,
    Player,
    RoundId,
    Server,
    TableId,
    Time,
    json_response,
    token_hash,
)
from twentyone.server.errors import ApiError, conflict, not_found, unprocessable
from twentyone.server.ticking import TickLoop, answer_pings, close_watchers
from twentyone.storage import ledger
from twentyone.storage.ledger import Movement
from twentyone.storage.models import (
    HOLD,
    HOUSE_ACCOUNT,
    OPEN,
    SETTLED,
    TABLE_CLOSED,
    VOID,
    AuthToken,
    CasinoRoundBox,
    CasinoRoundRow,
    CasinoShoeRow,
    CasinoTableRow,
    LedgerAccount,
    OperatorAction,
    User,
    casino_hold_account,
)
from twentyone.tables.casino import (
    BETTING,
    BOXES,
    PLAYING,
    CasinoConflictError,
    CasinoError,
    CasinoRefusalError,
    CasinoShoe,
    CasinoTable,
    Change,
    NotYourBoxError,
    Seat,
    Settings,
    ShoeSource,
    table_rules,
)

log = logging.getLogger("twentyone.server.casino")

#: The table a fresh server opens.
DEFAULT_TABLE, DEFAULT_NAME = "casino-1", "Casino 1"
#: Cards a live shoe keeps behind its cut card (more than seven boxes use in any likely round).
CUT_CARD_RESERVE = 60
#: Frames a socket may have waiting before it is dropped as too slow (it reconnects and
#: gets the current state at once).
SOCKET_BACKLOG = 512
#: A bet that finds its table's lock free waits for the bets right behind it before it is
#: written: seven bots (or people) bet on the same frame, their requests a few milliseconds
#: apart, and together they are one commit and one frame instead of two (the first alone,
#: the others queued behind its commit). The wait ends when no new step has come for
#: ``GATHER_GAP`` seconds, and after ``GATHER_MAX`` at most (wall clock: this is about the
#: event loop's own timing, not the table's clock). Decisions come one at a time (one box
#: acts after another) and never wait.
GATHER_GAP = 0.002
GATHER_MAX = 0.008


# ------------------------------------------------------------------------------ bodies
class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatBody(_Body):
    box: StrictInt


class BetBody(_Body):
    box: StrictInt
    amount: StrictInt
    round: StrictInt


class ActionBody(_Body):
    box: StrictInt
    action: StrictStr = Field(max_length=64)
    step: StrictInt


Seconds = Annotated[StrictInt | StrictFloat, Field(ge=1, le=3600)]


class TableSettingsBody(_Body):
    name: StrictStr | None = Field(default=None, min_length=1, max_length=64)
    min_bet: StrictInt | None = Field(default=None, ge=1)
    max_bet: StrictInt | None = Field(default=None, ge=1)
    betting_seconds: Seconds | None = None
    decision_seconds: Seconds | None = None
    pause_seconds: Annotated[StrictInt | StrictFloat, Field(ge=0, le=600)] | None = None
    rules: dict[str, Any] | None = None
    client_seed: StrictStr | None = Field(default=None, max_length=64)


# ------------------------------------------------------------------------------ sockets
@dataclass(eq=False)
class Watcher:
    """One WebSocket watching a table, its frames sent in order.

    A frame is sent at once, inside :meth:`send` (the broadcast's own loop), whenever the
    socket has nothing waiting: the ASGI send is started and, as it almost always does, runs
    to its end without suspending (the server writes into the socket's buffer), so a change
    reaches 200 sockets in one pass, without waking 200 tasks. Only a send that has to wait
    (the client reads slowly, the server's flow control pauses it) is finished by the
    socket's writer task, and the frames after it queue behind it, in order.
    """

    socket: WebSocket
    user_id: int | None
    backlog: collections.deque[str] = field(default_factory=collections.deque)
    #: Set when the writer task has something to do (a suspended send, a backlog, a drop).
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    #: A send that suspended: its coroutine and what it waits on (the writer finishes it).
    suspended: tuple[Coroutine[Any, Any, None], Any] | None = None
    dropped: bool = False

    def send(self, frame: str) -> None:
        if self.dropped:
            return
        if self.suspended is not None or self.backlog:
            if len(self.backlog) >= SOCKET_BACKLOG:  # too slow: it will reconnect afresh
                self.drop()
            else:
                self.backlog.append(frame)
            return
        sending = self.socket.send_text(frame)
        try:
            waits_on = sending.send(None)
        except StopIteration:  # sent
            return
        except Exception:  # the socket is gone (its reader ends the stream)
            self.drop()
            return
        self.suspended = (sending, waits_on)
        self.wake.set()

    def drop(self) -> None:
        self.dropped = True
        self.wake.set()

    async def write(self) -> None:
        """Finish what :meth:`send` could not do at once, in order; close a dropped socket."""
        try:
            while not self.dropped:
                if self.suspended is not None:
                    sending, waits_on = self.suspended
                    await _finish(sending, waits_on)
                    self.suspended = None
                elif self.backlog:
                    await self.socket.send_text(self.backlog.popleft())
                else:
                    self.wake.clear()
                    await self.wake.wait()
        finally:
            if self.suspended is not None:
                self.suspended[0].close()
                self.suspended = None
        with contextlib.suppress(Exception):
            await self.socket.close(code=1013)


async def _finish(sending: Coroutine[Any, Any, None], waits_on: Any) -> None:
    """Run a coroutine that was started by hand (``send(None)``) and suspended on
    ``waits_on`` (an asyncio future, or None for a bare yield) to its end."""
    while True:
        if waits_on is None:
            await asyncio.sleep(0)
        else:
            await asyncio.wait([waits_on])  # its result or error goes to the coroutine
        try:
            waits_on = sending.send(None)
        except StopIteration:
            return


#: A step to make: given the transaction and the runner, the changes (the runner changed).
Maker = Callable[[AsyncSession, CasinoTable], list[Change] | Awaitable[list[Change]]]


@dataclass(eq=False)
class _Request:
    """A step waiting to be made, and where its changes (or its refusal) go."""

    make: Maker
    done: asyncio.Future[list[Change]]


@dataclass(eq=False)
class Runtime:
    """A table in this process: its runner, its lock, its watchers."""

    table: CasinoTable
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Watcher] = field(default_factory=set)
    #: Shoe number -> database id, for the shoes of this table met so far.
    shoe_ids: dict[int, int] = field(default_factory=dict)
    #: Steps waiting for the lock: the next to get it makes them all (see ``_step``).
    pending: list[_Request] = field(default_factory=list)


async def _gather(runtime: Runtime) -> None:
    """Hold the table's lock while more steps keep arriving (see ``GATHER_GAP``)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + GATHER_MAX
    seen = len(runtime.pending)
    while loop.time() < until:
        await asyncio.sleep(GATHER_GAP)
        if len(runtime.pending) == seen:
            return
        seen = len(runtime.pending)


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


# ------------------------------------------------------------------------------ the service
class CasinoTables:
    """Every live table of the server: the runners, their persistence, their fan-out, their
    clock (``tick``: every due deadline; production calls it every 0.2 s, tests on demand)."""

    def __init__(self, server: Server, run_loop: bool | None = None) -> None:
        self.server = server
        self.tables: dict[str, Runtime] = {}
        #: None: run the wall-clock loop unless the server's clock is a ManualClock.
        self.run_loop = run_loop
        self._clock = TickLoop("casino", self.tick)
        #: What start-up recovery did: table id -> "resumed" | "voided: reason".
        self.recovered: dict[str, str] = {}

    # -------------------------------------------------------------- life
    async def start(self) -> None:
        async with self.server.write() as session:
            rows = (
                await session.scalars(
                    select(CasinoTableRow)
                    .where(CasinoTableRow.status != TABLE_CLOSED)
                    .order_by(CasinoTableRow.id)
                )
            ).all()
            known = await session.scalar(select(func.count()).select_from(CasinoTableRow))
        if not known:
            await self.create_table(DEFAULT_TABLE, DEFAULT_NAME, None)
        for row in rows:
            await self._recover(row.id)
        self._clock.start(self.server.config.clock, self.run_loop)

    async def stop(self) -> None:
        await self._clock.stop()
        for runtime in self.tables.values():
            await close_watchers(runtime.watchers)

    async def tick(self) -> int:
        """Process every deadline due at ``server.now()``, table by table, one step each.
        Returns the number of steps taken."""
        steps = 0
        for table_id in list(self.tables):
            runtime = self.tables[table_id]
            for _ in range(1000):
                now = self.server.now()
                deadline = runtime.table.deadline_at()
                if deadline is None or now < deadline:
                    break
                changes = await self._step(runtime, _advancing(now))
                if not changes:
                    break
                steps += 1
        return steps

    # -------------------------------------------------------------- tables
    def _source(self, table_id: str) -> ShoeSource:
        config = self.server.config

        def source() -> tuple[str, Sequence[Card] | None]:
            script = config.card_script
            return config.server_seeds(), script.take(table_id) if script is not None else None

        return source

    def runtime(self, table_id: str) -> Runtime:
        runtime = self.tables.get(table_id)
        if runtime is None:
            raise not_found(f"casino table {table_id!r}")
        return runtime

    async def create_table(
        self, table_id: str, name: str, body: TableSettingsBody | None
    ) -> Runtime:
        """A new table (its first shoe shuffled and committed) in one transaction."""
        settings = _settings_of(body, name, self.server.config.client_seeds())
        now = self.server.now()
        table = CasinoTable.new(
            table_id,
            settings.name,
            self._source(table_id),
            rules=settings.rules,
            client_seed=settings.client_seed,
            betting_seconds=settings.betting_seconds,
            decision_seconds=settings.decision_seconds,
            pause_seconds=settings.pause_seconds,
        )
        runtime = Runtime(table)
        async with self.server.write() as session:
            if await session.get(CasinoTableRow, table_id) is not None:
                raise conflict(f"there is already a table {table_id!r}")
            session.add(
                CasinoTableRow(
                    id=table_id,
                    name=settings.name,
                    rules=(body.rules if body and body.rules else {}),
                    min_bet=settings.rules.min_bet,
                    max_bet=settings.rules.max_bet,
                    betting_seconds=settings.betting_seconds,
                    decision_seconds=settings.decision_seconds,
                    pause_seconds=settings.pause_seconds,
                    client_seed=settings.client_seed,
                    status=table.status,
                    state=table.to_json(),
                    step=table.step,
                    created_at=now,
                    updated_at=now,
                )
            )
            await session.flush()
            await self._add_shoe(session, runtime, table.shoe, now)
        self.tables[table_id] = runtime
        return runtime

    async def _add_shoe(
        self, session: AsyncSession, runtime: Runtime, shoe: CasinoShoe, now: float
    ) -> None:
        row = CasinoShoeRow(
            table_id=runtime.table.table_id,
            number=shoe.number,
            server_seed=shoe.server_seed,
            commitment=shoe.commitment,
            client_seed=shoe.client_seed,
            decks=shoe.decks,
            cut_card=shoe.penetration_cut,
            scripted=shoe.scripted,
            cards_dealt=shoe.position,
            created_at=now,
        )
        session.add(row)
        await session.flush()
        runtime.shoe_ids[shoe.number] = row.id

    async def _shoe_id(self, session: AsyncSession, runtime: Runtime, number: int) -> int:
        found = runtime.shoe_ids.get(number)
        if found is None:
            found = await session.scalar(
                select(CasinoShoeRow.id).where(
                    CasinoShoeRow.table_id == runtime.table.table_id,
                    CasinoShoeRow.number == number,
                )
            )
            if found is None:
                raise GameStateError(f"shoe {number} of {runtime.table.table_id} is not stored")
            runtime.shoe_ids[number] = found
        return found

    # -------------------------------------------------------------- one step
    async def _step(self, runtime: Runtime, make: Maker) -> list[Change]:
        """Make one step of the table and write it; on any failure the runner is put back.

        Steps of one table are made one at a time (its lock). The steps that arrive while one
        is being written (seven bots betting at once) wait on the lock together; the first of
        them to get it makes them all, in arrival order, in ONE transaction and sends ONE
        frame with all their events (``seq`` moves by their number; every event carries its
        own ``step``), so a burst costs one commit and one fan-out instead of one each. Each
        is answered only after that commit. If any of them fails, the whole transaction is
        rolled back and they are made again one by one, each in its own transaction, so that
        the failure is only its own.
        """
        request = _Request(make, asyncio.get_running_loop().create_future())
        runtime.pending.append(request)
        try:
            async with runtime.lock:
                if not request.done.done() and runtime.table.phase == BETTING:
                    await _gather(runtime)
                if not request.done.done():
                    batch, runtime.pending = runtime.pending, []
                    try:
                        await self._make_batch(runtime, batch)
                    finally:
                        # Cancelled half-way: the others' steps are made by their own owners.
                        left = [r for r in batch if r is not request and not r.done.done()]
                        runtime.pending[:0] = left
        except asyncio.CancelledError:
            if request in runtime.pending:  # never made: it never happened
                runtime.pending.remove(request)
            raise
        return request.done.result()

    async def _make_batch(self, runtime: Runtime, batch: list[_Request]) -> None:
        if len(batch) > 1:
            try:
                made, balances = await self._write_steps(runtime, [r.make for r in batch])
            except Exception:  # one of them failed (all rolled back): each alone, below
                pass
            else:
                for request, changes in zip(batch, made, strict=True):
                    request.done.set_result(changes)
                self._broadcast(runtime, [c for changes in made for c in changes], balances)
                return
        for request in batch:
            try:
                made, balances = await self._write_steps(runtime, [request.make])
            except Exception as error:
                request.done.set_exception(error)
                continue
            request.done.set_result(made[0])
            self._broadcast(runtime, made[0], balances)

    async def _write_steps(
        self, runtime: Runtime, makes: list[Maker]
    ) -> tuple[list[list[Change]], dict[int, int]]:
        """Make ``makes`` in order in one transaction: each one's changes, and the new balance
        of each player paid. On any failure the runner is put back as it was before the first
        (the caller sends the frame, only once this has committed)."""
        table_id = runtime.table.table_id
        snapshot, shoe_ids = runtime.table.to_json(), dict(runtime.shoe_ids)
        now = self.server.now()
        made: list[list[Change]] = []
        balances: dict[int, int] = {}
        try:
            async with self.server.write() as session:
                movements: list[Movement] = []
                accounts: dict[str, int] = {}
                for make in makes:
                    step = make(session, runtime.table)
                    changes = await step if not isinstance(step, list) else step
                    moved, paid = await self._write(session, runtime, changes, now)
                    movements += moved
                    accounts.update(paid)
                    made.append(changes)
                if movements:  # in their order: a balance is guarded at every point of it
                    connection = await session.connection()
                    posted = await ledger.post(connection, movements, now)
                    balances = {accounts[a]: b for a, b in posted.items() if a in accounts}
                table = runtime.table
                await session.execute(
                    update(CasinoTableRow)
                    .where(CasinoTableRow.id == table_id)
                    .values(
                        state=table.to_json(), step=table.step, status=table.status, updated_at=now
                    )
                )
        except BaseException as error:
            runtime.table = CasinoTable.from_json(snapshot, self._source(table_id))
            runtime.shoe_ids = shoe_ids
            if isinstance(error, CasinoError):
                raise _api_error(error) from None
            if isinstance(error, InsufficientBalanceError):
                raise unprocessable("that stake is more than your balance") from None
            raise
        return made, balances

    async def _write(
        self, session: AsyncSession, runtime: Runtime, changes: list[Change], now: float
    ) -> tuple[list[Movement], dict[str, int]]:
        """Write the steps' rows; return their money (the transfers, and the user of each
        player account in them) for :meth:`_write_steps` to post with the rest of its
        transaction's in one go, as it writes the runner's own state once."""
        movements: list[Movement] = []
        accounts: dict[str, int] = {}
        for change in changes:
            round_id = change.round_id
            for stake in change.stakes:
                assert round_id is not None
                movements.append(
                    Movement(
                        stake.seat.account,
                        casino_hold_account(round_id),
                        stake.amount,
                        f"casino {stake.reason}",
                    )
                )
                accounts[stake.seat.account] = stake.seat.user_id
                if stake.reason == "bet":
                    session.add(
                        CasinoRoundBox(
                            round_id=round_id,
                            box=stake.box,
                            user_id=stake.seat.user_id,
                            bet=stake.amount,
                        )
                    )
            for refund in change.refunds:
                assert change.voided is not None
                if refund.amount > 0:
                    movements.append(
                        Movement(
                            casino_hold_account(change.voided),
                            refund.seat.account,
                            refund.amount,
                            "void refund",
                        )
                    )
                accounts[refund.seat.account] = refund.seat.user_id
            if change.payouts:
                assert round_id is not None
                hold = casino_hold_account(round_id)
                for payout in change.payouts:
                    movements += _payout_movements(
                        hold, payout.seat.account, payout.staked, payout.net
                    )
                    accounts[payout.seat.account] = payout.seat.user_id
                    await session.execute(
                        update(CasinoRoundBox)
                        .where(
                            CasinoRoundBox.round_id == round_id, CasinoRoundBox.box == payout.box
                        )
                        .values(net=payout.net)
                    )
            if change.dealt:
                assert round_id is not None
                await session.execute(
                    update(CasinoRoundRow)
                    .where(CasinoRoundRow.id == round_id)
                    .values(
                        shoe_id=await self._shoe_id(session, runtime, int(change.event["shoe"])),
                        position=change.event["position"],
                    )
                )
            if change.settled is not None:
                assert round_id is not None
                await session.execute(
                    update(CasinoRoundRow)
                    .where(CasinoRoundRow.id == round_id)
                    .values(
                        state=SETTLED,
                        record=change.settled,
                        house_net=change.settled["house_net"],
                        settled_at=now,
                    )
                )
            if change.voided is not None:
                reason = str(change.event.get("reason", "voided"))
                await session.execute(
                    update(CasinoRoundRow)
                    .where(CasinoRoundRow.id == change.voided)
                    .values(state=VOID, void_reason=reason[:500], settled_at=now)
                )
                # The operator's id is for the record only, never in a public frame.
                operator_id = change.event.pop("operator", None)
                session.add(
                    OperatorAction(
                        operator_id=operator_id,
                        at=now,
                        action="void",
                        target=f"casino-round:{change.voided}",
                        details={
                            "reason": reason,
                            "refunded": sum(refund.amount for refund in change.refunds),
                        },
                    )
                )
            if change.retired_shoe is not None:
                shoe = change.retired_shoe
                await session.execute(
                    update(CasinoShoeRow)
                    .where(CasinoShoeRow.id == await self._shoe_id(session, runtime, shoe.number))
                    .values(retired_at=now, cards_dealt=shoe.position)
                )
            if change.new_shoe is not None:
                await self._add_shoe(session, runtime, change.new_shoe, now)
        return movements, accounts

    def _broadcast(self, runtime: Runtime, changes: list[Change], balances: dict[int, int]) -> None:
        """The new public state, encoded once, to every watcher; private frames to the players
        whose money moved. Nothing when nothing changed."""
        if not changes:
            return
        table = runtime.table
        state = table.public_state(self.server.now(), len(runtime.watchers))
        frame = _dumps(
            {
                "type": "state",
                "seq": table.step,
                "table": state,
                "event": changes[-1].event,
                "events": [change.event for change in changes],
            }
        )
        for watcher in runtime.watchers:
            watcher.send(frame)
        if balances:
            for watcher in runtime.watchers:
                if watcher.user_id is not None and watcher.user_id in balances:
                    watcher.send(
                        _dumps(
                            {
                                "type": "private",
                                "balance": balances[watcher.user_id],
                                "boxes": table.boxes_of(watcher.user_id),
                            }
                        )
                    )

    def state_frame(self, runtime: Runtime) -> str:
        table = runtime.table
        state = table.public_state(self.server.now(), len(runtime.watchers))
        return _dumps({"type": "state", "seq": table.step, "table": state, "event": None})

    # -------------------------------------------------------------- requests
    async def sit(self, table_id: str, user: User, box: int) -> None:
        seat = Seat(user.id, user.name, user.account_id)
        now = self.server.now()
        await self._step(self.runtime(table_id), lambda _s, t: t.sit(seat, box, now=now))

    async def leave(self, table_id: str, user: User, box: int) -> None:
        now = self.server.now()
        await self._step(self.runtime(table_id), lambda _s, t: t.leave(user.id, box, now=now))

    async def bet(self, table_id: str, user: User, body: BetBody) -> None:
        runtime = self.runtime(table_id)
        now = self.server.now()

        async def make(session: AsyncSession, table: CasinoTable) -> list[Change]:
            seat = table.owner(body.box) if 1 <= body.box <= BOXES else None
            if seat is None or seat.user_id != user.id:
                raise NotYourBoxError(f"box {body.box} is not yours")
            if body.round != table.round_number:
                raise CasinoConflictError(
                    f"stale bet: the table is at round {table.round_number}, not {body.round}"
                )
            if table.round_id is None and table.status == "open":
                # The round's row and hold account are made at its first bet.
                row = CasinoRoundRow(
                    table_id=table.table_id, number=table.round_number, state=OPEN, created_at=now
                )
                session.add(row)
                await session.flush()
                session.add(
                    LedgerAccount(
                        id=casino_hold_account(row.id), kind=HOLD, balance=0, created_at=now
                    )
                )
                await session.flush()
                table.round_id = row.id
            return table.bet(user.id, body.box, body.amount, body.round, now=now)

        await self._step(runtime, make)

    async def act(self, table_id: str, user: User, body: ActionBody) -> None:
        now = self.server.now()
        await self._step(
            self.runtime(table_id),
            lambda _s, t: t.act(user.id, body.box, body.action, body.step, now=now),
        )

    async def force_new_shoe(self, table_id: str) -> dict[str, Any]:
        """A new shoe for the table's next round (test hook and operators): at once between
        rounds, else after the round in play. Returns the public state."""
        runtime = self.runtime(table_id)
        now = self.server.now()
        await self._step(runtime, lambda _s, t: t.force_new_shoe(now=now))
        return self.public(table_id)

    def public(self, table_id: str) -> dict[str, Any]:
        runtime = self.runtime(table_id)
        return runtime.table.public_state(self.server.now(), len(runtime.watchers))

    # -------------------------------------------------------------- recovery
    async def _recover(self, table_id: str) -> None:
        """Load a table and resume it; void its round if it cannot be read or replayed."""
        async with self.server.write() as session:
            row = await session.get(CasinoTableRow, table_id)
            assert row is not None
            state, step = row.state, row.step
        reason: str | None = None
        table: CasinoTable | None = None
        try:
            table = CasinoTable.from_json(state, self._source(table_id))
            async with self.server.read() as session:
                await self._check_held(session, table)
        except Exception as error:  # whatever makes it unreadable: JSON, types, the replay, money
            reason = str(error) if isinstance(error, TwentyOneError) else repr(error)
        if table is not None and reason is None:
            runtime = Runtime(table)
            self.tables[table_id] = runtime
            now = self.server.now()
            await self._step(runtime, lambda _s, t: t.resume(now))
            self.recovered[table_id] = "resumed"
            return
        await self._void_unreadable(table_id, f"voided at start-up: {reason}", step)
        self.recovered[table_id] = f"voided: {reason}"
        log.warning("casino table %s: %s", table_id, reason)

    async def _check_held(self, session: AsyncSession, table: CasinoTable) -> None:
        """The round's hold account must carry exactly the stakes the state says it has."""
        if table.round_id is None:
            if table.bets:
                raise GameStateError("bets without a round")
            return
        held = await ledger.balance(session, casino_hold_account(table.round_id))
        if table.phase == PLAYING and table.round is not None:
            stakes = table.round.staked()
        elif table.phase == BETTING:
            stakes = sum(table.bets.values())
        else:
            stakes = 0
        if held != stakes:
            raise GameStateError(
                f"round {table.round_id}: its hold account carries {held}, the stakes are {stakes}"
            )

    async def _void_unreadable(self, table_id: str, reason: str, step: int) -> None:
        """Void every open round of the table (stakes back to who paid them, as the ledger's
        transfers show), retire its shoes, and start it afresh on a new shoe."""
        now = self.server.now()
        async with self.server.write() as session:
            row = await session.get(CasinoTableRow, table_id)
            assert row is not None
            open_rounds = (
                await session.scalars(
                    select(CasinoRoundRow).where(
                        CasinoRoundRow.table_id == table_id, CasinoRoundRow.state == OPEN
                    )
                )
            ).all()
            for round_row in open_rounds:
                refunded = await refund_hold(session, round_row.id, now)
                round_row.state, round_row.void_reason = VOID, reason[:500]
                round_row.settled_at = now
                session.add(
                    OperatorAction(
                        operator_id=None,
                        at=now,
                        action="void",
                        target=f"casino-round:{round_row.id}",
                        details={"reason": reason, "refunded": refunded},
                    )
                )
            await session.execute(
                update(CasinoShoeRow)
                .where(CasinoShoeRow.table_id == table_id, CasinoShoeRow.retired_at.is_(None))
                .values(retired_at=now)
            )
            last_round = await session.scalar(
                select(func.max(CasinoRoundRow.number)).where(CasinoRoundRow.table_id == table_id)
            )
            last_shoe = await session.scalar(
                select(func.max(CasinoShoeRow.number)).where(CasinoShoeRow.table_id == table_id)
            )
            settings = _settings_from_row(row)
            source = self._source(table_id)
            server_seed, top = source()
            shoe = CasinoShoe.shuffle(
                int(last_shoe or 0) + 1, server_seed, settings.client_seed, settings.rules, top
            )
            table = CasinoTable(table_id, settings, shoe, source)
            table.round_number = int(last_round or 0) + 1
            table.step = step + 1
            runtime = Runtime(table)
            await self._add_shoe(session, runtime, shoe, now)
            row.state, row.step, row.updated_at = table.to_json(), table.step, now
        self.tables[table_id] = runtime


def _advancing(now: float) -> Callable[[AsyncSession, CasinoTable], list[Change]]:
    """The step that processes the table's earliest deadline due at ``now``."""

    def make(_session: AsyncSession, table: CasinoTable) -> list[Change]:
        return table.advance_once(now)

    return make


async def refund_hold(session: AsyncSession, round_id: int, now: float) -> int:
    """Give back what each account paid into a Casino round's hold (its transfers in, less its
    transfers out). Returns the total refunded."""
    return await ledger.refund_hold(session, casino_hold_account(round_id), "void refund", now)


def _payout_movements(hold: str, account: str, staked: int, net: int) -> list[Movement]:
    """A settled box paid out: the hold gives its stakes back (or the house takes what was
    lost), the house pays what was won. The hold ends the round at zero."""
    payout = staked + net
    if payout >= staked:
        out = [Movement(hold, account, staked, "casino stake returned")] if staked else []
        if payout > staked:
            out.append(Movement(HOUSE_ACCOUNT, account, payout - staked, "casino winnings"))
        return out
    out = [Movement(hold, account, payout, "casino stake returned")] if payout > 0 else []
    out.append(Movement(hold, HOUSE_ACCOUNT, staked - payout, "casino stake lost"))
    return out


def _api_error(error: CasinoError) -> ApiError:
    if isinstance(error, NotYourBoxError):
        return ApiError(404, str(error))
    if isinstance(error, CasinoRefusalError):
        return ApiError(422, str(error))
    return ApiError(409, str(error))


def _settings_of(body: TableSettingsBody | None, name: str, client_seed: str) -> Settings:
    """A new table's settings from an operator's body (defaults: the casino preset's)."""
    from twentyone.presets import CASINO

    body = body or TableSettingsBody()
    try:
        rules = table_rules(
            body.rules,
            body.min_bet if body.min_bet is not None else CASINO.min_bet,
            body.max_bet if body.max_bet is not None else CASINO.max_bet,
        )
        seed = check_client_seed(body.client_seed) if body.client_seed is not None else client_seed
    except (TwentyOneError, FairnessError) as error:
        raise unprocessable(f"the table cannot have these settings: {error}") from None
    _check_house_rules(rules)
    return Settings(
        body.name or name,
        rules,
        seed,
        float(body.betting_seconds if body.betting_seconds is not None else 15),
        float(body.decision_seconds if body.decision_seconds is not None else 20),
        float(body.pause_seconds if body.pause_seconds is not None else 4),
    )


def _check_house_rules(rules: Any) -> None:
    from twentyone.house.round import check_house_rules

    try:
        check_house_rules(rules)
    except TwentyOneError as error:
        raise unprocessable(f"the table cannot have these settings: {error}") from None
    if rules.decks is None:
        raise unprocessable("a live table deals from a shoe: decks must be a number")
    if rules.min_bet > rules.max_bet:
        raise unprocessable("min_bet must not be above max_bet")
    behind = 52 * rules.decks - int(52 * rules.decks * rules.penetration)
    if behind < CUT_CARD_RESERVE:
        # A round is never dealt across two shoes: the cards behind the cut card must be
        # enough for any round seven boxes play out.
        raise unprocessable(
            f"the cut card must leave at least {CUT_CARD_RESERVE} cards behind it; these"
            f" rules leave {behind}"
        )


def _settings_from_row(row: CasinoTableRow) -> Settings:
    return Settings(
        row.name,
        table_rules(row.rules, row.min_bet, row.max_bet),
        row.client_seed,
        row.betting_seconds,
        row.decision_seconds,
        row.pause_seconds,
    )


# ------------------------------------------------------------------------------ views
def _fairness(round_row: CasinoRoundRow, shoe: CasinoShoeRow | None, operator: bool) -> Any:
    if shoe is None or round_row.record is None:
        return None
    revealed = shoe.retired_at is not None or operator
    return {
        "server_seed": shoe.server_seed if revealed else None,
        "commitment": shoe.commitment,
        "client_seed": shoe.client_seed,
        "nonce": 0,
        "decks": shoe.decks,
        "position": round_row.position,
        "cards": list(round_row.record.get("cards", [])),
        "shoe": shoe.number,
        "scripted": shoe.scripted,
    }


def round_view(
    round_row: CasinoRoundRow, shoe: CasinoShoeRow | None, user_id: int | None, operator: bool
) -> dict[str, Any]:
    """A round as one of its players sees it (his boxes) or, for an operator, whole."""
    record = round_row.record or {}
    every = list(record.get("boxes", []))
    mine = every if operator else [box for box in every if box.get("user_id") == user_id]
    public_boxes = [{k: v for k, v in box.items() if k != "user_id"} for box in every]
    out: dict[str, Any] = {
        "id": round_row.id,
        "table": round_row.table_id,
        "kind": "casino",
        "number": round_row.number,
        "state": round_row.state,
        "created_at": round_row.created_at,
        "settled_at": round_row.settled_at,
        "boxes": [{k: v for k, v in box.items() if k != "user_id"} for box in mine]
        if not operator
        else mine,
        "table_boxes": public_boxes,
        "dealer": record.get("dealer"),
        "net": sum(int(box.get("net") or 0) for box in mine),
        "events": list(record.get("events", [])),
        "fairness": _fairness(round_row, shoe, operator),
    }
    if round_row.state == VOID:
        out["void_reason"] = round_row.void_reason
        out["net"] = 0
    if operator:
        out["house_net"] = round_row.house_net
    return out


async def _socket_user(server: Server, socket: WebSocket) -> int | None:
    """The signed-in user of a socket (cookie or bearer), or None: spectators need not sign in."""
    header = socket.headers.get("authorization", "")
    token = header[7:].strip() if header.lower().startswith("bearer ") else None
    token = token or socket.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    hashed = token_hash(token)
    now = server.now()
    cached = server.token_cache.get(hashed)
    if cached is not None and cached[1] > now:
        return cached[0].id
    async with server.read() as session:
        found = await session.get(AuthToken, hashed)
        if found is None or (found.expires_at is not None and found.expires_at < now):
            return None
        return found.user_id


# ------------------------------------------------------------------------------ routes
def install(app: FastAPI, server: Server) -> None:
    """Adds the live Casino routes and the ``casino`` service (docs/casino-live.md)."""
    service = CasinoTables(server)
    server.add_service("casino", service)

    _record = server.record_operator_action

    def _summary(table_id: str) -> dict[str, Any]:
        runtime = service.runtime(table_id)
        table = runtime.table
        return {
            "id": table.table_id,
            "name": table.settings.name,
            "min_bet": table.rules.min_bet,
            "max_bet": table.rules.max_bet,
            "boxes": BOXES,
            "taken": len(table.seats),
            "phase": table.phase,
            "status": table.status,
            "spectators": len(runtime.watchers),
        }

    # -------------------------------------------------------------- players
    @app.get("/api/casino/tables", tags=["casino"], response_model=list[dict[str, Any]])
    async def casino_tables() -> Any:
        """The open live tables."""
        return json_response(
            [
                _summary(table_id)
                for table_id, runtime in sorted(service.tables.items())
                if runtime.table.status != TABLE_CLOSED
            ]
        )

    @app.get("/api/casino/tables/{table_id}", tags=["casino"], response_model=dict[str, Any])
    async def casino_table(table_id: TableId) -> Any:
        """The public table state (what every watcher sees)."""
        return json_response(service.public(table_id))

    @app.post(
        "/api/casino/tables/{table_id}/seats",
        status_code=201,
        tags=["casino"],
        response_model=dict[str, Any],
    )
    async def casino_sit(table_id: TableId, body: SeatBody, user: Player) -> Any:
        """Take an empty box (one person may take several)."""
        await service.sit(table_id, user, body.box)
        return json_response(service.public(table_id), 201)

    @app.delete(
        "/api/casino/tables/{table_id}/seats/{box}", tags=["casino"], response_model=dict[str, Any]
    )
    async def casino_leave(table_id: TableId, box: int, user: Player) -> Any:
        """Leave a box: between rounds, or with no bet in the current round."""
        await service.leave(table_id, user, box)
        return json_response(service.public(table_id))

    @app.post(
        "/api/casino/tables/{table_id}/bets",
        status_code=201,
        tags=["casino"],
        response_model=dict[str, Any],
    )
    async def casino_bet(table_id: TableId, body: BetBody, user: Player) -> Any:
        """Bet on one's own box during the betting window (the stake moves to the round's hold)."""
        await service.bet(table_id, user, body)
        return json_response(service.public(table_id), 201)

    @app.post(
        "/api/casino/tables/{table_id}/actions", tags=["casino"], response_model=dict[str, Any]
    )
    async def casino_action(table_id: TableId, body: ActionBody, user: Player) -> Any:
        """A decision for one's own box whose turn it is: hit, stand, double, split, surrender,
        insurance N, no-insurance; ``step`` is the state's step (stale: 409)."""
        await service.act(table_id, user, body)
        return json_response(service.public(table_id))

    async def _rounds_page(
        session: AsyncSession,
        query: Any,
        user_id: int | None,
        operator: bool,
        limit: int,
    ) -> dict[str, Any]:
        rows = (await session.scalars(query.order_by(CasinoRoundRow.id.desc()).limit(limit))).all()
        shoe_ids = {row.shoe_id for row in rows if row.shoe_id is not None}
        shoes = {}
        if shoe_ids:
            shoes = {
                shoe.id: shoe
                for shoe in (
                    await session.scalars(
                        select(CasinoShoeRow).where(CasinoShoeRow.id.in_(shoe_ids))
                    )
                ).all()
            }
        items = [round_view(row, shoes.get(row.shoe_id or -1), user_id, operator) for row in rows]
        return {"rounds": items, "next": rows[-1].id if len(rows) == limit else None}

    @app.get("/api/casino/rounds", tags=["casino"])
    async def casino_rounds(
        user: Player,
        limit: Annotated[int, Query(ge=1, le=PAGE_MAX)] = 20,
        before: Cursor = None,
    ) -> Any:
        """The caller's settled Casino rounds (where he had a box), newest first."""
        async with server.read() as session:
            mine = select(CasinoRoundBox.round_id).where(CasinoRoundBox.user_id == user.id)
            query = select(CasinoRoundRow).where(
                CasinoRoundRow.id.in_(mine), CasinoRoundRow.state != OPEN
            )
            if before is not None:
                query = query.where(CasinoRoundRow.id < before)
            return json_response(await _rounds_page(session, query, user.id, False, limit))

    @app.get("/api/casino/rounds/{round_id}", tags=["casino"])
    async def casino_round(round_id: RoundId, user: Player) -> Any:
        """One of the caller's Casino rounds (404 when he had no box in it or it is not over)."""
        async with server.read() as session:
            row = await session.get(CasinoRoundRow, round_id)
            had = await session.scalar(
                select(CasinoRoundBox.id).where(
                    CasinoRoundBox.round_id == round_id, CasinoRoundBox.user_id == user.id
                )
            )
            if row is None or had is None or row.state == OPEN:
                raise not_found(f"casino round {round_id}")
            shoe = await session.get(CasinoShoeRow, row.shoe_id) if row.shoe_id else None
            return json_response(round_view(row, shoe, user.id, False))

    # -------------------------------------------------------------- the stream
    @app.websocket("/api/casino/tables/{table_id}/stream")
    async def casino_stream(socket: WebSocket, table_id: str) -> None:
        """The public state at once, then after every change; private frames to their owner."""
        runtime = service.tables.get(table_id)
        if runtime is None:
            await socket.close(code=4404)
            return
        user_id = await _socket_user(server, socket)
        await socket.accept()
        watcher = Watcher(socket, user_id)
        # In one go (no await between): the current state is queued before any later change.
        runtime.watchers.add(watcher)
        watcher.send(service.state_frame(runtime))
        writer = asyncio.create_task(watcher.write())
        try:
            if user_id is not None:
                account = await _account_of(user_id)
                if account is not None:
                    async with server.read() as session:
                        balance = await ledger.balance(session, account)
                    watcher.send(
                        _dumps(
                            {
                                "type": "private",
                                "balance": balance,
                                "boxes": runtime.table.boxes_of(user_id),
                            }
                        )
                    )
            await answer_pings(socket, watcher)
        except (WebSocketDisconnect, RuntimeError, KeyError):
            pass  # gone, or sent something that is not a text frame
        finally:
            runtime.watchers.discard(watcher)
            watcher.drop()
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    async def _account_of(user_id: int) -> str | None:
        async with server.read() as session:
            return await session.scalar(select(User.account_id).where(User.id == user_id))

    # -------------------------------------------------------------- operators
    @app.get("/api/admin/casino/tables", tags=["operators"])
    async def admin_casino_tables(operator: Operator) -> Any:
        """Every table (closed ones too) with its settings."""
        async with server.write() as session:
            await _record(session, operator, "list casino tables", "casino-tables", {})
            rows = (await session.scalars(select(CasinoTableRow).order_by(CasinoTableRow.id))).all()
            out = []
            for row in rows:
                item = _admin_table(row)
                if row.id in service.tables:
                    item.update(_summary(row.id))
                out.append(item)
        return json_response(out)

    @app.post("/api/admin/casino/tables", status_code=201, tags=["operators"])
    async def admin_casino_create(body: TableSettingsBody, operator: Operator) -> Any:
        """Open a new table: name, limits, timings, rule overrides, client seed."""
        async with server.read() as session:
            count = await session.scalar(select(func.count()).select_from(CasinoTableRow))
        number = int(count or 0) + 1
        while f"casino-{number}" in service.tables:
            number += 1
        table_id = f"casino-{number}"
        await service.create_table(table_id, body.name or f"Casino {number}", body)
        async with server.write() as session:
            await _record(
                session,
                operator,
                "create casino table",
                f"casino-table:{table_id}",
                body.model_dump(exclude_unset=True),
            )
        return json_response(service.public(table_id), 201)

    @app.put("/api/admin/casino/tables/{table_id}", tags=["operators"])
    async def admin_casino_configure(
        table_id: TableId, body: TableSettingsBody, operator: Operator
    ) -> Any:
        """Change a table's settings: at once while nobody has bet, else from the next round."""
        runtime = service.runtime(table_id)
        changes = body.model_dump(exclude_unset=True)
        now = server.now()

        async def make(session: AsyncSession, table: CasinoTable) -> list[Change]:
            row = await session.get(CasinoTableRow, table_id)
            assert row is not None
            current = table.next_settings or table.settings
            rules_overrides = body.rules if body.rules is not None else row.rules
            try:
                rules = table_rules(
                    rules_overrides,
                    body.min_bet if body.min_bet is not None else current.rules.min_bet,
                    body.max_bet if body.max_bet is not None else current.rules.max_bet,
                )
                seed = (
                    check_client_seed(body.client_seed)
                    if body.client_seed is not None
                    else current.client_seed
                )
            except TwentyOneError as error:
                raise unprocessable(f"the table cannot have these settings: {error}") from None
            _check_house_rules(rules)
            settings = Settings(
                body.name or current.name,
                rules,
                seed,
                float(body.betting_seconds or current.betting_seconds),
                float(body.decision_seconds or current.decision_seconds),
                float(
                    body.pause_seconds if body.pause_seconds is not None else current.pause_seconds
                ),
            )
            row.name, row.rules = settings.name, rules_overrides
            row.min_bet, row.max_bet = rules.min_bet, rules.max_bet
            row.betting_seconds, row.decision_seconds = (
                settings.betting_seconds,
                settings.decision_seconds,
            )
            row.pause_seconds, row.client_seed = settings.pause_seconds, settings.client_seed
            await _record(
                session, operator, "configure casino table", f"casino-table:{table_id}", changes
            )
            return table.configure(settings, now=now)

        await service._step(runtime, make)
        return json_response(service.public(table_id))

    @app.delete("/api/admin/casino/tables/{table_id}", tags=["operators"])
    async def admin_casino_close(
        table_id: TableId,
        operator: Operator,
        void: Annotated[bool, Query()] = False,
    ) -> Any:
        """Close a table: at once between rounds (a window's bets refunded), else after the
        round in play settles; ``void=true`` voids that round now."""
        runtime = service.runtime(table_id)
        now = server.now()

        async def make(session: AsyncSession, table: CasinoTable) -> list[Change]:
            await _record(
                session, operator, "close casino table", f"casino-table:{table_id}", {"void": void}
            )
            changes = table.close(now=now, void=void)
            for change in changes:
                if change.voided is not None:
                    change.event["operator"] = operator.id
            return changes

        await service._step(runtime, make)
        return json_response(service.public(table_id))

    @app.get("/api/admin/casino/rounds", tags=["operators"])
    async def admin_casino_rounds(
        operator: Operator,
        player: Annotated[str | None, Query(max_length=32)] = None,
        table: Annotated[str | None, Query(max_length=32)] = None,
        since: Time = None,
        until: Time = None,
        limit: Annotated[int, Query(ge=1, le=PAGE_MAX)] = 50,
        before: Cursor = None,
    ) -> Any:
        """Any Casino round with every card, filtered by player, table and time dealt
        (``since <= dealt < until``, as the Online search)."""
        if since is not None and until is not None and since >= until:
            raise unprocessable("since must be before until")
        async with server.write() as session:
            query = select(CasinoRoundRow)
            if player is not None:
                who = select(User.id).where(User.name_key == player.casefold())
                boxes = select(CasinoRoundBox.round_id).where(CasinoRoundBox.user_id.in_(who))
                query = query.where(CasinoRoundRow.id.in_(boxes))
            if table is not None:
                query = query.where(CasinoRoundRow.table_id == table)
            if since is not None:
                query = query.where(CasinoRoundRow.created_at >= since)
            if until is not None:
                query = query.where(CasinoRoundRow.created_at < until)
            if before is not None:
                query = query.where(CasinoRoundRow.id < before)
            await _record(
                session,
                operator,
                "list casino rounds",
                "casino-rounds",
                {"player": player, "table": table, "since": since, "until": until},
            )
            page = await _rounds_page(session, query, None, True, limit)
        for item in page["rounds"]:
            _live_record(service, item)
        return json_response(page)

    @app.get("/api/admin/casino/rounds/{round_id}", tags=["operators"])
    async def admin_casino_round(round_id: RoundId, operator: Operator) -> Any:
        """One Casino round, whole (the shoe's seed too, even before it is retired)."""
        async with server.write() as session:
            row = await session.get(CasinoRoundRow, round_id)
            if row is None:
                raise not_found(f"casino round {round_id}")
            shoe = await session.get(CasinoShoeRow, row.shoe_id) if row.shoe_id else None
            await _record(session, operator, "read casino round", f"casino-round:{round_id}", {})
            view = round_view(row, shoe, None, True)
        _live_record(service, view)
        return json_response(view)


def _live_record(service: CasinoTables, view: dict[str, Any]) -> None:
    """An open round in play is shown from its table's runner (its record is written at
    settlement)."""
    if view["state"] != OPEN:
        return
    runtime = service.tables.get(view["table"])
    if runtime is None or runtime.table.round_id != view["id"] or runtime.table.round is None:
        return
    record = runtime.table.round_record()
    view["boxes"] = view["table_boxes"] = record["boxes"]
    view["dealer"] = record["dealer"]
    view["events"] = record["events"]


def _admin_table(row: CasinoTableRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "rules": row.rules,
        "min_bet": row.min_bet,
        "max_bet": row.max_bet,
        "betting_seconds": row.betting_seconds,
        "decision_seconds": row.decision_seconds,
        "pause_seconds": row.pause_seconds,
        "client_seed": row.client_seed,
        "status": row.status,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
    }


__all__ = ["DEFAULT_TABLE", "CasinoTables", "install", "refund_hold", "round_view"]
