"""Benchmark: time to price all eight Exchange Blackjack selections, over states from every round.

States come from seeded games played to the end (one state per betting round that opens).
Each state is priced once with the default float odds after a warm-up (compiled kernels
loaded, the round-1 figures computed once and kept). Prints one JSON object.

    .venv/bin/python bench/exchange_odds.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time

from twentyone.exchange.game import ExchangeGame
from twentyone.exchange.odds import exchange_odds
from twentyone.exchange.state import ExchangeState
from twentyone.randomness import SeededRandomSource
from twentyone.shoe import InfiniteShoe


def states_of_games(games: int, seed: int) -> list[tuple[int, ExchangeState]]:
    out = []
    for index in range(games):
        game = ExchangeGame(InfiniteShoe(SeededRandomSource(seed * 1_000_003 + index)))
        while game.open_round is not None:
            out.append((game.open_round, game.state()))
            game.end_round()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    states = states_of_games(args.games, args.seed)
    started = time.perf_counter()
    for _, state in states[:20]:  # warm-up: kernels, caches
        exchange_odds(state)
    warm_up = time.perf_counter() - started
    timings: dict[int, list[float]] = {}
    every: list[float] = []
    for round_open, state in states:
        t0 = time.perf_counter()
        exchange_odds(state)
        elapsed = (time.perf_counter() - t0) * 1000.0
        timings.setdefault(round_open, []).append(elapsed)
        every.append(elapsed)
    every.sort()

    def summary(values: list[float]) -> dict[str, float | int]:
        ordered = sorted(values)
        return {
            "states": len(ordered),
            "median_ms": round(statistics.median(ordered), 3),
            "p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 3),
            "worst_ms": round(ordered[-1], 3),
        }

    print(
        json.dumps(
            {
                "benchmark": "exchange_odds",
                "what": "exchange_odds(state) (floats): all eight selections, one state",
                "games": args.games,
                "seed": args.seed,
                **summary(every),
                "by_open_round": {str(k): summary(v) for k, v in sorted(timings.items())},
                "warm_up_seconds": round(warm_up, 3),
                "cpu": platform.processor() or platform.machine(),
                "cpus_visible": os.cpu_count(),
                "python": platform.python_version(),
            }
        )
    )


if __name__ == "__main__":
    main()
