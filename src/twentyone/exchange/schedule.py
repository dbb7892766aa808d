"""Round timing for an Exchange Blackjack table, driven by an injected clock.

The schedule is data: how long each betting round stays open and how long the cards are shown
between rounds. :class:`RoundTimer` turns it into deadlines on whatever clock it is given, so a
server passes ``time.monotonic`` and a test passes a :class:`ManualClock` and runs a whole
game in milliseconds.

>>> clock = ManualClock()
>>> timer = RoundTimer(STANDARD, clock)
>>> timer.open(1)
>>> timer.remaining(), timer.expired()
(30.0, False)
>>> clock.advance(30.0)
>>> timer.expired()
True
>>> timer.pause_after()
>>> clock.advance(2.0); timer.pause_over()
False
>>> clock.advance(1.0); timer.pause_over()
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from twentyone.errors import InvalidRulesError
from twentyone.exchange.game import Event, ExchangeGame

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class RoundSchedule:
    """Seconds each betting round stays open, and the playing pause between rounds."""

    first_round: float
    later_rounds: float
    pause: float = 3.0

    def __post_init__(self) -> None:
        for name in ("first_round", "later_rounds", "pause"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise InvalidRulesError(f"{name} must be a number of seconds >= 0, got {value!r}")
        if self.first_round <= 0 or self.later_rounds <= 0:
            raise InvalidRulesError("betting rounds must last longer than 0 seconds")

    def length(self, round_number: int) -> float:
        if not 1 <= round_number <= 6:
            raise InvalidRulesError(f"an exchange game has rounds 1 to 6, not {round_number}")
        return float(self.first_round if round_number == 1 else self.later_rounds)


#: Standard tables: 30 s for round 1, 25 s after.
STANDARD = RoundSchedule(first_round=30.0, later_rounds=25.0)
#: Turbo tables: 22 s and 18 s (the operator's figures for a sister game; indicative).
TURBO = RoundSchedule(first_round=22.0, later_rounds=18.0)
SCHEDULES: dict[str, RoundSchedule] = {"standard": STANDARD, "turbo": TURBO}


class ManualClock:
    """A clock that moves only when told (tests, replays)."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a clock does not go backwards")
        self.now += seconds


class RoundTimer:
    """Deadlines of the open round and of the pause after it, on an injected clock."""

    def __init__(self, schedule: RoundSchedule, clock: Clock) -> None:
        self.schedule = schedule
        self.clock = clock
        self.round: int | None = None
        self.closes_at: float | None = None
        self.pause_ends_at: float | None = None

    def open(self, round_number: int) -> None:
        self.round = round_number
        self.closes_at = self.clock() + self.schedule.length(round_number)
        self.pause_ends_at = None

    def remaining(self) -> float:
        """Seconds left in the open round (for the progress bar; indicative only)."""
        if self.closes_at is None:
            return 0.0
        return max(0.0, self.closes_at - self.clock())

    def progress(self) -> float:
        """Share of the open round gone, 0.0 to 1.0."""
        if self.round is None:
            return 1.0
        return 1.0 - self.remaining() / self.schedule.length(self.round)

    def expired(self) -> bool:
        return self.closes_at is not None and self.clock() >= self.closes_at

    def pause_after(self) -> None:
        """The round has closed and its cards are turned: start the playing pause."""
        self.closes_at = None
        self.pause_ends_at = self.clock() + self.schedule.pause

    def pause_over(self) -> bool:
        return self.pause_ends_at is not None and self.clock() >= self.pause_ends_at


class TableLoop:
    """Drives one game by the clock: call :meth:`tick` as often as you like.

    >>> from twentyone.exchange.game import ExchangeGame
    >>> from twentyone.randomness import SeededRandomSource
    >>> from twentyone.shoe import InfiniteShoe
    >>> clock = ManualClock()
    >>> loop = TableLoop(ExchangeGame(InfiniteShoe(SeededRandomSource(3))), STANDARD, clock)
    >>> while not loop.finished:
    ...     _ = loop.tick(); clock.advance(1.0)
    >>> loop.game.over, clock() >= 30 + 3
    (True, True)
    """

    def __init__(self, game: ExchangeGame, schedule: RoundSchedule, clock: Clock) -> None:
        self.game = game
        self.timer = RoundTimer(schedule, clock)
        if game.open_round is not None:
            self.timer.open(game.open_round)

    @property
    def finished(self) -> bool:
        """The game is settled and its last cards have been shown for the pause."""
        return self.game.over and self.timer.pause_over()

    def tick(self) -> list[Event]:
        """End the open round when its time is up; open the next once the pause is over."""
        if self.game.open_round is not None and self.timer.closes_at is not None:
            if self.timer.expired():
                events = self.game.end_round()
                self.timer.pause_after()
                return events
            return []
        if self.timer.pause_over() and self.game.open_round is not None:
            self.timer.open(self.game.open_round)
        return []
