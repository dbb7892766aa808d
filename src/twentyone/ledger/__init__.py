"""The double-entry ledger: every movement of money on the platform, in integer minor units.

See :mod:`twentyone.ledger.core`.
"""

from twentyone.ledger.core import (
    EXTERNAL_ACCOUNT,
    AccountKind,
    HoldSet,
    Ledger,
    LedgerEntry,
    Transfer,
)
from twentyone.ledger.errors import (
    DuplicateTransferError,
    InsufficientBalanceError,
    LedgerError,
    UnknownAccountError,
)

__all__ = [
    "EXTERNAL_ACCOUNT",
    "AccountKind",
    "DuplicateTransferError",
    "HoldSet",
    "InsufficientBalanceError",
    "Ledger",
    "LedgerEntry",
    "LedgerError",
    "Transfer",
    "UnknownAccountError",
]
