"""The rules lab: exact analysis, strategy charts, simulations with streamed progress and the
hand calculator, in a worker process, cached.

Routes (every answer JSON; every refusal a 4xx ``{"error": ...}``; nobody needs to sign in):

- ``GET /api/lab/options``: the rule options of the command line (``twentyone analyze
  --help``) as data, and the values of each house-banked preset in the same terms.
- ``POST /api/lab/analysis {"preset"?, "rules"?}``: the exact house edge (optimal
  composition-dependent play, CDZ- splits, as ``twentyone analyze``), the EV by up card and
  the basic strategy chart (``twentyone strategy``) of those rules. Cached per rules.
- ``POST /api/lab/hand {"preset"?, "rules"?, "cards", "up", "removed"?}``: the exact EV of
  every option of one hand from the shoe that remains (``twentyone hand``).
- ``POST /api/lab/simulations {"preset"?, "rules"?, "rounds", "seed"?}`` -> 201 ``{"id"}``,
  then ``WS /api/lab/simulations/{id}/stream``: the state at once, a ``progress`` message after
  each part ``{"done", "total", "ev", "stderr"}``, and the ``result`` (also compared with the
  exact EV of the chart the simulator plays). Closing the last socket cancels the run;
  ``DELETE /api/lab/simulations/{id}`` too.

The rules are given in the command line's terms (``{"decks": "6", "s17": true, "surrender":
"late", ...}``, see :data:`RULE_OPTIONS`), over a preset (``casino`` by default), and answered
normalised: every option with its value. The heavy work runs in the analysis worker
(:mod:`twentyone.server.worker`), never on the event loop; the functions it runs are this
module's ``compute_*`` functions, of the rules as their canonical JSON text.

A simulation plays the simulator's own chunks (``CHUNK_ROUNDS``, about a million rounds, each
seeded from the run's seed and its index), one worker call each, and reports progress after
each: ``twentyone simulate --seed S --rounds N`` with the same rules gives the same figures.

>>> rules = lab_rules("casino", {"decks": "2", "s17": False})
>>> rules.decks, rules.dealer_hits_soft_17, form_values(rules)["surrender"]
(2, True, 'late')
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import secrets
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import Response

from twentyone.errors import InvalidRulesError, TwentyOneError, shown
from twentyone.i18n import N_, fill
from twentyone.presets import PRESETS
from twentyone.rule_options import RULE_OPTIONS, apply_rule_options, form_values
from twentyone.rules import (
    Rules,
    rules_state,
)
from twentyone.server.context import Server, json_response
from twentyone.server.errors import ApiError, marked, not_found, unprocessable
from twentyone.server.i18n import request_translation
from twentyone.server.worker import AnalysisWorker, analysis_worker

#: The presets the lab computes: the house-banked games (``twentyone.games`` says which; the
#: server sits below that module, so the list is repeated here and checked by the tests).
HOUSE_PRESETS = ("casino", "online")
DEFAULT_PRESET = "casino"
#: The most rounds one lab simulation plays (a few minutes of one worker process).
MAX_LAB_ROUNDS = 10**8
DEFAULT_LAB_ROUNDS = 1_000_000
#: Simulations running at once (each holds the worker between its parts), and kept finished.
MAX_RUNNING = 4
KEEP_FINISHED = 64
#: Analyses and hand questions waiting for the worker at most (more are refused, 429).
MAX_WAITING = 16
#: Cards of one hand and cards removed from the shoe, at most (bounds the request).
MAX_HAND_CARDS = 11
MAX_REMOVED = 416


def lab_rules(preset: object, overrides: object) -> Rules:
    """The preset's rules with the form's overrides; :class:`InvalidRulesError` names the
    first problem (an unknown preset or option, a value of the wrong kind, rules that do not
    hold together)."""
    if preset is None:
        preset = DEFAULT_PRESET
    if not isinstance(preset, str) or preset not in HOUSE_PRESETS:
        raise InvalidRulesError(
            f"preset must be {' or '.join(HOUSE_PRESETS)} (the house-banked games), "
            f"got {shown(preset)}"
        )
    if overrides is None:
        overrides = {}
    if not isinstance(overrides, dict):
        raise InvalidRulesError("rules must be an object of rule options")
    return apply_rule_options(PRESETS[preset], overrides)


def rules_key(rules: Rules) -> str:
    """The canonical text of ``rules``: what the worker is given and the cache is keyed by."""
    return json.dumps(rules_state(rules), sort_keys=True)


def _rules_of_key(text: str) -> Rules:
    return Rules.from_json(json.loads(text))


# --- What the worker computes (top-level functions of plain values: the pool pickles them) ---

#: Up cards in the order of a strategy card: 2 .. 9, ten, ace (keys of ``StrategyChart.to_json``).
UP_CARDS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
CHART_LEGEND = {
    "H": "Hit",
    "S": "Stand",
    "D": "Double, else hit",
    "Dh": "Double, else hit",
    "Ds": "Double, else stand",
    "P": "Split",
    "Ph": "Split if doubling after a split is allowed, else hit",
    "Rh": "Surrender, else hit",
    "Rs": "Surrender, else stand",
    "Rp": "Surrender, else split",
}


def _chart_rows(
    table: dict[str, dict[str, str]], rows: Sequence[tuple[str, Sequence[str]]]
) -> list[list[Any]]:
    """``[label, [code per up card]]`` per row; a row of several totals only when they agree."""
    out: list[list[Any]] = []
    for label, keys in rows:
        codes = [[table[key][up] for up in UP_CARDS] for key in keys]
        if all(row == codes[0] for row in codes):
            out.append([label, codes[0]])
        else:  # the totals differ under these rules: one row each
            out.extend([key, row] for key, row in zip(keys, codes, strict=True))
    return out


def strategy_card(chart: dict[str, dict[str, dict[str, str]]]) -> dict[str, Any]:
    """The chart (``StrategyChart.to_json``) as the rows of a printed strategy card: hard 5-8
    (one row when they agree) to 17+, soft A,2 to A,9, pairs 2,2 to A,A."""
    hard_rows: list[tuple[str, tuple[str, ...]]] = [("5-8", ("5", "6", "7", "8"))]
    hard_rows += [(str(total), (str(total),)) for total in range(9, 17)]
    hard_rows.append(("17+", ("17", "18", "19", "20", "21")))
    soft_rows = [(f"A,{second}", (str(11 + second),)) for second in range(2, 10)]
    pair_rows = [(f"{card},{card}", (card,)) for card in UP_CARDS]
    return {
        "up_cards": list(UP_CARDS),
        "hard": _chart_rows(chart["hard"], hard_rows),
        "soft": _chart_rows(chart["soft"], soft_rows),
        "pairs": _chart_rows(chart["pairs"], pair_rows),
        "legend": dict(CHART_LEGEND),
    }


def compute_analysis(key: str) -> dict[str, Any]:
    """The exact analysis and the basic strategy of the rules ``key`` (:func:`rules_key`)."""
    from twentyone.analysis.house_edge import analyze
    from twentyone.analysis.strategy import basic_strategy_analysis

    rules = _rules_of_key(key)
    result = analyze(rules)
    strategy = basic_strategy_analysis(rules)
    order = {label: index for index, label in enumerate(UP_CARDS)}
    by_up = sorted(result.ev_by_upcard.items(), key=lambda item: order[item[0]])
    return {
        "ev": result.ev,
        "house_edge": -result.ev,
        "return": 1 + result.ev,
        "split_strategy": result.split_strategy,
        "basic_strategy": {"ev": strategy.ev, "house_edge": -strategy.ev},
        "insurance_ev": result.insurance_ev,
        "ev_by_up_card": [
            {"up": up, "ev": ev, "probability": result.upcard_probability[up]} for up, ev in by_up
        ],
        "chart": strategy_card(strategy.chart.to_json()),
    }


def compute_hand(
    key: str, cards: tuple[str, ...], up: str, removed: tuple[str, ...]
) -> dict[str, Any]:
    """The calculator's answer (:func:`twentyone.analysis.hand_calculator.calculate`); with
    ``removed`` cards the shoe is the full one less those too (splits and doubles then from
    :func:`twentyone.analysis.hand_ev.hand_ev` on that shoe)."""
    from twentyone.analysis.hand_calculator import calculate

    rules = _rules_of_key(key)
    answer = calculate(rules, list(cards), up, exact=False)
    if not removed:
        return _hand_json(answer.to_json(), answer.decision_values)
    return _hand_with_removed(rules, answer, removed)


def _hand_json(found: dict[str, Any], decision: dict[str, float]) -> dict[str, Any]:
    actions = {name: entry["ev"] for name, entry in found["actions"].items()}
    best = found["best"]
    return {
        "hand": found["hand"],
        "up": found["upcard"],
        "total": found["total"],
        "soft": found["soft"],
        "blackjack": found["blackjack"],
        "conditioned_on_no_dealer_blackjack": found["conditioned_on_no_dealer_blackjack"],
        "surrender_before_peek": found["surrender_before_peek"],
        "remaining": found["remaining"],
        "actions": actions,
        "best": best,
        "cost": {name: max(decision[best] - value, 0.0) for name, value in decision.items()},
        "insurance": None if found["insurance"] is None else found["insurance"]["ev"],
    }


def _hand_with_removed(rules: Rules, answer: Any, removed: tuple[str, ...]) -> dict[str, Any]:
    """The calculator's figures from the full shoe less ``removed`` (and the hand, the up card)."""
    from twentyone.analysis.hand_calculator import PlayerCard
    from twentyone.analysis.hand_ev import hand_ev
    from twentyone.analysis.shoe_counts import ACE, LABELS, TEN, full_shoe_counts
    from twentyone.errors import InvalidCardError

    if rules.decks is None:
        raise InvalidCardError(N_("an infinite shoe loses nothing to removed cards: remove none"))
    shoe = list(full_shoe_counts(rules.decks))
    for text in removed:
        card = PlayerCard.parse(text)
        if shoe[card.value] == 0:
            # Marked: the error comes back from the worker as English, matched in the handler.
            raise InvalidCardError(
                fill(N_("removed card {card}: the shoe holds no more of them"), {"card": card.text})
            )
        shoe[card.value] -= 1
    found = answer.to_json()
    remaining = list(shoe)
    for card in (*answer.hand, answer.upcard):
        if remaining[card.value] == 0:
            raise InvalidCardError(
                fill(
                    N_("card {card}: the shoe less the removed cards holds no more of them"),
                    {"card": card.text},
                )
            )
        remaining[card.value] -= 1
    up = answer.upcard.value
    hole = {ACE: TEN, TEN: ACE}.get(up)
    blackjack = 0.0 if hole is None else remaining[hole] / sum(remaining)
    if answer.blackjack:
        pays = float(rules.blackjack_pays)
        actions = {"blackjack": pays if answer.peeked else pays * (1 - blackjack)}
    else:
        labels = [LABELS[card.value] for card in answer.hand]
        actions = dict(hand_ev(rules, labels, LABELS[up], shoe).options)
    decision = dict(actions)
    if answer.early_surrender_blackjack is not None and "surrender" in decision:
        for name in decision:
            if name != "surrender":
                decision[name] = decision[name] * (1 - blackjack) - blackjack
    top = max(decision.values())
    found["best"] = next(name for name, value in decision.items() if value >= top - 1e-12)
    found["actions"] = {name: {"ev": value} for name, value in actions.items()}
    found["remaining"] = dict(zip(LABELS, remaining, strict=True))
    if found["insurance"] is not None:
        found["insurance"] = {"ev": 3 * remaining[TEN] / sum(remaining) - 1}
    return _hand_json(found, decision)


@functools.lru_cache(maxsize=8)
def _kernel_inputs(key: str) -> Any:
    """The simulator's inputs for the rules ``key`` playing their basic strategy (cached in
    the worker process: the chart is an exact analysis)."""
    from twentyone.simulation.runner import KernelInputs, SimulationConfig

    return KernelInputs.from_config(SimulationConfig.for_rules(_rules_of_key(key)))


def compute_simulation_chunk(key: str, seed: int, chunk: int, rounds: int) -> list[int]:
    """Play chunk ``chunk`` (``rounds`` rounds) of a run seeded ``seed`` of the rules ``key``
    playing their basic strategy: the simulator's own unit of work
    (:func:`twentyone.simulation.runner.run_chunk`); its statistics (``kernels.ST_*``)."""
    from twentyone.simulation.runner import run_chunk

    return [int(value) for value in run_chunk(_kernel_inputs(key), seed, chunk, rounds)]


# --- The server's side ---


@dataclass
class SimulationRun:
    """One lab simulation: its request, its totals so far, and who watches it."""

    id: str
    rules: Rules
    key: str
    rounds: int
    seed: int
    totals: list[int] = field(default_factory=list)
    done: int = 0
    state: str = "running"  # running, done, cancelled, failed
    error: str | None = None
    exact_ev: float | None = None
    watchers: set[asyncio.Queue[dict[str, Any]]] = field(default_factory=set)
    task: asyncio.Task[None] | None = None

    def figures(self) -> dict[str, Any]:
        """``done``, ``total``, ``ev`` and ``stderr`` of the rounds played so far."""
        out: dict[str, Any] = {"done": self.done, "total": self.rounds, "ev": None, "stderr": None}
        if self.done > 0:
            result = self._result()
            out["ev"], out["stderr"] = result.ev, result.se
        return out

    def _result(self) -> Any:
        from twentyone.simulation.encoding import ticks_per_unit
        from twentyone.simulation.runner import SimulationResult

        return SimulationResult(
            self.rules,
            self.done,
            self.seed,
            tuple(self.totals),
            ticks_per_unit(self.rules),
            0.0,
            1,
        )

    def message(self) -> dict[str, Any]:
        """What a watcher is sent: progress while running, then the result."""
        out = {"id": self.id, "type": "progress", "state": self.state, "seed": self.seed}
        out.update(self.figures())
        if self.state == "running":
            return out
        out["type"] = "result"
        out["error"] = self.error
        if self.state == "done":
            result = self._result()
            frequencies = result.frequencies
            out.update(
                sd=result.sd,
                exact_ev=self.exact_ev,
                z=None
                if self.exact_ev is None or result.se == 0
                else (result.ev - self.exact_ev) / result.se,
                frequencies={
                    name: frequencies[name]
                    for name in ("win", "push", "lose", "player_blackjack", "double", "split")
                },
            )
        return out

    def tell(self) -> None:
        message = self.message()
        for queue in self.watchers:
            queue.put_nowait(message)


class LabSimulations:
    """The lab's simulations: started by a request, played part by part in the worker."""

    def __init__(self, worker: AnalysisWorker) -> None:
        self.worker = worker
        self.runs: OrderedDict[str, SimulationRun] = OrderedDict()

    def running(self) -> int:
        return sum(1 for run in self.runs.values() if run.state == "running")

    def start(self, rules: Rules, rounds: int, seed: int) -> SimulationRun:
        if self.running() >= MAX_RUNNING:
            raise ApiError(
                429,
                N_("{count} simulations are running already: try again when one ends"),
                count=MAX_RUNNING,
            )
        from twentyone.simulation import kernels

        run = SimulationRun(uuid.uuid4().hex, rules, rules_key(rules), rounds, seed)
        run.totals = [0] * kernels.ST_SIZE
        self.runs[run.id] = run
        finished = [key for key, old in self.runs.items() if old.state != "running"]
        for key in finished[: max(len(finished) - KEEP_FINISHED, 0)]:
            del self.runs[key]
        run.task = asyncio.get_running_loop().create_task(self._play(run))
        return run

    async def _play(self, run: SimulationRun) -> None:
        from twentyone.simulation.runner import chunk_plan

        try:
            analysis = await self.worker.cached(compute_analysis, run.key)
            run.exact_ev = float(analysis["basic_strategy"]["ev"])
            for chunk, rounds in chunk_plan(run.rounds):
                stats = await self.worker.run(
                    compute_simulation_chunk, run.key, run.seed, chunk, rounds
                )
                for slot, value in enumerate(stats):
                    run.totals[slot] += value
                run.done += rounds
                if run.done < run.rounds:
                    run.tell()
            run.state = "done"
        except asyncio.CancelledError:
            run.state = "cancelled"
            run.tell()
            raise
        except TwentyOneError as error:
            run.state, run.error = "failed", str(error)
        except Exception as error:  # the worker died: the run says so rather than hang
            run.state, run.error = "failed", f"the simulation stopped: {error}"
        run.tell()

    def cancel(self, run: SimulationRun) -> None:
        if run.task is not None and not run.task.done():
            run.task.cancel()

    async def stop(self) -> None:
        for run in self.runs.values():
            self.cancel(run)


class _SimulationsService:
    """Stops the runs when the server stops (a server service)."""

    def __init__(self, simulations: LabSimulations) -> None:
        self.simulations = simulations

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        await self.simulations.stop()


async def _body(request: Request) -> dict[str, Any]:
    try:
        data = await request.json()
    except (ValueError, UnicodeDecodeError):
        raise marked(422, N_("the request body must be a JSON object")) from None
    if not isinstance(data, dict):
        raise marked(422, N_("the request body must be a JSON object"))
    return data


def _rules_of(body: dict[str, Any]) -> Rules:
    try:
        rules = lab_rules(body.get("preset"), body.get("rules"))
        from twentyone.analysis.support import check_supported

        check_supported(rules)
    except TwentyOneError as error:
        raise unprocessable(str(error)) from None
    return rules


def _answered(rules: Rules, body: dict[str, Any]) -> dict[str, Any]:
    return {"preset": body.get("preset") or DEFAULT_PRESET, "rules": form_values(rules)}


def _card_list(value: object, what: str, most: int) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(card, str) for card in value):
        raise unprocessable(N_('{what} must be a list of cards such as "TS" or "6"'), what=what)
    if len(value) > most:
        raise unprocessable(
            N_("{what} may hold at most {most} cards, got {count}"),
            what=what,
            most=most,
            count=len(value),
        )
    return tuple(card.strip().upper() for card in value)


def _whole(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise unprocessable(
            N_("{what} must be a whole number from {low} to {high}"),
            what=what,
            low=f"{low:,}",
            high=f"{high:,}",
        )
    return value


def install(app: FastAPI, server: Server) -> None:
    """Adds this part's routes (and the analysis worker, a service) to the application."""
    if "analysis" not in server.services:
        server.add_service("analysis", AnalysisWorker(processes=1))
    worker = analysis_worker(server.services)
    simulations = LabSimulations(worker)
    server.add_service("lab-simulations", _SimulationsService(simulations))
    option_list = [option.to_json() for option in RULE_OPTIONS]
    options = {
        "options": option_list,
        "presets": {name: form_values(PRESETS[name]) for name in HOUSE_PRESETS},
        "default_preset": DEFAULT_PRESET,
        "max_rounds": MAX_LAB_ROUNDS,
        "default_rounds": DEFAULT_LAB_ROUNDS,
    }

    in_flight = [0]  # the lab's questions the worker has not answered yet

    async def computed(function: Any, *args: Any) -> Any:
        """``function(*args)`` in the worker, cached; the library's refusal as a 422; a 429
        while :data:`MAX_WAITING` questions wait already (each can take seconds)."""
        if in_flight[0] >= MAX_WAITING:
            raise marked(429, N_("the rules lab is busy with other questions: try again shortly"))
        in_flight[0] += 1
        try:
            return await worker.cached(function, *args)
        except TwentyOneError as error:
            raise unprocessable(str(error)) from None
        finally:
            in_flight[0] -= 1

    @app.get("/api/lab/options")
    async def lab_options(request: Request) -> Response:
        # The form's labels and help in the request's language (marked N_ in rule_options).
        # Through a name, not `t._(...)`: the extractor would take the subscripts' keys for
        # messages (the labels themselves are extracted where they are written, N_ in
        # rule_options).
        translate = request_translation(request)._
        return json_response(
            {
                **options,
                "options": [
                    {
                        **option,
                        "label": translate(option["label"]),
                        "help": translate(option["help"]),
                    }
                    for option in option_list
                ],
            }
        )

    @app.post("/api/lab/analysis")
    async def lab_analysis(request: Request) -> Response:
        body = await _body(request)
        rules = _rules_of(body)
        analysis = await computed(compute_analysis, rules_key(rules))
        return json_response({**_answered(rules, body), **analysis})

    @app.post("/api/lab/hand")
    async def lab_hand(request: Request) -> Response:
        body = await _body(request)
        rules = _rules_of(body)
        cards = _card_list(body.get("cards"), "cards", MAX_HAND_CARDS)
        up = body.get("up")
        if not isinstance(up, str):
            raise marked(422, N_('up must be the dealer\'s up card, such as "9C" or "9"'))
        removed = _card_list(body.get("removed", []), "removed", MAX_REMOVED)
        answer = await computed(compute_hand, rules_key(rules), cards, up.strip().upper(), removed)
        return json_response({**_answered(rules, body), **answer})

    @app.post("/api/lab/simulations")
    async def lab_simulation(request: Request) -> Response:
        body = await _body(request)
        rules = _rules_of(body)
        rounds = _whole(body.get("rounds", DEFAULT_LAB_ROUNDS), "rounds", 1, MAX_LAB_ROUNDS)
        seed = body.get("seed")
        seed = secrets.randbits(64) if seed is None else _whole(seed, "seed", 0, 2**64 - 1)
        run = simulations.start(rules, rounds, seed)
        return json_response({"id": run.id, **_answered(rules, body), **run.message()}, 201)

    def _run_of(run_id: str) -> SimulationRun:
        run = simulations.runs.get(run_id)
        if run is None:
            raise not_found(N_("there is no such simulation"))
        return run

    @app.get("/api/lab/simulations/{run_id}")
    async def lab_simulation_state(run_id: str) -> Response:
        return json_response(_run_of(run_id).message())

    @app.delete("/api/lab/simulations/{run_id}")
    async def lab_simulation_cancel(run_id: str) -> Response:
        run = _run_of(run_id)
        simulations.cancel(run)
        return Response(status_code=204)

    @app.websocket("/api/lab/simulations/{run_id}/stream")
    async def lab_simulation_stream(socket: WebSocket, run_id: str) -> None:
        run = simulations.runs.get(run_id)
        await socket.accept()
        if run is None:
            await socket.send_json({"type": "error", "error": "there is no such simulation"})
            await socket.close(code=4404)
            return
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        run.watchers.add(queue)
        receiver = asyncio.create_task(_until_closed(socket))
        try:
            message = run.message()
            while True:
                await socket.send_json(message)
                if message["type"] == "result":
                    break
                getter = asyncio.create_task(queue.get())
                finished, _ = await asyncio.wait(
                    {getter, receiver}, return_when=asyncio.FIRST_COMPLETED
                )
                if getter not in finished:
                    getter.cancel()
                    break  # the browser went away
                message = getter.result()
            with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                await socket.close()
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            receiver.cancel()
            run.watchers.discard(queue)
            if not run.watchers and run.state == "running":
                simulations.cancel(run)  # nobody watches any more: closing the page stops it


async def _until_closed(socket: WebSocket) -> None:
    """Read (and ignore) what the browser sends until it closes the socket."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                return
