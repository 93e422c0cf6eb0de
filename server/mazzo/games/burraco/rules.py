"""The Burraco engine: deal, legal moves and apply, exactly per burraco.md.

Pure functions over immutable ``State`` values. ``apply`` checks every move (each
check raises ``IllegalMove`` with the wire field and the reason) and carries out
every step that needs no decision: taking a pozzetto, unlocking one, ending the
hand, scoring it, ending the match or dealing the next hand (README §4.2).

Melds are checked directly (melds.py): a submitted meld or lay-off is reduced to a
signature and judged, never compared against a list. ``legal_moves`` lists the
moves of §3.7; for a hand of five or more cards the dead-end rule cannot bite, so
only small hands pay for the full check of each listed move.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from typing import Final

from mazzo.core.cards import code
from mazzo.core.errors import IllegalMove, InvalidArgument, NotAllowedNow
from mazzo.core.shuffle import draw_below, shuffled
from mazzo.games.burraco import events as ev
from mazzo.games.burraco.cards import BIT, DECK, WILD
from mazzo.games.burraco.melds import (
    COMBINATION,
    PULITO,
    SIGNATURES,
    Sig,
    add_card,
    interpret,
    signature,
    triples,
)
from mazzo.games.burraco.moves import (
    DISCARDS,
    DRAW,
    MELDS_BY_KEY,
    PICK_UP,
    Discard,
    Draw,
    LayOff,
    Move,
    OpenMeld,
    PickUp,
    lay_off_row,
    meld_of_key,
)
from mazzo.games.burraco.options import (
    MAX_HANDS,
    MAX_TARGET,
    PLAYER_COUNTS,
    THREE_PLAYER_SWITCH,
    Options,
)
from mazzo.games.burraco.scoring import credits, hand_scores, match_result
from mazzo.games.burraco.state import (
    NO_CARD,
    NO_SEAT,
    Meld,
    Stage,
    State,
    Table,
    new_meld,
    partner_of,
    side_mask,
    taken_mask,
)

#: Builds the hot records (the state, frequent events) from a tuple, skipping a
#: NamedTuple's ``__new__``, which is Python even in a compiled build.
_new: Final = tuple.__new__
# Hot tuples (the log, a hand, the pile) grow by concatenation, ``t + (x,)``: one copy,
# where unpacking, ``(*t, x)``, first builds a list, in Python and in mypyc's C alike
# (hence the ``noqa: RUF005``).
_BELOW_JOKER: Final = (1 << 53) - 1
_ACQUIRE: Final = Stage.ACQUIRE
_MELD: Final = Stage.MELD
_OVER: Final = Stage.OVER
HAND_SIZE: Final = 11
#: §3.1: after this many turns per seat in a row begin with PICK_UP, one must DRAW.
PICK_UP_TURNS_PER_SEAT: Final = 3
MOVE: Final = "move.burraco."
_DRAW_OR_PICK_UP: Final[tuple[Move, ...]] = (DRAW, PICK_UP)
_DRAW_ONLY: Final[tuple[Move, ...]] = (DRAW,)

# --------------------------------------------------------------------------- deal


def check_options(options: Options, players: int) -> None:
    """Reject options out of their allowed ranges (burraco.md §5)."""
    f = "options.burraco."
    if not 1 <= options.target <= MAX_TARGET:
        raise InvalidArgument(f + "target", f"target must be 1..{MAX_TARGET}")
    if not 0 <= options.hands <= MAX_HANDS:
        raise InvalidArgument(f + "hands", f"hands must be 0..{MAX_HANDS} (0: play to target)")
    if not 1 <= options.max_hands <= MAX_HANDS:
        raise InvalidArgument(f + "max_hands", f"max_hands must be 1..{MAX_HANDS}")
    if options.first_dealer is not None and not 0 <= options.first_dealer < players:
        raise InvalidArgument(f + "first_dealer", f"first_dealer must be 0..{players - 1}")


def deal(options: Options, players: int, seed: int) -> tuple[State, list[ev.Event]]:
    """A new match: the first dealer by the seed (draw 0), then the first hand."""
    if players not in PLAYER_COUNTS:
        raise InvalidArgument("players", f"Burraco is for 2, 3 or 4 players, not {players}")
    if not 0 <= seed < 2**64:
        raise InvalidArgument("seed", "seed must fit in 64 bits")
    check_options(options, players)
    dealer = draw_below(seed, 0, players) if options.first_dealer is None else options.first_dealer
    table = Table(
        options=options,
        players=players,
        seed=seed,
        counter=1,
        dealer=dealer,
        hand_number=1,
        totals=(0,) * (2 if players == 4 else players),
    )
    return deal_hand(table)


def deal_hand(table: Table) -> tuple[State, list[ev.Event]]:
    """Shuffle with the next draw and deal as §2.3 / §2.4 map it (index 0 = top)."""
    d = shuffled(DECK, table.seed, table.counter)
    n = table.players
    dealer = table.dealer
    hands: list[list[int]] = [[] for _ in range(n)]
    for j in range(HAND_SIZE * n):
        hands[(dealer + 1 + j % n) % n].append(d[j])
    up = d[HAND_SIZE * n]
    if n == 3 and table.three_pozzetti:
        pozzetti = [[d[107 - k - 3 * i] for i in range(11)] for k in range(3)]
        stock = d[34:75]
    elif n == 3:
        pozzetti = [d[107:86:-2] + d[85:78:-1], d[106:85:-2]]
        stock = d[34:79]
    else:
        pozzetti = [d[107:86:-2], d[106:85:-2]]
        stock = d[HAND_SIZE * n + 1 : 86]
    table = table._replace(counter=table.counter + 1)
    dealt = ev.HandDealt(table.hand_number, dealer, up, tuple(len(p) for p in pozzetti))
    state = State(
        table=table,
        stage=_ACQUIRE,
        to_act=(dealer + 1) % n,
        hands=tuple(tuple(sorted(h)) for h in hands),
        stock=tuple(stock),
        pile=(up,),
        melds=(),
        pozzetti=tuple(tuple(sorted(p)) for p in pozzetti),
        takers=(NO_SEAT,) * len(pozzetti),
        log=(dealt,),
    )
    return state, [dealt]


# --------------------------------------------------------------------------- legal moves


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every legal move in the stable order of §3.7."""
    stage = state.stage
    if stage is _MELD:
        return _meld_stage_moves(state)
    if stage is _ACQUIRE:
        pile = state.pile
        # The common case without the checks of pick_up_error: a pile of two or more
        # cards and no run of pick-ups at its limit.
        if len(pile) > 1 and state.pickups < PICK_UP_TURNS_PER_SEAT * state.table.players:
            return _DRAW_OR_PICK_UP
        return _DRAW_OR_PICK_UP if pick_up_error(state) is None else _DRAW_ONLY
    return ()


def _meld_stage_moves(state: State) -> tuple[Move, ...]:
    """Single-card lay-offs, then 3-card melds, then discards (§3.7)."""
    seat = state.to_act
    hand = state.hands[seat]
    size = len(hand)
    side = 0b0101 << (seat & 1) if state.table.players == 4 else side_mask(state, seat)
    forbidden = state.forbidden
    # The codes held, and those held twice (only codes below the joker matter): one
    # typed loop, which mypyc compiles to plain integer operations.
    held = twice = 0
    for c in hand:
        bit = BIT[c]
        if held & bit:
            twice |= bit
        else:
            held |= bit
    twice &= _BELOW_JOKER
    # Cards that could be discarded now; a move that keeps two cards, one of them
    # discardable, cannot hit a dead end (§3.5), so it needs no further check.
    free = size - hand.count(forbidden) if forbidden else size
    safe_one = size >= 3 and free >= 2
    safe_three = size >= 5 and free >= 4
    moves: list[Move] = []
    banned = 0
    # Melds are indexed by position on this hot path: (seat, cards, sig, accept, rank_bit).
    for i, meld in enumerate(state.melds):
        if side >> meld[0] & 1:
            banned |= meld[4]
            bits = meld[3] & held
            if bits:
                row = lay_off_row(i)
                while bits:
                    low = bits & -bits
                    bits ^= low
                    c = low.bit_length() - 1
                    if safe_one or _lay_off_error(state, seat, i, (c,)) is None:
                        moves.append(row[c])
    keys = triples(held, twice, banned)
    if safe_three:
        by_key = MELDS_BY_KEY  # a typed dict: compiled, ``get`` is a C call
        moves.extend([by_key.get(k) or meld_of_key(k) for k in keys])
    else:
        for k in keys:
            move = meld_of_key(k)
            if _meld_error(state, seat, move) is None:
                moves.append(move)
    if size >= 2:
        # Each code held once, in ascending order (the hand's order), as its lowest bit.
        bits = held & ~BIT[forbidden] if forbidden else held
        while bits:
            low = bits & -bits
            bits ^= low
            moves.append(DISCARDS[low.bit_length() - 1])
    elif discard_error(state, hand[0]) is None:
        moves.append(DISCARDS[hand[0]])
    return tuple(moves)


# --------------------------------------------------------------------------- checks


def pick_up_error(state: State) -> str | None:
    """Why PICK_UP is not legal now (§3.1), or None."""
    pile = state.pile
    if not pile:
        return "the discard pile is empty"
    n = state.table.players
    if state.pickups >= PICK_UP_TURNS_PER_SEAT * n:
        return (
            f"the last {PICK_UP_TURNS_PER_SEAT * n} turns began with PICK_UP: "
            "this turn must begin with DRAW (§3.1)"
        )
    if len(pile) == 1 and state.table.options.single_card_pile_rule:
        hand = state.hands[state.to_act]
        if hand.count(pile[0]) == len(hand):
            return (
                f"dead end: after taking the one-card pile {code(pile[0])} every card held "
                "would be that code, and none could be discarded (§3.1)"
            )
    return None


def _side_has_burraco(melds: tuple[Meld, ...], side: int, clean: bool) -> bool:
    for meld in melds:
        if (
            side >> meld.seat & 1
            and len(meld.cards) >= 7
            and (not clean or meld.interp.clean is PULITO)
        ):
            return True
    return False


def _closing_error(state: State, side: int, c: int, melds: tuple[Meld, ...]) -> str | None:
    """Why discarding ``c`` as the last card would not be a legal closing (§3.5)."""
    if WILD[c]:
        return f"closing discard {code(c)} is a wild card: a closing discard may not be wild (§3.5)"
    clean = state.table.options.closing_needs_clean
    if not _side_has_burraco(melds, side, clean):
        need = "a clean (pulito) burraco" if clean else "a burraco"
        return f"closing needs {need} on the side's melds (§3.5)"
    return None


def discard_error(state: State, c: int) -> str | None:
    """Why DISCARD of ``c`` is not legal in the MELD stage (§3.3, §3.5), or None."""
    seat = state.to_act
    hand = state.hands[seat]
    if c not in hand:
        return f"{code(c)} is not in hand"
    if c == state.forbidden:
        return (
            f"{code(c)} was the one-card pile just taken: it may not be discarded this turn (§3.1)"
        )
    if len(hand) == 1:
        side = side_mask(state, seat)
        if taken_mask(state) & side:
            return _closing_error(state, side, c, state.melds)
    return None


def _after_error(
    state: State, seat: int, hand: tuple[int, ...], melds: tuple[Meld, ...]
) -> str | None:
    """The pozzetto rule of §3.4 and the dead-end rule of §3.5 for a hand left by a
    MELD or LAY_OFF: why it is not allowed, or None."""
    side = side_mask(state, seat)
    taken = taken_mask(state) & side
    if not hand:
        if taken:
            return (
                "the side has taken its pozzetto: the hand may be emptied only by a closing "
                "discard, so a card must be kept (§3.4)"
            )
        return None
    forbidden = state.forbidden
    if len(hand) == 1:
        c = hand[0]
        if c == forbidden:
            return f"dead end: the only card left, {code(c)}, may not be discarded this turn (§3.5)"
        if taken:
            why = _closing_error(state, side, c, melds)
            if why is not None:
                return f"dead end: the last card {code(c)} could not be discarded: {why}"
        return None
    if forbidden and hand.count(forbidden) == len(hand):
        return f"dead end: only {code(forbidden)} would be left, and it may not be discarded (§3.5)"
    return None


def _removed(hand: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...] | None:
    """The hand without ``cards`` (a multiset), or None if it does not hold them all."""
    rest = list(hand)
    try:
        for c in cards:
            rest.remove(c)
    except ValueError:
        return None
    return tuple(rest)


def _missing(hand: tuple[int, ...], cards: tuple[int, ...]) -> str:
    for c in dict.fromkeys(cards):
        if cards.count(c) > hand.count(c):
            have = hand.count(c)
            return (
                f"{code(c)} is not in hand"
                if not have
                else f"not enough copies of {code(c)} in hand"
            )
    return "the cards are not in hand"


class _Checked:
    """What a checked MELD or LAY_OFF leaves behind (so ``apply`` does not redo it)."""

    __slots__ = ("hand", "meld", "melds")

    def __init__(self, hand: tuple[int, ...], melds: tuple[Meld, ...], meld: Meld) -> None:
        self.hand = hand
        self.melds = melds
        self.meld = meld


def _check_meld(state: State, seat: int, move: OpenMeld) -> _Checked | tuple[str, str]:
    field = MOVE + "meld"
    cards = move.cards
    hand = _removed(state.hands[seat], cards)
    if hand is None:
        return field + ".cards", _missing(state.hands[seat], cards)
    sig = _signature(cards)
    if isinstance(sig, str):
        return field + ".cards", sig
    interp = interpret(sig)
    if isinstance(interp, str):
        return field + ".cards", interp
    if move.kind is not None and move.kind is not sig[0]:
        return (
            field + ".kind",
            f"the cards make a {sig[0].name.lower()}, not a {move.kind.name.lower()}",
        )
    side = side_mask(state, seat)
    if sig[0] is COMBINATION:
        rank = sig[1]
        for m in state.melds:
            if side >> m.seat & 1 and m.sig[0] is COMBINATION and m.sig[1] == rank:
                return field + ".cards", (
                    "the side already has a combination of this rank: lay off on it instead "
                    "(§3.2 rule 4, art. 29)"
                )
    meld = new_meld(seat, cards, sig)
    melds = (*state.melds, meld)
    why = _after_error(state, seat, hand, melds)
    if why is not None:
        return field + ".cards", why
    return _Checked(hand, melds, meld)


def _signature(cards: tuple[int, ...]) -> Sig | str:
    """``signature`` memoised for the 3-card melds the listing offers; a client may
    send any three cards of its hand in any order, so the memo is bounded."""
    if len(cards) != 3:
        return signature(cards)
    return _triple_signature(cards)


@lru_cache(maxsize=SIGNATURES)
def _triple_signature(cards: tuple[int, ...]) -> Sig | str:
    return signature(cards)


def _meld_error(state: State, seat: int, move: OpenMeld) -> str | None:
    checked = _check_meld(state, seat, move)
    return None if isinstance(checked, _Checked) else checked[1]


def _check_lay_off(
    state: State, seat: int, meld_id: int, cards: tuple[int, ...]
) -> _Checked | tuple[str, str]:
    field = MOVE + "lay_off"
    if not 0 <= meld_id < len(state.melds):
        return field + ".meld_id", f"there is no meld {meld_id} (melds 0..{len(state.melds) - 1})"
    meld = state.melds[meld_id]
    if not side_mask(state, seat) >> meld.seat & 1:
        return (
            field + ".meld_id",
            f"meld {meld_id} belongs to another side: lay off only on your side's melds (§3.2)",
        )
    if not cards:
        return field + ".cards", "a lay-off needs at least one card"
    hand = _removed(state.hands[seat], cards)
    if hand is None:
        return field + ".cards", _missing(state.hands[seat], cards)
    sig = meld.sig
    for c in cards:
        added = add_card(sig, c)
        if isinstance(added, str):
            return field + ".cards", added
        sig = added
    interp = interpret(sig)
    if isinstance(interp, str):
        return field + ".cards", f"meld {meld_id} would not be valid: {interp}"
    grown = new_meld(meld.seat, tuple(sorted(meld.cards + cards)), sig)
    melds = (*state.melds[:meld_id], grown, *state.melds[meld_id + 1 :])
    why = _after_error(state, seat, hand, melds)
    if why is not None:
        return field + ".cards", why
    return _Checked(hand, melds, grown)


def _lay_off_error(state: State, seat: int, meld_id: int, cards: tuple[int, ...]) -> str | None:
    checked = _check_lay_off(state, seat, meld_id, cards)
    return None if isinstance(checked, _Checked) else checked[1]


def verify(state: State, move: Move) -> None:
    """Raise ``IllegalMove`` (or ``NotAllowedNow``) with the reason if ``move`` is illegal."""
    _stage_check(state, move)
    seat = state.to_act
    if isinstance(move, PickUp):
        why = pick_up_error(state)
        if why is not None:
            raise IllegalMove(MOVE + "pick_up", why)
    elif isinstance(move, Discard):
        why = discard_error(state, move.card)
        if why is not None:
            raise IllegalMove(MOVE + "discard.card", f"{move}: {why}")
    elif isinstance(move, OpenMeld):
        checked = _check_meld(state, seat, move)
        if not isinstance(checked, _Checked):
            raise IllegalMove(checked[0], f"{move}: {checked[1]}")
    elif isinstance(move, LayOff):
        checked = _check_lay_off(state, seat, move.meld_id, move.cards)
        if not isinstance(checked, _Checked):
            raise IllegalMove(checked[0], f"{move}: {checked[1]}")


def _stage_check(state: State, move: Move) -> None:
    stage = state.stage
    if stage is _OVER:
        raise NotAllowedNow("move", "the match is over")
    t = type(move)
    if t is Draw or t is PickUp:
        if stage is not _ACQUIRE:
            name = "draw" if t is Draw else "pick_up"
            raise IllegalMove(MOVE + name, f"{move}: the turn's card was already taken (§3)")
    elif t in (OpenMeld, LayOff, Discard):
        if stage is not _MELD:
            raise IllegalMove(
                MOVE + _FIELD[t], f"{move}: first draw or pick up the discard pile (§3)"
            )
    else:
        raise IllegalMove("move", f"not a Burraco move: {move!r}")


_FIELD: Final = {OpenMeld: "meld", LayOff: "lay_off", Discard: "discard"}


def is_legal(state: State, move: Move) -> bool:
    try:
        verify(state, move)
    except (IllegalMove, NotAllowedNow):
        return False
    return True


# --------------------------------------------------------------------------- apply


def apply(state: State, move: Move) -> tuple[State, list[ev.Event]]:
    """The state after ``move`` and the events it caused; raises if it is illegal."""
    stage = state.stage
    if stage is _MELD:
        if isinstance(move, Discard):
            return _discard(state, move.card)
        if isinstance(move, LayOff):
            checked = _check_lay_off(state, state.to_act, move.meld_id, move.cards)
            if not isinstance(checked, _Checked):
                raise IllegalMove(checked[0], f"{move}: {checked[1]}")
            laid = _new(ev.LaidOff, (state.to_act, move.meld_id, move.cards))
            return _melded(state, checked, laid)
        if isinstance(move, OpenMeld):
            checked = _check_meld(state, state.to_act, move)
            if not isinstance(checked, _Checked):
                raise IllegalMove(checked[0], f"{move}: {checked[1]}")
            kind = checked.meld.sig[0]
            opened = _new(ev.MeldOpened, (state.to_act, len(state.melds), move.cards, kind))
            return _melded(state, checked, opened)
    elif stage is _ACQUIRE:
        if isinstance(move, Draw):
            return _draw(state)
        if isinstance(move, PickUp):
            return _pick_up(state)
    verify(state, move)  # raises: the wrong stage, or not a Burraco move
    raise AssertionError(f"unreachable: {move!r}")  # pragma: no cover


def _draw(state: State) -> tuple[State, list[ev.Event]]:
    seat = state.to_act
    stock = state.stock
    c = stock[0]
    stock = stock[1:]
    hands = list(state.hands)
    hand = hands[seat]
    i = bisect_right(hand, c)
    hands[seat] = hand[:i] + (c,) + hand[i:]  # noqa: RUF005
    drew = _new(ev.Drew, (seat,))
    last = len(stock) == 2
    events: list[ev.Event] = [drew, ev.LastTurn(seat)] if last else [drew]
    new = _new(
        State,
        (
            state.table,
            _MELD,
            seat,
            tuple(hands),
            stock,
            state.pile,
            state.melds,
            state.pozzetti,
            state.takers,
            state.locked,
            NO_CARD,
            last,
            0,
            state.solo,
            state.log + tuple(events),
        ),
    )
    return new, events


def _pick_up(state: State) -> tuple[State, list[ev.Event]]:
    why = pick_up_error(state)
    if why is not None:
        raise IllegalMove(MOVE + "pick_up", f"pickup: {why}")
    seat = state.to_act
    pile = state.pile
    hands = list(state.hands)
    hands[seat] = tuple(sorted(hands[seat] + pile))
    forbidden = pile[0] if len(pile) == 1 and state.table.options.single_card_pile_rule else NO_CARD
    event = _new(ev.PileTaken, (seat, pile))
    new = _new(
        State,
        (
            state.table,
            _MELD,
            seat,
            tuple(hands),
            state.stock,
            (),
            state.melds,
            state.pozzetti,
            state.takers,
            state.locked,
            forbidden,
            False,
            state.pickups + 1,
            state.solo,
            state.log + (event,),  # noqa: RUF005
        ),
    )
    return new, [event]


def _melded(state: State, checked: _Checked, event: ev.Event) -> tuple[State, list[ev.Event]]:
    """A checked MELD or LAY_OFF; an emptied hand takes the pozzetto in diretta (§3.4)."""
    seat = state.to_act
    hands = list(state.hands)
    hand = checked.hand
    events: list[ev.Event] = [event]
    pozzetti, takers, solo = state.pozzetti, state.takers, state.solo
    if not hand:
        hand, pozzetti, takers, solo = _take_pozzetto(state, seat, True, events)
    hands[seat] = hand
    new = _new(
        State,
        (
            state.table,
            _MELD,
            seat,
            tuple(hands),
            state.stock,
            state.pile,
            checked.melds,
            pozzetti,
            takers,
            state.locked,
            state.forbidden,
            state.last_turn,
            state.pickups,
            solo,
            state.log + tuple(events),
        ),
    )
    return new, events


def _take_pozzetto(
    state: State, seat: int, in_diretta: bool, events: list[ev.Event]
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...], int]:
    """The first untaken pozzetto becomes ``seat``'s hand (§3.4); with 3 players in the
    18 + 11 phase, taking P1 makes him the solo player (§2.4.3)."""
    index = state.takers.index(NO_SEAT)
    hand = state.pozzetti[index]
    pozzetti = (*state.pozzetti[:index], (), *state.pozzetti[index + 1 :])
    takers = (*state.takers[:index], seat, *state.takers[index + 1 :])
    events.append(ev.PozzettoTaken(seat, index, len(hand), in_diretta))
    solo = state.solo
    if state.table.players == 3 and not state.table.three_pozzetti and index == 0:
        solo = seat
        events.append(ev.PairFormed(seat, tuple(s for s in range(3) if s != seat)))
    return hand, pozzetti, takers, solo


def _discard(state: State, c: int) -> tuple[State, list[ev.Event]]:
    seat = state.to_act
    hands = list(state.hands)
    hand = hands[seat]
    try:
        i = hand.index(c)
    except ValueError:
        raise IllegalMove(MOVE + "discard.card", f"discard {code(c)}: it is not in hand") from None
    if c == state.forbidden or len(hand) == 1:
        why = discard_error(state, c)
        if why is not None:
            raise IllegalMove(MOVE + "discard.card", f"discard {code(c)}: {why}")
    hand = hand[:i] + hand[i + 1 :]
    pile = state.pile + (c,)  # noqa: RUF005
    events: list[ev.Event] = [_new(ev.Discarded, (seat, c))]
    pozzetti, takers, solo, locked = state.pozzetti, state.takers, state.solo, state.locked
    closed = False
    if not hand:
        if taken_mask(state) & side_mask(state, seat):
            closed = True
            events.append(ev.Closed(seat))
        else:
            hand, pozzetti, takers, solo = _take_pozzetto(state, seat, False, events)
            locked |= 1 << seat
    hands[seat] = hand
    n = state.table.players
    nxt = (seat + 1) % n
    if closed or state.last_turn:
        ended = state._replace(
            stage=_ACQUIRE,
            to_act=nxt,
            hands=tuple(hands),
            pile=pile,
            pozzetti=pozzetti,
            takers=takers,
            locked=locked,
            forbidden=NO_CARD,
            last_turn=False,
            solo=solo,
        )
        return end_hand(ended, events, seat if closed else NO_SEAT)
    if locked:
        locked = _unlocked(state, locked, solo, seat, nxt, events)
    new = _new(
        State,
        (
            state.table,
            _ACQUIRE,
            nxt,
            tuple(hands),
            state.stock,
            pile,
            state.melds,
            pozzetti,
            takers,
            locked,
            NO_CARD,
            False,
            state.pickups,
            solo,
            state.log + tuple(events),
        ),
    )
    return new, events


def _unlocked(
    state: State, locked: int, solo: int, seat: int, nxt: int, events: list[ev.Event]
) -> int:
    """The locked seats once ``seat`` has discarded and ``nxt`` is to play (§3.4): a
    pozzetto is seen after the partner's discard, or, without a partner, at its owner's
    turn."""
    sides = state._replace(solo=solo)
    for other in range(state.table.players):
        if locked >> other & 1:
            partner = partner_of(sides, other)
            if partner == seat or (partner == NO_SEAT and other == nxt):
                locked &= ~(1 << other)
                events.append(ev.PozzettoUnlocked(other))
    return locked


# --------------------------------------------------------------------------- end of hand and match


def end_hand(state: State, events: list[ev.Event], closer: int) -> tuple[State, list[ev.Event]]:
    """Score the hand; end the match or deal the next hand (§3.5, §3.6, §4)."""
    table = state.table
    scores = hand_scores(state, closer)
    credited = credits(table, scores)
    totals = tuple(t + c for t, c in zip(table.totals, credited, strict=True))
    events.append(ev.HandEnded(closer, state.hands))
    events.append(ev.HandScored(scores, credited, totals))
    table = table._replace(totals=totals, last_hand=scores, last_credits=credited)
    over, winners = match_result(table, totals)
    if over:
        events.append(ev.MatchEnded(winners, totals))
        final = state._replace(
            table=table,
            stage=_OVER,
            to_act=0,
            forbidden=NO_CARD,
            last_turn=False,
            log=state.log + tuple(events),
        )
        return final, events
    if (
        table.players == 3
        and table.options.three_player_phase_switch
        and not table.three_pozzetti
        and max(totals) >= THREE_PLAYER_SWITCH
    ):
        table = table._replace(three_pozzetti=True)
        events.append(ev.PhaseChanged(True))
    table = table._replace(
        dealer=(table.dealer + 1) % table.players, hand_number=table.hand_number + 1
    )
    new, dealt = deal_hand(table)
    events.extend(dealt)
    return new, events


# --------------------------------------------------------------------------- queries


def finished(state: State) -> bool:
    """Whether the match is over."""
    return state.stage is _OVER


def winners(state: State) -> tuple[int, ...]:
    """The winning match sides once the match is over (none: a draw)."""
    if state.stage is not _OVER:
        return ()
    _, won = match_result(state.table, state.table.totals)
    return won
