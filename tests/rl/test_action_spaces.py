"""Each game's fixed action space: one action per move and one move per action."""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest

from mazzo.core.cards import card, cards
from mazzo.games.burraco.cards import COPIES
from mazzo.games.burraco.encoding import BURRACO, MAX_MELDS, MELD, MELD_KEYS
from mazzo.games.burraco.melds import meld_error
from mazzo.games.burraco.moves import lay_off, meld
from mazzo.games.burraco.moves import parse as burraco_move
from mazzo.games.maraffa.encoding import MARAFFA
from mazzo.games.maraffa.moves import parse as maraffa_move
from mazzo.games.ramino.encoding import ramino_encoding
from mazzo.games.ramino.moves import parse as ramino_move
from mazzo.rl.encoding import Encoding

ENCODINGS = {
    "maraffa": MARAFFA,
    "burraco": BURRACO,
    "ramino": ramino_encoding(5),
    "ramino-stakes-1000": ramino_encoding(1000),
}


@pytest.mark.parametrize("name", ENCODINGS)
def test_every_action_names_a_move_that_names_it_back(name: str) -> None:
    encoding: Encoding = ENCODINGS[name]
    moves = [encoding.move_of(a) for a in range(encoding.actions)]
    assert [encoding.action_of(m) for m in moves] == list(range(encoding.actions))
    assert len({str(m) for m in moves}) == encoding.actions
    for outside in (-1, encoding.actions):
        with pytest.raises(ValueError):
            encoding.move_of(outside)


def test_the_sizes_of_the_action_spaces() -> None:
    assert MARAFFA.actions == 40 * 9 * 2 + 4 + 1 + 1 + 4 + 1 + 4 * 40 == 891
    assert BURRACO.actions == 2 + 53 + 36 * 53 + 1332 == 3295
    assert ramino_encoding(5).actions == 7 + 52 + 52 + 1 + 2 * 5 == 122


def test_maraffa_actions_follow_card_then_signal_then_marafona() -> None:
    assert MARAFFA.action_of(maraffa_move("play AS")) == 0
    assert MARAFFA.action_of(maraffa_move("play AS marafona")) == 1
    assert MARAFFA.action_of(maraffa_move("play AS striscio")) == 4
    assert MARAFFA.action_of(maraffa_move("play 2S")) == 18
    assert MARAFFA.action_of(maraffa_move("trump H")) == 721
    assert MARAFFA.action_of(maraffa_move("claim")) == 725
    assert MARAFFA.action_of(maraffa_move("trump C call 3C")) == 731 + 3 * 40 + 32


def test_burracos_3_card_melds_are_exactly_the_valid_triples() -> None:
    valid = [
        t
        for t in combinations_with_replacement(range(1, 54), 3)
        if all(t.count(c) <= COPIES[c] for c in t) and meld_error(t) is None
    ]
    assert len(MELD_KEYS) == len(valid) == 1332
    assert [BURRACO.move_of(MELD + i).cards for i in range(len(valid))] == valid


def test_burraco_lay_offs_go_by_meld_id_and_card() -> None:
    assert BURRACO.action_of(burraco_move("layoff 0 AS")) == 55
    assert BURRACO.action_of(burraco_move(f"layoff {MAX_MELDS - 1} JK")) == MELD - 1
    assert BURRACO.action_of(burraco_move("discard 7C")) == 2 + card("7C") - 1


def test_burraco_moves_outside_the_space_are_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="3-card melds"):
        BURRACO.action_of(meld(cards("5S 6S 7S 8S")))
    with pytest.raises(ValueError, match="one-card lay-offs"):
        BURRACO.action_of(lay_off(0, cards("8S 9S")))


def test_ramino_amounts_follow_the_stakes_and_declared_jokers_are_left_out() -> None:
    encoding = ramino_encoding(5)
    assert encoding.action_of(ramino_move("open 1")) == 112
    assert encoding.action_of(ramino_move("raise 5")) == 121
    assert encoding.action_of(ramino_move("close 8C joker 2D=6S")) == encoding.action_of(
        ramino_move("close 8C")
    )
    with pytest.raises(ValueError, match="stakes up to 5"):
        encoding.action_of(ramino_move("raise 6"))
