"""The test-only hooks (``/api/test/...``, card injection): present only with a CardScript,
which production cannot make, and dealing exactly the pushed cards when present."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from tests.server.conftest import Api, seed_counter
from twentyone.cards import parse_cards
from twentyone.cli.serve import serve
from twentyone.clock import ManualClock
from twentyone.fairness import CardMismatchError, FairnessRecord, verify_record
from twentyone.server import online
from twentyone.server.app import create_app
from twentyone.server.config import CardScript, ServerConfig, WallClock, fast_hasher

pytestmark = pytest.mark.anyio

TEST_ROUTES = (
    ("/api/test/cards", {"table": "online", "cards": "AS TD"}),
    ("/api/test/tick", {"seconds": 1}),
    ("/api/test/casino/casino-1/reshuffle", None),
)


def _config(database: dict[str, Any], **extra: Any) -> ServerConfig:
    settings: dict[str, Any] = {
        "db_url": database["url"],
        "db_schema": database["schema"],
        "clock": ManualClock(1_800_000_000.0),
        "hasher": fast_hasher(),
        "server_seeds": seed_counter(7),
        **extra,
    }
    return ServerConfig(**settings)


async def _started(config: ServerConfig) -> AsyncIterator[Api]:
    app = create_app(config)
    await app.state.server.start()
    try:
        assert isinstance(config.clock, ManualClock)
        yield Api(app, config.clock)
    finally:
        await app.state.server.stop()


@pytest.fixture
async def production(database: dict[str, Any]) -> AsyncIterator[Api]:
    """A server configured as ``twentyone serve`` configures it: no card script."""
    async for api in _started(_config(database)):
        yield api


@pytest.fixture
async def scripted(database: dict[str, Any]) -> AsyncIterator[Api]:
    async for api in _started(_config(database, card_script=CardScript())):
        yield api


# --------------------------------------------------------------- production has none
async def test_a_default_server_has_no_test_routes(production: Api) -> None:
    async with production.client() as client:
        for path, body in TEST_ROUTES:
            answer = await client.post(path, json=body)
            assert answer.status_code == 404, (path, answer.text)
            assert "error" in answer.json()
        schema = (await client.get("/openapi.json")).json()
    assert not [path for path in schema["paths"] if "/api/test" in path]
    assert production.server.config.card_script is None


async def test_the_test_routes_are_hidden_from_the_openapi(scripted: Api) -> None:
    async with scripted.client() as client:
        schema = (await client.get("/openapi.json")).json()
    assert not [path for path in schema["paths"] if "/api/test" in path]
    paths = {getattr(route, "path", "") for route in scripted.app.routes}
    assert {path for path, _ in TEST_ROUTES if "casino" not in path} <= paths


def test_serve_offers_no_way_to_enable_the_hooks() -> None:
    shown = CliRunner().invoke(serve, ["--help"])
    assert shown.exit_code == 0, shown.output
    assert not re.search(r"card|script|test|inject|hook", shown.output, re.IGNORECASE)
    names = {name for param in serve.params for name in (*param.opts, *param.secondary_opts)}
    assert names == {"--host", "--port", "--db", "--secure-cookies", "--log-level"}
    assert all(getattr(param, "envvar", None) is None for param in serve.params)
    # What serve builds: the defaults, in which there is no script.
    assert ServerConfig().card_script is None


# ------------------------------------------------------------------------ the routes
async def test_pushed_cards_are_queued_for_their_table(scripted: Api) -> None:
    script = scripted.server.config.card_script
    async with scripted.client() as client:
        pushed = await client.post(
            "/api/test/cards", json={"table": "casino-1", "cards": "as,td 9h"}
        )
        assert pushed.status_code == 201, pushed.text
        assert pushed.json() == {"table": "casino-1", "cards": ["AS", "TD", "9H"]}
        for bad in ({"table": "online", "cards": "AS ZZ"}, {"table": "Online!", "cards": "AS"}):
            refused = await client.post("/api/test/cards", json=bad)
            assert refused.status_code == 422, refused.text
            assert refused.json()["error"]
    assert [str(card) for card in script.take("casino-1") or []] == ["AS", "TD", "9H"]
    assert script.take("casino-1") is None and script.take("online") is None


async def test_tick_moves_the_manual_clock_and_ticks_every_service(scripted: Api) -> None:
    ticks: list[float] = []

    class Ticking:
        async def start(self) -> None: ...

        async def stop(self) -> None: ...

        async def tick(self) -> None:
            ticks.append(scripted.server.now())

    scripted.server.add_service("ticking", Ticking())
    async with scripted.client() as client:
        moved = await client.post("/api/test/tick", json={"seconds": 20})
        assert moved.status_code == 200, moved.text
        assert moved.json()["now"] == 1_800_000_020.0
        assert "ticking" in moved.json()["ticked"]
        for bad in (-1, "soon", 10**9):
            refused = await client.post("/api/test/tick", json={"seconds": bad})
            assert refused.status_code == 422, refused.text
    assert ticks == [1_800_000_020.0]
    assert scripted.clock.now() == 1_800_000_020.0


async def test_tick_refuses_a_clock_that_is_not_manual(database: dict[str, Any]) -> None:
    app = create_app(_config(database, clock=WallClock(), card_script=CardScript()))
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://testserver"
    ) as client:
        refused = await client.post("/api/test/tick", json={"seconds": 1})
    assert refused.status_code == 409
    assert "manual" in refused.json()["error"]


async def test_reshuffle_of_an_unknown_table_is_a_404(scripted: Api) -> None:
    async with scripted.client() as client:
        answer = await client.post("/api/test/casino/no-such-table/reshuffle")
    assert answer.status_code == 404, answer.text


# --------------------------------------------------------------- Online card injection
#: Dealing order of one box: player, dealer up, player, dealer hole, then the draws.
SCRIPTED = "9S AH 7D 9C 5C 2H 3S"


async def _deal_scripted(api: Api, client: httpx.AsyncClient) -> dict[str, Any]:
    pushed = await client.post("/api/test/cards", json={"table": "online", "cards": SCRIPTED})
    assert pushed.status_code == 201, pushed.text
    dealt = await client.post("/api/online/rounds", json={"bet": 1000})
    assert dealt.status_code == 201, dealt.text
    return dict(dealt.json())


async def test_an_online_round_deals_the_pushed_cards(scripted: Api) -> None:
    async with await scripted.player("scripted") as client:
        round_ = await _deal_scripted(scripted, client)
        assert round_["hands"][0]["cards"] == ["9S", "7D"]
        assert round_["dealer"]["cards"] == ["AH"] and round_["dealer"]["hidden"] == 1
        assert "insurance 500" in round_["legal_actions"]  # the ace up offers insurance
        # A view read from the database (replayed) shows the same round.
        scripted.server.games.clear()
        again = (await client.get(f"/api/online/rounds/{round_['id']}")).json()
        assert again["hands"] == round_["hands"] and again["dealer"] == round_["dealer"]
        step = round_["step"]
        for action in ("no-insurance", "hit"):  # 21 stands by itself
            acted = await client.post(
                f"/api/online/rounds/{round_['id']}/actions", json={"action": action, "step": step}
            )
            assert acted.status_code == 200, acted.text
            step = acted.json()["step"]
            scripted.server.games.clear()  # each step replays the round from the database
        settled = acted.json()
    assert settled["state"] == "settled"
    assert settled["hands"][0]["cards"] == ["9S", "7D", "5C"]
    assert settled["dealer"]["cards"] == ["AH", "9C"]  # 21 beats a soft 20
    assert settled["net"] == 1000
    record = FairnessRecord.from_json(settled["fairness"])
    assert [str(card) for card in record.cards] == ["9S", "AH", "7D", "9C", "5C"]
    # Scripted cards are not the seeds' cards: such a round does not verify (never fair play).
    with pytest.raises(CardMismatchError):
        verify_record(record)


async def test_without_pushed_cards_the_round_is_dealt_from_its_seeds(scripted: Api) -> None:
    async with await scripted.player("seeded") as client:
        dealt = await client.post("/api/online/rounds", json={"bet": 1000})
        assert dealt.status_code == 201, dealt.text
        round_ = dealt.json()
        step = round_["step"]
        while round_["state"] not in ("settled", "void"):
            action = "no-insurance" if "no-insurance" in round_["legal_actions"] else "stand"
            acted = await client.post(
                f"/api/online/rounds/{round_['id']}/actions", json={"action": action, "step": step}
            )
            assert acted.status_code == 200, acted.text
            round_, step = acted.json(), acted.json()["step"]
    verify_record(FairnessRecord.from_json(round_["fairness"]))


async def test_deal_step_takes_the_online_tables_cards_only(scripted: Api) -> None:
    script = CardScript()
    script.push("casino-1", parse_cards("AS AD"))
    script.push(online.ONLINE_TABLE, parse_cards("TS 6H 9C TD"))
    async with await scripted.player("direct"):
        pass
    from sqlalchemy import select

    from twentyone.storage.models import User

    async with scripted.server.read() as session:
        user = await session.scalar(select(User).where(User.name_key == "direct"))
        assert user is not None
    async with scripted.server.write_connection() as connection:
        loaded, _balance = await online.deal_step(
            connection,
            user,
            500,
            scripted.server.config.server_seeds,
            scripted.server.now(),
            script,
        )
    assert [str(card) for card in loaded.game.boxes[0].hands[0].cards] == ["TS", "9C"]
    assert [str(card) for card in loaded.game.dealer] == ["6H", "TD"]
    assert script.take(online.ONLINE_TABLE) is None
    assert script.take("casino-1") is not None  # another table's cards stay queued
