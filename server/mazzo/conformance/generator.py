"""The generator of the conformance vectors, and what each game declares for it.

A game's ``conformance`` role (``games/<game>/conformance.py``) exports one
``Conformance``: its own vectors (``vectors``: deals, plays, the errors only it has)
and the small facts the generic sections need of it (a move of it, where it reports a
card put twice, the plays searched from, ...). ``scripts/gen_conformance.py`` runs
every registered game's part in registry order and names no game.

Each part also declares the game's sample forms (``forms``): the short whole matches
the tooling plays of every game (scripts/differential.py, soak.py, clients_test.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from google.protobuf.message import Message

from mazzo.conformance.vectors import (
    Json,
    Outcome,
    Pending,
    Play,
    Raw,
    Service,
    Step,
    Vector,
    deal_request,
    edited,
    final_state,
    move_json,
)
from mazzo.v1 import game_pb2, game_service_pb2

#: Random play gives up after this many moves (a safeguard; no match here needs it).
MAX_MOVES = 20_000

#: A sequence of moves with one illegal move, why it is, and the field it is refused
#: on: ``(moves, why, field)``.
IllegalSequence = tuple[list[game_pb2.Move], str, str]


@dataclass(frozen=True)
class Form:
    """A form of a game the tooling plays: a whole match, kept short by its options."""

    #: Unique within the game (``4p``, ``3p-dummy``); the tooling names it
    #: ``<game>-<label>``.
    label: str
    players: int
    #: The game's options, in the proto3 JSON mapping (lowerCamelCase).
    options: Json


@dataclass(frozen=True)
class SearchPlay:
    """A seeded random play the search vectors (Determinize, ApplyMoves, Simulate)
    start from, in the middle of a hand."""

    label: str
    players: int
    seed: int
    options: Json
    #: Search from the first position after mid-hand where a seat's controller decides
    #: for it (Maraffa's dummy), rather than from mid-hand itself.
    controlled_seat: bool = False


@dataclass(frozen=True)
class NoDeal:
    """A well-formed view no deal of the cards can give, which Determinize refuses."""

    description: str
    #: The field the refusal names.
    field: str
    view: Callable[[Generator, Play], game_pb2.GameView]


def _no_refusals(gen: Generator, play: Play, at: int) -> None:
    return None


@dataclass(frozen=True)
class Conformance:
    """What the generator needs of one game (``Game.conformance``)."""

    #: The game's own vectors: its deals, its plays' positions, its errors
    #: (``Generator.common_errors`` among them).
    vectors: Callable[[Generator], None]
    #: A well-formed move of the game (proto3 JSON of its ``Move`` branch).
    sample_move: Json
    #: A move that names only its action: what the previous registered game's
    #: vectors apply to their state as a move of another game.
    bare_move: Json
    #: Where a state whose player count does not match its hands is refused.
    players_field: str
    #: Where a state with a card in two hands is refused (``hands[1].cards[0]`` made a
    #: copy of ``hands[0].cards[0]``): the first count that overflows, the validator's way.
    duplicate_field: str
    #: The plays the search vectors start from; the first also gives the refusals.
    search_plays: tuple[SearchPlay, ...]
    #: The event two moves before the position searched from: by then a hand is being
    #: played, with hidden cards, public history and a choice of moves.
    mid_hand: str
    #: From the first search play's state, the moves before it and their count: a
    #: sequence ApplyMoves refuses by the index of its illegal move.
    illegal_sequence: Callable[[game_pb2.GameState, list[game_pb2.Move], int], IllegalSequence]
    no_deal: NoDeal
    #: The sealed vectors' deal, ``(players, seed)``: every seat holds a token.
    sealed: tuple[int, int]
    #: The deal whose commitment the clients open, ``(players, seed)``.
    committed: tuple[int, int]
    #: The tooling's sample forms of the game.
    forms: tuple[Form, ...]
    #: Whether a state's ``to_act`` follows from the rest (else a wrong one cannot be
    #: refused: Burraco's, see clients/conformance/README.md).
    to_act_derivable: bool = True
    #: More search refusals only this game has, on its first search play at move ``at``.
    search_refusals: Callable[[Generator, Play, int], None] = _no_refusals
    #: The whole short match the clients' ``run-example`` plays (default: the first form).
    example: Form | None = None

    def example_form(self) -> Form:
        return self.example or self.forms[0]


class Generator:
    """Collects vectors into files, one file per game and RPC.

    ``parts`` are the registered games' conformance parts, in registry order; ``avoid``
    says which moves random play takes only when nothing else is legal (the game's
    ``Strategy.avoid_at_random_on_wire``), ``decider`` which seat decides in a state
    (its controller's, for a seat another plays).
    """

    def __init__(
        self,
        service: Service,
        parts: Mapping[str, Conformance],
        avoid: Callable[[str, game_pb2.Move], bool],
        decider: Callable[[game_pb2.GameState], int],
    ) -> None:
        self.service = service
        self.parts = parts
        self.avoid = avoid
        self.decider = decider
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

    def random_play(
        self, request: game_service_pb2.DealRequest, seed: int, limit: int = MAX_MOVES
    ) -> Play:
        """Deal, then play random legal moves (seeded) until the match ends or ``limit``."""
        deal = self.service.ok("Deal", request)
        play = Play(deal=deal)
        rng = random.Random(seed)
        state, moves = deal.state, list(deal.legal_moves)
        while not state.finished and len(play.steps) < limit:
            choices = [m for m in moves if not self.avoid(request.game, m)] or moves
            move = choices[rng.randrange(len(choices))]
            answer = self.service.ok(
                "ApplyMove", game_service_pb2.ApplyMoveRequest(state=state, move=move)
            )
            play.steps.append(Step(state, move, answer))
            state, moves = answer.state, list(answer.legal_moves)
        if limit == MAX_MOVES and not state.finished:
            raise SystemExit(f"{request.game} seed {seed}: no end after {limit} moves")
        return play

    def view_of(self, state: game_pb2.GameState, seat: int) -> game_pb2.GameView:
        reply = self.service.ok("GetView", game_service_pb2.GetViewRequest(state=state, seat=seat))
        return reply.view  # type: ignore[no-any-return]

    def any_move(self, game: str) -> game_pb2.Move:
        return move_json(game, self.parts[game].sample_move)

    def other_game(self, game: str) -> str:
        """Another registered game: the next one in registry order."""
        ids = list(self.parts)
        return ids[(ids.index(game) + 1) % len(ids)]

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
        part = self.parts[game]
        self.error(
            f"{game}-get-view",
            f"{game}/get-view/seat-out-of-range",
            "A view for a seat the match does not have.",
            "GetView",
            game_service_pb2.GetViewRequest(state=state, seat=state.players),
            "INVALID_ARGUMENT",
            "seat",
        )
        other = self.other_game(game)
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
            part.players_field,
        )
        self.error(
            f"{game}-apply-move",
            f"{game}/apply-move/move-of-another-game",
            f"A move of another game applied to a {game} state.",
            "ApplyMove",
            game_service_pb2.ApplyMoveRequest(
                state=state, move=move_json(other, self.parts[other].bare_move)
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
            part.duplicate_field,
        )
        if part.to_act_derivable:
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

    def deal_errors(
        self, game: str, cases: Sequence[tuple[str, int, Json | None, str, str]]
    ) -> None:
        """Deals refused with ``INVALID_ARGUMENT``: (label, players, options, field,
        description), each with seed 1."""
        for label, players, options, at, description in cases:
            self.error(
                f"{game}-deal",
                f"{game}/deal/{label}",
                description,
                "Deal",
                deal_request(game, players, 1, options),
                "INVALID_ARGUMENT",
                at,
            )

    def apply_errors(
        self,
        game: str,
        cases: Sequence[tuple[str, game_pb2.GameState, Json, str, str, str]],
        questionable: Mapping[str, str] | None = None,
    ) -> None:
        """Moves refused: (label, state, move, code, field, description); a field the
        rules would not name is in ``questionable`` by label (``error``)."""
        for label, state, move, code, at, description in cases:
            self.error(
                f"{game}-apply-move",
                f"{game}/apply-move/{label}",
                description,
                "ApplyMove",
                game_service_pb2.ApplyMoveRequest(state=state, move=move_json(game, move)),
                code,
                at,
                (questionable or {}).get(label, ""),
            )


def draw_after_the_first_move(
    game: str,
) -> Callable[[game_pb2.GameState, list[game_pb2.Move], int], IllegalSequence]:
    """``Conformance.illegal_sequence`` for a game whose turn begins with a DRAW: one
    right after the first move, which already began the turn."""

    def sequence(state: game_pb2.GameState, moves: list[game_pb2.Move], at: int) -> IllegalSequence:
        bad = move_json(game, {"draw": {}})
        return [moves[0], bad], "a DRAW right after the first move", f"moves[1].{game}.draw"

    return sequence


def one_card_more_in_the_stock(game: str, mid_hand: str) -> NoDeal:
    """``Conformance.no_deal`` for a game whose view counts the stock: one card more than
    the cards not shown anywhere else."""

    def view(gen: Generator, play: Play) -> game_pb2.GameView:
        state = play.steps[play.index(play.first(mid_hand)) + 2].state
        shown = gen.view_of(state, gen.decider(state))
        getattr(shown, game).stock_size += 1
        return shown

    return NoDeal(
        "A view whose stock holds one card more than the cards not shown anywhere else.",
        f"view.{game}.stock_size",
        view,
    )
