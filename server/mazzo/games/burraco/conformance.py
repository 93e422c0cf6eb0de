"""Burraco's conformance vectors (``conformance.generator``): its deals, positions of
seeded random play, its own refusals, what the search vectors start from, and the
tooling's sample forms."""

from __future__ import annotations

from typing import Final

from mazzo.conformance.generator import (
    Conformance,
    Form,
    Generator,
    SearchPlay,
    draw_after_the_first_move,
    one_card_more_in_the_stock,
)
from mazzo.conformance.vectors import card, deal_request, final_state
from mazzo.games.roles import deal_vectors


def vectors(gen: Generator) -> None:
    deal_vectors(
        gen,
        "burraco",
        [
            ("4p-seed-1", 4, 1, None, "Four players in two pairs, default options."),
            ("2p-seed-2", 2, 2, None, "Two players."),
            ("3p-seed-3", 3, 3, None, "Three players (18 + 11 first)."),
            (
                "4p-options",
                4,
                4,
                {"target": 1005, "semipulito": False, "closingNeedsClean": True, "firstDealer": 1},
                "Four players: target 1005, no semipulito, a clean burraco to close, dealer 1.",
            ),
        ],
    )
    for label, players, seed in [("4p-seed-1", 4, 1), ("3p-seed-3", 3, 3)]:
        play = gen.random_play(deal_request("burraco", players, seed, {"hands": 1}), seed)
        steps = [
            ("the first move", play.steps[0]),
            ("a first meld", play.first("meld_opened")),
            ("hand end: the move that ends the hand and the match", play.first("hand_scored")),
        ]
        gen.positions("burraco", label, play, steps)

    play = gen.random_play(deal_request("burraco", 4, 1, {"hands": 1}), 1)
    deal, end = play.deal, final_state(play)
    gen.common_errors("burraco", deal.state, end)
    gen.deal_errors(
        "burraco",
        [
            ("players-5", 5, None, "players", "Burraco is for 2, 3 or 4 players."),
            ("target-0", 4, {"target": 0}, "options.burraco.target", "The target is at least 1."),
            (
                "max-hands-0",
                4,
                {"maxHands": 0},
                "options.burraco.max_hands",
                "The safeguard on the number of hands is at least 1.",
            ),
            (
                "first-dealer-out-of-range",
                3,
                {"firstDealer": 3},
                "options.burraco.first_dealer",
                "The first dealer is one of the players.",
            ),
        ],
    )
    start = deal.state
    hand = start.burraco.hands[start.to_act].cards
    meld_stage = play.steps[1].state  # after the first DRAW or PICK_UP
    held = set(meld_stage.burraco.hands[meld_stage.to_act].cards)
    not_held = next(c for h in meld_stage.burraco.hands for c in h.cards if c not in held)
    gen.apply_errors(
        "burraco",
        [
            (
                "discard-before-acquiring",
                start,
                {"discard": {"card": card(hand[0])}},
                "INVALID_ARGUMENT",
                "move.burraco.discard",
                "A discard before the turn's DRAW or PICK_UP.",
            ),
            (
                "meld-before-acquiring",
                start,
                {"meld": {"cards": [card(c) for c in hand[:3]]}},
                "INVALID_ARGUMENT",
                "move.burraco.meld",
                "A meld before the turn's DRAW or PICK_UP.",
            ),
            (
                "second-draw",
                meld_stage,
                {"draw": {}},
                "INVALID_ARGUMENT",
                "move.burraco.draw",
                "A second DRAW in one turn.",
            ),
            (
                "discard-card-not-held",
                meld_stage,
                {"discard": {"card": card(not_held)}},
                "INVALID_ARGUMENT",
                "move.burraco.discard.card",
                "Discarding a card the player does not hold.",
            ),
            (
                "meld-of-two-cards",
                meld_stage,
                {
                    "meld": {
                        "cards": [
                            card(c) for c in meld_stage.burraco.hands[meld_stage.to_act].cards[:2]
                        ]
                    }
                },
                "INVALID_ARGUMENT",
                "move.burraco.meld.cards",
                "A meld needs at least three cards.",
            ),
        ],
    )


CONFORMANCE: Final = Conformance(
    vectors=vectors,
    sample_move={"draw": {}},
    bare_move={"draw": {}},
    players_field="state.players",
    # The other copy's place: where the count overflowed, in the validator's order.
    duplicate_field="state.burraco.pozzetti[0].cards",
    # A state with to_act moved to another seat is another valid position (docs/burraco.md).
    to_act_derivable=False,
    search_plays=(SearchPlay("4p-seed-1", 4, 1, {"hands": 1}),),
    mid_hand="meld_opened",
    illegal_sequence=draw_after_the_first_move("burraco"),
    no_deal=one_card_more_in_the_stock("burraco", "meld_opened"),
    sealed=(4, 3),
    committed=(4, 78),
    forms=(
        Form("4p", 4, {"hands": 1}),
        Form("3p", 3, {"hands": 1}),
        Form("2p", 2, {"hands": 1}),
    ),
)
