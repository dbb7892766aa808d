"""The Online Blackjack table page in Chromium: a bet built with chips, a scripted deal with the
dealer's ace up (the insurance prompt), insurance taken, the basic-strategy hint, the result,
net and balance equal to the ledger's amounts, "What was the best play", rebet, a round resumed
after a reload, the client seed edited; screenshots of each state at both sizes.

The cards are steered through the player's committed server seed
(``tests/server/helpers.steer_next_round``), done before the page reads the commitment, so
the commitment the page shows is the one the round is then dealt from (checked).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.server.helpers import steer_next_round
from twentyone.cards import Card

from .conftest import LiveServer, api_get, page_errors, register, screenshot

SIZES = ["desktop", "phone"]
#: The analysis (the chart, the review) runs in the server's worker process: its first answer
#: includes starting that process, so these waits are longer than the page's own.
ANALYSIS_TIMEOUT = 90_000


def deal_of(player: tuple[int, int], up: int, hole: Callable[[int], bool]) -> Callable[..., bool]:
    """A shoe predicate: the player's two card values, the up card's, a test of the hole's."""

    def wanted(shoe: list[Card]) -> bool:
        return (
            (shoe[0].value, shoe[2].value) == player and shoe[1].value == up and hole(shoe[3].value)
        )

    return wanted


def steer(live: LiveServer, name: str, wanted: Callable[..., bool]) -> list[Card]:
    shoe: list[Card] = live.call(steer_next_round, live.server, name, wanted)
    return shoe


def money(amount: int) -> str:
    """Minor units as the page writes them: 123450 -> "1,234.50"."""
    sign = "-" if amount < 0 else ""
    return f"{sign}{abs(amount) // 100:,}.{abs(amount) % 100:02d}"


def latest_round(page: Any, live: LiveServer) -> dict[str, Any]:
    found: dict[str, Any] = api_get(page, live, "/api/online/rounds?limit=1")["rounds"][0]
    return found


def wait_settled(page: Any) -> None:
    page.locator(".ol-banner").wait_for()


def check_money_matches_ledger(page: Any, live: LiveServer, start: int) -> dict[str, Any]:
    """The balance on the page (and in the header's signal) is the ledger's, which moved by
    exactly the settled round's net."""
    view = latest_round(page, live)
    assert view["state"] == "settled"
    balance = api_get(page, live, "/api/me")["balance"]
    assert balance == start + view["net"]
    statement = api_get(page, live, "/api/me/statement")
    moved = [entry for entry in statement["transfers"] if entry["round"] == view["id"]]
    assert sum(entry["amount"] for entry in moved) == view["net"], statement
    page.locator(".ol-balance").filter(has_text=money(balance)).wait_for()
    net_text = page.locator(".ol-banner-net").inner_text()
    assert money(view["net"]).lstrip("-") in net_text
    return view


@pytest.mark.parametrize("size", SIZES)
def test_online_round_with_insurance_hint_review_and_rebet(
    live_server: LiveServer, new_page: Callable[..., Any], size: str
) -> None:
    live = live_server
    page = new_page(size)
    name = f"olivia{size[0]}"
    register(page, live, name)
    start = api_get(page, live, "/api/me")["balance"]

    # The deal: 16 against the dealer's ace, no dealer blackjack (the hole is not a ten).
    shoe = steer(live, name, deal_of((10, 6), 1, lambda hole: hole not in (1, 10)))
    page.goto(f"{live.url}/online")
    five = page.get_by_role("button", name="Add a 5.00 chip")
    five.click()
    five.click()
    page.get_by_role("button", name="Add a 1.00 chip").click()
    page.get_by_role("button", name="Clear the bet").click()
    five.click()
    five.click()
    deal = page.get_by_role("button", name="Deal 10.00")
    assert deal.is_enabled()
    page.locator(".ol-spot-label").filter(has_text="10.00").wait_for()
    shown_commitment = page.get_by_test_id("commitment").inner_text()
    # The table fits the screen's width (nothing of it off to the side).
    right = page.evaluate("document.querySelector('.ol-wrap').getBoundingClientRect().right")
    assert right <= page.viewport_size["width"]
    screenshot(page, f"online-betting-{size}")

    deal.click()
    insure = page.get_by_role("button", name="Insure 5.00")
    insure.wait_for()
    view = latest_round(page, live)
    assert view["state"] == "insurance" and view["bet"] == 1000
    assert view["commitment"] == shown_commitment  # the round is dealt from what was shown
    assert view["hands"][0]["cards"] == [str(shoe[0]), str(shoe[2])]
    player_cards = page.locator(".ol-player svg.card")
    assert [player_cards.nth(i).get_attribute("data-card") for i in range(2)] == view["hands"][0][
        "cards"
    ]
    dealer_cards = page.locator(".ol-dealer svg.card")
    assert dealer_cards.nth(0).get_attribute("data-card") == str(shoe[1])
    assert dealer_cards.nth(1).get_attribute("data-card") == "back"
    # Only the insurance decision now: the moves are not offered.
    assert page.get_by_role("button", name="Hit").count() == 0
    screenshot(page, f"online-insurance-{size}")

    # More than half the bet cannot be insured: the prompt says so and refuses it.
    amount = page.get_by_label("Insurance amount")
    amount.fill("7.50")
    page.get_by_role("alert").filter(has_text="An amount from 0.01 to 5.00").wait_for()
    assert not page.get_by_role("button", name="Insure", exact=True).is_enabled()
    amount.fill("5.00")
    insure.click()
    hit = page.get_by_role("button", name="Hit")
    hit.wait_for()
    view = latest_round(page, live)
    assert view["state"] == "play" and view["insurance"] == 500
    assert hit.is_enabled() and page.get_by_role("button", name="Stand").is_enabled()
    assert not page.get_by_role("button", name="Split").is_enabled()  # not a pair
    page.locator(".ol-player .hand-total").filter(has_text=re.compile(r"^\s*16\s*$")).wait_for()
    # The balance shown leaves out what is in play: the bet and the insurance.
    page.locator(".ol-balance").filter(has_text=money(start - 1500)).wait_for()

    # The hint: 16 against an ace (no surrender here) is a hit.
    page.get_by_label("Strategy hint").check()
    page.locator(".ol-hint").filter(has_text="Basic strategy: Hit").wait_for(
        timeout=ANALYSIS_TIMEOUT
    )
    screenshot(page, f"online-hint-{size}")

    page.keyboard.press("s")  # stand, by its shortcut
    wait_settled(page)
    view = check_money_matches_ledger(page, live, start)
    result = view["hands"][0]["result"]
    words = {"win": "Win", "lose": "Lose", "push": "Push", "bust": "Bust"}[result]
    page.locator(".ol-result").filter(has_text=words).wait_for()
    assert page.locator(".ol-dealer svg.card").nth(1).get_attribute("data-card") == str(shoe[3])

    # What was the best play: the insurance and the stand were both mistakes.
    page.get_by_role("button", name="What was the best play?").click()
    decisions = page.locator(".ol-decision")
    decisions.nth(1).wait_for(timeout=ANALYSIS_TIMEOUT)
    assert decisions.count() == 2
    assert "Best: No insurance" in decisions.nth(0).inner_text()
    assert "Best: Hit" in decisions.nth(1).inner_text()
    assert "2 decisions off the best play" in page.locator(".ol-review-summary").inner_text()
    screenshot(page, f"online-settled-{size}")
    balance = api_get(page, live, "/api/me")["balance"]

    # Rebet: the last bet again (kept across a reload), dealt with the space bar.
    shoe = steer(live, name, deal_of((10, 9), 6, lambda hole: hole not in (1, 10)))
    page.reload()
    page.get_by_role("button", name="Rebet 10.00").click()
    page.locator(".ol-spot-label").filter(has_text="10.00").wait_for()
    page.get_by_role("button", name="Double the bet").click()
    page.locator(".ol-spot-label").filter(has_text="20.00").wait_for()
    page.keyboard.press("Space")
    page.get_by_role("button", name="Stand").wait_for()
    view = latest_round(page, live)
    assert view["bet"] == 2000 and view["hands"][0]["cards"] == [str(shoe[0]), str(shoe[2])]
    # The hint is still on (remembered): 19 stands.
    page.locator(".ol-hint").filter(has_text="Basic strategy: Stand").wait_for(
        timeout=ANALYSIS_TIMEOUT
    )

    # A reload mid-round shows the round where it was.
    page.reload()
    page.get_by_role("button", name="Stand").wait_for()
    cards = page.locator(".ol-player svg.card")
    assert [cards.nth(i).get_attribute("data-card") for i in range(2)] == view["hands"][0]["cards"]
    page.locator(".ol-player .hand-total").filter(has_text="19").wait_for()
    page.get_by_role("button", name="Stand").click()
    wait_settled(page)
    check_money_matches_ledger(page, live, balance)

    # The client seed, edited between rounds: the next round's nonce starts again at 0.
    seed_field = page.get_by_label("Your client seed")
    seed_field.fill("my lucky seed")
    page.get_by_role("button", name="Save").click()
    page.get_by_role("status").filter(has_text="Saved").wait_for()
    fairness = api_get(page, live, "/api/fairness")
    assert fairness["client_seed"] == "my lucky seed" and fairness["nonce"] == 0
    assert page.get_by_test_id("commitment").inner_text() == fairness["commitment"]
    assert page_errors(page) == []


def test_signed_out_visitors_are_asked_to_sign_in(
    live_server: LiveServer, new_page: Callable[..., Any]
) -> None:
    page = new_page("desktop")
    page.goto(f"{live_server.url}/online")
    page.get_by_role("heading", name="Sign in to play").wait_for()
    assert page.get_by_role("link", name="Sign in").first.get_attribute("href") == "/login"
    assert page.get_by_role("button", name="Deal").count() == 0
