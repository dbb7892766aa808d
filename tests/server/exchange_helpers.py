"""A live Exchange server on an injected clock, scripted cards and flat fair prices, for the
exchange tests (tests/server/test_exchange_*.py)."""

from __future__ import annotations

import asyncio
import json
from fractions import Fraction
from typing import Any

import httpx
from sqlalchemy import func, select

from twentyone.clock import ManualClock
from twentyone.exchange.selections import PLAYER_SELECTIONS, SELECTIONS
from twentyone.exchange.state import ExchangeState
from twentyone.server.app import create_app
from twentyone.server.config import CardScript, ServerConfig, fast_hasher
from twentyone.server.exchange import maker_account
from twentyone.storage import ledger
from twentyone.storage.models import ExchangeGameRow, ExchangePositionRow, exchange_hold_account

from .conftest import seed_counter

GRANT = 100_000
START = 1_800_000_000.0
TABLE = "exchange-1"

#: P1 TS 6H busts on TC after round 2 (settled early: loser); P2 9D 9C (18), P3 AS KD
#: (blackjack), P4 5C 2H takes 3D 8S (18); the dealer 7C QH stands on 17 after round 3.
#: Results: P1 loser, P2 P3 P4 winners, "Only one has 21pts" and "All cards unique" winners.
GAME_A = "TS 6H 9D 9C AS KD 5C 2H 7C TC 3D 8S QH"
#: P1 TS 7H (17) ties the dealer's 7C 5D 5H (17): a dead heat after round 4.
GAME_TIE = "TS 7H 9D 9C AS KD TC 8H 7C 5D 5H"


def flat_fair(state: ExchangeState) -> dict[str, Fraction | None]:
    """Fair prices that do not depend on the cards: 2.5 a player hand, 4 an exotic (cheap and
    known, so the maker's quotes are: players 2.46 to back and 2.54 to lay, exotics 3.9 and
    4.2)."""
    return {
        name: Fraction(5, 2) if name in PLAYER_SELECTIONS else Fraction(4) for name in SELECTIONS
    }


class Exchange:
    """A server on one database, its clients and its clock."""

    def __init__(self, database: dict[str, Any], clock: ManualClock | None = None) -> None:
        self.database = database
        self.clock = clock or ManualClock(START)
        self.script = CardScript()
        self.seeds = seed_counter(3)
        self.app: Any = None
        self.tokens: dict[str, str] = {}

    async def start(self) -> None:
        config = ServerConfig(
            db_url=self.database["url"],
            db_schema=self.database["schema"],
            clock=self.clock,
            hasher=fast_hasher(),
            server_seeds=self.seeds,
            card_script=self.script,
            grant=GRANT,
            exchange_fair_prices=flat_fair,
        )
        self.app = create_app(config)
        await self.app.state.server.start()

    async def stop(self) -> None:
        await self.app.state.server.stop()

    @property
    def server(self) -> Any:
        return self.app.state.server

    @property
    def service(self) -> Any:
        return self.server.services["exchange"]

    def client(self, name: str | None = None) -> httpx.AsyncClient:
        headers = {"Authorization": f"Bearer {self.tokens[name]}"} if name else {}
        return httpx.AsyncClient(
            transport=httpx.ASGITransport(app=self.app),
            base_url="http://testserver",
            headers=headers,
        )

    async def player(self, name: str) -> httpx.AsyncClient:
        async with self.client() as anonymous:
            made = await anonymous.post(
                "/api/accounts", json={"name": name, "password": "pw-12345678"}
            )
            assert made.status_code == 201, made.text
            token = await anonymous.post(
                "/api/tokens", json={"name": name, "password": "pw-12345678"}
            )
        self.tokens[name] = token.json()["token"]
        return self.client(name)

    async def advance(self, seconds: float) -> int:
        self.clock.advance(seconds)
        return int(await self.service.tick())

    async def balance(self, account: str) -> int:
        async with self.server.read() as session:
            return int(await ledger.balance(session, account))

    async def audit(self) -> dict[str, Any]:
        """The ledger balances to the minor unit, and every game's hold account carries exactly
        what its positions say it holds (0 once the game is settled or void)."""
        async with self.server.write() as session:
            report: dict[str, Any] = await ledger.audit(session)
            assert report["balanced"], report["problems"]
            games = (await session.scalars(select(ExchangeGameRow))).all()
            for game in games:
                held = await ledger.balance(session, exchange_hold_account(game.id))
                stored = await session.scalar(
                    select(func.coalesce(func.sum(ExchangePositionRow.held), 0)).where(
                        ExchangePositionRow.game_id == game.id
                    )
                )
                assert held == int(stored or 0), (game.id, held, stored)
                if game.state != "open":
                    assert held == 0, (game.id, game.state, held)
        return report

    async def maker(self, table: str = TABLE) -> int:
        return await self.balance(maker_account(table))

    def socket(self, path: str, name: str | None = None) -> Socket:
        return Socket(self.app, path, self.tokens.get(name) if name else None)


async def ok(response: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    return body


class Socket:
    """A WebSocket client speaking ASGI to the app in this event loop (no network)."""

    def __init__(self, app: Any, path: str, token: str | None) -> None:
        headers = [(b"host", b"testserver")]
        if token:
            headers.append((b"authorization", f"Bearer {token}".encode()))
        scope = {
            "type": "websocket",
            "asgi": {"version": "3.0"},
            "scheme": "ws",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": headers,
            "client": ("127.0.0.1", 5000),
            "server": ("testserver", 80),
            "subprotocols": [],
        }
        self.to_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.from_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.to_app.put_nowait({"type": "websocket.connect"})
        self.task = asyncio.create_task(app(scope, self.to_app.get, self.from_app.put))
        self.texts: list[str] = []

    def drain(self) -> list[dict[str, Any]]:
        """Every frame sent so far and not yet read (the app runs in this loop: call after an
        await that let it run)."""
        out: list[dict[str, Any]] = []
        while not self.from_app.empty():
            message = self.from_app.get_nowait()
            if message["type"] == "websocket.send":
                self.texts.append(str(message["text"]))
                out.append(json.loads(message["text"]))
        return out

    async def take(self, count: int) -> list[dict[str, Any]]:
        """The next ``count`` frames, waiting for each (the connect reads the database)."""
        out: list[dict[str, Any]] = []
        while len(out) < count:
            message = await asyncio.wait_for(self.from_app.get(), 10)
            if message["type"] == "websocket.send":
                self.texts.append(str(message["text"]))
                out.append(json.loads(message["text"]))
        return out

    def send(self, data: dict[str, Any]) -> None:
        self.to_app.put_nowait({"type": "websocket.receive", "text": json.dumps(data)})

    async def close(self) -> None:
        self.to_app.put_nowait({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(self.task, 10)
