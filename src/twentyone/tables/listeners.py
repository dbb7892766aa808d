"""Events out of a table runner: a list of subscribers, each called with every event in order.

A runner never prints and never waits: whoever shows the table (the terminal, the server's
WebSocket fan-out, a test) subscribes a callback and is handed each :class:`TableEvent` as it
happens, in the order the runner produced them.

>>> listeners = Listeners()
>>> seen = []
>>> stop = listeners.subscribe(seen.append)
>>> listeners.emit(TableEvent("round-opened", 1, {"bets": [100]}))
>>> stop()
>>> listeners.emit(TableEvent("round-opened", 2))
>>> [(event.kind, event.round) for event in seen]
[('round-opened', 1)]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Listener", "Listeners", "TableEvent"]


@dataclass(frozen=True, slots=True)
class TableEvent:
    """One thing that happened at a table.

    ``kind`` names it (each runner documents its kinds); ``round`` is the runner's round (or
    game) number, ``None`` for session events; ``data`` is the game's own immutable event
    record for ``kind == "game"``, otherwise a small mapping or ``None``; ``at`` is the time on
    the runner's injected clock.
    """

    kind: str
    round: int | None = None
    data: Any = None
    at: float = 0.0  # the runner's clock when it happened


Listener = Callable[[TableEvent], None]


class Listeners:
    """Subscribers of a runner, called in the order they subscribed."""

    __slots__ = ("_listeners",)

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every later event; returns the function that unsubscribes it."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def emit(self, event: TableEvent) -> None:
        for listener in tuple(self._listeners):
            listener(event)
