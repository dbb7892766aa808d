"""Benchmark: complete rounds per second of the pure-Python engine.

Online preset, one box, a fresh seeded 6-deck shoe every round, decisions by the basic strategy
chart of the rules. Prints one JSON object with what it measured on this machine.
"""

from __future__ import annotations

import json
import platform
import time

from twentyone.analysis.strategy import basic_strategy
from twentyone.house.round import Round
from twentyone.house.strategy_player import play_by_chart
from twentyone.presets import ONLINE
from twentyone.randomness import SeededRandomSource
from twentyone.shoe import shoe_for

TARGET_ROUNDS_PER_SECOND = 20_000


def measure(seconds: float) -> dict[str, float]:
    chart = basic_strategy(ONLINE)
    shoe = shoe_for(ONLINE, SeededRandomSource(1))
    rounds = 0
    net = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(500):
            round_ = play_by_chart(Round.deal(ONLINE, [100], shoe), chart)
            net += round_.boxes[0].net
        rounds += 500
        now = time.perf_counter()
        if now >= deadline:
            break
    return {
        "rounds": rounds,
        "seconds": now - start,
        "cpu_seconds": time.process_time() - cpu_start,
        "mean_net_per_bet": net / rounds / 100,
    }


def main() -> None:
    measure(0.5)  # warm caches (the chart, imports)
    result = measure(3.0)
    rate = result["rounds"] / result["seconds"]
    # CPU time is what one core spent: on a busy machine it is the fairer per-core figure.
    cpu_rate = result["rounds"] / result["cpu_seconds"]
    print(
        json.dumps(
            {
                "benchmark": "engine",
                "preset": "online",
                "strategy": "basic",
                "rounds": result["rounds"],
                "seconds": round(result["seconds"], 3),
                "cpu_seconds": round(result["cpu_seconds"], 3),
                "rounds_per_second": round(rate),
                "rounds_per_cpu_second": round(cpu_rate),
                "mean_net_per_bet": round(result["mean_net_per_bet"], 4),
                "target_rounds_per_second": TARGET_ROUNDS_PER_SECOND,
                "meets_target": cpu_rate >= TARGET_ROUNDS_PER_SECOND,
                "shuffles": "one per round (Fisher-Yates over 312 cards)",
                "python": platform.python_version(),
            }
        )
    )


if __name__ == "__main__":
    main()
