"""The player logic table: when an Exchange Blackjack player hand hits.

Cells are indexed by (total, soft, dealer up card) and say, for 2, 3 and 4 cards, whether the
hand hits. Codes as in the spec: ``H`` hit, ``H3`` hit with 3 or more cards, ``H4`` hit with 4
cards, ``S`` stand; any other pattern is written as three letters for 2, 3 and 4 cards (``HSH``).
A two-card 21 (blackjack), a bust hand and a five-card hand never hit.

>>> table = load_logic_table()
>>> table.code(16, False, 10), table.code(13, False, 3), table.code(19, True, 1)
('H3', 'H4', 'H3')
>>> table.hits((16, False, 2), 10), table.hits((16, False, 3), 10)
(False, True)
>>> from twentyone.exchange.hands import describe_code
>>> sorted(describe_code(code) for code in table.final_codes((20, False, 2), 6))
['20']
>>> sorted(describe_code(code) for code in table.final_codes((12, False, 2), 10))
['17', '18', '19', '20', '21', 'bust', 'bust', 'five-card 21', 'five-card hand']
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from twentyone.errors import TwentyOneError, shown
from twentyone.exchange.hands import (
    MAX_CARDS,
    VALUES,
    HandState,
    add_card,
    final_code,
    is_blackjack,
    is_soft,
    total,
)

DATA_FILE = "exchange_logic_table.json"
#: Up-card columns in the spec's order (values; 1 is the ace).
UP_CARDS: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
UP_CARD_NAMES: dict[int, str] = {
    v: ("A" if v == 1 else "T" if v == 10 else str(v)) for v in UP_CARDS
}
HARD_TOTALS: tuple[int, ...] = tuple(range(4, 22))
SOFT_TOTALS: tuple[int, ...] = tuple(range(12, 22))
#: Cards-in-hand counts a decision is made at.
DECISION_CARDS: tuple[int, ...] = (2, 3, 4)

_CODES: dict[str, tuple[bool, bool, bool]] = {
    "H": (True, True, True),
    "H3": (False, True, True),
    "H4": (False, False, True),
    "S": (False, False, False),
}
_NAMES = {pattern: code for code, pattern in _CODES.items()}

#: (total, soft, up value) -> hit with (2, 3, 4) cards
Cell = tuple[int, bool, int]


class LogicTableError(TwentyOneError):
    """A logic table file is malformed or incomplete."""


def code_for(pattern: tuple[bool, bool, bool]) -> str:
    """``H``/``H3``/``H4``/``S``, or three letters for an unusual pattern."""
    return _NAMES.get(pattern) or "".join("H" if hit else "S" for hit in pattern)


def pattern_for(code: str) -> tuple[bool, bool, bool]:
    if code in _CODES:
        return _CODES[code]
    if len(code) == 3 and set(code) <= {"H", "S"}:
        return (code[0] == "H", code[1] == "H", code[2] == "H")
    raise LogicTableError(
        f"unknown logic table code {shown(code)} (expected H, H3, H4, S or e.g. HSH)"
    )


@dataclass(frozen=True)
class LogicTable:
    """Hit or stand for every (total, soft, up card, number of cards)."""

    cells: Mapping[Cell, tuple[bool, bool, bool]]
    # Computed once: a table is a dict key of every per-table cache (hashing 280 cells per
    # look-up would cost more than the look-up).
    _hash: int = field(init=False, repr=False, compare=False, default=0)
    # (state, up value) -> final codes; filled on demand (the table is immutable).
    _finals: dict[tuple[HandState, int], frozenset[int]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        if not isinstance(self.cells, Mapping):
            raise LogicTableError("a logic table's cells must be a mapping")
        missing = [cell for cell in all_cells() if cell not in self.cells]
        if missing:
            total_, soft, up = missing[0]
            kind = "soft" if soft else "hard"
            raise LogicTableError(
                f"logic table has no entry for {kind} {total_} against {UP_CARD_NAMES[up]}"
                f" ({len(missing)} cells missing)"
            )
        cells = {cell: self.cells[cell] for cell in all_cells()}
        for cell, pattern in cells.items():
            if (
                not isinstance(pattern, tuple)
                or len(pattern) != len(DECISION_CARDS)
                or not all(isinstance(hit, bool) for hit in pattern)
            ):
                raise LogicTableError(
                    f"logic table cell {cell} must be three booleans (hit with 2, 3, 4 cards),"
                    f" got {shown(pattern)}"
                )
        # A private copy: the table cannot change under the caches built on it.
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "_hash", hash(frozenset(cells.items())))

    def __hash__(self) -> int:
        return self._hash

    def hits(self, state: HandState, up_value: int) -> bool:
        """Whether a player hand in ``state`` takes a card against the dealer's ``up_value``."""
        hard, _, cards = state
        if hard > 21 or cards >= MAX_CARDS or cards < 2 or is_blackjack(state):
            return False
        return self.cells[(total(state), is_soft(state), up_value)][cards - 2]

    def final_codes(self, state: HandState, up_value: int) -> frozenset[int]:
        """Every final code a hand in ``state`` can end on, played out by this table.

        Exact set reasoning: with an infinite deck every card value can come next, so each
        code listed has a positive probability (the probabilities are in
        :mod:`twentyone.analysis.exchange.playouts`).
        """
        key = (state, up_value)
        cached = self._finals.get(key)
        if cached is not None:
            return cached
        if not self.hits(state, up_value):
            out = frozenset({final_code(state)})
        else:
            codes: set[int] = set()
            for value in VALUES:
                codes |= self.final_codes(add_card(state, value), up_value)
            out = frozenset(codes)
        self._finals[key] = out
        return out

    def code(self, total_: int, soft: bool, up_value: int) -> str:
        return code_for(self.cells[(total_, soft, up_value)])

    def to_json(self) -> dict[str, Any]:
        return {
            "up_cards": [UP_CARD_NAMES[up] for up in UP_CARDS],
            "hard": {str(t): [self.code(t, False, up) for up in UP_CARDS] for t in HARD_TOTALS},
            "soft": {str(t): [self.code(t, True, up) for up in UP_CARDS] for t in SOFT_TOTALS},
        }

    @classmethod
    def from_json(cls, data: Any) -> LogicTable:
        if not isinstance(data, dict):
            raise LogicTableError("a logic table must be a JSON object")
        if data.get("up_cards") != [UP_CARD_NAMES[up] for up in UP_CARDS]:
            raise LogicTableError(f"logic table up_cards must be {list(UP_CARD_NAMES.values())}")
        cells: dict[Cell, tuple[bool, bool, bool]] = {}
        for key, soft, totals in (("hard", False, HARD_TOTALS), ("soft", True, SOFT_TOTALS)):
            rows = data.get(key)
            if not isinstance(rows, dict):
                raise LogicTableError(f"logic table needs a {key!r} object of rows")
            for total_ in totals:
                row = rows.get(str(total_))
                if not isinstance(row, list) or len(row) != len(UP_CARDS):
                    raise LogicTableError(
                        f"logic table row {key} {total_} must list {len(UP_CARDS)} codes"
                    )
                for up, code in zip(UP_CARDS, row, strict=True):
                    if not isinstance(code, str):
                        raise LogicTableError(
                            f'logic table row {key} {total_}: a code is text like "H3",'
                            f" not {shown(code)}"
                        )
                    cells[(total_, soft, up)] = pattern_for(code)
        return cls(cells)


def all_cells() -> list[Cell]:
    hard = [(t, False, up) for t in HARD_TOTALS for up in UP_CARDS]
    return hard + [(t, True, up) for t in SOFT_TOTALS for up in UP_CARDS]


_LOADED: list[LogicTable] = []


def load_logic_table() -> LogicTable:
    """The table shipped with the package (generated by :mod:`twentyone.analysis.exchange.solver`)."""
    if not _LOADED:
        text = resources.files("twentyone").joinpath("data", DATA_FILE).read_text("utf-8")
        _LOADED.append(LogicTable.from_json(json.loads(text)))
    return _LOADED[0]
