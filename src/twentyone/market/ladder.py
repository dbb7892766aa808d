"""The standard 350-step price ladder, from 1.01 to 1000, as exact integer hundredths.

A price is stored as its ladder index (0 = 1.01, 349 = 1000); ``PRICES_IN_HUNDREDTHS[i]``
is the price times 100, so every figure stays an integer and no binary float is involved.
Prices come in as text (``"2.5"``), :class:`~decimal.Decimal`, :class:`~fractions.Fraction` or
``int``; a float is refused because its value is not the literal the customer typed.

>>> len(PRICES_IN_HUNDREDTHS), price_text(0), price_text(349)
(350, '1.01', '1000')
>>> index_of("2.5") == index_of(Decimal("2.50")), price_text(index_of("3.05"))
(True, '3.05')
>>> index_of("2.01")
Traceback (most recent call last):
...
twentyone.market.errors.OffLadderError: price 2.01 is not on the ladder: between 2 and 3 prices go in steps of 0.02 (nearest: 2, 2.02)
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache

from twentyone.market.errors import OffLadderError

#: (start, end, step) in hundredths: prices above ``start`` up to ``end`` in steps of ``step``.
_BANDS: tuple[tuple[int, int, int], ...] = (
    (100, 200, 1),
    (200, 300, 2),
    (300, 400, 5),
    (400, 600, 10),
    (600, 1000, 20),
    (1000, 2000, 50),
    (2000, 3000, 100),
    (3000, 5000, 200),
    (5000, 10000, 500),
    (10000, 100000, 1000),
)

PRICES_IN_HUNDREDTHS: tuple[int, ...] = tuple(
    price for start, end, step in _BANDS for price in range(start + step, end + 1, step)
)
_INDEX = {price: index for index, price in enumerate(PRICES_IN_HUNDREDTHS)}
LADDER_SIZE = len(PRICES_IN_HUNDREDTHS)
MIN_INDEX = 0
MAX_INDEX = LADDER_SIZE - 1

PriceInput = str | Decimal | Fraction | int


def to_fraction(price: PriceInput) -> Fraction:
    """The exact value of a price given as text, Decimal, Fraction or int (never a float)."""
    if isinstance(price, bool | float):
        raise OffLadderError(
            f"price {price!r} is a binary float: give prices as decimal text such as '2.5'"
        )
    if isinstance(price, Fraction | int):
        return Fraction(price)
    if isinstance(price, Decimal):
        if not price.is_finite():
            raise OffLadderError(f"price {price} is not a number on the ladder")
        return Fraction(price)
    if isinstance(price, str):
        try:
            value = Decimal(price.strip())
        except InvalidOperation:
            raise OffLadderError(f"price {price!r} is not a decimal number") from None
        if not value.is_finite():
            raise OffLadderError(f"price {price!r} is not a number on the ladder")
        return Fraction(value)
    raise OffLadderError(f"price {price!r} must be decimal text, a Decimal, a Fraction or an int")


def index_of(price: PriceInput) -> int:
    """The ladder index of an exact price; :class:`OffLadderError` if it is not on the ladder."""
    try:
        return _cached_index(price)
    except TypeError:  # an unhashable input (a signalling NaN): parse it without the cache
        return _index_of(price)


@lru_cache(maxsize=4096, typed=True)  # typed: 2.5 (refused) and "2.5" stay different keys
def _cached_index(price: PriceInput) -> int:
    return _index_of(price)


def _index_of(price: PriceInput) -> int:
    value = to_fraction(price)
    hundredths = value * 100
    if hundredths.denominator == 1:
        found = _INDEX.get(hundredths.numerator)
        if found is not None:
            return found
    shown = _show(value)
    if value < Fraction(101, 100) or value > 1000:
        raise OffLadderError(f"price {shown} is off the ladder: prices run from 1.01 to 1000")
    for start, end, step in _BANDS:
        if start < hundredths <= end:
            below = bisect_right(PRICES_IN_HUNDREDTHS, int(hundredths)) - 1
            above = below + 1
            raise OffLadderError(
                f"price {shown} is not on the ladder: between {_text(start)} and {_text(end)}"
                f" prices go in steps of {_text(step)} (nearest: {price_text(below)},"
                f" {price_text(above)})"
            )
    raise AssertionError("unreachable: every price in range falls in a band")  # pragma: no cover


def price_text(index: int) -> str:
    """The price at a ladder index as the shortest decimal text (``'2.5'``, ``'1000'``)."""
    return _text(PRICES_IN_HUNDREDTHS[index])


def price_fraction(index: int) -> Fraction:
    return Fraction(PRICES_IN_HUNDREDTHS[index], 100)


def index_below(value: Fraction, steps: int) -> int | None:
    """The ``steps``-th ladder price strictly below ``value`` (1 = the nearest), or ``None``.

    >>> price_text(index_below(Fraction(5, 2), 2) or 0)
    '2.46'
    """
    first = bisect_left(PRICES_IN_HUNDREDTHS, value * 100) - 1  # last index with price < value
    found = first - (steps - 1)
    return found if found >= 0 else None


def index_above(value: Fraction, steps: int) -> int | None:
    """The ``steps``-th ladder price strictly above ``value`` (1 = the nearest), or ``None``.

    >>> price_text(index_above(Fraction(5, 2), 2) or 0)
    '2.54'
    """
    first = bisect_right(PRICES_IN_HUNDREDTHS, value * 100)  # first index with price > value
    found = first + (steps - 1)
    return found if found < LADDER_SIZE else None


def _text(hundredths: int) -> str:
    whole, cents = divmod(hundredths, 100)
    if cents == 0:
        return str(whole)
    return f"{whole}.{cents:02d}".rstrip("0")


def _show(value: Fraction) -> str:
    if (value * 10**6).denominator == 1:
        return str(Decimal(value.numerator) / Decimal(value.denominator))
    return str(value)
