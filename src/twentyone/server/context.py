"""What every request of every part of the API needs: the :class:`Server` (engine, sessions,
settings, the write lock, the services it runs), who is asking (:func:`current_user`), and the
path and query types shared by the routers (``app.py`` and the modules it includes)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any, Protocol, TypeVar

from fastapi import Depends, Path, Query, Request, Response
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker

from twentyone.server import online
from twentyone.server.config import ServerConfig
from twentyone.server.errors import ApiError, unprocessable
from twentyone.server.group_commit import GroupCommit
from twentyone.storage import ledger
from twentyone.storage.db import (
    StepConnection,
    is_sqlite,
    make_engine,
    make_sqlite_writer,
    migrate,
    session_maker,
)
from twentyone.storage.models import AuthToken, OperatorAction, User

log = logging.getLogger("twentyone.server")

SESSION_COOKIE = "twentyone_session"
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,31}")
PASSWORD_MIN, PASSWORD_MAX = 8, 256
PAGE_MAX = 100
#: How long a checked token is trusted without reading it again (a sign-out in this process
#: forgets it at once; another process's sign-out is seen within this time).
TOKEN_CACHE_SECONDS = 30.0
TOKEN_CACHE_SIZE = 10_000
GAME_CACHE_SIZE = 10_000
#: Database connections one process uses at most (PostgreSQL; the pool's size and overflow).
#: More is slower here: with 40, 200 players at 2 s got p99 29-177 ms (bimodal), with 16 p99
#: 28-47 ms (docs/server.md, "Benchmark"). Each transaction in flight waits for its turns on
#: the one event loop with its rows locked; fewer at once finish sooner, the rest queue fairly.
POOL_CONNECTIONS = 16

T = TypeVar("T")


class Service(Protocol):
    """Something a router runs for the server's whole life (a table runner, a worker pool)."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class Server:
    """What every request needs: the engine, the sessions, the settings, the write lock."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.engine: AsyncEngine = make_engine(
            config.db_url, config.db_schema, pool_size=POOL_CONNECTIONS // 2
        )
        self.sessions: async_sessionmaker[AsyncSession] = session_maker(self.engine)
        self._write_lock = asyncio.Lock() if is_sqlite(self.engine) else None
        #: A SQLite file: the game steps are group-committed (many in one transaction, one
        #: fsync) by one writer; the other writes take turns with it on the write lock.
        writer = make_sqlite_writer(config.db_url) if self._write_lock is not None else None
        self.group: GroupCommit | None = (
            None
            if writer is None or self._write_lock is None
            else GroupCommit(writer, self._write_lock)
        )
        #: PostgreSQL: requests queue here, first come first served, for one of the pool's
        #: connections (the pool's own wait is not fair: under load some requests waited
        #: ten seconds while later ones were served).
        self._slots = None if is_sqlite(self.engine) else asyncio.Semaphore(POOL_CONNECTIONS)
        self.recovered: dict[str, list[int]] = {"resumed": [], "voided": []}
        #: token hash -> (its account as last read, valid until): saves two reads a request.
        #: Only the account's id, name, role and ledger account are read from it.
        self.token_cache: dict[str, tuple[User, float]] = {}
        #: Open rounds as this process left them after their last committed step.
        self.games: dict[int, online.Loaded] = {}
        #: What the routers run beside the requests (table runners, the analysis worker),
        #: started after the database is ready and stopped in reverse order.
        self.services: dict[str, Service] = {}

    def add_service(self, name: str, service: Service) -> None:
        if name in self.services:
            raise ValueError(f"a service named {name!r} is already installed")
        self.services[name] = service

    def keep_game(self, loaded: online.Loaded) -> None:
        if loaded.row.state != "open":
            self.games.pop(loaded.row.id, None)
            return
        if len(self.games) >= GAME_CACHE_SIZE:
            self.games.clear()
        self.games[loaded.row.id] = loaded

    def now(self) -> float:
        return self.config.clock.now()

    async def record_operator_action(
        self,
        session: AsyncSession,
        operator: User | None,
        action: str,
        target: str,
        details: dict[str, Any],
    ) -> None:
        """One row of the operators' own record (``operator`` None: the server itself)."""
        session.add(
            OperatorAction(
                operator_id=None if operator is None else operator.id,
                at=self.now(),
                action=action,
                target=target,
                details=details,
            )
        )
        await session.flush()

    async def start(self) -> None:
        await migrate(self.engine)
        async with self.write() as session:
            now = self.now()
            await ledger.ensure_house_accounts(session, now)
            await online.ensure_default_table(session, now)
        if self.config.recover_at_start:
            async with self.write() as session:
                self.recovered = await online.recover(session, self.now())
            if self.recovered["voided"]:
                log.warning("voided unreadable rounds at start-up: %s", self.recovered["voided"])
        for service in self.services.values():
            await service.start()

    def settle_heap(self) -> None:
        """Once started (the serving process, not the tests' servers): what is alive now (the
        modules, the app, its statements) lives as long as the process, so it is moved out of
        the cyclic collector's sight (``gc.freeze``). A full collection walked all of it: 120
        to 175 ms during which every request waited (the slow bunches of bench/server.py),
        3 to 24 ms once frozen."""
        gc.collect()
        gc.freeze()

    async def stop(self) -> None:
        try:
            for service in reversed(list(self.services.values())):
                await service.stop()
        finally:
            if self.group is not None:
                await self.group.close()
            await self.engine.dispose()

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """One transaction that writes: committed when the block ends, rolled back on error."""
        lock = self._write_lock or self._slots
        if lock is not None:
            await lock.acquire()
        try:
            async with self.sessions() as session, session.begin():
                yield session
        finally:
            if lock is not None:
                lock.release()

    @contextlib.asynccontextmanager
    async def write_connection(self) -> AsyncIterator[AsyncConnection]:
        """:meth:`write` on a plain connection (Core statements, no ORM): the hot path."""
        lock = self._write_lock or self._slots
        if lock is not None:
            await lock.acquire()
        try:
            async with self.engine.begin() as connection:
                yield connection
        finally:
            if lock is not None:
                lock.release()

    async def step(self, make: Callable[[StepConnection], Awaitable[T]]) -> T:
        """One game step (Core statements), durable when this returns: on a SQLite file made
        in the next group commit (:mod:`twentyone.server.group_commit`), else in its own
        transaction. ``make`` may raise to refuse the step: nothing of it is kept."""
        if self.group is not None:
            return await self.group.run(make)
        async with self.write_connection() as connection:
            return await make(connection)

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        slots = self._slots
        if slots is not None:
            await slots.acquire()
        try:
            async with self.sessions() as session, session.begin():
                yield session
        finally:
            if slots is not None:
                slots.release()


def json_response(content: Any, status_code: int = 200) -> Response:
    """A JSON answer encoded once, straight from the dict (FastAPI's generic path validates
    and walks the returned dict before encoding it: a third of a round view's cost)."""
    return Response(
        json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode(),
        status_code=status_code,
        media_type="application/json",
    )


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def name_key(name: str) -> str:
    return name.casefold()


def page_limit(limit: int) -> int:
    if not 1 <= limit <= PAGE_MAX:
        raise unprocessable(f"limit must be 1 to {PAGE_MAX}, got {limit}")
    return limit


# ----------------------------------------------------------------- who is asking
async def current_user(request: Request) -> User:
    """The account a request acts for: its bearer token, else its session cookie."""
    server: Server = request.app.state.server
    header = request.headers.get("authorization", "")
    token = None
    if header.lower().startswith("bearer "):
        token = header[7:].strip()
    elif SESSION_COOKIE in request.cookies:
        token = request.cookies[SESSION_COOKIE]
    if not token:
        raise ApiError(401, "sign in first: a bearer token or a session cookie is needed")
    hashed = token_hash(token)
    now = server.now()
    cached = server.token_cache.get(hashed)
    if cached is not None and cached[1] > now:
        return cached[0]
    async with server.read() as session:
        found = await session.get(AuthToken, hashed)
        if found is None or (found.expires_at is not None and found.expires_at < now):
            raise ApiError(401, "the token or session is not valid (sign in again)")
        user = await session.get(User, found.user_id)
    if user is None:  # pragma: no cover - foreign key
        raise ApiError(401, "the token or session is not valid (sign in again)")
    if len(server.token_cache) >= TOKEN_CACHE_SIZE:
        server.token_cache.clear()
    until = now + TOKEN_CACHE_SECONDS
    if found.expires_at is not None:
        until = min(until, found.expires_at)
    server.token_cache[hashed] = (user, until)
    return user


async def current_operator(user: Annotated[User, Depends(current_user)]) -> User:
    if user.role != "operator":
        raise ApiError(403, "this needs an operator account")
    return user


#: Ids in paths and cursors: what a 32-bit database integer holds (a larger one is a 422).
MAX_ID = 2**31 - 1
RoundId = Annotated[int, Path(ge=1, le=MAX_ID)]
Cursor = Annotated[int | None, Query(ge=1, le=MAX_ID)]
TableId = Annotated[str, Path(pattern="^[a-z0-9_-]{1,32}$")]
#: A time in a search (epoch seconds; the latest, 1e11, is the year 5138: beyond it is a typo).
MAX_TIME = 1e11
Time = Annotated[float | None, Query(ge=0, le=MAX_TIME, allow_inf_nan=False)]
Player = Annotated[User, Depends(current_user)]
Operator = Annotated[User, Depends(current_operator)]
