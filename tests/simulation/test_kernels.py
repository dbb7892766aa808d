"""The kernels' building blocks: generator, bounded integers, lazy Fisher-Yates shoe, encoding."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from tests.simulation import kernel_probes
from twentyone.analysis.strategy import basic_strategy
from twentyone.cards import parse_cards
from twentyone.presets import CASINO, ONLINE
from twentyone.rules import Rules, Shuffle
from twentyone.simulation import kernels
from twentyone.simulation.encoding import (
    CODE_NUMBERS,
    encode_rules,
    encode_strategy,
    ticks_per_unit,
)
from twentyone.simulation.errors import SimulationError, UnsupportedRulesError
from twentyone.simulation.runner import (
    KernelInputs,
    SimulationConfig,
    chunk_generator_state,
    run_chunk,
)
from twentyone.simulation.trace import trace_round


def test_xoshiro256_starstar_matches_the_reference_sequence() -> None:
    # First outputs of the reference C implementation for the state {1, 2, 3, 4}.
    state = np.array([1, 2, 3, 4], dtype=np.uint64)
    outputs = [int(kernels.next_u64(state)) for _ in range(3)]
    assert outputs == [11520, 0, 1509978240]


def test_bounded_integers_are_uniform_and_in_range() -> None:
    state = chunk_generator_state(5, 0)
    draws = Counter(int(kernels.below(state, 13)) for _ in range(65_000))
    assert set(draws) == set(range(13))
    expected = 5000
    chi_square = sum((count - expected) ** 2 / expected for count in draws.values())
    assert chi_square < 40  # 12 degrees of freedom: p < 1e-4 beyond this


def test_chunk_states_differ_by_seed_and_chunk() -> None:
    states = {
        tuple(int(x) for x in chunk_generator_state(seed, chunk))
        for seed in range(3)
        for chunk in range(3)
    }
    assert len(states) == 9


def test_cut_card_shoe_reshuffles_at_the_cut_card() -> None:
    rules = CASINO.replace(decks=2)  # 104 cards, cut after 78
    stats = run_chunk(
        KernelInputs.from_config(SimulationConfig(rules, basic_strategy(rules))), 1, 0, 5000
    )
    # About 5.4 cards a round: a shoe lasts about 78 / 5.4 + 1 = 15 rounds.
    rounds_per_shoe = 5000 / stats[kernels.ST_SHUFFLES]
    assert 13 < rounds_per_shoe < 17


def test_every_round_shuffle_counts_one_shuffle_a_round() -> None:
    stats = run_chunk(
        KernelInputs.from_config(SimulationConfig(ONLINE, basic_strategy(ONLINE))), 1, 0, 500
    )
    assert stats[kernels.ST_SHUFFLES] == 500


def test_lazy_fisher_yates_deals_a_permutation_of_the_shoe() -> None:
    """Deal one whole single-deck shoe card by card: every card exactly once."""
    params = encode_rules(Rules(decks=1, shuffle=Shuffle.CUT_CARD))
    shoe = np.array([(i % 13) + 1 for i in range(52)], dtype=np.int8)
    state = np.zeros(kernels.SS_SIZE, dtype=np.int64)
    rng = chunk_generator_state(9, 0)
    dealt = [int(kernel_probes.draw(params, shoe, state, rng)) for _ in range(52)]
    assert Counter(dealt) == Counter({rank: 4 for rank in range(1, 14)})


def test_rank_positions_are_uniform_over_many_shuffles() -> None:
    params = encode_rules(Rules(decks=1, shuffle=Shuffle.CUT_CARD))
    rng = chunk_generator_state(3, 0)
    aces_first = 0
    trials = 26_000
    for _ in range(trials):
        shoe = np.array([(i % 13) + 1 for i in range(52)], dtype=np.int8)
        state = np.zeros(kernels.SS_SIZE, dtype=np.int64)
        aces_first += int(kernel_probes.draw(params, shoe, state, rng)) == 1
    # P(ace on top) = 1/13: 2000 expected, sd about 43.
    assert abs(aces_first - trials / 13) < 200


def test_rules_the_kernel_cannot_play_are_refused() -> None:
    with pytest.raises(UnsupportedRulesError):
        encode_rules(CASINO.replace(aces_high=False))


def test_ticks_make_every_payout_whole() -> None:
    from fractions import Fraction

    assert ticks_per_unit(CASINO) == 4
    assert ticks_per_unit(CASINO.replace(blackjack_pays=Fraction(6, 5))) == 10


def test_chart_cells_are_encoded_where_the_kernel_reads_them() -> None:
    chart = basic_strategy(ONLINE)  # S17, peek, no surrender
    encoded = encode_strategy(chart)
    assert chart.hard[11][10] == "D" and chart.soft[18][9] == "H" and chart.pairs[9][7] == "S"
    assert encoded.codes[kernels.TABLE_HARD, 11, 10, 0] == kernels.CODE_DH
    assert encoded.codes[kernels.TABLE_SOFT, 18, 9, 0] == kernels.CODE_H
    assert encoded.codes[kernels.TABLE_PAIR, 9, 7, 0] == kernels.CODE_S
    for table, rows in ((kernels.TABLE_HARD, chart.hard), (kernels.TABLE_PAIR, chart.pairs)):
        for row, cells in rows.items():
            for up, code in cells.items():
                assert encoded.codes[table, row, up, 0] == CODE_NUMBERS[code]
    assert not encoded.counts.any()


def test_traced_round_with_a_peeked_dealer_blackjack() -> None:
    config = SimulationConfig(ONLINE, basic_strategy(ONLINE), insure_at=-1e9)
    traced = trace_round(config, parse_cards("9S AH 7D KC"), bet=1000)
    # Insured 500 at 2:1 pays 1000; the 16 loses 1000.
    assert traced.decisions == ("insurance 500",)
    assert traced.net == 0
    assert traced.cards_used == 4


def test_traced_round_reports_a_short_shoe() -> None:
    config = SimulationConfig(CASINO, basic_strategy(CASINO))
    with pytest.raises(SimulationError, match="more than the 3 cards"):
        trace_round(config, parse_cards("9S 7H 5D"))
