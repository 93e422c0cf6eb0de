#!/usr/bin/env python3
"""The compiled build against pure Python: the same seeded random matches, every
response compared byte for byte (docs/compiled.md).

Each build runs in a process of its own (``MAZZO_PURE=1`` for pure Python, which
imports the sources even where compiled modules are installed) and plays, through
the real ``GameService`` in-process, ``--matches`` random matches of every game and
form: ``Deal``, then at every move ``LegalMoves``, ``GetView`` of the seat to act,
``Score`` and ``ApplyMove``. Every response is serialised deterministically and
hashed per match; the parent compares the two lists of hashes and names the first
match that differs. Exit status: 0 identical, 1 a difference, 2 no compiled build.

``--against-tree PATH`` compares two source trees instead, both pure Python: this
tree's ``server/`` against ``PATH/server`` (say a ``git worktree`` of the commit before
a refactoring that must not change a byte).

Match ``i`` of a form is the same match whatever else is run (its seeds depend on
``--seed``, the form and ``i`` only), so a long run can be split: ``--first``/``--matches``
choose the range of match numbers, ``--forms`` the forms, and ``--jobs`` splits the range
over processes of each build, all running at once.

    python scripts/differential.py --matches 10000 --jobs 2     # the issue's long run
    python scripts/differential.py --first 5000 --matches 1000 --forms burraco
    python scripts/differential.py --matches 1000 --forms maraffa --against-tree /tmp/base
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: A form: (label, game, players, options as proto3 JSON).
Form = tuple[str, str, int, dict[str, Any]]


def every_form() -> list[Form]:
    """Every registered game's sample forms (its declaration's conformance part), in
    registry order. Read by the parent only: it gives the children theirs, so that a
    child may run a tree from before the forms were declared (``--against-tree``)."""
    from mazzo.games.registry import GAMES

    return [
        (f"{id}-{form.label}", id, form.players, form.options)
        for id, game in GAMES.items()
        for form in game.conformance().forms
    ]


def _respond(service: Any, rpc: str, request: Any) -> Any:
    """The response of one of the service's RPCs that never awaits, run to its end
    without an event loop (a loop's scheduling per call took a quarter of the run)."""
    coroutine = getattr(service, rpc)(request, None)
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise RuntimeError(f"{rpc} awaited: the differential run drives only RPCs that do not")


def play_matches(
    forms: list[Form], first: int, matches: int, seed: int, max_moves: int
) -> dict[str, Any]:
    """This process's build: per form, one hash of every response of each match."""
    from google.protobuf import json_format
    from google.protobuf.message import Message

    import mazzo
    from mazzo.buildinfo import current
    from mazzo.games.registry import GAMES
    from mazzo.service.game_service import GameService
    from mazzo.v1 import game_service_pb2 as pb

    service = GameService()
    responses = 0

    def call(rpc: str, request: Message, digest: Any) -> Any:
        nonlocal responses
        responses += 1
        response = _respond(service, rpc, request)
        digest.update(response.SerializeToString(deterministic=True))
        return response

    hashes: dict[str, list[str]] = {}
    for label, game, players, options in forms:
        avoid = GAMES[game].strategy.avoid_at_random_on_wire
        hashes[label] = []
        for match in range(first, first + matches):
            rng = random.Random(f"{seed}-{label}-{match}")
            digest = hashlib.sha256()
            request = pb.DealRequest(game=game, players=players, seed=seed * 100_003 + match)
            json_format.ParseDict({game: options}, request.options)
            dealt = call("Deal", request, digest)
            state, moves = dealt.state, list(dealt.legal_moves)
            for _ in range(max_moves):
                if state.finished:
                    break
                seat = call("LegalMoves", pb.LegalMovesRequest(state=state), digest).seat
                call("GetView", pb.GetViewRequest(state=state, seat=seat), digest)
                call("Score", pb.ScoreRequest(state=state), digest)
                # Not what random play avoids (a false Maraffa claim ends the match).
                choices = [m for m in moves if not avoid(m)] or moves
                move = choices[rng.randrange(len(choices))]
                applied = call("ApplyMove", pb.ApplyMoveRequest(state=state, move=move), digest)
                state, moves = applied.state, list(applied.legal_moves)
            hashes[label].append(digest.hexdigest())
    service.simulator.close()
    build = current()
    report = {
        "build": build.describe(),
        "compiled": build.compiled,
        "source": str(Path(mazzo.__file__).resolve().parent),
        "responses": responses,
    }
    return {**report, "hashes": hashes}


def start_child(
    pure: bool, tree: Path | None, forms: list[Form], first: int, matches: int, args: Any
) -> Any:
    """A process of one build playing matches ``first`` .. ``first + matches - 1``; with
    ``tree``, the sources of ``tree/server`` (ahead of any installed mazzo)."""
    env = {**os.environ, "MAZZO_PURE": "1" if pure else "0"}
    if tree is not None:
        env["PYTHONPATH"] = str(tree / "server")
    command = [sys.executable, __file__, "--child", json.dumps(forms)]
    command += ["--first", str(first), "--matches", str(matches)]
    command += ["--seed", str(args.seed), "--max-moves", str(args.max_moves)]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)


def run_builds(forms: list[Form], args: argparse.Namespace) -> list[dict[str, Any]]:
    """Both builds' reports, each joined from ``--jobs`` processes run at once: compiled
    and pure, or this tree and ``--against-tree``, both pure."""
    sides: list[tuple[bool, Path | None]] = [(False, None), (True, None)]
    if args.against_tree is not None:
        sides = [(True, ROOT), (True, args.against_tree.resolve())]
    shares = [args.matches // args.jobs + (j < args.matches % args.jobs) for j in range(args.jobs)]
    starts = [args.first + sum(shares[:j]) for j in range(args.jobs)]
    children = [
        [
            start_child(pure, tree, forms, start, share, args)
            for start, share in zip(starts, shares, strict=True)
        ]
        for pure, tree in sides
    ]
    reports = []
    for build in children:
        parts = []
        for child in build:
            out, _ = child.communicate()
            if child.returncode:
                raise SystemExit(f"differential: a child failed (exit {child.returncode})")
            parts.append(json.loads(out))
        joined = {**parts[0], "responses": sum(p["responses"] for p in parts)}
        joined["hashes"] = {f: [h for p in parts for h in p["hashes"][f]] for f, *_ in forms}
        reports.append(joined)
    return reports


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=20, help="matches per game and form")
    parser.add_argument("--first", type=int, default=0, help="number of the first match")
    parser.add_argument("--jobs", type=int, default=1, help="processes per build, run at once")
    parser.add_argument(
        "--forms",
        default="",
        help="comma-separated forms or games (maraffa-4p, burraco, ...); default: all",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-moves", type=int, default=5000, help="moves per match at most")
    parser.add_argument(
        "--against-tree",
        type=Path,
        help="compare this tree with another source tree, both pure Python",
    )
    # A child's forms, whole (JSON): the parent's reading of the declarations.
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        forms = [tuple(f) for f in json.loads(args.child)]
        print(json.dumps(play_matches(forms, args.first, args.matches, args.seed, args.max_moves)))
        return 0
    every = every_form()
    labels = [label for label, *_ in every]
    wanted = [w for w in args.forms.split(",") if w]
    forms = [
        f for f in every if not wanted or any(f[0] == w or f[0].startswith(w + "-") for w in wanted)
    ]
    if not forms or args.jobs < 1 or args.matches < args.jobs or args.first < 0:
        parser.error(f"nothing to run: --forms from {labels}, --jobs 1..--matches, --first >= 0")
    start = time.perf_counter()
    compiled, pure = run_builds(forms, args)
    if args.against_tree is not None:
        assert not compiled["compiled"] and not pure["compiled"]
        if compiled["source"] == pure["source"]:
            raise SystemExit(f"differential: both sides imported {pure['source']}")
    elif not compiled["compiled"]:
        print(f"differential: no compiled build here ({compiled['build']})", file=sys.stderr)
        return 2
    assert not pure["compiled"], pure["build"]
    differ = {
        label: args.first
        + next(i for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b)
        for label, ours in compiled["hashes"].items()
        if ours != (theirs := pure["hashes"][label])
    }
    report = {
        "builds": [compiled["build"], pure["build"]],
        "sources": [compiled["source"], pure["source"]],
        "matches_per_form": args.matches,
        "match_numbers": [args.first, args.first + args.matches - 1],
        "forms": [label for label, *_ in forms],
        "responses_per_build": compiled["responses"],
        "identical": not differ,
        "first_differing_match": differ,
        "seconds": round(time.perf_counter() - start, 1),
    }
    print(json.dumps(report, indent=2))
    return 0 if not differ else 1


if __name__ == "__main__":
    sys.exit(main())
