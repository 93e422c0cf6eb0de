"""Every registered game declares everything the other layers need (``games.declaration``),
and each part fits the others: a game that lacks one, or whose parts disagree, fails
here before a layer meets it at run time. And the layers above the registry name no
game: they look it up.
"""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format

from mazzo.conformance.generator import Conformance
from mazzo.games.declaration import Game
from mazzo.games.registry import GAMES, game_named
from mazzo.v1 import bot_pb2, game_pb2

SERVER = Path(__file__).resolve().parent.parent / "server" / "mazzo"
ENVELOPES = (
    game_pb2.GameOptions,
    game_pb2.GameState,
    game_pb2.GameView,
    game_pb2.Move,
    game_pb2.Event,
)


def _oneof_games(message: Any) -> set[str]:
    (oneof,) = message.DESCRIPTOR.oneofs
    return {field.name for field in oneof.fields}


def test_the_registered_games_are_the_contracts_games() -> None:
    for envelope in ENVELOPES:
        assert _oneof_games(envelope) == set(GAMES), envelope.DESCRIPTOR.name


def test_an_unknown_game_is_the_clients_mistake() -> None:
    with pytest.raises(Exception, match="unknown game 'scopa'; this service has: "):
        game_named("scopa")


@pytest.mark.parametrize("game", GAMES.values(), ids=list(GAMES))
def test_a_game_declares_every_part(game: Game) -> None:
    def missing(value: Any, path: str) -> list[str]:
        if value is None:
            return [path]
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return [
                m
                for f in dataclasses.fields(value)
                for m in missing(getattr(value, f.name), f"{path}.{f.name}")
            ]
        return []

    assert missing(game, game.id) == []
    assert game.codec.game == game.codec.options_field == game.id


def _first_decisions(game: Game) -> list[tuple[Any, list[Any]]]:
    """A deal's first state and events at every player count, default options."""
    rules = game.rules
    out = []
    for players in rules.player_counts:
        state, events = rules.deal(rules.default_options(), players, 11)
        out.append((state, list(events)))
    return out


def _event_json(game: Game, event: Any) -> dict[str, Any]:
    msg = game_pb2.Event()
    game.codec.event_to_wire(event, msg)
    return json_format.MessageToDict(msg)


@pytest.mark.parametrize("game", GAMES.values(), ids=list(GAMES))
def test_the_records_hooks_see_a_deal(game: Game) -> None:
    for state, events in _first_decisions(game):
        assert game.hooks.hand_dealt([_event_json(game, e) for e in events])
        report = game.rules.score(state)
        assert len(report.sides) <= game.match_sides
        assert game.hooks.hand_change(report, report) == [0] * len(report.sides)


@pytest.mark.parametrize("game", GAMES.values(), ids=list(GAMES))
def test_the_heuristic_answers_a_legal_move_and_search_keeps_some(game: Game) -> None:
    rules, codec = game.rules, game.codec
    for state, _ in _first_decisions(game):
        seat = rules.to_act(state)
        request = bot_pb2.ActRequest()
        codec.view_to_wire(rules.view(state, seat), request.view)
        legal = list(rules.legal_moves(state))
        for move in legal:
            codec.move_to_wire(move, request.legal_moves.add())
        assert 0 <= game.strategy.heuristic(request).index < len(legal)
        kept = game.strategy.search_candidates(legal)
        assert kept and set(kept) <= set(range(len(legal)))
        assert not all(game.strategy.avoid_at_random(m) for m in legal)


@pytest.mark.parametrize("game", GAMES.values(), ids=list(GAMES))
def test_the_viewer_draws_its_table_and_every_kind_has_a_sentence(game: Game) -> None:
    shown = game.presentation
    assert shown.deck in ("italian", "french") and shown.frame_floor_bytes > 0
    for envelope, texts in ((game_pb2.Event, shown.event_texts), (game_pb2.Move, shown.move_texts)):
        (oneof,) = envelope.DESCRIPTOR.fields_by_name[game.id].message_type.oneofs
        assert set(texts) == {f.name for f in oneof.fields}, envelope.DESCRIPTOR.name
    for state, _ in _first_decisions(game):
        msg = game_pb2.GameView()
        game.codec.view_to_wire(game.rules.view(state, 0), msg)
        view = json_format.MessageToDict(msg)
        table: dict[str, Any] = {"seats": [], "areas": [], "facts": []}
        shown.draw_table(view, view.get(game.id, {}), table)
        assert table["facts"] or table["areas"], json.dumps(view)[:200]


@pytest.mark.parametrize("game", GAMES.values(), ids=list(GAMES))
def test_the_bounds_are_of_the_games_own_messages(game: Game) -> None:
    own = set()
    for envelope in (game_pb2.GameState, game_pb2.GameView, game_pb2.Move):
        todo = [envelope.DESCRIPTOR.fields_by_name[game.id].message_type]
        while todo:
            message = todo.pop()
            if message.full_name in own:
                continue
            own.add(message.full_name)
            todo += [f.message_type for f in message.fields if f.message_type is not None]
    assert game.bounds
    assert {name.rsplit(".", 1)[0] for name in game.bounds} <= own


@pytest.mark.parametrize("game", GAMES.values(), ids=list(GAMES))
def test_the_conformance_part_deals_its_forms_and_names_its_own_fields(game: Game) -> None:
    """What scripts/gen_conformance.py and the tooling that plays every game read of it
    (a game without one is not a ``Game``; a factory that gives anything else fails here)."""
    part = game.conformance()
    assert isinstance(part, Conformance), type(part)
    for move in (part.sample_move, part.bare_move):
        parsed = json_format.ParseDict({game.id: move}, game_pb2.Move())
        game.codec.move_from_wire(parsed, "move")
    assert part.players_field.startswith("state.")
    assert part.duplicate_field.startswith(f"state.{game.id}.")
    assert part.no_deal.field.startswith(f"view.{game.id}.")
    assert part.search_plays and part.mid_hand in _oneof_kinds(game)
    labels = [form.label for form in part.forms]
    assert labels and len(set(labels)) == len(labels)
    for form in (*part.forms, part.example_form()):
        options = game_pb2.GameOptions()
        json_format.ParseDict({game.id: form.options}, options)
        resolved = game.codec.options(options)
        assert form.players in game.rules.player_counts, form
        game.rules.deal(resolved, form.players, 1)
    for players, _ in (part.sealed, part.committed):
        assert players in game.rules.player_counts


def _oneof_kinds(game: Game) -> set[str]:
    """The names of the game's kinds of event."""
    (oneof,) = game_pb2.Event.DESCRIPTOR.fields_by_name[game.id].message_type.oneofs
    return {f.name for f in oneof.fields}


@pytest.mark.parametrize("game", GAMES.values(), ids=list(GAMES))
def test_rl_encodes_the_legal_moves_and_sees_the_deal_as_chance(game: Game) -> None:
    pytest.importorskip("numpy")
    encoding = game.learning.encoding(game.rules.default_options())
    deals = game.learning.chance_deals()
    for state, events in _first_decisions(game):
        actions = [encoding.action_of(m) for m in game.rules.legal_moves(state)]
        assert all(0 <= a < encoding.actions for a in actions)
        assert len(set(actions)) == len(actions)
        assert deals.deal_of(state, events) is not None


#: Modules above the registry that still name a game, and why.
NAMES_A_GAME = {
    # Measures named positions of named games against other engines (docs/engine.md).
    "bench",
    # Probes whether the compiled build is loaded by one compiled module's file.
    "buildinfo.py",
}


def _names_a_game(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            parts = node.module.split(".")
            if parts[:2] == ["mazzo", "games"] and len(parts) > 2 and parts[2] in GAMES:
                found.append(f"{path.name}:{node.lineno} imports {node.module}")
        elif isinstance(node, ast.Constant) and node.value in GAMES and id(node) not in docstrings:
            found.append(f"{path.name}:{node.lineno} names {node.value!r}")
    return found


def test_the_layers_above_the_registry_name_no_game() -> None:
    found = []
    for path in sorted(SERVER.rglob("*.py")):
        relative = path.relative_to(SERVER).as_posix()
        if relative.startswith(("games/", "v1/")) or relative.split("/")[0] in NAMES_A_GAME:
            continue
        if relative in NAMES_A_GAME:
            continue
        found += _names_a_game(path)
    assert found == []
