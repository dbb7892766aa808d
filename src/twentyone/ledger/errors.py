"""Ledger refusals: each one leaves every balance and hold exactly as it was."""

from __future__ import annotations

from twentyone.errors import TwentyOneError


class LedgerError(TwentyOneError):
    """A transfer or hold the ledger cannot accept."""


class UnknownAccountError(LedgerError):
    pass


class DuplicateTransferError(LedgerError):
    """A transfer or account id was used before (ids are unique forever)."""


class InsufficientBalanceError(LedgerError):
    """The change would take an account below zero, or its holds above its balance."""
