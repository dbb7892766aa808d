"""Round timing for an Exchange Blackjack table: how long each betting round stays open.

The schedule is data: how long each betting round stays open and how long the cards are shown
between rounds. The table runner (:class:`twentyone.tables.exchange.ExchangeRunner`) turns it
into deadlines on whatever :class:`~twentyone.clock.Clock` it is given, so a server passes the
system clock and a test a manual one and runs a whole game in milliseconds.

>>> [STANDARD.length(round_number) for round_number in (1, 2)], STANDARD.pause
([30.0, 25.0], 3.0)
"""

from __future__ import annotations

from dataclasses import dataclass

from twentyone.errors import InvalidRulesError, shown

#: The longest a betting round or a pause may last (an hour): a schedule is for a live table.
MAX_SECONDS = 3600.0


@dataclass(frozen=True, slots=True)
class RoundSchedule:
    """Seconds each betting round stays open, and the playing pause between rounds."""

    first_round: float
    later_rounds: float
    pause: float = 3.0

    def __post_init__(self) -> None:
        for name in ("first_round", "later_rounds", "pause"):
            value = getattr(self, name)
            # Huge ints are compared, never converted (float(10**400) overflows); NaN fails both.
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not 0 <= value <= MAX_SECONDS
            ):
                raise InvalidRulesError(
                    f"{name} must be a number of seconds >= 0 and <= {MAX_SECONDS:g},"
                    f" got {shown(value)}"
                )
            object.__setattr__(self, name, float(value))
        if self.first_round <= 0 or self.later_rounds <= 0:
            raise InvalidRulesError("betting rounds must last longer than 0 seconds")

    def length(self, round_number: int) -> float:
        if (
            isinstance(round_number, bool)
            or not isinstance(round_number, int)
            or not 1 <= round_number <= 6
        ):
            raise InvalidRulesError(
                f"an exchange game has rounds 1 to 6, not {shown(round_number)}"
            )
        return self.first_round if round_number == 1 else self.later_rounds

    def to_json(self) -> dict[str, float]:
        return {
            "first_round": self.first_round,
            "later_rounds": self.later_rounds,
            "pause": self.pause,
        }

    @classmethod
    def from_json(cls, data: object) -> RoundSchedule:
        """Read ``{"first_round": 30, "later_rounds": 25, "pause": 3}`` (InvalidRulesError if bad)."""
        keys = ("first_round", "later_rounds", "pause")
        if not isinstance(data, dict) or set(data) != set(keys):
            raise InvalidRulesError(
                "a round schedule is an object with exactly first_round, later_rounds and pause"
            )
        return cls(data["first_round"], data["later_rounds"], data["pause"])


#: Standard tables: 30 s for round 1, 25 s after.
STANDARD = RoundSchedule(first_round=30.0, later_rounds=25.0)
#: Turbo tables: 22 s and 18 s (the operator's figures for a sister game; indicative).
TURBO = RoundSchedule(first_round=22.0, later_rounds=18.0)
SCHEDULES: dict[str, RoundSchedule] = {"standard": STANDARD, "turbo": TURBO}
