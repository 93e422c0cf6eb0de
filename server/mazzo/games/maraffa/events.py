"""What a move caused, as small records (the wire ``MaraffaEvent``)."""

from __future__ import annotations

from typing import NamedTuple

from mazzo.games.maraffa.state import ClaimResult, HandScore


class HandDealt(NamedTuple):
    game_number: int
    hand_number: int
    dealer: int
    battezzante: int


class TrumpDeclared(NamedTuple):
    seat: int
    suit: int


class RedealRequested(NamedTuple):
    seat: int


class CardPlayed(NamedTuple):
    seat: int
    card: int
    signal: int
    declare_marafona: bool


class TrickWon(NamedTuple):
    trick: int
    seat: int
    thirds: int


class CardDrawn(NamedTuple):
    seat: int
    card: int


class HandScored(NamedTuple):
    scores: tuple[HandScore, ...]
    totals: tuple[int, ...]


class Claimed(NamedTuple):
    result: ClaimResult


class TargetRaised(NamedTuple):
    effective_target: int


class GameWon(NamedTuple):
    game_number: int
    team: int
    totals: tuple[int, ...]


class MatchWon(NamedTuple):
    team: int
    games_won: tuple[int, ...]


Event = (
    HandDealt
    | TrumpDeclared
    | RedealRequested
    | CardPlayed
    | TrickWon
    | CardDrawn
    | HandScored
    | Claimed
    | TargetRaised
    | GameWon
    | MatchWon
)
