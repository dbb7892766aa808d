"""How the command line reports errors: one line on stderr, ``twentyone: error: ...``.

Bad input (a typed library error, a usage error such as an unknown option or a value click
cannot convert, an unreadable or malformed file) exits with status 2. Output that cannot be
written (a full disk) is one line too, also status 2; a closed pipe (``| head``) ends quietly
as click does (status 1). The usage text is shown only by ``--help``.

:func:`one_line_errors` is applied by the top-level group (:mod:`twentyone.cli.main`) around
every command, so each subcommand only raises; :func:`reports_bad_input` turns the library's
typed errors into :class:`UserInputError` inside a command.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, ParamSpec, TypeVar

import click

from twentyone.errors import TwentyOneError

P = ParamSpec("P")
R = TypeVar("R")

BAD_INPUT = 2


class UserInputError(click.ClickException):
    """Bad input from the user: printed as one line, exit status 2."""

    exit_code = BAD_INPUT

    def __init__(self, message: str, exit_code: int = BAD_INPUT) -> None:
        # One line whatever the message holds (a library message never has a newline, but a
        # value echoed back in it might).
        super().__init__(" ".join(message.split()) or "bad input")
        if exit_code != BAD_INPUT:
            # Another click error's own status (a ClassVar in click's types, set per instance
            # for the rare error that is not bad input).
            setattr(self, "exit_code", exit_code)  # noqa: B010

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


@contextlib.contextmanager
def one_line_errors(flush_output: bool = False) -> Iterator[None]:
    """Report every click error raised inside as one :class:`UserInputError` line.

    With ``flush_output``, standard output is flushed before leaving, so that a write error
    (``> /dev/full``) is reported here rather than as a traceback at interpreter exit.
    """
    try:
        yield
        if flush_output:
            sys.stdout.flush()
    except UserInputError:
        raise
    except click.exceptions.NoArgsIsHelpError:
        raise  # `twentyone` alone: the help text is what was asked for
    except click.ClickException as error:
        raise UserInputError(error.format_message(), error.exit_code) from None
    except TwentyOneError as error:  # a typed error a command did not wrap
        raise UserInputError(str(error)) from None
    except OSError as error:
        if error.errno == errno.EPIPE:
            raise  # click ends quietly on a closed pipe
        _silence_stdout()
        where = f"{error.filename}: " if error.filename else "cannot write the output: "
        raise UserInputError(where + (error.strerror or str(error))) from None


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush of what could not
    be written fails no more (it would print "Exception ignored ..." and exit 120)."""
    try:
        descriptor = sys.stdout.fileno()
    except (OSError, ValueError):
        return  # not a real file (tests' CliRunner): nothing is flushed at exit
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)
