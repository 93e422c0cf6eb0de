#!/usr/bin/env python3
"""Generate the conformance vectors (clients/conformance/vectors/*.json).

Every vector is one real call of the ``GameService`` servicer, made in-process:
the request is what a client would send, the expectation is what the service
answered (a response, or a status code with its ``BadRequest`` field). States
come from ``Deal`` and seeded random play through ``ApplyMove``, so they are
positions the rules really reach. Output is deterministic (fixed seeds, sorted
keys), so regenerating gives identical bytes and a test can tell when the
committed vectors are stale.

The runner names no game: it runs the sections every game shares over the
registered games (``games.registry``, in its order), and each game's own vectors
and facts come from its declaration's conformance part (``games/<game>/conformance.py``,
built with ``mazzo.conformance``).

    python scripts/gen_conformance.py [--out DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import hashlib
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from google.protobuf.message import Message
from google.rpc import code_pb2

from mazzo.conformance.generator import Conformance, Generator
from mazzo.conformance.vectors import (
    Json,
    Outcome,
    Pending,
    Play,
    Raw,
    Vector,
    deal_request,
    edited,
    final_state,
    to_json,
)
from mazzo.core import fair
from mazzo.core.errors import RulesError
from mazzo.games.registry import GAMES
from mazzo.service.errors import status_of
from mazzo.service.game_service import GameService
from mazzo.service.sealing import Key, Sealer
from mazzo.v1 import game_pb2, game_service_pb2

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "clients" / "conformance" / "vectors"


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


def avoid(game: str, move: game_pb2.Move) -> bool:
    """Random play takes a move the game's strategy avoids at random (one that would end
    the match at once) only when nothing else is legal."""
    return GAMES[game].strategy.avoid_at_random_on_wire(move)


def decider(msg: game_pb2.GameState) -> int:
    """The seat whose player decides now (for a seat another player controls, his)."""
    game = GAMES[msg.game]
    state = game.codec.state_from_wire(msg)
    return int(game.rules.controller(state, game.rules.to_act(state)))


def parts() -> Mapping[str, Conformance]:
    """Every registered game's conformance part, in registry order."""
    return {id: game.conformance() for id, game in GAMES.items()}


# --------------------------------------------------------------------------- vectors


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


# --------------------------------------------------------------------------- search RPCs
# Determinize, ApplyMoves and Simulate (issue 15): from the middle of a hand of seeded
# random play, for every game's search plays; then each RPC's
# refusals.


def search(gen: Generator) -> None:
    first: dict[str, tuple[Play, int]] = {}
    for game, part in gen.parts.items():
        for plan in part.search_plays:
            play = gen.random_play(
                deal_request(game, plan.players, plan.seed, plan.options), plan.seed
            )
            at = play.index(play.first(part.mid_hand)) + 2
            if plan.controlled_seat:  # where a seat another controls plays: he decides
                steps = range(at, len(play.steps))
                at = next(i for i in steps if is_controlled_turn(gen, play.steps[i].state))
            first.setdefault(game, (play, at))
            search_play(gen, game, plan.label, plan.players, play, at, plan is part.search_plays[0])
    for game, (play, at) in first.items():
        search_errors(gen, game, play, at)
        gen.parts[game].search_refusals(gen, play, at)
        if game == next(iter(first)):
            simulate_refusals(gen, game, play, at)
    search_service_errors(gen)


def is_controlled_turn(gen: Generator, msg: game_pb2.GameState) -> bool:
    return gen.decider(msg) != msg.to_act


def search_play(
    gen: Generator, game: str, label: str, players: int, play: Play, at: int, first: bool
) -> None:
    """ApplyMoves to the position at move ``at``, Determinize and Simulate from it; on a
    game's first play, Determinize of a seat that does not decide too."""
    state = play.steps[at].state
    seat = gen.decider(state)
    view = gen.view_of(state, seat)
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
    if first:
        other = (seat + 1) % players
        gen.try_add(
            f"{game}-determinize",
            f"{game}/determinize/{label}-ply-{at}-seat-{other}",
            f"Seat {other} does not decide before move {at}; its view is sampled all the "
            "same (seed 7).",
            "Determinize",
            game_service_pb2.DeterminizeRequest(view=gen.view_of(state, other), count=2, seed=7),
        )


def search_errors(gen: Generator, game: str, play: Play, at: int) -> None:
    """Each search RPC's refusals, on a game's first search play."""
    part = gen.parts[game]
    state = play.steps[at].state
    seat = gen.decider(state)
    view = gen.view_of(state, seat)

    # ApplyMoves: an illegal move named by its index, and how many moves a call takes.
    sequence = [step.move for step in play.steps[:at]]
    moves, why, at_field = part.illegal_sequence(state, sequence, at)
    gen.error(
        f"{game}-apply-moves",
        f"{game}/apply-moves/illegal-move-{len(moves) - 1}",
        f"Move {len(moves) - 1} of the sequence is illegal ({why}): refused by its index, "
        "nothing applied.",
        "ApplyMoves",
        game_service_pb2.ApplyMovesRequest(state=play.deal.state, moves=moves),
        "INVALID_ARGUMENT",
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
        part.no_deal.description,
        "Determinize",
        game_service_pb2.DeterminizeRequest(view=part.no_deal.view(gen, play), count=1, seed=7),
        "INVALID_ARGUMENT",
        part.no_deal.field,
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
            view=gen.view_of(state, other), determinizations=2, playouts=1, seed=5
        ),
        "FAILED_PRECONDITION",
        "view.seat",
    )


def simulate_refusals(gen: Generator, game: str, play: Play, at: int) -> None:
    """Simulate's refusals of a request no game's detail changes, shown once: on the
    first registered game's first search play."""
    state = play.steps[at].state
    gen.error(
        f"{game}-simulate",
        f"{game}/simulate/state-with-determinizations",
        "A whole state is one position: determinizations must be 0 or 1.",
        "Simulate",
        game_service_pb2.SimulateRequest(state=state, playouts=1, determinizations=2, seed=5),
        "INVALID_ARGUMENT",
        "determinizations",
    )
    gen.error(
        f"{game}-simulate",
        f"{game}/simulate/match-over",
        "Nothing to simulate once the match is over.",
        "Simulate",
        game_service_pb2.SimulateRequest(state=final_state(play), playouts=1, seed=5),
        "FAILED_PRECONDITION",
        "state",
    )
    gen.error(
        f"{game}-simulate",
        f"{game}/simulate/unknown-policy",
        "A playout policy with no meaning (enum value 9).",
        "Simulate",
        game_service_pb2.SimulateRequest(state=state, playouts=1, policy=9, seed=5),  # type: ignore[arg-type]
        "INVALID_ARGUMENT",
        "policy",
    )


def search_service_errors(gen: Generator) -> None:
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
    """Every game played sealed (each its ``Conformance.sealed`` deal): the deal's
    tokens, each seat's view, the decider's moves and first move, and the refusals of
    an altered token and of a token used for another seat (docs/sealing.md)."""
    for game, part in gen.parts.items():
        players, seed = part.sealed
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


def fixed_salt(game: str) -> bytes:
    """A salt for the vectors: fixed, so they regenerate alike (a real one is random
    or keyed)."""
    return hashlib.blake2b(f"mazzo conformance salt {game}".encode(), digest_size=32).digest()


def commitment_vectors(gen: Generator) -> None:
    """A deal's commitment and what opens it (salt, seed, the dealt state), which every
    client checks with its own ``verify_deal_commitment``, and the same with a card,
    the salt or the seed changed, which must not open it: each game's
    ``Conformance.committed`` deal (docs/fair-deals.md)."""
    vectors: list[Vector | Raw] = []
    for game, part in gen.parts.items():
        players, seed = part.committed
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
    gen = Generator(service, parts(), avoid, decider)
    try:
        service_vectors(gen)
        for part in gen.parts.values():
            part.vectors(gen)
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
