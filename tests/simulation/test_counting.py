"""Counting systems, index plays and bet ramps: data validation and what counting earns."""

from __future__ import annotations

import pytest

from twentyone.analysis.strategy import basic_strategy
from twentyone.presets import CASINO, ONLINE
from twentyone.rules import Peek
from twentyone.simulation.counting import (
    BetRamp,
    CountingSystem,
    IndexPlay,
    counting_system,
    index_set,
    system_names,
)
from twentyone.simulation.encoding import encode_strategy
from twentyone.simulation.errors import CountingDataError
from twentyone.simulation.runner import SimulationConfig, simulate

HI_LO_TAGS = {"A": -1, "2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "7": 0, "8": 0, "9": 0, "T": -1}


def test_shipped_systems_are_complete_and_their_balance_checked() -> None:
    assert {"hi-lo", "hi-opt-i", "omega-ii", "zen", "ko"} <= set(system_names())
    for name in system_names():
        system = counting_system(name)
        deck_sum = sum(tag * (16 if value == 10 else 4) for value, tag in system.tags.items())
        assert system.balanced == (deck_sum == 0)
    assert counting_system("ko").initial_running_count(6) == -20
    assert counting_system("hi-lo").initial_running_count(6) == 0


def test_a_system_that_lies_about_its_balance_is_refused() -> None:
    with pytest.raises(CountingDataError, match="sum to 4"):
        CountingSystem.from_json("bad", {"tags": {**HI_LO_TAGS, "7": 1}, "balanced": True})
    with pytest.raises(CountingDataError, match="must tag"):
        CountingSystem.from_json("bad", {"tags": {"A": -1}, "balanced": True})
    with pytest.raises(CountingDataError, match="whole number"):
        CountingSystem.from_json("bad", {"tags": {**HI_LO_TAGS, "5": 1.5}, "balanced": False})


def test_index_plays_are_validated() -> None:
    with pytest.raises(CountingDataError, match="no chart cell"):
        IndexPlay.from_json({"hand": "hard 3", "upcard": "T", "below": "H", "at": [[0, "S"]]})
    with pytest.raises(CountingDataError, match="unknown code"):
        IndexPlay.from_json({"hand": "hard 16", "upcard": "T", "below": "X", "at": [[0, "S"]]})
    with pytest.raises(CountingDataError, match="ascending"):
        IndexPlay.from_json(
            {"hand": "hard 15", "upcard": "T", "below": "H", "at": [[4, "S"], [0, "Rh"]]}
        )


def test_the_hi_lo_set_has_the_illustrious_18_and_the_fab_4() -> None:
    indices = index_set("hi-lo-i18-fab4")
    assert indices.system == "hi-lo" and indices.insurance == 3
    cells = {(play.describe(), tuple(play.steps)) for play in indices.plays}
    assert ("hard 16 vs T", ((0.0, "Rs"),)) in cells
    assert ("pair T vs 5", ((5.0, "P"),)) in cells
    assert ("hard 15 vs T", ((0.0, "Rh"), (4.0, "Rs"))) in cells
    assert len(indices.plays) == 20  # 17 chart plays of the 18 (insurance apart) + 4 - 1 shared


def test_index_plays_replace_their_cells() -> None:
    encoded = encode_strategy(basic_strategy(CASINO), index_set("hi-lo-i18-fab4").plays)
    assert encoded.counts.sum() == 21  # 15 vs T has two steps


def test_bet_ramps() -> None:
    ramp = BetRamp.parse("1:2,2:4,3:8,4:12")
    assert [ramp.bet_at(count) for count in (-3, 0.99, 1, 2.5, 3, 9)] == [1, 1, 2, 4, 8, 12]
    assert ramp.spread == 12
    for bad in ("", "1:2,1:4", "x:2", "1:0", "2"):
        with pytest.raises(CountingDataError):
            BetRamp.parse(bad)


def test_ramps_and_indices_need_a_matching_system() -> None:
    with pytest.raises(CountingDataError, match="need a counting system"):
        SimulationConfig(CASINO, basic_strategy(CASINO), ramp=BetRamp.parse("2:4"))
    with pytest.raises(CountingDataError, match="is for 'hi-lo'"):
        SimulationConfig.for_rules(
            CASINO, basic_strategy(CASINO), counting_system("ko"), index_set("hi-lo-i18-fab4")
        )


def test_a_count_changes_nothing_when_the_shoe_is_shuffled_every_round() -> None:
    ramp = BetRamp.parse("1:2,2:4,3:8,4:12")
    counted = simulate(
        SimulationConfig.for_rules(
            ONLINE, basic_strategy(ONLINE), counting_system("hi-lo"), ramp=ramp
        ),
        rounds=50_000,
        seed=4,
    )
    assert counted.mean_bet == 1  # every round starts from a full shoe: true count 0


def test_unbalanced_ko_ramps_on_the_running_count() -> None:
    ramp = BetRamp.parse("-1:2,1:4")
    config = SimulationConfig.for_rules(
        CASINO, basic_strategy(CASINO), counting_system("ko"), ramp=ramp
    )
    result = simulate(config, rounds=50_000, seed=4)
    assert 1 < result.mean_bet < 4


@pytest.mark.slow
def test_hi_lo_with_a_1_to_12_spread_gains_the_published_edge() -> None:
    """Counting references: about +0.5% to +1.5% of initial bets at 6 decks, 75% penetration."""
    rules = CASINO.replace(peek=Peek.ACE_TEN)  # the S17 DAS LS game the Hi-Lo indices are for
    config = SimulationConfig.for_rules(
        rules,
        basic_strategy(rules),
        counting_system("hi-lo"),
        index_set("hi-lo-i18-fab4"),
        BetRamp.parse("1:2,2:4,3:8,4:12"),
    )
    result = simulate(config, rounds=3_000_000, seed=12)
    assert 0.005 < result.ev < 0.015, result.ev
    assert result.se < 0.0015
    assert 2 < result.mean_bet < 2.3
    assert 0 < result.risk_of_ruin(1000) < 0.5
