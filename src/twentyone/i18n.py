"""The platform's languages: gettext catalogues (Babel ``.po`` files) read as they are.

English is the source language: the English text is the message id, marked in Python with
``N_()`` (a marker that returns its argument, for text translated later) or translated at
once with ``Translation._()``; ``pybabel extract`` finds both (``make i18n``, ``babel.cfg``).
Each language's catalogue is ``twentyone/locale/<dir>/LC_MESSAGES/messages.po``, package data
read with :mod:`babel.messages.pofile` on first use: no compiled ``.mo`` and no build step.
A message that is missing, empty or fuzzy in a catalogue is shown in English.

Placeholders are ``{name}``, as in the front end's ``_()``; they are filled by name, never by
``str.format`` (a translation with a stray brace must not fail, nor a value be re-read):

>>> ENGLISH._("bets {low} to {high}", low="1.00", high="500.00")
'bets 1.00 to 500.00'
>>> ENGLISH.n_("{n} deck", "{n} decks", 6)
'6 decks'
>>> negotiate("nn-NO,no;q=0.9,en;q=0.5"), negotiate("pt-PT"), negotiate("de, fr"), negotiate(None)
('nb', 'pt-BR', 'en', 'en')
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Final

#: The languages, by BCP 47 tag, each named in its own language (the language switcher).
LANGUAGES: Final = {
    "en": "English",
    "fi": "Suomi",
    "tr": "Türkçe",
    "nb": "Norsk bokmål",
    "pt-BR": "Português (Brasil)",
}
SOURCE: Final = "en"
#: The gettext locale folder of each translated language.
LOCALE_DIRS: Final = {"fi": "fi", "tr": "tr", "nb": "nb", "pt-BR": "pt_BR"}
#: A primary language subtag -> our language: Norwegian (``no``, ``nn``) reads Bokmål, any
#: Portuguese reads the Brazilian catalogue (the only Portuguese one).
_PRIMARY: Final = {
    "en": "en",
    "fi": "fi",
    "tr": "tr",
    "nb": "nb",
    "no": "nb",
    "nn": "nb",
    "pt": "pt-BR",
}

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it (it is translated where shown).

    >>> N_("the name {name} is taken")
    'the name {name} is taken'
    """
    return message


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders of a message.

    >>> sorted(placeholders("{a} to {b}, {a}"))
    ['a', 'b']
    """
    return set(_PLACEHOLDER.findall(text))


def fill(template: str, params: Mapping[str, object]) -> str:
    """``template`` with each ``{name}`` that ``params`` has replaced (others left as written).

    >>> fill("{who} bets {amount} {unknown}", {"who": "ann", "amount": "{5}"})
    'ann bets {5} {unknown}'
    """
    if not params:
        return template
    return _PLACEHOLDER.sub(
        lambda found: str(params[found[1]]) if found[1] in params else found[0], template
    )


def _english_plural(n: int) -> int:
    return 0 if n == 1 else 1


#: Thousands and decimal signs of each language (Unicode CLDR's, as the browser's Intl uses).
_NUMBER_SIGNS: Final = {
    "fi": ("\u00a0", ","),
    "tr": (".", ","),
    "nb": ("\u00a0", ","),
    "pt-BR": (".", ","),
}
#: How each language writes a percentage (CLDR).
_PERCENT: Final = {"fi": "{n}\u00a0%", "nb": "{n}\u00a0%", "tr": "%{n}", "pt-BR": "{n}%"}


@dataclass(frozen=True)
class Translation:
    """One language's messages: msgid -> msgstr, or for plurals the singular msgid -> forms."""

    language: str
    messages: Mapping[str, str | tuple[str, ...]] = field(default_factory=dict)
    #: Which plural form a count takes (the catalogue's ``Plural-Forms``).
    plural: Callable[[int], int] = _english_plural
    #: Singular msgid -> plural msgid, for the plurals the catalogue has.
    plural_ids: Mapping[str, str] = field(default_factory=dict)

    def gettext(self, message: str) -> str:
        found = self.messages.get(message)
        return found if isinstance(found, str) and found else message

    def _(self, message: str, /, **params: object) -> str:
        """The translation of ``message`` with its placeholders filled."""
        return fill(self.gettext(message), params)

    def n_(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        """The form of a message for the count ``n`` (also the placeholder ``{n}``)."""
        params.setdefault("n", n)
        forms = self.messages.get(singular)
        if isinstance(forms, tuple) and forms and all(forms):
            index = self.plural(n)
            return fill(forms[index if 0 <= index < len(forms) else -1], params)
        return fill(singular if _english_plural(n) == 0 else plural, params)

    def money(self, minor: int) -> str:
        """Minor units in this language's notation, by integer arithmetic (never a float).

        >>> [Translation(code).money(123456) for code in ("en", "fi", "tr", "nb", "pt-BR")]
        ['1,234.56', '1\u00a0234,56', '1.234,56', '1\u00a0234,56', '1.234,56']
        """
        group, decimal = _NUMBER_SIGNS.get(self.language, (",", "."))
        sign = "-" if minor < 0 else ""
        minor = abs(minor)
        whole = f"{minor // 100:,}".replace(",", group)
        return f"{sign}{whole}{decimal}{minor % 100:02d}"

    def percent(self, whole_percent: int) -> str:
        """A whole percentage as this language writes it: ``75%``, ``75 %``, Turkish ``%75``.

        >>> [Translation(code).percent(75) for code in ("en", "fi", "tr")]
        ['75%', '75\u00a0%', '%75']
        """
        return _PERCENT.get(self.language, "{n}%").replace("{n}", str(whole_percent))

    def sentence(self, line: str) -> str:
        """A line as a sentence: a capital first letter and a full stop (Turkish dotted İ).

        >>> Translation("tr").sentence("iki deste"), ENGLISH.sentence("ties push")
        ('İki deste.', 'Ties push.')
        """
        first = "İ" if self.language == "tr" and line[:1] == "i" else line[:1].upper()
        return first + line[1:] + ("" if line.endswith((".", "!", "?")) else ".")


ENGLISH: Final = Translation(SOURCE)


def catalogue_path(language: str) -> str:
    """Where a language's ``.po`` file is, inside the package."""
    folder = LOCALE_DIRS[language]
    return str(resources.files("twentyone") / "locale" / folder / "LC_MESSAGES" / "messages.po")


@dataclass(frozen=True)
class Catalogue:
    """A language's translation and, for the browser, which messages the web interface uses."""

    translation: Translation
    #: msgid -> msgstr (or plural forms) of the messages found in the web interface's files.
    web: Mapping[str, str | tuple[str, ...]]
    #: The catalogue's ``Plural-Forms`` count.
    plurals: int
    #: The msgids found in Python files (the server's messages: errors, rules texts).
    python: frozenset[str] = frozenset()


@cache
def catalogue(language: str) -> Catalogue:
    """A language's catalogue, read once (Babel is imported only here: start-up stays quick)."""
    if language == SOURCE or language not in LOCALE_DIRS:
        return Catalogue(ENGLISH, {}, 2)
    from babel.messages.pofile import read_po  # lazily: only when a language is used

    try:
        with open(catalogue_path(language), "rb") as handle:
            po = read_po(handle, locale=LOCALE_DIRS[language])
    except FileNotFoundError:
        return Catalogue(Translation(language), {}, 2)
    messages: dict[str, str | tuple[str, ...]] = {}
    web: dict[str, str | tuple[str, ...]] = {}
    python: set[str] = set()
    plural_ids: dict[str, str] = {}
    for message in po:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple | list):
            key = str(message.id[0])
            plural_ids[key] = str(message.id[1])
            forms = tuple(str(form) for form in message.string or ())
            if not all(forms):
                continue
            value: str | tuple[str, ...] = forms
        else:
            key = str(message.id)
            if not message.string:
                continue
            value = str(message.string)
        messages[key] = value
        if any(str(where).endswith(".js") for where, _ in message.locations):
            web[key] = value
        if any(str(where).endswith(".py") for where, _ in message.locations):
            python.add(key)
    rule = gettext.c2py(po.plural_expr)
    translation = Translation(language, messages, lambda n: int(rule(n)), plural_ids)
    return Catalogue(translation, web, po.num_plurals, frozenset(python))


def translation(language: str) -> Translation:
    """A language's :class:`Translation` (English for an unknown language)."""
    return catalogue(language).translation if language in LANGUAGES else ENGLISH


def negotiate(accept_language: str | None) -> str:
    """Our language for an ``Accept-Language`` header: the first by quality that we have,
    by its full tag then by its primary subtag; English when none is."""
    if not accept_language:
        return SOURCE
    wanted: list[tuple[float, int, str]] = []
    for index, part in enumerate(accept_language.split(",")[:32]):
        tag, _, options = part.strip().partition(";")
        quality = 1.0
        if options.strip().startswith("q="):
            try:
                quality = float(options.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            wanted.append((-quality, index, tag.strip().replace("_", "-").lower()))
    by_lower = {code.lower(): code for code in LANGUAGES}
    for _, _, tag in sorted(wanted):
        if tag in by_lower:
            return by_lower[tag]
        primary = _PRIMARY.get(tag.split("-")[0])
        if primary is not None:
            return primary
    return SOURCE
