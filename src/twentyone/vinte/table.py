"""Running a match: shuffling with an injected randomness source, deadlines with an injected
clock, bots (and the standard bot for seats that are away) asked for their decisions.

>>> from twentyone.randomness import SeededRandomSource
>>> from twentyone.vinte.bots import HeuristicBot
>>> from twentyone.vinte.settings import VinteSettings, VinteTable
>>> table = VinteTable.create(3, bots=3, settings=VinteSettings(round_limit=5))
>>> final = play_match(table, [HeuristicBot()] * 3, SeededRandomSource(1))
>>> final.phase.value, final.rounds_played, final.total_chips()
('over', 5, 150)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Protocol

from twentyone.cards import DECK, Card
from twentyone.randomness import RandomSource, fisher_yates
from twentyone.rules import Rules
from twentyone.vinte.bots import Bot, VinteBot
from twentyone.vinte.errors import VinteTableError
from twentyone.vinte.game import MatchState, Phase, apply, deal, expire, new_match, to_act
from twentyone.vinte.settings import VinteTable
from twentyone.vinte.views import view_for


class Clock(Protocol):
    def now(self) -> float:
        """Seconds from any fixed origin."""
        ...


class SystemClock:
    """The machine's monotonic clock (production)."""

    def now(self) -> float:
        return time.monotonic()


class ManualClock:
    """A clock that moves only when told (tests, simulations).

    >>> clock = ManualClock(); clock.advance(31); clock.now()
    31.0
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += seconds


def shuffled_deck(rules: Rules, source: RandomSource) -> list[Card]:
    """A round's fresh deck(s), shuffled, without a cut."""
    return fisher_yates(list(DECK) * (rules.decks or 1), source)


Observer = Callable[[MatchState], None]


def play_match(
    table: VinteTable,
    agents: Sequence[Bot],
    source: RandomSource,
    clock: Clock | None = None,
    observe: Observer | None = None,
) -> MatchState:
    """Play a whole match with one agent per seat; ``observe`` sees every state.

    Seats that are away are played by the standard bot. Deadlines are checked against
    ``clock`` before every decision (a :class:`ManualClock` by default: bots are instant).
    """
    if len(agents) != table.size:
        raise VinteTableError(f"one agent per seat: {table.size} seats, {len(agents)} agents")
    clock = clock or ManualClock()
    standard = VinteBot(read_stands=True)  # the shipped bot reads stands: see docs/vinte-e-um.md
    state = new_match(table, source)
    while state.phase is not Phase.OVER:
        state = expire(state, clock.now())
        if observe is not None:
            observe(state)
        if state.phase is Phase.DEAL:
            state = deal(state, shuffled_deck(table.rules, source), clock.now())
            continue
        pending = to_act(state)
        if not pending:
            continue
        seat = pending[0]
        agent = standard if state.seats[seat].away else agents[seat]
        action = agent.decide(view_for(state, seat))
        state = apply(state, action, clock.now())
    if observe is not None:
        observe(state)
    return state
