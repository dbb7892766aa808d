"""Run a simulation: fixed-size chunks, each a pure function of (inputs, seed, chunk index).

The work is cut into chunks of :data:`CHUNK_ROUNDS` rounds whatever the number of workers; chunk
``k`` is played from a fresh shoe with a generator seeded from ``(seed, k)``. Results are integer
sums, so the same seed gives bit-identical statistics for 1 worker, 16 workers or a cluster:
``run_chunk`` is the unit a distributed engine (Dask, Ray, Spark) would map over chunk indices.

>>> from twentyone.presets import ONLINE
>>> config = SimulationConfig.for_rules(ONLINE)
>>> result = simulate(config, rounds=2_000, seed=1)
>>> result.rounds, result == simulate(config, rounds=2_000, seed=1)
(2000, True)
"""

from __future__ import annotations

import math
import multiprocessing
import os
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.pool import AsyncResult
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from twentyone.rules import MAX_BOXES as MAX_BOXES  # boxes at one table: one bound, in rules
from twentyone.rules import Rules
from twentyone.simulation import kernels
from twentyone.simulation.cd import CompositionStrategy
from twentyone.simulation.charts import default_chart
from twentyone.simulation.counting import BetRamp, CountingSystem, IndexSet
from twentyone.simulation.encoding import (
    EncodedStrategy,
    encode_rules,
    encode_strategy,
    encode_tags,
    ticks_per_unit,
)
from twentyone.simulation.errors import CountingDataError, SimulationError
from twentyone.strategy_chart import StrategyChart

#: Rounds per chunk: the unit of work and of seeding (independent of the worker count).
CHUNK_ROUNDS = 1 << 20
_MASK64 = (1 << 64) - 1
#: Bounds of a run (the command line shows them): seeds are 64-bit; a trillion rounds is a
#: day's work for a dozen cores; more workers than this would only be processes waiting.
MAX_SEED = _MASK64
MAX_ROUNDS = 10**12
MAX_WORKERS = 256
#: Chunks queued per worker while a run is in progress (the rest are not yet planned).
IN_FLIGHT_PER_WORKER = 2


@dataclass(frozen=True)
class SimulationConfig:
    """What to simulate: rules, chart, and optionally a count with its bets and index plays."""

    rules: Rules
    chart: StrategyChart
    chart_source: str = "given chart"
    system: CountingSystem | None = None
    indices: IndexSet | None = None
    ramp: BetRamp = field(default_factory=BetRamp)
    insure_at: float | None = None  # count at which to insure; None: never
    boxes: int = 1  # boxes played each round, all with the same bet and strategy
    cd: CompositionStrategy | None = None  # composition-dependent play instead of the chart

    def __post_init__(self) -> None:
        boxes = self.boxes
        if isinstance(boxes, bool) or not isinstance(boxes, int):
            raise SimulationError(f"boxes must be a whole number, got {describe(boxes)}")
        most = min(self.rules.max_boxes, MAX_BOXES)
        if not 1 <= boxes <= most:
            raise SimulationError(
                f"boxes must be 1 to {most} (the table's max_boxes), got {describe(boxes)}"
            )
        insure_at = self.insure_at
        if insure_at is not None and (
            isinstance(insure_at, bool)
            or not isinstance(insure_at, int | float)
            or not math.isfinite(insure_at)
        ):
            raise CountingDataError(
                f"the insurance count must be a finite number, got {describe(insure_at)}"
            )
        if self.cd is not None and self.indices is not None:
            raise CountingDataError(
                "index plays change a total-dependent chart; composition-dependent play takes none"
            )
        if self.cd is not None:
            self.cd.check_rules(self.rules)
        if self.system is None and (self.indices is not None or self.ramp.steps):
            raise CountingDataError("index plays and bet ramps need a counting system")
        if (
            self.indices is not None
            and self.system is not None
            and self.indices.system != self.system.name
        ):
            raise CountingDataError(
                f"index set {self.indices.name!r} is for {self.indices.system!r}, "
                f"not {self.system.name!r}"
            )

    @classmethod
    def for_rules(
        cls,
        rules: Rules,
        chart: StrategyChart | None = None,
        system: CountingSystem | None = None,
        indices: IndexSet | None = None,
        ramp: BetRamp | None = None,
        boxes: int = 1,
        cd: CompositionStrategy | None = None,
    ) -> SimulationConfig:
        """A config with the default chart of ``rules`` unless one is given.

        Insurance is taken at the index set's insurance count, else never (basic strategy).
        """
        source = "given chart"
        if chart is None:
            chart, source = default_chart(rules)
        insure_at = indices.insurance if indices is not None else None
        return cls(rules, chart, source, system, indices, ramp or BetRamp(), insure_at, boxes, cd)


@dataclass(frozen=True)
class KernelInputs:
    """Everything a kernel call reads, as arrays (picklable: what a worker receives)."""

    rule_params: npt.NDArray[np.int64]
    strategy: EncodedStrategy
    tags: npt.NDArray[np.int64]
    ramp_thresholds: npt.NDArray[np.float64]
    ramp_units: npt.NDArray[np.int64]
    insurance_threshold: float
    boxes: int = 1
    #: Composition-dependent play (kernels.simulate_rounds): one node = the chart's totals.
    cd_child: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros((1, 11), np.int32))
    cd_codes: npt.NDArray[np.int8] = field(default_factory=lambda: np.zeros((1, 11), np.int8))

    @property
    def one_box_chart(self) -> bool:
        """Whether the kernel plays this on its one-box path (one box, a chart): the same
        round with the box count and CD play compiled in as constants, the speed path."""
        return self.boxes == 1 and self.cd_codes.shape[0] == 1

    @classmethod
    def from_config(cls, config: SimulationConfig) -> KernelInputs:
        system = config.system
        mode = kernels.COUNT_NONE
        if system is not None and config.rules.decks is not None:
            mode = kernels.COUNT_TRUE if system.balanced else kernels.COUNT_RUNNING
        initial = system.initial_running_count(config.rules.decks) if system else 0
        plays = config.indices.plays if config.indices is not None else ()
        cd_child, cd_codes = (None, None) if config.cd is None else config.cd.encode()
        return cls(
            encode_rules(config.rules, mode, initial),
            encode_strategy(config.chart, plays),
            encode_tags(system),
            np.array([count for count, _ in config.ramp.steps], dtype=np.float64),
            np.array([units for _, units in config.ramp.steps], dtype=np.int64),
            math.inf if config.insure_at is None else config.insure_at,
            config.boxes,
            *(() if cd_child is None or cd_codes is None else (cd_child, cd_codes)),
        )


def chunk_generator_state(seed: int, chunk: int) -> npt.NDArray[np.uint64]:
    """xoshiro256** state for chunk ``chunk`` of a run seeded ``seed`` (SplitMix64 expansion).

    >>> a, b = chunk_generator_state(7, 0), chunk_generator_state(7, 1)
    >>> bool((a == chunk_generator_state(7, 0)).all()), bool((a == b).all())
    (True, False)
    """
    x = (seed * 0x9E3779B97F4A7C15 + chunk * 0xD1B54A32D192ED03 + 0x632BE59BD9B4E019) & _MASK64
    words = []
    for _ in range(4):
        x = (x + 0x9E3779B97F4A7C15) & _MASK64
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        words.append(z ^ (z >> 31))
    return np.array(words, dtype=np.uint64)


def run_chunk(inputs: KernelInputs, seed: int, chunk: int, rounds: int) -> npt.NDArray[np.int64]:
    """Play ``rounds`` rounds of chunk ``chunk``; the statistics (``kernels.ST_*``) as int64."""
    stats = np.zeros(kernels.ST_SIZE, dtype=np.int64)
    params = inputs.rule_params
    decks = int(params[kernels.RP_DECKS])
    play_rounds(
        inputs,
        params,
        chunk_generator_state(seed, chunk),
        rounds,
        stats,
        np.zeros(52 * decks, dtype=np.int8),
        np.zeros(kernels.SS_SIZE, dtype=np.int64),
        np.zeros(0, dtype=np.int64),
    )
    return stats


def play_rounds(
    inputs: KernelInputs,
    params: npt.NDArray[np.int64],
    generator_state: npt.NDArray[np.uint64],
    rounds: int,
    stats: npt.NDArray[np.int64],
    shoe: npt.NDArray[np.int8],
    shoe_state: npt.NDArray[np.int64],
    trace: npt.NDArray[np.int64],
) -> npt.NDArray[np.int64]:
    """Run the round kernel on ``inputs``; return its per-box rows (``kernels.BW_*``)."""
    strategy = inputs.strategy
    box_work = np.zeros((kernels.BW_SIZE, inputs.boxes), dtype=np.int64)
    # One round kernel, compiled twice: for one box playing a chart with those as constants
    # (the speed path), and for any table.
    play = kernels.simulate_one_box_rounds if inputs.one_box_chart else kernels.simulate_rounds
    play(
        params,
        inputs.boxes,
        generator_state,
        rounds,
        base_codes(strategy),
        strategy.codes,
        strategy.thresholds,
        strategy.counts,
        inputs.cd_child,
        inputs.cd_codes,
        inputs.tags,
        inputs.ramp_thresholds,
        inputs.ramp_units,
        inputs.insurance_threshold,
        stats,
        shoe,
        shoe_state,
        hand_workspace(params, inputs.boxes),
        box_work,
        trace,
    )
    return box_work


def base_codes(strategy: EncodedStrategy) -> npt.NDArray[np.int8]:
    """The chart without index plays, one byte a cell: what the kernels read on every decision."""
    return np.ascontiguousarray(strategy.codes[..., 0], dtype=np.int8)


def hand_workspace(params: npt.NDArray[np.int64], boxes: int = 1) -> npt.NDArray[np.int64]:
    """The kernels' per-hand scratch rows, one column per hand each box can split into."""
    hands = max(int(params[kernels.RP_MAX_HANDS]), 1)
    return np.zeros((kernels.HW_SIZE, hands * boxes), dtype=np.int64)


@dataclass(frozen=True)
class SimulationResult:
    """Totals of a run and the figures counters' tools report (per unit of initial bet)."""

    rules: Rules
    rounds: int
    seed: int
    totals: tuple[int, ...]  # kernels.ST_* sums
    ticks_per_unit: int
    seconds: float = field(compare=False)
    workers: int = field(compare=False)
    boxes: int = 1

    def _total(self, slot: int) -> int:
        return self.totals[slot]

    @property
    def hands(self) -> int:
        return self._total(kernels.ST_HANDS)

    @property
    def box_rounds(self) -> int:
        """Rounds times boxes: how many initial bets were placed."""
        return self._total(kernels.ST_BOXES)

    @property
    def mean_bet(self) -> float:
        """Average initial bet of one box, in units."""
        return self._total(kernels.ST_BET) / self.box_rounds

    @property
    def ev(self) -> float:
        """Net won per unit of initial bet (negative: house edge)."""
        return self._total(kernels.ST_NET) / self.ticks_per_unit / self._total(kernels.ST_BET)

    @property
    def sd(self) -> float:
        """Standard deviation of one round's net (all boxes together), in units."""
        n = self.rounds
        mean = self._total(kernels.ST_NET) / n
        variance = self._total(kernels.ST_NET2) / n - mean * mean
        return math.sqrt(max(variance, 0.0)) / self.ticks_per_unit

    @property
    def sd_per_box(self) -> float:
        """Standard deviation of one box's net in a round, in units."""
        n = self.box_rounds
        mean = self._total(kernels.ST_NET) / n
        variance = self._total(kernels.ST_BOX_NET2) / n - mean * mean
        return math.sqrt(max(variance, 0.0)) / self.ticks_per_unit

    @property
    def se(self) -> float:
        """Standard error of :attr:`ev` (delta method for a ratio of sums)."""
        n = self.rounds
        ratio = self.ev * self.ticks_per_unit  # ticks per unit bet
        residual = (
            self._total(kernels.ST_NET2)
            - 2 * ratio * self._total(kernels.ST_NET_BET)
            + ratio * ratio * self._total(kernels.ST_BET2)
        ) / n
        mean_bet = self._total(kernels.ST_BET) / n
        return math.sqrt(max(residual, 0.0) / n) / mean_bet / self.ticks_per_unit

    @property
    def win_per_round(self) -> float:
        """Units won per round."""
        return self._total(kernels.ST_NET) / self.ticks_per_unit / self.rounds

    @property
    def win_rate_per_100(self) -> float:
        return 100 * self.win_per_round

    def risk_of_ruin(self, bankroll: float) -> float:
        """Chance of ever losing ``bankroll`` units (diffusion formula exp(-2 w B / s^2))."""
        if (
            isinstance(bankroll, bool)
            or not isinstance(bankroll, int | float)
            or not math.isfinite(bankroll)
            or bankroll <= 0
        ):
            raise SimulationError(
                f"bankroll must be a positive finite number, got {describe(bankroll)}"
            )
        if self.win_per_round <= 0:
            return 1.0
        if self.sd == 0:
            return 0.0  # a sure win never ruins
        return math.exp(-2 * self.win_per_round * bankroll / (self.sd * self.sd))

    @property
    def frequencies(self) -> dict[str, float]:
        """Per box and round (wins, pushes and losses of the box's net, naturals, insurance,
        splits), per round (dealer blackjacks) and per hand (the rest)."""
        per_box = {
            "win": kernels.ST_WINS,
            "push": kernels.ST_PUSHES,
            "lose": kernels.ST_LOSSES,
            "player_blackjack": kernels.ST_PLAYER_BLACKJACKS,
            "insurance": kernels.ST_INSURANCES,
            "split": kernels.ST_SPLITS,
        }
        per_hand = {
            "double": kernels.ST_DOUBLES,
            "surrender": kernels.ST_SURRENDERS,
            "bust": kernels.ST_BUSTS,
        }
        out = {name: self._total(slot) / self.box_rounds for name, slot in per_box.items()}
        out["dealer_blackjack"] = self._total(kernels.ST_DEALER_BLACKJACKS) / self.rounds
        out.update({name: self._total(slot) / self.hands for name, slot in per_hand.items()})
        return out

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else math.inf

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else math.inf

    def to_json(self, bankroll: float | None = None) -> dict[str, Any]:
        """The ``simulate --json`` object (interfaces.md) plus the counting figures."""
        out: dict[str, Any] = {
            "rules": self.rules.to_json(),
            "rounds": self.rounds,
            "ev": self.ev,
            "se": self.se,
            "sd": self.sd,
            "hands_per_second": self.hands_per_second,
            "seconds": self.seconds,
            "seed": self.seed,
            "workers": self.workers,
            "boxes": self.boxes,
            "sd_per_box": self.sd_per_box,
            "hands": self.hands,
            "rounds_per_second": self.rounds_per_second,
            "mean_bet": self.mean_bet,
            "win_per_100_rounds": self.win_rate_per_100,
            "shuffles": self._total(kernels.ST_SHUFFLES),
            "frequencies": self.frequencies,
        }
        if bankroll is not None:
            out["bankroll"] = bankroll
            out["risk_of_ruin"] = self.risk_of_ruin(bankroll)
        return out


class ChunkPlan(Sequence[tuple[int, int]]):
    """The (chunk index, rounds) pairs covering ``rounds``, computed on demand: a plan takes the
    same few bytes for a thousand rounds or a trillion.

    >>> plan = chunk_plan(CHUNK_ROUNDS + 5)
    >>> len(plan), plan[0], plan[-1]
    (2, (0, 1048576), (1, 5))
    """

    def __init__(self, rounds: int) -> None:
        self.rounds = rounds
        self._full, self._rest = divmod(rounds, CHUNK_ROUNDS)

    def __len__(self) -> int:
        return self._full + (1 if self._rest else 0)

    @overload
    def __getitem__(self, index: int) -> tuple[int, int]: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[int, int]]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, int] | Sequence[tuple[int, int]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("chunk index out of range")
        return (index, CHUNK_ROUNDS if index < self._full else self._rest)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        for index in range(self._full):
            yield (index, CHUNK_ROUNDS)
        if self._rest:
            yield (self._full, self._rest)


def chunk_plan(rounds: int) -> ChunkPlan:
    """(chunk index, rounds) pairs covering ``rounds`` (a lazy sequence).

    >>> chunk_plan(CHUNK_ROUNDS + 5)[-1]
    (1, 5)
    """
    return ChunkPlan(rounds)


def describe(value: object) -> str:
    """``value`` for an error message, short whatever it is (a 5000-digit number has no repr
    in Python: ``int`` refuses to print more than 4300 digits)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**24:
        digits = int(value.bit_length() * 0.30103) + 1
        return f"{'-' if value < 0 else ''}a number of about {digits} digits"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _check_count(value: object, what: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SimulationError(
            f"{what} must be a whole number from {low:,} to {high:,}, got {describe(value)}"
        )


def check_request(rounds: int, seed: int, workers: int) -> None:
    """Refuse a run outside the bounds (:data:`MAX_ROUNDS`, :data:`MAX_SEED`,
    :data:`MAX_WORKERS`) with a :class:`SimulationError` that states the allowed range."""
    _check_count(rounds, "rounds", 1, MAX_ROUNDS)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise SimulationError(
            f"seed must be a whole number from 0 to 2**64-1, got {describe(seed)}"
        )
    _check_count(workers, "workers", 1, MAX_WORKERS)


def kernels_cached(table: bool | None = None) -> bool:
    """Whether the simulation kernel is loaded or compiled on disk already: if not, the next
    run (:func:`warm_up`, :func:`simulate`) compiles it first, for a minute or more.

    ``table``: the loop for a table (several boxes or CD play) if true, for one box playing a
    chart if false; both if None.
    """
    from twentyone.analysis.kernel_cache import dispatcher_cached
    from twentyone.analysis.kernel_cache import kernels_cached as cached

    if table is None:
        return cached(kernels)
    return dispatcher_cached(kernels.simulate_rounds if table else kernels.simulate_one_box_rounds)


def warm_up(table: bool = False, on_compile: Callable[[], None] | None = None) -> None:
    """Load the kernel in this process, compiling it the first time (``on_compile`` is called
    just before a compile: the moment to tell the user to wait): the loop for one box playing
    a chart, or with ``table`` the loop for several boxes and CD play."""
    if on_compile is not None and not kernels_cached(table):
        on_compile()
    # An all-hit chart: loading the kernels needs no strategy (nor the analysis to compute one).
    strategy = EncodedStrategy(
        np.zeros((3, 22, 11, 2), dtype=np.int64),
        np.zeros((3, 22, 11, 1), dtype=np.float64),
        np.zeros((3, 22, 11), dtype=np.int64),
    )
    no_count = np.zeros(0, dtype=np.int64)
    inputs = KernelInputs(
        encode_rules(Rules()),
        strategy,
        encode_tags(None),
        np.zeros(0, dtype=np.float64),
        no_count,
        math.inf,
        2 if table else 1,
    )
    run_chunk(inputs, 0, 0, 1)


def _chunk_task(task: tuple[KernelInputs, int, int, int]) -> npt.NDArray[np.int64]:
    inputs, seed, chunk, rounds = task
    return run_chunk(inputs, seed, chunk, rounds)


def _pool_context() -> Any:
    # fork shares the parent's loaded kernels (no reload in each worker); elsewhere spawn.
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def simulate(
    config: SimulationConfig,
    rounds: int,
    seed: int = 0,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    on_compile: Callable[[], None] | None = None,
) -> SimulationResult:
    """Simulate ``rounds`` rounds; ``progress`` is told how many rounds each finished chunk had,
    ``on_compile`` is called before the kernel is compiled (first run only, see
    :func:`warm_up`).

    Memory does not grow with ``rounds``: chunks are planned lazily, at most
    :data:`IN_FLIGHT_PER_WORKER` per worker are queued at a time, and totals are Python
    integers (no overflow however long the run).
    """
    check_request(rounds, seed, workers)
    inputs = KernelInputs.from_config(config)
    plan = chunk_plan(rounds)
    tasks = ((inputs, seed, chunk, size) for chunk, size in plan)
    workers = min(workers, len(plan))
    warm_up(table=config.boxes > 1 or config.cd is not None, on_compile=on_compile)
    started = time.perf_counter()
    totals = [0] * kernels.ST_SIZE

    def add(stats: npt.NDArray[np.int64]) -> None:
        for slot, value in enumerate(stats.tolist()):
            totals[slot] += value
        if progress is not None:
            progress(int(stats[kernels.ST_ROUNDS]))

    if workers == 1:
        for task in tasks:
            add(_chunk_task(task))
    else:
        with _pool_context().Pool(workers) as pool:
            window = workers * IN_FLIGHT_PER_WORKER
            pending: deque[AsyncResult[npt.NDArray[np.int64]]] = deque()
            for task in tasks:
                if len(pending) >= window:
                    add(pending.popleft().get())
                pending.append(pool.apply_async(_chunk_task, (task,)))
            while pending:
                add(pending.popleft().get())
    seconds = time.perf_counter() - started
    return SimulationResult(
        config.rules,
        rounds,
        seed,
        tuple(totals),
        ticks_per_unit(config.rules),
        seconds,
        workers,
        config.boxes,
    )


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1
