"""The compiled kernel against the pure-Python engine: same cards, same decisions, same net.

Each round is dealt from a really shuffled shoe (seeded), often rigged so that the box holds a
pair or the dealer shows an ace, so that splits, resplits, doubles, insurance and surrender
all occur many times. The kernel plays the round and records its decisions; the engine
replays them as a scenario, which also checks that every decision was legal when made.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from twentyone.analysis.strategy import basic_strategy
from twentyone.cards import DECK, Card
from twentyone.presets import CASINO, ONLINE
from twentyone.rules import Double, EnhcLoses, Peek, Rules, SplitBy, Surrender, Ties
from twentyone.scenario import run_scenario
from twentyone.simulation.counting import counting_system, index_set
from twentyone.simulation.runner import SimulationConfig
from twentyone.simulation.trace import scenario, trace_round

RULE_VARIANTS: dict[str, Rules] = {
    "casino": CASINO,
    "online": ONLINE,
    "casino-obo-h17": CASINO.replace(enhc_loses=EnhcLoses.ORIGINAL, dealer_hits_soft_17=True),
    "casino-resplit-hit-aces": CASINO.replace(resplit_aces=True, hit_split_aces=True),
    "casino-early-surrender": CASINO.replace(surrender=Surrender.EARLY),
    "casino-6to5-rank-ties": CASINO.replace(
        blackjack_pays=Fraction(6, 5), split_by=SplitBy.RANK, ties=Ties.DEALER_WINS
    ),
    "online-late-9to11-nodas": ONLINE.replace(
        surrender=Surrender.LATE, double=Double.NINE_TO_ELEVEN, double_after_split=False
    ),
    "online-early-surrender-4hands": ONLINE.replace(surrender=Surrender.EARLY, max_hands=4),
    "ace-peek-obo": ONLINE.replace(
        peek=Peek.ACE, enhc_loses=EnhcLoses.ORIGINAL, surrender=Surrender.LATE, max_hands=4
    ),
    "single-deck-no-insurance": ONLINE.replace(decks=1, insurance=False, max_hands=3),
}


def rigged_shoes(decks: int, count: int, seed: int) -> list[list[Card]]:
    """Shuffled shoes; every third gets a pair for the box, every fourth an ace up."""
    generator = random.Random(seed)
    shoes = []
    for index in range(count):
        shoe = list(DECK) * decks
        generator.shuffle(shoe)
        if index % 3 == 0:
            _bring(shoe, 2, lambda card, first=shoe[0]: card.value == first.value)
        if index % 4 == 0:
            _bring(shoe, 1, lambda card: card.rank == "A")
        shoes.append(shoe[:90])
    return shoes


def _bring(shoe: list[Card], position: int, wanted: object) -> None:
    for index in range(3, len(shoe)):
        if wanted(shoe[index]):  # type: ignore[operator]
            shoe[position], shoe[index] = shoe[index], shoe[position]
            return


def cross_check(config: SimulationConfig, rounds: int, seed: int) -> Counter[str]:
    seen: Counter[str] = Counter()
    for cards in rigged_shoes(config.rules.decks or 6, rounds, seed):
        traced = trace_round(config, cards, bet=1000)
        replayed = run_scenario(scenario(config.rules, traced))
        assert replayed["boxes"][0]["net"] == traced.net, (traced, replayed)
        seen.update(decision.split()[0] for decision in traced.decisions)
    return seen


@pytest.mark.parametrize("name", sorted(RULE_VARIANTS))
def test_kernel_matches_engine_with_the_chart(name: str) -> None:
    rules = RULE_VARIANTS[name]
    seen = cross_check(SimulationConfig(rules, basic_strategy(rules)), rounds=400, seed=len(name))
    assert seen["split"] > 10 and seen["double"] > 10 and seen["hit"] > 50


def test_kernel_matches_engine_with_insurance_and_surrender_taken() -> None:
    # Insure always and surrender whatever the chart allows: the rarer settlements.
    config = SimulationConfig(CASINO, basic_strategy(CASINO), insure_at=-1e9)
    seen = cross_check(config, rounds=400, seed=11)
    assert seen["insurance"] > 50 and seen["surrender"] > 5


def test_kernel_matches_engine_when_playing_hi_lo_index_plays() -> None:
    hi_lo = counting_system("hi-lo")
    indices = index_set("hi-lo-i18-fab4")
    for rules in (CASINO, ONLINE.replace(surrender=Surrender.LATE)):
        config = SimulationConfig.for_rules(
            rules, chart=basic_strategy(rules), system=hi_lo, indices=indices
        )
        cross_check(config, rounds=300, seed=5)


def test_engine_rejects_a_tampered_decision() -> None:
    """The cross-check can fail: a wrong decision is caught by the engine or changes the net."""
    config = SimulationConfig(CASINO, basic_strategy(CASINO))
    mismatches = 0
    for cards in rigged_shoes(6, 60, seed=3):
        traced = trace_round(config, cards, bet=1000)
        data = scenario(config.rules, traced)
        if data["decisions"] and data["decisions"][-1] == "stand":
            data["decisions"][-1] = "hit"
            try:
                mismatches += run_scenario(data)["boxes"][0]["net"] != traced.net
            except ValueError:
                mismatches += 1
    assert mismatches > 5
