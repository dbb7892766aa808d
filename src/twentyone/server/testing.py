"""Test-only hooks: card injection and time, for the browser and API tests.

Installed only when the configuration carries a :class:`~twentyone.server.config.CardScript`,
which only Python code can make (``twentyone serve`` has no option, setting or environment
variable for it), so a production server has none of these routes: each answers 404 there.
They are left out of the OpenAPI document too.

- ``POST /api/test/cards {"table", "cards": "AS TD ..."}``: queue a deck order for a table
  (``"online"``: the next Online round's cards, in dealing order; a Casino table id: the top
  of its next shoe; a Vinte-e-um table id: the top of its next round's deck).
- ``POST /api/test/tick {"seconds"}``: advance the server's :class:`~twentyone.clock.ManualClock`
  and await ``tick()`` of every service that has one (the Casino and Vinte-e-um tables), so
  that every deadline now due is processed before the answer.
- ``POST /api/test/casino/{id}/reshuffle``: the table starts a new shoe at its next round.

>>> from twentyone.server.app import create_app
>>> from twentyone.server.config import CardScript, ServerConfig
>>> def test_routes(config: ServerConfig) -> list[str]:
...     app = create_app(config)
...     return sorted(r.path for r in app.routes if getattr(r, "path", "").startswith("/api/test"))
>>> test_routes(ServerConfig(db_url="sqlite:///:memory:"))
[]
>>> test_routes(ServerConfig(db_url="sqlite:///:memory:", card_script=CardScript()))
['/api/test/cards', '/api/test/casino/{table_id}/reshuffle', '/api/test/tick']
"""

from __future__ import annotations

import inspect
from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from twentyone.cards import parse_cards
from twentyone.clock import ManualClock
from twentyone.errors import TwentyOneError
from twentyone.server.config import CardScript
from twentyone.server.context import Server, TableId
from twentyone.server.errors import conflict, not_found, unprocessable

#: The most cards one push may carry (a few shoes' worth: enough for any scripted test).
MAX_CARDS = 8 * 52 * 3
#: The most one tick may advance the clock (a day: far beyond any table's deadline).
MAX_TICK_SECONDS = 86_400.0


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CardsBody(_Body):
    #: ``"online"`` or a Casino table id.
    table: StrictStr = Field(pattern="^[a-z0-9_-]{1,32}$")
    #: Cards in the library's notation, space or comma separated: ``"AS TD 9H"``.
    cards: StrictStr = Field(min_length=2, max_length=MAX_CARDS * 3)


class TickBody(_Body):
    seconds: float = Field(ge=0, le=MAX_TICK_SECONDS, allow_inf_nan=False)


def install(app: FastAPI, server: Server) -> None:
    """Adds the ``/api/test/...`` routes, only when the configuration has a card script."""
    script = server.config.card_script
    if script is None:
        return
    _install_routes(app, server, script)


def _install_routes(app: FastAPI, server: Server, script: CardScript) -> None:
    @app.post("/api/test/cards", status_code=201, include_in_schema=False)
    async def push_cards(body: CardsBody) -> dict[str, Any]:
        try:
            cards = parse_cards(body.cards)
        except TwentyOneError as error:
            raise unprocessable(f"cards: {error}") from None
        if not cards or len(cards) > MAX_CARDS:
            raise unprocessable(f"cards: 1 to {MAX_CARDS} cards, got {len(cards)}")
        script.push(body.table, cards)
        return {"table": body.table, "cards": [str(card) for card in cards]}

    @app.post("/api/test/tick", include_in_schema=False)
    async def tick(body: TickBody) -> dict[str, Any]:
        clock = server.config.clock
        if not isinstance(clock, ManualClock):
            raise conflict("the server's clock is not a manual clock; time cannot be moved")
        clock.advance(body.seconds)
        ticked = await tick_services(server)
        return {"now": server.now(), "ticked": ticked}

    @app.post("/api/test/casino/{table_id}/reshuffle", include_in_schema=False)
    async def reshuffle(table_id: TableId) -> dict[str, Any]:
        tables = server.services.get("casino")
        force = getattr(tables, "force_new_shoe", None)
        if force is None:
            raise not_found("casino service on this server")
        try:
            outcome = force(table_id)
            if inspect.isawaitable(outcome):
                await outcome
        except KeyError:
            raise not_found(f"casino table {table_id!r}") from None
        return {"table": table_id, "new_shoe_at_next_round": True}


async def tick_services(server: Server) -> list[str]:
    """Await ``tick()`` of every service that has one, in installation order; their names."""
    ticked: list[str] = []
    for name, service in server.services.items():
        tick = getattr(service, "tick", None)
        if callable(tick):
            outcome = tick()
            if inspect.isawaitable(outcome):
                await outcome
            ticked.append(name)
    return ticked
