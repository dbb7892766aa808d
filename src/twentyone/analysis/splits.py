"""How a split unfolds: the expected number of finished hands by pair cards drawn.

Only whether each second card is a pair card matters to the shape of a split (resplit or not),
so the shape is a small random process over (pair cards drawn, other cards drawn, hands, hands
waiting for a second card). Draws made while another split is still possible are "relevant":
their pair cards are tracked (``K`` of them); a hand finished by a relevant non-pair card has
a known non-pair second card; hands dealt once no resplit is possible take any card.

>>> from fractions import Fraction
>>> shape = split_shape(max_hands=2, can_resplit=True, pair_cards=Fraction(2), others=Fraction(10))
>>> shape.any_card, shape.non_pair
({0: Fraction(2, 1)}, {})
>>> shape = split_shape(max_hands=3, can_resplit=True, pair_cards=Fraction(1, 13), others=None)
>>> sum(shape.non_pair.values()) + sum(shape.any_card.values())  # 2 + 2q - q**2
Fraction(363, 169)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, TypeVar

Number = TypeVar("Number", float, Fraction)


@dataclass
class SplitShape(Generic[Number]):
    """``non_pair[K]`` / ``any_card[K]``: expected number of finished hands whose second card
    was a known non-pair card / any card, ``K`` pair cards having been drawn before it.

    ``non_pair_after[K, N]`` / ``any_card_after[K, N]``: the same, split further by the number
    ``N`` of known non-pair second cards drawn before it (the exact finite-shoe method)."""

    non_pair: dict[int, Number] = field(default_factory=dict)
    any_card: dict[int, Number] = field(default_factory=dict)
    non_pair_after: dict[tuple[int, int], Number] = field(default_factory=dict)
    any_card_after: dict[tuple[int, int], Number] = field(default_factory=dict)


def split_shape(
    max_hands: int, can_resplit: bool, pair_cards: Number, others: Number | None
) -> SplitShape[Number]:
    """The shape of splitting one pair.

    ``pair_cards``/``others``: pair cards and other cards left in the shoe after the up card and
    the two pair cards, or (``others=None``) the probability of a pair card in an infinite shoe.
    """
    shape: SplitShape[Number] = SplitShape()
    zero = pair_cards * 0
    limit = max_hands if can_resplit else 2
    # The state is (pair cards drawn, non-pair cards drawn by relevant draws): hands = 2 + pairs,
    # hands waiting for a second card = 2 + pairs - non_pairs. Pair draws only increase hands,
    # so sweeping pairs then non_pairs in increasing order visits every state after its sources.
    mass: dict[tuple[int, int], Number] = {(0, 0): zero + 1}
    for pairs in range(max(limit - 1, 1)):
        for non_pairs in range(pairs + 2):
            probability = mass.pop((pairs, non_pairs), zero)
            waiting = 2 + pairs - non_pairs
            if probability == 0 or waiting == 0:
                continue
            if 2 + pairs >= limit:
                _add(shape.any_card, pairs, probability * waiting, zero)
                _add(shape.any_card_after, (pairs, non_pairs), probability * waiting, zero)
                continue
            pair_probability = _pair_chance(pair_cards, others, pairs, non_pairs)
            if pair_probability > 0:
                key = (pairs + 1, non_pairs)
                mass[key] = mass.get(key, zero) + probability * pair_probability
            if pair_probability < 1:
                _add(shape.non_pair, pairs, probability * (1 - pair_probability), zero)
                _add(
                    shape.non_pair_after,
                    (pairs, non_pairs),
                    probability * (1 - pair_probability),
                    zero,
                )
                key = (pairs, non_pairs + 1)
                mass[key] = mass.get(key, zero) + probability * (1 - pair_probability)
    return shape


Key = TypeVar("Key", int, tuple[int, int])


def all_hands_chance(
    max_hands: int,
    can_resplit: bool,
    pair_cards: Number,
    others: Number | None,
    chances: Callable[[int, int], tuple[Number, Number]],
) -> Number:
    """E[product over the finished hands of their chance]: ``chances(K, N)`` = (chance of a
    hand whose second card is a known non-pair card, of one whose second card is any card),
    ``K`` pair cards and ``N`` non-pair cards having been drawn before it. With each hand's
    bust chance this is P(every split hand busts) when the hands bust independently given
    the split's shape, as on the infinite shoe (finite shoes: :mod:`split_busts`; the same
    walk as :func:`split_shape`; arguments as there).

    >>> all_hands_chance(2, True, Fraction(1, 4), None, lambda k, n: (Fraction(1, 2), Fraction(2, 5)))
    Fraction(4, 25)
    """
    zero = pair_cards * 0
    limit = max_hands if can_resplit else 2
    result = zero
    mass: dict[tuple[int, int], Number] = {(0, 0): zero + 1}
    for pairs in range(max(limit - 1, 1)):
        for non_pairs in range(pairs + 2):
            probability = mass.pop((pairs, non_pairs), zero)
            if probability == 0:
                continue
            waiting = 2 + pairs - non_pairs
            non_pair_chance, any_chance = chances(pairs, non_pairs)
            if 2 + pairs >= limit:
                result += probability * any_chance**waiting
                continue
            pair_probability = _pair_chance(pair_cards, others, pairs, non_pairs)
            if pair_probability > 0:
                key = (pairs + 1, non_pairs)
                mass[key] = mass.get(key, zero) + probability * pair_probability
            if pair_probability < 1:
                key = (pairs, non_pairs + 1)
                share = probability * (1 - pair_probability) * non_pair_chance
                mass[key] = mass.get(key, zero) + share
    # What is left are the states where every hand has finished.
    return result + sum(mass.values(), zero)


def _pair_chance(pair_cards: Number, others: Number | None, pairs: int, non_pairs: int) -> Number:
    """P(the next relevant second card is a pair card) once ``pairs`` pair cards and
    ``non_pairs`` other cards have been drawn (``others=None``: infinite shoe, ``pair_cards``
    is the probability)."""
    if others is None:
        return pair_cards
    left = pair_cards + others - pairs - non_pairs
    return (pair_cards - pairs) / left if left > 0 else pair_cards * 0


def _add(table: dict[Key, Number], key: Key, amount: Number, zero: Number) -> None:
    table[key] = table.get(key, zero) + amount
