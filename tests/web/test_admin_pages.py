"""The operator pages in Chromium: an operator signs in, reads the dashboard, searches a
player's rounds, opens one and steps through it with every card, voids an open round with a
reason and finds the void (reason, who) in the voids and the audit; tables, accounts and their
statements; a player is shown "operators only". Screenshots of every page at both sizes."""

from __future__ import annotations

import re
from typing import Any

import httpx

from tests.server.helpers import no_dealer_blackjack_or_ace, steer_next_round
from tests.web.conftest import PASSWORD, LiveServer, page_errors, screenshot, sign_in
from twentyone.server.app import open_player

SIZES = ("desktop", "phone")


def _operator(live: LiveServer, name: str = "olga") -> None:
    async def make() -> None:
        hashed = live.server.config.hasher.hash(PASSWORD)
        async with live.server.write() as session:
            await open_player(session, live.server, name, hashed, role="operator")

    live.run(make())


def _player(live: LiveServer, name: str) -> httpx.Client:
    client = httpx.Client(base_url=live.url)
    made = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    return client


def _deal(live: LiveServer, client: httpx.Client, name: str, bet: int) -> dict[str, Any]:
    """A round that waits for the player's decision (no blackjack, no ace or ten up)."""
    live.run(steer_next_round(live.server, name, no_dealer_blackjack_or_ace))
    view = client.post("/api/online/rounds", json={"bet": bet}).json()
    assert view["state"] == "play", view
    return dict(view)


def _floor(live: LiveServer) -> dict[str, Any]:
    """An operator, two players, two settled rounds and one open round of pat's."""
    _operator(live)
    pat, quinn = _player(live, "pat"), _player(live, "quinn")
    try:
        first = _deal(live, pat, "pat", 1000)
        settled = pat.post(f"/api/online/rounds/{first['id']}/actions", json={"action": "stand"})
        assert settled.json()["state"] == "settled"
        live.tick(90)
        other = _deal(live, quinn, "quinn", 2500)
        quinn.post(f"/api/online/rounds/{other['id']}/actions", json={"action": "stand"})
        live.tick(90)
        still_open = _deal(live, pat, "pat", 2000)
    finally:
        pat.close()
        quinn.close()
    return {"settled": first["id"], "quinn": other["id"], "open": still_open["id"]}


def _shot(page: Any, name: str) -> None:
    """A whole-page screenshot from the top (the site's header is sticky)."""
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, name)


def _rows(page: Any, label: str) -> Any:
    return page.get_by_role("table", name=label).locator("tbody tr:not(.adm-empty)")


def test_an_operator_finds_replays_and_voids_a_round(
    live_server: LiveServer, new_page: Any
) -> None:
    rounds = _floor(live_server)
    page = new_page("desktop")
    sign_in(page, live_server, "olga")

    # The dashboard: the books balance, one round open holding its stake.
    page.goto(live_server.url + "/admin")
    stats = page.get_by_test_id("dashboard-stats")
    stats.get_by_text("\u2713 Balanced").wait_for()
    open_stat = stats.locator(".adm-stat", has_text="Open rounds")
    assert open_stat.locator(".adm-stat-value").inner_text() == "1"
    assert "20.00 held" in open_stat.inner_text()
    assert _rows(page, "Open rounds").count() == 1
    _shot(page, "admin-dashboard-desktop")

    # Search pat's rounds: his two, newest first; quinn's is not among them.
    page.get_by_role("link", name="Rounds", exact=True).first.click()
    page.get_by_role("search", name="Search rounds").wait_for()
    page.get_by_label("Player").fill("pat")
    page.get_by_role("button", name="Search").click()
    page.wait_for_url(re.compile(r"/admin/rounds\?player=pat"))
    found = _rows(page, "Rounds found")
    page.locator(".adm-count").get_by_text("2 rounds").wait_for()
    assert found.count() == 2
    assert f"#{rounds['open']}" in found.nth(0).inner_text()
    assert "Open" in found.nth(0).inner_text() and "Settled" in found.nth(1).inner_text()
    # Narrow it to the open ones.
    page.get_by_label("State").select_option("open")
    page.get_by_role("button", name="Search").click()
    page.wait_for_url(re.compile(r"state=open"))
    page.locator(".adm-count").get_by_text("1 round").wait_for()
    assert found.count() == 1
    _shot(page, "admin-rounds-desktop")

    # Open it: every card, the hole card too, step by step.
    found.nth(0).click()
    page.wait_for_url(re.compile(rf"/admin/rounds/online/{rounds['open']}$"))
    summary = page.get_by_test_id("round-summary")
    summary.get_by_text("pat").wait_for()
    assert "20.00" in summary.inner_text()
    caption = page.get_by_test_id("replay-caption")
    page.get_by_role("button", name="First step").click()
    seen = [caption.inner_text()]
    next_step = page.get_by_role("button", name="Next step")
    while next_step.is_enabled():
        next_step.click()
        seen.append(caption.inner_text())
    assert len(set(seen)) == len(seen) >= 5  # bets, four cards: each step says what it did
    assert any("hole card" in text for text in seen)
    full = page.context.request.get(f"{live_server.url}/api/admin/rounds/{rounds['open']}").json()
    hole = full["dealer"]["cards"][1]  # face down at the table, shown to the operator
    assert summary.get_by_test_id("hole-card").inner_text() == hole
    assert hole in page.locator(".adm-fair").inner_text()
    page.get_by_role("button", name="First step").click()
    assert caption.inner_text() == seen[0]
    page.keyboard.press("ArrowRight")  # the keys step too
    assert caption.inner_text() == seen[1]
    page.get_by_role("button", name="Last step").click()
    _shot(page, "admin-replay-desktop")

    # Void it with a reason: asked once more, then done; pat gets his stake back.
    void_form = page.get_by_role("form", name="Void this round")
    void_form.get_by_role("button", name="Void round").click()
    void_form.get_by_role("alert").wait_for()  # a void needs a reason
    void_form.get_by_label("Reason").fill("shuffler jammed mid-round")
    void_form.get_by_role("button", name="Void round").click()
    void_form.get_by_role("button", name="Confirm: void and refund").click()
    done = page.get_by_test_id("void-done")
    done.wait_for()
    assert "20.00 refunded" in done.inner_text()
    summary.get_by_text("Void").wait_for()
    assert page.get_by_role("form", name="Void this round").count() == 0
    _shot(page, "admin-replay-voided-desktop")

    # The audit: balanced, nothing open, the void with its reason and who made it.
    page.get_by_role("link", name="Audit", exact=True).click()
    verdict = page.get_by_test_id("audit-verdict")
    verdict.get_by_text("The books balance").wait_for()
    assert _rows(page, "Open rounds").count() == 0
    voids = _rows(page, "Voids")
    voids.first.wait_for()
    assert voids.count() == 1
    row = voids.first.inner_text()
    assert "shuffler jammed mid-round" in row and "olga" in row and "pat" in row
    assert "20.00" in row and f"#{rounds['open']}" in row
    assert page.locator(".adm-checks li.good").count() == 4
    _shot(page, "admin-audit-desktop")

    # And on the dashboard's latest voids.
    page.get_by_role("link", name="Dashboard", exact=True).click()
    page.get_by_test_id("dashboard-stats").get_by_text("\u2713 Balanced").wait_for()
    latest = _rows(page, "Latest voids")
    latest.first.wait_for()
    assert "shuffler jammed mid-round" in latest.first.inner_text()
    assert page_errors(page) == []


def test_accounts_tables_and_every_page_at_both_sizes(
    live_server: LiveServer, new_page: Any
) -> None:
    rounds = _floor(live_server)
    for size in SIZES:
        page = new_page(size)
        sign_in(page, live_server, "olga")

        # Accounts: search, open pat's statement (his stakes and the grant).
        page.goto(live_server.url + "/admin/accounts")
        page.get_by_role("search", name="Search accounts").get_by_label("Name contains").fill("pa")
        page.get_by_role("button", name="Search").click()
        accounts = _rows(page, "Accounts")
        page.get_by_role("link", name="pat", exact=True).wait_for()
        # The list drawn before the search shows pat too: wait for the search's answer.
        from playwright.sync_api import expect

        expect(accounts).to_have_count(1)
        assert "20.00" in accounts.first.inner_text()  # held by his open round
        page.get_by_role("link", name="pat", exact=True).click()
        transfers = _rows(page, "Transfers of pat")
        transfers.first.wait_for()
        reasons = [transfers.nth(i).inner_text() for i in range(transfers.count())]
        assert any("grant" in text for text in reasons)
        assert sum("stake" in text for text in reasons) >= 2
        _shot(page, f"admin-accounts-{size}")

        # Tables: the Online table's form; the Casino part answers either way.
        page.goto(live_server.url + "/admin/tables")
        form = page.get_by_role("form", name="Configure table online")
        form.wait_for()
        casino = page.locator(
            '[data-testid="casino-unavailable"], table[aria-label="Casino tables"]'
        )
        casino.first.wait_for()
        if size == "desktop":
            form.get_by_label("Minimum bet").fill("2.50")
            form.get_by_role("button", name="Save").click()
            form.get_by_role("status").wait_for()
            table = page.context.request.get(f"{live_server.url}/api/admin/tables").json()
            assert table[0]["min_bet"] == 250
            form.get_by_label("Minimum bet").fill("two")
            form.get_by_role("button", name="Save").click()
            form.get_by_role("alert").wait_for()
        _shot(page, f"admin-tables-{size}")

        page.goto(live_server.url + "/admin")
        page.get_by_test_id("dashboard-stats").get_by_text("\u2713 Balanced").wait_for()
        _shot(page, f"admin-dashboard-{size}")
        page.goto(live_server.url + "/admin/rounds")
        every = _rows(page, "Rounds found")
        every.nth(2).wait_for()
        if size == "desktop":  # sorted by a column's header, then the other way
            bet_header = page.get_by_role("columnheader", name="Bet")
            bet_header.get_by_role("button").click()
            assert bet_header.get_attribute("aria-sort") == "descending"
            assert "25.00" in every.nth(0).inner_text() and "10.00" in every.nth(2).inner_text()
            bet_header.get_by_role("button").click()
            assert bet_header.get_attribute("aria-sort") == "ascending"
            assert "10.00" in every.nth(0).inner_text()
        _shot(page, f"admin-rounds-{size}")
        page.goto(live_server.url + f"/admin/rounds/online/{rounds['quinn']}")
        page.get_by_test_id("replay-caption").wait_for()
        if page.get_by_role("button", name="Last step").is_enabled():
            page.get_by_role("button", name="Last step").click()
        _shot(page, f"admin-replay-{size}")
        page.goto(live_server.url + "/admin/audit")
        page.get_by_test_id("audit-verdict").wait_for()
        _shot(page, f"admin-audit-{size}")
        assert page_errors(page) == []


def test_a_player_is_shown_operators_only(live_server: LiveServer, new_page: Any) -> None:
    _floor(live_server)
    page = new_page("phone")
    sign_in(page, live_server, "pat")
    for path in ("/admin", "/admin/tables", "/admin/rounds", "/admin/accounts", "/admin/audit"):
        page.goto(live_server.url + path)
        page.get_by_role("heading", name="Operators only").wait_for()
        assert page.get_by_role("table").count() == 0
    _shot(page, "admin-denied-phone")
    answer = page.context.request.get(f"{live_server.url}/api/admin/search/rounds")
    assert answer.status == 403


def test_casino_rounds_are_found_beside_online_ones(live_server: LiveServer, new_page: Any) -> None:
    _floor(live_server)
    with httpx.Client(base_url=live_server.url) as quinn:
        signed = quinn.post("/api/session", json={"name": "quinn", "password": PASSWORD})
        assert signed.status_code == 200
        seated = quinn.post("/api/casino/tables/casino-1/seats", json={"box": 3})
        assert seated.status_code == 201, seated.text
        bet = {"box": 3, "amount": 500, "round": seated.json()["round"]}
        assert quinn.post("/api/casino/tables/casino-1/bets", json=bet).status_code == 201
    live_server.tick(0)  # every seated box has bet: the window closes, the round is dealt
    page = new_page("desktop")
    sign_in(page, live_server, "olga")
    page.goto(live_server.url + "/admin/rounds?player=quinn")
    found = _rows(page, "Rounds found")
    found.nth(1).wait_for()
    kinds = sorted(found.nth(i).locator(".adm-kind").inner_text() for i in range(found.count()))
    assert kinds == ["CASINO", "ONLINE"] or kinds == ["casino", "online"]
    casino = found.filter(has=page.locator(".adm-kind.casino"))
    assert "quinn" in casino.inner_text() and "5.00" in casino.inner_text()
    assert page.get_by_label("Table").locator("option[value='casino-1']").count() == 1
    page.get_by_label("Game").select_option("casino")
    page.get_by_role("button", name="Search").click()
    page.wait_for_url(re.compile(r"kind=casino"))
    page.locator(".adm-count").get_by_text("1 round").wait_for()
    assert found.count() == 1 and found.locator(".adm-kind.online").count() == 0
    _shot(page, "admin-rounds-casino-desktop")
    casino.locator("a").first.click()
    page.wait_for_url(re.compile(r"/admin/rounds/casino/\d+$"))
    page.get_by_test_id("round-summary").get_by_text("quinn").wait_for()
    page.get_by_test_id("replay-caption").wait_for()
    assert page.get_by_role("form", name="Void this round").count() == 0  # Online rounds only
    _shot(page, "admin-replay-casino-desktop")
    assert page_errors(page) == []
