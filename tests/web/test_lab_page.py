"""The rules lab page (/lab) in Chromium, signed out: the casino preset's exact house edge, the
strategy chart as the coloured grid of a strategy card, a simulation streamed to its end and
the hand calculator; screenshots at both sizes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.web.conftest import LiveServer, page_errors, screenshot
from twentyone.analysis.hand_calculator import calculate
from twentyone.analysis.house_edge import analyze
from twentyone.analysis.strategy import basic_strategy_analysis
from twentyone.presets import CASINO
from twentyone.server.lab import strategy_card

#: The colours of lab.css for each move (computed background colours).
COLOURS = {
    "hit": "rgb(228, 242, 220)",
    "stand": "rgb(245, 211, 79)",
    "double": "rgb(91, 155, 213)",
    "split": "rgb(240, 160, 75)",
    "surrender": "rgb(224, 108, 108)",
}
MOVE_OF_CODE = {"H": "hit", "S": "stand", "D": "double", "P": "split", "R": "surrender"}


def _cell(page: Any, table: str, row: str, up: str) -> Any:
    return page.locator(f'table[data-table="{table}"] td[data-row="{row}"][data-up="{up}"]')


def _background(locator: Any) -> str:
    return str(locator.evaluate("cell => getComputedStyle(cell).backgroundColor"))


def _open_lab(page: Any, live_server: LiveServer) -> None:
    page.goto(f"{live_server.url}/lab")
    # The first analysis of new rules takes seconds in the worker (the casino preset here).
    page.wait_for_selector("[data-testid=house-edge]", timeout=120_000)
    page.wait_for_selector('table[data-table="pairs"] td.cell')


def test_lab_shows_the_casino_house_edge_and_the_chart(
    live_server: LiveServer, new_page: Callable[..., Any]
) -> None:
    exact = analyze(CASINO)
    page = new_page("desktop")
    _open_lab(page, live_server)
    assert page.get_by_test_id("house-edge").inner_text() == f"{-exact.ev * 100:.3f}%" == "0.435%"
    assert page.get_by_test_id("return").inner_text() == f"{(1 + exact.ev) * 100:.3f}%"
    assert page.get_by_role("radio", name="Casino").get_attribute("aria-checked") == "true"
    assert page.locator("#rule-decks").input_value() == "6"
    assert page.locator("#rule-peek").input_value() == "none"

    # Every cell of the grid is the library's chart, coloured by its move.
    card = strategy_card(basic_strategy_analysis(CASINO).chart.to_json())
    drawn = page.eval_on_selector_all(
        "table.lab-chart td.cell",
        "cells => cells.map(c => [c.closest('table').dataset.table, c.dataset.row, c.dataset.up,"
        " c.textContent.trim()])",
    )
    expected = [
        [table, label, up, code]
        for table in ("hard", "soft", "pairs")
        for label, codes in card[table]
        for up, code in zip(card["up_cards"], codes, strict=True)
    ]
    assert sorted(drawn) == sorted(expected)
    for table, row, up, code, move in (
        ("hard", "16", "T", "Rh", "surrender"),
        ("hard", "17+", "A", "S", "stand"),
        ("hard", "11", "6", "D", "double"),
        ("hard", "16", "7", "H", "hit"),
        ("pairs", "8,8", "6", "P", "split"),
        ("soft", "A,7", "9", "H", "hit"),
        ("soft", "A,7", "4", "Ds", "double"),
    ):
        cell = _cell(page, table, row, up)
        assert cell.inner_text() == code
        assert MOVE_OF_CODE[code[0]] == move
        assert _background(cell) == COLOURS[move], (table, row, up)
    assert "Surrender, else hit" in page.locator(".lab-legend").inner_text()

    # A simulation streamed to its end, compared with the exact figure.
    page.locator("#sim-rounds").select_option("1000000")
    page.locator("#sim-seed").fill("7")
    page.get_by_role("button", name="Simulate").click()
    page.wait_for_selector(".lab-progress[data-state=done]", timeout=120_000)
    bar = page.get_by_role("progressbar", name="Simulation progress")
    assert bar.get_attribute("aria-valuenow") == bar.get_attribute("aria-valuemax") == "1000000"
    result = page.get_by_test_id("simulation-ev").inner_text()
    assert "Simulated EV" in result and f"{basic_strategy_analysis(CASINO).ev * 100:.3f}" in (
        result.replace("\u2212", "-")
    )

    # The hand calculator: ten and six against a nine.
    page.get_by_role("button", name="Add a ten").click()
    page.get_by_role("button", name="Add a 6").click()
    page.get_by_role("radio", name="Dealer's card").click()
    page.get_by_role("button", name="Add a 9").click()
    page.wait_for_selector("table.lab-evs")
    expected_hand = calculate(CASINO, ["TS", "6S"], "9S")
    best = page.locator("table.lab-evs tr.best")
    assert best.get_attribute("data-action") == expected_hand.best == "surrender"
    stand = page.locator('table.lab-evs tr[data-action="stand"] td.num').inner_text()
    assert stand.replace("\u2212", "-") == f"{expected_hand.actions['stand'] * 100:.2f}%"
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "lab-desktop")

    phone = new_page("phone")
    _open_lab(phone, live_server)
    assert phone.get_by_test_id("house-edge").inner_text() == "0.435%"
    assert _background(_cell(phone, "hard", "16", "T")) == COLOURS["surrender"]
    screenshot(phone, "lab-phone")

    # The preset picker fills the form with the other preset's rules.
    phone.get_by_role("radio", name="Online").click()
    assert phone.locator("#rule-peek").input_value() == "ace-ten"
    assert phone.locator("#rule-shuffle").input_value() == "round"
    for opened in (page, phone):
        assert not [error for error in page_errors(opened) if error.startswith("page error")]
