"""Composition-dependent play: the shipped data against the analysis, the kernels' O(1) lookup
against the slow reference player, the engine's replay, and the analysis's optimal-CD EV."""

from __future__ import annotations

import random

import numpy as np
import pytest

from twentyone.analysis.hand_ev import hand_ev
from twentyone.analysis.house_edge import expected_return
from twentyone.analysis.strategy import basic_strategy
from twentyone.cards import DECK, Card
from twentyone.house.actions import ActionKind
from twentyone.house.round import Round
from twentyone.presets import CASINO, ONLINE
from twentyone.rules import Rules, Shuffle
from twentyone.scenario import run_scenario
from twentyone.shoe import ScriptedShoe
from twentyone.simulation import kernels
from twentyone.simulation.cd import (
    SHIPPED,
    CDStrategyError,
    CompositionStrategy,
    best_code,
    cd_strategy,
    compositions,
    needs_decision,
    shipped_strategy,
)
from twentyone.simulation.encoding import CODE_NUMBERS
from twentyone.simulation.runner import SimulationConfig, simulate
from twentyone.simulation.trace import scenario, trace_round

PRESETS = {"casino": CASINO, "online": ONLINE}
LABELS = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "T")


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_data_is_the_analysis_best_move(name: str) -> None:
    """A random sample of the shipped cells, recomputed from the exact analysis."""
    rules = PRESETS[name]
    strategy = shipped_strategy(name)
    strategy.check_rules(rules)
    wanted = [cards for cards in compositions() if needs_decision(cards)]
    assert set(strategy.codes) == set(wanted)
    generator = random.Random(name)
    for cards in generator.sample(wanted, 25):
        up = generator.randrange(1, 11)
        labels = [LABELS[value] for value in cards]
        options = hand_ev(rules, labels, LABELS[up]).options
        assert strategy.code(cards, up) == best_code(options), (cards, up, options)


def test_cd_data_differs_from_the_chart_where_the_composition_matters() -> None:
    """Three-card 16 against a ten stands under CD (6 decks); two-card 16 hits (the chart)."""
    strategy = shipped_strategy("online")
    chart = basic_strategy(ONLINE)
    assert chart.hard[16][10] == "H"
    assert strategy.code((6, 10), 10) == "H"
    three_card_16 = [c for c in compositions() if len(c) == 3 and sum(c) == 16 and 1 not in c]
    assert any(strategy.code(cards, 10) == "S" for cards in three_card_16)


def test_strategy_of_other_rules_is_refused() -> None:
    with pytest.raises(CDStrategyError, match="other rules"):
        SimulationConfig(
            CASINO.replace(decks=2), basic_strategy(CASINO), cd=shipped_strategy("casino")
        )
    with pytest.raises(CDStrategyError):
        CompositionStrategy.from_json({"format": "nope"})
    with pytest.raises(CDStrategyError):
        CompositionStrategy(dict(shipped_strategy("casino").rules), {(10, 6): ("H",) * 10})


def test_the_composition_table_finds_every_hand_in_o1() -> None:
    """Walking the child table card by card (any order) reaches the composition's codes."""
    strategy = shipped_strategy("casino")
    child, codes = strategy.encode()
    generator = random.Random(1)
    for _ in range(3000):
        cards: list[int] = []
        node = 0
        while True:
            value = generator.randrange(1, 11)
            if sum(cards) + value > 21:
                break
            cards.append(value)
            node = int(child[node, value])
        if len(cards) < 2:
            continue
        up = generator.randrange(1, 11)
        expected = strategy.code(tuple(sorted(cards)), up)
        assert int(codes[node, up]) == CODE_NUMBERS[expected], (cards, up)
    assert child.dtype == np.int32 and codes.dtype == np.int8


def _shoes(count: int, seed: int, boxes: int) -> list[list[Card]]:
    generator = random.Random(seed)
    shoes = []
    for index in range(count):
        shoe = list(DECK) * 6
        generator.shuffle(shoe)
        if index % 4 == 0:  # small cards: many-card hands, where CD play differs from totals
            small = [card for card in shoe if card.value in (1, 2, 3, 4)]
            rest = [card for card in shoe if card.value not in (1, 2, 3, 4)]
            shoe = rest[: boxes + 1] + small[:40] + rest[boxes + 1 :]
        shoes.append(shoe[:120])
    return shoes


@pytest.mark.parametrize(("name", "boxes"), [("casino", 1), ("casino", 3), ("online", 1)])
def test_kernel_plays_the_reference_cd_player_and_the_engine_agrees(name: str, boxes: int) -> None:
    """Every decision of the kernel is the slow reference's; the engine replays the round."""
    rules = PRESETS[name]
    strategy = cd_strategy(rules)
    chart = basic_strategy(rules)
    config = SimulationConfig(rules, chart, cd=strategy, boxes=boxes)
    checked = 0
    for cards in _shoes(600, seed=boxes, boxes=boxes):
        traced = trace_round(config, cards, bet=1000)
        replayed = run_scenario(scenario(rules, traced))
        assert tuple(box["net"] for box in replayed["boxes"]) == traced.nets
        round_ = Round.deal(rules, [1000] * boxes, ScriptedShoe(list(traced.cards)))
        for decision in traced.decisions:
            hand = round_.current_hand
            legal = {action.kind for action in round_.legal_actions()}
            if hand is not None and ActionKind.SPLIT not in legal:
                values = [card.value for card in hand.cards]
                expected = strategy.decide(
                    values,
                    round_.upcard.value,
                    can_double=ActionKind.DOUBLE in legal,
                    can_surrender=ActionKind.SURRENDER in legal,
                )
                assert decision == expected, (values, round_.upcard, decision, expected)
                checked += 1
            round_.act(next(a for a in round_.legal_actions() if str(a) == decision))
    assert checked > 600


@pytest.mark.parametrize("name", SHIPPED)
def test_cd_play_agrees_with_the_exact_optimal_ev(name: str) -> None:
    """Continuous shuffle: within 3 standard errors of the analysis's optimal-CD EV."""
    rules: Rules = PRESETS[name].replace(shuffle=Shuffle.CONTINUOUS)
    config = SimulationConfig(rules, basic_strategy(rules), cd=cd_strategy(rules))
    result = simulate(config, rounds=1_500_000, seed=5)
    exact = expected_return(rules)
    assert abs(result.ev - exact) < 3 * result.se, (result.ev, exact, result.se)
    assert result.totals[kernels.ST_BOXES] == 1_500_000
