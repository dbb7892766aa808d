"""The player's moves on a hand in the house-banked games."""

from __future__ import annotations

import enum


class Move(enum.Enum):
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
