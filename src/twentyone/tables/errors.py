"""Why a table runner refused something (a typed error; nothing was changed)."""

from __future__ import annotations

from twentyone.errors import BetError, IllegalActionError

__all__ = ["BankrollError", "TableStateError"]


class BankrollError(BetError):
    """A stake (a bet, a double, a split, an insurance) is more than the player's free money."""


class TableStateError(IllegalActionError):
    """A table step out of turn: acting with no round in play, dealing during a round."""
