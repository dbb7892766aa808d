"""Live Exchange Blackjack through the API on an injected clock: whole games with three
customers and the house market maker, lapsing, stale rounds, early settlement, a dead heat, a
void, idempotent references, and the ledger balanced to the minor unit after every step."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import select, update

from twentyone.cards import parse_cards
from twentyone.fairness import FairnessRecord, commitment, verify_record
from twentyone.server.exchange import MAKER_FLOAT, maker_account
from twentyone.storage.models import ExchangeEventRow, OperatorAction

from .exchange_helpers import GAME_A, GAME_TIE, GRANT, TABLE, Exchange, ok

pytestmark = pytest.mark.anyio


@pytest.fixture
async def exchange(database: dict[str, Any]) -> AsyncIterator[Exchange]:
    made = Exchange(database)
    made.script.push(TABLE, parse_cards(GAME_A))
    await made.start()
    try:
        yield made
    finally:
        await made.stop()


def _order(
    game: int, round_no: int, selection: str, side: str, price: str, size: int, ref: str
) -> dict[str, Any]:
    return {
        "table": TABLE,
        "game": game,
        "round": round_no,
        "selection": selection,
        "side": side,
        "price": price,
        "size": size,
        "ref": ref,
    }


async def _state(client: httpx.AsyncClient) -> dict[str, Any]:
    return await ok(await client.get(f"/api/exchange/tables/{TABLE}"))


def _selection(state: dict[str, Any], name: str) -> dict[str, Any]:
    return next(s for s in state["selections"] if s["name"] == name)


async def test_a_whole_game_three_customers_and_the_maker(exchange: Exchange) -> None:
    ann, bob, cat = [await exchange.player(n) for n in ("ann", "bob", "cat")]
    tables: list[dict[str, Any]] = (await ann.get("/api/exchange/tables")).json()
    assert [(t["id"], t["name"], t["turbo"]) for t in tables] == [
        ("exchange-1", "Exchange", False),
        ("exchange-2", "Exchange Turbo", True),
    ]
    state = await _state(ann)
    game = state["game"]
    assert (state["round"], state["phase"], state["window_closes_at"] - state["now"]) == (
        1,
        "betting",
        30.0,
    )
    assert all(hand["cards"] == [] for hand in state["hands"]) and state["dealer"]["cards"] == []
    player1 = _selection(state, "Player 1")
    # The maker's quotes: the 2nd ladder price either side of the fair 2.5, labelled as the house.
    assert player1["back"] == [["2.46", 2000]] and player1["lay"] == [["2.54", 2000]]
    assert player1["house"] == {"back": [["2.46", 2000]], "lay": [["2.54", 2000]]}
    assert player1["status"] == "open" and player1["fair_price"] == "2.5"
    assert await exchange.maker() < MAKER_FLOAT  # its quotes are held
    await exchange.audit()

    # ann backs Player 3 against the maker's lay; bob lays Player 1 against the maker's back.
    a1 = await ok(
        await ann.post(
            "/api/exchange/orders", json=_order(game, 1, "Player 3", "back", "2.4", 1000, "a1")
        ),
        201,
    )
    assert (a1["matched"], a1["remaining"], a1["status"]) == (1000, 0, "matched")
    assert a1["fills"] == [{"price": "2.46", "stake": 1000, "round": 1, "house": True}]
    b1 = await ok(
        await bob.post(
            "/api/exchange/orders", json=_order(game, 1, "Player 1", "lay", "2.54", 1000, "b1")
        ),
        201,
    )
    assert b1["status"] == "matched"
    # cat backs Player 2 at 2.5 (no lay at 2.5 or more: it rests); ann lays half of it, and
    # meets cat before the maker (2.5 is a better price to lay than the maker's 2.54).
    c1 = await ok(
        await cat.post(
            "/api/exchange/orders", json=_order(game, 1, "Player 2", "back", "2.50", 1000, "c1")
        ),
        201,
    )
    assert (c1["status"], c1["remaining"], c1["price"]) == ("open", 1000, "2.5")
    assert _selection(await _state(ann), "Player 2")["lay"] == [["2.5", 1000], ["2.54", 2000]]
    a2 = await ok(
        await ann.post(
            "/api/exchange/orders", json=_order(game, 1, "Player 2", "lay", "3", 500, "a2")
        ),
        201,
    )
    assert a2["fills"] == [{"price": "2.5", "stake": 500, "round": 1, "house": False}]
    await exchange.audit()
    # Holds are out of the balance: ann 1000 + liability 750, bob 1540, cat 1000.
    assert await exchange.balance("player:ann") == GRANT - 1750
    assert await exchange.balance("player:bob") == GRANT - 1540
    assert await exchange.balance("player:cat") == GRANT - 1000
    mine = await ok(await ann.get(f"/api/exchange/orders?table={TABLE}"))
    assert mine["pnl"]["Player 3"] == {"winner": 1460, "loser": -1000, "tied": 230}
    assert mine["pnl"]["Player 2"] == {"winner": -750, "loser": 500, "tied": -125}
    assert mine["pnl_after_commission"]["Player 3"]["winner"] == 1460 - 73
    assert mine["hold"] == 1750 and mine["balance"] == GRANT - 1750
    assert len(mine["matched"]) == 2 and mine["open"] == []

    # Round 1 closes: cat's unmatched 500 lapses and its hold comes back.
    await exchange.advance(30)
    c1_after = await ok(await cat.get(f"/api/exchange/orders/{c1['id']}"))
    assert (c1_after["matched"], c1_after["lapsed"], c1_after["status"]) == (
        500,
        500,
        "partly matched",
    )
    assert await exchange.balance("player:cat") == GRANT - 500
    await exchange.audit()
    state = await _state(ann)
    assert state["phase"] == "pause" and _selection(state, "Player 1")["status"] == "suspended"
    assert [h["cards"] for h in state["hands"]] == [
        ["TS", "6H"],
        ["9D", "9C"],
        ["AS", "KD"],
        ["5C", "2H"],
    ]
    await exchange.advance(3)
    state = await _state(ann)
    assert (state["round"], state["phase"], state["window_closes_at"] - state["now"]) == (
        2,
        "betting",
        25.0,
    )
    # An order naming the closed round is stale.
    stale = await bob.post(
        "/api/exchange/orders", json=_order(game, 1, "Player 4", "back", "2.46", 500, "b2")
    )
    assert stale.status_code == 409 and "stale" in stale.json()["error"]

    # Round 2 closes: Player 1 busts, settled at once: bob's lay wins, usable at once; the hold
    # keeps back the 5% commission he may owe.
    await exchange.advance(25)
    state = await _state(ann)
    p1 = _selection(state, "Player 1")
    assert (p1["status"], p1["result"], p1["settled_round"]) == ("lost", "loser", 2)
    assert await exchange.balance("player:bob") == GRANT + 1000 - 50
    await exchange.audit()
    settled = await bob.post(
        "/api/exchange/orders", json=_order(game, 3, "Player 1", "back", "2.46", 500, "b3")
    )
    assert settled.status_code == 409  # round 3 is not open yet
    await exchange.advance(3)
    settled = await bob.post(
        "/api/exchange/orders", json=_order(game, 3, "Player 1", "back", "2.46", 500, "b4")
    )
    assert settled.status_code == 409 and "settled" in settled.json()["error"]

    # Round 3 closes: the dealer stands on 17; the game settles.
    await exchange.advance(25)
    done = await ok(await ann.get(f"/api/exchange/tables/{TABLE}/games/{game}"))
    assert done["state"] == "settled"
    results = {s["name"]: s["result"] for s in done["selections"]}
    assert results["Player 2"] == results["Player 3"] == "winner"
    # ann: +1460 (P3) - 750 (P2 laid) = 710, commission 35; bob: +1000, commission 50;
    # cat: +750 on his matched 500, commission 37; the maker lost 1460 + 1000.
    assert await exchange.balance("player:ann") == GRANT + 710 - 35
    assert await exchange.balance("player:bob") == GRANT + 1000 - 50
    assert await exchange.balance("player:cat") == GRANT + 750 - 37
    assert await exchange.maker() == MAKER_FLOAT - 2460  # its quotes' holds released
    report = await exchange.audit()
    assert report["total"] == 0
    record = FairnessRecord.from_json(done["fairness"])
    assert done["fairness"]["decks"] is None and done["fairness"]["scripted"] is True
    assert [str(c) for c in record.cards] == GAME_A.split()
    assert record.commitment == commitment(record.server_seed)
    history = await ok(await ann.get(f"/api/exchange/tables/{TABLE}/games"))
    assert (
        history["games"][0]["game"] == game
        and history["games"][0]["server_seed"] == record.server_seed
    )

    # The next game starts after the pause, from the seeded stream: it verifies once over.
    await exchange.advance(3)
    state = await _state(ann)
    assert (state["game"], state["round"]) == (game + 1, 1)
    for _ in range(8):
        await exchange.advance(30)
        await exchange.advance(3)
    second = await ok(await ann.get(f"/api/exchange/tables/{TABLE}/games/{game + 1}"))
    assert second["state"] == "settled" and second["fairness"]["scripted"] is False
    verify_record(FairnessRecord.from_json(second["fairness"]))
    await exchange.audit()


async def test_references_cancels_and_refusals(exchange: Exchange) -> None:
    ann, bob = await exchange.player("ann"), await exchange.player("bob")
    game = (await _state(ann))["game"]
    body = _order(game, 1, "Player 4", "back", "3.5", 1000, "same")
    first = await ok(await ann.post("/api/exchange/orders", json=body), 201)
    again = await ok(await ann.post("/api/exchange/orders", json=body), 200)
    assert again == first
    other = await ann.post("/api/exchange/orders", json={**body, "size": 1200})
    assert other.status_code == 409 and "reference reused" in other.json()["error"]
    # The same reference is bob's own: no clash between customers.
    await ok(await bob.post("/api/exchange/orders", json=body), 201)
    # Someone else's order is not found for him; a part cancel keeps the rest resting.
    assert (await bob.delete(f"/api/exchange/orders/{first['id']}")).status_code == 404
    assert (await bob.get(f"/api/exchange/orders/{first['id']}")).status_code == 404
    part = await ok(await ann.delete(f"/api/exchange/orders/{first['id']}?size=400"))
    assert (part["remaining"], part["cancelled"], part["status"]) == (600, 400, "open")
    assert await exchange.balance("player:ann") == GRANT - 600
    rest = await ok(await ann.delete(f"/api/exchange/orders/{first['id']}"))
    assert (rest["remaining"], rest["cancelled"], rest["status"]) == (0, 1000, "cancelled")
    assert await exchange.balance("player:ann") == GRANT
    gone = await ann.delete(f"/api/exchange/orders/{first['id']}")
    assert gone.status_code == 409
    await exchange.audit()
    # Refusals: off the ladder, under the minimum, over the balance, unknown selection, wrong
    # game; a retry of a refusal gets the same refusal.
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"price": "2.03"}, 422, "ladder"),
        ({"size": 199}, 422, "minimum"),
        ({"side": "lay", "price": "100", "size": 5000}, 422, "balance"),
        ({"selection": "Player 9"}, 422, "selection"),
        ({"game": game + 5}, 409, "current game"),
    ]
    for index, (change, status, word) in enumerate(cases):
        refused = {**body, **change, "ref": f"bad-{index}"}
        answer = await ann.post("/api/exchange/orders", json=refused)
        assert answer.status_code == status and word in answer.json()["error"], answer.text
        retry = await ann.post("/api/exchange/orders", json=refused)
        assert (retry.status_code, retry.json()) == (status, answer.json())
    for bad in ({**body, "price": 2.5}, {**body, "side": "up"}, {**body, "extra": 1}):
        assert (await ann.post("/api/exchange/orders", json=bad)).status_code == 422
    async with exchange.client() as anonymous:
        assert (await anonymous.post("/api/exchange/orders", json=body)).status_code == 401
    assert (await ann.get("/api/exchange/tables/nope")).status_code == 404
    await exchange.audit()


async def test_dead_heat_settles_at_half_the_odds(database: dict[str, Any]) -> None:
    exchange = Exchange(database)
    exchange.script.push(TABLE, parse_cards(GAME_TIE))
    await exchange.start()
    try:
        ann, bob = await exchange.player("ann"), await exchange.player("bob")
        game = (await _state(ann))["game"]
        # ann backs Player 1 (matched at the maker's 2.46), bob lays it (at the maker's 2.54):
        # a tie pays the backer 1000 x (2.46 / 2 - 1) = 230, the layer pays 1000 x (2.54 / 2 - 1).
        await ok(
            await ann.post(
                "/api/exchange/orders", json=_order(game, 1, "Player 1", "back", "2.4", 1000, "t1")
            ),
            201,
        )
        await ok(
            await bob.post(
                "/api/exchange/orders", json=_order(game, 1, "Player 1", "lay", "2.6", 1000, "t2")
            ),
            201,
        )
        for _ in range(6):
            await exchange.advance(30)
            await exchange.audit()
            await exchange.advance(3)
        done = await ok(await ann.get(f"/api/exchange/tables/{TABLE}/games/{game}"))
        p1 = next(s for s in done["selections"] if s["name"] == "Player 1")
        assert (p1["result"], p1["settled_round"]) == ("tied", 4)
        assert await exchange.balance("player:ann") == GRANT + 230 - 11
        assert await exchange.balance("player:bob") == GRANT - 270
        await exchange.audit()
    finally:
        await exchange.stop()


async def test_unreadable_game_is_voided_at_restart(tmp_path: Any) -> None:
    database = {"url": f"sqlite:///{tmp_path / 'void.db'}", "schema": None}
    exchange = Exchange(database)
    exchange.script.push(TABLE, parse_cards(GAME_A))
    await exchange.start()
    ann, bob = await exchange.player("ann"), await exchange.player("bob")
    game = (await _state(ann))["game"]
    await ok(
        await ann.post(
            "/api/exchange/orders", json=_order(game, 1, "Player 3", "back", "2.46", 1000, "v1")
        ),
        201,
    )
    await ok(
        await bob.post(
            "/api/exchange/orders", json=_order(game, 1, "Player 1", "lay", "2.54", 1000, "v2")
        ),
        201,
    )
    await exchange.advance(30)
    await exchange.advance(3)
    await exchange.advance(25)  # Player 1 settles: bob's +1000 stays settled through the void
    assert await exchange.balance("player:bob") == GRANT + 950
    await exchange.stop()
    # Someone corrupts the stored game while the server is down.
    restarted = Exchange(database, exchange.clock)
    restarted.tokens = exchange.tokens
    restarted.seeds = exchange.seeds
    await restarted.start()
    try:
        async with restarted.server.write() as session:
            await session.execute(
                update(ExchangeEventRow)
                .where(ExchangeEventRow.seq == 1, ExchangeEventRow.game_id == 1)
                .values(data={"account": "player:ann", "ref": "v1"})
            )
    finally:
        await restarted.stop()
    restarted = Exchange(database, exchange.clock)
    restarted.tokens = exchange.tokens
    await restarted.start()
    try:
        assert restarted.service.recovered[1].startswith("voided")
        ann = restarted.client("ann")
        voided = await ok(await ann.get(f"/api/exchange/tables/{TABLE}/games/{game}"))
        assert voided["state"] == "void" and "replayed" in voided["void_reason"]
        # ann's unsettled back is returned whole; bob keeps his settled win less commission.
        assert await restarted.balance("player:ann") == GRANT
        assert await restarted.balance("player:bob") == GRANT + 950
        # The maker lost bob's 1000 (settled); its other holds came back (the new game's quotes
        # are held again).
        new_game = restarted.service.tables[TABLE].game
        held = new_game.ledger.held(maker_account(TABLE))
        assert await restarted.maker() + held == MAKER_FLOAT - 1000
        order = await ok(await ann.get("/api/exchange/orders/1"))
        assert order["status"] == "void"
        async with restarted.server.read() as session:
            actions = (await session.scalars(select(OperatorAction))).all()
        assert any(a.action == "void exchange game" for a in actions)
        state = await _state(ann)
        assert state["game"] == game + 1 and state["phase"] == "betting"
        await restarted.audit()
    finally:
        await restarted.stop()


async def test_restart_reopens_the_window_with_holds_intact(tmp_path: Any) -> None:
    database = {"url": f"sqlite:///{tmp_path / 'resume.db'}", "schema": None}
    exchange = Exchange(database)
    exchange.script.push(TABLE, parse_cards(GAME_A))
    await exchange.start()
    ann = await exchange.player("ann")
    game = (await _state(ann))["game"]
    order = await ok(
        await ann.post(
            "/api/exchange/orders", json=_order(game, 1, "Player 2", "back", "4", 1000, "r1")
        ),
        201,
    )
    await exchange.advance(20)
    before = await _state(ann)
    await exchange.stop()
    exchange.clock.advance(100)  # the server was down a while
    restarted = Exchange(database, exchange.clock)
    restarted.tokens = exchange.tokens
    await restarted.start()
    try:
        assert restarted.service.recovered[1] == "resumed"
        ann = restarted.client("ann")
        state = await _state(ann)
        assert (state["game"], state["round"], state["phase"]) == (game, 1, "betting")
        assert state["window_closes_at"] - state["now"] == 30.0  # a fresh full window
        assert state["selections"] == before["selections"]
        assert await restarted.balance("player:ann") == GRANT - 1000
        again = await ok(
            await ann.post(
                "/api/exchange/orders", json=_order(game, 1, "Player 2", "back", "4", 1000, "r1")
            ),
            200,
        )
        assert again["id"] == order["id"] and again["remaining"] == 1000
        await restarted.advance(30)
        assert await restarted.balance("player:ann") == GRANT  # lapsed at the window's end
        await restarted.audit()
    finally:
        await restarted.stop()


async def test_stream_numbers_messages_and_sends_fills_privately(exchange: Exchange) -> None:
    exchange.service.book_interval = 3600.0  # books only when flushed below: no timing
    ann, bob = await exchange.player("ann"), await exchange.player("bob")
    watcher = exchange.socket(f"/api/exchange/tables/{TABLE}/stream", "ann")
    spectator = exchange.socket(f"/api/exchange/tables/{TABLE}/stream")
    first = await watcher.take(2)
    assert [f["type"] for f in first] == ["state", "private"]
    seq = first[0]["seq"]
    assert (await spectator.take(1))[0]["type"] == "state"
    game = first[0]["table"]["game"]
    await ok(
        await ann.post(
            "/api/exchange/orders", json=_order(game, 1, "Player 3", "back", "2.46", 1000, "s1")
        ),
        201,
    )
    await ok(
        await bob.post(
            "/api/exchange/orders", json=_order(game, 1, "Player 3", "lay", "2.6", 500, "s2")
        ),
        201,
    )
    # The owner hears of his fill at once; the book changes of both orders are conflated into
    # one public message (sent when its short timer fires, or here at once).
    before = watcher.drain()
    assert "book" not in [f["type"] for f in before]
    exchange.service.flush_books()
    frames = before + watcher.drain()
    kinds = [f["type"] for f in frames]
    assert kinds[:2] == ["fill", "private"] and kinds[-1] == "book" and kinds.count("book") == 1
    assert [s["name"] for s in frames[-1]["selections"]] == ["Player 3"]
    assert frames[0]["fill"] == {
        "selection": "Player 3",
        "side": "back",
        "price": "2.46",
        "stake": 1000,
        "round": 1,
        "house": True,
    }
    assert frames[1]["balance"] == GRANT - 1000
    watched = spectator.drain()
    assert [f["type"] for f in watched] == ["book"]  # nobody else's fills or balance
    for _ in range(3):
        await exchange.advance(30)
        await exchange.advance(3)
    frames = spectator.drain()
    public = [f for f in watched + frames if "seq" in f]
    assert [f["seq"] for f in public] == list(range(seq + 1, seq + 1 + len(public)))
    kinds = [f["type"] for f in frames]
    for kind in ("window-end", "reveal", "settlement", "window-start", "game-end", "game-start"):
        assert kind in kinds, kind
    early = [f for f in frames if f["type"] == "settlement" and f["early"]]
    assert early and early[0]["settled"] == {"Player 1": "loser"}
    end = next(f for f in frames if f["type"] == "game-end")
    assert end["fairness"]["cards"] == GAME_A.split()
    start = next(f for f in frames if f["type"] == "window-start")
    assert start["window_closes_at"] - start["now"] == 25.0
    watcher.send({"type": "ping"})
    assert {"type": "pong"} in await watcher.take(1) + watcher.drain()
    await watcher.close()
    await spectator.close()
    texts = json.dumps(watched)
    assert "player:" not in texts and "house:" not in texts


async def test_a_burst_of_orders_is_made_in_one_go(
    exchange: Exchange, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Orders arriving together are written in one transaction; each gets its own answer (a
    repeated reference in the same burst is a retry); if the burst's write fails, the game is
    rebuilt from the database and each order is made on its own: nothing half-applied."""
    import asyncio

    from twentyone.ledger.errors import InsufficientBalanceError
    from twentyone.storage import ledger as stored_ledger

    names = [f"bettor{i}" for i in range(6)]
    clients = [await exchange.player(name) for name in names]
    game = (await _state(clients[0]))["game"]
    bodies = [
        _order(game, 1, "Player 1", "back" if i % 2 else "lay", "2.5", 500, f"burst{i}")
        for i in range(6)
    ]
    answers = await asyncio.gather(
        *(c.post("/api/exchange/orders", json=b) for c, b in zip(clients, bodies, strict=True)),
        clients[0].post("/api/exchange/orders", json=bodies[0]),
    )
    assert sorted(a.status_code for a in answers) == [200] + [201] * 6
    assert answers[-1].json()["id"] == answers[0].json()["id"]
    await exchange.audit()
    # Make the next burst's write fail once.
    real_post = stored_ledger.post
    failures = [1]

    async def flaky(*args: Any, **kwargs: Any) -> Any:
        if failures:
            failures.pop()
            raise InsufficientBalanceError("refused once (test)")
        return await real_post(*args, **kwargs)

    monkeypatch.setattr(stored_ledger, "post", flaky)  # the module the service calls
    more = [
        _order(game, 1, "Player 2", "back", "2.4", 300, f"again{i}") for i in range(len(clients))
    ]
    answers = await asyncio.gather(
        *(c.post("/api/exchange/orders", json=b) for c, b in zip(clients, more, strict=True))
    )
    codes = sorted(a.status_code for a in answers)
    assert codes.count(201) >= len(clients) - 1 and set(codes) <= {201, 422}, codes
    for client, answer in zip(clients, answers, strict=True):
        mine = await ok(await client.get(f"/api/exchange/orders?table={TABLE}"))
        placed = [o for o in mine["orders"] if o["selection"] == "Player 2"]
        assert len(placed) == (1 if answer.status_code == 201 else 0)
    await exchange.audit()
