"""The hand calculator: the exact EV of every option of one hand against one up card.

The shoe is the rules' full shoe less the hand's cards and the up card, and the values are the
exact analysis's own (:func:`twentyone.analysis.hand_ev.hand_ev`, which shares the up card's
pass with ``analyze``): composition dependent, splits played CDZ- (or CDP1), and, where the
dealer peeks under the up card, conditioned on his not holding a blackjack, as the published
hand calculators give them. Without a peek a dealer blackjack takes what the rules say.

Cards are given with or without suits (``8S``, ``8``, ``T``, ``10``, ``K``); a suited card may
appear at most as often as the decks hold it, and every value at most as often as the shoe does.

>>> from twentyone.rules import Rules
>>> calc = calculate(Rules(decks=1), ["6", "4"], "A")
>>> calc.best, round(calc.actions["hit"], 6), calc.peeked
('hit', 0.081506, True)
>>> round(calc.insurance or 0.0, 6)  # 16 tens among the 49 cards unseen: 3 * 16/49 - 1
-0.020408
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from twentyone.analysis.engine import check_convention, is_peeked
from twentyone.analysis.hand_ev import hand_ev
from twentyone.analysis.shoe_counts import (
    ACE,
    LABELS,
    TEN,
    full_shoe_counts,
    infinite_probabilities,
    label_index,
)
from twentyone.cards import Card
from twentyone.errors import InvalidCardError
from twentyone.hand import best_total, is_soft
from twentyone.rules import Rules, Surrender, Ties

#: The order options are listed in (the best one is marked, not moved).
ACTIONS = ("stand", "hit", "double", "split", "surrender")


@dataclass(frozen=True)
class PlayerCard:
    """One card as given: its value index (ace = 0, any ten = 9) and the suited card, if any."""

    text: str
    value: int
    card: Card | None

    @classmethod
    def parse(cls, text: str) -> PlayerCard:
        """``8S`` (a suited card) or ``8`` / ``T`` / ``10`` / ``K`` (a value)."""
        if not isinstance(text, str):
            raise InvalidCardError(f"a card is text like '8S' or '8', got {text!r}")
        cleaned = text.strip().upper()
        rank_only = {"J": "T", "Q": "T", "K": "T"}.get(cleaned, cleaned)
        if rank_only in LABELS or rank_only == "10":
            return cls(cleaned, label_index(rank_only), None)
        try:
            card = Card.parse(cleaned)
        except InvalidCardError:
            raise InvalidCardError(
                f"unknown card {text!r}: expected a value (A, 2-9, T/10, J, Q, K), optionally "
                "followed by a suit (S, H, D, C)"
            ) from None
        return cls(str(card), card.value - 1, card)


@dataclass(frozen=True)
class HandCalculation:
    """Every option's EV per initial bet (``actions``; floats), exact fractions where they
    are computed (every option on the infinite shoe; standing and surrendering on a finite
    one), and insurance per unit insured."""

    rules: Rules
    hand: tuple[PlayerCard, ...]
    upcard: PlayerCard
    total: int
    soft: bool
    blackjack: bool
    #: Values are conditioned on no dealer blackjack (he peeked under this up card).
    peeked: bool
    #: The shoe the values are computed from, by value (A, 2..9, T); None: infinite.
    remaining: tuple[int, ...] | None
    actions: dict[str, float]
    exact: dict[str, Fraction] | None
    insurance: float | None
    insurance_exact: Fraction | None
    convention: str = "cdz-"
    #: P(dealer blackjack) where early surrender is decided before a peek: the surrender's
    #: -1/2 is then compared with the other options before the peek (None otherwise).
    early_surrender_blackjack: Fraction | None = None

    @property
    def decision_values(self) -> dict[str, float]:
        """The options' EVs on the footing the choice is made on: ``actions``, except that
        early surrender before a peek is weighed against the other options before the peek
        (each also losing one bet to a dealer blackjack)."""
        values = dict(self.actions)
        chance = self.early_surrender_blackjack
        if chance is not None and "surrender" in values:
            for name in values:
                if name != "surrender":
                    values[name] = values[name] * (1 - float(chance)) - float(chance)
        return values

    @property
    def best(self) -> str:
        """The option of the highest EV (the first listed wins a tie within 1e-12)."""
        values = self.decision_values
        top = max(values.values())
        return next(name for name, value in values.items() if value >= top - 1e-12)

    def cost(self, name: str) -> float:
        """What choosing ``name`` gives away against the best option, per initial bet."""
        values = self.decision_values
        return max(max(values.values()) - values[name], 0.0)

    @property
    def pair(self) -> bool:
        return len(self.hand) == 2 and self.hand[0].value == self.hand[1].value

    @property
    def hand_type(self) -> str:
        """``pair``, ``soft`` or ``hard`` (a pair of aces is a pair)."""
        if self.pair:
            return "pair"
        return "soft" if self.soft else "hard"

    def to_json(self) -> dict[str, Any]:
        """EVs as floats and, where exact, as fraction strings ``"n/d"``."""

        def entry(name: str, value: float, exact: Fraction | None) -> dict[str, Any]:
            return {"ev": value, "exact": None if exact is None else _fraction(exact)}

        exact = self.exact or {}
        return {
            "rules": self.rules.to_json(),
            "hand": [card.text for card in self.hand],
            "upcard": self.upcard.text,
            "total": self.total,
            "soft": self.soft,
            "blackjack": self.blackjack,
            "conditioned_on_no_dealer_blackjack": self.peeked,
            "split_strategy": self.convention,
            "surrender_before_peek": self.early_surrender_blackjack is not None,
            "remaining": None
            if self.remaining is None
            else dict(zip(LABELS, self.remaining, strict=True)),
            "actions": {
                name: entry(name, value, exact.get(name)) for name, value in self.actions.items()
            },
            "best": self.best,
            "insurance": None
            if self.insurance is None
            else entry("insurance", self.insurance, self.insurance_exact),
        }


def _fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def parse_hand(cards: Sequence[str]) -> tuple[PlayerCard, ...]:
    return tuple(PlayerCard.parse(text) for text in cards)


def remaining_shoe(
    rules: Rules, hand: Sequence[PlayerCard], upcard: PlayerCard
) -> tuple[int, ...] | None:
    """The shoe's counts by value less the given cards (None: infinite, nothing to remove);
    raise :class:`InvalidCardError` naming a card the shoe cannot hold that often."""
    if rules.decks is None:
        return None
    cards = [*hand, upcard]
    suited = Counter(card.card for card in cards if card.card is not None)
    for suited_card, count in suited.items():
        if count > rules.decks:
            raise InvalidCardError(
                f"card {suited_card} is given {count} times but a {rules.decks}-deck shoe holds "
                f"only {rules.decks}"
            )
    counts = list(full_shoe_counts(rules.decks))
    for card in cards:
        if counts[card.value] == 0:
            raise InvalidCardError(
                f"card {card.text}: a {rules.decks}-deck shoe holds only "
                f"{full_shoe_counts(rules.decks)[card.value]} cards of value {LABELS[card.value]}"
            )
        counts[card.value] -= 1
    return tuple(counts)


def calculate(
    rules: Rules,
    cards: Sequence[str],
    upcard: str,
    *,
    convention: str = "cdz-",
    exact: bool = True,
) -> HandCalculation:
    """The calculator's answer for ``cards`` (two or more) against ``upcard``; ``exact``:
    also the exact fractions where the analysis has them (the infinite shoe).

    Raises :class:`InvalidCardError` for an unknown card, a card the shoe does not hold that
    often, fewer than two cards, or a hand already bust."""
    check_convention(convention)
    hand = parse_hand(cards)
    up = PlayerCard.parse(upcard)
    if len(hand) < 2:
        raise InvalidCardError(f"a hand has at least two cards, got {len(hand)}")
    hard = sum(card.value + 1 for card in hand)
    has_ace = any(card.value == ACE for card in hand)
    if hard > 21:
        raise InvalidCardError(
            f"the hand {' '.join(card.text for card in hand)} is bust (hard {hard})"
        )
    remaining = remaining_shoe(rules, hand, up)
    values = [card.value for card in hand]
    total = best_total(hard, has_ace)
    natural = len(hand) == 2 and set(values) == {ACE, TEN}
    peeked = is_peeked(rules, up.value)
    blackjack_chance = _dealer_blackjack(remaining, up.value)
    fractions: dict[str, Fraction] | None = None
    if natural:
        # Paid at once; a dealer blackjack (only an unpeeked one remains possible) pushes it.
        pays = Fraction(rules.blackjack_pays)
        value = pays if peeked else pays * (1 - blackjack_chance)
        actions = {"blackjack": float(value)}
        fractions = {"blackjack": value} if exact else None
    else:
        ev = hand_ev(rules, [LABELS[v] for v in values], LABELS[up.value], convention=convention)
        actions = ev.options
        if remaining is None and exact:
            found = _exact_options(rules, tuple(values), up.value, peeked, blackjack_chance)
            fractions = {name: value for name, value in found.items() if name in actions}
        elif remaining is not None and exact:
            found = _exact_finite(rules, remaining, up.value, total, peeked, blackjack_chance)
            fractions = {name: value for name, value in found.items() if name in actions}
    insurance, insurance_exact = None, None
    if rules.insurance and up.value == ACE:
        if remaining is None:
            insurance_exact = 3 * infinite_probabilities()[TEN] - 1
        else:
            insurance_exact = Fraction(3 * remaining[TEN], sum(remaining)) - 1
        insurance = float(insurance_exact)
    return HandCalculation(
        rules=rules,
        hand=hand,
        upcard=up,
        total=total,
        soft=is_soft(hard, has_ace),
        blackjack=natural,
        peeked=peeked,
        remaining=remaining,
        actions=actions,
        exact=fractions,
        insurance=insurance,
        insurance_exact=insurance_exact,
        convention=convention,
        early_surrender_blackjack=(
            blackjack_chance
            if peeked and rules.surrender is Surrender.EARLY and not natural
            else None
        ),
    )


def _exact_finite(
    rules: Rules,
    remaining: tuple[int, ...],
    upcard: int,
    total: int,
    peeked: bool,
    blackjack: Fraction,
) -> dict[str, Fraction]:
    """A finite shoe: the options whose exact value needs only the dealer's exact results
    (standing, surrendering); hitting, doubling and splitting stay floats."""
    from twentyone.analysis.dealer import dealer_distribution

    shoe = list(remaining)
    shoe[upcard] += 1  # the dealer's distribution takes the shoe with its up card
    dealer = dealer_distribution(rules, upcard, shoe, no_blackjack=peeked, exact=True)
    stand = dealer["bust"] - dealer["blackjack"]
    for name in ("17", "18", "19", "20", "21"):
        if total > int(name):
            stand += dealer[name]
        elif total < int(name) or rules.ties is Ties.DEALER_WINS:
            stand -= dealer[name]
    found = {"stand": stand}
    if rules.surrender is Surrender.EARLY:
        found["surrender"] = Fraction(-1, 2)
    elif rules.surrender is Surrender.LATE:
        # Half back unless the dealer has blackjack (after a peek he has none).
        found["surrender"] = Fraction(-1, 2) if peeked else -(1 - blackjack) / 2 - blackjack
    return found


def _dealer_blackjack(remaining: tuple[int, ...] | None, upcard: int) -> Fraction:
    """P(the hole card makes a blackjack) from the shoe that remains."""
    if upcard not in (ACE, TEN):
        return Fraction(0)
    hole = TEN if upcard == ACE else ACE
    if remaining is None:
        return infinite_probabilities()[hole]
    return Fraction(remaining[hole], sum(remaining))


def _exact_options(
    rules: Rules, values: tuple[int, ...], upcard: int, peeked: bool, blackjack: Fraction
) -> dict[str, Fraction]:
    """Infinite shoe: the exact analysis's values, scaled as :func:`hand_ev` scales them."""
    from twentyone.analysis.exact import exact_hand_options

    found = exact_hand_options(rules, values, upcard)
    scale = 1 - blackjack if peeked else Fraction(1)
    scaled = {name: value / scale for name, value in found.items()}
    if len(values) == 2 and rules.surrender is Surrender.EARLY:
        scaled["surrender"] = Fraction(-1, 2)
    return {name: scaled[name] for name in ACTIONS if name in scaled}
