"""Money: integer minor units, exact ratios, rounding down. Never floats.

Every amount the library accepts goes through :func:`check_amount` (an ``int``, never a
``bool``, a float or a string); payouts multiply by exact :class:`~fractions.Fraction` ratios
and round down (:func:`apply_ratio`); text from people is read by :func:`parse_money`, which
accepts plain decimal text with at most two places and nothing else.

>>> check_amount(250)
250
>>> check_amount(2.5)
Traceback (most recent call last):
...
twentyone.money.MoneyError: an amount must be a whole number of minor units (an int), not 2.5
>>> apply_ratio(1050, Fraction(3, 2)), apply_ratio(-1050, Fraction(3, 2))
(1575, -1575)
>>> parse_money("1,000.50"), format_money(100050), format_money(-5)
(100050, '1,000.50', '-0.05')
>>> parse_money("1e400")
Traceback (most recent call last):
...
twentyone.money.MoneyError: '1e400' is not an amount (digits, with at most two decimals, like 12.50)
"""

from __future__ import annotations

import re
from fractions import Fraction

from twentyone.errors import TwentyOneError, shown

__all__ = [
    "MAX_AMOUNT",
    "MoneyError",
    "apply_ratio",
    "check_amount",
    "check_ratio",
    "format_money",
    "parse_money",
]

#: The largest amount anywhere (10^15 minor units: ten trillion in a two-decimal currency).
#: Far above any table or balance; it bounds the arithmetic a hostile value can cause.
MAX_AMOUNT = 10**15


class MoneyError(TwentyOneError):
    """An amount or a ratio is not a valid value of money."""


def check_amount(
    value: object, what: str = "an amount", *, minimum: int = 0, maximum: int = MAX_AMOUNT
) -> int:
    """``value`` if it is an ``int`` (not a ``bool``) within ``[minimum, maximum]``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise MoneyError(
            f"{what} must be a whole number of minor units (an int), not {shown(value)}"
        )
    if value < minimum or value > maximum:
        raise MoneyError(
            f"{what} must be between {format_money(minimum)} and {format_money(maximum)},"
            f" not {format_money(value) if abs(value) <= MAX_AMOUNT else shown(value)}"
        )
    return value


def check_ratio(
    value: object,
    what: str = "a ratio",
    *,
    minimum: Fraction = Fraction(0),
    maximum: Fraction | None = None,
) -> Fraction:
    """``value`` as a ``Fraction`` if it is an exact ratio (``Fraction`` or ``int``) in range."""
    if isinstance(value, bool) or not isinstance(value, Fraction | int):
        raise MoneyError(f"{what} must be an exact fraction, not {shown(value)}")
    ratio = Fraction(value)
    if ratio < minimum or (maximum is not None and ratio > maximum):
        upper = "" if maximum is None else f" and at most {maximum}"
        raise MoneyError(f"{what} must be at least {minimum}{upper}, not {shown(ratio)}")
    return ratio


def apply_ratio(amount: int, ratio: Fraction) -> int:
    """``amount * ratio`` rounded towards zero (a payout never exceeds its exact value)."""
    exact = amount * ratio
    whole = exact.numerator // exact.denominator
    return whole if exact >= 0 or whole == exact else whole + 1


_MONEY_TEXT = re.compile(r"(?:0|[1-9][0-9]{0,2}(?:,[0-9]{3})+|[1-9][0-9]*)(?:\.[0-9]{1,2})?")


def parse_money(text: str, *, maximum: int = MAX_AMOUNT) -> int:
    """Decimal text (ASCII digits, optional thousands commas, at most two decimals) -> minor units."""
    if not isinstance(text, str):
        raise MoneyError(f"an amount must be text, not {shown(text)}")
    stripped = text.strip()
    if len(stripped) > 40 or not _MONEY_TEXT.fullmatch(stripped):
        quoted = stripped if len(stripped) <= 40 else stripped[:37] + "..."
        raise MoneyError(
            f"{quoted!r} is not an amount (digits, with at most two decimals, like 12.50)"
        )
    whole, _, cents = stripped.replace(",", "").partition(".")
    minor = int(whole) * 100 + int(cents.ljust(2, "0") or "0")
    if minor > maximum:
        raise MoneyError(f"{stripped} is more than the largest amount, {format_money(maximum)}")
    return minor


def format_money(minor: int) -> str:
    """Minor units as text with two decimals and thousands commas (``-1,234.50``)."""
    sign = "-" if minor < 0 else ""
    minor = abs(minor)
    return f"{sign}{minor // 100:,}.{minor % 100:02d}"
