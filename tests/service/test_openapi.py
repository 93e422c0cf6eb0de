"""The OpenAPI document: served, current, and honoured by the live server (schemathesis).

CI generates random requests of every operation; schemathesis's coverage phase (its
boundary and negative cases, some 35,000 requests and five minutes) runs with
``MAZZO_SCHEMA_COVERAGE=1``, as ``make fuzz`` does. Negative inputs of every field
are the fuzz's own work in CI (``test_fuzz_every_rpc.py``)."""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections.abc import Iterator

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis import checks

from mazzo.service.rest import http_rules, openapi_document
from mazzo.service.server import GAME_SERVICE, start_server, stop_server

DOCUMENT = json.loads(openapi_document())
schema = schemathesis.openapi.from_dict(DOCUMENT)
#: Phase.explicit is what brings in schemathesis's coverage phase.
PHASES = (
    [Phase.explicit, Phase.generate]
    if os.environ.get("MAZZO_SCHEMA_COVERAGE")
    else [Phase.generate]
)
#: Generated requests per operation: a smoke in make test, more in make fuzz.
EXAMPLES = 200 if os.environ.get("MAZZO_SCHEMA_COVERAGE") else 15


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """A live server (gRPC and HTTP) on its own event loop in a thread, on free ports."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    holder: dict[str, object] = {}

    async def run() -> None:
        running, _ = await start_server("127.0.0.1", 0, http_port=0)
        holder["running"] = running
        holder["stop"] = stop = asyncio.Event()
        ready.set()
        await stop.wait()
        await stop_server(running, grace=0.5, quiet=0)

    thread = threading.Thread(target=lambda: loop.run_until_complete(run()), daemon=True)
    thread.start()
    assert ready.wait(30), "server did not start"
    running = holder["running"]
    yield f"http://127.0.0.1:{running.http_port}"  # type: ignore[attr-defined]
    loop.call_soon_threadsafe(holder["stop"].set)  # type: ignore[attr-defined]
    thread.join(30)


def test_the_document_covers_every_annotated_rpc() -> None:
    paths = {(verb.upper(), path) for path, ops in DOCUMENT["paths"].items() for verb in ops}
    assert {(rule.verb, rule.path) for rule in http_rules(GAME_SERVICE)} == paths


def test_the_server_serves_its_document(base_url: str) -> None:
    reply = httpx.get(f"{base_url}/openapi.json", timeout=10)
    assert reply.status_code == 200
    assert reply.json() == DOCUMENT


@schema.parametrize()
@settings(
    max_examples=EXAMPLES, deadline=None, phases=PHASES, suppress_health_check=list(HealthCheck)
)
def test_the_live_api_honours_its_document(case: schemathesis.Case, base_url: str) -> None:
    """Random requests of every shape: no 5xx, and every answer (200 or a
    google.rpc.Status error) matches the documented schema.

    Not checked: that schema-valid data is accepted. A schema cannot say that a state
    must hold 40 distinct cards, so most random states are rightly refused with 400.
    """
    case.call_and_validate(
        base_url=base_url, timeout=10, excluded_checks=[checks.positive_data_acceptance]
    )
