"""The double-entry ledger: every movement of money on the platform, in integer minor units.

See :mod:`twentyone.ledger.core`.
"""

from twentyone.ledger.core import (
    EXTERNAL_ACCOUNT,
    MAX_ID_LENGTH,
    AccountKind,
    HoldId,
    HoldSet,
    Ledger,
    LedgerEntry,
    OpenAccount,
    Transfer,
    check_hold_id,
    check_id,
)
from twentyone.ledger.errors import (
    DuplicateTransferError,
    InsufficientBalanceError,
    LedgerError,
    UnknownAccountError,
)

__all__ = [
    "EXTERNAL_ACCOUNT",
    "MAX_ID_LENGTH",
    "AccountKind",
    "DuplicateTransferError",
    "HoldId",
    "HoldSet",
    "InsufficientBalanceError",
    "Ledger",
    "LedgerEntry",
    "LedgerError",
    "OpenAccount",
    "Transfer",
    "UnknownAccountError",
    "check_hold_id",
    "check_id",
]
