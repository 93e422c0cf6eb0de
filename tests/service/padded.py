"""Requests padded as issue 13 item 5 found them, and every list one entry over its
bound: what a client can send to make a server work (see codec/bounds.py).

Each builder returns the request, the RPC it goes to and the field that must be named
when it is refused. States come from real matches, so only the padding is wrong.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from google.protobuf.descriptor import Descriptor
from google.protobuf.message import Message

from mazzo.codec.bounds import BOUNDS, repeated_fields
from mazzo.games.registry import GAMES
from mazzo.players.builtins import random_index
from mazzo.service.game_service import GameService
from mazzo.v1 import burraco_pb2, game_pb2
from mazzo.v1 import game_service_pb2 as gs

#: The forms a sample state is played in: game, players, options.
FORMS: list[tuple[str, int, game_pb2.GameOptions]] = [
    ("maraffa", 4, game_pb2.GameOptions()),
    ("maraffa", 2, game_pb2.GameOptions()),
    ("maraffa", 3, game_pb2.GameOptions()),
    ("maraffa", 5, game_pb2.GameOptions()),
    ("burraco", 4, game_pb2.GameOptions()),
    ("burraco", 3, game_pb2.GameOptions()),
    ("ramino", 4, game_pb2.GameOptions()),
]


@dataclass
class Padded:
    """A request that must be refused, naming ``field``, when sent to ``rpc``."""

    name: str
    rpc: str
    # Not in the repr: asyncio and pytest print fixture values, and the text form of a
    # message of millions of entries takes seconds.
    request: Message = dataclasses.field(repr=False)
    field: str


async def played(
    game: str,
    players: int,
    moves: int,
    seed: int = 7,
    options: game_pb2.GameOptions | None = None,
) -> tuple[game_pb2.GameState, list[game_pb2.Move]]:
    """A state after ``moves`` random moves (fewer if the match ends) and its legal moves."""
    service = GameService()
    reply = await service.Deal(
        gs.DealRequest(game=game, players=players, seed=seed, options=options), None
    )
    state, legal = reply.state, list(reply.legal_moves)
    rnd = random.Random(seed)
    for _ in range(moves):
        if state.finished:
            break
        move = legal[random_index(legal, game, rnd)]
        applied = await service.ApplyMove(gs.ApplyMoveRequest(state=state, move=move), None)
        state, legal = applied.state, list(applied.legal_moves)
    return state, legal


def _copy(state: game_pb2.GameState) -> game_pb2.GameState:
    out = game_pb2.GameState()
    out.CopyFrom(state)
    return out


async def issue_requests() -> list[Padded]:
    """The padded requests the issue reports, each about 3-4 MB."""
    out: list[Padded] = []
    burraco, legal = await played("burraco", 4, 40)
    history = _copy(burraco)
    events = list(history.burraco.history)
    copies = 3_600_000 // sum(e.ByteSize() + 2 for e in events) + 1  # 2: key, length
    history.burraco.history.extend(events * copies)
    out.append(
        Padded(
            "burraco history of 3.6 MB",
            "ApplyMove",
            gs.ApplyMoveRequest(state=history, move=legal[0]),
            "state.burraco.history",
        )
    )
    scores = _copy(burraco)
    score = burraco_pb2.BurracoHandScore(seats=[0, 2], melded=120, score=-40)
    scores.burraco.table.last_hand_scores.extend([score] * 200_000)
    out.append(
        Padded(
            "burraco last_hand_scores x 200,000",
            "LegalMoves",
            gs.LegalMovesRequest(state=scores),
            "state.burraco.table.last_hand_scores",
        )
    )
    meld = _copy(burraco)
    meld.burraco.melds.add(seat=0).cards.extend([5, 6, 7] * 118_000)  # 354,000 cards
    out.append(
        Padded(
            "burraco meld of 354,000 cards",
            "LegalMoves",
            gs.LegalMovesRequest(state=meld),
            f"state.burraco.melds[{len(meld.burraco.melds) - 1}].cards",
        )
    )
    big_move = game_pb2.Move()
    big_move.burraco.meld.cards.extend([5, 6, 7] * 118_000)
    out.append(
        Padded(
            "burraco move melding 354,000 cards",
            "ApplyMove",
            gs.ApplyMoveRequest(state=burraco, move=big_move),
            "move.burraco.meld.cards",
        )
    )
    ramino, _ = await played("ramino", 4, 400)
    participants = _copy(ramino)
    participants.ramino.table.last_hand.participants.extend([1] * 3_000_000)
    out.append(
        Padded(
            "ramino last_hand.participants x 3,000,000",
            "LegalMoves",
            gs.LegalMovesRequest(state=participants),
            "state.ramino.table.last_hand.participants",
        )
    )
    maraffa, _ = await played("maraffa", 4, 10)
    padded = _copy(maraffa)
    padded.maraffa.played.extend([1] * 3_000_000)
    out.append(
        Padded(
            "maraffa played + 3,000,000 cards",
            "LegalMoves",
            gs.LegalMovesRequest(state=padded),
            "state.maraffa.played",
        )
    )
    return out


def _lengthen(root: Message, path: list[str], prefix: str, extra: int) -> str:
    """Make the repeated field at ``path`` (field names below ``root``) ``extra`` entries
    longer than its bound, creating what leads to it (first entries of lists on the
    way); returns the request path of the list."""
    msg, where = root, prefix
    for name in path[:-1]:
        field = msg.DESCRIPTOR.fields_by_name[name]
        if field.is_repeated:
            items = getattr(msg, name)
            if not items:
                items.add()
            msg, where = items[0], f"{where}.{name}[0]"
        else:
            msg, where = getattr(msg, name), f"{where}.{name}"
    name = path[-1]
    field = msg.DESCRIPTOR.fields_by_name[name]
    items = getattr(msg, name)
    del items[:]
    target = BOUNDS[field.full_name].limit(msg) + extra
    if field.message_type is not None:
        for _ in range(target):
            items.add()
    else:
        items.extend([1] * target)  # a valid number for every enum and integer list
    return f"{where}.{name}"


def over_bound(
    root_type: Descriptor, sample: Message, prefix: str, extra: int = 1
) -> Iterator[tuple[str, Message, str]]:
    """For every repeated field reachable from ``root_type`` within ``sample``'s branch
    (its game), a copy of ``sample`` with that list ``extra`` entries over its bound
    (0: exactly at it): (the field's full name, the message, the request path of the
    list)."""
    branch = _branch(sample)
    for field, where in repeated_fields(root_type):
        path = where.split(".")[1:]
        if branch is not None and path[0] in _GAME_BRANCHES and path[0] != branch:
            continue
        msg = type(sample)()
        msg.CopyFrom(sample)
        yield field.full_name, msg, _lengthen(msg, path, prefix, extra)


_GAME_BRANCHES = tuple(GAMES)


def _branch(msg: Message) -> str | None:
    oneof = "move" if msg.DESCRIPTOR.name == "Move" else "detail"
    found: Any = msg.WhichOneof(oneof)
    return str(found) if found else None
