"""Typed errors of Vinte-e-um: each says what was refused and why; nothing is changed."""

from __future__ import annotations

import reprlib

from twentyone.errors import BetError, IllegalActionError, InvalidRulesError
from twentyone.protocol import NotYourTurnError


class VinteTableError(InvalidRulesError):
    """A table cannot be created as asked (seats, stacks, rules)."""


class VinteActionError(IllegalActionError):
    """An action is not legal now; the state is unchanged."""


class OutOfTurnError(NotYourTurnError, VinteActionError):
    """A seat acted when it is not its decision (another seat's turn, wrong phase)."""


class SeatNameError(VinteTableError):
    """A seat's name is empty, too long, not printable, or another seat's (a bot's) name."""


class VinteBetError(BetError, VinteActionError):
    """A bet off the table limits, over the seat's stack, or placed twice."""


class CallError(VinteActionError):
    """The banker called a seat that cannot be called (bust, already called, not playing)."""


class DrawError(VinteActionError):
    """The banker asked for a card he may not draw (at 21 or more)."""


class _Short(reprlib.Repr):
    """``repr`` bounded in length and depth, safe for hostile values (a huge int)."""

    def repr_int(self, x: int, level: int) -> str:
        return repr(x) if -(10**18) < x < 10**18 else "a huge number"


_SHORT = _Short()
_SHORT.maxstring = _SHORT.maxother = 40


def show(value: object) -> str:
    """A value as an error message quotes it: short, and never failing.

    >>> show(10**5000), len(show("x" * 10_000)), show([[[[[[[1]]]]]]])
    ('a huge number', 40, '[[[[[[[...]]]]]]]')
    """
    return _SHORT.repr(value)
