"""The one game protocol that every game implements (house round, Exchange Blackjack, Vinte-e-um).

Modelled on OpenSpiel (chance is an explicit player; one ``apply``), PokerKit (``can_apply`` is
``verify`` not raising; one immutable record per operation) and python-chess (the whole state
saves to and loads from text at every step).

- :meth:`Game.to_act` says who acts now: the seats whose decision is pending (several at once
  where decisions are simultaneous, as Vinte-e-um's bets), ``(CHANCE,)`` when the next step is a
  chance step (a card to deal or a card to turn), or ``()`` when nobody can act.
- :meth:`Game.apply` takes ``(seat, action)`` and returns the immutable events of that step; it
  first calls :meth:`Game.verify`, which raises :class:`NotYourTurnError` for a seat that is not
  to act and :class:`~twentyone.errors.IllegalActionError` for an illegal action, changing nothing.
- Chance steps are explicit: :meth:`Game.apply_chance` takes the card the dealer (the caller's shoe)
  gives. A game built with a shoe in *automatic* mode runs its own chance steps from that shoe inside
  ``apply`` (the fast path used by the simulator cross-checks and the terminal), so ``CHANCE`` is
  then never to act.
- Time is injected: :meth:`Game.deadline` is when the pending decision times out (``None``: no
  deadline), and :meth:`Game.expire` applies what happens when it has passed.
- :meth:`Game.view` is what one seat may see (``None``: a spectator); a card a seat may not see is
  never in its view.
- :meth:`Game.to_json` / ``from_json`` save and load the whole state, versioned, at every step.

:func:`run_chance` plays the pending chance steps from a shoe (what a table runner does).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from twentyone.cards import Card
from twentyone.errors import IllegalActionError, TwentyOneError

__all__ = [
    "CHANCE",
    "Actor",
    "ChancePlayer",
    "Game",
    "GameStateError",
    "NotYourTurnError",
    "run_chance",
]


class ChancePlayer(enum.Enum):
    """The chance player: the dealer's shoe (OpenSpiel's ``kChancePlayerId``)."""

    CHANCE = "chance"

    def __repr__(self) -> str:
        return "CHANCE"


CHANCE = ChancePlayer.CHANCE
#: A seat number (0-based) or the chance player.
Actor = int | ChancePlayer


class NotYourTurnError(IllegalActionError):
    """A seat tried to act when it is not one of the seats to act (nothing was changed)."""


class GameStateError(TwentyOneError):
    """A saved game state could not be loaded: wrong game, unknown version or malformed."""


ActionT = TypeVar("ActionT")
EventT = TypeVar("EventT", covariant=True)
GameT = TypeVar("GameT", bound="Game[Any, Any]")


@runtime_checkable
class Game(Protocol[ActionT, EventT]):
    """What a table runner, the server and the tests may rely on for every game."""

    def to_act(self) -> tuple[Actor, ...]: ...

    @property
    def is_over(self) -> bool: ...

    def legal_actions(self, seat: int) -> Sequence[ActionT]: ...

    def verify(self, seat: int, action: ActionT) -> None: ...

    def can_apply(self, seat: int, action: ActionT) -> bool: ...

    def apply(self, seat: int, action: ActionT) -> Sequence[EventT]: ...

    def apply_chance(self, card: Card) -> Sequence[EventT]: ...

    def deadline(self) -> float | None: ...

    def expire(self, now: float) -> Sequence[EventT]: ...

    def view(self, seat: int | None) -> Mapping[str, Any]: ...

    def to_json(self) -> dict[str, Any]: ...


def run_chance(game: Game[Any, EventT], draw: Callable[[], Card]) -> list[EventT]:
    """Play every pending chance step with cards from ``draw`` (a shoe's ``draw``)."""
    events: list[EventT] = []
    while game.to_act() == (CHANCE,):
        events.extend(game.apply_chance(draw()))
    return events
