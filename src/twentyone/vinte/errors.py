"""Typed errors of Vinte-e-um: each says what was refused and why; nothing is changed."""

from __future__ import annotations

from twentyone.errors import BetError, IllegalActionError, InvalidRulesError


class VinteTableError(InvalidRulesError):
    """A table cannot be created as asked (seats, stacks, rules)."""


class VinteActionError(IllegalActionError):
    """An action is not legal now; the state is unchanged."""


class OutOfTurnError(VinteActionError):
    """A seat acted when it is not its decision (another seat's turn, wrong phase)."""


class VinteBetError(BetError, VinteActionError):
    """A bet off the table limits, over the seat's stack, or placed twice."""


class CallError(VinteActionError):
    """The banker called a seat that cannot be called (bust, already called, not playing)."""


class DrawError(VinteActionError):
    """The banker asked for a card he may not draw (at 21 or more)."""
