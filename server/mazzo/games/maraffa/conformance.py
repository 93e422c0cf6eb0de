"""Maraffa's conformance vectors (``conformance.generator``): its deals in every form,
positions of seeded random play, its own refusals, what the search vectors start from,
and the tooling's sample forms."""

from __future__ import annotations

from typing import Final

from google.protobuf import json_format

from mazzo.conformance.generator import (
    Conformance,
    Form,
    Generator,
    NoDeal,
    SearchPlay,
)
from mazzo.conformance.vectors import Play, card, deal_request, final_state, move_json
from mazzo.games.roles import DealVector, a_card_not_held, deal_vectors
from mazzo.v1 import cards_pb2, game_pb2, game_service_pb2

DECK39 = "MARAFFA_THREE_PLAYER_FORM_DECK39"

DEALS: list[DealVector] = [
    ("4p-seed-1", 4, 1, None, "Four players, default options."),
    ("default-players-seed-3", 0, 3, None, "players = 0 deals the default (4)."),
    (
        "4p-thirds-extended-best-of-three",
        4,
        11,
        {
            "target": 31,
            "fractions": "MARAFFA_FRACTIONS_KEEP_THIRDS",
            "signals": "MARAFFA_SIGNAL_SET_EXTENDED",
            "series": "MARAFFA_SERIES_BEST_OF_THREE",
            "firstDealer": 2,
        },
        "Four players: thirds kept, extended signals, best of three, dealer 2.",
    ),
    (
        "4p-redeal-marafona-auto",
        4,
        12,
        {
            "redealWeakHand": True,
            "marafonaRule": "MARAFFA_MARAFONA_RULE_BATTEZZANTE_ONLY",
            "marafonaAutoDeclare": True,
        },
        "Four players: weak-hand redeal on, marafona for the battezzante only, auto-declared.",
    ),
    ("2p-seed-2", 2, 2, None, "Two players: hands of 10 and a stock."),
    (
        "3p-dummy-seat-0",
        3,
        5,
        {"dummySeat": 0},
        "Three players with the dummy at seat 0.",
    ),
    (
        "3p-deck39-seed-6",
        3,
        6,
        {"threePlayerForm": DECK39, "removedFour": "CARD_4H"},
        "Three players, 39 cards without the four of hearts.",
    ),
    ("5p-trionfo-seed-8", 5, 8, None, "Five players (Trionfo)."),
]


def vectors(gen: Generator) -> None:
    s = gen.service
    deal_vectors(gen, "maraffa", DEALS)
    for label, players, seed, options in [
        ("4p-seed-1", 4, 1, {"target": 21}),
        ("2p-seed-2", 2, 2, {"target": 11}),
        ("3p-dummy-seed-5", 3, 5, {"target": 11}),
        ("5p-trionfo-seed-8", 5, 8, {"matchDeals": 1}),
    ]:
        play = gen.random_play(deal_request("maraffa", players, seed, options), seed)
        first_trick = play.first("trick_won")
        hand = play.first("deal_scored" if players == 5 else "hand_scored")
        steps = [
            ("the first move", play.steps[0]),
            ("a move that ends a trick", first_trick),
            ("hand end: the last trick of a hand", hand),
            ("the move that ends the match", play.steps[-1]),
        ]
        gen.positions("maraffa", label, play, steps)

    play = gen.random_play(deal_request("maraffa", 4, 1, {"target": 21}), 1)
    deal, end = play.deal, final_state(play)
    gen.common_errors("maraffa", deal.state, end)
    in_play = play.steps[play.index(play.first("trump_declared")) + 1].state
    gen.deal_errors(
        "maraffa",
        [
            ("players-6", 6, None, "players", "Maraffa is for 2 to 5 players."),
            ("players-1", 1, None, "players", "Maraffa is for 2 to 5 players."),
            (
                "bad-dummy-seat",
                3,
                {"dummySeat": 7},
                "options.maraffa.dummy_seat",
                "The dummy must sit at one of the four seats.",
            ),
            ("target-0", 4, {"target": 0}, "options.maraffa.target", "The target is at least 1."),
            (
                "unknown-enum-value",
                4,
                {"fractions": 99},
                "options.maraffa.fractions",
                "An enum number with no meaning (proto3 JSON accepts enum numbers).",
            ),
            (
                "trionfo-batch-3",
                5,
                {"trionfoDealBatch": 3},
                "options.maraffa.trionfo_deal_batch",
                "Trionfo deals in batches of 1, 2, 4 or 8.",
            ),
            (
                "first-dealer-out-of-range",
                4,
                {"firstDealer": 4},
                "options.maraffa.first_dealer",
                "The first dealer is one of the seats.",
            ),
        ],
    )
    gen.error(
        "maraffa-deal",
        "maraffa/deal/options-of-another-game",
        "Burraco options given to a Maraffa deal.",
        "Deal",
        game_service_pb2.DealRequest(
            game="maraffa",
            players=4,
            seed=1,
            options=json_format.ParseDict({"burraco": {"target": 1005}}, game_pb2.GameOptions()),
        ),
        "INVALID_ARGUMENT",
        "options",
    )

    to_act = in_play.to_act
    not_held = next(
        c for h, hand in enumerate(in_play.maraffa.hands) if h != to_act for c in hand.cards
    )
    gen.error(
        "maraffa-apply-move",
        "maraffa/apply-move/card-not-held",
        "Playing a card the seat to act does not hold.",
        "ApplyMove",
        game_service_pb2.ApplyMoveRequest(
            state=in_play, move=move_json("maraffa", {"playCard": {"card": card(not_held)}})
        ),
        "INVALID_ARGUMENT",
        "move.maraffa.play_card.card",
    )
    first_card = card(deal.state.maraffa.hands[deal.seat].cards[0])
    gen.error(
        "maraffa-apply-move",
        "maraffa/apply-move/play-card-during-trump-phase",
        "Playing a card before the battezzante has declared trumps.",
        "ApplyMove",
        game_service_pb2.ApplyMoveRequest(
            state=deal.state, move=move_json("maraffa", {"playCard": {"card": first_card}})
        ),
        "INVALID_ARGUMENT",
        "move.maraffa.play_card",
    )
    gen.error(
        "maraffa-apply-move",
        "maraffa/apply-move/declare-trump-twice",
        "Declaring trumps when they are already declared.",
        "ApplyMove",
        game_service_pb2.ApplyMoveRequest(
            state=in_play, move=move_json("maraffa", {"declareTrump": {"suit": "SUIT_HEARTS"}})
        ),
        "INVALID_ARGUMENT",
        "move.maraffa.declare_trump",
    )
    legal = s.ok("LegalMoves", game_service_pb2.LegalMovesRequest(state=in_play)).moves
    claim = next(m for m in legal if m.maraffa.HasField("claim"))
    gen.add(
        "maraffa-apply-move",
        "maraffa/apply-move/claim",
        "A claim early in a hand (a legal move): judged at once, the claim's result in events.",
        "ApplyMove",
        game_service_pb2.ApplyMoveRequest(state=in_play, move=claim),
    )


def marafona_beside_a_top_trump(gen: Generator, play: Play) -> game_pb2.GameView:
    """A view in which another seat declared the marafona while the viewer holds one
    of its cards."""
    suits = {cards_pb2.SUIT_SPADES: "S", cards_pb2.SUIT_HEARTS: "H"}
    suits.update({cards_pb2.SUIT_DIAMONDS: "D", cards_pb2.SUIT_CLUBS: "C"})
    for step in play.steps:
        state = step.state
        if not state.maraffa.trump or state.maraffa.HasField("marafona_seat"):
            continue
        seat = gen.decider(state)
        view = gen.view_of(state, seat)
        tops = {cards_pb2.Card.Value(f"CARD_{r}{suits[view.maraffa.trump]}") for r in "A23"}
        if view.maraffa.hand and tops & set(view.maraffa.hand):
            view.maraffa.marafona_seat = (seat + 1) % state.players
            return view
    raise SystemExit("no position where the viewer holds a top trump")


def search_refusals(gen: Generator, play: Play, at: int) -> None:
    """A card the Maraffa pack lacks; a move after a false claim has ended the match."""
    state = play.steps[at].state
    view = gen.view_of(state, gen.decider(state))
    odd = game_pb2.GameView()
    odd.CopyFrom(view)
    odd.maraffa.hand[0] = cards_pb2.Card.Value("CARD_8S")
    gen.error(
        "maraffa-determinize",
        "maraffa/determinize/card-outside-the-pack",
        "A malformed view: it shows an eight, which the Maraffa pack does not have.",
        "Determinize",
        game_service_pb2.DeterminizeRequest(view=odd, count=1, seed=7),
        "INVALID_ARGUMENT",
        "view.maraffa.hand[0]",
    )
    claim = next(m for m in play.deal.legal_moves if m.maraffa.HasField("claim"))
    gen.error(
        "maraffa-apply-moves",
        "maraffa/apply-moves/move-after-the-match",
        "A false claim ends the match; the next move of the sequence has nothing to play.",
        "ApplyMoves",
        game_service_pb2.ApplyMovesRequest(state=play.deal.state, moves=[claim, claim]),
        "FAILED_PRECONDITION",
        "moves[1]",
    )


CONFORMANCE: Final = Conformance(
    vectors=vectors,
    sample_move={"playCard": {"card": "CARD_AS"}},
    bare_move={"claim": {}},
    players_field="state.players",
    duplicate_field="state.maraffa.hands[1].cards",
    search_plays=(
        SearchPlay("4p-seed-1", 4, 1, {"target": 21}),
        SearchPlay("2p-seed-2", 2, 2, {"target": 11}),
        SearchPlay("3p-dummy-seed-5", 3, 5, {"target": 11}, controlled_seat=True),
        SearchPlay(
            "3p-deck39-seed-6",
            3,
            6,
            {"threePlayerForm": DECK39, "removedFour": "CARD_4H", "target": 11},
        ),
        SearchPlay("5p-trionfo-seed-8", 5, 8, {"matchDeals": 1}),
    ),
    mid_hand="trick_won",
    illegal_sequence=a_card_not_held("maraffa"),
    no_deal=NoDeal(
        "A view in which another seat declared the marafona (the trump ace, two and "
        "three) while the viewer holds one of those cards: no deal gives it.",
        "view.maraffa.marafona_seat",
        marafona_beside_a_top_trump,
    ),
    search_refusals=search_refusals,
    sealed=(4, 7),
    committed=(4, 77),
    forms=(
        Form("4p", 4, {"target": 11}),
        Form("3p-dummy", 3, {"target": 11}),
        Form("3p-deck39", 3, {"target": 11, "threePlayerForm": DECK39}),
        Form("2p", 2, {"target": 11}),
        Form("5p-trionfo", 5, {"matchDeals": 1}),
    ),
    example=Form("4p-target-1", 4, {"target": 1}),
)
