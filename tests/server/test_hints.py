"""The Online table's help through the ASGI app: the basic-strategy hint of an open round and
the review of a settled one (each decision against the exact best), on SQLite and PostgreSQL.

Cards are steered through the player's committed seed (``helpers.steer_next_round``); the
analysis runs in the server's worker process, one worker shared by the module's tests so that
its cache (the chart of the Online rules, computed once) serves them all.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

from twentyone.analysis.hand_calculator import calculate
from twentyone.cards import Card
from twentyone.clock import ManualClock
from twentyone.rules import Rules, rules_from_json
from twentyone.server.app import create_app
from twentyone.server.config import ServerConfig, fast_hasher
from twentyone.server.hints import basic_chart
from twentyone.server.worker import AnalysisWorker

from .conftest import Api, seed_counter
from .helpers import steer_next_round

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def shared_worker() -> Iterator[AnalysisWorker]:
    """One analysis worker for the module (each server start re-opens its process pool)."""
    yield AnalysisWorker(processes=1)


@pytest.fixture
async def api(database: dict[str, Any], shared_worker: AnalysisWorker) -> AsyncIterator[Api]:
    clock = ManualClock(1_800_000_000.0)
    config = ServerConfig(
        db_url=database["url"],
        db_schema=database["schema"],
        clock=clock,
        hasher=fast_hasher(),
        server_seeds=seed_counter(),
    )
    app = create_app(config)
    server = app.state.server
    # The module's one worker in place of the app's own (not started yet): its cache keeps
    # the Online rules' chart from one test to the next, computed once.
    server.services["analysis"] = shared_worker
    await server.start()
    try:
        yield Api(app, clock)
    finally:
        await server.stop()


def deal_of(player: tuple[int, int], up: int, hole: Callable[[int], bool]) -> Callable[..., bool]:
    """A shoe predicate: the player's two card values, the up card's, and a test of the hole's."""

    def wanted(shoe: list[Card]) -> bool:
        return (
            (shoe[0].value, shoe[2].value) == player and shoe[1].value == up and hole(shoe[3].value)
        )

    return wanted


def not_blackjack_with(up: int) -> Callable[[int], bool]:
    """A hole card that does not give the dealer a blackjack under ``up``."""
    return lambda hole: {hole, up} != {1, 10}


async def online_chart(api: Api) -> dict[str, Any]:
    """The chart of the Online table's rules, from the worker (the hint's own source)."""
    async with api.client() as anonymous:
        table = (await anonymous.get("/api/online/table")).json()
    text = json.dumps(table["effective_rules"], sort_keys=True, separators=(",", ":"))
    chart: dict[str, Any] = await api.server.services["analysis"].cached(basic_chart, text)
    return chart


async def deal(bot: Any, bet: int = 1000) -> dict[str, Any]:
    dealt = await bot.post("/api/online/rounds", json={"bet": bet})
    assert dealt.status_code == 201, dealt.text
    view: dict[str, Any] = dealt.json()
    return view


async def hint(bot: Any, round_id: int) -> dict[str, Any]:
    answer = await bot.get(f"/api/online/rounds/{round_id}/hint")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


async def act(bot: Any, round_id: int, action: str) -> dict[str, Any]:
    answer = await bot.post(f"/api/online/rounds/{round_id}/actions", json={"action": action})
    assert answer.status_code == 200, answer.text
    view: dict[str, Any] = answer.json()
    return view


# The Online rules (6 decks, dealer stands on soft 17, double any two, DAS, no surrender):
# (player's card values, up card, the basic strategy's code and action, the chart table/row).
KNOWN_HANDS = [
    ((10, 6), 10, "H", "hit", ("hard", "16", "T")),
    ((8, 8), 10, "P", "split", ("pairs", "8", "T")),
    ((5, 6), 6, "D", "double", ("hard", "11", "6")),
    ((1, 7), 9, "H", "hit", ("soft", "18", "9")),
    ((1, 7), 3, "Ds", "double", ("soft", "18", "3")),
    ((10, 2), 4, "S", "stand", ("hard", "12", "4")),
]


async def test_the_hint_is_the_charts_move_for_known_hands(api: Api) -> None:
    bot = await api.player("hanna")
    chart = await online_chart(api)
    async with bot:
        for player, up, code, action, (table, row, column) in KNOWN_HANDS:
            assert chart[table][row][column] == code  # the library's chart, as published
            await steer_next_round(api.server, "hanna", deal_of(player, up, not_blackjack_with(up)))
            view = await deal(bot)
            assert view["state"] == "play", view
            found = await hint(bot, view["id"])
            assert found == {
                "round": view["id"],
                "step": 0,
                "chart": "basic",
                "action": action,
                "code": code,
                "hand": 0,
            }
            assert found["action"] in view["legal_actions"]
            # Finish the round (standing settles a one-hand round at once).
            if view["legal_actions"] and "stand" in view["legal_actions"]:
                done = await act(bot, view["id"], "stand")
                assert done["state"] == "settled"
            settled = await bot.get(f"/api/online/rounds/{view['id']}/hint")
            assert settled.status_code == 409 and "error" in settled.json()


async def test_the_hint_follows_the_hand_and_the_balance(api: Api) -> None:
    bot = await api.player("hugo")
    async with bot:
        # 11 against a 6: double; once a third card is taken a double is no longer legal.
        await steer_next_round(api.server, "hugo", deal_of((5, 6), 6, not_blackjack_with(6)))
        view = await deal(bot)
        assert (await hint(bot, view["id"]))["action"] == "double"
        after = await act(bot, view["id"], "hit")
        if after["state"] == "play":
            # 12 to 20 against a 6: every hard total stands.
            assert 12 <= after["hands"][0]["total"] <= 20
            found = await hint(bot, view["id"])
            assert "double" not in after["legal_actions"]
            assert (found["step"], found["action"], found["code"]) == (1, "stand", "S")
            await act(bot, view["id"], "stand")
        # The same hand with a bet the balance cannot double: the chart's "D" falls back to hit.
        balance = (await bot.get("/api/me")).json()["balance"]
        await steer_next_round(api.server, "hugo", deal_of((5, 6), 6, not_blackjack_with(6)))
        big = await deal(bot, bet=balance // 2 + 100)
        assert "double" not in big["legal_actions"]
        assert await hint(bot, big["id"]) == {
            "round": big["id"],
            "step": 0,
            "chart": "basic",
            "action": "hit",
            "code": "D",
            "hand": 0,
        }
        await act(bot, big["id"], "stand")
        # An ace up: the insurance decision first, which basic strategy declines.
        await steer_next_round(api.server, "hugo", deal_of((10, 9), 1, lambda hole: hole != 10))
        insured = await deal(bot)
        assert insured["state"] == "insurance"
        assert (await hint(bot, insured["id"]))["action"] == "no-insurance"


async def test_hint_and_review_are_only_for_the_callers_rounds(api: Api) -> None:
    owner = await api.player("olga")
    other = await api.player("otto")
    async with owner, other:
        await steer_next_round(api.server, "olga", deal_of((10, 6), 9, not_blackjack_with(9)))
        view = await deal(owner)
        for path in ("hint", "review"):
            refused = await other.get(f"/api/online/rounds/{view['id']}/{path}")
            assert refused.status_code == 404 and "error" in refused.json()
            missing = await owner.get(f"/api/online/rounds/999999/{path}")
            assert missing.status_code == 404
        early = await owner.get(f"/api/online/rounds/{view['id']}/review")
        assert early.status_code == 409 and "settled" in early.json()["error"]
        async with api.client() as anonymous:
            assert (await anonymous.get(f"/api/online/rounds/{view['id']}/hint")).status_code == 401
        assert (await owner.get("/api/online/rounds/0/hint")).status_code == 422


async def test_the_review_names_the_best_play_with_the_exact_evs(api: Api) -> None:
    bot = await api.player("rita")
    async with bot:
        # Ace up: the player insures (a mistake), then stands on 16 against the ace (hit is best).
        shoe = await steer_next_round(
            api.server, "rita", deal_of((10, 6), 1, lambda hole: hole not in (10, 1))
        )
        view = await deal(bot, bet=1000)
        assert view["state"] == "insurance"
        assert "insurance 500" in view["legal_actions"]
        await act(bot, view["id"], "insurance 500")
        done = await act(bot, view["id"], "stand")
        assert done["state"] == "settled"

        answer = await bot.get(f"/api/online/rounds/{view['id']}/review")
        assert answer.status_code == 200, answer.text
        review = answer.json()
        assert review["round"] == view["id"]
        insurance, stand = review["decisions"]

        async with api.client() as anonymous:
            table = (await anonymous.get("/api/online/table")).json()
        rules = rules_from_json(table["effective_rules"], Rules())
        expected = calculate(rules, [str(shoe[0]), str(shoe[2])], str(shoe[1]))
        assert expected.insurance is not None and expected.insurance < 0

        assert insurance["phase"] == "insurance" and insurance["taken"] == "insurance"
        assert insurance["taken_text"] == "insurance 500"
        assert insurance["options"] == {
            "insurance": pytest.approx(expected.insurance / 2, abs=1e-12),
            "no-insurance": 0.0,
        }
        assert insurance["best"] == "no-insurance" and insurance["correct"] is False
        assert insurance["cost"] == pytest.approx(-expected.insurance / 2, abs=1e-12)

        assert stand["phase"] == "play" and stand["step"] == 1
        assert stand["cards"] == [str(shoe[0]), str(shoe[2])] and stand["up"] == str(shoe[1])
        assert stand["total"] == 16 and stand["soft"] is False
        assert stand["taken"] == "stand"
        # Exactly the legal moves (no split of 10-6, no surrender at this table), the library's EVs.
        assert set(stand["options"]) == {"stand", "hit", "double"}
        for name, value in stand["options"].items():
            assert value == pytest.approx(expected.decision_values[name], abs=1e-12)
        assert stand["best"] == expected.best == "hit"
        assert stand["correct"] is False
        assert stand["cost"] == pytest.approx(expected.cost("stand"), abs=1e-12)
        assert review["mistakes"] == 2
        assert review["total_cost"] == pytest.approx(insurance["cost"] + stand["cost"], abs=1e-12)
        assert "composition dependent" in review["basis"]


async def test_a_right_play_is_marked_correct(api: Api) -> None:
    bot = await api.player("ruth")
    async with bot:
        await steer_next_round(api.server, "ruth", deal_of((10, 10), 6, not_blackjack_with(6)))
        view = await deal(bot)
        done = await act(bot, view["id"], "stand")
        assert done["state"] == "settled"
        review = (await bot.get(f"/api/online/rounds/{view['id']}/review")).json()
        (only,) = review["decisions"]
        assert only["taken"] == only["best"] == "stand"
        assert only["correct"] is True and only["cost"] == 0.0
        assert set(only["options"]) == {"stand", "hit", "double", "split"}
        assert review["mistakes"] == 0
