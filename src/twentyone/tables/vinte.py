"""The Vinte-e-um table runner: a match driven by a clock, with bots and missed decisions.

:class:`VinteRunner` holds a match (:mod:`twentyone.vinte.game`), deals each round from a deck
shuffled with the injected randomness source, asks the bots for their decisions, applies the
default decision of every deadline passed on the injected clock (a seat that misses too many
becomes *away* and is played by the standard bot until it comes back), and stops when a seat
without a bot must decide: :meth:`VinteRunner.advance` returns the seats it waits for, and
:meth:`VinteRunner.submit` takes their decisions, refusing a seat that is not the one named
in the action.

Every event of the match goes to subscribers as soon as it happens (``kind == "game"``, its
``data`` the :class:`~twentyone.vinte.events.Event`, which the listener turns into a seat's
view with :meth:`~twentyone.vinte.events.Event.for_seat`), so a round's last results (the
banker's remaining calls) always come before the next round's deal. ``match-over`` follows
the last event.

>>> from twentyone.randomness import SeededRandomSource
>>> from twentyone.analysis.vinte.bots import HeuristicBot
>>> from twentyone.vinte.settings import VinteSettings, VinteTable
>>> table = VinteTable.create(3, bots=3, settings=VinteSettings(round_limit=5))
>>> final = play_match(table, [HeuristicBot()] * 3, SeededRandomSource(1))
>>> final.phase.value, final.rounds_played, final.total_chips()
('over', 5, 150)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from twentyone.analysis.vinte.bots import Bot, VinteBot
from twentyone.clock import Clock, ManualClock
from twentyone.randomness import RandomSource
from twentyone.tables.errors import TableStateError
from twentyone.tables.listeners import Listener, Listeners, TableEvent
from twentyone.vinte.errors import OutOfTurnError, VinteTableError
from twentyone.vinte.game import (
    Action,
    MatchState,
    Phase,
    apply,
    deal,
    expire,
    new_match,
    shuffled_deck,
    to_act,
)
from twentyone.vinte.settings import VinteTable
from twentyone.vinte.views import SeatView, view_for

__all__ = ["Observer", "VinteRunner", "play_match"]

Observer = Callable[[MatchState], None]


class VinteRunner:
    """A Vinte-e-um match at a table; see the module documentation.

    ``agents`` maps a seat to its bot; a seat without one is a person's, and the runner waits
    for it. Seats that are away are played by ``standard`` (the shipped bot, which reads
    stands: see docs/vinte-e-um.md). ``observe`` sees the state before every step.
    """

    def __init__(
        self,
        table: VinteTable,
        source: RandomSource,
        agents: Mapping[int, Bot],
        *,
        clock: Clock | None = None,
        standard: Bot | None = None,
        observe: Observer | None = None,
    ) -> None:
        for seat in agents:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < table.size:
                raise VinteTableError(f"an agent for seat {seat!r}: the table has {table.size}")
        self.table = table
        self.source = source
        self.agents = dict(agents)
        self.clock: Clock = clock or ManualClock()
        self.standard: Bot = standard or VinteBot(read_stands=True)
        self.observe = observe
        self.listeners = Listeners()
        self.state = new_match(table, source)
        self._round: int | None = None  # the round whose events were emitted ...
        self._emitted = 0  # ... and how many of them

    # -- reading -----------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self.listeners.subscribe(listener)

    @property
    def over(self) -> bool:
        return self.state.phase is Phase.OVER

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may see (``None``: a spectator)."""
        return view_for(self.state, seat)

    def waiting(self) -> tuple[int, ...]:
        """The seats the runner waits for: the next seat to act, if it is a person's."""
        if self.over:
            return ()
        pending = to_act(self.state)
        if not pending:
            return ()
        seat = pending[0]
        if seat in self.agents or self.state.seats[seat].away:
            return ()
        return (seat,)

    # -- playing -----------------------------------------------------------------------------
    def advance(self) -> tuple[int, ...]:
        """Run deadlines, deals and bot decisions until a person must decide or the match is
        over; the seats it now waits for."""
        while not self.over:
            now = self.clock.now()
            self._step(expire(self.state, now), now)
            if self.observe is not None:
                self.observe(self.state)
            if self.state.phase is Phase.DEAL:
                deck = shuffled_deck(self.table.rules, self.source)
                now = self.clock.now()
                self._step(deal(self.state, deck, now), now)
                continue
            pending = to_act(self.state)
            if not pending:
                raise TableStateError(  # pragma: no cover (every phase but DEAL has a decider)
                    f"nobody is to act in the {self.state.phase.value} phase"
                )
            seat = pending[0]
            agent = self.standard if self.state.seats[seat].away else self.agents.get(seat)
            if agent is None:
                return (seat,)
            action = agent.decide(view_for(self.state, seat))
            now = self.clock.now()
            self._step(apply(self.state, action, now), now)
        if self.observe is not None:
            self.observe(self.state)
        return ()

    def submit(self, seat: int, action: Action) -> None:
        """A person's decision for ``seat`` (a typed error, nothing changed, if it is refused)."""
        if action.seat != seat:
            raise OutOfTurnError(f"seat {seat} cannot act for seat {action.seat}")
        now = self.clock.now()
        self._step(expire(self.state, now), now)  # too late: the default was taken, and ...
        self._step(apply(self.state, action, now), now)  # ... this refuses it (nothing changed)

    # -- internals ---------------------------------------------------------------------------
    def _step(self, state: MatchState, now: float) -> None:
        """Take the new state and emit the events it added, in order, stamped ``now``."""
        self.state = state
        current = state.round
        if current is None:
            return
        if current.number != self._round:
            self._round, self._emitted = current.number, 0
        for event in current.events[self._emitted :]:
            self.listeners.emit(TableEvent("game", current.number, event, now))
        self._emitted = len(current.events)


def play_match(
    table: VinteTable,
    agents: Sequence[Bot],
    source: RandomSource,
    clock: Clock | None = None,
    observe: Observer | None = None,
) -> MatchState:
    """Play a whole match with one agent per seat; ``observe`` sees every state.

    Seats that are away are played by the standard bot. Deadlines are checked against
    ``clock`` before every decision (a :class:`~twentyone.clock.ManualClock` by default: bots
    are instant).
    """
    if len(agents) != table.size:
        raise VinteTableError(f"one agent per seat: {table.size} seats, {len(agents)} agents")
    runner = VinteRunner(table, source, dict(enumerate(agents)), clock=clock, observe=observe)
    runner.advance()
    return runner.state
