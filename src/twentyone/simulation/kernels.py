"""Compiled (numba) kernels that play whole house-banked rounds: one box, or a table of boxes.

One round, :func:`play_round`, holds the rules; it is compiled into two loops,
:func:`simulate_one_box_rounds` (one box playing a chart, the speed path) and
:func:`simulate_rounds` (any table). The soft total and the dealer's rules mirror the Python
ones (:func:`twentyone.hand.best_total`, ``house.round``): the kernels cannot call Python.

Everything here works on small integer arrays so that numba can compile it; the typed Python
API around it lives in :mod:`twentyone.simulation.encoding` (rules and charts to arrays) and
:mod:`twentyone.simulation.runner` (chunks, workers, statistics). All functions use
``cache=True``, so a second process loads the machine code from ``__pycache__`` (or the user's
cache directory for a read-only install) instead of recompiling it.

Cards are ranks 1..13 (ace = 1, ten = 10, jack..king = 11..13); a card's value is
``min(rank, 10)``. Money is counted in integer *ticks*: one original bet of one unit is
``2 * blackjack_pays.denominator`` ticks, so every payout (3:2, 6:5, half a bet back on a
surrender, half a bet of insurance) is a whole number of ticks and all sums are exact.

Randomness: xoshiro256** with Lemire's unbiased bounded integers, its state passed in by the
caller (seeded from ``(seed, chunk)``). The shoe is shuffled by Fisher-Yates (Durstenfeld)
performed lazily: each card is drawn by swapping a uniformly chosen card of the undealt part to
the dealing position. That yields exactly the same distribution as shuffling the whole shoe
first and dealing from the top, without spending random numbers on cards behind the cut card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt
from numba import njit

# ---- rule parameter slots (int64 array built by encoding.encode_rules) ----
RP_DECKS = 0  # 0 = infinite
RP_SHUFFLE = 1
RP_CUT = 2  # cards dealt before the cut card comes out
RP_H17 = 3
RP_PEEK = 4
RP_ENHC_LOSES = 5
RP_BJ_NUM = 6
RP_BJ_DEN = 7
RP_DOUBLE = 8
RP_DAS = 9
RP_SPLIT_BY = 10
RP_MAX_HANDS = 11
RP_RESPLIT_ACES = 12
RP_HIT_SPLIT_ACES = 13
RP_SURRENDER = 14
RP_INSURANCE = 15
RP_TIES = 16
RP_COUNT_MODE = 17
RP_INITIAL_COUNT = 18
RP_SIZE = 19

SHUFFLE_EVERY_ROUND = 0
SHUFFLE_CUT_CARD = 1
SHUFFLE_CONTINUOUS = 2
SHUFFLE_INFINITE = 3
SHUFFLE_SCRIPTED = 4  # traced rounds: the cards in the given order, no randomness

PEEK_ACE_TEN = 0
PEEK_ACE = 1
PEEK_NONE = 2

LOSES_ALL = 0
LOSES_ORIGINAL = 1

DOUBLE_ANY = 0
DOUBLE_9_11 = 1
DOUBLE_10_11 = 2
DOUBLE_NONE = 3

SPLIT_BY_RANK = 0
SPLIT_BY_VALUE = 1

SURRENDER_NONE = 0
SURRENDER_LATE = 1
SURRENDER_EARLY = 2

COUNT_NONE = 0
COUNT_TRUE = 1  # balanced systems: running count per deck remaining
COUNT_RUNNING = 2  # unbalanced systems: running count from the initial running count

# ---- chart codes (encoding.CODE_NUMBERS maps the chart's letters to these) ----
CODE_H = 0
CODE_S = 1
CODE_DH = 2
CODE_DS = 3
CODE_P = 4
CODE_PH = 5
CODE_RH = 6
CODE_RS = 7
CODE_RP = 8

TABLE_HARD = 0
TABLE_SOFT = 1
TABLE_PAIR = 2

# ---- decisions as recorded by the trace kernel ----
DECISION_NO_INSURANCE = 0
DECISION_INSURANCE = 1
DECISION_HIT = 2
DECISION_STAND = 3
DECISION_DOUBLE = 4
DECISION_SPLIT = 5
DECISION_SURRENDER = 6
DECISION_NO_SURRENDER = 7

# ---- statistics slots (int64 array, summed over chunks) ----
ST_ROUNDS = 0
ST_NET = 1  # ticks
ST_NET2 = 2  # ticks squared
ST_BET = 3  # units of initial bet
ST_BET2 = 4
ST_NET_BET = 5  # ticks * units
ST_HANDS = 6
ST_WINS = 7  # rounds with a positive net
ST_PUSHES = 8
ST_LOSSES = 9
ST_PLAYER_BLACKJACKS = 10
ST_DEALER_BLACKJACKS = 11
ST_DOUBLES = 12
ST_SPLITS = 13
ST_SURRENDERS = 14
ST_INSURANCES = 15
ST_BUSTS = 16  # hands
ST_SHUFFLES = 17
ST_BOXES = 18  # box-rounds: rounds times boxes
ST_BOX_NET2 = 19  # sum over boxes of each box's net squared (ticks squared)
ST_SIZE = 20

# ---- shoe state slots (int64 array) ----
SS_POS = 0
SS_SEEN = 1  # cards counted since the last shuffle
SS_RUNNING = 2  # running count
SS_ERROR = 3  # the scripted shoe ran out
SS_TRACE_LEN = 4
SS_SIZE = 5

# ---- hand workspace rows (int64 array [HW_SIZE, max_hands]) ----
HW_RANK1 = 0
HW_RANK2 = 1
HW_CARDS = 2
HW_HARD = 3
HW_ACE = 4
HW_STAKE = 5  # ticks
HW_STATUS = 6
HW_FROM_SPLIT = 7
HW_NODE = 8  # composition node (composition-dependent play only)
HW_SIZE = 9

# ---- box workspace rows (int64 array [BW_SIZE, boxes]): each box's last round ----
BW_HANDS = 0  # hands the box holds (1 + its splits)
BW_BLACKJACK = 1
BW_EARLY = 2  # surrendered early, before the peek
BW_INSURANCE = 3  # ticks
BW_NET = 4  # the box's net of the last round, ticks (read by the trace)
BW_SIZE = 5

STATUS_LIVE = 0
STATUS_STOOD = 1
STATUS_BUST = 2
STATUS_SURRENDERED = 3
STATUS_BLACKJACK = 4

# No allocation happens in a kernel (the caller passes every array in), so the numba runtime is
# switched off: with it, every call that passes an array pays an atomic reference-count update,
# which made the kernels about 10 times slower. cache=True keeps the machine code between runs.
_NO_RUNTIME: dict[str, Any] = {"_nrt": False}
F = TypeVar("F", bound=Callable[..., Any])
#: Kernel arguments are numpy arrays of int64 (uint64 for generator states, float64 for counts).
Array = npt.NDArray[Any]
Integer = int | np.integer[Any]


def kernel(function: F) -> F:
    """Compile with numba: cached on disk, no runtime (the callers allocate)."""
    return cast(F, njit(cache=True, **_NO_RUNTIME)(function))


def helper(function: F) -> F:
    """A kernel that numba inlines into its callers (a call passes each array as a dozen
    scalars, which costs more than the hot helpers themselves)."""
    return cast(F, njit(cache=True, inline="always", **_NO_RUNTIME)(function))


_U5 = np.uint64(5)
_U9 = np.uint64(9)
_U17 = np.uint64(17)
_U32 = np.uint64(32)
_U7 = np.uint64(7)
_U57 = np.uint64(57)
_U45 = np.uint64(45)
_U19 = np.uint64(19)
_MASK32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)


@helper
def next_u64(state: Array) -> Any:
    """xoshiro256** (Blackman and Vigna): the next 64 random bits; ``state`` is 4 uint64."""
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    x = s1 * _U5
    result = ((x << _U7) | (x >> _U57)) * _U9
    t = s1 << _U17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << _U45) | (s3 >> _U19)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return result


@helper
def below(state: Array, n: int) -> Any:
    """A uniform integer in ``[0, n)`` for ``0 < n < 2**32`` (Lemire's multiply-and-reject)."""
    bound = np.uint64(n)
    product = (next_u64(state) >> _U32) * bound
    low = product & _MASK32
    if low < bound:
        threshold = (_TWO32 - bound) % bound
        while low < threshold:
            product = (next_u64(state) >> _U32) * bound
            low = product & _MASK32
    return np.int64(product >> _U32)


#: The move a hard or soft chart code makes, by [code, can double, can surrender]: a table
#: instead of a chain of branches on a random code. Pair codes cannot occur there: hit.
MOVES = np.full((CODE_RP + 1, 2, 2), DECISION_HIT, dtype=np.int64)
MOVES[CODE_S, :, :] = DECISION_STAND
MOVES[CODE_DH, 1, :] = DECISION_DOUBLE
MOVES[CODE_DS, 0, :] = DECISION_STAND
MOVES[CODE_DS, 1, :] = DECISION_DOUBLE
MOVES[CODE_RH, :, 1] = DECISION_SURRENDER
MOVES[CODE_RS, :, 0] = DECISION_STAND
MOVES[CODE_RS, :, 1] = DECISION_SURRENDER


@helper
def deal(mode: int, initial_count: int, shoe: Array, ss: Array, rng: Array) -> Any:
    """The next card (a rank) from the shoe, for shuffle mode ``mode`` (the hot path)."""
    if mode == SHUFFLE_INFINITE:
        return below(rng, 13) + 1
    pos = ss[SS_POS]
    size = shoe.shape[0]
    if mode == SHUFFLE_SCRIPTED:
        if pos >= size:
            ss[SS_ERROR] = 1
            return 10
        ss[SS_POS] = pos + 1
        return shoe[pos]
    if pos >= size:
        # A round that outlasts the shoe reshuffles every card (as twentyone.shoe.FiniteShoe).
        pos = 0
        ss[SS_SEEN] = 0
        ss[SS_RUNNING] = initial_count
    pick = pos + below(rng, size - pos)
    card = shoe[pick]
    shoe[pick] = shoe[pos]
    shoe[pos] = card
    ss[SS_POS] = pos + 1
    return card


@helper
def see(count_mode: int, ss: Array, tags: Array, card: int) -> Any:
    """A card becomes visible: it enters the count (nothing to do when nobody counts)."""
    if count_mode != COUNT_NONE:
        ss[SS_RUNNING] += tags[card]
        ss[SS_SEEN] += 1


@helper
def count_key(count_mode: int, ss: Array, shoe_size: int) -> Any:
    """The count that bets and index plays key on: true count, running count, or 0."""
    if count_mode == COUNT_TRUE:
        unseen = shoe_size - ss[SS_SEEN]
        if unseen < 1:
            unseen = 1
        return ss[SS_RUNNING] * 52.0 / unseen
    if count_mode == COUNT_RUNNING:
        return float(ss[SS_RUNNING])
    return 0.0


@helper
def lookup(
    base_codes: Array,
    codes: Array,
    thresholds: Array,
    counts: Array,
    indexed: bool,
    table: int,
    row: int,
    up: int,
    key: float,
) -> Any:
    """The chart code of a cell; index plays switch it when ``key`` reaches their thresholds.

    ``base_codes`` (int8) is ``codes[..., 0]``: the chart alone in under a kilobyte, which stays
    in the L1 cache next to the shoe. ``indexed`` says whether any cell has index plays
    (without, ``codes``, ``thresholds`` and ``counts`` are not read).
    """
    code = np.int64(base_codes[table, row, up])
    if indexed:
        for i in range(counts[table, row, up]):
            if key >= thresholds[table, row, up, i]:
                code = codes[table, row, up, i + 1]
    return code


@helper
def total_code(
    base_codes: Array,
    codes: Array,
    thresholds: Array,
    counts: Array,
    indexed: bool,
    hard: int,
    total: int,
    up: int,
    key: float,
) -> Any:
    """The chart code of a hand by its total: the soft table when an ace counts 11."""
    if total != hard:
        return lookup(base_codes, codes, thresholds, counts, indexed, TABLE_SOFT, total, up, key)
    return lookup(base_codes, codes, thresholds, counts, indexed, TABLE_HARD, max(hard, 4), up, key)


@helper
def record(trace: Array, ss: Array, decision: int) -> Any:
    """Write a decision down (traced rounds only: ``trace`` is empty otherwise)."""
    if trace.shape[0] > 0:
        n = ss[SS_TRACE_LEN]
        if n < trace.shape[0]:
            trace[n] = decision
        ss[SS_TRACE_LEN] = n + 1


@helper
def can_double_total(double_rule: int, total: int) -> Any:
    if double_rule == DOUBLE_ANY:
        return True
    if double_rule == DOUBLE_9_11:
        return (total >= 9) & (total <= 11)
    if double_rule == DOUBLE_10_11:
        return (total >= 10) & (total <= 11)
    return False


@helper
def is_pair(split_by: int, rank1: int, rank2: int) -> Any:
    if split_by == SPLIT_BY_RANK:
        return rank1 == rank2
    return min(rank1, 10) == min(rank2, 10)


@helper
def add_card(hw: Array, h: int, card: int, cd: bool, cd_child: Array) -> Any:
    """Hand ``h`` takes ``card``; with composition-dependent play (``cd``) its composition node
    follows the card."""
    value = min(card, 10)
    if hw[HW_CARDS, h] == 1:
        hw[HW_RANK2, h] = card
    hw[HW_CARDS, h] += 1
    hw[HW_HARD, h] += value
    if value == 1:
        hw[HW_ACE, h] = 1
    if cd:
        hw[HW_NODE, h] = cd_child[hw[HW_NODE, h], value]


@helper
def start_hand(
    hw: Array, h: int, card: int, stake: int, from_split: int, cd: bool, cd_child: Array
) -> Any:
    hw[HW_RANK1, h] = card
    hw[HW_RANK2, h] = 0
    hw[HW_CARDS, h] = 1
    hw[HW_HARD, h] = min(card, 10)
    hw[HW_ACE, h] = 1 if card == 1 else 0
    hw[HW_STAKE, h] = stake
    hw[HW_STATUS, h] = STATUS_LIVE
    hw[HW_FROM_SPLIT, h] = from_split
    if cd:
        hw[HW_NODE, h] = cd_child[0, min(card, 10)]


@helper
def best_total(hard: int, ace: int) -> Any:
    """The compiled twin of :func:`twentyone.hand.best_total` (aces high): an ace counts 11
    when that does not bust the hand."""
    # Without a branch: whether a hand is soft is as random as its cards (a mispredicted
    # branch costs more than the arithmetic).
    return hard + 10 * ((ace == 1) & (hard <= 11))


@helper
def hand_code(
    cd: bool,
    cd_codes: Array,
    hw: Array,
    h: int,
    base_codes: Array,
    codes: Array,
    thresholds: Array,
    counts: Array,
    indexed: bool,
    up: int,
    key: float,
) -> Any:
    """The chart code of hand ``h`` outside the pair table: by its composition (CD play) or by
    its total."""
    if cd:
        return np.int64(cd_codes[hw[HW_NODE, h], up])
    hard = hw[HW_HARD, h]
    total = best_total(hard, hw[HW_ACE, h])
    return total_code(base_codes, codes, thresholds, counts, indexed, hard, total, up, key)


@helper
def finish_box(
    stats: Array,
    bw: Array,
    boxes: int,
    b: int,
    net: Integer,
    blackjacks: Integer,
    early: Integer,
    insurance: Integer,
) -> Any:
    """Box ``b``'s round is settled: its facts go to ``bw`` (read by the trace), its result to
    the statistics."""
    bw[BW_NET, b] = net
    bw[BW_BLACKJACK, b] = (blackjacks >> b) & 1
    bw[BW_EARLY, b] = (early >> b) & 1
    bw[BW_INSURANCE, b] = insurance
    if boxes > 1:
        # With one box these sums are the round's: simulate_rounds adds them after the loop.
        stats[ST_BOXES] += 1
        stats[ST_BOX_NET2] += net * net
    stats[ST_WINS] += net > 0
    stats[ST_PUSHES] += net == 0
    stats[ST_LOSSES] += net < 0


@helper
def finish_round(stats: Array, net: Integer, bet: Integer, hands: int) -> Any:
    stats[ST_ROUNDS] += 1
    stats[ST_NET] += net
    stats[ST_NET2] += net * net
    stats[ST_BET] += bet
    stats[ST_BET2] += bet * bet
    stats[ST_NET_BET] += net * bet
    stats[ST_HANDS] += hands
    return net


@helper
def play_round(
    rp: Array,
    boxes: int,
    shoe: Array,
    ss: Array,
    rng: Array,
    base_codes: Array,
    codes: Array,
    thresholds: Array,
    counts: Array,
    indexed: bool,
    cd: bool,
    cd_child: Array,
    cd_codes: Array,
    tags: Array,
    ramp_thresholds: Array,
    ramp_units: Array,
    insurance_threshold: float,
    hw: Array,
    bw: Array,
    stats: Array,
    trace: Array,
) -> Any:
    """Play one round at a table of ``boxes`` boxes, each with the same bet and strategy.

    Deal in table order: one card to each box left to right, the up card, the second cards,
    then the hole card where the dealer has one. Box ``b`` keeps its hands in the columns
    ``b * max_hands ...`` of ``hw``. Returns the table's net in ticks; each box's net is left in
    ``bw[BW_NET]``.
    """
    mode = rp[RP_SHUFFLE]
    initial_count = rp[RP_INITIAL_COUNT]
    count_mode = rp[RP_COUNT_MODE]
    peek = rp[RP_PEEK]
    surrender_rule = rp[RP_SURRENDER]
    max_hands = rp[RP_MAX_HANDS]
    split_by = rp[RP_SPLIT_BY]
    das = rp[RP_DAS]
    double_rule = rp[RP_DOUBLE]
    resplit_aces = rp[RP_RESPLIT_ACES]
    hit_split_aces = rp[RP_HIT_SPLIT_ACES]
    ties_lose = rp[RP_TIES]
    tie_loses = ties_lose == 1
    shoe_size = shoe.shape[0]
    has_hole = peek != PEEK_NONE
    surrender_in_play = surrender_rule == SURRENDER_LATE or (
        surrender_rule == SURRENDER_EARLY and not has_hole
    )
    if mode in (SHUFFLE_EVERY_ROUND, SHUFFLE_CONTINUOUS):
        if mode == SHUFFLE_EVERY_ROUND:
            stats[ST_SHUFFLES] += 1
        ss[SS_POS] = 0
        ss[SS_SEEN] = 0
        ss[SS_RUNNING] = initial_count
    elif mode == SHUFFLE_CUT_CARD and ss[SS_POS] >= rp[RP_CUT]:
        ss[SS_POS] = 0
        ss[SS_SEEN] = 0
        ss[SS_RUNNING] = initial_count
        stats[ST_SHUFFLES] += 1

    bet = np.int64(1)
    if ramp_thresholds.shape[0] > 0:
        key = count_key(count_mode, ss, shoe_size)
        for i in range(ramp_thresholds.shape[0]):
            if key >= ramp_thresholds[i]:
                bet = ramp_units[i]
    unit = bet * (2 * rp[RP_BJ_DEN])

    for b in range(boxes):
        card = deal(mode, initial_count, shoe, ss, rng)
        see(count_mode, ss, tags, card)
        start_hand(hw, b * max_hands, card, unit, 0, cd, cd_child)
        bw[BW_HANDS, b] = 1
    up = deal(mode, initial_count, shoe, ss, rng)
    see(count_mode, ss, tags, up)
    for b in range(boxes):
        card = deal(mode, initial_count, shoe, ss, rng)
        see(count_mode, ss, tags, card)
        add_card(hw, b * max_hands, card, cd, cd_child)
    hole = 0
    if has_hole:
        hole = deal(mode, initial_count, shoe, ss, rng)
    up_value = min(up, 10)

    # Per-box flags as bits of local masks (bit b: box b), kept in registers rather than in
    # memory: with one box they fold into plain booleans.
    blackjacks = np.int64(0)
    for b in range(boxes):
        h = b * max_hands
        if hw[HW_HARD, h] == 11 and hw[HW_ACE, h] == 1:
            blackjacks |= np.int64(1) << b
            hw[HW_STATUS, h] = STATUS_BLACKJACK
            stats[ST_PLAYER_BLACKJACKS] += 1
    any_blackjack = blackjacks != 0

    # Insurance, box by box; the count is the same for all of them (no card shows in between),
    # so every box insures or none does, each for half its bet.
    any_insurance = False
    insurance = np.int64(0)
    if up_value == 1 and rp[RP_INSURANCE] == 1:
        insure = count_key(count_mode, ss, shoe_size) >= insurance_threshold
        if insure:
            insurance = unit // 2
        for _ in range(boxes):
            if insure:
                stats[ST_INSURANCES] += 1
                record(trace, ss, DECISION_INSURANCE)
                any_insurance = True
            else:
                record(trace, ss, DECISION_NO_INSURANCE)

    # Early surrender before the peek, box by box; boxes holding a natural are not asked.
    early = np.int64(0)
    if has_hole and surrender_rule == SURRENDER_EARLY:
        key = count_key(count_mode, ss, shoe_size)
        for b in range(boxes):
            if (blackjacks >> b) & 1:
                continue
            h = b * max_hands
            surrender = False
            decided = False
            rank1 = hw[HW_RANK1, h]
            if max_hands > 1 and is_pair(split_by, rank1, hw[HW_RANK2, h]):
                pair_code = lookup(
                    base_codes,
                    codes,
                    thresholds,
                    counts,
                    indexed,
                    TABLE_PAIR,
                    min(rank1, 10),
                    up_value,
                    key,
                )
                if pair_code == CODE_P or (pair_code == CODE_PH and das == 1):
                    decided = True
                elif pair_code == CODE_RP:
                    surrender = True
                    decided = True
            if not decided:
                code = hand_code(
                    cd,
                    cd_codes,
                    hw,
                    h,
                    base_codes,
                    codes,
                    thresholds,
                    counts,
                    indexed,
                    up_value,
                    key,
                )
                surrender = (code == CODE_RH) | (code == CODE_RS)
            if surrender:
                early |= np.int64(1) << b
                hw[HW_STATUS, h] = STATUS_SURRENDERED
                stats[ST_SURRENDERS] += 1
                record(trace, ss, DECISION_SURRENDER)
            else:
                record(trace, ss, DECISION_NO_SURRENDER)

    dealer_hard = up_value
    dealer_ace = 1 if up_value == 1 else 0
    dealer_blackjack = False
    if has_hole:
        hole_value = min(hole, 10)
        dealer_blackjack = (up_value == 1 and hole_value == 10) or (
            up_value == 10 and hole_value == 1
        )
        peeked = up_value == 1 or (up_value == 10 and peek == PEEK_ACE_TEN)
        if peeked and dealer_blackjack:
            see(count_mode, ss, tags, hole)
            stats[ST_DEALER_BLACKJACKS] += 1
            total_net = np.int64(0)
            for b in range(boxes):
                net = 2 * insurance
                if (early >> b) & 1:
                    net -= unit // 2
                elif ((blackjacks >> b) & 1) == 0 or ties_lose == 1:
                    net -= unit
                finish_box(stats, bw, boxes, b, net, blackjacks, early, insurance)
                total_net += net
            return finish_round(stats, total_net, bet * boxes, boxes)

    # The boxes play left to right; a split inserts the new hand right after its parent.
    for b in range(boxes):
        if ((blackjacks | early) >> b) & 1:
            continue
        first = b * max_hands
        hand_count = 1
        h = first
        while h < first + hand_count:
            while True:
                cards = hw[HW_CARDS, h]
                hard = hw[HW_HARD, h]
                total = best_total(hard, hw[HW_ACE, h])
                if total > 21:
                    hw[HW_STATUS, h] = STATUS_BUST
                    stats[ST_BUSTS] += 1
                    break
                two_cards = cards == 2
                from_split = hw[HW_FROM_SPLIT, h] == 1
                split_ace = from_split & (hw[HW_RANK1, h] == 1)
                can_split = (
                    two_cards
                    & (hand_count < max_hands)
                    & is_pair(split_by, hw[HW_RANK1, h], hw[HW_RANK2, h])
                    & (not (split_ace & (resplit_aces == 0)))
                )
                locked = split_ace & (hit_split_aces == 0)
                if (total == 21) | (locked & (not can_split)):
                    hw[HW_STATUS, h] = STATUS_STOOD
                    break
                can_double = (
                    two_cards
                    & (not split_ace)
                    & ((not from_split) | (das == 1))
                    & can_double_total(double_rule, total)
                )
                can_surrender = two_cards & (hand_count == 1) & (not from_split) & surrender_in_play
                key = count_key(count_mode, ss, shoe_size)
                move = DECISION_HIT
                decided = False
                if can_split:
                    pair_code = lookup(
                        base_codes,
                        codes,
                        thresholds,
                        counts,
                        indexed,
                        TABLE_PAIR,
                        min(hw[HW_RANK1, h], 10),
                        up_value,
                        key,
                    )
                    if pair_code == CODE_P or (pair_code == CODE_PH and das == 1):
                        move = DECISION_SPLIT
                        decided = True
                    elif pair_code == CODE_RP:
                        move = DECISION_SURRENDER if can_surrender else DECISION_SPLIT
                        decided = True
                if not decided:
                    if locked:
                        move = DECISION_STAND
                    else:
                        code = hand_code(
                            cd,
                            cd_codes,
                            hw,
                            h,
                            base_codes,
                            codes,
                            thresholds,
                            counts,
                            indexed,
                            up_value,
                            key,
                        )
                        move = MOVES[code, np.int64(can_double), np.int64(can_surrender)]
                record(trace, ss, move)
                if move == DECISION_STAND:
                    hw[HW_STATUS, h] = STATUS_STOOD
                    break
                if move == DECISION_SURRENDER:
                    hw[HW_STATUS, h] = STATUS_SURRENDERED
                    stats[ST_SURRENDERS] += 1
                    break
                if move == DECISION_DOUBLE:
                    hw[HW_STAKE, h] += unit
                    stats[ST_DOUBLES] += 1
                    card = deal(mode, initial_count, shoe, ss, rng)
                    see(count_mode, ss, tags, card)
                    add_card(hw, h, card, cd, cd_child)
                    if best_total(hw[HW_HARD, h], hw[HW_ACE, h]) > 21:
                        hw[HW_STATUS, h] = STATUS_BUST
                        stats[ST_BUSTS] += 1
                    else:
                        hw[HW_STATUS, h] = STATUS_STOOD
                    break
                if move == DECISION_SPLIT:
                    stats[ST_SPLITS] += 1
                    for j in range(first + hand_count, h + 1, -1):
                        for row in range(HW_SIZE):
                            hw[row, j] = hw[row, j - 1]
                    hand_count += 1
                    rank = hw[HW_RANK1, h]
                    start_hand(hw, h, rank, unit, 1, cd, cd_child)
                    start_hand(hw, h + 1, rank, unit, 1, cd, cd_child)
                    card = deal(mode, initial_count, shoe, ss, rng)
                    see(count_mode, ss, tags, card)
                    add_card(hw, h, card, cd, cd_child)
                    card = deal(mode, initial_count, shoe, ss, rng)
                    see(count_mode, ss, tags, card)
                    add_card(hw, h + 1, card, cd, cd_child)
                    continue
                card = deal(mode, initial_count, shoe, ss, rng)
                see(count_mode, ss, tags, card)
                add_card(hw, h, card, cd, cd_child)
            h += 1
        bw[BW_HANDS, b] = hand_count

    # Which bets, over the whole table, still depend on the dealer's cards.
    any_live = False
    any_late_surrender = False
    all_hands = 0
    for b in range(boxes):
        first = b * max_hands
        all_hands += bw[BW_HANDS, b]
        for i in range(first, first + bw[BW_HANDS, b]):
            status = hw[HW_STATUS, i]
            if status == STATUS_STOOD:
                any_live = True
            elif status == STATUS_SURRENDERED and surrender_rule == SURRENDER_LATE:
                any_late_surrender = True

    if has_hole:
        see(count_mode, ss, tags, hole)
        dealer_hard += min(hole, 10)
        if min(hole, 10) == 1:
            dealer_ace = 1
    elif (
        any_live
        or any_insurance
        or ((any_late_surrender or any_blackjack) and (up_value == 1 or up_value == 10))
    ):
        # No hole card: the second card is drawn only if some bet's result can still change
        # with it (rules-common.md; house.round's _second_card_matters): a natural or a late
        # surrender only when the up card can make a blackjack.
        hole = deal(mode, initial_count, shoe, ss, rng)
        see(count_mode, ss, tags, hole)
        hole_value = min(hole, 10)
        dealer_hard += hole_value
        if hole_value == 1:
            dealer_ace = 1
        dealer_blackjack = dealer_hard == 11 and dealer_ace == 1
    if dealer_blackjack:
        stats[ST_DEALER_BLACKJACKS] += 1
    elif any_live:
        hits_soft_17 = rp[RP_H17] == 1
        while True:
            dealer_total = best_total(dealer_hard, dealer_ace)
            soft_17 = (dealer_total == 17) & (dealer_total != dealer_hard)
            if (dealer_total > 17) | ((dealer_total == 17) & (not (hits_soft_17 & soft_17))):
                break
            card = deal(mode, initial_count, shoe, ss, rng)
            see(count_mode, ss, tags, card)
            dealer_hard += min(card, 10)
            if min(card, 10) == 1:
                dealer_ace = 1
    dealer_total = best_total(dealer_hard, dealer_ace)

    total_net = np.int64(0)
    for b in range(boxes):
        first = b * max_hands
        last = first + bw[BW_HANDS, b]
        net = -insurance
        if dealer_blackjack:
            net = 2 * insurance
        if dealer_blackjack and rp[RP_ENHC_LOSES] == LOSES_ORIGINAL:
            remaining = False
            for i in range(first, last):
                status = hw[HW_STATUS, i]
                if status == STATUS_BUST:
                    net -= hw[HW_STAKE, i]
                elif status == STATUS_SURRENDERED and surrender_rule == SURRENDER_EARLY:
                    net -= hw[HW_STAKE, i] // 2
                elif status != STATUS_BLACKJACK or ties_lose == 1:
                    remaining = True
            if remaining:
                net -= unit
        else:
            for i in range(first, last):
                status = hw[HW_STATUS, i]
                stake = hw[HW_STAKE, i]
                if status == STATUS_BUST:
                    net -= stake
                elif status == STATUS_SURRENDERED:
                    if dealer_blackjack and surrender_rule == SURRENDER_LATE:
                        net -= stake
                    else:
                        net -= stake // 2
                elif status == STATUS_BLACKJACK:
                    if not dealer_blackjack:
                        net += stake * rp[RP_BJ_NUM] // rp[RP_BJ_DEN]
                    elif ties_lose == 1:
                        net -= stake
                elif dealer_blackjack:
                    net -= stake
                else:
                    player_total = best_total(hw[HW_HARD, i], hw[HW_ACE, i])
                    wins = (dealer_total > 21) | (player_total > dealer_total)
                    loses = (dealer_total <= 21) & (
                        (player_total < dealer_total) | ((player_total == dealer_total) & tie_loses)
                    )
                    net += stake * (np.int64(wins) - np.int64(loses))
        finish_box(stats, bw, boxes, b, net, blackjacks, early, insurance)
        total_net += net
    return finish_round(stats, total_net, bet * boxes, all_hands)


@kernel
def simulate_rounds(
    rp: Array,
    boxes: int,
    rng: Array,
    rounds: int,
    base_codes: Array,
    codes: Array,
    thresholds: Array,
    counts: Array,
    cd_child: Array,
    cd_codes: Array,
    tags: Array,
    ramp_thresholds: Array,
    ramp_units: Array,
    insurance_threshold: float,
    stats: Array,
    shoe: Array,
    ss: Array,
    hw: Array,
    bw: Array,
    trace: Array,
) -> Any:
    """Play ``rounds`` rounds at a table of ``boxes`` boxes; add them to ``stats`` (an
    int64[ST_SIZE]).

    ``base_codes`` is ``codes[..., 0]`` as a C-contiguous int8 array (see :func:`lookup`).
    The caller passes the work arrays: ``shoe`` (int8: 52 * decks ranks, empty for an infinite
    deck; a byte a card keeps the shoe in a few cache lines), ``ss`` (int64[SS_SIZE]), ``hw``
    (int64[HW_SIZE, boxes * max_hands]), ``bw`` (int64[BW_SIZE, boxes]) and ``trace`` (empty).
    ``cd_child`` (int32 [nodes, 11]) maps a composition node and a card value to the node with
    that card added (node 0: no card), and ``cd_codes`` (int8 [nodes, 11]) gives the chart code
    of a node against each up card value; with a single node (shape [1, 11]) the hands are
    played by the chart's totals. With ``rp`` set to SHUFFLE_SCRIPTED, ``shoe`` holds the cards
    to deal in order and ``trace`` receives the decisions (``ss[SS_TRACE_LEN]`` of them): that
    is how rounds are traced.
    """
    if rp[RP_SHUFFLE] != SHUFFLE_SCRIPTED:
        for i in range(shoe.shape[0]):
            shoe[i] = (i % 13) + 1
    ss[SS_POS] = 0
    ss[SS_SEEN] = 0
    ss[SS_RUNNING] = rp[RP_INITIAL_COUNT]
    if rp[RP_SHUFFLE] == SHUFFLE_CUT_CARD or rp[RP_SHUFFLE] == SHUFFLE_CONTINUOUS:
        stats[ST_SHUFFLES] += 1  # the shoe's first shuffle
    # Without index plays the chart lookups skip the threshold tables altogether.
    indexed = False
    for table in range(counts.shape[0]):
        for row in range(counts.shape[1]):
            for up in range(counts.shape[2]):
                if counts[table, row, up] > 0:
                    indexed = True
    cd = cd_codes.shape[0] > 1
    net2_before = stats[ST_NET2]
    for _ in range(rounds):
        play_round(
            rp,
            boxes,
            shoe,
            ss,
            rng,
            base_codes,
            codes,
            thresholds,
            counts,
            indexed,
            cd,
            cd_child,
            cd_codes,
            tags,
            ramp_thresholds,
            ramp_units,
            insurance_threshold,
            hw,
            bw,
            stats,
            trace,
        )
    if boxes == 1:
        stats[ST_BOXES] += rounds
        stats[ST_BOX_NET2] += stats[ST_NET2] - net2_before


@kernel
def simulate_one_box_rounds(
    rp: Array,
    boxes: int,
    rng: Array,
    rounds: int,
    base_codes: Array,
    codes: Array,
    thresholds: Array,
    counts: Array,
    cd_child: Array,
    cd_codes: Array,
    tags: Array,
    ramp_thresholds: Array,
    ramp_units: Array,
    insurance_threshold: float,
    stats: Array,
    shoe: Array,
    ss: Array,
    hw: Array,
    bw: Array,
    trace: Array,
) -> Any:
    """:func:`simulate_rounds` for one box playing a chart (``boxes`` is 1, ``cd_codes`` one
    node), the speed path: the same round, compiled with the box count and CD play as
    constants, which the compiler folds away (the loops over one box, the composition nodes);
    with them as variables the round is about 16% slower."""
    if rp[RP_SHUFFLE] != SHUFFLE_SCRIPTED:
        for i in range(shoe.shape[0]):
            shoe[i] = (i % 13) + 1
    ss[SS_POS] = 0
    ss[SS_SEEN] = 0
    ss[SS_RUNNING] = rp[RP_INITIAL_COUNT]
    if rp[RP_SHUFFLE] == SHUFFLE_CUT_CARD or rp[RP_SHUFFLE] == SHUFFLE_CONTINUOUS:
        stats[ST_SHUFFLES] += 1  # the shoe's first shuffle
    # Without index plays the chart lookups skip the threshold tables altogether.
    indexed = False
    for table in range(counts.shape[0]):
        for row in range(counts.shape[1]):
            for up in range(counts.shape[2]):
                if counts[table, row, up] > 0:
                    indexed = True
    net2_before = stats[ST_NET2]
    for _ in range(rounds):
        play_round(
            rp,
            1,
            shoe,
            ss,
            rng,
            base_codes,
            codes,
            thresholds,
            counts,
            indexed,
            False,
            cd_child,
            cd_codes,
            tags,
            ramp_thresholds,
            ramp_units,
            insurance_threshold,
            hw,
            bw,
            stats,
            trace,
        )
    # One box: the box's sums are the round's.
    stats[ST_BOXES] += rounds
    stats[ST_BOX_NET2] += stats[ST_NET2] - net2_before
