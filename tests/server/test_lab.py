"""The rules lab's API through the ASGI app: the exact analysis and chart of any rules, cached;
the hand calculator; simulations streaming their progress over a WebSocket.

One app (and one analysis worker process, whose caches the tests share) for the module: the
casino preset's exact analysis is computed once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from starlette.testclient import TestClient

from twentyone.analysis.hand_calculator import calculate
from twentyone.analysis.hand_ev import hand_ev
from twentyone.analysis.house_edge import analyze
from twentyone.analysis.shoe_counts import full_shoe_counts
from twentyone.analysis.strategy import basic_strategy_analysis
from twentyone.cli.rule_options import rule_options
from twentyone.clock import ManualClock
from twentyone.games import house_banked_games
from twentyone.presets import CASINO, ONLINE
from twentyone.rules import Surrender
from twentyone.server import lab
from twentyone.server.app import create_app
from twentyone.server.config import ServerConfig, fast_hasher
from twentyone.server.worker import AnalysisWorker, analysis_worker
from twentyone.simulation.runner import CHUNK_ROUNDS, SimulationConfig, simulate


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder: Path = tmp_path_factory.mktemp("lab")
    config = ServerConfig(
        db_url=f"sqlite:///{folder / 'lab.db'}",
        clock=ManualClock(1_800_000_000.0),
        hasher=fast_hasher(),
    )
    with TestClient(create_app(config)) as test_client:
        yield test_client


@pytest.fixture
def worker_calls(client: TestClient) -> Iterator[list[str]]:
    """The names of the functions the analysis worker is asked to compute, in order."""
    worker = analysis_worker(client.app.state.server.services)  # type: ignore[attr-defined]
    assert isinstance(worker, AnalysisWorker)
    calls: list[str] = []
    real_run = worker.run

    async def counted(function: Any, *args: Any) -> Any:
        calls.append(function.__name__)
        return await real_run(function, *args)

    worker.run = counted  # type: ignore[method-assign]
    try:
        yield calls
    finally:
        del worker.run


def test_the_options_are_the_command_lines() -> None:
    @click.command()
    @rule_options
    def command(rules: Any) -> None: ...

    cli = {
        "/".join(param.opts + param.secondary_opts): param.help
        for param in command.params
        if param.name != "preset_name"
    }
    assert {option.flag: option.help for option in lab.RULE_OPTIONS} == cli
    assert list(lab.HOUSE_PRESETS) == house_banked_games()


def test_options_as_data(client: TestClient) -> None:
    answer = client.get("/api/lab/options")
    assert answer.status_code == 200
    data = answer.json()
    by_name = {option["name"]: option for option in data["options"]}
    assert by_name["surrender"]["kind"] == "choice"
    assert by_name["surrender"]["choices"] == ["none", "late", "early"]
    assert by_name["das"]["kind"] == "bool"
    assert by_name["max_hands"]["kind"] == "int"
    assert data["default_preset"] == "casino"
    assert data["presets"]["casino"] == lab.form_values(CASINO)
    assert data["presets"]["online"]["peek"] == "ace-ten"
    assert data["presets"]["casino"]["peek"] == "none"


def test_casino_house_edge_is_the_librarys(client: TestClient) -> None:
    answer = client.post("/api/lab/analysis", json={"preset": "casino"})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    exact = analyze(CASINO)
    assert data["house_edge"] == pytest.approx(-exact.ev, abs=1e-15)
    assert data["return"] == pytest.approx(1 + exact.ev, abs=1e-15)
    # The figure docs/analysis and docs/simulation quote for the casino preset (CDZ-).
    assert round(data["house_edge"] * 100, 5) == 0.4353
    assert data["basic_strategy"]["ev"] == pytest.approx(basic_strategy_analysis(CASINO).ev)
    assert round(data["basic_strategy"]["house_edge"] * 100, 5) == 0.43877
    assert data["rules"] == lab.form_values(CASINO)
    ups = [entry["up"] for entry in data["ev_by_up_card"]]
    assert ups == ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]
    by_up = {entry["up"]: entry for entry in data["ev_by_up_card"]}
    assert by_up["A"]["ev"] == pytest.approx(exact.ev_by_upcard["A"])
    assert by_up["T"]["probability"] == pytest.approx(exact.upcard_probability["T"])
    assert sum(entry["probability"] * entry["ev"] for entry in data["ev_by_up_card"]) == (
        pytest.approx(exact.ev)
    )


def _cell(data: dict[str, Any], table: str, row: str, up: str) -> str:
    rows = dict((label, codes) for label, codes in data["chart"][table])
    return str(rows[row][data["chart"]["up_cards"].index(up)])


def test_chart_cells_of_known_hands(client: TestClient) -> None:
    data = client.post("/api/lab/analysis", json={"preset": "casino"}).json()
    chart = basic_strategy_analysis(CASINO).chart
    # Every cell is the library's chart, in the rows of a strategy card.
    assert [label for label, _ in data["chart"]["hard"]] == [
        "5-8", "9", "10", "11", "12", "13", "14", "15", "16", "17+",
    ]  # fmt: skip
    assert data["chart"]["soft"][0][0] == "A,2"
    assert [label for label, _ in data["chart"]["pairs"]][-1] == "A,A"
    for up, value in (("T", 10), ("9", 9), ("A", 1), ("6", 6)):
        assert _cell(data, "hard", "16", up) == chart.hard[16][value]
        assert _cell(data, "pairs", "8,8", up) == chart.pairs[8][value]
        assert _cell(data, "soft", "A,7", up) == chart.soft[18][value]
    # What a European no-hole-card strategy card says (late surrender, ENHC).
    assert _cell(data, "hard", "16", "T") == "Rh"
    assert _cell(data, "hard", "12", "4") == "S"
    assert _cell(data, "hard", "11", "T") == "H"  # no doubling into a possible blackjack
    assert _cell(data, "pairs", "8,8", "6") == "P"
    assert _cell(data, "soft", "A,7", "9") == "H"
    assert _cell(data, "soft", "A,7", "2") == "S"
    assert _cell(data, "hard", "17+", "A") == "S"
    assert set(data["chart"]["legend"]) >= {"H", "S", "D", "Ds", "P", "Rh"}


def test_the_same_rules_again_are_answered_from_the_cache(
    client: TestClient, worker_calls: list[str]
) -> None:
    rules = {"decks": "2", "s17": False, "surrender": "none"}
    first = client.post("/api/lab/analysis", json={"preset": "online", "rules": rules})
    assert first.status_code == 200, first.text
    assert worker_calls == ["compute_analysis"]
    # The same rules said another way (the preset's own value given) are the same question.
    again = client.post(
        "/api/lab/analysis",
        json={"preset": "online", "rules": {**rules, "peek": "ace-ten"}},
    )
    assert again.json() == first.json()
    assert worker_calls == ["compute_analysis"]
    expected = analyze(ONLINE.replace(decks=2, dealer_hits_soft_17=True))
    assert first.json()["house_edge"] == pytest.approx(-expected.ev, abs=1e-15)
    assert first.json()["rules"]["decks"] == "2" and first.json()["rules"]["s17"] is False


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"preset": "vinte"}, "preset must be casino or online"),
        ({"rules": {"decks": "many"}}, "decks must be a whole number or 'inf'"),
        ({"rules": {"colour": "red"}}, "unknown rule option 'colour'"),
        ({"rules": {"das": "yes"}}, "das must be true or false"),
        ({"rules": {"max_hands": 99}}, "max_hands must be 1 to 16"),
        ({"rules": {"surrender": "sometimes"}}, "surrender must be one of none, late, early"),
        ({"rules": {"bj_pays": "3:0"}}, "bj_pays: a ratio must look like 3:2"),
        ({"rules": []}, "rules must be an object"),
    ],
)
def test_bad_rules_are_refused(client: TestClient, body: dict[str, Any], message: str) -> None:
    for path in ("/api/lab/analysis", "/api/lab/simulations"):
        answer = client.post(path, json={**body, "rounds": 1000})
        assert answer.status_code == 422, answer.text
        assert message in answer.json()["error"]


def test_not_json_is_refused(client: TestClient) -> None:
    answer = client.post("/api/lab/analysis", content=b"{", headers={"content-type": "text/plain"})
    assert answer.status_code == 422
    assert answer.json() == {"error": "the request body must be a JSON object"}


def test_hand_calculator_is_the_librarys(client: TestClient) -> None:
    answer = client.post("/api/lab/hand", json={"cards": ["TS", "6H"], "up": "9C"})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    expected = calculate(CASINO, ["TS", "6H"], "9C")
    assert data["actions"] == pytest.approx(expected.actions, abs=1e-12)
    assert set(data["actions"]) == {"stand", "hit", "double", "surrender"}
    assert data["best"] == expected.best == "surrender"
    assert data["total"] == 16 and data["soft"] is False
    assert data["remaining"]["T"] == 6 * 16 - 1 and data["remaining"]["9"] == 6 * 4 - 1
    assert data["cost"]["surrender"] == 0 and data["cost"]["stand"] > 0
    pair = client.post("/api/lab/hand", json={"cards": ["8", "8"], "up": "6"}).json()
    expected_pair = calculate(CASINO, ["8", "8"], "6")
    assert pair["actions"] == pytest.approx(expected_pair.actions, abs=1e-12)
    assert pair["best"] == "split"
    insured = client.post(
        "/api/lab/hand", json={"preset": "online", "cards": ["T", "T"], "up": "A"}
    ).json()
    assert insured["insurance"] == pytest.approx(calculate(ONLINE, ["T", "T"], "A").insurance)
    assert insured["conditioned_on_no_dealer_blackjack"] is True


def test_hand_calculator_with_cards_removed(client: TestClient) -> None:
    removed = ["5", "5", "4", "6", "3", "2", "5", "4"]
    answer = client.post("/api/lab/hand", json={"cards": ["T", "6"], "up": "T", "removed": removed})
    assert answer.status_code == 200, answer.text
    shoe = list(full_shoe_counts(6))
    for card in removed:
        shoe[int(card) - 1] -= 1
    expected = hand_ev(CASINO, ["T", "6"], "T", shoe).options
    data = answer.json()
    assert data["actions"] == pytest.approx(expected, abs=1e-12)
    assert data["remaining"]["5"] == 24 - 3
    assert data["best"] == max(expected, key=lambda name: expected[name])
    assert CASINO.surrender is Surrender.LATE


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"cards": ["TS"], "up": "9"}, "at least two cards"),
        ({"cards": ["TS", "ZZ"], "up": "9"}, "unknown card 'ZZ'"),
        ({"cards": ["T", "6"]}, "up must be the dealer's up card"),
        ({"cards": "T6", "up": "9"}, "cards must be a list"),
        ({"cards": ["T", "6", "9"], "up": "9"}, "bust"),
        ({"cards": ["T", "6"], "up": "9", "removed": ["A"] * 25}, "removed card A"),
    ],
)
def test_bad_hands_are_refused(client: TestClient, body: dict[str, Any], message: str) -> None:
    answer = client.post("/api/lab/hand", json=body)
    assert answer.status_code == 422, answer.text
    assert message in answer.json()["error"]


def test_simulation_streams_progress_then_the_result(client: TestClient) -> None:
    rounds = 3 * CHUNK_ROUNDS + 1000
    started = client.post(
        "/api/lab/simulations", json={"preset": "casino", "rounds": rounds, "seed": 21}
    )
    assert started.status_code == 201, started.text
    run_id = started.json()["id"]
    messages = []
    with client.websocket_connect(f"/api/lab/simulations/{run_id}/stream") as socket:
        while True:
            message = socket.receive_json()
            messages.append(message)
            if message["type"] == "result":
                break
    progress = [message for message in messages if message["type"] == "progress"]
    done = [message["done"] for message in progress if message["done"] > 0]
    # One message a chunk: at least the chunks finished after the socket opened, in order.
    assert done and done == sorted(done) and set(done) <= {CHUNK_ROUNDS * k for k in (1, 2, 3)}
    assert all(message["total"] == rounds for message in messages)
    assert all(message["stderr"] > 0 for message in progress if message["done"] > 0)
    result = messages[-1]
    assert result["state"] == "done" and result["done"] == rounds
    exact = basic_strategy_analysis(CASINO).ev
    assert result["exact_ev"] == pytest.approx(exact)
    assert abs(result["ev"] - exact) < 4 * result["stderr"]
    # The command line's simulator gives the same figures for the same seed.
    library = simulate(SimulationConfig.for_rules(CASINO), rounds, seed=21)
    assert result["ev"] == pytest.approx(library.ev, abs=1e-15)
    assert result["stderr"] == pytest.approx(library.se, abs=1e-15)
    assert client.get(f"/api/lab/simulations/{run_id}").json()["state"] == "done"


def test_simulation_bounds(client: TestClient) -> None:
    for body, message in (
        ({"rounds": 0}, "rounds must be a whole number from 1 to 100,000,000"),
        ({"rounds": 10**9}, "rounds must be a whole number from 1 to 100,000,000"),
        ({"rounds": 10, "seed": -1}, "seed must be a whole number"),
        ({"rounds": "many"}, "rounds must be"),
    ):
        answer = client.post("/api/lab/simulations", json=body)
        assert answer.status_code == 422
        assert message in answer.json()["error"]
    assert client.get("/api/lab/simulations/nothing").status_code == 404
    assert client.delete("/api/lab/simulations/nothing").status_code == 404


def _settled(client: TestClient, run_id: str) -> str:
    """The run's state once its task has ended (waited for on the app's own event loop)."""
    service = client.app.state.server.services["lab-simulations"]  # type: ignore[attr-defined]
    run = service.simulations.runs[run_id]

    async def ended() -> None:
        # A bound, not a synchronisation: the cancel comes from the server's own close.
        await asyncio.wait_for(asyncio.wait({run.task}), timeout=120)

    assert client.portal is not None
    client.portal.call(ended)
    return str(run.state)


def test_closing_the_stream_cancels_the_simulation(client: TestClient) -> None:
    started = client.post("/api/lab/simulations", json={"rounds": lab.MAX_LAB_ROUNDS, "seed": 1})
    assert started.status_code == 201
    run_id = started.json()["id"]
    with client.websocket_connect(f"/api/lab/simulations/{run_id}/stream") as socket:
        first = socket.receive_json()
        assert first["type"] == "progress" and first["total"] == lab.MAX_LAB_ROUNDS
    assert _settled(client, run_id) == "cancelled"
    state = client.get(f"/api/lab/simulations/{run_id}").json()
    assert state["type"] == "result" and state["state"] == "cancelled"
    assert state["done"] < lab.MAX_LAB_ROUNDS


def test_delete_cancels_the_simulation(client: TestClient) -> None:
    started = client.post("/api/lab/simulations", json={"rounds": lab.MAX_LAB_ROUNDS, "seed": 2})
    run_id = started.json()["id"]
    assert client.delete(f"/api/lab/simulations/{run_id}").status_code == 204
    assert _settled(client, run_id) == "cancelled"
    with client.websocket_connect(f"/api/lab/simulations/{run_id}/stream") as socket:
        message = socket.receive_json()
    assert message["type"] == "result" and message["state"] == "cancelled"
