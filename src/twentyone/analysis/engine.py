"""Composition-dependent values of every hand against one up card, splits included.

This module turns :class:`~twentyone.rules.Rules` into the arrays of the compiled kernels and
back into typed results. The convention for splits is CDZ-: every split hand is played with
the strategy that is optimal for its composition outside a split (doubling only where the rules
allow it after a split), and the shape of a split is tracked through the pair cards drawn (see
:mod:`twentyone.analysis.splits` and ``docs/analysis.md``).

>>> from twentyone.rules import Rules, Peek
>>> setup = prepare(Rules(decks=1, peek=Peek.ACE_TEN))
>>> round(analyze_upcard(setup, 9).ev, 6)  # ten up, one deck: the player's EV, dealer BJ included
-0.170721
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from twentyone.analysis import kernels
from twentyone.analysis.composition import ACE, TEN, full_shoe_counts, infinite_probabilities
from twentyone.analysis.dealer_table import DealerTable, dealer_table
from twentyone.analysis.hands import HandSpace, hand_space
from twentyone.analysis.splits import split_shape
from twentyone.analysis.support import check_supported
from twentyone.errors import InvalidRulesError
from twentyone.rules import EnhcLoses, Peek, Rules, SplitBy, Surrender, Ties

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

STAND, HIT, DOUBLE, OPTIMAL = kernels.STAND, kernels.HIT, kernels.DOUBLE, kernels.OPTIMAL


@dataclass(frozen=True)
class Setup:
    """What every up card's analysis shares: the rules, the hand space and the shoe."""

    rules: Rules
    space: HandSpace
    shoe: FloatArray  # counts by value (finite) or probabilities (infinite)
    infinite: bool

    def card_probability(self, value: int) -> float:
        if self.infinite:
            return float(self.shoe[value])
        return float(self.shoe[value] / self.shoe.sum())


def prepare(rules: Rules, shoe: Sequence[int] | None = None) -> Setup:
    """Check ``rules`` and build the shared data; ``shoe`` overrides the full shoe's counts."""
    check_supported(rules)
    if shoe is None:
        if rules.decks is None:
            counts = np.array([float(p) for p in infinite_probabilities()])
        else:
            counts = np.array(full_shoe_counts(rules.decks), dtype=np.float64)
    else:
        if rules.decks is None:
            raise InvalidRulesError("a shoe composition needs a finite number of decks")
        counts = np.array(_checked_shoe(shoe, rules.decks), dtype=np.float64)
    return Setup(rules, hand_space(rules.decks), counts, rules.decks is None)


def _checked_shoe(shoe: Sequence[int], decks: int) -> list[int]:
    values = list(shoe)
    if len(values) != 10 or any(not isinstance(v, int | np.integer) for v in values):
        raise InvalidRulesError(f"a shoe is ten whole counts (A, 2..9, T), got {shoe!r}")
    full = full_shoe_counts(decks)
    for index, (count, most) in enumerate(zip(values, full, strict=True)):
        if not 0 <= count <= most:
            raise InvalidRulesError(
                f"a {decks}-deck shoe holds 0..{most} cards of value index {index}, got {count}"
            )
    if sum(values) < 12:
        raise InvalidRulesError(f"a shoe needs at least 12 cards to analyse, got {sum(values)}")
    return [int(v) for v in values]


def is_peeked(rules: Rules, upcard: int) -> bool:
    """Whether the dealer checks for blackjack under this up card before the players act."""
    if upcard == ACE:
        return rules.peek in (Peek.ACE, Peek.ACE_TEN)
    return upcard == TEN and rules.peek is Peek.ACE_TEN


@dataclass(frozen=True)
class HandPass:
    """One kernel pass: arrays by hand index (see :func:`kernels.evaluate_hands`)."""

    stand1: FloatArray
    stand2: FloatArray
    hit: FloatArray
    played: FloatArray
    double: FloatArray
    no_blackjack: FloatArray
    blackjack: FloatArray


@dataclass
class UpcardContext:
    """One up card: the shoe without it, how the dealer plays, and the optimal pass."""

    setup: Setup
    upcard: int
    shoe: FloatArray
    table: DealerTable
    peeked: bool
    base: HandPass = field(init=False)

    def evaluate(
        self, strategy: IntArray, need: IntArray, shift: FloatArray | None = None
    ) -> HandPass:
        space = self.setup.space
        rules = self.setup.rules
        loss = np.array([0.0, 1.0, 2.0 if rules.enhc_loses is EnhcLoses.ALL else 1.0])
        shift_array = np.zeros(10) if shift is None else shift
        arrays = kernels.evaluate_hands(
            self.shoe,
            self.setup.infinite,
            space.counts,
            space.total,
            space.child,
            space.by_hard_desc,
            shift_array,
            strategy,
            need,
            self.dealer_for(need, shift_array),
            self.peeked,
            TEN if self.upcard == ACE else ACE,
            loss,
            rules.ties is Ties.DEALER_WINS,
        )
        return HandPass(*arrays)

    def dealer_for(self, need: IntArray, shift: FloatArray) -> FloatArray:
        """The dealer's result probabilities for the shoe of every needed hand."""
        hands = len(need)
        table = self.table
        if self.setup.infinite:
            return np.tile(infinite_dealer(self.shoe, table), (hands, 1))
        wanted = np.flatnonzero(need).astype(np.int64)
        results = np.zeros((hands, 7))
        results[wanted] = kernels.dealer_batch(
            self.shoe,
            self.setup.space.counts,
            wanted,
            shift,
            table.sparse_start,
            table.sparse_index,
            table.sparse_count,
            table.orderings,
            table.outcome,
            table.size,
        )
        return results

    def draw_probability(self, first: int, second: int) -> float:
        """P(the player's first two cards are these values, in either order)."""
        if self.setup.infinite:
            probability = float(self.shoe[first] * self.shoe[second])
        else:
            total = float(self.shoe.sum())
            after = self.shoe[second] - (1.0 if first == second else 0.0)
            probability = float(self.shoe[first] / total * max(after, 0.0) / (total - 1.0))
        return probability if first == second else 2.0 * probability

    def surrender_value(self, hand: int) -> float:
        """Late surrender: half back unless the dealer has blackjack (a peek already checked)."""
        base = self.base
        if self.peeked:
            return -0.5 * float(base.no_blackjack[hand])
        return -0.5 * float(base.no_blackjack[hand]) - float(base.blackjack[hand])


def infinite_dealer(probabilities: FloatArray, table: DealerTable) -> FloatArray:
    """The dealer's result probabilities for an infinite shoe (the same for every hand)."""
    results = np.zeros(7)
    kernels.dealer_distribution(
        probabilities,
        True,
        table.sparse_start,
        table.sparse_index,
        table.sparse_count,
        table.orderings,
        table.outcome,
        table.size,
        results,
    )
    return results


def upcard_context(setup: Setup, upcard: int) -> UpcardContext:
    """The optimal (composition-dependent) pass for one up card."""
    if not 0 <= upcard <= 9:
        raise InvalidRulesError(f"an up card is a value index 0..9, got {upcard}")
    shoe = setup.shoe.copy()
    if not setup.infinite:
        if shoe[upcard] < 1:
            raise InvalidRulesError(f"the shoe holds no card of value index {upcard}")
        shoe[upcard] -= 1
    context = UpcardContext(
        setup,
        upcard,
        shoe,
        dealer_table(upcard, setup.rules.dealer_hits_soft_17),
        is_peeked(setup.rules, upcard),
    )
    hands = len(setup.space.total)
    context.base = context.evaluate(
        np.full(hands, OPTIMAL, dtype=np.int64), np.full(hands, 2, dtype=np.int64)
    )
    return context


@functools.lru_cache(maxsize=40)
def _cached_contexts(rules: Rules, shoe: tuple[float, ...]) -> dict[int, UpcardContext]:
    return {}


def cached_context(setup: Setup, upcard: int) -> UpcardContext:
    """:func:`upcard_context`, remembered for the last few rule sets and shoes."""
    known = _cached_contexts(setup.rules, tuple(float(c) for c in setup.shoe))
    if upcard not in known:
        known[upcard] = upcard_context(setup, upcard)
    return known[upcard]


def can_split(rules: Rules, pair: int) -> bool:
    """Whether a pair of this value may be split at all (see docs: ranks among tens)."""
    return rules.max_hands >= 2 and not (pair == TEN and rules.split_by is SplitBy.RANK)


def may_double(rules: Rules, total: int) -> bool:
    return rules.double.allows(total)


def split_strategy(context: UpcardContext, pair: int) -> IntArray:
    """CDZ-: each split hand plays as the optimal unsplit hand of its composition would."""
    space = context.setup.space
    base = context.base
    strategy = np.where(base.stand1 >= base.hit, STAND, HIT).astype(np.int64)
    strategy[space.total == 21] = STAND
    for second in range(10):
        hand = space.two_card[pair, second]
        if hand < 0:
            continue
        strategy[hand] = best_split_hand_move(context, hand, pair)
    return strategy


def best_split_hand_move(context: UpcardContext, hand: int, pair: int) -> int:
    """The best move of a two-card split hand among those allowed after a split."""
    rules = context.setup.rules
    base = context.base
    total = int(context.setup.space.total[hand])
    if total == 21:
        return STAND
    if pair == ACE and not rules.hit_split_aces:
        return STAND
    options = {STAND: float(base.stand1[hand]), HIT: float(base.hit[hand])}
    if rules.double_after_split and may_double(rules, total) and pair != ACE:
        options[DOUBLE] = float(base.double[hand])
    return max(options, key=lambda move: options[move])


def split_value(context: UpcardContext, pair: int, strategy: IntArray) -> float:
    """Value (peek-weighted like every other option) of splitting a pair of ``pair``."""
    setup = context.setup
    rules = setup.rules
    space = setup.space
    hands = len(space.total)
    can_resplit = pair != ACE or rules.resplit_aces
    if setup.infinite:
        shape = split_shape(rules.max_hands, can_resplit, float(context.shoe[pair]), None)
        pair_cards, others = 0.0, 0.0
    else:
        pair_cards = float(context.shoe[pair]) - 2.0
        others = float(context.shoe.sum()) - float(context.shoe[pair])
        if pair_cards < 0:
            return float("nan")
        shape = split_shape(rules.max_hands, can_resplit, pair_cards, others)
    most_pairs = max([0, *shape.non_pair, *shape.any_card])
    start = np.zeros(hands, dtype=np.int64)
    for second in range(10):
        hand = space.two_card[pair, second]
        if hand >= 0:
            start[hand] = 2
    kernels.mark_needed(space.child, space.total, space.by_hard_desc, strategy, start)
    value = 0.0
    for extra in range(most_pairs + 1):
        shift = np.zeros(10)
        shift[pair] = 1.0 + extra
        played = context.evaluate(strategy, start, shift).played
        non_pair_value, any_value = 0.0, 0.0
        for second in range(10):
            hand = space.two_card[pair, second]
            if setup.infinite:
                chance = float(context.shoe[second])
                non_pair_chance = chance / (1.0 - float(context.shoe[pair]))
            else:
                count = float(context.shoe[second]) - (2.0 if second == pair else 0.0)
                if second == pair:
                    count -= extra
                left = pair_cards + others - extra
                chance = max(count, 0.0) / left if left > 0 else 0.0
                non_pair_chance = float(context.shoe[second]) / others if others > 0 else 0.0
            if chance > 0:
                any_value += chance * float(played[hand])
            if second != pair and non_pair_chance > 0:
                non_pair_value += non_pair_chance * float(played[hand])
        value += shape.non_pair.get(extra, 0.0) * non_pair_value
        value += shape.any_card.get(extra, 0.0) * any_value
    return value


@dataclass(frozen=True)
class InitialHand:
    """The options of one two-card hand against the up card (peek-weighted values)."""

    first: int
    second: int
    hand: int
    probability: float
    options: dict[str, float]

    @property
    def blackjack(self) -> bool:
        return {self.first, self.second} == {ACE, TEN}


def initial_hands(
    context: UpcardContext, split_of: Callable[[int], float] | None = None
) -> list[InitialHand]:
    """Every two-card hand with its probability and the value of each allowed option."""
    setup = context.setup
    rules = setup.rules
    space = setup.space
    base = context.base
    found: list[InitialHand] = []
    for first in range(10):
        for second in range(first, 10):
            probability = context.draw_probability(first, second)
            hand = int(space.two_card[first, second])
            if probability <= 0 or hand < 0:
                continue
            options: dict[str, float] = {}
            if {first, second} == {ACE, TEN}:
                options["blackjack"] = float(rules.blackjack_pays) * float(base.no_blackjack[hand])
            else:
                options["stand"] = float(base.stand1[hand])
                options["hit"] = float(base.hit[hand])
                if may_double(rules, int(space.total[hand])):
                    options["double"] = float(base.double[hand])
                if rules.surrender is Surrender.LATE:
                    options["surrender"] = context.surrender_value(hand)
                if first == second and can_split(rules, first):
                    if split_of is None:
                        value = split_value(context, first, split_strategy(context, first))
                    else:
                        value = split_of(first)
                    if value == value:  # not NaN: the shoe holds the cards to split
                        options["split"] = value
            found.append(InitialHand(first, second, hand, probability, options))
    return found


def round_value(
    context: UpcardContext, hand: InitialHand, chosen: float, *, early_surrender: bool = True
) -> float:
    """The value of the round (dealer blackjack included) when the hand's option is worth
    ``chosen``; early surrender (decided before any peek) is taken where it is better unless
    ``early_surrender=False``."""
    value = chosen
    if context.peeked:
        # A peeked dealer blackjack ends the round: the player's blackjack pushes.
        value -= 0.0 if hand.blackjack else float(context.base.blackjack[hand.hand])
    rules = context.setup.rules
    if early_surrender and rules.surrender is Surrender.EARLY and not hand.blackjack:
        value = max(value, -0.5)
    return value


@dataclass(frozen=True)
class UpcardAnalysis:
    """Optimal play against one up card: ``ev`` given the up card, dealer blackjack included."""

    upcard: int
    probability: float
    ev: float
    context: UpcardContext
    hands: list[InitialHand]


def analyze_upcard(setup: Setup, upcard: int) -> UpcardAnalysis:
    context = cached_context(setup, upcard)
    hands = initial_hands(context)
    ev = sum(h.probability * round_value(context, h, max(h.options.values())) for h in hands)
    return UpcardAnalysis(upcard, setup.card_probability(upcard), ev, context, hands)
