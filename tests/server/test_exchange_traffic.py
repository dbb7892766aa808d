"""Traffic inspection: every WebSocket frame and every HTTP body a customer and a spectator get
during a whole seeded game, recorded in order, shows no card before its reveal and no game seed
before the game is over (nor anyone's ledger account to another)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from .exchange_helpers import TABLE, Exchange, ok

pytestmark = pytest.mark.anyio


@pytest.fixture
async def exchange(tmp_path: Any) -> AsyncIterator[Exchange]:
    made = Exchange({"url": f"sqlite:///{tmp_path / 'traffic.db'}", "schema": None})
    await made.start()  # no scripted cards: the game comes from its seed
    try:
        yield made
    finally:
        await made.stop()


def _shown(value: Any) -> int:
    """How many cards a message or body shows in its hands (and its list of turned cards)."""
    if isinstance(value, list):
        return sum(_shown(item) for item in value)
    if not isinstance(value, dict):
        return 0
    count = 0
    for key, item in value.items():
        if key == "cards" and isinstance(item, list) and "name" in value:
            count += len(item)  # a hand: {"name", "cards", ...}
        elif key == "cards" and isinstance(item, list) and item and isinstance(item[0], dict):
            count = max(count, len(item))  # the cards turned so far, in order
        elif key == "fairness" and item is not None:
            raise AssertionError(f"a fairness record before the game's end: {item}")
        else:
            count = max(count, _shown(item)) if key in ("hands", "dealer") else count + _shown(item)
    return count


async def test_no_card_or_seed_before_its_time(exchange: Exchange) -> None:
    ann, bob = await exchange.player("ann"), await exchange.player("bob")
    mine = exchange.socket(f"/api/exchange/tables/{TABLE}/stream", "ann")
    public = exchange.socket(f"/api/exchange/tables/{TABLE}/stream")
    recorded: list[tuple[str, Any, int]] = []  # (where, body, cards turned when it was sent)
    turned = 0

    def record(where: str, frames: list[dict[str, Any]]) -> None:
        nonlocal turned
        for frame in frames:
            if frame.get("type") == "reveal" and where == "public socket":
                turned += len(frame["cards"])  # a reveal shows the cards it turns
            recorded.append((where, frame, turned))

    record("ann socket", await mine.take(2))
    record("public socket", await public.take(1))
    game = recorded[0][1]["table"]["game"]
    ended = False
    refs = 0
    for _ in range(40):
        state = await ok(await ann.get(f"/api/exchange/tables/{TABLE}"))
        recorded.append(("GET table", state, turned))
        if state["game"] != game:
            break
        if state["phase"] == "betting":
            for client, side, price in ((ann, "back", "1.01"), (bob, "lay", "500")):
                refs += 1
                answer = await client.post(
                    "/api/exchange/orders",
                    json={
                        "table": TABLE,
                        "game": game,
                        "round": state["round"],
                        "selection": state["selections"][refs % 8]["name"],
                        "side": side,
                        "price": price,
                        "size": 200,
                        "ref": f"t{refs}",
                    },
                )
                recorded.append(("POST order", answer.json(), turned))
            recorded.append(
                (
                    "GET orders",
                    (await ann.get(f"/api/exchange/orders?table={TABLE}")).json(),
                    turned,
                )
            )
            recorded.append(
                (
                    "GET game",
                    (await ann.get(f"/api/exchange/tables/{TABLE}/games/{game}")).json(),
                    turned,
                )
            )
            record("ann socket", mine.drain())
            record("public socket", public.drain())
        await exchange.advance(30)
        frames = public.drain()
        mine_frames = mine.drain()
        if any(f.get("type") == "game-end" for f in frames):
            ended = True
            end_at = next(i for i, f in enumerate(frames) if f.get("type") == "game-end")
            record("public socket", frames[:end_at])
            record("ann socket", [f for f in mine_frames if f.get("type") != "game-end"][:end_at])
            seed = frames[end_at]["fairness"]["server_seed"]
            cards = frames[end_at]["fairness"]["cards"]
            break
        record("public socket", frames)
        record("ann socket", mine_frames)
        await exchange.advance(3)
        record("public socket", public.drain())
        record("ann socket", mine.drain())
    assert ended, "the game did not end in 40 windows"
    assert len(cards) >= 9 and len(recorded) > 20
    for where, body, turned_then in recorded:
        text = repr(body)
        assert seed not in text, f"{where} holds the game's seed before its end"
        assert _shown(body) <= turned_then, f"{where} shows a card before its reveal: {text[:300]}"
        if where == "public socket":
            assert "player:" not in text and "house:" not in text
    await mine.close()
    await public.close()
