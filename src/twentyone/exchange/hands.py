"""Value-level hands of Exchange Blackjack: states, final codes and the ranking.

A hand in progress is a :data:`HandState` ``(hard, ace, cards)``: the total counting aces as 1,
whether it holds an ace, and how many cards it has. With an infinite deck nothing else about
the cards matters to the play. A finished hand is summed up by a *final code* (an ``int``):

* ``0..21``: stood on that total with 2 to 4 cards (not blackjack);
* :data:`BLACKJACK`, :data:`FIVE` (five cards, under 21), :data:`FIVE_21` (five cards, 21);
* :data:`BUST` (bust with fewer than five cards), :data:`BUST_5` (bust on the fifth card).

>>> state = add_card(add_card(EMPTY, 1), 10)
>>> state, total(state), is_soft(state), final_code(state)
((11, True, 2), 21, True, 22)
>>> describe_code(final_code((23, False, 3))), describe_code(FIVE_21)
('bust', 'five-card 21')
>>> compare(FIVE, BLACKJACK), compare(BLACKJACK, FIVE), compare(20, 20), compare(BUST, BUST)
(<Showdown.WIN: 'win'>, <Showdown.LOSE: 'lose'>, <Showdown.TIE: 'tie'>, <Showdown.LOSE: 'lose'>)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from twentyone.cards import Card
from twentyone.hand import best_total
from twentyone.hand import is_soft as hand_is_soft

#: (hard total, holds an ace, number of cards)
HandState = tuple[int, bool, int]

EMPTY: HandState = (0, False, 0)
#: Card values 1 (ace) to 10 (ten, jack, queen, king).
VALUES: tuple[int, ...] = tuple(range(1, 11))
#: How many of the 13 ranks have each value (the weight of the value in an infinite deck).
RANKS_WITH_VALUE: dict[int, int] = {value: 4 if value == 10 else 1 for value in VALUES}
#: How many of the 52 distinct cards have each value.
CARDS_WITH_VALUE: dict[int, int] = {value: 4 * RANKS_WITH_VALUE[value] for value in VALUES}
MAX_CARDS = 5

BLACKJACK = 22
FIVE = 23
FIVE_21 = 24
BUST = 25
BUST_5 = 26
FINAL_CODES: tuple[int, ...] = tuple(range(27))


class Showdown(enum.Enum):
    """How a finished player hand fares against the dealer's: win, tie (dead heat) or lose."""

    WIN = "win"
    TIE = "tie"
    LOSE = "lose"


def add_card(state: HandState, value: int) -> HandState:
    hard, ace, cards = state
    return (hard + value, ace or value == 1, cards + 1)


def state_of(cards: Iterable[Card]) -> HandState:
    state = EMPTY
    for card in cards:
        state = add_card(state, card.value)
    return state


def is_soft(state: HandState) -> bool:
    """The core soft-total rule (:func:`twentyone.hand.is_soft`) on a hand state."""
    return hand_is_soft(state[0], state[1])


def total(state: HandState) -> int:
    return best_total(state[0], state[1])


def is_bust(state: HandState) -> bool:
    return state[0] > 21


def is_blackjack(state: HandState) -> bool:
    return state[2] == 2 and state[1] and state[0] == 11


def final_code(state: HandState) -> int:
    """The final code of a hand that has stopped drawing."""
    hard, _, cards = state
    if hard > 21:
        return BUST_5 if cards == MAX_CARDS else BUST
    if cards == MAX_CARDS:
        return FIVE_21 if total(state) == 21 else FIVE
    if is_blackjack(state):
        return BLACKJACK
    return total(state)


def code_is_21(code: int) -> bool:
    """The hand stands on 21 (blackjack and a five-card 21 included)."""
    return code in (21, BLACKJACK, FIVE_21)


def code_has_five_cards(code: int) -> bool:
    """The hand holds five cards, bust or not."""
    return code in (FIVE, FIVE_21, BUST_5)


def code_is_bust(code: int) -> bool:
    return code in (BUST, BUST_5)


def rank(code: int) -> int:
    """Ranking: any five-card hand, then blackjack, then totals; a bust hand is below all."""
    if code_is_bust(code):
        return -1
    if code in (FIVE, FIVE_21):
        return 100
    if code == BLACKJACK:
        return 50
    return code


def compare(player: int, dealer: int) -> Showdown:
    """A player hand (final code) against the dealer's; a bust player loses even to a bust dealer."""
    if code_is_bust(player):
        return Showdown.LOSE
    mine, theirs = rank(player), rank(dealer)
    if mine > theirs:
        return Showdown.WIN
    if mine == theirs:
        return Showdown.TIE
    return Showdown.LOSE


def describe_code(code: int) -> str:
    names = {
        BLACKJACK: "blackjack",
        FIVE: "five-card hand",
        FIVE_21: "five-card 21",
        BUST: "bust",
        BUST_5: "bust",
    }
    return names.get(code, str(code))
