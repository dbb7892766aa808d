"""Live Vinte-e-um tables: people and bots play a match, a runner per table on the server clock,
every step in the database, each seat's own view over REST and a WebSocket (docs/vinte-live.md
is the contract).

A table is created by a signed-in person (seat 0), who sends the invite link to friends; each
takes a seat with it; the creator starts, and bots fill the empty seats. Every change (a
person's decision, a deadline's default, and the bots' decisions and deals that follow it until a
person must decide) is one step: computed in memory from the immutable engine state
(:mod:`twentyone.vinte.game`), then written in one transaction with the round rows and, for a
match played for balance, the ledger transfers; if the write fails the table is put back as it
was. After the commit each watching socket gets a frame built from its own seat's view
(:func:`twentyone.vinte.views.view_for`), so a hidden card reaches nobody who may not see it.

At start-up every table in play resumes at its last decision with a fresh deadline; a table whose
stored state cannot be read is voided (its hold refunded, the void recorded and shown).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from twentyone.analysis.vinte.bots import VinteBot
from twentyone.cards import Card, parse_cards
from twentyone.errors import TwentyOneError
from twentyone.fairness import FairSource, commitment
from twentyone.i18n import N_
from twentyone.ledger.errors import InsufficientBalanceError
from twentyone.money import MAX_AMOUNT
from twentyone.presets import VINTE
from twentyone.server.casino import Watcher, _socket_user
from twentyone.server.context import (
    SESSION_COOKIE,
    Operator,
    Player,
    RoundId,
    Server,
    TableId,
    current_user,
    json_response,
)
from twentyone.server.errors import ApiError, conflict, marked, not_found, unprocessable
from twentyone.server.i18n import request_translation
from twentyone.server.ticking import TickLoop, answer_pings, close_watchers
from twentyone.server.vinte_fair import (
    Position,
    position_hashes,
    positions,
    revealed_for,
    round_deck,
    vinte_hint,
)
from twentyone.server.worker import analysis_worker
from twentyone.storage import ledger
from twentyone.storage.ledger import Movement
from twentyone.storage.models import (
    HOLD,
    HOUSE_ACCOUNT,
    OPEN,
    SETTLED,
    VOID,
    LedgerAccount,
    OperatorAction,
    User,
    VinteRoundRow,
    VinteTableRow,
    vinte_hold_account,
)
from twentyone.vinte.errors import (
    CallError,
    OutOfTurnError,
    VinteActionError,
    VinteBetError,
)
from twentyone.vinte.events import Event
from twentyone.vinte.game import (
    Action,
    Bet,
    Call,
    ComeBack,
    Draw,
    Hit,
    MatchState,
    Phase,
    RoundState,
    Stand,
    apply_events,
    deal_events,
    expire_events,
    new_match,
    to_act,
)
from twentyone.vinte.settings import SeatSpec, VinteSettings, VinteTable
from twentyone.vinte.state_json import match_from_json, match_to_json
from twentyone.vinte.views import view_for

log = logging.getLogger("twentyone.server.vinte")

WAITING, PLAYING, OVER, VOID_TABLE, CLOSED = "waiting", "playing", "over", "void", "closed"
#: The standard bot: plays the bot seats and the seats that are away.
STANDARD = VinteBot(read_stands=True)
#: The pause before a round that only bots play (every person away or out), at most.
BOT_ROUND_PAUSE = 5.0
#: Tables one person may have created and not finished (waiting or playing) at once.
MAX_OPEN_TABLES = 5
#: A step never runs more engine transitions than this (a guard: a match has far fewer).
MAX_TRANSITIONS = 100_000


# ------------------------------------------------------------------------------ bodies
class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SettingsBody(_Body):
    name: StrictStr | None = Field(default=None, min_length=1, max_length=64)
    seats: StrictInt = 4
    stack: StrictInt = 50
    min_bet: StrictInt = 1
    max_bet: StrictInt = 5
    bank_rounds: StrictInt = 3
    round_limit: StrictInt = 100
    decision_seconds: Annotated[StrictInt | StrictFloat, Field(ge=1, le=3600)] = 30
    player_21_pays_double: StrictBool = False
    player_21_takes_bank: StrictBool = False
    first_banker: StrictInt | None = None
    aces_one_only: StrictBool = False
    #: Decks shuffled together every round (one by default: it cannot run out with 8 seats).
    decks: StrictInt = 1
    hints: StrictBool | None = None
    for_balance: StrictBool = False
    chip_value: Annotated[StrictInt, Field(ge=1, le=10**9)] = 100


class SeatBody(_Body):
    invite: StrictStr = Field(max_length=64)
    seat: StrictInt | None = None


class ActionBody(_Body):
    action: StrictStr = Field(max_length=16)
    chips: StrictInt | None = None
    target: StrictInt | None = None
    step: StrictInt | None = None


# ------------------------------------------------------------------------------ state
@dataclass
class RoundInfo:
    """A round's seed and deck, made before its deal (the seed never leaves the server)."""

    number: int
    server_seed: str
    client_seed: str
    decks: int
    deck: list[Card]
    hashes: list[str]
    scripted: bool
    finished: bool = False

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed)

    def public(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "commitment": self.commitment,
            "client_seed": self.client_seed,
            "nonce": self.number,
            "decks": self.decks,
            "hashes": list(self.hashes),
            "scripted": self.scripted,
        }


@dataclass
class Outcome:
    """What one step did: its events (in order), the rounds it dealt and settled, its money."""

    events: list[Event] = field(default_factory=list)
    dealt: list[RoundInfo] = field(default_factory=list)
    settled: list[tuple[RoundInfo, RoundState]] = field(default_factory=list)
    movements: list[Movement] = field(default_factory=list)
    changed: bool = False


@dataclass(eq=False)
class Live:
    """A table in this process."""

    id: str
    name: str
    creator_id: int
    invite: str
    settings: dict[str, Any]
    seats: list[dict[str, Any] | None]
    client_seed: str
    status: str
    state: MatchState | None
    step: int
    created_at: float
    void_reason: str | None = None
    #: A round only bots would play waits until then (see ``BOT_ROUND_PAUSE``).
    idle_until: float | None = None
    round: RoundInfo | None = None
    #: Round 1's seed, made at the start (it also draws the first banker).
    next_round: RoundInfo | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Watcher] = field(default_factory=set)

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.get("user_id") == user_id:
                return index
        return None

    #: What a step may change (the rest of a table is fixed at its creation).
    STEP_FIELDS = (
        "status",
        "state",
        "step",
        "seats",
        "settings",
        "round",
        "next_round",
        "idle_until",
        "void_reason",
    )

    def working_copy(self) -> Live:
        """A copy a step changes (the engine state is immutable; the rest is copied), so that
        readers only ever see a committed step and a failed one leaves nothing behind."""
        return replace(
            self,
            seats=[None if seat is None else dict(seat) for seat in self.seats],
            settings=dict(self.settings),
            round=None if self.round is None else replace(self.round),
            next_round=None if self.next_round is None else replace(self.next_round),
        )

    def adopt(self, work: Live) -> None:
        """Take a committed step's changes from its working copy."""
        for name in self.STEP_FIELDS:
            setattr(self, name, getattr(work, name))


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _rules_of(settings: dict[str, Any]) -> Any:
    return replace(
        VINTE,
        min_bet=settings["min_bet"],
        max_bet=settings["max_bet"],
        aces_high=not settings["aces_one_only"],
        decks=settings.get("decks", 1),
    )


def _vinte_settings(settings: dict[str, Any]) -> VinteSettings:
    return VinteSettings(
        starting_stack=settings["stack"],
        bank_rounds=settings["bank_rounds"],
        round_limit=settings["round_limit"],
        decision_seconds=float(settings["decision_seconds"]),
        player_21_pays_double=settings["player_21_pays_double"],
        player_21_takes_bank=settings["player_21_takes_bank"],
    )


def check_settings(body: SettingsBody) -> dict[str, Any]:
    """The table's settings as stored, or a 422 saying why they cannot be played.

    >>> settings = check_settings(SettingsBody(seats=3))
    >>> settings["stack"], settings["min_bet"], settings["max_bet"], settings["hints"]
    (50, 1, 5, None)
    >>> check_settings(SettingsBody(seats=8, stack=20))
    Traceback (most recent call last):
    ...
    twentyone.server.errors.ApiError: the table cannot have these settings: a table of 8 seats needs stacks of at least (8 - 1) x 5 = 35 chips so that some seat can always cover the bank, got 20
    """
    settings = body.model_dump()
    settings["name"] = body.name
    try:
        VinteTable.create(
            body.seats,
            rules=_rules_of(settings),
            settings=_vinte_settings(settings),
            first_banker=body.first_banker,
        )
    except TwentyOneError as error:
        raise unprocessable(
            N_("the table cannot have these settings: {why}"), why=str(error)
        ) from None
    if body.for_balance and body.stack * body.chip_value > MAX_AMOUNT:
        raise marked(
            422, N_("the table cannot have these settings: stack x chip_value is too large")
        )
    return settings


def _action_of(body: ActionBody, seat: int) -> Action:
    name = body.action
    if name == "bet":
        if body.chips is None:
            raise marked(422, N_("a bet needs chips: a whole number of chips"))
        return Bet(seat, body.chips)
    if name == "call":
        if body.target is None:
            raise marked(422, N_("a call needs target: the seat number of the player called"))
        return Call(seat, body.target)
    simple: dict[str, Callable[[int], Action]] = {
        "hit": Hit,
        "stand": Stand,
        "draw": Draw,
        "back": ComeBack,
    }
    if name not in simple:
        raise unprocessable(
            N_("unknown action {name}: one of bet, hit, stand, draw, call, back"),
            name=repr(name[:16]),
        )
    return simple[name](seat)


def _api_error(error: TwentyOneError) -> ApiError:
    if isinstance(error, OutOfTurnError):
        return ApiError(409, str(error))
    if isinstance(error, VinteBetError | CallError):
        return ApiError(422, str(error))
    if isinstance(error, VinteActionError):
        return ApiError(409, str(error))
    return ApiError(422, str(error))


# ------------------------------------------------------------------------------ the service
class VinteTables:
    """Every Vinte-e-um table of the server: runners, persistence, fan-out, clock."""

    def __init__(self, server: Server, run_loop: bool | None = None) -> None:
        self.server = server
        self.tables: dict[str, Live] = {}
        self.run_loop = run_loop
        self._clock = TickLoop("vinte", self.tick)
        #: What start-up recovery did: table id -> "resumed" | "voided: reason".
        self.recovered: dict[str, str] = {}

    # -------------------------------------------------------------- life
    async def start(self) -> None:
        async with self.server.read() as session:
            ids = (
                await session.scalars(select(VinteTableRow.id).order_by(VinteTableRow.created_at))
            ).all()
        for table_id in ids:
            await self._recover(table_id)
        self._clock.start(self.server.config.clock, self.run_loop)

    async def stop(self) -> None:
        await self._clock.stop()
        for live in self.tables.values():
            await close_watchers(live.watchers)

    async def tick(self) -> int:
        """Play every deadline due at ``server.now()``; the number of steps taken."""
        steps = 0
        failed: Exception | None = None
        for live in list(self.tables.values()):
            state = live.state
            if live.status != PLAYING or state is None:
                continue
            due = state.deadline if live.idle_until is None else live.idle_until
            if due is None or self.server.now() < due:
                continue
            try:
                outcome = await self._step(live, self._advancing)
            except Exception as error:  # one table's fault must not stop the others' clocks
                log.exception("vinte table %s: a step failed", live.id)
                failed = failed or error
                continue
            steps += int(outcome.changed)
        if failed is not None:
            raise failed
        return steps

    def live(self, table_id: str) -> Live:
        found = self.tables.get(table_id)
        if found is None:
            raise not_found(f"vinte table {table_id!r}")
        return found

    # -------------------------------------------------------------- the engine, in memory
    def _new_round(self, live: Live, number: int) -> RoundInfo:
        config = self.server.config
        seed = config.server_seeds()
        top = config.card_script.take(live.id) if config.card_script is not None else None
        decks = int(live.settings.get("decks", 1))
        deck, scripted = round_deck(seed, live.client_seed, number, decks, top)
        return RoundInfo(
            number, seed, live.client_seed, decks, deck, position_hashes(seed, deck), scripted
        )

    def _people_playing(self, live: Live, state: MatchState) -> bool:
        """Whether a person still in the game plays his own seat (is not away)."""
        return any(
            spec is not None and not spec["bot"] and seat.in_game and not seat.away
            for spec, seat in zip(live.seats, state.seats, strict=True)
        )

    def _is_bot(self, live: Live, state: MatchState, seat: int) -> bool:
        spec = live.seats[seat]
        return spec is None or bool(spec.get("bot")) or state.seats[seat].away

    def _take(self, live: Live, outcome: Outcome, step: tuple[MatchState, list[Event]]) -> None:
        """Take an engine transition's state and events; note a round it settled."""
        state, events = step
        live.state = state
        outcome.events.extend(events)
        outcome.changed = True
        current, info = state.round, live.round
        if (
            info is not None
            and not info.finished
            and current is not None
            and current.number == info.number
            and current.pending is None
            and state.phase in (Phase.DEAL, Phase.OVER)
            and any(event.kind == "round-over" for event in current.events)
        ):
            info.finished = True
            outcome.settled.append((info, current))

    def _play(self, live: Live, now: float, outcome: Outcome) -> None:
        """Deadlines due by ``now`` (each at its own moment), deals, and bot decisions, until a
        person must decide or the match is over."""
        for _ in range(MAX_TRANSITIONS):
            state = live.state
            assert state is not None
            if state.phase is Phase.OVER:
                break
            if state.deadline is not None and state.deadline <= now:
                self._take(live, outcome, expire_events(state, state.deadline))
                continue
            if state.phase is Phase.DEAL:
                if outcome.settled and not self._people_playing(live, state):
                    # Nobody but bots would play the next round: it follows after a pause, so
                    # that a step stays one round long and the people watching can follow.
                    live.idle_until = now + min(BOT_ROUND_PAUSE, _seconds(live))
                    break
                live.idle_until = None
                number = (state.round.number if state.round is not None else 0) + 1
                info = live.next_round
                if info is None or info.number != number:
                    info = self._new_round(live, number)
                live.next_round = None
                live.round = info
                outcome.dealt.append(info)
                self._take(live, outcome, deal_events(state, info.deck, now))
                continue
            bots = [seat for seat in to_act(state) if self._is_bot(live, state, seat)]
            if not bots:
                break
            action = STANDARD.decide(view_for(state, bots[0]))
            self._take(live, outcome, apply_events(state, action, now))
        state = live.state
        if state is not None and state.phase is Phase.OVER and live.status == PLAYING:
            live.status = OVER
            outcome.changed = True
            if live.settings["for_balance"]:
                value = int(live.settings["chip_value"])
                hold = vinte_hold_account(live.id)
                for index, seat in enumerate(state.seats):
                    owner = _owner(live.seats[index])
                    if seat.stack > 0:
                        outcome.movements.append(
                            Movement(hold, owner, seat.stack * value, "vinte payout")
                        )

    async def _advancing(self, live: Live, now: float) -> Outcome:
        outcome = Outcome()
        if live.status == PLAYING and live.state is not None:
            await asyncio.to_thread(self._play, live, now, outcome)
        return outcome

    # -------------------------------------------------------------- one step
    async def _step(self, live: Live, make: Callable[[Live, float], Awaitable[Outcome]]) -> Outcome:
        """Make one step on a working copy and write it; the table takes it once committed."""
        async with live.lock:
            now = self.server.now()
            work = live.working_copy()
            try:
                outcome = await make(work, now)
                if not outcome.changed:
                    return outcome
                work.step += 1
                await self._write(work, outcome, now)
            except BaseException as error:
                if isinstance(error, InsufficientBalanceError):
                    raise marked(
                        422, N_("a seat's balance does not cover the buy-in of this table")
                    ) from None
                if isinstance(error, TwentyOneError) and not isinstance(error, ApiError):
                    raise _api_error(error) from None
                raise
            live.adopt(work)
            self._broadcast(live, outcome)
            return outcome

    async def _write(self, live: Live, outcome: Outcome, now: float) -> None:
        async with self.server.write() as session:
            rows: dict[int, VinteRoundRow] = {}
            for info in outcome.dealt:
                row = VinteRoundRow(
                    table_id=live.id,
                    number=info.number,
                    state=OPEN,
                    server_seed=info.server_seed,
                    commitment=info.commitment,
                    client_seed=info.client_seed,
                    decks=info.decks,
                    deck=[str(card) for card in info.deck],
                    hashes=list(info.hashes),
                    scripted=info.scripted,
                    created_at=now,
                )
                session.add(row)
                rows[info.number] = row
            await session.flush()
            for info, current in outcome.settled:
                record = _record(current)
                if info.number in rows:
                    rows[info.number].record = record
                    rows[info.number].state = SETTLED
                    rows[info.number].settled_at = now
                else:
                    await session.execute(
                        update(VinteRoundRow)
                        .where(
                            VinteRoundRow.table_id == live.id, VinteRoundRow.number == info.number
                        )
                        .values(record=record, state=SETTLED, settled_at=now)
                    )
            if outcome.movements:
                connection = await session.connection()
                await ledger.post(connection, outcome.movements, now)
            await session.execute(
                update(VinteTableRow)
                .where(VinteTableRow.id == live.id)
                .values(
                    state=None if live.state is None else match_to_json(live.state),
                    step=live.step,
                    status=live.status,
                    seats=[None if s is None else dict(s) for s in live.seats],
                    settings=dict(live.settings),
                    updated_at=now,
                )
            )

    def _broadcast(self, live: Live, outcome: Outcome) -> None:
        """Each watcher's own frame: built once per seat (spectators share theirs)."""
        frames: dict[int | None, str] = {}
        for watcher in list(live.watchers):
            seat = live.seat_of(watcher.user_id)
            if seat not in frames:
                frames[seat] = _dumps(self.frame(live, seat, outcome.events))
            watcher.send(frames[seat])

    def frame(self, live: Live, seat: int | None, events: list[Event]) -> dict[str, Any]:
        return {
            "type": "state",
            "seq": live.step,
            "now": self.server.now(),
            "seat": seat,
            "table": self.summary(live),
            "view": None if live.state is None else view_for(live.state, seat).to_json(),
            "events": [event.for_seat(seat) for event in events],
        }

    # -------------------------------------------------------------- what is shown
    def summary(self, live: Live) -> dict[str, Any]:
        state = live.state
        seats = []
        for index, spec in enumerate(live.seats):
            stack = state.seats[index].stack if state is not None else live.settings["stack"]
            seats.append(
                {
                    "seat": index,
                    "name": None if spec is None else spec["name"],
                    "bot": False if spec is None else bool(spec["bot"]),
                    "stack": stack,
                    "empty": spec is None,
                }
            )
        settings = {k: v for k, v in live.settings.items() if k != "name"}
        current = state.round if state is not None else None
        return {
            "id": live.id,
            "name": live.name,
            "status": live.status,
            "creator": live.seats[0]["name"] if live.seats and live.seats[0] else None,
            "settings": settings,
            "seats": seats,
            "round": None if current is None else current.number,
            "fairness": None if live.round is None else live.round.public(),
            "void_reason": live.void_reason,
        }

    def answer(self, live: Live, user_id: int | None) -> dict[str, Any]:
        seat = live.seat_of(user_id)
        return {
            "table": self.summary(live),
            "seat": seat,
            "step": live.step,
            "now": self.server.now(),
            "invite": None if seat is None else f"/vinte/{live.id}?invite={live.invite}",
            "view": None if live.state is None else view_for(live.state, seat).to_json(),
        }

    # -------------------------------------------------------------- requests
    async def create(self, user: User, body: SettingsBody, default_name: str | None = None) -> Live:
        settings = check_settings(body)
        now = self.server.now()
        mine = sum(
            1
            for live in self.tables.values()
            if live.creator_id == user.id and live.status in (WAITING, PLAYING)
        )
        if mine >= MAX_OPEN_TABLES:
            raise conflict(
                N_("you have {count} open tables already: finish or close one first"),
                count=mine,
            )
        if settings["for_balance"]:
            await self._check_buy_in(user, settings)
        table_id = "v" + secrets.token_hex(6)
        seats: list[dict[str, Any] | None] = [None] * int(settings["seats"])
        seats[0] = _person(user)
        live = Live(
            id=table_id,
            name=body.name or default_name or f"{user.name}'s table",
            creator_id=user.id,
            invite=secrets.token_urlsafe(18),
            settings=settings,
            seats=seats,
            client_seed=self.server.config.client_seeds(),
            status=WAITING,
            state=None,
            step=0,
            created_at=now,
        )
        async with self.server.write() as session:
            session.add(
                VinteTableRow(
                    id=live.id,
                    name=live.name,
                    creator_id=user.id,
                    invite=live.invite,
                    settings=settings,
                    seats=list(seats),
                    client_seed=live.client_seed,
                    status=WAITING,
                    state=None,
                    step=0,
                    created_at=now,
                    updated_at=now,
                )
            )
        self.tables[table_id] = live
        return live

    async def close(self, table_id: str, user: User) -> None:
        """The creator closes a table nobody has started playing at."""
        live = self.live(table_id)

        async def make(live: Live, _now: float) -> Outcome:
            if user.id != live.creator_id:
                raise marked(403, N_("only the table's creator closes it"))
            if live.status != WAITING:
                raise conflict(
                    N_("only a table waiting for its start can be closed; this one is {state}"),
                    state=live.status,
                )
            live.status = CLOSED
            return Outcome(changed=True)

        await self._step(live, make)

    async def _check_buy_in(self, user: User, settings: dict[str, Any]) -> None:
        need = int(settings["stack"]) * int(settings["chip_value"])
        async with self.server.read() as session:
            balance = await ledger.balance(session, user.account_id)
        if balance < need:
            raise unprocessable(
                N_("the buy-in of this table is {need} and your balance is {balance}"),
                need=need,
                balance=balance,
            )

    async def sit(self, table_id: str, user: User, body: SeatBody) -> None:
        live = self.live(table_id)
        if not secrets.compare_digest(body.invite, live.invite):
            raise marked(403, N_("the invite is not valid for this table"))
        if live.settings["for_balance"]:
            await self._check_buy_in(user, live.settings)

        async def make(live: Live, _now: float) -> Outcome:
            if live.status == CLOSED:
                raise marked(409, N_("this table is closed"))
            if live.status != WAITING:
                raise marked(409, N_("the match has started: nobody joins after the first deal"))
            if live.seat_of(user.id) is not None:
                raise marked(409, N_("you already have a seat at this table"))
            size = len(live.seats)
            if body.seat is None:
                free = [index for index, seat in enumerate(live.seats) if seat is None]
                if not free:
                    raise marked(409, N_("every seat of this table is taken"))
                chosen = free[0]
            else:
                if not 0 <= body.seat < size:
                    raise unprocessable(
                        N_("no seat {seat} at this table (seats 0..{last})"),
                        seat=body.seat,
                        last=size - 1,
                    )
                if live.seats[body.seat] is not None:
                    raise conflict(N_("seat {seat} is taken"), seat=body.seat)
                chosen = body.seat
            live.seats[chosen] = _person(user)
            return Outcome(changed=True)

        await self._step(live, make)

    async def leave(self, table_id: str, user: User) -> None:
        live = self.live(table_id)

        async def make(live: Live, _now: float) -> Outcome:
            seat = live.seat_of(user.id)
            if seat is None:
                raise marked(403, N_("you have no seat at this table"))
            if live.status != WAITING:
                raise marked(409, N_("the match has started: a seat is kept to the end"))
            if seat == 0:
                raise marked(409, N_("the creator keeps seat 0 until the match starts"))
            live.seats[seat] = None
            return Outcome(changed=True)

        await self._step(live, make)

    async def start_match(self, table_id: str, user: User) -> None:
        live = self.live(table_id)

        async def make(live: Live, now: float) -> Outcome:
            if user.id != live.creator_id:
                raise marked(403, N_("only the table's creator starts the match"))
            if live.status != WAITING:
                raise conflict(
                    N_("the match cannot start: the table is {state}"), state=live.status
                )
            taken = {seat["name"].casefold() for seat in live.seats if seat is not None}
            number = 1
            for index, seat in enumerate(live.seats):
                if seat is None:
                    while f"bot {number}" in taken:
                        number += 1
                    live.seats[index] = {
                        "user_id": None,
                        "name": f"Bot {number}",
                        "bot": True,
                        "account": None,
                    }
                    number += 1
            people = sum(1 for seat in live.seats if seat is not None and not seat["bot"])
            if live.settings["hints"] is None:
                live.settings["hints"] = people <= 1
            settings = live.settings
            table = VinteTable(
                tuple(SeatSpec(s["name"], bot=s["bot"]) for s in live.seats if s is not None),
                _rules_of(settings),
                _vinte_settings(settings),
                settings["first_banker"],
            )
            first = self._new_round(live, 1)
            live.next_round = first
            live.state = new_match(table, FairSource(first.server_seed, live.client_seed, 0))
            live.status = PLAYING
            outcome = Outcome(changed=True)
            if settings["for_balance"]:
                value = int(settings["chip_value"]) * int(settings["stack"])
                hold = vinte_hold_account(live.id)
                outcome.movements = [
                    Movement(_owner(seat), hold, value, "vinte buy-in") for seat in live.seats
                ]
            await asyncio.to_thread(self._play, live, now, outcome)
            return outcome

        async with self.server.write() as session:
            if (
                live.settings["for_balance"]
                and await session.get(LedgerAccount, vinte_hold_account(live.id)) is None
            ):
                await ledger.open_account(
                    session, vinte_hold_account(live.id), HOLD, self.server.now()
                )
        await self._step(live, make)

    async def act(self, table_id: str, user: User, body: ActionBody) -> None:
        live = self.live(table_id)

        async def make(live: Live, now: float) -> Outcome:
            seat = live.seat_of(user.id)
            if seat is None:
                raise marked(403, N_("you have no seat at this table"))
            if body.step is not None and body.step != live.step:
                raise conflict(
                    N_("stale action: the table is at step {step}, not {given}"),
                    step=live.step,
                    given=body.step,
                )
            if live.status != PLAYING or live.state is None:
                raise conflict(
                    N_("the match is not being played: the table is {state}"),
                    state=live.status,
                )
            action = _action_of(body, seat)
            outcome = Outcome()
            if not isinstance(action, ComeBack):
                # Too late: the deadline's default is played (and this is then refused).
                await asyncio.to_thread(self._play, live, now, outcome)
            state = live.state
            assert state is not None
            if state.seats[seat].away and not isinstance(action, ComeBack):
                raise marked(
                    409,
                    N_('your seat is away and played by the bot: send the action "back" first'),
                )
            self._take(live, outcome, apply_events(state, action, now))
            await asyncio.to_thread(self._play, live, now, outcome)
            return outcome

        await self._step(live, make)

    # -------------------------------------------------------------- recovery
    async def _recover(self, table_id: str) -> None:
        async with self.server.read() as session:
            row = await session.get(VinteTableRow, table_id)
            assert row is not None
            open_round = await session.scalar(
                select(VinteRoundRow).where(
                    VinteRoundRow.table_id == table_id, VinteRoundRow.state == OPEN
                )
            )
            held = (
                await ledger.balance(session, vinte_hold_account(table_id))
                if (await session.get(LedgerAccount, vinte_hold_account(table_id)))
                else 0
            )
            live = Live(
                id=row.id,
                name=row.name,
                creator_id=row.creator_id,
                invite=row.invite,
                settings=dict(row.settings),
                seats=list(row.seats),
                client_seed=row.client_seed,
                status=row.status,
                state=None,
                step=row.step,
                created_at=row.created_at,
            )
            stored = row.state
            round_row = (
                None
                if open_round is None
                else (
                    open_round.number,
                    open_round.server_seed,
                    open_round.decks,
                    open_round.deck,
                    open_round.hashes,
                    open_round.scripted,
                )
            )
        self.tables[table_id] = live
        if live.status in (OVER, VOID_TABLE, CLOSED):  # kept for their views and records
            with contextlib.suppress(Exception):
                live.state = match_from_json(stored) if isinstance(stored, dict) else None
            return
        if live.status == WAITING:
            self.recovered[table_id] = "resumed"
            return
        try:
            if not isinstance(stored, dict):
                raise TwentyOneError("the match's stored state is missing")
            state = match_from_json(stored)
            if round_row is not None:
                number, seed, decks, deck, hashes, scripted = round_row
                live.round = RoundInfo(
                    number,
                    seed,
                    live.client_seed,
                    decks,
                    parse_cards(" ".join(deck)),
                    list(hashes),
                    scripted,
                )
                current = state.round
                if (
                    current is not None
                    and current.number == number
                    and current.deck != tuple(live.round.deck[: len(current.deck)])
                ):
                    raise TwentyOneError(
                        f"round {number}: the match's deck is not the one committed"
                    )
            if live.settings["for_balance"]:
                expected = state.total_chips() * int(live.settings["chip_value"])
                if held != expected:
                    raise TwentyOneError(
                        f"the table's hold carries {held}, its chips are worth {expected}"
                    )
        except Exception as error:  # whatever makes it unreadable: JSON, types, money
            reason = str(error) if isinstance(error, TwentyOneError) else repr(error)
            await self._void(live, f"voided at start-up: {reason}")
            self.recovered[table_id] = f"voided: {reason}"
            log.warning("vinte table %s: %s", table_id, reason)
            return
        live.state = state

        async def resume(live: Live, now: float) -> Outcome:
            # A fresh deadline for the decision it waits for (no one is blamed for the outage).
            current = live.state
            assert current is not None
            outcome = Outcome(changed=True)
            if current.deadline is not None:
                live.state = replace(current, deadline=now + _seconds(live))
            await asyncio.to_thread(self._play, live, now, outcome)
            return outcome

        try:
            await self._step(live, resume)
        except Exception as error:  # a state that reads but cannot be played on
            reason = str(error) if isinstance(error, TwentyOneError | ApiError) else repr(error)
            await self._void(live, f"voided at start-up: {reason}")
            self.recovered[table_id] = f"voided: {reason}"
            log.warning("vinte table %s: %s", table_id, reason)
            return
        self.recovered[table_id] = "resumed"

    async def _void(self, live: Live, reason: str) -> None:
        now = self.server.now()
        async with self.server.write() as session:
            refunded = await ledger.refund_hold(
                session, vinte_hold_account(live.id), "vinte void refund", now
            )
            await session.execute(
                update(VinteRoundRow)
                .where(VinteRoundRow.table_id == live.id, VinteRoundRow.state == OPEN)
                .values(state=VOID, settled_at=now)
            )
            await session.execute(
                update(VinteTableRow)
                .where(VinteTableRow.id == live.id)
                .values(status=VOID_TABLE, void_reason=reason[:500], updated_at=now)
            )
            session.add(
                OperatorAction(
                    operator_id=None,
                    at=now,
                    action="void",
                    target=f"vinte-table:{live.id}",
                    details={"reason": reason, "refunded": refunded},
                )
            )
        live.status, live.void_reason, live.state = VOID_TABLE, reason[:500], None


def _seconds(live: Live) -> float:
    return float(live.settings["decision_seconds"])


def _person(user: User) -> dict[str, Any]:
    return {"user_id": user.id, "name": user.name, "bot": False, "account": user.account_id}


def _owner(seat: dict[str, Any] | None) -> str:
    """Whose money a seat's chips are: the person's account, or the house for a bot."""
    if seat is None or seat.get("bot") or not seat.get("account"):
        return HOUSE_ACCOUNT
    return str(seat["account"])


def _record(current: RoundState) -> dict[str, Any]:
    """A settled round, whole (every card: storage and the operator only)."""
    over = next((e for e in current.events if e.kind == "round-over"), None)
    return {
        "number": current.number,
        "banker": current.banker,
        "events": [
            {"kind": e.kind, "seat": e.seat, "public": dict(e.public), "private": e.private}
            for e in current.events
        ],
        "positions": [
            {
                "position": p.position,
                "card": p.card,
                "seat": p.seat,
                "hidden": p.hidden,
                "shown": p.shown,
            }
            for p in positions(current)
        ],
        "nets": dict(over.public.get("nets", {})) if over else {},
        "stacks": list(over.public.get("stacks", [])) if over else [],
    }


def record_view(row: VinteRoundRow, seat: int | None, operator: bool = False) -> dict[str, Any]:
    """A settled round as ``seat`` may see it (the operator: whole, with the seed)."""
    record = row.record or {}
    dealt = [Position(**p) for p in record.get("positions", [])]
    events = [
        Event(e["kind"], e["seat"], e["public"], e["private"]) for e in record.get("events", [])
    ]
    fairness: dict[str, Any] = {
        "commitment": row.commitment,
        "client_seed": row.client_seed,
        "nonce": row.number,
        "decks": row.decks,
        "hashes": list(row.hashes),
        "scripted": row.scripted,
        "revealed": revealed_for(row.server_seed, dealt, seat, operator),
    }
    out: dict[str, Any] = {
        "table": row.table_id,
        "number": row.number,
        "state": row.state,
        "banker": record.get("banker"),
        "seat": seat,
        "created_at": row.created_at,
        "settled_at": row.settled_at,
        "events": [e.full() if operator else e.for_seat(seat) for e in events],
        "nets": record.get("nets", {}),
        "stacks": record.get("stacks", []),
        "fairness": fairness,
    }
    if operator:
        fairness["server_seed"] = row.server_seed
        fairness["deck"] = list(row.deck)
        out["positions"] = list(record.get("positions", []))
    return out


async def _optional_user(request: Request) -> User | None:
    """The caller when he sent a token or cookie (an invalid one is a 401), else None."""
    header = request.headers.get("authorization", "")
    if not header and SESSION_COOKIE not in request.cookies:
        return None
    return await current_user(request)


Viewer = Annotated[User | None, Depends(_optional_user)]


# ------------------------------------------------------------------------------ routes
def install(app: FastAPI, server: Server) -> None:
    """Adds the live Vinte-e-um routes and the ``vinte`` service (docs/vinte-live.md)."""
    service = VinteTables(server)
    server.add_service("vinte", service)

    def _id(user: User | None) -> int | None:
        return None if user is None else user.id

    @app.get("/api/vinte/tables", tags=["vinte"], response_model=list[dict[str, Any]])
    async def vinte_tables() -> Any:
        """The tables waiting for people and the matches in play, newest first."""
        found = [live for live in service.tables.values() if live.status in (WAITING, PLAYING)]
        found.sort(key=lambda live: live.created_at, reverse=True)
        return json_response([service.summary(live) for live in found])

    @app.post("/api/vinte/tables", status_code=201, tags=["vinte"], response_model=dict[str, Any])
    async def vinte_create(body: SettingsBody, user: Player, request: Request) -> Any:
        """A new table: the creator holds seat 0; the answer has the invite link."""
        # Unnamed, it is named in its creator's language (a name is data from then on).
        named = request_translation(request)._("{name}'s table", name=user.name)
        live = await service.create(user, body, named)
        return json_response(service.answer(live, user.id), 201)

    @app.get("/api/vinte/tables/{table_id}", tags=["vinte"], response_model=dict[str, Any])
    async def vinte_table(table_id: TableId, user: Viewer) -> Any:
        """The table and the caller's own seat's view (a spectator's without a seat)."""
        return json_response(service.answer(service.live(table_id), _id(user)))

    @app.post(
        "/api/vinte/tables/{table_id}/seats",
        status_code=201,
        tags=["vinte"],
        response_model=dict[str, Any],
    )
    async def vinte_sit(table_id: TableId, body: SeatBody, user: Player) -> Any:
        """Take a seat with the invite (``seat``, or the first free one)."""
        await service.sit(table_id, user, body)
        return json_response(service.answer(service.live(table_id), user.id), 201)

    @app.delete("/api/vinte/tables/{table_id}/seats", tags=["vinte"], response_model=dict[str, Any])
    async def vinte_leave(table_id: TableId, user: Player) -> Any:
        """Leave one's seat before the match starts."""
        await service.leave(table_id, user)
        return json_response(service.answer(service.live(table_id), user.id))

    @app.delete("/api/vinte/tables/{table_id}", tags=["vinte"], response_model=dict[str, Any])
    async def vinte_close(table_id: TableId, user: Player) -> Any:
        """The creator closes a table before its start (it leaves the list)."""
        await service.close(table_id, user)
        return json_response(service.answer(service.live(table_id), user.id))

    @app.post("/api/vinte/tables/{table_id}/start", tags=["vinte"], response_model=dict[str, Any])
    async def vinte_start(table_id: TableId, user: Player) -> Any:
        """The creator starts the match: bots fill the empty seats, round 1 is dealt."""
        await service.start_match(table_id, user)
        return json_response(service.answer(service.live(table_id), user.id))

    @app.post("/api/vinte/tables/{table_id}/actions", tags=["vinte"], response_model=dict[str, Any])
    async def vinte_action(table_id: TableId, body: ActionBody, user: Player) -> Any:
        """A decision for the caller's own seat: bet, hit, stand, draw, call, back."""
        await service.act(table_id, user, body)
        return json_response(service.answer(service.live(table_id), user.id))

    @app.get("/api/vinte/tables/{table_id}/hint", tags=["vinte"], response_model=dict[str, Any])
    async def vinte_hint_route(table_id: TableId, user: Player) -> Any:
        """The standard bot's choice for the caller's pending decision (when hints are on)."""
        live = service.live(table_id)
        seat = live.seat_of(user.id)
        if seat is None:
            raise marked(403, N_("you have no seat at this table"))
        if not live.settings.get("hints"):
            raise marked(403, N_("hints are off at this table"))
        state = live.state
        if live.status != PLAYING or state is None or seat not in to_act(state):
            raise marked(409, N_("you have no decision to take now"))
        view = view_for(state, seat)
        worker = analysis_worker(server.services)
        answer = await worker.run(vinte_hint, view)
        return json_response({"seat": seat, "step": live.step, **answer})

    async def _round_row(session: AsyncSession, table_id: str, number: int) -> VinteRoundRow:
        row = await session.scalar(
            select(VinteRoundRow).where(
                VinteRoundRow.table_id == table_id, VinteRoundRow.number == number
            )
        )
        if row is None or row.state == OPEN:
            raise not_found(f"settled round {number} at vinte table {table_id!r}")
        return row

    @app.get("/api/vinte/tables/{table_id}/rounds", tags=["vinte"])
    async def vinte_rounds(
        table_id: TableId,
        user: Viewer,
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
    ) -> Any:
        """The table's settled rounds as the caller's seat may see them, newest first."""
        live = service.live(table_id)
        seat = live.seat_of(_id(user))
        async with server.read() as session:
            rows = (
                await session.scalars(
                    select(VinteRoundRow)
                    .where(VinteRoundRow.table_id == table_id, VinteRoundRow.state != OPEN)
                    .order_by(VinteRoundRow.number.desc())
                    .limit(limit)
                )
            ).all()
            return json_response({"rounds": [record_view(row, seat) for row in rows]})

    @app.get("/api/vinte/tables/{table_id}/rounds/{number}", tags=["vinte"])
    async def vinte_round(table_id: TableId, number: RoundId, user: Viewer) -> Any:
        """One settled round as the caller's seat may see it (404 while in play)."""
        live = service.live(table_id)
        async with server.read() as session:
            row = await _round_row(session, table_id, int(number))
            return json_response(record_view(row, live.seat_of(_id(user))))

    @app.get("/api/admin/vinte/tables/{table_id}/rounds/{number}", tags=["operators"])
    async def admin_vinte_round(table_id: TableId, number: RoundId, operator: Operator) -> Any:
        """One round whole: every card and salt, and the round's server seed."""
        async with server.write() as session:
            row = await _round_row(session, table_id, number)
            await server.record_operator_action(
                session, operator, "read vinte round", f"vinte-round:{table_id}:{number}", {}
            )
            return json_response(record_view(row, None, operator=True))

    @app.get("/api/admin/vinte/tables", tags=["operators"])
    async def admin_vinte_tables(operator: Operator) -> Any:
        """Every Vinte-e-um table of this process (every status), newest first."""
        async with server.write() as session:
            await server.record_operator_action(
                session, operator, "list vinte tables", "vinte-tables", {}
            )
        found = sorted(service.tables.values(), key=lambda live: live.created_at, reverse=True)
        return json_response(
            [
                {**service.summary(live), "step": live.step, "watchers": len(live.watchers)}
                for live in found
            ]
        )

    @app.websocket("/api/vinte/tables/{table_id}/stream")
    async def vinte_stream(socket: WebSocket, table_id: str) -> None:
        """The caller's own view at once, then after every step (per-seat frames)."""
        live = service.tables.get(table_id)
        if live is None:
            await socket.close(code=4404)
            return
        user_id = await _socket_user(server, socket)
        await socket.accept()
        watcher = Watcher(socket, user_id)
        # In one go (no await between): the current state is queued before any later change.
        live.watchers.add(watcher)
        watcher.send(_dumps(service.frame(live, live.seat_of(user_id), [])))
        writer = asyncio.create_task(watcher.write())
        try:
            await answer_pings(socket, watcher)
        except (WebSocketDisconnect, RuntimeError, KeyError):
            pass  # gone, or sent something that is not a text frame
        finally:
            live.watchers.discard(watcher)
            watcher.drop()
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer


__all__ = ["SettingsBody", "VinteTables", "check_settings", "install", "record_view"]
