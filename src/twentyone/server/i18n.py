"""The languages over HTTP: which one a request reads, and the web interface's catalogues.

- ``GET /api/i18n``: ``{"language", "source", "languages": [{"code", "name"}]}``, the language
  chosen for this request: the ``lang`` cookie if it names one of ours, else the best of the
  browser's ``Accept-Language``, else English (:func:`twentyone.i18n.negotiate`).
- ``GET /api/i18n/{lang}``: ``{"language", "plurals", "messages"}``, the messages the web
  interface uses (msgid -> translation; plural forms as a list keyed by the singular msgid),
  untranslated ones left out (the page shows its English). It has an ``ETag``; a request with
  ``If-None-Match`` of the same tag is answered 304.

:func:`request_translation` is what every part of the server uses to answer a request in its
language (errors in ``app.py``'s handlers, the rules texts in ``records.py``). An error a raise
site marked (``ApiError(status, N_("template {x}"), x=...)``) is translated from its template;
one raised with finished English text (the library's exceptions, older raise sites) is matched
against the extracted templates (:func:`translate_message`) and stays English when none fits.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from typing import Any, Final

from fastapi import FastAPI, Request, Response

from twentyone.i18n import (
    LANGUAGES,
    N_,
    SOURCE,
    Translation,
    catalogue,
    negotiate,
    placeholders,
    translation,
)
from twentyone.server.context import Server
from twentyone.server.errors import ApiError, Phrase, marked

#: The cookie the language switcher sets.
COOKIE = "lang"

#: Errors a person meets in the web interface that are raised, as finished English text, by
#: modules that do not mark them (the library's game rules, the Online and Casino services):
#: their templates, written exactly as those modules word them, so that the handler's matching
#: (:func:`translate_message`) answers them translated. Keep in step with the raise sites.
KNOWN_ERRORS: Final = (
    # Online Blackjack (server/online.py)
    N_("bet {bet} is off the table limits {low}..{high}"),
    N_("a bet of {bet} is more than the balance"),
    N_("round {round} is still open: finish it first"),
    N_("round {round} moved on meanwhile; read it again"),
    N_("round {round} is {state}; no action is possible"),
    N_("stale action: round {round} is at step {step}, not {expected}"),
    N_("{action} needs {extra} more than the balance holds"),
    # The house rules' refusals (house/round.py)
    N_("the round is settled; no action is legal"),
    N_("doubling is not allowed at this table"),
    N_("doubling after a split is not allowed at this table"),
    N_("surrender is not offered at this table"),
    N_("{who} has {cards} cards; double needs the first two"),
    N_("{who} totals {total}; this table doubles only on {double}"),
    N_("{who} has {cards} cards; only a two-card pair splits"),
    N_("{who} holds {first} {second}; only cards of equal rank split here"),
    N_("{who} holds {first} {second}; only cards of equal value split"),
    N_("box {box} already has {hands} hands; the limit is {limit}"),
    N_("{who} is a split ace; aces are not resplit at this table"),
    # Casino tables (tables/casino.py, server/casino.py)
    N_("box {box} is taken"),
    N_("box {box} is not yours"),
    N_("box {box} has a bet in this round: it stays"),
    N_("box {box} is in play: leave after the round"),
    N_("no bets now: the table is {phase}"),
    N_("box {box} has already bet {amount}"),
    N_("box {box} has no hand in play"),
    N_("it is box {turn}'s turn, not box {box}'s"),
    N_("that stake is more than your balance"),
    # Signing in (server/context.py)
    N_("sign in first: a bearer token or a session cookie is needed"),
    N_("the token or session is not valid (sign in again)"),
    N_("this needs an operator account"),
    N_("limit must be 1 to {most}, got {limit}"),
    # Pages' look-ups that the Online, Casino, Vinte-e-um and Exchange services raise with
    # not_found("<noun phrase>") (worded "there is no ..." by server/errors.py)
    N_("there is no round {round}"),
    N_("there is no player of round {round}"),
    N_("there is no online table"),
    N_("there is no casino table {table}"),
    N_("there is no casino round {round}"),
    N_("there is no casino service on this server"),
    N_("there is no vinte table {table}"),
    N_("there is no settled round {number} at vinte table {table}"),
    N_("there is no exchange table {table}"),
    N_("there is no order {order} of yours"),
    N_("there is no game {number} at {table}"),
    # Exchange tables (server/exchange.py)
    N_("no game is running at this table"),
)


def request_language(request: Request) -> str:
    """The language of a request: the ``lang`` cookie, else ``Accept-Language``, else English."""
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return negotiate(request.headers.get("accept-language"))


def request_translation(request: Request) -> Translation:
    return translation(request_language(request))


@cache
def _patterns(language: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """The catalogue's templates (from Python files) with placeholders as regular expressions
    over their English, longest literal text first (the most specific template wins)."""
    found: list[tuple[int, re.Pattern[str], str]] = []
    entry = catalogue(language)
    for msgid in entry.translation.messages:
        # The server's own templates only: a web page's sentence is never an API error.
        if msgid not in entry.python or not placeholders(msgid):
            continue
        parts = re.split(r"\{(\w+)\}", msgid)
        literal = "".join(parts[0::2])
        if len(literal.strip()) < 8:  # "{a} to {b}" would match nearly anything
            continue
        seen: set[str] = set()
        regex = ""
        for index, part in enumerate(parts):
            if index % 2 == 0:
                regex += re.escape(part)
            elif part in seen:
                regex += f"(?P={part})"
            else:
                seen.add(part)
                regex += f"(?P<{part}>.+?)"
        found.append((len(literal), re.compile(regex, re.DOTALL), msgid))
    found.sort(key=lambda item: -item[0])
    return tuple((pattern, msgid) for _, pattern, msgid in found)


def translate_message(t: Translation, message: str) -> str:
    """A finished English message in ``t``'s language, when the catalogue has it or one of its
    templates matches it (the placeholders' values carried over); else the message itself.

    >>> translate_message(Translation("fi", {"ties push": "tasapeli palauttaa"}), "ties push")
    'tasapeli palauttaa'
    """
    if t.language == SOURCE:
        return message
    if message in t.messages:
        return t.gettext(message)
    for pattern, msgid in _patterns(t.language):
        found = pattern.fullmatch(message)
        if found:
            return t._(msgid, **found.groupdict())
    return message


def translate_error(t: Translation, error: ApiError) -> str:
    """An API error in ``t``'s language: from its template when the raise site marked one (a
    :class:`~twentyone.server.errors.Phrase` parameter translated too), else matched.

    >>> finnish = Translation("fi", {"there is no table {table} of this game": "pöytää {table} ei ole"})
    >>> translate_error(finnish, marked(404, "there is no table {table} of this game", table="'x'"))
    "pöytää 'x' ei ole"
    """
    if error.template is None:
        return translate_message(t, error.message)
    params = {
        name: translate_message(t, value) if isinstance(value, Phrase) else value
        for name, value in error.params.items()
    }
    return t._(error.template, **params)


#: The parts of a request whose names pydantic puts first in a problem's location.
_SOURCES: Final = frozenset({"body", "query", "path", "header", "cookie"})
#: pydantic's problem types -> a template with {field} (the others: "{field}: {problem}").
_PROBLEMS: Final = {
    "missing": N_("{field} is required"),
    "string_type": N_("{field} must be text"),
    "int_type": N_("{field} must be a whole number"),
    "int_parsing": N_("{field} must be a whole number"),
    "int_from_float": N_("{field} must be a whole number"),
    "float_type": N_("{field} must be a number"),
    "float_parsing": N_("{field} must be a number"),
    "finite_number": N_("{field} must be a number"),
    "bool_type": N_("{field} must be true or false"),
    "bool_parsing": N_("{field} must be true or false"),
    "dict_type": N_("{field} must be an object"),
    "model_type": N_("{field} must be an object"),
    "model_attributes_type": N_("{field} must be an object"),
    "list_type": N_("{field} must be a list"),
    "string_pattern_mismatch": N_("{field} is not in the expected form"),
    "extra_forbidden": N_("{field} is not a field of this request"),
    "greater_than_equal": N_("{field} must be at least {limit}"),
    "greater_than": N_("{field} must be more than {limit}"),
    "less_than_equal": N_("{field} must be at most {limit}"),
    "less_than": N_("{field} must be less than {limit}"),
    "literal_error": N_("{field} must be one of {choices}"),
    "enum": N_("{field} must be one of {choices}"),
}
#: The problems of the request as a whole (no field): the body missing or unreadable.
_WHOLE: Final = {
    "missing": N_("the request body is missing"),
    "json_invalid": N_("the request body is not valid JSON"),
    "dict_type": N_("the request body must be a JSON object"),
    "model_type": N_("the request body must be a JSON object"),
    "model_attributes_type": N_("the request body must be a JSON object"),
}


def _limit(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def validation_message(t: Translation, problems: Any) -> str:
    """One sentence, in ``t``'s language, for the first of pydantic's validation problems (the
    request validation errors of FastAPI): by the problem's type and context, never pydantic's
    English ``msg``, which only a type not listed here falls back to.

    >>> validation_message(Translation("en"), [{"type": "string_too_long", "loc": ("body", "reason"),
    ...     "msg": "String should have at most 500 characters", "ctx": {"max_length": 500}}])
    'reason may have at most 500 characters'
    >>> validation_message(Translation("en"), [{"type": "json_invalid", "loc": ("body", 1), "msg": "?"}])
    'the request body is not valid JSON'
    """
    for problem in problems:
        kind = str(problem.get("type", ""))
        loc = [str(part) for part in problem.get("loc", ())]
        if loc and loc[0] in _SOURCES:
            loc = loc[1:]
        context = problem.get("ctx") or {}
        if kind == "json_invalid" or (not loc and kind in _WHOLE):
            return t._(_WHOLE.get(kind, _WHOLE["json_invalid"]))
        field = ".".join(loc)
        if not field:
            break
        if kind in ("string_too_short", "too_short") and context.get("min_length") == 1:
            return t._("{field} must not be empty", field=field)
        if kind == "string_too_short":
            count = int(context.get("min_length", 0))
            return t.n_(
                "{field} needs at least {n} character",
                "{field} needs at least {n} characters",
                count,
                field=field,
            )
        if kind == "string_too_long":
            count = int(context.get("max_length", 0))
            return t.n_(
                "{field} may have at most {n} character",
                "{field} may have at most {n} characters",
                count,
                field=field,
            )
        if kind == "too_short":
            count = int(context.get("min_length", 0))
            return t.n_(
                "{field} needs at least {n} item",
                "{field} needs at least {n} items",
                count,
                field=field,
            )
        if kind == "too_long":
            count = int(context.get("max_length", 0))
            return t.n_(
                "{field} may have at most {n} item",
                "{field} may have at most {n} items",
                count,
                field=field,
            )
        template = _PROBLEMS.get(kind)
        if template is not None:
            limit = next((context[key] for key in ("ge", "gt", "le", "lt") if key in context), "")
            choices = re.sub(r"\s+or\s+", ", ", str(context.get("expected", "")))
            return t._(template, field=field, limit=_limit(limit), choices=choices)
        message = str(problem.get("msg", ""))
        message = message.removeprefix("Value error, ")  # a validator's own message
        return t._("{field}: {problem}", field=field, problem=translate_message(t, message))
    return t._("the request is malformed")


#: The framework's own refusals (an unknown path, a wrong method), by status.
_HTTP: Final = {
    404: N_("there is no such page"),
    405: N_("this method is not allowed here"),
}


def http_message(t: Translation, status: int, detail: object) -> str:
    """The sentence for one of the framework's HTTP errors (Starlette's English details, such
    as "Not Found", replaced by ours)."""
    if status in _HTTP and detail in ("Not Found", "Method Not Allowed"):
        return t._(_HTTP[status])
    if isinstance(detail, str):
        return translate_message(t, detail)
    return t._("the request was refused")


def _body(language: str) -> tuple[bytes, str]:
    entry = catalogue(language)
    messages = {
        key: list(value) if isinstance(value, tuple) else value for key, value in entry.web.items()
    }
    body = json.dumps(
        {"language": language, "plurals": entry.plurals, "messages": messages},
        ensure_ascii=False,
        sort_keys=True,
        separators=(",", ":"),
    ).encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


_bodies = cache(_body)


def install(app: FastAPI, server: Server) -> None:
    """Adds the language routes."""
    del server  # the catalogues are package data, the same for every server

    @app.get("/api/i18n", tags=["languages"])
    async def chosen(request: Request) -> dict[str, Any]:
        """The language this browser is answered in, and the languages there are."""
        return {
            "language": request_language(request),
            "source": SOURCE,
            "languages": [{"code": code, "name": name} for code, name in LANGUAGES.items()],
        }

    @app.get("/api/i18n/{lang}", tags=["languages"])
    async def messages(lang: str, request: Request) -> Response:
        """The web interface's messages in a language (cacheable: revalidate with the ETag)."""
        if lang not in LANGUAGES:
            raise marked(
                404,
                N_("there is no language {language} (the languages are {languages})"),
                language=repr(lang),
                languages=", ".join(LANGUAGES),
            )
        body, tag = _bodies(lang)
        headers = {"etag": tag, "cache-control": "no-cache"}
        if request.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)
