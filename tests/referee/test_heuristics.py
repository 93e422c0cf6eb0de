"""The builtin heuristic bots: they beat random play in every game and form, by the
referee's own statistics, and they never answer with an illegal move.

Each claim plays a seeded set of matches (the heuristic on one side, random players
on every other, the heuristic's side rotating from match to match) and reads the
heuristic's 95% interval from ``ratings.standings``: its win rate must lie above
what a side would win by chance (1 / sides), or its points per hand above zero when
the game's points are zero-sum. The sizes keep each claim to a few seconds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from google.protobuf import json_format

from mazzo.players.builtins import heuristic_policy
from mazzo.referee.engine import LocalEngine
from mazzo.referee.match import Entrant, MatchSpec, Pools, play_match, table_of
from mazzo.referee.ratings import standings
from mazzo.v1 import game_pb2

H, R = "builtin:heuristic", "builtin:random"
DECK39 = {"maraffa": {"threePlayerForm": "MARAFFA_THREE_PLAYER_FORM_DECK39"}}
ONE_HAND = {"burraco": {"hands": 1}}


@dataclass(frozen=True)
class Claim:
    game: str
    players: int
    matches: int
    options: dict[str, Any] = field(default_factory=dict)
    #: The points are zero-sum: the heuristic's points per hand must be above 0.
    zero_sum: bool = False


CLAIMS = {
    "maraffa-4": Claim("maraffa", 4, 20),
    "maraffa-3-dummy": Claim("maraffa", 3, 20),
    "maraffa-3-deck39": Claim("maraffa", 3, 30, DECK39),
    "maraffa-2-stock": Claim("maraffa", 2, 20),
    "maraffa-5-trionfo": Claim("maraffa", 5, 20, zero_sum=True),
    "burraco-4": Claim("burraco", 4, 20, ONE_HAND),
    "burraco-3": Claim("burraco", 3, 20, ONE_HAND),
    "burraco-2": Claim("burraco", 2, 20, ONE_HAND),
    "ramino-2": Claim("ramino", 2, 20, zero_sum=True),
    "ramino-3": Claim("ramino", 3, 12, {"ramino": {"matchHands": 4}}, zero_sum=True),
    "ramino-4": Claim("ramino", 4, 12, {"ramino": {"matchHands": 4}}, zero_sum=True),
}


async def heuristic_against_random(claim: Claim, seed: int = 1) -> dict[str, Any]:
    """The heuristic's row of the standings, and how many sides a match had."""
    engine, pools = LocalEngine(), Pools()
    records = []
    try:
        for i in range(claim.matches):
            spec = MatchSpec(
                f"{claim.game}-{i}", claim.game, seed + i, claim.players, claim.options
            )
            sides, _ = table_of(claim.game, claim.players, spec.options_message())
            lineup = [Entrant("random", (R,)) for _ in sides]
            lineup[i % len(sides)] = Entrant("heuristic", (H,))
            records.append(await play_match(spec, lineup, engine, pools))
    finally:
        await pools.close()
    assert all(not r["faults"] and r["result"]["finished"] for r in records)
    row = next(
        r
        for r in standings(records, ["heuristic", "random"])["standings"]
        if r["name"] == "heuristic"
    )
    row["sides"] = len(sides)
    return row


@pytest.mark.parametrize("name", list(CLAIMS))
async def test_the_heuristic_beats_random_play(name: str) -> None:
    claim = CLAIMS[name]
    row = await heuristic_against_random(claim)
    low, high = row["win_rate_ci"]
    chance = 1 / row["sides"]
    assert low > chance, f"{name}: win rate {row['win_rate']:.3f} in [{low:.3f}, {high:.3f}]"
    if claim.zero_sum:
        low, high = row["points_per_hand_ci"]
        assert row["hands"] > 0 and low > 0, f"{name}: points per hand in [{low}, {high}]"


# --------------------------------------------------------------------------- legality

#: Every form and a spread of option sets, as proto3 JSON of the game's options.
FORMS: list[tuple[str, int, dict[str, Any]]] = [
    ("maraffa", 4, {}),
    (
        "maraffa",
        4,
        {"fractions": "MARAFFA_FRACTIONS_KEEP_THIRDS", "signals": "MARAFFA_SIGNAL_SET_EXTENDED"},
    ),
    (
        "maraffa",
        4,
        {
            "claimRule": "MARAFFA_CLAIM_RULE_STRICT_ONE_THIRD",
            "redealWeakHand": True,
            "series": "MARAFFA_SERIES_BEST_OF_THREE",
            "target": 21,
        },
    ),
    (
        "maraffa",
        4,
        {"marafonaRule": "MARAFFA_MARAFONA_RULE_BATTEZZANTE_ACE_LEAD", "marafonaAutoDeclare": True},
    ),
    ("maraffa", 3, {}),
    ("maraffa", 3, {"dummySeat": 1, "fractions": "MARAFFA_FRACTIONS_KEEP_THIRDS"}),
    ("maraffa", 3, {"threePlayerForm": "MARAFFA_THREE_PLAYER_FORM_DECK39"}),
    (
        "maraffa",
        3,
        {
            "threePlayerForm": "MARAFFA_THREE_PLAYER_FORM_DECK39",
            "removedFour": "CARD_4H",
            "signals": "MARAFFA_SIGNAL_SET_CORE",
            "claimRule": "MARAFFA_CLAIM_RULE_STRICT_ONE_THIRD",
        },
    ),
    ("maraffa", 2, {}),
    ("maraffa", 2, {"twoPlayerMustFollow": False, "fractions": "MARAFFA_FRACTIONS_KEEP_THIRDS"}),
    ("maraffa", 5, {}),
    (
        "maraffa",
        5,
        {
            "trionfoAuction": "MARAFFA_TRIONFO_AUCTION_SINGLE_ROUND",
            "trionfoSignals": "MARAFFA_SIGNAL_SET_CORE",
            "trionfoStopWhenDecided": True,
            "matchDeals": 4,
        },
    ),
    ("burraco", 4, {"hands": 1}),
    (
        "burraco",
        4,
        {"hands": 1, "closingNeedsClean": True, "singleCardPileRule": False, "semipulito": False},
    ),
    ("burraco", 2, {"hands": 1}),
    ("burraco", 3, {"hands": 1}),
    ("burraco", 3, {"hands": 1, "threePlayerPhaseSwitch": False}),
    ("ramino", 2, {}),
    ("ramino", 4, {"dealerTax": 1, "maxStake": 6}),
    (
        "ramino",
        3,
        {
            "handSize": 9,
            "imaginaryJokers": 0,
            "setDuplicateSuits": True,
            "rediscardTakenCard": True,
            "allowCredit": False,
            "startingChips": 8,
            "matchHands": 4,
        },
    ),
    (
        "ramino",
        4,
        {
            "dealerTax": 2,
            "maxStake": 8,
            "buioSeat": "RAMINO_BUIO_SEAT_DEALER_LEFT",
            "maxReshuffles": 0,
            "matchHands": 4,
        },
    ),
]
#: Positions visited per form: the walk mixes heuristic and random moves, so it
#: reaches what either would (pozzetti, closures, auctions, claims).
POSITIONS = 600


@pytest.mark.parametrize(
    ("game", "players", "options"), FORMS, ids=[f"{g}-{p}-{i}" for i, (g, p, _) in enumerate(FORMS)]
)
async def test_the_heuristic_only_answers_legal_moves(
    game: str, players: int, options: dict[str, Any]
) -> None:
    engine = LocalEngine()
    message = json_format.ParseDict({game: options}, game_pb2.GameOptions())
    bot = heuristic_policy(0)
    rng = random.Random(f"{game}{players}{options}")
    asked = 0
    deal = 0
    while asked < POSITIONS:
        deal += 1
        position = await engine.deal(game, message, players, deal)
        ply = 0
        while not position.finished and asked < POSITIONS and ply < 2000:
            request = await engine.request(position, position.seat)
            answer = bot(request)
            asked += 1
            assert answer.WhichOneof("choice") == "index"
            assert 0 <= answer.index < len(request.legal_moves), (game, deal, ply)
            index = answer.index if rng.random() < 0.5 else rng.randrange(len(request.legal_moves))
            position, _ = await engine.apply(position, index)
            ply += 1
    assert deal >= 1 and asked == POSITIONS
