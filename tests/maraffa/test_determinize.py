"""Determinize for 2, 3 and 4 players, on views of random play (issue 15).

For every form and every option that changes what is legal or what a view shows
(``determinize_helpers.forms``), views of random seats are taken at random points of
seeded random matches. For each view, every sample:

- is a state the service accepts (``validate``);
- gives back exactly the view for its seat, in the domain and byte for byte on the
  wire (``view_to_wire``), and the wire view decodes back to the view;
- replayed from the deal of its hand through the hand's public moves, makes every
  one of them legal and ends in the sample itself (``determinize_helpers.replay``):
  a constraint the sampler forgot shows up here as an illegal move.

And the samples are a function of (view, count, seed): the same arguments give the
same states; another seed gives other states (when the view leaves a choice).

The number of views is ``MAZZO_DETERMINIZE_VIEWS`` (default 340, a few seconds);
``make determinize-check N=...`` runs it larger.
"""

from __future__ import annotations

import os
import random

import pytest

from mazzo.games.maraffa.determinize import determinize
from mazzo.games.maraffa.validate import validate
from mazzo.games.maraffa.view import View, view
from mazzo.games.maraffa.wire import view_from_wire, view_to_wire
from mazzo.v1 import game_pb2
from tests.maraffa.determinize_helpers import Form, forms, hidden_places, random_views, replay

VIEWS = int(os.environ.get("MAZZO_DETERMINIZE_VIEWS", "340"))
FORMS = forms()
SAMPLES = 3


def wire(v: View) -> bytes:
    msg = game_pb2.GameView()
    view_to_wire(v, msg)
    return msg.SerializeToString()


def free_choice(v: View) -> bool:
    """Does the view leave the hidden cards some freedom that any seed would show?
    At least two hidden places, and two hidden cards that no rule ties down (a rough
    test: a view with many hidden cards in two places or more)."""
    _, sizes, cards, _ = hidden_places(v)
    return sum(1 for size in sizes if size) >= 2 and len(cards) >= 6


@pytest.mark.parametrize("form", FORMS, ids=[f.name for f in FORMS])
def test_samples_give_the_view_back_through_legal_play(form: Form) -> None:
    rng = random.Random(f"determinize/{form.name}")
    wanted = max(4, VIEWS // len(FORMS))
    differ = choices = 0
    for v, seat in random_views(form, rng, wanted):
        data = wire(v)
        msg = game_pb2.GameView.FromString(data)
        assert view_from_wire(msg, "view") == v
        seed = rng.randrange(2**64)
        samples = determinize(v, SAMPLES, seed)
        assert len(samples) == SAMPLES
        for sample in samples:
            validate(sample)
            assert view(sample, seat) == v
            assert wire(view(sample, seat)) == data
            # The generator is drawn, never carried over (views zero it).
            assert (sample.table.seed, sample.table.counter) != (0, 0)
            replay(sample, v, seat)
        assert determinize(v, SAMPLES, seed) == samples
        if free_choice(v):
            choices += 1
            again = determinize(v, SAMPLES, seed ^ 1)
            differ += [s.hands for s in again] != [s.hands for s in samples]
    # Another seed, other deals: nearly always, where the view leaves a choice.
    assert differ >= 0.9 * choices


def test_a_view_is_all_it_reads() -> None:
    """Two states with the same view (one dealt anew from the other) give the same
    samples: the sampler sees only the view."""
    rng = random.Random(7)
    form = FORMS[0]
    for v, seat in random_views(form, rng, 20):
        [other] = determinize(v, 1, 99)
        assert view(other, seat) == v
        assert determinize(view(other, seat), 5, 3) == determinize(v, 5, 3)
