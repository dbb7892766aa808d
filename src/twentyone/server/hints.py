"""Online table help: the basic-strategy hint and the best play after a round (exact analysis in a worker).

Two routes, both for the caller's own rounds only (another player's round is a 404):

- ``GET /api/online/rounds/{id}/hint`` (an open round): the basic strategy's decision for the
  hand to act now, ``{"action": "double", "chart": "basic", "code": "D", ...}``. The chart is the
  total-dependent basic strategy of the round's own rules
  (:func:`twentyone.analysis.strategy.basic_strategy`), computed once per distinct rules in the
  analysis worker and cached there; applying it to the hand is a table look-up done here.
- ``GET /api/online/rounds/{id}/review`` (a settled round): each decision the player took,
  with the exact EV of every legal action at that moment and the best of them
  (:func:`twentyone.analysis.hand_calculator.calculate`: composition dependent, from the
  shoe less the hand's cards and the dealer's up card, as a hand calculator does), each hand's
  answer computed in the worker and cached. Before settlement the review is a 409: it would
  show what the player may not know yet.

The worker functions are top-level and take plain, hashable arguments (the rules as their
JSON text, cards as text), as :class:`twentyone.server.worker.AnalysisWorker` needs.

>>> chart = basic_chart(json.dumps({"decks": 1}))
>>> chart["hard"]["16"]["T"], chart["pairs"]["8"]["T"], chart["hard"]["11"]["6"]
('H', 'P', 'D')
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from fastapi import FastAPI

from twentyone.analysis.hand_calculator import calculate
from twentyone.analysis.strategy import basic_strategy
from twentyone.errors import TwentyOneError
from twentyone.house.actions import Action, ActionKind
from twentyone.house.round import Phase
from twentyone.house.round import Round as HouseRound
from twentyone.i18n import N_
from twentyone.moves import Move
from twentyone.rules import Rules, SplitBy, rules_from_json
from twentyone.server import online
from twentyone.server.context import Player, RoundId, Server, json_response
from twentyone.server.errors import Phrase, conflict, marked, unprocessable
from twentyone.server.worker import analysis_worker
from twentyone.shoe import ScriptedShoe
from twentyone.storage import ledger
from twentyone.storage.models import OPEN, SETTLED
from twentyone.strategy_chart import StrategyChart

T = TypeVar("T")

#: What a review says its EVs are computed from (shown under the review on the page).
REVIEW_BASIS = (
    "exact EV per initial bet from the shoe less the hand's cards and the dealer's up card "
    "(composition dependent; splits played CDZ-; after a peek, given no dealer blackjack)"
)
#: The moves a hand's review compares (the calculator's names are the actions' texts).
_HAND_MOVES = ("stand", "hit", "double", "split", "surrender")


# ------------------------------------------------------------- worker functions
def _rules_of(rules_text: str) -> Rules:
    return rules_from_json(json.loads(rules_text), Rules())


def basic_chart(rules_text: str) -> dict[str, Any]:
    """The basic strategy chart of these rules (their JSON text) as JSON (runs in the worker)."""
    return basic_strategy(_rules_of(rules_text)).to_json()


def hand_options(rules_text: str, cards: tuple[str, ...], upcard: str) -> dict[str, Any]:
    """The exact EV of each option of a hand against an up card (runs in the worker).

    ``options``: per initial bet, on the footing the choice is made on; ``insurance``: the
    insurance bet's EV per unit insured when the up card is an ace (else None).

    >>> found = hand_options(json.dumps({"decks": 1}), ("6", "4"), "A")
    >>> max(found["options"], key=found["options"].get), round(found["insurance"], 6)
    ('hit', -0.020408)
    """
    calculation = calculate(_rules_of(rules_text), list(cards), upcard)
    return {"options": calculation.decision_values, "insurance": calculation.insurance}


# ------------------------------------------------------------------- the hint
def _rules_text(row_rules: Any) -> str:
    """The rules' JSON text, canonical, so the same rules are one cache entry."""
    return json.dumps(row_rules, sort_keys=True, separators=(",", ":"))


#: Charts parsed from the worker's JSON, by rules text (a few tables' rules at most).
_CHARTS: dict[str, StrategyChart] = {}


async def _in_worker(server: Server, function: Callable[..., T], *args: Hashable) -> T:
    """``function(*args)`` in the server's analysis worker, cached there; a worker that is
    not installed or whose process died is a 503 (the request may be sent again)."""
    try:
        worker = analysis_worker(server.services)
    except LookupError:
        raise marked(503, N_("the analysis worker is not running; try again later")) from None
    try:
        return await worker.cached(function, *args)
    except BrokenProcessPool:
        raise marked(503, N_("the analysis worker stopped; try again in a moment")) from None


async def chart_for(server: Server, rules_text: str) -> StrategyChart:
    """The basic strategy chart of these rules: computed in the worker, cached."""
    chart = _CHARTS.get(rules_text)
    if chart is None:
        try:
            found = await _in_worker(server, basic_chart, rules_text)
        except TwentyOneError as error:  # rules the analysis does not support
            raise unprocessable(
                N_("no basic strategy for this table's rules: {problem}"),
                problem=Phrase(str(error)),
            ) from None
        chart = StrategyChart.from_json(found)
        if len(_CHARTS) >= 64:
            _CHARTS.clear()
        _CHARTS[rules_text] = chart
    return chart


def _chart_code(chart: StrategyChart, hard: int, soft: bool, pair: int | None, up: int) -> str:
    """The chart's cell for a hand (the code before the fallbacks resolve it)."""
    if pair is not None:
        code = chart.pairs[pair][up]
        if code in ("P", "Ph", "Rp"):
            return code
    total = hard + 10 if soft else hard
    if total >= 21:
        return "S"
    return chart.soft[total][up] if soft else chart.hard[max(hard, 4)][up]


def chart_hint(game: HouseRound, chart: StrategyChart, legal: list[str]) -> dict[str, Any]:
    """The chart's decision now, given the decisions the balance pays for (``legal``).

    Insurance is never taken and early surrender never chosen by a total-dependent chart (as
    :func:`twentyone.house.strategy_player.chart_action` plays); otherwise the chart's move for
    the hand to act, falling back (a double the balance cannot pay is a hit or a stand, as the
    chart's code says).
    """
    if game.phase is Phase.INSURANCE:
        return {"action": ActionKind.NO_INSURANCE.value, "code": None, "hand": None}
    if game.phase is Phase.EARLY_SURRENDER:
        return {"action": ActionKind.NO_SURRENDER.value, "code": None, "hand": None}
    hand = game.current_hand
    if hand is None:
        raise marked(409, N_("no decision is pending in this round"))
    rules = game.rules
    can_split = "split" in legal
    pair_value = None
    if can_split:
        first, second = hand.cards
        # Tens split by rank are still "a pair of tens" to a total-dependent chart.
        if rules.split_by is not SplitBy.RANK or first.rank == second.rank:
            pair_value = first.value
    soft = rules.aces_high and hand.aces > 0 and hand.hard <= 11
    up = game.upcard.value
    move = chart.move_for(
        hand.hard,
        soft,
        pair_value,
        up,
        "double" in legal,
        "surrender" in legal,
        rules.double_after_split,
    )
    if move.value not in legal:  # pragma: no cover - the chart's fallbacks are always legal
        move = Move.STAND
    return {
        "action": move.value,
        "code": _chart_code(chart, hand.hard, soft, pair_value, up),
        "hand": game.hand_index,
    }


# ----------------------------------------------------------------- the review
def _decisions(loaded: online.Loaded) -> list[dict[str, Any]]:
    """Each decision of a settled round with the situation it was taken in.

    The round is dealt again from exactly the cards it dealt (its fairness record, in
    dealing order) and its decisions replayed one by one, reading the state before each.
    """
    game, row = loaded.game, loaded.row
    dealt = list(online.record(loaded).cards)
    again = HouseRound.deal(game.rules, [row.bet], ScriptedShoe(dealt))
    out: list[dict[str, Any]] = []
    for step, text in enumerate(row.actions):
        action = Action.parse(text)
        phase = again.phase
        hand = again.boxes[0].hands[again.hand_index]
        value = hand.value(again.rules.aces_high)
        out.append(
            {
                "step": step,
                "phase": phase.value,
                "hand": again.hand_index,
                "cards": [str(card) for card in hand.cards],
                "total": value.total,
                "soft": bool(value.soft),
                "up": str(again.upcard),
                "taken": action.kind.value,
                "taken_text": action.text,
                "legal": [candidate.kind.value for candidate in again.legal_actions()],
            }
        )
        again.act(action)
    return out


async def _options_of(
    server: Server, rules_text: str, decision: dict[str, Any]
) -> dict[str, float]:
    """The EV of each legal choice of one decision, per initial bet."""
    found = await _in_worker(
        server, hand_options, rules_text, tuple(decision["cards"]), decision["up"]
    )
    options: dict[str, float] = found["options"]
    if decision["phase"] == Phase.INSURANCE.value:
        # The hand plays the same either way: only the side bet differs. Full insurance is
        # half the bet, so its EV per initial bet is half the EV per unit insured.
        return {"insurance": float(found["insurance"] or 0.0) / 2, "no-insurance": 0.0}
    if decision["phase"] == Phase.EARLY_SURRENDER.value:
        others = [value for name, value in options.items() if name != "surrender"]
        return {"surrender": options.get("surrender", -0.5), "no-surrender": max(others)}
    return {
        name: options[name] for name in _HAND_MOVES if name in options and name in decision["legal"]
    }


async def review_of(server: Server, loaded: online.Loaded) -> dict[str, Any]:
    """Each decision of a settled round against the exact best, with the EVs."""
    rules_text = _rules_text(loaded.row.rules)
    reviewed: list[dict[str, Any]] = []
    total_cost = 0.0
    for decision in _decisions(loaded):
        try:
            options = await _options_of(server, rules_text, decision)
        except TwentyOneError as error:  # rules or a hand the analysis does not support
            raise unprocessable(
                N_("the analysis cannot review this round: {problem}"),
                problem=Phrase(str(error)),
            ) from None
        top = max(options.values())
        # The first listed wins a tie (within rounding), as the calculator ranks them.
        best = next(name for name, value in options.items() if value >= top - 1e-12)
        taken = decision["taken"]
        cost = max(top - options.get(taken, top), 0.0)
        total_cost += cost
        reviewed.append(
            {
                **{key: value for key, value in decision.items() if key != "legal"},
                "options": options,
                "best": best,
                "correct": cost <= 1e-9,
                "cost": cost,
            }
        )
    return {
        "round": loaded.row.id,
        "decisions": reviewed,
        "mistakes": sum(1 for item in reviewed if not item["correct"]),
        "total_cost": total_cost,
        "basis": REVIEW_BASIS,
    }


# ---------------------------------------------------------------------- routes
def install(app: FastAPI, server: Server) -> None:
    """Adds this part's routes: the hint and the review of an Online round."""

    async def _loaded(user: Any, round_id: int) -> tuple[online.Loaded, int]:
        async with server.read() as session:
            row = await online.load_own(session, user, round_id)
            try:
                loaded = await online.rebuild(session, row)
            except online.ReplayError as error:
                raise conflict(
                    N_("round {round} cannot be read back: {problem}"),
                    round=round_id,
                    problem=Phrase(str(error)),
                ) from None
            available = await ledger.balance(session, user.account_id)
        return loaded, available

    @app.get("/api/online/rounds/{round_id}/hint", tags=["online"], response_model=dict[str, Any])
    async def round_hint(round_id: RoundId, user: Player) -> Any:
        """The basic strategy's decision for the hand to act in the caller's open round."""
        loaded, available = await _loaded(user, round_id)
        if loaded.row.state != OPEN or loaded.game.is_settled:
            raise conflict(
                N_("round {round} is {state}; no decision is pending"),
                round=round_id,
                state=Phrase(loaded.row.state),
            )
        chart = await chart_for(server, _rules_text(loaded.row.rules))
        legal = [text.split()[0] for text in online.legal_actions(loaded.game, available)]
        hint = chart_hint(loaded.game, chart, legal)
        return json_response(
            {"round": round_id, "step": loaded.row.steps, "chart": "basic", **hint}
        )

    @app.get("/api/online/rounds/{round_id}/review", tags=["online"], response_model=dict[str, Any])
    async def round_review(round_id: RoundId, user: Player) -> Any:
        """Each decision of the caller's settled round against the exact best play, with EVs."""
        loaded, _available = await _loaded(user, round_id)
        if loaded.row.state != SETTLED:
            raise conflict(
                N_("round {round} is {state}; it is reviewed once it is settled"),
                round=round_id,
                state=Phrase(loaded.row.state),
            )
        return json_response(await review_of(server, loaded))
