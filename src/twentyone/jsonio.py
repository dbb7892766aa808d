"""Reading JSON from outside (files, standard input, the network) within fixed bounds.

Everything the program is handed as JSON (scenarios, Exchange states, strategy charts,
counting systems, requests) goes through :func:`parse_json`, which refuses, with a
:class:`JsonInputError` and before the parser runs:

- input over :data:`MAX_JSON_BYTES` (a scenario or chart is a few kilobytes),
- bytes that are not UTF-8,
- nesting deeper than :data:`MAX_JSON_DEPTH` (the parser recurses once per level),

and while parsing: numbers longer than :data:`MAX_NUMBER_CHARS` characters (``int()`` of a
long digit string is quadratic), ``NaN`` and ``Infinity`` (not JSON), floats that overflow to
infinity, and an object that names a key twice (which of the two would count?).

>>> parse_json('{"game": "casino", "cards": ["TS"]}')
{'game': 'casino', 'cards': ['TS']}
>>> parse_json("[" * 100 + "]" * 100, "the scenario")
Traceback (most recent call last):
...
twentyone.jsonio.JsonInputError: the scenario nests deeper than 32 levels
>>> parse_json(b"\\xff", "state file 'x.json'")
Traceback (most recent call last):
...
twentyone.jsonio.JsonInputError: state file 'x.json' is not valid UTF-8 (byte 0xff at offset 0)
>>> parse_json('{"a": NaN}')
Traceback (most recent call last):
...
twentyone.jsonio.JsonInputError: input is not valid JSON: NaN is not a JSON number
"""

from __future__ import annotations

import json
import os
import re
import sys
from itertools import accumulate
from typing import Any, BinaryIO

from twentyone.errors import TwentyOneError

#: The most bytes one JSON input may have (1 MiB; the largest file the project reads is ~20 kB).
MAX_JSON_BYTES = 1 << 20
#: The deepest nesting of arrays and objects (a scenario nests 4 levels, a chart 3).
MAX_JSON_DEPTH = 32
#: The longest number, in characters (a 64-bit seed has 20 digits).
MAX_NUMBER_CHARS = 100


class JsonInputError(TwentyOneError):
    """JSON input that is too large, too deep, not UTF-8 or not valid JSON."""


# A JSON string (escapes included), removed before counting brackets, which a string may hold.
# An unterminated string runs to the end, so every quote starts a match and the scan is linear
# (a pattern that can fail after scanning to the end would be quadratic on '"\\"\\"...').
_STRING = re.compile(r'"(?:[^"\\]|\\.)*+(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def nesting_depth(text: str) -> int:
    """The deepest nesting of brackets in ``text`` outside JSON strings (linear time).

    >>> nesting_depth('{"a": [1, {"b": "[[[["}]}')
    3
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)


class _Refused(Exception):
    """Raised inside the parser's hooks; turned into a JsonInputError outside it."""


def _number(text: str, convert: type[int] | type[float]) -> int | float:
    if len(text) > MAX_NUMBER_CHARS:
        raise _Refused(f"a number has more than {MAX_NUMBER_CHARS} characters")
    value = convert(text)
    if value in (float("inf"), float("-inf")):
        raise _Refused(f"{text} is too large a number")
    return value


def _parse_int(text: str) -> int:
    return int(_number(text, int))


def _parse_float(text: str) -> float:
    return float(_number(text, float))


def _parse_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Refused(f"key {key!r} appears twice in one object")
        out[key] = value
    return out


def parse_json(
    data: str | bytes,
    what: str = "input",
    *,
    max_bytes: int = MAX_JSON_BYTES,
    max_depth: int = MAX_JSON_DEPTH,
) -> Any:
    """Parse JSON ``data`` within the bounds above; ``what`` names the input in errors."""
    # A character is at least one byte: a text longer than the limit is refused unencoded.
    if len(data) > max_bytes or (
        isinstance(data, str) and len(data.encode("utf-8", "surrogatepass")) > max_bytes
    ):
        raise JsonInputError(f"{what} is larger than the limit of {max_bytes:,} bytes")
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise JsonInputError(
                f"{what} is not valid UTF-8 (byte 0x{data[error.start]:02x} at offset "
                f"{error.start})"
            ) from None
    else:
        text = data
    if nesting_depth(text) > max_depth:
        raise JsonInputError(f"{what} nests deeper than {max_depth} levels")
    try:
        return json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
            object_pairs_hook=_object,
        )
    except json.JSONDecodeError as error:
        raise JsonInputError(f"{what} is not valid JSON: {error}") from None
    except _Refused as error:
        raise JsonInputError(f"{what} is not valid JSON: {error}") from None
    except (RecursionError, ValueError) as error:  # pragma: no cover - the checks above stop these
        raise JsonInputError(f"{what} is not valid JSON: {error}") from None


def read_input(path: str, what: str, *, max_bytes: int = MAX_JSON_BYTES) -> bytes:
    """The bytes of file ``path`` (``-``: standard input), at most ``max_bytes`` of them.

    Never reads more than ``max_bytes + 1`` bytes, so a huge file or an endless pipe is refused
    without being held in memory.
    """
    try:
        if path == "-":
            stream: BinaryIO = sys.stdin.buffer
            return _bounded(stream, what, max_bytes)
        if os.path.isdir(path):
            raise JsonInputError(f"cannot read {what}: it is a folder")
        with open(path, "rb") as handle:
            return _bounded(handle, what, max_bytes)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise JsonInputError(f"cannot read {what}: {reason}") from None


def _bounded(stream: BinaryIO, what: str, max_bytes: int) -> bytes:
    data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise JsonInputError(f"{what} is larger than the limit of {max_bytes:,} bytes")
    return data


def read_json(path: str, what: str) -> Any:
    """Read and parse the JSON in file ``path`` (``-``: standard input) within the bounds."""
    return parse_json(read_input(path, what), what)
