"""The site in each of its five languages (docs/i18n.md), in Chromium, against the real server.

For each language a browser whose ``Accept-Language`` asks for it (Playwright's ``locale``; no
cookie, nothing stored) opens the lobby, a Vinte-e-um table in play (created and started through
the API: the person at seat 0 bets against a bot's bank, bots in the other seats) and the
``exchange-1`` table after its first betting round closed, at phone (390x844) and desktop
(1280x800) size, signed in. Screenshots: ``artifacts/screenshots/lang-<language>-<page>-<size>.png``;
people look at them (docs/i18n.md, "Looked at").

Each page is checked, not only drawn:
- the server's ``<html lang>`` (index.html rendered in the request's language) and the page's after
  its script ran both name the language;
- the page's visible text is in that language: each of a few labels that page shows (in English,
  the labels themselves, so the list cannot go stale) appears translated, read from the
  catalogue at run time, and its English does not; a language whose catalogue translates none
  of a page's labels fails (it is never skipped);
- no visible line of the page is the English of a message its catalogue translates (an English
  leftover: a text drawn without ``_()``, or a stale extraction);
- the header's balance is in the language's number format (integer minor units, ui.js);
- at phone size nothing scrolls sideways (``document.scrollingElement.scrollWidth <= innerWidth``).
"""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest

from tests.web.conftest import LiveServer, api_post, page_errors, register, screenshot, sign_in
from twentyone.i18n import LANGUAGES, catalogue, placeholders

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
#: The browser locale that asks for each language (its Accept-Language).
LOCALES = {"en": "en-US", "fi": "fi-FI", "tr": "tr-TR", "nb": "nb-NO", "pt-BR": "pt-BR"}
#: The starting grant, 1,000.00, as the header shows it in each language (ui.js formatMoney:
#: Intl's grouping and decimal mark around integer arithmetic).
BALANCE = {
    "en": "1,000.00",
    "fi": "1\u00a0000,00",
    "tr": "1.000,00",
    "nb": "1\u00a0000,00",
    "pt-BR": "1.000,00",
}
#: Labels each page shows (English message ids of the web interface).
LABELS = {
    "lobby": ("The games", "Live tables", "Rules and payouts", "Compare the rules in the lab"),
    "vinte": ("Standings", "At the table", "Invite link", "Your bet: choose how many chips"),
    "exchange": ("Bet slip", "Dealer wins or ties all", "Recent games", "Provably fair"),
    "login": ("Welcome back", "Name", "Password", "New here?"),
}
TABLE_SETTINGS = {
    "name": "Vinte 21",
    "seats": 4,
    "stack": 50,
    "first_banker": 1,  # a bot banks: seat 0, the person, has a bet to place
    "decision_seconds": 120,  # no deadline passes while the shots are taken (30 s ticked)
    "hints": False,
}


def normal(text: str) -> str:
    """Text compared as a reader sees it: CSS may upper-case a label (Turkish İ and ı
    included), and lines wrap."""
    folded = unicodedata.normalize("NFC", text).lower().replace("\u0307", "").replace("ı", "i")
    return " ".join(folded.split())


def translations(language: str) -> dict[str, str]:
    """The web interface's messages that ``language`` translates differently from English (no
    placeholders: whole texts as a page shows them)."""
    if language == "en":
        return {}
    found = catalogue(language).web
    return {
        msgid: text
        for msgid, text in found.items()
        if isinstance(text, str) and not placeholders(msgid) and normal(text) != normal(msgid)
    }


def visible_text(page: Any) -> str:
    return str(page.evaluate("() => document.body.innerText"))


def check_language(page: Any, language: str, name: str) -> list[str]:
    """The checks of the module's docstring for one page; the labels it found translated."""
    assert page.evaluate("() => document.documentElement.lang") == language
    text = visible_text(page)
    seen = normal(text)
    if language == "en":
        missing = [label for label in LABELS[name] if normal(label) not in seen]
        assert not missing, f"the {name} page does not show {missing}: update LABELS"
        return list(LABELS[name])
    table = translations(language)
    translated = [label for label in LABELS[name] if label in table]
    assert translated, f"{language}: none of the {name} page's labels {LABELS[name]} is translated"
    for label in translated:
        assert normal(table[label]) in seen, f"{language} {name}: {table[label]!r} not shown"
        if normal(label) not in normal(table[label]):
            assert normal(label) not in seen, f"{language} {name}: {label!r} still in English"
    english = {normal(msgid): msgid for msgid in table if len(msgid) > 3}
    leftovers = sorted({english[line] for line in map(normal, text.split("\n")) if line in english})
    assert not leftovers, f"{language} {name}: English lines on the page: {leftovers}"
    return translated


def check_page(page: Any, language: str, name: str, size: str) -> None:
    check_language(page, language, name)
    if size == "phone":
        width = page.evaluate("() => document.scrollingElement.scrollWidth")
        inner = page.evaluate("() => window.innerWidth")
        assert width <= inner, f"{language} {name}: the phone page scrolls sideways ({width}px)"
    errors = [error for error in page_errors(page) if "page error" in error]
    assert errors == [], errors
    screenshot(page, f"lang-{language}-{name}-{size}")


def start_table(page: Any, live: LiveServer) -> str:
    made = api_post(page, live, "/api/vinte/tables", TABLE_SETTINGS)
    table = str(made["table"]["id"])
    api_post(page, live, f"/api/vinte/tables/{table}/start")
    return table


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_pages_speak_the_language_of_the_browser(
    live_server: LiveServer, new_page: Any, language: str
) -> None:
    live = live_server
    table = ""
    for size, viewport in SIZES.items():
        page = new_page(size, viewport=viewport, locale=LOCALES[language])
        if not table:
            register(page, live, "ana")
            table = start_table(page, live)
            live.tick(30)  # exchange-1's first betting round closes: nine cards are turned
        else:
            sign_in(page, live, "ana")

        answer = page.goto(f"{live.url}/")
        assert answer is not None and f'<html lang="{language}" data-lang' in answer.text()
        page.locator(".table-list a").first.wait_for()
        # The header's balance, its grouping space whichever space the language uses.
        page.wait_for_function(
            "amount => document.querySelector('header').innerText.replace(/\\s/g, ' ')"
            ".includes(amount)",
            arg=" ".join(BALANCE[language].split()),
        )
        check_page(page, language, "lobby", size)

        page.goto(f"{live.url}/vinte/{table}")
        page.locator('.vt-seat[data-seat="0"] .own-hidden').wait_for()
        page.locator('.vt-seat[data-seat="1"] .banker-badge').wait_for()
        check_page(page, language, "vinte", size)

        page.goto(f"{live.url}/exchange/exchange-1")
        page.locator(".ex-market .ex-row").first.wait_for()
        page.locator('.ex-felt .card:not([data-card="back"])').nth(8).wait_for()
        check_page(page, language, "exchange", size)


def test_the_switcher_applies_a_language_without_a_reload_and_the_server_follows_it(
    live_server: LiveServer, new_page: Any
) -> None:
    live = live_server
    finnish = catalogue("fi").translation
    page = new_page("phone", viewport=SIZES["phone"], locale="en-US")
    register(page, live, "ana")
    page.context.clear_cookies()  # signed out again: the sign-in form is the page
    page.goto(f"{live.url}/login")
    page.get_by_role("button", name="Sign in", exact=True).wait_for()
    page.evaluate("() => { window.notReloaded = true; }")

    page.locator("#language-switcher").select_option("fi")
    page.wait_for_function("() => document.documentElement.lang === 'fi'")
    sign_in_label = finnish.gettext("Sign in")
    assert sign_in_label != "Sign in", "fi does not translate 'Sign in' yet"
    page.get_by_role("button", name=sign_in_label, exact=True).wait_for()
    assert page.evaluate("() => window.notReloaded") is True  # applied in place
    check_language(page, "fi", "login")

    # The choice went to the server too (the cookie): its refusal comes back in Finnish.
    page.get_by_label(finnish.gettext("Name")).fill("ana")
    page.get_by_label(finnish.gettext("Password")).fill("not the password")
    page.get_by_role("button", name=sign_in_label, exact=True).click()
    wrong = finnish.gettext("wrong name or password")
    assert wrong != "wrong name or password", "fi does not translate the sign-in refusal yet"
    page.get_by_text(wrong).wait_for()

    # A reload keeps it: the server renders the page in Finnish, then the stored choice holds.
    answer = page.reload()
    assert answer is not None and '<html lang="fi"' in answer.text()
    page.get_by_role("button", name=sign_in_label, exact=True).wait_for()
    assert page.evaluate("() => localStorage.getItem('lang')") == "fi"
    errors = [error for error in page_errors(page) if "page error" in error]
    assert errors == [], errors
