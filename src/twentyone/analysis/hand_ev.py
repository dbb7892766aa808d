"""Expected values of every option of one player hand against one up card.

Values are composition dependent (the hand's cards and the up card are removed from the shoe)
and, where the dealer peeks under the up card, conditioned on no dealer blackjack. In a game
without a peek they are plain expectations, a dealer blackjack taking what the rules say.

>>> from twentyone.rules import Rules
>>> ev = hand_ev(Rules(decks=1), ["6", "4"], "A")
>>> round(ev.stand, 6), round(ev.hit, 6), round(ev.double, 6)
(-0.636118, 0.081506, 0.048615)
>>> ev.best
'hit'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from twentyone.analysis.engine import (
    cached_context,
    can_split,
    may_double,
    prepare,
    split_strategy,
    split_value,
)
from twentyone.analysis.shoe_counts import label_index
from twentyone.errors import InvalidCardError
from twentyone.rules import Rules, Surrender


@dataclass(frozen=True)
class HandEV:
    """EV of each option (None where the option is not allowed for this hand)."""

    stand: float
    hit: float | None
    double: float | None
    split: float | None
    surrender: float | None

    @property
    def options(self) -> dict[str, float]:
        named = {
            "stand": self.stand,
            "hit": self.hit,
            "double": self.double,
            "split": self.split,
            "surrender": self.surrender,
        }
        return {name: value for name, value in named.items() if value is not None}

    @property
    def best(self) -> str:
        options = self.options
        return max(options, key=lambda name: options[name])


def hand_ev(
    rules: Rules,
    hand: Sequence[str],
    upcard: str,
    shoe: Sequence[int] | None = None,
    *,
    convention: str = "cdz-",
) -> HandEV:
    """The options of ``hand`` (card values such as ``["T", "6"]``) against ``upcard``.

    ``shoe``: counts by value (A, 2..9, T) before the deal (default: the full shoe);
    ``convention``: how split hands are played, ``"cdz-"`` or ``"cdp1"``.
    A two-card hand may double, split and surrender as the rules allow; a longer hand may
    only stand or hit. A blackjack is valued as an ordinary 21 here.
    """
    values = [label_index(card) for card in hand]
    if len(values) < 2:
        raise InvalidCardError(f"a hand has at least two cards, got {len(values)}")
    if sum(value + 1 for value in values) > 21:
        raise InvalidCardError(f"the hand {' '.join(hand)} is bust")
    up = label_index(upcard)
    setup = prepare(rules, shoe, convention=convention)
    counts = [0] * 10
    for value in values:
        counts[value] += 1
    counts[up] += 1
    if not setup.infinite and any(
        need > have for need, have in zip(counts, setup.shoe, strict=True)
    ):
        raise InvalidCardError("the shoe does not hold the hand and the up card")
    # The up card's optimal pass is the heavy part; it is shared by every hand (and by the
    # overall analysis) of the same rules and shoe.
    context = cached_context(setup, up)
    index = setup.space.index(tuple(values))
    base = context.base
    scale = float(base.no_blackjack[index]) if context.peeked else 1.0
    total = int(setup.space.total[index])
    two_cards = len(values) == 2
    pair = values[0] if two_cards and values[0] == values[1] else None
    split = None
    if pair is not None and can_split(rules, pair):
        split_ev = split_value(context, pair, split_strategy(context, pair))
        split = split_ev / scale if split_ev == split_ev else None
    surrender = None
    if two_cards and rules.surrender is not Surrender.NONE:
        if rules.surrender is Surrender.EARLY:
            surrender = -0.5  # decided before any peek: half the bet whatever the dealer holds
        else:
            surrender = context.surrender_value(index) / scale
    return HandEV(
        stand=float(base.stand1[index]) / scale,
        hit=None if total == 21 else float(base.hit[index]) / scale,
        double=(
            float(base.double[index]) / scale if two_cards and may_double(rules, total) else None
        ),
        split=split,
        surrender=surrender,
    )
