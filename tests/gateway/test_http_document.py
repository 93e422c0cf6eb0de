"""The HTTP door's OpenAPI document (``server/mazzo/gateway/openapi.json``, made from
the proto by ``scripts/gen_openapi.py``): served by the door, naming exactly its
paths, and honoured by it: every line of a whole match's stream and every answer's
reply, refusals included, fits the schema the document gives for its status."""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import jsonschema

from mazzo.gateway.http import ANSWER_PATH, JOIN_PATH, openapi_document
from mazzo.referee.match import run_match
from tests.gateway.test_http import HttpRig, door, first_safe, hello, spec

__all__ = ["door"]  # the fixture, shared with test_http

DOCUMENT = json.loads(openapi_document())


@functools.cache
def validator(path: str, status: int, media: str) -> jsonschema.Draft4Validator:
    """The schema the document gives ``path``'s ``status`` (or its default)."""
    responses = DOCUMENT["paths"][path]["post"]["responses"]
    declared = responses.get(str(status), responses["default"])["content"][media]["schema"]
    schema = {**declared, "components": DOCUMENT["components"]}
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema)


def check(path: str, status: int, body: Any, media: str = "application/json") -> None:
    validator(path, status, media).validate(body)


def test_the_document_names_exactly_the_doors_paths() -> None:
    assert set(DOCUMENT["paths"]) == {JOIN_PATH, ANSWER_PATH}
    join = DOCUMENT["paths"][JOIN_PATH]["post"]
    assert list(join["responses"]["200"]["content"]) == ["application/x-ndjson"]
    assert DOCUMENT["paths"][ANSWER_PATH]["post"]["security"] == [{"bearer": []}]


async def test_a_whole_match_over_http_honours_the_document(
    door: Callable[..., Awaitable[HttpRig]],
) -> None:
    h = await door()
    alice = h.bot("alice")
    served = await alice.http.get("/openapi.json")
    assert served.status_code == 200 and served.json() == DOCUMENT
    seen: list[tuple[str, int]] = []

    async def play() -> None:
        async with alice.http.stream("POST", JOIN_PATH, json=hello(alice.token)) as stream:
            async for line in stream.aiter_lines():
                message = json.loads(line)
                check(JOIN_PATH, stream.status_code, message, "application/x-ndjson")
                seen.append(("line", stream.status_code))
                if "decision" in message:
                    d = message["decision"]
                    first = d["sequence"] == "1"
                    # The first decision is answered twice (the second is refused: not
                    # pending any more), then for a decision never sent (a fault).
                    for _ in range(2 if first else 1):
                        reply = await alice.answer(d["sequence"], first_safe(d["request"]))
                        check(ANSWER_PATH, reply.status_code, reply.json())
                        seen.append(("answer", reply.status_code))
                    if first:
                        wrong = await alice.answer(1000, 0)
                        check(ANSWER_PATH, wrong.status_code, wrong.json())
                        seen.append(("answer", wrong.status_code))

    player = asyncio.create_task(play())
    await run_match(
        spec("doc"), ["connect:alice", "builtin:random"], gateway=h.rig.gateway, dial_in_wait=5
    )
    await h.rig.gateway.stop(0.5)
    await asyncio.wait_for(player, 5)
    async with httpx.AsyncClient(base_url=h.base) as anyone:
        unknown = await anyone.post(ANSWER_PATH, json={"answer": {"sequence": "1"}})
        check(ANSWER_PATH, unknown.status_code, unknown.json())
        refused = await anyone.post(JOIN_PATH, json=hello("not-a-token"))
        check(JOIN_PATH, refused.status_code, refused.json())
    assert {unknown.status_code, refused.status_code} == {401}
    assert {status for kind, status in seen if kind == "answer"} == {200, 400, 409}
    assert sum(kind == "line" for kind, _ in seen) > 3
