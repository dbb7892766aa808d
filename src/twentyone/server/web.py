"""The web interface's files: ``/static/...`` from the package's ``web`` folder, and
``index.html`` for every page path of the single-page application (``web/js/routes.js``).

The web interface is static files only (ES modules, CSS, SVG, sounds); it talks to the server
through the API like any other client, so nothing here imports it: the folder is found as
package data.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from twentyone.server.context import Server

#: The page paths of ``web/js/routes.js`` (":name" parameters), answered with index.html.
PAGES = (
    "/",
    "/login",
    "/register",
    "/account",
    "/history",
    "/history/:kind/:id",
    "/rules/:game",
    "/online",
    "/casino/:id",
    "/lab",
    "/admin",
    "/admin/tables",
    "/admin/rounds",
    "/admin/rounds/:kind/:id",
    "/admin/accounts",
    "/admin/audit",
)


def web_folder() -> Path:
    """Where the web interface's files are (inside the installed package)."""
    return Path(str(resources.files("twentyone") / "web"))


def _route(pattern: str) -> str:
    """``/casino/:id`` as FastAPI's ``/casino/{id}``."""
    return re.sub(r":([a-z]+)", r"{\1}", pattern)


def install(app: FastAPI, server: Server) -> None:
    folder = web_folder()
    index = folder / "index.html"
    app.mount("/static", StaticFiles(directory=folder), name="static")

    async def page() -> FileResponse:
        # no-cache: a new release's pages are fetched at once (the modules are revalidated too).
        return FileResponse(index, media_type="text/html", headers={"cache-control": "no-cache"})

    for pattern in PAGES:
        app.add_api_route(_route(pattern), page, methods=["GET"], include_in_schema=False)
