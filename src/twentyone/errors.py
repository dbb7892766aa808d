"""Typed exceptions shared by every game.

Every error a caller can cause is a ``ValueError`` subclass (as in python-chess), so
``except ValueError`` catches all bad input while the concrete class says what kind.
"""

from __future__ import annotations


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
