"""PettingZoo's own API test passes for every game and form."""

from __future__ import annotations

import warnings

from pettingzoo.test import api_test

from mazzo.rl import env
from tests.rl.forms import Form, each_form

#: api_test warns about any observation that is a dict, unless the environment is one
#: of its own by name; a dict of "observation" and "action_mask" is PettingZoo's
#: convention for masked actions (its classic card games have the same).
DICT_OBSERVATION = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


@each_form()
def test_api_test_passes_with_no_warning_but_the_dict_observation(form: Form) -> None:
    options = {**form.options, **form.short}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(
            env(game=form.game, players=form.players, options=options, render_mode="ansi"),
            num_cycles=300,
        )
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION
