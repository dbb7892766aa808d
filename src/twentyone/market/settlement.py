"""What a matched bet wins or loses, exactly, in integer minor units.

For a matched stake ``S`` (the backer's stake) at price ``P``:

======== ============================ ==========
result   backer                       layer
======== ============================ ==========
win      S x (P - 1)                  the negation
tie      S x (P / n - 1)  (n = 2)     the negation
lose     - S                          + S
======== ============================ ==========

The tie line is the operator's dead-heat rule "the odds are divided by two" (``n`` is the
``dead_heat_divisor`` setting). Each fill is settled on its own: the backer's exact figure is
rounded toward zero to the minor unit (nobody pays more than the exact amount) and the layer
gets the negation, so every matched pair sums to zero. Prices are integer hundredths.

>>> backer_outcomes(1000, 250)  # 10.00 backed at 2.5: win, tie, lose
(1500, 250, -1000)
>>> backer_outcomes(1000, 400)  # dead heat at 4.0: half the stake at 4.0, half lost
(3000, 1000, -1000)
>>> backer_outcomes(1000, 120)  # dead heat at 1.2: the backer loses 40% of the stake
(200, -400, -1000)
>>> backer_outcomes(333, 121)  # 333 x 0.21 = 69.93 -> 69; tie 333 x -0.395 = -131.535 -> -131
(69, -131, -333)
"""

from __future__ import annotations

import enum

WIN, TIE, LOSE = 0, 1, 2
OUTCOMES = (WIN, TIE, LOSE)


class SelectionResult(enum.Enum):
    """How a selection settled: a dead heat (``TIED``) only where the selection can tie."""

    WINNER = "winner"
    LOSER = "loser"
    TIED = "tied"

    @property
    def outcome(self) -> int:
        return _OUTCOME[self]


_OUTCOME = {SelectionResult.WINNER: WIN, SelectionResult.TIED: TIE, SelectionResult.LOSER: LOSE}


def toward_zero(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` rounded toward zero (``denominator`` > 0)."""
    if numerator >= 0:
        return numerator // denominator
    return -((-numerator) // denominator)


def backer_outcomes(
    stake: int, hundredths: int, dead_heat_divisor: int = 2
) -> tuple[int, int, int]:
    """The backer's profit or loss if the selection wins, ties, loses (rounded toward zero)."""
    win = stake * (hundredths - 100) // 100
    tie_scale = 100 * dead_heat_divisor
    tie = toward_zero(stake * (hundredths - tie_scale), tie_scale)
    return win, tie, -stake


def liability(stake: int, hundredths: int) -> int:
    """What a layer risks on a matched stake: ``S x (P - 1)`` rounded down.

    >>> liability(1000, 250)
    1500
    """
    return stake * (hundredths - 100) // 100
