"""The house-banked round (Casino and Online Blackjack): a state machine with no I/O.

A :class:`Round` is dealt from an injected shoe, lists its legal actions at every point,
checks every action before changing anything (an illegal one raises
:class:`~twentyone.errors.IllegalActionError` and leaves the round exactly as it was), and
records each step as an immutable event.

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
twentyone.errors.IllegalActionError: the round is settled; no action is legal
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

from twentyone.cards import Card
from twentyone.errors import BetError, IllegalActionError, InvalidRulesError
from twentyone.hand import BLACKJACK_TOTAL, HandValue
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
from twentyone.rules import (
    Double,
    EnhcLoses,
    FiveCardHand,
    Peek,
    Rules,
    SplitBy,
    Surrender,
    Ties,
)
from twentyone.shoe import Shoe

__all__ = ["DOUBLE", "HIT", "SPLIT", "STAND", "SURRENDER", "Phase", "Result", "Round"]


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
        return HandValue(self.hard, aces_high and self.aces > 0 and self.hard <= 11)

    def total(self, aces_high: bool) -> int:
        """The best total (the value's total, without building the value)."""
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


@dataclass(slots=True)
class Round:
    """One round at a house-banked table. Build it with :meth:`deal`."""

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
    # The legal actions at the current decision, computed once (None: not yet, or stale).
    _legal: tuple[Action, ...] | None = field(default=None, repr=False, compare=False)

    # ----------------------------------------------------------------- dealing
    @classmethod
    def deal(cls, rules: Rules, bets: Sequence[int], shoe: Shoe) -> Round:
        """Check the bets against the table, then deal the opening cards."""
        check_bets(rules, bets)
        if rules.five_card_hand is not _FIVECARDHAND_NONE:
            raise InvalidRulesError(
                "five-card hands are an Exchange Blackjack rule; the house round does not use them"
            )
        boxes = [Box(bet, [Hand(bet)]) for bet in bets]
        round_ = cls(
            rules, shoe, boxes, Hand(0), _PHASE_PLAY, [_record(RoundStarted, (tuple(bets),))]
        )
        shoe.start_round()
        for box_index, box in enumerate(round_.boxes):
            round_._deal_to(box_index, 0, box.hands[0])
        round_._deal_dealer(face_up=True)
        for box_index, box in enumerate(round_.boxes):
            round_._deal_to(box_index, 0, box.hands[0])
        if rules.peek is not _PEEK_NONE:
            round_._deal_dealer(face_up=False)
        round_._after_deal()
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
        if self.rules.insurance and self.upcard.value == 1:
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
        up = self.upcard.value
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
    def current_hand(self) -> Hand | None:
        if self.phase is not _PHASE_PLAY:
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

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action legal now (insurance as its largest amount; any amount 1..max is legal)."""
        if self._legal is None:
            self._legal = self._compute_legal_actions()
        return self._legal

    def _compute_legal_actions(self) -> tuple[Action, ...]:
        if self.phase is _PHASE_INSURANCE:
            most = self.boxes[self.box_index].bet // 2
            if most >= 1:
                return (NO_INSURANCE, Action(_ACTIONKIND_INSURANCE, most))
            return (NO_INSURANCE,)
        if self.phase is _PHASE_EARLY_SURRENDER:
            return (SURRENDER, NO_SURRENDER)
        if self.phase is _PHASE_PLAY:
            return self._legal_moves()
        return ()

    def _legal_moves(self) -> tuple[Action, ...]:
        """The legal moves of the hand in play: the hot path of every decision.

        It must agree with :meth:`_why_illegal_move`, which says why a move is refused; the
        property tests check that they do, over many rule sets.
        """
        rules = self.rules
        box = self.boxes[self.box_index]
        hand = box.hands[self.hand_index]
        split_ace = hand.split_ace
        actions = [STAND] if split_ace and not rules.hit_split_aces else [HIT, STAND]
        cards = hand.cards
        if len(cards) != 2:
            return tuple(actions)
        if (
            not split_ace
            and (rules.double_after_split or not hand.from_split)
            and rules.double.allows(
                hand.hard + 10 if hand.aces and hand.hard <= 11 and rules.aces_high else hand.hard
            )
        ):
            actions.append(DOUBLE)
        first, second = cards
        if (
            (
                first.rank == second.rank
                if rules.split_by is _SPLITBY_RANK
                else first.value == second.value
            )
            and len(box.hands) < rules.max_hands
            and (not split_ace or rules.resplit_aces)
        ):
            actions.append(SPLIT)
        if len(box.hands) == 1 and (
            rules.surrender is _SURRENDER_LATE
            or (rules.surrender is _SURRENDER_EARLY and rules.peek is _PEEK_NONE)
        ):
            actions.append(SURRENDER)
        return tuple(actions)

    def can_act(self, action: Action) -> bool:
        return self._why_illegal(action) is None

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` saying why ``action`` is illegal now."""
        for legal in self.legal_actions():
            # Identity first: the legal moves are shared constants, and dataclass equality is slow.
            if legal is action and action.kind is not _ACTIONKIND_INSURANCE:
                return
        reason = self._why_illegal(action)
        if reason is not None:
            raise IllegalActionError(reason)

    def public_events(self) -> list[dict[str, object]]:
        """The events as the players may see them: a face-down card stays hidden until revealed."""
        return [event.to_json(reveal=False) for event in self.events]

    def pending_decision(self) -> str:
        """Who must decide now, in words (``box 1 hand 0``, ``box 0 (insurance)``)."""
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

    def _why_illegal(self, action: Action) -> str | None:
        kind = action.kind
        if self.phase is _PHASE_SETTLED:
            return "the round is settled; no action is legal"
        if self.phase is _PHASE_INSURANCE:
            if kind is _ACTIONKIND_NO_INSURANCE:
                return None
            if kind is not _ACTIONKIND_INSURANCE:
                return (
                    f"{self._who()} must answer insurance first ('insurance N' or 'no-insurance')"
                )
            most = self.boxes[self.box_index].bet // 2
            amount = action.amount or 0
            if not 1 <= amount <= most:
                return (
                    f"insurance for {self._who()} must be 1 to {most} (half the bet), got {amount}"
                )
            return None
        if self.phase is _PHASE_EARLY_SURRENDER:
            if kind in (_ACTIONKIND_SURRENDER, _ACTIONKIND_NO_SURRENDER):
                return None
            return (
                f"{self._who()} must answer early surrender first ('surrender' or 'no-surrender')"
            )
        return self._why_illegal_move(kind)

    def _why_illegal_move(self, kind: ActionKind) -> str | None:
        rules = self.rules
        box = self.boxes[self.box_index]
        hand = box.hands[self.hand_index]
        if kind is _ACTIONKIND_STAND:
            return None
        if kind is _ACTIONKIND_HIT:
            if hand.split_ace and not rules.hit_split_aces:
                return f"{self._who()} is a split ace: it gets one card only"
            return None
        if kind is _ACTIONKIND_DOUBLE:
            if rules.double is _DOUBLE_NONE:
                return "doubling is not allowed at this table"
            if len(hand.cards) != 2:
                return f"{self._who()} has {len(hand.cards)} cards; double needs the first two"
            if hand.split_ace:
                return f"{self._who()} is a split ace; split aces are never doubled"
            if hand.from_split and not rules.double_after_split:
                return "doubling after a split is not allowed at this table"
            total = hand.value(rules.aces_high).total
            if not rules.double.allows(total):
                return (
                    f"{self._who()} totals {total}; this table doubles only on {rules.double.value}"
                )
            return None
        if kind is _ACTIONKIND_SPLIT:
            return self._why_no_split(box, hand)
        if kind is _ACTIONKIND_SURRENDER:
            if rules.surrender is _SURRENDER_NONE:
                return "surrender is not offered at this table"
            if rules.surrender is _SURRENDER_EARLY and rules.peek is not _PEEK_NONE:
                return "early surrender was offered before the peek; it is over"
            if len(box.hands) != 1 or len(hand.cards) != 2:
                return (
                    f"{self._who()} may surrender only as the first decision on its first two cards"
                )
            return None
        return f"{kind.value!r} is not a decision for {self._who()} now (legal: hit, stand, double, split, surrender)"

    def _why_no_split(self, box: Box, hand: Hand) -> str | None:
        rules = self.rules
        if len(hand.cards) != 2:
            return f"{self._who()} has {len(hand.cards)} cards; only a two-card pair splits"
        first, second = hand.cards
        if rules.split_by is _SPLITBY_RANK:
            if first.rank != second.rank:
                return f"{self._who()} holds {first} {second}; only cards of equal rank split here"
        elif first.value != second.value:
            return f"{self._who()} holds {first} {second}; only cards of equal value split"
        if len(box.hands) >= rules.max_hands:
            return f"box {self.box_index} already has {len(box.hands)} hands; the limit is {rules.max_hands}"
        if hand.split_ace and not rules.resplit_aces:
            return f"{self._who()} is a split ace; aces are not resplit at this table"
        return None

    # ------------------------------------------------------------------ acting
    def act(self, action: Action) -> None:
        """Apply ``action`` for whoever is to act; raises (changing nothing) if illegal."""
        self.verify(action)
        self._legal = None
        if self.phase is _PHASE_INSURANCE:
            self._insure(action)
        elif self.phase is _PHASE_EARLY_SURRENDER:
            self._early_surrender(action)
        else:
            self._move(action)

    def _insure(self, action: Action) -> None:
        box = self.boxes[self.box_index]
        self.events.append(Decided(self.box_index, None, str(action)))
        if action.kind is _ACTIONKIND_INSURANCE:
            box.insurance = action.amount or 0
        self.box_index += 1
        if self.box_index >= len(self.boxes):
            self._after_insurance()

    def _early_surrender(self, action: Action) -> None:
        box = self.boxes[self.box_index]
        self.events.append(Decided(self.box_index, None, str(action)))
        if action.kind is _ACTIONKIND_SURRENDER:
            hand = box.hands[0]
            hand.surrendered = hand.done = True
            self._settle_hand(self.box_index, 0, _RESULT_SURRENDER, hand.stake // 2 - hand.stake)
        self._next_early_surrender_box()

    def _move(self, action: Action) -> None:
        box_index, hand_index = self.box_index, self.hand_index
        box = self.boxes[box_index]
        hand = box.hands[hand_index]
        self.events.append(_record(Decided, (box_index, hand_index, action.text)))
        kind = action.kind
        if kind is _ACTIONKIND_STAND:
            hand.done = True
        elif kind is _ACTIONKIND_HIT:
            self._deal_to(box_index, hand_index, hand)
            self._check_hand_finished(box_index, hand_index)
        elif kind is _ACTIONKIND_DOUBLE:
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
        while self.box_index < len(self.boxes):
            hands = self.boxes[self.box_index].hands
            while self.hand_index < len(hands):
                hand = hands[self.hand_index]
                if not hand.done:
                    if hand.natural:
                        hand.done = True
                    else:
                        self._check_hand_finished(self.box_index, self.hand_index)
                if not hand.done:
                    return
                self.hand_index += 1
            self.box_index += 1
            self.hand_index = 0
        self._dealer_turn()

    # ------------------------------------------------------------ the dealer
    def _has_live_hand(self) -> bool:
        """Whether a hand's result depends on the dealer's total: not bust, surrendered or natural."""
        for box in self.boxes:
            for hand in box.hands:
                if hand.result is None and not hand.surrendered and not hand.natural:
                    return True
        return False

    def _dealer_turn(self) -> None:
        rules = self.rules
        if rules.peek is _PEEK_NONE:
            # The second card is drawn only if some bet still depends on it.
            unsettled = any(hand.result is None for box in self.boxes for hand in box.hands)
            if unsettled or any(box.insurance and box.insurance_net is None for box in self.boxes):
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


def check_bets(rules: Rules, bets: Sequence[int]) -> None:
    """Raise :class:`BetError` unless ``bets`` fit the table: box count and limits."""
    if not 1 <= len(bets) <= rules.max_boxes:
        allowed = "one box" if rules.max_boxes == 1 else f"1 to {rules.max_boxes} boxes"
        raise BetError(f"this table takes {allowed}, got {len(bets)}")
    for index, bet in enumerate(bets):
        if not isinstance(bet, int) or isinstance(bet, bool):
            raise BetError(f"box {index}: a bet is a whole number of minor units, got {bet!r}")
        if not rules.min_bet <= bet <= rules.max_bet:
            raise BetError(
                f"box {index}: bet {bet} is off the table limits {rules.min_bet}..{rules.max_bet}"
            )
