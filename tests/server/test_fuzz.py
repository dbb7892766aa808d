"""Schemathesis fuzzes every operation of the OpenAPI: no request a client can send is a 500.

The cases are generated from the app's own schema (bounded: a few dozen per operation) and sent
through the ASGI app with an operator's token, so that the protected operations are reached too,
and once more without any credentials.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from twentyone.server.app import create_app, open_player
from twentyone.server.config import ServerConfig

pytestmark = pytest.mark.anyio
EXAMPLES = 15
SCHEMA = schemathesis.openapi.from_dict(create_app(ServerConfig(db_url="sqlite://")).openapi())
OPERATIONS = {
    f"{op.method.upper()} {op.path}": op for op in (r.ok() for r in SCHEMA.get_all_operations())
}


def _cases(operation: Any) -> list[Any]:
    found: list[Any] = []

    @settings(
        max_examples=EXAMPLES,
        database=None,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(operation.as_strategy())
    def collect(case: Any) -> None:
        found.append(case)

    collect()
    return found


def test_every_operation_is_fuzzed() -> None:
    assert {
        "POST /api/online/rounds",
        "POST /api/online/rounds/{round_id}/actions",
        "PUT /api/admin/tables/{table_id}",
    } <= set(OPERATIONS)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(OPERATIONS))
async def test_no_server_errors(api: Any, name: str, database: dict[str, Any]) -> None:
    if database["schema"] is not None and not name.startswith(("POST", "PUT")):
        pytest.skip("reads are fuzzed on SQLite; writes on both databases")
    hashed = api.server.config.hasher.hash("operator-pass")
    async with api.server.write() as session:
        await open_player(session, api.server, "fuzzop", hashed, role="operator")
    async with api.client() as c:
        token = (
            await c.post("/api/tokens", json={"name": "fuzzop", "password": "operator-pass"})
        ).json()["token"]
        # Something to act on: an open round of the operator's own.
        await c.post(
            "/api/online/rounds", json={"bet": 100}, headers={"Authorization": f"Bearer {token}"}
        )
        for case in _cases(OPERATIONS[name]):
            kwargs = case.as_transport_kwargs(base_url="http://testserver")
            for headers in (
                {**kwargs["headers"], "Authorization": f"Bearer {token}"},
                kwargs["headers"],
            ):
                cookies = kwargs.get("cookies") or {}
                if cookies:
                    headers = {
                        **headers,
                        "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
                    }
                request: dict[str, Any] = {"params": kwargs.get("params"), "headers": headers}
                if "json" in kwargs:
                    request["json"] = kwargs["json"]
                elif "data" in kwargs:
                    request["content"] = (
                        kwargs["data"]
                        if isinstance(kwargs["data"], bytes | str)
                        else str(kwargs["data"])
                    )
                answer = await c.request(kwargs["method"], kwargs["url"], **request)
                assert answer.status_code < 500, (case.as_curl_command(), answer.text)
                if answer.status_code >= 400:
                    assert set(answer.json()) == {"error"}, answer.text
