"""Client references: unique per customer forever, across every market (the spec).

A retry with the same reference and body returns the original answer; the same reference with
a different body, or on another market, is refused ("reference reused"). The market keeps the
answer of each of its own references; this registry keeps, for every customer, which market
each reference was used on, so that no reference is ever used twice on the platform. Markets on
one :class:`~twentyone.ledger.Ledger` share one registry (:meth:`ClientReferences.of`) unless
they are given one.

>>> from twentyone.ledger import Ledger
>>> ledger = Ledger()
>>> registry = ClientReferences.of(ledger)
>>> registry is ClientReferences.of(ledger), registry is ClientReferences.of(Ledger())
(True, False)
>>> registry.by_customer.setdefault("ann", {})["r1"] = "g1"
>>> registry.market_of("ann", "r1"), registry.market_of("ann", "r2"), registry.market_of("bob", "r1")
('g1', None, None)
"""

from __future__ import annotations

import weakref

from twentyone.ledger import Ledger


class ClientReferences:
    """customer -> client reference -> the id of the market it was used on."""

    __slots__ = ("__weakref__", "by_customer")

    def __init__(self) -> None:
        # Read and written directly by the market's hot path.
        self.by_customer: dict[str, dict[str, str]] = {}

    def market_of(self, customer: str, reference: str) -> str | None:
        """The market ``reference`` of ``customer`` was used on (``None``: never used)."""
        found = self.by_customer.get(customer)
        return None if found is None else found.get(reference)

    @classmethod
    def of(cls, ledger: Ledger) -> ClientReferences:
        """The registry shared by every market on ``ledger`` (made on first use)."""
        found = _BY_LEDGER.get(ledger)
        if found is None:
            found = _BY_LEDGER[ledger] = cls()
        return found


# Weak: a ledger's registry goes when the ledger goes.
_BY_LEDGER: weakref.WeakKeyDictionary[Ledger, ClientReferences] = weakref.WeakKeyDictionary()
