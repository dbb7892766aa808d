"""Play a house-banked round by a strategy chart (benchmarks, simulation cross-checks, hints)."""

from __future__ import annotations

from twentyone.house.actions import NO_INSURANCE, NO_SURRENDER, Action
from twentyone.house.round import Phase, Round
from twentyone.moves import Move
from twentyone.rules import SplitBy
from twentyone.strategy_chart import StrategyChart

_KIND_MOVES = {move.value: move for move in Move}


def chart_action(round_: Round, chart: StrategyChart) -> Action:
    """The chart's action now: never insurance, never early surrender, else the chart's move."""
    if round_.phase is Phase.INSURANCE:
        return NO_INSURANCE
    if round_.phase is Phase.EARLY_SURRENDER:
        return NO_SURRENDER
    hand = round_.current_hand
    assert hand is not None, "the round is settled"
    value = hand.value(round_.rules.aces_high)
    allowed = frozenset(_KIND_MOVES[action.kind.value] for action in round_.legal_actions())
    pair_value = None
    if Move.SPLIT in allowed:
        first = hand.cards[0]
        # Tens split by rank are still "a pair of tens" to a total-dependent chart.
        same = first.rank == hand.cards[1].rank if round_.rules.split_by is SplitBy.RANK else True
        pair_value = first.value if same else None
    move = chart.decide(
        hard=value.hard,
        soft=value.soft,
        pair_value=pair_value,
        upcard=round_.upcard.value,
        allowed=allowed,
        double_after_split=round_.rules.double_after_split,
    )
    return Action.of(move)


def play_by_chart(round_: Round, chart: StrategyChart) -> Round:
    """Play ``round_`` to the end by ``chart``; returns it settled."""
    while not round_.is_settled:
        round_.act(chart_action(round_, chart))
    return round_
