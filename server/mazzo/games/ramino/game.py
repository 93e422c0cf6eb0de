"""Ramino as a ``Rules`` value: the service's and referee's single entry point.

Every player is his own side: side ``s`` is seat ``s`` and its match total is his
balance in chips.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from mazzo.core.facade import engine_rules
from mazzo.core.rules import OptionSpec, ScoreReport, SideScore
from mazzo.games.ramino import determinize, rules
from mazzo.games.ramino.options import (
    DEFAULT_PLAYERS,
    MAX_CHIPS,
    MAX_MATCH_HANDS,
    MAX_RESHUFFLES,
    MAX_STAKE,
    PLAYER_COUNTS,
    Options,
)
from mazzo.games.ramino.state import Phase, State, Status
from mazzo.games.ramino.validate import validate
from mazzo.games.ramino.view import view


class RaminoSideScore(NamedTuple):
    """One player's chips: his balance, what he has in play this hand, his share of the
    pot, his status, and what the last hand did to his balance."""

    balance: int
    committed: int
    pot_share: int
    status: Status
    last_hand_net: int | None


def _yes_no(default: str) -> tuple[str, ...]:
    return ("false", "true")


OPTIONS: Final = (
    OptionSpec(
        "hand_size", "cards dealt; 9: close with the ten held, no discard", "10", ("10", "9")
    ),
    OptionSpec("imaginary_jokers", "cards that may act as a joker at closing", "1", ("0", "1")),
    OptionSpec("min_open", "smallest opening", "1", (f"1..{MAX_STAKE}",)),
    OptionSpec("max_stake", "the agreed maximum stake", "5", (f"min_open..{MAX_STAKE}",)),
    OptionSpec("dealer_tax", "chips the dealer puts in before the deal", "0", (f"0..{MAX_CHIPS}",)),
    OptionSpec("buio", "blind opening at twice the tax", "true when dealer_tax > 0", _yes_no("")),
    OptionSpec("buio_seat", "who may open blind", "di_mano", ("di_mano", "dealer_left")),
    OptionSpec("set_duplicate_suits", "a set may repeat a suit", "false", _yes_no("")),
    OptionSpec(
        "rediscard_taken_card", "the card taken from the pile may go back", "false", _yes_no("")
    ),
    OptionSpec(
        "max_reshuffles",
        "reshuffles of the pile before a hand is void",
        "1",
        (f"0..{MAX_RESHUFFLES}",),
    ),
    OptionSpec("starting_chips", "every player's first stack", "100", (f"1..{MAX_CHIPS}",)),
    OptionSpec("allow_credit", "balances may go below zero", "true", _yes_no("")),
    OptionSpec(
        "match_hands",
        "decided hands in a match (and void hands in a row)",
        "3 x players",
        (f"1..{MAX_MATCH_HANDS}",),
    ),
    OptionSpec("first_dealer", "the first dealer", "from seed", ("0..players-1",)),
)


def _score(state: State) -> ScoreReport:
    bets = state.bets
    last = state.table.last_hand
    sides = tuple(
        SideScore(
            side=s,
            seats=(s,),
            match_total=bets.balances[s],
            detail=RaminoSideScore(
                bets.balances[s],
                bets.committed[s],
                bets.shares[s],
                bets.statuses[s],
                None if last is None else last.net[s],
            ),
        )
        for s in range(state.table.players)
    )
    finished = state.phase is Phase.OVER
    return ScoreReport(sides, finished, rules.winners(state))


_INFO: Final = ("ramino", "Ramino pokerato", PLAYER_COUNTS, DEFAULT_PLAYERS, OPTIONS)
RULES: Final = engine_rules(
    _INFO, Options, rules, determinize, view=view, validate=validate, score=_score
)
"""Ramino pokerato with the imaginary joker (docs/rules/ramino.md)."""
