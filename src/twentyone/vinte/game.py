"""Vinte-e-um as a pure state machine over a whole match (spec/vinte-e-um.md).

A :class:`MatchState` is immutable. :func:`deal` starts a round from the round's shuffled
deck (the caller shuffles with its own randomness source), :func:`apply` plays one
:class:`Action`, :func:`expire` applies the default actions of decisions whose deadline has
passed. Time is always passed in (``now``, in seconds from any origin): the engine has no
clock, no randomness and no I/O. Every action is validated before anything changes; a
refused action raises a typed :class:`~twentyone.vinte.errors.VinteActionError` and the
state it was given is untouched (it is immutable anyway).

>>> from twentyone.cards import parse_cards
>>> table = VinteTable.create(3, first_banker=0)
>>> state = new_match(table)
>>> state = deal(state, parse_cards("9S 5H TD 8C 2D 6S"), now=0.0)
>>> state.phase.value, to_act(state)
('betting', (1, 2))
>>> state = apply(state, Bet(1, 5), now=1.0)
>>> state = apply(state, Bet(2, 2), now=2.0)
>>> state.phase.value, state.round.banker_cards[1], to_act(state)
('players', Card('8C'), (1,))
>>> apply(state, Hit(2), now=3.0)
Traceback (most recent call last):
...
twentyone.vinte.errors.OutOfTurnError: seat 2 cannot hit now: it is seat 1's turn
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from twentyone.cards import DECK, Card
from twentyone.clock import ClockError
from twentyone.errors import InvalidCardError, ShoeExhaustedError
from twentyone.hand import BLACKJACK_TOTAL, HandValue, hand_value
from twentyone.randomness import RandomSource, fisher_yates
from twentyone.rules import Rules
from twentyone.shoe import check_possible
from twentyone.vinte.errors import (
    CallError,
    DrawError,
    OutOfTurnError,
    VinteActionError,
    VinteBetError,
    VinteTableError,
    show,
)
from twentyone.vinte.events import Event
from twentyone.vinte.settings import VinteTable


class Phase(enum.Enum):
    DEAL = "deal"  # between rounds: waiting for the next round's cards
    BETTING = "betting"
    PLAYERS = "players"
    BANKER = "banker"
    OVER = "over"  # the match has a winner


class Status(enum.Enum):
    WAITING = "waiting"  # holds the hidden card; his turn has not come
    PLAYING = "playing"
    STOOD = "stood"  # stood or reached 21: waits for the banker
    BUST = "bust"
    SETTLED = "settled"  # called, paid by a banker's bust or a natural, or lost to one


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """A player's hand; ``cards[0]`` is the hidden card. ``shown``: it is public."""

    seat: int
    cards: tuple[Card, ...]
    bet: int | None = None
    status: Status = Status.WAITING
    shown: bool = False
    called: bool = False
    declared_21: bool = False
    result: str | None = None  # win | lose | bust | natural | bank-natural
    net: int = 0


@dataclass(frozen=True, slots=True)
class ChanceStep:
    """The card the round waits for: ``kind`` is ``hidden`` (``seat``'s hidden card, the
    banker's last), ``up-card`` (the banker's face-up card), ``second`` (``seat``'s face-up
    second card), ``hit`` (``seat``'s hit) or ``banker-draw``."""

    kind: str
    seat: int

    def purpose(self, banker: int) -> str:
        """What the card is for, in words (error messages)."""
        if self.kind == "hidden":
            return (
                "the banker's hidden card"
                if self.seat == banker
                else (f"seat {self.seat}'s hidden card")
            )
        return {
            "up-card": "the banker's face-up card",
            "second": f"seat {self.seat}'s second card",
            "hit": f"seat {self.seat}'s hit",
            "banker-draw": "the banker's draw",
        }[self.kind]


CHANCE_KINDS = ("hidden", "up-card", "second", "hit", "banker-draw")


@dataclass(frozen=True, slots=True)
class RoundState:
    """One round. ``deck``: the round's cards known to the engine; ``drawn`` counts the
    cards dealt from it. With ``deck_given`` the whole shuffled deck was given at the deal
    (audit only; running out is a :class:`~twentyone.errors.ShoeExhaustedError`); otherwise
    the cards come one by one (:func:`deal_card`) and ``pending`` says which card the round
    waits for. ``order``: the players from the banker's left."""

    number: int
    banker: int
    deck: tuple[Card, ...]
    drawn: int
    order: tuple[int, ...]
    hands: tuple[PlayerHand, ...]
    banker_cards: tuple[Card, ...]
    banker_shown: bool
    turn: int | None
    events: tuple[Event, ...]
    pending: ChanceStep | None = None
    deck_given: bool = True

    @property
    def dealing(self) -> bool:
        """The round's hidden cards are still being dealt (the betting has not opened)."""
        return self.pending is not None and self.pending.kind == "hidden"

    def hand(self, seat: int) -> PlayerHand:
        for hand in self.hands:
            if hand.seat == seat:
                return hand
        raise OutOfTurnError(f"seat {seat} has no hand in round {self.number}")


@dataclass(frozen=True, slots=True)
class SeatState:
    stack: int
    in_game: bool = True
    missed: int = 0  # deadlines missed in a row
    away: bool = False


@dataclass(frozen=True, slots=True)
class MatchState:
    """The full state of a match: for the engine, recall and audit, never for a seat
    (seats get :func:`twentyone.vinte.views.view_for`)."""

    table: VinteTable
    seats: tuple[SeatState, ...]
    banker: int
    bank_rounds_left: int
    rounds_played: int
    phase: Phase
    round: RoundState | None
    deadline: float | None
    winners: tuple[int, ...]
    first_banker_drawn: bool

    def total_chips(self) -> int:
        return sum(seat.stack for seat in self.seats)


#: No table has more seats than this, nor a bet more chips: a bound on hostile numbers.
_MAX_FIELD = 10**15


def _check_number(value: object, what: str) -> None:
    """A seat number is an ``int`` (never a ``bool``) of sane size."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not -_MAX_FIELD <= value <= _MAX_FIELD
    ):
        raise VinteActionError(f"{what} must be a whole number, got {show(value)}")


@dataclass(frozen=True, slots=True)
class Bet:
    seat: int
    chips: int

    def __post_init__(self) -> None:
        _check_number(self.seat, "a seat")
        if isinstance(self.chips, bool) or not isinstance(self.chips, int):
            raise VinteBetError(f"a bet is a whole number of chips, got {show(self.chips)}")


@dataclass(frozen=True, slots=True)
class Hit:
    seat: int

    def __post_init__(self) -> None:
        _check_number(self.seat, "a seat")


@dataclass(frozen=True, slots=True)
class Stand:
    seat: int

    def __post_init__(self) -> None:
        _check_number(self.seat, "a seat")


@dataclass(frozen=True, slots=True)
class Draw:
    """The banker draws a face-up card."""

    seat: int

    def __post_init__(self) -> None:
        _check_number(self.seat, "a seat")


@dataclass(frozen=True, slots=True)
class Call:
    """The banker calls ``target``: an immediate showdown."""

    seat: int
    target: int

    def __post_init__(self) -> None:
        _check_number(self.seat, "a seat")
        if isinstance(self.target, bool) or not isinstance(self.target, int):
            raise CallError(f"a call names a seat number, got {show(self.target)}")


@dataclass(frozen=True, slots=True)
class ComeBack:
    """A person whose seat was "away" (played by the standard bot) takes it back."""

    seat: int

    def __post_init__(self) -> None:
        _check_number(self.seat, "a seat")


Action = Bet | Hit | Stand | Draw | Call | ComeBack


def describe(action: Action) -> str:
    """The scenario notation of an action.

    >>> describe(Bet(2, 5)), describe(Call(0, 3))
    ('bet 2 5', 'call 3')
    """
    if isinstance(action, Bet):
        return f"bet {action.seat} {action.chips}"
    if isinstance(action, Call):
        return f"call {action.target}"
    if isinstance(action, Draw):
        return "draw"
    name = {Hit: "hit", Stand: "stand", ComeBack: "come-back"}[type(action)]
    return f"{name} {action.seat}"


# ---------------------------------------------------------------- creating a match


def shuffled_deck(rules: Rules, source: RandomSource) -> list[Card]:
    """A round's fresh deck(s), shuffled, without a cut."""
    return fisher_yates(list(DECK) * (rules.decks or 1), source)


def new_match(table: VinteTable, source: RandomSource | None = None) -> MatchState:
    """A match before its first deal. The first banker is the table's, or drawn from
    ``source`` (recorded in ``first_banker_drawn``)."""
    drawn = table.first_banker is None
    if table.first_banker is not None:
        banker = table.first_banker
    elif source is None:
        raise VinteTableError("the first banker is drawn at random: give a randomness source")
    else:
        banker = source.randbelow(table.size)
    stack = table.settings.starting_stack
    return MatchState(
        table=table,
        seats=tuple(SeatState(stack) for _ in table.seats),
        banker=banker,
        bank_rounds_left=table.settings.bank_rounds,
        rounds_played=0,
        phase=Phase.DEAL,
        round=None,
        deadline=None,
        winners=(),
        first_banker_drawn=drawn,
    )


def covers(state: MatchState, seat: int) -> bool:
    """Whether ``seat`` holds the sum over the other seats still in of min(max bet, stack)."""
    max_bet = state.table.rules.max_bet
    owed = sum(
        min(max_bet, other.stack)
        for index, other in enumerate(state.seats)
        if index != seat and other.in_game
    )
    return state.seats[seat].stack >= owed


def players_from_left(state: MatchState, banker: int) -> tuple[int, ...]:
    """The seats still in, from the banker's left, banker excluded."""
    size = state.table.size
    return tuple(
        seat
        for seat in ((banker + step) % size for step in range(1, size))
        if state.seats[seat].in_game
    )


def bet_range(state: MatchState, seat: int) -> tuple[int, int]:
    """The bets ``seat`` may place: [min, max] within its stack; a stack under the
    minimum bets itself whole."""
    rules = state.table.rules
    stack = state.seats[seat].stack
    if stack < rules.min_bet:
        return stack, stack
    return rules.min_bet, min(rules.max_bet, stack)


def default_bet(state: MatchState, seat: int) -> int:
    """The bet placed for a seat that misses the betting deadline: min(minimum, stack)."""
    return min(state.table.rules.min_bet, state.seats[seat].stack)


def value(state: MatchState, cards: Sequence[Card]) -> HandValue:
    return hand_value(cards, state.table.rules.aces_high)


def to_act(state: MatchState) -> tuple[int, ...]:
    """The seats whose decision is awaited now (none while a card is awaited)."""
    current = state.round
    if current is None or current.pending is not None:
        return ()
    if state.phase is Phase.BETTING:
        return tuple(hand.seat for hand in current.hands if hand.bet is None)
    if state.phase is Phase.PLAYERS and current.turn is not None:
        return (current.turn,)
    if state.phase is Phase.BANKER:
        return (current.banker,)
    return ()


def legal_actions(state: MatchState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now (empty when it has nothing to decide)."""
    actions: list[Action] = []
    if not _is_seat(state, seat):
        return actions
    if state.seats[seat].away:
        actions.append(ComeBack(seat))
    if seat not in to_act(state):
        return actions
    current = state.round
    assert current is not None
    if state.phase is Phase.BETTING:
        low, high = bet_range(state, seat)
        actions.extend(Bet(seat, chips) for chips in range(low, high + 1))
    elif state.phase is Phase.PLAYERS:
        actions.extend([Hit(seat), Stand(seat)])
    elif state.phase is Phase.BANKER:
        if value(state, current.banker_cards).total < BLACKJACK_TOTAL:
            actions.append(Draw(seat))
        actions.extend(
            Call(seat, hand.seat) for hand in current.hands if hand.status is Status.STOOD
        )
    return actions


# ---------------------------------------------------------------- the working copy


class _Work:
    """A mutable copy of a state that an action edits; frozen again only if it succeeds."""

    def __init__(self, state: MatchState, now: float) -> None:
        self.state = state
        self.now = now
        self.table = state.table
        self.rules = state.table.rules
        self.settings = state.table.settings
        self.seats = list(state.seats)
        self.banker = state.banker
        self.bank_rounds_left = state.bank_rounds_left
        self.rounds_played = state.rounds_played
        self.phase = state.phase
        self.deadline = state.deadline
        self.winners = state.winners
        current = state.round
        self.dealer = current.banker if current is not None else state.banker
        if current is not None:
            self.number = current.number
            self.deck = current.deck
            self.drawn = current.drawn
            self.order = current.order
            self.hands = {hand.seat: hand for hand in current.hands}
            self.banker_cards = current.banker_cards
            self.banker_shown = current.banker_shown
            self.turn = current.turn
            self.events = list(current.events)
            self.pending = current.pending
            self.deck_given = current.deck_given
        #: The events of this transition alone (what ``Game.apply`` returns).
        self.emitted: list[Event] = []

    def freeze(self) -> MatchState:
        current = RoundState(
            number=self.number,
            banker=self.round_banker,
            deck=self.deck,
            drawn=self.drawn,
            order=self.order,
            hands=tuple(self.hands[seat] for seat in self.order if seat in self.hands),
            banker_cards=self.banker_cards,
            banker_shown=self.banker_shown,
            turn=self.turn,
            events=tuple(self.events),
            pending=self.pending,
            deck_given=self.deck_given,
        )
        return MatchState(
            table=self.table,
            seats=tuple(self.seats),
            banker=self.banker,
            bank_rounds_left=self.bank_rounds_left,
            rounds_played=self.rounds_played,
            phase=self.phase,
            round=current,
            deadline=self.deadline,
            winners=self.winners,
            first_banker_drawn=self.state.first_banker_drawn,
        )

    # -- helpers

    @property
    def round_banker(self) -> int:
        """The banker of the round being played (the match's banker may change at its end)."""
        return self.dealer

    def emit(
        self,
        kind: str,
        seat: int | None,
        public: dict[str, Any] | None = None,
        private: dict[str, Any] | None = None,
    ) -> None:
        event = Event(kind, seat, public or {}, private)
        self.events.append(event)
        self.emitted.append(event)

    # -- chance steps: every card is asked for by ``need`` and handled by ``on_card``

    def need(self, kind: str, seat: int) -> None:
        """Ask for the next card; always the last thing a step does (``run`` deals it)."""
        self.pending = ChanceStep(kind, seat)

    def run(self) -> None:
        """Deal the cards asked for while the deck has them. Out of cards, a deck given
        whole is a :class:`ShoeExhaustedError`; a deck dealt card by card waits for the
        next card (a chance step: nobody's decision, no deadline)."""
        while self.pending is not None:
            step = self.pending
            if self.drawn >= len(self.deck):
                if self.deck_given:
                    raise ShoeExhaustedError(
                        f"round {self.number}: the deck ran out: card #{self.drawn + 1} was "
                        f"needed ({step.purpose(self.round_banker)}) but only "
                        f"{len(self.deck)} were given"
                    )
                self.deadline = None
                return
            card = self.deck[self.drawn]
            self.drawn += 1
            self.pending = None
            self.on_card(step, card)

    def give(self, card: Card) -> None:
        """A card from the dealer for the pending chance step (cards dealt one by one)."""
        self.deck = (*self.deck, card)
        check_possible(self.deck, self.rules.decks)
        self.run()

    def on_card(self, step: ChanceStep, card: Card) -> None:
        if step.kind == "hidden":
            self.hidden_card(step.seat, card)
        elif step.kind == "up-card":
            self.up_card(card)
        elif step.kind == "second":
            self.second_card(step.seat, card)
        elif step.kind == "hit":
            self.hit_card(step.seat, card)
        else:
            self.banker_card(card)

    def value(self, cards: Sequence[Card]) -> HandValue:
        return hand_value(cards, self.rules.aces_high)

    def set_deadline(self) -> None:
        self.deadline = self.now + self.settings.decision_seconds

    def transfer(self, payer: int, payee: int, chips: int) -> int:
        """Move up to ``chips`` (never below zero: a banker pays what he has)."""
        paid = min(chips, self.seats[payer].stack)
        self.seats[payer] = replace(self.seats[payer], stack=self.seats[payer].stack - paid)
        self.seats[payee] = replace(self.seats[payee], stack=self.seats[payee].stack + paid)
        return paid

    def acted(self, seat: int) -> None:
        """A seat's own decision: its run of missed deadlines is over."""
        if self.seats[seat].missed:
            self.seats[seat] = replace(self.seats[seat], missed=0)

    def missed(self, seat: int, default: str) -> None:
        missed = self.seats[seat].missed + 1
        away = self.seats[seat].away or missed >= self.settings.missed_deadlines_for_away
        self.emit("timeout", seat, {"default": default})
        if away and not self.seats[seat].away:
            self.emit("away", seat)
        self.seats[seat] = replace(self.seats[seat], missed=missed, away=away)

    # -- the round

    def start_round(self, deck: Sequence[Card], given: bool) -> None:
        """Open the next round; ``deck``: its whole shuffled deck (``given``) or no cards yet."""
        check_possible(deck, self.rules.decks)
        self.dealer = self.banker
        self.number = self.rounds_played + 1
        self.deck = tuple(deck)
        self.deck_given = given
        self.drawn = 0
        self.order = players_from_left(self.state, self.banker)
        self.events = []
        opening: dict[str, Any] = {
            "number": self.number,
            "banker": self.banker,
            "order": list(self.order),
        }
        if self.number == 1:
            # How the first banker was chosen is part of the record.
            opening["first_banker"] = "drawn" if self.state.first_banker_drawn else "set"
        self.emit("round", None, opening)
        self.hands = {}
        self.banker_cards = ()
        self.banker_shown = False
        self.turn = None
        self.deadline = None
        self.phase = Phase.DEAL
        # One hidden card to each player from the banker's left, the banker last.
        self.need("hidden", self.order[0])

    def hidden_card(self, seat: int, card: Card) -> None:
        if seat == self.round_banker:
            self.banker_cards = (card,)
            self.emit("hidden-card", seat, {}, {"card": str(card)})
            self.phase = Phase.BETTING
            self.set_deadline()
            return
        self.hands[seat] = PlayerHand(seat, (card,))
        self.emit("hidden-card", seat, {}, {"card": str(card)})
        index = self.order.index(seat) + 1
        self.need("hidden", self.order[index] if index < len(self.order) else self.round_banker)

    def place_bet(self, seat: int, chips: int) -> None:
        self.hands[seat] = replace(self.hands[seat], bet=chips)
        self.emit("bet-placed", seat, {}, {"chips": chips})
        if all(hand.bet is not None for hand in self.hands.values()):
            self.after_bets()

    def after_bets(self) -> None:
        self.emit("bets-shown", None, {"bets": {str(s): self.hands[s].bet for s in self.order}})
        self.phase = Phase.PLAYERS  # the bets are public from here on
        self.turn = None
        self.need("up-card", self.round_banker)

    def up_card(self, up: Card) -> None:
        self.banker_cards = (*self.banker_cards, up)
        self.emit("up-card", self.round_banker, {"card": str(up)})
        banker_value = self.value(self.banker_cards)
        if banker_value.total == BLACKJACK_TOTAL:
            self.banker_shown = True
            self.emit("natural", self.round_banker, {"cards": [str(c) for c in self.banker_cards]})
            for seat in self.order:
                hand = self.hands[seat]
                chips = self.transfer(seat, self.round_banker, hand.bet or 0)
                self.hands[seat] = replace(
                    hand, status=Status.SETTLED, result="bank-natural", net=-chips
                )
            self.finish_round()
            return
        self.next_player()

    def next_player(self) -> None:
        """Ask for the next waiting player's second card, or start the banker's turn."""
        self.turn = None
        for seat in self.order:
            if self.hands[seat].status is Status.WAITING:
                self.need("second", seat)
                return
        self.start_banker_turn()

    def second_card(self, seat: int, card: Card) -> None:
        hand = self.hands[seat]
        hand = replace(hand, cards=(*hand.cards, card), status=Status.PLAYING)
        self.hands[seat] = hand
        self.emit("card", seat, {"card": str(card)})
        total = self.value(hand.cards).total
        if total == BLACKJACK_TOTAL and self.settings.declares_21:
            self.declare_21(seat)
            self.next_player()
            return
        if total >= BLACKJACK_TOTAL:
            self.end_turn(seat)
            self.next_player()
            return
        self.turn = seat
        self.set_deadline()

    def declare_21(self, seat: int) -> None:
        hand = self.hands[seat]
        self.emit("player-21", seat, {"cards": [str(c) for c in hand.cards]})
        hand = replace(hand, shown=True, declared_21=True)
        if self.settings.player_21_pays_double:
            paid = self.transfer(self.round_banker, seat, 2 * (hand.bet or 0))
            hand = replace(hand, status=Status.SETTLED, result="natural", net=paid)
            self.emit("paid", seat, {"chips": paid})
        else:
            hand = replace(hand, status=Status.STOOD)
        self.hands[seat] = hand

    def end_turn(self, seat: int) -> None:
        """Stand (a player who reaches 21 is shown to the others as a plain stand)."""
        self.hands[seat] = replace(self.hands[seat], status=Status.STOOD)
        self.emit("stand", seat)

    def hit(self, seat: int) -> None:
        self.need("hit", seat)

    def hit_card(self, seat: int, card: Card) -> None:
        hand = self.hands[seat]
        hand = replace(hand, cards=(*hand.cards, card))
        self.hands[seat] = hand
        self.emit("card", seat, {"card": str(card)})
        hand_total = self.value(hand.cards)
        if hand_total.bust:
            chips = self.transfer(seat, self.round_banker, hand.bet or 0)
            self.hands[seat] = replace(
                hand, status=Status.BUST, shown=True, result="bust", net=-chips
            )
            self.emit(
                "bust",
                seat,
                {"cards": [str(c) for c in hand.cards], "total": hand_total.total, "lost": chips},
            )
            self.next_player()
        elif hand_total.total == BLACKJACK_TOTAL:
            self.end_turn(seat)
            self.next_player()
        else:
            self.set_deadline()

    def stand(self, seat: int) -> None:
        self.end_turn(seat)
        self.next_player()

    def start_banker_turn(self) -> None:
        if not any(hand.status is Status.STOOD for hand in self.hands.values()):
            # Every player is bust or already paid: the banker's hidden card stays hidden.
            self.finish_round()
            return
        self.banker_shown = True
        self.phase = Phase.BANKER
        self.emit(
            "reveal",
            self.round_banker,
            {
                "card": str(self.banker_cards[0]),
                "total": self.value(self.banker_cards).total,
            },
        )
        self.set_deadline()

    def banker_draw(self) -> None:
        self.need("banker-draw", self.round_banker)

    def banker_card(self, card: Card) -> None:
        self.banker_cards = (*self.banker_cards, card)
        banker_value = self.value(self.banker_cards)
        self.emit("draw", self.round_banker, {"card": str(card), "total": banker_value.total})
        if not banker_value.bust:
            self.set_deadline()
            return
        paid_seats = []
        for seat in self.order:
            hand = self.hands[seat]
            if hand.status is Status.STOOD:
                paid = self.transfer(self.round_banker, seat, hand.bet or 0)
                self.hands[seat] = replace(hand, status=Status.SETTLED, result="win", net=paid)
                paid_seats.append(seat)
        self.emit("banker-bust", self.round_banker, {"paid": paid_seats})
        self.finish_round()

    def call(self, target: int) -> None:
        hand = self.hands[target]
        player_total = self.value(hand.cards).total
        banker_total = self.value(self.banker_cards).total
        if player_total > banker_total:
            chips = self.transfer(self.round_banker, target, hand.bet or 0)
            result, net = "win", chips
        else:
            chips = self.transfer(target, self.round_banker, hand.bet or 0)
            result, net = "lose", -chips
        self.hands[target] = replace(
            hand, status=Status.SETTLED, shown=True, called=True, result=result, net=net
        )
        self.emit(
            "call",
            target,
            {
                "cards": [str(c) for c in hand.cards],
                "total": player_total,
                "banker_total": banker_total,
                "result": result,
                "net": net,
            },
        )
        if any(h.status is Status.STOOD for h in self.hands.values()):
            self.set_deadline()
        else:
            self.finish_round()

    # -- the end of a round and of the match

    def finish_round(self) -> None:
        banker = self.round_banker
        self.turn = None
        self.deadline = None
        self.rounds_played += 1
        if self.settings.bank_rounds:
            self.bank_rounds_left -= 1
        self.emit(
            "round-over",
            None,
            {
                "nets": {str(s): self.hands[s].net for s in self.order},
                "banker_net": -sum(self.hands[s].net for s in self.order),
                "stacks": [seat.stack for seat in self.seats],
            },
        )
        for index, seat in enumerate(self.seats):
            if seat.in_game and seat.stack == 0:
                self.seats[index] = replace(seat, in_game=False)
                self.emit("left", index, {"reason": "no chips"})
        alive = [index for index, seat in enumerate(self.seats) if seat.in_game]
        limit = self.settings.round_limit
        if len(alive) == 1 or (limit and self.rounds_played >= limit):
            best = max(self.seats[index].stack for index in alive)
            self.winners = tuple(index for index in alive if self.seats[index].stack == best)
            self.phase = Phase.OVER
            self.emit("match-over", None, {"winners": list(self.winners)})
            return
        self.phase = Phase.DEAL
        self.pass_bank(banker)

    def covers(self, seat: int) -> bool:
        return covers(replace(self.state, seats=tuple(self.seats)), seat)

    def pass_bank(self, banker: int) -> None:
        fresh = self.settings.bank_rounds
        if self.settings.player_21_takes_bank:
            for seat in self.order:
                hand = self.hands[seat]
                if hand.declared_21 and self.seats[seat].in_game:
                    if self.covers(seat):
                        self.move_bank(banker, seat, "player's 21")
                        return
                    break  # only the first such player may take it
        keeps = self.seats[banker].in_game and self.covers(banker)
        if keeps and (fresh == 0 or self.bank_rounds_left > 0):
            return
        reason = "rounds up" if keeps else "cannot cover"
        size = self.table.size
        for step in range(1, size + 1):
            seat = (banker + step) % size
            if self.seats[seat].in_game and self.covers(seat):
                self.move_bank(banker, seat, reason)
                return
        raise AssertionError("no seat covers the table")  # excluded by check_table

    def move_bank(self, old: int, new: int, reason: str) -> None:
        self.banker = new
        self.bank_rounds_left = self.settings.bank_rounds
        self.emit("bank", new, {"from": old, "reason": reason})


# ---------------------------------------------------------------- the public transitions


def deal(state: MatchState, deck: Sequence[Card], now: float) -> MatchState:
    """Start the next round from its shuffled deck (top first). Only as many cards as the
    round uses are needed; running out is a :class:`ShoeExhaustedError`."""
    return deal_events(state, deck, now)[0]


def deal_card(state: MatchState, card: Card, now: float) -> MatchState:
    """Deal the one card the round waits for (the next round's first card between rounds):
    the chance step of a round dealt card by card."""
    return deal_card_events(state, card, now)[0]


def apply(state: MatchState, action: Action, now: float) -> MatchState:
    """Play ``action`` at time ``now``; the new state, or a typed error and no change."""
    return apply_events(state, action, now)[0]


def expire(state: MatchState, now: float) -> MatchState:
    """Apply the default action of every decision whose deadline is at or before ``now``:
    a missing bet is min(minimum, stack), a player stands, a banker calls the first
    uncalled, unbust player from his left. Each default happens at its deadline."""
    return expire_events(state, now)[0]


Step = tuple[MatchState, list[Event]]


def deal_events(state: MatchState, deck: Sequence[Card], now: float) -> Step:
    """:func:`deal`, and the events it made."""
    check_now(now)
    if state.phase is not Phase.DEAL or (state.round is not None and state.round.dealing):
        raise OutOfTurnError(f"cannot deal now: the {_phase_words(state)} is not finished")
    cards = tuple(deck)
    if not all(isinstance(card, Card) for card in cards):
        raise InvalidCardError("a deck is a sequence of cards")
    work = _Work(state, now)
    work.start_round(cards, given=True)
    work.run()
    return work.freeze(), work.emitted


def deal_card_events(state: MatchState, card: Card, now: float) -> Step:
    """:func:`deal_card`, and the events it made."""
    check_now(now)
    if not isinstance(card, Card):
        raise InvalidCardError(f"a card to deal must be a Card, got {show(card)}")
    current = state.round
    work = _Work(state, now)
    if state.phase is Phase.DEAL and (current is None or not current.dealing):
        work.start_round((), given=False)
    elif current is None or current.pending is None or current.deck_given:
        raise OutOfTurnError("no card is awaited now: the round waits for a decision")
    work.give(card)
    return work.freeze(), work.emitted


def apply_events(state: MatchState, action: Action, now: float) -> Step:
    """:func:`apply`, and the events it made."""
    check_now(now)
    verify(state, action)
    if isinstance(action, ComeBack):
        seats = list(state.seats)
        seats[action.seat] = replace(seats[action.seat], away=False, missed=0)
        return replace(state, seats=tuple(seats)), []
    work = _Work(state, now)
    work.acted(action.seat)
    if isinstance(action, Bet):
        work.place_bet(action.seat, action.chips)
    elif isinstance(action, Hit):
        work.hit(action.seat)
    elif isinstance(action, Stand):
        work.stand(action.seat)
    elif isinstance(action, Draw):
        work.banker_draw()
    else:
        work.call(action.target)
    work.run()
    return work.freeze(), work.emitted


def expire_events(state: MatchState, now: float) -> Step:
    """:func:`expire`, and the events it made."""
    check_now(now)
    events: list[Event] = []
    while state.deadline is not None and now >= state.deadline:
        moment = state.deadline
        work = _Work(state, moment)
        current = state.round
        assert current is not None
        if state.phase is Phase.BETTING:
            missing = [hand.seat for hand in current.hands if hand.bet is None]
            for seat in missing:
                work.missed(seat, f"bet {default_bet(state, seat)}")
            for seat in missing:
                work.place_bet(seat, default_bet(state, seat))
        elif state.phase is Phase.PLAYERS and current.turn is not None:
            work.missed(current.turn, "stand")
            work.stand(current.turn)
        elif state.phase is Phase.BANKER:
            target = next(h.seat for h in current.hands if h.status is Status.STOOD)
            work.missed(current.banker, f"call {target}")
            work.call(target)
        work.run()
        state = work.freeze()
        events.extend(work.emitted)
    return state, events


def verify(state: MatchState, action: Action) -> None:
    """Raise the typed error :func:`apply` would raise for ``action``; change nothing."""
    if not isinstance(action, Bet | Hit | Stand | Draw | Call | ComeBack):
        raise VinteActionError(f"not a Vinte-e-um action: {show(action)}")
    check_seat(state, action.seat)
    if isinstance(action, ComeBack):
        if not state.seats[action.seat].away:
            raise VinteActionError(f"seat {action.seat} is not away")
        return
    _check_turn(state, action)


# ---------------------------------------------------------------- validation


def _phase_words(state: MatchState) -> str:
    return {
        Phase.DEAL: "deal",
        Phase.BETTING: "betting window",
        Phase.PLAYERS: "players' turns",
        Phase.BANKER: "banker's turn",
        Phase.OVER: "match",
    }[state.phase]


def _is_seat(state: MatchState, seat: object) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(state.seats)


def check_seat(state: MatchState, seat: object) -> None:
    if not _is_seat(state, seat):
        raise VinteActionError(
            f"no seat {show(seat)} at this table (seats 0..{len(state.seats) - 1})"
        )


#: Times are seconds on any origin, within about 30,000 years of it.
MAX_TIME = 10**12


def check_now(now: object) -> None:
    """A time is a finite number of seconds (a hostile NaN would freeze every deadline)."""
    if (
        isinstance(now, bool)
        or not isinstance(now, int | float)
        or not -MAX_TIME <= now <= MAX_TIME  # NaN compares false: refused too
    ):
        raise ClockError(f"a time must be a finite number of seconds, not {show(now)}")


def _check_turn(state: MatchState, action: Action) -> None:
    seat = action.seat
    name = type(action).__name__.lower()
    current = state.round
    if state.phase is Phase.OVER:
        raise OutOfTurnError(f"seat {seat} cannot {name}: the match is over")
    if current is None or state.phase is Phase.DEAL:
        raise OutOfTurnError(f"seat {seat} cannot {name} now: no round is being played")
    if current.pending is not None:
        raise OutOfTurnError(
            f"seat {seat} cannot {name} now: the round waits for "
            f"{current.pending.purpose(current.banker)}"
        )
    if isinstance(action, Bet):
        _check_bet(state, current, action)
        return
    if isinstance(action, Hit | Stand):
        if state.phase is not Phase.PLAYERS:
            raise OutOfTurnError(f"seat {seat} cannot {name} now: it is the {_phase_words(state)}")
        if current.turn != seat:
            raise OutOfTurnError(f"seat {seat} cannot {name} now: it is seat {current.turn}'s turn")
        return
    if seat != current.banker:
        raise OutOfTurnError(
            f"seat {seat} cannot {name}: only the banker (seat {current.banker}) can"
        )
    if state.phase is not Phase.BANKER:
        raise OutOfTurnError(f"the banker cannot {name} now: it is the {_phase_words(state)}")
    banker_total = value(state, current.banker_cards).total
    if isinstance(action, Draw):
        if banker_total >= BLACKJACK_TOTAL:
            raise DrawError(f"the banker holds {banker_total}: he cannot draw, only call")
        return
    assert isinstance(action, Call)
    target = action.target
    if isinstance(target, bool) or not isinstance(target, int):
        raise CallError(f"a call names a seat number, got {show(target)}")
    if target == current.banker:
        raise CallError("the banker cannot call himself")
    if target not in current.order:
        raise CallError(f"seat {show(target)} is not playing this round")
    hand = current.hand(target)
    if hand.status is Status.BUST:
        raise CallError(f"seat {target} is bust: his bet is already collected")
    if hand.called:
        raise CallError(f"seat {target} has already been called")
    if hand.status is not Status.STOOD:
        raise CallError(f"seat {target} has already been settled")


def _check_bet(state: MatchState, current: RoundState, action: Bet) -> None:
    seat, chips = action.seat, action.chips
    if state.phase is not Phase.BETTING:
        raise OutOfTurnError(
            f"seat {seat} cannot bet now: bets are placed only in the betting window "
            f"(now: the {_phase_words(state)})"
        )
    if seat == current.banker:
        raise OutOfTurnError(f"seat {seat} is the banker: the banker does not bet")
    if seat not in current.order:
        raise OutOfTurnError(f"seat {seat} is not playing this round")
    if current.hand(seat).bet is not None:
        raise VinteBetError(f"seat {seat} has already bet this round")
    if not isinstance(chips, int) or isinstance(chips, bool):
        raise VinteBetError(f"a bet is a whole number of chips, got {show(chips)}")
    low, high = bet_range(state, seat)
    rules = state.table.rules
    stack = state.seats[seat].stack
    if chips > stack:
        raise VinteBetError(f"seat {seat} bet {show(chips)} chips but holds only {stack}")
    if stack < rules.min_bet and chips != stack:
        raise VinteBetError(
            f"seat {seat} holds {stack} chips, under the minimum: it bets its whole stack"
        )
    if not low <= chips <= high:
        raise VinteBetError(
            f"seat {seat} bet {show(chips)} chips: bets are {rules.min_bet} to {rules.max_bet}"
            " chips"
        )
