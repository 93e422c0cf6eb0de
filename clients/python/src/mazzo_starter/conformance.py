"""The conformance runner: every vector of ../conformance/vectors against a live
server (format: clients/conformance/README.md).

A response is compared as a message (``==`` after parsing the expected proto3 JSON),
never as text; an error by its status code name and, when the vector names one, a
``google.rpc.BadRequest`` field violation in the status details.
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

from mazzo.v1 import game_service_pb2, game_service_pb2_grpc
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


def check(stub: game_service_pb2_grpc.GameServiceStub, vector: dict[str, Any]) -> str | None:
    """None when the vector holds, else what differed."""
    rpc = vector["rpc"]
    if rpc not in RPCS:
        return f"unknown rpc {rpc!r}"
    request = json_format.ParseDict(vector["request"], getattr(game_service_pb2, f"{rpc}Request")())
    expect = vector["expect"]
    try:
        response = getattr(stub, rpc)(request, timeout=TIMEOUT)
    except grpc.RpcError as e:
        call: Any = e
        if "error" not in expect:
            return f"expected a response, got {call.code().name}: {call.details()}"
        want = expect["error"]
        if call.code().name != want["code"]:
            return f"expected {want['code']}, got {call.code().name}: {call.details()}"
        if "field" in want:
            fields = violations(call)
            if want["field"] not in fields:
                return f"expected a BadRequest violation of {want['field']!r}, got {fields}"
        return None
    if "error" in expect:
        return f"expected {expect['error']['code']}, got a response"
    wanted = json_format.ParseDict(
        expect["response"], getattr(game_service_pb2, f"{rpc}Response")()
    )
    if response != wanted:
        return f"response differs: {diff(wanted, response)}"
    return None


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
