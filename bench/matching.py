"""Benchmark of the exchange's matching engine, and a simulated session of games.

Prints one JSON object:

- ``matching``: order operations per second on one market on one core (a mix of places that
  rest, places that fill partly or wholly, and cancels of all or part of a remainder, with the
  holds recomputed and written to the ledger on every change), with p50 / p99 latency;
- ``session``: ``--games`` Exchange Blackjack games with the house market maker and scripted
  bots: orders, fills, the house's commission, every party's profit, and whether the ledger
  balances to the minor unit.

Usage: ``python bench/matching.py [--operations N] [--games N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import random
import time
from fractions import Fraction
from typing import Any

from twentyone.exchange.selections import PLAYER_SELECTIONS, SELECTIONS
from twentyone.ledger import AccountKind, Ledger
from twentyone.market import Market, MarketSettings, SelectionSpec
from twentyone.market.errors import OrderRejectedError
from twentyone.market.ladder import index_of, price_fraction, price_text
from twentyone.market.log import OpenRound
from twentyone.market.market_maker import MARKET_MAKER_ACCOUNT, MarketMaker
from twentyone.randomness import SeededRandomSource
from twentyone.shoe import InfiniteShoe

# The eight Exchange Blackjack selections (the table module would load the card game's
# compiled odds, which the matching benchmark does not need).
EIGHT = [SelectionSpec(name, name in PLAYER_SELECTIONS) for name in SELECTIONS]


TARGET = 50_000


def _plan(operations: int, seed: int) -> list[tuple[Any, ...]]:
    """The operations, drawn in advance so that the timing covers the engine only."""
    rng = random.Random(seed)
    names = [spec.name for spec in EIGHT]
    middle = index_of("2.5")
    prices = [price_text(middle + offset) for offset in range(-6, 7)]
    plan: list[tuple[Any, ...]] = []
    for n in range(operations):
        if n % 10 < 7:
            side = rng.choice(("back", "lay"))
            # Backs lean low and lays high, so that many orders cross and fill in part.
            price = rng.choice(prices[:9] if side == "back" else prices[4:])
            plan.append(
                (
                    "place",
                    rng.choice(CUSTOMERS),
                    f"r{n}",
                    rng.choice(names),
                    side,
                    price,
                    rng.randrange(200, 5_000),
                )
            )
        else:
            plan.append(("cancel", rng.random() < 0.5, rng.randrange(200, 3_000)))
    return plan


CUSTOMERS = [f"c{n}" for n in range(50)]


def _run(
    plan: list[tuple[Any, ...]], latencies: list[int] | None
) -> tuple[Market, Ledger, dict[str, int]]:
    """Run the plan on a fresh market; with ``latencies``, time every operation into it."""
    ledger = Ledger()
    for name in CUSTOMERS:
        ledger.open_account(name, AccountKind.CUSTOMER)
        ledger.deposit(f"d/{name}", name, 10**9)
    market = Market("bench", ledger, EIGHT, MarketSettings())
    market.open_round(1)
    remaining, owner = market.orders.remaining, market.orders.customer
    round_no = 1
    open_ids: list[int] = []
    counts = {"place": 0, "cancel": 0, "rejected": 0}
    clock = time.perf_counter_ns
    t0 = 0
    for n, op in enumerate(plan):
        if n and n % 20_000 == 0:  # a round ends now and then: every remainder lapses
            market.close_round()
            round_no += 1
            market.open_round(round_no)
            open_ids.clear()
        if latencies is not None:
            t0 = clock()
        if op[0] == "place":
            try:
                result = market.place(op[1], op[2], op[3], op[4], op[5], op[6], round_no)
            except OrderRejectedError:
                counts["rejected"] += 1
            else:
                if result.order.remaining:
                    open_ids.append(result.order.order_id)
            counts["place"] += 1
        else:  # the most recent order still open (read from the order table's columns)
            while open_ids and not remaining[open_ids[-1]]:
                open_ids.pop()
            if open_ids:
                order_id = open_ids[-1]
                market.cancel(owner[order_id], order_id, None if op[1] else op[2])
            counts["cancel"] += 1
        if latencies is not None:
            latencies.append(clock() - t0)
    return market, ledger, counts


class _CollectorClock:
    """A ``gc.callbacks`` hook: how many collections of each generation, and their CPU time."""

    def __init__(self) -> None:
        self.collections = [0, 0, 0]
        self.seconds = 0.0
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.process_time()
        else:
            self.collections[info["generation"]] += 1
            self.seconds += time.process_time() - self._started


def bench_matching(operations: int, seed: int) -> dict[str, Any]:
    """Throughput from a run without per-operation clocks, latency from a second, timed run."""
    plan = _plan(operations, seed)
    collector = _CollectorClock()
    gc.callbacks.append(collector)
    started, cpu_started = time.perf_counter(), time.process_time()
    try:
        market, ledger, counts = _run(plan, None)
    finally:
        elapsed = time.perf_counter() - started
        cpu_seconds = time.process_time() - cpu_started
        gc.callbacks.remove(collector)
    latencies: list[int] = []
    _run(plan, latencies)
    latencies.sort()
    fills = len(market.fills)
    partial = sum(1 for o in market.orders.values() if 0 < o.matched < o.size)
    return {
        "operations": operations,
        "places": counts["place"],
        "cancels": counts["cancel"],
        "rejected": counts["rejected"],
        "fills": fills,
        "orders_partly_filled": partial,
        "seconds": round(elapsed, 3),
        "operations_per_second": round(operations / elapsed),
        # CPU time: what one core delivers even when other jobs share the machine.
        "cpu_seconds": round(cpu_seconds, 3),
        "operations_per_cpu_second": round(operations / cpu_seconds),
        "meets_target": operations / cpu_seconds >= TARGET,
        # The garbage collector's part of that run (default settings): collections per
        # generation and their CPU time, measured with gc.callbacks.
        "gc_collections": collector.collections,
        "gc_cpu_seconds": round(collector.seconds, 3),
        "latency_us_p50": round(latencies[len(latencies) // 2] / 1000, 2),
        "latency_us_p99": round(latencies[int(len(latencies) * 0.99)] / 1000, 2),
        "latency_us_max": round(latencies[-1] / 1000, 2),
        "ledger_balanced": ledger.total() == 0 and ledger.audit(),
    }


def maker_expectation(market: Market, account: str) -> tuple[Fraction, int]:
    """The account's expected P&L on its fills at the fair prices of their round, and its stake.

    Backing ``S`` at ``P`` when the fair price is ``F`` (so ``P(win) + P(tie) / 2 = 1 / F``,
    dead heats paying half the odds) is worth ``S x (P / F - 1)`` on average, with or
    without dead heats; a lay is worth the negation.
    """
    fair_by_round: dict[int, dict[str, Fraction | None]] = {}
    for entry in market.log:
        if isinstance(entry.command, OpenRound) and entry.refused is None:
            fair_by_round[entry.command.round] = dict(entry.command.fair_prices)
    expected = Fraction(0)
    stake = 0
    for fill in market.fills:
        if account not in (fill.backer, fill.layer) or fill.backer == fill.layer:
            continue
        fair = fair_by_round[fill.round].get(market.names[fill.selection])
        chance = Fraction(0) if fair is None else 1 / fair
        backer = fill.stake * (price_fraction(fill.price) * chance - 1)
        expected += backer if fill.backer == account else -backer
        stake += fill.stake
    return expected, stake


def calibration_gap(market: Market) -> Fraction:
    """Sum over rounds and priced selections of the result (win 1, dead heat 1/2, lose 0)
    minus the chance ``1 / F`` the fair price ``F`` gave it at the round's open."""
    score = {"winner": Fraction(1), "tied": Fraction(1, 2), "loser": Fraction(0)}
    gap = Fraction(0)
    for entry in market.log:
        if isinstance(entry.command, OpenRound) and entry.refused is None:
            for name, fair in entry.command.fair_prices:
                result = market.results[market.names.index(name)]
                # No price: it cannot win (a loser, nothing to compare) or has no figure yet.
                if result is not None and fair is not None:
                    gap += score[result.value] - 1 / fair
    return gap


def calibration_report(gaps: list[Fraction]) -> dict[str, Any]:
    """Do the fair prices predict the results? The total gap against its spread over games."""
    games = len(gaps)
    total = float(sum(gaps))
    mean = total / games if games else 0.0
    variance = sum((float(g) - mean) ** 2 for g in gaps) / (games - 1) if games > 1 else 0.0
    spread = math.sqrt(variance * games)
    return {
        "results_minus_chances": round(total, 2),
        "standard_deviation": round(spread, 2),
        "z_score": round(total / spread, 2) if spread else None,
    }


def maker_report(
    gross: list[int], commission: int, expected: Fraction, stake: int
) -> dict[str, Any]:
    """The market maker's result against what its fills were worth at the fair prices."""
    games = len(gross)
    total = sum(gross)
    mean = total / games if games else 0.0
    variance = sum((g - mean) ** 2 for g in gross) / (games - 1) if games > 1 else 0.0
    spread = math.sqrt(variance * games)  # standard deviation of the total over the games
    return {
        "matched_stake": stake,
        "profit_before_commission": total,
        "commission_paid": commission,
        "profit": total - commission,
        "expected_profit_at_fair_prices": round(float(expected)),
        "edge_on_matched_stake": round(float(expected) / stake, 5) if stake else None,
        "standard_deviation_of_total": round(spread),
        "z_score_before_commission": round((total - float(expected)) / spread, 2)
        if spread
        else None,
    }


def simulate_session(games: int, seed: int) -> dict[str, Any]:
    from twentyone.market.bots import (
        FavouriteBacker,
        LongshotLayer,
        RandomBettor,
        SpreadNarrower,
    )
    from twentyone.market.table import ExchangeTable

    ledger = Ledger()
    ledger.open_account(MARKET_MAKER_ACCOUNT, AccountKind.HOUSE)
    float_amount = 1_000_000_00
    ledger.deposit("float", MARKET_MAKER_ACCOUNT, float_amount)
    bots = [
        FavouriteBacker("bot:favourite-backer", 10_00),
        LongshotLayer("bot:longshot-layer", 5_00),
        RandomBettor("bot:random", 8_00, source=SeededRandomSource(seed + 1)),
        SpreadNarrower("bot:spread-narrower", 4_00),
    ]
    bankroll = 100_000_00
    for bot in bots:
        ledger.open_account(bot.account, AccountKind.CUSTOMER)
        ledger.deposit(f"d/{bot.account}", bot.account, bankroll)
    source = SeededRandomSource(seed)
    orders = fills = matched = 0
    maker_expected = Fraction(0)  # the market maker's expected P&L at the fair prices
    maker_gross: list[int] = []  # its P&L per game before commission
    maker_commission = 0
    maker_matched = 0
    calibration: list[Fraction] = []  # per game: results minus the fair prices' chances
    started = time.perf_counter()
    for game in range(games):
        table = ExchangeTable(ledger, f"game{game}", InfiniteShoe(source), MarketMaker(), bots)
        table.play_out()
        orders += len(table.market.orders)
        fills += len(table.market.fills)
        matched += sum(table.market.matched_totals)
        expected, stake = maker_expectation(table.market, MARKET_MAKER_ACCOUNT)
        maker_expected += expected
        maker_matched += stake
        position = table.market.exposure.customers.get(MARKET_MAKER_ACCOUNT)
        maker_gross.append(0 if position is None else position.settled_net)
        maker_commission += table.market.commissions.get(MARKET_MAKER_ACCOUNT, 0)
        calibration.append(calibration_gap(table.market))
    elapsed = time.perf_counter() - started
    commission = ledger.balance("house:commission")
    profits = {bot.account: ledger.balance(bot.account) - bankroll for bot in bots}
    maker_profit = ledger.balance(MARKET_MAKER_ACCOUNT) - float_amount
    inside = sum(ledger.balance(a) for a in ledger.accounts() if a != "external")
    return {
        "games": games,
        "orders": orders,
        "fills": fills,
        "matched_stake": matched,
        "house_commission": commission,
        "market_maker_profit": maker_profit,
        "market_maker": maker_report(maker_gross, maker_commission, maker_expected, maker_matched),
        "fair_price_calibration": calibration_report(calibration),
        "bot_profits": profits,
        "customers_total_profit": sum(profits.values()) + maker_profit,
        "ledger_total": ledger.total(),
        "money_inside_equals_deposits": inside == ledger.deposited() == float_amount + 4 * bankroll,
        "profits_sum_to_minus_commission": sum(profits.values()) + maker_profit == -commission,
        "holds_left": len(ledger.holds()),
        "audit": ledger.audit(),
        "seconds": round(elapsed, 2),
        "games_per_second": round(games / elapsed, 2),
    }


def _noop() -> None:
    pass


def _python_call_ns() -> float:
    """Nanoseconds per call of an empty function: the best of five CPU-timed batches."""
    best = float("inf")
    for _ in range(5):
        started = time.process_time_ns()
        for _ in range(200_000):
            _noop()
        best = min(best, (time.process_time_ns() - started) / 200_000)
    return round(best, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--operations", type=int, default=200_000)
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    out = {
        "benchmark": "exchange matching engine and simulated session",
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "load_average_1min": round(os.getloadavg()[0], 2),
            # The cost of one empty Python function call here: a yardstick for comparing
            # the figures with another machine (the engine makes about 25 calls per order).
            "python_call_ns": _python_call_ns(),
        },
        "matching": bench_matching(args.operations, args.seed),
        "target_operations_per_second": TARGET,
    }
    if args.games:
        out["session"] = simulate_session(args.games, args.seed)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
