"""Exchange Blackjack as a pure state machine: timed betting rounds, reveals and settlement.

The game implements the :class:`twentyone.protocol.Game` protocol. Nobody plays the hands (the
customers bet on the market, not at the card table), so no seat ever acts: :meth:`to_act` is
``(CHANCE,)`` while a card must be turned and ``()`` otherwise. Time is injected: the game is
built with a :class:`~twentyone.exchange.schedule.RoundSchedule` and a start time; round 1
opens at the start, :meth:`deadline` says when the open betting round closes (or when the
playing pause after a reveal ends) and :meth:`expire` with a ``now`` at or after it closes the
round (its cards are then turned) or opens the next one. The game holds no clock and draws no
randomness of its own.

Cards are turned in this order: the four two-card player hands and the dealer's first card
after round 1 (P1's two cards, P2's, P3's, P4's, then the dealer's), the players' draws in order
P1..P4 after round 2, then one dealer card after each later round. Built with a shoe the game
is *automatic*: it turns the cards from that shoe itself, inside :meth:`expire` (the fast path
of the tests, the terminal and the market table); built without one, each card is a chance step
given with :meth:`apply_chance`.

>>> from twentyone.cards import parse_cards
>>> from twentyone.shoe import ScriptedShoe
>>> cards = parse_cards("TS 6H 9D 9C AS KD 5C 2H 7C TC 3D 8S QH")
>>> game = ExchangeGame(ScriptedShoe(cards))
>>> game.open_round, game.deadline()
(1, 30.0)
>>> [event.kind for event in game.expire(30.0)]
['reveal']
>>> game.open_round, game.players[2], game.dealer, game.deadline()
(2, (Card('AS'), Card('KD')), (Card('7C'),), 33.0)
>>> game.expire(33.0), game.deadline()
([], 58.0)
>>> while not game.is_over:
...     _ = game.end_round()  # the round closes at its deadline (no clock needed)
>>> {name: s.outcome.value for name, s in game.settlements.items()}["Player 3"]
'winner'

The same game with explicit chance steps, saved and loaded half way through a reveal:

>>> from twentyone.protocol import CHANCE
>>> game = ExchangeGame()
>>> _ = game.expire(30.0)
>>> game.to_act() == (CHANCE,)
True
>>> for card in cards[:4]:
...     _ = game.apply_chance(card)
>>> copy = ExchangeGame.from_json(game.to_json())
>>> copy.view(None)["players"]
[['TS', '6H'], ['9D', '9C'], [], []]
>>> copy.to_json() == game.to_json()
True
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from twentyone.cards import Card
from twentyone.errors import IllegalActionError, InvalidRulesError, TwentyOneError, shown
from twentyone.exchange.certainty import certain_outcomes
from twentyone.exchange.hands import state_of
from twentyone.exchange.logic_table import LogicTable, load_logic_table
from twentyone.exchange.schedule import STANDARD, RoundSchedule
from twentyone.exchange.selections import SELECTIONS, Settlement
from twentyone.exchange.state import PLAYERS, ExchangeState
from twentyone.protocol import CHANCE, Actor, GameStateError, NotYourTurnError
from twentyone.shoe import Shoe

__all__ = ["LAST_ROUND", "STATE_VERSION", "Event", "ExchangeGame", "Phase"]

LAST_ROUND = 6
#: The version of :meth:`ExchangeGame.to_json`'s format.
STATE_VERSION = 1
DEALER = "Dealer"
#: The most cards a game turns: 9, then at most 3 more per player hand, at most 4 for the dealer.
MAX_CARDS_IN_GAME = 25
#: The most times a game records: six closes and the five pauses between them.
MAX_TIMES_IN_GAME = 11


class Phase(enum.Enum):
    """Where a game is between two steps."""

    BETTING = "betting"  # a betting round is open until deadline()
    REVEAL = "reveal"  # the round has closed: its cards are being turned (chance steps)
    PAUSE = "pause"  # the cards are shown; the next round opens at deadline()
    OVER = "over"  # every selection is settled


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened at the end of a betting round (immutable)."""

    after_round: int
    kind: str  # "reveal", "settle" or "end"
    cards: tuple[tuple[str, Card], ...] = ()  # (hand name, card) in the order turned
    settled: tuple[Settlement, ...] = ()

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"after_round": self.after_round, "kind": self.kind}
        if self.cards:
            out["cards"] = [{"hand": hand, "card": str(card)} for hand, card in self.cards]
        if self.settled:
            out["settled"] = {s.selection: s.outcome.value for s in self.settled}
        return out


class ExchangeGame:
    """One game: four player hands and the dealer, up to six timed betting rounds.

    ``shoe``: turn the cards from it automatically (``None``: every card is a chance step).
    ``table``: the player logic table (the shipped one by default). ``schedule`` and ``start``:
    the round lengths and the time round 1 opens (seconds on the caller's clock).
    """

    def __init__(
        self,
        shoe: Shoe | None = None,
        table: LogicTable | None = None,
        *,
        schedule: RoundSchedule = STANDARD,
        start: float = 0.0,
    ) -> None:
        if table is not None and not isinstance(table, LogicTable):
            raise InvalidRulesError(f"table must be a LogicTable, not {type(table).__name__}")
        if not isinstance(schedule, RoundSchedule):
            raise InvalidRulesError(
                f"schedule must be a RoundSchedule, not {type(schedule).__name__}"
            )
        self.shoe = shoe
        self.table = table or load_logic_table()
        self.schedule = schedule
        self.start = _seconds(start, "start", InvalidRulesError)
        self.players: tuple[tuple[Card, ...], ...] = ((),) * PLAYERS
        self.dealer: tuple[Card, ...] = ()
        self.played = False
        self.phase = Phase.BETTING
        #: The betting round open now, or the next to open after the pause; None when over.
        self.open_round: int | None = 1
        self.settlements: dict[str, Settlement] = {}
        self.events: list[Event] = []
        #: When the open round closes (BETTING), when the last one closed (otherwise).
        self.closes_at: float = self.start + schedule.length(1)
        #: When the pause after the last reveal ends (None before the first reveal).
        self.pause_ends_at: float | None = None
        self._cards: list[Card] = []  # every card turned, in order
        self._times: list[float] = []  # the ``now`` of every expire that acted, in order
        self._turned: list[tuple[str, Card]] = []  # the reveal in progress
        if shoe is not None:
            shoe.start_round()

    # -- the Game protocol ----------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def over(self) -> bool:
        """The old name of :attr:`is_over`."""
        return self.is_over

    def to_act(self) -> tuple[Actor, ...]:
        """``(CHANCE,)`` while a card must be turned; ``()`` otherwise (no seat ever acts)."""
        return (CHANCE,) if self.phase is Phase.REVEAL else ()

    def legal_actions(self, seat: int) -> tuple[()]:
        _check_seat(seat)
        return ()

    def verify(self, seat: int, action: object) -> NoReturn:
        _check_seat(seat)
        raise NotYourTurnError(
            "no seat acts in Exchange Blackjack: the cards play themselves and the bets go to"
            " the market"
        )

    def can_apply(self, seat: int, action: object) -> bool:
        try:
            self.verify(seat, action)
        except TwentyOneError:
            return False

    def apply(self, seat: int, action: object) -> list[Event]:
        self.verify(seat, action)

    def apply_chance(self, card: Card) -> list[Event]:
        """Turn ``card``, the next card of the reveal in progress; the events it completes."""
        if self.phase is not Phase.REVEAL:
            raise NotYourTurnError(
                f"no card is due: the game is {'over' if self.is_over else 'not revealing'}"
                f" ({self.phase.value})"
            )
        if not isinstance(card, Card):
            raise IllegalActionError(f"a chance step is a Card, not {type(card).__name__}")
        return self._turn(card)

    def deadline(self) -> float | None:
        """When the open betting round closes, or when the pause ends; ``None`` otherwise."""
        if self.phase is Phase.BETTING:
            return self.closes_at
        if self.phase is Phase.PAUSE:
            return self.pause_ends_at
        return None

    def expire(self, now: float) -> list[Event]:
        """Apply what is due at ``now``: close the open round, or open the next after the pause.

        Nothing happens (``[]``) before the deadline, while cards are due or once the game is
        over. An automatic game turns the closed round's cards from its shoe at once (and the
        cards still due of a game loaded part way through a reveal); if the shoe fails the game
        is left as it was.
        """
        moment = _seconds(now, "now")
        if self.phase is Phase.REVEAL and self.shoe is not None:
            saved = self._snapshot()
            try:
                return self._turn_from_the_shoe()
            except BaseException:
                self._restore(saved)
                raise
        due = self.deadline()
        if due is None or moment < due:
            return []
        if self.phase is Phase.PAUSE:
            assert self.open_round is not None
            self.phase = Phase.BETTING
            self.closes_at = moment + self.schedule.length(self.open_round)
            self._times.append(moment)
            return []
        saved = self._snapshot()
        try:
            self.phase = Phase.REVEAL
            self.closes_at = moment
            self._times.append(moment)
            events = self._reveal_if_no_card_is_due()
            events += self._turn_from_the_shoe()
        except BaseException:
            self._restore(saved)
            raise
        return events

    def view(self, seat: int | None) -> dict[str, Any]:
        """What anyone at the table sees (every customer sees the same): the cards turned so far."""
        if seat is not None:
            _check_seat(seat)
        return {
            "game": "exchange",
            "phase": self.phase.value,
            "open_round": self.open_round,
            "deadline": self.deadline(),
            "players": [[str(card) for card in hand] for hand in self.players],
            "dealer": [str(card) for card in self.dealer],
            "played": self.played,
            "settled": {
                name: self.settlements[name].to_json()
                for name in SELECTIONS
                if name in self.settlements
            },
            "open_selections": self.open_selections(),
        }

    # -- the old API: the caller ends each round ---------------------------------------------
    def state(self) -> ExchangeState:
        """What the customers see now (the input of the odds)."""
        return ExchangeState(self.players, self.dealer, self.played)

    def open_selections(self) -> list[str]:
        """Selections still taking bets (not settled)."""
        return [name for name in SELECTIONS if name not in self.settlements]

    def end_round(self) -> list[Event]:
        """Close the open betting round at its deadline (after the pause before it, if any)."""
        if self.phase is Phase.OVER:
            raise IllegalActionError("the game is over: there is no betting round to end")
        if self.phase is Phase.REVEAL:
            if self.shoe is None:
                raise IllegalActionError(
                    "the round has closed and its cards are being turned: give them (apply_chance)"
                )
            return self.expire(self.closes_at)
        saved = self._snapshot()
        try:
            if self.phase is Phase.PAUSE:
                assert self.pause_ends_at is not None
                self.expire(self.pause_ends_at)
            return self.expire(self.closes_at)
        except BaseException:
            self._restore(saved)
            raise

    def play_out(self) -> list[Event]:
        """End every round in turn until the game is over."""
        while not self.is_over:
            self.end_round()
        return list(self.events)

    # -- saving and loading ------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole state, versioned. ``cards`` and ``times`` determine it; the rest is what
        they lead to (for readers), checked when loaded."""
        table = self.table
        return {
            "game": "exchange",
            "version": STATE_VERSION,
            "schedule": self.schedule.to_json(),
            "start": self.start,
            "logic_table": None if _is_shipped(table) else table.to_json(),
            "cards": [str(card) for card in self._cards],
            "times": list(self._times),
            "phase": self.phase.value,
            "open_round": self.open_round,
            "closes_at": self.closes_at,
            "pause_ends_at": self.pause_ends_at,
            "players": [[str(card) for card in hand] for hand in self.players],
            "dealer": [str(card) for card in self.dealer],
            "played": self.played,
            "settlements": {
                name: self.settlements[name].to_json()
                for name in SELECTIONS
                if name in self.settlements
            },
            "events": [event.to_json() for event in self.events],
        }

    @classmethod
    def from_json(cls, data: Any, shoe: Shoe | None = None) -> ExchangeGame:
        """Load a state saved by :meth:`to_json` (:class:`GameStateError` if it is malformed).

        The game is replayed from its cards and times, and everything else saved must be what
        they lead to. With ``shoe`` the loaded game is automatic (its shoe is not restarted:
        the game is part way through).
        """
        if not isinstance(data, dict):
            raise GameStateError("an exchange game state must be a JSON object")
        if data.get("game") != "exchange":
            raise GameStateError(f'not an exchange game state ("game": {shown(data.get("game"))})')
        version = data.get("version")
        if version != STATE_VERSION or isinstance(version, bool):
            raise GameStateError(
                f"unknown exchange game state version {shown(version)} (this is {STATE_VERSION})"
            )
        if set(data) != _STATE_KEYS:
            missing = sorted(_STATE_KEYS - set(data))
            extra = sorted(shown(key) for key in data if key not in _STATE_KEYS)
            raise GameStateError(
                "an exchange game state has exactly the keys of to_json();"
                + (f" missing: {', '.join(missing)}" if missing else "")
                + (f" unknown: {', '.join(extra)}" if extra else "")
            )
        try:
            schedule = RoundSchedule.from_json(data["schedule"])
            raw_table = data["logic_table"]
            table = None if raw_table is None else LogicTable.from_json(raw_table)
            game = cls(None, table, schedule=schedule, start=data["start"])
        except TwentyOneError as error:
            raise GameStateError(f"exchange game state: {error}") from None
        cards = _card_list(data["cards"])
        times = _time_list(data["times"])
        game._replay(cards, times)
        saved = game.to_json()
        for key in _STATE_KEYS:
            if saved[key] != data[key] or _has_bool(data[key]) != _has_bool(saved[key]):
                raise GameStateError(
                    f"exchange game state: {key} is not what its cards and times lead to"
                    f" (expected {shown(saved[key])})"
                )
        game.shoe = shoe
        return game

    def _replay(self, cards: Sequence[Card], times: Sequence[float]) -> None:
        next_card = next_time = 0
        while next_card < len(cards) or next_time < len(times):
            if self.phase is Phase.REVEAL:
                if next_card == len(cards):
                    break
                self._turn(cards[next_card])
                next_card += 1
                continue
            due = self.deadline()
            if due is None or next_time == len(times):
                break
            if times[next_time] < due:
                raise GameStateError(
                    f"exchange game state: time {times[next_time]!r} is before the deadline"
                    f" {due!r} it should have passed"
                )
            self.expire(times[next_time])
            next_time += 1
        if next_card < len(cards) or next_time < len(times):
            raise GameStateError(
                f"exchange game state: {len(cards) - next_card} card(s) and"
                f" {len(times) - next_time} time(s) left over after the game"
                f" ({self.phase.value}) had no use for them"
            )

    # -- the reveal ----------------------------------------------------------------------------
    def _next_hand(self) -> int | None:
        """The hand the next card of the reveal goes to (PLAYERS: the dealer), or None: done."""
        closing = self.open_round
        turned = len(self._turned)
        if closing == 1:
            if turned < 2 * PLAYERS:
                return turned // 2
            return PLAYERS if turned == 2 * PLAYERS else None
        if closing == 2:
            up = self.dealer[0].value
            for index, hand in enumerate(self.players):
                if self.table.hits(state_of(hand), up):
                    return index
            return None
        return PLAYERS if turned == 0 else None

    def _turn(self, card: Card) -> list[Event]:
        index = self._next_hand()
        assert index is not None  # REVEAL lasts only while a card is due
        if index == PLAYERS:
            self.dealer = (*self.dealer, card)
            self._turned.append((DEALER, card))
        else:
            hands = list(self.players)
            hands[index] = (*hands[index], card)
            self.players = tuple(hands)
            self._turned.append((f"Player {index + 1}", card))
        self._cards.append(card)
        return self._reveal_if_no_card_is_due()

    def _turn_from_the_shoe(self) -> list[Event]:
        """An automatic game turns every card due from its shoe (explicit: nothing)."""
        events: list[Event] = []
        while self.shoe is not None and self.phase is Phase.REVEAL:
            events += self._turn(self.shoe.draw())
        return events

    def _reveal_if_no_card_is_due(self) -> list[Event]:
        """Once the reveal's last card is turned: settle what is certain, then pause or end."""
        if self._next_hand() is not None:
            return []
        closing = self.open_round
        assert closing is not None
        if closing == 2:
            self.played = True
        events = [Event(closing, "reveal", tuple(self._turned))]
        self._turned = []
        state = self.state()
        settled = []
        for name, outcome in certain_outcomes(state, self.table).items():
            if name not in self.settlements:
                settlement = Settlement(name, outcome, closing)
                self.settlements[name] = settlement
                settled.append(settlement)
        if settled:
            events.append(Event(closing, "settle", settled=tuple(settled)))
        next_round = state.open_round(self.table)
        self.pause_ends_at = self.closes_at + self.schedule.pause
        if next_round is None or closing == LAST_ROUND:
            missing = [name for name in SELECTIONS if name not in self.settlements]
            if missing:  # pragma: no cover (a finished game decides everything)
                raise AssertionError(f"game over with {missing} unsettled")
            self.phase = Phase.OVER
            self.open_round = None
            if self.shoe is not None:
                self.shoe.end_round()
            events.append(Event(closing, "end"))
        else:
            self.phase = Phase.PAUSE
            self.open_round = next_round
        self.events += events
        return events

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self.players,
            self.dealer,
            self.played,
            self.phase,
            self.open_round,
            dict(self.settlements),
            len(self.events),
            self.closes_at,
            self.pause_ends_at,
            len(self._cards),
            len(self._times),
            list(self._turned),
        )

    def _restore(self, saved: tuple[Any, ...]) -> None:
        (
            self.players,
            self.dealer,
            self.played,
            self.phase,
            self.open_round,
            self.settlements,
            events,
            self.closes_at,
            self.pause_ends_at,
            cards,
            times,
            self._turned,
        ) = saved
        del self.events[events:]
        del self._cards[cards:]
        del self._times[times:]


#: The keys of :meth:`ExchangeGame.to_json`.
_STATE_KEYS = frozenset(
    {
        "game",
        "version",
        "schedule",
        "start",
        "logic_table",
        "cards",
        "times",
        "phase",
        "open_round",
        "closes_at",
        "pause_ends_at",
        "players",
        "dealer",
        "played",
        "settlements",
        "events",
    }
)


def _is_shipped(table: LogicTable) -> bool:
    shipped = load_logic_table()
    return table is shipped or table == shipped


def _check_seat(seat: object) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise IllegalActionError(f"a seat is a whole number >= 0, not {shown(seat)}")


def _seconds(value: object, name: str, error: type[TwentyOneError] = IllegalActionError) -> float:
    """A time: a finite number of seconds, at most :data:`_LARGEST_TIME` either way."""
    # Compared before any conversion: float(10**400) would overflow; NaN fails the comparison.
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not -_LARGEST_TIME <= value <= _LARGEST_TIME
    ):
        raise error(
            f"{name} must be a finite number of seconds within {_LARGEST_TIME:g},"
            f" not {shown(value)}"
        )
    return float(value)


#: Times beyond this (about 3 million years of seconds) are refused: sums of them stay exact
#: enough and finite.
_LARGEST_TIME = 1e14


def _card_list(value: object) -> list[Card]:
    if not isinstance(value, list) or len(value) > MAX_CARDS_IN_GAME:
        raise GameStateError(
            f"exchange game state: cards must be a list of at most {MAX_CARDS_IN_GAME} cards"
        )
    out = []
    for item in value:
        if not isinstance(item, str) or len(item) > 8:
            raise GameStateError(f"exchange game state: not a card: {shown(item)}")
        try:
            out.append(Card.parse(item))
        except TwentyOneError as error:
            raise GameStateError(f"exchange game state: {error}") from None
    return out


def _time_list(value: object) -> list[float]:
    if not isinstance(value, list) or len(value) > MAX_TIMES_IN_GAME:
        raise GameStateError(
            f"exchange game state: times must be a list of at most {MAX_TIMES_IN_GAME} numbers"
        )
    try:
        return [_seconds(item, "a time") for item in value]
    except TwentyOneError as error:
        raise GameStateError(f"exchange game state: {error}") from None


def _has_bool(value: object) -> bool:
    """Whether a JSON value holds a bool where it could hold a number (``True == 1``)."""
    if isinstance(value, bool):
        return True
    if isinstance(value, Mapping):
        return any(_has_bool(item) for item in value.values())
    if isinstance(value, list | tuple):
        return any(_has_bool(item) for item in value)
    return False
