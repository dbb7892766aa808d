"""HouseTable.refusal (why an action would be refused) and the session summaries."""

from __future__ import annotations

from twentyone.cards import parse_cards
from twentyone.house.actions import DOUBLE, HIT, SPLIT, STAND
from twentyone.presets import CASINO
from twentyone.shoe import ScriptedShoe
from twentyone.tables.house import HouseTable
from twentyone.tables.summary import track_house


def test_refusal_says_why_and_changes_nothing() -> None:
    table = HouseTable.session(CASINO, ScriptedShoe(parse_cards("TS 9D 2H 3C 8S")), 100_00)
    assert table.refusal(HIT) == "there is no round in play"
    round_ = table.start_round([10_00])
    assert table.refusal(DOUBLE) is None and table.refusal(HIT) is None
    assert "only cards of equal value split" in (table.refusal(SPLIT) or "")
    table.act(HIT)
    before = (round_.to_json(), table.bankroll)
    assert table.refusal(DOUBLE) == "box 0 hand 0 has 3 cards; double needs the first two"
    assert (round_.to_json(), table.bankroll) == before


def test_refusal_names_the_bankroll_when_a_double_cannot_be_paid() -> None:
    table = HouseTable.session(CASINO, ScriptedShoe(parse_cards("TS 9D 2H 8S")), 10_00)
    table.start_round([10_00])
    assert table.refusal(DOUBLE) == "double needs 10.00; you have 0.00"
    assert DOUBLE not in table.legal_actions()


def test_house_summary_follows_the_settled_rounds() -> None:
    # Round 1: 18 against 17 (+10.00); round 2: the same cards, twice the bet (+20.00);
    # round 3: 16 against 17, standing (-10.00).
    cards = "TS 9D 8H 8S " * 2 + "TS 9D 6H 8S"
    table = HouseTable.session(CASINO, ScriptedShoe(parse_cards(cards)), 100_00)
    summary = track_house(table)
    table.start_round([10_00])
    table.act(STAND)
    table.double_bet()
    table.act(STAND)
    table.start_round([10_00])
    table.act(STAND)
    assert (summary.rounds, summary.won, summary.lost, summary.pushed) == (3, 2, 1, 0)
    assert (summary.net, summary.biggest_win) == (20_00, 20_00)
    assert summary.net == table.bankroll - 100_00
