"""Which strategy chart a simulation plays by default: the basic strategy of the rules.

The exact analysis computes the total-dependent basic strategy of any rule set the simulator
plays, so there is no fixed chart to fall back on: a run always plays the chart of its own rules
unless the caller supplies one.

>>> from twentyone.presets import CASINO
>>> chart, source = default_chart(CASINO)
>>> chart.hard[16][10], chart.pairs[8][1], source
('Rh', 'Rh', 'basic strategy of the rules (exact analysis)')
"""

from __future__ import annotations

from twentyone.rules import Rules
from twentyone.strategy_chart import StrategyChart

BASIC_STRATEGY_SOURCE = "basic strategy of the rules (exact analysis)"


def default_chart(rules: Rules) -> tuple[StrategyChart, str]:
    """The chart to play for ``rules`` and where it came from (for the report)."""
    # Imported here: the analysis (and its kernels) loads only when a run needs its chart.
    from twentyone.analysis.strategy import basic_strategy

    return basic_strategy(rules), BASIC_STRATEGY_SOURCE
