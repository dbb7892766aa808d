"""Card counting as data: counting systems, index plays (deviations) and bet ramps.

Systems and index sets ship as JSON under ``twentyone/data/``; any other can be given as the
same JSON.

>>> hi_lo = counting_system("hi-lo")
>>> hi_lo.balanced, hi_lo.tags[1], hi_lo.tags[5], hi_lo.tags[10]
(True, -1, 1, -1)
>>> counting_system("ko").initial_running_count(6)
-20
>>> BetRamp.parse("1:2, 2:4, 3:8, 4:12").bet_at(2.5)
4
>>> sorted(system_names())[:3]
['hi-lo', 'hi-opt-i', 'hi-opt-ii']
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from twentyone.simulation.errors import CountingDataError
from twentyone.strategy_chart import HARD_TOTALS, SOFT_TOTALS, card_key, key_value

CARD_KEYS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
_CODES = frozenset({"H", "S", "D", "Dh", "Ds", "P", "Ph", "Rh", "Rs", "Rp"})


@dataclass(frozen=True)
class CountingSystem:
    """Tags by card value (1 = ace, 10 = any ten-value card)."""

    name: str
    tags: Mapping[int, int]
    balanced: bool
    initial_count_per_deck: int = 0
    initial_count_offset: int = 0

    def __post_init__(self) -> None:
        if set(self.tags) != set(range(1, 11)):
            raise CountingDataError(f"counting system {self.name!r} must tag A, 2-9 and T")
        deck_sum = sum(tag * (16 if value == 10 else 4) for value, tag in self.tags.items())
        if self.balanced != (deck_sum == 0):
            raise CountingDataError(
                f"counting system {self.name!r} says balanced={self.balanced} but its tags "
                f"sum to {deck_sum} over a deck"
            )

    def initial_running_count(self, decks: int | None) -> int:
        """Where the running count starts after a shuffle (0 for balanced systems)."""
        if decks is None:
            return self.initial_count_offset
        return self.initial_count_per_deck * decks + self.initial_count_offset

    @classmethod
    def from_json(cls, name: str, data: Mapping[str, Any]) -> CountingSystem:
        try:
            tags = {key_value(key): _whole(tag, "tag") for key, tag in data["tags"].items()}
            balanced = data["balanced"]
            if not isinstance(balanced, bool):
                raise CountingDataError(f"balanced must be true or false, got {balanced!r}")
            return cls(
                name,
                tags,
                balanced,
                _whole(data.get("initial_count_per_deck", 0), "initial_count_per_deck"),
                _whole(data.get("initial_count_offset", 0), "initial_count_offset"),
            )
        except (KeyError, AttributeError, TypeError, ValueError) as error:
            if isinstance(error, CountingDataError):
                raise
            raise CountingDataError(f"malformed counting system {name!r}: {error}") from None


@dataclass(frozen=True)
class IndexPlay:
    """One chart cell played by count: ``below`` under the first threshold, then ``steps``."""

    table: str  # "hard", "soft" or "pair"
    row: int  # total (hard/soft) or pair card value
    upcard: int  # 1 = ace
    below: str
    steps: tuple[tuple[float, str], ...]

    def __post_init__(self) -> None:
        rows = {"hard": HARD_TOTALS, "soft": SOFT_TOTALS, "pair": range(1, 11)}.get(self.table)
        if rows is None or self.row not in rows:
            raise CountingDataError(f"index play names no chart cell: {self.describe()}")
        if self.upcard not in range(1, 11):
            raise CountingDataError(f"index play has a bad upcard: {self.describe()}")
        codes = [self.below, *(code for _, code in self.steps)]
        if any(code not in _CODES for code in codes):
            raise CountingDataError(f"index play uses an unknown code: {self.describe()}")
        thresholds = [threshold for threshold, _ in self.steps]
        if not thresholds or thresholds != sorted(set(thresholds)):
            raise CountingDataError(
                f"index play needs strictly ascending thresholds: {self.describe()}"
            )

    def describe(self) -> str:
        row = card_key(self.row) if self.table == "pair" else str(self.row)
        return f"{self.table} {row} vs {card_key(self.upcard)}"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> IndexPlay:
        try:
            table, _, row_text = str(data["hand"]).partition(" ")
            row = key_value(row_text) if table == "pair" else int(row_text)
            steps = tuple((float(threshold), str(code)) for threshold, code in data["at"])
            return cls(table, row, key_value(str(data["upcard"])), str(data["below"]), steps)
        except (KeyError, AttributeError, TypeError, ValueError) as error:
            if isinstance(error, CountingDataError):
                raise
            raise CountingDataError(f"malformed index play {data!r}: {error}") from None


@dataclass(frozen=True)
class IndexSet:
    """Index plays for one counting system, and the count at which to take insurance."""

    name: str
    system: str
    insurance: float | None
    plays: tuple[IndexPlay, ...]

    @classmethod
    def from_json(cls, name: str, data: Mapping[str, Any]) -> IndexSet:
        try:
            insurance = data.get("insurance")
            plays = tuple(IndexPlay.from_json(play) for play in data["plays"])
            return cls(
                name, str(data["system"]), None if insurance is None else float(insurance), plays
            )
        except (KeyError, AttributeError, TypeError, ValueError) as error:
            if isinstance(error, CountingDataError):
                raise
            raise CountingDataError(f"malformed index set {name!r}: {error}") from None


@dataclass(frozen=True)
class BetRamp:
    """Initial bet in units by count: 1 unit below the first step, ``units`` at ``count`` or more."""

    steps: tuple[tuple[float, int], ...] = ()

    def __post_init__(self) -> None:
        counts = [count for count, _ in self.steps]
        if counts != sorted(set(counts)):
            raise CountingDataError("bet ramp counts must be strictly ascending")
        if any(units < 1 or units > 1_000_000 for _, units in self.steps):
            raise CountingDataError("bet ramp units must be whole numbers from 1 to 1000000")

    @property
    def spread(self) -> int:
        """Largest bet over the smallest."""
        return max([1, *(units for _, units in self.steps)])

    def bet_at(self, count: float) -> int:
        units = 1
        for threshold, step_units in self.steps:
            if count >= threshold:
                units = step_units
        return units

    @classmethod
    def parse(cls, text: str) -> BetRamp:
        """``COUNT:UNITS`` pairs separated by commas, e.g. ``1:2,2:4,3:8,4:12``."""
        steps = []
        for item in text.split(","):
            count_text, sep, units_text = item.strip().partition(":")
            try:
                if not sep:
                    raise ValueError
                count = float(count_text)
                units = int(units_text)
                if not math.isfinite(count):
                    raise ValueError
            except ValueError:
                raise CountingDataError(
                    f"a bet ramp is COUNT:UNITS pairs like 1:2,2:4,3:8, got {text!r}"
                ) from None
            steps.append((count, units))
        return cls(tuple(steps))


def _whole(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise CountingDataError(f"{what} must be a whole number, got {value!r}")
    return value


def load_data(name: str) -> dict[str, Any]:
    """A JSON file shipped in ``twentyone/data``."""
    text = resources.files("twentyone").joinpath("data", name).read_text(encoding="utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


@cache
def _systems() -> dict[str, CountingSystem]:
    return {
        name: CountingSystem.from_json(name, data)
        for name, data in load_data("counting_systems.json")["systems"].items()
    }


@cache
def _index_sets() -> dict[str, IndexSet]:
    return {
        name: IndexSet.from_json(name, data)
        for name, data in load_data("index_plays.json")["sets"].items()
    }


def system_names() -> tuple[str, ...]:
    return tuple(_systems())


def index_set_names() -> tuple[str, ...]:
    return tuple(_index_sets())


def counting_system(name: str) -> CountingSystem:
    """A shipped counting system by name; an unknown name is a :class:`CountingDataError`."""
    systems = _systems()
    if name not in systems:
        raise CountingDataError(
            f"unknown counting system {name!r} (expected one of {', '.join(systems)})"
        )
    return systems[name]


def index_set(name: str) -> IndexSet:
    """A shipped index set by name; an unknown name is a :class:`CountingDataError`."""
    sets = _index_sets()
    if name not in sets:
        raise CountingDataError(f"unknown index set {name!r} (expected one of {', '.join(sets)})")
    return sets[name]


__all__ = [
    "CARD_KEYS",
    "BetRamp",
    "CountingSystem",
    "IndexPlay",
    "IndexSet",
    "counting_system",
    "index_set",
    "index_set_names",
    "system_names",
]
