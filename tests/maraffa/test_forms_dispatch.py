"""The one switch between Maraffa's forms (``game.form_of``, ``game.form_for``) and the
codec's table of them: every form is reached by its player counts and by each of its
values, and has a codec; a class belongs to one form only."""

from __future__ import annotations

import pytest

from mazzo.games.maraffa.game import FORMS, RULES, form_for, form_of
from mazzo.games.maraffa.options import Options
from mazzo.games.maraffa.wire_forms import FORMS as MARAFFA_FORMS


def test_every_form_has_a_codec_and_every_count_a_form() -> None:
    assert sorted(MARAFFA_FORMS) == sorted(f.name for f in FORMS)
    assert sorted(p for f in FORMS for p in f.players) == sorted(RULES.player_counts)
    kinds = [k for f in FORMS for k in f.kinds]
    assert len(kinds) == len(set(kinds))


@pytest.mark.parametrize("players", RULES.player_counts)
def test_a_deal_its_view_and_its_score_are_of_the_form_of_its_count(players: int) -> None:
    form = form_for(players)
    assert players in form.players
    state, _ = RULES.deal(Options(), players, 7)
    assert form_of(state) is form
    assert form_of(RULES.view(state, RULES.to_act(state))) is form
    assert all(form_of(side.detail) is form for side in RULES.score(state).sides)
