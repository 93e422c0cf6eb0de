"""Test support for Burraco's sampler: seeded random play, and the replay test.

Written from the rules text and the engine's public API (``rules.apply``, ``view``,
``validate``), never from the sampler's code: a forgotten constraint in the sampler
shows up here as a sample whose hidden deal cannot have been played.

The replay test. A sample is a whole state. Its hand's start is rebuilt: every card
played (melded, laid off, discarded) returns to its player, every pile taken returns
to the pile, every pozzetto taken returns to its place, and every draw returns a card
to the top of the stock: one the player held then that is not known to have come from
the pile (which one is drawn at random here: any choice must do). Then the hand's
public moves (the history's ``Drew``, ``PileTaken``, ``MeldOpened``, ``LaidOff`` and
``Discarded``) are applied in order: each must be legal, cause exactly the events the
history shows, and the end must be the sample itself.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from mazzo.games.burraco import events as ev
from mazzo.games.burraco import rules
from mazzo.games.burraco.moves import DRAW, PICK_UP, Discard, Move, discard, lay_off, meld
from mazzo.games.burraco.options import Options
from mazzo.games.burraco.state import NO_SEAT, Stage, State, Table
from mazzo.games.burraco.view import View, view


@dataclass(frozen=True)
class Form:
    """A form of the game to play: players, the 3-player phase, options."""

    name: str
    players: int
    three_pozzetti: bool = False


FORMS = (
    Form("2 players", 2),
    Form("3 players, 18 + 11", 3),
    Form("3 players, three pozzetti", 3, three_pozzetti=True),
    Form("4 players", 4),
)


def random_options(rnd: random.Random, players: int) -> Options:
    """Every option that changes what a view shows or what a hand allows."""
    return Options(
        target=rnd.choice((300, 1005, 2005)),
        hands=rnd.choice((0, 0, 1, 2)),
        max_hands=rnd.choice((1, 2, 3)),
        semipulito=rnd.random() < 0.5,
        closing_needs_clean=rnd.random() < 0.3,
        single_card_pile_rule=rnd.random() < 0.7,
        three_player_phase_switch=True if players == 3 else rnd.random() < 0.5,
        first_dealer=rnd.choice((None, 0)),
    )


def first_state(form: Form, rnd: random.Random) -> State:
    """A match's first hand; for the three-pozzetti phase, a second hand after a total
    of 1000 (as §2.4.5 switches to it)."""
    options = random_options(rnd, form.players)
    seed = rnd.getrandbits(64)
    if not form.three_pozzetti:
        state, _ = rules.deal(options, form.players, seed)
        return state
    options = Options(
        target=options.target,
        hands=0,
        max_hands=3,
        semipulito=options.semipulito,
        closing_needs_clean=options.closing_needs_clean,
        single_card_pile_rule=options.single_card_pile_rule,
        three_player_phase_switch=True,
    )
    table = Table(
        options=options,
        players=3,
        seed=seed,
        counter=2,
        dealer=rnd.randrange(3),
        hand_number=2,
        totals=(1000, rnd.randrange(-200, 900), rnd.randrange(-200, 900)),
        three_pozzetti=True,
    )
    state, _ = rules.deal_hand(table)
    return state


def choose(state: State, rnd: random.Random, eagerness: float) -> Move:
    """A random player that melds when it can with probability ``eagerness``, so some
    hands reach pozzetti, burracos and closings."""
    moves = rules.legal_moves(state)
    if state.stage is Stage.MELD:
        building = [m for m in moves if not isinstance(m, Discard)]
        if building and rnd.random() < eagerness:
            return rnd.choice(building)
        return rnd.choice([m for m in moves if isinstance(m, Discard)])
    pick = [m for m in moves if m is PICK_UP]
    if pick and rnd.random() < 0.35:
        return PICK_UP
    return DRAW


def play(form: Form, rnd: random.Random, eagerness: float | None = None) -> list[list[State]]:
    """A whole match played at random: the states of each hand, from its deal on (the
    last state of a hand that ended the match is its finished state)."""
    state = first_state(form, rnd)
    eager = rnd.choice((0.5, 0.8, 0.97)) if eagerness is None else eagerness
    hands = [[state]]
    while not state.finished:
        state, events = rules.apply(state, choose(state, rnd, eager))
        if any(isinstance(e, ev.HandDealt) for e in events):
            hands.append([state])
        else:
            hands[-1].append(state)
    return hands


# --------------------------------------------------------------------------- the replay test


def public_moves(history: tuple[object, ...]) -> list[tuple[int, Move]]:
    """The hand's moves as its history shows them: (history index, move)."""
    out: list[tuple[int, Move]] = []
    for i, e in enumerate(history):
        match e:
            case ev.Drew():
                out.append((i, DRAW))
            case ev.PileTaken():
                out.append((i, PICK_UP))
            case ev.MeldOpened(_, _, cards, kind):
                out.append((i, meld(cards, kind)))
            case ev.LaidOff(_, meld_id, cards):
                out.append((i, lay_off(meld_id, cards)))
            case ev.Discarded(_, card):
                out.append((i, discard(card)))
    return out


def hand_start(sample: State, rnd: random.Random) -> State:
    """The state the sample's hand began in (see the module's docstring)."""
    history = sample.log
    dealt = history[0]
    assert isinstance(dealt, ev.HandDealt)
    n = sample.table.players
    # Forward: per seat, the copies known to have come from the pile (most recent last).
    from_pile: list[list[int]] = [[] for _ in range(n)]
    known_at: dict[int, Counter[int]] = {}
    for i, e in enumerate(history):
        match e:
            case ev.PileTaken(seat, cards):
                from_pile[seat].extend(cards)
            case ev.MeldOpened(seat, _, cards, _) | ev.LaidOff(seat, _, cards):
                for c in cards:
                    if c in from_pile[seat]:
                        from_pile[seat].remove(c)
            case ev.Discarded(seat, c):
                if c in from_pile[seat]:
                    from_pile[seat].remove(c)
            case ev.Drew(seat):
                known_at[i] = Counter(from_pile[seat])
    hands = [list(h) for h in sample.hands]
    stock = list(sample.stock)
    pile = list(sample.pile)
    pozzetti = [list(p) for p in sample.pozzetti]
    for i in range(len(history) - 1, 0, -1):
        match history[i]:
            case ev.MeldOpened(seat, _, cards, _) | ev.LaidOff(seat, _, cards):
                hands[seat].extend(cards)
            case ev.Discarded(seat, c):
                assert pile.pop() == c
                hands[seat].append(c)
            case ev.PileTaken(seat, cards):
                assert not pile
                pile = list(cards)
                for c in cards:
                    hands[seat].remove(c)
            case ev.Drew(seat):
                free = list((Counter(hands[seat]) - known_at[i]).elements())
                assert free, "a draw with no card to give back"
                c = rnd.choice(free)
                hands[seat].remove(c)
                stock.insert(0, c)
            case ev.PozzettoTaken(seat, index, _, _):
                pozzetti[index] = hands[seat]
                hands[seat] = []
    assert pile == [dealt.up_card]
    table = sample.table
    if sample.stage is Stage.OVER:
        scored = next(e for e in history if isinstance(e, ev.HandScored))
        totals = tuple(t - c for t, c in zip(table.totals, scored.credits, strict=True))
        table = table._replace(totals=totals, last_hand=(), last_credits=())
    return State(
        table=table,
        stage=Stage.ACQUIRE,
        to_act=(dealt.dealer + 1) % n,
        hands=tuple(tuple(sorted(h)) for h in hands),
        stock=tuple(stock),
        pile=(dealt.up_card,),
        melds=(),
        pozzetti=tuple(tuple(sorted(p)) for p in pozzetti),
        takers=(NO_SEAT,) * len(pozzetti),
        log=(dealt,),
    )


DEAL = {2: (63, (11, 11)), 4: (41, (11, 11))}


def _public(v: View) -> View:
    """A view less the viewer's own cards (his draws are not in the view, so a replay
    may give him other ones along the way) and less the hand before's scores (a
    finished match's view has the last hand's instead)."""
    return v._replace(hand=(), table=v.table._replace(last_hand=(), last_credits=()))


def replay_ok(
    sample: State, seat: int, rnd: random.Random, real: list[State] | None = None
) -> str | None:
    """Why the sample's hand could not have been played as its history shows (None if
    it could). ``real``: the states of the hand as it was played; then each replayed
    state's view for ``seat`` must agree with the real one in all that was public."""
    try:
        start = hand_start(sample, rnd)
    except (AssertionError, ValueError, IndexError, KeyError) as e:
        return f"no hand start: {e!r}"
    n = start.table.players
    sizes = [len(h) for h in start.hands]
    if sizes != [11] * n:
        return f"hand start sizes {sizes}"
    three = start.table.three_pozzetti
    stock, pozzetti = DEAL.get(n, (41, (11, 11, 11)) if three else (45, (18, 11)))
    if len(start.stock) != stock or tuple(len(p) for p in start.pozzetti) != pozzetti:
        return "stock or pozzetti sizes at the hand's start"
    state = start
    history = sample.log
    if real is not None and _public(view(real[0], seat)) != _public(view(state, seat)):
        return "the deal's view differs"
    for k, (i, move) in enumerate(public_moves(history)):
        if not rules.is_legal(state, move) or getattr(history[i], "seat", None) != state.to_act:
            return f"history[{i}] {move} is not legal in the rebuilt hand"
        state, events = rules.apply(state, move)
        if tuple(events) != history[i : i + len(events)]:
            return f"history[{i}] {move} causes {events}"
        if real is not None and _public(view(real[k + 1], seat)) != _public(view(state, seat)):
            return f"after history[{i}] the public view differs from the real one"
    if state != sample:
        return "the replay does not end in the sample"
    return None
