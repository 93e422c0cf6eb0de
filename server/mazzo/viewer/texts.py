"""Moves and events as short sentences for people watching, written by hand for every
kind of every game: ``seat 2 plays the 3 of denari, signalling striscio``, ``seat 1
draws from the stock``, ``hand 2 ends: seat 0 closes and wins 5 chips``.

A text says what the record's event (or move) itself says and nothing more, so it is
exactly as public as the record: a draw from the stock names no card because the event
names none. No rule of any game is used: the sentences are made from the protobuf
messages' fields. A kind with no text here falls back to ``words.words``, the generic
rendering of the JSON (``tests/viewer/test_texts.py`` fails if any kind of any game
has no text of its own, so a new event cannot fall back silently).

Maraffa's cards are named in Italian as the page draws them (asso, fante, cavallo, re
of coppe, denari, spade, bastoni); Burraco's and Ramino's in English (the queen of
hearts, a run 4-5-6 of hearts).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any

from google.protobuf import json_format

from mazzo.v1 import burraco_pb2, cards_pb2, game_pb2, maraffa_pb2, ramino_pb2
from mazzo.viewer.words import Json, enum, move_words, words

Text = Callable[[Any], str]

# --------------------------------------------------------------------------- pieces

_ITALIAN_SUITS = {"S": "spade", "H": "coppe", "D": "denari", "C": "bastoni"}
_ITALIAN_RANKS = {"A": "asso", "J": "fante", "Q": "cavallo", "K": "re"}
_FRENCH_SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_FRENCH_RANKS = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
_SHORT_RANKS = {"T": "10"}
_PLURAL_RANKS = {"A": "aces", "T": "10s", "J": "jacks", "Q": "queens", "K": "kings"}


def code(card: int) -> str:
    """``CARD_3D``'s number -> ``3D``."""
    return str(cards_pb2.Card.Name(cards_pb2.Card.ValueType(card))).removeprefix("CARD_")


def italian(card: int) -> str:
    """``the 3 of denari``, ``the fante of coppe``."""
    c = code(card)
    return f"the {_ITALIAN_RANKS.get(c[0], c[0])} of {_ITALIAN_SUITS.get(c[1], c[1])}"


def french(card: int) -> str:
    """``the queen of hearts``, ``the 10 of spades``, ``the joker``."""
    c = code(card)
    if c == "JK":
        return "the joker"
    return f"the {_FRENCH_RANKS.get(c[0], c[0])} of {_FRENCH_SUITS.get(c[1], c[1])}"


def french_group(cards: Sequence[int]) -> str:
    """Cards of one suit as ``4-5-6 of hearts`` (in the order given), of one rank as
    ``three kings (spades, hearts, clubs)``, anything else one by one."""
    codes = [code(c) for c in cards]
    if not codes:
        return "no card"
    if len(codes) == 1:
        return french(cards[0])
    if "JK" not in codes and len({c[1] for c in codes}) == 1:
        ranks = "-".join(_SHORT_RANKS.get(c[0], c[0]) for c in codes)
        return f"{ranks} of {_FRENCH_SUITS[codes[0][1]]}"
    if "JK" not in codes and len({c[0] for c in codes}) == 1:
        rank = codes[0][0]
        many = _PLURAL_RANKS.get(rank, rank + "s")
        suits = ", ".join(_FRENCH_SUITS[c[1]] for c in codes)
        return f"{_count_word(len(codes))} {many} ({suits})"
    return and_list(french(c).removeprefix("the ") for c in cards)


_COUNTS = ("two", "three", "four", "five", "six", "seven", "eight", "nine")


def _count_word(n: int) -> str:
    return _COUNTS[n - 2] if 2 <= n <= 9 else str(n)


def and_list(items: Iterable[str]) -> str:
    """``a, b and c``."""
    parts = list(items)
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def seats(numbers: Iterable[int]) -> str:
    """``seat 1``, ``seats 0 and 2``."""
    listed = [str(n) for n in numbers]
    if not listed:
        return "nobody"
    return ("seat " if len(listed) == 1 else "seats ") + and_list(listed)


def named(wrapper: Any, value: int) -> str:
    """An enum value in words: ``MARAFFA_SIGNAL_STRISCIO`` -> ``striscio``."""
    return enum(wrapper.Name(value))


def dashes(values: Iterable[int]) -> str:
    """``41 - 30``; with a negative number ``1, 2, -1``."""
    listed = [int(v) for v in values]
    return (", " if any(v < 0 for v in listed) else " - ").join(str(v) for v in listed)


def thirds(n: int) -> str:
    """Maraffa's thirds of a point: ``2 1/3 points``."""
    whole, part = divmod(int(n), 3)
    if not part:
        return f"{whole} point" + ("" if whole == 1 else "s")
    return (f"{whole} " if whole else "") + f"{part}/3 point" + ("s" if whole else "")


def chips(n: int) -> str:
    return f"{n} chip" + ("" if n == 1 else "s")


# --------------------------------------------------------------------------- Maraffa


def _signalled(signal: int, marafona: bool) -> str:
    out = ""
    if signal:
        out += f", signalling {named(maraffa_pb2.MaraffaSignal, signal)}"
    if marafona:
        out += ", declaring the marafona"
    return out


def _suit(suit: int) -> str:
    return {1: "spade", 2: "coppe", 3: "denari", 4: "bastoni"}.get(suit, "no suit")


def _contract(value: int) -> str:
    return named(maraffa_pb2.MaraffaContract, value)


def _claim(e: maraffa_pb2.MaraffaClaimed) -> str:
    r = e.result
    verdict = "valid" if r.valid else "not valid"
    return (
        f"seat {r.seat} claims the game for team {r.team}: {verdict} ({r.value}, {r.needed} needed)"
    )


def _hand_scored(e: maraffa_pb2.MaraffaHandScored) -> str:
    points = dashes(s.hand_score for s in e.scores)
    return f"the hand is scored {points}; totals {dashes(e.totals)}"


def _contract_declared(e: maraffa_pb2.MaraffaContractDeclared) -> str:
    called = f", calling {italian(e.called_card)}" if e.called_card else ""
    return f"seat {e.seat} plays {_contract(e.contract)} with {_suit(e.suit)} as trumps{called}"


def _deal_scored(e: maraffa_pb2.MaraffaDealScored) -> str:
    d = e.score
    if not d.contract:
        return f"deal {d.deal_number} is thrown in; totals {dashes(e.totals)}"
    who = f"seat {d.declarer}" if d.HasField("declarer") else "the declarer"
    outcome = ("makes" if d.won else "fails") if d.HasField("won") else "plays"
    return (
        f"deal {d.deal_number}: {who} {outcome} {_contract(d.contract)}; totals {dashes(e.totals)}"
    )


MARAFFA_EVENTS: dict[str, Text] = {
    "hand_dealt": lambda e: (
        f"game {e.game_number}, hand {e.hand_number} is dealt by seat {e.dealer};"
        f" seat {e.battezzante} is the battezzante"
    ),
    "trump_declared": lambda e: f"seat {e.seat} names {_suit(e.suit)} as trumps",
    "redeal_requested": lambda e: f"seat {e.seat} asks for a redeal",
    "card_played": lambda e: (
        f"seat {e.seat} plays {italian(e.card)}{_signalled(e.signal, e.declare_marafona)}"
    ),
    "trick_won": lambda e: f"seat {e.seat} wins trick {e.trick}, worth {thirds(e.thirds)}",
    "card_drawn": lambda e: f"seat {e.seat} draws {italian(e.card)} from the stock",
    "hand_scored": _hand_scored,
    "claimed": _claim,
    "target_raised": lambda e: f"a tie: the target rises to {e.effective_target}",
    "game_won": lambda e: f"team {e.team} wins game {e.game_number}, totals {dashes(e.totals)}",
    "match_won": lambda e: f"team {e.team} wins the match, games {dashes(e.games_won)}",
    "deal_dealt": lambda e: (
        f"deal {e.deal_number} is dealt by seat {e.dealer}; seat {e.first_speaker} speaks first"
    ),
    "bid_made": lambda e: f"seat {e.seat} bids {_contract(e.contract)}",
    "bid_passed": lambda e: f"seat {e.seat} passes",
    "auction_won": lambda e: f"seat {e.seat} wins the auction with {_contract(e.contract)}",
    "thrown_in": lambda e: f"everybody passed: deal {e.deal_number} is thrown in",
    "contract_declared": _contract_declared,
    "partner_revealed": lambda e: f"the called card is out: seat {e.seat} is the amico",
    "deal_scored": _deal_scored,
    "trionfo_match_over": lambda e: (
        f"the match is over: {seats(e.winners)} "
        + ("wins" if len(e.winners) == 1 else "win")
        + f", totals {dashes(e.totals)}"
    ),
}

MARAFFA_MOVES: dict[str, Text] = {
    "play_card": lambda m: f"plays {italian(m.card)}{_signalled(m.signal, m.declare_marafona)}",
    "declare_trump": lambda m: (
        f"names {_suit(m.suit)} as trumps"
        + (f", calling {italian(m.called_card)}" if m.called_card else "")
    ),
    "request_redeal": lambda m: "asks for a redeal",
    "claim": lambda m: "claims the game",
    "bid": lambda m: f"bids {_contract(m.contract)}",
    "pass_bid": lambda m: "passes",
}

# --------------------------------------------------------------------------- Burraco


def _meld(kind: int, cards: Sequence[int]) -> str:
    """``a run 4-5-6 of hearts``, ``a set of three kings (spades, hearts, clubs)``."""
    group = french_group(cards)
    if kind == burraco_pb2.BURRACO_MELD_KIND_SEQUENCE:
        return f"a run {group}"
    if kind == burraco_pb2.BURRACO_MELD_KIND_COMBINATION:
        return f"a set of {group}" if group.split()[0] in _COUNTS else f"a set: {group}"
    return f"a meld: {group}"


def _burraco_dealt(e: burraco_pb2.BurracoHandDealt) -> str:
    pozzetti = and_list(str(n) for n in e.pozzetti)
    up = f"; the up-card is {french(e.up_card)}" if e.up_card else ""
    return f"hand {e.hand_number} is dealt by seat {e.dealer}{up}; pozzetti of {pozzetti} cards"


def _burraco_ended(e: burraco_pb2.BurracoHandEnded) -> str:
    left = dashes(len(h.cards) for h in e.hands)
    why = f"seat {e.closer} closed" if e.HasField("closer") else "the stock ran out"
    return f"the hand ends: {why}; cards left in hand {left}"


def _burraco_scored(e: burraco_pb2.BurracoHandScored) -> str:
    sides = "; ".join(f"{seats(s.seats)} {s.score}" for s in e.scores)
    return f"the hand is scored: {sides}; totals {dashes(e.totals)}"


def _burraco_match(e: burraco_pb2.BurracoMatchEnded) -> str:
    if not e.winners:
        return f"the match ends in a draw, totals {dashes(e.totals)}"
    sides = and_list(str(w) for w in e.winners)
    return f"the match is over: side {sides} wins, totals {dashes(e.totals)}"


BURRACO_EVENTS: dict[str, Text] = {
    "hand_dealt": _burraco_dealt,
    "drew": lambda e: f"seat {e.seat} draws from the stock",
    "pile_taken": lambda e: (
        f"seat {e.seat} picks up the discard pile ({len(e.cards)} "
        + ("card)" if len(e.cards) == 1 else "cards)")
    ),
    "meld_opened": lambda e: f"seat {e.seat} opens {_meld(e.kind, e.cards)} (meld {e.meld_id})",
    "laid_off": lambda e: f"seat {e.seat} lays off {french_group(e.cards)} on meld {e.meld_id}",
    "discarded": lambda e: f"seat {e.seat} discards {french(e.card)}",
    "pozzetto_taken": lambda e: (
        f"seat {e.seat} takes pozzetto {e.pozzetto + 1} ({e.size} cards), "
        + ("in diretta" if e.in_diretta else "con lo scarto")
    ),
    "pozzetto_unlocked": lambda e: f"seat {e.seat} may now look at the pozzetto",
    "pair_formed": lambda e: f"seat {e.solo} plays alone; {seats(e.pair)} play as a pair",
    "last_turn": lambda e: f"two cards left in the stock: seat {e.seat} plays the last turn",
    "closed": lambda e: f"seat {e.seat} closes",
    "hand_ended": _burraco_ended,
    "hand_scored": _burraco_scored,
    "phase_changed": lambda e: (
        "from now on: three pozzetti of 11 and no pairs"
        if e.three_pozzetti
        else "from now on: two pozzetti"
    ),
    "match_ended": _burraco_match,
}

BURRACO_MOVES: dict[str, Text] = {
    "draw": lambda m: "draws from the stock",
    "pick_up": lambda m: "picks up the discard pile",
    "meld": lambda m: f"opens {_meld(m.kind, m.cards)}",
    "lay_off": lambda m: f"lays off {french_group(m.cards)} on meld {m.meld_id}",
    "discard": lambda m: f"discards {french(m.card)}",
}

# --------------------------------------------------------------------------- Ramino

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
        out = f"set of {_PLURAL_RANKS.get(codes[0][0], codes[0][0] + 's')}"
    elif kind == "pair":
        out = f"pair of {french(concrete[0])}"
    else:
        out = f"ten of {_FRENCH_SUITS.get(codes[0][1], '?')}"
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


RAMINO_EVENTS: dict[str, Text] = {
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


RAMINO_MOVES: dict[str, Text] = {
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
EVENTS: dict[str, dict[str, Text]] = {
    "maraffa": MARAFFA_EVENTS,
    "burraco": BURRACO_EVENTS,
    "ramino": RAMINO_EVENTS,
}
MOVES: dict[str, dict[str, Text]] = {
    "maraffa": MARAFFA_MOVES,
    "burraco": BURRACO_MOVES,
    "ramino": RAMINO_MOVES,
}

# --------------------------------------------------------------------------- entry points


def _text_of(message: game_pb2.Event | game_pb2.Move, table: dict[str, dict[str, Text]]) -> str:
    outer = "event" if isinstance(message, game_pb2.Event) else "move"
    game = message.WhichOneof(outer)  # type: ignore[arg-type]
    if game is None:
        return ""
    detail = getattr(message, game)
    kind = detail.WhichOneof(detail.DESCRIPTOR.oneofs[0].name)
    text = table.get(game, {}).get(kind or "")
    if text is None:
        return ""
    return text(getattr(detail, kind))


@lru_cache(maxsize=1 << 14)
def _event_text(text: str) -> str:
    said = _text_of(json_format.ParseDict(json.loads(text), game_pb2.Event()), EVENTS)
    return said or words(json.loads(text))


@lru_cache(maxsize=1 << 14)
def _move_text(text: str) -> tuple[str, bool]:
    said = _text_of(json_format.ParseDict(json.loads(text), game_pb2.Move()), MOVES)
    return (said, True) if said else (move_words(json.loads(text)), False)


def event_text(event: Json) -> str:
    """An event (records' JSON) as a sentence: ``seat 2 plays the 3 of denari,
    signalling striscio``. A kind without a text of its own: ``words.words``."""
    return _event_text(json.dumps(event, sort_keys=True))


def move_text(move: Json, seat: int | None = None) -> str:
    """A move (records' JSON) as what its seat does: ``plays the 3 of denari``; with
    ``seat``, a sentence: ``seat 2 plays the 3 of denari``. A kind without a text of its
    own: ``words.move_words``."""
    said, own = _move_text(json.dumps(move, sort_keys=True))
    if seat is None:
        return said
    return f"seat {seat} {said}" if own else f"seat {seat}: {said}"
