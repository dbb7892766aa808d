"""The Vinte-e-um pages (/vinte, /vinte/{id}) in Chromium, against the real server.

Two people (alice on a desktop, bob on a phone) and a bot play a match of two rounds to a
winner. The decks of both rounds are injected (the test-only card script, key = the table id),
so every card is known to the test, and every card that some seat may not see is a card that no
other step shows: finding its text in a browser's traffic can only mean it leaked. Each
browser's traffic (every WebSocket frame both ways and every API response body,
tests/web/traffic.py) is searched for the others' hidden cards: never before they are shown, and
never at all when they are never shown (the bot's 21 paid by a banker's bust, the players'
cards under a banker's natural), including the rounds' records read afterwards.

Round 1, alice banks (set in the form), bob and the bot play:
  bob hidden 9H, bot hidden AS, alice hidden 6C, alice up TD (16, no natural);
  bob bets 3 with a chip button, gets 8S (17) and stands; the bot gets KH (21: its turn ends);
  alice's hidden card is shown with her turn; she calls bob by clicking his seat (17 beats 16:
  9H is shown), then draws 7D and busts (23): the bot is paid and its AS is never shown.
Round 2, the bank has passed to bob (one round per banker):
  bot hidden 5C, alice hidden 4H, bob hidden AD; alice does not bet: the injected clock passes
  her deadline and the minimum is bet for her; bob's up card QS makes a natural (21): the bank
  takes every bet, 5C and 4H are never shown to the others. The round limit (2) ends the match.

Also: the create form's stack rule (on a phone, reached from the lobby's tile); one person with a
bot, for balance (the header's balance after the buy-in and the payout), with the bots' hint on
and the keyboard; and, against a scripted table (its routes and stream answered by the test), a
six-seat banker's turn: badges, only callable seats clickable, the bodies posted, a showdown
banner, an away seat coming back. Screenshots: artifacts/screenshots/vinte-*.png.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from tests.web.conftest import LiveServer, api_get, page_errors, register, screenshot
from tests.web.traffic import Traffic

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
DECISION_SECONDS = 30
NOW = 1_800_000_000.0

ROUND_1 = "9H AS 6C TD 8S KH 7D"
ROUND_2 = "5C 4H AD QS"


def seat_of(page: Any, seat: int) -> Any:
    return page.locator(f'.vt-seat[data-seat="{seat}"]')


def real_errors(page: Any) -> list[str]:
    return [error for error in page_errors(page) if "page error" in error]


def mark(name: str, *logs: Traffic) -> None:
    for log in logs:
        log.mark(name)


def fill_form(page: Any) -> None:
    page.get_by_label("Table name").fill("Friday game")
    page.get_by_label("Seats", exact=True).fill("3")
    page.get_by_label("Chips per seat").fill("10")
    page.get_by_label("Rounds per banker").fill("1")
    page.get_by_label("Round limit").fill("2")
    page.get_by_label("Seconds per decision").fill(str(DECISION_SECONDS))
    page.get_by_label("First banker").select_option("0")


def test_the_create_form_checks_the_stack_rule_as_the_server_does(
    live_server: LiveServer, new_page: Any
) -> None:
    live = live_server
    page = new_page("phone", viewport=PHONE)
    register(page, live, "carol")
    page.goto(f"{live.url}/")  # the lobby's Vinte-e-um tile leads to the tables
    page.get_by_role("link", name="Play with friends").click()
    page.wait_for_url(re.compile(r"/vinte$"))
    page.get_by_role("button", name="Create the table").wait_for()
    page.get_by_text("No open tables right now").wait_for()
    # 8 seats with a maximum bet of 5 need stacks of 35: shown as soon as it is broken.
    page.get_by_label("Seats", exact=True).fill("8")
    page.get_by_label("Chips per seat").fill("20")
    rule = page.get_by_text(re.compile(r"every stack needs at least 35 chips"))
    rule.wait_for()
    assert page.get_by_label("Chips per seat").get_attribute("aria-invalid") is None  # not yet sent
    page.get_by_role("button", name="Create the table").click()
    assert page.get_by_label("Chips per seat").get_attribute("aria-invalid") == "true"
    assert page.url.endswith("/vinte")  # nothing was sent
    page.get_by_label("Chips per seat").fill("35")
    assert rule.count() == 0
    page.get_by_label("Play for my balance").check()
    page.get_by_label("Value of a chip").wait_for()
    screenshot(page, "vinte-create-form-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert real_errors(page) == []


def test_two_browsers_and_a_bot_play_a_match_and_see_no_hidden_card_of_another(
    live_server: LiveServer, new_page: Any
) -> None:
    live = live_server
    alice_page = new_page("desktop", viewport=DESKTOP)
    bob_page = new_page("phone", viewport=PHONE)
    alice = Traffic("alice").attach(alice_page)
    bob = Traffic("bob").attach(bob_page)
    register(alice_page, live, "alice")
    register(bob_page, live, "bob")

    # alice creates the table with the form (every setting on it), as seat 1 and first banker.
    alice_page.goto(f"{live.url}/vinte")
    fill_form(alice_page)
    screenshot(alice_page, "vinte-create-form-desktop")
    alice_page.get_by_role("button", name="Create the table").click()
    alice_page.wait_for_url(re.compile(r"/vinte/[^/?]+"))
    table_id = alice_page.url.split("/vinte/", 1)[1].split("?", 1)[0]
    invite = alice_page.get_by_label("Invite link").input_value()
    assert "invite=" in invite
    live.push_cards(table_id, ROUND_1)
    live.push_cards(table_id, ROUND_2)

    # The list shows the table; bob opens the invite link and takes a seat.
    bob_page.goto(f"{live.url}/vinte")
    bob_page.get_by_role("link", name=re.compile("Friday game")).wait_for()
    bob_page.goto(invite)
    bob_page.get_by_role("button", name="Take a seat").click()
    expect_text(seat_of(bob_page, 1), "bob")
    expect_text(seat_of(alice_page, 1), "bob")  # alice's page hears it on the stream
    assert bob_page.get_by_role("button", name=re.compile("^Start")).count() == 0

    # alice starts: a bot takes the empty seat and round 1 is dealt.
    alice_page.get_by_role("button", name="Start: a bot takes the empty seat").click()
    for page in (alice_page, bob_page):
        seat_of(page, 2).locator(".bot-badge").wait_for()
        expect_text(page.locator(".vt-round"), "Round 1 of 2")
    # Own hidden card face up with its marker; the others' a card back.
    bob_page.locator('.vt-seat[data-seat="1"] .own-hidden [data-card="9H"]').wait_for()
    alice_page.locator('.vt-seat[data-seat="0"] .own-hidden [data-card="6C"]').wait_for()
    assert seat_of(alice_page, 1).locator('[data-card="back"]').count() == 1
    assert seat_of(bob_page, 0).locator('[data-card="back"]').count() == 1
    assert "banker" in seat_of(bob_page, 0).get_attribute("class").split()

    # bob bets 3 with a chip button; bets stay hidden until all are in (the bot's was at once).
    bob_page.get_by_role("timer").first.wait_for()
    bob_page.get_by_role("button", name="Bet 3 chips").click()
    seat_of(alice_page, 1).get_by_role("img", name="Bet 3 chips").wait_for()
    stand = bob_page.get_by_role("button", name="Stand", exact=True)
    stand.and_(bob_page.locator(":enabled")).wait_for()
    bob_page.locator('.vt-seat[data-seat="1"] [data-card="8S"]').wait_for()
    seat_of(alice_page, 1).and_(alice_page.locator(".turn")).wait_for()  # alice sees whose turn
    screenshot(bob_page, "vinte-table-phone")

    # bob stands; the bot's 21 ends its turn; alice's turn as the banker shows her hidden card.
    mark("reveal", alice, bob)
    stand.click()
    seat_of(alice_page, 1).and_(alice_page.locator(".callable")).wait_for()
    bob_page.locator('.vt-seat[data-seat="0"] [data-card="6C"]').wait_for()
    # The bot's 21 stood: it is callable too (its cards are unknown to alice until called).
    expect_text(alice_page.locator(".vt-phase"), "Your turn as the banker")
    screenshot(alice_page, "vinte-table-desktop")

    # alice calls bob by clicking his seat: 17 beats 16; his hidden 9H is shown.
    mark("called", alice, bob)
    seat_of(alice_page, 1).click()
    alice_page.locator('.vt-seat[data-seat="1"] [data-card="9H"]').wait_for()
    alice_page.locator(".vt-highlight").wait_for()
    expect_text(
        alice_page.locator(".vt-feed"), "bob is called: 17 beats the banker's 16 and wins 3 chips"
    )

    # alice draws 7D and busts: the bot is paid, its AS stays hidden; the bank passes to bob.
    alice_page.get_by_role("button", name="Draw a card").click()
    for page in (alice_page, bob_page):
        expect_text(page.locator(".vt-round"), "Round 2 of 2")
        expect_text(page.locator(".vt-feed"), "The banker busts")
    assert "banker" in seat_of(alice_page, 1).get_attribute("class").split()
    alice_page.locator('.vt-seat[data-seat="0"] .own-hidden [data-card="4H"]').wait_for()

    # Round 2: alice lets her bet's deadline pass on the injected clock: the minimum is bet.
    alice_page.get_by_role("timer").first.wait_for()
    assert alice_page.get_by_role("button", name="Bet 1 chip").is_enabled()
    mark("natural", alice, bob)
    live.tick(DECISION_SECONDS + 1)
    for page in (alice_page, bob_page):
        page.locator(".vt-winner").wait_for()
        expect_text(page.locator(".vt-winner"), "bob wins the match!")
    alice_page.locator('.vt-seat[data-seat="1"] [data-card="AD"]').wait_for()
    expect_text(
        alice_page.locator(".vt-feed"), "bob has 21 with two cards: the bank takes every bet"
    )
    bob_page.locator(".vt-winner").scroll_into_view_if_needed()
    screenshot(alice_page, "vinte-winner-desktop")
    screenshot(bob_page, "vinte-winner-phone")

    # The rounds' records, read by each browser afterwards, are in the traffic too.
    mark("records", alice, bob)
    for page in (alice_page, bob_page):
        page.evaluate(f"() => fetch('/api/vinte/tables/{table_id}/rounds').then((r) => r.json())")
        page.evaluate(f"() => fetch('/api/vinte/tables/{table_id}').then((r) => r.json())")
        rounds = api_get(page, live, f"/api/vinte/tables/{table_id}/rounds")["rounds"]
        assert len(rounds) == 2
    view = api_get(bob_page, live, f"/api/vinte/tables/{table_id}")
    assert view["table"]["status"] == "over"
    assert view["view"]["winners"] == [1]
    assert sum(seat["stack"] for seat in view["view"]["seats"]) == 30  # chips conserved

    # Hidden cards: never before they were shown, never at all when they never were.
    for card in ("AS", "5C"):  # the bot's: paid by the bust, and under the natural
        for log in (alice, bob):
            assert not log.where(f'"{card}"'), (log.label, card, leaks(log, card))
    assert not bob.where('"4H"'), bob.where('"4H"')  # alice's under the natural
    assert alice.contains('"4H"')  # her own: shown to her
    assert not alice.where('"9H"', until="called")  # bob's, until alice called him
    assert alice.contains('"9H"', since="called")
    assert bob.contains('"9H"', until="reveal")  # his own, from the deal
    assert not bob.where('"6C"', until="reveal")  # alice's, until her turn
    assert bob.contains('"6C"', since="reveal")
    assert not alice.where('"AD"', until="natural")  # bob's, until his natural
    assert alice.contains('"AD"', since="natural")
    # The cards of the round shown to everyone are in both (the search works).
    for card in ("TD", "8S", "KH", "7D", "QS"):
        assert alice.contains(f'"{card}"') and bob.contains(f'"{card}"'), card
    for page in (alice_page, bob_page):
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
        assert real_errors(page) == []


def leaks(log: Traffic, card: str) -> list[str]:
    """Every whole message of ``log`` holding ``card`` (to tell which step leaked it)."""
    return [
        f"{item.kind} {item.where}: {item.text}" for item in log.data() if f'"{card}"' in item.text
    ]


def expect_text(locator: Any, text: str) -> None:
    """Wait until ``locator`` (its first match) shows ``text``."""
    locator.first.filter(has_text=text).wait_for()


def test_alone_with_a_bot_for_balance_the_hint_is_on_and_the_keys_play(
    live_server: LiveServer, new_page: Any
) -> None:
    live = live_server
    page = new_page("desktop", viewport=DESKTOP)
    register(page, live, "carol")
    page.goto(f"{live.url}/")
    page.get_by_role("article", name="Vinte-e-um").scroll_into_view_if_needed()
    screenshot(page, "vinte-lobby-tile-desktop", full_page=False)
    page.get_by_role("link", name="Play with friends").click()
    page.get_by_label("Seats", exact=True).fill("2")
    page.get_by_label("Round limit").fill("1")
    page.get_by_label("First banker").select_option("1")  # the bot banks: carol plays
    page.get_by_label("Play for my balance").check()  # 50 chips of 1.00: a buy-in of 50.00
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(re.compile(r"/vinte/[^/?]+"))
    table_id = page.url.split("/vinte/", 1)[1].split("?", 1)[0]
    # carol hidden 7H, the bot's hidden 9D and up card 5S (14), carol's second card 6C (13).
    live.push_cards(table_id, "7H 9D 5S 6C")
    page.get_by_role("button", name="Start: a bot takes the empty seat").click()
    expect_text(page.locator(".balance .money"), "950.00")  # the header is told at once

    # One person at the table: the hint is offered and on; it names the bot's bet.
    switch = page.get_by_role("switch", name=re.compile("Show the bot's hint"))
    assert switch.is_checked()
    hint = page.locator(".vt-hint-text")
    hint.filter(has_text=re.compile(r"^The bot would bet \d chips? here")).wait_for()
    page.keyboard.press("2")  # the second chip button: 2 chips
    seat_of(page, 0).get_by_role("img", name="Bet 2 chips").wait_for()
    hint.filter(has_text=re.compile(r"^The bot would (hit|stand) here: \d+% to win\.$")).wait_for()
    screenshot(page, "vinte-hint-desktop")
    switch.click()
    assert hint.count() == 0
    assert page.evaluate("localStorage.getItem('twentyone.vinte.hint')") == "false"
    page.keyboard.press("s")  # stand: the bot banks, and the match (one round) ends
    page.locator(".vt-winner").wait_for()
    expect_text(page.locator(".vt-feed"), "carol stands")
    final = api_get(page, live, f"/api/vinte/tables/{table_id}")["view"]["seats"][0]["stack"]
    balance = 100_000 - 5_000 + final * 100
    assert api_get(page, live, "/api/me")["balance"] == balance
    expect_text(page.locator(".balance .money"), f"{balance // 100:,}.00")
    assert real_errors(page) == []


# ------------------------------------------------------------------ a scripted table
def hand(seat: int, cards: list[str | None], bet: int, status: str, **more: Any) -> dict[str, Any]:
    return {
        "seat": seat,
        "cards": cards,
        "bet": bet,
        "bet_placed": True,
        "status": status,
        "called": False,
        "declared_21": False,
        "result": None,
        "net": 0,
        **more,
    }


def banker_turn() -> dict[str, Any]:
    """A table answer of the contract (docs/vinte-live.md): six seats, alice (seat 0) banks and
    decides; bob, a bot and eve stood, dave (away) busted, another bot was called and lost."""
    people = [("alice", False), ("bob", False), ("Bot 1", True), ("dave", False)]
    people += [("Bot 2", True), ("eve", False)]
    stacks = [41, 47, 55, 48, 52, 57]
    settings: dict[str, Any] = {"seats": 6, "stack": 50, "min_bet": 1, "max_bet": 5}
    settings |= {"bank_rounds": 3}
    settings |= {"round_limit": 10, "decision_seconds": 30, "hints": False}
    settings |= {"player_21_pays_double": False, "player_21_takes_bank": False}
    settings |= {"first_banker": None, "aces_one_only": False, "for_balance": False}
    summary = {
        "id": "vscripted",
        "name": "Saturday",
        "status": "playing",
        "creator": "alice",
        "settings": settings,
        "seats": [
            {"seat": i, "name": name, "bot": bot, "stack": stacks[i], "empty": False}
            for i, (name, bot) in enumerate(people)
        ],
        "round": 4,
        "fairness": None,
        "void_reason": None,
    }
    view = {
        "viewer": 0,
        "phase": "banker",
        "banker": 0,
        "bank_rounds_left": 2,
        "rounds_played": 3,
        "round": 4,
        "round_banker": 0,
        "seats": [
            {"seat": i, "name": name, "bot": bot, "stack": stacks[i], "in_game": True}
            | {"away": i == 3}
            for i, (name, bot) in enumerate(people)
        ],
        "hands": [
            hand(1, [None, "8S"], 3, "stood"),
            hand(2, [None, "KH"], 5, "stood"),
            hand(3, ["9C", "5D", "TH"], 2, "bust", result="bust", net=-2),
            hand(4, ["7S", "9H"], 1, "settled", called=True, result="lose", net=-1),
            hand(5, [None, "4C", "6D"], 4, "stood"),
        ],
        "banker_cards": ["6C", "TD"],
        "turn": None,
        "to_act": [0],
        "deadline": NOW + 20,
        "legal": ["draw", "call 1", "call 2", "call 5"],
        "history": [{"kind": "round", "number": 4, "banker": 0, "order": [1, 2, 3, 4, 5]}],
        "winners": [],
    }
    return {"table": summary, "seat": 0, "step": 40, "now": NOW, "invite": None, "view": view}


class ScriptedVinte:
    """The table's routes answered by the test (Playwright routing): each state the page draws
    is one the test wrote; the requests it makes are recorded."""

    def __init__(self, page: Any, answer: dict[str, Any]) -> None:
        self.answer = answer
        self.sockets: list[Any] = []
        self.requests: list[tuple[str, str, Any]] = []
        page.route(re.compile(r".*/api/vinte/.*"), self._http)
        page.route_web_socket(re.compile(r".*/api/vinte/tables/.*/stream"), self._socket)

    def _http(self, route: Any) -> None:
        request = route.request
        path = "/" + request.url.split("://", 1)[1].split("/", 1)[1]
        if request.method != "GET":
            self.requests.append((request.method, path, json.loads(request.post_data or "{}")))
        route.fulfill(status=200, json=self.answer)

    def _socket(self, socket: Any) -> None:
        self.sockets.append(socket)
        socket.on_message(lambda message: None)
        socket.send(json.dumps({"type": "state", "seq": self.answer["step"], **self._frame()}))

    def _frame(self) -> dict[str, Any]:
        keys = ("now", "seat", "table", "view")
        return {key: self.answer[key] for key in keys}

    def publish(self, answer: dict[str, Any], events: list[dict[str, Any]]) -> None:
        self.answer = copy.deepcopy(answer)
        frame = {"type": "state", "seq": answer["step"], "events": events, **self._frame()}
        for socket in self.sockets:
            socket.send(json.dumps(frame))


ACTIONS = "/api/vinte/tables/vscripted/actions"


def posted(page: Any, scripted: ScriptedVinte, do: Any) -> Any:
    """The JSON body of the action that ``do()`` makes the page post (Playwright dispatches
    the routes while it waits, so the test waits for the request to arrive)."""
    before = len(scripted.requests)
    do()
    for _ in range(200):
        if len(scripted.requests) > before:
            method, path, body = scripted.requests[-1]
            assert (method, path) == ("POST", ACTIONS)
            return body
        page.wait_for_timeout(25)
    raise AssertionError("the page posted no action")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_banker_calls_by_clicking_a_seat_and_an_away_seat_comes_back(
    live_server: LiveServer, new_page: Any, size: str
) -> None:
    viewport = DESKTOP if size == "desktop" else PHONE
    page = new_page(size, viewport=viewport)
    register(page, live_server, f"alice{size}")
    state = banker_turn()
    state["table"]["seats"][0]["name"] = state["view"]["seats"][0]["name"] = f"alice{size}"
    state["table"]["creator"] = f"alice{size}"
    scripted = ScriptedVinte(page, state)
    page.goto(f"{live_server.url}/vinte/vscripted")
    seat_of(page, 5).wait_for()
    # Badges: the bots, the away seat, the bank; the others' hidden cards are backs.
    for seat in (2, 4):
        assert seat_of(page, seat).locator(".bot-badge").count() == 1
    assert seat_of(page, 3).locator(".away-badge").count() == 1
    assert seat_of(page, 0).locator(".banker-badge").count() == 1
    assert seat_of(page, 5).locator('[data-card="back"]').count() == 1
    assert seat_of(page, 3).locator('[data-card="back"]').count() == 0  # a bust shows all
    expect_text(seat_of(page, 5), "10 showing")
    expect_text(seat_of(page, 0), "16")
    assert page.get_by_role("timer").count() == 1  # the banker's decision
    # Only the seats that can be called are buttons.
    callable_seats = page.locator("button.vt-seat")
    assert sorted(
        int(s) for s in callable_seats.evaluate_all("(els) => els.map((e) => e.dataset.seat)")
    ) == [1, 2, 5]
    screenshot(page, f"vinte-banker-six-seats-{size}")
    if size == "phone":
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        return
    assert posted(page, scripted, seat_of(page, 5).click) == {
        "action": "call",
        "target": 5,
        "step": 40,
    }
    page.get_by_role("button", name="Draw a card").and_(page.locator(":enabled")).wait_for()
    assert posted(page, scripted, lambda: page.keyboard.press("d")) == {
        "action": "draw",
        "step": 40,
    }
    assert [path for _, path, _ in scripted.requests] == [ACTIONS, ACTIONS]

    # The showdown comes on the stream: highlighted, and said in the feed.
    shown = copy.deepcopy(state)
    shown["step"] = 41
    eve = shown["view"]["hands"][4]
    eve.update(cards=["QC", "4C", "6D"], status="settled", called=True, result="win", net=4)
    shown["view"]["legal"] = ["draw", "call 1", "call 2"]
    call = {"kind": "call", "seat": 5, "cards": ["QC", "4C", "6D"], "total": 20}
    call |= {"banker_total": 16, "result": "win", "net": 4}
    scripted.publish(shown, [call])
    page.locator(".vt-highlight").filter(has_text="eve against the bank: 20 to 16").wait_for()
    expect_text(page.locator(".vt-feed"), "eve is called: 20 beats the banker's 16 and wins 4")
    assert "flash" in seat_of(page, 5).get_attribute("class").split()

    # Away (three deadlines missed): the bot plays the seat until "I am back".
    away = copy.deepcopy(shown)
    away["step"] = 42
    away["view"]["seats"][0]["away"] = True
    away["view"]["legal"] = ["back"]
    away["view"]["to_act"] = []
    scripted.publish(away, [{"kind": "away", "seat": 0}])
    seat_of(page, 0).locator(".away-badge").wait_for()
    back = page.get_by_role("button", name="I am back")
    assert posted(page, scripted, back.click) == {"action": "back", "step": 42}
    assert real_errors(page) == []
