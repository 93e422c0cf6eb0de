"""The worked examples of briscola.md §6 as vectors: BR-2, BR-3 and BR-4 (BR-1 and
BR-5 to BR-7 are in test_rules.py)."""

from __future__ import annotations

from mazzo.core.cards import card, codes
from mazzo.games.briscola import events as ev
from mazzo.games.briscola import rules
from mazzo.games.briscola.moves import play
from mazzo.games.briscola.state import HandScore, Phase, State
from mazzo.games.briscola.validate import validate
from tests.briscola.helpers import lay


def hands(state: State) -> list[str]:
    return [codes(h) for h in state.hands]


def test_br2_two_players_three_tricks_with_the_draws() -> None:
    state = lay(2, "AS 7H 2D 3S KC 4D 5C QS JH 2S 4S 5S 6S", dealer=0)
    assert hands(state) == ["3S 4D KC", "AS 7H 2D"]
    assert codes([state.trump_card]) == "5C" and state.to_act == 1
    assert codes(state.stock[:6]) == "QS JH 2S 4S 5S 6S" and len(state.stock) == 34
    assert state.stock[-1] == card("5C")
    rows = [
        # (plays, winner, points, drawers, hands after)
        ("7H KC", 0, 4, [0, 1], ["3S QS 4D", "AS JH 2D"]),
        ("3S AS", 1, 21, [1, 0], ["4S QS 4D", "2S JH 2D"]),
        ("2D QS", 1, 3, [1, 0], ["4S 6S 4D", "2S 5S JH"]),
    ]
    for number, (plays, winner, points, drawers, after) in enumerate(rows, 1):
        events: list[ev.Event] = []
        for code in plays.split():
            state, more = rules.apply(state, play(card(code)))
            events += more
        assert ev.TrickWon(number, winner, points) in events
        assert [e.seat for e in events if isinstance(e, ev.Drew)] == drawers
        assert hands(state) == after
        validate(state)
    assert len(state.stock) == 28


BR3 = [
    # (leader, plays, winner, points, hands after)
    (0, "7S 2S 6S JS", 3, 2, ["3S 4H 3C", "4S 5H AC", "5S QH KD", "AS 2H AD"]),
    (3, "AS 3S 4S 5S", 3, 21, ["KS 4H 3C", "AH 5H AC", "3H QH KD", "QS 2H AD"]),
    (3, "QS KS AH 3H", 0, 28, ["4H 6H 3C", "5H 7H AC", "JH QH KD", "2H KH AD"]),
    (0, "4H 5H JH 2H", 2, 2, ["6H 4D 3C", "7H 5D AC", "QH 2D KD", "KH AD 3D"]),
    (2, "QH KH 6H 7H", 3, 7, ["4D 7D 3C", "5D JD AC", "2D QD KD", "AD 3D 6D"]),
    (3, "AD 4D 5D 2D", 3, 11, ["7D 3C 5C", "JD AC 6C", "QD KD 7C", "3D 6D 2C"]),
    (3, "3D 7D JD QD", 3, 15, ["3C 5C QC", "AC 6C KC", "KD 4C 7C", "6D 2C JC"]),
    (3, "6D 3C AC KD", 1, 25, ["5C QC", "6C KC", "4C 7C", "2C JC"]),
    (1, "6C 4C 2C 5C", 1, 0, ["QC", "KC", "7C", "JC"]),
    (1, "KC 7C JC QC", 1, 9, ["", "", "", ""]),
]


def test_br3_four_players_a_whole_hand() -> None:
    state = lay(4, "3C 7S 4H AC 2S 5H KD 6S QH JS AD 2H 4C", dealer=3)
    assert hands(state) == ["7S 4H 3C", "2S 5H AC", "6S QH KD", "JS 2H AD"]
    assert codes(state.stock) == (
        "AS 3S 4S 5S QS KS AH 3H 6H 7H JH KH 2D 3D 4D 5D 6D 7D JD QD 2C 5C 6C 7C JC QC KC 4C"
    )
    for number, (leader, plays, winner, points, after) in enumerate(BR3, 1):
        assert state.to_act == leader
        events: list[ev.Event] = []
        for code in plays.split():
            assert rules.legal_moves(state)[0] == play(card(code))  # the first card
            state, more = rules.apply(state, play(card(code)))
            events += more
        assert ev.TrickWon(number, winner, points) in events
        assert hands(state) == after
        if number == 7:
            assert events[-1] == ev.TrumpCardTaken(2, card("4C"))
    assert state.phase is Phase.OVER
    assert state.table.last_hand == (HandScore(30, 2, 0), HandScore(90, 8, 1))
    assert state.table.hands_won == (0, 1)


def test_br4_three_players_39_cards() -> None:
    state = lay(3, "AH 3H KH 2S 7D QC AS 3S JD 6C", dealer=1)
    assert hands(state) == ["2S 7D QC", "AS 3S JD", "AH 3H KH"]
    assert state.to_act == 2 and codes([state.trump_card]) == "6C" and len(state.stock) == 30
    assert card("2C") not in state.stock
    tricks = 0
    while not state.finished:
        state, events = rules.apply(state, rules.legal_moves(state)[0])
        for e in events:
            if isinstance(e, ev.TrickWon):
                tricks += 1
                if e.trick == 10:
                    assert e.seat == 0
            if isinstance(e, ev.TrumpCardTaken):
                assert tricks == 10 and e == ev.TrumpCardTaken(2, card("6C"))
    assert tricks == 13
    assert state.table.last_hand == (HandScore(46, 8, 1), HandScore(31, 3, 0), HandScore(43, 2, 0))
