"""The browser-test harness itself: the live server answers, its clock and cards are the
test's, and a page signed in through the API carries its cookie."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import CLOCK_START, LiveServer, api_get, page_errors, register


def test_live_server_answers_with_the_tests_clock(live_server: LiveServer) -> None:
    import httpx

    with httpx.Client(base_url=live_server.url) as client:
        assert client.get("/api/online/table").status_code == 200
        assert live_server.tick(12.5) == CLOCK_START + 12.5
        ticked = client.post("/api/test/tick", json={"seconds": 2.5})
        assert ticked.status_code == 200, ticked.text
        assert ticked.json()["now"] == CLOCK_START + 15.0
    assert live_server.clock.now() == CLOCK_START + 15.0


def test_a_page_registered_through_the_api_is_signed_in(
    live_server: LiveServer, new_page: Any
) -> None:
    page = new_page("phone")
    made = register(page, live_server, "harness")
    assert made["name"] == "harness"
    assert api_get(page, live_server, "/api/me")["name"] == "harness"
    page.goto(live_server.url + "/")
    page.wait_for_load_state("networkidle")
    assert [error for error in page_errors(page) if error.startswith("page error")] == []
