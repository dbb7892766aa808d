"""Compiled hot loops of the exact analysis (numba, cached on disk after the first run).

Everything here works on plain arrays; :mod:`twentyone.analysis.engine` wraps it behind typed
functions. Conventions: card values are indexes 0 (ace) .. 9 (ten); a *shoe* is an array of
ten counts (finite) or ten probabilities (infinite); values are in units of one initial bet.

Peeked up cards: values are "unnormalised", i.e. E[payoff * 1(dealer has no blackjack)]; the
dealer's hole card is exchangeable with every later card, so conditioning on no blackjack is
a positive factor common to all options of a hand and the maximum over options is unchanged.
Unpeeked up cards: values are plain expectations, a dealer blackjack (found after the player
acted) taking ``loss_on_blackjack[stake]`` units.
"""

from __future__ import annotations

import numpy as np
from numba import njit

MAX_DRAWN = 13
STAND, HIT, DOUBLE = 0, 1, 2
OPTIMAL = -1


@njit(cache=True)
def dealer_distribution(  # type: ignore[no-untyped-def]
    shoe, infinite, sparse_start, sparse_index, sparse_count, orderings, outcome, size, out
):
    """Dealer result probabilities (17, 18, 19, 20, 21, blackjack, bust) into ``out``."""
    factors = np.ones((10, MAX_DRAWN))
    denominators = np.ones(MAX_DRAWN)
    if infinite:
        for value in range(10):
            for drawn in range(1, MAX_DRAWN):
                factors[value, drawn] = factors[value, drawn - 1] * shoe[value]
    else:
        total = 0.0
        for value in range(10):
            total += shoe[value]
            for drawn in range(1, MAX_DRAWN):
                remaining = shoe[value] - (drawn - 1)
                factors[value, drawn] = factors[value, drawn - 1] * max(remaining, 0.0)
        for drawn in range(1, MAX_DRAWN):
            denominators[drawn] = denominators[drawn - 1] * (total - (drawn - 1))
    for result in range(7):
        out[result] = 0.0
    for entry in range(len(outcome)):
        probability = orderings[entry]
        for position in range(sparse_start[entry], sparse_start[entry + 1]):
            probability *= factors[sparse_index[position], sparse_count[position]]
            if probability == 0.0:
                break
        if probability != 0.0:
            out[outcome[entry]] += probability / denominators[size[entry]]


@njit(cache=True)
def _stand_value(total, dealer, ties_lose):  # type: ignore[no-untyped-def]
    """E[payoff] of standing on ``total`` for one unit, over the dealer's non-blackjack results."""
    value = dealer[6]
    for result in range(5):
        dealer_total = 17 + result
        if total > dealer_total:
            value += dealer[result]
        elif total < dealer_total or ties_lose:
            value -= dealer[result]
    return value


@njit(cache=True)
def dealer_batch(  # type: ignore[no-untyped-def]
    shoe, counts, hands, shift, sparse_start, sparse_index, sparse_count, orderings, outcome, size
):
    """Dealer result probabilities for many finite shoes at once: ``shoe - counts[h] - shift``
    for every ``h`` in ``hands``; returns an array (len(hands), 7).

    The loops run over the shoes innermost, so they vectorise; each dealer entry's probability
    is ``orderings * prod(falling factorials) / falling factorial of the shoe size``.
    """
    count = len(hands)
    factors = np.ones((10, MAX_DRAWN, count))
    inverse = np.ones((MAX_DRAWN, count))
    for slot in range(count):
        hand = hands[slot]
        total = 0.0
        for value in range(10):
            cards = shoe[value] - counts[hand, value] - shift[value]
            total += cards
            product = 1.0
            for drawn in range(1, MAX_DRAWN):
                product *= max(cards - (drawn - 1), 0.0)
                factors[value, drawn, slot] = product
        product = 1.0
        for drawn in range(1, MAX_DRAWN):
            product *= total - (drawn - 1)
            inverse[drawn, slot] = 1.0 / product if product > 0 else 0.0
    result = np.zeros((7, count))
    term = np.empty(count)
    for entry in range(len(outcome)):
        weight = orderings[entry]
        first = sparse_start[entry]
        row_inverse = inverse[size[entry]]
        row = factors[sparse_index[first], sparse_count[first]]
        for slot in range(count):
            term[slot] = weight * row[slot] * row_inverse[slot]
        for position in range(first + 1, sparse_start[entry + 1]):
            row = factors[sparse_index[position], sparse_count[position]]
            for slot in range(count):
                term[slot] *= row[slot]
        target = result[outcome[entry]]
        for slot in range(count):
            target[slot] += term[slot]
    return result.T.copy()


@njit(cache=True)
def evaluate_hands(  # type: ignore[no-untyped-def]
    shoe,
    infinite,
    counts,
    total,
    child,
    order,
    shift,
    strategy,
    need,
    dealer,
    peeked,
    blackjack_card,
    loss_on_blackjack,
    ties_lose,
):
    """Values of every needed hand against one up card.

    ``shoe``: the shoe without the up card; ``shift``: further cards removed (pair cards of a
    split); ``strategy[h]``: STAND / HIT / DOUBLE, or OPTIMAL (best of stand and hit);
    ``need[h]``: 0 skip, 1 stand values only, 2 everything; ``dealer[h]``: the dealer's result
    probabilities for the hand's shoe. Returns per hand: stand for one and two units, hit,
    value of the hand played on (``strategy``), double, P(no dealer blackjack) and
    P(dealer blackjack) for the hand's shoe.
    """
    hands = len(total)
    stand1 = np.zeros(hands)
    stand2 = np.zeros(hands)
    hit = np.zeros(hands)
    played = np.zeros(hands)
    double = np.zeros(hands)
    no_blackjack = np.ones(hands)
    blackjack = np.zeros(hands)
    shoe_here = np.zeros(10)
    draw = np.zeros(10)
    bust1 = np.zeros(10)
    for position in range(hands):
        hand = order[position]
        if need[hand] == 0:
            continue
        remaining = 0.0
        possible = True
        for value in range(10):
            if infinite:
                shoe_here[value] = shoe[value]
            else:
                shoe_here[value] = shoe[value] - counts[hand, value] - shift[value]
                if shoe_here[value] < 0:
                    possible = False
                remaining += shoe_here[value]
        if not possible or (not infinite and remaining < 2.0):
            continue
        results = dealer[hand]
        base = _stand_value(total[hand], results, ties_lose)
        blackjack[hand] = results[5]
        no_blackjack[hand] = 1.0 - results[5]
        if peeked:
            stand1[hand] = base
            stand2[hand] = 2.0 * base
        else:
            stand1[hand] = base - loss_on_blackjack[1] * results[5]
            stand2[hand] = 2.0 * base - loss_on_blackjack[2] * results[5]
        if need[hand] == 1:
            played[hand] = stand1[hand]
            continue
        # Draw probabilities and the (peek-weighted) value of busting on each draw.
        for value in range(10):
            draw[value] = shoe_here[value] if infinite else shoe_here[value] / remaining
            bust1[value] = -1.0
            if peeked:
                if infinite:
                    bust1[value] = -(1.0 - shoe[blackjack_card])
                else:
                    hole = shoe_here[blackjack_card] - (1.0 if value == blackjack_card else 0.0)
                    bust1[value] = -(1.0 - hole / (remaining - 1.0))
        hit_value = 0.0
        double_value = 0.0
        for value in range(10):
            if draw[value] == 0.0:
                continue
            grown = child[hand, value]
            if grown == -1:
                hit_value += draw[value] * bust1[value]
                double_value += draw[value] * 2.0 * bust1[value]
            elif grown >= 0:
                hit_value += draw[value] * played[grown]
                double_value += draw[value] * stand2[grown]
        hit[hand] = hit_value
        double[hand] = double_value
        rule = strategy[hand]
        if total[hand] == 21 or rule == STAND:
            played[hand] = stand1[hand]
        elif rule == HIT:
            played[hand] = hit_value
        elif rule == DOUBLE:
            played[hand] = double_value
        else:
            played[hand] = max(stand1[hand], hit_value)
    return stand1, stand2, hit, played, double, no_blackjack, blackjack


@njit(cache=True)
def mark_needed(child, total, order, strategy, need):  # type: ignore[no-untyped-def]
    """Extend ``need`` (2 on the starting hands) to every hand the strategy can reach.

    ``order`` lists children before parents, so walking it backwards visits parents first.
    Hands reached by a double only need their stand value (1).
    """
    for position in range(len(order) - 1, -1, -1):
        hand = order[position]
        if need[hand] != 2 or total[hand] == 21:
            continue
        rule = strategy[hand]
        for value in range(10):
            grown = child[hand, value]
            if grown < 0:
                continue
            if rule == HIT or rule == OPTIMAL:  # noqa: SIM109 - plain compares for numba
                need[grown] = 2
            elif rule == DOUBLE and need[grown] == 0:
                need[grown] = 1


@njit(cache=True)
def composition_weights(shoe, infinite, counts):  # type: ignore[no-untyped-def]
    """P(the first n cards drawn are exactly this composition), for every hand."""
    hands = counts.shape[0]
    weights = np.zeros(hands)
    total = 0.0
    for value in range(10):
        total += shoe[value]
    for hand in range(hands):
        cards = 0
        weight = 1.0
        for value in range(10):
            for taken in range(counts[hand, value]):
                cards += 1
                # multinomial / hypergeometric: draw in value order, times the orderings
                if infinite:
                    weight *= shoe[value] * cards / (taken + 1)
                else:
                    weight *= (shoe[value] - taken) / (total - cards + 1) * cards / (taken + 1)
        weights[hand] = max(weight, 0.0)
    return weights


@njit(cache=True)
def total_dependent_pass(  # type: ignore[no-untyped-def]
    shoe, infinite, counts, hard, soft, total, child, order, stand1, weight, peeked, blackjack_card
):
    """Hit or stand by total (not composition): decide each total from the probability-weighted
    values of all its compositions, highest hard sums first (their children are decided).

    Returns hit decisions by hard total and by soft total (index = total), the value of each
    hand played by those decisions, and its hit value.
    """
    hands = len(hard)
    hit_hard = np.zeros(22, dtype=np.int64)
    hit_soft = np.zeros(22, dtype=np.int64)
    played = np.zeros(hands)
    hit = np.zeros(hands)
    shoe_here = np.zeros(10)
    position = 0
    while position < hands:
        group_hard = hard[order[position]]
        end = position
        while end < hands and hard[order[end]] == group_hard:
            end += 1
        stand_hard = 0.0
        hit_hard_sum = 0.0
        stand_soft = 0.0
        hit_soft_sum = 0.0
        for slot in range(position, end):
            hand = order[slot]
            remaining = 0.0
            possible = True
            for value in range(10):
                if infinite:
                    shoe_here[value] = shoe[value]
                else:
                    shoe_here[value] = shoe[value] - counts[hand, value]
                    if shoe_here[value] < 0:
                        possible = False
                    remaining += shoe_here[value]
            if not possible or (not infinite and remaining < 2.0):
                continue
            value_sum = 0.0
            for value in range(10):
                draw = shoe_here[value] if infinite else shoe_here[value] / remaining
                if draw == 0.0:
                    continue
                grown = child[hand, value]
                if grown == -1:
                    bust = -1.0
                    if peeked:
                        if infinite:
                            bust = -(1.0 - shoe[blackjack_card])
                        else:
                            hole = shoe_here[blackjack_card] - (
                                1.0 if value == blackjack_card else 0.0
                            )
                            bust = -(1.0 - hole / (remaining - 1.0))
                    value_sum += draw * bust
                elif grown >= 0:
                    value_sum += draw * played[grown]
            hit[hand] = value_sum
            if soft[hand]:
                stand_soft += weight[hand] * stand1[hand]
                hit_soft_sum += weight[hand] * value_sum
            else:
                stand_hard += weight[hand] * stand1[hand]
                hit_hard_sum += weight[hand] * value_sum
        if group_hard < 21:
            hit_hard[group_hard] = 1 if hit_hard_sum > stand_hard else 0
        if group_hard + 10 < 21:
            hit_soft[group_hard + 10] = 1 if hit_soft_sum > stand_soft else 0
        for slot in range(position, end):
            hand = order[slot]
            rule = hit_soft[total[hand]] if soft[hand] else hit_hard[total[hand]]
            played[hand] = hit[hand] if rule == 1 and total[hand] < 21 else stand1[hand]
        position = end
    return hit_hard, hit_soft, played, hit


@njit(cache=True)
def bust_chances(shoe, infinite, counts, total, child, order, shift, strategy, need):  # type: ignore[no-untyped-def]
    """P(the hand busts) for every needed hand played by ``strategy`` (STAND / HIT / DOUBLE)
    from ``shoe - counts[h] - shift`` (finite) or the infinite shoe ``shoe``."""
    hands = len(order)
    bust = np.zeros(hands)
    for position in range(hands):
        hand = order[position]
        rule = strategy[hand]
        if need[hand] != 2 or rule == STAND or total[hand] == 21:
            continue
        remaining = 0.0
        possible = True
        for value in range(10):
            if not infinite:
                left = shoe[value] - counts[hand, value] - shift[value]
                if left < 0:
                    possible = False
                remaining += left
        if not possible or (not infinite and remaining < 1.0):
            continue
        chance = 0.0
        for value in range(10):
            if infinite:
                draw = shoe[value]
            else:
                draw = (shoe[value] - counts[hand, value] - shift[value]) / remaining
            if draw <= 0.0:
                continue
            grown = child[hand, value]
            if grown == -1:
                chance += draw
            elif grown >= 0 and rule == HIT:
                chance += draw * bust[grown]
        bust[hand] = chance
    return bust


@njit(cache=True)
def bust_orderings(child, total, order, strategy, ways):  # type: ignore[no-untyped-def]
    """Valid draw orderings of every way a hand busts, grouped by (hand, busting value).

    ``ways[h]``: orderings reaching hand ``h`` (set on the starting hands; filled in for the
    rest, parents first). A hand whose ``strategy`` is HIT draws until it stands or busts, a
    DOUBLE hand draws one card; every other hand stands. Returns ``bust[h, v]``: the orderings
    in which hand ``h`` draws ``v`` and busts.
    """
    hands = len(order)
    bust = np.zeros((hands, 10))
    for position in range(hands - 1, -1, -1):
        hand = order[position]
        rule = strategy[hand]
        if ways[hand] == 0.0 or total[hand] == 21 or (rule != HIT and rule != DOUBLE):
            continue
        for value in range(10):
            grown = child[hand, value]
            if grown == -1:
                bust[hand, value] += ways[hand]
            elif grown >= 0 and rule == HIT:
                ways[grown] += ways[hand]
    return bust


@njit(cache=True)
def _falling_rows(shoe, shift, state, max_count, max_size, factors, inverse):  # type: ignore[no-untyped-def]
    """Falling factorials of the shoe ``shoe - shift - state``: ``factors[v, k]`` =
    (left_v)_k and ``inverse[k]`` = 1 / (left)_k; False if the shoe is short of cards."""
    left_total = 0.0
    for value in range(10):
        left = shoe[value] - shift[value] - state[value]
        if left < 0:
            return False
        left_total += left
        product = 1.0
        factors[value, 0] = 1.0
        for drawn in range(1, max_count[value] + 1):
            product *= max(left - (drawn - 1), 0.0)
            factors[value, drawn] = product
    product = 1.0
    inverse[0] = 1.0
    for drawn in range(1, max_size + 1):
        product *= left_total - (drawn - 1)
        inverse[drawn] = 1.0 / product if product > 0 else 0.0
    return True


@njit(cache=True)
def composition_sum(shoe, shift, states, masses, entries, orderings):  # type: ignore[no-untyped-def]
    """sum_s masses[s] * sum_e orderings[e] * P(the next cards are entry e's, in one given
    order | shoe - shift - states[s]): the chance of one more table event after each state."""
    max_count = np.zeros(10, dtype=np.int64)
    max_size = 0
    for entry in range(len(orderings)):
        size = 0
        for value in range(10):
            max_count[value] = max(max_count[value], entries[entry, value])
            size += entries[entry, value]
        max_size = max(max_size, size)
    factors = np.ones((10, max(max_count.max(), 1) + 1))
    inverse = np.ones(max_size + 1)
    result = 0.0
    for slot in range(len(masses)):
        if masses[slot] == 0.0:
            continue
        if not _falling_rows(shoe, shift, states[slot], max_count, max_size, factors, inverse):
            continue
        chance = 0.0
        for entry in range(len(orderings)):
            size = 0
            term = orderings[entry]
            for value in range(10):
                count = entries[entry, value]
                if count:
                    term *= factors[value, count]
                    size += count
            chance += term * inverse[size]
        result += masses[slot] * chance
    return result


@njit(cache=True)
def _hash_add(keys, found, used, key, amount):  # type: ignore[no-untyped-def]
    """Add ``amount`` to ``key``'s entry of an open-addressing table (keys >= 0, -1 = empty),
    doubling it when it would be more than half full. Returns (keys, found, used)."""
    capacity = len(keys)
    if 2 * (used + 1) > capacity:
        old_keys, old_found = keys, found
        capacity *= 2
        keys = np.full(capacity, -1, dtype=np.int64)
        found = np.zeros(capacity)
        for old in range(len(old_keys)):
            if old_keys[old] >= 0:
                place = (old_keys[old] * 0x5851F42D4C957F2D) & (capacity - 1)
                while keys[place] >= 0:
                    place = (place + 1) & (capacity - 1)
                keys[place] = old_keys[old]
                found[place] = old_found[old]
    place = (key * 0x5851F42D4C957F2D) & (capacity - 1)
    while keys[place] >= 0 and keys[place] != key:
        place = (place + 1) & (capacity - 1)
    if keys[place] < 0:
        keys[place] = key
        used += 1
    found[place] += amount
    return keys, found, used


@njit(cache=True)
def expand_compositions(shoe, shift, states, masses, entries, orderings, radix):  # type: ignore[no-untyped-def]
    """The states after one more table event: every ``states[s] + entries[e]`` with mass
    ``masses[s] * orderings[e] * P(entry e's cards in one order | shoe - shift - states[s])``,
    equal compositions merged (an open-addressing hash on the mixed-radix code of a
    composition; ``radix[v]`` exceeds every count of value ``v`` that can occur).
    Returns (compositions, masses)."""
    max_count = np.zeros(10, dtype=np.int64)
    max_size = 0
    for entry in range(len(orderings)):
        size = 0
        for value in range(10):
            max_count[value] = max(max_count[value], entries[entry, value])
            size += entries[entry, value]
        max_size = max(max_size, size)
    weight = np.ones(10, dtype=np.int64)
    for value in range(1, 10):
        weight[value] = weight[value - 1] * radix[value - 1]
    entry_keys = np.zeros(len(orderings), dtype=np.int64)
    for entry in range(len(orderings)):
        for value in range(10):
            entry_keys[entry] += entries[entry, value] * weight[value]
    capacity = 1024
    while capacity < 4 * len(masses):
        capacity *= 2
    keys = np.full(capacity, -1, dtype=np.int64)
    found = np.zeros(capacity)
    used = 0
    factors = np.ones((10, max(max_count.max(), 1) + 1))
    inverse = np.ones(max_size + 1)
    for slot in range(len(masses)):
        if masses[slot] == 0.0:
            continue
        if not _falling_rows(shoe, shift, states[slot], max_count, max_size, factors, inverse):
            continue
        state_key = 0
        for value in range(10):
            state_key += states[slot, value] * weight[value]
        for entry in range(len(orderings)):
            size = 0
            term = orderings[entry] * masses[slot]
            for value in range(10):
                count = entries[entry, value]
                if count:
                    term *= factors[value, count]
                    size += count
            term *= inverse[size]
            if term == 0.0:
                continue
            key = state_key + entry_keys[entry]
            keys, found, used = _hash_add(keys, found, used, key, term)
    occupied = np.flatnonzero(keys >= 0)
    compositions = np.empty((len(occupied), 10), dtype=np.int64)
    for row in range(len(occupied)):
        key = keys[occupied[row]]
        for value in range(10):
            compositions[row, value] = key % radix[value]
            key //= radix[value]
    return compositions, found[occupied]


@njit(cache=True)
def contract_step(previous, row_map, row_value, parent, count, factors, rows):  # type: ignore[no-untyped-def]
    """One value of :func:`split_busts.contract_compositions`: ``next[row_map[r], c] +=
    previous[r, parent[c]] * factors[row_value[r], count[c]]`` over every row ``r`` of
    ``previous`` and every column ``c`` of the result (``rows`` rows)."""
    columns = len(parent)
    result = np.zeros((rows, columns))
    for row in range(previous.shape[0]):
        target = result[row_map[row]]
        source = previous[row]
        factor = factors[row_value[row]]
        for column in range(columns):
            weight = source[parent[column]]
            if weight != 0.0:
                target[column] += weight * factor[count[column]]
    return result


@njit(cache=True)
def pair_sums(codes, weights):  # type: ignore[no-untyped-def]
    """Every ``codes[i] + codes[j]`` (ordered pairs) with ``weights[i] * weights[j]`` summed
    over equal sums (an open-addressing hash; codes are non-negative). Returns (sums, weights)."""
    capacity = 1024
    while capacity < 64 * len(codes):
        capacity *= 2
    keys = np.full(capacity, -1, dtype=np.int64)
    found = np.zeros(capacity)
    used = 0
    for first in range(len(codes)):
        for second in range(len(codes)):
            key = codes[first] + codes[second]
            keys, found, used = _hash_add(keys, found, used, key, weights[first] * weights[second])
    occupied = np.flatnonzero(keys >= 0)
    return keys[occupied], found[occupied]
