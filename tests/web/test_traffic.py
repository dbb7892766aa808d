"""Traffic inspection (issue 14): every WebSocket frame and every HTTP response two browsers
see during a scripted Casino round, and one browser's during an Online round, recorded
(tests/web/traffic.py) and searched for what must not be there yet or at all: a card before it
is shown, the next cards of the shoe, the shoe's order, a server seed before its reveal, the
other player's balance or session token.

The Casino shoe's top is scripted through the test-only injection with cards chosen so that
each card that must stay hidden is a card no earlier step shows: finding its text in a frame
can only mean it leaked. The Online round is dealt from a committed seed the test chose, all
of whose first ten cards differ, so the hole card and the next cards are recognisable too.
"""

from __future__ import annotations

import re
from typing import Any

from tests.web.conftest import (
    LiveServer,
    api_get,
    page_errors,
    register,
    steer_online_round,
)
from tests.web.play import (
    ALICE_BET,
    BOB_BET,
    DEALER_DRAWS,
    SPLIT_CARDS,
    TABLE,
    UNDEALT,
    new_scripted_shoe,
    play_scripted_casino_round,
    retire_shoe,
    session_token,
)
from tests.web.traffic import Traffic, card_tokens, json_number
from twentyone.cards import Card
from twentyone.fairness import commitment

GRANT = 100_000
#: What the public state may say about the shoe (never its order).
SHOE_KEYS = {"id", "commitment", "client_seed", "decks", "cards_dealt", "cut_card"}
SHOE_KEYS |= {"reshuffle_after_round", "position"}
#: More card strings than one message of this round can honestly carry means a shoe leaked.
CARDS_PER_MESSAGE = 60


def mark(name: str, *logs: Traffic) -> None:
    for log in logs:
        log.mark(name)


def test_a_scripted_casino_round_shows_two_browsers_nothing_early_or_private(
    live_server: LiveServer, new_page: Any
) -> None:
    live = live_server
    alice_page, bob_page = new_page("desktop"), new_page("desktop")
    alice, bob = Traffic("alice").attach(alice_page), Traffic("bob").attach(bob_page)
    register(alice_page, live, "alice")
    register(bob_page, live, "bob")
    tokens = {"alice": session_token(alice_page), "bob": session_token(bob_page)}

    seed = new_scripted_shoe(live)
    # A spectator, not signed in, watches from a phone.
    watcher_page = new_page("phone")
    watcher = Traffic("spectator").attach(watcher_page)
    watcher_page.goto(f"{live.url}/casino/{TABLE}")
    watcher_page.locator(".casino-page").wait_for(state="attached")
    logs = (alice, bob, watcher)
    play_scripted_casino_round(live, alice_page, bob_page, step=lambda name: mark(name, *logs))
    balances = {
        "alice": [GRANT - ALICE_BET, GRANT - 2 * ALICE_BET, GRANT + 2 * ALICE_BET],
        "bob": [GRANT - BOB_BET, GRANT + BOB_BET],
    }
    assert api_get(alice_page, live, "/api/me")["balance"] == balances["alice"][-1]
    assert api_get(bob_page, live, "/api/me")["balance"] == balances["bob"][-1]

    # The shoe is retired: its seed may be shown now (and each player's round verified).
    mark("retired", *logs)
    next_seed = retire_shoe(live)
    for page in (alice_page, bob_page):
        page.evaluate("() => fetch('/api/casino/rounds').then((r) => r.json())")
    for page in (alice_page, bob_page, watcher_page):
        page.evaluate(f"() => fetch('/api/casino/tables/{TABLE}').then((r) => r.json())")

    for log in logs:
        # Each card only once shown (the checks are live: each is seen later on).
        for card in SPLIT_CARDS + DEALER_DRAWS:
            assert not log.where(f'"{card}"', until="split"), (log.label, card)
            assert log.contains(f'"{card}"', since="dealer"), (log.label, card)
        for card in DEALER_DRAWS:
            assert not log.where(f'"{card}"', until="dealer"), (log.label, card)
        # The next cards and the shoe's order: never.
        for card in UNDEALT:
            assert not log.where(f'"{card}"'), (log.label, card)
        for item in log.data():
            assert len(card_tokens(item.text)) <= CARDS_PER_MESSAGE, item.where
        states = [f for f in log.frames() if isinstance(f, dict) and f.get("type") == "state"]
        assert states, log.summary()
        for frame in states:
            assert set(frame["table"]["shoe"]) <= SHOE_KEYS, frame["table"]["shoe"]
        # The seed: not before the shoe is retired; the next shoe's seed not at all.
        assert not log.where(seed, until="retired"), log.label
        if log is not watcher:  # a player's own rounds carry their seed once it is revealed
            assert log.contains(seed, since="retired"), log.label
        assert not log.where(next_seed), log.label
        # No session token in any body or frame (HttpOnly cookies only).
        for name, token in tokens.items():
            assert not log.where(token), (log.label, name)

    # The other player's money: never in one's traffic; one's own is (so the search works).
    for me, other, my_log, other_log in (
        ("alice", "bob", alice, bob),
        ("bob", "alice", bob, alice),
    ):
        for amount in balances[me]:
            assert my_log.contains(json_number(amount)), (me, amount)
            assert not other_log.where(json_number(amount)), (other, "sees", me, amount)
        mine = {"alice": [1], "bob": [3]}[me]
        for frame in my_log.frames():
            if isinstance(frame, dict) and frame.get("type") == "private":
                assert set(frame["boxes"]) <= set(mine), frame
                assert frame["balance"] in [GRANT, *balances[me]], frame
    # The spectator: the public table only, nobody's money.
    assert not [f for f in watcher.frames() if isinstance(f, dict) and f.get("type") == "private"]
    for amount in balances["alice"] + balances["bob"]:
        assert not watcher.where(json_number(amount)), ("the spectator sees", amount)
    pages = (alice_page, bob_page, watcher_page)
    assert not [e for page in pages for e in page_errors(page) if "page error" in e]


def _online_shoe(shoe: list[Card]) -> bool:
    """A deal with a decision to make (no ace or ten up, no player blackjack), whose first ten
    cards all differ: the hole card and the next cards are each recognisable."""
    first = [str(card) for card in shoe[:10]]
    player = {shoe[0].value, shoe[2].value}
    return len(set(first)) == 10 and shoe[1].value not in (1, 10) and player != {1, 10}


def test_an_online_round_shows_no_hole_card_next_card_or_seed_early(
    live_server: LiveServer, new_page: Any
) -> None:
    live = live_server
    page = new_page("desktop")
    log = Traffic("alice").attach(page)
    register(page, live, "alice")
    shoe = [str(card) for card in steer_online_round(live, "alice", _online_shoe)]
    seed = live.seeds.given[-1]
    page.goto(f"{live.url}/online")
    page.get_by_role("button", name="Add a 5.00 chip").click()
    page.get_by_role("button", name=re.compile(r"^Deal 5\.00")).click()
    page.get_by_role("button", name="Stand", exact=True).and_(page.locator(":enabled")).wait_for()
    shown = api_get(page, live, "/api/online/rounds?limit=1")["rounds"][0]
    assert shown["hands"][0]["cards"] == [shoe[0], shoe[2]]
    assert shown["dealer"]["cards"] == [shoe[1]]
    next_commitment = api_get(page, live, "/api/fairness")["commitment"]
    next_seed = live.seeds.by_commitment(next_commitment)

    mark("stand", log)
    page.get_by_role("button", name="Stand", exact=True).click()
    page.get_by_role("button", name=re.compile(r"^Deal")).wait_for()
    settled = api_get(page, live, f"/api/online/rounds/{shown['id']}")
    assert settled["state"] == "settled"
    dealt = [*settled["hands"][0]["cards"], *settled["dealer"]["cards"]]
    undealt = [card for card in shoe[:10] if card not in dealt]
    assert undealt  # at most 2 + 8 of the ten were dealt
    assert not log.where(f'"{shoe[3]}"', until="stand"), (
        "the hole card was sent before it was shown"
    )
    assert log.contains(f'"{shoe[3]}"', since="stand")
    for card in undealt:
        assert not log.where(f'"{card}"'), f"the undealt {card} was sent"
    assert not log.where(seed, until="stand"), "the round's seed was sent before it settled"
    assert log.contains(seed, since="stand"), "the settled round shows its seed"
    assert not log.where(next_seed), "the next round's seed was sent"
    assert log.contains(commitment(seed), until="stand")  # the round's commitment: shown
    assert not [e for e in page_errors(page) if "page error" in e]
