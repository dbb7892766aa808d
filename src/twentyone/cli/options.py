"""Option types shared by every command: strict numbers with their allowed range.

click's own ``int`` and ``float`` read too much (``1_000``, digits of other scripts, ``nan``,
``inf``, ``1e400``); these read plain ASCII decimal text only, and state the allowed range
when refusing, so that every command refuses the same value with the same words.

>>> WholeNumber(0, 10).convert("7", None, None)
7
>>> FiniteNumber(-10, 10).convert("-2.5", None, None)
-2.5
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

#: Seeds are 64-bit everywhere (``twentyone.simulation.runner.MAX_SEED`` is the same number;
#: not imported from there, which would load numpy for every command).
MAX_SEED = 2**64 - 1
#: The longest number text looked at (longer is refused before ``int()``, which is quadratic).
MAX_DIGITS = 100

_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def shown(text: str) -> str:
    """``text`` quoted for an error message, cut short if long."""
    return repr(text) if len(text) <= 40 else f"{text[:37]!r}..."


def _range(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f" from {low:,} to {high:,}"
    if low is not None:
        return f" >= {low:,}"
    if high is not None:
        return f" <= {high:,}"
    return ""


class WholeNumber(click.ParamType[int]):
    """A whole number in ASCII digits, optionally within ``[low, high]``.

    ``bounds``, if given, is called for ``(low, high)`` when a value is converted: a library's
    own limits, from a module too heavy to import just to define an option.
    """

    name = "integer"

    def __init__(
        self,
        low: int | None = None,
        high: int | None = None,
        bounds: Callable[[], tuple[int, int]] | None = None,
    ) -> None:
        self.low, self.high = low, high
        self._bounds = bounds

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if self._bounds is not None:
            self.low, self.high = self._bounds()
            self._bounds = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            if len(text) > MAX_DIGITS or not _WHOLE.fullmatch(text):
                self.fail(self._expected(text), param, ctx)
            number = int(text)
        if (self.low is not None and number < self.low) or (
            self.high is not None and number > self.high
        ):
            self.fail(self._expected(str(value)), param, ctx)
        return number

    def _expected(self, text: str) -> str:
        return f"must be a whole number{_range(self.low, self.high)}, got {shown(text)}"


class FiniteNumber(click.ParamType[float]):
    """A decimal number (no exponent, no ``nan`` or ``inf``), optionally within ``[low, high]``."""

    name = "number"

    def __init__(self, low: float | None = None, high: float | None = None) -> None:
        self.low, self.high = low, high

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        text = str(value).strip()
        if len(text) > MAX_DIGITS or not _DECIMAL.fullmatch(text):
            self.fail(self._expected(text), param, ctx)
        number = float(text)
        if (self.low is not None and number < self.low) or (
            self.high is not None and number > self.high
        ):
            self.fail(self._expected(text), param, ctx)
        return number

    def _expected(self, text: str) -> str:
        return (
            f"must be a decimal number (like -1.5){_range(self.low, self.high)}, got {shown(text)}"
        )


#: The type of every ``--seed``: the same range, the same words, in every command.
SEED = WholeNumber(0, MAX_SEED)


def seed_option(help_text: str) -> Callable[[F], F]:
    """The ``--seed`` option (``seed: int | None``), as every command that has one takes it."""
    return click.option("--seed", type=SEED, help=help_text)
