"""The live Casino table page (/casino/{id}) in Chromium.

Two kinds of test:
- against a scripted table (:class:`ScriptedTable`): the page's own behaviour, with the
  table's HTTP routes and its WebSocket answered by the test (Playwright routing), so every
  state the page draws is one the test wrote: the arc order, chips and bets, only the legal
  actions enabled, shortcuts, private frames, the reconnect banner, the resync on a seq gap,
  screenshots at both sizes;
- against the real server (``live_server``): two players and a spectator at one table, a round
  with a split from scripted cards, the table's clock driven by the test.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from tests.web.conftest import LiveServer, api_get, page_errors, register, screenshot

TABLE = "casino-1"
DENOMINATIONS = [100, 500, 2500, 10000, 50000]
NOW = 1_800_000_000.0


# ------------------------------------------------------------------ a scripted table
def hand(
    cards: list[str], total: int, soft: bool = False, stake: int = 0, **more: Any
) -> dict[str, Any]:
    return {
        "cards": cards,
        "total": total,
        "soft": soft,
        "stake": stake,
        "doubled": False,
        "result": None,
        "net": None,
        **more,
    }


def table_state(**changes: Any) -> dict[str, Any]:
    """A public table state of the contract (docs/casino-live.md), with ``changes`` applied."""
    state: dict[str, Any] = {
        "id": TABLE,
        "name": "Casino 1",
        "rules": {},
        "min_bet": 100,
        "max_bet": 50000,
        "denominations": DENOMINATIONS,
        "betting_seconds": 15,
        "decision_seconds": 20,
        "phase": "waiting",
        "round": 1,
        "round_id": None,
        "step": 0,
        "deadline": None,
        "now": NOW,
        "boxes": [
            {"box": n, "player": None, "bet": 0, "insurance": 0, "hands": []} for n in range(1, 8)
        ],
        "dealer": {"cards": [], "total": 0, "soft": False},
        "turn": None,
        "legal_actions": [],
        "shoe": {
            "id": 3,
            "commitment": "9f" * 32,
            "cards_dealt": 41,
            "cut_card": 234,
            "reshuffle_after_round": False,
        },
        "spectators": 2,
        "results": [],
    }
    state.update(changes)
    return state


def seat(state: dict[str, Any], box: int, player: str, bet: int = 0, hands: Any = ()) -> None:
    state["boxes"][box - 1].update({"player": player, "bet": bet, "hands": list(hands)})


class ScriptedTable:
    """The table's routes answered by the test: each state it sends is one the test wrote;
    the requests the page makes are recorded (``requests``) and answered with ``answer``."""

    def __init__(self, page: Any, state: dict[str, Any]) -> None:
        self.page = page
        self.state = state
        self.seq = 10
        self.sockets: list[Any] = []
        self.requests: list[tuple[str, str, Any]] = []
        self.gets = 0
        self.answers: dict[str, tuple[int, Any]] = {}
        page.route(re.compile(r".*/api/casino/.*"), self._http)
        page.route_web_socket(re.compile(r".*/api/casino/tables/.*/stream"), self._socket)

    def _http(self, route: Any) -> None:
        request = route.request
        path = request.url.split("://", 1)[1].split("/", 1)[1]
        body = json.loads(request.post_data) if request.post_data else None
        if request.method == "GET":
            self.gets += 1
            route.fulfill(status=200, json=self.state)
            return
        self.requests.append((request.method, "/" + path, body))
        status, answer = self.answers.get(request.method + " /" + path, (200, None))
        route.fulfill(status=status, json=answer if answer is not None else self.state)

    def _socket(self, socket: Any) -> None:
        self.sockets.append(socket)
        socket.on_message(lambda message: None)
        socket.send(json.dumps({"type": "state", "seq": self.seq, "table": self.state}))

    def publish(self, state: dict[str, Any], event: Any = None, skip: int = 0) -> None:
        """Send a new state to every open socket (``skip`` frames lost on the way)."""
        self.state = copy.deepcopy(state)
        self.seq += 1 + skip
        events = [] if event is None else [event]
        frame = {
            "type": "state",
            "seq": self.seq,
            "table": self.state,
            "event": event,
            "events": events,
        }
        for socket in self.sockets:
            socket.send(json.dumps(frame))

    def private(self, balance: int, boxes: list[int]) -> None:
        for socket in self.sockets:
            socket.send(json.dumps({"type": "private", "balance": balance, "boxes": boxes}))


def decision(box: int, action: str, hand: int = 0) -> dict[str, Any]:
    """A decision event as the server's stream writes it."""
    return {"type": "decision", "box": box, "hand": hand, "action": action, "timed_out": False}


def open_table(page: Any, live: LiveServer, state: dict[str, Any]) -> ScriptedTable:
    scripted = ScriptedTable(page, state)
    page.goto(f"{live.url}/casino/{TABLE}")
    page.locator(".casino-felt").wait_for()
    return scripted


def box_of(page: Any, number: int) -> Any:
    return page.locator(f'.box[data-box="{number}"]')


def mid_round(name: str, other: str = "bob") -> dict[str, Any]:
    """Box 1: ``name`` has split eights, playing the first hand; box 2 ``other`` waits."""
    state = table_state(
        phase="playing",
        round=4,
        round_id=17,
        step=9,
        deadline=NOW + 20,
        turn={"box": 1, "hand": 0},
        legal_actions=["hit", "stand", "double", "split"],
        dealer={"cards": ["6H"], "total": 6, "soft": False},
    )
    seat(state, 1, name, 2500, [hand(["8S", "8D"], 16, stake=2500)])
    seat(state, 2, other, 1000, [hand(["KC", "7H"], 17, stake=1000)])
    seat(state, 5, "carol", 500, [hand(["AS", "6D"], 17, soft=True, stake=500)])
    return state


# ------------------------------------------------------------------ scripted-table tests
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_spectator_sees_the_table_and_a_sign_in_prompt(
    live_server: LiveServer, new_page: Any, size: str
) -> None:
    page = new_page(size)
    state = mid_round("alice")
    open_table(page, live_server, state)
    expect_text(page.locator(".control-bar"), "Sign in to play")
    assert page.get_by_role("button", name=re.compile("^Sit at box")).count() == 0
    assert page.locator(".box .card").count() >= 6  # every public card drawn
    expect_text(box_of(page, 1), "alice")
    expect_text(page.locator(".dealer"), "Dealer 6")
    assert box_of(page, 1).get_attribute("class").split().count("turn") == 1
    assert page.get_by_role("timer").count() == 1  # the decision countdown of box 1
    assert page.locator(".fairness").inner_text().count("9f9f") >= 1
    if size == "desktop":
        # Box 1 is on the dealer's left: the screen's right; box 7 the far left.
        xs = [box_of(page, n).bounding_box()["x"] for n in range(1, 8)]
        assert xs == sorted(xs, reverse=True), xs
    screenshot(page, f"casino-spectator-{size}")
    assert real_errors(page) == []


def test_a_player_sits_bets_with_chips_and_acts_only_when_legal(
    live_server: LiveServer, new_page: Any
) -> None:
    page = new_page("desktop")
    register(page, live_server, "alice")
    state = table_state()
    scripted = open_table(page, live_server, state)
    sit_buttons = page.get_by_role("button", name=re.compile("^Sit at box"))
    assert sit_buttons.count() == 7

    # Sitting: the POST names the box; the state that comes back shows the player there.
    after = copy.deepcopy(state)
    seat(after, 3, "alice")
    after.update(phase="betting", deadline=NOW + 15, step=1)
    scripted.answers["POST /api/casino/tables/casino-1/seats"] = (201, after)
    page.get_by_role("button", name="Sit at box 3").click()
    expect_text(box_of(page, 3), "alice")
    assert scripted.requests[-1] == ("POST", "/api/casino/tables/casino-1/seats", {"box": 3})
    assert "mine" in box_of(page, 3).get_attribute("class").split()
    expect_text(page.locator(".table-status"), "Place your bets")

    # Chips add up; x2 doubles; clear empties; the bet names the round shown.
    page.get_by_role("button", name="Add a 25.00 chip").click()
    page.get_by_role("button", name="Add a 5.00 chip").click()
    expect_text(page.get_by_role("status", name="Bet to place"), "30.00")
    page.get_by_role("button", name="Double the bet").click()
    expect_text(page.get_by_role("status", name="Bet to place"), "60.00")
    page.get_by_role("button", name=re.compile("^Clear")).click()
    expect_text(page.get_by_role("status", name="Bet to place"), "0.00")
    assert page.get_by_role("button", name=re.compile("^Place bet")).is_disabled()
    page.get_by_role("button", name="Add a 100.00 chip").click()
    bet = copy.deepcopy(after)
    bet["boxes"][2]["bet"] = 10000
    bet["step"] = 2
    scripted.answers["POST /api/casino/tables/casino-1/bets"] = (201, bet)
    page.keyboard.press("Enter")
    page.locator('.box[data-box="3"] .ct-stack[aria-label="Bet 100.00"]').wait_for()
    assert scripted.requests[-1] == (
        "POST",
        "/api/casino/tables/casino-1/bets",
        {"box": 3, "amount": 10000, "round": 1},
    )

    # A private frame: the balance here and the header's event.
    page.evaluate(
        "window.__balances = []; window.addEventListener('balance', e => window.__balances.push(e.detail))"
    )
    scripted.private(90000, [3])
    expect_text(page.get_by_test_id("casino-balance"), "900.00")
    assert page.evaluate("window.__balances") == [90000]

    # Another box's turn: no action of ours is enabled.
    playing = copy.deepcopy(bet)
    seat(playing, 1, "bob", 500, [hand(["9C", "7D"], 16, stake=500)])
    playing["boxes"][2]["hands"] = [hand(["8S", "8D"], 16, stake=10000)]
    playing.update(
        phase="playing",
        step=5,
        deadline=NOW + 20,
        turn={"box": 1, "hand": 0},
        legal_actions=["hit", "stand", "double", "surrender"],
        dealer={"cards": ["TH"], "total": 10, "soft": False},
    )
    scripted.publish(playing, {"type": "dealt", "boxes": [1, 3]})
    expect_text(page.locator(".table-status"), "Box 1 · bob to act")
    for name in ("Hit", "Stand", "Double", "Split", "Surrender"):
        assert page.get_by_role("button", name=re.compile(f"^{name}")).is_disabled(), name

    # Our turn: exactly the legal actions are enabled; P splits (with the step shown).
    ours = copy.deepcopy(playing)
    ours.update(step=6, turn={"box": 3, "hand": 0}, legal_actions=["hit", "stand", "split"])
    ours["boxes"][0]["hands"][0]["result"] = None
    scripted.publish(ours, decision(1, "stand"))
    expect_text(page.locator(".feed"), "Box 1 (bob): stand")
    expect_enabled(
        page, {"Hit": True, "Stand": True, "Split": True, "Double": False, "Surrender": False}
    )
    page.keyboard.press("d")  # not legal: nothing is sent
    page.keyboard.press("p")
    expect_request(scripted, {"box": 3, "action": "split", "step": 6})
    actions = [r for r in scripted.requests if r[1].endswith("/actions")]
    assert actions == [
        ("POST", "/api/casino/tables/casino-1/actions", {"box": 3, "action": "split", "step": 6})
    ]
    assert real_errors(page) == []


def test_insurance_is_offered_with_half_the_bet(live_server: LiveServer, new_page: Any) -> None:
    page = new_page("desktop")
    register(page, live_server, "ivy")
    state = table_state(
        phase="playing",
        step=3,
        deadline=NOW + 20,
        turn={"box": 2, "hand": None, "kind": "insurance"},
        legal_actions=["no-insurance", "insurance 1000"],  # the server names the amount
        dealer={"cards": ["AC"], "total": 11, "soft": True},
    )
    seat(state, 2, "ivy", 2000, [hand(["TS", "9H"], 19, stake=2000)])
    scripted = open_table(page, live_server, state)
    expect_text(page.locator(".control-bar"), "Insurance 10.00?")
    expect_enabled(page, {"Insure": True, "No insurance": True})
    page.keyboard.press("i")
    expect_request(scripted, {"box": 2, "action": "insurance 1000", "step": 3})


def test_a_lost_connection_shows_a_banner_and_a_seq_gap_reads_the_state_again(
    live_server: LiveServer, new_page: Any
) -> None:
    page = new_page("phone")
    state = mid_round("alice")
    scripted = open_table(page, live_server, state)
    gets = scripted.gets
    moved = copy.deepcopy(state)
    moved["step"] = 12
    scripted.publish(moved, decision(1, "hit"), skip=2)
    page.wait_for_function("true")
    wait_until(page, lambda: scripted.gets > gets)
    scripted.sockets[0].close()
    page.get_by_role("status").filter(has_text="reconnecting").wait_for()
    # The reconnecting socket gets the whole state at once and the banner goes.
    page.get_by_role("status").filter(has_text="reconnecting").wait_for(state="detached")
    assert len(scripted.sockets) == 2


def test_the_table_mid_round_at_both_sizes(live_server: LiveServer, new_page: Any) -> None:
    for size in ("desktop", "phone"):
        page = new_page(size)
        register(page, live_server, f"alice{size}")
        state = mid_round(f"alice{size}")
        # Box 1 has split: two hands side by side, the second one waiting.
        state["boxes"][0].update(
            bet=2500,
            hands=[
                hand(["8S", "3C", "KD"], 21, stake=2500),
                hand(["8D", "TC"], 18, stake=2500),
            ],
        )
        state["turn"] = {"box": 1, "hand": 1}
        state["legal_actions"] = ["hit", "stand"]
        state["boxes"][4]["insurance"] = 0
        state["boxes"][6].update(
            player="dave",
            bet=10000,
            hands=[hand(["9H", "2S", "TD"], 21, stake=10000, doubled=True)],
        )
        scripted = open_table(page, live_server, state)
        scripted.private(97500, [1])
        expect_text(page.get_by_test_id("casino-balance"), "975.00")
        assert page.locator('.box[data-box="1"] .ct-hand').count() == 2
        screenshot(page, f"casino-mid-round-{size}", full_page=False)
        settled = copy.deepcopy(state)
        settled.update(phase="settled", turn=None, legal_actions=[], deadline=NOW + 4)
        settled["dealer"] = {"cards": ["6H", "TS", "9C"], "total": 25, "soft": False}
        for b in settled["boxes"]:
            for h in b["hands"]:
                h.update(result="win", net=h["stake"] * (2 if h.get("doubled") else 1))
        settled["results"] = [
            {"box": 1, "net": 5000},
            {"box": 2, "net": 1000},
            {"box": 5, "net": 500},
            {"box": 7, "net": 20000},
        ]
        scripted.publish(settled, {"type": "settled", "results": settled["results"]})
        expect_text(box_of(page, 1), "+50.00")
        expect_text(page.locator(".dealer"), "Dealer busts")
        screenshot(page, f"casino-settled-{size}", full_page=False)
        assert real_errors(page) == []


# ------------------------------------------------------------------ helpers
def expect_text(locator: Any, text: str) -> None:
    from playwright.sync_api import expect

    expect(locator).to_contain_text(text)


def expect_enabled(page: Any, wanted: dict[str, bool]) -> None:
    from playwright.sync_api import expect

    for name, enabled in wanted.items():
        button = page.locator(".control-bar").get_by_role("button", name=re.compile(f"^{name}"))
        if enabled:
            expect(button).to_be_enabled()
        else:  # disabled, or not shown at all (a phone hides the actions while others play)
            enabled_ones = page.locator(".control-bar button:enabled").filter(has_text=name)
            expect(enabled_ones).to_have_count(0)


def expect_class(locator: Any, name: str) -> None:
    from playwright.sync_api import expect

    expect(locator).to_have_class(re.compile(rf"\b{name}\b"))


def expect_request(scripted: ScriptedTable, body: Any) -> None:
    wait_until(scripted.page, lambda: any(r[2] == body for r in scripted.requests))


def wait_until(page: Any, condition: Any, tries: int = 200) -> None:
    """Let the page's routes run (Playwright dispatches them while it waits) until ``condition``."""
    for _ in range(tries):
        if condition():
            return
        page.wait_for_timeout(25)
    raise AssertionError("the page did not do what was expected")


def real_errors(page: Any) -> list[str]:
    """The page's script errors, less the browser's line for a spectator's 401 from /api/me
    (the frame asks who is signed in; a spectator is nobody)."""
    return [e for e in page_errors(page) if not ("401" in e and "/api/me" in e)]


# ------------------------------------------------------------------ the real server
#: The top of the next shoe: box 1 8S, box 2 9C, dealer 6H, box 1 8D, box 2 TC; box 1 splits
#: (3C to its first hand, KD to its second), hits the first (9H: 20); the dealer draws TS, 9D.
SPLIT_ROUND = "8S 9C 6H 8D TC 3C KD 9H TS 9D"


def test_two_players_and_a_spectator_share_a_round_with_a_split(
    live_server: LiveServer, new_page: Any
) -> None:
    import httpx

    live_server.push_cards(TABLE, SPLIT_ROUND)
    with httpx.Client(base_url=live_server.url) as client:
        assert client.post(f"/api/test/casino/{TABLE}/reshuffle").status_code == 200
    alice = new_page("desktop")
    bobby = new_page("phone")
    watcher = new_page("desktop")
    register(alice, live_server, "alice")
    register(bobby, live_server, "bobby")
    for page in (alice, bobby, watcher):
        page.goto(f"{live_server.url}/casino/{TABLE}")
        page.locator(".casino-felt").wait_for()
    expect_text(watcher.locator(".control-bar"), "Sign in to play")

    alice.get_by_role("button", name="Sit at box 1").click()
    expect_text(box_of(bobby, 1), "alice")  # seen live by the other player
    bobby.get_by_role("button", name="Sit at box 2").click()
    expect_text(box_of(alice, 2), "bobby")
    expect_text(alice.locator(".table-status"), "Place your bets")

    # Bets with chips: 5.00 twice (alice), 5.00 (bobby).
    alice.get_by_role("button", name="Add a 5.00 chip").click()
    alice.get_by_role("button", name="Add a 5.00 chip").click()
    alice.get_by_role("button", name=re.compile("^Place bet")).click()
    bobby.get_by_role("button", name="Add a 5.00 chip").click()
    expect_text(bobby.get_by_role("status", name="Bet to place"), "5.00")
    screenshot(bobby, "casino-live-betting-phone", full_page=False)
    bobby.get_by_role("button", name=re.compile("^Place bet")).click()
    watcher.locator('.box[data-box="1"] .ct-stack[aria-label="Bet 10.00"]').wait_for()
    watcher.locator('.box[data-box="2"] .ct-stack[aria-label="Bet 5.00"]').wait_for()
    live_server.tick(0)  # every seated box has bet: the window closes, the cards come

    # Alice's turn: only the legal actions; she splits her eights with P.
    expect_enabled(alice, {"Split": True, "Hit": True})
    expect_enabled(bobby, {"Hit": False, "Stand": False})
    expect_text(watcher.locator(".table-status"), "Box 1 · alice to act")
    alice.keyboard.press("p")
    for page in (alice, bobby, watcher):  # both hands, side by side, everywhere
        page.locator('.box[data-box="1"] .ct-hand').nth(1).wait_for()
        expect_text(box_of(page, 1).locator(".ct-hand").nth(0), "11")
        expect_text(box_of(page, 1).locator(".ct-hand").nth(1), "18")
    expect_enabled(alice, {"Split": False, "Hit": True, "Double": True})
    alice.keyboard.press("h")  # 9H: 20 on the first hand
    expect_text(box_of(bobby, 1).locator(".ct-hand").nth(0), "20")
    expect_enabled(alice, {"Stand": True})
    screenshot(alice, "casino-live-mid-round-desktop", full_page=False)
    screenshot(bobby, "casino-live-mid-round-phone", full_page=False)
    alice.keyboard.press("s")
    expect_class(box_of(alice, 1).locator(".ct-hand").nth(1), "active")  # the second hand now
    expect_enabled(alice, {"Stand": True})
    alice.keyboard.press("s")
    expect_enabled(bobby, {"Stand": True})
    expect_text(alice.locator(".table-status"), "Box 2 · bobby to act")
    bobby.get_by_role("button", name=re.compile("^Stand")).click()
    live_server.tick(0)

    # The dealer: 6, 10, 9: busts. Results and balances are the ledger's.
    for page in (alice, bobby, watcher):
        expect_text(page.locator(".dealer"), "Dealer busts (25)")
        expect_text(box_of(page, 1), "+20.00")
        expect_text(box_of(page, 2), "+5.00")
    assert api_get(alice, live_server, "/api/me")["balance"] == 102000
    assert api_get(bobby, live_server, "/api/me")["balance"] == 100500
    expect_text(alice.get_by_test_id("casino-balance"), "1,020.00")
    expect_text(bobby.get_by_test_id("casino-balance"), "1,005.00")
    expect_text(alice.locator(".topbar"), "1,020.00")  # the header heard the balance event
    expect_text(alice.locator(".control-bar"), "you win 20.00")
    screenshot(watcher, "casino-live-settled-desktop", full_page=False)
    for page in (alice, bobby, watcher):
        assert real_errors(page) == []


# The load bench (bench/casino_table.py --short) is tested in tests/test_bench_casino.py.
