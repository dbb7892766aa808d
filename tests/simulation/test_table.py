"""Several boxes at one table: the table kernel against the one-box kernel and the engine."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from tests.simulation import kernel_probes
from twentyone.analysis.strategy import basic_strategy
from twentyone.cards import DECK, Card
from twentyone.presets import CASINO, ONLINE
from twentyone.rules import Double, EnhcLoses, Peek, Rules, Shuffle, SplitBy, Surrender, Ties
from twentyone.scenario import run_scenario
from twentyone.simulation import kernels, runner
from twentyone.simulation.counting import BetRamp, counting_system, index_set
from twentyone.simulation.errors import CountingDataError, SimulationError
from twentyone.simulation.runner import KernelInputs, SimulationConfig, run_chunk, simulate
from twentyone.simulation.trace import scenario, trace_round

#: Multi-box variants: no hole card (the casino table) and peek games on a 7-box table.
TABLE_VARIANTS: dict[str, Rules] = {
    "casino": CASINO,
    "casino-obo-h17": CASINO.replace(enhc_loses=EnhcLoses.ORIGINAL, dealer_hits_soft_17=True),
    "casino-resplit-hit-aces": CASINO.replace(resplit_aces=True, hit_split_aces=True),
    "casino-early-surrender-6to5-ties": CASINO.replace(
        surrender=Surrender.EARLY,
        blackjack_pays=Fraction(6, 5),
        ties=Ties.DEALER_WINS,
        split_by=SplitBy.RANK,
    ),
    "peek": ONLINE.replace(max_boxes=7, max_hands=4, surrender=Surrender.LATE),
    "peek-early-surrender": ONLINE.replace(max_boxes=7, surrender=Surrender.EARLY, max_hands=3),
    "ace-peek-obo-9to11-nodas": ONLINE.replace(
        max_boxes=7,
        peek=Peek.ACE,
        enhc_loses=EnhcLoses.ORIGINAL,
        double=Double.NINE_TO_ELEVEN,
        double_after_split=False,
    ),
}


def table_shoes(boxes: int, count: int, seed: int) -> list[list[Card]]:
    """Shuffled 6-deck shoes; often a pair for some box, often an ace up."""
    generator = random.Random(seed)
    shoes = []
    for index in range(count):
        shoe = list(DECK) * 6
        generator.shuffle(shoe)
        for box in range(boxes):
            if generator.random() < 0.4:  # a pair: the second card (position boxes + 1 + box)
                _bring(shoe, boxes + 1 + box, 2 * boxes + 1, shoe[box].value)
        if index % 3 == 0:
            _bring(shoe, boxes, 2 * boxes + 1, 1)  # ace up
        shoes.append(shoe[:120])
    return shoes


def _bring(shoe: list[Card], position: int, start: int, value: int) -> None:
    for index in range(start, len(shoe)):
        if shoe[index].value == value:
            shoe[position], shoe[index] = shoe[index], shoe[position]
            return


def cross_check_table(config: SimulationConfig, rounds: int, seed: int) -> Counter[str]:
    seen: Counter[str] = Counter()
    for cards in table_shoes(config.boxes, rounds, seed):
        traced = trace_round(config, cards, bet=1000)
        replayed = run_scenario(scenario(config.rules, traced))
        nets = tuple(box["net"] for box in replayed["boxes"])
        assert nets == traced.nets, (traced, replayed)
        seen.update(decision.split()[0] for decision in traced.decisions)
    return seen


@pytest.mark.parametrize("name", sorted(TABLE_VARIANTS))
def test_table_kernel_matches_engine_box_by_box(name: str) -> None:
    rules = TABLE_VARIANTS[name]
    seen: Counter[str] = Counter()
    for boxes in (2, 3, 7):
        config = SimulationConfig(rules, basic_strategy(rules), boxes=boxes)
        seen += cross_check_table(config, rounds=150, seed=boxes + len(name))
    assert seen["split"] > 30 and seen["double"] > 30 and seen["stand"] > 100
    if rules.surrender is not Surrender.NONE:
        assert seen["surrender"] > 5


def test_table_kernel_matches_engine_with_insurance_and_a_count() -> None:
    hi_lo = counting_system("hi-lo")
    indices = index_set("hi-lo-i18-fab4")
    for rules in (CASINO, TABLE_VARIANTS["peek"]):
        config = SimulationConfig.for_rules(
            rules, basic_strategy(rules), hi_lo, indices, BetRamp.parse("1:2,2:4"), boxes=4
        )
        seen = cross_check_table(config, rounds=200, seed=8)
        insured = SimulationConfig(rules, basic_strategy(rules), insure_at=-1e9, boxes=3)
        seen += cross_check_table(insured, rounds=200, seed=9)
        assert seen["insurance"] > 100 and seen["no-insurance"] > 20


def test_one_box_table_kernel_equals_the_one_box_kernel() -> None:
    """The general loop with one box plays exactly as the specialised kernel (same seed)."""
    hi_lo = counting_system("hi-lo")
    configs = [
        SimulationConfig(CASINO, basic_strategy(CASINO)),
        SimulationConfig(ONLINE, basic_strategy(ONLINE)),
        SimulationConfig.for_rules(
            CASINO.replace(decks=2),
            basic_strategy(CASINO),
            hi_lo,
            index_set("hi-lo-i18-fab4"),
            BetRamp.parse("1:2,3:8"),
        ),
    ]
    for config in configs:
        inputs = KernelInputs.from_config(config)
        fast = run_chunk(inputs, 3, 1, 100_000)
        general = kernel_probes.general_chunk(inputs, 3, 1, 100_000)
        assert fast.tolist() == general.tolist()


def test_a_table_deals_in_table_order() -> None:
    # Box 1: T + 7 = 17, box 2: 9 + T = 19, dealer 6 up, 8 hole = 14, draws the 5: 19.
    from twentyone.cards import parse_cards

    rules = ONLINE.replace(max_boxes=7)
    config = SimulationConfig(rules, basic_strategy(rules), boxes=2)
    traced = trace_round(config, parse_cards("TS 9H 6D 7C TD 8S 5H"), bet=1000)
    assert traced.decisions == ("stand", "stand")
    assert traced.nets == (-1000, 0)


def test_statistics_count_boxes_and_rounds() -> None:
    rules = CASINO.replace(shuffle=Shuffle.CONTINUOUS)
    one = simulate(SimulationConfig(rules, basic_strategy(rules)), rounds=300_000, seed=4)
    three = simulate(
        SimulationConfig(rules, basic_strategy(rules), boxes=3), rounds=300_000, seed=4
    )
    assert three.box_rounds == 900_000 and three.rounds == 300_000
    assert three.mean_bet == 1
    assert 2.8 < three.hands / three.rounds < 3.2
    frequencies = three.frequencies
    assert frequencies["win"] + frequencies["push"] + frequencies["lose"] == pytest.approx(1)
    assert frequencies["player_blackjack"] == pytest.approx(0.0475, abs=0.003)
    # One box's SD is the one-box game's; the table's round swings more, but less than three
    # independent boxes would (they share the dealer's hand).
    assert three.sd_per_box == pytest.approx(one.sd, rel=0.02)
    assert 3**0.5 * one.sd < three.sd < 3 * one.sd
    # Per initial unit each box has the one-box expectation.
    assert abs(three.ev - one.ev) < 3 * (three.se**2 + one.se**2) ** 0.5
    assert three.to_json()["boxes"] == 3


def test_box_results_do_not_depend_on_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "CHUNK_ROUNDS", 10_000)
    config = SimulationConfig(CASINO, basic_strategy(CASINO), boxes=5)
    assert simulate(config, 25_000, seed=2, workers=1) == simulate(config, 25_000, 2, workers=2)


@pytest.mark.parametrize("boxes", [0, 8, True])
def test_boxes_outside_the_table_are_refused(boxes: int) -> None:
    with pytest.raises(SimulationError, match="boxes"):
        SimulationConfig(CASINO, basic_strategy(CASINO), boxes=boxes)


def test_online_table_takes_one_box() -> None:
    with pytest.raises(SimulationError, match="1 to 1"):
        SimulationConfig(ONLINE, basic_strategy(ONLINE), boxes=2)


def test_cd_play_takes_no_index_plays() -> None:
    from twentyone.simulation.cd import cd_strategy

    with pytest.raises(CountingDataError):
        SimulationConfig.for_rules(
            ONLINE,
            system=counting_system("hi-lo"),
            indices=index_set("hi-lo-i18-fab4"),
            cd=cd_strategy(ONLINE),
        )


def test_kernel_inputs_pick_the_kernel() -> None:
    inputs = KernelInputs.from_config(SimulationConfig(CASINO, basic_strategy(CASINO)))
    assert inputs.one_box_chart
    assert not dataclasses.replace(inputs, boxes=2).one_box_chart
    assert np.all(inputs.cd_child == 0) and inputs.cd_codes.shape == (1, 11)
    assert kernels.BW_SIZE == 5
