"""One clock for every table: time is injected, never read by a game.

Games take a ``now`` (seconds, a float on one monotonic scale) from whoever drives them; table
runners hold a :class:`Clock`. Production uses :class:`SystemClock`; tests and replays use
:class:`ManualClock`, which moves only when told, so every deadline in a test is deterministic.

>>> clock = ManualClock()
>>> clock.now()
0.0
>>> clock.advance(31.5); clock.now()
31.5
>>> clock.advance(-1)
Traceback (most recent call last):
...
twentyone.clock.ClockError: a clock does not go backwards (advance by -1)
"""

from __future__ import annotations

import math
import time
from typing import Protocol, runtime_checkable

from twentyone.errors import TwentyOneError

__all__ = ["Clock", "ClockError", "ManualClock", "SystemClock"]


class ClockError(TwentyOneError):
    """A manual clock was asked to move backwards or by a value that is not a finite number."""


@runtime_checkable
class Clock(Protocol):
    """Anything that tells the time in seconds on a monotonic scale."""

    def now(self) -> float: ...


class SystemClock:
    """The machine's monotonic clock (production)."""

    def now(self) -> float:
        return time.monotonic()


class ManualClock:
    """A clock that moves only when told (tests, simulations, replays)."""

    __slots__ = ("_now",)

    def __init__(self, start: float = 0.0) -> None:
        self._now = _seconds(start)

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        step = _seconds(seconds)
        if step < 0:
            raise ClockError(f"a clock does not go backwards (advance by {seconds!r})")
        self._now += step

    def set(self, now: float) -> None:
        """Move to ``now`` (not earlier than the current time)."""
        self.advance(_seconds(now) - self._now)


def _seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ClockError(f"a time must be a finite number of seconds, not {value!r}")
    return float(value)
