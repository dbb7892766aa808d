"""A total-dependent strategy chart (hard, soft and pair tables by up card) as data.

Codes are the usual ones: ``H`` hit, ``S`` stand, ``D``/``Dh`` double else hit, ``Ds`` double
else stand, ``P`` split, ``Ph`` split if doubling after a split is allowed else hit, ``Rh`` /
``Rs`` / ``Rp`` surrender else hit / stand / split. The analysis produces charts; the engine's
benchmark, the simulator and the terminal hint consume them.

Up cards and pair cards are keyed by value: 1 is the ace, 10 any ten-value card.

>>> chart = StrategyChart.from_json({
...     "hard": {str(t): {u: "S" if t >= 17 else "H" for u in UPCARD_KEYS} for t in range(4, 22)},
...     "soft": {str(t): {u: "S" if t >= 18 else "H" for u in UPCARD_KEYS} for t in range(12, 22)},
...     "pairs": {p: {u: "P" if p in "A8" else "H" for u in UPCARD_KEYS} for p in UPCARD_KEYS},
... })
>>> chart.decide(hard=16, soft=False, pair_value=None, upcard=10, allowed=frozenset(Move)).value
'hit'
>>> chart.decide(hard=16, soft=False, pair_value=8, upcard=10, allowed=frozenset(Move)).value
'split'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from twentyone.errors import TwentyOneError
from twentyone.moves import Move

CODES = frozenset({"H", "S", "D", "Dh", "Ds", "P", "Ph", "Rh", "Rs", "Rp"})
#: JSON keys of up cards and pair cards, in chart order.
UPCARD_KEYS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
HARD_TOTALS = range(4, 22)
SOFT_TOTALS = range(12, 22)


class InvalidChartError(TwentyOneError):
    """A strategy chart is incomplete or uses an unknown code."""


def card_key(value: int) -> str:
    """JSON key of a card value (1 = ace)."""
    return "A" if value == 1 else "T" if value == 10 else str(value)


def key_value(key: str) -> int:
    return 1 if key == "A" else 10 if key == "T" else int(key)


Table = Mapping[int, Mapping[int, str]]


@dataclass(frozen=True)
class StrategyChart:
    """``hard[total][upcard]``, ``soft[total][upcard]``, ``pairs[card][upcard]`` codes."""

    hard: Table
    soft: Table
    pairs: Table

    def __post_init__(self) -> None:
        for name, table, rows in (
            ("hard", self.hard, HARD_TOTALS),
            ("soft", self.soft, SOFT_TOTALS),
            ("pairs", self.pairs, range(1, 11)),
        ):
            for row in rows:
                if row not in table:
                    raise InvalidChartError(f"{name} table has no row {row}")
                for up in range(1, 11):
                    code = table[row].get(up)
                    if code not in CODES:
                        raise InvalidChartError(
                            f"{name}[{row}][{card_key(up)}] must be one of "
                            f"{', '.join(sorted(CODES))}, got {code!r}"
                        )

    def decide(
        self,
        *,
        hard: int,
        soft: bool,
        pair_value: int | None,
        upcard: int,
        allowed: frozenset[Move],
        double_after_split: bool = True,
    ) -> Move:
        """The chart's move for a hand, falling back as the code says when a move is not allowed.

        ``pair_value`` is the value of a splittable pair's cards (None if the hand is not a pair).
        """
        return self.move_for(
            hard,
            soft,
            pair_value if Move.SPLIT in allowed else None,
            upcard,
            Move.DOUBLE in allowed,
            Move.SURRENDER in allowed,
            double_after_split,
        )

    def move_for(
        self,
        hard: int,
        soft: bool,
        split_pair_value: int | None,
        upcard: int,
        can_double: bool,
        can_surrender: bool,
        double_after_split: bool = True,
    ) -> Move:
        """:meth:`decide` with the allowed moves as flags (the engine's hot path).

        ``split_pair_value`` is the pair's card value when the hand may split, else None.
        """
        if split_pair_value is not None:
            code = self.pairs[split_pair_value][upcard]
            if code == "P" or (code == "Ph" and double_after_split):
                return Move.SPLIT
            if code == "Rp":
                return Move.SURRENDER if can_surrender else Move.SPLIT
        total = hard + 10 if soft else hard
        if total >= 21:
            return Move.STAND
        code = self.soft[total][upcard] if soft else self.hard[max(hard, 4)][upcard]
        return _resolve(code, can_double, can_surrender)

    def to_json(self) -> dict[str, Any]:
        return {
            name: {
                card_key(row) if name == "pairs" else str(row): {
                    card_key(up): codes[up] for up in (*range(2, 11), 1)
                }
                for row, codes in sorted(table.items())
            }
            for name, table in (("hard", self.hard), ("soft", self.soft), ("pairs", self.pairs))
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StrategyChart:
        try:
            tables = {
                name: {
                    (key_value(row) if name == "pairs" else int(row)): {
                        key_value(up): str(code) for up, code in codes.items()
                    }
                    for row, codes in data[name].items()
                }
                for name in ("hard", "soft", "pairs")
            }
        except (KeyError, ValueError, AttributeError, TypeError) as error:
            raise InvalidChartError(f"malformed strategy chart: {error}") from None
        return cls(tables["hard"], tables["soft"], tables["pairs"])


def _resolve(code: str, can_double: bool, can_surrender: bool) -> Move:
    if code == "H":
        return Move.HIT
    if code == "S":
        return Move.STAND
    if code in ("D", "Dh"):
        return Move.DOUBLE if can_double else Move.HIT
    if code == "Ds":
        return Move.DOUBLE if can_double else Move.STAND
    if code == "Rh":
        return Move.SURRENDER if can_surrender else Move.HIT
    if code == "Rs":
        return Move.SURRENDER if can_surrender else Move.STAND
    # Pair codes ("P", "Ph", "Rp") never reach the total tables of a valid chart.
    return Move.HIT
