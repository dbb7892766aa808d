"""The house-banked round (Casino and Online Blackjack): a state machine with no I/O.

A :class:`Round` implements the game protocol (:mod:`twentyone.protocol`): the seats are the
boxes, numbered from 0; :meth:`Round.to_act` names the box whose decision is pending,
``(CHANCE,)`` when a card must be dealt, or ``()`` once the round is settled. Every action is
checked before anything changes (an illegal one raises
:class:`~twentyone.errors.IllegalActionError` and leaves the round exactly as it was), and each
step is recorded as immutable events.

Two ways to give it cards:

- **automatic**: :meth:`Round.deal` with a shoe draws every card itself, inside the step that
  needs it (the fast path of the terminal, the benchmarks and the simulator's cross-checks);
- **explicit chance**: :meth:`Round.start` without a shoe stops whenever a card is needed, and
  :meth:`Round.apply_chance` gives it (what a server with its own provably fair shoe does).

>>> from twentyone.presets import ONLINE
>>> from twentyone.shoe import ScriptedShoe
>>> from twentyone.cards import parse_cards
>>> r = Round.deal(ONLINE, [1000], ScriptedShoe(parse_cards("9S 7H 2C 9D 5S TH")))
>>> r.phase.value, [str(a) for a in r.legal_actions()]
('play', ['hit', 'stand', 'double'])
>>> r.act(DOUBLE)
>>> r.phase.value, r.boxes[0].hands[0].result.value, r.boxes[0].net
('settled', 'win', 2000)
>>> r.act(HIT)
Traceback (most recent call last):
...
twentyone.protocol.NotYourTurnError: the round is settled; no action is legal

The same round with explicit chance: each card is given when the round asks for one.

>>> from twentyone.protocol import CHANCE
>>> r = Round.start(ONLINE, [1000])
>>> r.to_act() == (CHANCE,)
True
>>> for card in parse_cards("9S 7H 2C 9D"):
...     _ = r.apply_chance(card)
>>> r.to_act(), r.view(None)["dealer"]["cards"]  # the hole card is hidden
((0,), ['7H', None])
>>> [event.to_json()["type"] for event in r.apply(0, DOUBLE)]
['decision']
>>> [event.to_json()["type"] for event in r.apply_chance(parse_cards("5S")[0])]
['card', 'hole-card-revealed']
>>> events = r.apply_chance(parse_cards("TH")[0])
>>> r.is_over, r.boxes[0].net, Round.from_json(r.to_json()).boxes[0].net
(True, 2000, 2000)
"""

from __future__ import annotations

import enum
import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any, overload

from twentyone.cards import Card
from twentyone.clock import ClockError
from twentyone.errors import (
    BetError,
    IllegalActionError,
    InvalidCardError,
    InvalidRulesError,
    ShoeExhaustedError,
    TwentyOneError,
    shown,
)
from twentyone.hand import BLACKJACK_TOTAL, HandValue, is_soft, value_of
from twentyone.house.actions import (
    DOUBLE,
    HIT,
    NO_INSURANCE,
    NO_SURRENDER,
    SPLIT,
    STAND,
    SURRENDER,
    Action,
    ActionKind,
)
from twentyone.house.events import (
    CardDealt,
    Decided,
    Event,
    HandSettled,
    HoleCardRevealed,
    InsuranceSettled,
    Peeked,
    RoundSettled,
    RoundStarted,
)
from twentyone.protocol import CHANCE, Actor, GameStateError, NotYourTurnError
from twentyone.rules import (
    Double,
    EnhcLoses,
    FiveCardHand,
    Peek,
    Rules,
    SplitBy,
    Surrender,
    Ties,
    rules_state,
)
from twentyone.shoe import Shoe

__all__ = [
    "DOUBLE",
    "GAME_NAME",
    "HIT",
    "SPLIT",
    "STAND",
    "STATE_VERSION",
    "SURRENDER",
    "Phase",
    "Result",
    "Round",
    "check_bets",
    "check_house_rules",
]

#: The ``game`` and ``version`` written by :meth:`Round.to_json`.
GAME_NAME = "house"
STATE_VERSION = 1
#: Bounds on a saved state (a round uses a few dozen cards and decisions at most).
_MAX_SAVED_STEPS = 1000
#: The longest decision time a table may set (a day, in seconds).
MAX_DECISION_SECONDS = 86_400.0


class Phase(enum.Enum):
    INSURANCE = "insurance"
    EARLY_SURRENDER = "early-surrender"
    PLAY = "play"
    SETTLED = "settled"


class Result(enum.Enum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    BLACKJACK = "blackjack"
    SURRENDER = "surrender"
    BUST = "bust"


# Events on the hot path are built with tuple.__new__ directly: a named tuple's own __new__ is a
# Python-level call that costs as much again (every field is still given, in order).
_record = tuple.__new__

# Python 3.11 looks enum members up in about 0.2 us (and .value in 0.5 us); the round's hot
# path reads these module-level aliases instead, to play tens of thousands of rounds a second.
_ACTIONKIND_DOUBLE = ActionKind.DOUBLE
_ACTIONKIND_HIT = ActionKind.HIT
_ACTIONKIND_INSURANCE = ActionKind.INSURANCE
_ACTIONKIND_NO_INSURANCE = ActionKind.NO_INSURANCE
_ACTIONKIND_NO_SURRENDER = ActionKind.NO_SURRENDER
_ACTIONKIND_SPLIT = ActionKind.SPLIT
_ACTIONKIND_STAND = ActionKind.STAND
_ACTIONKIND_SURRENDER = ActionKind.SURRENDER
_DOUBLE_NONE = Double.NONE
_ENHCLOSES_ORIGINAL = EnhcLoses.ORIGINAL
_FIVECARDHAND_NONE = FiveCardHand.NONE
_PEEK_ACE = Peek.ACE
_PEEK_ACE_TEN = Peek.ACE_TEN
_PEEK_NONE = Peek.NONE
_PHASE_EARLY_SURRENDER = Phase.EARLY_SURRENDER
_PHASE_INSURANCE = Phase.INSURANCE
_PHASE_PLAY = Phase.PLAY
_PHASE_SETTLED = Phase.SETTLED
_RESULT_BLACKJACK = Result.BLACKJACK
_RESULT_BUST = Result.BUST
_RESULT_LOSE = Result.LOSE
_RESULT_PUSH = Result.PUSH
_RESULT_SURRENDER = Result.SURRENDER
_RESULT_WIN = Result.WIN
_SPLITBY_RANK = SplitBy.RANK
_SURRENDER_EARLY = Surrender.EARLY
_SURRENDER_LATE = Surrender.LATE
_SURRENDER_NONE = Surrender.NONE
_TIES_PUSH = Ties.PUSH


@dataclass(slots=True)
class Hand:
    """One player hand. ``stake`` grows when the hand doubles; cards arrive through :meth:`add`."""

    stake: int
    cards: list[Card] = field(default_factory=list)
    from_split: bool = False
    split_ace: bool = False
    doubled: bool = False
    surrendered: bool = False
    done: bool = False
    result: Result | None = None
    net: int | None = None
    # Running hard total and ace count, kept by add() (read on every decision: the hot path).
    hard: int = 0
    aces: int = 0

    def add(self, card: Card) -> None:
        self.cards.append(card)
        self.hard += card.value
        if card.value == 1:
            self.aces += 1

    def take_second_card(self) -> Card:
        """Remove and return the second card (splitting a pair)."""
        card = self.cards.pop()
        self.hard -= card.value
        if card.value == 1:
            self.aces -= 1
        return card

    def value(self, aces_high: bool) -> HandValue:
        return HandValue(self.hard, is_soft(self.hard, self.aces > 0, aces_high))

    def total(self, aces_high: bool) -> int:
        """The best total. The hot path: ``twentyone.hand.best_total(hard, aces > 0, aces_high)``
        written out (``hard <= 11`` is ``hard + 10 <= 21``), since a call costs a tenth of a round."""
        hard = self.hard
        return hard + 10 if aces_high and self.aces and hard <= 11 else hard

    @property
    def settled(self) -> bool:
        return self.result is not None

    @property
    def natural(self) -> bool:
        """A blackjack: two cards, ace and ten-value, not from a split."""
        return self.hard == 11 and self.aces == 1 and len(self.cards) == 2 and not self.from_split


@dataclass(slots=True)
class Box:
    bet: int
    hands: list[Hand]
    insurance: int = 0
    insurance_net: int | None = None

    @property
    def net(self) -> int:
        """Money back minus money staked, over all hands and the insurance (once settled)."""
        total = self.insurance_net or 0
        for hand in self.hands:
            total += hand.net or 0
        return total


class _NeedCard(Exception):
    """Internal: an explicit-chance round asked for a card it was not given (never escapes)."""


class _GivenCards:
    """The explicit-chance round's source of cards: the cards given so far, in order."""

    __slots__ = ("cards", "position")

    def __init__(self, cards: Sequence[Card]) -> None:
        self.cards = list(cards)
        self.position = 0

    def start_round(self) -> None:
        pass

    def draw(self) -> Card:
        position = self.position
        if position >= len(self.cards):
            raise _NeedCard
        self.position = position + 1
        return self.cards[position]

    def end_round(self) -> None:
        pass


# Why a move is refused: constant templates, filled in (by _facts) only when an error is raised,
# so that the one verify rule costs no string formatting on the hot path.
_SETTLED = "the round is settled; no action is legal"
_SPLIT_ACE_ONE_CARD = "{who} is a split ace: it gets one card only"
_NO_DOUBLING = "doubling is not allowed at this table"
_DOUBLE_TWO_CARDS = "{who} has {cards} cards; double needs the first two"
_DOUBLE_SPLIT_ACE = "{who} is a split ace; split aces are never doubled"
_NO_DOUBLE_AFTER_SPLIT = "doubling after a split is not allowed at this table"
_DOUBLE_TOTAL = "{who} totals {total}; this table doubles only on {double}"
_SPLIT_TWO_CARDS = "{who} has {cards} cards; only a two-card pair splits"
_SPLIT_RANK = "{who} holds {first} {second}; only cards of equal rank split here"
_SPLIT_VALUE = "{who} holds {first} {second}; only cards of equal value split"
_SPLIT_LIMIT = "box {box} already has {hands} hands; the limit is {max_hands}"
_RESPLIT_ACES = "{who} is a split ace; aces are not resplit at this table"
_NO_SURRENDER_HERE = "surrender is not offered at this table"
_EARLY_SURRENDER_OVER = "early surrender was offered before the peek; it is over"
_SURRENDER_FIRST = "{who} may surrender only as the first decision on its first two cards"
_NOT_A_MOVE = (
    "{kind!r} is not a decision for {who} now (legal: hit, stand, double, split, surrender)"
)
_INSURANCE_FIRST = "{who} must answer insurance first ('insurance N' or 'no-insurance')"
_INSURANCE_AMOUNT = "insurance for {who} must be 1 to {most} (half the bet), got {amount}"
_EARLY_SURRENDER_FIRST = "{who} must answer early surrender first ('surrender' or 'no-surrender')"
_NO_CARD_NEEDED = "no card is needed now: {who} is to act"

_MOVES = (HIT, STAND, DOUBLE, SPLIT, SURRENDER)
_MOVE_INDEX = {action.kind: index for index, action in enumerate(_MOVES)}
_DEFAULT_OF_PHASE = {
    Phase.INSURANCE: NO_INSURANCE,
    Phase.EARLY_SURRENDER: NO_SURRENDER,
    Phase.PLAY: STAND,
}


@dataclass(slots=True)
class Round:
    """One round at a house-banked table. Build it with :meth:`deal` or :meth:`start`."""

    rules: Rules
    shoe: Shoe
    boxes: list[Box]
    #: The dealer's cards as a hand (its running total serves the drawing rule).
    dealer_hand: Hand = field(default_factory=lambda: Hand(0))
    phase: Phase = _PHASE_PLAY
    events: list[Event] = field(default_factory=list)
    hole_card_revealed: bool = False
    # Whose turn it is: the box (insurance/early surrender) or the (box, hand) in play.
    box_index: int = 0
    hand_index: int = 0
    #: Explicit chance: the round stops when it needs a card (no shoe of its own).
    explicit_chance: bool = False
    #: Explicit chance only: the round is waiting for :meth:`apply_chance`.
    awaiting_card: bool = False
    #: Seconds each decision may take (None: no deadline), and when the pending one began.
    decision_seconds: float | None = None
    decision_started: float = 0.0
    # The one legality rule's verdicts on the five moves of the hand in play, computed once per
    # decision (None: not yet, or stale), and the legal actions derived from them.
    _verdicts: tuple[str | None, ...] | None = field(default=None, repr=False, compare=False)
    _legal: tuple[Action, ...] | None = field(default=None, repr=False, compare=False)

    # ----------------------------------------------------------------- dealing
    @classmethod
    def deal(cls, rules: Rules, bets: Sequence[int], shoe: Shoe | None) -> Round:
        """Check the rules and bets against the table, then deal the opening cards from
        ``shoe`` (automatic chance); with ``shoe=None`` the round waits for each card instead
        (explicit chance, :meth:`apply_chance`)."""
        if (
            type(rules) is not Rules
            or rules.five_card_hand is not _FIVECARDHAND_NONE
            or not rules.aces_high
        ):
            check_house_rules(rules)  # raises, saying which
        check_bets(rules, bets)
        explicit = shoe is None
        source: Shoe = _GivenCards(()) if shoe is None else shoe
        round_ = cls(
            rules,
            source,
            [Box(bet, [Hand(bet)]) for bet in bets],
            Hand(0),
            _PHASE_PLAY,
            [_record(RoundStarted, (tuple(bets),))],
            False,
            0,
            0,
            explicit,
        )
        source.start_round()
        try:
            for box_index, box in enumerate(round_.boxes):
                round_._deal_to(box_index, 0, box.hands[0])
            round_._deal_dealer(face_up=True)
            for box_index, box in enumerate(round_.boxes):
                round_._deal_to(box_index, 0, box.hands[0])
            if rules.peek is not _PEEK_NONE:
                round_._deal_dealer(face_up=False)
            round_._after_deal()
        except _NeedCard:
            round_.awaiting_card = True
        return round_

    @classmethod
    def start(
        cls,
        rules: Rules,
        bets: Sequence[int],
        shoe: Shoe | None = None,
        *,
        decision_seconds: float | None = None,
        now: float = 0.0,
    ) -> Round:
        """Open a round: without a ``shoe`` it waits for each card (explicit chance,
        :meth:`apply_chance`); with one it deals itself, as :meth:`deal`. ``decision_seconds``
        bounds every decision (from ``now``, or from the ``now`` of the step that made it
        pending); None means no deadline."""
        seconds = _check_decision_seconds(decision_seconds)
        started = _check_time(now, "now")
        round_ = cls.deal(rules, bets, shoe)
        round_.decision_seconds, round_.decision_started = seconds, started
        return round_

    def _deal_to(self, box_index: int, hand_index: int, hand: Hand) -> Card:
        card = self.shoe.draw()
        hand.add(card)
        self.events.append(_record(CardDealt, (card, box_index, hand_index, True)))
        return card

    def _deal_dealer(self, face_up: bool) -> None:
        card = self.shoe.draw()
        self.dealer_hand.add(card)
        self.events.append(_record(CardDealt, (card, None, None, face_up)))
        if face_up and len(self.dealer_hand.cards) == 2:
            self.hole_card_revealed = True

    def _after_deal(self) -> None:
        if self.rules.insurance and self.dealer_hand.cards[0].value == 1:
            self.phase = _PHASE_INSURANCE
            self.box_index = 0
        else:
            self._after_insurance()

    def _after_insurance(self) -> None:
        if self.rules.peek is not _PEEK_NONE and self.rules.surrender is _SURRENDER_EARLY:
            self.phase = _PHASE_EARLY_SURRENDER
            self.box_index = -1
            self._next_early_surrender_box()
        else:
            self._peek_then_play()

    def _next_early_surrender_box(self) -> None:
        # Boxes holding a natural are not asked: surrendering one is never right.
        for index in range(self.box_index + 1, len(self.boxes)):
            if not self.boxes[index].hands[0].natural:
                self.box_index = index
                return
        self._peek_then_play()

    def _peek_then_play(self) -> None:
        if self._peeks_now():
            blackjack = self._dealer_has_blackjack()
            self.events.append(_record(Peeked, (blackjack,)))
            if blackjack:
                self._reveal_hole_card()
                self._settle_insurance(dealer_blackjack=True)
                self._settle_round(dealer_blackjack=True)
                return
            self._settle_insurance(dealer_blackjack=False)
        self.phase = _PHASE_PLAY
        self.box_index, self.hand_index = 0, 0
        self._seek_next_hand()

    def _peeks_now(self) -> bool:
        up = self.dealer_hand.cards[0].value
        if self.rules.peek is _PEEK_ACE_TEN:
            return up in (1, 10)
        if self.rules.peek is _PEEK_ACE:
            return up == 1
        return False

    # ------------------------------------------------------------ observation
    @property
    def dealer(self) -> list[Card]:
        """The dealer's cards, the up card first."""
        return self.dealer_hand.cards

    @property
    def upcard(self) -> Card:
        return self.dealer_hand.cards[0]

    @property
    def is_settled(self) -> bool:
        return self.phase is _PHASE_SETTLED

    @property
    def is_over(self) -> bool:
        """The protocol's name for :attr:`is_settled`."""
        return self.phase is _PHASE_SETTLED

    @property
    def current_hand(self) -> Hand | None:
        if self.phase is not _PHASE_PLAY or self.awaiting_card:
            return None
        return self.boxes[self.box_index].hands[self.hand_index]

    def dealer_value(self) -> HandValue:
        return self.dealer_hand.value(self.rules.aces_high)

    def _dealer_has_blackjack(self) -> bool:
        return self.dealer_hand.natural

    @property
    def house_net(self) -> int:
        total = 0
        for box in self.boxes:
            total -= box.net
        return total

    def staked(self) -> int:
        """Everything the boxes have put into the round: every hand's stake and every insurance."""
        return sum(hand.stake for box in self.boxes for hand in box.hands) + sum(
            box.insurance for box in self.boxes
        )

    def stake_of(self, action: Action) -> int:
        """The money ``action`` adds to the round if the box to act takes it (a double or a
        split: the box's bet; insurance: its amount; anything else: nothing)."""
        kind = action.kind
        if kind is _ACTIONKIND_INSURANCE:
            return action.amount or 0
        if kind is _ACTIONKIND_DOUBLE or kind is _ACTIONKIND_SPLIT:
            return self.boxes[self.box_index].bet
        return 0

    def to_act(self) -> tuple[Actor, ...]:
        """The box to act, ``(CHANCE,)`` when a card must be dealt, ``()`` once settled."""
        if self.awaiting_card:
            return (CHANCE,)
        if self.phase is _PHASE_SETTLED:
            return ()
        return (self.box_index,)

    # ---------------------------------------------------------------- legality
    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """Every action legal now for ``seat`` (None: whoever is to act); insurance appears as
        its largest amount, though any amount from 1 to that is legal."""
        if seat is not None and (
            type(seat) is not int or self.awaiting_card or seat != self._seat_to_act()
        ):
            return ()
        legal = self._legal
        if legal is None:
            if self.phase is _PHASE_PLAY and not self.awaiting_card:
                legal = self._judge_moves()  # the hot path: once per decision of every round
            else:
                legal = self._legal = self._derive_legal_actions()
        return legal

    def _seat_to_act(self) -> int | None:
        if self.awaiting_card or self.phase is _PHASE_SETTLED:
            return None
        return self.box_index

    def _derive_legal_actions(self) -> tuple[Action, ...]:
        """The legal actions: the candidates that :meth:`_refusal` does not refuse."""
        if self.awaiting_card:
            return ()
        phase = self.phase
        if phase is _PHASE_PLAY:
            return self._judge_moves()
        if phase is _PHASE_INSURANCE:
            most = self.boxes[self.box_index].bet // 2
            candidates: tuple[Action, ...] = (NO_INSURANCE,)
            if most >= 1:
                candidates = (NO_INSURANCE, _insurance_of(most))
        elif phase is _PHASE_EARLY_SURRENDER:
            candidates = (SURRENDER, NO_SURRENDER)
        else:
            return ()
        legal = []
        for action in candidates:
            if self._refusal(action) is None:
                legal.append(action)
        return tuple(legal)

    def _refusal(self, action: Action) -> str | None:
        """THE legality rule of the house round: None if ``action`` is legal for whoever is to
        act, else the template of why not (filled in by :meth:`_facts`). ``legal_actions``,
        ``verify``, ``can_apply`` and ``can_act`` are all built on it."""
        if self.awaiting_card or self.phase is _PHASE_SETTLED:
            return _SETTLED
        kind = action.kind
        phase = self.phase
        if phase is _PHASE_INSURANCE:
            if kind is _ACTIONKIND_NO_INSURANCE:
                return None
            if kind is not _ACTIONKIND_INSURANCE:
                return _INSURANCE_FIRST
            amount = action.amount or 0
            if not 1 <= amount <= self.boxes[self.box_index].bet // 2:
                return _INSURANCE_AMOUNT
            return None
        if phase is _PHASE_EARLY_SURRENDER:
            if kind is _ACTIONKIND_SURRENDER or kind is _ACTIONKIND_NO_SURRENDER:
                return None
            return _EARLY_SURRENDER_FIRST
        index = _MOVE_INDEX.get(kind)
        if index is None:
            return _NOT_A_MOVE
        return self._move_verdicts()[index]

    def _move_verdicts(self) -> tuple[str | None, ...]:
        """The verdict on hit, stand, double, split and surrender for the hand in play (None:
        legal), computed once per decision."""
        verdicts = self._verdicts
        if verdicts is None:
            self._judge_moves()
            verdicts = self._verdicts
            assert verdicts is not None
        return verdicts

    def _judge_moves(self) -> tuple[Action, ...]:
        """Judge the five moves of the hand in play once: keeps the verdicts (None: legal, else
        why not) and the legal moves they give, and returns the legal moves. The hot path of
        every decision: written out, with no string formatting."""
        rules = self.rules
        box = self.boxes[self.box_index]
        hand = box.hands[self.hand_index]
        split_ace = hand.split_ace
        hit = _SPLIT_ACE_ONE_CARD if split_ace and not rules.hit_split_aces else None
        double: str | None
        split: str | None
        surrender: str | None
        if rules.surrender is _SURRENDER_NONE:
            surrender = _NO_SURRENDER_HERE
        elif rules.surrender is _SURRENDER_EARLY and rules.peek is not _PEEK_NONE:
            surrender = _EARLY_SURRENDER_OVER
        else:
            surrender = None
        if len(hand.cards) != 2:
            # After the first two cards only hitting and standing remain.
            double = _NO_DOUBLING if rules.double is _DOUBLE_NONE else _DOUBLE_TWO_CARDS
            split = _SPLIT_TWO_CARDS
            if surrender is None:
                surrender = _SURRENDER_FIRST
        else:
            if rules.double is _DOUBLE_NONE:
                double = _NO_DOUBLING
            elif split_ace:
                double = _DOUBLE_SPLIT_ACE
            elif hand.from_split and not rules.double_after_split:
                double = _NO_DOUBLE_AFTER_SPLIT
            # The best total, as Hand.total (itself twentyone.hand.best_total) written out.
            elif not rules.double.allows(
                hand.hard + 10 if hand.aces and hand.hard <= 11 and rules.aces_high else hand.hard
            ):
                double = _DOUBLE_TOTAL
            else:
                double = None
            first, second = hand.cards
            if (
                first.rank != second.rank
                if rules.split_by is _SPLITBY_RANK
                else first.value != second.value
            ):
                split = _SPLIT_RANK if rules.split_by is _SPLITBY_RANK else _SPLIT_VALUE
            elif len(box.hands) >= rules.max_hands:
                split = _SPLIT_LIMIT
            elif split_ace and not rules.resplit_aces:
                split = _RESPLIT_ACES
            else:
                split = None
            if surrender is None and len(box.hands) != 1:
                surrender = _SURRENDER_FIRST
        self._verdicts = (hit, None, double, split, surrender)
        legal = [STAND] if hit is not None else [HIT, STAND]
        if double is None:
            legal.append(DOUBLE)
        if split is None:
            legal.append(SPLIT)
        if surrender is None:
            legal.append(SURRENDER)
        moves = self._legal = tuple(legal)
        return moves

    def _facts(self, action: Action) -> dict[str, object]:
        """What the refusal templates may name (computed only when an error is raised)."""
        facts: dict[str, object] = {
            "who": self._who(),
            "box": self.box_index,
            "kind": action.kind.value,
            "amount": action.amount or 0,
            "max_hands": self.rules.max_hands,
            "double": self.rules.double.value,
        }
        if self.phase is _PHASE_SETTLED or self.awaiting_card:
            return facts
        box = self.boxes[self.box_index]
        facts["most"] = box.bet // 2
        facts["hands"] = len(box.hands)
        if self.phase is _PHASE_PLAY:
            hand = box.hands[self.hand_index]
            facts["cards"] = len(hand.cards)
            facts["total"] = hand.total(self.rules.aces_high)
            if len(hand.cards) == 2:
                facts["first"], facts["second"] = hand.cards
        return facts

    @overload
    def verify(self, seat: int, action: Action) -> None: ...

    @overload
    def verify(self, seat: Action) -> None: ...

    def verify(self, seat: int | Action, action: Action | None = None) -> None:
        """Raise :class:`~twentyone.protocol.NotYourTurnError` unless box ``seat`` is to act,
        and :class:`IllegalActionError` saying why unless ``action`` is legal for it now.

        ``verify(action)`` checks the action for whoever is to act (the form older callers use).
        """
        if action is None:
            action = seat  # type: ignore[assignment]
        else:
            self._check_seat(seat)
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        for candidate in legal:
            # Identity first: the legal moves are shared constants, and dataclass equality is slow.
            if candidate is action and action.kind is not _ACTIONKIND_INSURANCE:
                return
        if not isinstance(action, Action):
            raise IllegalActionError(f"an action is an Action, not {shown(action)}")
        reason = self._refusal(action)
        if reason is _SETTLED:
            raise NotYourTurnError(
                _SETTLED if not self.awaiting_card else "a card must be dealt first"
            )
        if reason is not None:
            raise IllegalActionError(reason.format(**self._facts(action)))

    def _check_seat(self, seat: object) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise NotYourTurnError(f"a seat is a box number, not {shown(seat)}")
        to_act = self._seat_to_act()
        if seat != to_act:
            if to_act is None:
                now = "a card must be dealt" if self.awaiting_card else "the round is settled"
                raise NotYourTurnError(f"box {shown(seat)} cannot act: {now}")
            raise NotYourTurnError(f"box {shown(seat)} cannot act: it is {self._who()}'s turn")

    def can_apply(self, seat: int, action: Action) -> bool:
        """Whether :meth:`verify` accepts ``action`` for box ``seat`` now."""
        try:
            self.verify(seat, action)
        except IllegalActionError:
            return False
        return True

    def can_act(self, action: Action) -> bool:
        """Whether ``action`` is legal for whoever is to act (:meth:`verify` does not raise)."""
        try:
            self.verify(action)
        except IllegalActionError:
            return False
        return True

    def public_events(self) -> list[dict[str, object]]:
        """The events as the players may see them: a face-down card stays hidden until revealed."""
        return [event.to_json(reveal=False) for event in self.events]

    def pending_decision(self) -> str:
        """Who must decide now, in words (``box 1 hand 0``, ``box 0 (insurance)``)."""
        if self.awaiting_card:
            return "the dealer (a card must be dealt)"
        if self.phase is _PHASE_INSURANCE:
            return f"box {self.box_index} (insurance)"
        if self.phase is _PHASE_EARLY_SURRENDER:
            return f"box {self.box_index} (early surrender)"
        if self.phase is _PHASE_PLAY:
            return self._who()
        return "nobody (the round is settled)"

    def _who(self) -> str:
        if self.phase is _PHASE_PLAY:
            return f"box {self.box_index} hand {self.hand_index}"
        return f"box {self.box_index}"

    # ------------------------------------------------------------------ acting
    def act(self, action: Action) -> None:
        """Apply ``action`` for whoever is to act; raises (changing nothing) if illegal.

        A shoe that runs out part-way (a scripted shoe) raises
        :class:`~twentyone.errors.ShoeExhaustedError` with the round as it was before."""
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        for candidate in legal:
            # verify's fast path (the legal moves are shared constants: identity first).
            if candidate is action and action.kind is not _ACTIONKIND_INSURANCE:
                break
        else:
            self.verify(action)
        # _step written out: this is the hot path of every decision.
        mark = len(self.events)
        self._legal = self._verdicts = None
        try:
            phase = self.phase
            if phase is _PHASE_PLAY:
                self._move(action, False)
            elif phase is _PHASE_INSURANCE:
                self._insure(action, False)
            else:
                self._early_surrender(action, False)
        except _NeedCard:
            self.awaiting_card = True
        except ShoeExhaustedError:
            self._restore(mark)
            raise

    def apply(self, seat: int, action: Action, *, now: float | None = None) -> tuple[Event, ...]:
        """Apply ``action`` for box ``seat`` (which must be the one to act) and return the
        events of this step; ``now`` starts the next decision's time (default: unchanged)."""
        self.verify(seat, action)
        moment = self.decision_started if now is None else _check_time(now, "now")
        mark = len(self.events)
        self._step(action, False)
        self.decision_started = moment
        return tuple(self.events[mark:])

    def _step(self, action: Action, timed_out: bool) -> None:
        """Apply a verified action. Automatic chance: a shoe that runs out restores the round;
        explicit chance: a card the round needs and was not given stops it (awaiting_card)."""
        mark = len(self.events)
        self._legal = self._verdicts = None
        try:
            phase = self.phase
            if phase is _PHASE_PLAY:
                self._move(action, timed_out)
            elif phase is _PHASE_INSURANCE:
                self._insure(action, timed_out)
            else:
                self._early_surrender(action, timed_out)
        except _NeedCard:
            self.awaiting_card = True
        except ShoeExhaustedError:
            self._restore(mark)
            raise

    def _insure(self, action: Action, timed_out: bool) -> None:
        box = self.boxes[self.box_index]
        self.events.append(Decided(self.box_index, None, str(action), timed_out))
        if action.kind is _ACTIONKIND_INSURANCE:
            box.insurance = action.amount or 0
        self.box_index += 1
        if self.box_index >= len(self.boxes):
            self._after_insurance()

    def _early_surrender(self, action: Action, timed_out: bool) -> None:
        box = self.boxes[self.box_index]
        self.events.append(Decided(self.box_index, None, str(action), timed_out))
        if action.kind is _ACTIONKIND_SURRENDER:
            hand = box.hands[0]
            hand.surrendered = hand.done = True
            self._settle_hand(self.box_index, 0, _RESULT_SURRENDER, hand.stake // 2 - hand.stake)
        self._next_early_surrender_box()

    def _move(self, action: Action, timed_out: bool) -> None:
        box_index, hand_index = self.box_index, self.hand_index
        box = self.boxes[box_index]
        hand = box.hands[hand_index]
        self.events.append(_record(Decided, (box_index, hand_index, action.text, timed_out)))
        kind = action.kind
        if kind is _ACTIONKIND_STAND:
            hand.done = True
        elif kind is _ACTIONKIND_HIT:
            self._deal_to(box_index, hand_index, hand)
            self._check_hand_finished(box_index, hand_index)
        elif kind is _ACTIONKIND_DOUBLE:
            # A shoe that runs out here restores the whole round (_step); with explicit chance
            # the doubled stake waits for its card.
            hand.stake += box.bet
            hand.doubled = True
            self._deal_to(box_index, hand_index, hand)
            hand.done = True
            self._check_hand_finished(box_index, hand_index)
        elif kind is _ACTIONKIND_SPLIT:
            self._split(box, box_index, hand_index)
        else:  # surrender
            hand.surrendered = hand.done = True
            if self.rules.surrender is _SURRENDER_EARLY:
                # Early surrender returns half whatever the dealer holds: settled now.
                self._settle_hand(
                    box_index, hand_index, _RESULT_SURRENDER, hand.stake // 2 - hand.stake
                )
        self._seek_next_hand()

    def _split(self, box: Box, box_index: int, hand_index: int) -> None:
        hand = box.hands[hand_index]
        aces = hand.cards[0].value == 1
        new_hand = Hand(box.bet, from_split=True, split_ace=aces)
        new_hand.add(hand.take_second_card())
        hand.from_split, hand.split_ace = True, aces
        box.hands.insert(hand_index + 1, new_hand)
        # Hands after the split one moved right: their indices in events follow the new order.
        self._deal_to(box_index, hand_index, hand)
        self._deal_to(box_index, hand_index + 1, new_hand)
        self._check_hand_finished(box_index, hand_index + 1)
        self._check_hand_finished(box_index, hand_index)

    def _check_hand_finished(self, box_index: int, hand_index: int) -> None:
        """Finish a hand that has no decision left: bust, 21, or a split ace that cannot act."""
        hand = self.boxes[box_index].hands[hand_index]
        if hand.hard > BLACKJACK_TOTAL:
            hand.done = True
            self._settle_hand(box_index, hand_index, _RESULT_BUST, -hand.stake)
        elif hand.total(self.rules.aces_high) == BLACKJACK_TOTAL:
            hand.done = True
        elif hand.split_ace and not self.rules.hit_split_aces and len(hand.cards) == 2:
            can_resplit = (
                self.rules.resplit_aces
                and hand.cards[1].value == 1
                and len(self.boxes[box_index].hands) < self.rules.max_hands
            )
            hand.done = not can_resplit

    def _seek_next_hand(self) -> None:
        """Move the turn to the next hand that needs a decision, or to the dealer."""
        # Local indexes (written back on leaving): this runs after every decision.
        boxes = self.boxes
        box_index, hand_index = self.box_index, self.hand_index
        while box_index < len(boxes):
            hands = boxes[box_index].hands
            while hand_index < len(hands):
                hand = hands[hand_index]
                if not hand.done:
                    if hand.natural:
                        hand.done = True
                    else:
                        self._check_hand_finished(box_index, hand_index)
                if not hand.done:
                    self.box_index, self.hand_index = box_index, hand_index
                    return
                hand_index += 1
            box_index += 1
            hand_index = 0
        self.box_index, self.hand_index = box_index, 0
        self._dealer_turn()

    # -------------------------------------------------------- chance and time
    def apply_chance(self, card: Card, *, now: float | None = None) -> tuple[Event, ...]:
        """Give the card the round is waiting for (explicit chance); the events it causes.

        The round's own steps run again from their inputs with this card added (a round is a
        few dozen steps), so explicit and automatic chance share every rule of the engine."""
        if not self.awaiting_card:
            if not self.explicit_chance:
                raise NotYourTurnError("this round deals from its own shoe: no card is taken")
            raise NotYourTurnError(_NO_CARD_NEEDED.format(who=self.pending_decision()))
        if not isinstance(card, Card):
            raise InvalidCardError(f"a card is a Card, not {shown(card)}")
        cards = self.cards_dealt()
        decks = self.rules.decks
        if decks is not None and sum(1 for c in cards if c == card) >= decks:
            raise IllegalActionError(
                f"card {card} cannot be dealt again: a {decks}-deck shoe holds only {decks}"
            )
        moment = self.decision_started if now is None else _check_time(now, "now")
        mark = len(self.events)
        cards.append(card)
        self._adopt(self._replayed(cards, mark))
        self.decision_started = moment
        return tuple(self.events[mark:])

    def deadline(self) -> float | None:
        """When the pending decision times out (None: no decision time, or none pending)."""
        if self.decision_seconds is None or self._seat_to_act() is None:
            return None
        return self.decision_started + self.decision_seconds

    def expire(self, now: float) -> tuple[Event, ...]:
        """Take the standard decision (no insurance, no surrender, stand) for every decision
        whose deadline is at or before ``now``; each next decision's time starts at the
        deadline that passed. Returns the events (none if no deadline has passed)."""
        moment = _check_time(now, "now")
        mark = len(self.events)
        while True:
            deadline = self.deadline()
            if deadline is None or moment < deadline:
                break
            self._step(_DEFAULT_OF_PHASE[self.phase], True)
            self.decision_started = deadline
        return tuple(self.events[mark:])

    def cards_dealt(self) -> list[Card]:
        """Every card the round has used, in the order dealt (hole card included)."""
        return [event.card for event in self.events if type(event) is CardDealt]

    def _decisions(self) -> list[Decided]:
        return [event for event in self.events if type(event) is Decided]

    def _replayed(self, cards: Sequence[Card], upto: int) -> Round:
        """This round played again in explicit chance from its inputs in ``events[:upto]``
        with ``cards`` given."""
        decisions = [event for event in self.events[:upto] if type(event) is Decided]
        return _replay(
            self.rules,
            self.boxes_bets(),
            cards,
            [(event.action, event.timed_out) for event in decisions],
        )

    def boxes_bets(self) -> tuple[int, ...]:
        """The bets the round was opened with, box by box."""
        return tuple(box.bet for box in self.boxes)

    def _restore(self, mark: int) -> None:
        """Put the round back as it was when it had ``mark`` events (a step that failed)."""
        cards = [event.card for event in self.events[:mark] if type(event) is CardDealt]
        rebuilt = self._replayed(cards, mark)
        shoe, explicit = self.shoe, self.explicit_chance
        self._adopt(rebuilt)
        self.shoe, self.explicit_chance = shoe, explicit

    def _adopt(self, other: Round) -> None:
        """Take over every field of ``other`` but the time settings."""
        seconds, started = self.decision_seconds, self.decision_started
        for name in _ROUND_FIELDS:
            setattr(self, name, getattr(other, name))
        self.decision_seconds, self.decision_started = seconds, started

    # --------------------------------------------------------------- the view
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What box ``seat`` (or, with None, anyone watching) may see: every box's cards and
        money, the dealer's face-up cards (the hole card is ``None`` until revealed), the
        events as the players see them, who acts, the deadline; the box to act also gets its
        legal actions. Every seat sees the same table: only the hole card is hidden."""
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.boxes)
        ):
            raise IllegalActionError(f"no box {shown(seat)} at this round")
        aces_high = self.rules.aces_high
        visible = [
            card if index != 1 or self.hole_card_revealed else None
            for index, card in enumerate(self.dealer)
        ]
        visible_values = [card.value for card in visible if card is not None]
        dealer = {
            "cards": [None if card is None else str(card) for card in visible],
            "value": _value_json(value_of(visible_values, aces_high)) if visible_values else None,
        }
        boxes = []
        for box in self.boxes:
            hands = [
                {
                    "cards": [str(card) for card in hand.cards],
                    "value": _value_json(hand.value(aces_high)),
                    "stake": hand.stake,
                    "doubled": hand.doubled,
                    "surrendered": hand.surrendered,
                    "result": None if hand.result is None else hand.result.value,
                    "net": hand.net,
                }
                for hand in box.hands
            ]
            boxes.append(
                {
                    "bet": box.bet,
                    "insurance": box.insurance,
                    "insurance_net": box.insurance_net,
                    "hands": hands,
                    "net": box.net if self.is_settled else None,
                }
            )
        to_act = self.to_act()
        out: dict[str, Any] = {
            "game": GAME_NAME,
            "seat": seat,
            "phase": self.phase.value,
            "to_act": ["chance" if actor is CHANCE else actor for actor in to_act],
            "turn": None if self.current_hand is None else [self.box_index, self.hand_index],
            "deadline": self.deadline(),
            "boxes": boxes,
            "dealer": dealer,
            "events": self.public_events(),
        }
        if seat is not None:
            out["legal_actions"] = [str(action) for action in self.legal_actions(seat)]
        return out

    # ------------------------------------------------------ saving and loading
    def to_json(self) -> dict[str, Any]:
        """The whole state, versioned: rules, bets, every card given and every decision taken
        in order, the time settings, and who acts (a check on loading). It holds the hole card:
        it is the server's record, never a player's view."""
        decisions = self._decisions()
        return {
            "game": GAME_NAME,
            "version": STATE_VERSION,
            "rules": rules_state(self.rules),
            "bets": list(self.boxes_bets()),
            "cards": [str(card) for card in self.cards_dealt()],
            "decisions": [event.action for event in decisions],
            "timed_out": [index for index, event in enumerate(decisions) if event.timed_out],
            "decision_seconds": self.decision_seconds,
            "decision_started": self.decision_started,
            "to_act": ["chance" if actor is CHANCE else actor for actor in self.to_act()],
        }

    @classmethod
    def from_json(cls, data: object) -> Round:
        """Load a state written by :meth:`to_json` as an explicit-chance round (its steps are
        played again, so a state the rules cannot reach does not load). Anything malformed is a
        :class:`~twentyone.protocol.GameStateError`."""
        if not isinstance(data, dict):
            raise GameStateError(f"a house round state is an object, not {shown(data)}")
        expected = {
            "game",
            "version",
            "rules",
            "bets",
            "cards",
            "decisions",
            "timed_out",
            "decision_seconds",
            "decision_started",
            "to_act",
        }
        keys = set(data)
        if keys != expected:
            wrong = sorted(map(str, keys ^ expected))
            raise GameStateError(
                f"a house round state has exactly the keys {sorted(expected)};"
                f" these differ: {', '.join(wrong)[:200]}"
            )
        if data["game"] != GAME_NAME:
            raise GameStateError(f"not a house round state (game {shown(data['game'])})")
        version = data["version"]
        if type(version) is not int or version != STATE_VERSION:
            raise GameStateError(
                f"unknown house round state version {shown(version)} (this reads {STATE_VERSION})"
            )
        try:
            saved_rules = data["rules"]
            if not isinstance(saved_rules, dict) or set(saved_rules) != _RULES_STATE_KEYS:
                raise GameStateError("rules must be the complete rules object that to_json writes")
            rules = Rules.from_json(saved_rules)
            bets = _int_list(data["bets"], "bets")
            cards = [
                Card.parse(_text(text, "a card")) for text in _bounded_list(data["cards"], "cards")
            ]
            decisions = [
                _text(text, "a decision") for text in _bounded_list(data["decisions"], "decisions")
            ]
            timed_out = _int_list(data["timed_out"], "timed_out")
            if sorted(set(timed_out)) != timed_out or any(
                not 0 <= index < len(decisions) for index in timed_out
            ):
                raise GameStateError("timed_out must list decision indexes in increasing order")
            steps = [(text, index in set(timed_out)) for index, text in enumerate(decisions)]
            round_ = _replay(rules, bets, cards, steps)
            round_.decision_seconds = _check_decision_seconds(data["decision_seconds"])
            round_.decision_started = _check_time(data["decision_started"], "decision_started")
        except GameStateError:
            raise
        except TwentyOneError as error:
            raise GameStateError(f"the saved house round does not load: {error}") from None
        written = data["to_act"]
        actual = ["chance" if actor is CHANCE else actor for actor in round_.to_act()]
        if written != actual:
            raise GameStateError(
                f"the saved round says {shown(written)} acts, but its steps give {actual}"
            )
        return round_

    # ------------------------------------------------------------ the dealer
    def _has_live_hand(self) -> bool:
        """Whether a hand's result depends on the dealer's total: not bust, surrendered or natural."""
        for box in self.boxes:
            for hand in box.hands:
                if hand.result is None and not hand.surrendered and not hand.natural:
                    return True
        return False

    def _second_card_matters(self) -> bool:
        """No hole card: whether some bet's result can still change with the dealer's second
        card (spec rules-common.md). An open insurance bet or a live hand always needs it; a
        natural or a late surrender needs it only when the up card can make a blackjack."""
        for box in self.boxes:
            if box.insurance and box.insurance_net is None:
                return True
        if self._has_live_hand():
            return True
        if self.upcard.value not in (1, 10):
            return False
        for box in self.boxes:
            for hand in box.hands:
                if hand.result is None:
                    return True
        return False

    def _dealer_turn(self) -> None:
        rules = self.rules
        if rules.peek is _PEEK_NONE:
            if len(self.dealer_hand.cards) == 1 and self._second_card_matters():
                self._deal_dealer(face_up=True)
                self._settle_insurance(self._dealer_has_blackjack())
        else:
            self._reveal_hole_card()
        dealer_blackjack = self._dealer_has_blackjack()
        if not dealer_blackjack and self._has_live_hand():
            while self._dealer_must_draw():
                self._deal_dealer(face_up=True)
        self._settle_round(dealer_blackjack)

    def _reveal_hole_card(self) -> None:
        if len(self.dealer) == 2 and not self.hole_card_revealed:
            self.hole_card_revealed = True
            self.events.append(_record(HoleCardRevealed, (self.dealer_hand.cards[1],)))

    def _dealer_must_draw(self) -> bool:
        hard = self.dealer_hand.hard
        if hard >= 17:
            return False
        # twentyone.hand.is_soft(hard, aces > 0, aces_high) written out (the hot path).
        soft = self.dealer_hand.aces > 0 and hard <= 11 and self.rules.aces_high
        if not soft:
            return True
        # Soft totals: 12..16 (hard 2..6) draw; soft 17 (hard 7) draws only under H17.
        return hard < 7 or (hard == 7 and self.rules.dealer_hits_soft_17)

    # -------------------------------------------------------------- settling
    def _settle_hand(self, box_index: int, hand_index: int, result: Result, net: int) -> None:
        hand = self.boxes[box_index].hands[hand_index]
        hand.result, hand.net = result, net
        self.events.append(_record(HandSettled, (box_index, hand_index, result._value_, net)))

    def _settle_insurance(self, dealer_blackjack: bool) -> None:
        for box_index, box in enumerate(self.boxes):
            if box.insurance and box.insurance_net is None:
                box.insurance_net = 2 * box.insurance if dealer_blackjack else -box.insurance
                self.events.append(InsuranceSettled(box_index, box.insurance_net))

    def _settle_round(self, dealer_blackjack: bool) -> None:
        for box_index, box in enumerate(self.boxes):
            if dealer_blackjack:
                self._settle_box_against_blackjack(box_index, box)
            else:
                dealer_total = self.dealer_hand.total(self.rules.aces_high)
                for hand_index, hand in enumerate(box.hands):
                    if hand.result is None:
                        result, net = self._compare(hand, dealer_total)
                        self._settle_hand(box_index, hand_index, result, net)
        self.phase = _PHASE_SETTLED
        self.events.append(_record(RoundSettled, (self.house_net,)))
        self.shoe.end_round()

    def _settle_box_against_blackjack(self, box_index: int, box: Box) -> None:
        tie = _RESULT_PUSH if self.rules.ties is _TIES_PUSH else _RESULT_LOSE
        # A blackjack found by the peek took only the original bets (none could grow);
        # one found later takes all stakes, or one original bet under original-bets-only.
        original_only = self.rules.enhc_loses is _ENHCLOSES_ORIGINAL
        to_take = box.bet
        for hand_index, hand in enumerate(box.hands):
            if hand.settled:
                continue
            if hand.natural:
                self._settle_hand(
                    box_index, hand_index, tie, 0 if tie is _RESULT_PUSH else -hand.stake
                )
            elif original_only:
                taken = min(hand.stake, to_take)
                to_take -= taken
                self._settle_hand(
                    box_index, hand_index, _RESULT_LOSE if taken else _RESULT_PUSH, -taken
                )
            else:
                self._settle_hand(box_index, hand_index, _RESULT_LOSE, -hand.stake)

    def _compare(self, hand: Hand, dealer_total: int) -> tuple[Result, int]:
        """Result and net of a hand against a dealer without blackjack."""
        stake = hand.stake
        if hand.surrendered:
            return _RESULT_SURRENDER, stake // 2 - stake
        if hand.natural:
            pays = self.rules.blackjack_pays
            return _RESULT_BLACKJACK, stake * pays.numerator // pays.denominator  # rounded down
        if dealer_total > BLACKJACK_TOTAL:
            return _RESULT_WIN, stake
        player_total = hand.total(self.rules.aces_high)
        if player_total > dealer_total:
            return _RESULT_WIN, stake
        if player_total < dealer_total:
            return _RESULT_LOSE, -stake
        if self.rules.ties is _TIES_PUSH:
            return _RESULT_PUSH, 0
        return _RESULT_LOSE, -stake


_ROUND_FIELDS = tuple(f.name for f in fields(Round))


@functools.lru_cache(maxsize=1024)
def _insurance_of(amount: int) -> Action:
    """The insurance action of an amount, built once (an ace up offers it to every box)."""
    return Action(_ACTIONKIND_INSURANCE, amount)


_RULES_STATE_KEYS = frozenset(rules_state(Rules()))


def _replay(
    rules: Rules, bets: Sequence[int], cards: Sequence[Card], steps: Sequence[tuple[str, bool]]
) -> Round:
    """A round played in explicit chance from its inputs: the cards in the order dealt and the
    decisions (text, timed out) in the order taken. Inputs the round cannot take in that order
    are a :class:`GameStateError`."""
    given = _GivenCards(cards)
    round_ = Round.deal(rules, bets, given)
    round_.explicit_chance = True
    for index, (text, timed_out) in enumerate(steps):
        if round_.awaiting_card or round_.is_settled:
            raise GameStateError(
                f"decision #{index + 1} {text!r} comes when no decision is pending "
                f"({round_.pending_decision()})"
            )
        action = Action.parse(text)
        try:
            round_.verify(action)
        except IllegalActionError as error:
            raise GameStateError(f"decision #{index + 1} {text!r} is illegal: {error}") from None
        round_._step(action, timed_out)
    if given.position != len(given.cards):
        raise GameStateError(
            f"card #{given.position + 1} ({given.cards[given.position]}) was never needed"
        )
    return round_


def check_house_rules(rules: Rules) -> None:
    """Raise :class:`InvalidRulesError` for rules the house round does not play."""
    if type(rules) is not Rules:
        raise InvalidRulesError(f"rules must be a Rules value, not {shown(rules)}")
    if rules.five_card_hand is not _FIVECARDHAND_NONE:
        raise InvalidRulesError(
            "five-card hands are an Exchange Blackjack rule; the house round does not use them"
        )
    if not rules.aces_high:
        raise InvalidRulesError(
            "aces counted 1 only (aces_high=False) is a Vinte-e-um variant;"
            " the house round counts an ace 1 or 11"
        )


def check_bets(rules: Rules, bets: Sequence[int]) -> None:
    """Raise :class:`BetError` unless ``bets`` fit the table: box count and limits."""
    # A list or tuple is checked by type first: the abstract Sequence test is slow (hot path).
    if (
        type(bets) is not list
        and type(bets) is not tuple
        and (isinstance(bets, str | bytes) or not isinstance(bets, Sequence))
    ):
        raise BetError(f"bets are a list of whole numbers of minor units, not {shown(bets)}")
    if not 1 <= len(bets) <= rules.max_boxes:
        allowed = "one box" if rules.max_boxes == 1 else f"1 to {rules.max_boxes} boxes"
        raise BetError(f"this table takes {allowed}, got {len(bets)}")
    for index, bet in enumerate(bets):
        if not isinstance(bet, int) or isinstance(bet, bool):
            raise BetError(f"box {index}: a bet is a whole number of minor units, got {shown(bet)}")
        if not rules.min_bet <= bet <= rules.max_bet:
            raise BetError(
                f"box {index}: bet {shown(bet)} is off the table limits"
                f" {rules.min_bet}..{rules.max_bet}"
            )


def _check_time(value: object, what: str) -> float:
    """A time in seconds: a finite number (not a bool) of reasonable size."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or (isinstance(value, int) and abs(value) > 10**15)
        or not math.isfinite(value)
    ):
        raise ClockError(f"{what} must be a finite number of seconds, not {shown(value)}")
    return float(value)


def _check_decision_seconds(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidRulesError(f"decision_seconds must be a number or None, not {shown(value)}")
    if not (0 < value <= MAX_DECISION_SECONDS):  # NaN fails this too
        raise InvalidRulesError(
            f"decision_seconds must be more than 0 and at most {MAX_DECISION_SECONDS:g}"
            f" (a day), got {shown(value)}"
        )
    return float(value)


def _bounded_list(value: object, what: str) -> list[object]:
    if not isinstance(value, list):
        raise GameStateError(f"{what} must be a list, not {shown(value)}")
    if len(value) > _MAX_SAVED_STEPS:
        raise GameStateError(
            f"{what} holds {len(value)} items; a round has at most {_MAX_SAVED_STEPS}"
        )
    return value


def _int_list(value: object, what: str) -> list[int]:
    numbers: list[int] = []
    for item in _bounded_list(value, what):
        if isinstance(item, bool) or not isinstance(item, int):
            raise GameStateError(f"{what} must hold whole numbers, not {shown(item)}")
        numbers.append(item)
    return numbers


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or len(value) > 40:
        raise GameStateError(f"{what} must be a short string, not {shown(value)}")
    return value


def _value_json(value: HandValue) -> dict[str, Any]:
    return {"total": value.total, "soft": value.soft, "bust": value.bust}
