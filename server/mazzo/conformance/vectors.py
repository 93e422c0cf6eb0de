"""The values a conformance vector is made of: a call's outcome, a vector, a seeded
random play's steps, and the small helpers that build requests and edited states."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from google.protobuf import json_format
from google.protobuf.message import Message

from mazzo.v1 import cards_pb2, game_pb2, game_service_pb2

Json = dict[str, Any]


def to_json(msg: Message) -> Json:
    """The proto3 JSON mapping (lowerCamelCase, enums by name, 64-bit ints as text)."""
    out: Json = json_format.MessageToDict(msg)
    return out


@dataclass
class Outcome:
    """What the service answered: a response, or an error code and field."""

    response: Message | None = None
    code: str = ""
    field: str = ""

    def expect(self) -> Json:
        if self.response is not None:
            return {"response": to_json(self.response)}
        error: Json = {"code": self.code}
        if self.field:
            error["field"] = self.field
        return {"error": error}


class Pending(Exception):
    """A call that reached a part of the service not written yet (``NotImplementedError``).
    Its vector is left out, and named on stderr, until the part is merged and the
    vectors regenerated."""


class Service(Protocol):
    """The service the vectors are calls of (the runner's: the real servicer, in-process)."""

    def call(self, rpc: str, request: Message) -> Outcome:
        """The answer, a domain error as its status; ``Pending`` for a part not written."""
        ...

    def ok(self, rpc: str, request: Message) -> Any:
        """The response of a call that must succeed."""
        ...


@dataclass
class Vector:
    name: str
    description: str
    rpc: str
    request: Message
    outcome: Outcome

    def to_json(self) -> Json:
        return {
            "name": self.name,
            "description": self.description,
            "rpc": self.rpc,
            "request": to_json(self.request),
            "expect": self.outcome.expect(),
        }


@dataclass
class Raw:
    """A vector that is not one call: a sealed exchange of several calls (``steps``),
    or a check a client makes locally (``verify_deal_commitment``)."""

    name: str
    data: Json

    def to_json(self) -> Json:
        return {"name": self.name, **self.data}


@dataclass
class Step:
    """One move of a random play: the state before, the move, the service's answer."""

    state: game_pb2.GameState
    move: game_pb2.Move
    response: game_service_pb2.ApplyMoveResponse

    def event_kinds(self) -> set[str]:
        kinds: set[str] = set()
        for event in self.response.events:
            branch = getattr(event, event.WhichOneof("event") or "")
            kinds.update(f.name for f, _ in branch.ListFields())
        return kinds


@dataclass
class Play:
    deal: game_service_pb2.DealResponse
    steps: list[Step] = field(default_factory=list)

    def first(self, kind: str, after: int = 0) -> Step:
        """The first step from ``after`` on whose events include ``kind``."""
        for step in self.steps[after:]:
            if kind in step.event_kinds():
                return step
        raise SystemExit(f"no move caused {kind!r} in this play")

    def index(self, step: Step) -> int:
        return next(i for i, s in enumerate(self.steps) if s is step)


def deal_request(
    game: str, players: int, seed: int, options: Json | None = None
) -> game_service_pb2.DealRequest:
    request = game_service_pb2.DealRequest(game=game, players=players, seed=seed)
    if options is not None:
        json_format.ParseDict({game: options}, request.options)
    return request


def final_state(play: Play) -> game_pb2.GameState:
    return play.steps[-1].response.state if play.steps else play.deal.state


def edited(state: game_pb2.GameState, edit: Callable[[game_pb2.GameState], None]) -> Any:
    """A copy of a state with one change (to build an invalid state)."""
    out = game_pb2.GameState()
    out.CopyFrom(state)
    edit(out)
    return out


def move_json(game: str, move: Json) -> game_pb2.Move:
    return json_format.ParseDict({game: move}, game_pb2.Move())


def card(c: int) -> str:
    return cards_pb2.Card.Name(cast("cards_pb2.Card.ValueType", c))
