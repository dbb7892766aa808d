"""The standard 350-step price ladder, from 1.01 to 1000, as exact integer hundredths.

A price is stored as its ladder index (0 = 1.01, 349 = 1000); ``PRICES_IN_HUNDREDTHS[i]``
is the price times 100, so every figure stays an integer and no binary float is involved.
Prices come in as text (``"2.5"``: ASCII digits, one point, at most two decimals, read by a
pattern before any arithmetic), :class:`~decimal.Decimal`, :class:`~fractions.Fraction` or
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

import re
from bisect import bisect_left, bisect_right
from decimal import Decimal
from fractions import Fraction

from twentyone.errors import shown
from twentyone.market.errors import InvalidPriceError, OffLadderError

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


def _text(hundredths: int) -> str:
    whole, cents = divmod(hundredths, 100)
    if cents == 0:
        return str(whole)
    return f"{whole}.{cents:02d}".rstrip("0")


PriceInput = str | Decimal | Fraction | int

#: Price text: ASCII digits, no leading zero, at most one point and two decimals. Read by this
#: pattern before any arithmetic, so that ``"1e-5000"``, ``"2_5"``, ``"٢.٥"``, ``" 2.5"`` or
#: ``"Infinity"`` never reach :class:`~decimal.Decimal` (whose exponents can take minutes).
_PRICE_TEXT = re.compile(r"(?:0|[1-9][0-9]{0,6})(?:\.[0-9]{1,2})?")
_LONGEST_TEXT = 10
#: The largest figure, in hundredths, read as a price at all (ten million): anything above is
#: refused as "not a price" before any arithmetic; 1,000.01 to 10,000,000 are "off the ladder".
_MAX_HUNDREDTHS = 10**9
_NOT_A_PRICE = "give decimal text with ASCII digits and at most two decimals, such as '2.5'"
#: The shortest text of every ladder price (what the views print): the common case's parse.
TEXT_INDEX = {_text(price): index for index, price in enumerate(PRICES_IN_HUNDREDTHS)}


def hundredths_of(price: PriceInput) -> int:
    """A price as an exact whole number of hundredths, or :class:`InvalidPriceError`.

    Text must match the pattern (ASCII digits, at most one point and two decimals); a
    :class:`~decimal.Decimal` or :class:`~fractions.Fraction` must be a whole number of
    hundredths; an ``int`` is a whole price. Every check is on the input's size before any
    arithmetic, so that a hostile value costs no more than a valid one. A ``float`` (its value
    is not the literal that was typed) and a ``bool`` are refused.

    >>> hundredths_of("2.5"), hundredths_of(Decimal("2.500")), hundredths_of(Fraction(21, 20))
    (250, 250, 105)
    >>> hundredths_of("2_5")
    Traceback (most recent call last):
    ...
    twentyone.market.errors.InvalidPriceError: '2_5' is not a price: give decimal text with ASCII digits and at most two decimals, such as '2.5'
    """
    kind = type(price)
    if kind is str:
        text: str = price  # type: ignore[assignment]
        if len(text) > _LONGEST_TEXT or not _PRICE_TEXT.fullmatch(text):
            raise InvalidPriceError(f"{shown(text)} is not a price: {_NOT_A_PRICE}")
        whole, _, cents = text.partition(".")
        return int(whole) * 100 + int(cents.ljust(2, "0") or "0")
    if kind is int:
        number: int = price  # type: ignore[assignment]
        if 0 <= number <= _MAX_HUNDREDTHS // 100:
            return number * 100
    elif kind is Fraction:
        value: Fraction = price  # type: ignore[assignment]
        numerator, denominator = value.numerator, value.denominator
        if 0 <= numerator <= _MAX_HUNDREDTHS and 100 % denominator == 0:
            return numerator * (100 // denominator)
    elif kind is Decimal:
        decimal: Decimal = price  # type: ignore[assignment]
        if decimal.is_finite() and not decimal.is_signed():
            _, digits, exponent = decimal.as_tuple()
            assert isinstance(exponent, int)  # finite
            count = len(digits)
            while count > 1 and exponent < -2 and digits[count - 1] == 0:
                count -= 1  # trailing zeros of the decimals: 2.500 is 2.5
                exponent += 1
            if count <= 12 and -2 <= exponent <= 9:
                figure: int = int("".join(map(str, digits[:count]))) * 10 ** (exponent + 2)
                if figure <= _MAX_HUNDREDTHS:
                    return figure
    elif kind is float or kind is bool:
        raise InvalidPriceError(
            f"price {shown(price)} is a binary float or a bool: give prices as decimal text"
            " such as '2.5'"
        )
    else:
        raise InvalidPriceError(
            f"{shown(price)} is not a price: give decimal text, a Decimal, a Fraction or an int"
        )
    raise InvalidPriceError(
        f"{shown(price)} is not a price: a price is a positive number with at most two decimals"
    )


def to_fraction(price: PriceInput) -> Fraction:
    """The exact value of a price given as text, Decimal, Fraction or int (never a float)."""
    return Fraction(hundredths_of(price), 100)


def index_of(price: PriceInput) -> int:
    """The ladder index of an exact price; :class:`OffLadderError` if it is not on the ladder.

    (:class:`InvalidPriceError`, a kind of :class:`OffLadderError`, if it is not a price.)
    """
    if type(price) is str:
        found = TEXT_INDEX.get(price)
        if found is not None:
            return found
    return index_of_hundredths(hundredths_of(price))


def index_of_hundredths(hundredths: int) -> int:
    """The ladder index of a price in hundredths (from :func:`hundredths_of`)."""
    found = _INDEX.get(hundredths)
    if found is not None:
        return found
    shown_price = _text(hundredths)
    if hundredths < 101 or hundredths > 100_000:
        raise OffLadderError(f"price {shown_price} is off the ladder: prices run from 1.01 to 1000")
    for start, end, step in _BANDS:
        if start < hundredths <= end:
            below = bisect_right(PRICES_IN_HUNDREDTHS, hundredths) - 1
            above = below + 1
            raise OffLadderError(
                f"price {shown_price} is not on the ladder: between {_text(start)} and"
                f" {_text(end)} prices go in steps of {_text(step)} (nearest:"
                f" {price_text(below)}, {price_text(above)})"
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
