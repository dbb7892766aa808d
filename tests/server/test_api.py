"""Every row of the Bot API table, with its error cases, on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from sqlalchemy import select

from twentyone.fairness import FairnessRecord, verify_record
from twentyone.storage.models import AuthToken, User

from .helpers import no_dealer_blackjack_or_ace, steer_next_round

pytestmark = pytest.mark.anyio
PASSWORD = "password123"


async def test_accounts(api: Any) -> None:
    async with api.client() as c:
        made = await c.post("/api/accounts", json={"name": "Alice", "password": PASSWORD})
        assert made.status_code == 201
        assert made.json() == {"name": "Alice", "balance": 100_000}
        cookie = made.headers["set-cookie"]
        assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
        # The cookie alone signs the browser in.
        me = await c.get("/api/me")
        assert me.status_code == 200 and me.json()["name"] == "Alice"
        # Names are unique whatever their case.
        again = await c.post("/api/accounts", json={"name": "aLICE", "password": PASSWORD})
        assert again.status_code == 409 and "taken" in again.json()["error"]
        for body in (
            {"name": "al", "password": PASSWORD},
            {"name": "bad name", "password": PASSWORD},
            {"name": "x" * 33, "password": PASSWORD},
            {"name": "Bob", "password": "short"},
        ):
            refused = await c.post("/api/accounts", json=body)
            assert refused.status_code == 422, body
            assert set(refused.json()) == {"error"}
        for bad in ({"name": "Bob"}, {"name": 5, "password": PASSWORD}, [1], "x"):
            refused = await c.post("/api/accounts", json=bad)
            assert refused.status_code == 422
            assert "error" in refused.json()
        refused = await c.post(
            "/api/accounts", content=b"{not json", headers={"content-type": "application/json"}
        )
        assert refused.status_code == 422

        token = await c.post("/api/tokens", json={"name": "alice", "password": PASSWORD})
        assert token.status_code == 201 and len(token.json()["token"]) > 20
        wrong = await c.post("/api/tokens", json={"name": "Alice", "password": "wrong-password"})
        assert wrong.status_code == 401 and "error" in wrong.json()
        nobody = await c.post("/api/tokens", json={"name": "nobody", "password": PASSWORD})
        assert nobody.status_code == 401

        out = await c.delete("/api/session")
        assert out.status_code == 204
    async with api.client() as anonymous:
        assert (await anonymous.get("/api/me")).status_code == 401
        assert (
            await anonymous.get("/api/me", headers={"Authorization": "Bearer nope"})
        ).status_code == 401
        signed = await anonymous.post("/api/session", json={"name": "ALICE", "password": PASSWORD})
        assert signed.status_code == 200 and signed.json()["balance"] == 100_000
        assert (await anonymous.get("/api/me")).status_code == 200
    async with api.client(token.json()["token"]) as bot:
        assert (await bot.get("/api/me")).json() == {
            "name": "Alice",
            "balance": 100_000,
            "role": "player",
        }


async def test_passwords_and_tokens_are_not_stored_in_clear(
    api: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    secret = "correct horse battery"
    async with api.client() as c:
        await c.post("/api/accounts", json={"name": "carol", "password": secret})
        token = (await c.post("/api/tokens", json={"name": "carol", "password": secret})).json()[
            "token"
        ]
    async with api.server.read() as session:
        user = await session.scalar(select(User))
        assert secret not in user.password_hash and user.password_hash.startswith("$argon2id$")
        hashes = (await session.scalars(select(AuthToken.token_hash))).all()
        assert token not in hashes and all(len(h) == 64 for h in hashes)
    assert secret not in caplog.text and token not in caplog.text


async def test_top_up_is_rate_limited_and_statement_newest_first(api: Any) -> None:
    bot = await api.player("dave")
    async with bot:
        first = await bot.post("/api/me/topup")
        assert first.status_code == 201 and first.json()["balance"] == 200_000
        second = await bot.post("/api/me/topup")
        assert second.status_code == 429 and "wait" in second.json()["error"]
        api.clock.advance(3600)
        assert (await bot.post("/api/me/topup")).status_code == 201
        page = (await bot.get("/api/me/statement", params={"limit": 2})).json()
        assert [t["reason"] for t in page["transfers"]] == ["top-up", "top-up"]
        assert page["next"] is not None
        rest = (
            await bot.get("/api/me/statement", params={"limit": 2, "before": page["next"]})
        ).json()
        assert [t["reason"] for t in rest["transfers"]] == ["grant"]
        assert rest["next"] is None
        ids = [t["id"] for t in page["transfers"] + rest["transfers"]]
        assert ids == sorted(ids, reverse=True)
        for bad in ({"limit": 0}, {"limit": 101}, {"limit": "x"}, {"before": -1}):
            assert (await bot.get("/api/me/statement", params=bad)).status_code == 422


async def test_fairness_get_and_put(api: Any) -> None:
    bot = await api.player("erin")
    async with bot:
        first = (await bot.get("/api/fairness")).json()
        assert set(first) == {"commitment", "client_seed", "nonce"} and first["nonce"] == 0
        assert (await bot.get("/api/fairness")).json() == first  # the same commitment until used
        put = await bot.put("/api/fairness", json={"client_seed": "my lucky seed"})
        assert put.status_code == 200
        assert put.json() == {**first, "client_seed": "my lucky seed", "nonce": 0}
        for bad in ("", "x" * 65, "tab\t", 5):
            assert (await bot.put("/api/fairness", json={"client_seed": bad})).status_code == 422
        dealt = (await bot.post("/api/online/rounds", json={"bet": 100})).json()
        assert dealt["commitment"] == first["commitment"]
        assert dealt["client_seed"] == "my lucky seed" and dealt["nonce"] == 0
        after = (await bot.get("/api/fairness")).json()
        assert after["nonce"] == 1 and after["commitment"] != first["commitment"]


async def _finish(bot: Any, view: dict[str, Any]) -> dict[str, Any]:
    while view["legal_actions"]:
        action = "stand" if "stand" in view["legal_actions"] else "no-insurance"
        answer = await bot.post(f"/api/online/rounds/{view['id']}/actions", json={"action": action})
        assert answer.status_code == 200, answer.text
        view = answer.json()
    return view


async def test_deal_act_read(api: Any) -> None:
    bot = await api.player("frank")
    async with bot:
        shoe = await steer_next_round(
            api.server,
            "frank",
            lambda s: (
                no_dealer_blackjack_or_ace(s)
                and s[0].value + s[2].value in (9, 10, 11)
                and s[0].value != s[2].value
                and s[0].value != 1
                and s[2].value != 1
            ),
        )
        dealt = await bot.post("/api/online/rounds", json={"bet": 1000})
        assert dealt.status_code == 201
        view = dealt.json()
        assert {"id", "state", "hands", "dealer", "legal_actions", "commitment"} <= set(view)
        assert view["state"] == "play"
        assert view["hands"][0]["cards"] == [str(shoe[0]), str(shoe[2])]
        assert view["dealer"]["cards"] == [str(shoe[1])] and view["dealer"]["hidden"] == 1
        assert view["legal_actions"] == ["hit", "stand", "double"]
        assert "fairness" not in view and "net" not in view
        assert (await bot.get("/api/me")).json()["balance"] == 99_000  # the bet is held

        # Bad actions: unknown, illegal now, malformed, stale step; nothing changes.
        for body, status in (
            ({"action": "dance"}, 422),
            ({"action": "split"}, 422),
            ({"action": "insurance 50"}, 422),
            ({"action": 5}, 422),
            ({}, 422),
            ({"action": "hit", "step": 7}, 409),
        ):
            refused = await bot.post(f"/api/online/rounds/{view['id']}/actions", json=body)
            assert refused.status_code == status, (body, refused.text)
            assert "error" in refused.json()
        assert (await bot.get(f"/api/online/rounds/{view['id']}")).json()["step"] == 0

        doubled = await bot.post(
            f"/api/online/rounds/{view['id']}/actions", json={"action": "double", "step": 0}
        )
        assert doubled.status_code == 200
        done = doubled.json()
        assert done["state"] == "settled"
        assert done["hands"][0]["stake"] == 2000 and len(done["hands"][0]["cards"]) == 3
        record = FairnessRecord.from_json(done["fairness"])
        verify_record(record)
        assert done["fairness"]["cards"][:4] == [str(c) for c in shoe[:4]]
        balance = (await bot.get("/api/me")).json()["balance"]
        assert balance == 100_000 + done["net"]
        # Repeating the last action on a settled round is refused.
        again = await bot.post(f"/api/online/rounds/{view['id']}/actions", json={"action": "stand"})
        assert again.status_code == 409
        read = (await bot.get(f"/api/online/rounds/{view['id']}")).json()
        assert read["net"] == done["net"] and read["fairness"] == done["fairness"]
        assert [e["type"] for e in read["events"]][:2] == ["round-started", "card"]


async def test_bets_are_checked(api: Any) -> None:
    bot = await api.player("gina")
    async with bot:
        for bet in (0, -5, 99, 100_001, 1.5, "100", True, None):
            refused = await bot.post("/api/online/rounds", json={"bet": bet})
            assert refused.status_code == 422, bet
            assert "error" in refused.json()
        assert (await bot.post("/api/online/rounds", json={})).status_code == 422
        assert (await bot.get("/api/me")).json()["balance"] == 100_000
        assert (await bot.get("/api/online/rounds")).json()["rounds"] == []
        # More than the balance.
        await api_round_drain(bot)
        refused = await bot.post("/api/online/rounds", json={"bet": 100_000})
        assert refused.status_code == 422 and "balance" in refused.json()["error"]


async def api_round_drain(bot: Any) -> None:
    """Lose a little money so the balance is under the table maximum."""
    while (await bot.get("/api/me")).json()["balance"] >= 100_000:
        view = (await bot.post("/api/online/rounds", json={"bet": 100})).json()
        await _finish(bot, view)


async def test_one_open_round_at_a_time(api: Any) -> None:
    bot = await api.player("hank")
    async with bot:
        await steer_next_round(api.server, "hank", no_dealer_blackjack_or_ace)
        first = (await bot.post("/api/online/rounds", json={"bet": 500})).json()
        assert first["state"] == "play"
        second = await bot.post("/api/online/rounds", json={"bet": 500})
        assert second.status_code == 409


async def test_another_players_round_is_404(api: Any) -> None:
    owner = await api.player("ivan")
    other = await api.player("judy")
    async with owner, other:
        await steer_next_round(api.server, "ivan", no_dealer_blackjack_or_ace)
        view = (await owner.post("/api/online/rounds", json={"bet": 500})).json()
        assert (await other.get(f"/api/online/rounds/{view['id']}")).status_code == 404
        acted = await other.post(
            f"/api/online/rounds/{view['id']}/actions", json={"action": "stand"}
        )
        assert acted.status_code == 404
        assert (await other.get("/api/online/rounds/999999")).status_code == 404
        assert (await other.get("/api/online/rounds/notanumber")).status_code == 422
        assert (await other.get("/api/online/rounds")).json()["rounds"] == []
        assert (await owner.get(f"/api/online/rounds/{view['id']}")).status_code == 200
        # Operators only.
        assert (await owner.get("/api/admin/audit")).status_code == 403


async def test_insurance_and_split(api: Any) -> None:
    bot = await api.player("kate")
    async with bot:
        # Dealer ace up, no blackjack; the player holds a pair (2s to 9s).
        await steer_next_round(
            api.server,
            "kate",
            lambda s: (
                s[1].value == 1
                and s[3].value != 10
                and s[0].value == s[2].value
                and 2 <= s[0].value <= 9
            ),
        )
        view = (await bot.post("/api/online/rounds", json={"bet": 1000})).json()
        assert view["state"] == "insurance"
        assert view["legal_actions"] == ["no-insurance", "insurance 500"]
        assert (
            await bot.post(
                f"/api/online/rounds/{view['id']}/actions", json={"action": "insurance 501"}
            )
        ).status_code == 422
        insured = (
            await bot.post(
                f"/api/online/rounds/{view['id']}/actions", json={"action": "insurance 200"}
            )
        ).json()
        assert insured["insurance"] == 200 and insured["state"] == "play"
        assert "split" in insured["legal_actions"]
        split = (
            await bot.post(f"/api/online/rounds/{view['id']}/actions", json={"action": "split"})
        ).json()
        assert len(split["hands"]) == 2
        done = await _finish(bot, split)
        assert done["state"] == "settled"
        verify_record(FairnessRecord.from_json(done["fairness"]))
        assert (await bot.get("/api/me")).json()["balance"] == 100_000 + done["net"]


async def test_history_is_paginated_with_events(api: Any) -> None:
    bot = await api.player("liam")
    async with bot:
        ids = []
        for _ in range(3):
            view = await _finish(
                bot, (await bot.post("/api/online/rounds", json={"bet": 100})).json()
            )
            ids.append(view["id"])
        page = (await bot.get("/api/online/rounds", params={"limit": 2})).json()
        assert [r["id"] for r in page["rounds"]] == ids[::-1][:2]
        rest = (
            await bot.get("/api/online/rounds", params={"limit": 2, "before": page["next"]})
        ).json()
        assert [r["id"] for r in rest["rounds"]] == ids[:1] and rest["next"] is None
        for item in page["rounds"]:
            assert item["events"][0]["type"] == "round-started"
            assert item["events"][-1]["type"] == "round-settled"
            assert all("at" in e and "step" in e for e in item["events"])


async def test_nothing_hidden_leaks_before_settlement(api: Any) -> None:
    """No response before settlement has the server seed or the dealer's unseen card."""
    bot = await api.player("mona")
    async with bot:
        for _ in range(6):
            shoe = await steer_next_round(
                api.server,
                "mona",
                lambda s: (
                    no_dealer_blackjack_or_ace(s)
                    and str(s[3]) not in {str(c) for c in s[:3]}
                    and s[0].value + s[2].value < 17
                ),
            )
            hole = str(shoe[3])
            responses = [
                await bot.get("/api/fairness"),
                await bot.post("/api/online/rounds", json={"bet": 100}),
            ]
            view = responses[-1].json()
            async with api.server.read() as session:
                from twentyone.storage.models import FairnessSeed, Round

                # The seeds still secret: this round's and the next round's.
                seed = (
                    await session.scalars(
                        select(FairnessSeed.server_seed).where(
                            (FairnessSeed.used_at.is_(None))
                            | (
                                FairnessSeed.id
                                == select(Round.seed_id)
                                .where(Round.id == view["id"])
                                .scalar_subquery()
                            )
                        )
                    )
                ).all()
            assert len(seed) == 2
            responses.append(await bot.get(f"/api/online/rounds/{view['id']}"))
            responses.append(await bot.get("/api/online/rounds"))
            # Hits while the hole card is still unseen.
            while view["state"] == "play" and view["hands"][0]["total"] < 12:
                answer = await bot.post(
                    f"/api/online/rounds/{view['id']}/actions", json={"action": "hit"}
                )
                responses.append(answer)
                view = answer.json()
                drawn = {c for h in view["hands"] for c in h["cards"]}
                if hole in drawn:
                    break
            else:
                for answer in responses:
                    body = answer.json()
                    if body.get("state") == "settled":
                        continue  # settled: the seed and the hole card are revealed
                    if "rounds" in body:  # the history: only its open round is checked
                        body = [r for r in body["rounds"] if r["state"] != "settled"]
                        assert len(body) == 1
                    text = json.dumps(body)
                    assert hole not in text, text
                    assert not any(s in text for s in seed), (text, seed)
            await _finish(bot, view)


async def test_a_signed_out_session_is_refused_at_once(api: Any) -> None:
    async with api.client() as browser:
        made = await browser.post("/api/accounts", json={"name": "sally", "password": PASSWORD})
        cookie = made.cookies["twentyone_session"]
        assert (await browser.get("/api/me")).status_code == 200  # checked, and trusted for a while
        assert (await browser.delete("/api/session")).status_code == 204
    async with api.client() as replay:
        replay.cookies.set("twentyone_session", cookie)
        refused = await replay.get("/api/me")
        assert refused.status_code == 401 and "error" in refused.json()


async def test_played_rounds_pass_twentyone_verify(api: Any, tmp_path: Any) -> None:
    """Rounds played through the API verify with the command; one changed card fails it."""
    from click.testing import CliRunner

    from twentyone.cli.main import cli

    runner = CliRunner()
    bot = await api.player("vera")
    async with bot:
        for number in range(4):
            view = await _finish(
                bot, (await bot.post("/api/online/rounds", json={"bet": 100})).json()
            )
            saved = tmp_path / f"round{number}.json"
            saved.write_text(json.dumps(view))  # the whole round, as the API returns it
            done = runner.invoke(cli, ["verify", str(saved)])
            assert done.exit_code == 0, done.output
            record = view["fairness"]
            index = len(record["cards"]) - 1
            record["cards"][index] = "AS" if record["cards"][index] != "AS" else "KD"
            saved.write_text(json.dumps(record))
            failed = runner.invoke(cli, ["verify", str(saved)])
            assert failed.exit_code == 1 and f"card {index + 1}" in failed.output
