"""The trick tally a state keeps (``State.won``) is what replaying its tricks gives.

``apply`` keeps the tally move by move so that scoring a hand does not replay it;
decoding computes it from ``played``. Both must agree, and the last trick's point
must go to the side that won it, whatever a finished state's ``to_act`` says.
"""

import random

import pytest

from mazzo.games.maraffa import rules
from mazzo.games.maraffa.options import Options, ThreePlayerForm
from mazzo.games.maraffa.scoring import hand_scores, tally
from mazzo.games.maraffa.state import Phase, State
from mazzo.games.maraffa.wire import state_from_wire, state_to_wire
from mazzo.v1 import game_pb2

FORMS = [
    (4, Options()),
    (3, Options()),
    (2, Options()),
    (3, Options(three_player_form=ThreePlayerForm.DECK39)),
]


def play_to_the_end(players: int, options: Options, seed: int) -> list[State]:
    rnd = random.Random(seed)
    state, _ = rules.deal(options, players, seed)
    seen = [state]
    while state.phase is not Phase.OVER:
        moves = rules.legal_moves(state)
        state, _ = rules.apply(state, moves[rnd.randrange(len(moves) - 1)])  # never CLAIM
        seen.append(state)
    return seen


@pytest.mark.parametrize(("players", "options"), FORMS)
def test_the_kept_tally_is_the_replayed_tally_after_every_move(
    players: int, options: Options
) -> None:
    for state in play_to_the_end(players, options, seed=players):
        assert state.won == tally(state)


@pytest.mark.parametrize(("players", "options"), FORMS)
def test_a_finished_match_scores_the_last_trick_for_its_winner_whatever_to_act_says(
    players: int, options: Options
) -> None:
    final = play_to_the_end(players, options, seed=11)[-1]
    expected = hand_scores(final)
    assert sum(score.last_trick for score in expected) == 1
    for to_act in range(final.table.seats):
        msg = game_pb2.GameState()
        state_to_wire(final, to_act, msg)
        decoded = state_from_wire(msg)
        assert hand_scores(decoded) == expected
