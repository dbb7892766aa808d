"""Exact rational analysis of the infinite shoe (every card drawn with probability 1/13, 4/13
for ten-value cards), the same rules and conventions as the fast engine, in fractions.

With an infinite shoe nothing depends on the cards already dealt, so a hand is just its hard
total and whether it holds an ace; the whole analysis is a few thousand exact operations.

>>> from twentyone.rules import Rules, EnhcLoses
>>> edge = exact_expected_return(Rules(decks=None, max_hands=4, enhc_loses=EnhcLoses.ORIGINAL))
>>> round(float(edge) * 100, 6)
-0.511734
"""

from __future__ import annotations

import functools
from fractions import Fraction

from twentyone.analysis.dealer_table import BLACKJACK, BUST, dealer_table
from twentyone.analysis.engine import can_split, is_peeked, may_double
from twentyone.analysis.shoe_counts import ACE, TEN, infinite_probabilities
from twentyone.analysis.splits import all_hands_chance, split_shape
from twentyone.analysis.support import check_supported
from twentyone.errors import InvalidRulesError
from twentyone.hand import best_total
from twentyone.rules import EnhcLoses, Rules, Surrender, Ties

P = infinite_probabilities()


@functools.cache
def exact_dealer(upcard: int, hits_soft_17: bool) -> tuple[Fraction, ...]:
    """The dealer's result probabilities (17..21, blackjack, bust) for an infinite shoe."""
    table = dealer_table(upcard, hits_soft_17)
    results = [Fraction(0)] * 7
    for drawn, orderings, outcome in zip(table.drawn, table.orderings, table.outcome, strict=True):
        term = Fraction(int(orderings))
        for value, count in enumerate(drawn):
            if count:
                term *= P[value] ** int(count)
        results[int(outcome)] += term
    return tuple(results)


class _Upcard:
    """Exact values against one up card (peek-weighted like the fast engine)."""

    def __init__(self, rules: Rules, upcard: int) -> None:
        self.rules = rules
        self.upcard = upcard
        self.dealer = exact_dealer(upcard, rules.dealer_hits_soft_17)
        self.peeked = is_peeked(rules, upcard)
        self.blackjack = self.dealer[BLACKJACK]
        self.no_blackjack = 1 - self.blackjack
        self.loss2 = 2 if rules.enhc_loses is EnhcLoses.ALL else 1

    def stand(self, total: int, stake: int) -> Fraction:
        value = self.dealer[BUST]
        for result in range(5):
            dealer_total = 17 + result
            if total > dealer_total:
                value += self.dealer[result]
            elif total < dealer_total or self.rules.ties is Ties.DEALER_WINS:
                value -= self.dealer[result]
        if self.peeked:
            return stake * value
        return stake * value - (1 if stake == 1 else self.loss2) * self.blackjack

    def bust(self, stake: int) -> Fraction:
        return -stake * (self.no_blackjack if self.peeked else Fraction(1))

    @functools.cache  # noqa: B019 - one short-lived object per analysis
    def best(self, hard: int, ace: bool) -> Fraction:
        """Value of a hand of 3+ cards played optimally (stand or hit)."""
        total = best_total(hard, ace)
        if total == 21:
            return self.stand(21, 1)
        return max(self.stand(total, 1), self.hit(hard, ace))

    def hit(self, hard: int, ace: bool) -> Fraction:
        value = Fraction(0)
        for card in range(10):
            grown = hard + card + 1
            if grown > 21:
                value += P[card] * self.bust(1)
            else:
                value += P[card] * self.best(grown, ace or card == ACE)
        return value

    def double(self, hard: int, ace: bool) -> Fraction:
        value = Fraction(0)
        for card in range(10):
            grown = hard + card + 1
            if grown > 21:
                value += P[card] * self.bust(2)
            else:
                value += P[card] * self.stand(best_total(grown, ace or card == ACE), 2)
        return value

    def split_move(self, pair: int, second: int) -> str:
        """CDZ-: the best move allowed after a split for a two-card split hand."""
        hard = pair + second + 2
        ace = ACE in (pair, second)
        total = best_total(hard, ace)
        options = {"stand": self.stand(total, 1)}
        if total < 21 and (pair != ACE or self.rules.hit_split_aces):
            options["hit"] = self.hit(hard, ace)
            if pair != ACE and self.rules.double_after_split and may_double(self.rules, total):
                options["double"] = self.double(hard, ace)
        return max(options, key=lambda move: options[move])

    @functools.cache  # noqa: B019 - one short-lived object per analysis
    def played(self, hard: int, ace: bool, move: str, pushes: bool) -> tuple[Fraction, Fraction]:
        """(value, P(bust)) of a hand playing ``move`` then optimally (stand on ties); with
        ``pushes`` a hand not bust loses nothing to a dealer blackjack (original bets only:
        the box's one bet is charged once, see :meth:`split`)."""
        total = best_total(hard, ace)
        stake = 2 if move == "double" else 1
        if move == "stand" or total == 21:
            value = self.stand(total, 1)
            if pushes:
                value += self.blackjack
            return value, Fraction(0)
        value, bust = Fraction(0), Fraction(0)
        for card in range(10):
            grown = hard + card + 1
            if grown > 21:
                value += P[card] * self.bust(stake)
                bust += P[card]
            elif move == "double":
                stood = self.stand(best_total(grown, ace or card == ACE), 2)
                value += P[card] * (stood + (self.loss2 * self.blackjack if pushes else 0))
            else:
                hand_ace = ace or card == ACE
                grown_total = best_total(grown, hand_ace)
                stand_more = grown_total == 21 or self.stand(grown_total, 1) >= self.hit(
                    grown, hand_ace
                )
                more = self.played(grown, hand_ace, "stand" if stand_more else "hit", pushes)
                value += P[card] * more[0]
                bust += P[card] * more[1]
        return value, bust

    def split(self, pair: int) -> Fraction:
        rules = self.rules
        can_resplit = pair != ACE or rules.resplit_aces
        shape = split_shape(rules.max_hands, can_resplit, P[pair], None)
        one_bet = not self.peeked and rules.enhc_loses is EnhcLoses.ORIGINAL
        hands = [
            self.played(pair + s + 2, ACE in (pair, s), self.split_move(pair, s), one_bet)
            for s in range(10)
        ]

        def averages(index: int) -> tuple[Fraction, Fraction]:
            non_pair = sum((P[s] * hands[s][index] for s in range(10) if s != pair), Fraction(0))
            any_card = sum((P[s] * hands[s][index] for s in range(10)), Fraction(0))
            return non_pair / (1 - P[pair]), any_card

        non_pair, any_card = averages(0)
        value = (
            sum(shape.non_pair.values(), Fraction(0)) * non_pair
            + sum(shape.any_card.values(), Fraction(0)) * any_card
        )
        if one_bet and self.blackjack:
            # A dealer blackjack takes one original bet from the box unless every hand is bust.
            busts = averages(1)
            all_bust = all_hands_chance(
                rules.max_hands, can_resplit, P[pair], None, lambda pairs, unseen: busts
            )
            value -= self.blackjack * (1 - all_bust)
        return value

    def options(self, first: int, second: int) -> dict[str, Fraction]:
        rules = self.rules
        if {first, second} == {ACE, TEN}:
            return {"blackjack": rules.blackjack_pays * self.no_blackjack}
        hard = first + second + 2
        ace = ACE in (first, second)
        total = best_total(hard, ace)
        found = {"stand": self.stand(total, 1), "hit": self.hit(hard, ace)}
        if may_double(rules, total):
            found["double"] = self.double(hard, ace)
        if rules.surrender is Surrender.LATE:
            found["surrender"] = -self.no_blackjack / 2 - (0 if self.peeked else self.blackjack)
        if first == second and can_split(rules, first):
            found["split"] = self.split(first)
        return found

    def round_value(self, first: int, second: int) -> Fraction:
        value = max(self.options(first, second).values())
        natural = {first, second} == {ACE, TEN}
        if self.peeked and not natural:
            value -= self.blackjack
        if self.rules.surrender is Surrender.EARLY and not natural:
            value = max(value, Fraction(-1, 2))
        return value

    def expected(self) -> Fraction:
        value = Fraction(0)
        for first in range(10):
            for second in range(10):
                value += P[first] * P[second] * self.round_value(first, second)
        return value


def _checked(rules: Rules) -> Rules:
    check_supported(rules)
    if rules.decks is not None:
        raise InvalidRulesError(
            f"exact fractions are for the infinite shoe (decks=inf), got {rules.decks} decks"
        )
    return rules


@functools.cache
def exact_ev_by_upcard(rules: Rules) -> dict[int, Fraction]:
    """The player's exact EV given each up card (index 0 = ace), dealer blackjack included."""
    return {up: _Upcard(_checked(rules), up).expected() for up in range(10)}


def exact_expected_return(rules: Rules) -> Fraction:
    """The player's exact EV per initial bet under optimal play, infinite shoe."""
    by_upcard = exact_ev_by_upcard(rules)
    return sum((P[up] * value for up, value in by_upcard.items()), Fraction(0))


def exact_hand_options(rules: Rules, hand: tuple[int, ...], upcard: int) -> dict[str, Fraction]:
    """The exact, peek-weighted values of one hand's options (value indexes, ace = 0) against
    ``upcard`` on the infinite shoe: the numbers :func:`exact_ev_by_upcard` maximises over
    (a two-card hand); a longer hand may only stand or hit. Early surrender is not here (it
    is -1/2 whatever the dealer holds).

    >>> from twentyone.rules import Rules
    >>> exact_hand_options(Rules(decks=None), (9, 9), 5)["stand"]
    Fraction(574240632, 815730721)
    """
    upcard_values = _Upcard(_checked(rules), upcard)
    if len(hand) == 2:
        return upcard_values.options(hand[0], hand[1])
    hard = sum(value + 1 for value in hand)
    ace = ACE in hand
    total = best_total(hard, ace)
    found = {"stand": upcard_values.stand(total, 1)}
    if total < 21:
        found["hit"] = upcard_values.hit(hard, ace)
    return found
