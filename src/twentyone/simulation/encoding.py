"""Rules, strategy charts and index plays as the integer arrays the kernels read.

>>> from twentyone.presets import CASINO
>>> params = encode_rules(CASINO)
>>> int(params[kernels.RP_DECKS]), int(params[kernels.RP_CUT]), int(params[kernels.RP_PEEK])
(6, 234, 2)
>>> encode_rules(CASINO.replace(aces_high=False))
Traceback (most recent call last):
...
twentyone.errors.UnsupportedRulesError: the simulator plays house-banked blackjack: aces that count 1 only (aces_high=False) are not supported
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from twentyone.errors import UnsupportedRulesError
from twentyone.rules import (
    Double,
    EnhcLoses,
    FiveCardHand,
    Peek,
    Rules,
    Shuffle,
    SplitBy,
    Surrender,
    Ties,
)
from twentyone.simulation import kernels
from twentyone.simulation.counting import CountingSystem, IndexPlay
from twentyone.strategy_chart import StrategyChart

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

CODE_NUMBERS = {
    "H": kernels.CODE_H,
    "S": kernels.CODE_S,
    "D": kernels.CODE_DH,
    "Dh": kernels.CODE_DH,
    "Ds": kernels.CODE_DS,
    "P": kernels.CODE_P,
    "Ph": kernels.CODE_PH,
    "Rh": kernels.CODE_RH,
    "Rs": kernels.CODE_RS,
    "Rp": kernels.CODE_RP,
}
_TABLE_NUMBERS = {
    "hard": kernels.TABLE_HARD,
    "soft": kernels.TABLE_SOFT,
    "pair": kernels.TABLE_PAIR,
}
_SHUFFLE_NUMBERS = {
    Shuffle.EVERY_ROUND: kernels.SHUFFLE_EVERY_ROUND,
    Shuffle.CUT_CARD: kernels.SHUFFLE_CUT_CARD,
    Shuffle.CONTINUOUS: kernels.SHUFFLE_CONTINUOUS,
}
_PEEK_NUMBERS = {
    Peek.ACE_TEN: kernels.PEEK_ACE_TEN,
    Peek.ACE: kernels.PEEK_ACE,
    Peek.NONE: kernels.PEEK_NONE,
}
_DOUBLE_NUMBERS = {
    Double.ANY: kernels.DOUBLE_ANY,
    Double.NINE_TO_ELEVEN: kernels.DOUBLE_9_11,
    Double.TEN_TO_ELEVEN: kernels.DOUBLE_10_11,
    Double.NONE: kernels.DOUBLE_NONE,
}
_SURRENDER_NUMBERS = {
    Surrender.NONE: kernels.SURRENDER_NONE,
    Surrender.LATE: kernels.SURRENDER_LATE,
    Surrender.EARLY: kernels.SURRENDER_EARLY,
}


def encode_rules(
    rules: Rules, count_mode: int = kernels.COUNT_NONE, initial_count: int = 0
) -> IntArray:
    """The kernel's rule array (slots ``kernels.RP_*``); unsupported rules are an error."""
    if not rules.aces_high:
        raise UnsupportedRulesError(
            "the simulator plays house-banked blackjack: aces that count 1 only "
            "(aces_high=False) are not supported"
        )
    if rules.five_card_hand is not FiveCardHand.NONE:
        raise UnsupportedRulesError(
            "the simulator plays house-banked blackjack: five-card hands are not supported"
        )
    params = np.zeros(kernels.RP_SIZE, dtype=np.int64)
    if rules.decks is None:
        params[kernels.RP_DECKS] = 0
        params[kernels.RP_SHUFFLE] = kernels.SHUFFLE_INFINITE
    else:
        params[kernels.RP_DECKS] = rules.decks
        params[kernels.RP_SHUFFLE] = _SHUFFLE_NUMBERS[rules.shuffle]
        # Same position as twentyone.shoe.FiniteShoe: int(cards * penetration).
        params[kernels.RP_CUT] = int(52 * rules.decks * rules.penetration)
    params[kernels.RP_H17] = int(rules.dealer_hits_soft_17)
    params[kernels.RP_PEEK] = _PEEK_NUMBERS[rules.peek]
    params[kernels.RP_ENHC_LOSES] = (
        kernels.LOSES_ALL if rules.enhc_loses is EnhcLoses.ALL else kernels.LOSES_ORIGINAL
    )
    params[kernels.RP_BJ_NUM] = rules.blackjack_pays.numerator
    params[kernels.RP_BJ_DEN] = rules.blackjack_pays.denominator
    params[kernels.RP_DOUBLE] = _DOUBLE_NUMBERS[rules.double]
    params[kernels.RP_DAS] = int(rules.double_after_split)
    params[kernels.RP_SPLIT_BY] = (
        kernels.SPLIT_BY_RANK if rules.split_by is SplitBy.RANK else kernels.SPLIT_BY_VALUE
    )
    params[kernels.RP_MAX_HANDS] = rules.max_hands
    params[kernels.RP_RESPLIT_ACES] = int(rules.resplit_aces)
    params[kernels.RP_HIT_SPLIT_ACES] = int(rules.hit_split_aces)
    params[kernels.RP_SURRENDER] = _SURRENDER_NUMBERS[rules.surrender]
    params[kernels.RP_INSURANCE] = int(rules.insurance)
    params[kernels.RP_TIES] = int(rules.ties is Ties.DEALER_WINS)
    params[kernels.RP_COUNT_MODE] = count_mode
    params[kernels.RP_INITIAL_COUNT] = initial_count
    return params


def ticks_per_unit(rules: Rules) -> int:
    """Kernel money: one unit bet is this many ticks (every payout is then whole)."""
    return 2 * rules.blackjack_pays.denominator


@dataclass(frozen=True)
class EncodedStrategy:
    """A chart plus index plays: ``codes[table, row, up, k]`` switches at ``thresholds[..., k]``."""

    codes: IntArray  # [3, 22, 11, K + 1]
    thresholds: FloatArray  # [3, 22, 11, K]
    counts: IntArray  # [3, 22, 11]: how many thresholds a cell has


def encode_strategy(chart: StrategyChart, plays: Sequence[IndexPlay] = ()) -> EncodedStrategy:
    """Encode a chart; index plays replace the cells they name (the chart code is unused there).

    >>> from twentyone.analysis.strategy import basic_strategy
    >>> from twentyone.presets import CASINO
    >>> encoded = encode_strategy(basic_strategy(CASINO))
    >>> int(encoded.codes[kernels.TABLE_HARD, 16, 10, 0]) == CODE_NUMBERS["Rh"]
    True
    """
    depth = max([len(play.steps) for play in plays] + [1])
    codes = np.zeros((3, 22, 11, depth + 1), dtype=np.int64)
    thresholds = np.zeros((3, 22, 11, depth), dtype=np.float64)
    counts = np.zeros((3, 22, 11), dtype=np.int64)
    for table_name, table in (("hard", chart.hard), ("soft", chart.soft), ("pair", chart.pairs)):
        number = _TABLE_NUMBERS[table_name]
        for row, cells in table.items():
            for up, code in cells.items():
                codes[number, row, up, 0] = CODE_NUMBERS[code]
    for play in plays:
        number = _TABLE_NUMBERS[play.table]
        cell = (number, play.row, play.upcard)
        codes[(*cell, 0)] = CODE_NUMBERS[play.below]
        counts[cell] = len(play.steps)
        for k, (threshold, code) in enumerate(play.steps):
            thresholds[(*cell, k)] = threshold
            codes[(*cell, k + 1)] = CODE_NUMBERS[code]
    return EncodedStrategy(codes, thresholds, counts)


def encode_tags(system: CountingSystem | None) -> IntArray:
    """Count tag of each rank 1..13 (index 0 unused); all zero without a system."""
    tags = np.zeros(14, dtype=np.int64)
    if system is not None:
        for rank in range(1, 14):
            tags[rank] = system.tags[min(rank, 10)]
    return tags
