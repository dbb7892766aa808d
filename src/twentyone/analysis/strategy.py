"""The total-dependent basic strategy of a rule set, and its expected return.

Hit or stand is decided per total from the probability-weighted values of every composition
with that total (highest totals first, so later decisions are already made); double and
surrender per total from the two-card hands; split per pair against the chart's own play of
the split hands. With an infinite shoe this is the optimal strategy.

>>> from twentyone.presets import ONLINE
>>> chart = basic_strategy(ONLINE)
>>> chart.hard[16][10], chart.hard[11][6], chart.soft[18][9], chart.pairs[8][10]
('H', 'D', 'H', 'P')
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from twentyone.analysis import kernels
from twentyone.analysis.engine import (
    DOUBLE,
    HIT,
    STAND,
    FloatArray,
    InitialHand,
    IntArray,
    Setup,
    UpcardContext,
    cached_context,
    can_split,
    initial_hands,
    may_double,
    prepare,
    round_value,
    split_value,
)
from twentyone.analysis.shoe_counts import ACE, TEN
from twentyone.moves import Move
from twentyone.rules import Rules, Surrender
from twentyone.strategy_chart import HARD_TOTALS, SOFT_TOTALS, StrategyChart

_MOVE_CODE = {Move.STAND: STAND, Move.HIT: HIT, Move.DOUBLE: DOUBLE}


@dataclass(frozen=True)
class _TotalPlay:
    """Hit/stand by total against one up card, and each hand's value under it."""

    hit_hard: IntArray
    hit_soft: IntArray
    played: FloatArray
    hit: FloatArray


def _total_play(context: UpcardContext) -> _TotalPlay:
    setup = context.setup
    space = setup.space
    weights = kernels.composition_weights(context.shoe, setup.infinite, space.counts)
    arrays = kernels.total_dependent_pass(
        context.shoe,
        setup.infinite,
        space.counts,
        space.hard,
        space.soft,
        space.total,
        space.child,
        space.by_hard_desc,
        context.base.stand1,
        weights,
        context.peeked,
        TEN if context.upcard == ACE else ACE,
    )
    return _TotalPlay(*arrays)


def _chart_value(value: int) -> int:
    """Chart key of a value index (the chart keys the ace as 1, tens as 10)."""
    return value + 1


class _Column:
    """Everything about one up card that the chart and its EV need."""

    def __init__(self, setup: Setup, upcard: int) -> None:
        self.context = cached_context(setup, upcard)
        self.play = _total_play(self.context)
        self.hands = initial_hands(self.context, split_of=lambda pair: float("nan"))

    def option_values(self, hand: InitialHand) -> dict[str, float]:
        """Round values of a two-card hand's options with hitting played by total."""
        options = dict(hand.options)
        if "hit" in options:
            options["hit"] = float(self.play.hit[hand.hand])
        values = {
            name: round_value(self.context, hand, value, early_surrender=False)
            for name, value in options.items()
        }
        if self.context.setup.rules.surrender is Surrender.EARLY and not hand.blackjack:
            values["surrender"] = -0.5
        return values

    def total_code(
        self, totals: dict[tuple[bool, int], list[InitialHand]], key: tuple[bool, int]
    ) -> str:
        soft, total = key
        hits = bool((self.play.hit_soft if soft else self.play.hit_hard)[total]) and total < 21
        fallback = "H" if hits else "S"
        hands = [hand for hand in totals.get(key, []) if not hand.blackjack]
        if not hands:
            return fallback
        sums = {"base": 0.0, "double": 0.0, "surrender": 0.0}
        allowed = {"base"}
        for hand in hands:
            values = self.option_values(hand)
            sums["base"] += hand.probability * values["hit" if hits else "stand"]
            for name in ("double", "surrender"):
                if name in values:
                    allowed.add(name)
                    sums[name] += hand.probability * values[name]
        best = max(allowed, key=lambda name: sums[name])
        if best == "double":
            return "D" if hits else "Ds"
        if best == "surrender":
            return "Rh" if hits else "Rs"
        return fallback


def _split_strategy(column: _Column, chart: StrategyChart, pair: int) -> IntArray:
    """The chart's play of every hand reachable after splitting ``pair``.

    Hands of three or more cards hit or stand by total, which is what the chart's codes
    resolve to when only hitting and standing are allowed.
    """
    context = column.context
    rules = context.setup.rules
    space = context.setup.space
    up = _chart_value(context.upcard)
    hits = np.where(
        space.soft, column.play.hit_soft[space.total], column.play.hit_hard[space.total]
    )
    strategy = np.where((hits == 1) & (space.total < 21), HIT, STAND).astype(np.int64)
    for second in range(10):
        hand = int(space.two_card[pair, second])
        if hand < 0 or int(space.total[hand]) == 21:
            continue
        if pair == ACE and not rules.hit_split_aces:
            strategy[hand] = STAND
            continue
        allowed = {Move.HIT, Move.STAND}
        total = int(space.total[hand])
        if rules.double_after_split and pair != ACE and may_double(rules, total):
            allowed.add(Move.DOUBLE)
        move = chart.decide(
            hard=int(space.hard[hand]),
            soft=bool(space.soft[hand]),
            pair_value=None,
            upcard=up,
            allowed=frozenset(allowed),
        )
        strategy[hand] = _MOVE_CODE[move]
    return strategy


@dataclass(frozen=True)
class BasicStrategyAnalysis:
    chart: StrategyChart
    ev: float
    ev_by_upcard: dict[int, float]


@functools.lru_cache(maxsize=32)
def basic_strategy_analysis(rules: Rules) -> BasicStrategyAnalysis:
    """The chart and the EV of playing it (splits played by the chart too)."""
    setup = prepare(rules)
    columns = {up: _Column(setup, up) for up in range(10)}
    hard: dict[int, dict[int, str]] = {total: {} for total in HARD_TOTALS}
    soft: dict[int, dict[int, str]] = {total: {} for total in SOFT_TOTALS}
    for up, column in columns.items():
        totals: dict[tuple[bool, int], list[InitialHand]] = {}
        for hand in column.hands:
            space = setup.space
            key = (bool(space.soft[hand.hand]), int(space.total[hand.hand]))
            totals.setdefault(key, []).append(hand)
        for total in HARD_TOTALS:
            hard[total][_chart_value(up)] = column.total_code(totals, (False, total))
        for total in SOFT_TOTALS:
            soft[total][_chart_value(up)] = column.total_code(totals, (True, total))
    pairs: dict[int, dict[int, str]] = {value: {} for value in range(1, 11)}
    for value in range(1, 11):
        for up in range(10):
            pairs[value][_chart_value(up)] = _total_code_of_pair(hard, soft, value - 1, up)
    provisional = StrategyChart(hard, soft, pairs)
    split_values: dict[tuple[int, int], float] = {}
    for up, column in columns.items():
        for hand in column.hands:
            if hand.first != hand.second or not can_split(rules, hand.first):
                continue
            strategy = _split_strategy(column, provisional, hand.first)
            values = column.option_values(hand)
            values["split"] = float("-inf")  # the provisional chart never splits
            current = _resolved_value(provisional, column, hand, values)
            # Unpeeked, a split's round value is its value: one proven worth no more than
            # `current` is never used, so a bound is enough for it (see `split_value`).
            split = split_value(column.context, hand.first, strategy, below=current)
            if split != split:
                continue
            split_values[(up, hand.first)] = split
            values["split"] = round_value(column.context, hand, split, early_surrender=False)
            surrender = values.get("surrender")
            if surrender is not None and surrender > max(values["split"], current):
                if values["split"] > current:
                    pairs[_chart_value(hand.first)][_chart_value(up)] = "Rp"
            elif values["split"] > current:
                pairs[_chart_value(hand.first)][_chart_value(up)] = "P"
    chart = StrategyChart(hard, soft, pairs)
    by_upcard: dict[int, float] = {}
    for up, column in columns.items():
        total_ev = 0.0
        for hand in column.hands:
            values = column.option_values(hand)
            if (up, hand.first) in split_values and hand.first == hand.second:
                values["split"] = round_value(
                    column.context, hand, split_values[(up, hand.first)], early_surrender=False
                )
            total_ev += hand.probability * _resolved_value(chart, column, hand, values)
        by_upcard[up] = total_ev
    ev = sum(setup.card_probability(up) * value for up, value in by_upcard.items())
    return BasicStrategyAnalysis(chart, ev, by_upcard)


def _total_code_of_pair(
    hard: dict[int, dict[int, str]], soft: dict[int, dict[int, str]], pair: int, up: int
) -> str:
    if pair == ACE:
        return soft[12][_chart_value(up)]
    return hard[2 * (pair + 1)][_chart_value(up)]


def _resolved_value(
    chart: StrategyChart, column: _Column, hand: InitialHand, values: dict[str, float]
) -> float:
    """The round value of the move the chart makes for this two-card hand."""
    if hand.blackjack:
        return values["blackjack"]
    space = column.context.setup.space
    rules = column.context.setup.rules
    allowed = {Move.HIT, Move.STAND}
    if "double" in values:
        allowed.add(Move.DOUBLE)
    if "split" in values:
        allowed.add(Move.SPLIT)
    if rules.surrender is not Surrender.NONE:
        allowed.add(Move.SURRENDER)
    move = chart.decide(
        hard=int(space.hard[hand.hand]),
        soft=bool(space.soft[hand.hand]),
        pair_value=_chart_value(hand.first) if "split" in values else None,
        upcard=_chart_value(column.context.upcard),
        allowed=frozenset(allowed),
        double_after_split=rules.double_after_split,
    )
    if move is Move.SURRENDER:
        return values.get("surrender", -0.5)
    return values[move.value]


def basic_strategy(rules: Rules) -> StrategyChart:
    """The total-dependent basic strategy chart for ``rules``."""
    return basic_strategy_analysis(rules).chart


def basic_strategy_return(rules: Rules) -> float:
    """The player's EV per initial bet playing :func:`basic_strategy` (splits included)."""
    return basic_strategy_analysis(rules).ev
