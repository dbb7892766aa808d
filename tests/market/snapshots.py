"""A deep, comparable snapshot of everything a market or a ledger holds.

``deep_state(obj)`` walks every attribute (``__dict__`` and ``__slots__``), list, tuple,
deque, dict and set reachable from ``obj`` and returns plain nested tuples, so that a
before/after comparison sees any change anywhere: a counter in the order table, a row of the
exposure, a queue of the book, a reference record, a hold, a journal entry. An object met a
second time is recorded by the order in which it was first met, so shared structure is
compared too (and cycles end).
"""

from __future__ import annotations

import enum
from collections import deque
from decimal import Decimal
from fractions import Fraction
from typing import Any

from twentyone.ledger import Ledger
from twentyone.market import Market

_ATOMS = (bool, int, float, str, bytes, Fraction, Decimal, enum.Enum, type(None))


def deep_state(value: Any, skip: frozenset[str] = frozenset()) -> Any:
    """A plain copy of ``value`` and everything reachable from it; attributes in ``skip`` left out."""
    seen: dict[int, int] = {}

    def walk(item: Any) -> Any:
        if isinstance(item, _ATOMS):
            return item
        if id(item) in seen:
            return ("seen", seen[id(item)])
        seen[id(item)] = len(seen)
        if isinstance(item, list | tuple | deque):
            return (type(item).__name__, tuple(walk(v) for v in item))
        if isinstance(item, dict):
            return ("dict", tuple((walk(k), walk(v)) for k, v in item.items()))
        if isinstance(item, set | frozenset):
            return ("set", tuple(sorted((walk(v) for v in item), key=repr)))
        if callable(item) and not hasattr(item, "__dict__") and not hasattr(item, "__slots__"):
            return ("callable", id(item))
        fields: dict[str, Any] = {}
        for klass in type(item).__mro__:
            for name in getattr(klass, "__slots__", ()):
                if name not in ("__weakref__", "__dict__") and hasattr(item, name):
                    fields[name] = getattr(item, name)
        fields.update(getattr(item, "__dict__", {}))
        if not fields and callable(item):
            return ("callable", id(item))
        return (
            type(item).__name__,
            tuple((name, walk(fields[name])) for name in sorted(fields) if name not in skip),
        )

    return walk(value)


#: Left out of a market's state: the event log (refusals are logged, by design) and two memos
#: of facts that never change (that an account may bet, and the tuple of a hold id).
MARKET_SKIP = frozenset({"log", "_log_commands", "_bettors", "_hold_ids"})


def market_state(market: Market) -> Any:
    """The market's whole state (its ledger and reference registry included) but its log."""
    return deep_state(market, MARKET_SKIP)


def ledger_state(ledger: Ledger) -> Any:
    return deep_state(ledger)
