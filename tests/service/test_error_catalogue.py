"""docs/errors.md is true: every example in it gets the documented answer.

The catalogue's examples are fenced blocks (``json state``, ``json request``, ``json
answer``, and one ``json status``; the page's "How the examples are written" says what
their keys mean). They are read from the page as written and sent to a real server on
port 0 (in process, gRPC and HTTP), over gRPC and over HTTP as each answer says, and
the code, HTTP status, field, description and message that come back must be the
documented ones. Only the codes and statuses the page must cover are restated here:
the page cannot drift from the server, nor this test from the page.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import re
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import httpx
import pytest
import pytest_asyncio
from google.protobuf import json_format
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from mazzo.service import rest
from mazzo.service.rest import http_rules
from mazzo.service.server import GAME_SERVICE, Running, start_server, stop_server
from mazzo.v1 import game_service_pb2

CATALOGUE = Path(__file__).resolve().parents[2] / "docs" / "errors.md"
BLOCK = re.compile(r"^```json (status|state|request|answer)\n(.*?)^```[ \t]*$", re.M | re.S)
HEADING = re.compile(r"^#{2,4} (.+)$", re.M)
BAD_REQUEST = "type.googleapis.com/google.rpc.BadRequest"
TIMEOUT = 30.0
#: The body timeout while the test waits for a 408 (the documented 10 s is put back).
SHORT_BODY_SECONDS = 0.3

REQUEST_KEYS = {
    *("request", "body", "with", "raw", "headers", "content_length", "size"),
    *("rpc", "hex", "while"),
}
ANSWER_KEYS = {"grpc", "http", "code", "field", "description", "message"}
STATE_KEYS = {"name", "request", "body", "take", "value"}


@dataclass(frozen=True)
class Example:
    title: str
    line: int
    request: dict[str, Any]
    answer: dict[str, Any]

    def __str__(self) -> str:
        return f"{self.title!r} (docs/errors.md line {self.line})"


@dataclass(frozen=True)
class Catalogue:
    #: The whole HTTP body the page shows, that of its first example.
    status: dict[str, Any]
    states: list[dict[str, Any]]
    examples: list[Example]


def read_catalogue(text: str) -> Catalogue:
    """The named positions and the examples, in the page's order: every request block
    is followed by its answer block."""
    headings = [(m.start(), m.group(1)) for m in HEADING.finditer(text)]
    statuses: list[dict[str, Any]] = []
    states: list[dict[str, Any]] = []
    examples: list[Example] = []
    pending: tuple[str, int, dict[str, Any]] | None = None
    for match in BLOCK.finditer(text):
        kind, line = match.group(1), text.count("\n", 0, match.start()) + 1
        try:
            block = json.loads(match.group(2))
        except json.JSONDecodeError as e:
            raise AssertionError(f"docs/errors.md line {line}: not JSON: {e}") from None
        title = max((h for h in headings if h[0] < match.start()), default=(0, "?"))[1]
        if kind == "answer":
            assert pending is not None, f"line {line}: an answer with no request before it"
            examples.append(Example(pending[0], pending[1], pending[2], block))
            pending = None
            continue
        assert pending is None, f"line {pending[1] if pending else line}: a request with no answer"
        if kind == "status":
            statuses.append(block)
        elif kind == "state":
            states.append(block)
        else:
            pending = (title, line, block)
    assert pending is None, f"line {pending[1]}: a request with no answer"
    assert len(statuses) == 1, "one whole HTTP body, that of the first example"
    return Catalogue(statuses[0], states, examples)


def the_catalogue() -> Catalogue:
    return read_catalogue(CATALOGUE.read_text(encoding="utf-8"))


def code_of(name: str) -> grpc.StatusCode:
    return grpc.StatusCode[name]


def test_the_catalogue_is_well_formed() -> None:
    catalogue = the_catalogue()
    names = [state["name"] for state in catalogue.states]
    assert len(set(names)) == len(names) == 4, names
    for state in catalogue.states:
        assert set(state) <= STATE_KEYS and {"name", "request", "take"} <= set(state), state
    for example in catalogue.examples:
        request, answer = example.request, example.answer
        assert set(request) <= REQUEST_KEYS, (str(example), set(request) - REQUEST_KEYS)
        assert set(answer) <= ANSWER_KEYS, (str(example), set(answer) - ANSWER_KEYS)
        assert ("request" in request) != ("rpc" in request), str(example)
        assert "grpc" in answer or "http" in answer, str(example)
        assert ("grpc" in answer) != ("code" in answer), str(example)
        code_of(answer.get("grpc") or answer["code"])
        violation = "field" in answer and "description" in answer
        assert violation != ("message" in answer), str(example)
        assert violation or not {"field", "description"} & set(answer), str(example)
        if "rpc" in request:
            assert "http" not in answer, f"{example}: gRPC only"


def test_the_catalogue_covers_every_code_and_status() -> None:
    answers = [example.answer for example in the_catalogue().examples]
    codes = {answer.get("grpc") or answer["code"] for answer in answers}
    assert codes == {
        "INVALID_ARGUMENT",
        "FAILED_PRECONDITION",
        "DEADLINE_EXCEEDED",
        "NOT_FOUND",
        "UNIMPLEMENTED",
        "RESOURCE_EXHAUSTED",
        "UNAVAILABLE",
    }
    statuses = {answer["http"] for answer in answers if "http" in answer}
    assert statuses == {400, 408, 409, 404, 405, 413, 415, 503}
    fields = {answer["field"] for answer in answers if "field" in answer}
    assert {"game", "players", "body", "request", "move", "moves[1]", "seat", "count"} <= fields
    assert {"playouts", "view.maraffa.table.battezzante", "state.maraffa.hands[1].cards"} <= fields


# --------------------------------------------------------------------------- texts


def matches(actual: str, documented: str) -> bool:
    """``documented`` exactly, or with a leading and/or trailing ``…``: the end, the
    start, or a part of ``actual``."""
    head, tail = documented.startswith("…"), documented.endswith("…") and len(documented) > 1
    core = documented[1 if head else 0 : len(documented) - 1 if tail else len(documented)]
    if head and tail:
        return core in actual
    if head:
        return actual.endswith(core)
    if tail:
        return actual.startswith(core)
    return actual == documented


def test_the_text_convention() -> None:
    assert matches("abc", "abc") and not matches("abcd", "abc")
    assert matches("abcd", "ab…") and not matches("xabcd", "ab…")
    assert matches("abcd", "…cd") and not matches("abcdx", "…cd")
    assert matches("abcd", "…bc…") and not matches("abd", "…bc…")


# --------------------------------------------------------------------------- requests


@dataclass(frozen=True)
class Route:
    rpc: str
    request_class: type[Message]
    response_class: type[Message]
    pattern: re.Pattern[str]


def routes() -> dict[str, list[Route]]:
    """Every RPC's HTTP route, from the same annotations the server routes by."""
    out: dict[str, list[Route]] = {}
    for rule in http_rules(GAME_SERVICE):
        regex = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/:]+)", re.escape(rule.path))
        method = rule.method
        out.setdefault(rule.verb, []).append(
            Route(
                method.name,
                getattr(game_service_pb2, method.input_type.name),
                getattr(game_service_pb2, method.output_type.name),
                re.compile(regex + "$"),
            )
        )
    return out


ROUTES = routes()


def route_of(verb: str, path: str) -> tuple[Route, dict[str, str]] | None:
    for route in ROUTES.get(verb, []):
        match = route.pattern.match(path)
        if match:
            return route, match.groupdict()
    return None


def substituted(value: Any, named: dict[str, Any]) -> Any:
    """``value`` with every string ``"$name"`` of a named position replaced by it."""
    if isinstance(value, str) and value in named:
        return copy.deepcopy(named[value])
    if isinstance(value, dict):
        return {k: substituted(v, named) for k, v in value.items()}
    if isinstance(value, list):
        return [substituted(v, named) for v in value]
    return value


def edited(body: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """``body`` with each path of ``changes`` (``state.maraffa.hands[1].cards[0]``) set."""
    for path, value in changes.items():
        steps: list[str | int] = []
        for part in path.split("."):
            name, *indices = re.findall(r"[^\[\]]+", part)
            steps.append(name)
            steps.extend(int(i) for i in indices)
        target: Any = body
        for step in steps[:-1]:
            target = target[step]
        target[steps[-1]] = value
    return body


def body_of(request: dict[str, Any], named: dict[str, Any]) -> dict[str, Any] | None:
    if "body" not in request:
        return None
    body = substituted(request["body"], named)
    return edited(body, request.get("with", {}))


@dataclass
class Got:
    """One answer: a gRPC error (code, message, status details) or an HTTP response."""

    code: str
    message: str
    violations: list[tuple[str, str]] | None  # None: no details at all
    http: int | None = None


def grpc_request_bytes(request: dict[str, Any], named: dict[str, Any]) -> tuple[str, bytes]:
    if "rpc" in request:
        method = request["rpc"]
        if "size" in request:
            size = request["size"]  # field 1, length-delimited: DealRequest.game
            data = b"\x0a" + varint(size) + b"x" * size
        else:
            data = bytes.fromhex(request["hex"])
        return method, data
    verb, path = request["request"].split(" ", 1)
    found = route_of(verb, path)
    assert found is not None, f"{verb} {path} is no RPC's route"
    route, params = found
    message = route.request_class()
    body = body_of(request, named)
    json_format.ParseDict(body or {}, message)
    json_format.ParseDict(params, message)
    return route.rpc, message.SerializeToString()


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


async def send_grpc(channel: grpc.aio.Channel, method: str, data: bytes) -> Got | bytes:
    call = channel.unary_unary(f"/{GAME_SERVICE.full_name}/{method}")
    try:
        reply: bytes = await call(data, timeout=TIMEOUT)
        return reply
    except grpc.aio.AioRpcError as error:
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
        violations = None
        if status is not None:
            assert status.code == error.code().value[0] and status.message == error.details()
            violations = []
            for detail in status.details:
                bad = error_details_pb2.BadRequest()
                assert detail.Unpack(bad), f"a detail that is not a BadRequest: {detail}"
                violations.extend((v.field, v.description) for v in bad.field_violations)
        return Got(error.code().name, error.details() or "", violations)


def got_from_http(status: int, payload: bytes, content_type: str) -> Got:
    assert content_type.split(";")[0] == "application/json", content_type
    body = json.loads(payload)
    assert set(body) <= {"code", "message", "details"}, body
    code = next(c.name for c in grpc.StatusCode if c.value[0] == body["code"])
    violations = None
    if "details" in body:
        violations = []
        for detail in body["details"]:
            assert detail["@type"] == BAD_REQUEST and set(detail) == {"@type", "fieldViolations"}
            for violation in detail["fieldViolations"]:
                assert set(violation) == {"field", "description"}, violation
                violations.append((violation["field"], violation["description"]))
    return Got(code, body["message"], violations, status)


async def send_http(
    http: httpx.AsyncClient, port: int, request: dict[str, Any], named: dict[str, Any]
) -> Got | int:
    verb, path = request["request"].split(" ", 1)
    headers = request.get("headers", {})
    if "content_length" in request:
        return await stalled(port, verb, path, headers, request)
    if "size" in request:
        content = b" " * request["size"]
        headers = {"content-type": "application/json", **headers}
    elif "raw" in request:
        content = request["raw"].encode()
    else:
        body = body_of(request, named)
        content = b"" if body is None else json.dumps(body).encode()
        if body is not None:
            headers = {"content-type": "application/json", **headers}
    reply = await http.request(verb, path, content=content, headers=headers)
    if reply.status_code == 200:
        return 200
    return got_from_http(reply.status_code, reply.content, reply.headers["content-type"])


async def stalled(
    port: int, verb: str, path: str, headers: dict[str, str], request: dict[str, Any]
) -> Got:
    """A request that declares ``content_length`` bytes and sends only ``raw``."""
    sent = request["raw"].encode()
    assert request["content_length"] > len(sent)
    head = [f"{verb} {path} HTTP/1.1", "Host: mazzo"]
    head += [f"Content-Length: {request['content_length']}"]
    head += [f"{name}: {value}" for name, value in headers.items()]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + sent)
        await writer.drain()
        status_line = await asyncio.wait_for(reader.readline(), TIMEOUT)
        fields = {}
        while (line := await asyncio.wait_for(reader.readline(), TIMEOUT)) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            fields[name.strip().lower()] = value.strip()
        payload = await reader.readexactly(int(fields["content-length"]))
    finally:
        writer.close()
    return got_from_http(int(status_line.split()[1]), payload, fields["content-type"])


# --------------------------------------------------------------------------- checks


@contextlib.contextmanager
def drained(servers: Servers, request: dict[str, Any]) -> Iterator[None]:
    """What a graceful stop does first (stop_server: Admission.drain), for an example
    sent ``"while": "draining"``; undone after."""
    servers.running.admission.draining = request.get("while") == "draining"
    try:
        yield
    finally:
        servers.running.admission.draining = False


def mismatches(got: Got | int | bytes, answer: dict[str, Any], door: str) -> list[str]:
    """What differs between ``got`` and the documented ``answer`` (nothing: [])."""
    if not isinstance(got, Got):
        return [f"{door}: the call succeeded"]
    wrong = []
    code = answer.get("grpc") or answer["code"]
    if got.code != code:
        wrong.append(f"{door}: code {got.code}, documented {code}")
    if door == "HTTP" and got.http != answer["http"]:
        wrong.append(f"HTTP: status {got.http}, documented {answer['http']}")
    if "field" in answer:
        if got.violations is None or len(got.violations) != 1:
            return [*wrong, f"{door}: not one field violation: {got.violations} ({got.message!r})"]
        [(field, description)] = got.violations
        if field != answer["field"]:
            wrong.append(f"{door}: field {field!r}, documented {answer['field']!r}")
        documented = answer["description"]
        if not matches(description, documented):
            wrong.append(f"{door}: description {description!r}, documented {documented!r}")
        if got.message != f"{field}: {description}":
            wrong.append(f"{door}: message {got.message!r} is not field: description")
    else:
        if got.violations is not None:
            wrong.append(f"{door}: details {got.violations}, documented none")
        if not matches(got.message, answer["message"]):
            wrong.append(f"{door}: message {got.message!r}, documented {answer['message']!r}")
    return wrong


def same_error(a: Any, b: Any) -> bool:
    """The two doors' errors carry the same message and field violations."""
    return bool((a.message, a.violations) == (b.message, b.violations))


@dataclass
class Servers:
    running: Running
    http: httpx.AsyncClient
    channel: grpc.aio.Channel


@pytest_asyncio.fixture
async def servers() -> AsyncIterator[Servers]:
    running, port = await start_server("127.0.0.1", 0, http_port=0)
    base = f"http://127.0.0.1:{running.http_port}"
    async with (
        httpx.AsyncClient(base_url=base, timeout=TIMEOUT) as http,
        grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
    ):
        yield Servers(running, http, channel)
    await stop_server(running, grace=0.5, quiet=0)


async def positions(servers: Servers, states: list[dict[str, Any]]) -> dict[str, Any]:
    """The named positions, made by the requests the page gives, checked against the
    values it shows."""
    named: dict[str, Any] = {}
    for state in states:
        verb, path = state["request"].split(" ", 1)
        body = substituted(state.get("body", {}), named)
        reply = await servers.http.request(verb, path, json=body)
        assert reply.status_code == 200, (state["name"], reply.text)
        value = reply.json()[state["take"]]
        if "value" in state:
            assert value == state["value"], f"{state['name']} is no longer what the page shows"
        named[state["name"]] = value
    return named


async def test_every_example_gets_the_documented_answer(
    servers: Servers, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalogue = the_catalogue()
    named = await positions(servers, catalogue.states)
    port = servers.running.http_port
    assert port is not None
    first = catalogue.examples[0].request
    verb, path = first["request"].split(" ", 1)
    whole = await servers.http.request(verb, path, json=body_of(first, named))
    assert whole.json() == catalogue.status, "the page's whole HTTP body is not the first's"
    failures = []
    for example in catalogue.examples:
        request, answer = example.request, example.answer
        wrong: list[str] = []
        grpc_got = None
        if "grpc" in answer:
            method, data = grpc_request_bytes(request, named)
            with drained(servers, request):
                grpc_got = await send_grpc(servers.channel, method, data)
            wrong += mismatches(grpc_got, answer, "gRPC")
        if "http" in answer:
            documented = answer
            if "content_length" in request:  # a 408: wait a fraction of the 10 s
                ten = f"{rest.BODY_SECONDS:g} s"
                assert ten in answer["message"], f"{example}: the message names {ten}"
                short = answer["message"].replace(ten, f"{SHORT_BODY_SECONDS:g} s")
                documented = {**answer, "message": short}
                monkeypatch.setattr(rest, "BODY_SECONDS", SHORT_BODY_SECONDS)
            with drained(servers, request):
                http_got = await send_http(servers.http, port, request, named)
            monkeypatch.undo()
            wrong += mismatches(http_got, documented, "HTTP")
            both = isinstance(grpc_got, Got) and isinstance(http_got, Got)
            if both and same_error(grpc_got, http_got) is False:
                wrong.append("gRPC and HTTP answer with different messages or details")
        failures += [f"{example}: {w}" for w in wrong]
    assert not failures, "\n".join(failures)
