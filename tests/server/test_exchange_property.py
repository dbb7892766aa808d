"""A hypothesis state machine over whole live Exchange games: three customers place and cancel
orders at prices around the maker's quotes while the clock runs games to their end. After every
step the ledger balances to the minor unit (commission included), every game's hold account
carries exactly what its positions say, each customer's database balance is what the market's
mirror says is available to him, and every order's size is the sum of its parts. Nothing is ever
answered with a 500."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from twentyone.exchange.selections import SELECTIONS

from .conftest import seed_counter
from .exchange_helpers import GRANT, TABLE, Exchange

CUSTOMERS = ("ann", "bob", "cat")
PRICES = ("1.01", "2", "2.4", "2.46", "2.5", "2.54", "2.6", "3", "3.9", "4.2", "5", "2.03")
SIZES = (200, 500, 1000, 3000, 150)


class ExchangeGames(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.folder = tempfile.TemporaryDirectory()
        database = {"url": f"sqlite:///{Path(self.folder.name) / 'p.db'}", "schema": None}
        self.exchange = Exchange(database)
        self.clients: dict[str, Any] = {}
        self.orders: list[tuple[str, int]] = []
        self.refs = 0
        self.started = False

    def run(self, coroutine: Any) -> Any:
        return self.loop.run_until_complete(coroutine)

    @rule(seed=st.integers(0, 10_000))
    @precondition(lambda self: not self.started)
    def start(self, seed: int) -> None:
        self.exchange.seeds = seed_counter(seed)
        self.run(self.exchange.start())
        for name in CUSTOMERS:
            self.clients[name] = self.run(self.exchange.player(name))
        self.started = True

    @rule(
        who=st.sampled_from(CUSTOMERS),
        selection=st.sampled_from(SELECTIONS),
        side=st.sampled_from(("back", "lay")),
        price=st.sampled_from(PRICES),
        size=st.sampled_from(SIZES),
        stale=st.booleans(),
    )
    @precondition(lambda self: self.started)
    def place(
        self, who: str, selection: str, side: str, price: str, size: int, stale: bool
    ) -> None:
        client = self.clients[who]
        state = self.run(client.get(f"/api/exchange/tables/{TABLE}")).json()
        self.refs += 1
        body = {
            "table": TABLE,
            "game": state["game"],
            "round": max(1, (state["round"] or 1) - (1 if stale else 0)),
            "selection": selection,
            "side": side,
            "price": price,
            "size": size,
            "ref": f"r{self.refs}",
        }
        answer = self.run(client.post("/api/exchange/orders", json=body))
        assert answer.status_code in (201, 409, 422), answer.text
        if answer.status_code == 201:
            self.orders.append((who, answer.json()["id"]))
            again = self.run(client.post("/api/exchange/orders", json=body))
            assert again.status_code == 200 and again.json()["id"] == answer.json()["id"]
        else:
            assert set(answer.json()) == {"error"}

    @rule(data=st.data(), part=st.sampled_from((None, 100, 5000)))
    @precondition(lambda self: self.started and bool(self.orders))
    def cancel(self, data: st.DataObject, part: int | None) -> None:
        who, order_id = data.draw(st.sampled_from(self.orders))
        someone = data.draw(st.sampled_from(CUSTOMERS))
        query = "" if part is None else f"?size={part}"
        answer = self.run(self.clients[someone].delete(f"/api/exchange/orders/{order_id}{query}"))
        if someone != who:
            assert answer.status_code == 404, answer.text
        else:
            assert answer.status_code in (200, 409), answer.text

    @rule(seconds=st.sampled_from((1.0, 3.0, 10.0, 25.0, 30.0)))
    @precondition(lambda self: self.started)
    def advance(self, seconds: float) -> None:
        self.run(self.exchange.advance(seconds))

    @invariant()
    def money_adds_up(self) -> None:
        if not self.started:
            return
        self.run(self.exchange.audit())
        live = self.exchange.service.tables[TABLE].game
        for name in CUSTOMERS:
            account = f"player:{name}"
            balance = self.run(self.exchange.balance(account))
            assert balance >= 0
            if live is not None and live.ledger.has_account(account):
                assert balance == live.ledger.available(account), (name, balance)
            else:
                assert balance <= GRANT * 10
        for who, order_id in self.orders[-5:]:
            order = self.run(self.clients[who].get(f"/api/exchange/orders/{order_id}")).json()
            parts = ("matched", "remaining", "cancelled", "lapsed", "voided")
            assert order["size"] == sum(order[key] for key in parts), order
            assert min(order[key] for key in parts) >= 0

    def teardown(self) -> None:
        try:
            if self.started:
                for client in self.clients.values():
                    self.run(client.aclose())
                self.run(self.exchange.stop())
        finally:
            self.loop.close()
            self.folder.cleanup()


ExchangeGames.TestCase.settings = settings(
    max_examples=6,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestExchangeGames = ExchangeGames.TestCase
