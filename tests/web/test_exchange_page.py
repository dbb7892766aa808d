"""The live Exchange Blackjack page (/exchange/{id}) in Chromium.

Two kinds of test:
- against a scripted table (:class:`ScriptedExchange`): the page's own behaviour, with the
  table's HTTP routes and its WebSocket answered by the test (Playwright routing), so every
  state the page draws is one the test wrote (docs/exchange-live.md's shapes): the market's
  prices and colours, the bet slip and what it sends, the stream's messages applied in order,
  the resync on a seq gap, the progress bar from the server's time, screenshots at both sizes;
- against the real server (``live_server``): a user backs one selection and lays another
  against the house market maker, watches the window's bar and the cards, an early settlement
  and the final one, and the balance moves by exactly the ledger's amounts; every frame and
  response is recorded and no card or seed appears before its reveal.
"""

from __future__ import annotations

import asyncio
import copy
import json
import re
from typing import Any

import pytest

from tests.web.conftest import LiveServer, page_errors, register, screenshot

TABLE = "exchange-1"
NOW = 1_800_000_000.0
SELECTIONS = [
    "Player 1",
    "Player 2",
    "Player 3",
    "Player 4",
    "Dealer wins or ties all",
    "One or more has 5 cards",
    "All cards unique",
    "Only one has 21pts",
]
PLAYERS = SELECTIONS[:4]


def tick(live: LiveServer, seconds: float) -> None:
    """Move the server's clock and process what is due, then let the exchange tables finish the
    fair prices they started in the analysis worker and process again: a table's tick never
    waits for the odds (docs/exchange-live.md), so without this the next window would open at
    some later tick, depending on how fast the worker is."""

    async def settle() -> None:
        service = live.server.services["exchange"]
        pending = [t.fair_task for t in service.tables.values() if t.fair_task is not None]
        if pending:
            await asyncio.wait(pending)

    live.tick(seconds)
    live.call(settle)
    live.tick(0)


# ------------------------------------------------------------------ a scripted table


def selection(name: str, **changes: Any) -> dict[str, Any]:
    """A selection of the public state, quoted by the house around a fair price of 2.27."""
    state: dict[str, Any] = {
        "name": name,
        "status": "open",
        "fair_price": "2.273",
        "back": [["2.2", 2000], ["2.18", 500], ["2.1", 300]],
        "lay": [["2.36", 2000], ["2.4", 700]],
        "house": {"back": [["2.2", 2000]], "lay": [["2.36", 2000]]},
        "matched": 0,
        "result": None,
        "settled_round": None,
    }
    state.update(changes)
    return state


def table_state(**changes: Any) -> dict[str, Any]:
    """A public state of the contract (round 2 open, nine cards turned), ``changes`` applied."""
    state: dict[str, Any] = {
        "id": TABLE,
        "name": "Exchange",
        "turbo": False,
        "seq": 40,
        "game": 12,
        "state": "open",
        "phase": "betting",
        "round": 2,
        "window_closes_at": NOW + 20,
        "window_seconds": 25.0,
        "pause_ends_at": None,
        "now": NOW,
        "schedule": {"first_round": 30.0, "later_rounds": 25.0, "pause": 3.0},
        "commitment": "9f" * 32,
        "client_seed": TABLE,
        "min_stake": 200,
        "commission_percent": "5",
        "hands": [
            {"name": "Player 1", "cards": ["TS", "6H"], "total": 16, "soft": False},
            {"name": "Player 2", "cards": ["AS", "9D"], "total": 20, "soft": True},
            {"name": "Player 3", "cards": ["8C", "8H"], "total": 16, "soft": False},
            {"name": "Player 4", "cards": ["KD", "QC"], "total": 20, "soft": False},
        ],
        "dealer": {"name": "Dealer", "cards": ["7C"], "total": 7, "soft": False},
        "selections": [selection(name) for name in SELECTIONS],
        "void_reason": None,
    }
    state.update(changes)
    return state


def position(**changes: Any) -> dict[str, Any]:
    """The caller's position (GET /api/exchange/orders?table=) with nothing in it."""
    answer: dict[str, Any] = {
        "table": TABLE,
        "game": 12,
        "balance": 100000,
        "hold": 0,
        "open": [],
        "orders": [],
        "matched": [],
        "pnl": {},
        "pnl_after_commission": {},
        "settled_net": 0,
        "commission": 0,
    }
    answer.update(changes)
    return answer


class ScriptedExchange:
    """The exchange routes answered by the test; requests recorded in ``requests``."""

    def __init__(self, page: Any, state: dict[str, Any]) -> None:
        self.page = page
        self.state = state
        self.position = position()
        self.games: list[dict[str, Any]] = []
        self.sockets: list[Any] = []
        self.requests: list[tuple[str, str, Any]] = []
        self.gets = 0
        self.answers: dict[str, tuple[int, Any]] = {}
        page.route(re.compile(r".*/api/exchange/.*"), self._http)
        page.route_web_socket(re.compile(r".*/api/exchange/tables/.*/stream"), self._socket)

    @property
    def seq(self) -> int:
        return int(self.state["seq"])

    def _http(self, route: Any) -> None:
        request = route.request
        path = "/" + request.url.split("://", 1)[1].split("/", 1)[1]
        body = json.loads(request.post_data) if request.post_data else None
        if request.method == "GET":
            if path.startswith("/api/exchange/orders"):
                route.fulfill(status=200, json=self.position)
            elif re.search(r"/games(\?|$)", path):
                route.fulfill(status=200, json={"games": self.games, "next": None})
            elif "/games/" in path:
                route.fulfill(status=200, json=self.answers.get("GET game", (200, {}))[1])
            else:
                self.gets += 1
                route.fulfill(status=200, json=self.state)
            return
        self.requests.append((request.method, path, body))
        status, answer = self.answers.get(f"{request.method} {path.split('?')[0]}", (201, {}))
        route.fulfill(status=status, json=answer)

    def _socket(self, socket: Any) -> None:
        self.sockets.append(socket)
        socket.on_message(lambda message: None)
        socket.send(json.dumps({"type": "state", "seq": self.seq, "table": self.state}))

    def send(self, message: dict[str, Any], skip: int = 0) -> None:
        """A public message with the next seq (``skip`` messages lost on the way); the state
        the test keeps for GETs is updated by ``apply`` in the test itself."""
        self.state["seq"] = self.seq + 1 + skip
        frame = {"table": TABLE, "game": self.state["game"], "at": NOW, **message}
        frame["seq"] = self.seq
        for socket in self.sockets:
            socket.send(json.dumps(frame))

    def private(self, **message: Any) -> None:
        for socket in self.sockets:
            socket.send(json.dumps({"type": "private", "seq": self.seq, **message}))


def open_table(page: Any, live: LiveServer, state: dict[str, Any]) -> ScriptedExchange:
    scripted = ScriptedExchange(page, state)
    page.goto(f"{live.url}/exchange/{TABLE}")
    page.locator(".ex-market .ex-row").first.wait_for()
    return scripted


def row(page: Any, name: str) -> Any:
    return page.locator(f'.ex-row[data-selection="{name}"]')


def cell(page: Any, name: str, side: str, rank: int) -> Any:
    return row(page, name).locator(f'.ex-price[data-side="{side}"][data-rank="{rank}"]')


def bar_width(page: Any) -> float:
    """The progress bar's fill, in percent of the bar."""
    style = page.locator('[data-testid="window-bar"] .countdown-fill').get_attribute("style")
    match = re.search(r"width:\s*([0-9.]+)%", style or "")
    assert match, style
    return float(match.group(1))


def expect_text(locator: Any, text: str | re.Pattern[str]) -> None:
    from playwright.sync_api import expect

    expect(locator).to_contain_text(text)


def wait_until(page: Any, condition: Any, tries: int = 200) -> None:
    """Let the page's routes run (Playwright dispatches them while it waits) until ``condition``."""
    for _ in range(tries):
        if condition():
            return
        page.wait_for_timeout(25)
    raise AssertionError("the page did not do what was expected")


def real_errors(page: Any) -> list[str]:
    """The page's script errors, less the browser's own line for each 4xx answer (a
    spectator's 401 from /api/me, a refusal the test asked for): those are shown in place."""
    return [e for e in page_errors(page) if "responded with a status of 4" not in e]


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page scrolls sideways: {width}"


# ------------------------------------------------------------------ scripted-table tests
@pytest.mark.parametrize(
    ("size", "viewport"),
    [("desktop", None), ("phone", None), ("desktop", (1280, 800)), ("phone", (390, 844))],
)
def test_a_spectator_sees_the_hands_and_the_market(
    live_server: LiveServer, new_page: Any, size: str, viewport: tuple[int, int] | None
) -> None:
    options = (
        {} if viewport is None else {"viewport": {"width": viewport[0], "height": viewport[1]}}
    )
    page = new_page(size, **options)
    open_table(page, live_server, table_state())
    assert page.locator(".ex-row").count() == 8
    # Back prices: best (highest) nearest the middle; lay: best (lowest) nearest the middle.
    assert cell(page, "Player 2", "back", 1).get_attribute("data-price") == "2.2"
    assert cell(page, "Player 2", "back", 3).get_attribute("data-price") == "2.1"
    assert cell(page, "Player 2", "lay", 1).get_attribute("data-price") == "2.36"
    assert cell(page, "Player 2", "lay", 3).get_attribute("data-price") == ""  # none offered
    boxes = [cell(page, "Player 2", "back", r).bounding_box()["x"] for r in (3, 2, 1)]
    boxes += [cell(page, "Player 2", "lay", r).bounding_box()["x"] for r in (1, 2, 3)]
    assert boxes == sorted(boxes), boxes
    expect_text(cell(page, "Player 2", "back", 1), "20")  # its size, 20.00
    assert "house market maker" in (cell(page, "Player 2", "back", 1).get_attribute("aria-label"))
    colours = {
        side: cell(page, "Player 1", side, 1).evaluate("e => getComputedStyle(e).backgroundColor")
        for side in ("back", "lay")
    }
    assert colours == {"back": "rgb(166, 216, 255)", "lay": "rgb(250, 201, 209)"}
    expect_text(row(page, "Player 1"), "2.273")  # the fair price
    # The cards: nine face up, the dealer's second face down; the bar runs.
    assert page.locator('.ex-felt .card:not([data-card="back"])').count() == 9
    assert page.locator('.ex-felt .card[data-card="back"]').count() == 1
    assert page.get_by_role("timer").count() == 1
    expect_text(page.locator(".ex-slip"), "Sign in")
    expect_text(page.locator(".ex-fair"), "9f9f")
    if size == "phone":
        no_sideways_scroll(page)
    screenshot(
        page, f"exchange-spectator-{size}" + (f"-{viewport[0]}x{viewport[1]}" if viewport else "")
    )
    if viewport is None and size == "desktop":  # a visitor's click on a price: sign in first
        cell(page, "Player 1", "back", 1).click()
        page.wait_for_url(re.compile(r"/login\?next=%2Fexchange%2Fexchange-1$"))
    assert real_errors(page) == []


def test_a_price_fills_the_slip_and_one_click_places_the_order(
    live_server: LiveServer, new_page: Any
) -> None:
    page = new_page("desktop")
    register(page, live_server, "alice")
    scripted = open_table(page, live_server, table_state())
    cell(page, "Player 2", "back", 1).click()
    slip = page.get_by_test_id("bet-slip")
    assert slip.locator('input[name="price"]').input_value() == "2.2"
    # The stake has the focus: typing replaces it, Enter places.
    page.keyboard.press("Control+a")
    page.keyboard.type("10")
    expect_text(page.get_by_test_id("slip-sum"), "Profit if it wins 12.00")
    # Ladder steps: 2.2 -> 2.22 -> 2.2 (the band's step is 0.02).
    slip.get_by_role("button", name="One step higher").click()
    assert slip.locator('input[name="price"]').input_value() == "2.22"
    slip.get_by_role("button", name="One step lower").click()
    assert slip.locator('input[name="price"]').input_value() == "2.2"
    order = {"id": 31, "status": "matched", "matched": 1000, "remaining": 0}
    scripted.answers["POST /api/exchange/orders"] = (201, order)
    slip.locator('input[name="stake"]').press("Enter")
    wait_until(page, lambda: len(scripted.requests) == 1)
    method, path, body = scripted.requests[0]
    assert (method, path) == ("POST", "/api/exchange/orders")
    ref = body.pop("ref")
    assert re.fullmatch(r"web-[0-9a-f]{24}", ref), ref
    assert body == {
        "table": TABLE,
        "game": 12,
        "round": 2,
        "selection": "Player 2",
        "side": "back",
        "price": "2.2",
        "size": 1000,
    }
    # A lay from the lay column: the liability is shown; a price off the ladder is refused here.
    cell(page, "Player 4", "lay", 1).click()
    assert slip.locator('input[name="price"]').input_value() == "2.36"
    expect_text(page.get_by_test_id("slip-sum"), "Liability if it wins")
    slip.locator('input[name="price"]').fill("2.37")
    expect_text(page.get_by_test_id("slip-sum"), "on the ladder")
    assert slip.locator('button[type="submit"]').is_disabled()
    slip.locator('input[name="price"]').fill("2.38")
    slip.locator('input[name="stake"]').fill("5")
    expect_text(page.get_by_test_id("slip-sum"), "Liability if it wins 6.90")
    # A refusal is shown in the slip, in the server's words.
    scripted.answers["POST /api/exchange/orders"] = (
        422,
        {"error": "the order needs 6.90 held but only 5.00 is free"},
    )
    slip.get_by_role("button", name=re.compile("^Lay Player 4 at 2.38")).click()
    expect_text(slip.get_by_role("alert"), "The order needs 6.90 held")
    assert scripted.requests[-1][2]["side"] == "lay"
    assert scripted.requests[-1][2]["ref"] != ref  # a new order, a new reference
    page.keyboard.press("Escape")  # clears the slip (the focus is not in a field after the click)
    expect_text(page.locator(".ex-slip"), "Click a price")
    # The keyboard alone: a price cell takes Enter, the stake gets the focus, Enter places.
    cell(page, "Only one has 21pts", "back", 2).focus()
    page.keyboard.press("Enter")
    assert slip.locator('input[name="price"]').input_value() == "2.18"
    # The focus moves once the slip has been drawn again: wait for it, not for a fixed time.
    wait_until(page, lambda: page.evaluate("document.activeElement.name") == "stake")
    scripted.answers["POST /api/exchange/orders"] = (201, order)
    page.keyboard.press("Enter")
    wait_until(page, lambda: scripted.requests[-1][2]["selection"] == "Only one has 21pts")
    assert scripted.requests[-1][2]["price"] == "2.18"
    assert real_errors(page) == []


def test_open_and_matched_bets_cancel_and_profit_per_outcome(
    live_server: LiveServer, new_page: Any
) -> None:
    page = new_page("desktop")
    register(page, live_server, "bea")
    scripted = ScriptedExchange(page, table_state())
    scripted.position = position(
        open=[
            {
                "id": 40,
                "selection": "Player 3",
                "side": "lay",
                "price": "3.5",
                "size": 1000,
                "matched": 400,
                "remaining": 600,
                "status": "open",
            }
        ],
        matched=[
            {
                "order": 31,
                "selection": "Player 2",
                "side": "back",
                "price": "2.2",
                "stake": 1000,
                "round": 2,
                "status": "matched",
                "house": True,
            },
            {
                "order": 40,
                "selection": "Player 3",
                "side": "lay",
                "price": "3.5",
                "stake": 400,
                "round": 2,
                "status": "matched",
                "house": True,
            },
        ],
        pnl={
            "Player 2": {"winner": 1200, "tied": 100, "loser": -1000},
            "Player 3": {"winner": -1000, "tied": -300, "loser": 400},
        },
        pnl_after_commission={
            "Player 2": {"winner": 1140, "tied": 95, "loser": -1000},
            "Player 3": {"winner": -1000, "tied": -300, "loser": 380},
        },
    )
    page.goto(f"{live_server.url}/exchange/{TABLE}")
    bets = page.locator(".ex-bets")
    expect_text(bets.get_by_test_id("open-orders"), "6.00 unmatched of 10.00")
    expect_text(bets.get_by_test_id("matched-bets"), "stake 10.00, profit 12.00")
    expect_text(bets.get_by_test_id("matched-bets"), "backer's stake 4.00, liability 10.00")
    where = page.get_by_test_id("position")
    expect_text(where, "If Player 2 wins: +12.00")
    expect_text(where, "after commission +11.40")
    expect_text(where, "If Player 3 loses: +4.00")
    expect_text(where, "If Player 2 ties (dead heat): +1.00")
    expect_text(row(page, "Player 2"), "win +12.00")
    # Cancel part, then the rest.
    bets.get_by_label("Amount to cancel").fill("2.5")
    bets.get_by_role("button", name="Cancel part").click()
    wait_until(page, lambda: len(scripted.requests) == 1)
    assert scripted.requests[0][:2] == ("DELETE", "/api/exchange/orders/40?size=250")
    bets.get_by_label("Amount to cancel").fill("")
    bets.get_by_role("button", name="Cancel", exact=True).click()
    wait_until(page, lambda: len(scripted.requests) == 2)
    assert scripted.requests[1][:2] == ("DELETE", "/api/exchange/orders/40")
    screenshot(page, "exchange-bets-desktop")
    assert real_errors(page) == []


def test_the_stream_turns_cards_settles_early_and_resyncs_on_a_gap(
    live_server: LiveServer, new_page: Any
) -> None:
    page = new_page("desktop", reduced_motion="no-preference")  # the cards' turn is drawn
    start = table_state(
        round=1,
        window_closes_at=NOW + 30,
        window_seconds=30.0,
        hands=[{"name": n, "cards": [], "total": 0, "soft": False} for n in PLAYERS],
        dealer={"name": "Dealer", "cards": [], "total": 0, "soft": False},
    )
    scripted = open_table(page, live_server, start)
    # Round 1: ten cards face down, none face up.
    assert page.locator('.ex-felt .card[data-card="back"]').count() == 10
    # A book message: one selection's prices change in place.
    scripted.send(
        {
            "type": "book",
            "round": 1,
            "selections": [selection("Player 1", back=[["2.24", 1500]], matched=500)],
        }
    )
    expect_text(cell(page, "Player 1", "back", 1), "2.24")
    expect_text(row(page, "Player 1"), "5 matched")
    # The window ends: every selection is suspended, the books empty.
    scripted.send({"type": "window-end", "round": 1})
    expect_text(row(page, "Player 1"), "Suspended")
    assert cell(page, "Player 1", "back", 1).get_attribute("data-price") == ""
    assert cell(page, "Player 1", "back", 1).is_disabled()
    # The reveal: nine cards turn over (the same card elements, now face up).
    hands = copy.deepcopy(table_state()["hands"])
    hands[2] = {"name": "Player 3", "cards": ["8C", "8H"], "total": 16, "soft": False}
    dealer = {"name": "Dealer", "cards": ["7C"], "total": 7, "soft": False}
    first = page.locator('.ex-hand[data-hand="Player 1"] .card').first
    handle = first.element_handle()
    page.evaluate(
        """() => {
        window.__turning = {max: 0, names: []};
        new MutationObserver(() => {
          const now = document.querySelectorAll('.ex-felt .ex-card.turning');
          window.__turning.max = Math.max(window.__turning.max, now.length);
          for (const e of now) {
            const name = getComputedStyle(e).animationName;
            if (!window.__turning.names.includes(name)) window.__turning.names.push(name);
          }
        }).observe(document.body, {subtree: true, attributes: true, attributeFilter: ["class"]});
      }"""
    )
    scripted.send(
        {
            "type": "reveal",
            "after_round": 1,
            "cards": [{"hand": "Player 1", "card": "TS"}],
            "hands": hands,
            "dealer": dealer,
        }
    )
    expect_text(page.locator(".ex-feed"), "Cards turned")
    assert page.locator('.ex-felt .card:not([data-card="back"])').count() == 9
    assert handle.get_attribute("data-card") == "TS"  # turned over, not replaced
    # Each turned over (seen by the observer set up before the reveal), then settled.
    wait_until(page, lambda: page.evaluate("window.__turning.max") == 9)
    assert page.evaluate("window.__turning.names") == ["ex-flip"]
    page.locator(".ex-felt .ex-card.turning").first.wait_for(state="detached", timeout=3000)
    # An early settlement: shown at once, in the row, on the felt and in the feed.
    settled = [
        selection(
            "All cards unique", status="lost", result="loser", settled_round=1, back=[], lay=[]
        )
    ]
    scripted.send(
        {
            "type": "settlement",
            "after_round": 1,
            "settled": {"All cards unique": "loser"},
            "early": True,
            "selections": settled,
        }
    )
    expect_text(page.get_by_test_id("settlement-flash"), "Early settlement")
    expect_text(page.get_by_test_id("settlement-flash"), "All cards unique: Lost")
    expect_text(row(page, "All cards unique"), "after round 1")
    # A message lost on the way: the page reads the whole state again.
    gets = scripted.gets
    later = table_state(seq=scripted.seq)  # what a GET answers once the message is sent
    later["selections"][6] = settled[0]
    scripted.state = later
    scripted.send(
        {
            "type": "window-start",
            "round": 2,
            "window_closes_at": NOW + 25,
            "window_seconds": 25.0,
            "selections": later["selections"],
        },
        skip=1,
    )
    wait_until(page, lambda: scripted.gets > gets)
    expect_text(page.get_by_test_id("round-line"), "Betting round 2")
    # A void: the game is closed, its unsettled selections void, the reason shown.
    scripted.send({"type": "void", "reason": "the stored game could not be read"})
    expect_text(page.get_by_test_id("round-line"), "Game 12 is void")
    expect_text(page.get_by_test_id("settlement-flash"), "the stored game could not be read")
    expect_text(row(page, "Player 2"), "Void")
    expect_text(row(page, "All cards unique"), "Lost")  # settled before the void: it stands
    assert real_errors(page) == []


def test_the_progress_bar_follows_the_server_clock(live_server: LiveServer, new_page: Any) -> None:
    page = new_page("desktop")
    # The browser's own clock says nothing here: the server's `now` is 2027 on a manual clock.
    scripted = open_table(page, live_server, table_state(window_closes_at=NOW + 20))
    width = bar_width(page)
    assert 75 <= width <= 80.5, width  # 20 of 25 seconds left (less the test's own time)
    expect_text(page.get_by_role("timer"), re.compile(r"(19|20) s"))
    # A later message of the server, 10 s on its clock: 10 of 25 seconds left.
    scripted.send({"type": "book", "round": 2, "selections": [], "at": NOW + 10})
    wait_until(page, lambda: bar_width(page) < 45)
    assert 35 <= bar_width(page) <= 40.5
    # The window closes: the bar shows it closed, whatever the browser's clock says.
    scripted.send({"type": "window-end", "round": 2, "at": NOW + 20})
    expect_text(page.locator(".ex-window"), "closed")
    assert bar_width(page) == 0


def test_a_finished_game_shows_its_results_and_verifies_in_the_browser(
    live_server: LiveServer, new_page: Any
) -> None:
    from twentyone.fairness import commitment

    page = new_page("phone")
    seed = "ab" * 32
    # The cards of an infinite deck from this seed, as the server would record them.
    cards = page_cards(live_server, seed, 14)
    scripted = ScriptedExchange(page, table_state())
    scripted.games = [
        {
            "game": 11,
            "state": "settled",
            "results": {name: ("winner" if name == "Player 4" else "loser") for name in SELECTIONS},
            "commitment": commitment(seed),
            "server_seed": seed,
            "void_reason": None,
        }
    ]
    scripted.answers["GET game"] = (
        200,
        {
            "table": TABLE,
            "game": 11,
            "state": "settled",
            "hands": [
                {"name": n, "cards": cards[2 * i : 2 * i + 2]} for i, n in enumerate(PLAYERS)
            ],
            "dealer": {"name": "Dealer", "cards": cards[8:10]},
            "fairness": {
                "server_seed": seed,
                "commitment": commitment(seed),
                "client_seed": TABLE,
                "nonce": 0,
                "decks": None,
                "position": 0,
                "cards": cards,
                "scripted": False,
            },
        },
    )
    page.goto(f"{live_server.url}/exchange/{TABLE}")
    game = page.locator('.ex-game[data-game="11"]')
    expect_text(game, "Player 4")
    game.locator("summary").click()
    game.get_by_role("button", name="Verify in the browser").click()
    verdict = game.get_by_test_id("verdict")
    expect_text(verdict, "Verified in your browser")
    assert verdict.get_attribute("data-ok") == "true"
    no_sideways_scroll(page)
    screenshot(page, "exchange-games-phone")


def page_cards(live: LiveServer, seed: str, count: int) -> list[str]:
    """The first ``count`` cards of the infinite deck from ``seed`` (the table's client seed)."""
    from twentyone.fairness import infinite_cards

    return [str(card) for card in infinite_cards(seed, TABLE, 0, count)]


# ------------------------------------------------------------------ the real server
#: Game 1 of `exchange-1`, in the order the cards are turned (P1's two, P2's, P3's, P4's, the
#: dealer's first, then the draws): P1 TS 6H (16, hits 9C: bust), P2 AS 9D (soft 20), P3 TS QD
#: (20: a second TS, so "All cards unique" loses at the first reveal), P4 KC 8S (18), dealer
#: 7C then TD (17, stands). Round 1 settles "All cards unique" early, round 2 Player 1; round 3
#: ends the game: Players 2, 3 and 4 win.
GAME_CARDS = "TS 6H AS 9D TS QD KC 8S 7C 9C TD"
#: Back Player 2 10.00 at 2.06 (+10.60), lay Player 4 5.00 at 2.12 (-5.60): +5.00 on the game,
#: 5% commission 0.25, so +4.75 in all (exchange-market.md; the house quotes 2.06 / 2.12 around
#: the fair 2.081 of a player hand before any card is shown).
EXPECTED_NET = 1060 - 560 - 25


@pytest.fixture
def exchange_server(tmp_path: Any) -> Any:
    """A live server whose first `exchange-1` game has :data:`GAME_CARDS` (queued before the
    server starts, so the table's first game takes them)."""
    from tests.web.conftest import start_live_server
    from twentyone.cards import parse_cards
    from twentyone.server.config import CardScript

    script = CardScript()
    script.push(TABLE, parse_cards(GAME_CARDS))
    running = start_live_server(tmp_path / "live.db", card_script=script)
    try:
        yield running
    finally:
        running.stop()


def public_state(live: LiveServer) -> dict[str, Any]:
    import urllib.request

    with urllib.request.urlopen(f"{live.url}/api/exchange/tables/{TABLE}") as answer:
        return dict(json.loads(answer.read()))


def balance_shown(page: Any) -> str:
    return str(page.get_by_test_id("exchange-balance").inner_text())


def test_a_user_backs_and_lays_against_the_house_through_a_whole_game(
    exchange_server: LiveServer, new_page: Any
) -> None:
    from tests.web.conftest import api_get
    from tests.web.traffic import Traffic, card_tokens
    from twentyone.fairness import commitment

    live = exchange_server
    page = new_page("desktop")
    register(page, live, "alice")
    watcher = new_page("phone")  # a spectator on a phone, recorded as well
    traffic = Traffic("alice").attach(page)
    watched = Traffic("spectator").attach(watcher)
    page.goto(f"{live.url}/exchange/{TABLE}")
    watcher.goto(f"{live.url}/exchange/{TABLE}")
    for p in (page, watcher):
        p.locator(".ex-market .ex-row").first.wait_for()
        expect_text(p.get_by_test_id("round-line"), "Betting round 1")
    start = public_state(live)
    assert start["game"] == 1 and start["round"] == 1
    assert page.locator('.ex-felt .card[data-card="back"]').count() == 10
    before = api_get(page, live, "/api/me")["balance"]
    assert balance_shown(page) == "1,000.00" and before == 100000

    # The bar starts full (30 s of 30) and runs on the server's clock: 12 s on, the next
    # message (the book after our order) carries the server's time and the bar is at 60%.
    assert bar_width(page) > 85  # less the seconds this test has taken in real time
    tick(live, 12)

    # Back Player 2 at the best price offered (the house's lay at 2.06), 10.00.
    assert cell(page, "Player 2", "back", 1).get_attribute("data-price") == "2.06"
    cell(page, "Player 2", "back", 1).click()
    page.keyboard.press("Control+a")
    page.keyboard.type("10")
    expect_text(page.get_by_test_id("slip-sum"), "Profit if it wins 10.60")
    page.keyboard.press("Enter")
    bets = page.locator(".ex-bets")
    expect_text(bets.get_by_test_id("matched-bets"), "Back Player 2 at 2.06")
    expect_text(bets.get_by_test_id("matched-bets"), "vs the house")
    wait_until(page, lambda: bar_width(page) < 62)
    assert 45 <= bar_width(page) <= 61, bar_width(page)
    # Lay Player 4 at the best price to lay (the house's back at 2.12), 5.00.
    assert cell(page, "Player 4", "lay", 1).get_attribute("data-price") == "2.12"
    cell(page, "Player 4", "lay", 1).click()
    page.keyboard.press("Control+a")
    page.keyboard.type("5")
    expect_text(page.get_by_test_id("slip-sum"), "Liability if it wins 5.60")
    page.keyboard.press("Enter")
    expect_text(bets.get_by_test_id("matched-bets"), "Lay Player 4 at 2.12")
    where = page.get_by_test_id("position")
    expect_text(where, "If Player 2 wins: +10.60")
    expect_text(where, "If Player 4 wins: -5.60")
    expect_text(row(page, "Player 2"), "win +10.60")
    # The money held for the worst case left the balance shown (the header's too).
    held = api_get(page, live, f"/api/exchange/orders?table={TABLE}")
    expect_text(page.get_by_test_id("exchange-balance"), "")
    wait_until(page, lambda: balance_shown(page) != "1,000.00")
    assert api_get(page, live, "/api/me")["balance"] == held["balance"] < before
    screenshot(page, "exchange-live-round1-desktop")
    screenshot(watcher, "exchange-live-round1-phone")

    # Round 1 closes: nine cards turn over and "All cards unique" settles early (two TS).
    traffic.mark("round 1 closed")
    watched.mark("round 1 closed")
    tick(live, 18)
    for p in (page, watcher):
        p.wait_for_function(
            "document.querySelectorAll('.ex-felt .card:not([data-card=back])').length === 9"
        )
        expect_text(row(p, "All cards unique"), "Lost")
    expect_text(page.get_by_test_id("settlement-flash"), "Early settlement")
    expect_text(page.get_by_test_id("settlement-flash"), "All cards unique: Lost")
    assert page.locator('.ex-hand[data-hand="Player 3"] .card[data-card="QD"]').count() == 1
    expect_text(page.get_by_test_id("round-line"), "Round 1 closed")

    # Round 2 after the pause; at its end Player 1 hits 9C and busts: settled at once.
    tick(live, 3)
    expect_text(page.get_by_test_id("round-line"), "Betting round 2")
    assert bar_width(page) > 90  # a fresh 25 s window
    traffic.mark("round 2 closed")
    watched.mark("round 2 closed")
    tick(live, 25)
    expect_text(row(page, "Player 1"), "Lost")
    expect_text(page.get_by_test_id("settlement-flash"), "Player 1: Lost")
    assert page.locator('.ex-hand[data-hand="Player 1"] .card[data-card="9C"]').count() == 1
    screenshot(page, "exchange-live-round2-desktop")
    screenshot(watcher, "exchange-live-round2-phone")

    # Round 3; at its end the dealer's second card (TD: 17) settles everything.
    tick(live, 3)
    expect_text(page.get_by_test_id("round-line"), "Betting round 3")
    traffic.mark("round 3 closed")
    watched.mark("round 3 closed")
    tick(live, 25)
    expect_text(page.get_by_test_id("settlement-flash"), "Final result")
    for name in ("Player 2", "Player 3", "Player 4"):
        expect_text(row(page, name), "Won")
    expect_text(row(page, "Dealer wins or ties all"), "Lost")
    assert page.locator('.ex-hand.dealer .card[data-card="TD"]').count() == 1

    # The balance moved by exactly the ledger's amounts: +10.60 - 5.60 - 0.25 commission.
    after = api_get(page, live, "/api/me")["balance"]
    assert after - before == EXPECTED_NET
    statement = api_get(page, live, "/api/me/statement?limit=100")["transfers"]
    game_transfers = [t for t in statement if t["reason"] != "grant" and t["amount"]]
    assert sum(t["amount"] for t in statement) == after, statement  # the grant included
    assert sum(t["amount"] for t in game_transfers) == EXPECTED_NET, game_transfers
    wait_until(page, lambda: balance_shown(page) == "1,004.75")
    expect_text(bets.get_by_test_id("matched-bets"), "Won: +10.60")  # the back on Player 2
    expect_text(bets.get_by_test_id("matched-bets"), "Won: -5.60")  # the lay on Player 4
    expect_text(page.get_by_test_id("settled-net"), "Settled so far: +5.00")
    expect_text(page.get_by_test_id("settled-net"), "commission 0.25, net +4.75")
    expect_text(page.locator(".balance"), "1,004.75")  # the header's balance too
    screenshot(page, "exchange-live-settled-desktop")

    # The game in the history, its seed revealed; a scripted test game says it does not verify.
    game = page.locator('.ex-game[data-game="1"]')
    expect_text(game, "Player 2")
    record = api_get(page, live, f"/api/exchange/tables/{TABLE}/games/1")["fairness"]
    assert record["scripted"] is True and record["commitment"] == commitment(record["server_seed"])
    assert record["commitment"] == start["commitment"]

    # Nothing seen before its reveal: no card before round 1 closed, neither the draw (9C)
    # nor the dealer's second card (TD) before round 2 closed, TD not before round 3 closed,
    # and the game's seed not before the game was over (the close of round 3 ended it).
    for log in (traffic, watched):
        early = [card_tokens(item.text) for item in log.data(until="round 1 closed")]
        assert [c for cards in early for c in cards] == [], log.summary()
        assert not log.contains('"9C"', until="round 2 closed"), log.where('"9C"')
        assert not log.contains('"TD"', until="round 3 closed"), log.where('"TD"')
        assert not log.contains(record["server_seed"], until="round 3 closed"), log.summary()
        assert log.contains(record["server_seed"], since="round 3 closed")  # then revealed
        assert log.contains(record["commitment"], until="round 1 closed")  # committed first
    assert real_errors(page) == [] and real_errors(watcher) == []


def test_a_seeded_game_verifies_in_the_browser(live_server: LiveServer, new_page: Any) -> None:
    """A game of the provably fair deck (no scripted cards) runs to its end on the test's
    clock; its record, shown in the table's history, verifies in the browser."""
    page = new_page("phone")
    page.goto(f"{live_server.url}/exchange/{TABLE}")
    page.locator(".ex-market .ex-row").first.wait_for()
    for _ in range(40):  # at most six rounds and their pauses
        tick(live_server, 10)
        if public_state(live_server)["game"] > 1:
            break
    assert public_state(live_server)["game"] > 1
    game = page.locator('.ex-game[data-game="1"]')
    game.wait_for()
    game.locator("summary").click()
    game.get_by_role("button", name="Verify in the browser").click()
    verdict = game.get_by_test_id("verdict")
    expect_text(verdict, "Verified in your browser")
    assert verdict.get_attribute("data-ok") == "true"
    assert game.locator(".ex-game-hands .card").count() >= 10
    no_sideways_scroll(page)
    screenshot(page, "exchange-live-history-phone")
    assert real_errors(page) == []


def test_the_lobby_and_the_rules_lead_to_the_exchange_tables(
    live_server: LiveServer, new_page: Any
) -> None:
    from playwright.sync_api import expect

    page = new_page("desktop")
    page.goto(f"{live_server.url}/")
    tile = page.get_by_role("article", name="Exchange Blackjack")
    links = tile.locator(".table-list a")
    expect(links).to_have_count(2)
    assert [links.nth(i).get_attribute("href") for i in range(2)] == [
        "/exchange/exchange-1",
        "/exchange/exchange-2",
    ]
    expect(links.nth(0)).to_contain_text("Exchange")
    expect(links.nth(0)).to_contain_text("Game 1: betting round 1 open")
    expect(links.nth(1)).to_contain_text("Turbo")
    page.keyboard.press("e")  # the lobby's shortcut to the first Exchange table
    expect(page).to_have_url(f"{live_server.url}/exchange/exchange-1")
    page.locator(".ex-market .ex-row").first.wait_for()
    page.goto(f"{live_server.url}/rules/exchange")
    page.get_by_role("link", name="Bet on the live market").click()
    expect(page).to_have_url(f"{live_server.url}/exchange/exchange-1")
    page.locator(".ex-market .ex-row").first.wait_for()
    page.goto(f"{live_server.url}/exchange/no-such-table")
    expect(page.locator(".ex-missing")).to_contain_text("No such table")
    assert real_errors(page) == []


def test_on_a_phone_a_picked_price_opens_the_slip_at_the_bottom(
    live_server: LiveServer, new_page: Any
) -> None:
    page = new_page("phone")
    register(page, live_server, "phil")
    scripted = open_table(page, live_server, table_state())
    scripted.position = position(
        matched=[
            {
                "order": 7,
                "selection": "Player 1",
                "side": "back",
                "price": "2.2",
                "stake": 500,
                "round": 2,
                "status": "matched",
                "house": True,
            }
        ],
        pnl={"Player 1": {"winner": 600, "tied": -50, "loser": -500}},
        pnl_after_commission={"Player 1": {"winner": 570, "tied": -50, "loser": -500}},
    )
    cell(page, "Player 3", "lay", 1).tap()
    slip = page.locator(".ex-slip.has-slip")
    slip.wait_for()
    box = slip.bounding_box()
    viewport = page.viewport_size
    assert box["y"] + box["height"] == pytest.approx(viewport["height"], abs=1)  # at the bottom
    assert box["width"] == pytest.approx(viewport["width"], abs=1)
    expect_text(page.get_by_test_id("slip-sum"), "Liability if it wins 6.80")
    no_sideways_scroll(page)
    screenshot(page, "exchange-slip-phone", full_page=False)
    slip.get_by_role("button", name="Clear the bet slip").tap()
    expect_text(page.locator(".ex-slip"), "Click a price")
    assert real_errors(page) == []
