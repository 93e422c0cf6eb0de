"""Determinize for Burraco: samples of a seat's view (issue 15).

Views come from seeded random matches of every form (2 players, 3 players in the
18 + 11 phase and in the three-pozzetti phase, 4 players) with the options that change
what a view shows (the one-card pile rule, a clean burraco to close, semipulito,
short matches that end, so finished views too), taken at random points for random
seats. For each view:

- every sample passes ``validate`` and gives back exactly the view, in the domain and
  as wire bytes;
- the same (view, count, seed) gives the same samples, another seed other ones;
- the replay test (``determinize_support``): the sample's hidden deal, played from
  the hand's start through the hand's public moves, makes each of them legal, causes
  the events the history shows, agrees with everything that was public along the way,
  and ends in the sample.

The number of views is ``MAZZO_DETERMINIZE_VIEWS`` (default 120, split over the
forms); ``make determinize-check N=...`` runs it large.
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter

import pytest

from mazzo.games.burraco import wire as codec
from mazzo.games.burraco.determinize import determinize
from mazzo.games.burraco.state import Stage, State
from mazzo.games.burraco.validate import validate
from mazzo.games.burraco.view import view
from mazzo.v1 import game_pb2
from tests.burraco.determinize_support import FORMS, Form, play, replay_ok

VIEWS = int(os.environ.get("MAZZO_DETERMINIZE_VIEWS", "120"))
SAMPLES = 3
SEEN: Counter[str] = Counter()


def wire(v: object) -> bytes:
    msg = game_pb2.GameView()
    codec.view_to_wire(v, msg)  # type: ignore[arg-type]
    return msg.SerializeToString()


def positions(form: Form, count: int, salt: int) -> list[tuple[State, int, list[State]]]:
    """``count`` (state, seat, the hand's states up to it) from random matches."""
    rnd = random.Random(f"burraco determinize {form.name} {salt}")
    out: list[tuple[State, int, list[State]]] = []
    while len(out) < count:
        for hand in play(form, rnd):
            # A few points per hand, late ones more often (that is where the
            # constraints are), and always a hand's last state when the match ends.
            picks = {rnd.randrange(len(hand)) for _ in range(2)}
            picks.add(len(hand) - 1 - rnd.randrange(min(len(hand), 8)))
            if hand[-1].finished:
                picks.add(len(hand) - 1)
            # The legal-discard rule binds the seat to act's cards when he holds one or
            # two in his MELD stage: take those points when they come.
            picks.update(
                k
                for k, s in enumerate(hand)
                if s.stage is Stage.MELD and len(s.hands[s.to_act]) <= 2 and rnd.random() < 0.5
            )
            for k in sorted(picks):
                seat = rnd.randrange(form.players)
                if seat == hand[k].to_act and rnd.random() < 0.5:
                    seat = (seat + 1) % form.players
                out.append((hand[k], seat, hand[: k + 1]))
    return out[:count]


def describe(state: State, seat: int) -> list[str]:
    tags = [f"stage {state.stage.name}"]
    if state.log and any(type(e).__name__ == "PileTaken" for e in state.log):
        tags.append("pile taken")
    if any(t >= 0 for t in state.takers):
        tags.append("pozzetto taken")
    if state.locked:
        tags.append("locked pozzetto" + (" (viewer)" if state.locked >> seat & 1 else ""))
    if state.forbidden:
        tags.append("forbidden discard")
    if state.stage is Stage.MELD and len(state.hands[state.to_act]) <= 2 and seat != state.to_act:
        tags.append("constrained seat to act")
    return tags


@pytest.mark.parametrize("form", FORMS, ids=[f.name for f in FORMS])
def test_random_views(form: Form) -> None:
    count = max(1, VIEWS // len(FORMS))
    started = time.perf_counter()
    rnd = random.Random(f"seeds {form.name}")
    differ = 0
    for state, seat, hand in positions(form, count, 0):
        v = view(state, seat)
        seed = rnd.getrandbits(64)
        samples = determinize(v, SAMPLES, seed)
        assert len(samples) == SAMPLES
        for sample in samples:
            validate(sample)
            assert view(sample, seat) == v
            assert wire(view(sample, seat)) == wire(v)
            why = replay_ok(sample, seat, rnd, hand)
            assert why is None, f"{form.name}, seat {seat}: {why}"
        assert determinize(v, SAMPLES, seed) == samples
        # The view alone decides: decoded from the wire, it gives the same samples.
        back = codec.view_from_wire(game_pb2.GameView.FromString(wire(v)), "view")
        assert back == v
        assert determinize(back, SAMPLES, seed) == samples
        other = determinize(v, SAMPLES, seed ^ 0x5A5A)
        differ += other != samples
        for tag in describe(state, seat):
            SEEN[f"{form.name}: {tag}"] += 1
    # Another seed gives other samples unless almost nothing is hidden.
    assert differ >= count * 0.9
    elapsed = time.perf_counter() - started
    print(
        f"\n{form.name}: {count} views in {elapsed:.1f} s; "
        + ", ".join(
            f"{k.split(': ')[1]} {n}" for k, n in sorted(SEEN.items()) if k.startswith(form.name)
        )
    )
