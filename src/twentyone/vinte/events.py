"""Immutable event records of a Vinte-e-um round, each with a public and a private part.

An event's ``private`` part (a hidden card, a bet not yet shown) belongs to ``seat`` alone:
:meth:`Event.for_seat` is the only way a seat's history is produced, so a hidden card can
reach nobody else. ``full`` is for recall and audit.

>>> event = Event("hidden-card", 2, {}, {"card": "7H"})
>>> event.for_seat(2), event.for_seat(0)
({'kind': 'hidden-card', 'seat': 2, 'card': '7H'}, {'kind': 'hidden-card', 'seat': 2})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened; ``seat`` is whom it concerns (``None``: the table)."""

    kind: str
    seat: int | None
    public: Mapping[str, Any] = field(default_factory=dict)
    private: Mapping[str, Any] | None = None

    def for_seat(self, viewer: int | None) -> dict[str, Any]:
        """What ``viewer`` may know of this event (``None``: a spectator)."""
        data: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            data["seat"] = self.seat
        data.update(self.public)
        if self.private is not None and viewer is not None and viewer == self.seat:
            data.update(self.private)
        return data

    def full(self) -> dict[str, Any]:
        """Everything, private parts included (audit and recall only)."""
        data = self.for_seat(self.seat)
        return data
