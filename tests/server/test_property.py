"""Many random Online rounds through the API: after each, the ledger sums to zero, nothing is
held, and the player's balance is his grant and top-ups plus the nets of his rounds."""

from __future__ import annotations

import asyncio
import os
import random
from typing import Any

import pytest
from sqlalchemy import func, select

from twentyone.fairness import FairnessRecord, verify_record
from twentyone.storage import ledger
from twentyone.storage.models import LedgerAccount

pytestmark = pytest.mark.anyio
ROUNDS = int(os.environ.get("TWENTYONE_PROPERTY_ROUNDS", "1000"))


def _choose(rng: random.Random, legal: list[str]) -> str:
    action = rng.choice(legal)
    if action.startswith("insurance "):
        return f"insurance {rng.randint(1, int(action.split()[1]))}"
    return action


@pytest.mark.slow
async def test_random_rounds_keep_the_books(api: Any, database: dict[str, Any]) -> None:
    rounds = ROUNDS if database["schema"] is None else ROUNDS // 4
    rng = random.Random(2101)
    bot = await api.player("randy")
    credited, nets, verified = 100_000, 0, 0
    async with bot:
        for number in range(rounds):
            balance = credited + nets
            if balance < 100:
                api.clock.advance(3600)
                assert (await bot.post("/api/me/topup")).status_code == 201
                credited += 100_000
                balance += 100_000
            bet = rng.randint(100, min(balance, 5_000))
            answer = await bot.post("/api/online/rounds", json={"bet": bet})
            assert answer.status_code == 201, answer.text
            view = answer.json()
            while view["legal_actions"]:
                if rng.random() < 0.05:  # now and then an illegal or stale request: refused
                    refused = await bot.post(
                        f"/api/online/rounds/{view['id']}/actions",
                        json={"action": "surrender", "step": view["step"]},
                    )
                    assert refused.status_code == 422
                answer = await bot.post(
                    f"/api/online/rounds/{view['id']}/actions",
                    json={"action": _choose(rng, view["legal_actions"]), "step": view["step"]},
                )
                assert answer.status_code == 200, answer.text
                view = answer.json()
            assert view["state"] == "settled"
            nets += view["net"]
            if number % 10 == 0:
                verify_record(FairnessRecord.from_json(view["fairness"]))
                verified += 1
            async with api.server.read() as session:
                total = await ledger.total(session)
                held = await session.scalar(
                    select(func.sum(LedgerAccount.balance)).where(LedgerAccount.id.like("round:%"))
                )
            assert total == 0 and held == 0
            assert view["balance"] == credited + nets
            if number % 10 == 0:
                assert (await bot.get("/api/me")).json()["balance"] == credited + nets
    async with api.server.read() as session:
        report = await ledger.audit(session)
    assert report["balanced"], report["problems"]
    assert verified == (rounds + 9) // 10


async def test_the_same_step_sent_twice_at_once_is_applied_once(api: Any) -> None:
    bot = await api.player("twice")
    async with bot:
        for _ in range(5):
            view = (await bot.post("/api/online/rounds", json={"bet": 100})).json()
            if not view["legal_actions"] or "hit" not in view["legal_actions"]:
                while view["legal_actions"]:
                    view = (
                        await bot.post(
                            f"/api/online/rounds/{view['id']}/actions",
                            json={"action": view["legal_actions"][0]},
                        )
                    ).json()
                continue
            answers = await asyncio.gather(
                *(
                    bot.post(
                        f"/api/online/rounds/{view['id']}/actions",
                        json={"action": "hit", "step": view["step"]},
                    )
                    for _ in range(3)
                )
            )
            assert sorted(a.status_code for a in answers) == [200, 409, 409]
            now = (await bot.get(f"/api/online/rounds/{view['id']}")).json()
            assert now["step"] == view["step"] + 1
            while now["legal_actions"]:
                now = (
                    await bot.post(
                        f"/api/online/rounds/{now['id']}/actions", json={"action": "stand"}
                    )
                ).json()
