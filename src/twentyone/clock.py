"""One clock for every table: time is injected, never read by a game.

Games take a ``now`` (seconds, a float on one monotonic scale) from whoever drives them; table
runners hold a :class:`Clock`. Production uses :class:`SystemClock`; tests and replays use
:class:`ManualClock`, which moves only when told, so every deadline in a test is deterministic.

>>> clock = ManualClock()
>>> clock.now()
0.0
>>> clock.advance(31.5); clock.now()
31.5
>>> ManualClock(10**400)
Traceback (most recent call last):
...
twentyone.clock.ClockError: a time must be a finite number of seconds within 10^12, not 1000...
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


#: Times and steps are bounded (about 31,700 years) so that no arithmetic on them can overflow.
MAX_SECONDS = 1e12


def _seconds(value: object) -> float:
    # Compare before converting: float(10**400) itself raises OverflowError.
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not -MAX_SECONDS <= value <= MAX_SECONDS
        or not math.isfinite(value)
    ):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise ClockError(f"a time must be a finite number of seconds within 10^12, not {shown}")
    return float(value)
