"""What the terminal play commands share: reading a line, and reading their options.

Every play command ends the same way whether the player types ``q``, closes the input
(Ctrl-D) or presses Ctrl-C: :func:`read_line` raises :class:`Leave`, and the command prints its
session's summary and exits 0 (docs/tables.md). Money options are read here with one-line
errors (exit status 2), by :func:`twentyone.money.parse_money` (decimal text, at most two
places, a maximum; never ``inf``, ``nan`` or an exponent). Seeds and counts use the types
every command shares (:mod:`twentyone.cli.options`).

>>> money_option("--bankroll", "1,000.00", minimum=100)
100000
>>> money_option("--bankroll", "inf")
Traceback (most recent call last):
...
twentyone.cli.errors.UserInputError: --bankroll: 'inf' is not an amount (digits, with at most two decimals, like 12.50)
"""

from __future__ import annotations

from rich.console import Console

from twentyone.cli.errors import UserInputError
from twentyone.money import MoneyError, format_money, parse_money
from twentyone.randomness import RandomSource, SeededRandomSource, SystemRandomSource

__all__ = [
    "LEAVE_WORDS",
    "MAX_BANKROLL",
    "Leave",
    "money_option",
    "read_line",
    "source_for",
]

#: What a player types to leave, at any prompt.
LEAVE_WORDS = ("q", "quit", "exit")
#: The largest starting play money a terminal session takes (one billion).
MAX_BANKROLL = 1_000_000_000_00


class Leave(Exception):
    """The player leaves: ``q`` (``typed``), the end of input or Ctrl-C (the cursor is still
    on the prompt's line)."""

    def __init__(self, typed: bool = False) -> None:
        super().__init__("the player leaves")
        self.typed = typed


def read_line(console: Console, prompt: str, *, markup: bool = False) -> str:
    """Print ``prompt`` and read one stripped line; :class:`Leave` on q, end of input, Ctrl-C.

    ``markup``: the prompt is console markup (coloured cards); by default it prints as is."""
    console.print(prompt, end=" ", markup=markup)
    try:
        answer = input()
    except (EOFError, KeyboardInterrupt):
        raise Leave from None
    if answer.strip().lower() in LEAVE_WORDS:
        raise Leave(typed=True)
    return answer.strip()


def source_for(seed: int | None) -> RandomSource:
    """Reproducible (non-secure) randomness for a seed, the system's CSPRNG otherwise."""
    return SystemRandomSource() if seed is None else SeededRandomSource(seed)


def money_option(
    name: str,
    text: str,
    *,
    minimum: int = 0,
    maximum: int = MAX_BANKROLL,
    minimum_is: str = "",
) -> int:
    """An amount option in minor units, or a one-line error naming the option.

    ``minimum_is`` says what the minimum is (``"the table's minimum bet"``) in the refusal.
    """
    if text.strip().startswith("-"):
        raise UserInputError(f"{name}: {text.strip()!r} is negative; give an amount like 100.00")
    try:
        amount = parse_money(text, maximum=maximum)
    except MoneyError as error:
        raise UserInputError(f"{name}: {error}") from None
    if amount < minimum:
        what = f"{minimum_is} of " if minimum_is else ""
        raise UserInputError(
            f"{name} must be at least {what}{format_money(minimum)}, got {format_money(amount)}"
        )
    return amount
