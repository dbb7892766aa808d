"""The solver reproduces the spec's logic table and published figures; the data file is current."""

from __future__ import annotations

from fractions import Fraction
from importlib import resources

import pytest

from twentyone.analysis.exchange.odds import player_model
from twentyone.analysis.exchange.solver import (
    overall_ev,
    solve_logic_table,
    table_json,
    two_card_ev,
)
from twentyone.exchange.logic_table import (
    SOFT_TOTALS,
    UP_CARDS,
    LogicTable,
    LogicTableError,
    load_logic_table,
    pattern_for,
)

# The reference table of spec/exchange-blackjack.md, columns 2..9, T, A.
SPEC_HARD = {
    12: "H H H3 H3 H3 H H H H H",
    13: "H3 H4 H4 H4 H4 H H H H H",
    14: "H4 H4 H4 H4 H4 H H H H H",
    15: "H4 H4 H4 H4 H4 H H H H H",
    16: "H4 H4 S S S H H H H3 H",
    17: "S S S S S S S H4 H4 H4",
}
SPEC_SOFT = {
    18: "H3 H3 H3 H3 H3 H4 H3 H H H",
    19: "H4 H4 H4 H4 H4 H4 H4 H4 H3 H3",
    20: "H4 H4 H4 H4 H4 H4 H4 H4 H4 H4",
    21: "H4 H4 H4 H4 H4 H4 H4 H4 H4 H4",
}
for _total in range(4, 12):
    SPEC_HARD[_total] = " ".join(["H"] * 10)
for _total in range(18, 22):
    SPEC_HARD[_total] = " ".join(["S"] * 10)
for _total in range(12, 18):
    SPEC_SOFT[_total] = " ".join(["H"] * 10)
# The spec allows these three thin cells to differ (total, soft, up value).
THIN_CELLS = {(16, False, 10), (17, False, 8), (19, True, 1)}


@pytest.fixture(scope="module")
def solved() -> LogicTable:
    return solve_logic_table()


def test_solver_reproduces_every_cell_of_the_spec_table(solved: LogicTable) -> None:
    differences = []
    for soft, rows in ((False, SPEC_HARD), (True, SPEC_SOFT)):
        for total, row in rows.items():
            for up, code in zip(UP_CARDS, row.split(), strict=True):
                if solved.code(total, soft, up) != code and (total, soft, up) not in THIN_CELLS:
                    differences.append((total, soft, up, solved.code(total, soft, up), code))
    assert differences == []
    assert set(SPEC_SOFT) == set(SOFT_TOTALS)


def test_solver_even_matches_the_thin_cells(solved: LogicTable) -> None:
    assert solved.code(16, False, 10) == "H3"
    assert solved.code(17, False, 8) == "S"
    assert solved.code(19, True, 1) == "H3"


def test_shipped_data_file_is_what_the_solver_writes(solved: LogicTable) -> None:
    shipped = resources.files("twentyone").joinpath("data", "exchange_logic_table.json")
    assert shipped.read_text("utf-8") == table_json(solved)
    assert load_logic_table() == solved


def test_house_edge_is_3_90_percent() -> None:
    ev = overall_ev()
    assert f"{float(-ev):.4f}" == "0.0390"
    assert f"{float(-ev) * 100:.3f}" == "3.896"


def test_published_two_card_ev_row_for_a_total_of_4() -> None:
    published = ["0.0211", "0.0532", "0.0850", "0.1149", "0.1365", "0.0967", "0.0535", "0.0090"]
    assert [f"{float(two_card_ev((2, 2), up)):.4f}" for up in range(2, 10)] == published


def test_start_of_game_figures() -> None:
    model = player_model()
    from twentyone.analysis.exchange.odds import exchange_odds
    from twentyone.exchange.state import ExchangeState

    state = ExchangeState.from_json({"players": [[], [], [], []], "dealer": [], "played": False})
    odds = exchange_odds(state, model.table, exact=True)
    player = odds["Player 1"]
    assert player is not None
    assert [f"{float(player[k]):.4f}" for k in ("win", "tie", "lose")] == [
        "0.4398",
        "0.0813",
        "0.4788",
    ]
    assert player.win + player.tie + player.lose == 1
    assert isinstance(player.win, Fraction)
    assert f"{float(4 * player.win):.2f}" == "1.76"
    assert f"{float(player.lose - player.win):.4f}" == "0.0390"


def test_table_codes_round_trip_and_bad_files_are_refused() -> None:
    assert pattern_for("H3") == (False, True, True)
    assert pattern_for("HSH") == (True, False, True)
    with pytest.raises(LogicTableError, match="unknown logic table code"):
        pattern_for("X")
    table = load_logic_table()
    assert LogicTable.from_json(table.to_json()) == table
    broken = table.to_json()
    del broken["hard"]["12"]
    with pytest.raises(LogicTableError, match="row hard 12"):
        LogicTable.from_json(broken)
    with pytest.raises(LogicTableError, match="JSON object"):
        LogicTable.from_json([])
