#!/usr/bin/env python3
"""Generate the conformance vectors (clients/conformance/vectors/*.json).

Every vector is one real call of the ``GameService`` servicer, made in-process:
the request is what a client would send, the expectation is what the service
answered (a response, or a status code with its ``BadRequest`` field). States
come from ``Deal`` and seeded random play through ``ApplyMove``, so they are
positions the rules really reach. Output is deterministic (fixed seeds, sorted
keys), so regenerating gives identical bytes and a test can tell when the
committed vectors are stale.

    python scripts/gen_conformance.py [--out DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import hashlib
import json
import os
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import Message
from google.rpc import code_pb2

from mazzo.core import fair
from mazzo.core.errors import RulesError
from mazzo.games.registry import CODECS, rules_for
from mazzo.service.errors import status_of
from mazzo.service.game_service import GameService
from mazzo.service.sealing import Key, Sealer
from mazzo.v1 import cards_pb2, game_pb2, game_service_pb2

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "clients" / "conformance" / "vectors"
#: Random play gives up after this many moves (a safeguard; no match here needs it).
MAX_MOVES = 20_000

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
    """A call that reached a part of the service not written yet (``NotImplementedError``:
    Burraco's and Ramino's samplers, issue 15). Its vector is left out, and named on
    stderr, until the part is merged and the vectors regenerated."""


class Service:
    """The real servicer, called in-process the way the gRPC server calls it.

    Domain errors are mapped to a status exactly as the server's interceptor maps
    them (``status_of``); ``NotImplementedError`` is ``Pending``; any other exception
    is a bug and stops the generator.
    """

    def __init__(self, sealer: Sealer | None = None) -> None:
        self.servicer = GameService(sealer=sealer)
        self.loop = asyncio.new_event_loop()

    def call(self, rpc: str, request: Message) -> Outcome:
        method = getattr(self.servicer, rpc)
        try:
            response = self.loop.run_until_complete(method(request, None))
        except RulesError as e:
            status = status_of(e)
            return Outcome(code=code_pb2.Code.Name(status.code), field=e.field)
        except NotImplementedError as e:
            raise Pending(rpc) from e
        return Outcome(response=response)

    def ok(self, rpc: str, request: Message) -> Any:
        outcome = self.call(rpc, request)
        if outcome.response is None:
            raise SystemExit(f"{rpc} failed unexpectedly: {outcome.code} {outcome.field}")
        return outcome.response

    def close(self) -> None:
        self.servicer.simulator.close()  # Simulate's process pool
        self.loop.close()


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
        kinds = set()
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


def _avoid(game: str, move: game_pb2.Move) -> bool:
    """Random play never claims in Maraffa: a false claim ends the game at once."""
    return game == "maraffa" and move.maraffa.HasField("claim")


def deal_request(
    game: str, players: int, seed: int, options: Json | None = None
) -> game_service_pb2.DealRequest:
    request = game_service_pb2.DealRequest(game=game, players=players, seed=seed)
    if options is not None:
        json_format.ParseDict({game: options}, request.options)
    return request


def random_play(
    service: Service, request: game_service_pb2.DealRequest, seed: int, limit: int = MAX_MOVES
) -> Play:
    """Deal, then play random legal moves (seeded) until the match ends or ``limit``."""
    deal = service.ok("Deal", request)
    play = Play(deal=deal)
    rng = random.Random(seed)
    state, moves = deal.state, list(deal.legal_moves)
    while not state.finished and len(play.steps) < limit:
        choices = [m for m in moves if not _avoid(request.game, m)] or moves
        move = choices[rng.randrange(len(choices))]
        answer = service.ok("ApplyMove", game_service_pb2.ApplyMoveRequest(state=state, move=move))
        play.steps.append(Step(state, move, answer))
        state, moves = answer.state, list(answer.legal_moves)
    if limit == MAX_MOVES and not state.finished:
        raise SystemExit(f"{request.game} seed {seed}: no end after {limit} moves")
    return play


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


# --------------------------------------------------------------------------- vectors


class Generator:
    """Collects vectors into files, one file per game and RPC."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self.files: dict[str, list[Vector | Raw]] = {}
        self.surprises: list[str] = []
        self.notes: list[str] = []
        self.pending: list[str] = []

    def add(self, file: str, name: str, description: str, rpc: str, request: Message) -> Outcome:
        outcome = self.try_add(file, name, description, rpc, request)
        if outcome is None:
            raise SystemExit(f"{name}: the service has no {rpc} for it yet")
        return outcome

    def try_add(
        self, file: str, name: str, description: str, rpc: str, request: Message
    ) -> Outcome | None:
        """``add``, or None (and the name kept in ``pending``) for a call the service
        cannot answer yet (``Pending``)."""
        try:
            outcome = self.service.call(rpc, request)
        except Pending:
            self.pending.append(name)
            return None
        vector = Vector(name, description, rpc, request, outcome)
        vectors = self.files.setdefault(file, [])
        if any(v.name == name for v in vectors):
            raise SystemExit(f"duplicate vector name {name}")
        vectors.append(vector)
        return outcome

    def error(
        self,
        file: str,
        name: str,
        description: str,
        rpc: str,
        request: Message,
        code: str,
        at: str,
        questionable: str = "",
    ) -> None:
        """An error vector. ``code`` and ``at`` are what the service must answer: they
        were checked against the rules by hand, and a change in the service shows up
        here rather than silently in the vectors. A field the service names but the
        rules would not (``questionable`` says why) is left out of the expectation, so
        the vectors do not enshrine it; the code is still checked. A call the service
        cannot answer yet is left out (``try_add``)."""
        outcome = self.try_add(file, name, description, rpc, request)
        if outcome is None:
            return
        if (outcome.code, outcome.field) != (code, at):
            got = (
                "a response" if outcome.response is not None else f"{outcome.code} {outcome.field}"
            )
            self.surprises.append(f"{name}: expected {code} {at}, the service gave {got}")
        if questionable:
            outcome.field = ""
            self.notes.append(f"{name}: field {at!r} not pinned: {questionable}")

    def positions(self, game: str, label: str, play: Play, steps: list[tuple[str, Step]]) -> None:
        """ApplyMove on the chosen moves of a play; LegalMoves, GetView and Score on a
        few of the positions around them (the first, one in the middle, the end)."""
        unique: dict[int, tuple[str, Step]] = {}
        for why, step in steps:
            i = play.index(step)
            unique[i] = (f"{unique[i][0]}; {why}", step) if i in unique else (why, step)
        steps = [unique[i] for i in sorted(unique)]
        for why, step in steps:
            i = play.index(step)
            kinds = ", ".join(sorted(step.event_kinds()))
            self.add(
                f"{game}-apply-move",
                f"{game}/apply-move/{label}-ply-{i}",
                f"Move {i} of seeded random play ({why}); events: {kinds}.",
                "ApplyMove",
                game_service_pb2.ApplyMoveRequest(state=step.state, move=step.move),
            )
        mid = play.steps[len(play.steps) // 2]
        i = play.index(mid)
        self.add(
            f"{game}-legal-moves",
            f"{game}/legal-moves/{label}-ply-{i}",
            f"Who decides and every legal move before move {i}, halfway through the play.",
            "LegalMoves",
            game_service_pb2.LegalMovesRequest(state=mid.state),
        )
        end = final_state(play)
        self.add(
            f"{game}-legal-moves",
            f"{game}/legal-moves/{label}-final",
            "No legal moves once the match is over." if end.finished else "The last position.",
            "LegalMoves",
            game_service_pb2.LegalMovesRequest(state=end),
        )
        other = (mid.state.to_act + 1) % mid.state.players
        for seat, whose in [(mid.state.to_act, "the seat to act"), (other, "another seat")]:
            self.add(
                f"{game}-get-view",
                f"{game}/get-view/{label}-ply-{i}-seat-{seat}",
                f"What seat {seat} ({whose}) may know before move {i}.",
                "GetView",
                game_service_pb2.GetViewRequest(state=mid.state, seat=seat),
            )
        self.add(
            f"{game}-score",
            f"{game}/score/{label}-ply-{i}",
            f"The score in the middle of the play (before move {i}).",
            "Score",
            game_service_pb2.ScoreRequest(state=mid.state),
        )
        self.add(
            f"{game}-score",
            f"{game}/score/{label}-final",
            "The score of a finished match, with its winners."
            if end.finished
            else "The score of the last position.",
            "Score",
            game_service_pb2.ScoreRequest(state=end),
        )

    def common_errors(self, game: str, state: game_pb2.GameState, end: game_pb2.GameState) -> None:
        """Errors every game shares: the envelope, the view's seat, a finished match."""
        self.error(
            f"{game}-get-view",
            f"{game}/get-view/seat-out-of-range",
            "A view for a seat the match does not have.",
            "GetView",
            game_service_pb2.GetViewRequest(state=state, seat=state.players),
            "INVALID_ARGUMENT",
            "seat",
        )
        other = {"maraffa": "burraco", "burraco": "ramino", "ramino": "maraffa"}[game]
        self.error(
            f"{game}-legal-moves",
            f"{game}/legal-moves/state-game-mismatch",
            f"A state that says {other!r} but carries {game} detail.",
            "LegalMoves",
            game_service_pb2.LegalMovesRequest(
                state=edited(state, lambda s: setattr(s, "game", other))
            ),
            "INVALID_ARGUMENT",
            f"state.{other}",
        )
        self.error(
            f"{game}-score",
            f"{game}/score/wrong-player-count",
            "A state whose player count does not match its hands.",
            "Score",
            game_service_pb2.ScoreRequest(
                state=edited(state, lambda s: setattr(s, "players", s.players + 1))
            ),
            "INVALID_ARGUMENT",
            PLAYERS_FIELD[game],
        )
        foreign = {
            "maraffa": {"burraco": {"draw": {}}},
            "burraco": {"ramino": {"draw": {}}},
            "ramino": {"maraffa": {"claim": {}}},
        }[game]
        self.error(
            f"{game}-apply-move",
            f"{game}/apply-move/move-of-another-game",
            f"A move of another game applied to a {game} state.",
            "ApplyMove",
            game_service_pb2.ApplyMoveRequest(
                state=state, move=json_format.ParseDict(foreign, game_pb2.Move())
            ),
            "INVALID_ARGUMENT",
            "move",
        )
        self.error(
            f"{game}-apply-move",
            f"{game}/apply-move/empty-move",
            "A move that names no action.",
            "ApplyMove",
            game_service_pb2.ApplyMoveRequest(state=state, move=move_json(game, {})),
            "INVALID_ARGUMENT",
            f"move.{game}",
        )

        def duplicate(s: game_pb2.GameState) -> None:
            hands = getattr(s, game).hands
            hands[1].cards[0] = hands[0].cards[0]

        self.error(
            f"{game}-legal-moves",
            f"{game}/legal-moves/duplicated-card",
            "A state in which one card is in two hands (and another is missing).",
            "LegalMoves",
            game_service_pb2.LegalMovesRequest(state=edited(state, duplicate)),
            "INVALID_ARGUMENT",
            DUPLICATE_FIELD[game],
        )
        if game != "burraco":  # a Burraco state's to_act is not derivable (see README)
            self.error(
                f"{game}-apply-move",
                f"{game}/apply-move/wrong-seat-to-act",
                "A state whose to_act is not the seat the rules say must decide.",
                "ApplyMove",
                game_service_pb2.ApplyMoveRequest(
                    state=edited(state, lambda s: setattr(s, "to_act", (s.to_act + 1) % s.players)),
                    move=self.any_move(game),
                ),
                "INVALID_ARGUMENT",
                "state.to_act",
            )
        if end.finished:
            self.error(
                f"{game}-apply-move",
                f"{game}/apply-move/match-finished",
                "No move is legal once the match is over: the request is well formed, the "
                "state does not allow it.",
                "ApplyMove",
                game_service_pb2.ApplyMoveRequest(state=end, move=self.any_move(game)),
                "FAILED_PRECONDITION",
                "move",
            )

    def any_move(self, game: str) -> game_pb2.Move:
        return {
            "maraffa": move_json("maraffa", {"playCard": {"card": "CARD_AS"}}),
            "burraco": move_json("burraco", {"draw": {}}),
            "ramino": move_json("ramino", {"draw": {}}),
        }[game]


#: Where each game reports the card put twice into hands[1] (where the count
#: overflowed in the order the validator counts: the other copy's place for
#: Burraco and Ramino).
DUPLICATE_FIELD = {
    "maraffa": "state.maraffa.hands[1].cards",
    "burraco": "state.burraco.pozzetti[0].cards",
    "ramino": "state.ramino.stock",
}


def service_vectors(gen: Generator) -> None:
    gen.add(
        "service",
        "service/list-games",
        "Every game with its player counts, options, defaults and allowed values.",
        "ListGames",
        game_service_pb2.ListGamesRequest(),
    )
    gen.error(
        "service",
        "service/deal/unknown-game",
        "Dealing a game the service does not have.",
        "Deal",
        game_service_pb2.DealRequest(game="scopa", players=4, seed=1),
        "INVALID_ARGUMENT",
        "game",
    )
    gen.error(
        "service",
        "service/deal/no-game",
        "Dealing without naming a game.",
        "Deal",
        game_service_pb2.DealRequest(seed=1),
        "INVALID_ARGUMENT",
        "game",
    )
    gen.error(
        "service",
        "service/legal-moves/empty-state",
        "A state that names no game.",
        "LegalMoves",
        game_service_pb2.LegalMovesRequest(),
        "INVALID_ARGUMENT",
        "state.game",
    )
    gen.error(
        "service",
        "service/score/unknown-game-state",
        "A state of a game the service does not have.",
        "Score",
        game_service_pb2.ScoreRequest(state=game_pb2.GameState(game="scopa", players=4)),
        "INVALID_ARGUMENT",
        "state.game",
    )


# --------------------------------------------------------------------------- Maraffa


MARAFFA_DEALS: list[tuple[str, int, int, Json | None, str]] = [
    ("4p-seed-1", 4, 1, None, "Four players, default options."),
    ("default-players-seed-3", 0, 3, None, "players = 0 deals the default (4)."),
    (
        "4p-thirds-extended-best-of-three",
        4,
        11,
        {
            "target": 31,
            "fractions": "MARAFFA_FRACTIONS_KEEP_THIRDS",
            "signals": "MARAFFA_SIGNAL_SET_EXTENDED",
            "series": "MARAFFA_SERIES_BEST_OF_THREE",
            "firstDealer": 2,
        },
        "Four players: thirds kept, extended signals, best of three, dealer 2.",
    ),
    (
        "4p-redeal-marafona-auto",
        4,
        12,
        {
            "redealWeakHand": True,
            "marafonaRule": "MARAFFA_MARAFONA_RULE_BATTEZZANTE_ONLY",
            "marafonaAutoDeclare": True,
        },
        "Four players: weak-hand redeal on, marafona for the battezzante only, auto-declared.",
    ),
    ("2p-seed-2", 2, 2, None, "Two players: hands of 10 and a stock."),
    (
        "3p-dummy-seat-0",
        3,
        5,
        {"dummySeat": 0},
        "Three players with the dummy at seat 0.",
    ),
    (
        "3p-deck39-seed-6",
        3,
        6,
        {"threePlayerForm": "MARAFFA_THREE_PLAYER_FORM_DECK39", "removedFour": "CARD_4H"},
        "Three players, 39 cards without the four of hearts.",
    ),
    ("5p-trionfo-seed-8", 5, 8, None, "Five players (Trionfo)."),
]


def maraffa(gen: Generator) -> None:
    s = gen.service
    for label, players, seed, options, description in MARAFFA_DEALS:
        gen.add(
            "maraffa-deal",
            f"maraffa/deal/{label}",
            description,
            "Deal",
            deal_request("maraffa", players, seed, options),
        )
    for label, players, seed, options in [
        ("4p-seed-1", 4, 1, {"target": 21}),
        ("2p-seed-2", 2, 2, {"target": 11}),
        ("3p-dummy-seed-5", 3, 5, {"target": 11}),
        ("5p-trionfo-seed-8", 5, 8, {"matchDeals": 1}),
    ]:
        play = random_play(s, deal_request("maraffa", players, seed, options), seed)
        first_trick = play.first("trick_won")
        hand = play.first("deal_scored" if players == 5 else "hand_scored")
        steps = [
            ("the first move", play.steps[0]),
            ("a move that ends a trick", first_trick),
            ("hand end: the last trick of a hand", hand),
            ("the move that ends the match", play.steps[-1]),
        ]
        gen.positions("maraffa", label, play, steps)

    play = random_play(s, deal_request("maraffa", 4, 1, {"target": 21}), 1)
    deal, end = play.deal, final_state(play)
    gen.common_errors("maraffa", deal.state, end)
    in_play = play.steps[play.index(play.first("trump_declared")) + 1].state
    for label, players, options, at, description in [
        ("players-6", 6, None, "players", "Maraffa is for 2 to 5 players."),
        ("players-1", 1, None, "players", "Maraffa is for 2 to 5 players."),
        (
            "bad-dummy-seat",
            3,
            {"dummySeat": 7},
            "options.maraffa.dummy_seat",
            "The dummy must sit at one of the four seats.",
        ),
        ("target-0", 4, {"target": 0}, "options.maraffa.target", "The target is at least 1."),
        (
            "unknown-enum-value",
            4,
            {"fractions": 99},
            "options.maraffa.fractions",
            "An enum number with no meaning (proto3 JSON accepts enum numbers).",
        ),
        (
            "trionfo-batch-3",
            5,
            {"trionfoDealBatch": 3},
            "options.maraffa.trionfo_deal_batch",
            "Trionfo deals in batches of 1, 2, 4 or 8.",
        ),
        (
            "first-dealer-out-of-range",
            4,
            {"firstDealer": 4},
            "options.maraffa.first_dealer",
            "The first dealer is one of the seats.",
        ),
    ]:
        gen.error(
            "maraffa-deal",
            f"maraffa/deal/{label}",
            description,
            "Deal",
            deal_request("maraffa", players, 1, options),
            "INVALID_ARGUMENT",
            at,
        )
    gen.error(
        "maraffa-deal",
        "maraffa/deal/options-of-another-game",
        "Burraco options given to a Maraffa deal.",
        "Deal",
        game_service_pb2.DealRequest(
            game="maraffa",
            players=4,
            seed=1,
            options=json_format.ParseDict({"burraco": {"target": 1005}}, game_pb2.GameOptions()),
        ),
        "INVALID_ARGUMENT",
        "options",
    )

    to_act = in_play.to_act
    held = list(in_play.maraffa.hands[to_act].cards)
    not_held = next(
        c for h, hand in enumerate(in_play.maraffa.hands) if h != to_act for c in hand.cards
    )
    gen.error(
        "maraffa-apply-move",
        "maraffa/apply-move/card-not-held",
        "Playing a card the seat to act does not hold.",
        "ApplyMove",
        game_service_pb2.ApplyMoveRequest(
            state=in_play,
            move=move_json("maraffa", {"playCard": {"card": cards_pb2.Card.Name(not_held)}}),
        ),
        "INVALID_ARGUMENT",
        "move.maraffa.play_card.card",
    )
    gen.error(
        "maraffa-apply-move",
        "maraffa/apply-move/play-card-during-trump-phase",
        "Playing a card before the battezzante has declared trumps.",
        "ApplyMove",
        game_service_pb2.ApplyMoveRequest(
            state=deal.state,
            move=move_json(
                "maraffa",
                {
                    "playCard": {
                        "card": cards_pb2.Card.Name(deal.state.maraffa.hands[deal.seat].cards[0])
                    }
                },
            ),
        ),
        "INVALID_ARGUMENT",
        "move.maraffa.play_card",
    )
    gen.error(
        "maraffa-apply-move",
        "maraffa/apply-move/declare-trump-twice",
        "Declaring trumps when they are already declared.",
        "ApplyMove",
        game_service_pb2.ApplyMoveRequest(
            state=in_play, move=move_json("maraffa", {"declareTrump": {"suit": "SUIT_HEARTS"}})
        ),
        "INVALID_ARGUMENT",
        "move.maraffa.declare_trump",
    )
    del held
    legal = s.ok("LegalMoves", game_service_pb2.LegalMovesRequest(state=in_play)).moves
    claim = next(m for m in legal if m.maraffa.HasField("claim"))
    gen.add(
        "maraffa-apply-move",
        "maraffa/apply-move/claim",
        "A claim early in a hand (a legal move): judged at once, the claim's result in events.",
        "ApplyMove",
        game_service_pb2.ApplyMoveRequest(state=in_play, move=claim),
    )


#: Where each game reports a player count its hands do not match.
PLAYERS_FIELD = {
    "maraffa": "state.players",
    "burraco": "state.players",
    "ramino": "state.ramino.hands",
}

#: Fields the service names that the rules would not; see ``Generator.error``.
QUESTIONABLE = {
    "ramino/apply-move/discard-before-taking": "the card is held; the discard itself "
    "comes too early (Burraco names move.burraco.discard for the same mistake)",
}


def card(c: int) -> str:
    return cards_pb2.Card.Name(c)


def deal_errors(
    game: str, cases: list[tuple[str, int, Json | None, str, str]], gen: Generator
) -> None:
    for label, players, options, at, description in cases:
        gen.error(
            f"{game}-deal",
            f"{game}/deal/{label}",
            description,
            "Deal",
            deal_request(game, players, 1, options),
            "INVALID_ARGUMENT",
            at,
        )


def apply_errors(
    game: str, cases: list[tuple[str, game_pb2.GameState, Json, str, str, str]], gen: Generator
) -> None:
    for label, state, move, code, at, description in cases:
        gen.error(
            f"{game}-apply-move",
            f"{game}/apply-move/{label}",
            description,
            "ApplyMove",
            game_service_pb2.ApplyMoveRequest(state=state, move=move_json(game, move)),
            code,
            at,
            QUESTIONABLE.get(f"{game}/apply-move/{label}", ""),
        )


# --------------------------------------------------------------------------- Burraco


def burraco(gen: Generator) -> None:
    s = gen.service
    for label, players, seed, options, description in [
        ("4p-seed-1", 4, 1, None, "Four players in two pairs, default options."),
        ("2p-seed-2", 2, 2, None, "Two players."),
        ("3p-seed-3", 3, 3, None, "Three players (18 + 11 first)."),
        (
            "4p-options",
            4,
            4,
            {"target": 1005, "semipulito": False, "closingNeedsClean": True, "firstDealer": 1},
            "Four players: target 1005, no semipulito, a clean burraco to close, dealer 1.",
        ),
    ]:
        gen.add(
            "burraco-deal",
            f"burraco/deal/{label}",
            description,
            "Deal",
            deal_request("burraco", players, seed, options),
        )
    for label, players, seed in [("4p-seed-1", 4, 1), ("3p-seed-3", 3, 3)]:
        play = random_play(s, deal_request("burraco", players, seed, {"hands": 1}), seed)
        steps = [
            ("the first move", play.steps[0]),
            ("a first meld", play.first("meld_opened")),
            ("hand end: the move that ends the hand and the match", play.first("hand_scored")),
        ]
        gen.positions("burraco", label, play, steps)

    play = random_play(s, deal_request("burraco", 4, 1, {"hands": 1}), 1)
    deal, end = play.deal, final_state(play)
    gen.common_errors("burraco", deal.state, end)
    deal_errors(
        "burraco",
        [
            ("players-5", 5, None, "players", "Burraco is for 2, 3 or 4 players."),
            ("target-0", 4, {"target": 0}, "options.burraco.target", "The target is at least 1."),
            (
                "max-hands-0",
                4,
                {"maxHands": 0},
                "options.burraco.max_hands",
                "The safeguard on the number of hands is at least 1.",
            ),
            (
                "first-dealer-out-of-range",
                3,
                {"firstDealer": 3},
                "options.burraco.first_dealer",
                "The first dealer is one of the players.",
            ),
        ],
        gen,
    )
    start = deal.state
    hand = start.burraco.hands[start.to_act].cards
    meld_stage = play.steps[1].state  # after the first DRAW or PICK_UP
    held = set(meld_stage.burraco.hands[meld_stage.to_act].cards)
    not_held = next(c for h in meld_stage.burraco.hands for c in h.cards if c not in held)
    apply_errors(
        "burraco",
        [
            (
                "discard-before-acquiring",
                start,
                {"discard": {"card": card(hand[0])}},
                "INVALID_ARGUMENT",
                "move.burraco.discard",
                "A discard before the turn's DRAW or PICK_UP.",
            ),
            (
                "meld-before-acquiring",
                start,
                {"meld": {"cards": [card(c) for c in hand[:3]]}},
                "INVALID_ARGUMENT",
                "move.burraco.meld",
                "A meld before the turn's DRAW or PICK_UP.",
            ),
            (
                "second-draw",
                meld_stage,
                {"draw": {}},
                "INVALID_ARGUMENT",
                "move.burraco.draw",
                "A second DRAW in one turn.",
            ),
            (
                "discard-card-not-held",
                meld_stage,
                {"discard": {"card": card(not_held)}},
                "INVALID_ARGUMENT",
                "move.burraco.discard.card",
                "Discarding a card the player does not hold.",
            ),
            (
                "meld-of-two-cards",
                meld_stage,
                {
                    "meld": {
                        "cards": [
                            card(c) for c in meld_stage.burraco.hands[meld_stage.to_act].cards[:2]
                        ]
                    }
                },
                "INVALID_ARGUMENT",
                "move.burraco.meld.cards",
                "A meld needs at least three cards.",
            ),
        ],
        gen,
    )


# --------------------------------------------------------------------------- Ramino


def ramino(gen: Generator) -> None:
    s = gen.service
    for label, players, seed, options, description in [
        ("4p-seed-1", 4, 1, None, "Four players, default options."),
        ("6p-seed-6", 6, 6, None, "Six players."),
        (
            "4p-buio-tax",
            4,
            4,
            {"dealerTax": "1", "buio": True},
            "Four players with a dealer tax and the buio.",
        ),
        (
            "3p-nine-cards",
            3,
            5,
            {"handSize": 9, "minOpen": "2", "maxStake": "10", "startingChips": "50"},
            "Three players, hands of 9, openings of 2 to 10 chips, 50 chips each.",
        ),
    ]:
        gen.add(
            "ramino-deal",
            f"ramino/deal/{label}",
            description,
            "Deal",
            deal_request("ramino", players, seed, options),
        )
    for label, players, seed, options in [
        ("4p-seed-1", 4, 1, {"matchHands": 1}),
        ("4p-buio-tax-seed-6", 4, 6, {"matchHands": 1, "dealerTax": "1"}),
    ]:
        play = random_play(s, deal_request("ramino", players, seed, options), seed)
        started = play.first("play_started")
        steps = [
            ("the first bid", play.steps[0]),
            ("the move that ends the bidding", started),
            ("hand end: the move that ends the hand and the match", play.first("hand_ended")),
        ]
        if any("hand_closed" in step.event_kinds() for step in play.steps):
            steps.append(("a closure", play.first("hand_closed")))
        gen.positions("ramino", label, play, steps)

    play = random_play(s, deal_request("ramino", 4, 1, {"matchHands": 1}), 1)
    deal, end = play.deal, final_state(play)
    gen.common_errors("ramino", deal.state, end)
    deal_errors(
        "ramino",
        [
            ("players-7", 7, None, "players", "Ramino is for 2 to 6 players."),
            ("hand-size-8", 4, {"handSize": 8}, "options.ramino.hand_size", "Hands of 10 or 9."),
            (
                "min-open-0",
                4,
                {"minOpen": "0"},
                "options.ramino.min_open",
                "Openings of 1 or more.",
            ),
            (
                "max-stake-below-min-open",
                4,
                {"minOpen": "3", "maxStake": "2"},
                "options.ramino.max_stake",
                "The highest stake is at least the lowest opening.",
            ),
            (
                "buio-tax-too-high",
                4,
                {"dealerTax": "3", "maxStake": "5", "buio": True},
                "options.ramino.buio",
                "With the buio on, twice the dealer tax may not exceed the highest stake.",
            ),
        ],
        gen,
    )
    start = deal.state
    started = play.first("play_started")
    playing = started.response.state
    hand = playing.ramino.hands[playing.to_act].cards
    apply_errors(
        "ramino",
        [
            (
                "accept-with-nothing-open",
                start,
                {"acceptBid": {}},
                "INVALID_ARGUMENT",
                "move.ramino.accept_bid",
                "ACCEPT when nobody has opened.",
            ),
            (
                "open-above-max-stake",
                start,
                {"openBid": {"amount": "6"}},
                "INVALID_ARGUMENT",
                "move.ramino.open_bid.amount",
                "An opening above max_stake (5).",
            ),
            (
                "draw-during-bidding",
                start,
                {"draw": {}},
                "INVALID_ARGUMENT",
                "move.ramino.draw",
                "A play move while the bidding is on.",
            ),
            (
                "discard-before-taking",
                playing,
                {"discard": {"card": card(hand[0])}},
                "INVALID_ARGUMENT",
                "move.ramino.discard.card",
                "A discard before the turn's DRAW or TAKE_DISCARD.",
            ),
            (
                "bid-during-play",
                playing,
                {"passBid": {}},
                "INVALID_ARGUMENT",
                "move.ramino.pass_bid",
                "A bidding move once the bidding has ended.",
            ),
        ],
        gen,
    )


# --------------------------------------------------------------------------- search RPCs
# Determinize, ApplyMoves and Simulate (issue 15): from the middle of a hand of seeded
# random play, for every game and every form of Maraffa; then each RPC's refusals.

#: The plays the search vectors start from: game, label, players, seed, options.
SEARCH_PLAYS: list[tuple[str, str, int, int, Json]] = [
    ("maraffa", "4p-seed-1", 4, 1, {"target": 21}),
    ("maraffa", "2p-seed-2", 2, 2, {"target": 11}),
    ("maraffa", "3p-dummy-seed-5", 3, 5, {"target": 11}),
    (
        "maraffa",
        "3p-deck39-seed-6",
        3,
        6,
        {
            "threePlayerForm": "MARAFFA_THREE_PLAYER_FORM_DECK39",
            "removedFour": "CARD_4H",
            "target": 11,
        },
    ),
    ("maraffa", "5p-trionfo-seed-8", 5, 8, {"matchDeals": 1}),
    ("burraco", "4p-seed-1", 4, 1, {"hands": 1}),
    ("ramino", "4p-seed-1", 4, 1, {"matchHands": 1}),
]

#: The event two moves before the position searched from: by then a hand is being
#: played, with hidden cards, public history and a choice of moves.
MID_HAND = {"maraffa": "trick_won", "burraco": "meld_opened", "ramino": "play_started"}

#: Fields a view that no deal of the cards can give is refused on. Burraco's and
#: Ramino's are what their samplers are expected to name (a stock larger than the
#: cards left): the generator reports a surprise if the merged sampler names another.
NO_DEAL_FIELD = {
    "maraffa": "view.maraffa.marafona_seat",
    "burraco": "view.burraco.stock_size",
    "ramino": "view.ramino.stock_size",
}


def decider(msg: game_pb2.GameState) -> int:
    """The seat whose player decides now (in 3-player Maraffa, the dummy's controller)."""
    rules, codec = rules_for(msg.game), CODECS[msg.game]
    state = codec.state_from_wire(msg)
    return int(rules.controller(state, rules.to_act(state)))


def is_dummys_turn(msg: game_pb2.GameState) -> bool:
    return decider(msg) != msg.to_act


def view_of(service: Service, state: game_pb2.GameState, seat: int) -> game_pb2.GameView:
    reply = service.ok("GetView", game_service_pb2.GetViewRequest(state=state, seat=seat))
    return reply.view  # type: ignore[no-any-return]


def search(gen: Generator) -> None:
    s = gen.service
    first: dict[str, tuple[Play, int]] = {}
    for game, label, players, seed, options in SEARCH_PLAYS:
        play = random_play(s, deal_request(game, players, seed, options), seed)
        at = play.index(play.first(MID_HAND[game])) + 2
        if label == "3p-dummy-seed-5":  # where the dummy plays: its controller decides
            at = next(i for i in range(at, len(play.steps)) if is_dummys_turn(play.steps[i].state))
        first.setdefault(game, (play, at))
        state = play.steps[at].state
        seat = decider(state)
        view = view_of(s, state, seat)
        gen.add(
            f"{game}-apply-moves",
            f"{game}/apply-moves/{label}-sequence",
            f"The first {at} moves of seeded random play in one call: every move's events, "
            "the state after the last, the next decision.",
            "ApplyMoves",
            game_service_pb2.ApplyMovesRequest(
                state=play.deal.state, moves=[step.move for step in play.steps[:at]]
            ),
        )
        gen.try_add(
            f"{game}-determinize",
            f"{game}/determinize/{label}-ply-{at}-seat-{seat}",
            f"Three whole states that give seat {seat} its view before move {at} (seed 7).",
            "Determinize",
            game_service_pb2.DeterminizeRequest(view=view, count=3, seed=7),
        )
        gen.try_add(
            f"{game}-simulate",
            f"{game}/simulate/{label}-ply-{at}-from-state",
            f"Every legal move before move {at} played out 3 times from the whole state "
            "(random policy, to the hand's end, seed 5).",
            "Simulate",
            game_service_pb2.SimulateRequest(state=state, playouts=3, seed=5),
        )
        gen.try_add(
            f"{game}-simulate",
            f"{game}/simulate/{label}-ply-{at}-from-view",
            f"From seat {seat}'s view before move {at}: 3 states sampled, every legal move "
            "played out twice from each (seed 5): a whole search decision in one call.",
            "Simulate",
            game_service_pb2.SimulateRequest(view=view, determinizations=3, playouts=2, seed=5),
        )
        if label == "4p-seed-1":
            other = (seat + 1) % players
            gen.try_add(
                f"{game}-determinize",
                f"{game}/determinize/{label}-ply-{at}-seat-{other}",
                f"Seat {other} does not decide before move {at}; its view is sampled all the "
                "same (seed 7).",
                "Determinize",
                game_service_pb2.DeterminizeRequest(view=view_of(s, state, other), count=2, seed=7),
            )
    for game, (play, at) in first.items():
        search_errors(gen, game, play, at)
    search_service_errors(gen, first["maraffa"][0])


def search_errors(gen: Generator, game: str, play: Play, at: int) -> None:
    """Each search RPC's refusals, on a game's first search play."""
    s = gen.service
    state = play.steps[at].state
    seat = decider(state)
    view = view_of(s, state, seat)

    # ApplyMoves: an illegal move named by its index, and how many moves a call takes.
    sequence = [step.move for step in play.steps[:at]]
    if game == "maraffa":
        to_act = state.to_act
        stranger = next(
            c for h, hand in enumerate(state.maraffa.hands) if h != to_act for c in hand.cards
        )
        bad = move_json("maraffa", {"playCard": {"card": card(stranger)}})
        moves, why = [*sequence, bad], "a card the seat to act does not hold"
        code, at_field = "INVALID_ARGUMENT", f"moves[{at}].maraffa.play_card.card"
    else:
        moves, why = (
            [sequence[0], move_json(game, {"draw": {}})],
            "a DRAW right after the first move",
        )
        code, at_field = "INVALID_ARGUMENT", f"moves[1].{game}.draw"
    gen.error(
        f"{game}-apply-moves",
        f"{game}/apply-moves/illegal-move-{len(moves) - 1}",
        f"Move {len(moves) - 1} of the sequence is illegal ({why}): refused by its index, "
        "nothing applied.",
        "ApplyMoves",
        game_service_pb2.ApplyMovesRequest(state=play.deal.state, moves=moves),
        code,
        at_field,
    )
    for label, count in [("no-moves", 0), ("too-many-moves", 4097)]:
        gen.error(
            f"{game}-apply-moves",
            f"{game}/apply-moves/{label}",
            f"{count} moves: a call applies 1 to 4096 (checked before the moves are read).",
            "ApplyMoves",
            game_service_pb2.ApplyMovesRequest(
                state=play.deal.state, moves=[game_pb2.Move()] * count
            ),
            "INVALID_ARGUMENT",
            "moves",
        )

    # Determinize: the count, a malformed view, a view no deal can give.
    for count in (0, 1025):
        gen.error(
            f"{game}-determinize",
            f"{game}/determinize/count-{count}",
            f"count {count}: a call draws 1 to 1024 states.",
            "Determinize",
            game_service_pb2.DeterminizeRequest(view=view, count=count, seed=7),
            "INVALID_ARGUMENT",
            "count",
        )
    malformed = game_pb2.GameView()
    malformed.CopyFrom(view)
    malformed.seat = malformed.players
    gen.error(
        f"{game}-determinize",
        f"{game}/determinize/view-seat-out-of-range",
        "A malformed view: its seat is not one of the match's.",
        "Determinize",
        game_service_pb2.DeterminizeRequest(view=malformed, count=1, seed=7),
        "INVALID_ARGUMENT",
        "view.seat",
    )
    gen.error(
        f"{game}-determinize",
        f"{game}/determinize/no-deal-gives-this-view",
        no_deal_description(game),
        "Determinize",
        game_service_pb2.DeterminizeRequest(view=no_deal_view(gen, game, play), count=1, seed=7),
        "INVALID_ARGUMENT",
        NO_DEAL_FIELD[game],
    )

    # Simulate: playouts, the budget, the deciding seat.
    for playouts in (0, 10_001):
        gen.error(
            f"{game}-simulate",
            f"{game}/simulate/playouts-{playouts}",
            f"playouts {playouts}: 1 to 10000 per legal move (and sample).",
            "Simulate",
            game_service_pb2.SimulateRequest(state=state, playouts=playouts, seed=5),
            "INVALID_ARGUMENT",
            "playouts",
        )
    gen.error(
        f"{game}-simulate",
        f"{game}/simulate/over-budget",
        "10000 playouts of every legal move to the end of the match: more moves than a call "
        "may simulate, refused before any is played.",
        "Simulate",
        game_service_pb2.SimulateRequest(
            state=state,
            playouts=10_000,
            horizon=game_service_pb2.PLAYOUT_HORIZON_MATCH,
            seed=5,
        ),
        "INVALID_ARGUMENT",
        "playouts",
    )
    other = (seat + 1) % state.players
    gen.error(
        f"{game}-simulate",
        f"{game}/simulate/seat-does-not-decide",
        f"From the view of seat {other}, which does not decide now (seat {seat} does).",
        "Simulate",
        game_service_pb2.SimulateRequest(
            view=view_of(s, state, other), determinizations=2, playouts=1, seed=5
        ),
        "FAILED_PRECONDITION",
        "view.seat",
    )
    if game != "maraffa":
        return
    for label, move in [("card-outside-the-pack", "CARD_8S")]:
        odd = game_pb2.GameView()
        odd.CopyFrom(view)
        odd.maraffa.hand[0] = cards_pb2.Card.Value(move)
        gen.error(
            "maraffa-determinize",
            f"maraffa/determinize/{label}",
            "A malformed view: it shows an eight, which the Maraffa pack does not have.",
            "Determinize",
            game_service_pb2.DeterminizeRequest(view=odd, count=1, seed=7),
            "INVALID_ARGUMENT",
            "view.maraffa.hand[0]",
        )
    claim = next(m for m in play.deal.legal_moves if m.maraffa.HasField("claim"))
    gen.error(
        "maraffa-apply-moves",
        "maraffa/apply-moves/move-after-the-match",
        "A false claim ends the match; the next move of the sequence has nothing to play.",
        "ApplyMoves",
        game_service_pb2.ApplyMovesRequest(state=play.deal.state, moves=[claim, claim]),
        "FAILED_PRECONDITION",
        "moves[1]",
    )
    gen.error(
        "maraffa-simulate",
        "maraffa/simulate/state-with-determinizations",
        "A whole state is one position: determinizations must be 0 or 1.",
        "Simulate",
        game_service_pb2.SimulateRequest(state=state, playouts=1, determinizations=2, seed=5),
        "INVALID_ARGUMENT",
        "determinizations",
    )
    gen.error(
        "maraffa-simulate",
        "maraffa/simulate/match-over",
        "Nothing to simulate once the match is over.",
        "Simulate",
        game_service_pb2.SimulateRequest(state=final_state(play), playouts=1, seed=5),
        "FAILED_PRECONDITION",
        "state",
    )
    gen.error(
        "maraffa-simulate",
        "maraffa/simulate/unknown-policy",
        "A playout policy with no meaning (enum value 9).",
        "Simulate",
        game_service_pb2.SimulateRequest(state=state, playouts=1, policy=9, seed=5),  # type: ignore[arg-type]
        "INVALID_ARGUMENT",
        "policy",
    )


def no_deal_description(game: str) -> str:
    if game == "maraffa":
        return (
            "A view in which another seat declared the marafona (the trump ace, two and "
            "three) while the viewer holds one of those cards: no deal gives it."
        )
    return "A view whose stock holds one card more than the cards not shown anywhere else."


def no_deal_view(gen: Generator, game: str, play: Play) -> game_pb2.GameView:
    """A well-formed view that no deal of the cards can give."""
    s = gen.service
    if game != "maraffa":
        state = play.steps[play.index(play.first(MID_HAND[game])) + 2].state
        view = view_of(s, state, decider(state))
        getattr(view, game).stock_size += 1
        return view
    suits = {cards_pb2.SUIT_SPADES: "S", cards_pb2.SUIT_HEARTS: "H"}
    suits.update({cards_pb2.SUIT_DIAMONDS: "D", cards_pb2.SUIT_CLUBS: "C"})
    for step in play.steps:
        state = step.state
        if not state.maraffa.trump or state.maraffa.HasField("marafona_seat"):
            continue
        seat = decider(state)
        view = view_of(s, state, seat)
        tops = {cards_pb2.Card.Value(f"CARD_{r}{suits[view.maraffa.trump]}") for r in "A23"}
        if view.maraffa.hand and tops & set(view.maraffa.hand):
            view.maraffa.marafona_seat = (seat + 1) % state.players
            return view
    raise SystemExit("no position where the viewer holds a top trump")


def search_service_errors(gen: Generator, play: Play) -> None:
    """Refusals that belong to no game."""
    gen.error(
        "service",
        "service/simulate/no-position",
        "Simulate with neither a state nor a view.",
        "Simulate",
        game_service_pb2.SimulateRequest(playouts=1, seed=5),
        "INVALID_ARGUMENT",
        "position",
    )
    gen.error(
        "service",
        "service/determinize/view-names-no-game",
        "A view that names no game.",
        "Determinize",
        game_service_pb2.DeterminizeRequest(view=game_pb2.GameView(players=4), count=1),
        "INVALID_ARGUMENT",
        "view.game",
    )


# --------------------------------------------------------------------------- sealing

#: The forms sealed here: every seat holds a token (no 3-player dummy).
SEALED_DEALS = [("maraffa", 4, 7), ("burraco", 4, 3), ("ramino", 4, 5)]
#: What a runner clears from a sealed answer before comparing it: random, or keyed by
#: the server's key (it checks their shape instead: ``expect.sealed``).
RANDOM_FIELDS = ("sealed_states", "match_id", "deal_commitment")
#: A token altered in one byte: the last byte of the ciphertext, before the 16-byte tag.
FLIP_BYTE = -17


class Sealed:
    """One sealed exchange: calls of the real servicer with a throwaway key, each
    kept as a step of the vector (its request, the earlier token it takes, and what
    the service answered, random fields aside). It starts with the sealed ``Deal``."""

    def __init__(self, service: Service, name: str, description: str, deal: Message) -> None:
        self.service = service
        self.name = name
        self.description = description
        self.steps: list[Json] = []
        self.answers: list[Any] = []
        dealt = self.call("Deal", deal)
        assert isinstance(dealt, game_service_pb2.DealResponse)
        #: The seat that decides first.
        self.first: int = dealt.seat

    def call(
        self,
        rpc: str,
        request: Any,
        token: tuple[int, int] | None = None,
        flip: bool = False,
        moves: int = 0,
    ) -> Any:
        """``request`` with the token of ``token`` = (step, seat) put in, sent; the
        answer (None for an error). ``moves``: the move number of the answer's tokens."""
        step: Json = {"rpc": rpc, "request": to_json(request)}
        if token is not None:
            at, seat = token
            raw = bytearray(self.answers[at].sealed_states[seat])
            step["token"] = {"step": at, "seat": seat}
            if flip:
                raw[FLIP_BYTE] ^= 0x01
                step["token"]["flip_byte"] = FLIP_BYTE
            request.sealed_state = bytes(raw)
        outcome = self.service.call(rpc, request)
        expect = outcome.expect()
        if outcome.response is not None:
            shown = type(outcome.response)()
            shown.CopyFrom(outcome.response)
            tokens = list(getattr(shown, "sealed_states", []))
            for name in RANDOM_FIELDS:
                if name in shown.DESCRIPTOR.fields_by_name:
                    shown.ClearField(name)
            expect = {"response": to_json(shown)}
            if tokens:
                expect["sealed"] = {"tokens": len(tokens), "move": moves}
        step["expect"] = expect
        self.steps.append(step)
        self.answers.append(outcome.response)
        return outcome.response

    def vector(self) -> Raw:
        return Raw(self.name, {"description": self.description, "steps": self.steps})


def sealed_vectors(gen: Generator, service: Service) -> None:
    """Every game played sealed: the deal's tokens, each seat's view, the decider's
    moves and first move, and the refusals of an altered token and of a token used
    for another seat (docs/sealing.md)."""
    for game, players, seed in SEALED_DEALS:
        deal = game_service_pb2.DealRequest(game=game, players=players, seed=seed, seal=True)
        gen.files[f"{game}-sealed"] = [
            sealed_deal_and_views(service, game, deal).vector(),
            sealed_play(service, game, deal).vector(),
            sealed_altered(service, game, deal).vector(),
            sealed_other_seat(service, game, deal).vector(),
        ]


def sealed_deal_and_views(
    service: Service, game: str, deal: game_service_pb2.DealRequest
) -> Sealed:
    run = Sealed(
        service,
        f"{game}/sealed/deal-and-views",
        f"A sealed {deal.players}-player deal: one token per seat (their headers name "
        "the match, move 0 and the seat), no state, the seat that decides; each seat's "
        "token gives that seat's view.",
        deal,
    )
    for seat in range(deal.players):
        run.call("GetView", game_service_pb2.GetViewRequest(seat=seat), (0, seat))
    return run


def sealed_play(service: Service, game: str, deal: game_service_pb2.DealRequest) -> Sealed:
    run = Sealed(
        service,
        f"{game}/sealed/play",
        "The deciding seat's token gives its legal moves and plays the first: fresh "
        "tokens for every seat at move 1, the events and the next seat, whose new token "
        "gives its moves.",
        deal,
    )
    first = run.first
    moves = run.call("LegalMoves", game_service_pb2.LegalMovesRequest(seat=first), (0, first))
    applied = run.call(
        "ApplyMove",
        game_service_pb2.ApplyMoveRequest(seat=first, move=moves.moves[0]),
        (0, first),
        moves=1,
    )
    nxt = applied.seat
    run.call("LegalMoves", game_service_pb2.LegalMovesRequest(seat=nxt), (2, nxt))
    return run


def sealed_altered(service: Service, game: str, deal: game_service_pb2.DealRequest) -> Sealed:
    run = Sealed(
        service,
        f"{game}/sealed/altered-token",
        "A token altered in one byte is refused (INVALID_ARGUMENT on sealed_state) by "
        "GetView, LegalMoves and ApplyMove; the unaltered token still works.",
        deal,
    )
    first = run.first
    run.call("GetView", game_service_pb2.GetViewRequest(seat=first), (0, first), flip=True)
    run.call("LegalMoves", game_service_pb2.LegalMovesRequest(seat=first), (0, first), flip=True)
    legal = run.call("LegalMoves", game_service_pb2.LegalMovesRequest(seat=first), (0, first))
    run.call(
        "ApplyMove",
        game_service_pb2.ApplyMoveRequest(seat=first, move=legal.moves[0]),
        (0, first),
        flip=True,
    )
    return run


def sealed_other_seat(service: Service, game: str, deal: game_service_pb2.DealRequest) -> Sealed:
    run = Sealed(
        service,
        f"{game}/sealed/other-seat",
        "A token serves its own seat only: sent as another seat's, it is refused "
        "(INVALID_ARGUMENT on seat); the token of a seat that does not decide gets no "
        "moves and plays none (FAILED_PRECONDITION on seat).",
        deal,
    )
    first = run.first
    other = (first + 1) % deal.players
    run.call("GetView", game_service_pb2.GetViewRequest(seat=first), (0, other))
    run.call("LegalMoves", game_service_pb2.LegalMovesRequest(seat=first), (0, other))
    run.call("LegalMoves", game_service_pb2.LegalMovesRequest(seat=other), (0, other))
    plain = deal_request(game, deal.players, deal.seed)
    move = service.ok("Deal", plain).legal_moves[0]
    run.call("ApplyMove", game_service_pb2.ApplyMoveRequest(seat=other, move=move), (0, other))
    return run


# --------------------------------------------------------------------------- fair deals

#: The deals whose commitments the clients open locally (docs/fair-deals.md).
COMMITTED_DEALS = [("maraffa", 4, 77), ("burraco", 4, 78), ("ramino", 4, 79)]


def fixed_salt(game: str) -> bytes:
    """A salt for the vectors: fixed, so they regenerate alike (a real one is random
    or keyed)."""
    return hashlib.blake2b(f"mazzo conformance salt {game}".encode(), digest_size=32).digest()


def commitment_vectors(gen: Generator) -> None:
    """A deal's commitment and what opens it (salt, seed, the dealt state), which every
    client checks with its own ``verify_deal_commitment``, and the same with a card,
    the salt or the seed changed, which must not open it."""
    vectors: list[Vector | Raw] = []
    for game, players, seed in COMMITTED_DEALS:
        dealt = gen.service.ok("Deal", deal_request(game, players, seed)).state
        salt = fixed_salt(game)
        committed = fair.commitment(salt, seed, state_hash(dealt))
        changed = edited(dealt, functools.partial(change_a_card, game))
        other_salt = bytes([salt[0] ^ 0x01]) + salt[1:]
        for case, description, state, salt_given, seed_given, valid in [
            (
                "opens",
                f"A {game} deal's commitment opens with its salt, seed and dealt state "
                "(BLAKE2b-256, docs/fair-deals.md).",
                dealt,
                salt,
                seed,
                True,
            ),
            (
                "changed-card",
                "The same, one card of the deal changed: refused.",
                changed,
                salt,
                seed,
                False,
            ),
            (
                "changed-salt",
                "The same, one bit of the salt changed: refused.",
                dealt,
                other_salt,
                seed,
                False,
            ),
            ("changed-seed", "The same, the seed one more: refused.", dealt, salt, seed + 1, False),
        ]:
            opens = fair.commitment_matches(committed, salt_given, seed_given, state_hash(state))
            assert opens is valid, (game, case)
            given = {
                "commitment": committed.hex(),
                "salt": salt_given.hex(),
                "seed": str(seed_given),
                "dealt_state": to_json(state),
            }
            data = {"description": description, "verify_deal_commitment": given}
            data["expect"] = {"valid": valid}
            vectors.append(Raw(f"{game}/verify-deal-commitment/{case}", data))
    gen.files["fair-deals"] = vectors


def state_hash(state: game_pb2.GameState) -> bytes:
    return fair.deal_hash(state.SerializeToString(deterministic=True))


def change_a_card(game: str, state: game_pb2.GameState) -> None:
    """Seat 0's first card swapped for seat 1's first (the same cards, but not this
    seed's deal)."""
    hands = getattr(state, game).hands
    a, b = hands[0].cards, hands[1].cards
    a[0], b[0] = b[0], a[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder")
    args = parser.parse_args(argv)
    service = Service()
    # A throwaway key: the vectors hold no token, only what any key gives alike.
    sealing = Service(Sealer([Key("conformance", os.urandom(32))]))
    gen = Generator(service)
    try:
        service_vectors(gen)
        maraffa(gen)
        burraco(gen)
        ramino(gen)
        search(gen)
        sealed_vectors(gen, sealing)
        commitment_vectors(gen)
    finally:
        service.close()
        sealing.close()
    if gen.notes:
        print("\n".join(gen.notes), file=sys.stderr)
    if gen.pending:
        print(
            f"{len(gen.pending)} vectors left out, the service cannot answer them yet "
            "(NotImplementedError): " + ", ".join(gen.pending),
            file=sys.stderr,
        )
    if gen.surprises:
        print("\n".join(gen.surprises), file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    for old in args.out.glob("*.json"):
        if old.stem not in gen.files:
            old.unlink()
    total = 0
    for name, vectors in sorted(gen.files.items()):
        text = json.dumps({"vectors": [v.to_json() for v in vectors]}, indent=1, sort_keys=True)
        (args.out / f"{name}.json").write_text(text + "\n", encoding="utf-8")
        total += len(vectors)
        print(f"{name}.json: {len(vectors)} vectors", file=sys.stderr)
    print(f"{total} vectors in {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
