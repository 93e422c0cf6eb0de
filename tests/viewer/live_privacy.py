"""The live view's privacy rule as a check: while a hand runs, nothing pushed to a page
holds a hidden card. A card is hidden at ply k when it is in some seat's hand then and
some deciding seat's ``GetView`` does not show it (anywhere: its hand, the table, the
pile, Burraco's history). Computed from the record played again, independently of
how the server builds its tables."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from mazzo.games.registry import CODECS, GAMES, rules_for
from mazzo.referee.records import to_json
from mazzo.referee.replay import replay
from mazzo.v1 import game_pb2

_CARD = re.compile(r"CARD_([0-9A-Z]{2})")


def hidden_cards(record: dict[str, Any]) -> list[set[str]]:
    """Per ply (0: the deal), the cards no page may see then."""
    game = record["game"]
    rules, codec = rules_for(game), CODECS[game]
    seats = len(record["seat_bots"])
    out: list[set[str]] = []

    def visit(ply: int, state: Any, move: Any, events: Any) -> None:
        wire = game_pb2.GameState()
        codec.state_to_wire(state, 0 if rules.finished(state) else rules.to_act(state), wire)
        in_hands = set(_CARD.findall(json.dumps(to_json(wire).get(game, {}).get("hands", []))))
        hidden: set[str] = set()
        for seat in range(seats):
            if rules.controller(state, seat) != seat:
                continue
            view = game_pb2.GameView()
            codec.view_to_wire(rules.view(state, seat), view)
            hidden |= in_hands - set(_CARD.findall(json.dumps(to_json(view))))
        out.append(hidden)

    done = replay(record, visit)
    assert done.divergence is None, done.divergence
    return out


#: A card in words, as the move and event texts name it: its rank (Italian words for
#: Maraffa's deck, English for the French one, or the short rank of ``4-5-6 of
#: hearts``) and its suit.
_RANK_WORDS = {
    "A": ("asso", "ace", "A"),
    "T": ("10",),
    "J": ("fante", "jack", "J"),
    "Q": ("cavallo", "queen", "Q"),
    "K": ("re", "king", "K"),
}
_SUIT_WORDS = {
    "S": ("spade", "spades"),
    "H": ("coppe", "hearts"),
    "D": ("denari", "diamonds"),
    "C": ("bastoni", "clubs"),
}


def _mentions(text: str, card: str) -> bool:
    """``card`` (a code: 3D) is in ``text``, as its code or in words (the 3 of denari,
    the queen of hearts, 4-5-6 of hearts)."""
    if re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", text):
        return True
    if card == "JK":
        return False
    ranks = "|".join(_RANK_WORDS.get(card[0], (card[0],)))
    suits = "|".join(_SUIT_WORDS[card[1]])
    spelled = rf"(?<![\w-])(?:\w+-)*(?:{ranks})(?:-\w+)* of (?:{suits})(?![\w])"
    return re.search(spelled, text) is not None


def check(records: dict[str, dict[str, Any]], payloads: Iterable[dict[str, Any]]) -> int:
    """Asserts the rule over ``payloads`` (pages' events: snapshots, moves, reveals);
    reveals are allowed only when a hand is over. Returns how many positions were
    checked."""
    hidden = {rid: hidden_cards(r) for rid, r in records.items()}
    checked = 0

    def position(rid: str, ply: int, payload: dict[str, Any], with_events: bool) -> None:
        nonlocal checked
        if rid not in hidden:
            return
        shown = dict(payload)
        if not with_events:  # the move and its events are of the hand just over
            shown.pop("events", None)
            shown.pop("move", None)
        text = json.dumps(shown)
        assert "CARD_" not in text
        for card in hidden[rid][ply]:
            assert not _mentions(text, card), (rid, ply, card, text[:400])
        checked += 1

    for payload in payloads:
        kind, rid = payload.get("type"), str(payload.get("id"))
        if kind == "snapshot":
            for live in payload["tables"]:
                start, last = live["start"], live["last"]
                position(start["id"], start["ply"], start, True)
                if last is not None:
                    position(last["id"], last["ply"], last, _within_hand(records, last))
        elif kind in ("match", "move"):
            position(
                rid, payload["ply"], payload, kind == "match" or _within_hand(records, payload)
            )
        elif kind == "reveal" and rid in records:
            events = records[rid]["moves"][payload["ply"]]["events"]
            assert GAMES[records[rid]["game"]].hooks.hand_points(events) is not None, payload
    return checked


def _within_hand(records: dict[str, dict[str, Any]], move: dict[str, Any]) -> bool:
    """A move and its events are checked unless it ended a hand or dealt one: then they
    may name the last hand's cards (shown at its end), which a new deal hands out
    again. The table after it is checked all the same."""
    record = records.get(str(move["id"]))
    if record is None:
        return False
    events = record["moves"][move["ply"] - 1]["events"]
    hooks = GAMES[record["game"]].hooks
    return hooks.hand_points(events) is None and not hooks.hand_dealt(events)
