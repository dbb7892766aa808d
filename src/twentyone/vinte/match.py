"""Vinte-e-um behind the one game protocol (:class:`twentyone.protocol.Game`).

:class:`VinteGame` holds a :class:`~twentyone.vinte.game.MatchState` and plays it with the
functions of :mod:`twentyone.vinte.game` (which stay the functional API). What it adds:

- **Who acts**: :meth:`VinteGame.to_act` gives the seats whose decision is pending (every
  player still to bet in the shared betting window), ``(CHANCE,)`` when a card is to be
  dealt, ``()`` once the match is over.
- **The seat is authoritative**: :meth:`VinteGame.apply` takes ``(seat, action)`` and refuses
  a seat that is not to act (:class:`~twentyone.protocol.NotYourTurnError`) and an action
  whose own ``seat`` is another seat's. The one action a seat may take out of turn is
  :class:`~twentyone.vinte.game.ComeBack`: a person returning to a seat that is "away" is
  not a decision in the game's order.
- **Chance**: without a randomness source, every card is a chance step given by
  :meth:`VinteGame.apply_chance` (card by card, the next round's first card included). With a
  source (*automatic* mode, today's path) the game shuffles a fresh deck for every round and
  deals it itself, the next round as soon as the last one ends; ``CHANCE`` never acts.
- **Time**: ``apply``, ``apply_chance`` and ``expire`` take a ``now``; without one the game
  reads its injected :class:`~twentyone.clock.Clock`, or else keeps the last time it was told.
  A time never goes backwards (:class:`~twentyone.clock.ClockError`).
- **Saving**: :meth:`VinteGame.to_json` / :meth:`VinteGame.from_json`: the whole state,
  versioned; the source and the clock are injected again on loading.

>>> from twentyone.cards import parse_cards
>>> from twentyone.vinte.settings import VinteTable
>>> game = VinteGame.new(VinteTable.create(2, first_banker=0))
>>> game.to_act()
(CHANCE,)
>>> for card in parse_cards("TS 9H"):
...     _ = game.apply_chance(card, now=0.0)
>>> game.to_act(), game.deadline()
((1,), 30.0)
>>> game.apply(0, Bet(1, 5))
Traceback (most recent call last):
...
twentyone.vinte.errors.OutOfTurnError: seat 0 cannot act for seat 1
>>> [event.kind for event in game.apply(1, Bet(1, 5), now=2.0)]
['bet-placed', 'bets-shown']
>>> game.to_act()
(CHANCE,)
>>> copy = VinteGame.from_json(game.to_json())
>>> copy.to_json() == game.to_json(), copy.view(0)["hands"][0]["cards"]
(True, [None])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from twentyone.cards import Card
from twentyone.clock import Clock, ClockError
from twentyone.protocol import CHANCE, Actor, GameStateError
from twentyone.randomness import RandomSource, fisher_yates
from twentyone.vinte.errors import OutOfTurnError, VinteActionError, VinteTableError, show
from twentyone.vinte.events import Event
from twentyone.vinte.game import (
    Action,
    Bet,
    Call,
    ComeBack,
    Draw,
    Hit,
    MatchState,
    Phase,
    Stand,
    Step,
    apply_events,
    check_now,
    check_seat,
    deal_card_events,
    deal_events,
    expire_events,
    legal_actions,
    new_match,
    shuffled_deck,
    to_act,
    verify,
)
from twentyone.vinte.settings import VinteTable
from twentyone.vinte.state_json import match_from_json, match_to_json
from twentyone.vinte.views import SeatView, view_for

__all__ = ["STATE_VERSION", "VinteGame"]

#: The version of the saved state; :meth:`VinteGame.from_json` loads this version only.
STATE_VERSION = 1
_ACTIONS = (Bet, Hit, Stand, Draw, Call, ComeBack)


class VinteGame:
    """A Vinte-e-um match as a :class:`twentyone.protocol.Game` (see the module's doc)."""

    __slots__ = ("_clock", "_now", "_source", "_state")

    def __init__(
        self,
        state: MatchState,
        *,
        source: RandomSource | None = None,
        now: float = 0.0,
        clock: Clock | None = None,
    ) -> None:
        if not isinstance(state, MatchState):
            raise VinteTableError(f"a VinteGame plays a MatchState, got {show(state)}")
        check_now(now)
        self._state = state
        self._source = source
        self._clock = clock
        self._now = now
        # Automatic mode: a match waiting for its deal is dealt at once.
        self._state = self._deal_next(self._state, [], now)[0]

    @classmethod
    def new(
        cls,
        table: VinteTable,
        source: RandomSource | None = None,
        *,
        automatic: bool = True,
        now: float = 0.0,
        clock: Clock | None = None,
    ) -> VinteGame:
        """A new match at ``table``. ``source`` draws the first banker (unless the table set
        him) and, when ``automatic``, shuffles every round's deck; without a source every
        card is a chance step."""
        state = new_match(table, source)
        return cls(state, source=source if automatic else None, now=now, clock=clock)

    # -- what the state is

    @property
    def state(self) -> MatchState:
        """The full state (for the engine, audit and recall; never for a seat)."""
        return self._state

    @property
    def now(self) -> float:
        """The last time the game was told (by a step or by :meth:`expire`)."""
        return self._now

    @property
    def automatic(self) -> bool:
        """Whether the game deals its own cards (built with a randomness source)."""
        return self._source is not None

    @property
    def is_over(self) -> bool:
        return self._state.phase is Phase.OVER

    def to_act(self) -> tuple[Actor, ...]:
        state = self._state
        if state.phase is Phase.OVER:
            return ()
        current = state.round
        if state.phase is Phase.DEAL or (current is not None and current.pending is not None):
            return (CHANCE,)
        return to_act(state)

    def legal_actions(self, seat: int) -> list[Action]:
        check_seat(self._state, seat)
        return legal_actions(self._state, seat)

    def deadline(self) -> float | None:
        return self._state.deadline

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), as the JSON a server sends."""
        return self.seat_view(seat).to_json()

    def seat_view(self, seat: int | None) -> SeatView:
        """What ``seat`` may see, as the :class:`SeatView` bots decide from."""
        if seat is not None:
            check_seat(self._state, seat)
        return view_for(self._state, seat)

    # -- decisions

    def verify(self, seat: int, action: Action) -> None:
        """Raise the typed error :meth:`apply` would raise; change nothing."""
        state = self._state
        check_seat(state, seat)
        if not isinstance(action, _ACTIONS):
            raise VinteActionError(f"not a Vinte-e-um action: {show(action)}")
        if action.seat != seat:
            raise OutOfTurnError(f"seat {seat} cannot act for seat {show(action.seat)}")
        if not isinstance(action, ComeBack) and seat not in self.to_act():
            try:
                verify(state, action)  # its message says why, when it has one
            except OutOfTurnError:
                raise
            except VinteActionError:
                pass
            raise OutOfTurnError(self._why_not(seat))
        verify(state, action)

    def can_apply(self, seat: int, action: Action) -> bool:
        try:
            self.verify(seat, action)
        except VinteActionError:
            return False
        return True

    def apply(self, seat: int, action: Action, *, now: float | None = None) -> tuple[Event, ...]:
        """Play ``action`` for ``seat``: the events of the step (and, in automatic mode, of
        the next round's deal). A typed error and no change if it is refused."""
        self.verify(seat, action)
        moment = self._time(now)
        step = self._deal_next(*apply_events(self._state, action, moment), moment)
        return self._commit(step, moment)

    # -- chance

    def apply_chance(self, card: Card, *, now: float | None = None) -> tuple[Event, ...]:
        """Deal ``card``, the one the round waits for (or the next round's first card)."""
        if self.to_act() != (CHANCE,):
            raise OutOfTurnError(f"no card is to be dealt now ({self._why_not(None)})")
        moment = self._time(now)
        return self._commit(deal_card_events(self._state, card, moment), moment)

    def deal(self, deck: Sequence[Card], *, now: float | None = None) -> tuple[Event, ...]:
        """Give the next round's whole shuffled deck at once (a scenario's cards)."""
        if self.automatic:
            raise OutOfTurnError("this game shuffles its own decks: it takes no deck")
        moment = self._time(now)
        return self._commit(deal_events(self._state, deck, moment), moment)

    # -- time

    def expire(self, now: float) -> tuple[Event, ...]:
        """Play the default of every decision whose deadline is at or before ``now``."""
        check_now(now)  # required here: expiring is always at a given time
        moment = self._time(now)
        return self._commit(self._deal_next(*expire_events(self._state, moment), moment), moment)

    # -- saving

    def to_json(self) -> dict[str, Any]:
        """The whole state (hidden cards and the round's deck included: storage only)."""
        return {
            "game": "vinte",
            "version": STATE_VERSION,
            "now": self._now,
            "match": match_to_json(self._state),
        }

    @classmethod
    def from_json(
        cls,
        data: Mapping[str, Any],
        *,
        source: RandomSource | None = None,
        clock: Clock | None = None,
    ) -> VinteGame:
        """The game :meth:`to_json` saved; ``source`` (automatic mode) and ``clock`` are
        injected again. :class:`~twentyone.protocol.GameStateError` if malformed."""
        if not isinstance(data, dict):
            raise GameStateError(f"a saved vinte game is an object, got {show(data)}")
        if data.get("game") != "vinte":
            raise GameStateError(f"not a saved vinte game: game is {show(data.get('game'))}")
        if data.get("version") != STATE_VERSION:
            raise GameStateError(
                f"unknown vinte state version {show(data.get('version'))}"
                f" (this library reads version {STATE_VERSION})"
            )
        if set(data) != {"game", "version", "now", "match"}:
            raise GameStateError("a saved vinte game has exactly: game, version, now, match")
        now = data["now"]
        try:
            check_now(now)
        except ClockError as error:
            raise GameStateError(f"malformed vinte state: now: {error}") from None
        state = match_from_json(data["match"])
        return cls(state, source=source, now=now, clock=clock)

    # -- inside

    def _time(self, now: float | None) -> float:
        if now is None:
            now = self._clock.now() if self._clock is not None else self._now
        check_now(now)
        if now < self._now:
            raise ClockError(f"time does not go backwards: {now} is before {self._now}")
        return now

    def _deal_next(self, state: MatchState, events: list[Event], now: float) -> Step:
        """In automatic mode, deal the next round as soon as the last one is over (and finish
        dealing a round begun card by card, from a shuffle of the cards it has not dealt:
        a game saved in explicit mode and loaded with a source)."""
        if self._source is None:
            return state, events
        events = list(events)
        current = state.round
        if current is not None and current.pending is not None:
            rest = Counter(shuffled_deck(state.table.rules, self._source))
            rest.subtract(current.deck)
            cards = fisher_yates(list(rest.elements()), self._source)
            while current is not None and current.pending is not None:
                state, more = deal_card_events(state, cards.pop(), now)
                events.extend(more)
                current = state.round
        if state.phase is Phase.DEAL:
            state, more = deal_events(state, shuffled_deck(state.table.rules, self._source), now)
            events.extend(more)
        return state, events

    def _commit(self, step: Step, now: float) -> tuple[Event, ...]:
        self._state, events = step
        self._now = now
        return tuple(events)

    def _why_not(self, seat: int | None) -> str:
        pending = self.to_act()
        who = "seat" if seat is None else f"seat {seat}"
        if not pending:
            return f"{who} cannot act: the match is over"
        if pending == (CHANCE,):
            return f"{who} cannot act now: a card is to be dealt"
        seats = ", ".join(str(s) for s in pending)
        return f"{who} cannot act now: it is the decision of seat(s) {seats}"
