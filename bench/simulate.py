"""Benchmark of the Monte Carlo kernels: rounds and hands per second, one core and all cores.

Prints one JSON object. For the casino and online presets (6 decks, basic strategy, every rule
of the preset, shuffles included) it measures one worker, then the same total rounds with one
worker and with all workers (the scaling ratio); for the casino table also 1 (the kernel's
one-box path), 3 and 7 boxes (rounds, box-rounds and hands per second) and composition-dependent
play; then the startup of a fresh process with the kernels cached; then
(``--accuracy-rounds``) the self-check of the spec: a continuous-shuffle run of each preset
against the exact basic-strategy EV, and of CD play against the exact optimal-CD EV, in
standard errors.

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
from twentyone.simulation import kernels
from twentyone.simulation.cd import cd_strategy
from twentyone.simulation.charts import default_chart
from twentyone.simulation.runner import (
    KernelInputs,
    SimulationConfig,
    default_workers,
    run_chunk,
    simulate,
    warm_up,
)


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


def kernel_speed(config: SimulationConfig, rounds: int, seed: int) -> dict[str, Any]:
    """One chunk in this process: CPU time of the round kernel."""
    inputs = KernelInputs.from_config(config)
    started = time.process_time()
    stats = run_chunk(inputs, seed, 0, rounds)
    cpu = time.process_time() - started
    return {
        "path": "one-box" if inputs.one_box_chart else "table",
        "boxes": config.boxes,
        "rounds": rounds,
        "cpu_seconds": cpu,
        "cpu_rounds_per_second": rounds / cpu,
        "cpu_box_rounds_per_second": int(stats[kernels.ST_BOXES]) / cpu,
        "cpu_hands_per_second": int(stats[kernels.ST_HANDS]) / cpu,
    }


def table_speeds(rounds: int, seed: int, repeat: int) -> dict[str, Any]:
    """Casino table: 1 box (the kernel's one-box path), 3 and 7 boxes, then CD play."""
    chart, source = default_chart(CASINO)
    runs: dict[str, list[dict[str, Any]]] = {}
    for boxes in (1, 3, 7):
        config = SimulationConfig(CASINO, chart, source, boxes=boxes)
        runs[f"{boxes} box{'es' if boxes > 1 else ''}"] = [
            kernel_speed(config, rounds, seed + index) for index in range(repeat)
        ]
    cd = SimulationConfig(CASINO, chart, source, cd=cd_strategy(CASINO))
    runs["CD play, 1 box"] = [kernel_speed(cd, rounds, seed + index) for index in range(repeat)]
    return {
        name: {
            "median": {
                key: statistics.median(run[key] for run in measured)
                for key in (
                    "cpu_rounds_per_second",
                    "cpu_box_rounds_per_second",
                    "cpu_hands_per_second",
                )
            },
            "runs": measured,
        }
        for name, measured in runs.items()
    }


def startup_seconds() -> float:
    """A fresh interpreter importing the simulator and loading the cached kernels."""
    code = "from twentyone.simulation.runner import warm_up; warm_up()"
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - started


def accuracy(rules: Rules, rounds: int, seed: int, workers: int, cd: bool) -> dict[str, Any]:
    from twentyone.analysis.house_edge import basic_strategy_ev, expected_return
    from twentyone.analysis.strategy import basic_strategy

    continuous = rules.replace(shuffle=Shuffle.CONTINUOUS)
    exact = expected_return(continuous) if cd else basic_strategy_ev(continuous)
    config = SimulationConfig(
        continuous,
        basic_strategy(continuous),
        "basic strategy",
        cd=cd_strategy(continuous) if cd else None,
    )
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
    parser.add_argument(
        "--all-core-rounds", type=int, help="rounds of the scaling runs (default: rounds x workers)"
    )
    parser.add_argument("--table-rounds", type=int, default=2_000_000, help="0: skip the table")
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
            # The same total rounds with one worker and with all workers, back to back.
            "one_worker": measure(config, all_rounds, args.seed, 1),
            "all_cores": measure(config, all_rounds, args.seed, args.workers),
        }
        single = out["presets"][name]["one_worker"]["rounds_per_second"]
        multi = out["presets"][name]["all_cores"]["rounds_per_second"]
        # Wall-clock speed of all workers over one worker's on the same rounds: near the worker
        # count on an idle machine, less where other jobs hold the cores.
        out["presets"][name]["scaling"] = multi / single
    out["load_average_after_presets"] = os.getloadavg()
    if args.table_rounds:
        out["casino_table"] = table_speeds(args.table_rounds, args.seed, args.repeat)
    out["startup_seconds_cached"] = startup_seconds()
    if args.accuracy_rounds:
        out["accuracy"] = {
            f"{name}{' cd' if cd else ''}": accuracy(
                rules, args.accuracy_rounds, args.seed, args.workers, cd
            )
            for name, rules in (("casino", CASINO), ("online", ONLINE))
            for cd in (False, True)
        }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
