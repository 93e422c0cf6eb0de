"""The rummy games' decisions as the person's page filters them (``viewer.picks``,
through ``play.draw``): each legal move names the cards of the hand it puts down and
the meld it goes onto, read from the move itself, so the page can offer the moves
that use exactly the cards picked without knowing any rule."""

from __future__ import annotations

from collections import Counter
from typing import Any

from mazzo.viewer.picks import move_parts
from mazzo.viewer.play import draw
from tests.viewer.test_play import _decisions


def _rummy(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r["game"] in ("burraco", "ramino")]


def test_every_move_uses_cards_the_seats_hand_holds(records: list[dict[str, Any]]) -> None:
    kinds: Counter[str] = Counter()
    for record in _rummy(records):
        for request in _decisions(record, 1):
            drawn = draw(request)
            assert drawn["picking"]
            hand = Counter(drawn["table"]["seats"][request.seat]["hand"] or [])
            ids = {m["id"] for m in drawn["melds"]}
            pozzetti = [n for n in drawn["notes"] if n.startswith("pozzetto ")]
            assert len(pozzetti) == (record["game"] == "burraco") * len(
                request.view.burraco.pozzetti
            )
            for move in drawn["moves"]:
                kinds[f"{record['game']} {move['kind']}"] += 1
                assert not Counter(move["uses"]) - hand, (record["id"], move, hand)
                assert (move["onto"] is not None) == (move["kind"] == "layOff")
                assert move["onto"] is None or move["onto"] in ids
                if move["kind"] == "meld":
                    assert len(move["uses"]) >= 3
                if move["kind"] in ("discard", "draw", "pickUp", "takeDiscard"):
                    assert len(move["uses"]) == (move["kind"] == "discard")
    # Every kind of picked move was met in these matches.
    for kind in ("meld", "layOff", "discard", "pickUp", "draw"):
        assert kinds[f"burraco {kind}"], kinds
    for kind in ("discard", "draw", "takeDiscard", "openBid"):
        assert kinds[f"ramino {kind}"], kinds


def test_a_move_says_its_cards_as_the_move_itself_does() -> None:
    meld = {"burraco": {"meld": {"cards": ["CARD_4S", "CARD_4S", "CARD_JK"]}}}
    assert move_parts(meld, "burraco") == {"kind": "meld", "uses": ["4S", "4S", "JK"], "onto": None}
    lay = {"burraco": {"layOff": {"meldId": 3, "cards": ["CARD_2H"]}}}
    assert move_parts(lay, "burraco") == {"kind": "layOff", "uses": ["2H"], "onto": 3}
    first = {"burraco": {"layOff": {"cards": ["CARD_2H"]}}}  # meld 0: the field left out
    assert move_parts(first, "burraco")["onto"] == 0
    assert move_parts({"burraco": {"pickUp": {}}}, "burraco")["uses"] == []
    close = {"ramino": {"close": {"discard": "CARD_JH"}}}
    assert move_parts(close, "ramino") == {"kind": "close", "uses": ["JH"], "onto": None}
    assert move_parts({"ramino": {"close": {}}}, "ramino")["uses"] == []  # nine cards
    assert move_parts({"ramino": {"raiseBid": {"amount": "3"}}}, "ramino")["uses"] == []
    # A game whose page does not pick cards: the kind only.
    assert move_parts({"maraffa": {"playCard": {"card": "CARD_3D"}}}, "maraffa")["uses"] == []


def test_a_game_without_picking_is_drawn_as_before(records: list[dict[str, Any]]) -> None:
    maraffa = next(r for r in records if r["id"] == "maraffa-4")
    drawn = draw(_decisions(maraffa, 1)[5])
    assert not drawn["picking"] and drawn["melds"] == drawn["notes"] == []
    assert all(set(m) == {"text", "card", "part"} for m in drawn["moves"])  # no cards picked
