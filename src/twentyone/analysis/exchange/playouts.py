"""How the hands of Exchange Blackjack play out: exact distributions and draw lists.

With an infinite deck each card value ``v`` comes with probability ``RANKS_WITH_VALUE[v] / 13``.
The dealer's final code has the distribution :func:`dealer_finals`; a player hand played by the
logic table, :meth:`PlayerModel.finals`. (The game itself only needs which codes are reachable:
:func:`twentyone.exchange.dealer.dealer_reachable`, :meth:`LogicTable.final_codes
<twentyone.exchange.logic_table.LogicTable.final_codes>`.)

>>> dist = dealer_finals((6, False, 1))
>>> sum(dist.values())
Fraction(1, 1)
>>> from twentyone.exchange.logic_table import load_logic_table
>>> model = PlayerModel(load_logic_table())
>>> finals = model.finals((20, False, 2), 6)
>>> finals
{20: Fraction(1, 1)}
>>> sum(model.finals((12, False, 2), 10).values())
Fraction(1, 1)
>>> model.draws((20, False, 2), 6)
[((0, 0, 0, 0, 0, 0, 0, 0, 0, 0), 20, 1)]
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from twentyone.exchange.dealer import dealer_draws
from twentyone.exchange.hands import (
    EMPTY,
    RANKS_WITH_VALUE,
    VALUES,
    HandState,
    add_card,
    final_code,
)
from twentyone.exchange.logic_table import LogicTable

#: Probability of each card value in an infinite deck.
VALUE_PROBABILITY: dict[int, Fraction] = {v: Fraction(RANKS_WITH_VALUE[v], 13) for v in VALUES}

#: How many cards of each value (index ``value - 1``) a hand drew.
Counts = tuple[int, ...]
NO_CARDS: Counts = (0,) * 10

#: Every hand state a player can show before drawing (27: the two cards' total, soft or not).
TWO_CARD_STATES: tuple[HandState, ...] = tuple(
    sorted({add_card(add_card(EMPTY, a), b) for a in VALUES for b in VALUES})
)


@cache
def dealer_finals(state: HandState, hits_soft_17: bool = False) -> dict[int, Fraction]:
    """Exact distribution of the dealer's final code from ``state`` (played out to the end)."""
    if not dealer_draws(state, hits_soft_17):
        return {final_code(state): Fraction(1)}
    out: dict[int, Fraction] = {}
    for value in VALUES:
        weight = VALUE_PROBABILITY[value]
        for code, p in dealer_finals(add_card(state, value), hits_soft_17).items():
            out[code] = out.get(code, Fraction(0)) + weight * p
    return out


def add_count(counts: Counts, value: int) -> Counts:
    listed = list(counts)
    listed[value - 1] += 1
    return tuple(listed)


class PlayerModel:
    """A logic table with memoised play-outs (exact, infinite deck)."""

    def __init__(self, table: LogicTable) -> None:
        self.table = table
        self._finals: dict[tuple[HandState, int], dict[int, Fraction]] = {}
        self._draws: dict[tuple[HandState, int], list[tuple[Counts, int, int]]] = {}
        self._start: dict[int, dict[int, Fraction]] = {}

    def finals(self, state: HandState, up_value: int) -> dict[int, Fraction]:
        """Distribution of the final code of a hand in ``state`` played out by the table."""
        key = (state, up_value)
        cached = self._finals.get(key)
        if cached is not None:
            return cached
        if not self.table.hits(state, up_value):
            out = {final_code(state): Fraction(1)}
        else:
            out = {}
            for value in VALUES:
                weight = VALUE_PROBABILITY[value]
                for code, p in self.finals(add_card(state, value), up_value).items():
                    out[code] = out.get(code, Fraction(0)) + weight * p
        self._finals[key] = out
        return out

    def start_finals(self, up_value: int) -> dict[int, Fraction]:
        """Distribution of the final code of a hand whose two cards are not seen yet."""
        cached = self._start.get(up_value)
        if cached is not None:
            return cached
        out: dict[int, Fraction] = {}
        for first in VALUES:
            for second in VALUES:
                weight = VALUE_PROBABILITY[first] * VALUE_PROBABILITY[second]
                state = add_card(add_card(EMPTY, first), second)
                for code, p in self.finals(state, up_value).items():
                    out[code] = out.get(code, Fraction(0)) + weight * p
        self._start[up_value] = out
        return out

    def reachable(self, state: HandState, up_value: int) -> frozenset[int]:
        return frozenset(self.finals(state, up_value))

    def warm(self) -> PlayerModel:
        """Fill the caches for every (two-card hand, up card) pair: 270 pairs, about 0.3 s.

        Pricing a state before the players draw then never plays a hand out from scratch
        (what a server does once at start-up, like loading its compiled kernels). Returns the
        model, so that ``PlayerModel(table).warm()`` reads as one step.

        >>> from twentyone.exchange.logic_table import load_logic_table
        >>> model = PlayerModel(load_logic_table()).warm()
        >>> len(model._draws) == len(TWO_CARD_STATES) * len(VALUES)
        True
        """
        for up_value in VALUES:
            self.start_finals(up_value)
            for state in TWO_CARD_STATES:
                self.finals(state, up_value)
                self.draws(state, up_value)
        return self

    def draws(self, state: HandState, up_value: int) -> list[tuple[Counts, int, int]]:
        """Every way the hand can play out: (values drawn, final code, number of orders).

        "Number of orders" counts the distinct draw sequences with those values and that end,
        so that the probability of an entry is ``orders * prod(13ths of the values)``.
        """
        key = (state, up_value)
        cached = self._draws.get(key)
        if cached is not None:
            return cached
        tally: dict[tuple[Counts, int], int] = {}
        stack: list[tuple[HandState, Counts]] = [(state, NO_CARDS)]
        while stack:
            current, counts = stack.pop()
            if self.table.hits(current, up_value):
                for value in VALUES:
                    stack.append((add_card(current, value), add_count(counts, value)))
            else:
                entry = (counts, final_code(current))
                tally[entry] = tally.get(entry, 0) + 1
        out = [(counts, code, orders) for (counts, code), orders in sorted(tally.items())]
        self._draws[key] = out
        return out


_SHARED: dict[LogicTable, PlayerModel] = {}


def shared_model(table: LogicTable) -> PlayerModel:
    """One memoised model per logic table and process, so play-outs are computed once.

    >>> from twentyone.exchange.logic_table import load_logic_table
    >>> shared_model(load_logic_table()) is shared_model(load_logic_table())
    True
    """
    model = _SHARED.get(table)
    if model is None:
        model = _SHARED[table] = PlayerModel(table)
    return model
