"""Play a house-banked round by a strategy chart (benchmarks, simulation cross-checks, hints)."""

from __future__ import annotations

from twentyone.errors import IllegalActionError
from twentyone.house.actions import DOUBLE, NO_INSURANCE, NO_SURRENDER, SPLIT, SURRENDER, Action
from twentyone.house.round import Phase, Round
from twentyone.moves import Move
from twentyone.rules import SplitBy
from twentyone.strategy_chart import StrategyChart

_MOVE_ACTIONS = {move: Action.of(move) for move in Move}
# Enum member lookups are slow in Python 3.11; this runs at every decision of every round.
_INSURANCE, _EARLY_SURRENDER, _BY_RANK = Phase.INSURANCE, Phase.EARLY_SURRENDER, SplitBy.RANK
_SETTLED = Phase.SETTLED


def chart_action(round_: Round, chart: StrategyChart) -> Action:
    """The chart's action now: never insurance, never early surrender, else the chart's move."""
    phase = round_.phase
    if phase is _INSURANCE:
        return NO_INSURANCE
    if phase is _EARLY_SURRENDER:
        return NO_SURRENDER
    if round_.awaiting_card or phase is _SETTLED:
        raise IllegalActionError(f"no decision is pending: {round_.pending_decision()}")
    # The hand in play (Round.current_hand without the property call: once per decision).
    hand = round_.boxes[round_.box_index].hands[round_.hand_index]
    rules = round_.rules
    can_double = can_split = can_surrender = False
    # The legal moves are the module's constants: identity tests keep this loop cheap.
    for action in round_.legal_actions():
        if action is DOUBLE:
            can_double = True
        elif action is SPLIT:
            can_split = True
        elif action is SURRENDER:
            can_surrender = True
    pair_value = None
    if can_split:
        first, second = hand.cards
        # Tens split by rank are still "a pair of tens" to a total-dependent chart.
        if rules.split_by is not _BY_RANK or first.rank == second.rank:
            pair_value = first.value
    aces_high = rules.aces_high
    move = chart.move_for(
        hand.hard,
        # twentyone.hand.is_soft(hand.hard, hand.aces > 0, aces_high) written out (hot path).
        aces_high and hand.aces > 0 and hand.hard <= 11,
        pair_value,
        round_.upcard.value,
        can_double,
        can_surrender,
        rules.double_after_split,
    )
    return _MOVE_ACTIONS[move]


def play_by_chart(round_: Round, chart: StrategyChart) -> Round:
    """Play ``round_`` to the end by ``chart``; returns it settled."""
    while not round_.is_settled:
        round_.act(chart_action(round_, chart))
    return round_
