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
import json
import os
import platform
import random
import time
from typing import Any

from twentyone.exchange.selections import PLAYER_SELECTIONS, SELECTIONS
from twentyone.ledger import AccountKind, Ledger
from twentyone.market import Market, MarketSettings, SelectionSpec
from twentyone.market.errors import OrderRejectedError
from twentyone.market.ladder import index_of, price_text
from twentyone.market.market_maker import MARKET_MAKER_ACCOUNT, MarketMaker
from twentyone.randomness import SeededRandomSource
from twentyone.shoe import InfiniteShoe

# The eight Exchange Blackjack selections (the table module would load the card game's
# compiled odds, which the matching benchmark does not need).
EIGHT = [SelectionSpec(name, name in PLAYER_SELECTIONS) for name in SELECTIONS]


TARGET = 50_000


def bench_matching(operations: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    ledger = Ledger()
    customers = [f"c{n}" for n in range(50)]
    for name in customers:
        ledger.open_account(name, AccountKind.CUSTOMER)
        ledger.deposit(f"d/{name}", name, 10**9)
    market = Market("bench", ledger, EIGHT, MarketSettings())
    names = [spec.name for spec in EIGHT]
    middle = index_of("2.5")
    prices = [price_text(middle + offset) for offset in range(-6, 7)]
    # Pre-draw the operations so that the timing covers the engine only.
    plan: list[tuple[Any, ...]] = []
    for n in range(operations):
        if n % 10 < 7:
            side = rng.choice(("back", "lay"))
            # Backs lean low and lays high, so that many orders cross and fill in part.
            price = rng.choice(prices[:9] if side == "back" else prices[4:])
            plan.append(
                (
                    "place",
                    rng.choice(customers),
                    f"r{n}",
                    rng.choice(names),
                    side,
                    price,
                    rng.randrange(200, 5_000),
                )
            )
        else:
            plan.append(("cancel", rng.random() < 0.5, rng.randrange(200, 3_000)))
    market.open_round(1)
    round_no = 1
    latencies: list[int] = []
    open_ids: list[int] = []
    counts = {"place": 0, "cancel": 0, "rejected": 0}
    clock = time.perf_counter_ns
    started, cpu_started = clock(), time.process_time()
    for n, op in enumerate(plan):
        if n and n % 20_000 == 0:  # a round ends now and then: every remainder lapses
            market.close_round()
            round_no += 1
            market.open_round(round_no)
            open_ids.clear()
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
        else:
            while open_ids and not market.orders[open_ids[-1]].remaining:
                open_ids.pop()
            if open_ids:
                order = market.orders[open_ids[-1]]
                market.cancel(order.customer, order.order_id, None if op[1] else op[2])
            counts["cancel"] += 1
        latencies.append(clock() - t0)
    elapsed = (clock() - started) / 1e9
    cpu_seconds = time.process_time() - cpu_started
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
        "latency_us_p50": round(latencies[len(latencies) // 2] / 1000, 2),
        "latency_us_p99": round(latencies[int(len(latencies) * 0.99)] / 1000, 2),
        "latency_us_max": round(latencies[-1] / 1000, 2),
        "ledger_balanced": ledger.total() == 0 and ledger.audit(),
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
    started = time.perf_counter()
    for game in range(games):
        table = ExchangeTable(ledger, f"game{game}", InfiniteShoe(source), MarketMaker(), bots)
        table.play_out()
        orders += len(table.market.orders)
        fills += len(table.market.fills)
        matched += sum(table.market.matched_totals)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--operations", type=int, default=200_000)
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    out = {
        "benchmark": "exchange matching engine and simulated session",
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "matching": bench_matching(args.operations, args.seed),
        "target_operations_per_second": TARGET,
    }
    if args.games:
        out["session"] = simulate_session(args.games, args.seed)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
