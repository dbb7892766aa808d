"""History, the step-by-step replay with "Verify in the browser", and the rules pages, in
headless Chromium against a real server (uvicorn in a thread, SQLite, a manual clock).

Two Online rounds are played through the API with seeds chosen for what the test needs (a pair
to split against a small up card; an ace up, so insurance is offered): the seeds are real
committed seeds, so the records verify. The replay's steps are checked against the round's
events, the verification shows a tick, and a record altered on its way to the browser (one
card changed) shows a cross naming that card. Screenshots of each page at phone and desktop
size go to artifacts/screenshots/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.web.conftest import (
    SIZES,
    LiveServer,
    page_errors,
    screenshot,
    start_live_server,
    steer_online_round,
)
from twentyone.cards import Card

PASSWORD = "password123"
TABLE = "casino-1"


def a_pair_against_a_small_card(shoe: list[Card]) -> bool:
    # Deal order: player, dealer up, player, dealer hole; then the split hands' cards.
    return (
        shoe[0].rank == shoe[2].rank
        and shoe[0].rank in "2345678"
        and shoe[1].value in (4, 5, 6)
        and shoe[4].value + shoe[0].value < 17
    )


def an_ace_up_without_blackjack(shoe: list[Card]) -> bool:
    player = {shoe[0].value, shoe[2].value}
    return shoe[1].rank == "A" and shoe[3].value != 10 and player != {1, 10}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    running = start_live_server(tmp_path_factory.mktemp("history") / "live.db")
    try:
        yield running
    finally:
        running.stop()


def _json(response: httpx.Response) -> Any:
    assert response.is_success, f"{response.status_code} {response.text}"
    return response.json()


def _play_online(
    live: LiveServer, api: httpx.Client, bet: int, first: str, then: str
) -> dict[str, Any]:
    """Deal an Online round, take ``first``, then ``then`` until it settles; its id."""
    view = _json(api.post("/api/online/rounds", json={"bet": bet}))
    round_id = view["id"]
    action = first
    while view["state"] != "settled":
        assert action in view["legal_actions"], (action, view)
        live.clock.advance(2)  # decisions a little apart: the replay shows their times
        view = _json(
            api.post(
                f"/api/online/rounds/{round_id}/actions",
                json={"action": action, "step": view["step"]},
            )
        )
        action = then
    return dict(view)


def _play_casino(live: LiveServer, api: httpx.Client, boxes: list[int], bet: int) -> None:
    """Sit at ``boxes`` of the live table, bet on each, and stand (declining insurance) on
    every decision of ours until the round settles; then retire the shoe (seed revealed)."""
    state = {}
    for box in boxes:
        state = _json(api.post(f"/api/casino/tables/{TABLE}/seats", json={"box": box}))
    for box in boxes:
        live.clock.advance(1)
        _json(
            api.post(
                f"/api/casino/tables/{TABLE}/bets",
                json={"box": box, "amount": bet, "round": state["round"]},
            )
        )
    live.tick(0)  # every seated box has bet: the window closes, the cards are dealt
    for _ in range(40):
        state = _json(api.get(f"/api/casino/tables/{TABLE}"))
        if state["phase"] != "playing":
            break
        turn = state["turn"]
        assert turn is not None and turn["box"] in boxes, state
        action = "no-insurance" if "no-insurance" in state["legal_actions"] else "stand"
        live.clock.advance(3)
        _json(
            api.post(
                f"/api/casino/tables/{TABLE}/actions",
                json={"box": turn["box"], "action": action, "step": state["step"]},
            )
        )
    assert state["phase"] == "settled", state
    for box in boxes:
        _json(api.delete(f"/api/casino/tables/{TABLE}/seats/{box}"))
    live.call(live.server.services["casino"].force_new_shoe, TABLE)


@pytest.fixture(scope="module")
def played(live: LiveServer) -> Iterator[dict[str, Any]]:
    """A player with two settled Online rounds (a split; then an ace up and insurance
    declined) and a Casino round on two boxes; the session's cookies and the rounds as the API
    gives them. The cards come from committed seeds, so every record verifies. (Played over
    plain HTTP: the browser is for the tests themselves.)"""
    with httpx.Client(base_url=live.url, timeout=60) as api:
        _json(api.post("/api/accounts", json={"name": "hana", "password": PASSWORD}))
        steer_online_round(live, "hana", a_pair_against_a_small_card)
        split = _play_online(live, api, 1000, "split", "stand")
        live.clock.advance(20)
        steer_online_round(live, "hana", an_ace_up_without_blackjack)
        insurance = _play_online(live, api, 500, "no-insurance", "stand")
        live.clock.advance(20)
        _play_casino(live, api, [2, 5], 1500)
        (casino,) = _json(api.get("/api/casino/rounds"))["rounds"]
        rounds = {
            "split": _json(api.get(f"/api/online/rounds/{split['id']}")),
            "insurance": _json(api.get(f"/api/online/rounds/{insurance['id']}")),
            "casino": _json(api.get(f"/api/casino/rounds/{casino['id']}")),
        }
        assert rounds["casino"]["fairness"]["server_seed"], rounds["casino"]["fairness"]
        cookies = [
            {"name": name, "value": value, "url": live.url} for name, value in api.cookies.items()
        ]
        yield {"cookies": cookies, "rounds": rounds}


def _page(new_page: Any, played: dict[str, Any] | None, size: str) -> Any:
    page = new_page(size)
    if played is not None:
        page.context.add_cookies(played["cookies"])
    return page


def _money(amount: int, minus: str = "-") -> str:
    sign = minus if amount < 0 else "+" if amount > 0 else ""
    units = abs(amount)
    return f"{sign}{units // 100:,}.{units % 100:02d}"


def test_history_lists_every_round_newest_first(
    live: LiveServer, new_page: Any, played: dict[str, Any]
) -> None:
    rounds = played["rounds"]
    newest_first = [("casino", rounds["casino"]), ("online", rounds["insurance"])]
    newest_first.append(("online", rounds["split"]))
    for size in SIZES:
        page = _page(new_page, played, size)
        page.goto(f"{live.url}/history")
        rows = page.locator(".history-row")
        rows.first.wait_for()
        assert rows.count() == 3
        for index, (kind, round_) in enumerate(newest_first):
            row = rows.nth(index)
            assert row.get_attribute("data-kind") == kind
            assert row.get_attribute("data-round") == str(round_["id"])
            net = round_["net"]
            tone = "gain" if net > 0 else "loss" if net < 0 else "even"
            assert tone in (row.get_attribute("class") or "")
            assert row.locator(".h-net .money").inner_text() == _money(net)
            assert row.locator("a").get_attribute("href") == f"/history/{kind}/{round_['id']}"
        assert "box 2, 5" in rows.nth(0).locator(".h-table").inner_text()
        assert rows.nth(0).locator(".h-bet .money").inner_text() == "30.00"
        screenshot(page, f"history-{size}")
        assert page_errors(page) == []


def test_the_replay_steps_through_the_events_and_verifies(
    live: LiveServer, new_page: Any, played: dict[str, Any]
) -> None:
    split = played["rounds"]["split"]
    events = split["events"]
    page = _page(new_page, played, "desktop")
    page.goto(f"{live.url}/history")
    page.locator(f'.history-row[data-kind="online"][data-round="{split["id"]}"] a').click()
    page.wait_for_url(re.compile(f"/history/online/{split['id']}$"))
    step = page.get_by_test_id("replay-step")
    caption = page.get_by_test_id("replay-caption")
    step.wait_for()
    # It opens at the end, as the round ended: every event is a step.
    assert step.text_content() == f"Step {len(events)} of {len(events)}"
    assert caption.inner_text().startswith("Round settled: net ")
    page.keyboard.press("Home")
    assert step.text_content() == f"Step 0 of {len(events)}"
    assert caption.inner_text() == "Before the deal"
    assert page.locator(".replay-felt .card").count() == 0
    page.keyboard.press("ArrowRight")
    assert caption.inner_text() == "Bets placed: 10.00"
    page.keyboard.press("ArrowRight")  # the first card, to the player
    first_card = next(e["card"] for e in events if e["type"] == "card")
    assert page.locator(".replay-box .card").first.get_attribute("data-card") == first_card
    assert caption.inner_text().startswith("Your hand gets ")
    # On to the split: two hands now, each with its stake, and the money moved.
    split_step = next(i for i, e in enumerate(events, 1) if e.get("action") == "split")
    page.get_by_role("slider", name="Step").fill(str(split_step))
    assert caption.inner_text() == "Your hand splits"
    assert page.locator(".replay-hand").count() == 2
    assert page.locator(".replay-stake").all_inner_texts() == ["10.00", "10.00"]
    assert page.locator(".replay-money strong").first.inner_text() == "20.00"
    # The hole card stays face down until it is turned.
    assert page.locator('.replay-dealer .card[data-card="back"]').count() == 1
    page.keyboard.press("End")
    assert page.locator('.replay-dealer .card[data-card="back"]').count() == 0
    assert page.get_by_test_id("replay-net").inner_text() == _money(split["net"], "\u2212")
    # Back to a step mid-round for the screenshot, then verify.
    page.get_by_role("slider", name="Step").fill(str(split_step + 2))
    page.get_by_role("button", name="Verify in the browser").click()
    verdict = page.get_by_test_id("verdict")
    verdict.wait_for()
    assert verdict.get_attribute("data-ok") == "true"
    assert "Verified in your browser" in verdict.inner_text()
    assert page.locator(".fair-cards li.checked").count() == len(split["fairness"]["cards"])
    screenshot(page, "replay-desktop")
    assert page_errors(page) == []


def test_autoplay_runs_to_the_end(live: LiveServer, new_page: Any, played: dict[str, Any]) -> None:
    insurance = played["rounds"]["insurance"]
    last = len(insurance["events"])
    page = _page(new_page, played, "desktop")
    page.goto(f"{live.url}/history/online/{insurance['id']}")
    step = page.get_by_test_id("replay-step")
    step.wait_for()
    page.get_by_role(
        "button", name="Play", exact=True
    ).click()  # from the end: starts again at step 0
    page.get_by_role("button", name="Pause", exact=True).wait_for()
    page.wait_for_function(
        "last => document.querySelector('[data-testid=replay-step]').textContent"
        " === `Step ${last} of ${last}`",
        arg=last,
        timeout=60_000,
    )
    page.get_by_role("button", name="Play", exact=True).wait_for()  # it stops by itself at the end


def test_the_insurance_round_replays_its_decision(
    live: LiveServer, new_page: Any, played: dict[str, Any]
) -> None:
    insurance = played["rounds"]["insurance"]
    page = _page(new_page, played, "phone")
    page.goto(f"{live.url}/history/online/{insurance['id']}")
    page.get_by_test_id("replay-step").wait_for()
    texts = page.locator(".replay-events .what").all_inner_texts()
    assert len(texts) == len(insurance["events"])
    assert "The player declines insurance" in texts
    assert "The dealer peeks: no blackjack" in texts
    page.get_by_role("button", name="First step").click()
    page.get_by_role("button", name="Next step").click()
    assert page.get_by_test_id("replay-caption").inner_text() == "Bets placed: 5.00"
    decline = texts.index("The player declines insurance") + 1
    page.locator(f'.replay-events li[data-step="{decline}"] button').click()
    assert page.get_by_test_id("replay-step").text_content().startswith(f"Step {decline} ")
    page.get_by_role("button", name="Verify in the browser").click()
    page.get_by_test_id("verdict").wait_for()
    assert page.get_by_test_id("verdict").get_attribute("data-ok") == "true"
    screenshot(page, "replay-phone")


def test_a_casino_round_on_two_boxes_replays_and_verifies(
    live: LiveServer, new_page: Any, played: dict[str, Any]
) -> None:
    casino = played["rounds"]["casino"]
    page = _page(new_page, played, "desktop")
    page.goto(f"{live.url}/history/casino/{casino['id']}")
    page.get_by_test_id("replay-step").wait_for()
    texts = page.locator(".replay-events .what").all_inner_texts()
    assert "Box 2 (hana) bets 15.00" in texts and "Box 5 (hana) bets 15.00" in texts
    assert any(text.startswith("Box 5 gets ") for text in texts)
    # As it ended: both boxes hana's, their hands as the round's record has them.
    boxes = page.locator(".replay-box.mine")
    assert [boxes.nth(i).get_attribute("data-box") for i in range(boxes.count())] == ["2", "5"]
    for index, box in enumerate(casino["boxes"]):
        shown = (
            boxes.nth(index)
            .locator(".card")
            .evaluate_all("cards => cards.map(card => card.dataset.card)")
        )
        assert shown == [card for hand in box["hands"] for card in hand["cards"]]
    dealer = page.locator(".replay-dealer .card").evaluate_all(
        "cards => cards.map(card => card.dataset.card)"
    )
    assert dealer == casino["dealer"]["cards"]
    assert page.get_by_test_id("replay-net").inner_text() == _money(casino["net"], "\u2212")
    page.get_by_role("button", name="Verify in the browser").click()
    verdict = page.get_by_test_id("verdict")
    verdict.wait_for()
    assert verdict.get_attribute("data-ok") == "true"
    assert f"from shoe position {casino['fairness']['position']}" in verdict.inner_text() or (
        casino["fairness"]["position"] == 0
    )
    screenshot(page, "replay-casino-desktop")
    assert page_errors(page) == []


def test_a_tampered_record_shows_the_first_differing_card(
    live: LiveServer, new_page: Any, played: dict[str, Any]
) -> None:
    split = played["rounds"]["split"]
    cards = list(split["fairness"]["cards"])
    changed = 2
    cards[changed] = "AS" if cards[changed] != "AS" else "KD"
    page = _page(new_page, played, "desktop")

    def tamper(route: Any) -> None:
        response = route.fetch()
        body = response.json()
        body["fairness"]["cards"] = cards
        route.fulfill(response=response, json=body)

    page.route(f"**/api/online/rounds/{split['id']}", tamper)
    page.goto(f"{live.url}/history/online/{split['id']}")
    page.get_by_role("button", name="Verify in the browser").click()
    verdict = page.get_by_test_id("verdict")
    verdict.wait_for()
    assert verdict.get_attribute("data-ok") == "false"
    assert "Not verified" in verdict.inner_text()
    difference = page.get_by_test_id("first-difference").inner_text()
    assert difference.startswith(f"Card {changed + 1} (shoe position {changed}) is ")
    assert page.locator(".fair-cards li.differs").count() == 1
    screenshot(page, "replay-tampered-desktop")


def test_a_replay_whose_cards_differ_from_its_record_is_not_verified(
    live: LiveServer, new_page: Any, played: dict[str, Any]
) -> None:
    insurance = played["rounds"]["insurance"]
    events = [dict(event) for event in insurance["events"]]
    dealt = [i for i, event in enumerate(events) if event["type"] == "card"]
    recorded = events[dealt[2]]["card"]
    events[dealt[2]]["card"] = "KS" if recorded != "KS" else "QH"
    page = new_page("desktop")
    page.context.add_cookies(played["cookies"])

    def tamper(route: Any) -> None:
        response = route.fetch()
        route.fulfill(response=response, json={**response.json(), "events": events})

    page.route(f"**/api/online/rounds/{insurance['id']}", tamper)
    page.goto(f"{live.url}/history/online/{insurance['id']}")
    page.get_by_role("button", name="Verify in the browser").click()
    verdict = page.get_by_test_id("verdict")
    verdict.wait_for()
    assert verdict.get_attribute("data-ok") == "false"
    assert page.get_by_test_id("events-differ").inner_text().startswith("The replay's card 3 is ")
    assert page.get_by_test_id("first-difference").count() == 0  # the record itself is true


@pytest.mark.parametrize("game", ["casino", "online", "vinte", "exchange"])
def test_the_rules_pages(live: LiveServer, new_page: Any, game: str) -> None:
    for size in SIZES:
        page = new_page(size)
        page.goto(f"{live.url}/rules/{game}")
        page.locator(".rules-section").first.wait_for()
        headings = page.locator(".rules-section h2").all_inner_texts()
        assert len(headings) == 3
        payouts = page.locator(".rules-payouts tbody tr")
        assert payouts.count() >= 3
        if game in ("casino", "online"):
            edge = page.get_by_test_id("house-edge")
            edge.wait_for(timeout=180_000)  # a cold analysis worker on a busy machine
            assert re.fullmatch(r"0\.4\d\d%", edge.inner_text())
            assert page.get_by_test_id("lab-link").get_attribute("href") == f"/lab?preset={game}"
            assert payouts.first.locator("td.num").inner_text() == "3:2"
        else:
            assert page.get_by_test_id("house-edge").count() == 0
        screenshot(page, f"rules-{game}-{size}")
        # Signed out, the frame's GET /api/me is a 401: the only console error allowed.
        assert [e for e in page_errors(page) if "/api/me" not in e] == []


MERGE = """async ([state]) => {
    const history = await import("/static/pages/history.js");
    const view = history.merged(state);
    return { keys: view.rows.map((row) => row.key), more: view.more };
}"""


def _rounds(kind: str, times: list[int]) -> list[dict[str, Any]]:
    return [
        {"id": t, "created_at": float(t), "bet": 100, "net": 0, "state": "settled", "kind": kind}
        for t in times
    ]


def test_two_paged_sources_merge_in_exact_time_order(live: LiveServer, new_page: Any) -> None:
    page = new_page("desktop")
    page.goto(f"{live.url}/rules/online")
    # Online read to t=50 with more pages; Casino read to t=10, none left: casino rounds older
    # than 50 wait until the online pages before them are read.
    state = {
        "online": {"rounds": _rounds("online", [90, 70, 50]), "next": 50},
        "casino": {"rounds": _rounds("casino", [80, 60, 40, 10]), "next": None},
    }
    view = page.evaluate(MERGE, [state])
    assert view == {
        "keys": ["online-90", "casino-80", "online-70", "casino-60", "online-50"],
        "more": True,
    }
    state["online"] = {"rounds": _rounds("online", [90, 70, 50, 30]), "next": None}
    view = page.evaluate(MERGE, [state])
    assert view["keys"][-3:] == ["casino-40", "online-30", "casino-10"]
    assert view["more"] is False
