"""Playing through the pages as a person does (clicks on the controls' accessible names), for
the end-to-end, traffic and screenshot tests: one scripted Casino round with a split at a table
two browsers share, and the steps of an Online round.

The Casino round's cards are the top of a new shoe pushed through the test-only injection
(:data:`SHOE_TOP`); its dealing order with boxes 1 (alice) and 3 (bob), European no hole card:
box 1, box 3, the dealer's up card, box 1, box 3; box 1 splits its eights (each hand drawing
one card) and stands twice, box 3 stands, the dealer draws to a bust. Every card that a step
must still hide is a card no earlier step shows, so a test can search the traffic for it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tests.web.conftest import LiveServer, api_get

TABLE = "casino-1"
DEALT = ["8S", "9H", "6D", "8D", "7C"]
SPLIT_CARDS = ["TS", "TH"]
DEALER_DRAWS = ["5C", "4S", "7S"]
#: The next cards of the shoe: dealt in no step of the round.
UNDEALT = ["QH", "QD", "QS", "QC", "JH", "JD", "JS", "JC", "KH", "KD"]
SHOE_TOP = [*DEALT, *SPLIT_CARDS, *DEALER_DRAWS, *UNDEALT]
#: Alice's bet on box 1 (two 5.00 chips) and bob's on box 3 (an odd 27.00: his balances are
#: numbers nobody else's are).
ALICE_BET, BOB_BET = 1000, 2700
ALICE_CHIPS, BOB_CHIPS = ["5.00", "5.00"], ["25.00", "1.00", "1.00"]
#: Everyone wins: alice's two hands 18 and 18, bob's 16, against the dealer's 22.
ALICE_NET, BOB_NET = 2 * ALICE_BET, BOB_BET


def click(page: Any, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def enabled_button(page: Any, name: str | re.Pattern[str]) -> Any:
    """The button named ``name`` once it is enabled."""
    exact = isinstance(name, str)
    button = page.get_by_role("button", name=name, exact=exact).and_(page.locator(":enabled"))
    button.wait_for()
    return button


def casino_bet(page: Any, chips: list[str]) -> None:
    for chip in chips:
        page.get_by_role("button", name=f"Add a {chip} chip").click()
    click(page, "Place bet")


def wait_for_turn(page: Any, box: int, hand: str | None = None) -> None:
    """Until the page shows box ``box`` to act (and, given, the hand whose label starts with
    ``hand`` as the active one) with Stand enabled: the page has the server's new state."""
    page.locator(f'[aria-label^="Box {box},"][aria-label$="to act"]').wait_for(state="attached")
    if hand is not None:
        page.locator(f'.ct-hand.active[aria-label^="{hand}"]').wait_for(state="attached")
    enabled_button(page, "Stand")


def wait_for_phase(page: Any, phase: str) -> None:
    page.locator(f".casino-page[data-phase={phase}]").wait_for(state="attached")


def session_token(page: Any) -> str:
    (token,) = [c["value"] for c in page.context.cookies() if c["name"] == "twentyone_session"]
    return str(token)


async def _public(live: LiveServer, table: str) -> dict[str, Any]:
    return dict(live.server.services["casino"].public(table))


def table_state(live: LiveServer, table: str = TABLE) -> dict[str, Any]:
    """The table's public state as the server holds it now."""
    return live.call(_public, live, table)


def new_scripted_shoe(live: LiveServer, cards: list[str] = SHOE_TOP) -> str:
    """Put ``cards`` on top of a new shoe for the next round; that shoe's server seed."""
    live.push_cards(TABLE, " ".join(cards))
    return retire_shoe(live)


def retire_shoe(live: LiveServer) -> str:
    """Start a new shoe now (between rounds: the current one is retired, its seed revealed);
    the new shoe's server seed."""
    live.call(live.server.services["casino"].force_new_shoe, TABLE)
    shoe = table_state(live)["shoe"]
    assert shoe["cards_dealt"] == 0, shoe
    return live.seeds.by_commitment(shoe["commitment"])


def play_scripted_casino_round(
    live: LiveServer,
    alice: Any,
    bob: Any,
    step: Callable[[str], None] = lambda _name: None,
    pause: Callable[[str], None] = lambda _name: None,
) -> dict[str, Any]:
    """The players of pages ``alice`` (box 1) and ``bob`` (box 3) play the scripted round through their pages, from the
    table's page to its settlement; the settled public state. ``step(name)`` is called just
    before the actions that show new cards ("split", "dealer"); ``pause(name)`` at moments
    worth a screenshot ("betting", "dealt", "split")."""
    alice_name, bob_name = (api_get(page, live, "/api/me")["name"] for page in (alice, bob))
    for page in (alice, bob):
        page.goto(f"{live.url}/casino/{TABLE}")
    alice.get_by_role("button", name="Sit at box 1").click()
    bob.get_by_role("button", name="Sit at box 3").click()
    bob.locator(f'[aria-label="Box 1, {alice_name}"]').wait_for(state="attached")
    alice.locator(f'[aria-label="Box 3, {bob_name}"]').wait_for(state="attached")
    casino_bet(alice, ALICE_CHIPS)
    bob.get_by_role("button", name="Add a 25.00 chip").wait_for()
    pause("betting")
    casino_bet(bob, BOB_CHIPS)
    live.tick(0)  # every seated box has bet: the window closes and the cards are dealt

    wait_for_turn(alice, 1)
    dealt = table_state(live)
    cards = [card for box in dealt["boxes"] for hand in box["hands"] for card in hand["cards"]]
    assert cards == ["8S", "8D", "9H", "7C"], cards
    assert dealt["dealer"]["cards"] == ["6D"]
    assert "split" in dealt["legal_actions"]
    pause("dealt")

    step("split")
    click(alice, "Split")
    wait_for_turn(alice, 1, "Hand 1 of 2: 8S TS")
    pause("split")
    click(alice, "Stand")
    wait_for_turn(alice, 1, "Hand 2 of 2: 8D TH")
    click(alice, "Stand")
    wait_for_turn(bob, 3)
    step("dealer")
    click(bob, "Stand")
    wait_for_phase(alice, "settled")
    wait_for_phase(bob, "settled")

    settled = table_state(live)
    assert settled["dealer"]["cards"] == ["6D", *DEALER_DRAWS]
    hands = {box["box"]: box["hands"] for box in settled["boxes"] if box["hands"]}
    assert [hand["cards"] for hand in hands[1]] == [["8S", "TS"], ["8D", "TH"]]
    assert [hand["result"] for hand in [*hands[1], *hands[3]]] == ["win", "win", "win"]
    return settled


def balance(page: Any, live: LiveServer) -> int:
    return int(api_get(page, live, "/api/me")["balance"])
