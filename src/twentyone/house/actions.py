"""Actions a box can take in a house-banked round, and their text form.

>>> Action.parse("insurance 250")
Action(kind=<ActionKind.INSURANCE: 'insurance'>, amount=250)
>>> str(Action.parse(" Double "))
'double'
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field

from twentyone.errors import IllegalActionError, shown
from twentyone.money import MAX_AMOUNT
from twentyone.moves import Move

#: An insurance amount as typed: ASCII digits only (not "٢٥٠", "2_5" or "²"), at most 16.
_AMOUNT_TEXT = re.compile(r"[0-9]{1,16}")


class ActionKind(enum.Enum):
    INSURANCE = "insurance"
    NO_INSURANCE = "no-insurance"
    SURRENDER = "surrender"  # early surrender (its own phase) or late/early surrender of a hand
    NO_SURRENDER = "no-surrender"
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"


@dataclass(frozen=True, slots=True)
class Action:
    kind: ActionKind
    amount: int | None = None  # insurance stake in minor units
    #: The text form (``hit``, ``insurance 250``), kept because every event records it.
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.kind, ActionKind):
            raise IllegalActionError(f"an action kind is an ActionKind, not {shown(self.kind)}")
        if (self.kind is ActionKind.INSURANCE) != (self.amount is not None):
            raise IllegalActionError("an amount goes with insurance and only with insurance")
        amount = self.amount
        if amount is not None and (
            isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= MAX_AMOUNT
        ):
            raise IllegalActionError(
                f"an insurance amount is a whole number of minor units (an int from 0 to"
                f" {MAX_AMOUNT}), not {shown(amount)}"
            )
        text = self.kind.value if self.amount is None else f"{self.kind.value} {self.amount}"
        object.__setattr__(self, "text", text)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse ``hit``, ``stand``, ``double``, ``split``, ``surrender``, ``no-surrender``,
        ``no-insurance`` or ``insurance N``."""
        if not isinstance(text, str):
            raise IllegalActionError(f"a decision must be a string, got {shown(text)}")
        words = text.strip().lower().split()
        if not words:
            raise IllegalActionError("empty decision")
        try:
            kind = ActionKind(words[0])
        except ValueError:
            names = ", ".join(k.value for k in ActionKind)
            raise IllegalActionError(
                f"unknown decision {shown(text)} (expected one of {names})"
            ) from None
        if kind is ActionKind.INSURANCE:
            if len(words) != 2 or not _AMOUNT_TEXT.fullmatch(words[1]):
                raise IllegalActionError(
                    "insurance needs a whole amount in minor units, e.g. 'insurance 250',"
                    f" got {shown(text)}"
                )
            return cls(kind, int(words[1]))
        if len(words) != 1:
            raise IllegalActionError(f"decision {shown(text)} takes no argument")
        return _SIMPLE_ACTIONS[kind]

    @classmethod
    def of(cls, move: Move) -> Action:
        return _MOVE_ACTIONS[move]

    def __str__(self) -> str:
        return self.text


HIT = Action(ActionKind.HIT)
STAND = Action(ActionKind.STAND)
DOUBLE = Action(ActionKind.DOUBLE)
SPLIT = Action(ActionKind.SPLIT)
SURRENDER = Action(ActionKind.SURRENDER)
NO_SURRENDER = Action(ActionKind.NO_SURRENDER)
NO_INSURANCE = Action(ActionKind.NO_INSURANCE)

#: The one shared instance of each action without an amount (the engine tests identity first).
_SIMPLE_ACTIONS = {
    action.kind: action
    for action in (HIT, STAND, DOUBLE, SPLIT, SURRENDER, NO_SURRENDER, NO_INSURANCE)
}

_MOVE_ACTIONS = {
    Move.HIT: HIT,
    Move.STAND: STAND,
    Move.DOUBLE: DOUBLE,
    Move.SPLIT: SPLIT,
    Move.SURRENDER: SURRENDER,
}
