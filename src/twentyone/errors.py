"""Typed exceptions shared by every game.

Every error a caller can cause is a ``ValueError`` subclass (as in python-chess), so
``except ValueError`` catches all bad input while the concrete class says what kind.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction


class TwentyOneError(ValueError):
    """Base class of every error caused by bad input to the library."""


class InvalidCardError(TwentyOneError):
    """A card could not be parsed or does not exist."""


class InvalidRulesError(TwentyOneError):
    """A rule value, or a combination of rule values, is not allowed."""


class IllegalActionError(TwentyOneError):
    """An action is not legal in the current state; nothing was changed."""


class BetError(IllegalActionError):
    """A bet is off the table limits or otherwise not accepted."""


class ShoeExhaustedError(TwentyOneError):
    """A scripted shoe ran out of cards."""


class ScenarioError(TwentyOneError):
    """A scenario file is malformed or cannot be played as written."""


class UnsupportedRulesError(InvalidRulesError):
    """Valid rules that a part of the library does not play or analyse (the exact analysis and
    the simulator cover house blackjack: aces high, no five-card hands)."""


def shown(value: object, limit: int = 40) -> str:
    """A short description of a caller's value for an error message, safe for any value.

    Never the value's full ``repr``: a deeply nested list would recurse, an integer of more
    than 4,300 digits cannot be printed, and a megabyte of text does not belong in a message.

    >>> shown("ann"), shown(12), shown(10**5000), shown([[1]]), shown("x" * 50)[-6:]
    ("'ann'", '12', 'an integer of 16610 bits', 'a list', 'xxx...')
    """
    if value is None or type(value) in (bool, float):
        return repr(value)
    if type(value) is int:
        return (
            str(value) if value.bit_length() <= 64 else f"an integer of {value.bit_length()} bits"
        )
    if type(value) is str:
        return repr(value) if len(value) <= limit else repr(value[:limit])[:-1] + "..."
    if type(value) is Fraction:
        if max(value.numerator.bit_length(), value.denominator.bit_length()) <= 64:
            return f"Fraction({value})"
        return "a Fraction with huge terms"
    if type(value) is Decimal:
        if value.is_nan():
            return "a Decimal NaN"
        if value.is_infinite():
            return "a Decimal infinity"
        _, digits, exponent = value.as_tuple()
        if len(digits) <= limit and abs(int(exponent)) <= 99:
            return f"Decimal('{value}')"
        return f"a Decimal of {len(digits)} digits and exponent {shown(exponent)}"
    name = type(value).__name__
    return f"a {name if len(name) <= limit else name[:limit] + '...'}"
