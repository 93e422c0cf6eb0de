"""The Maraffa engine: deal, legal moves and apply, exactly per maraffa.md.

Pure functions over immutable ``State`` values. ``apply`` checks every move
(``verify`` raises with the reason) and carries out every step that needs no
decision: completing a trick, the draws of the 2-player form, scoring the hand,
ending the game and dealing the next hand (README §4.2).

Card plays are most of a match, so their path is written for speed: hands are bit
masks, legal-move lists are table lookups, and ``_new`` builds the state tuples
without NamedTuple's Python-level ``__new__``. Everything else is plain code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from mazzo.core.errors import IllegalMove, InvalidArgument, NotAllowedNow
from mazzo.core.shuffle import draw_below, shuffled
from mazzo.games.maraffa import events as ev
from mazzo.games.maraffa.cards import (
    BIT,
    DECK,
    FOUR_OF_COINS,
    FULL_SUIT,
    MARAFONA,
    SUIT,
    SUIT_BITS,
    SUIT_MASK,
    cards_of,
    deck_of,
    hand_thirds,
)
from mazzo.games.maraffa.moves import (
    CLAIM,
    PLAYS,
    REDEAL,
    TRUMPS,
    Bid,
    CallTrump,
    Claim,
    DeclareTrump,
    Move,
    Pass,
    PlayCard,
    RequestRedeal,
    Signal,
)
from mazzo.games.maraffa.options import (
    DECK39_ONLY,
    REMOVABLE_FOURS,
    TRIONFO_ONLY,
    MarafonaRule,
    Options,
    Series,
    SignalSet,
    changed,
    seats_for,
)
from mazzo.games.maraffa.scoring import (
    COUNT,
    LAST_TRICK,
    LAST_TRICK_THIRDS,
    TRICKS_PER_HAND,
    claim_result,
    game_winner,
    hand_scores,
    tally,
    target_units,
)
from mazzo.games.maraffa.signals import (
    CORE,
    LEADER_SIGNALS,
    enabled,
    marafona_error,
    signal_error,
)
from mazzo.games.maraffa.state import NO_SEAT, NO_SUIT, Phase, State, Table, sides_of, team_of
from mazzo.games.maraffa.tricks import WIN_KEYS

WEAK_HAND_THIRDS: Final = 4
#: Players this engine deals for; five play Trionfo (trionfo/rules.py).
ENGINE_PLAYERS: Final = (2, 3, 4)
#: The spec allows any target >= 1; a bound keeps every total (in thirds too) far
#: inside the wire's integer fields. The documented targets go up to 361.
MAX_TARGET: Final = 1_000_000
#: Final, so that compiled code reads these from C statics rather than module dicts.
_new: Final = tuple.__new__
_STATE: Final = State
_PLAY: Final = Phase.PLAY
#: ``State.won`` at the start of a hand, by number of seats.
_NOTHING_WON: Final = {seats: (0,) * sides_of(seats) for seats in (2, 3, 4)}

PlayRow = tuple[Move, ...]
SuitTable = tuple[tuple[PlayRow, ...], ...]


def _by_suit_field(plays_of: Callable[[int], PlayRow]) -> SuitTable:
    """table[suit][field]: the plays of the cards of a suit's 10-bit field, in order."""
    return tuple(
        tuple(
            tuple(
                m
                for i in range(SUIT_BITS)
                if field >> i & 1
                for m in plays_of(DECK[SUIT_BITS * suit + i])
            )
            for field in range(FULL_SUIT + 1)
        )
        for suit in range(4)
    )


def _plays(*signals: Signal) -> Callable[[int], PlayRow]:
    return lambda c: tuple(PLAYS[c][s][False] for s in signals)


def _with_claim(table: SuitTable) -> SuitTable:
    return tuple(tuple((*row, CLAIM) for row in suit) for suit in table)


# The common cases are table lookups; _legal_plays_general gives the same lists.
# Plays without signal or declaration:
_PLAIN: Final = _by_suit_field(_plays(Signal.NONE))
# A leader's plays with the core signals, unchecked: the same four for every card:
_LEAD_CORE: Final = _by_suit_field(_plays(Signal.NONE, Signal.BUSSO, Signal.STRISCIO, Signal.VOLO))
# A trump played by a follower void in a non-trump led suit may announce the cut:
_CUT: Final = _by_suit_field(_plays(Signal.NONE, Signal.TAGLIO))
# The same with CLAIM after the plays, for the last suit of a listing.
_PLAIN_CLAIM: Final = _with_claim(_PLAIN)
#: The same tables for the five-player engine (trionfo/rules.py), which has no CLAIM.
PLAIN_PLAYS: Final = _PLAIN
LEAD_CORE_PLAYS: Final = _LEAD_CORE
_LEAD_CORE_CLAIM: Final = _with_claim(_LEAD_CORE)
_CUT_CLAIM: Final = _with_claim(_CUT)


def _may_cut(options: Options, seats: int) -> bool:
    return Signal.TAGLIO in enabled(options, seats)


#: _CUT_ALLOWED[seats][signal set]: is TAGLIO in force (``_may_cut`` as a lookup)?
_CUT_ALLOWED: Final = {
    seats: {
        signal_set: _may_cut(Options(signals=signal_set), seats)
        for signal_set in (SignalSet.NONE, SignalSet.CORE, SignalSet.EXTENDED)
        if seats != 3 or signal_set is not SignalSet.EXTENDED  # refused with 39 cards
    }
    for seats in (2, 3, 4)
}


def _may_declare(options: Options, hand: int, trump: int) -> bool:
    """In trick 1: may this hand declare the marafona on some play?"""
    return (
        options.marafona_rule is not MarafonaRule.OFF and hand & MARAFONA[trump] == MARAFONA[trump]
    )


# Per trump suit: plain plays, except that trumps may carry TAGLIO.
_CUT_BY_TRUMP: Final = tuple(
    tuple(_CUT[s] if s == trump else _PLAIN[s] for s in range(4)) for trump in range(4)
)
_CUT_BY_TRUMP_CLAIM: Final = tuple(
    tuple(_CUT_CLAIM[s] if s == trump else _PLAIN_CLAIM[s] for s in range(4)) for trump in range(4)
)


def _listed_cut(hand: int, trump: int) -> tuple[Move, ...]:
    """A follower void in a non-trump led suit: any card; trumps may announce TAGLIO."""
    return _listed(_CUT_BY_TRUMP[trump], _CUT_BY_TRUMP_CLAIM[trump], hand)


def _listed(table: SuitTable, last: SuitTable, mask: int) -> tuple[Move, ...]:
    """The plays of a mask's cards from a table; ``last`` for the last suit (with CLAIM
    after its plays, or not)."""
    return (
        table[0][mask & FULL_SUIT]
        + table[1][mask >> 10 & FULL_SUIT]
        + table[2][mask >> 20 & FULL_SUIT]
        + last[3][mask >> 30]
    )


listed = _listed

# --------------------------------------------------------------------------- deal


def deal(options: Options, players: int, seed: int) -> tuple[State, list[ev.Event]]:
    """A new match: the first dealer by the seed (draw 0), then the first hand.

    For 2, 3 and 4 players; five players play Trionfo (trionfo/rules.py)."""
    if players not in ENGINE_PLAYERS:
        raise InvalidArgument(
            "players", f"this engine is for 2, 3 or 4 players, not {players} (5: trionfo/rules.py)"
        )
    if not 0 <= seed < 2**64:
        raise InvalidArgument("seed", "seed must fit in 64 bits")
    check_options(options, players)
    seats = seats_for(options, players)
    dealer = draw_below(seed, 0, seats) if options.first_dealer is None else options.first_dealer
    return _deal_hand(first_table(options, players, seed, dealer))


def first_table(options: Options, players: int, seed: int, dealer: int) -> Table:
    """A match's table before its first hand: no battezzante yet (hand 1's is found at
    the deal), game 1, nothing won; ``positions`` builds its tables from it too."""
    seats = seats_for(options, players)
    sides = sides_of(seats)
    return Table(
        options=options,
        players=players,
        seats=seats,
        seed=seed,
        counter=1,
        dealer=dealer,
        battezzante=NO_SEAT,
        hand_number=1,
        game_number=1,
        games_won=(0,) * sides,
        totals=(0,) * sides,
        effective_target=target_units(options, 1),
    )


def check_options(options: Options, players: int) -> None:
    """Reject options out of their allowed ranges (maraffa.md §5)."""
    if not 1 <= options.target <= MAX_TARGET:
        raise InvalidArgument("options.maraffa.target", f"target must be 1..{MAX_TARGET}")
    if options.bella_target is not None and not 1 <= options.bella_target <= MAX_TARGET:
        raise InvalidArgument(
            "options.maraffa.bella_target", f"bella_target must be 1..{MAX_TARGET}"
        )
    if not 0 <= options.dummy_seat <= 3:
        raise InvalidArgument("options.maraffa.dummy_seat", "dummy_seat must be 0..3")
    name = changed(options, TRIONFO_ONLY)
    if name is not None:
        raise InvalidArgument(f"options.maraffa.{name}", f"{name} is for five players only")
    if options.deck39:
        _check_deck39(options, players)
    else:
        name = changed(options, DECK39_ONLY)
        if name is not None:
            raise InvalidArgument(
                f"options.maraffa.{name}", f"{name} is for three_player_form = deck39 only"
            )
    seats = seats_for(options, players)
    if options.first_dealer is not None and not 0 <= options.first_dealer < seats:
        raise InvalidArgument(
            "options.maraffa.first_dealer", f"first_dealer must be 0..{seats - 1}"
        )


def _check_deck39(options: Options, players: int) -> None:
    """The 39-card form: three players, one Four out, no dummy, no partner to signal
    to (maraffa-forms.md B.1, B.4, B.6)."""
    f = "options.maraffa."
    if players != 3:
        raise InvalidArgument(
            f + "three_player_form", f"three_player_form = deck39 is for 3 players, not {players}"
        )
    if options.removed_four == FOUR_OF_COINS:
        raise InvalidArgument(
            f + "removed_four", "4D cannot be removed: it picks the first battezzante (B.1.1)"
        )
    if options.removed_four not in REMOVABLE_FOURS:
        raise InvalidArgument(f + "removed_four", "removed_four must be 4S, 4H or 4C")
    if options.dummy_seat != Options().dummy_seat:
        raise InvalidArgument(f + "dummy_seat", "the 39-card form has no dummy (B.6)")
    if options.signals is SignalSet.EXTENDED:
        raise InvalidArgument(f + "signals", "with 39 cards signals are none or core (B.4)")


def _deal_hand(table: Table) -> tuple[State, list[ev.Event]]:
    """Shuffle with the next draw and deal in batches of five from ``next(dealer)`` (§3.1);
    with 39 cards for three, one card at a time (maraffa-forms.md B.2.1)."""
    seats = table.seats
    options = table.options
    deck = shuffled(deck_of(seats, options.removed_four), table.seed, table.counter)
    dealer = table.dealer
    hands = [0] * seats
    if seats == 3:
        batches = 8  # the whole deck: nothing is left for a stock
        for i in range(len(deck)):
            hands[(dealer + 1 + i % 3) % 3] |= BIT[deck[i]]
    else:
        batches = 8 if seats == 4 else 4
        for b in range(batches):
            batch = 0
            for i in range(5 * b, 5 * b + 5):
                batch |= BIT[deck[i]]
            hands[(dealer + 1 + b) % seats] |= batch
    battezzante = (dealer + 1) % seats
    if table.hand_number == 1:
        # The holder of the 4 of coins; in the 2-player form it may be in the stock.
        four = BIT[FOUR_OF_COINS]
        for s in range(seats):
            if hands[s] & four:
                battezzante = s
                break
    # table._replace(counter=counter + 1, battezzante=battezzante), without its cost:
    table = _new(Table, (*table[:4], table.counter + 1, dealer, battezzante, *table[7:]))
    state = _new(
        _STATE,
        (
            table,
            Phase.TRUMP,
            battezzante,
            NO_SUIT,
            tuple(hands),
            (),
            (),
            tuple(deck[5 * batches :]),
            (),
            NO_SEAT,
            _NOTHING_WON[seats],
        ),
    )
    return state, [_new(ev.HandDealt, (table.game_number, table.hand_number, dealer, battezzante))]


# --------------------------------------------------------------------------- legal moves


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every legal move in the stable order of maraffa.md §3.3 (CLAIM last)."""
    phase = state.phase
    if phase is _PLAY:
        hand = state.hands[state.to_act]
        played = state.played
        table = state.table
        n = len(played)
        seats = table.seats
        options = table.options
        if n >= seats or not _may_declare(options, hand, state.trump):
            # No marafona declaration is possible: every common case is a table lookup.
            in_trick = n % seats
            if in_trick:
                led = SUIT[played[-in_trick]]
                follow = hand & SUIT_MASK[led]
                if follow and (not state.stock or options.two_player_must_follow):
                    return _PLAIN_CLAIM[led][follow >> (SUIT_BITS * led)]
                if not follow and led != state.trump and _CUT_ALLOWED[seats][options.signals]:
                    trump = state.trump
                    return _listed(_CUT_BY_TRUMP[trump], _CUT_BY_TRUMP_CLAIM[trump], hand)
                return _listed(_PLAIN, _PLAIN_CLAIM, hand)
            if not options.signals_checked:
                signals = enabled(options, seats)
                if signals is CORE:
                    return _listed(_LEAD_CORE, _LEAD_CORE_CLAIM, hand)
                if not signals:
                    return _listed(_PLAIN, _PLAIN_CLAIM, hand)
        return _legal_plays(state, hand)
    if phase is Phase.TRUMP:
        if _may_redeal(state):
            return (*TRUMPS, REDEAL, CLAIM)
        return (*TRUMPS, CLAIM)
    return ()


def _may_redeal(state: State) -> bool:
    table = state.table
    return (
        table.options.redeal_weak_hand
        and hand_thirds(state.hands[table.battezzante]) < WEAK_HAND_THIRDS
    )


def _led_suit(state: State) -> int:
    """The suit led in the current trick, or NO_SUIT before its first card."""
    in_trick = len(state.played) % state.table.seats
    return SUIT[state.played[-in_trick]] if in_trick else NO_SUIT


def _playable(state: State, hand: int) -> int:
    """Cards that may be played: must follow suit when able (§3.3.3, §2.3.5)."""
    led = _led_suit(state)
    if led == NO_SUIT:
        return hand
    follow = hand & SUIT_MASK[led]
    if not follow or (state.stock and not state.table.options.two_player_must_follow):
        return hand
    return follow


def _legal_plays(state: State, hand: int) -> tuple[Move, ...]:
    table = state.table
    options = table.options
    trump = state.trump
    declare = len(state.played) < table.seats and _may_declare(options, hand, trump)
    playable = _playable(state, hand)
    signals = enabled(options, table.seats)
    led = _led_suit(state)
    if declare:
        pass
    elif led == NO_SUIT:
        if not signals:
            return _listed(_PLAIN, _PLAIN_CLAIM, playable)
        if signals is CORE and not options.signals_checked:
            return _listed(_LEAD_CORE, _LEAD_CORE_CLAIM, playable)
    elif playable != hand or Signal.TAGLIO not in signals or led == trump:
        # A follower may only signal TAGLIO, and only when cutting a non-trump lead.
        return _listed(_PLAIN, _PLAIN_CLAIM, playable)
    elif not hand & SUIT_MASK[led]:
        return _listed_cut(playable, trump)
    return _legal_plays_general(state, hand, playable, signals, declare)


def _legal_plays_general(
    state: State, hand: int, playable: int, signals: frozenset[Signal], declare: bool
) -> tuple[Move, ...]:
    """Each playable card with every signal and declaration allowed on it (§3.3 order)."""
    seat = state.to_act
    auto = state.table.options.marafona_auto_declare
    candidates = LEADER_SIGNALS if _led_suit(state) == NO_SUIT else (Signal.TAGLIO,)
    moves: list[Move] = []
    for c in cards_of(playable):
        row = PLAYS[c]
        declares = declare and marafona_error(state, seat, hand, c) is None
        sigs = [Signal.NONE]
        sigs.extend(
            s for s in candidates if s in signals and signal_error(state, hand, c, s) is None
        )
        for s in sorted(sigs):
            if not declares:
                moves.append(row[s][False])
                continue
            if not auto:
                moves.append(row[s][False])
            moves.append(row[s][True])
    moves.append(CLAIM)
    return tuple(moves)


# --------------------------------------------------------------------------- apply


def verify(state: State, move: Move) -> None:
    """Raise ``IllegalMove`` (or ``NotAllowedNow``) with the reason if ``move`` is illegal."""
    phase = state.phase
    if phase is Phase.OVER:
        raise NotAllowedNow("move", "the match is over")
    if type(move) is PlayCard:
        if phase is not Phase.PLAY:
            raise IllegalMove("move.maraffa.play_card", f"{move}: trump has not been declared")
        _verify_play(state, move)
    elif type(move) is DeclareTrump:
        if phase is not Phase.TRUMP:
            raise IllegalMove("move.maraffa.declare_trump", f"{move}: trump is already declared")
        if not 0 <= move.suit < 4:
            raise IllegalMove("move.maraffa.declare_trump.suit", f"unknown suit {move.suit}")
    elif type(move) is RequestRedeal:
        if phase is not Phase.TRUMP:
            raise IllegalMove(
                "move.maraffa.request_redeal", "a redeal may be asked only before trump"
            )
        if not state.table.options.redeal_weak_hand:
            raise IllegalMove(
                "move.maraffa.request_redeal", "redeals are off in this match (redeal_weak_hand)"
            )
        if not _may_redeal(state):
            raise IllegalMove(
                "move.maraffa.request_redeal", "a redeal needs a hand worth less than 4 thirds"
            )
    elif type(move) is not Claim:
        trionfo_only = {Bid: "bid", Pass: "pass_bid", CallTrump: "declare_trump.called_card"}
        name = trionfo_only.get(type(move))
        if name is not None:
            raise IllegalMove(f"move.maraffa.{name}", f"{move}: only in Trionfo (5 players)")
        raise IllegalMove("move", f"not a Maraffa move: {move!r}")


def _verify_play(state: State, move: PlayCard) -> None:
    seat = state.to_act
    hand = state.hands[seat]
    c = move.card
    if not hand & BIT[c]:
        raise IllegalMove("move.maraffa.play_card.card", f"{move}: the card is not in hand")
    led = _led_suit(state)
    if led != NO_SUIT and SUIT[c] != led and not _playable(state, hand) & BIT[c]:
        suit = "SHDC"[led]
        raise IllegalMove("move.maraffa.play_card.card", f"{move}: must follow suit ({suit} led)")
    if move.signal:
        why = signal_error(state, hand, c, move.signal)
        if why:
            raise IllegalMove("move.maraffa.play_card.signal", f"{move}: {why}")
    if move.marafona:
        why = marafona_error(state, seat, hand, c)
        if why:
            raise IllegalMove("move.maraffa.play_card.declare_marafona", f"{move}: {why}")


def _apply_other(state: State, move: Move) -> tuple[State, list[ev.Event]]:
    """Every move but a card play in the play phase (which ``apply`` handles itself)."""
    verify(state, move)
    if type(move) is DeclareTrump:
        seat = state.to_act
        # state._replace(phase=Phase.PLAY, trump=move.suit), without its cost:
        new = _new(_STATE, (state.table, _PLAY, seat, move.suit, *state[4:]))
        return new, [_new(ev.TrumpDeclared, (seat, move.suit))]
    if type(move) is RequestRedeal:
        return _redeal(state)
    return _claim(state)


def _redeal(state: State) -> tuple[State, list[ev.Event]]:
    """Same dealer, next shuffle; the battezzante is found again (§3.2.4)."""
    table = state.table
    seat = state.to_act
    table = table._replace(redeal_requests=(*table.redeal_requests, seat))
    new, events = _deal_hand(table)
    return new, [ev.RedealRequested(seat), *events]


_TAGLIO: Final = Signal.TAGLIO
#: _ONE_CARD[c] is ``(c,)``: what a play adds to a hand's ``played``.
_ONE_CARD: Final = tuple((c,) for c in range(54))
#: _CARD_PLAYED[seat][PlayCard.key]: every CardPlayed event of seats 0-3, built
#: once: events are immutable values, so a card play allocates none.
_CARD_PLAYED: Final = tuple(
    [ev.CardPlayed(seat, c, s, m) for c in range(54) for s in Signal for m in (False, True)]
    for seat in range(4)
)
#: _TRICK_WON[trick][seat][thirds]: every TrickWon event, built once (a trick holds at
#: most four aces, 12 thirds, and the last trick adds 3).
_TRICK_WON: Final = tuple(
    tuple(tuple(ev.TrickWon(number, seat, thirds) for thirds in range(16)) for seat in range(4))
    for number in range(max(TRICKS_PER_HAND) + 1)
)
_FREE_LEAD_SIGNALS: Final = frozenset({Signal.BUSSO, Signal.STRISCIO, Signal.VOLO})
#: _FREE_LEAD[seats][signal set]: the lead signals valid on any card when signals are
#: not checked for truth: the core ones that are enabled (a lookup, not two calls).
_FREE_LEAD: Final = {
    seats: {
        signal_set: _FREE_LEAD_SIGNALS & enabled(Options(signals=signal_set), seats)
        for signal_set in (SignalSet.NONE, SignalSet.CORE, SignalSet.EXTENDED)
        if seats != 3 or signal_set is not SignalSet.EXTENDED  # refused with 39 cards
    }
    for seats in (2, 3, 4)
}


def _is_cut(state: State, hand: int, c: int, led: int) -> bool:
    """TAGLIO is true of a trump played while void in a non-trump led suit (§3.5)."""
    trump = state.trump
    return (
        led != trump
        and SUIT[c] == trump
        and not hand & SUIT_MASK[led]
        and _TAGLIO in enabled(state.table.options, state.table.seats)
    )


def apply(state: State, move: Move) -> tuple[State, list[ev.Event]]:
    """The state after ``move`` and the events it caused; raises if it is illegal.

    A card play in the play phase, most of every match, is handled right here: the
    quick checks first, the full ``verify`` only for what they leave out.
    """
    # One unpack instead of a NamedTuple attribute lookup per field (measurably cheaper).
    table, phase, seat, trump, hands_now, played, signals, stock, drawn, marafona_seat, won = state
    if type(move) is not PlayCard or phase is not _PLAY:
        return _apply_other(state, move)
    c = move.card
    hands = list(hands_now)
    hand = hands[seat]
    seats = table.seats
    n = len(played)
    in_trick = n % seats
    signal = move.signal
    if in_trick:
        led = SUIT[played[-in_trick]]
        quick = hand & BIT[c] and (
            # Following suit, or a plain discard or cut when void in the led suit.
            (SUIT[c] == led or not hand & SUIT_MASK[led])
            and (not signal or (signal is _TAGLIO and _is_cut(state, hand, c, led)))
        )
    else:
        options = table.options
        quick = hand & BIT[c] and (
            not signal
            or (signal in _FREE_LEAD[seats][options.signals] and not options.signals_checked)
        )
    marafona = move.marafona
    if not quick or marafona:
        _verify_play(state, move)  # raises, or accepts what the quick checks leave out
    if not marafona and n < seats and table.options.marafona_auto_declare:
        marafona = marafona_error(state, seat, hand, c) is None
    hands[seat] = hand ^ BIT[c]
    # Concatenation: one copy (unpacking builds a list first, compiled or not), with
    # one-item tuples made once.
    played = played + _ONE_CARD[c]
    signals = signals + (signal,)  # noqa: RUF005
    # move.key with the marafona bit set if it was declared automatically:
    events: list[ev.Event] = [_CARD_PLAYED[seat][move.key | marafona]]
    if marafona:
        marafona_seat = seat
    if in_trick < seats - 1:
        next_state = _new(
            _STATE,
            (
                table,
                _PLAY,
                (seat + 1) % seats,
                trump,
                tuple(hands),
                played,
                signals,
                stock,
                drawn,
                marafona_seat,
                won,
            ),
        )
        return next_state, events
    # The trick is complete: the winner takes it; in the 2-player form both draw (§2.3.2).
    cards = played[-seats:]
    # winning_index(cards, trump) and the trick's count (aces * 256 + third-cards),
    # inlined in one typed loop: once per trick.
    keys = WIN_KEYS[trump][SUIT[cards[0]]]
    best = first = count = 0
    for i, played_card in enumerate(cards):
        key = keys[played_card]
        if key > best:
            best, first = key, i
        count += COUNT[played_card]
    winner = (seat + 1 + first) % seats
    number = (n + 1) // seats
    last = number == (10 if seats == 4 else TRICKS_PER_HAND[seats])
    thirds = 3 * (count >> 8) + (count & 255) + (LAST_TRICK_THIRDS if last else 0)
    events.append(_TRICK_WON[number][winner][thirds])
    tallies = list(won or tally(state))
    tallies[winner if seats == 3 else winner & 1] += count + (LAST_TRICK if last else 0)
    if stock:  # two seats: the loser is 1 - winner
        hands[winner] |= BIT[stock[0]]
        hands[1 - winner] |= BIT[stock[1]]
        events.append(ev.CardDrawn(winner, stock[0]))
        events.append(ev.CardDrawn(1 - winner, stock[1]))
        drawn = drawn + stock[:2]
        stock = stock[2:]
    next_state = _new(
        _STATE,
        (
            table,
            _PLAY,
            winner,
            trump,
            tuple(hands),
            played,
            signals,
            stock,
            drawn,
            marafona_seat,
            tuple(tallies),
        ),
    )
    if last:
        return _end_hand(next_state, events)
    return next_state, events


# --------------------------------------------------------------------------- hand and game end


def _end_hand(state: State, events: list[ev.Event]) -> tuple[State, list[ev.Event]]:
    """Score the hand, then end the game or deal the next hand (§3.7, §4)."""
    table = state.table
    scores = hand_scores(state)
    totals: tuple[int, ...]
    if len(scores) == 2:
        totals = (table.totals[0] + scores[0].hand_score, table.totals[1] + scores[1].hand_score)
    else:  # three players, 39 cards
        totals = tuple(t + s.hand_score for t, s in zip(table.totals, scores, strict=True))
    events.append(ev.HandScored(scores, totals))
    target = table.effective_target
    winner = game_winner(totals, target)
    if winner is not None:
        table = table._replace(totals=totals, last_hand=scores)
        return _end_game(state._replace(table=table), winner, events)
    if max(totals) >= target:
        # A tie at the top, at or over the target: play on to one more (§4.2.2, B.3.3).
        target = max(totals) + 1
        events.append(ev.TargetRaised(target))
    # The battezzante deals the next hand (§3.7.2). Positional, as _replace is slow:
    battezzante = table.battezzante
    table = _new(
        Table,
        (
            *table[:5],  # options, players, seats, seed, counter
            battezzante,  # the new dealer
            battezzante,  # until _deal_hand finds the next one
            table.hand_number + 1,
            table.game_number,
            table.games_won,
            totals,
            target,
            (),  # redeal_requests
            scores,  # last_hand
            table.last_claim,
        ),
    )
    new, dealt = _deal_hand(table)
    events.extend(dealt)
    return new, events


def _claim(state: State) -> tuple[State, list[ev.Event]]:
    """A claim ends the game at once: won if true, lost if false (§3.6)."""
    result = claim_result(state, state.to_act)
    table = state.table._replace(last_claim=result)
    if result.valid:
        winner = result.team
    elif len(table.totals) == 2:
        winner = 1 - result.team
    else:
        winner = false_claim_winner(state, state.to_act)
    return _end_game(state._replace(table=table), winner, [ev.Claimed(result)])


def false_claim_winner(state: State, claimant: int) -> int:
    """With three players each for himself, a false claim loses the game for the
    claimant, and it goes to the opponent whose own claim would be worth more; on a
    tie, to the first of them in turn order after the claimant (docs/maraffa.md)."""
    seats = state.table.seats
    others = [(claimant + k) % seats for k in range(1, seats)]
    values = [claim_result(state, s).value for s in others]
    return others[values.index(max(values))]


def _end_game(state: State, winner: int, events: list[ev.Event]) -> tuple[State, list[ev.Event]]:
    """Count the game; the match ends, or the next game of the series is dealt (§4.3)."""
    table = state.table
    events.append(ev.GameWon(table.game_number, winner, table.totals))
    won = list(table.games_won)
    won[winner] += 1
    games_won = tuple(won)
    needed = 2 if table.options.series is Series.BEST_OF_THREE else 1
    if games_won[winner] >= needed:
        events.append(ev.MatchWon(winner, games_won))
        over = state._replace(table=table._replace(games_won=games_won), phase=Phase.OVER)
        return over, events
    game_number = table.game_number + 1
    table = table._replace(
        games_won=games_won,
        game_number=game_number,
        hand_number=1,
        totals=(0,) * len(table.totals),
        dealer=(table.dealer + 1) % table.seats,
        redeal_requests=(),
    )
    table = table._replace(effective_target=target_units(table.options, game_number))
    new, dealt = _deal_hand(table)
    events.extend(dealt)
    return new, events


# --------------------------------------------------------------------------- queries


def match_winner(state: State) -> int | None:
    """The side that won the match, once it is over."""
    if state.phase is not Phase.OVER:
        return None
    won = state.table.games_won
    return won.index(max(won))


def team(seat: int) -> int:
    return team_of(seat)
