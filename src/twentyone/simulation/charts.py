"""Which strategy chart a simulation plays by default.

The analysis package computes the basic strategy of any rule set; where it is not available the
simulator falls back to the standard published multi-deck chart (S17, DAS, late surrender)
shipped as data.

>>> chart = standard_chart()
>>> chart.hard[16][10], chart.pairs[8][1], chart.soft[18][9]
('Rh', 'P', 'H')
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import cast

from twentyone.rules import Rules
from twentyone.simulation.counting import load_data
from twentyone.strategy_chart import StrategyChart

STANDARD_CHART_NAME = "standard multi-deck S17 DAS LS chart"


@cache
def standard_chart() -> StrategyChart:
    """The published 4-8 deck S17 DAS late-surrender basic strategy (data file)."""
    return StrategyChart.from_json(load_data("chart_multideck_s17_das_ls.json"))


def basic_strategy_source() -> Callable[[Rules], StrategyChart] | None:
    """``twentyone.analysis.strategy.basic_strategy`` when the analysis package provides it."""
    try:
        module = importlib.import_module("twentyone.analysis.strategy")
    except ImportError:
        return None
    function = getattr(module, "basic_strategy", None)
    return cast(Callable[[Rules], StrategyChart], function) if callable(function) else None


def default_chart(rules: Rules) -> tuple[StrategyChart, str]:
    """The chart to play for ``rules`` and where it came from (for the report)."""
    compute = basic_strategy_source()
    if compute is not None:
        return compute(rules), "basic strategy of the rules (exact analysis)"
    return standard_chart(), STANDARD_CHART_NAME
