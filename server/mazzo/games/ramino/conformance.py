"""Ramino's conformance vectors (``conformance.generator``): its deals, positions of
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
from mazzo.conformance.vectors import Json, card, deal_request, final_state
from mazzo.games.roles import deal_vectors

#: Fields the service names that the rules would not, by label (``Generator.error``).
QUESTIONABLE = {
    "discard-before-taking": "the card is held; the discard itself comes too early "
    "(Burraco names move.burraco.discard for the same mistake)",
}


def vectors(gen: Generator) -> None:
    deal_vectors(
        gen,
        "ramino",
        [
            ("4p-seed-1", 4, 1, None, "Four players, default options."),
            ("6p-seed-6", 6, 6, None, "Six players."),
            (
                "4p-buio-tax",
                4,
                4,
                {"dealerTax": "1", "buio": True},
                "Four players with a dealer tax and the buio.",
            ),
            (
                "3p-nine-cards",
                3,
                5,
                {"handSize": 9, "minOpen": "2", "maxStake": "10", "startingChips": "50"},
                "Three players, hands of 9, openings of 2 to 10 chips, 50 chips each.",
            ),
        ],
    )
    plays: list[tuple[str, int, int, Json]] = [
        ("4p-seed-1", 4, 1, {"matchHands": 1}),
        ("4p-buio-tax-seed-6", 4, 6, {"matchHands": 1, "dealerTax": "1"}),
    ]
    for label, players, seed, options in plays:
        play = gen.random_play(deal_request("ramino", players, seed, options), seed)
        started = play.first("play_started")
        steps = [
            ("the first bid", play.steps[0]),
            ("the move that ends the bidding", started),
            ("hand end: the move that ends the hand and the match", play.first("hand_ended")),
        ]
        if any("hand_closed" in step.event_kinds() for step in play.steps):
            steps.append(("a closure", play.first("hand_closed")))
        gen.positions("ramino", label, play, steps)

    play = gen.random_play(deal_request("ramino", 4, 1, {"matchHands": 1}), 1)
    deal, end = play.deal, final_state(play)
    gen.common_errors("ramino", deal.state, end)
    gen.deal_errors(
        "ramino",
        [
            ("players-7", 7, None, "players", "Ramino is for 2 to 6 players."),
            ("hand-size-8", 4, {"handSize": 8}, "options.ramino.hand_size", "Hands of 10 or 9."),
            (
                "min-open-0",
                4,
                {"minOpen": "0"},
                "options.ramino.min_open",
                "Openings of 1 or more.",
            ),
            (
                "max-stake-below-min-open",
                4,
                {"minOpen": "3", "maxStake": "2"},
                "options.ramino.max_stake",
                "The highest stake is at least the lowest opening.",
            ),
            (
                "buio-tax-too-high",
                4,
                {"dealerTax": "3", "maxStake": "5", "buio": True},
                "options.ramino.buio",
                "With the buio on, twice the dealer tax may not exceed the highest stake.",
            ),
        ],
    )
    start = deal.state
    started = play.first("play_started")
    playing = started.response.state
    hand = playing.ramino.hands[playing.to_act].cards
    gen.apply_errors(
        "ramino",
        [
            (
                "accept-with-nothing-open",
                start,
                {"acceptBid": {}},
                "INVALID_ARGUMENT",
                "move.ramino.accept_bid",
                "ACCEPT when nobody has opened.",
            ),
            (
                "open-above-max-stake",
                start,
                {"openBid": {"amount": "6"}},
                "INVALID_ARGUMENT",
                "move.ramino.open_bid.amount",
                "An opening above max_stake (5).",
            ),
            (
                "draw-during-bidding",
                start,
                {"draw": {}},
                "INVALID_ARGUMENT",
                "move.ramino.draw",
                "A play move while the bidding is on.",
            ),
            (
                "discard-before-taking",
                playing,
                {"discard": {"card": card(hand[0])}},
                "INVALID_ARGUMENT",
                "move.ramino.discard.card",
                "A discard before the turn's DRAW or TAKE_DISCARD.",
            ),
            (
                "bid-during-play",
                playing,
                {"passBid": {}},
                "INVALID_ARGUMENT",
                "move.ramino.pass_bid",
                "A bidding move once the bidding has ended.",
            ),
        ],
        QUESTIONABLE,
    )


CONFORMANCE: Final = Conformance(
    vectors=vectors,
    sample_move={"draw": {}},
    bare_move={"draw": {}},
    players_field="state.ramino.hands",
    # The other copy's place: where the count overflowed, in the validator's order.
    duplicate_field="state.ramino.stock",
    search_plays=(SearchPlay("4p-seed-1", 4, 1, {"matchHands": 1}),),
    mid_hand="play_started",
    illegal_sequence=draw_after_the_first_move("ramino"),
    no_deal=one_card_more_in_the_stock("ramino", "play_started"),
    sealed=(4, 5),
    committed=(4, 79),
    forms=(
        Form("4p", 4, {"matchHands": 1}),
        Form("3p", 3, {"matchHands": 1}),
        Form("2p", 2, {"matchHands": 1}),
    ),
)
