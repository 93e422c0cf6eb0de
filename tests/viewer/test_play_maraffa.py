"""Maraffa's forms on a person's page without a browser (``games.maraffa.page``):
what ``POST /play/draw`` adds to a decision of Trionfo, of the 3-player form with a
dummy and of the 2-player form, read from the decision alone."""

from __future__ import annotations

from typing import Any

from mazzo.referee.records import to_json
from mazzo.viewer.play import draw
from tests.viewer.test_play import _decisions


def _record(records: list[dict[str, Any]], rid: str) -> dict[str, Any]:
    return next(r for r in records if r["id"] == rid)


def test_trionfos_auction_shows_every_speech_and_the_highest_bid(
    records: list[dict[str, Any]],
) -> None:
    seen_bid = False
    for request in _decisions(_record(records, "maraffa-5"), 1):
        drawn = draw(request)
        form = drawn["form"]
        assert form["form"] == "trionfo"
        auction = form["auction"]
        speeches = to_json(request.view)["maraffa"]["trionfo"].get("auction", [])
        assert len(auction["speeches"]) == len(speeches)
        bids = [s for s in auction["speeches"] if s["speech"] != "pass"]
        # Bids only rise: the highest is the last one made.
        assert auction["high"] == (
            {"seat": bids[-1]["seat"], "bid": bids[-1]["speech"]} if bids else None
        )
        seen_bid = seen_bid or bool(bids)
        parts = [m["part"] for m in drawn["moves"]]
        if auction["phase"] == "auction":
            assert all(p is not None and p["kind"] in ("bid", "pass") for p in parts)
            assert sum(p["kind"] == "pass" for p in parts) == 1
        if auction["phase"] == "declare":
            assert all(p is not None and p["kind"] == "trumps" for p in parts)
            suits = {p["suit"] for p in parts}
            assert suits == {"spade", "coppe", "denari", "bastoni"}
        if auction["phase"] == "play":
            assert all(p is None for p in parts)  # cards: drawn as cards
    assert seen_bid


def test_the_dummys_decision_shows_each_hand_at_its_own_seat(
    records: list[dict[str, Any]],
) -> None:
    turns = 0
    for request in _decisions(_record(records, "maraffa-3"), 1):
        drawn = draw(request)
        dummy = drawn["form"]["dummy"]
        detail = to_json(request.view)["maraffa"]
        seats = drawn["table"]["seats"]
        own_cards = [c.removeprefix("CARD_") for c in detail.get("hand", [])]
        if not dummy["forDummy"]:
            continue
        turns += 1
        assert request.seat == dummy["seat"] == 2 and dummy["controller"] == 0
        # The view is the controller's: its hand at seat 0, the dummy's at seat 2.
        assert seats[0]["hand"] == own_cards and seats[0]["count"] == len(own_cards)
        dummys = [c.removeprefix("CARD_") for c in detail.get("dummyHand", [])]
        assert seats[2]["hand"] == dummys and seats[2]["count"] == len(dummys)
        plays = {m["card"] for m in drawn["moves"] if m["card"]}
        assert plays <= set(dummys)
    assert turns >= 10


def test_the_two_player_stock_is_counted_and_its_draws_shown(
    records: list[dict[str, Any]],
) -> None:
    sizes = []
    for request in _decisions(_record(records, "maraffa-2"), 1):
        stock = draw(request)["form"]["stock"]
        detail = to_json(request.view)["maraffa"]
        assert stock["size"] == int(detail.get("stockSize", 0))
        assert stock["drawn"] == [c.removeprefix("CARD_") for c in detail.get("drawn", [])]
        assert stock["last"] == stock["drawn"][-2:]
        sizes.append(stock["size"])
    assert max(sizes) == 20 and min(sizes) == 0
