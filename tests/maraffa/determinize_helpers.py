"""Helpers of the Determinize tests (2, 3 and 4 players), written from the rules and
the view alone: none of them calls the sampler.

``replay`` is the check that catches a forgotten constraint: it gives every played
card back to the seat that played it (and takes back what the 2-player form drew
from the stock), so a sample becomes the deal of its current hand; then it plays the
hand's public moves again, each of which must be among the legal moves, and the
result must be the sample itself, with the views along the way showing what the
view showed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations, permutations

from mazzo.core.cards import card
from mazzo.games.maraffa import rules
from mazzo.games.maraffa.cards import BIT, deck_of
from mazzo.games.maraffa.moves import CLAIM, PLAYS, REDEAL, TRUMPS, Move
from mazzo.games.maraffa.options import (
    ClaimRule,
    Fractions,
    MarafonaRule,
    Options,
    Series,
    SignalSet,
    ThreePlayerForm,
)
from mazzo.games.maraffa.scoring import tally
from mazzo.games.maraffa.state import NO_SEAT, NO_SUIT, Phase, State, sides_of
from mazzo.games.maraffa.validate import validate
from mazzo.games.maraffa.view import View, view

#: maraffa.md §2.3.3, §3.3, maraffa-forms.md B.1.3.
TRICKS_PER_HAND = {2: 20, 3: 13, 4: 10}


@dataclass(frozen=True)
class Form:
    """A form and options under test; ``name`` shows in test ids."""

    name: str
    players: int
    options: Options


def forms() -> list[Form]:
    """Every form (2, 3 with a dummy, 3 with 39 cards, 4), with every option that
    changes what is legal or what a view shows: signals and their check, every
    marafona rule with and without automatic declaration, redeals, the 2-player follow
    rule, every dummy seat, every removed Four, and low targets and series so that
    views of later hands (a blind partner in the trump phase) and finished matches
    come up."""
    return [
        Form("4p", 4, Options(target=21)),
        Form(
            "4p-extended-checked",
            4,
            Options(signals=SignalSet.EXTENDED, signals_checked=True, target=11),
        ),
        Form(
            "4p-core-checked-auto",
            4,
            Options(signals_checked=True, marafona_auto_declare=True, target=11),
        ),
        Form(
            "4p-batt-only-auto-redeal",
            4,
            Options(
                marafona_rule=MarafonaRule.BATTEZZANTE_ONLY,
                marafona_auto_declare=True,
                redeal_weak_hand=True,
                target=11,
                series=Series.BEST_OF_THREE,
            ),
        ),
        Form(
            "4p-ace-lead-auto",
            4,
            Options(
                marafona_rule=MarafonaRule.BATTEZZANTE_ACE_LEAD,
                marafona_auto_declare=True,
                signals=SignalSet.NONE,
                fractions=Fractions.KEEP_THIRDS,
                target=5,
            ),
        ),
        Form(
            "4p-off-strict",
            4,
            Options(marafona_rule=MarafonaRule.OFF, claim_rule=ClaimRule.STRICT_ONE_THIRD),
        ),
        Form("3p-dummy2", 3, Options(target=11, signals_checked=True)),
        Form("3p-dummy0-auto", 3, Options(dummy_seat=0, marafona_auto_declare=True, target=11)),
        Form("3p-dummy1-redeal", 3, Options(dummy_seat=1, redeal_weak_hand=True, target=11)),
        Form(
            "3p-dummy3-extended",
            3,
            Options(dummy_seat=3, signals=SignalSet.EXTENDED, signals_checked=True, target=11),
        ),
        Form(
            "3p-deck39",
            3,
            Options(three_player_form=ThreePlayerForm.DECK39, target=11),
        ),
        Form(
            "3p-deck39-core-checked-auto",
            3,
            Options(
                three_player_form=ThreePlayerForm.DECK39,
                signals=SignalSet.CORE,
                signals_checked=True,
                marafona_auto_declare=True,
                redeal_weak_hand=True,
                target=11,
            ),
        ),
        Form(
            "3p-deck39-4H",
            3,
            Options(
                three_player_form=ThreePlayerForm.DECK39,
                removed_four=_card("4H"),
                series=Series.BEST_OF_THREE,
                target=7,
            ),
        ),
        Form(
            "3p-deck39-4C-auto",
            3,
            Options(
                three_player_form=ThreePlayerForm.DECK39,
                removed_four=_card("4C"),
                marafona_auto_declare=True,
                target=11,
            ),
        ),
        Form("2p", 2, Options(target=21)),
        Form(
            "2p-free-auto-redeal",
            2,
            Options(
                two_player_must_follow=False,
                marafona_auto_declare=True,
                redeal_weak_hand=True,
                target=11,
            ),
        ),
        Form(
            "2p-free-batt-only",
            2,
            Options(
                two_player_must_follow=False,
                marafona_rule=MarafonaRule.BATTEZZANTE_ONLY,
                series=Series.BEST_OF_THREE,
                target=7,
            ),
        ),
    ]


def _card(text: str) -> int:
    return card(text)


def random_move(state: State, rng: random.Random) -> Move:
    """A random player: a redeal whenever offered half the time (so chains of redeals
    come up), a claim rarely (so claims end some matches), else uniform."""
    moves = rules.legal_moves(state)
    if REDEAL in moves and rng.random() < 0.5:
        return REDEAL
    if rng.random() < 0.004:
        return CLAIM
    return rng.choice([m for m in moves if m is not CLAIM])


def random_views(form: Form, rng: random.Random, wanted: int) -> Iterator[tuple[View, int]]:
    """``wanted`` views of random seats at random points of random matches of a form,
    the trump phase and the end of the match favoured (they are a move each)."""
    got = 0
    while got < wanted:
        state, _ = rules.deal(form.options, form.players, rng.randrange(2**64))
        while got < wanted:
            seats = state.table.seats
            chance = 0.5 if state.phase is not Phase.PLAY else 0.08
            if state.finished or rng.random() < chance:
                seat = rng.randrange(seats)
                yield view(state, seat), seat
                got += 1
            if state.finished:
                break
            state, _ = rules.apply(state, random_move(state, rng))


# --------------------------------------------------------------------------- the replay


def public_plays(v: View) -> list[tuple[int, int, int, int]]:
    """(seat, card, signal, trick) of every play of the hand, from the view."""
    seats = len(v.hand_sizes)
    out = []
    for k, trick in enumerate((*v.tricks, v.trick)):
        for i, c in enumerate(trick.cards):
            out.append(((trick.leader + i) % seats, c, trick.signals[i], k))
    return out


def drawer(v: View, i: int) -> int:
    """2 players: the winner of a trick draws first, the loser next (§2.3.2)."""
    winner = v.tricks[i // 2].winner
    return winner if i % 2 == 0 else 1 - winner


def hand_start(sample: State, v: View) -> tuple[State, list[Move]]:
    """The deal of the sample's current hand, and the hand's public moves."""
    table = sample.table
    seats = table.seats
    plays = public_plays(v)
    hands = list(sample.hands)
    for seat, c, _, _ in plays:
        hands[seat] |= BIT[c]
    for i, c in enumerate(sample.drawn):
        hands[drawer(v, i)] &= ~BIT[c]
    claim = sample.phase is Phase.OVER and len(plays) < seats * TRICKS_PER_HAND[seats]
    if sample.phase is Phase.OVER:
        won = list(table.games_won)
        won[won.index(max(won))] -= 1
        if claim:
            table = table._replace(games_won=tuple(won), last_claim=None)
        else:
            scores = zip(table.totals, table.last_hand, strict=True)
            totals = tuple(t - s.hand_score for t, s in scores)
            table = table._replace(games_won=tuple(won), totals=totals, last_hand=())
    start = State(
        table,
        Phase.TRUMP,
        table.battezzante,
        NO_SUIT,
        tuple(hands),
        (),
        (),
        sample.drawn + sample.stock,
        (),
        NO_SEAT,
        (0,) * sides_of(seats),
    )
    moves: list[Move] = []
    if sample.trump != NO_SUIT:
        moves.append(TRUMPS[sample.trump])
    for seat, c, signal, k in plays:
        moves.append(PLAYS[c][signal][k == 0 and seat == sample.marafona_seat])
    if claim:
        moves.append(CLAIM)
    return start, moves


def known_hand(v: View, seat: int, plays_done: int, draws_done: int) -> int:
    """The viewer's hand after ``plays_done`` plays and ``draws_done`` draws, from the
    view alone."""
    hand = sum(BIT[c] for c in v.hand)
    for k, (s, c, _, _) in enumerate(public_plays(v)):
        if s == seat and k >= plays_done:
            hand |= BIT[c]
    for i, c in enumerate(v.drawn):
        if drawer(v, i) == seat and i >= draws_done:
            hand &= ~BIT[c]
    return hand


def replay(sample: State, v: View, seat: int) -> None:
    """Raise AssertionError unless the sample's deal, replayed through the hand's public
    moves, makes each of them legal and gives back the sample (and, along the way,
    what the view showed)."""
    start, moves = hand_start(sample, v)
    validate(start)
    state = start
    plays_done = 0
    for move in moves:
        assert move in rules.legal_moves(state), (move, rules.legal_moves(state))
        state, _ = rules.apply(state, move)
        if move in TRUMPS or move is CLAIM:
            continue
        plays_done += 1
        seen = view(state, seat)
        assert seen.tricks == v.tricks[: len(seen.tricks)]
        assert seen.drawn == v.drawn[: len(seen.drawn)]
        assert seen.marafona_seat in (NO_SEAT, v.marafona_seat)
        if not v.hand_hidden and state.phase is not Phase.OVER:
            me = seat if v.dummy_seat != seat else (seat + 2) % 4
            assert sum(BIT[c] for c in seen.hand) == known_hand(v, me, plays_done, len(seen.drawn))
    assert state == sample, "the replayed hand does not end in the sample"
    assert view(state, seat) == v


# --------------------------------------------------------------------------- brute force


def hidden_places(v: View) -> tuple[list[int], list[int], set[int], dict[int, int]]:
    """What a view leaves hidden, from the rules of §7: the seats whose hands it does
    not show (plus the stock, as seat -1), how many hidden cards each takes, the
    hidden cards, and the cards known to be in a hidden hand (drawn, not played)."""
    table = v.table
    seats = table.seats
    dummy = v.dummy_seat
    me = (v.seat + 2) % 4 if dummy is not None and v.seat == dummy else v.seat
    shown = {me} if not v.hand_hidden else set()
    # The controller sees the dummy, but not while he is a blind battezzante (§3.2.3).
    blind = table.hand_number > 1 and v.phase is Phase.TRUMP and table.battezzante == me
    if dummy is not None and me == (dummy + 2) % 4 and not blind:
        shown.add(dummy)
    played = {c for _, c, _, _ in public_plays(v)}
    held: dict[int, int] = {}
    for i, c in enumerate(v.drawn):
        if c not in played:
            held[c] = drawer(v, i)
    places = [s for s in range(seats) if s not in shown]
    sizes = [v.hand_sizes[s] - sum(1 for h in held.values() if h == s) for s in places]
    if seats == 2:
        places.append(-1)
        sizes.append(v.stock_size)
    cards = set(deck_of(seats, table.options.removed_four))
    cards -= played | set(v.hand) | set(v.dummy_hand) | set(v.drawn)
    return places, sizes, cards, {c: s for c, s in held.items() if s in places}


def all_deals(v: View) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every assignment of the hidden cards to the hidden places: (hands, stock order)."""
    places, sizes, cards, held = hidden_places(v)
    seats = v.table.seats
    base = [0] * seats
    shown_hand = sum(BIT[c] for c in v.hand)
    me = (v.seat + 2) % 4 if v.dummy_seat is not None and v.seat == v.dummy_seat else v.seat
    if not v.hand_hidden:
        base[me] = shown_hand
    if v.dummy_seat is not None and v.dummy_seat not in places:
        base[v.dummy_seat] = sum(BIT[c] for c in v.dummy_hand)
    for c, s in held.items():
        base[s] |= BIT[c]

    def fill(
        i: int, left: tuple[int, ...], hands: list[int]
    ) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
        if i == len(places):
            yield tuple(hands), ()
            return
        if places[i] == -1:
            for order in permutations(left):
                yield tuple(hands), order
            return
        for chosen in combinations(left, sizes[i]):
            rest = tuple(c for c in left if c not in chosen)
            new = list(hands)
            new[places[i]] |= sum(BIT[c] for c in chosen)
            yield from fill(i + 1, rest, new)

    yield from fill(0, tuple(sorted(cards)), base)


def deal_state(v: View, hands: tuple[int, ...], stock: tuple[int, ...]) -> State:
    """A whole state with the view's public fields and the given hidden cards."""
    plays = public_plays(v)
    state = State(
        v.table._replace(seed=1, counter=1),
        v.phase,
        v.to_act,
        v.trump,
        hands,
        tuple(c for _, c, _, _ in plays),
        tuple(s for _, _, s, _ in plays),
        stock,
        v.drawn,
        v.marafona_seat,
        (),
    )
    return state._replace(won=tally(state))


def consistent(v: View, seat: int, hands: tuple[int, ...], stock: tuple[int, ...]) -> bool:
    """Does this deal of the hidden cards give the view, through legal play?"""
    state = deal_state(v, hands, stock)
    try:
        replay(state, v, seat)
    except (AssertionError, ValueError):
        return False
    return True
