"""The hand-written texts of moves and events (``viewer.texts``): every kind of every
game has its own (a new event or move in a proto fails here until it gets one), each
renders from its message at its defaults, and a few sentences per game are checked as
written."""

from __future__ import annotations

from typing import Any

import pytest

from mazzo.games.ramino import texts as ramino_texts
from mazzo.games.registry import GAMES as DECLARED
from mazzo.v1 import game_pb2
from mazzo.viewer import texts
from mazzo.viewer.texts import event_text, move_text
from mazzo.viewer.words import move_words, words

GAMES = tuple(DECLARED)


def kinds(outer: type[Any], game: str) -> list[str]:
    """The oneof fields of a game's Event or Move message, from the proto itself."""
    detail = outer.DESCRIPTOR.fields_by_name[game].message_type
    (oneof,) = detail.oneofs
    return [field.name for field in oneof.fields]


def test_the_games_are_the_protos_games() -> None:
    for outer in (game_pb2.Event, game_pb2.Move):
        (oneof,) = outer.DESCRIPTOR.oneofs
        assert sorted(f.name for f in oneof.fields) == sorted(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_every_event_and_move_kind_has_a_text_of_its_own(game: str) -> None:
    said_by = DECLARED[game].presentation
    for outer, table in (
        (game_pb2.Event, said_by.event_texts),
        (game_pb2.Move, said_by.move_texts),
    ):
        expected = kinds(outer, game)
        missing = sorted(set(expected) - set(table))
        assert not missing, f"{game} {outer.__name__}: no hand-written text for {missing}"
        assert not set(table) - set(expected), "a text for a kind the proto lacks"
        for kind in expected:  # each renders from its message at its defaults
            record = {game: {_camel(kind): {}}}
            if outer is game_pb2.Event:
                said = event_text(record)
                assert said and said != words(record), (game, kind, said)
            else:
                said = move_text(record)
                assert said and said != move_words(record), (game, kind, said)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


SENTENCES: list[tuple[str, dict[str, Any], str]] = [
    # Maraffa
    (
        "event",
        {
            "maraffa": {
                "cardPlayed": {"seat": 2, "card": "CARD_3D", "signal": "MARAFFA_SIGNAL_STRISCIO"}
            }
        },
        "seat 2 plays the 3 of denari, signalling striscio",
    ),
    (
        "event",
        {"maraffa": {"trickWon": {"trick": 3, "seat": 1, "thirds": 7}}},
        "seat 1 wins trick 3, worth 2 1/3 points",
    ),
    (
        "event",
        {
            "maraffa": {
                "contractDeclared": {
                    "seat": 4,
                    "contract": "MARAFFA_CONTRACT_CHIAMO",
                    "suit": "SUIT_CLUBS",
                    "calledCard": "CARD_KH",
                }
            }
        },
        "seat 4 plays chiamo with bastoni as trumps, calling the re of coppe",
    ),
    (
        "event",
        {"maraffa": {"gameWon": {"team": 1, "gameNumber": 1, "totals": [30, 41]}}},
        "team 1 wins game 1, totals 30 - 41",
    ),
    (
        "move",
        {"maraffa": {"playCard": {"card": "CARD_JS", "declareMarafona": True}}},
        "plays the fante of spade, declaring the marafona",
    ),
    ("move", {"maraffa": {"declareTrump": {"suit": "SUIT_DIAMONDS"}}}, "names denari as trumps"),
    # Burraco
    ("event", {"burraco": {"drew": {"seat": 1}}}, "seat 1 draws from the stock"),
    (
        "event",
        {
            "burraco": {
                "pileTaken": {
                    "cards": [
                        "CARD_4H",
                        "CARD_9S",
                        "CARD_QC",
                        "CARD_2D",
                        "CARD_TS",
                        "CARD_AH",
                        "CARD_KD",
                    ]
                }
            }
        },
        "seat 0 picks up the discard pile (7 cards)",
    ),
    (
        "event",
        {
            "burraco": {
                "meldOpened": {
                    "seat": 3,
                    "meldId": 2,
                    "cards": ["CARD_4H", "CARD_5H", "CARD_6H"],
                    "kind": "BURRACO_MELD_KIND_SEQUENCE",
                }
            }
        },
        "seat 3 opens a run 4-5-6 of hearts (meld 2)",
    ),
    (
        "event",
        {"burraco": {"pozzettoTaken": {"seat": 2, "size": 11, "inDiretta": True}}},
        "seat 2 takes pozzetto 1 (11 cards), in diretta",
    ),
    ("move", {"burraco": {"discard": {"card": "CARD_QS"}}}, "discards the queen of spades"),
    # Ramino
    (
        "event",
        {
            "ramino": {
                "bidMade": {
                    "bid": {"seat": 1, "action": "RAMINO_BID_ACTION_OPEN", "amount": "3"},
                    "paid": "3",
                    "stake": "3",
                    "pot": "5",
                }
            }
        },
        "seat 1 bids 3 chips (stake 3, pot 5)",
    ),
    (
        "event",
        {"ramino": {"cardDrawn": {"seat": 2, "stockSize": 40}}},
        "seat 2 draws from the stock (40 left)",
    ),
    (
        "event",
        {
            "ramino": {
                "handClosed": {
                    "closure": {
                        "seat": 0,
                        "cards": [],
                        "joker": "CARD_KS",
                        "standsFor": "CARD_7H",
                        "discard": "CARD_9C",
                        "type": "RAMINO_CLOSURE_TYPE_DOUBLE",
                    }
                }
            }
        },
        "seat 0 closes: double, the king of spades as the 7 of hearts, discarding the 9 of clubs",
    ),
    (
        "event",
        {
            "ramino": {
                "handEnded": {
                    "result": {
                        "handNumber": 2,
                        "outcome": "RAMINO_OUTCOME_CLOSED",
                        "winner": 0,
                        "pot": "9",
                        "net": ["5", "-3", "-2"],
                    }
                }
            }
        },
        "hand 2 ends: seat 0 closes, wins 5 chips",
    ),
    ("move", {"ramino": {"raiseBid": {"amount": "4"}}}, "raises to 4 chips"),
]


@pytest.mark.parametrize("kind, record, expected", SENTENCES)
def test_sentences(kind: str, record: dict[str, Any], expected: str) -> None:
    said = event_text(record) if kind == "event" else move_text(record)
    assert said == expected


def test_a_move_with_its_seat_and_a_kind_without_text_falls_back() -> None:
    move = {"ramino": {"takeDiscard": {}}}
    assert move_text(move, 3) == "seat 3 takes the top card of the pile"
    # without a text of its own (as a new kind would be), the generic words
    ramino_moves = ramino_texts.MOVES
    saved = ramino_moves.pop("take_discard")
    texts._move_text.cache_clear()
    try:
        assert move_text(move, 3) == "seat 3: " + move_words(move)
    finally:
        ramino_moves["take_discard"] = saved
        texts._move_text.cache_clear()


def test_a_stock_draw_names_no_card() -> None:
    for record in ({"burraco": {"drew": {"seat": 1}}}, {"ramino": {"cardDrawn": {"seat": 1}}}):
        assert " of " not in event_text(record)
    for move in ({"burraco": {"draw": {}}}, {"ramino": {"draw": {}}}):
        assert move_text(move) == "draws from the stock"


def test_frames_use_the_texts_and_show_ramino_closures_as_their_combinations(
    records: list[dict[str, Any]],
) -> None:
    from collections import Counter

    from mazzo.viewer.frames import frames_of

    closures = 0
    for record in records:
        frames = frames_of(record)["frames"]
        for frame, entry in zip(frames[1:], record["moves"], strict=True):
            assert frame["move"] == move_text(entry["move"])
            assert frame["events"] == [event_text(e) for e in entry["events"]]
            closed = [
                e["ramino"]["handClosed"]["closure"]
                for e in entry["events"]
                if "handClosed" in e.get("ramino", {})
            ]
            shown = [a for a in frame["table"]["areas"] if " closes: " in a["label"]]
            if not closed:
                continue
            closures += 1
            (closure,) = closed
            seat = closure.get("seat", 0)
            assert shown and all(a["label"].startswith(f"seat {seat} closes: ") for a in shown)
            faces = Counter(c for a in shown for c in a["cards"])
            assert faces == Counter(c.removeprefix("CARD_") for c in closure["cards"])
            for table in frame["seats"]:  # public: every seat's table shows it too
                if table is not None:
                    assert [a for a in table["areas"] if " closes: " in a["label"]] == shown
    assert closures >= 1
