"""Benchmark of the exact analysis: prints one JSON object with seconds measured here.

For each rule set: the full analysis (optimal CD play with splits, by up card, basic strategy
chart and its EV) inside one process (after a warm-up, so compiled code is loaded), and as a
whole ``twentyone analyze --json`` command in a fresh process (what a user waits for; numba's
on-disk cache is warm after the first run). Run: ``python bench/analysis.py``.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from twentyone.analysis import engine, strategy
from twentyone.analysis.house_edge import analyze, optimal_by_upcard
from twentyone.presets import CASINO, ONLINE
from twentyone.rules import EnhcLoses, Peek, Rules, Surrender

RULE_SETS = {
    "casino": (CASINO, ["--preset", "casino"]),
    "online": (ONLINE, ["--preset", "online"]),
    "6d-s17-das-4h-ls-peek": (
        Rules(decks=6, peek=Peek.ACE_TEN, max_hands=4, surrender=Surrender.LATE),
        [
            "--preset", "online", "--decks", "6", "--s17", "--das", "--max-hands", "4",
            "--surrender", "late", "--peek", "ace-ten",
        ],
    ),
    # Not a preset (they never use it): original bets only, whose split values need the walk
    # over the split hands' busts (docs/analysis.md, "Original bets only").
    "casino-enhc-original": (
        CASINO.replace(enhc_loses=EnhcLoses.ORIGINAL),
        ["--preset", "casino", "--enhc-loses", "original"],
    ),
}  # fmt: skip


def _clear_caches() -> None:
    optimal_by_upcard.cache_clear()
    strategy.basic_strategy_analysis.cache_clear()
    engine._cached_contexts.cache_clear()


def in_process(rules: Rules, repeats: int = 3) -> dict[str, float]:
    _clear_caches()
    analyze(rules)  # warm-up: loads the compiled kernels and the dealer tables
    times, cpu_times = [], []
    for _ in range(repeats):
        _clear_caches()
        started, started_cpu = time.perf_counter(), time.process_time()
        result = analyze(rules)
        times.append(time.perf_counter() - started)
        cpu_times.append(time.process_time() - started_cpu)
    return {
        "seconds": min(times),
        "cpu_seconds": min(cpu_times),
        "ev": result.ev,
        "basic_strategy_ev": result.basic_strategy_ev,
    }


def whole_command(arguments: list[str], repeats: int = 3) -> dict[str, float]:
    script = Path(sys.executable).parent / "twentyone"
    command = [str(script), "analyze", "--json", *arguments]
    subprocess.run(command, check=True, capture_output=True)  # warm numba's disk cache
    walls, cpus = [], []
    for _ in range(repeats):
        before = os.times()
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        walls.append(time.perf_counter() - started)
        after = os.times()
        cpus.append(
            (after.children_user - before.children_user)
            + (after.children_system - before.children_system)
        )
    return {"wall_seconds": min(walls), "cpu_seconds": min(cpus)}


def main() -> None:
    results: dict[str, object] = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "load_average": os.getloadavg()[0],
    }
    for name, (rules, arguments) in RULE_SETS.items():
        results[name] = {
            "in_process": in_process(rules),
            "command": whole_command(arguments),
        }
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
