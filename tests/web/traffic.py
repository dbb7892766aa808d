"""A recorder of what a browser page sends and receives: every WebSocket frame (both ways) and
every HTTP response with its body, in the order the page saw them, with the test's own marks
between them ("before the split", "the shoe retired"), so that a test can say what must not
have appeared before a given moment.

>>> log = Traffic("alice")
>>> log.note("http", "GET /api/me", '{"name":"alice","balance":99000}')
>>> log.mark("dealt")
>>> log.note("ws-in", "/stream", '{"type":"state","table":{"dealer":{"cards":["6D"]}}}')
>>> [item.where for item in log.before("dealt")]
['GET /api/me']
>>> log.contains('"6D"'), log.contains('"6D"', until="dealt")
(True, False)
>>> card_tokens('{"cards":["AS","TD"],"seed":"ab12"}')
['AS', 'TD']
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

#: A card in the library's notation as a JSON string: rank then suit ("AS", "TD").
CARD_TOKEN = re.compile(r'"([2-9TJQKA][SHDC])"')


def card_tokens(text: str) -> list[str]:
    """Every card string (a quoted JSON string like ``"AS"``) in ``text``, in order."""
    return CARD_TOKEN.findall(text)


def json_number(value: int) -> re.Pattern[str]:
    """``value`` as a whole JSON number (not part of a longer number)."""
    return re.compile(rf"(?<![0-9.]){value}(?![0-9])")


@dataclass
class Seen:
    """One thing the page saw: ``kind`` is ``ws-in``, ``ws-out``, ``http`` or ``mark``."""

    kind: str
    #: The WebSocket's URL, ``METHOD URL`` of a response, or the mark's name.
    where: str
    text: str = ""

    def json(self) -> Any:
        """The text parsed as JSON, None when it is not JSON."""
        try:
            return json.loads(self.text)
        except ValueError:
            return None


@dataclass
class Traffic:
    """Everything one page sent and received, in order (see the module)."""

    label: str
    items: list[Seen] = field(default_factory=list)

    # ------------------------------------------------------------------ recording
    def attach(self, page: Any) -> Traffic:
        """Record ``page`` from now on: its WebSockets' frames and its HTTP responses."""

        def on_socket(socket: Any) -> None:
            url = socket.url
            self.note("ws-open", url)
            socket.on("framereceived", lambda payload: self.note("ws-in", url, _text(payload)))
            socket.on("framesent", lambda payload: self.note("ws-out", url, _text(payload)))

        def on_response(response: Any) -> None:
            where = f"{response.request.method} {response.url}"
            try:
                body = response.text()
            except Exception as error:  # a redirect or a page gone: no body to read
                body = f"<no body: {type(error).__name__}>"
            self.note("http", where, body)

        page.on("websocket", on_socket)
        page.on("response", on_response)
        return self

    def note(self, kind: str, where: str, text: str = "") -> None:
        self.items.append(Seen(kind, where, text))

    def mark(self, name: str) -> None:
        """A moment of the test's script: what was seen before it is ``before(name)``."""
        self.items.append(Seen("mark", name))

    # ------------------------------------------------------------------ reading
    def _index(self, name: str) -> int:
        for index, item in enumerate(self.items):
            if item.kind == "mark" and item.where == name:
                return index
        raise KeyError(f"{self.label}: no mark {name!r}")

    def between(self, since: str | None = None, until: str | None = None) -> list[Seen]:
        """What was seen after mark ``since`` and before mark ``until`` (marks left out)."""
        start = self._index(since) + 1 if since is not None else 0
        end = self._index(until) if until is not None else len(self.items)
        return [item for item in self.items[start:end] if item.kind != "mark"]

    def before(self, name: str) -> list[Seen]:
        return self.between(until=name)

    def data(self, since: str | None = None, until: str | None = None) -> Iterator[Seen]:
        """What carries data (frames both ways and the API's responses; the static files are
        the same for everyone and are left out)."""
        for item in self.between(since, until):
            if item.kind in ("ws-in", "ws-out") or (item.kind == "http" and "/api/" in item.where):
                yield item

    def contains(
        self, needle: str | re.Pattern[str], since: str | None = None, until: str | None = None
    ) -> bool:
        return bool(self.where(needle, since, until))

    def where(
        self, needle: str | re.Pattern[str], since: str | None = None, until: str | None = None
    ) -> list[str]:
        """Where ``needle`` (text or a pattern) was seen: each item's ``where`` and a snippet."""
        found: list[str] = []
        for item in self.data(since, until):
            if isinstance(needle, str):
                at = item.text.find(needle)
            else:
                match = needle.search(item.text)
                at = match.start() if match else -1
            if at >= 0:
                found.append(
                    f"{item.kind} {item.where}: ...{item.text[max(0, at - 80) : at + 80]}..."
                )
        return found

    def frames(self, kind: str = "ws-in") -> list[Any]:
        """The parsed JSON of every frame of ``kind``."""
        return [item.json() for item in self.items if item.kind == kind]

    def summary(self) -> str:
        counts: dict[str, int] = {}
        for item in self.items:
            counts[item.kind] = counts.get(item.kind, 0) + 1
        return f"{self.label}: " + ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))


def _text(payload: Any) -> str:
    if isinstance(payload, bytes):
        return payload.decode("utf-8", "replace")
    return str(payload)
