"""The languages' catalogues (docs/i18n.md): every message of a fresh extraction is translated in
every language, with the same placeholders; and the pieces that choose and apply a language.

The first tests fail while a catalogue misses a message: run ``make i18n`` after changing a text,
then translate the new empty ``msgstr`` entries in ``src/twentyone/locale/<lang>/LC_MESSAGES/``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from twentyone import i18n
from twentyone.i18n import LANGUAGES, LOCALE_DIRS, Translation, fill, negotiate, placeholders
from twentyone.server.i18n import KNOWN_ERRORS, translate_message

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "src" / "twentyone" / "locale"
#: The keywords of `make i18n` (Makefile I18N_KEYWORDS).
KEYWORDS = {"_": None, "_h": None, "N_": None, "n_": (1, 2)}


@cache
def fresh_messages() -> dict[str, tuple[str, ...]]:
    """msgid -> (msgid, plural msgid?) of a fresh extraction with babel.cfg, as `make i18n`."""
    sys.path.insert(0, str(ROOT / "tools"))  # babel.cfg's extractor for the ES modules
    try:
        with open(ROOT / "babel.cfg", encoding="utf-8") as handle:
            method_map, options_map = parse_mapping_cfg(handle)  # type: ignore[no-untyped-call]
        found: dict[str, tuple[str, ...]] = {}
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS
        ):
            ids = (message,) if isinstance(message, str) else tuple(message)
            if ids[0]:
                found[ids[0]] = ids
        return found
    finally:
        sys.path.remove(str(ROOT / "tools"))


def read_catalogue(language: str) -> Catalog:
    path = LOCALE / LOCALE_DIRS[language] / "LC_MESSAGES" / "messages.po"
    with open(path, "rb") as handle:
        return read_po(handle, locale=LOCALE_DIRS[language])


def test_the_extraction_finds_the_python_and_the_web_messages() -> None:
    found = fresh_messages()
    assert "wrong name or password" in found  # server/app.py, N_()
    assert "Show or hide this list" in found  # web/js/app.js, inside an htm template
    assert "Balance {amount}: your account" in found  # a call with params inside ${...}
    assert found["{n} deck, a fresh shoe every round"][1] == "{n} decks, a fresh shoe every round"
    assert len(found) > 500


def test_the_template_is_up_to_date() -> None:
    with open(LOCALE / "messages.pot", "rb") as handle:
        template = {
            message.id if isinstance(message.id, str) else message.id[0]
            for message in read_po(handle)
        }
    missing = sorted(set(fresh_messages()) - template)
    assert not missing, f"run `make i18n`: {len(missing)} new messages, e.g. {missing[:5]}"


@pytest.mark.parametrize("language", sorted(LOCALE_DIRS))
def test_every_message_is_translated(language: str) -> None:
    catalogue = read_catalogue(language)
    problems: list[str] = []
    for msgid, ids in fresh_messages().items():
        message = catalogue.get(ids[0])
        if message is None:
            problems.append(f"missing: {msgid!r} (run `make i18n`)")
            continue
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        if message.fuzzy:
            problems.append(f"fuzzy: {msgid!r}")
        elif not strings or not all(strings):
            problems.append(f"empty: {msgid!r}")
    assert not problems, f"{language}: {len(problems)} problems:\n" + "\n".join(problems[:20])


@pytest.mark.parametrize("language", sorted(LOCALE_DIRS))
def test_translations_keep_the_placeholders(language: str) -> None:
    problems = []
    for message in read_catalogue(language):
        if not message.id:
            continue
        ids = (message.id,) if isinstance(message.id, str) else tuple(message.id)
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        wanted = placeholders(ids[0]) | placeholders(ids[-1])
        for text in strings:
            # A plural form may leave out {n} (Turkish's single form names the count anyway).
            if text and placeholders(text) - {"n"} != wanted - {"n"}:
                problems.append(f"{ids[0]!r} -> {text!r}")
    assert not problems, f"{language}: placeholders differ:\n" + "\n".join(problems[:20])


# ------------------------------------------------------------------ the mechanism
def test_negotiation_prefers_quality_then_order_and_maps_relatives() -> None:
    assert negotiate("fi-FI,fi;q=0.9,en-US;q=0.8") == "fi"
    assert negotiate("en;q=0.5, tr;q=0.9") == "tr"
    assert negotiate("nn") == "nb" and negotiate("no-NO") == "nb"
    assert negotiate("pt-PT, pt;q=0.8") == "pt-BR" and negotiate("PT_br") == "pt-BR"
    assert negotiate("de-DE, *;q=0.1") == "en"
    assert negotiate("fi;q=0, tr;q=bad, nb") == "nb"  # q=0 is "not this"; a bad q counts as 0
    assert negotiate("") == "en" and negotiate(",,;;") == "en"


def test_placeholders_are_filled_by_name_only() -> None:
    assert fill("{a} and {b}", {"a": "{b}", "b": 2}) == "{b} and 2"  # a value is not re-read
    assert fill("odd { brace} {x", {"x": 1}) == "odd { brace} {x"
    finnish = Translation("fi", {"{n} deck": ("{n} pakka", "{n} pakkaa")}, lambda n: int(n != 1))
    assert finnish.n_("{n} deck", "{n} decks", 1) == "1 pakka"
    assert finnish.n_("{n} deck", "{n} decks", 6) == "6 pakkaa"
    assert finnish.n_("{n} seat", "{n} seats", 6) == "6 seats"  # untranslated: English forms


def _write_po(path: Path, language: str, entries: dict[str, str]) -> None:
    catalog = Catalog(locale=LOCALE_DIRS[language])
    for msgid, msgstr in entries.items():
        catalog[msgid] = Message(msgid, msgstr, locations=[("src/twentyone/server/app.py", 1)])
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        write_po(handle, catalog)


@pytest.fixture
def finnish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Translation]:
    """A small Finnish catalogue in place of the real one (cleared caches before and after)."""
    from twentyone.server import i18n as server_i18n

    path = tmp_path / "fi.po"
    _write_po(
        path,
        "fi",
        {
            "box {box} is taken": "paikka {box} on varattu",
            "wrong name or password": "väärä nimi tai salasana",
            "ties push": "tasapeli palauttaa panoksen",
        },
    )
    monkeypatch.setattr(i18n, "catalogue_path", lambda language: str(path))
    i18n.catalogue.cache_clear()
    server_i18n._patterns.cache_clear()
    yield i18n.translation("fi")
    i18n.catalogue.cache_clear()
    server_i18n._patterns.cache_clear()


def test_finished_english_errors_are_matched_against_the_templates(finnish: Translation) -> None:
    assert translate_message(finnish, "box 3 is taken") == "paikka 3 on varattu"
    assert translate_message(finnish, "wrong name or password") == "väärä nimi tai salasana"
    assert translate_message(finnish, "box 3 is not yours") == "box 3 is not yours"  # untranslated
    assert translate_message(i18n.ENGLISH, "box 3 is taken") == "box 3 is taken"


def test_known_error_templates_are_marked_and_distinct() -> None:
    assert len(set(KNOWN_ERRORS)) == len(KNOWN_ERRORS)
    assert all(template in fresh_messages() for template in KNOWN_ERRORS)


def test_the_languages_are_the_catalogues() -> None:
    assert set(LANGUAGES) == {"en", *LOCALE_DIRS}
    for folder in LOCALE_DIRS.values():
        assert (LOCALE / folder / "LC_MESSAGES" / "messages.po").is_file()


def test_validation_problems_become_our_sentences_in_the_language() -> None:
    from twentyone.server.i18n import http_message, validation_message

    english = i18n.ENGLISH
    problems = {
        "missing": ({"type": "missing", "loc": ("body", "bet")}, "bet is required"),
        "long": (
            {"type": "string_too_long", "loc": ("body", "name"), "ctx": {"max_length": 64}},
            "name may have at most 64 characters",
        ),
        "one": (
            {"type": "string_too_short", "loc": ("body", "seed"), "ctx": {"min_length": 2}},
            "seed needs at least 2 characters",
        ),
        "empty": (
            {"type": "string_too_short", "loc": ("body", "reason"), "ctx": {"min_length": 1}},
            "reason must not be empty",
        ),
        "query": (
            {"type": "less_than_equal", "loc": ("query", "limit"), "ctx": {"le": 200}},
            "limit must be at most 200",
        ),
        "float": (
            {"type": "greater_than_equal", "loc": ("body", "decision_seconds"), "ctx": {"ge": 1.0}},
            "decision_seconds must be at least 1",
        ),
        "choice": (
            {
                "type": "literal_error",
                "loc": ("body", "side"),
                "ctx": {"expected": "'back' or 'lay'"},
            },
            "side must be one of 'back', 'lay'",
        ),
        "nested": (
            {"type": "int_type", "loc": ("body", "rules", "decks")},
            "rules.decks must be a whole number",
        ),
        "whole": ({"type": "missing", "loc": ("body",)}, "the request body is missing"),
        "list": (
            {"type": "model_attributes_type", "loc": ("body",)},
            "the request body must be a JSON object",
        ),
        "other": (
            {"type": "url_parsing", "loc": ("body", "site"), "msg": "Input should be a valid URL"},
            "site: Input should be a valid URL",
        ),
    }
    for name, (problem, sentence) in problems.items():
        assert validation_message(english, [problem]) == sentence, name
    assert validation_message(english, []) == "the request is malformed"
    finnish = Translation(
        "fi",
        {
            "{field} is required": "{field} puuttuu",
            "{field} may have at most {n} character": (
                "{field}: enintään {n} merkki",
                "{field}: enintään {n} merkkiä",
            ),
            "there is no such page": "sivua ei ole",
        },
        lambda n: int(n != 1),
    )
    assert validation_message(finnish, [problems["missing"][0]]) == "bet puuttuu"
    assert validation_message(finnish, [problems["long"][0]]) == "name: enintään 64 merkkiä"
    assert http_message(finnish, 404, "Not Found") == "sivua ei ole"
    assert http_message(english, 405, "Method Not Allowed") == "this method is not allowed here"
    assert http_message(english, 400, None) == "the request was refused"


def test_a_marked_error_translates_its_phrase_parameters() -> None:
    from twentyone.server.errors import Phrase, not_found
    from twentyone.server.i18n import translate_error

    finnish = Translation(
        "fi",
        {
            "there is no {game} table {table}": "pelillä {game} ei ole pöytää {table}",
            "Casino Blackjack": "Kasinoblackjack",
        },
    )
    error = not_found(
        "there is no {game} table {table}", game=Phrase("Casino Blackjack"), table="'x'"
    )
    assert error.status == 404 and error.message == "there is no Casino Blackjack table 'x'"
    assert translate_error(finnish, error) == "pelillä Kasinoblackjack ei ole pöytää 'x'"
    assert translate_error(i18n.ENGLISH, error) == error.message
    legacy = not_found("casino table 'x'")  # a noun phrase: English, matched if a template fits
    assert legacy.template is None and legacy.message == "there is no casino table 'x'"
    assert translate_error(finnish, legacy) == legacy.message
