"""The machinery the golden-transcript tests of every game share.

A golden transcript is one whole match stored as JSON: how it was dealt (players,
seed, options), the deterministic chooser that played it, every move with its seat,
its text and the events it caused (and the cards of each new deal), then the final
result. What is specific to a game (how its events and cards read as JSON, how its
chooser picks, what its final result holds) stays in that game's test file, handed
to a :class:`Golden`; the playing, recording, file layout, comparing and
regeneration live here once, so that the files of every game are made alike.

The tests never write the files. After an intended change of behaviour, a game's
files are regenerated with ``python -m <its test module> --regenerate``.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import pytest

#: players, seed, chooser seed, options as in the JSON file
Params = tuple[int, int, int, dict[str, Any]]

#: one step of a match: the state before (None for the deal), the move (None for the
#: deal), the events it caused and the state after
Step = tuple[Any, Any, tuple[Any, ...], Any]


class Engine(Protocol):
    """The three calls of a game's rules that a match needs (module or object)."""

    def deal(self, options: Any, players: int, seed: int) -> tuple[Any, Sequence[Any]]: ...
    def legal_moves(self, state: Any) -> Sequence[Any]: ...
    def apply(self, state: Any, move: Any) -> tuple[Any, Sequence[Any]]: ...


def event_json(event: Any, field: Callable[[str, Any], Any]) -> dict[str, Any]:
    """An event as plain JSON: its type name, then each field through ``field``."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for name, value in zip(event._fields, event, strict=True):
        out[name] = field(name, value)
    return out


def dumps(transcript: dict[str, Any]) -> str:
    """The file text: one line per move, so a diff shows which move changed."""
    compact: dict[str, Any] = {"separators": (",", ":")}
    parts = []
    for key, value in transcript.items():
        if key == "moves":
            lines = ",\n".join("  " + json.dumps(m, **compact) for m in value)
            parts.append(f' "moves": [\n{lines}\n ]')
        else:
            parts.append(f" {json.dumps(key)}: {json.dumps(value, **compact)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _is_new_deal(events: Sequence[Any]) -> bool:
    """A new hand (every game) or a Trionfo deal: the move's entry stores its cards."""
    return any(type(e).__name__ in ("HandDealt", "DealDealt") for e in events)


@dataclass(frozen=True)
class Golden:
    """One game's golden files and what is specific to recording its matches."""

    #: the game's test module file (``__file__``); its files are in ``golden/`` beside it
    source: str
    matches: dict[str, Params]
    #: how the chooser plays, in words, stored in each file
    chooser: str
    engine: Engine
    options_from_json: Callable[[dict[str, Any]], Any]
    #: (state, legal moves, chooser's generator) -> the move played
    choose: Callable[[Any, Sequence[Any], random.Random], Any]
    #: one event field as plain JSON, by field name (see :func:`event_json`)
    field: Callable[[str, Any], Any]
    #: the cards of a fresh deal, stored with the deal and with a move that deals again
    layout: Callable[[Any], dict[str, Any]]
    #: the final result of a finished match
    final: Callable[[Any], dict[str, Any]]
    #: whether a move's events deal a new hand (so its layout is stored)
    new_deal: Callable[[Sequence[Any]], bool] = _is_new_deal

    def steps(
        self, players: int, seed: int, chooser_seed: int, options: dict[str, Any]
    ) -> Iterator[Step]:
        """Deal and play a whole match with the deterministic chooser, step by step."""
        rnd = random.Random(chooser_seed)
        state, events = self.engine.deal(self.options_from_json(options), players, seed)
        yield None, None, tuple(events), state
        while not state.finished:
            move = self.choose(state, self.engine.legal_moves(state), rnd)
            new, events = self.engine.apply(state, move)
            yield state, move, tuple(events), new
            state = new

    def play(
        self, players: int, seed: int, chooser_seed: int, options: dict[str, Any]
    ) -> dict[str, Any]:
        """Deal and play a whole match with the deterministic chooser; the transcript."""
        steps = self.steps(players, seed, chooser_seed, options)
        _, _, events, state = next(steps)
        transcript: dict[str, Any] = {
            "comment": (
                "Golden transcript: must match the engine exactly. Regenerate only after an "
                f"intended change: python -m {self.module} --regenerate"
            ),
            "players": players,
            "seed": seed,
            "chooser_seed": chooser_seed,
            "chooser": self.chooser,
            "options": options,
            "deal": {"events": [event_json(e, self.field) for e in events], **self.layout(state)},
            "moves": [],
        }
        for before, move, events, state in steps:
            entry: dict[str, Any] = {
                "seat": before.to_act,
                "move": str(move),
                "events": [event_json(e, self.field) for e in events],
            }
            if self.new_deal(events):
                entry.update(self.layout(state))
            transcript["moves"].append(entry)
        transcript["final"] = self.final(state)
        # Plain JSON values only (lists, not tuples), exactly as a file reads back.
        result: dict[str, Any] = json.loads(json.dumps(transcript))
        return result

    @property
    def folder(self) -> Path:
        return Path(self.source).parent / "golden"

    @property
    def module(self) -> str:
        """The test module's dotted name, for ``python -m``."""
        relative = Path(self.source).resolve().relative_to(Path(__file__).resolve().parents[1])
        return ".".join(relative.with_suffix("").parts)

    def path(self, name: str) -> Path:
        return self.folder / f"{name}.json"

    def load(self, name: str) -> dict[str, Any]:
        result: dict[str, Any] = json.loads(self.path(name).read_text())
        return result

    def players(self) -> set[int]:
        """The table sizes the stored matches were played at."""
        return {self.load(name)["players"] for name in self.matches}

    def events(self) -> Iterator[dict[str, Any]]:
        """Every event of every move of every stored match (the deals' excepted)."""
        for name in self.matches:
            for entry in self.load(name)["moves"]:
                yield from entry["events"]

    def check_replay(self, name: str) -> None:
        """Play the stored match again and compare, deal, move by move, then whole."""
        stored = self.load(name)
        params = self.matches[name]
        made_for = (stored["players"], stored["seed"], stored["chooser_seed"], stored["options"])
        assert made_for == params, "the file was made for different match parameters"
        replayed = self.play(*params)
        assert replayed["deal"] == stored["deal"], "the deal changed"
        for i, (got, want) in enumerate(zip(replayed["moves"], stored["moves"], strict=False)):
            assert got == want, f"move {i} differs"
        assert len(replayed["moves"]) == len(stored["moves"])
        assert replayed["final"] == stored["final"]
        assert replayed == stored

    def check_size(self, name: str, limit: int) -> None:
        assert self.path(name).stat().st_size < limit

    def tests(self, max_bytes: int) -> tuple[Callable[[str], None], Callable[[str], None]]:
        """The two tests every game's golden files get, one per stored match: bind them
        to ``test_replay_matches_golden_transcript`` and ``test_golden_file_is_small``."""
        names = pytest.mark.parametrize("name", sorted(self.matches))

        @names
        def test_replay_matches_golden_transcript(name: str) -> None:
            """Dealing and playing the stored match again gives the stored transcript, move
            by move."""
            self.check_replay(name)

        @names
        def test_golden_file_is_small(name: str) -> None:
            """A file stays small enough to review its diff."""
            self.check_size(name, max_bytes)

        return test_replay_matches_golden_transcript, test_golden_file_is_small

    def regenerate(self) -> None:
        self.folder.mkdir(exist_ok=True)
        for name, params in self.matches.items():
            path = self.path(name)
            path.write_text(dumps(self.play(*params)))
            print(f"wrote {path} ({path.stat().st_size} bytes)")

    def main(self) -> None:
        """The command line of a game's test module: ``--regenerate`` only."""
        if sys.argv[1:] != ["--regenerate"]:
            sys.exit(f"usage: python -m {self.module} --regenerate")
        self.regenerate()
