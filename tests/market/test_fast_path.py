"""The market's hot path against slow, obviously correct models.

``Market.place`` checks the common case in one go and runs matching and exposure inline
(``Market._execute``); anything unusual goes through the general path, which checks each
field in turn. These tests check (1) the fills against a plain price-time-priority model
written from the spec, (2) that the same orders given in forms only the general path accepts
(``Decimal`` prices, ``Side`` members) leave exactly the same market and ledger, and (3) the
compact stores (order table, fill log, event log, journal) against the records they stand for.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from twentyone.ledger import AccountKind, HoldSet, Ledger
from twentyone.market import Market, MarketSettings, SelectionSpec, replay
from twentyone.market.ladder import index_of, price_text
from twentyone.market.log import Cancel, Place
from twentyone.market.orders import Side

SELECTIONS = (
    SelectionSpec("Player 1", can_tie=True),
    SelectionSpec("Player 2", can_tie=True),
    SelectionSpec("All cards unique", can_tie=False),
)
CUSTOMERS = [f"c{n}" for n in range(6)]
# Around 1.9 to 2.1 (orders cross often), some near 1.2 and 4 (dead heats either side of 2).
PRICES = [price_text(index_of("2") + k) for k in range(-5, 6)] + ["1.2", "1.21", "4", "4.1"]


def new_ledger() -> Ledger:
    ledger = Ledger()
    for name in CUSTOMERS:
        ledger.open_account(name, AccountKind.CUSTOMER)
        ledger.deposit(f"d/{name}", name, 10**9)
    return ledger


def new_market() -> tuple[Market, Ledger]:
    ledger = new_ledger()
    return Market("m", ledger, SELECTIONS, MarketSettings()), ledger


def plan(seed: int, operations: int) -> list[tuple[Any, ...]]:
    rng = random.Random(seed)
    out: list[tuple[Any, ...]] = []
    for n in range(operations):
        roll = rng.random()
        if roll < 0.01:
            out.append(("close",))
        elif roll < 0.72:
            out.append(
                (
                    "place",
                    rng.choice(CUSTOMERS),
                    f"r{n}",
                    rng.randrange(len(SELECTIONS)),
                    rng.choice(("back", "lay")),
                    rng.choice(PRICES),
                    rng.randrange(200, 5_000),
                )
            )
        else:
            out.append(("cancel", rng.random(), rng.choice((None, rng.randrange(1, 3_000)))))
    return out


class PlainBook:
    """Resting orders in a list; each taker scans it for the best price, then the oldest."""

    def __init__(self) -> None:
        self.resting: list[dict[str, Any]] = []

    def place(self, order: dict[str, Any]) -> list[tuple[int, int, int]]:
        """(maker id, price, stake) of each fill, in order; the remainder rests."""
        fills = []
        while order["remaining"]:
            if order["side"] == "back":  # meets lays at or above its price, highest first
                candidates = [
                    o
                    for o in self.resting
                    if o["selection"] == order["selection"]
                    and o["side"] == "lay"
                    and o["price"] >= order["price"]
                ]
                key = lambda o: (-o["price"], o["id"])  # noqa: E731
            else:  # meets backs at or below its price, lowest first
                candidates = [
                    o
                    for o in self.resting
                    if o["selection"] == order["selection"]
                    and o["side"] == "back"
                    and o["price"] <= order["price"]
                ]
                key = lambda o: (o["price"], o["id"])  # noqa: E731
            if not candidates:
                break
            maker = min(candidates, key=key)
            stake = min(order["remaining"], maker["remaining"])
            maker["remaining"] -= stake
            order["remaining"] -= stake
            fills.append((maker["id"], maker["price"], stake))
            if not maker["remaining"]:
                self.resting.remove(maker)
        if order["remaining"]:
            self.resting.append(order)
        return fills

    def cancel(self, order_id: int, amount: int | None) -> None:
        for order in self.resting:
            if order["id"] == order_id:
                order["remaining"] -= (
                    order["remaining"] if amount is None else min(amount, order["remaining"])
                )
                if not order["remaining"]:
                    self.resting.remove(order)
                return


def run(seed: int, operations: int, general: bool) -> tuple[Market, Ledger, list[str]]:
    """Run a plan; ``general``: prices as ``Decimal`` with a trailing zero and sides as
    ``Side`` members, which the hot path does not take. Checks every fill against
    :class:`PlainBook` on the way."""
    market, ledger = new_market()
    model = PlainBook()
    round_no = 1
    market.open_round(round_no)
    open_ids: list[int] = []
    checked: list[str] = []
    for step in plan(seed, operations):
        if step[0] == "close":
            market.close_round()
            model.resting.clear()
            round_no += 1
            market.open_round(round_no)
            open_ids.clear()
        elif step[0] == "place":
            _, customer, reference, selection, side, price, size = step
            given_price: Any = Decimal(price + ("0" if "." in price else ".0"))
            given_side: Any = Side(side)
            if not general:
                given_price, given_side = price, side
            result = market.place(
                customer,
                reference,
                SELECTIONS[selection].name,
                given_side,
                given_price,
                size,
                round_no,
            )
            order = {
                "id": result.order.order_id,
                "selection": selection,
                "side": side,
                "price": index_of(price),
                "remaining": size,
            }
            expected = model.place(order)
            assert [(f.maker_order, f.price, f.stake) for f in result.fills] == expected
            assert result.order.remaining == order["remaining"]
            checked.append(f"{len(expected)} fills")
            if result.order.remaining:
                open_ids.append(result.order.order_id)
        else:
            _, pick, amount = step
            live = [i for i in open_ids if market.orders[i].remaining]
            if live:
                order_id = live[int(pick * len(live))]
                market.cancel(market.orders[order_id].customer, order_id, amount)
                model.cancel(order_id, amount)
    return market, ledger, checked


def money(ledger: Ledger) -> dict[str, Any]:
    return {"balances": {a: ledger.balance(a) for a in ledger.accounts()}, "holds": ledger.holds()}


def test_fills_equal_a_plain_price_time_priority_model() -> None:
    for seed in (1, 2, 3):
        market, _, checked = run(seed, 1_500, general=False)
        assert any(c != "0 fills" for c in checked)  # the plan does cross
        assert len(market.fills) > 200


def test_the_hot_path_and_the_general_path_leave_the_same_state() -> None:
    fast, fast_ledger, _ = run(4, 1_500, general=False)
    general, general_ledger, _ = run(4, 1_500, general=True)
    assert fast.snapshot() == general.snapshot()
    assert money(fast_ledger) == money(general_ledger)
    assert [e.refused for e in fast.log] == [e.refused for e in general.log]
    for market in (fast, general):
        for customer in CUSTOMERS:
            assert market.exposure.customers[customer].loss == market.exposure.full_loss(customer)
    # and each log replays to the same market
    for market in (fast, general):
        ledger = new_ledger()
        rebuilt = replay(market.log, ledger, "m", SELECTIONS, MarketSettings())
        assert rebuilt.snapshot() == market.snapshot()
        assert rebuilt.log == market.log and rebuilt.fills == market.fills


def test_compact_stores_read_as_their_records() -> None:
    market, ledger, _ = run(5, 400, general=False)
    orders = market.orders
    assert list(orders) == list(range(1, len(orders) + 1))
    for order_id, order in orders.items():
        view = order.snapshot()
        assert view == orders.view(order_id) and view.order_id == order_id
        parts = (view.matched, view.remaining, view.cancelled, view.lapsed, view.voided)
        assert sum(parts) == view.size and min(parts) >= 0
    assert 0 not in orders and len(orders) + 1 not in orders and "1" not in orders
    fills = list(market.fills)
    assert fills == market.fills and [f.fill_id for f in fills] == list(range(1, len(fills) + 1))
    assert market.fills[-1] == fills[-1] and market.fills[1:3] == fills[1:3]
    entries = list(market.log)
    assert [e.sequence for e in entries] == list(range(len(market.log)))
    assert {type(e.command) for e in entries} >= {Place, Cancel}
    assert market.log[-1] == entries[-1] and market.log[2:5] == entries[2:5]
    assert market.log == entries
    batches = list(ledger.journal)
    assert ledger.journal == batches and ledger.journal[-1] == batches[-1]
    assert all(isinstance(entry, tuple) for batch in batches for entry in batch)
    assert any(isinstance(batch[0], HoldSet) and len(batch) == 1 for batch in batches)
    assert Ledger.from_journal(ledger.journal).holds() == ledger.holds()
    # a retry answers the first placement again, rebuilt from the order and its fills
    for entry in entries[:60]:
        command = entry.command
        if isinstance(command, Place) and entry.refused is None:
            again = market.place(*command)
            order = orders[again.order.order_id]
            assert order.reference == command.reference
            assert again.order.matched == sum(f.stake for f in again.fills)
            assert all(order.order_id in (f.back_order, f.lay_order) for f in again.fills)
