"""Fixtures: a server on a fresh SQLite file or a fresh PostgreSQL schema, and API clients.

PostgreSQL is the local one (127.0.0.1:5432, trust auth, database ``test``); each test gets its
own schema, dropped afterwards. Where PostgreSQL does not answer, its tests are skipped with
that reason (in CI it answers: .ci/run starts it).
"""

from __future__ import annotations

import itertools
import os
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from twentyone.clock import ManualClock
from twentyone.server.app import create_app
from twentyone.server.config import ServerConfig, fast_hasher

PG_URL = os.environ.get("TWENTYONE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
_pg_state: dict[str, Any] = {}


async def _pg_answers() -> str | None:
    """None if PostgreSQL answers, else why not."""
    if "why" not in _pg_state:
        import asyncpg

        try:
            conn = await asyncpg.connect(PG_URL.replace("postgresql://", "postgres://"), timeout=3)
            await conn.close()
            _pg_state["why"] = None
        except Exception as error:  # any failure to connect means: skip, saying why
            _pg_state["why"] = f"PostgreSQL at {PG_URL} does not answer: {error}"
    return _pg_state["why"]


async def _pg_exec(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_URL.replace("postgresql://", "postgres://"))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=["sqlite", "postgresql"])
async def database(request: pytest.FixtureRequest, tmp_path: Any) -> AsyncIterator[dict[str, Any]]:
    """``{"url", "schema"}`` of an empty database of each kind."""
    if request.param == "sqlite":
        yield {"url": f"sqlite:///{tmp_path / 'test.db'}", "schema": None}
        return
    why = await _pg_answers()
    if why is not None:
        pytest.skip(why)
    schema = "t_" + uuid.uuid4().hex[:16]
    await _pg_exec(f"CREATE SCHEMA {schema}")
    try:
        yield {"url": PG_URL, "schema": schema}
    finally:
        await _pg_exec(f"DROP SCHEMA {schema} CASCADE")


def seed_counter(prefix: int = 0) -> Callable[[], str]:
    """Reproducible server seeds for tests: sha-like hex of a counter."""
    counter = itertools.count(prefix * 1_000_000)

    def next_seed() -> str:
        return f"{next(counter):064x}"

    return next_seed


class Api:
    """An httpx client on the ASGI app, with helpers for the common calls."""

    def __init__(self, app: Any, clock: ManualClock) -> None:
        self.app = app
        self.clock = clock
        self.server = app.state.server

    def client(self, token: str | None = None) -> httpx.AsyncClient:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.AsyncClient(
            transport=httpx.ASGITransport(app=self.app),
            base_url="http://testserver",
            headers=headers,
        )

    async def player(self, name: str, password: str = "password123") -> httpx.AsyncClient:
        async with self.client() as anonymous:
            made = await anonymous.post("/api/accounts", json={"name": name, "password": password})
            assert made.status_code == 201, made.text
            token = await anonymous.post("/api/tokens", json={"name": name, "password": password})
            assert token.status_code == 201, token.text
        return self.client(token.json()["token"])


@pytest.fixture
async def api(database: dict[str, Any]) -> AsyncIterator[Api]:
    clock = ManualClock(1_800_000_000.0)
    config = ServerConfig(
        db_url=database["url"],
        db_schema=database["schema"],
        clock=clock,
        hasher=fast_hasher(),
        server_seeds=seed_counter(),
    )
    app = create_app(config)
    await app.state.server.start()
    try:
        yield Api(app, clock)
    finally:
        await app.state.server.stop()
