"""Vinte-e-um bot strength: the standard bot against simple heuristics, in both roles.

Prints one JSON object. Three experiments, each over independent seeded matches:

"The bot" is ``VinteBot(read_stands=True)``: the standard bot with its documented option of
reading stands (as banker it weighs each player's hidden card by how likely his hits and
stand were for a player who stands from 17). The standard bot (every unseen card alike) is
measured as banker too.

- ``banker``: one permanent bank against three heuristic players ("stand on 17", bet 3).
  The same cards (same seeds) are played by the bot banker, the standard bot banker, a
  heuristic banker that draws below 17 and then calls everyone from his left, and one that
  calls everyone at once. Measured: the banker's chips per match (mean, 95% CI) and the
  paired differences.
- ``player``: the standard bot holds a permanent bank; two bot players and two heuristic
  players sit at the table. Measured: per match, the bot players' chips minus the
  heuristic players'.
- ``match``: whole matches by the spec's rules (4 seats alternating bot and heuristic, 50
  chips, bank rotating every 3 rounds, first banker drawn); a round limit keeps them short.
  Measured: the share of match wins held by the bot seats (tied winners share), against
  the 0.5 that equal strength gives.

Usage: ``python bench/vinte_bots.py [--matches N] [--rounds R] [--workers W] [--seed S]``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from twentyone.analysis.vinte.bots import Bot, HeuristicBot, VinteBot
from twentyone.randomness import SeededRandomSource
from twentyone.tables.vinte import play_match
from twentyone.vinte.game import MatchState
from twentyone.vinte.settings import SeatSpec, VinteSettings, VinteTable

Z95 = 1.959963984540054


def mean_ci(samples: Sequence[float]) -> dict[str, float]:
    """Mean and a normal 95% confidence interval."""
    mean = statistics.fmean(samples)
    half = Z95 * statistics.stdev(samples) / math.sqrt(len(samples)) if len(samples) > 1 else 0.0
    return {"mean": round(mean, 4), "ci95": [round(mean - half, 4), round(mean + half, 4)]}


def wilson(successes: float, trials: int) -> list[float]:
    """Wilson 95% interval for a proportion."""
    if trials == 0:
        return [0.0, 1.0]
    p = successes / trials
    denominator = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denominator
    return [round(centre - half, 4), round(centre + half, 4)]


def table(names: Sequence[str], settings: VinteSettings, first_banker: int | None) -> VinteTable:
    return VinteTable(
        tuple(SeatSpec(n, bot=True) for n in names), settings=settings, first_banker=first_banker
    )


def net(state: MatchState, seat: int) -> int:
    return state.seats[seat].stack - state.table.settings.starting_stack


def banker_match(seed: int, rounds: int) -> dict[str, int]:
    """The same cards for three bankers against three heuristic players."""
    settings = VinteSettings(starting_stack=10_000, bank_rounds=0, round_limit=rounds)
    players: list[Bot] = [HeuristicBot()] * 3
    bankers: dict[str, Bot] = {
        "bot": VinteBot(read_stands=True),
        "standard_bot": VinteBot(),
        "draw_to_17_then_call_all": HeuristicBot(banker_draws_below=17),
        "call_all_at_once": HeuristicBot(banker_draws_below=0),
    }
    out: dict[str, int] = {}
    for name, banker in bankers.items():
        final = play_match(
            table(["B", "P1", "P2", "P3"], settings, 0),
            [banker, *players],
            SeededRandomSource(seed),
        )
        out[name] = net(final, 0)
    return out


def player_match(seed: int, rounds: int) -> dict[str, int]:
    settings = VinteSettings(starting_stack=10_000, bank_rounds=0, round_limit=rounds)
    bank, bot, heuristic = VinteBot(), VinteBot(read_stands=True), HeuristicBot()
    # bots and heuristics alternate so that neither sits first from the bank's left
    agents: list[Bot] = [bank, bot, heuristic, bot, heuristic]
    final = play_match(
        table(["B", "b1", "h1", "b2", "h2"], settings, 0), agents, SeededRandomSource(seed)
    )
    return {"bots": net(final, 1) + net(final, 3), "heuristics": net(final, 2) + net(final, 4)}


def full_match(seed: int, rounds: int) -> dict[str, float]:
    settings = VinteSettings(round_limit=rounds)
    bot, heuristic = VinteBot(read_stands=True), HeuristicBot()
    agents: list[Bot] = (
        [bot, heuristic, bot, heuristic] if seed % 2 else [heuristic, bot, heuristic, bot]
    )
    final = play_match(
        table(["s0", "s1", "s2", "s3"], settings, None), agents, SeededRandomSource(seed)
    )
    share = 1 / len(final.winners)
    bot_share = sum(share for w in final.winners if agents[w] is bot)
    return {"bot_share": bot_share, "rounds": final.rounds_played}


def run(task: tuple[str, int, int]) -> dict[str, Any]:
    kind, seed, rounds = task
    if kind == "banker":
        return {"kind": kind, **banker_match(seed, rounds)}
    if kind == "player":
        return {"kind": kind, **player_match(seed, rounds)}
    return {"kind": kind, **full_match(seed, rounds)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=100, help="matches per experiment")
    parser.add_argument("--rounds", type=int, default=20, help="rounds per match")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--experiments",
        default="banker,player,match",
        help="comma-separated subset of banker,player,match",
    )
    args = parser.parse_args()
    kinds = [kind for kind in ("banker", "player", "match") if kind in args.experiments.split(",")]
    tasks = [
        (kind, args.seed + index, args.rounds) for kind in kinds for index in range(args.matches)
    ]
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        results = list(pool.map(run, tasks, chunksize=4))
    seconds = time.perf_counter() - started
    report: dict[str, Any] = {
        "benchmark": "vinte_bots",
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "workers": args.workers,
        },
        "bot": "VinteBot(read_stands=True); standard_bot: VinteBot()",
        "matches_per_experiment": args.matches,
        "rounds_per_match": args.rounds,
        "seed": args.seed,
        "seconds": round(seconds, 1),
    }
    summaries = {"banker": banker_summary, "player": player_summary, "match": match_summary}
    for kind in kinds:
        report[kind] = summaries[kind]([r for r in results if r["kind"] == kind])
    print(json.dumps(report, indent=2))


def beats(a: str, b: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    wins = sum(r[a] > r[b] for r in rows)
    return {"rate": round(wins / len(rows), 4), "ci95": wilson(wins, len(rows))}


def banker_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    names = ("bot", "standard_bot", "draw_to_17_then_call_all", "call_all_at_once")
    return {
        "opponents": "3 heuristic players: hit below 17, bet 3",
        "chips_per_match": {name: mean_ci([r[name] for r in rows]) for name in names},
        "bot_minus_draw_to_17": mean_ci([r["bot"] - r["draw_to_17_then_call_all"] for r in rows]),
        "bot_minus_call_all": mean_ci([r["bot"] - r["call_all_at_once"] for r in rows]),
        "standard_bot_minus_draw_to_17": mean_ci(
            [r["standard_bot"] - r["draw_to_17_then_call_all"] for r in rows]
        ),
        "standard_bot_minus_call_all": mean_ci(
            [r["standard_bot"] - r["call_all_at_once"] for r in rows]
        ),
        "bot_beats_draw_to_17_rate": beats("bot", "draw_to_17_then_call_all", rows),
        "draw_to_17_beats_bot_rate": beats("draw_to_17_then_call_all", "bot", rows),
    }


def player_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "table": "standard bot bank; 2 bot players, 2 heuristic players (hit below 17, bet 3)",
        "bots_chips_per_match": mean_ci([r["bots"] for r in rows]),
        "heuristics_chips_per_match": mean_ci([r["heuristics"] for r in rows]),
        "bots_minus_heuristics": mean_ci([r["bots"] - r["heuristics"] for r in rows]),
        "bots_ahead_rate": beats("bots", "heuristics", rows),
    }


def match_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    bot_wins = sum(r["bot_share"] for r in rows)
    return {
        "table": "4 seats (2 bots, 2 heuristics alternating), 50 chips, bank rotates every 3 rounds",
        "bot_win_share": round(bot_wins / len(rows), 4),
        "ci95": wilson(bot_wins, len(rows)),
        "equal_strength": 0.5,
        "mean_rounds": round(statistics.fmean(r["rounds"] for r in rows), 1),
    }


if __name__ == "__main__":
    main()
