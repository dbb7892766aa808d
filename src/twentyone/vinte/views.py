"""What each seat may see, produced from the full state by the engine's own rules.

A view holds only what its viewer may know: his own cards, every face-up card, the hidden
cards that were shown (a bust, a call, a declared 21, the banker's reveal), public bets
once all are in, stacks and results. Hidden cards never shown stay ``None`` forever. The
server and the bots work from views only, so neither can leak nor peek.

>>> from twentyone.cards import parse_cards
>>> from twentyone.vinte.game import Bet, apply, deal, new_match
>>> from twentyone.vinte.settings import VinteTable
>>> state = new_match(VinteTable.create(3, first_banker=0))
>>> state = deal(state, parse_cards("9S 5H TD 8C 2D 6S"), now=0.0)
>>> mine, theirs = view_for(state, 1), view_for(state, 2)
>>> mine.hand(1).cards, theirs.hand(1).cards
((Card('9S'),), (None,))
>>> state = apply(state, Bet(1, 5), now=1.0)
>>> view_for(state, 1).hand(1).bet, view_for(state, 2).hand(1).bet, view_for(state, 2).hand(1).bet_placed
(5, None, True)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from twentyone.cards import DECK, Card
from twentyone.hand import hand_value
from twentyone.vinte.game import (
    Action,
    MatchState,
    Phase,
    PlayerHand,
    Status,
    describe,
    legal_actions,
    to_act,
)
from twentyone.vinte.settings import VinteTable


@dataclass(frozen=True, slots=True)
class HandView:
    """A player's hand as the viewer sees it: ``None`` is a face-down card."""

    seat: int
    cards: tuple[Card | None, ...]
    bet: int | None
    bet_placed: bool
    status: Status
    called: bool
    declared_21: bool
    result: str | None
    net: int

    @property
    def face_up(self) -> tuple[Card, ...]:
        """The cards everyone sees (all but the first, unless it was shown)."""
        return tuple(card for card in self.cards[1:] if card is not None)

    @property
    def known(self) -> tuple[Card, ...]:
        return tuple(card for card in self.cards if card is not None)


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    name: str
    bot: bool
    stack: int
    in_game: bool
    away: bool


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything ``viewer`` may know now (``viewer=None``: a spectator)."""

    viewer: int | None
    table: VinteTable
    seats: tuple[SeatInfo, ...]
    phase: Phase
    banker: int
    bank_rounds_left: int
    rounds_played: int
    round_number: int | None
    round_banker: int | None
    hands: tuple[HandView, ...]
    banker_cards: tuple[Card | None, ...]
    turn: int | None
    to_act: tuple[int, ...]
    deadline: float | None
    legal: tuple[Action, ...]
    history: tuple[dict[str, Any], ...]
    winners: tuple[int, ...]

    def hand(self, seat: int) -> HandView:
        for hand in self.hands:
            if hand.seat == seat:
                return hand
        raise KeyError(seat)

    def seen_cards(self) -> list[Card]:
        """Every card of the current round this viewer has seen."""
        cards = [card for card in self.banker_cards if card is not None]
        for hand in self.hands:
            cards.extend(hand.known)
        return cards

    def unseen(self) -> Counter[Card]:
        """The cards of the round's deck(s) this viewer has not seen, with multiplicity."""
        decks = self.table.rules.decks or 1
        pool: Counter[Card] = Counter({card: decks for card in DECK})
        pool.subtract(self.seen_cards())
        return +pool

    def total(self, cards: tuple[Card, ...]) -> int:
        return hand_value(cards, self.table.rules.aces_high).total

    def to_json(self) -> dict[str, Any]:
        """The JSON a server sends to this viewer."""

        def cards(items: tuple[Card | None, ...]) -> list[str | None]:
            return [None if card is None else str(card) for card in items]

        return {
            "viewer": self.viewer,
            "phase": self.phase.value,
            "banker": self.banker,
            "bank_rounds_left": self.bank_rounds_left,
            "rounds_played": self.rounds_played,
            "round": self.round_number,
            "round_banker": self.round_banker,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "bot": s.bot,
                    "stack": s.stack,
                    "in_game": s.in_game,
                    "away": s.away,
                }
                for s in self.seats
            ],
            "hands": [
                {
                    "seat": h.seat,
                    "cards": cards(h.cards),
                    "bet": h.bet,
                    "bet_placed": h.bet_placed,
                    "status": h.status.value,
                    "called": h.called,
                    "declared_21": h.declared_21,
                    "result": h.result,
                    "net": h.net,
                }
                for h in self.hands
            ],
            "banker_cards": cards(self.banker_cards),
            "turn": self.turn,
            "to_act": list(self.to_act),
            "deadline": self.deadline,
            "legal": [describe(action) for action in self.legal],
            "history": list(self.history),
            "winners": list(self.winners),
        }


def _hand_view(hand: PlayerHand, viewer: int | None, betting: bool) -> HandView:
    own = viewer == hand.seat
    visible_first = own or hand.shown
    cards = (hand.cards[0] if visible_first else None, *hand.cards[1:])
    # Bets stay hidden until all are in, then are shown together.
    bet_visible = own or not betting
    return HandView(
        seat=hand.seat,
        cards=cards,
        bet=hand.bet if bet_visible else None,
        bet_placed=hand.bet is not None,
        status=hand.status,
        called=hand.called,
        declared_21=hand.declared_21,
        result=hand.result,
        net=hand.net,
    )


def view_for(state: MatchState, viewer: int | None) -> SeatView:
    """What ``viewer`` (a seat number, or ``None`` for a spectator) may see now."""
    current = state.round
    seats = tuple(
        SeatInfo(index, spec.name, spec.bot, seat.stack, seat.in_game, seat.away)
        for index, (spec, seat) in enumerate(zip(state.table.seats, state.seats, strict=True))
    )
    hands: tuple[HandView, ...] = ()
    banker_cards: tuple[Card | None, ...] = ()
    history: tuple[dict[str, Any], ...] = ()
    if current is not None:
        betting = state.phase is Phase.BETTING
        hands = tuple(_hand_view(hand, viewer, betting) for hand in current.hands)
        banker_sees = viewer == current.banker or current.banker_shown
        banker_cards = tuple(
            card if index or banker_sees else None
            for index, card in enumerate(current.banker_cards)
        )
        history = tuple(event.for_seat(viewer) for event in current.events)
    legal = tuple(legal_actions(state, viewer)) if viewer is not None else ()
    return SeatView(
        viewer=viewer,
        table=state.table,
        seats=seats,
        phase=state.phase,
        banker=state.banker,
        bank_rounds_left=state.bank_rounds_left,
        rounds_played=state.rounds_played,
        round_number=current.number if current else None,
        round_banker=current.banker if current else None,
        hands=hands,
        banker_cards=banker_cards,
        turn=current.turn if current else None,
        to_act=to_act(state),
        deadline=state.deadline,
        legal=legal,
        history=history,
        winners=state.winners,
    )
