"""Connecting to the database and bringing its schema up to date (Alembic, at start-up).

``sqlite:///path`` and ``postgresql://...`` URLs are accepted as well as their async forms;
they are turned into the async drivers (aiosqlite, asyncpg).

>>> async_url("sqlite:///twentyone.db")
'sqlite+aiosqlite:///twentyone.db'
>>> async_url("postgresql://127.0.0.1/test")
'postgresql+asyncpg://127.0.0.1/test'
>>> async_url("mysql://x")
Traceback (most recent call last):
...
twentyone.storage.db.StorageError: unsupported database URL 'mysql://x': use sqlite:///FILE or postgresql://HOST/DB
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, CursorResult, Engine
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.ext.asyncio import AsyncSession as AsyncSession
from sqlalchemy.sql.base import Executable

from twentyone.errors import TwentyOneError

#: The default database: a SQLite file in the working folder.
DEFAULT_URL = "sqlite:///twentyone.db"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class StorageError(TwentyOneError):
    """A database URL that cannot be used, or a database that cannot be read."""


def async_url(url: str) -> str:
    """The async-driver form of a SQLite or PostgreSQL URL."""
    for prefix, driver in (
        ("sqlite+aiosqlite://", "sqlite+aiosqlite://"),
        ("sqlite://", "sqlite+aiosqlite://"),
        ("postgresql+asyncpg://", "postgresql+asyncpg://"),
        ("postgresql://", "postgresql+asyncpg://"),
        ("postgres://", "postgresql+asyncpg://"),
    ):
        if url.startswith(prefix):
            return driver + url[len(prefix) :]
    raise StorageError(
        f"unsupported database URL {url!r}: use sqlite:///FILE or postgresql://HOST/DB"
    )


def is_sqlite(engine: AsyncEngine) -> bool:
    return engine.dialect.name == "sqlite"


class StepConnection(Protocol):
    """What a game step's Core statements run on: an :class:`AsyncConnection` (PostgreSQL), or
    the SQLite group writer's connection (:class:`SyncStepConnection`), inside a transaction
    (or a savepoint) the caller owns."""

    async def execute(
        self, statement: Executable, parameters: Any = None
    ) -> CursorResult[*tuple[Any, ...]]:
        """Run one statement."""

    async def scalar(self, statement: Executable, parameters: Any = None) -> Any:
        """Run one statement; the first column of its first row."""


class SyncStepConnection:
    """A :class:`StepConnection` over a synchronous connection: its awaits never suspend, so a
    step written as a coroutine runs to its end in one go (see :func:`run_unsuspended`)."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    async def execute(
        self, statement: Executable, parameters: Any = None
    ) -> CursorResult[*tuple[Any, ...]]:
        return self.connection.execute(statement, parameters)

    async def scalar(self, statement: Executable, parameters: Any = None) -> Any:
        return self.connection.scalar(statement, parameters)


def run_unsuspended(coroutine: Any) -> Any:
    """Run a coroutine that never suspends (it awaits only a :class:`SyncStepConnection`) to its
    end, without an event loop, and return its value; one that suspends is a bug (refused).

    >>> async def add(a: int, b: int) -> int:
    ...     return a + b
    >>> run_unsuspended(add(2, 3))
    5
    """
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise RuntimeError("a step run by the group writer waited on something: it must not")


def sqlite_file(url: str) -> str | None:
    """The file of a SQLite URL (None: not SQLite, or an in-memory database).

    >>> sqlite_file("sqlite:///data/twentyone.db")
    'data/twentyone.db'
    >>> sqlite_file("sqlite:///:memory:") is None, sqlite_file("postgresql://h/db") is None
    (True, True)
    """
    full = async_url(url)
    prefix = "sqlite+aiosqlite:///"
    if not full.startswith(prefix):
        return None
    path = full[len(prefix) :].split("?", 1)[0]
    return None if path in ("", ":memory:") or path.startswith("file:") else path


def make_sqlite_writer(url: str) -> Engine | None:
    """A synchronous engine on a SQLite file for the server's group writer (None: not a SQLite
    file). Its connections are used from the event loop's thread and, for the commit (its
    fsync), from a worker thread, one at a time: ``check_same_thread`` is off. The driver's
    own transaction handling is off (it cannot nest SAVEPOINTs): every transaction starts
    ``BEGIN IMMEDIATE``, taking SQLite's write lock at once."""
    path = sqlite_file(url)
    if path is None:
        return None
    engine = create_engine(
        f"sqlite+pysqlite:///{path}",
        connect_args={"check_same_thread": False},
        pool_reset_on_return=None,
    )

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, record: Any) -> None:
        dbapi_connection.isolation_level = None
        _sqlite_pragmas(dbapi_connection, record)

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def make_engine(url: str, schema: str | None = None, pool_size: int = 20) -> AsyncEngine:
    """An async engine; ``schema`` (PostgreSQL) puts every table in that schema (tests)."""
    full = async_url(url)
    kwargs: dict[str, Any] = {}
    if full.startswith("postgresql"):
        settings = {"search_path": schema} if schema else {}
        kwargs["connect_args"] = {"server_settings": settings}
        kwargs["pool_size"] = pool_size
        kwargs["max_overflow"] = pool_size
    # Every use of a connection ends its transaction (``begin()`` blocks), so the pool's
    # rollback on return would be a second, empty one: a round trip per request saved.
    engine = create_async_engine(full, pool_reset_on_return=None, **kwargs)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL: readers never wait for the writer; synchronous=FULL: an acknowledged step survives
    # a power cut as well as a killed process; foreign keys are off by default in SQLite.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def session_maker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


def _alembic(connection: Connection, direction: str, revision: str) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    (command.upgrade if direction == "up" else command.downgrade)(config, revision)


async def migrate(engine: AsyncEngine, revision: str = "head") -> None:
    """Run every Alembic migration not yet applied (the server does this at start-up)."""
    async with engine.begin() as connection:
        await connection.run_sync(_alembic, "up", revision)


async def downgrade(engine: AsyncEngine, revision: str = "base") -> None:
    """Undo migrations down to ``revision`` (``base``: an empty database)."""
    async with engine.begin() as connection:
        await connection.run_sync(_alembic, "down", revision)
