"""Benchmark: time to price all eight Exchange Blackjack selections, over states from every round.

States come from seeded games played to the end (one state per betting round that opens).
Each state is priced once with the default float odds after a warm-up: the shared player
model is built and warmed (``player_model()``: every (two-card hand, up card) play-out, what a
server does once at start-up, like loading its compiled kernels), the compiled kernels are
loaded and the round-1 figures computed once and kept. Times are CPU time of this process
(``time.process_time``, what the figures in docs/exchange.md quote) and wall time. The named
cases (the worst round-2 state known, for "All cards unique") are priced three times each.
Prints one JSON object.

    .venv/bin/python bench/exchange_odds.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time

from twentyone.analysis.exchange.odds import exchange_odds, player_model
from twentyone.exchange.game import ExchangeGame
from twentyone.exchange.state import ExchangeState
from twentyone.randomness import SeededRandomSource
from twentyone.shoe import InfiniteShoe

#: Known hard states, priced on their own (three times each; every time is reported).
NAMED_CASES: dict[str, dict[str, object]] = {
    # round 2, small cards: 304,000 walk states after four hands for the old kernel (1.47 s)
    "round2_small_cards": {
        "players": [["4S", "AC"], ["AD", "5S"], ["2C", "8S"], ["3D", "4H"]],
        "dealer": ["7C"],
        "played": False,
    },
}


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
    started = time.perf_counter()
    player_model()  # start-up: every (two-card hand, up card) play-out, computed once
    model_seconds = time.perf_counter() - started
    states = states_of_games(args.games, args.seed)
    started = time.perf_counter()
    for _, state in states[:20]:  # warm-up: kernels, caches
        exchange_odds(state)
    warm_up = time.perf_counter() - started
    timings: dict[int, list[float]] = {}
    wall: dict[int, list[float]] = {}
    every: list[float] = []
    every_wall: list[float] = []
    worst: tuple[float, ExchangeState | None] = (0.0, None)
    for round_open, state in states:
        w0, c0 = time.perf_counter(), time.process_time()
        exchange_odds(state)
        cpu = (time.process_time() - c0) * 1000.0
        elapsed = (time.perf_counter() - w0) * 1000.0
        timings.setdefault(round_open, []).append(cpu)
        wall.setdefault(round_open, []).append(elapsed)
        every.append(cpu)
        every_wall.append(elapsed)
        if cpu > worst[0]:
            worst = (cpu, state)
    named: dict[str, dict[str, list[float]]] = {}
    for name, data in NAMED_CASES.items():
        state = ExchangeState.from_json(data)
        runs: dict[str, list[float]] = {"cpu_ms": [], "wall_ms": []}
        for _ in range(3):
            w0, c0 = time.perf_counter(), time.process_time()
            exchange_odds(state)
            runs["cpu_ms"].append(round((time.process_time() - c0) * 1000.0, 3))
            runs["wall_ms"].append(round((time.perf_counter() - w0) * 1000.0, 3))
        named[name] = runs

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
                "clock": "cpu (time.process_time); wall in 'wall'",
                **summary(every),
                "by_open_round": {str(k): summary(v) for k, v in sorted(timings.items())},
                "wall": {
                    **summary(every_wall),
                    "by_open_round": {str(k): summary(v) for k, v in sorted(wall.items())},
                },
                "named_cases": named,
                "worst_state": None if worst[1] is None else worst[1].to_json(),
                "warm_up_seconds": round(warm_up, 3),
                "warm_up": "player_model() (every two-card hand x up card play-out) "
                f"{model_seconds:.3f} s, then 20 states (compiled kernels, round-1 figures)",
                "cpu": platform.processor() or platform.machine(),
                "cpus_visible": os.cpu_count(),
                "python": platform.python_version(),
            }
        )
    )


if __name__ == "__main__":
    main()
