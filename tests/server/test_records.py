"""The rules pages' API: each game's rules in words, its payouts and, for the house games, the
exact theoretical return of the table's current rules, computed in the analysis worker."""

from __future__ import annotations

from collections.abc import AsyncIterator
from fractions import Fraction
from typing import Any

import pytest

from twentyone.analysis.house_edge import analyze
from twentyone.presets import preset
from twentyone.server.app import open_player
from twentyone.server.records import house_rules_text, theoretical_return
from twentyone.server.worker import AnalysisWorker

pytestmark = pytest.mark.anyio


@pytest.fixture
async def worker(api: Any) -> AsyncIterator[AnalysisWorker]:
    """The server's analysis worker (installed here if the lab has not installed one)."""
    services = api.server.services
    mine = "analysis" not in services
    if mine:
        services["analysis"] = AnalysisWorker(processes=1)
    found = services["analysis"]
    assert isinstance(found, AnalysisWorker)
    try:
        yield found
    finally:
        if mine:
            await found.stop()
            del services["analysis"]


def _counting(worker: AnalysisWorker, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    calls: list[Any] = []
    real_run = worker.run

    async def run(function: Any, *args: Any) -> Any:
        calls.append((function, args))
        return await real_run(function, *args)

    monkeypatch.setattr(worker, "run", run)
    return calls


async def test_online_rules_and_their_exact_return_from_the_worker(
    api: Any, worker: AnalysisWorker, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _counting(worker, monkeypatch)
    async with api.client() as anyone:  # the rules are public: no sign-in
        answer = (await anyone.get("/api/rules/online")).json()
        again = (await anyone.get("/api/rules/online")).json()
    expected = analyze(preset("online").replace(max_boxes=1))
    assert answer["title"] == "Online Blackjack"
    assert answer["house_edge"] == pytest.approx(-expected.ev, abs=1e-12)
    assert answer["theoretical_return"] == pytest.approx(1 + expected.ev, abs=1e-12)
    assert 0.004 < answer["house_edge"] < 0.005
    rules_lines = next(s for s in answer["sections"] if s["heading"] == "This table's rules")
    assert "Blackjack pays 3:2." in rules_lines["items"]
    assert "Dealer stands on soft 17." in rules_lines["items"]
    assert {"hand": "A win", "pays": "1:1"} in answer["payouts"]
    assert not any(p["hand"] == "Surrender" for p in answer["payouts"])  # none online
    assert answer["payouts"][0]["pays"] == "3:2"
    assert answer["lab"] == {"preset": "online", "rules": {}}
    # Asked twice, computed once: the second answer comes from the worker's cache.
    assert again == answer
    assert [function for function, _ in calls] == [analyze]


async def _operator(api: Any) -> Any:
    hashed = api.server.config.hasher.hash("operator-pass")
    async with api.server.write() as session:
        await open_player(session, api.server, "boss", hashed, role="operator")
    async with api.client() as anyone:
        token = (
            await anyone.post("/api/tokens", json={"name": "boss", "password": "operator-pass"})
        ).json()["token"]
    return api.client(token)


async def test_the_rules_page_follows_the_tables_current_rules(
    api: Any, worker: AnalysisWorker
) -> None:
    async with api.client() as anyone:
        before = (await anyone.get("/api/rules/online")).json()
    async with await _operator(api) as boss:
        changed = await boss.put(
            "/api/admin/tables/online",
            json={"rules": {"blackjack_pays": "6:5", "dealer_hits_soft_17": True}},
        )
        assert changed.status_code == 200, changed.text
        after = (await boss.get("/api/rules/online")).json()
    assert after["payouts"][0]["pays"] == "6:5"
    items = next(s for s in after["sections"] if s["heading"] == "This table's rules")["items"]
    assert "Dealer hits soft 17." in items and "Blackjack pays 6:5." in items
    assert after["lab"]["rules"] == {"blackjack_pays": "6:5", "dealer_hits_soft_17": True}
    wanted = analyze(
        preset("online").replace(
            blackjack_pays=Fraction(6, 5), dealer_hits_soft_17=True, max_boxes=1
        )
    )
    assert after["house_edge"] == pytest.approx(-wanted.ev, abs=1e-12)
    assert after["house_edge"] > before["house_edge"] + 0.01  # 6:5 costs about 1.4%


async def test_the_words_alone_come_without_the_analysis(
    api: Any, worker: AnalysisWorker, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _counting(worker, monkeypatch)
    async with api.client() as anyone:
        answer = (await anyone.get("/api/rules/online", params={"figures": "false"})).json()
    assert calls == []
    assert answer["figures"] == "skipped" and answer["house_edge"] is None
    assert answer["payouts"][0]["pays"] == "3:2"


async def test_without_a_worker_the_figures_are_unavailable_not_an_error(api: Any) -> None:
    worker = api.server.services.pop("analysis", None)
    if isinstance(worker, AnalysisWorker):
        await worker.stop()
    async with api.client() as anyone:
        answer = await anyone.get("/api/rules/casino")
    assert answer.status_code == 200
    assert answer.json()["figures"] == "unavailable"
    assert answer.json()["theoretical_return"] is None


async def test_casino_rules_are_the_casino_preset(api: Any, worker: AnalysisWorker) -> None:
    async with api.client() as anyone:
        answer = (await anyone.get("/api/rules/casino")).json()
    expected = theoretical_return(house_rules_text(preset("casino")))
    assert answer["title"] == "Casino Blackjack"
    assert answer["house_edge"] == pytest.approx(expected["house_edge"], abs=1e-12)
    items = next(s for s in answer["sections"] if s["heading"] == "This table's rules")["items"]
    assert any(line.startswith("No hole card") for line in items)
    play = next(s for s in answer["sections"] if s["heading"] == "How a round goes")["items"]
    assert any("second card only after every box has acted" in line for line in play)
    assert any(p["hand"] == "Surrender" for p in answer["payouts"])  # the preset's late surrender


async def test_a_live_casino_tables_own_rules(api: Any, worker: AnalysisWorker) -> None:
    boss = await _operator(api)
    async with boss:
        made = await boss.post(
            "/api/admin/casino/tables",
            json={
                "name": "High rollers",
                "min_bet": 1000,
                "max_bet": 100_000,
                "decision_seconds": 20,
                "betting_seconds": 15,
                "rules": {"dealer_hits_soft_17": True},
            },
        )
        assert made.status_code == 201, made.text
        table = made.json()["id"]
        answer = (await boss.get("/api/rules/casino", params={"table": table})).json()
    items = next(s for s in answer["sections"] if s["heading"] == "This table's rules")["items"]
    assert "Dealer hits soft 17." in items
    assert answer["lab"] == {"preset": "casino", "rules": {"dealer_hits_soft_17": True}}
    assert answer["rules"]["min_bet"] == 1000
    expected = analyze(preset("casino").replace(dealer_hits_soft_17=True))
    assert answer["house_edge"] == pytest.approx(-expected.ev, abs=1e-12)


@pytest.mark.parametrize(("game", "word"), [("vinte", "banker"), ("exchange", "commission")])
async def test_vinte_and_exchange_are_described_without_a_house_edge(
    api: Any, game: str, word: str
) -> None:
    async with api.client() as anyone:
        answer = (await anyone.get(f"/api/rules/{game}")).json()
    assert answer["theoretical_return"] is None and answer["house_edge"] is None
    text = " ".join(item for section in answer["sections"] for item in section["items"])
    assert word in text
    assert answer["payouts"]
    if game == "exchange":
        assert "set by the market" in answer["summary"]


async def test_refusals(api: Any) -> None:
    async with api.client() as anyone:
        unknown = await anyone.get("/api/rules/poker")
        assert unknown.status_code == 404 and "poker" in unknown.json()["error"]
        no_table = await anyone.get("/api/rules/online", params={"table": "nope"})
        assert no_table.status_code == 404 and "error" in no_table.json()
        bad = await anyone.get("/api/rules/online", params={"table": "NO SUCH/"})
        assert bad.status_code == 422 and "error" in bad.json()
        vinte = await anyone.get("/api/rules/vinte", params={"table": "x"})
        assert vinte.status_code == 422
