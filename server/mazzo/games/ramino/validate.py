"""Checks of a state that came from outside (ramino.md §8).

A state is plain data that a client may build by hand, so nothing in it is trusted:
each of the 52 codes exactly twice across hands, stock and pile; hand sizes that fit
the turn; chips conserved, the pot equal to what was put in; the betting state equal
to what its own bid log produces when replayed from the start of the hand; turns in
the participants' order. Errors name the wire field at fault
(``state.ramino.hands[2].cards``) so the service can report a field violation.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Final

from mazzo.core.cards import code
from mazzo.core.checks import check_dealing, check_hand_number, check_seat, check_state_options
from mazzo.core.errors import IllegalMove, InvalidState
from mazzo.games.ramino import rules
from mazzo.games.ramino.cards import CODES, COPIES, IN_PACK
from mazzo.games.ramino.moves import Kind, Move
from mazzo.games.ramino.options import (
    MAX_CHIPS,
    MAX_MATCH_HANDS,
    PLAYER_COUNTS,
    check_options,
)
from mazzo.games.ramino.state import (
    NO_CARD,
    NO_SEAT,
    Bets,
    BidAction,
    HandResult,
    MatchEnd,
    Outcome,
    Phase,
    Source,
    State,
    Status,
    Table,
    buio_seat,
    di_mano,
    participants,
)

P = "state.ramino."
T = P + "table."
B = P + "bets."
DECK_SIZE: Final = 2 * len(CODES)
_BID_KINDS: Final = {
    BidAction.BUIO: Kind.BUIO,
    BidAction.NO_BUIO: Kind.NO_BUIO,
    BidAction.PASS: Kind.PASS,
    BidAction.OPEN: Kind.OPEN,
    BidAction.ACCEPT: Kind.ACCEPT,
    BidAction.RAISE: Kind.RAISE,
    BidAction.STAND: Kind.STAND,
}


def validate(state: State) -> None:
    """Raise ``InvalidState`` naming the field if ``state`` breaks an invariant (§8)."""
    table = state.table
    check_table(table)
    _check_cards(state)
    _check_chips(state)
    if state.phase is Phase.OVER:
        _check_over(state)
    else:
        _check_hand(state)
    _check_sizes(state)


# A table changes once a hand: a few new ones a second under load; 256 is four times
# the 64 matches in flight of the soak and the bench (codec.common.TABLE_ENTRIES).
@lru_cache(maxsize=256)
def check_table(table: Table) -> None:
    """The match-level fields. Memoised: they change once a hand, and a ``Table`` is an
    immutable value."""
    players = table.players
    options = table.options
    if players not in PLAYER_COUNTS:
        raise InvalidState("state.players", f"Ramino is for 2 to 6 players, not {players}")
    check_state_options(check_options, options, players, T, "ramino")
    if options.buio is None or options.match_hands is None:
        raise InvalidState(T + "options", "a state carries its options resolved")
    check_dealing(table, players, P)
    check_hand_number(table.hand_number, T + "hand_number")
    if not 0 <= table.decided_hands <= MAX_MATCH_HANDS:
        raise InvalidState(T + "decided_hands", "decided hands out of range")
    if not 0 <= table.void_streak <= MAX_MATCH_HANDS:
        raise InvalidState(T + "void_streak", "void streak out of range")
    if table.decided_hands + table.void_streak > table.hand_number:
        raise InvalidState(T + "decided_hands", "more decided and void hands than hands dealt")
    if table.last_hand is not None:
        _check_result(table.last_hand, table, T + "last_hand")


def _check_result(result: HandResult, table: Table, field: str) -> None:
    """A past hand's record: seats in range, one entry per seat, amounts that add up."""
    players = table.players
    check_seat(result.dealer, players, field + ".dealer")
    if len(result.extra_paid) != players or len(result.net) != players:
        raise InvalidState(field, "extra_paid and net need one entry per seat")
    if result.posta < 0 or result.pot < 0 or min(result.extra_paid) < 0:
        raise InvalidState(field, "chip counts are never negative")
    for i, s in enumerate(result.participants):
        check_seat(s, players, f"{field}.participants[{i}]")
    decided = result.outcome in (Outcome.CLOSED, Outcome.UNCONTESTED)
    if decided:
        check_seat(result.winner, players, field + ".winner")
    elif result.winner != NO_SEAT:
        raise InvalidState(field + ".winner", "a void hand has no winner")
    if (result.closure is not None) != (result.outcome is Outcome.CLOSED):
        raise InvalidState(field + ".closure", "a closure is shown exactly for a closed hand")
    if result.closure is not None:
        closure = result.closure
        if closure.seat != result.winner or not 1 <= closure.kind.value <= 6:
            raise InvalidState(field + ".closure", "the closure is the winner's, of a known type")
        if len(closure.cards) != 10 or not IN_PACK.issuperset(closure.cards):
            raise InvalidState(field + ".closure.cards", "a closure shows ten cards")


def _check_cards(state: State) -> None:
    """Each of the 52 codes exactly twice across hands, stock and pile (§8)."""
    players = state.table.players
    if len(state.hands) != players:
        raise InvalidState(P + "hands", f"there must be {players} hands")
    zones = [(f"{P}hands[{s}].cards", h) for s, h in enumerate(state.hands)]
    zones += [(P + "stock", state.stock), (P + "pile", state.pile)]
    seen: Counter[int] = Counter()
    for field, cards in zones:
        for c in cards:
            if c not in IN_PACK:
                raise InvalidState(field, f"card {c} is not in the Ramino pack")
            seen[c] += 1
            if seen[c] > COPIES:
                raise InvalidState(field, f"{code(c)} appears more than twice in the state")
    for s, hand in enumerate(state.hands):
        if list(hand) != sorted(hand):
            raise InvalidState(f"{P}hands[{s}].cards", "a hand lists its cards in canonical order")
    if sum(seen.values()) != DECK_SIZE:
        missing = " ".join(code(c) for c in CODES for _ in range(COPIES - seen[c]))
        raise InvalidState(P + "hands", f"cards missing from the state: {missing}")


def _check_chips(state: State) -> None:
    """Chips conserved, the pot equal to what is in it, stakes within bounds (§8, §4.3)."""
    table = state.table
    bets = state.bets
    options = table.options
    players = table.players
    for name in ("shares", "committed", "statuses"):
        if len(getattr(bets, name)) != players:
            raise InvalidState(B + name, f"{name} needs one entry per seat")
    if len(bets.balances) != players:
        raise InvalidState("state.match_score", "match_score holds one balance per seat")
    limit = players * MAX_CHIPS * MAX_MATCH_HANDS
    if any(abs(b) > limit for b in bets.balances):
        raise InvalidState("state.match_score", "a balance is out of range")
    for name in ("pot", "carry", "tax", "stake"):
        if not 0 <= getattr(bets, name) <= limit:
            raise InvalidState(B + _wire_name(name), f"{_wire_name(name)} is out of range")
    for name in ("shares", "committed"):
        for i, v in enumerate(getattr(bets, name)):
            if not 0 <= v <= limit:
                raise InvalidState(f"{B}{name}[{i}]", f"{name} out of range")
    total = players * options.starting_chips
    if sum(bets.balances) + bets.pot != total:
        raise InvalidState(
            "state.match_score", f"balances and pot must add up to {total} (players x starting)"
        )
    if sum(bets.shares) != bets.pot:
        raise InvalidState(B + "shares", "the shares of the pot must add up to the pot")
    if bets.pot != bets.carry + bets.tax + sum(bets.committed):
        raise InvalidState(B + "pot", "pot = carry_over + tax + the stakes committed (§8)")
    if bets.tax not in (0, options.dealer_tax):
        raise InvalidState(B + "tax", f"the tax is 0 or {options.dealer_tax}")
    if bets.stake > options.max_stake:
        raise InvalidState(B + "stake", f"the stake is at most max_stake ({options.max_stake})")
    for s in range(players):
        own = bets.committed[s] + (bets.tax if s == table.dealer else 0)
        if bets.committed[s] > bets.stake:
            raise InvalidState(f"{B}committed[{s}]", "nobody commits more than the stake")
        if bets.shares[s] < own:
            raise InvalidState(f"{B}shares[{s}]", "a share holds at least this hand's chips")
    if not options.allow_credit:
        for s, b in enumerate(bets.balances):
            if b < 0:
                raise InvalidState("state.match_score", f"seat {s} is in debt without credit")


def _wire_name(name: str) -> str:
    return "carry_over" if name == "carry" else name


def _check_over(state: State) -> None:
    """A finished match: the pot is empty and it ended as its record says (§4.3)."""
    table = state.table
    bets = state.bets
    limit = table.options.match_hands
    assert limit is not None
    if bets.pot or bets.stake or any(bets.committed) or bets.tax:
        raise InvalidState(B + "pot", "a finished match has paid or refunded its pot")
    end = table.end
    reached = {
        MatchEnd.DECIDED_HANDS: table.decided_hands == limit,
        MatchEnd.VOID_HANDS: table.void_streak == limit and table.decided_hands < limit,
        # Balances after the refund need not show who was short: only credit is checked.
        MatchEnd.NO_PLAYERS: not table.options.allow_credit
        and table.decided_hands < limit
        and table.void_streak < limit,
    }
    if not reached.get(end, False):
        raise InvalidState(T + "end", f"the match cannot have ended by {end.name} here (§4.3)")


def _check_hand(state: State) -> None:
    """A hand in progress: the bidding replayed from its start gives the stored betting
    state; then the turns of play follow the participants' order."""
    table = state.table
    limit = table.options.match_hands
    assert limit is not None
    if table.end is not MatchEnd.NONE:
        raise InvalidState(T + "end", "a match in progress has not ended")
    if table.decided_hands >= limit:
        raise InvalidState(T + "decided_hands", "the match would be over (match_hands)")
    if table.void_streak >= limit:
        raise InvalidState(T + "void_streak", "the match would be over (void hands, §4.3)")
    replayed = _replay_bidding(state)
    bets = state.bets
    for name in (
        "stake",
        "committed",
        "statuses",
        "last_aggressor",
        "last_actor",
        "buio_player",
        "buio_block",
    ):
        if getattr(replayed.bets, name) != getattr(bets, name):
            raise InvalidState(B + name, f"{name} is not what the bids give")
    if replayed.phase is not state.phase:
        raise InvalidState(P + "phase", f"after these bids the phase is {replayed.phase.name}")
    if state.phase is Phase.PLAY:
        _check_play(state)
    else:
        if state.to_act != replayed.to_act:
            raise InvalidState(
                "state.to_act", f"seat {replayed.to_act} is to act, not {state.to_act}"
            )
        if state.turns or state.taken is not Source.NONE or state.reshuffles:
            raise InvalidState(P + "turns", "no turn is played before the bidding ends")


def _start_of_hand(state: State) -> State:
    """The state as the hand's bidding began: chips back where they were, no bids."""
    table = state.table
    bets = state.bets
    options = table.options
    players = table.players
    dealer = table.dealer
    balances = tuple(b + bets.committed[s] for s, b in enumerate(bets.balances))
    before_tax = tuple(b + (bets.tax if s == dealer else 0) for s, b in enumerate(balances))
    out = tuple(st is Status.SITTING_OUT for st in bets.statuses)
    if any(out) and options.allow_credit:
        raise InvalidState(B + "statuses", "nobody sits out when credit is allowed (§4.3)")
    if out != rules.sitting_out(options, dealer, before_tax):
        raise InvalidState(
            B + "statuses", "sitting out must follow the balances at the hand's start (§4.3)"
        )
    if bets.tax != (options.dealer_tax if not out[dealer] else 0):
        raise InvalidState(B + "tax", "the dealer pays the tax unless he sits out (§3.1)")
    zeros = (0,) * players
    start_bets = Bets(
        balances,
        bets.carry + bets.tax,
        tuple(sh - c for sh, c in zip(bets.shares, bets.committed, strict=True)),
        bets.carry,
        bets.tax,
        0,
        zeros,
        tuple(Status.SITTING_OUT if o else Status.ACTIVE for o in out),
        NO_SEAT,
        NO_SEAT,
        NO_SEAT,
        False,
        (),
    )
    blind = buio_seat(table)
    if options.buio_on and not out[dealer] and not out[blind]:
        phase, to_act = Phase.BUIO_DECISION, blind
    else:
        phase, to_act = Phase.BIDDING, rules.first_active(start_bets.statuses, di_mano(table))
    return state._replace(
        bets=start_bets, phase=phase, to_act=to_act, turns=(), taken=Source.NONE, reshuffles=0
    )


def _replay_bidding(state: State) -> State:
    """Apply the stored bids from the start of the hand; each must be legal."""
    replay = _start_of_hand(state)
    hand_number = state.table.hand_number
    for i, bid in enumerate(state.bets.bids):
        field = f"{B}bids[{i}]"
        if replay.phase not in (Phase.BUIO_DECISION, Phase.BIDDING):
            raise InvalidState(field, "a bid after the bidding was over")
        if bid.seat != replay.to_act:
            raise InvalidState(field + ".seat", f"seat {replay.to_act} was to bid, not {bid.seat}")
        kind = _BID_KINDS.get(bid.action)
        if kind is None:
            raise InvalidState(field + ".action", "unknown bid")
        amount = bid.amount if kind in (Kind.OPEN, Kind.RAISE) else 0
        expected_amount = bid.amount
        if kind is Kind.BUIO:
            expected_amount = 2 * state.table.options.dealer_tax
        elif kind not in (Kind.OPEN, Kind.RAISE):
            expected_amount = 0
        if bid.amount != expected_amount:
            raise InvalidState(field + ".amount", f"this bid's amount is {expected_amount}")
        try:
            replay, _ = rules.apply(replay, Move(kind, amount=amount))
        except IllegalMove as e:
            raise InvalidState(field, e.reason) from e
        if replay.table.hand_number != hand_number or replay.phase is Phase.OVER:
            raise InvalidState(field, "this bid ended the hand; the state cannot follow it")
    return replay


def _check_play(state: State) -> None:
    """Turns in the participants' order, each one legal as far as the public record
    shows; the current turn consistent with what was taken (§3.4, §8)."""
    options = state.table.options
    order = participants(state)
    p = len(order)
    if p < 2:
        raise InvalidState(B + "statuses", "play needs two participants or more")
    limit = rules.PILE_TURNS_PER_PLAYER * p
    streak = 0
    for k, turn in enumerate(state.turns):
        field = f"{P}turns[{k}]"
        if turn.seat != order[k % p]:
            raise InvalidState(field + ".seat", f"turn {k} was seat {order[k % p]}'s")
        if turn.source is Source.PILE:
            streak += 1
            if streak > limit:
                raise InvalidState(field + ".source", "too many turns in a row from the pile")
            if turn.taken not in IN_PACK:
                raise InvalidState(field + ".taken", "a card taken from the pile is named")
            if turn.discard == turn.taken and not options.rediscard_taken_card:
                raise InvalidState(field + ".discard", "the card taken was discarded (§3.4.5)")
        elif turn.source is Source.STOCK:
            streak = 0
            if turn.taken != NO_CARD:
                raise InvalidState(field + ".taken", "a card drawn from the stock is not shown")
        else:
            raise InvalidState(field + ".source", "every turn takes a card")
        if turn.discard not in IN_PACK:
            raise InvalidState(field + ".discard", "a turn of a hand in play ends by a discard")
    if not 0 <= state.reshuffles <= options.max_reshuffles:
        raise InvalidState(P + "reshuffles", f"at most {options.max_reshuffles} reshuffles")
    expected = order[len(state.turns) % p]
    if state.to_act != expected:
        raise InvalidState("state.to_act", f"seat {expected} is to act, not {state.to_act}")
    taken = state.taken
    if taken is Source.NONE:
        if state.taken_card != NO_CARD:
            raise InvalidState(P + "taken_card", "nothing was taken this turn")
        if not state.stock:
            raise InvalidState(P + "stock", "a turn never starts with an empty stock (§3.4.6)")
        if not state.pile:
            raise InvalidState(P + "pile", "a turn never starts with an empty pile")
    elif taken is Source.PILE:
        if state.taken_card not in state.hands[state.to_act]:
            raise InvalidState(P + "taken_card", "the card taken from the pile is in hand")
        if streak >= limit:
            raise InvalidState(P + "taken", "too many turns in a row from the pile (§3.4.7)")
    elif state.taken_card != NO_CARD:
        raise InvalidState(P + "taken_card", "a card drawn from the stock is not named")


def _check_sizes(state: State) -> None:
    """Hand sizes (§8): ``hand_size`` each, one more for the player who has taken;
    before play, the stock and pile as dealt."""
    table = state.table
    size = table.options.hand_size
    players = table.players
    extra = NO_SEAT
    if state.phase is Phase.PLAY and state.taken is not Source.NONE:
        extra = state.to_act
    if state.phase is Phase.OVER and table.last_hand is not None:
        closure = table.last_hand.closure
        if closure is not None and closure.discard == NO_CARD:
            extra = closure.seat
    for s, hand in enumerate(state.hands):
        expected = size + (s == extra)
        if len(hand) != expected:
            raise InvalidState(
                f"{P}hands[{s}].cards", f"seat {s} must hold {expected} cards, not {len(hand)}"
            )
    if state.phase in (Phase.BUIO_DECISION, Phase.BIDDING):
        stock = DECK_SIZE - players * size - 1
        if len(state.stock) != stock:
            raise InvalidState(P + "stock", f"before play the stock holds {stock} cards")
