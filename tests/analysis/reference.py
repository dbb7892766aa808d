"""A slow, obviously correct reference analysis: plain recursion over shoe compositions with
fractions, written without the fast engine's devices.

What it does differently from the fast engine, on purpose:
- the dealer is played card by card from the remaining shoe (no grouped multisets);
- a peek is modelled with an explicit hole card: conditioned on no dealer blackjack, the
  hole card is one of the non-blackjack cards the player has not seen, and every card the
  player draws is drawn with the hole card out of the shoe (no "unnormalised" values);
- a split to two hands is played out in the true dealing order: both second cards, the first
  hand to the end, the second hand, then the dealer, every card from the shoe left.
  Resplits are played out the same way (a resplit hand gets its second cards at once and
  is played next). Split hands are played CDZ- or CDP1 (``convention``: judged with
  the other pair card in the shoe or out of it). ``split_model`` keeps the older
  "pair-card model" (other hands' non-pair second cards treated as unseen cards), only
  to show that it is not the game.

Only finite shoes; values are fractions of one unit bet. Compositions are tuples of ten
counts (index 0 = ace, 9 = ten-value).
"""

from __future__ import annotations

import functools
from fractions import Fraction

from twentyone.rules import EnhcLoses, Peek, Rules, Surrender, Ties

ACE, TEN = 0, 9
F = Fraction


def _add(counts: tuple[int, ...], value: int, amount: int) -> tuple[int, ...]:
    grown = list(counts)
    grown[value] += amount
    return tuple(grown)


def _total(hand: tuple[int, ...]) -> tuple[int, bool]:
    hard = sum(count * (value + 1) for value, count in enumerate(hand))
    soft = hand[ACE] > 0 and hard + 10 <= 21
    return (hard + 10 if soft else hard), soft


class Reference:
    """Reference values against one up card, from ``shoe`` (the up card still in it)."""

    def __init__(
        self, rules: Rules, shoe: tuple[int, ...], upcard: int, convention: str = "cdz-"
    ) -> None:
        self.rules = rules
        self.convention = convention
        self.upcard = upcard
        self.shoe = _add(shoe, upcard, -1)
        if upcard == ACE:
            self.peeked = rules.peek in (Peek.ACE, Peek.ACE_TEN)
        else:
            self.peeked = upcard == TEN and rules.peek is Peek.ACE_TEN
        self.blackjack_card = TEN if upcard == ACE else ACE if upcard == TEN else None

    # ---- the dealer -------------------------------------------------------------------
    @functools.cache  # noqa: B019
    def dealer(self, shoe: tuple[int, ...], hard: int, ace: bool, cards: int) -> tuple[F, ...]:
        """Results (17..21, blackjack, bust) of a dealer holding (hard, ace, cards)."""
        soft = ace and hard + 10 <= 21
        total = hard + 10 if soft else hard
        results = [F(0)] * 7
        if hard > 21:
            results[6] = F(1)
            return tuple(results)
        if cards == 2 and total == 21:
            results[5] = F(1)
            return tuple(results)
        stands = total > 17 or (total == 17 and not (soft and self.rules.dealer_hits_soft_17))
        if stands:
            results[total - 17] = F(1)
            return tuple(results)
        size = sum(shoe)
        for value, count in enumerate(shoe):
            if count == 0:
                continue
            after = self.dealer(
                _add(shoe, value, -1), hard + value + 1, ace or value == ACE, cards + 1
            )
            for index in range(7):
                results[index] += F(count, size) * after[index]
        return tuple(results)

    def dealer_from(self, shoe: tuple[int, ...]) -> tuple[F, ...]:
        """The dealer's results before any peek, drawing from ``shoe`` after the up card."""
        return self.dealer(shoe, self.upcard + 1, self.upcard == ACE, 1)

    # ---- what the player sees -----------------------------------------------------------
    def hole_cards(self, shoe: tuple[int, ...]) -> dict[int, F]:
        """P(hole card | the player's view, no dealer blackjack) on a peeked up card."""
        assert self.blackjack_card is not None
        allowed = sum(count for value, count in enumerate(shoe) if value != self.blackjack_card)
        return {
            value: F(count, allowed)
            for value, count in enumerate(shoe)
            if count and value != self.blackjack_card
        }

    @functools.cache  # noqa: B019
    def next_cards(self, shoe: tuple[int, ...]) -> dict[int, F]:
        """P(the player's next card), the hole card (if peeked) being still in the shoe."""
        size = sum(shoe)
        if not self.peeked:
            return {value: F(count, size) for value, count in enumerate(shoe) if count}
        chances: dict[int, F] = {}
        for hole, weight in self.hole_cards(shoe).items():
            for value, count in enumerate(shoe):
                left = count - (1 if value == hole else 0)
                if left:
                    chances[value] = chances.get(value, F(0)) + weight * F(left, size - 1)
        return chances

    def payoff(self, total: int, result: int) -> int:
        if result == 6:
            return 1
        dealer_total = 17 + result
        if total > dealer_total:
            return 1
        if total < dealer_total or self.rules.ties is Ties.DEALER_WINS:
            return -1
        return 0

    def blackjack_loss(self, stake: int) -> int:
        return stake if self.rules.enhc_loses is EnhcLoses.ALL else 1

    @functools.cache  # noqa: B019
    def stand(self, shoe: tuple[int, ...], total: int, stake: int) -> F:
        if self.peeked:
            value = F(0)
            for hole, weight in self.hole_cards(shoe).items():
                results = self.dealer(
                    _add(shoe, hole, -1),
                    self.upcard + hole + 2,
                    ACE in (self.upcard, hole),
                    2,
                )
                assert results[5] == 0
                value += weight * sum(
                    (results[i] * self.payoff(total, i) for i in (0, 1, 2, 3, 4, 6)), F(0)
                )
            return stake * value
        results = self.dealer_from(shoe)
        value = stake * sum((results[i] * self.payoff(total, i) for i in (0, 1, 2, 3, 4, 6)), F(0))
        return value - self.blackjack_loss(stake) * results[5]

    def no_blackjack(self, shoe: tuple[int, ...]) -> F:
        if self.blackjack_card is None:
            return F(1)
        return 1 - F(shoe[self.blackjack_card], sum(shoe))

    # ---- hands ---------------------------------------------------------------------------
    def shoe_for(self, hand: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(s - h for s, h in zip(self.shoe, hand, strict=True))

    @functools.cache  # noqa: B019
    def best(self, hand: tuple[int, ...], shoe: tuple[int, ...]) -> F:
        total, _ = _total(hand)
        if total == 21:
            return self.stand(shoe, 21, 1)
        return max(self.stand(shoe, total, 1), self.hit(hand, shoe))

    def hit(self, hand: tuple[int, ...], shoe: tuple[int, ...]) -> F:
        value = F(0)
        for card, chance in self.next_cards(shoe).items():
            grown = _add(hand, card, 1)
            if _total(grown)[0] > 21:
                value -= chance
            else:
                value += chance * self.best(grown, _add(shoe, card, -1))
        return value

    def double(self, hand: tuple[int, ...], shoe: tuple[int, ...]) -> F:
        value = F(0)
        for card, chance in self.next_cards(shoe).items():
            total, _ = _total(_add(hand, card, 1))
            value += chance * (-2 if total > 21 else self.stand(_add(shoe, card, -1), total, 2))
        return value

    def surrender(self, shoe: tuple[int, ...]) -> F:
        if self.rules.surrender is Surrender.EARLY:
            return F(-1, 2)
        if self.peeked:
            return F(-1, 2)
        no_blackjack = self.no_blackjack(shoe)
        return -no_blackjack / 2 - (1 - no_blackjack)

    def values(self, hand: tuple[int, ...]) -> dict[str, F]:
        """Stand, hit, double, surrender of a hand (conditioned on no BJ where peeked)."""
        shoe = self.shoe_for(hand)
        total, _ = _total(hand)
        found = {"stand": self.stand(shoe, total, 1)}
        if total < 21:
            found["hit"] = self.hit(hand, shoe)
        if sum(hand) == 2:
            if self.rules.double.allows(total):
                found["double"] = self.double(hand, shoe)
            if self.rules.surrender is not Surrender.NONE:
                found["surrender"] = self.surrender(shoe)
        return found

    # ---- splits --------------------------------------------------------------------------
    @functools.cache  # noqa: B019
    def split_move(self, hand: tuple[int, ...], pair: int) -> str:
        """The best move allowed after a split, judged outside a split (CDZ-) or with the other
        pair card out of the shoe too (CDP1: the composition right after the split)."""
        total, _ = _total(hand)
        if total == 21 or (pair == ACE and not self.rules.hit_split_aces):
            return "stand"
        shoe = self.shoe_for(hand)
        if self.convention == "cdp1":
            shoe = _add(shoe, pair, -1)
        if sum(hand) > 2:
            return "stand" if self.stand(shoe, total, 1) >= self.hit(hand, shoe) else "hit"
        options = {"stand": self.stand(shoe, total, 1), "hit": self.hit(hand, shoe)}
        if self.rules.double_after_split and pair != ACE and self.rules.double.allows(total):
            options["double"] = self.double(hand, shoe)
        return max(options, key=lambda name: options[name])

    def split_true_game(self, pair: int) -> F:
        """Splitting played out in the true dealing order, resplits up to the rules' limit:
        both new hands get their second cards at once, the left hand is played to the end (a
        resplit hand right after the hand it came from), then the next, then the dealer."""
        start = _add(self.shoe, pair, -2)
        if self.peeked:
            value = F(0)
            for hole, weight in self.hole_cards(start).items():
                value += weight * self._deal_pair(_add(start, hole, -1), pair, hole, (), (), 2)
            return value
        return self._deal_pair(start, pair, None, (), (), 2)

    def _deal_pair(
        self,
        shoe: tuple[int, ...],
        pair: int,
        hole: int | None,
        waiting: tuple[tuple[int, ...], ...],
        done: tuple[tuple[int, int], ...],
        hands: int,
    ) -> F:
        """Two hands of one pair card each get their second cards; play the left one."""
        size = sum(shoe)
        value = F(0)
        for first, count in enumerate(shoe):
            if not count:
                continue
            after_first = _add(shoe, first, -1)
            for second, count2 in enumerate(after_first):
                if not count2:
                    continue
                chance = F(count, size) * F(count2, size - 1)
                left = _add(_add((0,) * 10, pair, 1), first, 1)
                right = _add(_add((0,) * 10, pair, 1), second, 1)
                value += chance * self._play(
                    _add(after_first, second, -1),
                    pair,
                    hole,
                    left,
                    1,
                    (right, *waiting),
                    done,
                    hands,
                )
        return value

    @functools.cache  # noqa: B019
    def _play(
        self,
        shoe: tuple[int, ...],
        pair: int,
        hole: int | None,
        hand: tuple[int, ...],
        stake: int,
        waiting: tuple[tuple[int, ...], ...],
        done: tuple[tuple[int, int], ...],
        hands: int,
    ) -> F:
        """Play ``hand`` on, then the ``waiting`` hands, then settle ``done`` hands."""
        rules = self.rules
        limit = rules.max_hands if (pair != ACE or rules.resplit_aces) else 2
        if hand[pair] == 2 and sum(hand) == 2 and hands < limit:
            return self._deal_pair(shoe, pair, hole, waiting, done, hands + 1)
        total, _ = _total(hand)
        if total > 21:
            return self._next_hand(shoe, pair, hole, waiting, (*done, (22, stake)), hands)
        move = "stand" if stake == 2 else self.split_move(hand, pair)
        if move == "stand":
            return self._next_hand(shoe, pair, hole, waiting, (*done, (total, stake)), hands)
        size = sum(shoe)
        value = F(0)
        for card, count in enumerate(shoe):
            if count:
                value += F(count, size) * self._play(
                    _add(shoe, card, -1),
                    pair,
                    hole,
                    _add(hand, card, 1),
                    2 if move == "double" else 1,
                    waiting,
                    done,
                    hands,
                )
        return value

    def _next_hand(
        self,
        shoe: tuple[int, ...],
        pair: int,
        hole: int | None,
        waiting: tuple[tuple[int, ...], ...],
        done: tuple[tuple[int, int], ...],
        hands: int,
    ) -> F:
        if waiting:
            return self._play(shoe, pair, hole, waiting[0], 1, waiting[1:], done, hands)
        return self._settle(shoe, hole, tuple(sorted(done)))

    @functools.cache  # noqa: B019
    def _settle(
        self, shoe: tuple[int, ...], hole: int | None, done: tuple[tuple[int, int], ...]
    ) -> F:
        if hole is None:
            results = self.dealer_from(shoe)
        else:
            results = self.dealer(shoe, self.upcard + hole + 2, ACE in (self.upcard, hole), 2)
        value = F(0)
        for total, stake in done:
            if total > 21:
                value -= stake
                continue
            for index in (0, 1, 2, 3, 4, 6):
                value += results[index] * stake * self.payoff(total, index)
            if self.rules.enhc_loses is EnhcLoses.ALL:
                value -= results[5] * stake
        if self.rules.enhc_loses is EnhcLoses.ORIGINAL and any(t <= 21 for t, _ in done):
            # Original bets only: the box's remaining stakes lose one original bet in all.
            value -= results[5]
        return value

    # ---- the pair-card model of resplits ---------------------------------------------------
    def fixed_play(self, hand: tuple[int, ...], shoe: tuple[int, ...], pair: int) -> F:
        """A split hand played by its CDZ- moves, unnormalised where peeked."""
        total, _ = _total(hand)
        move = self.split_move(hand, pair)
        scale = self.no_blackjack(shoe) if self.peeked else F(1)
        if move == "stand":
            return scale * self.stand(shoe, total, 1)
        value = F(0)
        for card, chance in self.next_cards(shoe).items():
            grown = _add(hand, card, 1)
            after = _add(shoe, card, -1)
            grown_total, _ = _total(grown)
            if move == "double":
                if grown_total > 21:
                    value += chance * -2
                else:
                    value += chance * self.stand(after, grown_total, 2)
            elif grown_total > 21:
                value -= chance
            else:
                after_scale = self.no_blackjack(after) if self.peeked else F(1)
                value += chance * self.fixed_play(grown, after, pair) / after_scale
        return scale * value

    def split_model(self, pair: int) -> F:
        """Splitting with resplits up to the rules' limit, in the (approximate) pair-card model
        that the engine used before it became exact; kept to measure what it missed."""
        rules = self.rules
        start = _add(self.shoe, pair, -2)
        pair_left, others = start[pair], sum(start) - start[pair]
        limit = rules.max_hands if (pair != ACE or rules.resplit_aces) else 2

        def hand_value(second: int, pairs_out: int) -> F:
            hand = _add(_add((0,) * 10, pair, 1), second, 1)
            shoe = _add(_add(start, pair, -pairs_out), second, -1)
            return self.fixed_play(hand, shoe, pair)

        def non_pair(pairs_out: int) -> F:
            return sum(
                (
                    F(start[s], others) * hand_value(s, pairs_out)
                    for s in range(10)
                    if s != pair and start[s]
                ),
                F(0),
            )

        def any_card(pairs_out: int) -> F:
            left = start[pair] - pairs_out + others
            value = F(0)
            for s in range(10):
                count = start[s] - (pairs_out if s == pair else 0)
                if count > 0:
                    value += F(count, left) * hand_value(s, pairs_out)
            return value

        # Walk the second cards one at a time: (pairs drawn, non-pairs drawn, hands, waiting).
        finished: list[tuple[F, int, str]] = []

        def walk(chance: F, pairs: int, non_pairs: int, hands: int, waiting: int) -> None:
            if waiting == 0 or chance == 0:
                return
            if hands >= limit:
                finished.extend([(chance, pairs, "any")] * waiting)
                return
            left = pair_left + others - pairs - non_pairs
            p = F(pair_left - pairs, left)
            walk(chance * p, pairs + 1, non_pairs, hands + 1, waiting + 1)
            finished.append((chance * (1 - p), pairs, "non_pair"))
            walk(chance * (1 - p), pairs, non_pairs + 1, hands, waiting - 1)

        walk(F(1), 0, 0, 2, 2)
        total = F(0)
        for chance, pairs_out, kind in finished:
            if chance:
                total += chance * (
                    non_pair(pairs_out) if kind == "non_pair" else any_card(pairs_out)
                )
        if self.peeked:
            total /= self.no_blackjack(start)
        return total
