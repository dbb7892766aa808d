"""The browser's provably fair check (web/js/fairness.js) gives exactly the cards of
:mod:`twentyone.fairness`, in headless Chromium, and names the first card of a tampered record.

The page is served by a plain static file server over the web folder (WebCrypto needs a secure
origin: 127.0.0.1 is one), so the module is tested alone, without the application server.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import pytest

from twentyone.fairness import FairnessRecord, commitment, infinite_cards, shuffled_shoe
from twentyone.server.web import web_folder


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def static_url() -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(web_folder()))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def page(static_url: str, new_page: Callable[..., Any]) -> Any:
    """A page of the static server with the module loaded as ``window.fair``."""
    opened = new_page("desktop")
    opened.goto(f"{static_url}/vendor/lock.json")
    opened.evaluate("async () => { window.fair = await import('/js/fairness.js'); }")
    return opened


SEEDS = ["00" * 32, "0123456789abcdef" * 4, "f" * 64, "9e3779b97f4a7c15" * 4]


@pytest.mark.parametrize(
    ("seed", "client_seed", "nonce", "decks"),
    [
        (SEEDS[0], "abc", 0, 6),
        (SEEDS[1], "my lucky seed", 7, 1),
        (SEEDS[2], "~ !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}", 123456, 8),
        (SEEDS[3], "x", 2**31 + 5, 6),
        (SEEDS[1], "table:casino-1", 0, 2),
    ],
)
def test_the_whole_shoe_matches_python(
    page: Any, seed: str, client_seed: str, nonce: int, decks: int
) -> None:
    got = page.evaluate(
        "([s, c, n, d]) => window.fair.shuffledShoe(s, c, n, d)", [seed, client_seed, nonce, decks]
    )
    assert got == [str(card) for card in shuffled_shoe(seed, client_seed, nonce, decks)]
    assert len(got) == 52 * decks


@pytest.mark.parametrize(
    ("seed", "client_seed", "nonce"), [(SEEDS[0], "abc", 0), (SEEDS[2], "z", 9)]
)
def test_the_infinite_deck_matches_python(
    page: Any, seed: str, client_seed: str, nonce: int
) -> None:
    got = page.evaluate(
        "([s, c, n]) => window.fair.shuffledShoe(s, c, n, null, 300)", [seed, client_seed, nonce]
    )
    assert got == [str(card) for card in infinite_cards(seed, client_seed, nonce, 300)]


def test_the_commitment_is_the_sha256_of_the_seed_text(page: Any) -> None:
    for seed in SEEDS:
        assert page.evaluate("(s) => window.fair.commitment(s)", seed) == commitment(seed)


def _verify(page: Any, record: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("(r) => window.fair.verifyRecord(r)", record)
    return result


@pytest.mark.parametrize(
    ("decks", "position", "count"), [(6, 0, 9), (1, 40, 12), (8, 300, 5), (None, 3, 11)]
)
def test_a_true_record_verifies(page: Any, decks: int | None, position: int, count: int) -> None:
    record = FairnessRecord.of_shoe(SEEDS[1], "client", 4, decks, count, position).to_json()
    result = _verify(page, record)
    assert result["ok"] is True
    assert result["commitmentOk"] is True
    assert result["firstDifference"] is None
    assert result["expected"] == record["cards"]
    # A whole round (the API's shape) verifies as its record does.
    assert _verify(page, {"id": 3, "fairness": record})["ok"] is True


def test_a_changed_card_is_named(page: Any) -> None:
    record = FairnessRecord.of_shoe(SEEDS[0], "abc", 0, 6, 6).to_json()
    assert record["cards"][:4] == ["9D", "2H", "8S", "3H"]
    tampered = {**record, "cards": [*record["cards"][:3], "3S", *record["cards"][4:]]}
    result = _verify(page, tampered)
    assert result["ok"] is False
    assert result["commitmentOk"] is True
    assert result["firstDifference"] == {"index": 3, "position": 3, "expected": "3H", "got": "3S"}


def test_a_changed_card_in_a_casino_shoe_gives_its_shoe_position(page: Any) -> None:
    record = FairnessRecord.of_shoe(SEEDS[3], "casino-1", 0, 6, 8, 120).to_json()
    cards = list(record["cards"])
    cards[5] = "AS" if cards[5] != "AS" else "KD"
    result = _verify(page, {**record, "cards": cards})
    assert result["firstDifference"] == {
        "index": 5,
        "position": 125,
        "expected": record["cards"][5],
        "got": cards[5],
    }


def test_a_wrong_commitment_fails_even_when_the_cards_match(page: Any) -> None:
    record = FairnessRecord.of_shoe(SEEDS[0], "abc", 0, 6, 4).to_json()
    result = _verify(page, {**record, "commitment": commitment(SEEDS[1])})
    assert result["ok"] is False
    assert result["commitmentOk"] is False
    assert result["firstDifference"] is None


def test_an_unrevealed_or_malformed_record_is_refused_not_thrown(page: Any) -> None:
    record = FairnessRecord.of_shoe(SEEDS[0], "abc", 0, 6, 4).to_json()
    for broken in (
        {**record, "server_seed": None},
        {**record, "nonce": -1},
        {**record, "position": 400 * 6},
    ):
        result = _verify(page, broken)
        assert result["ok"] is False
        assert result["error"]
