"""The operators' searches: accounts, Online rounds across tables, voids; each filter, each
wrong parameter (422), and 403 for a player."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from twentyone.server import online
from twentyone.server.app import open_player
from twentyone.storage.models import CasinoRoundBox, CasinoRoundRow, OperatorAction, User

from .helpers import no_dealer_blackjack_or_ace, steer_next_round

pytestmark = pytest.mark.anyio


async def _operator(api: Any, name: str = "olga") -> Any:
    hashed = api.server.config.hasher.hash("operator-pass")
    async with api.server.write() as session:
        await open_player(session, api.server, name, hashed, role="operator")
    async with api.client() as c:
        made = await c.post("/api/tokens", json={"name": name, "password": "operator-pass"})
    return api.client(made.json()["token"])


async def _open_round(api: Any, client: Any, name: str, bet: int) -> int:
    """A round left waiting for its player's decision."""
    await steer_next_round(api.server, name, no_dealer_blackjack_or_ace)
    view = (await client.post("/api/online/rounds", json={"bet": bet})).json()
    assert view["state"] == "play", view
    return int(view["id"])


async def _settled_round(api: Any, client: Any, name: str, bet: int) -> int:
    round_id = await _open_round(api, client, name, bet)
    stood = await client.post(f"/api/online/rounds/{round_id}/actions", json={"action": "stand"})
    assert stood.json()["state"] == "settled", stood.text
    return round_id


async def test_a_player_may_not_search(api: Any) -> None:
    async with await api.player("pat") as player, api.client() as anonymous:
        for path in ("/api/admin/accounts", "/api/admin/search/rounds", "/api/admin/voids"):
            refused = await player.get(path)
            assert refused.status_code == 403, path
            assert refused.json() == {"error": "this needs an operator account"}
            assert (await anonymous.get(path)).status_code == 401


async def test_accounts_by_name_with_balances_and_held(api: Any) -> None:
    pat = await api.player("pat_one")
    await api.player("patrick")
    api.clock.advance(60)
    await api.player("quinn")
    olga = await _operator(api)
    async with pat, olga:
        await _open_round(api, pat, "pat_one", 2500)

        everyone = (await olga.get("/api/admin/accounts")).json()
        assert [a["name"] for a in everyone["accounts"]] == ["olga", "quinn", "patrick", "pat_one"]
        assert everyone["next"] is None
        by_name = {a["name"]: a for a in everyone["accounts"]}
        assert by_name["pat_one"]["balance"] == 100_000 - 2500
        assert by_name["pat_one"]["held"] == 2500
        assert by_name["patrick"]["held"] == 0
        assert by_name["olga"]["role"] == "operator" and by_name["quinn"]["role"] == "player"
        assert by_name["quinn"]["created_at"] == by_name["patrick"]["created_at"] + 60

        found = (await olga.get("/api/admin/accounts", params={"name": "PAT"})).json()
        assert [a["name"] for a in found["accounts"]] == ["patrick", "pat_one"]
        # "_" is a name's character here, not SQL's any-character.
        found = (await olga.get("/api/admin/accounts", params={"name": "t_o"})).json()
        assert [a["name"] for a in found["accounts"]] == ["pat_one"]
        found = (await olga.get("/api/admin/accounts", params={"name": "nobody"})).json()
        assert found == {"accounts": [], "next": None}

        first = (await olga.get("/api/admin/accounts", params={"limit": 3})).json()
        assert [a["name"] for a in first["accounts"]] == ["olga", "quinn", "patrick"]
        rest = (
            await olga.get("/api/admin/accounts", params={"limit": 3, "before": first["next"]})
        ).json()
        assert [a["name"] for a in rest["accounts"]] == ["pat_one"] and rest["next"] is None

        for bad in (
            {"name": "a b"},
            {"name": ""},
            {"name": "x" * 33},
            {"name": "pat%"},
            {"limit": 0},
            {"limit": 101},
            {"limit": "ten"},
            {"before": 0},
            {"before": 2**31},
        ):
            refused = await olga.get("/api/admin/accounts", params=bad)
            assert refused.status_code == 422, bad
            assert set(refused.json()) == {"error"}, bad


async def test_round_search_by_each_filter(api: Any) -> None:
    pat = await api.player("pat")
    quinn = await api.player("quinn")
    olga = await _operator(api)
    async with pat, quinn, olga:
        start = api.clock.now()
        settled = await _settled_round(api, pat, "pat", 1000)  # at start
        api.clock.advance(100)
        quinns = await _settled_round(api, quinn, "quinn", 3000)  # at start + 100
        api.clock.advance(100)
        voided = await _open_round(api, pat, "pat", 2000)  # at start + 200
        assert (
            await olga.post(f"/api/admin/rounds/{voided}/void", json={"reason": "dealer fault"})
        ).status_code == 200
        api.clock.advance(100)
        still_open = await _open_round(api, pat, "pat", 500)  # at start + 300

        async def ids(**params: Any) -> list[int]:
            answer = await olga.get("/api/admin/search/rounds", params=params)
            assert answer.status_code == 200, answer.text
            return [r["id"] for r in answer.json()["rounds"]]

        assert await ids() == [still_open, voided, quinns, settled]
        assert await ids(player="PAT") == [still_open, voided, settled]
        assert await ids(player="quinn") == [quinns]
        assert await ids(player="nobody") == []
        assert await ids(table="online") == [still_open, voided, quinns, settled]
        assert await ids(table="casino-1") == []
        assert await ids(since=start + 100) == [still_open, voided, quinns]
        assert await ids(until=start + 100) == [settled]
        assert await ids(since=start + 50, until=start + 250) == [voided, quinns]
        assert await ids(state="open") == [still_open]
        assert await ids(state="void") == [voided]
        assert await ids(state="settled", player="pat") == [settled]
        assert await ids(limit=2) == [still_open, voided]
        assert await ids(limit=2, before=voided) == [quinns, settled]

        page = (await olga.get("/api/admin/search/rounds", params={"limit": 3})).json()
        assert page["next"] == quinns
        rows = {r["id"]: r for r in page["rounds"]}
        assert rows[voided] == {
            "id": voided,
            "kind": "online",
            "player": "pat",
            "table": "online",
            "state": "void",
            "bet": 2000,
            "net": None,
            "steps": 0,
            "created_at": start + 200,
            "settled_at": start + 200,
            "void_reason": "dealer fault",
        }
        assert rows[still_open]["state"] == "open" and rows[still_open]["settled_at"] is None
        assert rows[quinns]["player"] == "quinn" and rows[quinns]["net"] is not None

        for bad in (
            {"player": "a b"},
            {"player": "x"},
            {"player": "p" * 65},
            {"table": "Casino 1"},
            {"table": "t" * 33},
            {"since": "yesterday"},
            {"since": "nan"},
            {"until": "inf"},
            {"since": -1},
            {"until": 1e12},
            {"since": start + 10, "until": start + 10},
            {"since": start + 20, "until": start + 10},
            {"state": "nonsense"},
            {"limit": 0},
            {"limit": 101},
            {"before": -5},
        ):
            refused = await olga.get("/api/admin/search/rounds", params=bad)
            assert refused.status_code == 422, bad
            assert set(refused.json()) == {"error"}, bad

        async with api.server.read() as session:
            searches = (
                await session.scalars(
                    select(OperatorAction.details).where(OperatorAction.action == "search rounds")
                )
            ).all()
        assert {"player": "PAT"} in searches and {"state": "open"} in searches


async def test_voids_with_reason_who_and_when(api: Any) -> None:
    pat = await api.player("pat")
    olga = await _operator(api)
    async with pat, olga:
        by_olga = await _open_round(api, pat, "pat", 2000)
        api.clock.advance(30)
        at = api.clock.now()
        voided = await olga.post(f"/api/admin/rounds/{by_olga}/void", json={"reason": "misdeal"})
        assert voided.status_code == 200
        api.clock.advance(30)
        by_server = await _open_round(api, pat, "pat", 700)
        async with api.server.write() as session:  # as the server does at start-up
            await online.void(session, by_server, "unreadable at start-up", None, api.clock.now())

        listed = (await olga.get("/api/admin/voids")).json()
        assert listed["next"] is None
        newest, oldest = listed["voids"]
        assert newest["round"] == by_server and newest["by"] is None
        assert newest["reason"] == "unreadable at start-up" and newest["refunded"] == 700
        assert oldest == {
            "id": oldest["id"],
            "target": f"round:{by_olga}",
            "kind": "online",
            "round": by_olga,
            "reason": "misdeal",
            "refunded": 2000,
            "at": at,
            "by": "olga",
            "player": "pat",
            "table": "online",
            "bet": 2000,
        }
        first = (await olga.get("/api/admin/voids", params={"limit": 1})).json()
        assert [v["round"] for v in first["voids"]] == [by_server]
        rest = (await olga.get("/api/admin/voids", params={"before": first["next"]})).json()
        assert [v["round"] for v in rest["voids"]] == [by_olga]

        # A Casino round's void (as the Casino records it): its players and bets summed.
        await api.player("quinn")
        async with api.server.write() as session:
            users = {u.name: u.id for u in (await session.scalars(select(User))).all()}
            row = CasinoRoundRow(
                table_id="casino-1", number=1, state="void", created_at=at, settled_at=at
            )
            session.add(row)
            await session.flush()
            for box, (name, bet) in enumerate([("quinn", 500), ("pat", 300), ("quinn", 200)]):
                session.add(
                    CasinoRoundBox(round_id=row.id, box=box + 1, user_id=users[name], bet=bet)
                )
            session.add(
                OperatorAction(
                    operator_id=users["olga"],
                    at=at + 5,
                    action="void",
                    target=f"casino-round:{row.id}",
                    details={"reason": "table closed", "refunded": 1000},
                )
            )
        casino = (await olga.get("/api/admin/voids", params={"limit": 1})).json()["voids"][0]
        assert casino["kind"] == "casino" and casino["round"] == row.id
        assert casino["player"] == "quinn, pat" and casino["bet"] == 1000
        assert casino["table"] == "casino-1" and casino["by"] == "olga"
        assert casino["reason"] == "table closed" and casino["refunded"] == 1000
        for bad in ({"limit": 0}, {"limit": 1000}, {"before": "x"}, {"before": 0}):
            refused = await olga.get("/api/admin/voids", params=bad)
            assert refused.status_code == 422 and set(refused.json()) == {"error"}, bad
