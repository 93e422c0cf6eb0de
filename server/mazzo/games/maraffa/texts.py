"""Maraffa's moves and events as sentences for people watching (``viewer.texts``):
cards named in Italian as the page draws them (the 3 of denari, the fante of coppe)."""

from __future__ import annotations

from typing import Final

from mazzo.games.declaration import Text
from mazzo.v1 import maraffa_pb2
from mazzo.viewer.phrases import dashes, italian, named, seats


def thirds(n: int) -> str:
    """Maraffa's thirds of a point: ``2 1/3 points``."""
    whole, part = divmod(int(n), 3)
    if not part:
        return f"{whole} point" + ("" if whole == 1 else "s")
    return (f"{whole} " if whole else "") + f"{part}/3 point" + ("s" if whole else "")


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


EVENTS: Final[dict[str, Text]] = {
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

MOVES: Final[dict[str, Text]] = {
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
