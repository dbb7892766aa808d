"""Live Casino tables through the API: two players and a spectator at one table, every minor
unit through the ledger, the WebSocket fan-out, the shoe until its cut card, and recovery after
a restart on the same database (SQLite and PostgreSQL, ManualClock, scripted cards)."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import select, update

from twentyone.cards import parse_cards
from twentyone.clock import ManualClock
from twentyone.fairness import FairnessRecord, commitment, verify_record
from twentyone.server.app import create_app, open_player
from twentyone.server.casino import TableSettingsBody
from twentyone.server.config import CardScript, ServerConfig, fast_hasher
from twentyone.storage import ledger
from twentyone.storage.models import CasinoRoundRow, CasinoTableRow, OperatorAction

from .conftest import seed_counter

pytestmark = pytest.mark.anyio

GRANT = 100_000
START = 1_800_000_000.0
TABLE = "casino-1"

#: Box 1: 8 8 (split), box 2: 5 6 (double), box 3: T 6 (times out: stands); dealer 6 up.
#: Then: split cards 3D (hand 1) and 2C (hand 2); hand 1 hits 9S (20) and stands; hand 2
#: doubles 7H (17); box 2 doubles 9C (20); the dealer draws TH 3S (19).
SPLIT_ROUND = "8S 5C TC 6H 8H 6D 6S 3D 2C 9S 7H 9C TH 3S"


class Casino:
    """A server on one database with a ManualClock and a CardScript, and its clients."""

    def __init__(self, database: dict[str, Any], clock: ManualClock, script: CardScript) -> None:
        self.database, self.clock, self.script = database, clock, script
        self.seeds = seed_counter(7)
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
        return self.server.services["casino"]

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

    async def operator(self, name: str = "boss") -> httpx.AsyncClient:
        hashed = self.server.config.hasher.hash("operator-pass")
        async with self.server.write() as session:
            await open_player(session, self.server, name, hashed, role="operator")
        async with self.client() as anonymous:
            token = await anonymous.post(
                "/api/tokens", json={"name": name, "password": "operator-pass"}
            )
        self.tokens[name] = token.json()["token"]
        return self.client(name)

    async def advance(self, seconds: float) -> int:
        self.clock.advance(seconds)
        return int(await self.service.tick())

    async def audit(self) -> dict[str, Any]:
        async with self.server.write() as session:
            report: dict[str, Any] = await ledger.audit(session)
        assert report["balanced"], report["problems"]
        return report

    async def balance(self, name: str) -> int:
        async with self.server.read() as session:
            return await ledger.balance(session, f"player:{name}")

    def socket(self, path: str, name: str | None = None) -> Socket:
        return Socket(self.app, path, self.tokens.get(name) if name else None)


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
        self.accepted = False

    async def text(self) -> str:
        while True:
            message = await asyncio.wait_for(self.from_app.get(), 10)
            if message["type"] == "websocket.accept":
                self.accepted = True
                continue
            assert message["type"] == "websocket.send", message
            return str(message["text"])

    async def frame(self) -> dict[str, Any]:
        found: dict[str, Any] = json.loads(await self.text())
        return found

    async def until(self, seq: int) -> list[dict[str, Any]]:
        """Every frame up to and including the state frame of ``seq``."""
        frames = []
        while True:
            frame = await self.frame()
            frames.append(frame)
            if frame["type"] == "state" and frame["seq"] >= seq:
                return frames

    def send(self, data: dict[str, Any]) -> None:
        self.to_app.put_nowait({"type": "websocket.receive", "text": json.dumps(data)})

    async def close(self) -> None:
        self.to_app.put_nowait({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(self.task, 10)


@pytest.fixture
async def casino(database: dict[str, Any]) -> AsyncIterator[Casino]:
    made = Casino(database, ManualClock(START), CardScript())
    made.script.push(TABLE, parse_cards(SPLIT_ROUND))
    await made.start()
    try:
        yield made
    finally:
        await made.stop()


async def _state(client: httpx.AsyncClient) -> dict[str, Any]:
    found = await client.get(f"/api/casino/tables/{TABLE}")
    assert found.status_code == 200, found.text
    state: dict[str, Any] = found.json()
    return state


async def _ok(response: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    return body


# ----------------------------------------------------------------------------- a shared round
async def test_two_players_and_a_spectator_play_a_round(casino: Casino) -> None:
    ann, bob = await casino.player("ann"), await casino.player("bob")
    watcher = casino.client()
    tables = (await watcher.get("/api/casino/tables")).json()
    assert [t["id"] for t in tables] == [TABLE] and tables[0]["name"] == "Casino 1"
    first = await _state(watcher)
    assert first["phase"] == "waiting" and first["shoe"]["cards_dealt"] == 0
    assert len(first["shoe"]["commitment"]) == 64 and "server_seed" not in json.dumps(first)

    state = await _ok(await ann.post(f"/api/casino/tables/{TABLE}/seats", json={"box": 1}), 201)
    assert state["phase"] == "betting" and state["deadline"] == START + 15
    await _ok(await ann.post(f"/api/casino/tables/{TABLE}/seats", json={"box": 2}), 201)
    taken = await bob.post(f"/api/casino/tables/{TABLE}/seats", json={"box": 2})
    assert taken.status_code == 409 and "taken" in taken.json()["error"]
    await _ok(await bob.post(f"/api/casino/tables/{TABLE}/seats", json={"box": 3}), 201)
    await casino.audit()

    round_number = (await _state(watcher))["round"]
    # Bob cannot bet on Ann's box (404), nor at a stale round (409), nor off the limits (422).
    other = await bob.post(
        f"/api/casino/tables/{TABLE}/bets", json={"box": 1, "amount": 1000, "round": round_number}
    )
    assert other.status_code == 404
    stale = await bob.post(
        f"/api/casino/tables/{TABLE}/bets", json={"box": 3, "amount": 1000, "round": 99}
    )
    assert stale.status_code == 409
    for amount in (99, 50_001):
        off = await bob.post(
            f"/api/casino/tables/{TABLE}/bets",
            json={"box": 3, "amount": amount, "round": round_number},
        )
        assert off.status_code == 422, off.text
    assert await casino.balance("bob") == GRANT

    for client, box, amount in ((ann, 1, 1000), (ann, 2, 1500), (bob, 3, 1000)):
        state = await _ok(
            await client.post(
                f"/api/casino/tables/{TABLE}/bets",
                json={"box": box, "amount": amount, "round": round_number},
            ),
            201,
        )
        await casino.audit()
    # Every seated box has bet: the window closed early and the boxes were dealt.
    assert state["phase"] == "playing"
    assert (
        await casino.balance("ann") == GRANT - 2500 and await casino.balance("bob") == GRANT - 1000
    )
    assert [box["hands"][0]["cards"] for box in state["boxes"][:3]] == [
        ["8S", "8H"],
        ["5C", "6D"],
        ["TC", "6S"],
    ]
    assert state["dealer"]["cards"] == ["6H"]  # no hole card: the second card comes later
    assert state["turn"] == {"box": 1, "hand": 0, "kind": "play"}
    assert "split" in state["legal_actions"] and state["deadline"] == START + 20
    assert state["shoe"]["cards_dealt"] == 7

    # Bob cannot act for Ann's box; Ann cannot act out of turn nor at a stale step.
    step = state["step"]
    theirs = await bob.post(
        f"/api/casino/tables/{TABLE}/actions", json={"box": 1, "action": "hit", "step": step}
    )
    assert theirs.status_code == 404
    early = await ann.post(
        f"/api/casino/tables/{TABLE}/actions", json={"box": 2, "action": "hit", "step": step}
    )
    assert early.status_code == 409
    old = await ann.post(
        f"/api/casino/tables/{TABLE}/actions", json={"box": 1, "action": "hit", "step": step - 1}
    )
    assert old.status_code == 409
    bad = await ann.post(
        f"/api/casino/tables/{TABLE}/actions", json={"box": 1, "action": "fly", "step": step}
    )
    assert bad.status_code == 422
    assert (await _state(watcher))["step"] == step

    async def act(client: httpx.AsyncClient, box: int, action: str) -> dict[str, Any]:
        now = await _state(watcher)
        done = await _ok(
            await client.post(
                f"/api/casino/tables/{TABLE}/actions",
                json={"box": box, "action": action, "step": now["step"]},
            )
        )
        await casino.audit()
        return done

    state = await act(ann, 1, "split")
    assert [h["cards"] for h in state["boxes"][0]["hands"]] == [["8S", "3D"], ["8H", "2C"]]
    assert await casino.balance("ann") == GRANT - 3500
    state = await act(ann, 1, "hit")
    state = await act(ann, 1, "stand")
    assert state["turn"] == {"box": 1, "hand": 1, "kind": "play"}
    state = await act(ann, 1, "double")
    assert state["boxes"][0]["hands"][1]["doubled"] is True
    state = await act(ann, 2, "double")
    assert state["turn"]["box"] == 3 and state["deadline"] == START + 20
    assert await casino.balance("ann") == GRANT - 6000

    # Bob lets his decision time run out: his 16 stands; the dealer draws to 19.
    casino.clock.advance(19.9)
    assert await casino.service.tick() == 0
    assert await casino.advance(0.1) == 1
    state = await _state(watcher)
    assert state["phase"] == "settled"
    assert state["dealer"]["cards"] == ["6H", "TH", "3S"] and state["dealer"]["total"] == 19
    assert state["results"] == [
        {"box": 1, "net": -1000},
        {"box": 2, "net": 3000},
        {"box": 3, "net": -1000},
    ]
    assert [h["result"] for h in state["boxes"][0]["hands"]] == ["win", "lose"]
    assert await casino.balance("ann") == GRANT + 2000
    assert await casino.balance("bob") == GRANT - 1000
    report = await casino.audit()
    assert report["held"] == 0

    # The history: each player sees his own boxes only, with the round's fairness record.
    mine = await _ok(await ann.get("/api/casino/rounds"))
    assert len(mine["rounds"]) == 1
    record = mine["rounds"][0]
    assert [box["box"] for box in record["boxes"]] == [1, 2] and record["net"] == 2000
    assert record["kind"] == "casino" and record["fairness"]["server_seed"] is None
    assert record["fairness"]["position"] == 0 and len(record["fairness"]["cards"]) == 14
    assert any(e.get("timed_out") for e in record["events"] if e["type"] == "decision")
    his = await _ok(await bob.get(f"/api/casino/rounds/{record['id']}"))
    assert [box["box"] for box in his["boxes"]] == [3] and his["net"] == -1000
    spectator_view = await watcher.get(f"/api/casino/rounds/{record['id']}")
    assert spectator_view.status_code == 401

    # After the pause the next window opens for the seated players.
    await casino.advance(4)
    state = await _state(watcher)
    assert state["phase"] == "betting" and state["round"] == round_number + 1
    assert state["boxes"][0]["hands"] == [] and state["deadline"] == casino.clock.now() + 15
    await watcher.aclose()
    await ann.aclose()
    await bob.aclose()


async def test_bad_input_changes_nothing(casino: Casino) -> None:
    ann = await casino.player("ann")
    base = f"/api/casino/tables/{TABLE}"
    for body in ({"box": 0}, {"box": 8}, {"box": "1"}, {"box": 1, "extra": 1}, {}):
        refused = await ann.post(f"{base}/seats", json=body)
        assert refused.status_code == 422, (body, refused.text)
    assert (await ann.get("/api/casino/tables/nowhere")).status_code == 404
    await _ok(await ann.post(f"{base}/seats", json={"box": 4}), 201)
    await _ok(await ann.post(f"{base}/seats", json={"box": 5}), 201)
    state = await _state(ann)
    # Two bets of the maximum are more than Ann has: the second is refused whole.
    await _ok(
        await ann.post(f"{base}/bets", json={"box": 4, "amount": 50_000, "round": state["round"]}),
        201,
    )
    await _ok(
        await ann.post(f"{base}/bets", json={"box": 5, "amount": 50_000, "round": state["round"]}),
        201,
    )
    assert await casino.balance("ann") == 0
    # (the grant is exactly two maximum bets; the table dealt both boxes)
    state = await _state(ann)
    assert state["phase"] == "playing"
    # Box 4 holds 8S 6H against a 10: doubling is legal, but Ann has nothing left to double.
    assert state["turn"]["box"] == 4 and "double" in state["legal_actions"]
    broke = await ann.post(
        f"{base}/actions", json={"box": 4, "action": "double", "step": state["step"]}
    )
    assert broke.status_code == 422 and "balance" in broke.json()["error"]
    again = await _state(ann)
    assert (
        again["step"] == state["step"] and again["boxes"][3]["hands"] == state["boxes"][3]["hands"]
    )
    leave = await ann.delete(f"{base}/seats/4")
    assert leave.status_code == 409
    await casino.audit()
    await ann.aclose()


# ----------------------------------------------------------------------------- the stream
async def test_stream_fans_out_the_same_frame_and_private_frames_to_their_owner(
    casino: Casino,
) -> None:
    ann, bob = await casino.player("ann"), await casino.player("bob")
    path = f"/api/casino/tables/{TABLE}/stream"
    ann_socket = casino.socket(path, "ann")
    bob_socket = casino.socket(path, "bob")
    spectator = casino.socket(path)
    first = await spectator.frame()
    assert first["type"] == "state" and first["event"] is None and first["table"]["id"] == TABLE
    seq = first["seq"]
    for socket in (ann_socket, bob_socket):
        assert (await socket.frame())["type"] == "state"
        private = await socket.frame()
        assert private == {"type": "private", "balance": GRANT, "boxes": []}
    spectator.send({"type": "ping"})
    assert await spectator.frame() == {"type": "pong"}

    await _ok(await ann.post(f"/api/casino/tables/{TABLE}/seats", json={"box": 1}), 201)
    await _ok(await bob.post(f"/api/casino/tables/{TABLE}/seats", json={"box": 3}), 201)
    number = (await _state(ann))["round"]
    await _ok(
        await ann.post(
            f"/api/casino/tables/{TABLE}/bets", json={"box": 1, "amount": 700, "round": number}
        ),
        201,
    )
    await _ok(await bob.post(f"/api/casino/tables/{TABLE}/seats", json={"box": 4}), 201)
    last = (await _state(ann))["step"]
    assert last == seq + 4

    seen = {}
    for name, socket in (("ann", ann_socket), ("bob", bob_socket), ("spectator", spectator)):
        texts = []
        while True:
            text = await socket.text()
            texts.append(text)
            frame = json.loads(text)
            if frame["type"] == "state" and frame["seq"] == last:
                break
        seen[name] = texts
    states = {
        name: [t for t in texts if json.loads(t)["type"] == "state"] for name, texts in seen.items()
    }
    # One frame per change, seq by one, the very same text to every watcher.
    assert [json.loads(t)["seq"] for t in states["spectator"]] == list(range(seq + 1, last + 1))
    assert states["ann"] == states["bob"] == states["spectator"]
    privates = {
        name: [json.loads(t) for t in texts if json.loads(t)["type"] == "private"]
        for name, texts in seen.items()
    }
    assert privates["ann"] == [{"type": "private", "balance": GRANT - 700, "boxes": [1]}]
    assert privates["bob"] == [] and privates["spectator"] == []
    assert all("balance" not in t for t in states["spectator"])

    # A socket that reconnects gets the current state at once.
    await spectator.close()
    again = casino.socket(path)
    current = await again.frame()
    assert current["seq"] == last and current["table"]["boxes"][0]["bet"] == 700
    await again.close()
    await ann_socket.close()
    await bob_socket.close()
    await ann.aclose()
    await bob.aclose()


# ----------------------------------------------------------------------------- the shoe
async def test_cut_card_retires_the_shoe_and_its_seed_verifies(casino: Casino) -> None:
    # A table whose cut card comes after 20 cards (the rule option the operators have).
    short = "short"
    await casino.service.create_table(
        short, "Short", TableSettingsBody(rules={"shuffle": "cut:0.065"})
    )
    ann = await casino.player("ann")
    base = f"/api/casino/tables/{short}"
    await _ok(await ann.post(f"{base}/seats", json={"box": 1}), 201)
    first_shoe = (await ann.get(base)).json()["shoe"]
    assert first_shoe["cut_card"] == 20 and first_shoe["id"] == 1
    rounds = 0
    while True:
        state = (await ann.get(base)).json()
        if state["shoe"]["id"] != first_shoe["id"]:
            break
        assert state["phase"] == "betting", state["phase"]
        assert state["shoe"]["commitment"] == first_shoe["commitment"]
        await _ok(
            await ann.post(f"{base}/bets", json={"box": 1, "amount": 100, "round": state["round"]}),
            201,
        )
        state = (await ann.get(base)).json()
        while state["phase"] == "playing":
            action = "no-insurance" if state["turn"]["kind"] == "insurance" else "stand"
            await _ok(
                await ann.post(
                    f"{base}/actions", json={"box": 1, "action": action, "step": state["step"]}
                )
            )
            state = (await ann.get(base)).json()
        rounds += 1
        await casino.audit()
        if state["shoe"]["id"] != first_shoe["id"]:
            # Retired at the settlement: the new shoe's commitment is up before its first card.
            assert state["shoe"]["cards_dealt"] == 0 and state["phase"] == "settled"
        await casino.advance(4)
    assert rounds >= 3
    new_shoe = state["shoe"]
    assert new_shoe["commitment"] != first_shoe["commitment"] and new_shoe["cards_dealt"] == 0
    history = (await ann.get("/api/casino/rounds?limit=100")).json()["rounds"]
    assert len(history) == rounds
    positions = []
    for item in reversed(history):
        fairness = item["fairness"]
        assert fairness["server_seed"] is not None  # the shoe is retired: revealed
        assert commitment(fairness["server_seed"]) == first_shoe["commitment"]
        verify_record(FairnessRecord.from_json(fairness))
        positions.append((fairness["position"], len(fairness["cards"])))
    # The rounds follow each other in the shoe.
    for (position, count), (following, _) in itertools.pairwise(positions):
        assert following == position + count
    assert positions[-1][0] + positions[-1][1] >= 20
    await ann.aclose()


async def test_force_new_shoe_takes_the_next_script(casino: Casino) -> None:
    before = casino.service.public(TABLE)["shoe"]
    casino.script.push(TABLE, parse_cards("AS KH"))
    state = await casino.service.force_new_shoe(TABLE)
    assert state["shoe"]["id"] == before["id"] + 1
    assert state["shoe"]["commitment"] != before["commitment"]
    await casino.audit()


# ----------------------------------------------------------------------------- operators
async def test_operators_create_configure_close_and_read_rounds(casino: Casino) -> None:
    boss = await casino.operator()
    ann = await casino.player("ann")
    assert (await ann.get("/api/admin/casino/tables")).status_code == 403
    made = await _ok(
        await boss.post(
            "/api/admin/casino/tables",
            json={
                "name": "High Rollers",
                "min_bet": 1000,
                "max_bet": 100_000,
                "decision_seconds": 10,
            },
        ),
        201,
    )
    table_id = made["id"]
    assert made["name"] == "High Rollers" and made["decision_seconds"] == 10
    assert made["min_bet"] == 1000 and made["denominations"][-1] == 50_000
    for rules in (
        {"decks": "inf"},
        {"five_card_hand": "five"},
        {"nonsense": 1},
        {"shuffle": 3},
        {"decks": 1},  # the cut card would leave too few cards behind it
    ):
        bad = await boss.post("/api/admin/casino/tables", json={"rules": rules})
        assert bad.status_code == 422, (rules, bad.text)
    # The limits are the table's own: an override of them in the rules does not take them.
    limits = await _ok(
        await boss.post("/api/admin/casino/tables", json={"rules": {"min_bet": 5, "max_boxes": 1}}),
        201,
    )
    assert limits["min_bet"] == 100 and len(limits["boxes"]) == 7
    changed = await _ok(
        await boss.put(f"/api/admin/casino/tables/{table_id}", json={"betting_seconds": 30})
    )
    assert changed["betting_seconds"] == 30
    await _ok(await ann.post(f"/api/casino/tables/{table_id}/seats", json={"box": 2}), 201)
    await _ok(await ann.post(f"/api/casino/tables/{table_id}/seats", json={"box": 3}), 201)
    state = (await ann.get(f"/api/casino/tables/{table_id}")).json()
    await _ok(
        await ann.post(
            f"/api/casino/tables/{table_id}/bets",
            json={"box": 2, "amount": 5000, "round": state["round"]},
        ),
        201,
    )
    assert await casino.balance("ann") == GRANT - 5000
    closed = await _ok(await boss.delete(f"/api/admin/casino/tables/{table_id}"))
    assert closed["status"] == "closed"
    assert await casino.balance("ann") == GRANT  # the window's bet refunded
    listed = (await ann.get("/api/casino/tables")).json()
    assert table_id not in [t["id"] for t in listed]
    rounds = await _ok(await boss.get(f"/api/admin/casino/rounds?table={table_id}"))
    assert rounds["rounds"][0]["state"] == "void"
    report = await casino.audit()
    assert report["casino_voids"][0]["reason"] == "the table was closed"
    await boss.aclose()
    await ann.aclose()


# ----------------------------------------------------------------------------- recovery
async def _restart(casino: Casino) -> None:
    await casino.stop()
    await casino.start()


async def test_recovery_mid_window_and_mid_play(casino: Casino) -> None:
    ann, bob = await casino.player("ann"), await casino.player("bob")
    base = f"/api/casino/tables/{TABLE}"
    await _ok(await ann.post(f"{base}/seats", json={"box": 1}), 201)
    await _ok(await ann.post(f"{base}/seats", json={"box": 2}), 201)
    await _ok(await bob.post(f"{base}/seats", json={"box": 3}), 201)
    number = (await _state(ann))["round"]
    await _ok(await ann.post(f"{base}/bets", json={"box": 1, "amount": 1000, "round": number}), 201)
    casino.clock.advance(10)
    await _restart(casino)  # mid-window
    ann, bob = casino.client("ann"), casino.client("bob")
    state = await _state(ann)
    assert state["phase"] == "betting" and state["boxes"][0]["bet"] == 1000
    assert state["deadline"] == casino.clock.now() + 15  # a fresh full window
    assert await casino.balance("ann") == GRANT - 1000  # the bet is still held
    await casino.audit()
    await _ok(await ann.post(f"{base}/bets", json={"box": 2, "amount": 1500, "round": number}), 201)
    state = await _ok(
        await bob.post(f"{base}/bets", json={"box": 3, "amount": 1000, "round": number}), 201
    )
    assert state["phase"] == "playing"
    state = await _ok(
        await ann.post(f"{base}/actions", json={"box": 1, "action": "split", "step": state["step"]})
    )
    casino.clock.advance(5)
    await _restart(casino)  # mid-play
    ann, bob = casino.client("ann"), casino.client("bob")
    state = await _state(ann)
    assert state["phase"] == "playing" and state["turn"] == {"box": 1, "hand": 0, "kind": "play"}
    assert state["deadline"] == casino.clock.now() + 20  # a fresh decision time
    assert [h["cards"] for h in state["boxes"][0]["hands"]] == [["8S", "3D"], ["8H", "2C"]]
    await casino.audit()
    for box, action in ((1, "hit"), (1, "stand"), (1, "double"), (2, "double")):
        state = await _ok(
            await ann.post(
                f"{base}/actions", json={"box": box, "action": action, "step": state["step"]}
            )
        )
    await casino.advance(20)
    state = await _state(ann)
    assert state["phase"] == "settled" and state["dealer"]["total"] == 19
    assert await casino.balance("ann") == GRANT + 2000
    assert await casino.balance("bob") == GRANT - 1000
    assert (await casino.audit())["held"] == 0
    await ann.aclose()
    await bob.aclose()


async def test_an_unreadable_table_is_voided_and_refunded(casino: Casino) -> None:
    ann = await casino.player("ann")
    base = f"/api/casino/tables/{TABLE}"
    await _ok(await ann.post(f"{base}/seats", json={"box": 1}), 201)
    await _ok(await ann.post(f"{base}/seats", json={"box": 2}), 201)
    number = (await _state(ann))["round"]
    await _ok(await ann.post(f"{base}/bets", json={"box": 1, "amount": 1000, "round": number}), 201)
    await _ok(await ann.post(f"{base}/bets", json={"box": 2, "amount": 2000, "round": number}), 201)
    state = await _state(ann)
    await _ok(
        await ann.post(
            f"{base}/actions", json={"box": 1, "action": "double", "step": state["step"]}
        )
    )
    assert await casino.balance("ann") == GRANT - 4000
    await casino.stop()
    async with casino.server.write() as session:
        row = await session.get(CasinoTableRow, TABLE)
        assert row is not None
        broken = dict(row.state or {})
        broken["round"] = {**broken["round"], "decisions": ["fly"]}
        await session.execute(
            update(CasinoTableRow).where(CasinoTableRow.id == TABLE).values(state=broken)
        )
    await casino.start()
    ann = casino.client("ann")
    assert casino.service.recovered[TABLE].startswith("voided")
    assert await casino.balance("ann") == GRANT
    state = await _state(ann)
    assert state["phase"] == "waiting" and state["round"] == number + 1
    assert state["shoe"]["id"] == 2
    report = await casino.audit()
    assert report["held"] == 0 and len(report["casino_voids"]) == 1
    async with casino.server.read() as session:
        voided = await session.scalar(select(CasinoRoundRow).where(CasinoRoundRow.state == "void"))
        assert voided is not None and "start-up" in (voided.void_reason or "")
        actions = (await session.scalars(select(OperatorAction))).all()
        assert any(a.action == "void" and a.details["refunded"] == 4000 for a in actions)
    await ann.aclose()


# -- bursts: steps waiting on a table's lock are written together ----------------------------
async def _burst(casino: Casino, bodies: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """Bets sent while the table's lock is held: they wait on it together."""
    runtime = casino.service.tables[TABLE]
    clients = {name: casino.client(name) for name, _ in bodies}
    async with runtime.lock:
        sent = [
            asyncio.create_task(clients[name].post(f"/api/casino/tables/{TABLE}/bets", json=body))
            for name, body in bodies
        ]
        while len(runtime.pending) < len(bodies):  # each has reached the lock
            await asyncio.sleep(0)
    answers = await asyncio.gather(*sent)
    for client in clients.values():
        await client.aclose()
    return answers


async def _three_seated(casino: Casino) -> tuple[Any, int, int]:
    for box, name in enumerate(("ann", "bob", "cyd"), 1):
        client = await casino.player(name)
        await _ok(await client.post(f"/api/casino/tables/{TABLE}/seats", json={"box": box}), 201)
        await client.aclose()
    watcher = casino.socket(f"/api/casino/tables/{TABLE}/stream")
    seq = (await watcher.frame())["seq"]
    async with casino.client("ann") as ann:
        number = (await _state(ann))["round"]
    return watcher, seq, number


async def test_a_burst_of_bets_is_one_transaction_and_one_frame(casino: Casino) -> None:
    names = ("ann", "bob", "cyd")
    watcher, seq, number = await _three_seated(casino)
    answers = await _burst(
        casino,
        [(n, {"box": b, "amount": 100 * b, "round": number}) for b, n in enumerate(names, 1)],
    )
    assert [a.status_code for a in answers] == [201, 201, 201]
    frame = await watcher.frame()
    assert frame["seq"] == seq + 3  # three steps, one frame
    assert [e["step"] for e in frame["events"] if e["type"] == "bet"] == [seq + 1, seq + 2, seq + 3]
    assert frame["event"] == frame["events"][-1]
    assert [box["bet"] for box in frame["table"]["boxes"][:3]] == [100, 200, 300]
    assert [await casino.balance(n) for n in names] == [GRANT - 100, GRANT - 200, GRANT - 300]
    await casino.audit()
    await watcher.close()


async def test_a_refusal_in_a_burst_is_only_its_own(casino: Casino) -> None:
    watcher, seq, number = await _three_seated(casino)
    answers = await _burst(
        casino,
        [
            ("ann", {"box": 1, "amount": 100, "round": number}),
            ("bob", {"box": 2, "amount": 200, "round": number + 5}),  # stale: 409
            ("cyd", {"box": 3, "amount": 300, "round": number}),
        ],
    )
    assert [a.status_code for a in answers] == [201, 409, 201]
    frames = await watcher.until(seq + 2)
    assert [f["seq"] for f in frames] == [seq + 1, seq + 2]  # one by one after the refusal
    assert [box["bet"] for box in frames[-1]["table"]["boxes"][:3]] == [100, 0, 300]
    assert await casino.balance("bob") == GRANT
    await casino.audit()
    await watcher.close()
