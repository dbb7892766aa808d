"""The clock of the live-table services (Casino, Exchange, Vinte-e-um): each calls its
``tick()`` every :data:`TICK_SECONDS` on the real clock, and closes its watchers' sockets when
the server stops.

Under a :class:`~twentyone.clock.ManualClock` (the tests) no loop runs: the test moves the
clock and awaits ``tick()`` itself (``POST /api/test/tick``), so every deadline is processed
exactly when the test says.

>>> import asyncio
>>> from twentyone.clock import ManualClock
>>> async def tick() -> int:
...     return 0
>>> clock = TickLoop("example", tick)
>>> clock.start(ManualClock(), None), clock.running
(None, False)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from twentyone.clock import Clock, ManualClock

log = logging.getLogger(__name__)

#: How often a live-table service looks for deadlines that have passed.
TICK_SECONDS = 0.2


class TickLoop:
    """Calls ``tick`` every :data:`TICK_SECONDS` until stopped; a failing pass is logged and
    the next one runs (a fault of one pass must not stop the tables' clock)."""

    def __init__(self, name: str, tick: Callable[[], Awaitable[Any]]) -> None:
        self.name = name
        self._tick = tick
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None

    def start(self, clock: Clock, run: bool | None) -> None:
        """Start the loop: when ``run`` says so, or by default unless the clock is a test's."""
        if run is None:
            run = not isinstance(clock, ManualClock)
        if run and self._task is None:
            self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            try:
                await self._tick()
            except Exception:
                log.exception("%s tick failed", self.name)


async def close_watchers(watchers: Iterable[Any]) -> None:
    """Mark every watcher dropped and close its socket ("going away")."""
    for watcher in list(watchers):
        watcher.dropped = True
        with contextlib.suppress(Exception):
            await watcher.socket.close(code=1001)


async def answer_pings(socket: Any, watcher: Any) -> None:
    """Read a watcher's socket until it is dropped, answering each ``{"type": "ping"}`` with a
    pong (anything else a client sends is ignored); a disconnect raises out of here."""
    while not watcher.dropped:
        text = await socket.receive_text()
        try:
            message = json.loads(text)
        except ValueError:
            message = None
        if isinstance(message, dict) and message.get("type") == "ping":
            watcher.send('{"type":"pong"}')
