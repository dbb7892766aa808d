"""Benchmark: ``simulate --cluster local:2`` (Dask) against the plain runner with 2 workers.

Prints one JSON object. The same rounds and seed are run ``--repeat`` times each way, the two
ways interleaved (plain, cluster, plain, cluster, ...) so that a change in the machine's load
falls on both; the median of each figure is reported beside every measurement, and whether the
two ways gave the same totals (they must: the chunks are the same, whoever runs them).

For each way:

- ``run``: the rounds over the seconds the chunks took (``SimulationResult.seconds``: from the
  first chunk sent to the last back, the kernels already loaded), i.e. the steady speed;
- ``whole``: over the seconds of the whole call, the pool's or the cluster's start and stop
  included (what one command pays; a ``local:N`` cluster starts N fresh Python processes, which
  load numba and the kernels from the disk cache);
- ``cpu``: over the CPU seconds used by this process and its worker processes (counted once
  they have ended: both ways end theirs before the call returns).

    python bench/simulate_cluster.py                   # 8M rounds, 3 repeats
    python bench/simulate_cluster.py --rounds 20000000 --repeat 5

On a 2-core machine Dask can only add overhead (a scheduler, a nanny per worker, the transfers);
what it buys is running the same chunks on more machines than one.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from typing import Any

from twentyone.presets import CASINO
from twentyone.simulation.charts import default_chart
from twentyone.simulation.cluster import connect, simulate_on_cluster
from twentyone.simulation.runner import SimulationConfig, SimulationResult, simulate, warm_up


def cpu_seconds() -> float:
    """CPU time of this process and of its ended child processes (the workers)."""
    times = os.times()
    return time.process_time() + times.children_user + times.children_system


def plain(config: SimulationConfig, rounds: int, seed: int) -> tuple[SimulationResult, float]:
    started = time.perf_counter()
    result = simulate(config, rounds, seed, workers=2)
    return result, time.perf_counter() - started


def on_cluster(config: SimulationConfig, rounds: int, seed: int) -> tuple[SimulationResult, float]:
    started = time.perf_counter()
    with connect("local:2") as client:
        result = simulate_on_cluster(config, rounds, seed, client)
    return result, time.perf_counter() - started


def figures(runs: list[dict[str, float]], rounds: int) -> dict[str, Any]:
    def median(key: str) -> float:
        return statistics.median(run[key] for run in runs)

    return {
        "runs": runs,
        "run_rounds_per_second": rounds / median("run_seconds"),
        "whole_rounds_per_second": rounds / median("whole_seconds"),
        "cpu_rounds_per_second": rounds / median("cpu_seconds"),
        "median_run_seconds": median("run_seconds"),
        "median_whole_seconds": median("whole_seconds"),
        "median_cpu_seconds": median("cpu_seconds"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=8_000_000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    config = SimulationConfig(CASINO, default_chart(CASINO)[0])
    warm_up()  # the kernel compiled (once, into the disk cache) before anything is timed
    measured: dict[str, list[dict[str, float]]] = {"plain": [], "cluster": []}
    totals: dict[str, set[tuple[int, ...]]] = {"plain": set(), "cluster": set()}
    for _ in range(args.repeat):
        for way, function in (("plain", plain), ("cluster", on_cluster)):
            cpu_started = cpu_seconds()
            result, whole = function(config, args.rounds, args.seed)
            measured[way].append(
                {
                    "run_seconds": result.seconds,
                    "whole_seconds": whole,
                    "cpu_seconds": cpu_seconds() - cpu_started,
                }
            )
            totals[way].add(result.totals)
    plain_figures = figures(measured["plain"], args.rounds)
    cluster_figures = figures(measured["cluster"], args.rounds)
    out = {
        "bench": "simulate_cluster",
        "rules": "casino preset (6 decks, basic strategy)",
        "rounds": args.rounds,
        "seed": args.seed,
        "repeat": args.repeat,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "plain_2_workers": plain_figures,
        "cluster_local_2": cluster_figures,
        "cluster_over_plain": {
            key: cluster_figures[key] / plain_figures[key]
            for key in ("run_rounds_per_second", "whole_rounds_per_second", "cpu_rounds_per_second")
        },
        "same_totals": len(totals["plain"] | totals["cluster"]) == 1,
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":  # the cluster's worker processes are spawned: they import this file
    main()
