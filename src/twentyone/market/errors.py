"""Why an order, a cancel or a market action was refused.

Every refusal is a :class:`~twentyone.errors.TwentyOneError` (a ``ValueError``) whose message
says what was wrong and why; a refused action changes nothing (money, book and orders stay as
they were).
"""

from __future__ import annotations

from twentyone.errors import BetError, IllegalActionError


class OrderRejectedError(BetError):
    """An order was refused; ``reason`` is a short machine-readable code."""

    reason = "rejected"


class OffLadderError(OrderRejectedError):
    """A price is not one of the 350 ladder prices."""

    reason = "off ladder"


class InvalidPriceError(OffLadderError):
    """Not a price at all: not decimal text with at most two decimals, a float, a list..."""

    reason = "invalid price"


class BelowMinimumStakeError(OrderRejectedError):
    reason = "below minimum stake"


class UnknownSelectionError(OrderRejectedError):
    reason = "unknown selection"


class StaleRoundError(OrderRejectedError):
    reason = "round is stale"


class RoundNotOpenError(OrderRejectedError):
    reason = "round not open"


class SelectionClosedError(OrderRejectedError):
    """The selection has been settled (or the market settled or voided)."""

    reason = "selection closed"


class InsufficientFundsError(OrderRejectedError):
    """The order would take the customer's holds above his balance."""

    reason = "over balance"


class ReferenceReusedError(OrderRejectedError):
    """A client reference was used before with a different order body."""

    reason = "reference reused"


class InvalidOrderError(OrderRejectedError):
    """A malformed field (side, size, customer, reference, round) or an account that may not bet."""

    reason = "invalid order"


class CancelRejectedError(IllegalActionError):
    """A cancel named an unknown order, someone else's, or one no longer open."""


class MarketStateError(IllegalActionError):
    """A market action out of turn (settling during an open round, opening a past round...)."""


class InvalidArgumentError(IllegalActionError):
    """A malformed argument to a market, market maker or view (a wrong type, a bad name)."""
