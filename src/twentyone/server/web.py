"""The web interface's files: ``/static/...`` from the package's ``web`` folder, and
``index.html`` for every page path of the single-page application (``web/js/routes.js``).

The web interface is static files only (ES modules, CSS, SVG, sounds); it talks to the server
through the API like any other client, so nothing here imports it: the folder is found as
package data.
"""

from __future__ import annotations

import re
from html import escape
from importlib import resources
from pathlib import Path
from typing import Final

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from twentyone.i18n import N_, SOURCE, translation
from twentyone.server.context import Server
from twentyone.server.i18n import request_language

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
    "/exchange/:id",
    "/vinte",
    "/vinte/:id",
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


#: index.html's own sentences (its description, the line shown without JavaScript), worded
#: exactly as index.html has them: each language's copy has them translated.
INDEX_TEXTS: Final = (
    N_(
        "Play-money blackjack, four ways: live Casino tables, provably fair Online Blackjack"
        " and a rules lab."
    ),
    N_("twentyone needs JavaScript in the browser."),
)


def localised_page(index: str, language: str) -> str:
    """index.html in ``language``: its ``<html lang>`` that language's tag (marked as the
    server's choice: web/js/i18n.js then needs no request to learn it), its sentences translated.

    >>> localised_page('<!doctype html><html lang="en"><body></body></html>', "pt-BR")
    '<!doctype html><html lang="pt-BR" data-lang-from="server"><body></body></html>'
    """
    marked = f'<html lang="{language}" data-lang-from="server">'
    text, count = re.subn(r'<html lang="[^"]*">', marked, index, count=1)
    if count != 1:  # a changed index.html must not silently lose the page's language
        raise ValueError('index.html has no <html lang="..."> to set')
    t = translation(language)
    for sentence in INDEX_TEXTS:
        text = text.replace(escape(sentence), escape(t.gettext(sentence)))
    return text


def install(app: FastAPI, server: Server) -> None:
    folder = web_folder()
    index = (folder / "index.html").read_text(encoding="utf-8")
    # Each language's copy is made on its first request (English at once, which checks the
    # file): start-up reads no catalogue.
    pages = {SOURCE: localised_page(index, SOURCE)}
    app.mount("/static", StaticFiles(directory=folder), name="static")

    async def page(request: Request) -> HTMLResponse:
        # In the request's language (the `lang` cookie, else Accept-Language: docs/i18n.md), so
        # the first paint, a screen reader and a search engine read the right <html lang> before
        # any script runs (web/js/i18n.js sets it again when the language is switched).
        # no-cache: a new release's pages are fetched at once (the modules are revalidated too);
        # Vary: the page differs by the headers that choose its language.
        language = request_language(request)
        if language not in pages:
            pages[language] = localised_page(index, language)
        return HTMLResponse(
            pages[language],
            headers={"cache-control": "no-cache", "vary": "cookie, accept-language"},
        )

    for pattern in PAGES:
        app.add_api_route(_route(pattern), page, methods=["GET"], include_in_schema=False)
