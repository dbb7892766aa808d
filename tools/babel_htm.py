"""A Babel extractor for the web interface's ES modules, whose text sits in htm templates.

Babel's own JavaScript extractor reads calls inside template literals only when their
``${...}`` holds no brace of its own (``parse_template_string`` finds the expression's end with
a regular expression), so ``${_("{n} chips", { n })}`` inside ``html`...``` was missed. This
extractor first *flattens* every template literal: its static text becomes spaces (newlines
kept, so line numbers stay right) and each ``${expression}`` becomes ``(expression)``, with
nested templates flattened the same way; Babel's extractor then reads plain code.

Used from ``babel.cfg`` as ``[babel_htm.extract: src/twentyone/web/js/**.js]`` with ``tools/`` on
``PYTHONPATH`` (``make i18n`` sets it).

>>> flatten('html`<p title=${_("A {x}", { x })}>${ok && html`<b>${_("B")}</b>`}</p>`')
'html          (_("A {x}", { x })) (ok && html    (_("B"))     )     '
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from babel.messages.extract import extract_javascript

#: After these characters (or a keyword) a ``/`` opens a regular expression, not a division.
_REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^")


def flatten(source: str, expressions: list[tuple[int, int]] | None = None) -> str:
    """``source`` with every template literal's text blanked and its expressions kept; the
    span in the result of each template expression is appended to ``expressions``."""
    out: list[str] = []
    n = len(source)

    def blank(text: str) -> str:
        return "".join("\n" if ch == "\n" else " " for ch in text)

    def last_significant() -> str:
        for chunk in reversed(out):
            stripped = chunk.rstrip()
            if stripped:
                return stripped[-1]
        return ""

    def template(start: int) -> int:
        """Blank a template's text from ``start`` (after the backtick); return the index after
        its closing backtick, with its expressions handed back to the code scanner."""
        j = start
        text_start = j
        while j < n:
            ch = source[j]
            if ch == "\\":
                j += 2
                continue
            if ch == "`":
                out.append(blank(source[text_start:j]) + " ")
                return j + 1
            if ch == "$" and j + 1 < n and source[j + 1] == "{":
                out.append(blank(source[text_start:j]) + "(")
                begin = sum(len(chunk) for chunk in out)
                j = code(j + 2, in_template=True)
                if expressions is not None:
                    expressions.append((begin, sum(len(chunk) for chunk in out) - 1))
                text_start = j
                continue
            j += 1
        out.append(blank(source[text_start:]))
        return n

    def code(start: int, in_template: bool = False) -> int:
        """Copy code from ``start``; inside a template expression, stop after its ``}``."""
        j = start
        depth = 0
        while j < n:
            ch = source[j]
            if ch in "\"'":
                end = j + 1
                while end < n and source[end] != ch and source[end] != "\n":
                    end += 2 if source[end] == "\\" else 1
                out.append(source[j : end + 1])
                j = end + 1
            elif ch == "`":
                out.append(" ")
                j = template(j + 1)
            elif source.startswith("//", j):
                end = source.find("\n", j)
                end = n if end < 0 else end
                out.append(blank(source[j:end]))
                j = end
            elif source.startswith("/*", j):
                end = source.find("*/", j + 2)
                end = n if end < 0 else end + 2
                out.append(blank(source[j:end]))
                j = end
            elif ch == "/" and (last_significant() in _REGEX_BEFORE or last_significant() == ""):
                end = j + 1
                in_class = False
                while end < n and source[end] != "\n":
                    if source[end] == "\\":
                        end += 2
                        continue
                    if source[end] == "[":
                        in_class = True
                    elif source[end] == "]":
                        in_class = False
                    elif source[end] == "/" and not in_class:
                        break
                    end += 1
                out.append(blank(source[j : end + 1]))
                j = end + 1
            elif ch == "{":
                depth += 1
                out.append(ch)
                j += 1
            elif ch == "}":
                if in_template and depth == 0:
                    out.append(")")
                    return j + 1
                depth -= 1
                out.append(ch)
                j += 1
            else:
                out.append(ch)
                j += 1
        return n

    code(0)
    return "".join(out)


def extract(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any] | Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[Any]:
    """Babel's extractor interface: the messages of one ES module."""
    import io

    encoding = str(options.get("encoding", "utf-8"))
    spans: list[tuple[int, int]] = []
    flat = flatten(fileobj.read().decode(encoding), spans)
    settings: dict[str, Any] = {**options, "parse_template_string": False}

    def messages(code: str) -> Iterator[Any]:
        return extract_javascript(
            io.BytesIO(code.encode(encoding)),
            keywords,  # type: ignore[arg-type]
            comment_tags,
            settings,  # type: ignore[arg-type]
        )

    # Babel's extractor does not look inside the arguments of a call it is collecting, so a
    # `_()` in a template passed to `_h(...)` would be missed: each template expression is also
    # read on its own (padded with the newlines before it, so its line numbers stay right).
    seen: set[tuple[Any, ...]] = set()
    for begin, end in [(0, len(flat)), *spans]:
        padding = "\n" * flat.count("\n", 0, begin)
        for found in messages(padding + flat[begin:end]):
            key = (found[0], found[1], repr(found[2]))
            if key not in seen:
                seen.add(key)
                yield found
