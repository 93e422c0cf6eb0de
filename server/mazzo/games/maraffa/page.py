"""Maraffa's forms as a person plays them (``table.PAGE_PARTS``, for ``viewer.play``):
what the page needs, beyond the table, to show Trionfo's auction and called partner,
the 3-player dummy and the 2-player stock, and to group the moves that are not cards
(a bid, a pass, trumps with a called card).

Everything here is read from one seat's ``GetView`` (wire JSON) and the legal moves
the decision holds, so the page gets nothing its decision did not hold, and the
browser still knows no rule: the highest bid is worked out here, the moves are only
labelled (the page groups Trionfo's 120 declarations by suit, then by card, from
these labels).
"""

from __future__ import annotations

from mazzo.viewer.words import Json, card, cards, enum

#: The dummy's partner plays it (maraffa.md §2.2.2; proto: ``dummy_seat``).
DUMMY_PARTNER = 2
#: Suits by the wire's names, as the page shows them (the Italian ones).
SUITS = {
    "SUIT_SPADES": "spade",
    "SUIT_HEARTS": "coppe",
    "SUIT_DIAMONDS": "denari",
    "SUIT_CLUBS": "bastoni",
}


def _auction(detail: Json, trionfo: Json) -> Json:
    """Trionfo's auction so far: every speech, the highest bid and its bidder (bids only
    ever rise, A.3.2: the last one is the highest), then the contract, the called card
    and the amico, each once the view shows it."""
    speeches = []
    high: Json | None = None
    for speech in trionfo.get("auction", []):
        said = enum(speech.get("speech", ""))
        seat = int(speech.get("seat", 0))
        speeches.append({"seat": seat, "speech": said})
        if said != "pass":
            high = {"seat": seat, "bid": said}
    called = trionfo.get("calledCard")
    return {
        "phase": enum(detail.get("phase", "")),
        "firstSpeaker": int(trionfo.get("firstSpeaker", 0)),
        "speeches": speeches,
        "high": high,
        "declarer": int(trionfo["declarer"]) if "declarer" in trionfo else None,
        "contract": enum(trionfo["contract"]) if trionfo.get("contract") else None,
        "trump": SUITS.get(detail.get("trump", "")),
        "calledCard": card(called) if called else None,
        "amico": int(trionfo["amico"]) if "amico" in trionfo else None,
    }


def _dummy(view: Json, detail: Json) -> Json | None:
    """The 3-player form with a dummy: whose it is, who plays it, and whether this
    decision is the dummy's (the person plays for it)."""
    if "dummySeat" not in detail or len(detail.get("handSizes", [])) != 4:
        return None
    dummy = int(detail["dummySeat"])
    controller = (dummy + DUMMY_PARTNER) % 4
    seat = int(view.get("seat", 0))
    return {
        "seat": dummy,
        "controller": controller,
        "forDummy": seat == dummy,
        "shown": bool(detail.get("dummyHand")),
    }


def _stock(detail: Json) -> Json | None:
    """The 2-player stock: how many cards are left, and the cards drawn so far this hand
    (public: each is shown to the other player), the last pair apart."""
    if len(detail.get("handSizes", [])) != 2:
        return None
    drawn = cards(detail.get("drawn"))
    return {"size": int(detail.get("stockSize", 0)), "drawn": drawn, "last": drawn[-2:]}


def form_of(view: Json) -> Json:
    """What the page shows of the form besides the table: ``{"form": name, ...}``,
    ``name`` one of ``trionfo``, ``dummy``, ``stock``, ``four``, ``deck39``."""
    detail = view.get("maraffa", {})
    trionfo = detail.get("trionfo")
    if trionfo is not None:
        return {"form": "trionfo", "auction": _auction(detail, trionfo)}
    dummy = _dummy(view, detail)
    if dummy is not None:
        return {"form": "dummy", "dummy": dummy}
    stock = _stock(detail)
    if stock is not None:
        return {"form": "stock", "stock": stock}
    return {"form": "deck39" if len(detail.get("handSizes", [])) == 3 else "four"}


def move_part(move: Json) -> Json | None:
    """A move's label, for the page to group: ``{"kind": "bid", "bid": "maso"}``,
    ``{"kind": "pass"}``, ``{"kind": "trumps", "suit": "denari", "called": "3D" or
    None}``; None for the rest (a card, a claim: drawn as they are)."""
    detail = move.get("maraffa", {})
    if "bid" in detail:
        return {"kind": "bid", "bid": enum(detail["bid"].get("contract", ""))}
    if "passBid" in detail:
        return {"kind": "pass"}
    if "declareTrump" in detail:
        declared = detail["declareTrump"]
        called = declared.get("calledCard")
        suit = SUITS.get(declared.get("suit", ""), enum(declared.get("suit", "")))
        return {"kind": "trumps", "suit": suit, "called": card(called) if called else None}
    return None
