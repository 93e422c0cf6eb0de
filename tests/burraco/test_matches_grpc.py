"""Random Burraco matches played entirely through the gRPC API (2, 3 and 4 players).

A client deals, then answers every decision with a random legal move from the last
response, until the match is over. The scores are then recomputed from the events
alone by an independent scorer (``oracle.Scorer``, written from burraco.md §4) and
must match every HandScored event, the final totals, Score and the winners.
"""

from __future__ import annotations

import random

import pytest

from mazzo.games.burraco import events as ev
from mazzo.games.burraco.melds import Kind
from mazzo.games.burraco.state import HandScore
from mazzo.v1 import burraco_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.burraco.oracle import Scorer, expected_result


def _score(s: burraco_pb2.BurracoHandScore) -> HandScore:
    return HandScore(
        tuple(s.seats),
        s.melded,
        s.bonuses,
        s.closing,
        s.in_hand,
        s.no_pozzetto,
        s.score,
        s.pulito,
        s.semipulito,
        s.sporco,
    )


def domain_event(m: burraco_pb2.BurracoEvent) -> object:
    """The event records the scorer reads, from the wire (a client's own decoding)."""
    kind = m.WhichOneof("event")
    e = getattr(m, kind)
    match kind:
        case "hand_dealt":
            return ev.HandDealt(e.hand_number, e.dealer, e.up_card, tuple(e.pozzetti))
        case "meld_opened":
            return ev.MeldOpened(e.seat, e.meld_id, tuple(e.cards), Kind(e.kind))
        case "laid_off":
            return ev.LaidOff(e.seat, e.meld_id, tuple(e.cards))
        case "pozzetto_taken":
            return ev.PozzettoTaken(e.seat, e.pozzetto, e.size, e.in_diretta)
        case "pair_formed":
            return ev.PairFormed(e.solo, tuple(e.pair))
        case "closed":
            return ev.Closed(e.seat)
        case "hand_ended":
            closer = e.closer if e.HasField("closer") else -1
            return ev.HandEnded(closer, tuple(tuple(h.cards) for h in e.hands))
        case "hand_scored":
            return ev.HandScored(
                tuple(_score(s) for s in e.scores), tuple(e.credits), tuple(e.totals)
            )
        case "match_ended":
            return ev.MatchEnded(tuple(e.winners), tuple(e.totals))
    return None


MATCHES = [
    # players, seed, options
    (4, 1, burraco_pb2.BurracoOptions(target=300, max_hands=3)),
    (4, 2, burraco_pb2.BurracoOptions(hands=2, semipulito=False, closing_needs_clean=True)),
    (2, 3, burraco_pb2.BurracoOptions(target=200, max_hands=3, single_card_pile_rule=False)),
    (3, 4, burraco_pb2.BurracoOptions(hands=2, first_dealer=2)),
    (3, 5, burraco_pb2.BurracoOptions(target=250, max_hands=3, three_player_phase_switch=False)),
]


@pytest.mark.parametrize(("players", "seed", "options"), MATCHES)
async def test_random_match_scores_recomputed_from_events(
    stub: GameServiceStub, players: int, seed: int, options: burraco_pb2.BurracoOptions
) -> None:
    rnd = random.Random(seed)
    request = gs.DealRequest(game="burraco", players=players, seed=seed)
    request.options.burraco.CopyFrom(options)
    dealt = await stub.Deal(request)
    state, moves = dealt.state, dealt.legal_moves
    resolved = dealt.state.burraco.table.options
    scorer = Scorer(players, semipulito=resolved.semipulito)
    scorer.feed(ev.HandDealt(1, 0, 0, ()))
    calls = 0
    while not state.finished:
        assert moves, "a live match always has a legal move"
        reply = await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=rnd.choice(moves)))
        for event in reply.events:
            scorer.feed(domain_event(event.burraco))
        state, moves = reply.state, reply.legal_moves
        calls += 1
        assert calls < 20_000
    assert scorer.finished and scorer.hands_scored >= 1
    assert list(state.match_score) == scorer.totals
    target = 1505 if players == 3 and resolved.three_player_phase_switch else resolved.target
    over, winners = expected_result(
        scorer.totals, scorer.hands_scored, target, resolved.hands, resolved.max_hands
    )
    assert over and scorer.winners == winners
    score = await stub.Score(gs.ScoreRequest(state=state))
    assert score.finished and tuple(score.winners) == winners
    assert [s.match_total for s in score.sides] == scorer.totals
    assert not moves
