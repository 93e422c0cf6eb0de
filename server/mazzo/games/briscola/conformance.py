"""Briscola's conformance vectors (``conformance.generator``): its deals, positions of
seeded random play, its own refusals, what the search vectors start from, and the
tooling's sample forms."""

from __future__ import annotations

from typing import Final

from mazzo.conformance.generator import (
    Conformance,
    Form,
    Generator,
    SearchPlay,
    one_card_more_in_the_stock,
)
from mazzo.conformance.vectors import Json, card, deal_request, final_state
from mazzo.games.roles import a_card_not_held, deal_vectors


def vectors(gen: Generator) -> None:
    deal_vectors(
        gen,
        "briscola",
        [
            ("2p-seed-1", 2, 1, None, "Two players, default options: one hand is the match."),
            ("default-players-seed-3", 0, 3, None, "players = 0 deals the default (2)."),
            ("3p-seed-5", 3, 5, None, "Three players: the two of clubs taken out, 13 tricks."),
            (
                "3p-without-2h",
                3,
                6,
                {"removedTwo": "CARD_2H", "firstDealer": 1},
                "Three players without the two of hearts, dealer 1.",
            ),
            (
                "4p-partners-best-of-three",
                4,
                4,
                {"partnersShowHands": True, "handsToWin": 2},
                "Four players in two pairs who see each other's cards once the stock is out; "
                "the first pair to win two hands wins.",
            ),
        ],
    )
    plays: list[tuple[str, int, int, Json]] = [
        ("2p-seed-1", 2, 1, {}),
        ("4p-partners-seed-4", 4, 4, {"partnersShowHands": True}),
    ]
    for label, players, seed, options in plays:
        play = gen.random_play(deal_request("briscola", players, seed, options), seed)
        steps = [
            ("the first card", play.steps[0]),
            ("the first trick won: the draws follow", play.first("trick_won")),
            ("the trump card taken: the stock is out", play.first("trump_card_taken")),
            ("hand end: the move that ends the hand and the match", play.first("hand_scored")),
        ]
        gen.positions("briscola", label, play, steps)

    play = gen.random_play(deal_request("briscola", 2, 1, {}), 1)
    deal, end = play.deal, final_state(play)
    gen.common_errors("briscola", deal.state, end)
    gen.deal_errors(
        "briscola",
        [
            ("players-5", 5, None, "players", "Briscola is for 2, 3 or 4 players."),
            (
                "hands-to-win-0",
                2,
                {"handsToWin": 0},
                "options.briscola.hands_to_win",
                "A match needs at least one hand won.",
            ),
            (
                "removed-card-not-a-two",
                3,
                {"removedTwo": "CARD_3C"},
                "options.briscola.removed_two",
                "Three players take a two out of the pack, not another card.",
            ),
            (
                "removed-two-with-two-players",
                2,
                {"removedTwo": "CARD_2H"},
                "options.briscola.removed_two",
                "Only three players take a card out of the pack.",
            ),
            (
                "partners-with-two-players",
                2,
                {"partnersShowHands": True},
                "options.briscola.partners_show_hands",
                "Only four players have partners.",
            ),
            (
                "first-dealer-out-of-range",
                3,
                {"firstDealer": 3},
                "options.briscola.first_dealer",
                "The first dealer is one of the players.",
            ),
        ],
    )
    start = deal.state
    held = set(start.briscola.hands[start.to_act].cards)
    not_held = next(c for h in start.briscola.hands for c in h.cards if c not in held)
    gen.apply_errors(
        "briscola",
        [
            (
                "card-not-held",
                start,
                {"playCard": {"card": card(not_held)}},
                "INVALID_ARGUMENT",
                "move.briscola.play_card.card",
                "Playing a card another seat holds.",
            ),
            (
                "card-outside-the-pack",
                start,
                {"playCard": {"card": "CARD_8S"}},
                "INVALID_ARGUMENT",
                "move.briscola.play_card.card",
                "Playing an eight, which the Italian pack does not have.",
            ),
        ],
    )


CONFORMANCE: Final = Conformance(
    vectors=vectors,
    sample_move={"playCard": {"card": "CARD_AS"}},
    # Its one action needs a card to be a move at all.
    bare_move={"playCard": {"card": "CARD_AS"}},
    players_field="state.players",
    duplicate_field="state.briscola.hands[1].cards",
    search_plays=(
        SearchPlay("2p-seed-1", 2, 1, {}),
        SearchPlay("4p-partners-seed-4", 4, 4, {"partnersShowHands": True}),
    ),
    mid_hand="trick_won",
    illegal_sequence=a_card_not_held("briscola"),
    no_deal=one_card_more_in_the_stock("briscola", "trick_won"),
    sealed=(4, 7),
    committed=(2, 79),
    forms=(
        Form("2p", 2, {}),
        Form("3p", 3, {}),
        Form("4p", 4, {"partnersShowHands": True}),
    ),
)
