"""Play one round of the compiled kernel from given cards and write it down as a scenario.

This is how the kernels are checked against the pure-Python engine: the same cards and the
kernel's own decisions, replayed by :func:`twentyone.scenario.run_scenario`, must give the same
net for the box.

>>> from twentyone.cards import parse_cards
>>> from twentyone.presets import CASINO
>>> from twentyone.analysis.strategy import basic_strategy
>>> config = SimulationConfig(CASINO, basic_strategy(CASINO))
>>> traced = trace_round(config, parse_cards("8S 6H 8D 3C TD 9S TH 7C 2D"))
>>> traced.decisions, traced.cards_used, traced.net
(('split', 'double', 'stand'), 8, 3000)
>>> from twentyone.scenario import run_scenario
>>> run_scenario(scenario(config.rules, traced))["boxes"][0]["net"]
3000

Several boxes are dealt in table order and replayed as a scenario with as many boxes:

>>> table = SimulationConfig(CASINO, basic_strategy(CASINO), boxes=2)
>>> traced = trace_round(table, parse_cards("TS 5H 6D 2C 4H 9S 3C 7D TH"))
>>> traced.decisions, traced.nets  # 12 stands, 9 doubles to 18; the dealer busts
(('stand', 'double'), (1000, 2000))
>>> [box["net"] for box in run_scenario(scenario(table.rules, traced))["boxes"]]
[1000, 2000]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from twentyone.cards import RANKS, Card
from twentyone.presets import CASINO, ONLINE
from twentyone.rules import PLAYING_RULE_KEYS, Peek, Rules
from twentyone.simulation import kernels
from twentyone.simulation.encoding import ticks_per_unit
from twentyone.simulation.errors import SimulationError
from twentyone.simulation.runner import KernelInputs, SimulationConfig, play_rounds

_DECISIONS = {
    kernels.DECISION_NO_INSURANCE: "no-insurance",
    kernels.DECISION_HIT: "hit",
    kernels.DECISION_STAND: "stand",
    kernels.DECISION_DOUBLE: "double",
    kernels.DECISION_SPLIT: "split",
    kernels.DECISION_SURRENDER: "surrender",
    kernels.DECISION_NO_SURRENDER: "no-surrender",
}
_MAX_DECISIONS = 256


@dataclass(frozen=True)
class TracedRound:
    """What the kernel did with the cards: how many it used, its decisions, each box's net."""

    cards: tuple[Card, ...]  # the cards used, top first
    decisions: tuple[str, ...]  # scenario decision strings, in the engine's order
    nets: tuple[int, ...]  # minor units, for boxes that each bet ``bet``, left to right
    bet: int

    @property
    def cards_used(self) -> int:
        return len(self.cards)

    @property
    def net(self) -> int:
        """The whole table's net (the box's, with one box)."""
        return sum(self.nets)


def rank_of(card: Card) -> int:
    """Kernel rank: 1 for an ace ... 10 ten, 11 jack, 12 queen, 13 king."""
    return RANKS.index(card.rank) + 1


def trace_round(config: SimulationConfig, cards: Sequence[Card], bet: int = 1000) -> TracedRound:
    """Play one round at ``bet`` minor units from ``cards`` (top first) with the kernel.

    ``bet`` must make every payout whole (a multiple of ``2 * blackjack_pays.denominator``);
    the count, if the config has one, starts from a fresh shoe.
    """
    per_unit = ticks_per_unit(config.rules)
    if bet < 1 or bet % per_unit:
        raise SimulationError(f"bet must be a positive multiple of {per_unit}, got {bet}")
    inputs = KernelInputs.from_config(config)
    params = inputs.rule_params.copy()
    params[kernels.RP_SHUFFLE] = kernels.SHUFFLE_SCRIPTED
    ranks = np.array([rank_of(card) for card in cards], dtype=np.int8)
    trace = np.zeros(_MAX_DECISIONS, dtype=np.int64)
    state = np.zeros(kernels.SS_SIZE, dtype=np.int64)
    stats = np.zeros(kernels.ST_SIZE, dtype=np.int64)
    no_random = np.zeros(4, dtype=np.uint64)  # nothing is random in a scripted round
    # The same kernel as a simulation of this config.
    box_work = play_rounds(inputs, params, no_random, 1, stats, ranks, state, trace)
    net_ticks = [int(net) for net in box_work[kernels.BW_NET]]
    used = int(state[kernels.SS_POS])
    decisions = int(state[kernels.SS_TRACE_LEN])
    ran_out = int(state[kernels.SS_ERROR])
    if decisions > _MAX_DECISIONS:
        raise SimulationError(f"the round made more than {_MAX_DECISIONS} decisions")
    if ran_out:
        raise SimulationError(f"the round needed more than the {len(cards)} cards given")
    names = []
    for code in trace[:decisions]:
        if code == kernels.DECISION_INSURANCE:
            names.append(f"insurance {bet // 2}")
        else:
            names.append(_DECISIONS[int(code)])
    nets = tuple(net * bet // per_unit for net in net_ticks)
    return TracedRound(tuple(cards[:used]), tuple(names), nets, bet)


def scenario(rules: Rules, traced: TracedRound) -> dict[str, Any]:
    """The scenario (spec interfaces.md) of a traced round: game, rule overrides, cards, moves.

    With one box the game is ``online`` when the rules peek and ``casino`` otherwise; with
    several it is ``casino``, whose table takes up to 7 boxes (a scenario keeps its preset's box
    count). Every rule a scenario can override is written out, so the scenario plays exactly
    ``rules``.
    """
    boxes = len(traced.nets)
    game = "online" if rules.peek is not Peek.NONE and boxes == 1 else "casino"
    table = ONLINE if game == "online" else CASINO
    if not table.min_bet <= traced.bet <= table.max_bet:
        raise SimulationError(f"bet {traced.bet} is off the {game} table's limits")
    if boxes > table.max_boxes:
        raise SimulationError(f"the {game} table takes at most {table.max_boxes} boxes")
    rules_json = rules.to_json()
    return {
        "game": game,
        "rules": {key: rules_json[key] for key in PLAYING_RULE_KEYS},
        "boxes": [{"bet": traced.bet} for _ in range(boxes)],
        "cards": [str(card) for card in traced.cards],
        "decisions": list(traced.decisions),
    }
