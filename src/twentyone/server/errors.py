"""API errors: every refusal is a 4xx with ``{"error": "<one sentence>"}``."""

from __future__ import annotations

from twentyone.i18n import fill


class ApiError(Exception):
    """A refusal with its HTTP status; nothing was changed.

    With ``params`` the message is a template marked for translation (``N_()``, docs/i18n.md):
    the error handler answers it in the request's language, its ``{name}`` placeholders filled.

    >>> error = ApiError(409, "the name {name} is taken", name="'ann'")
    >>> error.message, error.template, error.params
    ("the name 'ann' is taken", 'the name {name} is taken', {'name': "'ann'"})
    """

    def __init__(self, status: int, message: str, **params: object) -> None:
        text = fill(message, params) if params else message
        super().__init__(text)
        self.status = status
        self.message = text
        #: The untranslated template when the raise site gave one (``params`` may be empty).
        self.template: str | None = message if params else None
        self.params = params


def marked(status: int, template: str, **params: object) -> ApiError:
    """An error whose message is a template marked for translation, with or without params."""
    error = ApiError(status, template, **params)
    error.template = template
    return error


class Phrase(str):
    """A parameter of a marked error that is itself a message (a game's title marked with
    ``N_()``, a library error's English text): the handler translates it with the template.

    >>> error = marked(404, "there is no {game} table {table}", game=Phrase("Online Blackjack"), table="'x'")
    >>> error.message, type(error.params["game"]).__name__
    ("there is no Online Blackjack table 'x'", 'Phrase')
    """

    __slots__ = ()


def not_found(what: str, /, **params: object) -> ApiError:
    """A 404. With ``params``, or when ``what`` is a whole sentence (it starts with "there is
    no"), ``what`` is a template marked with ``N_()``: ``not_found(N_("there is no round
    {round}"), round=7)``. Otherwise ``what`` is a noun phrase in English (the older form), and
    the error reads "there is no <what>": it is translated only when a template matches it
    (``server/i18n.py KNOWN_ERRORS``).

    >>> not_found("there is no round {round}", round=7).template
    'there is no round {round}'
    >>> error = not_found("online table")
    >>> error.message, error.template
    ('there is no online table', None)
    """
    if params or what.startswith("there is no "):
        return marked(404, what, **params)
    return ApiError(404, f"there is no {what}")


def conflict(message: str, **params: object) -> ApiError:
    return ApiError(409, message, **params)


def unprocessable(message: str, **params: object) -> ApiError:
    return ApiError(422, message, **params)
