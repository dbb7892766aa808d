"""Runs: reproducibility across workers, statistics, agreement with the exact analysis."""

from __future__ import annotations

import math

import pytest

from twentyone.analysis.strategy import basic_strategy
from twentyone.presets import CASINO, ONLINE
from twentyone.rules import EnhcLoses, Rules, Shuffle
from twentyone.simulation import runner
from twentyone.simulation.errors import SimulationError
from twentyone.simulation.runner import SimulationConfig, chunk_plan, simulate

#: Wizard of Odds, blackjack appendix 1: infinite deck, S17, peek, OBO, 3:2, DAS, split to 4 hands.
INFINITE_DECK_EV = -0.00511734


def test_same_seed_same_result_for_any_number_of_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "CHUNK_ROUNDS", 20_000)  # several chunks, quickly
    config = SimulationConfig(CASINO, basic_strategy(CASINO))
    one = simulate(config, rounds=70_000, seed=42, workers=1)
    two = simulate(config, rounds=70_000, seed=42, workers=2)
    three = simulate(config, rounds=70_000, seed=42, workers=3)
    assert one == two == three
    assert one.totals != simulate(config, rounds=70_000, seed=43).totals


def test_chunks_cover_the_rounds_whatever_the_size() -> None:
    plan = chunk_plan(3 * runner.CHUNK_ROUNDS + 7)
    assert [index for index, _ in plan] == [0, 1, 2, 3]
    assert sum(size for _, size in plan) == 3 * runner.CHUNK_ROUNDS + 7


def test_progress_is_told_every_round() -> None:
    told: list[int] = []
    simulate(
        SimulationConfig(ONLINE, basic_strategy(ONLINE)), rounds=1234, seed=1, progress=told.append
    )
    assert sum(told) == 1234


@pytest.mark.parametrize(
    ("rounds", "seed", "workers", "message"),
    [
        (0, 1, 1, "rounds"),
        (10, -1, 1, "seed"),
        (10, 2**64, 1, "seed"),
        (10, 1, 0, "workers"),
    ],
)
def test_bad_requests_are_typed_errors(rounds: int, seed: int, workers: int, message: str) -> None:
    with pytest.raises(SimulationError, match=message):
        simulate(SimulationConfig(ONLINE, basic_strategy(ONLINE)), rounds, seed, workers)


def test_statistics_of_a_flat_betting_run() -> None:
    result = simulate(SimulationConfig(ONLINE, basic_strategy(ONLINE)), rounds=200_000, seed=7)
    assert result.mean_bet == 1
    assert 1.1 < result.sd < 1.2  # blackjack's well-known 1.15 units per round
    assert result.se == pytest.approx(result.sd / math.sqrt(200_000), rel=0.01)
    frequencies = result.frequencies
    assert frequencies["win"] + frequencies["push"] + frequencies["lose"] == pytest.approx(1)
    assert frequencies["player_blackjack"] == pytest.approx(0.0475, abs=0.003)
    assert frequencies["insurance"] == 0
    assert result.risk_of_ruin(100) == 1.0  # a losing game ruins for sure
    data = result.to_json(bankroll=100)
    assert set(data) >= {"rules", "rounds", "ev", "se", "sd", "hands_per_second", "seconds"}


def test_infinite_deck_agrees_with_the_published_exact_value() -> None:
    rules = Rules(decks=None, enhc_loses=EnhcLoses.ORIGINAL)
    result = simulate(SimulationConfig(rules, basic_strategy(rules)), rounds=1_500_000, seed=2024)
    assert abs(result.ev - INFINITE_DECK_EV) < 3 * result.se


@pytest.mark.parametrize("preset", [CASINO, ONLINE], ids=["casino", "online"])
def test_continuous_shuffle_agrees_with_the_exact_analysis(preset: Rules) -> None:
    """The spec's self-check: within 3 standard errors of the exact basic-strategy EV."""
    house_edge = pytest.importorskip("twentyone.analysis.house_edge")
    strategy = pytest.importorskip("twentyone.analysis.strategy")
    rules = preset.replace(shuffle=Shuffle.CONTINUOUS)
    chart = strategy.basic_strategy(rules)
    exact = house_edge.basic_strategy_ev(rules)
    result = simulate(SimulationConfig(rules, chart), rounds=1_500_000, seed=99)
    assert abs(result.ev - exact) < 3 * result.se, (result.ev, exact, result.se)
