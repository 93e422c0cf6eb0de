"""``codec.maraffa.state_bytes`` writes a state's wire bytes from memoised pieces
instead of through protobuf; these tests hold it to protobuf's own encoding.

Two properties pin it down: protobuf parses the bytes and writes back the very same
bytes (so they are canonical, which the service's state memo relies on: a client
that re-serialises a state sends these bytes back), and decoding them gives back the
state that was encoded.
"""

from __future__ import annotations

import random

import pytest

from mazzo.games.maraffa import rules
from mazzo.games.maraffa import wire as codec
from mazzo.games.maraffa.cards import IN_DECK
from mazzo.games.maraffa.moves import Signal
from mazzo.games.maraffa.options import (
    Fractions,
    MarafonaRule,
    Options,
    Series,
    SignalSet,
    ThreePlayerForm,
)
from mazzo.games.maraffa.state import NO_SEAT, Phase, State
from mazzo.v1 import game_pb2

FORMS = [
    (4, Options()),
    (3, Options()),
    (2, Options()),
    (3, Options(three_player_form=ThreePlayerForm.DECK39)),
    (4, Options(signals=SignalSet.EXTENDED, signals_checked=True)),
    (4, Options(marafona_rule=MarafonaRule.BATTEZZANTE_ONLY, series=Series.BEST_OF_THREE)),
    (4, Options(fractions=Fractions.KEEP_THIRDS, marafona_auto_declare=True)),
    (4, Options(target=11, redeal_weak_hand=True)),
]


def played_states(players: int, options: Options, seed: int, moves: int) -> list[State]:
    rnd = random.Random(seed)
    state, _ = rules.deal(options, players, seed)
    states = [state]
    while len(states) < moves and state.phase is not Phase.OVER:
        legal = rules.legal_moves(state)
        # Never the final CLAIM (it is listed last), which would end the match at once.
        state, _ = rules.apply(state, rnd.choice(legal[:-1] or legal))
        states.append(state)
    return states


def test_every_id_written_as_one_byte_is_one_varint_byte() -> None:
    assert max(IN_DECK) < 128
    assert max(Signal) < 128


@pytest.mark.parametrize(("players", "options"), FORMS)
def test_state_bytes_are_protobufs_canonical_encoding(players: int, options: Options) -> None:
    checked, seen = 0, set()
    for seed in range(12):
        for state in played_states(players, options, seed, moves=1500):
            to_act = 0 if state.phase is Phase.OVER else state.to_act
            data = codec.state_bytes(state, to_act)
            msg = game_pb2.GameState.FromString(data)
            assert msg.SerializeToString() == data
            # A finished state names no seat to act: the wire says 0.
            assert codec.state_from_wire(msg) == state._replace(to_act=to_act)
            assert msg.to_act == to_act
            checked += 1
            seen |= {
                state.phase,
                "stock" if state.stock else "",
                "marafona" if state.marafona_seat != NO_SEAT else "",
                "signals" if any(state.signals) else "",
            }
    assert checked > 1000
    # The runs reach the parts of the encoding the form has.
    assert {Phase.TRUMP, Phase.PLAY, Phase.OVER, "marafona"} <= seen
    assert ("stock" in seen) == (players == 2)
