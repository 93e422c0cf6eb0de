#!/usr/bin/env python3
"""Generate the OpenAPI 3 documents of the HTTP/JSON APIs from the proto.

protoc-gen-openapi (google/gnostic) reads the google.api.http annotations and the
proto3 JSON names; this script runs it through grpc_tools' protoc and stores the
result as JSON inside the package, where `mazzo serve` serves it at /openapi.json.

The arena's API (`mazzo arena serve`, ``mazzo.arena.serve``) gets its own too, with
its bearer token and refusals added (``arena_document``).

The gateway's HTTP door (`mazzo match --gateway-http`, ``mazzo.gateway.http``) gets
its own document, served at its /openapi.json: ``Tables/Join`` is a bidirectional
stream, which no annotation binds, so its two HTTP paths are declared for the
generator in a proto written here (``DOOR_PROTO``, never part of the contract), and
what OpenAPI 3.0 cannot derive from it (a response that is a stream of lines, the
bearer token, the refusals' statuses) is added after.

    python scripts/gen_openapi.py --plugin build/bin/protoc-gen-openapi           # write
    python scripts/gen_openapi.py --plugin build/bin/protoc-gen-openapi --check   # compare
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
TARGET = ROOT / "server" / "mazzo" / "service" / "openapi.json"
ENTRY = "mazzo/v1/game_service.proto"
DOOR_TARGET = ROOT / "server" / "mazzo" / "gateway" / "openapi.json"
ARENA_TARGET = ROOT / "server" / "mazzo" / "arena" / "openapi.json"
ARENA_ENTRY = "mazzo/v1/arena.proto"
DOOR_ENTRY = "mazzo/v1/door/tables_over_http.proto"
DOOR_PROTO = """syntax = "proto3";

package mazzo.v1;

import "google/api/annotations.proto";
import "mazzo/v1/tables.proto";

// The HTTP/JSON door of the referee's gateway (`mazzo match --gateway-http PORT`):
// `mazzo.v1.Tables/Join` for bots without gRPC streaming (a shell script, a
// browser), its one stream split in two, with the same messages in the proto's JSON
// mapping (docs/referee.md#over-httpjson).
service TablesOverHttp {
  // Join with a BotMessage holding the Hello. The answer is the stream of
  // TableMessages, one JSON object a line (application/x-ndjson), the Welcome
  // first; `{}` lines keep a quiet stream alive; the stream of a token that joins
  // again ends (the newer connection takes the seat). A refused Hello is a
  // google.rpc.Status: 401 (a wrong token), 408 (no Hello in time), 409 (a
  // protocol version or games this gateway does not serve), 413 (a body past
  // 64 KiB), 429 with Retry-After (too many connections from the address), 400 (a
  // malformed message, the field named).
  rpc Join(BotMessage) returns (TableMessage) {
    option (google.api.http) = {post: "/v1/tables:join" body: "*"};
  }
  // Answer a decision with a BotMessage holding the Answer, the token as
  // `Authorization: Bearer TOKEN`: 200 `{}` when applied, else a TableMessage
  // holding the Refusal, 400 when it counts as a fault (another decision's
  // sequence, match or seat) and 409 when the decision is no longer pending (an
  // answer sent twice is applied once). 401: no or an unknown token; 409 as a
  // google.rpc.Status: no stream of the token is open.
  rpc Answer(BotMessage) returns (TableMessage) {
    option (google.api.http) = {post: "/v1/tables:answer" body: "*"};
  }
}
"""


def include_paths() -> list[str]:
    import google.api
    import grpc_tools

    google_root = Path(google.api.__path__[0]).parent.parent
    tools_root = Path(grpc_tools.__file__).parent / "_proto"
    return [str(PROTO_ROOT), str(google_root), str(tools_root)]


def package_version() -> str:
    """The document's version is the package's (pyproject.toml), not the plugin's 0.0.1."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        return str(tomllib.load(f)["project"]["version"])


def generate(plugin: Path, entry: str = ENTRY, extra: Path | None = None) -> dict[str, Any]:
    """The document of ``entry`` (found in ``extra`` too, when given)."""
    # Our protos have no go_package (they are not Go-specific); the plugin wants one.
    go_packages = [
        f"--openapi_opt=M{p.relative_to(PROTO_ROOT)}=mazzo/v1;mazzov1"
        for p in sorted((PROTO_ROOT / "mazzo" / "v1").glob("*.proto"))
    ]
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "grpc_tools.protoc",
                *(f"-I{p}" for p in include_paths()),
                *([f"-I{extra}", f"--openapi_opt=M{entry}=mazzo/v1;mazzov1"] if extra else []),
                f"--plugin=protoc-gen-openapi={plugin}",
                f"--openapi_out={out}",
                "--openapi_opt=naming=json",
                "--openapi_opt=enum_type=string",
                "--openapi_opt=title=Mazzo",
                f"--openapi_opt=version={package_version()}",
                *go_packages,
                entry,
            ],
            check=True,
            cwd=ROOT,
        )
        document: dict[str, Any] = yaml.safe_load((Path(out) / "openapi.yaml").read_text())
    return document


def _status(description: str, schema: str = "Status") -> dict[str, Any]:
    ref = {"$ref": f"#/components/schemas/{schema}"}
    return {"description": description, "content": {"application/json": {"schema": ref}}}


def door_document(plugin: Path) -> dict[str, Any]:
    """The HTTP door's document: the generator's, with what 3.0 cannot derive added."""
    with tempfile.TemporaryDirectory() as extra:
        proto = Path(extra) / DOOR_ENTRY
        proto.parent.mkdir(parents=True)
        proto.write_text(DOOR_PROTO, encoding="utf-8")
        document = generate(plugin, DOOR_ENTRY, Path(extra))
    document["info"]["title"] = "Mazzo gateway, HTTP door"
    join = document["paths"]["/v1/tables:join"]["post"]
    lines = join["responses"]["200"]
    lines["description"] = "The stream: one TableMessage a line, the Welcome first."
    lines["content"] = {"application/x-ndjson": lines["content"]["application/json"]}
    join["responses"] |= {
        str(code): _status(why)
        for code, why in [
            (400, "A malformed message (the field named)."),
            (401, "A wrong token."),
            (408, "No Hello within the deadline."),
            (409, "A protocol version or games this gateway does not serve."),
            (413, "A body past the limit."),
            (429, "Too many connections from the address (Retry-After says when to retry)."),
        ]
    }
    answer = document["paths"]["/v1/tables:answer"]["post"]
    answer["security"] = [{"bearer": []}]
    answer["responses"] = {
        "200": {
            "description": "Applied.",
            "content": {"application/json": {"schema": {"type": "object"}}},
        },
        "400": _status("Refused and counted as a fault: another decision.", "TableMessage"),
        "401": _status("No token, or an unknown one."),
        "409": _status("Not pending (already answered), or no stream open.", "TableMessage"),
        "413": _status("A body past the limit."),
        "429": _status("Too many guesses from the address (Retry-After)."),
        "default": answer["responses"]["default"],
    }
    schemes = document["components"].setdefault("securitySchemes", {})
    schemes["bearer"] = {"type": "http", "scheme": "bearer"}
    return document


#: Each of the arena's RPCs that needs a token, and whose.
ARENA_TOKENS = {
    "Arena_CreateOwner": "the admin token",
    "Arena_RotateOwnerToken": "the owner's token",
    "Arena_ListOwnerBots": "the owner's token",
    "Arena_RegisterBot": "the owner's token",
    "Arena_RotateBotToken": "the bot's owner's token",
    "Arena_PauseBot": "the bot's owner's token",
    "Arena_ResumeBot": "the bot's owner's token",
}


def arena_document(plugin: Path) -> dict[str, Any]:
    """The arena API's document: the generator's, with the bearer token of the RPCs
    that need one and the refusals every RPC may answer (api.py)."""
    document = generate(plugin, ARENA_ENTRY)
    document["info"]["title"] = "Mazzo arena"
    for path in document["paths"].values():
        for operation in path.values():
            refusals = [
                (400, "Bad input (a google.rpc.BadRequest names the field)."),
                (404, "No such ladder or bot."),
                (409, "A name already taken."),
                (429, "Over the rate limit (Retry-After says when to retry)."),
            ]
            whose = ARENA_TOKENS.get(operation["operationId"])
            if whose is not None:
                operation["security"] = [{"bearer": []}]
                operation["description"] += f" Needs {whose}."
                refusals += [
                    (401, "No token, or an unknown one."),
                    (403, "A token that does not act for this owner or bot."),
                ]
            operation["responses"] |= {str(code): _status(why) for code, why in refusals}
    schemes = document["components"].setdefault("securitySchemes", {})
    schemes["bearer"] = {"type": "http", "scheme": "bearer"}
    return document


def _text(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=1) + "\n"


def store(target: Path, text: str, check: bool, remake: str) -> int:
    """Write ``target``, or with ``check`` say whether it is current (exit status)."""
    name = target.relative_to(ROOT)
    if check:
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            print(f"{name} is stale: run `{remake}`", file=sys.stderr)
            return 1
        print(f"{name} matches the proto")
        return 0
    target.write_text(text, encoding="utf-8")
    print(f"wrote {name}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--plugin", type=Path, required=True, help="protoc-gen-openapi binary")
    parser.add_argument("--check", action="store_true", help="fail if the stored file is stale")
    args = parser.parse_args()
    plugin = args.plugin.resolve()
    service = store(TARGET, _text(generate(plugin)), args.check, "make openapi")
    door = store(DOOR_TARGET, _text(door_document(plugin)), args.check, "make openapi")
    arena = store(ARENA_TARGET, _text(arena_document(plugin)), args.check, "make openapi")
    return service or door or arena


if __name__ == "__main__":
    sys.exit(main())
