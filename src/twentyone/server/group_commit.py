"""Group commit for SQLite: the game steps waiting to be written, made in one transaction.

SQLite has one writer at a time and every commit ends in an fsync (``synchronous=FULL``: an
acknowledged step survives a power cut). Written one transaction per request, through
aiosqlite, a step held the write lock across a dozen hand-offs to the driver's thread, each
waiting for the event loop to come round again, while every other request's work ran in
between: under 200 players the lock, not the CPU, was the limit (a step held it about 9 ms
for 2 to 3 ms of its own work, and the queue in front of it was the p99).

:class:`GroupCommit` writes differently. A request hands its step (a coroutine function of a
:class:`~twentyone.storage.db.StepConnection`) to :meth:`GroupCommit.run` and waits. One
drain task takes every step waiting, opens ONE transaction on a synchronous connection
(``BEGIN IMMEDIATE``), makes each step in its own ``SAVEPOINT`` straight through, without
giving the event loop away (its statements are microseconds of SQLite each), commits once
(the fsync in a worker thread, so the loop goes on reading requests meanwhile: they form the
next batch) and only then answers each request: its value, or its own error.

- A step that raises is rolled back to its savepoint: it leaves no trace and its request gets
  its own error (a 4xx); the others in the batch commit.
- Nobody is answered before the commit: an acknowledged step is as durable as before. If the
  commit fails, every request of the batch gets that error and nothing of it is kept.
- The ORM writes (accounts, operators, the Casino tables) keep their own transactions through
  aiosqlite; they and the batches take turns on one lock (:attr:`GroupCommit.lock`), so SQLite
  never sees two writers of this process at once.

>>> import asyncio, tempfile, pathlib
>>> from sqlalchemy import text
>>> from twentyone.storage.db import make_sqlite_writer
>>> async def demo(folder: str) -> list[object]:
...     engine = make_sqlite_writer(f"sqlite:///{pathlib.Path(folder) / 'demo.db'}")
...     writes = GroupCommit(engine, asyncio.Lock())
...     async def create(c):
...         await c.execute(text("CREATE TABLE t (x INTEGER CHECK (x > 0))"))
...     await writes.run(create)
...     def add(x):
...         async def step(c):
...             await c.execute(text("INSERT INTO t VALUES (:x)"), {"x": x})
...             return await c.scalar(text("SELECT count(*) FROM t"))
...         return step
...     answers = await asyncio.gather(  # three steps, one transaction: the -1 is refused
...         *(writes.run(add(x)) for x in (1, -1, 2)), return_exceptions=True
...     )
...     await writes.close()
...     return [a if isinstance(a, int) else type(a).__name__ for a in answers], writes.batches
>>> with tempfile.TemporaryDirectory() as folder:
...     asyncio.run(demo(folder))
([1, 'IntegrityError', 2], 2)
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.engine import Connection, Engine

from twentyone.storage.db import StepConnection, SyncStepConnection, run_unsuspended

T = TypeVar("T")

#: Steps one transaction takes at most (a bound on how long the first of them waits).
MAX_BATCH = 64
#: A batch gives the event loop a turn after this much of its steps' work (seconds), so that
#: a large batch does not hold up the reads, the WebSocket frames and the parsing of the
#: next requests meanwhile (its transaction stays open; its lock is held).
YIELD_SECONDS = 0.005


@dataclass
class _Waiting:
    step: Callable[[StepConnection], Awaitable[Any]]
    answer: asyncio.Future[Any]


async def _uncancelled(work: Awaitable[None]) -> bool:
    """Await ``work`` to its end even if cancelled meanwhile (a commit under way in its thread
    goes on regardless: its outcome decides the answers). True if a cancellation came."""
    task = asyncio.ensure_future(work)
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            cancelled = True
    task.result()  # the commit's own failure, if any
    return cancelled


class GroupCommit:
    """The SQLite writer of one server process: batches of steps, one commit each."""

    def __init__(self, engine: Engine, lock: asyncio.Lock, max_batch: int = MAX_BATCH) -> None:
        self.engine = engine
        #: Taken for every batch and by every other writer of the process.
        self.lock = lock
        self.max_batch = max_batch
        self._waiting: collections.deque[_Waiting] = collections.deque()
        self._drain: asyncio.Task[None] | None = None
        self._connection: Connection | None = None
        #: Batches and steps committed (for the bench and the tests).
        self.batches = 0
        self.steps = 0

    async def run(self, step: Callable[[StepConnection], Awaitable[T]]) -> T:
        """Make ``step`` in the next batch; its value once that batch has committed."""
        answer: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._waiting.append(_Waiting(step, answer))
        if self._drain is None or self._drain.done():
            self._drain = asyncio.create_task(self._run_batches())
        return await answer

    async def _run_batches(self) -> None:
        while self._waiting:
            async with self.lock:
                # The steps that arrived while the lock was taken (or the last batch's fsync
                # ran) are all here now: they go together.
                batch: list[_Waiting] = []
                while self._waiting and len(batch) < self.max_batch:
                    waiting = self._waiting.popleft()
                    if not waiting.answer.done():  # a request given up before its turn
                        batch.append(waiting)
                if batch:
                    await self._commit(batch)

    async def _commit(self, batch: list[_Waiting]) -> None:
        answers: list[tuple[_Waiting, Any, BaseException | None]] = []
        try:
            if self._connection is None:
                self._connection = self.engine.connect()
            connection = self._connection
            steps = SyncStepConnection(connection)
            transaction = connection.begin()
            loop = asyncio.get_running_loop()
            mark = loop.time()
            try:
                for waiting in batch:
                    if loop.time() - mark > YIELD_SECONDS:
                        await asyncio.sleep(0)
                        mark = loop.time()
                    savepoint = connection.begin_nested()
                    try:
                        value = run_unsuspended(waiting.step(steps))
                    except Exception as error:
                        savepoint.rollback()
                        answers.append((waiting, None, error))
                    else:
                        savepoint.commit()
                        answers.append((waiting, value, None))
                # The fsync, off the event loop: the loop reads the next batch's requests.
                cancelled = await _uncancelled(asyncio.to_thread(transaction.commit))
            except BaseException:
                if transaction.is_active:
                    transaction.rollback()
                raise
        except BaseException as error:
            # Nothing of the batch is kept: everybody gets the failure (a broken connection
            # is thrown away; the next batch opens a new one).
            self._discard()
            for waiting in batch:
                if waiting.answer.done():
                    continue
                if isinstance(error, asyncio.CancelledError):
                    waiting.answer.cancel()
                else:
                    waiting.answer.set_exception(error)
            if isinstance(error, asyncio.CancelledError):
                raise
            return
        self.batches += 1
        self.steps += len(batch)
        for waiting, value, failure in answers:
            if waiting.answer.done():  # its request was cancelled: the step stands
                continue
            if failure is None:
                waiting.answer.set_result(value)
            else:
                waiting.answer.set_exception(failure)
        if cancelled:  # the server is stopping: the batch committed and was answered
            raise asyncio.CancelledError

    def _discard(self) -> None:
        if self._connection is not None:
            connection, self._connection = self._connection, None
            try:
                connection.invalidate()
                connection.close()
            except Exception:  # pragma: no cover - already broken
                pass

    async def close(self) -> None:
        """Finish the batches under way, then close the connection and the engine."""
        while self._drain is not None and not self._drain.done():
            await asyncio.shield(self._drain)
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        self.engine.dispose()
