"""Benchmark of the Monte Carlo kernels: rounds and hands per second, one core and all cores.

Prints one JSON object. For the casino and online presets (6 decks, basic strategy, every rule
of the preset, shuffles included) it measures one worker and all workers; then the startup of a
fresh process with the kernels cached; then (``--accuracy-rounds``) the self-check of the spec:
a continuous-shuffle run of each preset against the exact basic-strategy EV, in standard errors.

    python bench/simulate.py                       # defaults: 10M rounds, 3 repeats
    python bench/simulate.py --accuracy-rounds 100000000

Speeds are given both ways: wall-clock (what a user waits for) and CPU time
(``cpu_rounds_per_second``: rounds over the CPU seconds the simulating processes used, the
workers included), which is what one core does when the machine is shared with other jobs and
wall-clock time includes waiting for a core. The one-core figure is measured ``--repeat`` times;
the median is reported with every measurement.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from typing import Any

from twentyone.presets import CASINO, ONLINE
from twentyone.rules import Rules, Shuffle
from twentyone.simulation.charts import default_chart
from twentyone.simulation.runner import SimulationConfig, default_workers, simulate, warm_up


def cpu_seconds() -> float:
    """CPU time of this process (to the nanosecond) and of its finished child processes (the
    workers: ``os.times`` counts them in clock ticks, a hundredth of a second)."""
    children = os.times()
    return time.process_time() + children.children_user + children.children_system


def measure(config: SimulationConfig, rounds: int, seed: int, workers: int) -> dict[str, Any]:
    cpu_started = cpu_seconds()
    result = simulate(config, rounds, seed, workers=workers)
    cpu = cpu_seconds() - cpu_started
    return {
        "workers": workers,
        "rounds": rounds,
        "seconds": result.seconds,
        "cpu_seconds": cpu,
        "rounds_per_second": result.rounds_per_second,
        "hands_per_second": result.hands_per_second,
        "cpu_rounds_per_second": rounds / cpu,
        "cpu_hands_per_second": result.hands / cpu,
        "ev": result.ev,
    }


def one_core(config: SimulationConfig, rounds: int, seed: int, repeat: int) -> dict[str, Any]:
    runs = [measure(config, rounds, seed + index, 1) for index in range(repeat)]
    summary = {
        key: statistics.median(run[key] for run in runs)
        for key in (
            "rounds_per_second",
            "hands_per_second",
            "cpu_rounds_per_second",
            "cpu_hands_per_second",
        )
    }
    return {"rounds": rounds, "median": summary, "runs": runs}


def startup_seconds() -> float:
    """A fresh interpreter importing the simulator and loading the cached kernels."""
    code = "from twentyone.simulation.runner import warm_up; warm_up()"
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - started


def accuracy(rules: Rules, rounds: int, seed: int, workers: int) -> dict[str, Any]:
    from twentyone.analysis.house_edge import basic_strategy_ev
    from twentyone.analysis.strategy import basic_strategy

    continuous = rules.replace(shuffle=Shuffle.CONTINUOUS)
    exact = basic_strategy_ev(continuous)
    config = SimulationConfig(continuous, basic_strategy(continuous), "basic strategy")
    result = simulate(config, rounds, seed, workers=workers)
    return {
        "rounds": rounds,
        "simulated_ev": result.ev,
        "se": result.se,
        "exact_ev": exact,
        "z": (result.ev - exact) / result.se,
        "within_3_se": abs(result.ev - exact) < 3 * result.se,
        "seconds": result.seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000_000, help="rounds on one core")
    parser.add_argument("--repeat", type=int, default=3, help="one-core measurements")
    parser.add_argument("--all-core-rounds", type=int, help="default: rounds x workers")
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--accuracy-rounds", type=int, default=0)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    warm_up()
    out: dict[str, Any] = {
        "machine": {
            "processor": platform.processor() or platform.machine(),
            "cpus": os.cpu_count(),
            "workers": args.workers,
            "load_average": os.getloadavg(),
            "python": platform.python_version(),
        },
        "presets": {},
    }
    for name, rules in (("casino", CASINO), ("online", ONLINE)):
        chart, source = default_chart(rules)
        config = SimulationConfig(rules, chart, source)
        all_rounds = args.all_core_rounds or args.rounds * args.workers
        out["presets"][name] = {
            "rules": {"decks": rules.decks, "shuffle": rules.shuffle.value},
            "strategy": source,
            "one_core": one_core(config, args.rounds, args.seed, args.repeat),
            "all_cores": measure(config, all_rounds, args.seed, args.workers),
        }
        single = out["presets"][name]["one_core"]["median"]["rounds_per_second"]
        multi = out["presets"][name]["all_cores"]["rounds_per_second"]
        # Wall-clock speed of all workers over one worker's: near the worker count on an idle
        # machine, less where other jobs hold the cores.
        out["presets"][name]["scaling"] = multi / single
    out["startup_seconds_cached"] = startup_seconds()
    if args.accuracy_rounds:
        out["accuracy"] = {
            name: accuracy(rules, args.accuracy_rounds, args.seed, args.workers)
            for name, rules in (("casino", CASINO), ("online", ONLINE))
        }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
