"""Which strategy chart a simulation plays: the basic strategy of the rules, or a chart file.

The exact analysis computes the total-dependent basic strategy of any rule set the simulator
plays, so there is no fixed chart to fall back on: a run always plays the chart of its own rules
unless the caller supplies one.

>>> from twentyone.presets import CASINO
>>> chart, source = default_chart(CASINO)
>>> chart.hard[16][10], chart.pairs[8][1], source
('Rh', 'Rh', 'basic strategy of the rules (exact analysis)')

A chart file is either a chart (``hard``, ``soft``, ``pairs``) or the whole ``strategy --json``
output, which holds the chart under ``chart``:

>>> load_chart({"rules": CASINO.to_json(), "chart": chart.to_json()}) == chart
True
>>> load_chart({"hard": [], "soft": {}, "pairs": {}})
Traceback (most recent call last):
...
twentyone.strategy_chart.InvalidChartError: strategy chart: "hard" must be an object of rows, got a list
"""

from __future__ import annotations

from collections.abc import Mapping

from twentyone.rules import Rules
from twentyone.strategy_chart import (
    HARD_TOTALS,
    SOFT_TOTALS,
    UPCARD_KEYS,
    InvalidChartError,
    StrategyChart,
    card_key,
)

#: Keys of card values in a chart file: ``A``, ``2``..``9``, ``T`` (``1`` and ``10`` accepted).
_CARD_VALUES = {key: value for value, key in ((v, card_key(v)) for v in range(1, 11))} | {
    "1": 1,
    "10": 10,
}
_TABLE_ROWS = {
    "hard": {str(total): total for total in HARD_TOTALS},
    "soft": {str(total): total for total in SOFT_TOTALS},
    "pairs": _CARD_VALUES,
}
_ROW_NAMES = {"hard": "a hard total", "soft": "a soft total", "pairs": "a pair card"}
_ROW_RANGES = {"hard": "4 to 21", "soft": "12 to 21", "pairs": ", ".join(UPCARD_KEYS)}
#: A chart has 3 tables of at most 18 rows of 10 cells: anything much larger is not a chart.
_MAX_KEY = 8


def _kind(value: object) -> str:
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return type(value).__name__


def _key(key: object) -> str:
    text = key if isinstance(key, str) else str(type(key).__name__)
    return repr(text if len(text) <= _MAX_KEY else text[:_MAX_KEY] + "...")


def load_chart(data: object) -> StrategyChart:
    """A strategy chart from parsed JSON: a chart object, or ``strategy --json`` output.

    Checked key by key before anything is built: every error is an
    :class:`~twentyone.strategy_chart.InvalidChartError` that names the table, row and cell.
    """
    if isinstance(data, Mapping) and "chart" in data and "hard" not in data:
        data = data["chart"]  # the strategy command's output: rules, chart, EV
    if not isinstance(data, Mapping):
        raise InvalidChartError(
            f"strategy chart: expected an object with hard, soft and pairs, got {_kind(data)}"
        )
    tables: dict[str, dict[int, dict[int, str]]] = {}
    for name in ("hard", "soft", "pairs"):
        if name not in data:
            raise InvalidChartError(f'strategy chart: the "{name}" table is missing')
        rows = data[name]
        if not isinstance(rows, Mapping):
            raise InvalidChartError(
                f'strategy chart: "{name}" must be an object of rows, got {_kind(rows)}'
            )
        table: dict[int, dict[int, str]] = {}
        for row_key, cells in rows.items():
            row = _TABLE_ROWS[name].get(row_key) if isinstance(row_key, str) else None
            if row is None:
                raise InvalidChartError(
                    f"strategy chart: {name} row {_key(row_key)} is not {_ROW_NAMES[name]} "
                    f"({_ROW_RANGES[name]})"
                )
            if row in table:
                raise InvalidChartError(f"strategy chart: {name} row {_key(row_key)} is repeated")
            if not isinstance(cells, Mapping):
                raise InvalidChartError(
                    f"strategy chart: {name}[{row_key}] must be an object of up cards, "
                    f"got {_kind(cells)}"
                )
            line: dict[int, str] = {}
            for up_key, code in cells.items():
                up = _CARD_VALUES.get(up_key) if isinstance(up_key, str) else None
                if up is None:
                    raise InvalidChartError(
                        f"strategy chart: {name}[{row_key}] has up card {_key(up_key)} "
                        f"(expected {', '.join(UPCARD_KEYS)})"
                    )
                if up in line:
                    raise InvalidChartError(
                        f"strategy chart: {name}[{row_key}] has up card {_key(up_key)} twice"
                    )
                if not isinstance(code, str):
                    raise InvalidChartError(
                        f"strategy chart: {name}[{row_key}][{up_key}] must be a code, "
                        f"got {_kind(code)}"
                    )
                line[up] = code
            table[row] = line
        tables[name] = table
    # Complete tables and known codes: StrategyChart checks them (InvalidChartError).
    return StrategyChart(tables["hard"], tables["soft"], tables["pairs"])


BASIC_STRATEGY_SOURCE = "basic strategy of the rules (exact analysis)"


def default_chart(rules: Rules) -> tuple[StrategyChart, str]:
    """The chart to play for ``rules`` and where it came from (for the report)."""
    # Imported here: the analysis (and its kernels) loads only when a run needs its chart.
    from twentyone.analysis.strategy import basic_strategy

    return basic_strategy(rules), BASIC_STRATEGY_SOURCE
