"""The conformance runner: every vector of ../conformance/vectors against a live
server (format: clients/conformance/README.md).

A response is compared as a message (``==`` after parsing the expected proto3 JSON),
never as text; an error by its status code name and, when the vector names one, a
``google.rpc.BadRequest`` field violation in the status details. A sealed vector is a
sequence of such calls, each step's token taken from an earlier answer; a
``verify_deal_commitment`` vector is checked locally, with no call.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import json_format, text_format
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from mazzo.v1 import game_pb2, game_service_pb2, game_service_pb2_grpc
from mazzo_starter.fair import verify_deal_commitment
from mazzo_starter.service import game_service_channel

RPCS = (
    "ListGames",
    "Deal",
    "LegalMoves",
    "ApplyMove",
    "GetView",
    "Score",
    "Determinize",
    "ApplyMoves",
    "Simulate",
)
TIMEOUT = 30.0


def violations(error: grpc.Call) -> list[str]:
    """The fields of every BadRequest field violation in an error's rich status."""
    status = rpc_status.from_call(error)
    fields: list[str] = []
    for detail in status.details if status is not None else ():
        bad = error_details_pb2.BadRequest()
        if detail.Unpack(bad):
            fields.extend(v.field for v in bad.field_violations)
    return fields


def diff(want: Message, got: Message, limit: int = 8) -> str:
    lines = difflib.unified_diff(
        text_format.MessageToString(want).splitlines(),
        text_format.MessageToString(got).splitlines(),
        "expected",
        "actual",
        lineterm="",
        n=0,
    )
    shown = [line for line in lines if not line.startswith(("---", "+++", "@@"))]
    more = f" (+{len(shown) - limit} more)" if len(shown) > limit else ""
    return "; ".join(shown[:limit]) + more


#: Random or keyed by the server's key: cleared from a sealed answer before comparing.
RANDOM_FIELDS = ("sealed_states", "match_id", "deal_commitment")


def check(stub: game_service_pb2_grpc.GameServiceStub, vector: dict[str, Any]) -> str | None:
    """None when the vector holds, else what differed."""
    if "steps" in vector:
        return check_sealed(stub, vector["steps"])
    if "verify_deal_commitment" in vector:
        given = vector["verify_deal_commitment"]
        state = json_format.ParseDict(given["dealt_state"], game_pb2.GameState())
        valid = verify_deal_commitment(
            bytes.fromhex(given["commitment"]),
            bytes.fromhex(given["salt"]),
            int(given["seed"]),
            state,
        )
        if valid != vector["expect"]["valid"]:
            return f"verify_deal_commitment gave {valid}"
        return None
    rpc = vector["rpc"]
    if rpc not in RPCS:
        return f"unknown rpc {rpc!r}"
    request = json_format.ParseDict(vector["request"], getattr(game_service_pb2, f"{rpc}Request")())
    problem, _ = call(stub, rpc, request, vector["expect"])
    return problem


def check_sealed(
    stub: game_service_pb2_grpc.GameServiceStub, steps: list[dict[str, Any]]
) -> str | None:
    """A sealed exchange: every step's token is an earlier answer's (one byte
    altered when ``flip_byte`` says so); every answer's tokens are checked by their
    header (docs/sealing.md: version 1, the match, the move number, the seat)."""
    answers: list[Any] = []
    match_ids: set[bytes] = set()
    for i, step in enumerate(steps):
        rpc = step["rpc"]
        request = json_format.ParseDict(
            step["request"], getattr(game_service_pb2, f"{rpc}Request")()
        )
        if "token" in step:
            given = step["token"]
            token = bytearray(answers[given["step"]].sealed_states[given["seat"]])
            if "flip_byte" in given:
                token[given["flip_byte"]] ^= 0x01
            request.sealed_state = bytes(token)
        problem, response = call(stub, rpc, request, step["expect"])
        if problem is not None:
            return f"step {i} ({rpc}): {problem}"
        answers.append(response)
        if response is not None and "sealed" in step["expect"]:
            problem = check_tokens(response, step["expect"]["sealed"], match_ids)
            if problem is not None:
                return f"step {i} ({rpc}): {problem}"
    return None


def check_tokens(response: Any, sealed: dict[str, Any], match_ids: set[bytes]) -> str | None:
    tokens = list(response.sealed_states)
    if len(tokens) != sealed["tokens"]:
        return f"{len(tokens)} tokens, expected {sealed['tokens']}"
    for seat, token in enumerate(tokens):
        n = token[1] if len(token) > 1 else 0
        if len(token) < 2 + n + 22 + 12 + 16 or token[0] != 1 or not 1 <= n <= 32:
            return f"token {seat} has no version 1 header"
        match_id = token[2 + n : 18 + n]
        move = int.from_bytes(token[18 + n : 22 + n], "big")
        if (move, token[22 + n], token[23 + n]) != (sealed["move"], seat, len(tokens)):
            return f"token {seat}: move {move}, seat {token[22 + n]} of {token[23 + n]}"
        match_ids.add(match_id)
        if hasattr(response, "match_id") and response.match_id != match_id.hex():
            return f"token {seat} is of match {match_id.hex()}, not {response.match_id}"
    if len(match_ids) != 1:
        return "tokens of more than one match"
    if hasattr(response, "deal_commitment") and len(response.deal_commitment) != 32:
        return f"a deal_commitment of {len(response.deal_commitment)} bytes"
    return None


def call(
    stub: game_service_pb2_grpc.GameServiceStub, rpc: str, request: Message, expect: dict[str, Any]
) -> tuple[str | None, Any]:
    """One call checked against ``expect``: (what differed or None, the response)."""
    try:
        response = getattr(stub, rpc)(request, timeout=TIMEOUT)
    except grpc.RpcError as e:
        failed: Any = e
        if "error" not in expect:
            return f"expected a response, got {failed.code().name}: {failed.details()}", None
        want = expect["error"]
        if failed.code().name != want["code"]:
            return f"expected {want['code']}, got {failed.code().name}: {failed.details()}", None
        if "field" in want:
            fields = violations(failed)
            if want["field"] not in fields:
                return f"expected a BadRequest violation of {want['field']!r}, got {fields}", None
        return None, None
    if "error" in expect:
        return f"expected {expect['error']['code']}, got a response", None
    wanted = json_format.ParseDict(
        expect["response"], getattr(game_service_pb2, f"{rpc}Response")()
    )
    shown = response
    if "sealed" in expect:
        shown = type(response)()
        shown.CopyFrom(response)
        for name in RANDOM_FIELDS:
            if name in shown.DESCRIPTOR.fields_by_name:
                shown.ClearField(name)
    if shown != wanted:
        return f"response differs: {diff(wanted, shown)}", None
    return None, response


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the Mazzo conformance vectors.")
    parser.add_argument("--target", required=True, help="HOST:PORT of a Mazzo GameService")
    parser.add_argument("--vectors", required=True, type=Path, help="folder of *.json vectors")
    args = parser.parse_args(argv)
    passed = failed = 0
    with game_service_channel(args.target) as channel:
        stub = game_service_pb2_grpc.GameServiceStub(channel)
        for path in sorted(args.vectors.glob("*.json")):
            for vector in json.loads(path.read_text(encoding="utf-8"))["vectors"]:
                try:
                    problem = check(stub, vector)
                except (json_format.ParseError, KeyError, TypeError, ValueError) as e:
                    problem = f"bad vector: {e}"
                if problem is None:
                    passed += 1
                else:
                    failed += 1
                    print(f"FAIL {vector.get('name', path.name)}: {problem}", flush=True)
    print(f"conformance python: passed={passed} failed={failed}", flush=True)
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
