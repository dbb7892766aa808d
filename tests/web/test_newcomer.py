"""The newcomer's path end to end (issue 14, "How it must be shown"), in headless Chromium:
register on the register page; an Online round with insurance offered (and taken); a Casino
round with a split at a table shared with a second browser; the balance in the header moving
by exactly the ledger's transfers at each step (``GET /api/me/statement``); the history, a
step-by-step replay of the Online round and its verification in the browser; the rules lab
with the casino preset's exact house edge and its strategy chart.

The Online round is dealt from a committed seed the test chose (so it is provably fair and
verifies); the Casino round from a scripted shoe top (the test-only injection), which the
browser's verifier rightly refuses: injected cards are not the seeds' cards.
"""

from __future__ import annotations

import re
from typing import Any

from tests.web.conftest import (
    PASSWORD,
    LiveServer,
    api_get,
    page_errors,
    register,
    screenshot,
    steer_online_round,
)
from tests.web.play import (
    ALICE_NET,
    TABLE,
    enabled_button,
    new_scripted_shoe,
    play_scripted_casino_round,
    retire_shoe,
)
from twentyone.cards import Card

GRANT = 100_000
ONLINE_BET, INSURANCE = 1000, 500
#: The casino preset's exact house edge (docs/simulation.md: the exact return -0.43530%).
CASINO_HOUSE_EDGE = "0.435%"
#: Cells of the casino preset's basic strategy (European no hole card, late surrender): the
#: dealer may hold a ten under his up card only after the players act, so 8,8 and hard 16
#: against a ten or an ace surrender if allowed, else hit.
CHART_CELLS = {("hard", "16", "T"): "Rh", ("pairs", "8,8", "T"): "Rh", ("hard", "11", "T"): "H"}
CHART_CELLS |= {("hard", "11", "6"): "D", ("soft", "A,7", "2"): "S", ("pairs", "8,8", "6"): "P"}


def money(amount: int) -> str:
    """Minor units as the pages show them: ``123450`` is ``1,234.50``."""
    sign = "-" if amount < 0 else ""
    return f"{sign}{abs(amount) // 100:,}.{abs(amount) % 100:02d}"


def header_shows(page: Any, amount: int) -> None:
    """Until the header's balance is ``amount``."""
    page.get_by_role("link", name=f"Balance {money(amount)}: your account").wait_for()


def transfers(page: Any, live: LiveServer) -> list[dict[str, Any]]:
    statement = api_get(page, live, "/api/me/statement?limit=100")
    assert statement["next"] is None
    return list(statement["transfers"])


def insurance_then_twenty_against_soft_seventeen(shoe: list[Card]) -> bool:
    """Player ten-ten, dealer ace up (insurance offered) with a six under it (no blackjack;
    soft 17 stands): the player stands on 20 and wins, the insurance is lost."""
    return (shoe[0].value, shoe[1].value, shoe[2].value, shoe[3].value) == (10, 1, 10, 6)


def test_a_newcomer_plays_both_tables_checks_the_ledger_replays_and_verifies(
    live_server: LiveServer, new_page: Any
) -> None:
    live = live_server
    page = new_page("desktop")

    # ---------------------------------------------------------------- register
    page.goto(f"{live.url}/register")
    page.get_by_label("Name").fill("newcomer")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Register and sign in").click()
    page.wait_for_url(f"{live.url}/")
    header_shows(page, GRANT)
    ledger = transfers(page, live)
    assert [(t["amount"], t["reason"]) for t in ledger] == [(GRANT, "grant")]
    seen = {t["id"] for t in ledger}

    # ------------------------------------------------- Online, insurance offered
    shoe = steer_online_round(live, "newcomer", insurance_then_twenty_against_soft_seventeen)
    page.goto(f"{live.url}/online")
    page.get_by_role("button", name="Add a 5.00 chip").click()
    page.get_by_role("button", name="Add a 5.00 chip").click()
    page.get_by_role("button", name=re.compile(r"^Deal 10\.00")).click()
    prompt = page.get_by_role("group", name="Insurance?")
    prompt.wait_for()
    assert page.get_by_label("Insurance amount").input_value() == money(INSURANCE)
    header_shows(page, GRANT - ONLINE_BET)
    prompt.get_by_role("button", name=f"Insure {money(INSURANCE)}").click()
    enabled_button(page, "Stand").click()
    enabled_button(page, re.compile(r"^Deal"))
    (online_round,) = api_get(page, live, "/api/online/rounds")["rounds"]
    assert online_round["state"] == "settled"
    assert online_round["hands"][0]["cards"] == [str(shoe[0]), str(shoe[2])]
    assert online_round["dealer"]["cards"] == [str(shoe[1]), str(shoe[3])]
    assert online_round["insurance"] == INSURANCE
    online_net = ONLINE_BET - INSURANCE  # the hand wins even money, the insurance is lost
    assert online_round["net"] == online_net
    new = [t for t in transfers(page, live) if t["id"] not in seen]
    assert {t["round"] for t in new} == {online_round["id"]}
    assert sum(t["amount"] for t in new) == online_net
    header_shows(page, GRANT + online_net)
    seen |= {t["id"] for t in new}

    # ---------------------------------------- Casino, a split, a second browser
    other = new_page("desktop")
    register(other, live, "bob")
    new_scripted_shoe(live)
    play_scripted_casino_round(live, page, other)
    new = [t for t in transfers(page, live) if t["id"] not in seen]
    assert len({t["round"] for t in new}) == 1
    assert sum(t["amount"] for t in new) == ALICE_NET
    header_shows(page, GRANT + online_net + ALICE_NET)
    assert api_get(page, live, "/api/me")["balance"] == sum(
        t["amount"] for t in transfers(page, live)
    )
    retire_shoe(live)  # the shoe's seed is revealed: the round's record is complete

    # ------------------------------------------- history, replay, verification
    page.goto(f"{live.url}/history")
    (casino_round,) = api_get(page, live, "/api/casino/rounds")["rounds"]
    assert casino_round["net"] == ALICE_NET and casino_round["table"] == TABLE
    page.locator(f'a[href="/history/casino/{casino_round["id"]}"]').wait_for()
    page.locator(f'a[href="/history/online/{online_round["id"]}"]').click()
    page.wait_for_url(f"{live.url}/history/online/{online_round['id']}")
    felt = page.get_by_role("group", name="The table at this step")
    felt.wait_for()
    first_step = page.get_by_role("button", name="First step")
    if first_step.is_enabled():
        first_step.click()
    steps = 0
    next_step = page.get_by_role("button", name="Next step")
    while next_step.is_enabled():
        next_step.click()
        steps += 1
        assert steps < 50, "the replay never reaches its last step"
    assert steps >= 5  # four cards, insurance, the stand, the dealer's turn
    screenshot(page, "newcomer-replay-desktop")
    page.get_by_role("button", name="Verify in the browser").click()
    page.get_by_text("Verified in your browser").wait_for()

    page.goto(f"{live.url}/history/casino/{casino_round['id']}")
    page.get_by_role("button", name="Verify in the browser").click()
    # The scripted shoe is not the seed's shuffle: the browser's check says so.
    page.get_by_text("Not verified").wait_for()

    # ------------------------------------------------------------- rules lab
    page.goto(f"{live.url}/lab")
    page.get_by_role("radio", name=re.compile(r"^Casino")).click()
    edge = page.get_by_test_id("house-edge")
    page.wait_for_function(
        "wanted => document.querySelector('[data-testid=house-edge]')?.textContent === wanted",
        arg=CASINO_HOUSE_EDGE,
        timeout=120_000,
    )
    assert edge.inner_text() == CASINO_HOUSE_EDGE
    for (table, row, up), code in CHART_CELLS.items():
        cell = page.locator(f'table[data-table="{table}"] td[data-row="{row}"][data-up="{up}"]')
        assert cell.get_attribute("data-code") == code, (table, row, up)
    cells = page.locator("table.lab-chart td").count()
    assert cells >= 25 * 10 and cells % 10 == 0  # every row: one cell per up card
    screenshot(page, "newcomer-lab-desktop")
    assert not [e for e in page_errors(page) + page_errors(other) if "page error" in e]
