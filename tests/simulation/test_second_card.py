"""No hole card: the kernel draws the dealer's second card only if a bet can still change with
it (rules-common.md), as the engine does; the engine replays every round to the same net."""

from __future__ import annotations

import pytest

from twentyone.analysis.strategy import basic_strategy
from twentyone.cards import parse_cards
from twentyone.presets import CASINO
from twentyone.scenario import run_scenario
from twentyone.simulation.runner import SimulationConfig
from twentyone.simulation.trace import scenario, trace_round
from twentyone.strategy_chart import StrategyChart


def _surrendering_chart() -> StrategyChart:
    """The basic strategy, except that a hard 20 surrenders against a 4."""
    chart = basic_strategy(CASINO)
    hard = {total: dict(cells) for total, cells in chart.hard.items()}
    hard[20][4] = "Rs"
    return StrategyChart(hard, chart.soft, chart.pairs)


@pytest.mark.parametrize(
    ("cards", "chart", "insure", "decisions", "used", "net"),
    [
        # A lone blackjack under a 7: nothing can change, no second card.
        ("AS 7H KD 5C", None, False, (), 3, 1500),
        # A surrendered 20 against a 4: nothing can change either.
        ("TS 4H TD 9C", "surrender", False, ("surrender",), 3, -500),
        # Under a ten or an ace the dealer may still make a blackjack: the card is drawn.
        ("AS TH KD 9C", None, False, (), 4, 1500),
        ("AS TH KD AC", None, False, (), 4, 0),
        ("AS AH KD 9C", None, False, ("no-insurance",), 4, 1500),
        # Insurance taken is settled by the second card.
        ("TS AH 8D KC", None, True, ("insurance 500", "stand"), 4, 0),
        # A hand still in play needs the dealer's total.
        ("TS 7H 9D 5C 6D", None, False, ("stand",), 5, 1000),
    ],
)
def test_the_second_card_is_drawn_only_when_a_bet_depends_on_it(
    cards: str,
    chart: str | None,
    insure: bool,
    decisions: tuple[str, ...],
    used: int,
    net: int,
) -> None:
    played = _surrendering_chart() if chart else basic_strategy(CASINO)
    config = SimulationConfig(CASINO, played, insure_at=-1e9 if insure else None)
    traced = trace_round(config, parse_cards(cards))
    assert (traced.decisions, traced.cards_used, traced.net) == (decisions, used, net)
    assert run_scenario(scenario(CASINO, traced))["boxes"][0]["net"] == net
