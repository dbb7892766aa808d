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
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from twentyone.analysis import kernels
from twentyone.analysis.dealer_table import DealerTable, dealer_table
from twentyone.analysis.hands import HandSpace, hand_space
from twentyone.analysis.shoe_counts import ACE, TEN, full_shoe_counts, infinite_probabilities
from twentyone.analysis.split_busts import all_bust_bounds
from twentyone.analysis.splits import SplitShape, all_hands_chance, split_shape
from twentyone.analysis.support import check_supported
from twentyone.errors import InvalidRulesError
from twentyone.rules import EnhcLoses, Peek, Rules, SplitBy, Surrender, Ties

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

STAND, HIT, DOUBLE, OPTIMAL = kernels.STAND, kernels.HIT, kernels.DOUBLE, kernels.OPTIMAL
#: Values closer than this are a tie for the CDZ- play of split hands (rounding is ~1e-16).
TIE = 1e-13
#: Work (walk states times table entries per step) allowed for the cheaper bounds of a split's
#: original-bets-only term, tried in turn before its exact value (see :func:`split_value`).
SPLIT_WORK = (1e5,)


#: Split conventions (how split hands are played; ``docs/analysis.md``, "Split conventions").
SPLIT_CONVENTIONS = ("cdz-", "cdp1")


class UnknownSplitConventionError(InvalidRulesError):
    """A split convention the analysis does not compute."""


@dataclass(frozen=True)
class Setup:
    """What every up card's analysis shares: the rules, the hand space, the shoe and the
    split convention."""

    rules: Rules
    space: HandSpace
    shoe: FloatArray  # counts by value (finite) or probabilities (infinite)
    infinite: bool
    convention: str = "cdz-"

    def card_probability(self, value: int) -> float:
        if self.infinite:
            return float(self.shoe[value])
        return float(self.shoe[value] / self.shoe.sum())


def prepare(rules: Rules, shoe: Sequence[int] | None = None, *, convention: str = "cdz-") -> Setup:
    """Check ``rules`` and build the shared data; ``shoe`` overrides the full shoe's counts;
    ``convention``: how split hands are played (:data:`SPLIT_CONVENTIONS`)."""
    check_supported(rules)
    check_convention(convention)
    if shoe is None:
        if rules.decks is None:
            counts = np.array([float(p) for p in infinite_probabilities()])
        else:
            counts = np.array(full_shoe_counts(rules.decks), dtype=np.float64)
    else:
        if rules.decks is None:
            raise InvalidRulesError("a shoe composition needs a finite number of decks")
        counts = np.array(_checked_shoe(shoe, rules.decks), dtype=np.float64)
    return Setup(rules, hand_space(rules.decks), counts, rules.decks is None, convention)


def check_convention(convention: str) -> None:
    """Raise :class:`UnknownSplitConventionError` unless ``convention`` is computed here."""
    if convention not in SPLIT_CONVENTIONS:
        raise UnknownSplitConventionError(
            f"unknown split strategy {convention!r} (expected {' or '.join(SPLIT_CONVENTIONS)})"
        )


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
        self,
        strategy: IntArray,
        need: IntArray,
        shift: FloatArray | None = None,
        *,
        blackjack_pushes: bool = False,
        dealer: FloatArray | None = None,
    ) -> HandPass:
        """One kernel pass; ``blackjack_pushes``: a hand not bust loses nothing to an unseen
        dealer blackjack (split hands under original-bets-only: the box pays once);
        ``dealer``: the dealer's results by hand if already known (:meth:`dealer_for_shifts`)."""
        space = self.setup.space
        rules = self.setup.rules
        loss = np.array([0.0, 1.0, 2.0 if rules.enhc_loses is EnhcLoses.ALL else 1.0])
        if blackjack_pushes:
            loss = np.zeros(3)
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
            self.dealer_for(need, shift_array) if dealer is None else dealer,
            self.peeked,
            TEN if self.upcard == ACE else ACE,
            loss,
            rules.ties is Ties.DEALER_WINS,
        )
        return HandPass(*arrays)

    def dealer_for_shifts(self, need: IntArray, shifts: Sequence[FloatArray]) -> list[FloatArray]:
        """:meth:`dealer_for` for several shifts at once, each distinct shoe computed once
        (a hand with a pair card more and one pair card less shifted leaves the same shoe)."""
        if self.setup.infinite or not shifts:
            return [self.dealer_for(need, shift) for shift in shifts]
        wanted = np.flatnonzero(need).astype(np.int64)
        counts = self.setup.space.counts[wanted]
        removed = np.concatenate([counts + shift.astype(np.int64) for shift in shifts])
        # One integer per removed composition (counts stay far below 64): a 1-d unique is fast.
        keys = removed @ (64 ** np.arange(10, dtype=np.int64))
        unique_keys, first, which = np.unique(keys, return_index=True, return_inverse=True)
        known_keys, known_rows = _known_split_dealers(self)
        where = np.searchsorted(known_keys, unique_keys)
        known = where < len(known_keys)
        known[known] = known_keys[where[known]] == unique_keys[known]
        results = np.empty((len(unique_keys), 7))
        results[known] = known_rows[where[known]]
        missing = ~known
        if missing.any():
            table = self.table
            shoes = removed[first[missing]]
            results[missing] = kernels.dealer_batch(
                self.shoe,
                shoes,
                np.arange(len(shoes), dtype=np.int64),
                np.zeros(10),
                table.sparse_start,
                table.sparse_index,
                table.sparse_count,
                table.orderings,
                table.outcome,
                table.size,
            )
            merged_keys = np.concatenate([known_keys, unique_keys[missing]])
            merged_rows = np.concatenate([known_rows, results[missing]])
            order = np.argsort(merged_keys)
            _SPLIT_DEALERS[self.upcard] = (self, merged_keys[order], merged_rows[order])
        found = []
        positions = which.reshape(-1)
        for index in range(len(shifts)):
            dealer = np.zeros((len(need), 7))
            dealer[wanted] = results[positions[index * len(wanted) : (index + 1) * len(wanted)]]
            found.append(dealer)
        return found

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


#: The dealer's results for split shoes already computed, by up card, for the latest context
#: of each up card only (the optimal analysis and the chart's splits need mostly the same
#: shoes; one context per up card bounds the memory): (context, sorted keys, rows).
_SPLIT_DEALERS: dict[int, tuple[UpcardContext, IntArray, FloatArray]] = {}


def _known_split_dealers(context: UpcardContext) -> tuple[IntArray, FloatArray]:
    memo = _SPLIT_DEALERS.get(context.upcard)
    if memo is None or memo[0] is not context:
        return np.zeros(0, dtype=np.int64), np.zeros((0, 7))
    return memo[1], memo[2]


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
def _cached_contexts(
    rules: Rules, shoe: tuple[float, ...], convention: str
) -> dict[int, UpcardContext]:
    return {}


def cached_context(setup: Setup, upcard: int) -> UpcardContext:
    """:func:`upcard_context`, remembered for the last few rule sets and shoes."""
    known = _cached_contexts(setup.rules, tuple(float(c) for c in setup.shoe), setup.convention)
    if upcard not in known:
        known[upcard] = upcard_context(setup, upcard)
    return known[upcard]


def can_split(rules: Rules, pair: int) -> bool:
    """Whether a pair of this value may be split at all (see docs: ranks among tens)."""
    return rules.max_hands >= 2 and not (pair == TEN and rules.split_by is SplitBy.RANK)


def may_double(rules: Rules, total: int) -> bool:
    return rules.double.allows(total)


def split_strategy(context: UpcardContext, pair: int) -> IntArray:
    """How every split hand of ``pair`` is played, by the setup's convention: CDZ-, as the
    optimal unsplit hand of its composition would; CDP1, as is optimal for its composition
    with the other pair card out of the shoe too (the shoe right after the split)."""
    space = context.setup.space
    base = context.base if context.setup.convention == "cdz-" else _post_split_pass(context, pair)
    # Ties (within float noise) stand, as the exact engines do: on tiny shoes exact ties occur
    # (a hand that loses whatever it does) and a split hand's play must not hang on rounding.
    strategy = np.where(base.stand1 >= base.hit - TIE, STAND, HIT).astype(np.int64)
    strategy[space.total == 21] = STAND
    for second in range(10):
        hand = space.two_card[pair, second]
        if hand < 0:
            continue
        strategy[hand] = best_split_hand_move(context, hand, pair, base)
    return strategy


def _post_split_pass(context: UpcardContext, pair: int) -> HandPass:
    """The optimal pass for the hands a split of ``pair`` can reach, from the shoe without the
    other pair card as well (CDP1; the infinite shoe does not change)."""
    space = context.setup.space
    need = np.zeros(len(space.total), dtype=np.int64)
    for second in range(10):
        hand = space.two_card[pair, second]
        if hand >= 0:
            need[hand] = 2
    optimal = np.full(len(space.total), OPTIMAL, dtype=np.int64)
    kernels.mark_needed(space.child, space.total, space.by_hard_desc, optimal, need)
    shift = _unit(pair)
    dealer = context.dealer_for_shifts(need, [shift])[0]
    return context.evaluate(optimal, need, shift, dealer=dealer)


def best_split_hand_move(
    context: UpcardContext, hand: int, pair: int, base: HandPass | None = None
) -> int:
    """The best move of a two-card split hand among those allowed after a split, judged by
    ``base`` (default: the unsplit pass, CDZ-)."""
    rules = context.setup.rules
    base = context.base if base is None else base
    total = int(context.setup.space.total[hand])
    if total == 21:
        return STAND
    if pair == ACE and not rules.hit_split_aces:
        return STAND
    options = {STAND: float(base.stand1[hand]), HIT: float(base.hit[hand])}
    if rules.double_after_split and may_double(rules, total) and pair != ACE:
        options[DOUBLE] = float(base.double[hand])
    best = max(options.values())
    # The first of stand, hit, double within float noise of the best (ties stand, then hit).
    return next(move for move, value in options.items() if value >= best - TIE)


def split_value(
    context: UpcardContext, pair: int, strategy: IntArray, *, below: float | None = None
) -> float:
    """Value (peek-weighted like every other option) of splitting a pair of ``pair``.

    Exact for finite and infinite shoes (see ``docs/analysis.md``, "Exact resplits"): each
    finished split hand is valued on the shoe without the pair cards drawn before it and
    without the known non-pair second cards drawn before it (unseen, so averaged over them).
    Under original-bets-only against an unseen dealer blackjack the box loses one bet unless
    every split hand is bust (:func:`_one_bet_lost`).

    ``below``: the value the caller compares the split with. Where bounds that cost little
    already show the split is worth no more, that upper bound (at most ``below``) is returned
    instead of the exact value (only the original-bets-only term is ever bounded).
    """
    rules = context.setup.rules
    shoe = context.shoe.copy()
    if not context.setup.infinite:
        shoe[pair] -= 2.0  # both pair cards are in the split hands
        if shoe[pair] < 0:
            return float("nan")
    one_bet_per_box = not context.peeked and rules.enhc_loses is EnhcLoses.ORIGINAL
    start = _split_start(context, pair, strategy)

    def played(shifts: list[FloatArray]) -> list[FloatArray]:
        dealers = context.dealer_for_shifts(start, shifts)
        return [
            context.evaluate(
                strategy, start.copy(), shift, blackjack_pushes=one_bet_per_box, dealer=dealer
            ).played
            for shift, dealer in zip(shifts, dealers, strict=True)
        ]

    shape, averages = _split_averages(context, pair, shoe, played)
    value = 0.0
    for state, (non_pair_value, any_value) in averages.items():
        value += shape.non_pair_after.get(state, 0.0) * non_pair_value
        value += shape.any_card_after.get(state, 0.0) * any_value
    if one_bet_per_box:
        for work in SPLIT_WORK if below is not None else ():
            least_lost, most_lost = _one_bet_lost(context, pair, shoe, strategy, start, work)
            if least_lost == most_lost:  # nothing was skipped: exact
                return value - most_lost
            if below is not None and value - least_lost <= below:
                return value - least_lost
        value -= _one_bet_lost(context, pair, shoe, strategy, start)[1]
    return value


def _one_bet_lost(
    context: UpcardContext,
    pair: int,
    shoe: FloatArray,
    strategy: IntArray,
    start: IntArray,
    work: float | None = None,
) -> tuple[float, float]:
    """P(dealer blackjack and some split hand not bust): the box's one original bet lost, as
    bounds (low, high), equal unless ``work`` limits the walk (:func:`all_bust_bounds`).

    The dealer's second card is exchangeable with a card set aside before the split, so
    P(blackjack and all bust) = P(blackjack) * P(all bust | that card out of the shoe). On a
    finite shoe the hands' busts are correlated and :func:`split_busts.all_bust_chance` walks
    the compositions they draw; on the infinite shoe they are independent given the split's
    shape and their bust chances multiply along it.
    """
    setup = context.setup
    space = setup.space
    if context.upcard not in (ACE, TEN):
        return 0.0, 0.0
    blackjack_card = TEN if context.upcard == ACE else ACE
    if setup.infinite:
        blackjack = float(shoe[blackjack_card])
        reduced = shoe
    else:
        blackjack = float(shoe[blackjack_card] / shoe.sum())
        reduced = shoe.copy()
        reduced[blackjack_card] -= 1.0
    if blackjack <= 0.0:
        return 0.0, 0.0
    rules = setup.rules
    can_resplit = pair != ACE or rules.resplit_aces
    if not setup.infinite:
        limit = rules.max_hands if can_resplit else 2
        low, high = all_bust_bounds(space, strategy, pair, reduced, limit, work)
        return blackjack * (1.0 - high), blackjack * (1.0 - low)

    def busts(shifts: list[FloatArray]) -> list[FloatArray]:
        return [
            kernels.bust_chances(
                context.shoe,
                setup.infinite,
                space.counts,
                space.total,
                space.child,
                space.by_hard_desc,
                shift,
                strategy,
                start,
            )
            for shift in shifts
        ]

    _, averages = _split_averages(context, pair, reduced, busts)

    def chances(pairs_out: int, unseen: int) -> tuple[float, float]:
        return averages.get((pairs_out, unseen), (0.0, 0.0))

    all_bust = all_hands_chance(rules.max_hands, can_resplit, float(reduced[pair]), None, chances)
    return blackjack * (1.0 - all_bust), blackjack * (1.0 - all_bust)


def _split_averages(
    context: UpcardContext,
    pair: int,
    shoe: FloatArray,
    passes_of: Callable[[list[FloatArray]], list[FloatArray]],
) -> tuple[SplitShape[float], dict[tuple[int, int], tuple[float, float]]]:
    """The split's shape and, for every state (pair cards out, non-pair cards unseen), the
    per-hand quantity ``passes_of`` computes (values or bust chances by hand, one array for each
    ``shift`` of cards removed) averaged over a non-pair second card and over any card.

    ``shoe``: after the up card and both pair cards (finite), or the probabilities (infinite).
    """
    setup = context.setup
    rules = setup.rules
    space = setup.space
    can_resplit = pair != ACE or rules.resplit_aces
    if setup.infinite:
        shape = split_shape(rules.max_hands, can_resplit, float(shoe[pair]), None)
        column = passes_of([np.zeros(10)])[0]
        non_pair_value, any_value = 0.0, 0.0
        for second in range(10):
            hand = space.two_card[pair, second]
            chance = float(shoe[second])
            any_value += chance * float(column[hand])
            if second != pair:
                non_pair_value += chance / (1.0 - float(shoe[pair])) * float(column[hand])
        return shape, {state: (non_pair_value, any_value) for state in _states(shape)}
    others = float(shoe.sum() - shoe[pair])
    shape = split_shape(rules.max_hands, can_resplit, float(shoe[pair]), others)
    states = _states(shape)
    shifts = []
    for pairs_out in range(max((k + n for k, n in states), default=0) + 1):
        shift = np.zeros(10)
        shift[pair] = 1.0 + pairs_out
        shift += context.shoe - 2.0 * _unit(pair) - shoe  # cards set aside beyond the pair
        shifts.append(shift)
    columns = passes_of(shifts)
    hand_values = unseen_non_pair_values(space, pair, shoe, columns, states)
    averages: dict[tuple[int, int], tuple[float, float]] = {}
    for pairs_out, unseen in sorted(states):
        # The shoe before this hand's second card: pair cards out, ``unseen`` non-pairs gone.
        left = shoe.copy()
        left[pair] -= pairs_out
        size = float(left.sum())
        non_pair_value, any_value = 0.0, 0.0
        for second in range(10):
            hand = space.two_card[pair, second]
            if hand < 0 or left[second] <= 0:
                continue
            hand_value = hand_values[pairs_out, unseen][second]
            if second == pair:
                any_chance = left[second] / (size - unseen)
            else:
                non_pair_value += left[second] / others * hand_value
                any_chance = left[second] / others * (others - unseen) / (size - unseen)
            any_value += any_chance * hand_value
        averages[pairs_out, unseen] = (float(non_pair_value), float(any_value))
    return shape, averages


def _unit(value: int) -> FloatArray:
    unit = np.zeros(10)
    unit[value] = 1.0
    return unit


def _states(shape: SplitShape[float]) -> set[tuple[int, int]]:
    return {
        state
        for table in (shape.non_pair_after, shape.any_card_after)
        for state, mass in table.items()
        if mass > 0.0
    }


def unseen_non_pair_values(
    space: HandSpace,
    pair: int,
    shoe: FloatArray,
    columns: Sequence[FloatArray],
    states: set[tuple[int, int]],
) -> dict[tuple[int, int], list[float]]:
    """``U[K, N][c]``: the value of the split hand (pair, c) when ``K`` more pair cards and
    ``N`` random non-pair cards (unseen) have left ``shoe`` (the shoe after the up card and both
    pair cards); ``columns[K]`` holds the plain values (by hand) with ``K`` more pair cards out.

    Removing ``m`` cards at random does not change a hand's value (the shoe's value is a
    martingale), and ``j`` of them are pair cards with hypergeometric chance ``h(j)``, so
    ``U[K, 0] = sum_j h(j) U[K + j, m - j]``: every ``U[K, N]`` follows from plain passes
    with ``K .. K + N`` pair cards out (no pass over unseen cards is needed).
    """
    others = round(float(shoe.sum() - shoe[pair]))
    found: dict[tuple[int, int], list[float]] = {state: [0.0] * 10 for state in states}
    for second in range(10):
        hand = int(space.two_card[pair, second])
        if hand < 0:
            continue
        column = [float(played[hand]) for played in columns]
        pair_cards = round(float(shoe[pair])) - (1 if second == pair else 0)
        non_pairs = others - (0 if second == pair else 1)
        known: dict[tuple[int, int], float] = {}
        for pairs_out, unseen in states:
            found[pairs_out, unseen][second] = _unseen_value(
                column, pair_cards, non_pairs, pairs_out, unseen, known
            )
    return found


def _unseen_value(
    column: list[float],
    pair_cards: int,
    non_pairs: int,
    pairs_out: int,
    unseen: int,
    known: dict[tuple[int, int], float],
) -> float:
    """One ``U[K, N]`` of :func:`unseen_non_pair_values` for one hand, by the recursion there:
    ``column[K]`` is the plain value with K more pair cards out; ``known`` memoises."""
    if unseen == 0:
        return column[pairs_out]
    if (pairs_out, unseen) in known:
        return known[pairs_out, unseen]
    pairs_left = pair_cards - pairs_out
    if pairs_left < 0 or non_pairs < unseen:
        return 0.0  # the state cannot occur
    ways = math.comb(pairs_left + non_pairs, unseen)
    rest = column[pairs_out]
    for pairs_among in range(1, min(unseen, pairs_left) + 1):
        chance = math.comb(pairs_left, pairs_among) * math.comb(non_pairs, unseen - pairs_among)
        rest -= (
            chance
            / ways
            * _unseen_value(
                column, pair_cards, non_pairs, pairs_out + pairs_among, unseen - pairs_among, known
            )
        )
    known[pairs_out, unseen] = rest / (math.comb(non_pairs, unseen) / ways)
    return known[pairs_out, unseen]


def _split_start(context: UpcardContext, pair: int, strategy: IntArray) -> IntArray:
    """Every hand a split hand can reach (2 = all values, 1 = stand only)."""
    space = context.setup.space
    start = np.zeros(len(space.total), dtype=np.int64)
    for second in range(10):
        hand = space.two_card[pair, second]
        if hand >= 0:
            start[hand] = 2
    kernels.mark_needed(space.child, space.total, space.by_hard_desc, strategy, start)
    return start


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
    """Every two-card hand with its probability and the value of each allowed option.

    A split that is not the best option may be valued by an upper bound no greater than the
    best other option (see :func:`split_value`), so the maximum over options is exact."""
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
                        strategy = split_strategy(context, first)
                        value = split_value(context, first, strategy, below=max(options.values()))
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
