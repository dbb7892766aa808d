"""Commission: a share of a customer's net winnings on a market, charged once it is settled.

>>> from fractions import Fraction
>>> commission(1_999, Fraction(5, 100)), commission(2_000, Fraction(5, 100)), commission(-500, Fraction(5, 100))
(99, 100, 0)
"""

from __future__ import annotations

from fractions import Fraction


def commission(net: int, rate: Fraction) -> int:
    """``rate`` of ``net`` winnings rounded down to the minor unit; nothing on a net loss."""
    if net <= 0:
        return 0
    return net * rate.numerator // rate.denominator
