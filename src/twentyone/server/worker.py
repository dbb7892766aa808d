"""The analysis worker: heavy computations (exact analysis, strategy charts, hand calculator,
simulations) run in a separate process, never on the server's event loop.

:class:`AnalysisWorker` is a server service (``server.services["analysis"]``): a process pool
(``spawn``: a clean interpreter, no copy of the event loop's state) with a small cache of
finished answers keyed by the function and its arguments, so the same rules asked twice are
computed once. Functions must be importable top-level functions of plain, picklable
arguments (rules as their JSON, cards as text) returning JSON-ready values.

>>> import asyncio, operator
>>> async def demo() -> int:
...     worker = AnalysisWorker(processes=1)
...     await worker.start()
...     try:
...         return await worker.run(operator.add, 2, 3)
...     finally:
...         await worker.stop()
>>> asyncio.run(demo())
5
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

#: How many finished answers are kept (each a few kilobytes of JSON).
CACHE_SIZE = 256


class AnalysisWorker:
    """A process pool for the analysis, with a cache of answers (see the module)."""

    def __init__(self, processes: int = 1, cache_size: int = CACHE_SIZE) -> None:
        self.processes = processes
        self.cache_size = cache_size
        self._pool: ProcessPoolExecutor | None = None
        self._cache: OrderedDict[Hashable, Any] = OrderedDict()
        #: The same question asked again while it is being computed waits for that answer.
        self._running: dict[Hashable, asyncio.Future[Any]] = {}

    async def start(self) -> None:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(self.processes, mp_context=context)

    async def stop(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in the pool, not cached."""
        if self._pool is None:
            await self.start()
        assert self._pool is not None
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, function, *args)

    async def cached(self, function: Callable[..., T], *args: Hashable) -> T:
        """``function(*args)`` in the pool, answered from the cache when asked before."""
        key = (function.__module__, function.__qualname__, args)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]  # type: ignore[no-any-return]
        if key in self._running:
            return await asyncio.shield(self._running[key])
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._running[key] = future
        try:
            answer = await self.run(function, *args)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: no "never retrieved" warning when nobody waits
            raise
        else:
            future.set_result(answer)
            self._cache[key] = answer
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
            return answer
        finally:
            del self._running[key]


def analysis_worker(server_services: dict[str, Any]) -> AnalysisWorker:
    """The server's worker (installed by :mod:`twentyone.server.lab`), for any router."""
    worker = server_services.get("analysis")
    if not isinstance(worker, AnalysisWorker):
        raise LookupError("the analysis worker is not installed")
    return worker
