"""Ramino's moves and events as sentences for people watching (``viewer.texts``):
bets in chips, closures as their combinations, cards named in English."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from mazzo.games.declaration import Text
from mazzo.v1 import ramino_pb2
from mazzo.viewer.phrases import (
    FRENCH_SUITS,
    PLURAL_RANKS,
    code,
    french,
    french_group,
    named,
    seats,
)


def chips(n: int) -> str:
    return f"{n} chip" + ("" if n == 1 else "s")


_BIDS: dict[int, Callable[[int, int], str]] = {
    ramino_pb2.RAMINO_BID_ACTION_BUIO: lambda s, a: f"seat {s} opens blind at {chips(a)}",
    ramino_pb2.RAMINO_BID_ACTION_NO_BUIO: lambda s, a: f"seat {s} does not open blind",
    ramino_pb2.RAMINO_BID_ACTION_PASS: lambda s, a: f"seat {s} passes",
    ramino_pb2.RAMINO_BID_ACTION_OPEN: lambda s, a: f"seat {s} bids {chips(a)}",
    ramino_pb2.RAMINO_BID_ACTION_ACCEPT: lambda s, a: f"seat {s} accepts",
    ramino_pb2.RAMINO_BID_ACTION_RAISE: lambda s, a: f"seat {s} raises to {chips(a)}",
    ramino_pb2.RAMINO_BID_ACTION_STAND: lambda s, a: f"seat {s} stands",
}


def _some_bid(seat: int, amount: int) -> str:
    return f"seat {seat} bids"


def _ramino_bid(e: ramino_pb2.RaminoBidMade) -> str:
    said = _BIDS.get(e.bid.action, _some_bid)(e.bid.seat, e.bid.amount)
    return f"{said} (stake {e.stake}, pot {e.pot})"


def closure_text(c: ramino_pb2.RaminoClosure) -> str:
    """``seat 0 closes: double, the king of spades as the 7 of hearts``."""
    kind = named(ramino_pb2.RaminoClosureType, c.type)
    out = f"seat {c.seat} closes: {kind}"
    if c.joker:
        out += f", {french(c.joker)} as {french(c.stands_for)}"
    if c.discard:
        out += f", discarding {french(c.discard)}"
    return out


def group_label(kind: str, concrete: Sequence[int], joker: int, stands_for: int) -> str:
    """A closure's group in words, from its cards with the joker's code put in:
    ``run 5-6-7 of hearts``, ``set of kings``, ``pair of the 7 of hearts``, ``ten of
    spades``; ``, the king of spades as the 7`` when the joker is in it."""
    codes = [code(c) for c in concrete]
    if kind == "run":
        out = f"run {french_group(concrete)}"
    elif kind == "set":
        out = f"set of {PLURAL_RANKS.get(codes[0][0], codes[0][0] + 's')}"
    elif kind == "pair":
        out = f"pair of {french(concrete[0])}"
    else:
        out = f"ten of {FRENCH_SUITS.get(codes[0][1], '?')}"
    if joker:
        out += f", {french(joker)} as {french(stands_for)}"
    return out


def _ramino_ended(e: ramino_pb2.RaminoHandEnded) -> str:
    r = e.result
    n = r.hand_number
    outcome = r.outcome
    winner = r.winner
    net = r.net[winner] if r.HasField("winner") and winner < len(r.net) else 0
    if outcome == ramino_pb2.RAMINO_OUTCOME_CLOSED:
        return f"hand {n} ends: seat {winner} closes, wins {chips(net)}"
    if outcome == ramino_pb2.RAMINO_OUTCOME_UNCONTESTED:
        return f"hand {n} ends: seat {winner} takes the pot of {chips(r.pot)} uncontested"
    if outcome == ramino_pb2.RAMINO_OUTCOME_VOID:
        return f"hand {n} is void: nobody opened; the pot of {chips(r.pot)} carries over"
    if outcome == ramino_pb2.RAMINO_OUTCOME_EXHAUSTED:
        return f"hand {n} ends: the stock ran out; the pot of {chips(r.pot)} carries over"
    return f"hand {n} ends"


def _ramino_match(e: ramino_pb2.RaminoMatchEnded) -> str:
    why = named(ramino_pb2.RaminoMatchEnd, e.end)
    best = max(e.balances) if e.balances else 0
    verb = "wins" if len(e.winners) == 1 else "win"
    return f"the match is over ({why}): {seats(e.winners)} {verb} with {chips(best)}"


EVENTS: Final[dict[str, Text]] = {
    "hand_dealt": lambda e: (
        f"hand {e.hand_number} is dealt by seat {e.dealer}"
        + (f"; {seats(e.sitting_out)} sit out" if e.sitting_out else "")
    ),
    "tax_paid": lambda e: f"seat {e.seat} pays the dealer's tax of {chips(e.amount)}",
    "bid_made": _ramino_bid,
    "play_started": lambda e: (
        f"play starts: {seats(e.participants)} play for a stake of {chips(e.posta)} (pot {e.pot})"
    ),
    "card_drawn": lambda e: f"seat {e.seat} draws from the stock ({e.stock_size} left)",
    "discard_taken": lambda e: f"seat {e.seat} takes {french(e.card)} from the pile",
    "card_discarded": lambda e: f"seat {e.seat} discards {french(e.card)}",
    "stock_reshuffled": lambda e: (
        f"the pile becomes the new stock ({e.stock_size} cards, reshuffle {e.reshuffles})"
    ),
    "hand_closed": lambda e: closure_text(e.closure),
    "hand_ended": _ramino_ended,
    "pot_refunded": lambda e: (
        "the pot goes back: "
        + ", ".join(f"seat {s} {chips(n)}" for s, n in enumerate(e.refunds) if n)
        if any(e.refunds)
        else "the pot is empty"
    ),
    "match_ended": _ramino_match,
}


def _ramino_close(m: ramino_pb2.RaminoClose) -> str:
    out = "closes"
    if m.discard:
        out += f", discarding {french(m.discard)}"
    for j in m.jokers:
        out += f", {french(j.card)} as {french(j.stands_for)}"
    return out


MOVES: Final[dict[str, Text]] = {
    "buio": lambda m: "opens blind",
    "no_buio": lambda m: "does not open blind",
    "pass_bid": lambda m: "passes",
    "open_bid": lambda m: f"bids {chips(m.amount)}",
    "accept_bid": lambda m: "accepts",
    "raise_bid": lambda m: f"raises to {chips(m.amount)}",
    "stand_bid": lambda m: "stands",
    "draw": lambda m: "draws from the stock",
    "take_discard": lambda m: "takes the top card of the pile",
    "discard": lambda m: f"discards {french(m.card)}",
    "close": _ramino_close,
}

#: Per game, per oneof field of the game's Event and Move: its text.
