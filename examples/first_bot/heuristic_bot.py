#!/usr/bin/env python3
"""A Maraffa bot with one idea: take the trick with the lowest card that wins it;
when no card can, throw the weakest. Trumps: the suit it holds most of.

`mazzo match --bot "exec:python3 examples/first_bot/heuristic_bot.py"`
"""

import json
import sys

ORDER = "4567JQKA23"  # Maraffa's strength within a suit, weakest first


def strength(card: str) -> int:  # "CARD_3H" -> 9: rank letter 5, suit letter last
    return ORDER.index(card[5])


def beats(card: str, best: str, trump: str) -> bool:
    """Whether card, played now, takes the trick from its best card so far."""
    if card[-1] == best[-1]:
        return strength(card) > strength(best)
    return card[-1] == trump


def choose(request: dict) -> int:
    moves = request.get("legalMoves", [])
    view = request["view"].get("maraffa", {})
    trump = view.get("trump", "SUIT_UNSPECIFIED")[5]  # "SUIT_HEARTS" -> "H"
    plays = {}  # card -> index of its plain play (no signal)
    for i, move in enumerate(moves):
        play = move.get("maraffa", {}).get("playCard")
        if play and "signal" not in play:
            plays[play["card"]] = i
    if plays:
        best = None  # the card now taking the trick
        for card in view.get("currentTrick", {}).get("cards", []):
            if best is None or beats(card, best, trump):
                best = card
        winners = [c for c in plays if best is None or beats(c, best, trump)]
        if winners:
            return plays[min(winners, key=lambda c: (c[-1] == trump, strength(c)))]
        return plays[min(plays, key=lambda c: (c[-1] == trump, strength(c)))]
    hand = view.get("hand", [])
    trumps = {}  # suit letter -> index of the move declaring it
    for i, move in enumerate(moves):
        suit = move.get("maraffa", {}).get("declareTrump", {}).get("suit")
        if suit:
            trumps[suit[5]] = i  # "SUIT_CLUBS" -> "C"
    if trumps:  # choosing trumps: the suit it holds most of
        return trumps[max(trumps, key=lambda s: sum(c[-1] == s for c in hand))]
    safe = [i for i, m in enumerate(moves) if "claim" not in m.get("maraffa", {})]
    return safe[0] if safe else 0


for line in sys.stdin:
    print(json.dumps({"index": choose(json.loads(line))}), flush=True)
