"""Ramino's sampler (``Rules.determinize``, GameService.Determinize) on seeded random
views of every form (docs/ramino.md "Determinization").

The views are taken at random points of seeded random play (``histories.FORMS``: two
to six players, nine cards, no reshuffle or two, the blind opening, sitting out,
re-discarding the card taken; bidding, play before and after reshuffles, finished
matches), each of a random seat. For each view:

- every sample passes ``validate`` and gives the view back, as a value and as the
  bytes ``GetView`` writes;
- the view survives the wire (``view_from_wire(view_to_wire(v)) == v``);
- the same view, count and seed give the same samples (also from another state with
  that view: a sample); another seed usually other hidden cards; the samples' own
  generator seed is drawn, not the real one;
- the replay: the sample's hidden cards traced back to a deal at the start of the hand
  (the draws after a reshuffle given cards by the sampler's own history check, every
  other card put back by ``histories.rebuild``), dealt again, and the hand's public
  moves applied by the engine: each legal, each view on the way showing the record so
  far, the end being the sample (for a finished match, the turns are replayed on the
  cards alone).

``MAZZO_DETERMINIZE_VIEWS`` sets the number of views (96 by default).
"""

from __future__ import annotations

import pytest

from mazzo.games.ramino import wire as codec
from mazzo.games.ramino.determinize import determinize
from mazzo.games.ramino.hidden import Deal as Hidden
from mazzo.games.ramino.hidden import Model, read_record
from mazzo.games.ramino.state import Phase, State
from mazzo.games.ramino.validate import validate
from mazzo.games.ramino.view import View, view
from mazzo.v1 import game_pb2
from tests.ramino.histories import VIEWS, random_views, rebuild, replay, replay_cards

CHUNKS = 12
COUNT = 2


def wire(v: View) -> bytes:
    msg = game_pb2.GameView()
    codec.view_to_wire(v, msg)
    return msg.SerializeToString()


def hidden_cards(states: list[State]) -> list[tuple[object, ...]]:
    return [(s.hands, s.stock) for s in states]


def check_replay(sample: State, given: View) -> None:
    """The sample's deal, read back to the start of its hand, replays to the sample."""
    record = read_record(given)
    drawn: dict[int, int] = {}
    if record.reshuffles:
        fit = Model(record).fit(Hidden(sample.hands, sample.stock))
        assert fit is not None, "the sampler's own check refuses its sample"
        for i, card in fit.items():
            drawn[-1 if i < 0 else record.slots[i].time // 2] = card
    deal = rebuild(sample, drawn)
    if sample.phase is Phase.OVER:
        replay_cards(sample, deal)
    else:
        replay(sample, deal, given.seat)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_views(chunk: int) -> None:
    share = VIEWS // CHUNKS + (chunk < VIEWS % CHUNKS)
    differ = views = 0
    for form, state, seat in random_views(1_000 + chunk, share):
        given = view(state, seat)
        back = codec.view_from_wire(game_pb2.GameView.FromString(wire(given)))
        assert back == given, "the view survives the wire"
        seed = (chunk << 32) + views
        samples = determinize(given, COUNT, seed)
        assert len(samples) == COUNT
        for sample in samples:
            validate(sample)
            assert view(sample, seat) == given, form.name
            assert wire(view(sample, seat)) == wire(given)
            check_replay(sample, given)
            assert sample.table.seed != state.table.seed, "the generator is drawn, not kept"
        assert determinize(given, COUNT, seed) == samples, "same view, count and seed"
        twin = view(samples[0], seat)  # another state with the same view
        assert determinize(twin, COUNT, seed) == samples, "a view is all it reads"
        other = determinize(given, COUNT, seed + 1)
        differ += hidden_cards(other) != hidden_cards(samples)
        views += 1
    assert views == share
    assert differ * 2 >= views, "another seed usually deals other cards"
