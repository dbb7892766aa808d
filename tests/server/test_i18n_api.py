"""The languages over HTTP (server/i18n.py): the chosen language, the web catalogues with their
ETag, and errors and rules texts answered in the request's language (docs/i18n.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import write_po

from tests.server.conftest import Api
from twentyone import i18n
from twentyone.server import i18n as server_i18n

pytestmark = pytest.mark.anyio


@pytest.fixture
def finnish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A small Finnish catalogue in place of the real one (the caches cleared around it)."""
    catalog = Catalog(locale="fi")
    web = [("src/twentyone/web/js/app.js", 1)]
    server = [("src/twentyone/server/app.py", 1)]
    catalog["Lobby"] = Message("Lobby", "Aula", locations=web)
    catalog["wrong name or password"] = Message(
        "wrong name or password", "väärä nimi tai salasana", locations=server
    )
    catalog["the name {name} is taken"] = Message(
        "the name {name} is taken", "nimi {name} on jo käytössä", locations=server
    )
    catalog["ties push"] = Message("ties push", "tasapeli palauttaa panoksen", locations=server)
    catalog["How a round goes"] = Message(
        "How a round goes", "Näin kierros etenee", locations=server
    )
    for msgid, msgstr in {
        "{field} must be a whole number": "kentän {field} on oltava kokonaisluku",
        "the request body is not valid JSON": "pyynnön runko ei ole kelvollista JSONia",
        "there is no such page": "sivua ei ole",
        "there is no {game} table {table}": "pelillä {game} ei ole pöytää {table}",
        "Online Blackjack": "Verkkoblackjack",
        "there is no round {round}": "kierrosta {round} ei ole",
        "twentyone needs JavaScript in the browser.": "twentyone tarvitsee JavaScriptiä.",
    }.items():
        catalog[msgid] = Message(msgid, msgstr, locations=server)
    path = tmp_path / "messages.po"
    with open(path, "wb") as handle:
        write_po(handle, catalog)
    monkeypatch.setattr(i18n, "catalogue_path", lambda language: str(path))
    caches = (i18n.catalogue, server_i18n._patterns, server_i18n._bodies)
    for entry in caches:
        entry.cache_clear()
    yield
    for entry in caches:
        entry.cache_clear()


async def test_the_language_comes_from_the_cookie_then_the_browser(api: Api) -> None:
    async with api.client() as browser:
        plain = (await browser.get("/api/i18n")).json()
        assert plain["language"] == "en" and plain["source"] == "en"
        assert [item["code"] for item in plain["languages"]] == ["en", "fi", "tr", "nb", "pt-BR"]
        asked = await browser.get("/api/i18n", headers={"accept-language": "nb-NO,nb;q=0.9"})
        assert asked.json()["language"] == "nb"
        browser.cookies.set("lang", "tr")
        chosen = await browser.get("/api/i18n", headers={"accept-language": "nb"})
        assert chosen.json()["language"] == "tr"  # the switcher's choice wins
        browser.cookies.set("lang", "xx")
        assert (await browser.get("/api/i18n", headers={"accept-language": "fi"})).json()[
            "language"
        ] == "fi"  # an unknown cookie is ignored


async def test_a_catalogue_has_the_web_messages_and_an_etag(api: Api, finnish: None) -> None:
    async with api.client() as browser:
        answer = await browser.get("/api/i18n/fi")
        assert answer.status_code == 200
        body = answer.json()
        assert body["language"] == "fi" and body["plurals"] == 2
        assert body["messages"] == {"Lobby": "Aula"}  # only what the web interface uses
        tag = answer.headers["etag"]
        again = await browser.get("/api/i18n/fi", headers={"if-none-match": tag})
        assert again.status_code == 304 and again.content == b""
        english = await browser.get("/api/i18n/en")
        assert english.json()["messages"] == {}
        missing = await browser.get("/api/i18n/de")
        assert missing.status_code == 404 and "the languages are" in missing.json()["error"]


async def test_errors_answer_in_the_request_language(api: Api, finnish: None) -> None:
    await (await api.player("ann")).aclose()
    async with api.client() as browser:
        wrong = {"name": "ann", "password": "not the password"}
        english = await browser.post("/api/session", json=wrong)
        assert english.status_code == 401 and english.json() == {"error": "wrong name or password"}
        translated = await browser.post(
            "/api/session", json=wrong, headers={"accept-language": "fi"}
        )
        assert translated.status_code == 401
        assert translated.json() == {"error": "väärä nimi tai salasana"}
        browser.cookies.set("lang", "fi")
        taken = await browser.post("/api/accounts", json={"name": "ann", "password": "password123"})
        assert taken.status_code == 409 and taken.json() == {"error": "nimi 'ann' on jo käytössä"}
        untranslated = await browser.post("/api/accounts", json={"name": "x", "password": "p"})
        assert untranslated.status_code == 422 and untranslated.json()["error"].startswith("a name")


async def test_rules_texts_answer_in_the_request_language(api: Api, finnish: None) -> None:
    async with api.client() as browser:
        english = (await browser.get("/api/rules/online?figures=false")).json()
        translated = (
            await browser.get("/api/rules/online?figures=false", headers={"accept-language": "fi"})
        ).json()
    assert english["sections"][0]["heading"] == "How a round goes"
    assert translated["sections"][0]["heading"] == "Näin kierros etenee"
    rules = translated["sections"][1]["items"]
    assert "Tasapeli palauttaa panoksen." in rules  # a core rules line, translated then a sentence
    assert "Dealer stands on soft 17." in rules  # not translated: the English line
    assert english["title"] == "Online Blackjack" and translated["title"] == "Verkkoblackjack"


async def test_the_pages_name_the_request_language_in_html_lang(api: Api) -> None:
    async with api.client() as browser:
        plain = await browser.get("/")
        assert plain.status_code == 200 and '<html lang="en" data-lang-from="server">' in plain.text
        asked = await browser.get("/vinte/abc", headers={"accept-language": "pt-PT,pt;q=0.9"})
        assert '<html lang="pt-BR"' in asked.text and "importmap" in asked.text
        assert "accept-language" in asked.headers["vary"]
        browser.cookies.set("lang", "tr")
        chosen = await browser.get("/lobby-is-not-a-page")
        assert chosen.status_code == 404  # only the pages' paths are index.html
        assert '<html lang="tr"' in (await browser.get("/online")).text


async def test_validation_and_look_up_errors_answer_in_the_request_language(
    api: Api, finnish: None
) -> None:
    bot = await api.player("ann")
    try:
        # English: our sentences by pydantic's problem type, never pydantic's own words.
        english = await bot.post("/api/online/rounds", json={"bet": "ten"})
        assert english.status_code == 422
        assert english.json() == {"error": "bet must be a whole number"}
        extra = await bot.post("/api/online/rounds", json={"bet": 100, "tip": 1})
        assert extra.json() == {"error": "tip is not a field of this request"}
        broken = await bot.post(
            "/api/online/rounds", content=b"{", headers={"content-type": "application/json"}
        )
        assert broken.json() == {"error": "the request body is not valid JSON"}
        limit = await bot.get("/api/me/statement", params={"limit": 0})
        assert limit.json() == {"error": "limit must be at least 1"}
        fi = {"accept-language": "fi"}
        translated = await bot.post("/api/online/rounds", json={"bet": "ten"}, headers=fi)
        assert translated.json() == {"error": "kentän bet on oltava kokonaisluku"}
        nothing = await bot.get("/api/online/rounds/99", headers=fi)
        assert nothing.status_code == 404 and nothing.json() == {"error": "kierrosta 99 ei ole"}
        page = await bot.get("/api/no-such-thing", headers=fi)
        assert page.status_code == 404 and page.json() == {"error": "sivua ei ole"}
        table = await bot.get("/api/rules/online?table=nope&figures=false", headers=fi)
        assert table.status_code == 404
        assert table.json() == {"error": "pelillä Verkkoblackjack ei ole pöytää 'nope'"}
        english_table = await bot.get("/api/rules/online?table=nope&figures=false")
        assert english_table.json() == {"error": "there is no Online Blackjack table 'nope'"}
    finally:
        await bot.aclose()


async def test_the_page_s_own_sentences_are_translated_in_its_copy(api: Api, finnish: None) -> None:
    from twentyone.server.web import INDEX_TEXTS, web_folder

    index = (web_folder() / "index.html").read_text(encoding="utf-8")
    assert all(sentence in index for sentence in INDEX_TEXTS)  # worded as index.html has them
    async with api.client() as browser:
        finnish_page = (await browser.get("/", headers={"accept-language": "fi"})).text
        english_page = (await browser.get("/")).text
    assert "<noscript>twentyone tarvitsee JavaScriptiä.</noscript>" in finnish_page
    assert INDEX_TEXTS[0] in finnish_page  # untranslated in this catalogue: the English
    assert "<noscript>twentyone needs JavaScript in the browser.</noscript>" in english_page


async def test_the_lab_form_answers_in_the_request_language(api: Api) -> None:
    """The rules lab's labels and help (marked in twentyone.rule_options) in the real
    catalogues of every language, English when none is asked for."""
    async with api.client() as browser:
        english = (await browser.get("/api/lab/options")).json()["options"]
        assert english[0]["label"] == "Decks"
        for language, header in (("fi", "fi"), ("tr", "tr"), ("nb", "nb"), ("pt-BR", "pt-BR")):
            t = i18n.translation(language)
            asked = await browser.get("/api/lab/options", headers={"accept-language": header})
            options = asked.json()["options"]
            assert [o["name"] for o in options] == [o["name"] for o in english]
            for mine, theirs in zip(options, english, strict=True):
                assert mine["label"] == t._(theirs["label"]) != theirs["label"], language
                assert mine["help"] == t._(theirs["help"]), language
