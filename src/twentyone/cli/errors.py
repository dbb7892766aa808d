"""How the command line reports bad input: exit status 2 and one line on stderr."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import click

from twentyone.errors import TwentyOneError

P = ParamSpec("P")
R = TypeVar("R")

BAD_INPUT = 2


class UserInputError(click.ClickException):
    """Bad input from the user: printed as one line, exit status 2."""

    exit_code = BAD_INPUT

    def show(self, file: Any = None) -> None:
        click.echo(f"twentyone: error: {self.format_message()}", err=True)


def reports_bad_input(function: Callable[P, R]) -> Callable[P, R]:
    """Turn the library's typed errors (and bad JSON) into a one-line exit-2 error."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return function(*args, **kwargs)
        except json.JSONDecodeError as error:
            raise UserInputError(f"malformed JSON: {error}") from None
        except TwentyOneError as error:
            raise UserInputError(str(error)) from None

    return wrapper
