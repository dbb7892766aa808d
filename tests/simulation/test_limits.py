"""Bounds of a run and hostile input: typed errors that state the allowed range, memory that
does not grow with the number of rounds, totals that cannot overflow."""

from __future__ import annotations

import math
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twentyone.analysis.strategy import basic_strategy
from twentyone.errors import TwentyOneError
from twentyone.presets import CASINO, ONLINE
from twentyone.simulation import runner
from twentyone.simulation.errors import CountingDataError, SimulationError
from twentyone.simulation.runner import (
    MAX_BOXES,
    MAX_ROUNDS,
    MAX_WORKERS,
    SimulationConfig,
    check_request,
    chunk_plan,
    simulate,
)

HOSTILE = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([0, -1, MAX_ROUNDS + 1, 2**64, 2**63]),
    st.builds(lambda sign: sign * 10**5000, st.sampled_from([1, -1])),  # no repr: 5001 digits
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["٢", "1e9", "99999999999999999999999", "inf", "nan"]),
    st.lists(st.integers(), max_size=3),
    st.none(),
)


def test_a_plan_for_a_trillion_rounds_takes_no_memory() -> None:
    tracemalloc.start()
    try:
        plan = chunk_plan(MAX_ROUNDS)
        last = plan[-1]
        count = len(plan)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 10_000
    assert count == math.ceil(MAX_ROUNDS / runner.CHUNK_ROUNDS)
    assert last == (count - 1, MAX_ROUNDS - (count - 1) * runner.CHUNK_ROUNDS)
    assert plan[0] == (0, runner.CHUNK_ROUNDS)
    with pytest.raises(IndexError):
        plan[count]


def test_a_plan_lists_the_same_chunks_as_it_iterates() -> None:
    plan = chunk_plan(5 * runner.CHUNK_ROUNDS + 3)
    assert list(plan) == [plan[i] for i in range(len(plan))] == list(plan[:])
    assert chunk_plan(runner.CHUNK_ROUNDS)[-1] == (0, runner.CHUNK_ROUNDS)


@pytest.mark.parametrize(
    ("rounds", "workers", "message"),
    [
        (99999999999999999999999, 1, "rounds must be a whole number from 1 to 1,000,000,000,000"),
        (MAX_ROUNDS + 1, 1, "got 1000000000001"),
        (10**5000, 1, "about 5001 digits"),
        (10, MAX_WORKERS + 1, f"workers must be a whole number from 1 to {MAX_WORKERS}"),
        (10, 10**400, "workers"),
        (2.5, 1, "rounds"),
        (10, True, "workers"),
    ],
    ids=["23 digits", "max+1", "5001 digits", "workers", "huge workers", "float", "bool"],
)
def test_counts_beyond_their_bounds_are_refused_with_the_range(
    rounds: int, workers: int, message: str
) -> None:
    config = SimulationConfig(ONLINE, basic_strategy(ONLINE))
    with pytest.raises(SimulationError, match=message):
        simulate(config, rounds, 1, workers)


@settings(max_examples=200, deadline=None)
@given(rounds=HOSTILE, seed=HOSTILE, workers=HOSTILE)
def test_any_request_is_accepted_or_a_typed_error(
    rounds: object, seed: object, workers: object
) -> None:
    try:
        check_request(rounds, seed, workers)  # type: ignore[arg-type]
    except SimulationError as error:
        assert len(str(error)) < 200
        return
    assert isinstance(rounds, int) and 1 <= rounds <= MAX_ROUNDS
    assert isinstance(workers, int) and 1 <= workers <= MAX_WORKERS
    assert isinstance(seed, int) and 0 <= seed < 2**64


@settings(max_examples=60, deadline=None)
@given(boxes=HOSTILE, insure_at=HOSTILE)
def test_any_config_value_is_accepted_or_a_typed_error(boxes: object, insure_at: object) -> None:
    try:
        config = SimulationConfig(
            CASINO,
            basic_strategy(CASINO),
            boxes=boxes,  # type: ignore[arg-type]
            insure_at=insure_at,  # type: ignore[arg-type]
        )
    except TwentyOneError as error:
        assert isinstance(error, SimulationError | CountingDataError)
        return
    assert 1 <= config.boxes <= MAX_BOXES
    assert config.insure_at is None or math.isfinite(config.insure_at)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, True])
def test_an_insurance_count_must_be_a_finite_number(value: float) -> None:
    with pytest.raises(CountingDataError, match="finite"):
        SimulationConfig(CASINO, basic_strategy(CASINO), insure_at=value)


@pytest.mark.parametrize("bankroll", [math.inf, math.nan, 0, -5, True])
def test_a_bankroll_must_be_a_positive_finite_number(bankroll: float) -> None:
    result = simulate(SimulationConfig(ONLINE, basic_strategy(ONLINE)), rounds=100, seed=1)
    with pytest.raises(SimulationError, match="bankroll"):
        result.risk_of_ruin(bankroll)


def test_workers_get_a_bounded_queue_and_the_same_totals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many more chunks than the queue holds: all are played, once each."""
    monkeypatch.setattr(runner, "CHUNK_ROUNDS", 500)
    monkeypatch.setattr(runner, "IN_FLIGHT_PER_WORKER", 1)
    config = SimulationConfig(CASINO, basic_strategy(CASINO))
    told: list[int] = []
    two = simulate(config, 20_250, seed=5, workers=2, progress=told.append)
    assert two == simulate(config, 20_250, seed=5, workers=1)
    assert sum(told) == 20_250 and len(told) == 41
    assert all(type(total) is int for total in two.totals)  # Python ints: no overflow


def test_the_caller_is_told_before_a_compile_and_only_then(monkeypatch: pytest.MonkeyPatch) -> None:
    config = SimulationConfig(ONLINE, basic_strategy(ONLINE))
    told: list[str] = []
    simulate(config, 100, seed=1, on_compile=lambda: told.append("compiling"))
    assert runner.kernels_cached(table=False)
    told.clear()
    simulate(config, 100, seed=1, on_compile=lambda: told.append("compiling"))
    assert told == []  # loaded from this process or the disk cache: nothing to say
    monkeypatch.setattr(runner, "kernels_cached", lambda table=None: False)
    simulate(config, 100, seed=1, on_compile=lambda: told.append("compiling"))
    assert told == ["compiling"]
