"""Every page of the site at phone (360x740) and desktop (1366x768) size, saved as
``artifacts/screenshots/site-<page>-<size>.png`` (a folder CI keeps) from a server with a
lived-in floor: an operator, two players, settled Online and Casino rounds in the history, an
Online round waiting for its player's decision and a Casino round in play at the moment of the
shots. Each page must draw without a script error and leave no "loading" placeholder.

People look at these files (docs/web.md); the test itself checks that each page drew.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.web.conftest import (
    PASSWORD,
    LiveServer,
    page_errors,
    screenshot,
    sign_in,
    steer_online_round,
)
from tests.web.play import (
    ALICE_BET,
    BOB_BET,
    TABLE,
    new_scripted_shoe,
    retire_shoe,
    table_state,
)
from twentyone.cards import Card
from twentyone.server.app import open_player

SIZES = ("desktop", "phone")
#: Placeholders the pages show while they wait for the server.
LOADING = (".loading",)


def _decision(shoe: list[Card]) -> bool:
    """A deal that waits for the player: no ace or ten up, no player blackjack."""
    return shoe[1].value not in (1, 10) and {shoe[0].value, shoe[2].value} != {1, 10}


def _client(live: LiveServer, name: str, make: bool = True) -> httpx.Client:
    client = httpx.Client(base_url=live.url)
    path = "/api/accounts" if make else "/api/session"
    answer = client.post(path, json={"name": name, "password": PASSWORD})
    assert answer.status_code in (200, 201), answer.text
    return client


def _ok(answer: httpx.Response) -> Any:
    assert answer.is_success, f"{answer.request.method} {answer.request.url}: {answer.text}"
    return answer.json()


def _online_round(live: LiveServer, client: httpx.Client, name: str, settle: bool) -> int:
    steer_online_round(live, name, _decision)
    view = _ok(client.post("/api/online/rounds", json={"bet": 2500}))
    if settle:
        view = _ok(
            client.post(f"/api/online/rounds/{view['id']}/actions", json={"action": "stand"})
        )
        assert view["state"] == "settled", view
        live.tick(75)  # the next round a while later (never while a round is in play)
    return int(view["id"])


def _casino_deal(live: LiveServer, alice: httpx.Client, bob: httpx.Client) -> None:
    """Alice on box 1 and bob on box 3 bet; the scripted shoe's round is dealt."""
    state = table_state(live)
    for client, box in ((alice, 1), (bob, 3)):
        if not any(b["box"] == box and b["player"] for b in state["boxes"]):
            _ok(client.post(f"/api/casino/tables/{TABLE}/seats", json={"box": box}))
    round_number = table_state(live)["round"]
    for client, box, amount in ((alice, 1, ALICE_BET), (bob, 3, BOB_BET)):
        body = {"box": box, "amount": amount, "round": round_number}
        _ok(client.post(f"/api/casino/tables/{TABLE}/bets", json=body))
    live.tick(0)
    assert table_state(live)["phase"] == "playing"


def _casino_act(live: LiveServer, client: httpx.Client, box: int, action: str) -> None:
    state = table_state(live)
    body = {"box": box, "action": action, "step": state["step"]}
    _ok(client.post(f"/api/casino/tables/{TABLE}/actions", json=body))


@pytest.fixture
def floor(live_server: LiveServer) -> Iterator[dict[str, Any]]:
    """The lived-in server of the module's docstring; the ids of its rounds."""
    live = live_server

    async def operator() -> None:
        hashed = live.server.config.hasher.hash(PASSWORD)
        async with live.server.write() as session:
            await open_player(session, live.server, "olga", hashed, role="operator")

    live.call(operator)
    alice, bob = _client(live, "alice"), _client(live, "bob")
    try:
        settled = _online_round(live, alice, "alice", settle=True)
        _online_round(live, bob, "bob", settle=True)
        # A whole Casino round (split, stands, the dealer busts), its shoe then retired.
        new_scripted_shoe(live)
        _casino_deal(live, alice, bob)
        _casino_act(live, alice, 1, "split")
        for client, box in ((alice, 1), (alice, 1), (bob, 3)):
            _casino_act(live, client, box, "stand")
        assert table_state(live)["phase"] == "settled"
        (casino,) = _ok(alice.get("/api/casino/rounds"))["rounds"]
        retire_shoe(live)
        live.tick(10)  # the pause after the round: the next betting window
        # In play at the moment of the shots (the clock stands still from here): an Online
        # round of alice's waiting for her decision, and a Casino round where alice has split
        # and her first hand is to act.
        open_online = _online_round(live, alice, "alice", settle=False)
        new_scripted_shoe(live)
        _casino_deal(live, alice, bob)
        _casino_act(live, alice, 1, "split")
        yield {"online": settled, "casino": casino["id"], "open": open_online}
    finally:
        alice.close()
        bob.close()


def _pages(rounds: dict[str, Any]) -> dict[str, list[tuple[str, str]]]:
    """Who looks at what: ``(screenshot name, path)`` for each viewer."""
    return {
        "anonymous": [("lobby-signed-out", "/"), ("login", "/login"), ("register", "/register")],
        "alice": [
            ("lobby", "/"),
            ("account", "/account"),
            ("online-mid-round", "/online"),
            ("casino-mid-round", f"/casino/{TABLE}"),
            ("history", "/history"),
            ("replay-online", f"/history/online/{rounds['online']}"),
            ("replay-casino", f"/history/casino/{rounds['casino']}"),
            ("rules-casino", "/rules/casino"),
            ("rules-online", "/rules/online"),
            ("rules-vinte", "/rules/vinte"),
            ("rules-exchange", "/rules/exchange"),
            ("lab", "/lab"),
        ],
        "olga": [
            ("admin", "/admin"),
            ("admin-tables", "/admin/tables"),
            ("admin-rounds", "/admin/rounds"),
            ("admin-replay-online", f"/admin/rounds/online/{rounds['open']}"),
            ("admin-replay-casino", f"/admin/rounds/casino/{rounds['casino']}"),
            ("admin-accounts", "/admin/accounts"),
            ("admin-audit", "/admin/audit"),
        ],
    }


@pytest.mark.slow
def test_every_page_draws_at_both_sizes_and_is_saved(
    live_server: LiveServer, floor: dict[str, Any], new_page: Any
) -> None:
    live = live_server
    problems: list[str] = []
    for size in SIZES:
        for viewer, pages in _pages(floor).items():
            page = new_page(size)
            if viewer != "anonymous":
                sign_in(page, live, viewer)
            for name, path in pages:
                page.goto(f"{live.url}{path}")
                page.wait_for_load_state("networkidle", timeout=180_000)
                for selector in LOADING:
                    page.locator(selector).first.wait_for(state="detached", timeout=120_000)
                screenshot(page, f"site-{name}-{size}")
                errors = [error for error in page_errors(page) if "page error" in error]
                problems += [f"{path} ({viewer}, {size}): {error}" for error in errors]
                page_errors(page).clear()
            page.context.close()
    assert not problems, "\n".join(problems)
