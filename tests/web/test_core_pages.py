"""The frame, the lobby and the account pages in Chromium, against a real server.

A newcomer registers (the header shows 1,000.00), signs out, signs in, tops up once (+1,000.00),
is refused a second top-up with the wait in words, and finds the grant and the top-up in his
statement; the lobby shows the four games. Screenshots of the lobby, sign-in, register and
account pages at phone and desktop size go to artifacts/screenshots/.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.web.conftest import LiveServer, api_get, page_errors, register, screenshot

NAME = "newcomer"
PASSWORD = "correct horse"


def _open(new_page: Any, size: str) -> Any:
    """A page in a fresh context; generous waits, for a machine shared with other test runs
    (a full-page phone screenshot at 2x can take seconds there)."""
    page = new_page(size)
    page.set_default_timeout(60_000)
    return page


def _balance(page: Any) -> Any:
    return page.locator(".topbar .balance .money")


#: Controls without an accessible name (aria-label, a label, their text, or a named image).
UNNAMED_CONTROLS = """() => [...document.querySelectorAll(
    "button, a[href], input, select, textarea, [role=switch]")].filter((el) => {
  const text = (el.getAttribute("aria-label") || "") + (el.getAttribute("title") || "")
    + [...(el.labels || [])].map((label) => label.textContent).join("")
    + el.textContent
    + [...el.querySelectorAll("[aria-label]")].map((x) => x.getAttribute("aria-label")).join("");
  return text.trim() === "";
}).map((el) => el.outerHTML.slice(0, 120))"""


def _script_errors(page: Any) -> list[str]:
    return [error for error in page_errors(page) if error.startswith("page error")]


def test_register_sign_out_sign_in_top_up_and_statement(
    live_server: LiveServer, new_page: Any
) -> None:
    page = _open(new_page, "desktop")
    page.goto(live_server.url + "/register")
    page.get_by_label("Name").fill(NAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Register and sign in").click()

    # Signed in, on the lobby, with the starting grant in the header.
    expect(page).to_have_url(live_server.url + "/")
    expect(_balance(page)).to_have_text("1,000.00")
    expect(page.locator(".topbar")).to_contain_text(NAME)

    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("link", name="Sign in").first).to_be_visible()
    expect(_balance(page)).to_have_count(0)
    assert page.context.request.get(live_server.url + "/api/me").status == 401

    page.goto(live_server.url + "/login?next=/account")
    page.get_by_label("Name").fill(NAME)
    page.get_by_label("Password").fill("wrong password")
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text("Wrong name or password")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page).to_have_url(live_server.url + "/account")
    expect(_balance(page)).to_have_text("1,000.00")
    expect(page.get_by_test_id("account-balance")).to_have_text("1,000.00")

    page.get_by_role("button", name="Top up").click()
    expect(_balance(page)).to_have_text("2,000.00")
    expect(page.get_by_test_id("account-balance")).to_have_text("2,000.00")
    expect(page.get_by_role("status")).to_contain_text("Added 1,000.00")
    assert api_get(page, live_server, "/api/me")["balance"] == 200_000

    # The second top-up within the hour is refused, with the wait in words, and changes nothing.
    live_server.tick(60)
    page.keyboard.press("t")  # the shortcut shown on the button
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("The next one is possible in 59 min")
    expect(_balance(page)).to_have_text("2,000.00")
    assert api_get(page, live_server, "/api/me")["balance"] == 200_000

    # The statement: newest first, the top-up then the grant, amounts signed.
    rows = page.locator(".statement tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Top-up")
    expect(rows.nth(0)).to_contain_text("+1,000.00")
    expect(rows.nth(1)).to_contain_text("Welcome grant")
    expect(rows.nth(1)).to_contain_text("+1,000.00")
    expect(rows.nth(0).locator(".money.gain")).to_have_count(1)
    screenshot(page, "account-topup-refused-desktop")
    assert _script_errors(page) == []


def test_register_shows_the_rules_and_the_servers_refusal_in_place(
    live_server: LiveServer, new_page: Any
) -> None:
    taken = _open(new_page, "desktop")
    register(taken, live_server, "taken.name")
    page = _open(new_page, "phone")
    page.goto(live_server.url + "/register")
    name = page.get_by_label("Name")
    name.fill("ab")
    page.get_by_label("Password").fill("short")
    page.get_by_role("button", name="Register and sign in").click()
    expect(page.locator("#register-name-help")).to_have_text("At least 3 characters.")
    expect(page.locator("#register-password-help")).to_contain_text("At least 8 characters")
    expect(name).to_have_attribute("aria-invalid", "true")
    screenshot(page, "register-errors-phone")

    name.fill("Taken.Name")  # names are unique whatever their case
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Register and sign in").click()
    expect(page.get_by_role("alert")).to_contain_text("is taken")
    expect(page).to_have_url(live_server.url + "/register")
    assert _script_errors(page) == []


def test_the_lobby_shows_the_four_games_and_a_sign_in_prompt(
    live_server: LiveServer, new_page: Any
) -> None:
    page = _open(new_page, "desktop")
    page.goto(live_server.url + "/")
    games = page.locator(".game-tile h2")
    expect(games).to_have_text(
        ["Casino Blackjack", "Online Blackjack", "Vinte-e-um", "Exchange Blackjack"]
    )
    expect(page.get_by_role("note")).to_contain_text("Sign in to play")
    expect(page.get_by_role("link", name="Sit down")).to_have_attribute("href", "/online")
    for game in ("vinte", "exchange", "casino", "online"):
        expect(page.locator(f'a[href="/rules/{game}"]').first).to_be_visible()
    vinte = page.get_by_role("article", name="Vinte-e-um")
    expect(vinte).to_contain_text("Live tables")
    expect(vinte.locator('a[href="/vinte"]')).to_be_visible()
    # The Casino tile lists the live tables (links to /casino/{id}) or says there are none.
    tile = page.get_by_role("article", name="Casino Blackjack")
    expect(tile.locator(".table-list a, p.muted").first).to_be_visible()
    tables = tile.locator(".table-list a")
    for i in range(tables.count()):
        assert re.fullmatch(r"/casino/[^/]+", tables.nth(i).get_attribute("href") or "")
    assert _script_errors(page) == []


def test_the_header_follows_balance_events_and_the_settings_persist(
    live_server: LiveServer, new_page: Any
) -> None:
    page = _open(new_page, "desktop")
    register(page, live_server, "settler")
    page.goto(live_server.url + "/")
    expect(_balance(page)).to_have_text("1,000.00")
    # Another page (a table) reports a new balance: the header shows it at once.
    page.evaluate("window.dispatchEvent(new CustomEvent('balance', {detail: 123450}))")
    expect(_balance(page)).to_have_text("1,234.50")

    page.get_by_role("button", name="Settings").click()
    sound = page.get_by_role("switch", name=re.compile("Sound"))
    expect(sound).not_to_be_checked()  # off until turned on
    page.get_by_role("switch", name=re.compile("Four-colour deck")).check()
    expect(page.locator("html")).to_have_class(re.compile(r"\bfour-colour\b"))
    # The context asks for reduced motion: animations are off whatever the switch says.
    expect(page.locator("html")).to_have_class(re.compile(r"\bno-motion\b"))
    page.reload()
    expect(page.locator("html")).to_have_class(re.compile(r"\bfour-colour\b"))

    # "?" lists the shortcuts of the page; Escape closes the list.
    page.locator("body").press("?")
    dialog = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    assert _script_errors(page) == []


def test_screenshots_of_the_lobby_and_the_account_pages(
    live_server: LiveServer, new_page: Any
) -> None:
    for size in ("desktop", "phone"):
        visitor = _open(new_page, size)
        for path, name in (
            ("/", "lobby-signed-out"),
            ("/login", "login"),
            ("/register", "register"),
        ):
            visitor.goto(live_server.url + path)
            expect(visitor.locator("main h1").first).to_be_visible()
            screenshot(visitor, f"{name}-{size}")
            assert visitor.evaluate(UNNAMED_CONTROLS) == [], path
            width = visitor.evaluate("document.documentElement.scrollWidth")
            assert width <= visitor.viewport_size["width"], f"{path} at {size}: {width}px wide"
        player = _open(new_page, size)
        register(player, live_server, f"player-{size}")
        player.goto(live_server.url + "/")
        expect(_balance(player)).to_have_text("1,000.00")
        screenshot(player, f"lobby-{size}")
        player.goto(live_server.url + "/account")
        expect(player.locator(".statement tbody tr")).to_have_count(1)
        screenshot(player, f"account-{size}")
        assert player.evaluate(UNNAMED_CONTROLS) == []
        for page in (visitor, player):
            assert _script_errors(page) == []
        # The phone layout does not scroll sideways.
        width = player.evaluate("document.documentElement.scrollWidth")
        assert width <= player.viewport_size["width"], f"{size}: {width}px wide"


SHARED_MODULES = """async () => {
  const ui = await import("/static/js/ui.js");
  const cards = await import("/static/js/cards.js");
  const { html, render } = await import("/static/js/lib.js");
  const box = document.createElement("div");
  document.body.append(box);
  // The server's clock is 2027 (the live server's manual clock), this browser's is not.
  render(html`<${ui.Countdown} deadline=${1800000015} now=${1800000000} />
    <${cards.Hand} label="Box 1" cards=${["AS", "6D"]} />
    <${cards.Hand} label="Dealer" cards=${["TC"]} hidden=${1} />`, box);
  await new Promise((done) => setTimeout(done, 50));
  return {
    money: [0, 5, 100, -250, 123450, 100000000].map((n) => ui.formatMoney(n)),
    signed: [ui.formatMoney(2500, { signed: true }), ui.formatMoney(0, { signed: true })],
    chips: [50, 100, 2500, 100000].map(ui.chipLabel),
    totals: [["AS", "6D"], ["AS", "6D", "TC"], ["AS", "AH"], ["KS", "QH", "5C"]]
      .map(cards.handTotal),
    names: ["AS", "TD", null].map(cards.cardName),
    timer: box.querySelector("[role=timer]").textContent.trim(),
    hands: [...box.querySelectorAll(".hand")].map((hand) => hand.getAttribute("aria-label")),
    sprite: [...box.querySelectorAll("use")].map((use) => use.getAttribute("href")),
    waits: [59, 3540, 5400].map(ui.formatDuration),
  };
}"""


def test_the_shared_modules_format_money_cards_and_the_servers_time(
    live_server: LiveServer, new_page: Any
) -> None:
    page = _open(new_page, "desktop")
    page.goto(live_server.url + "/")
    expect(page.locator(".game-tile").first).to_be_visible()
    got = page.evaluate(SHARED_MODULES)
    assert got["money"] == ["0.00", "0.05", "1.00", "-2.50", "1,234.50", "1,000,000.00"]
    assert got["signed"] == ["+25.00", "0.00"]
    assert got["chips"] == [".50", "1", "25", "1K"]
    assert got["totals"] == [
        {"total": 17, "soft": True},
        {"total": 17, "soft": False},
        {"total": 12, "soft": True},
        {"total": 25, "soft": False},
    ]
    assert got["names"] == ["Ace of spades", "Ten of diamonds", "face-down card"]
    # 15 s left on the server's clock, whatever this browser's clock says.
    assert re.fullmatch(r"1[45] s", got["timer"]), got["timer"]
    assert got["hands"] == [
        "Box 1: Ace of spades, Six of diamonds: total soft 17",
        "Dealer: Ten of clubs, face-down card: total 10",
    ]
    assert got["sprite"] == [
        "/static/img/cards.svg#card-AS",
        "/static/img/cards.svg#card-6D",
        "/static/img/cards.svg#card-TC",
        "/static/img/cards.svg#card-back",
    ]
    assert got["waits"] == ["59 s", "59 min", "1 h 30 min"]
    assert _script_errors(page) == []


SOUNDS_PLAYED = """async () => {
  const played = [];
  window.Audio = class {
    constructor(src) { this.src = src; this.paused = true; }
    cloneNode() { return new window.Audio(this.src); }
    play() { played.push(this.src); return Promise.resolve(); }
  };
  const { play } = await import("/static/js/sound.js");
  const settings = await import("/static/js/settings.js");
  play("card");
  const whileOff = played.length;
  settings.sound.value = true;
  play("card");
  play("win");
  play("no-such-sound");
  settings.sound.value = false;
  play("chip");
  return { whileOff, played, stored: localStorage.getItem("twentyone.sound") };
}"""


def test_sounds_play_only_once_turned_on(live_server: LiveServer, new_page: Any) -> None:
    page = _open(new_page, "phone")
    page.goto(live_server.url + "/")
    expect(page.locator(".game-tile").first).to_be_visible()
    got = page.evaluate(SOUNDS_PLAYED)
    assert got["whileOff"] == 0
    assert got["played"] == ["/static/sounds/card.wav", "/static/sounds/win.wav"]
    assert got["stored"] == "false"
    for name in ("card", "win"):
        answer = page.context.request.get(f"{live_server.url}/static/sounds/{name}.wav")
        assert answer.status == 200 and answer.body()[:4] == b"RIFF"
