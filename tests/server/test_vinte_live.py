"""Live Vinte-e-um tables through the API and the stream (docs/vinte-live.md), on a ManualClock
with scripted decks: a whole match of three people and two bots, every deadline rule, a
reconnecting player, chips conserved after every round, nobody reading another seat's hidden
card in anything sent to him, seats acted on by their own person only, and a match played for
balance through the ledger."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from twentyone.cards import parse_cards
from twentyone.clock import ManualClock
from twentyone.hand import hand_value
from twentyone.server.config import CardScript
from twentyone.server.vinte_fair import check_revealed
from twentyone.storage import ledger
from twentyone.storage.models import vinte_hold_account

from .conftest import seed_counter
from .test_casino import GRANT, START, Casino, Socket

pytestmark = pytest.mark.anyio

#: Kinds of events that show a hidden card to everyone (the banker's: reveal and natural).
SHOWING = ("bust", "call", "player-21", "reveal", "natural")


class Vinte(Casino):
    """The Casino test server (same config: ManualClock, CardScript, fast hasher)."""

    async def start(self) -> None:
        await super().start()
        # Reproducible client seeds too: every table's decks follow from the seed counters.
        self.server.config.client_seeds = seed_counter(8)

    @property
    def service(self) -> Any:
        return self.server.services["vinte"]

    async def tick(self, seconds: float) -> int:
        self.clock.advance(seconds)
        return int(await self.service.tick())


@pytest.fixture
async def vinte(database: dict[str, Any]) -> AsyncIterator[Vinte]:
    made = Vinte(database, ManualClock(START), CardScript())
    await made.start()
    try:
        yield made
    finally:
        await made.stop()


async def _ok(response: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    return body


def _error(response: httpx.Response, status: int, words: str) -> None:
    assert response.status_code == status, response.text
    assert words in response.json()["error"], response.text


def drain(socket: Socket) -> list[dict[str, Any]]:
    """Every frame the socket has been sent so far (frames are sent inside the step)."""
    frames = []
    while not socket.from_app.empty():
        message = socket.from_app.get_nowait()
        if message["type"] == "websocket.accept":
            continue
        assert message["type"] == "websocket.send", message
        frames.append(json.loads(message["text"]))
    return frames


async def _create(vinte: Vinte, creator: httpx.AsyncClient, **settings: Any) -> dict[str, Any]:
    made = await _ok(await creator.post("/api/vinte/tables", json=settings), 201)
    assert made["seat"] == 0 and made["invite"].startswith(f"/vinte/{made['table']['id']}?invite=")
    return made


def _invite(made: dict[str, Any]) -> str:
    return str(made["invite"].split("invite=")[1])


def _cards(texts: list[str | None]) -> list[Any]:
    return parse_cards(" ".join(text for text in texts if text is not None))


def _decide(view: dict[str, Any], seat: int) -> dict[str, Any]:
    """A plain person: the minimum bet, hit below 15, as banker draw below 16 then call."""
    legal = view["legal"]
    if view["phase"] == "betting":
        chips = min(int(text.split()[2]) for text in legal if text.startswith("bet "))
        return {"action": "bet", "chips": chips}
    if view["phase"] == "players":
        hand = next(h for h in view["hands"] if h["seat"] == seat)
        total = hand_value(_cards(hand["cards"]), True).total
        return {"action": "hit" if total < 15 else "stand"}
    total = hand_value(_cards(view["banker_cards"]), True).total
    if "draw" in legal and total < 16:
        return {"action": "draw"}
    target = next(int(text.split()[1]) for text in legal if text.startswith("call "))
    return {"action": "call", "target": target}


class Traffic:
    """Everything one seat (or a spectator) was sent, each piece with its round."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.round: int | None = None
        #: (round, kind, the JSON text, the seats shown so far in that round)
        self.pieces: list[tuple[int, str, str, set[int]]] = []
        self._shown: dict[int, set[int]] = {}

    def _shown_in(self, number: int) -> set[int]:
        return self._shown.setdefault(number, set())

    def view(self, view: dict[str, Any] | None) -> None:
        if view is None or view["round"] is None:
            return
        number = view["round"]
        shown = {e["seat"] for e in view["history"] if e["kind"] in SHOWING}
        self.pieces.append((number, "view", json.dumps(view), shown))

    def frame(self, frame: dict[str, Any]) -> None:
        self.view(frame["view"])
        if self.round is None and frame["view"] is not None:
            self.round = frame["view"]["round"]
        for event in frame["events"]:
            if event["kind"] == "round":
                self.round = event["number"]
            assert self.round is not None
            shown = self._shown_in(self.round)
            if event["kind"] in SHOWING:
                shown.add(event["seat"])
            self.pieces.append((self.round, "event", json.dumps(event), set(shown)))

    def record(self, record: dict[str, Any]) -> None:
        body = {k: v for k, v in record.items() if k != "fairness"}
        body["revealed"] = record["fairness"]["revealed"]
        shown = {e["seat"] for e in record["events"] if e["kind"] in SHOWING}
        self.pieces.append((record["number"], "record", json.dumps(body), shown))

    def check(self, positions: dict[int, list[dict[str, Any]]]) -> int:
        """No hidden card of another seat in anything sent, unless shown by then; returns the
        number of (piece, hidden card) pairs checked."""
        checked = 0
        for number, kind, text, shown in self.pieces:
            for p in positions.get(number, []):
                if not p["hidden"] or p["seat"] == self.seat:
                    continue
                checked += 1
                if f'"{p["card"]}"' not in text:
                    continue
                assert p["shown"], f"seat {self.seat} got round {number}'s unshown {p} in a {kind}"
                assert p["seat"] in shown, f"seat {self.seat} got {p} before it was shown: {text}"
        return checked


async def _positions(
    operator: httpx.AsyncClient, table_id: str, rounds: int
) -> dict[int, list[dict[str, Any]]]:
    out = {}
    for number in range(1, rounds + 1):
        record = await _ok(
            await operator.get(f"/api/admin/vinte/tables/{table_id}/rounds/{number}")
        )
        assert record["fairness"]["server_seed"] and len(record["fairness"]["deck"]) == 52
        out[number] = record["positions"]
    return out


# ----------------------------------------------------------------------------- a whole match
async def test_three_people_and_two_bots_play_a_match_to_a_winner(vinte: Vinte) -> None:
    names = ("ann", "bob", "cid")
    clients = {name: await vinte.player(name) for name in names}
    operator = await vinte.operator()
    made = await _create(
        vinte, clients["ann"], name="Friday", seats=5, stack=20, round_limit=4, bank_rounds=2
    )
    table_id = made["table"]["id"]
    assert made["table"]["status"] == "waiting" and made["view"] is None
    listed: list[dict[str, Any]] = (await clients["bob"].get("/api/vinte/tables")).json()
    assert [t["id"] for t in listed] == [table_id] and listed[0]["seats"][1]["empty"] is True
    for name, seat in (("bob", 1), ("cid", 3)):
        sat = await _ok(
            await clients[name].post(
                f"/api/vinte/tables/{table_id}/seats", json={"invite": _invite(made), "seat": seat}
            ),
            201,
        )
        assert sat["seat"] == seat

    sockets = {name: vinte.socket(f"/api/vinte/tables/{table_id}/stream", name) for name in names}
    spectator = vinte.socket(f"/api/vinte/tables/{table_id}/stream")
    first = await spectator.frame()
    assert first["type"] == "state" and first["seat"] is None and first["view"] is None
    seats = {"ann": 0, "bob": 1, "cid": 3}
    for name in names:
        assert (await sockets[name].frame())["seat"] == seats[name]
    traffic = {name: Traffic(seats[name]) for name in names}
    watching = Traffic(None)

    started = await _ok(await clients["ann"].post(f"/api/vinte/tables/{table_id}/start"))
    table = started["table"]
    assert table["status"] == "playing" and table["settings"]["hints"] is False
    assert [s["bot"] for s in table["seats"]] == [False, False, True, False, True]
    assert table["seats"][2]["name"] == "Bot 1" and table["seats"][4]["name"] == "Bot 2"
    assert len(table["fairness"]["hashes"]) == 52 and len(table["fairness"]["commitment"]) == 64
    assert "server_seed" not in json.dumps(started)

    total = 5 * 20
    rounds_seen: set[int] = set()
    for _ in range(500):
        answers = {
            name: await _ok(await client.get(f"/api/vinte/tables/{table_id}"))
            for name, client in clients.items()
        }
        for name, answer in answers.items():
            traffic[name].view(answer["view"])
        view = answers["ann"]["view"]
        if view["phase"] == "over":
            break
        acted = False
        for name, answer in answers.items():
            mine = answer["view"]
            if seats[name] in mine["to_act"]:
                await _ok(
                    await clients[name].post(
                        f"/api/vinte/tables/{table_id}/actions",
                        json={**_decide(mine, seats[name]), "step": answer["step"]},
                    )
                )
                acted = True
                break
        assert acted, view
        for name in names:
            for frame in drain(sockets[name]):
                traffic[name].frame(frame)
        for frame in drain(spectator):
            watching.frame(frame)
            # Chips are conserved at every step, and after every round.
            assert sum(s["stack"] for s in frame["view"]["seats"]) == total
            for event in frame["events"]:
                if event["kind"] == "round-over":
                    assert sum(event["stacks"]) == total
                    rounds_seen.add(frame["view"]["round"] - (frame["view"]["phase"] != "over"))
    for name in names:
        for frame in drain(sockets[name]):
            traffic[name].frame(frame)
    for frame in drain(spectator):
        watching.frame(frame)

    final = await _ok(await clients["bob"].get(f"/api/vinte/tables/{table_id}"))
    view = final["view"]
    assert final["table"]["status"] == "over" and view["phase"] == "over"
    assert view["rounds_played"] == 4 and view["winners"]
    best = max(s["stack"] for s in view["seats"])
    assert all(view["seats"][w]["stack"] == best for w in view["winners"])
    assert sum(s["stack"] for s in view["seats"]) == total
    assert len(rounds_seen) >= 3
    listed = (await clients["bob"].get("/api/vinte/tables")).json()
    assert table_id not in [t["id"] for t in listed]

    # The history: each seat's records hide what it was never shown; its cards verify.
    for name in names:
        records = await _ok(await clients[name].get(f"/api/vinte/tables/{table_id}/rounds"))
        assert [r["number"] for r in records["rounds"]] == [4, 3, 2, 1]
        for record in records["rounds"]:
            assert record["seat"] == seats[name] and "server_seed" not in record["fairness"]
            check_revealed(record["fairness"]["hashes"], record["fairness"]["revealed"])
            traffic[name].record(record)
    every = (await operator.get("/api/admin/vinte/tables")).json()
    assert [(t["id"], t["status"]) for t in every] == [(table_id, "over")]
    assert (await clients["ann"].get("/api/admin/vinte/tables")).status_code == 403
    positions = await _positions(operator, table_id, 4)
    assert sum(p["hidden"] and not p["shown"] for r in positions.values() for p in r) > 0
    for seen in (*traffic.values(), watching):
        assert seen.check(positions) > 0
    for socket in (*sockets.values(), spectator):
        await socket.close()


# ----------------------------------------------------------------------------- deadlines
#: Round 1 at seats ann (0, banker), bob (1), a bot (2): hidden 9S (bob), 8H (bot), 5D (ann),
#: up 6C; bob's second 2H (11), the bot's second TC (18); nobody has 21.
ROUND_1 = "9S 8H 5D 6C 2H TC"
#: Round 2 (the bank stays with ann): hidden 7S (bob), 9H (bot), 4D (ann), up 5C, bob's second
#: 3H, the bot's second TD.
ROUND_2 = "7S 9H 4D 5C 3H TD"


async def _deadline_table(vinte: Vinte) -> tuple[httpx.AsyncClient, httpx.AsyncClient, str]:
    ann, bob = await vinte.player("ann"), await vinte.player("bob")
    made = await _create(
        vinte, ann, seats=3, stack=20, first_banker=0, decision_seconds=10, round_limit=5
    )
    table_id = made["table"]["id"]
    vinte.script.push(table_id, parse_cards(ROUND_1))
    vinte.script.push(table_id, parse_cards(ROUND_2))
    await _ok(
        await bob.post(f"/api/vinte/tables/{table_id}/seats", json={"invite": _invite(made)}), 201
    )
    await _ok(await ann.post(f"/api/vinte/tables/{table_id}/start"))
    return ann, bob, table_id


async def test_every_deadline_rule_and_away_after_three(vinte: Vinte) -> None:
    ann, bob, table_id = await _deadline_table(vinte)
    url = f"/api/vinte/tables/{table_id}"
    view = (await _ok(await bob.get(url)))["view"]
    # The bot bet at once; the window waits for bob alone (the banker does not bet).
    assert view["phase"] == "betting" and view["to_act"] == [1]
    assert view["deadline"] == START + 10 and view["hands"][0]["cards"] == ["9S"]
    assert next(h for h in view["hands"] if h["seat"] == 2)["bet"] is None  # hidden until all in

    # A bet not placed in time is the minimum.
    assert await vinte.tick(9.9) == 0
    assert await vinte.tick(0.1) == 1
    view = (await _ok(await bob.get(url)))["view"]
    assert view["hands"][0]["bet"] == 1 and view["phase"] == "players" and view["turn"] == 1
    assert {"kind": "timeout", "seat": 1, "default": "bet 1"} in view["history"]
    assert view["deadline"] == START + 20

    # A player who lets his deadline pass stands; the bot plays; the banker's turn starts.
    await vinte.tick(10)
    view = (await _ok(await ann.get(url)))["view"]
    assert {"kind": "timeout", "seat": 1, "default": "stand"} in view["history"]
    assert view["phase"] == "banker" and view["to_act"] == [0]
    assert view["banker_cards"] == ["5D", "6C"]

    # A banker who lets his deadline pass calls the first uncalled, unbust player from his left.
    await vinte.tick(10)
    view = (await _ok(await ann.get(url)))["view"]
    calls = [e for e in view["history"] if e["kind"] == "call"]
    assert calls[0]["seat"] == 1 and calls[0]["result"] == "lose"  # 11 ties 11: the bank's
    assert {"kind": "timeout", "seat": 0, "default": "call 1"} in view["history"]
    stood = [h for h in view["hands"] if h["status"] == "stood"]
    if stood:  # the bot stood: the banker's next call times out too
        await vinte.tick(10)
    view = (await _ok(await bob.get(url)))["view"]
    assert view["round"] == 2 and view["phase"] == "betting"
    assert not view["seats"][1]["away"]

    # Bob's third miss in a row: he is away and the bot plays his seat at once.
    await vinte.tick(10)
    answer = await _ok(await bob.get(url))
    view = answer["view"]
    assert view["seats"][1]["away"] is True
    assert any(e["kind"] == "away" and e["seat"] == 1 for e in view["history"])
    assert 1 not in view["to_act"] and "come-back 1" in view["legal"]
    _error(await bob.post(f"{url}/actions", json={"action": "hit"}), 409, 'send the action "back"')
    back = await _ok(await bob.post(f"{url}/actions", json={"action": "back"}))
    assert back["view"]["seats"][1]["away"] is False and "come-back 1" not in back["view"]["legal"]


async def test_a_reconnecting_player_gets_his_view_back(vinte: Vinte) -> None:
    _ann, bob, table_id = await _deadline_table(vinte)
    path = f"/api/vinte/tables/{table_id}/stream"
    socket = vinte.socket(path, "bob")
    frame = await socket.frame()
    assert frame["seat"] == 1 and frame["view"]["hands"][0]["cards"] == ["9S"]
    await socket.close()
    await _ok(
        await bob.post(f"/api/vinte/tables/{table_id}/actions", json={"action": "bet", "chips": 3})
    )
    again = vinte.socket(path, "bob")
    frame = await again.frame()
    rest = await _ok(await bob.get(f"/api/vinte/tables/{table_id}"))
    assert frame["view"] == rest["view"] and frame["seq"] == rest["step"]
    assert (
        frame["view"]["hands"][0]["cards"] == ["9S", "2H"] and frame["view"]["hands"][0]["bet"] == 3
    )
    spectator = vinte.socket(path)
    seen = await spectator.frame()
    assert seen["view"]["hands"][0]["cards"] == [None, "2H"] and seen["view"]["banker_cards"] == [
        None,
        "6C",
    ]
    await again.close()
    await spectator.close()


# ----------------------------------------------------------------------------- who may act
async def test_people_act_only_on_their_own_seat(vinte: Vinte) -> None:
    ann, bob = await vinte.player("ann"), await vinte.player("bob")
    cid = await vinte.player("cid")
    anonymous = vinte.client()
    _error(await ann.post("/api/vinte/tables", json={"seats": 8, "stack": 20}), 422, "at least")
    _error(await ann.post("/api/vinte/tables", json={"seats": 9}), 422, "2 to 8")
    _error(await ann.post("/api/vinte/tables", json={"seats": 3, "first_banker": 3}), 422, "first")
    bad = await ann.post("/api/vinte/tables", json={"seats": 3, "cards": "AS"})
    assert bad.status_code == 422
    assert (await anonymous.post("/api/vinte/tables", json={})).status_code == 401
    made = await _create(vinte, ann, seats=3, first_banker=0)
    table_id = made["table"]["id"]
    url = f"/api/vinte/tables/{table_id}"
    vinte.script.push(table_id, parse_cards(ROUND_1))
    _error(await bob.post(f"{url}/seats", json={"invite": "guess"}), 403, "invite")
    _error(await bob.post(f"{url}/seats", json={"invite": _invite(made), "seat": 0}), 409, "taken")
    _error(
        await bob.post(f"{url}/seats", json={"invite": _invite(made), "seat": 7}), 422, "no seat"
    )
    _error(await bob.post(f"{url}/start"), 403, "creator")
    await _ok(await bob.post(f"{url}/seats", json={"invite": _invite(made), "seat": 1}), 201)
    _error(await bob.post(f"{url}/seats", json={"invite": _invite(made)}), 409, "already")
    _error(await bob.post(f"{url}/actions", json={"action": "stand"}), 409, "waiting")
    await _ok(await ann.post(f"{url}/start"))
    _error(await ann.post(f"{url}/start"), 409, "playing")
    _error(await cid.post(f"{url}/seats", json={"invite": _invite(made)}), 409, "started")
    assert (await anonymous.get("/api/vinte/tables/vnothere")).status_code == 404

    step = (await _ok(await bob.get(url)))["step"]
    _error(await cid.post(f"{url}/actions", json={"action": "bet", "chips": 1}), 403, "no seat")
    _error(await ann.post(f"{url}/actions", json={"action": "bet", "chips": 1}), 409, "seat 0")
    _error(await bob.post(f"{url}/actions", json={"action": "bet", "chips": 6}), 422, "")
    _error(await bob.post(f"{url}/actions", json={"action": "bet"}), 422, "chips")
    _error(await bob.post(f"{url}/actions", json={"action": "fly"}), 422, "unknown action")
    _error(await bob.post(f"{url}/actions", json={"action": "hit"}), 409, "")
    stale = {"action": "bet", "chips": 2, "step": step - 1}
    _error(await bob.post(f"{url}/actions", json=stale), 409, "stale")
    assert (await _ok(await bob.get(url)))["step"] == step  # nothing changed by the refusals
    assert (await anonymous.get(f"{url}/hint")).status_code == 401
    _error(await bob.get(f"{url}/hint"), 403, "hints are off")
    spectator = await _ok(await anonymous.get(url))
    assert spectator["seat"] is None and spectator["invite"] is None
    assert spectator["view"]["hands"][0]["cards"] == [None] and spectator["view"]["legal"] == []
    _error(await anonymous.get(f"{url}/rounds/1"), 404, "round 1")


async def test_the_hint_is_the_bots_choice_for_a_lone_person(vinte: Vinte) -> None:
    ann = await vinte.player("ann")
    made = await _create(vinte, ann, seats=2, first_banker=1)
    table_id = made["table"]["id"]
    vinte.script.push(table_id, parse_cards("TS 6D 5H 9C"))  # ann: T hidden; the bot banks
    started = await _ok(await ann.post(f"/api/vinte/tables/{table_id}/start"))
    assert started["table"]["settings"]["hints"] is True  # one person: hints on by default
    hint = await _ok(await ann.get(f"/api/vinte/tables/{table_id}/hint"))
    assert hint["action"] == "bet" and hint["chips"] == 5 and hint["ev"] > 0
    await _ok(
        await ann.post(f"/api/vinte/tables/{table_id}/actions", json={"action": "bet", "chips": 5})
    )
    hint = await _ok(await ann.get(f"/api/vinte/tables/{table_id}/hint"))
    assert hint["action"] == "stand" and 0.5 < hint["win_chance"] <= 1
    assert {c["action"] for c in hint["choices"]} == {"hit", "stand"}


# ----------------------------------------------------------------------------- for balance
async def test_a_match_for_balance_moves_buy_ins_and_payouts_through_the_ledger(
    vinte: Vinte,
) -> None:
    ann, bob = await vinte.player("ann"), await vinte.player("bob")
    rich = {"seats": 3, "stack": 2000, "max_bet": 5, "chip_value": 100, "for_balance": True}
    _error(await ann.post("/api/vinte/tables", json=rich), 422, "buy-in")
    made = await _create(
        vinte, ann, seats=3, stack=20, for_balance=True, chip_value=100, round_limit=2
    )
    table_id = made["table"]["id"]
    await _ok(
        await bob.post(f"/api/vinte/tables/{table_id}/seats", json={"invite": _invite(made)}), 201
    )
    assert await vinte.balance("ann") == GRANT  # nothing moves before the start
    await _ok(await ann.post(f"/api/vinte/tables/{table_id}/start"))
    assert await vinte.balance("ann") == GRANT - 2000 and await vinte.balance("bob") == GRANT - 2000
    hold = vinte_hold_account(table_id)

    async def held() -> int:
        async with vinte.server.read() as session:
            return await ledger.balance(session, hold)

    assert await held() == 3 * 2000
    await vinte.audit()
    for _ in range(100):
        answer = await _ok(await ann.get(f"/api/vinte/tables/{table_id}"))
        if answer["table"]["status"] == "over":
            break
        assert await held() == 3 * 2000  # every committed step: the chips on the table
        await vinte.tick(30)
    view = answer["view"]
    assert view["phase"] == "over"
    assert await held() == 0
    stacks = [s["stack"] for s in view["seats"]]
    assert sum(stacks) == 60
    assert await vinte.balance("ann") == GRANT - 2000 + stacks[0] * 100
    assert await vinte.balance("bob") == GRANT - 2000 + stacks[1] * 100
    await vinte.audit()


# ----------------------------------------------------------------------------- restart
async def test_restart_resumes_at_the_last_decision_with_a_fresh_deadline(vinte: Vinte) -> None:
    _ann, bob, table_id = await _deadline_table(vinte)
    url = f"/api/vinte/tables/{table_id}"
    await _ok(await bob.post(f"{url}/actions", json={"action": "bet", "chips": 2}))
    before = await _ok(await bob.get(url))
    assert before["view"]["deadline"] == START + 10
    await vinte.stop()
    vinte.clock.advance(500)  # down for longer than any deadline
    await vinte.start()
    assert vinte.service.recovered[table_id] == "resumed"
    bob = vinte.client("bob")
    after = await _ok(await bob.get(url))
    assert after["view"]["deadline"] == START + 510
    assert after["view"]["hands"] == before["view"]["hands"]
    assert after["view"]["to_act"] == before["view"]["to_act"] == [1]
    assert not any(e["kind"] == "timeout" for e in after["view"]["history"])
    await _ok(await bob.post(f"{url}/actions", json={"action": "stand"}))


async def test_an_unreadable_match_is_voided_and_its_buy_ins_returned(vinte: Vinte) -> None:
    from sqlalchemy import update

    from twentyone.storage.models import OperatorAction, VinteTableRow

    ann = await vinte.player("ann")
    made = await _create(vinte, ann, seats=2, stack=10, for_balance=True, chip_value=50)
    table_id = made["table"]["id"]
    await _ok(await ann.post(f"/api/vinte/tables/{table_id}/start"))
    assert await vinte.balance("ann") == GRANT - 500
    await vinte.stop()
    async with vinte.server.write() as session:
        await session.execute(
            update(VinteTableRow).where(VinteTableRow.id == table_id).values(state={"bad": 1})
        )
    await vinte.start()
    assert vinte.service.recovered[table_id].startswith("voided")
    answer = await _ok(await vinte.client("ann").get(f"/api/vinte/tables/{table_id}"))
    assert answer["table"]["status"] == "void" and "malformed" in answer["table"]["void_reason"]
    assert await vinte.balance("ann") == GRANT
    async with vinte.server.read() as session:
        from sqlalchemy import select

        voids = (
            await session.scalars(select(OperatorAction).where(OperatorAction.action == "void"))
        ).all()
    assert [v.target for v in voids] == [f"vinte-table:{table_id}"]
    await vinte.audit()


async def test_rounds_only_bots_play_follow_at_a_pace(vinte: Vinte) -> None:
    ann = await vinte.player("ann")
    made = await _create(
        vinte, ann, seats=2, first_banker=1, bank_rounds=0, decision_seconds=10, round_limit=9
    )
    url = f"/api/vinte/tables/{made['table']['id']}"
    await _ok(await ann.post(f"{url}/start"))
    for _ in range(10):
        view = (await _ok(await ann.get(url)))["view"]
        if view["seats"][0]["away"]:
            break
        assert await vinte.tick(10) == 1
    # Away: the bot finished her round; the next one, all bots, waits for the pause.
    assert view["phase"] == "deal" and view["deadline"] is None
    played = view["rounds_played"]
    assert await vinte.tick(4.9) == 0
    assert await vinte.tick(0.1) == 1
    view = (await _ok(await ann.get(url)))["view"]
    assert view["rounds_played"] == played + 1 and view["phase"] == "deal"
    back = (await _ok(await ann.post(f"{url}/actions", json={"action": "back"})))["view"]
    assert back["phase"] == "betting" and back["to_act"] == [0] and not back["seats"][0]["away"]


async def test_the_creator_closes_a_waiting_table_and_open_tables_are_bounded(
    vinte: Vinte,
) -> None:
    ann, bob = await vinte.player("ann"), await vinte.player("bob")
    made = [await _create(vinte, ann, seats=2) for _ in range(5)]
    _error(await ann.post("/api/vinte/tables", json={}), 409, "5 open tables")
    url = f"/api/vinte/tables/{made[0]['table']['id']}"
    _error(await bob.delete(url), 403, "creator")
    closed = await _ok(await ann.delete(url))
    assert closed["table"]["status"] == "closed"
    listed = (await bob.get("/api/vinte/tables")).json()
    assert made[0]["table"]["id"] not in [t["id"] for t in listed] and len(listed) == 4
    _error(await ann.post(f"{url}/start"), 409, "closed")
    _error(await bob.post(f"{url}/seats", json={"invite": _invite(made[0])}), 409, "closed")
    await _create(vinte, ann, seats=2)  # room for one more


async def test_the_bankers_hint_ranks_every_choice(vinte: Vinte) -> None:
    ann = await vinte.player("ann")
    made = await _create(vinte, ann, seats=2, first_banker=0)
    table_id = made["table"]["id"]
    # The bot's hidden TS, ann's hidden 9D and up 8C (17), the bot's second 7H (17: he stands).
    vinte.script.push(table_id, parse_cards("TS 9D 8C 7H"))
    view = (await _ok(await ann.post(f"/api/vinte/tables/{table_id}/start")))["view"]
    assert view["phase"] == "banker" and view["to_act"] == [0], view["history"]
    hint = await _ok(await ann.get(f"/api/vinte/tables/{table_id}/hint"))
    actions = {(c["action"], c["target"]) for c in hint["choices"]}
    assert actions == {("draw", None), ("call", 1)}
    call = next(c for c in hint["choices"] if c["action"] == "call")
    # He shows 7 and stood: only a hidden ace (18) beats the bank's 17 (a tie is the bank's).
    assert 0 < call["win_chance"] < 1
    assert hint["ev"] == max(c["ev"] for c in hint["choices"])
