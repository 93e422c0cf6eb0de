"""What Trionfo must refuse (maraffa-forms.md A.12): one test (or parameter) per row of
its table of inputs, and one per state invariant.

A refused move is checked three ways: ``apply`` raises ``IllegalMove`` (or
``NotAllowedNow``) naming the move field at fault and saying why, ``verify`` agrees,
and ``legal_moves`` does not list it. A move carries no seat, so "a move by a seat
other than to_act" is a state whose ``to_act`` is that seat: ``validate`` refuses it.
"""

from __future__ import annotations

import pytest

from mazzo.core.cards import card
from mazzo.core.errors import IllegalMove, InvalidArgument, InvalidState, NotAllowedNow, RulesError
from mazzo.games.maraffa import rules
from mazzo.games.maraffa.cards import cards_of, mask_of
from mazzo.games.maraffa.moves import CLAIM, REDEAL, DeclareTrump, Move, parse
from mazzo.games.maraffa.options import (
    ClaimRule,
    Fractions,
    MarafonaRule,
    Options,
    Series,
    SignalSet,
    ThreePlayerForm,
)
from mazzo.games.maraffa.trionfo import rules as trionfo
from mazzo.games.maraffa.trionfo.positions import thrown_in, trionfo_position
from mazzo.games.maraffa.trionfo.state import TPhase, TrionfoState
from mazzo.games.maraffa.trionfo.validate import validate

M = "move.maraffa."
P = "state.maraffa."
R = P + "trionfo."

# Deal 2, dealt by seat 1: seat 2 speaks first (2 -> 3 -> 4 -> 0 -> 1).
HANDS = [
    "3C 2C AC 6H 5D 4D JS 7S",
    "3H JH 2S AS KC QC 6S 4C",
    "5S 5H 4H 2D AD KD 7C 5C",
    "2H AH KH QH 7H 3D 4S 6C",
    "3S KS QS QD JD 7D 6D JC",
]


def position(played: str = "", **kw: object) -> TrionfoState:
    """The position after ``played`` (the cards played so far this deal) from HANDS."""
    gone = set(played.split())
    hands = [" ".join(c for c in hand.split() if c not in gone) for hand in HANDS]
    return trionfo_position(hands=hands, played=played, dealer=1, deal_number=2, **kw)  # type: ignore[arg-type]


AUCTION = position()
AFTER_CHIAMO = position(bids="pass chiamo")
DECLARE_CHIAMO = position(bids="pass chiamo pass pass pass")
DECLARE_MASO = position(bids="pass maso pass pass pass")
PLAYING = position(bids="pass chiamo pass pass pass", trump="H", called="3C")
MID_TRICK = position(bids="pass chiamo pass pass pass", trump="H", called="3C", played="AD")


def rejected(
    state: TrionfoState,
    move: str | Move,
    field: str,
    because: str,
    error: type[RulesError] = IllegalMove,
) -> None:
    m = parse(move) if isinstance(move, str) else move
    assert m not in trionfo.legal_moves(state)
    for call in (trionfo.verify, trionfo.apply):
        with pytest.raises(error) as caught:
            call(state, m)
        assert caught.value.field == field, caught.value
        assert because in caught.value.reason, caught.value


def accepted(state: TrionfoState, move: str) -> None:
    """The contrast: a move of the same kind the rules allow here."""
    assert parse(move) in trionfo.legal_moves(state)
    trionfo.apply(state, parse(move))


def test_the_positions_are_what_the_tests_say() -> None:
    assert AUCTION.phase is TPhase.AUCTION and AUCTION.to_act == 2
    assert AFTER_CHIAMO.to_act == 4
    assert DECLARE_CHIAMO.phase is TPhase.DECLARE and DECLARE_CHIAMO.to_act == 3
    assert PLAYING.phase is TPhase.PLAY and PLAYING.to_act == 2
    assert MID_TRICK.to_act == 3


# ------------------------------------------------------------------------- out of turn


@pytest.mark.parametrize(
    ("state", "seat", "because"),
    [
        pytest.param(AUCTION, 3, "seat 2 speaks", id="auction"),
        pytest.param(AFTER_CHIAMO, 2, "seat 4 speaks", id="a-seat-that-passed"),
        pytest.param(DECLARE_CHIAMO, 0, "seat 3 declares", id="declaration"),
        pytest.param(MID_TRICK, 4, "seat 3 is to act", id="play"),
    ],
)
def test_a_move_by_a_seat_other_than_to_act_is_out_of_turn(
    state: TrionfoState, seat: int, because: str
) -> None:
    """A.12: "any move by a seat other than to_act (including a seat that passed)"."""
    with pytest.raises(InvalidState) as caught:
        validate(state._replace(to_act=seat))
    assert caught.value.field == "state.to_act"
    assert because in caught.value.reason


# ------------------------------------------------------------------------- auction


def test_a_bid_not_above_the_highest_is_refused() -> None:
    """A.12: "BID not strictly above the current highest bid" (A.3.2)."""
    rejected(AFTER_CHIAMO, "bid chiamo", M + "bid.contract", "above CHIAMO")
    accepted(AFTER_CHIAMO, "bid di_piu")
    higher = position(bids="pass maso")
    rejected(higher, "bid di_piu", M + "bid.contract", "above MASO")
    accepted(higher, "bid maso_dei_masi")


@pytest.mark.parametrize(
    ("state", "move", "field"),
    [
        pytest.param(DECLARE_CHIAMO, "bid maso", M + "bid", id="bid-at-declaration"),
        pytest.param(DECLARE_CHIAMO, "pass", M + "pass_bid", id="pass-at-declaration"),
        pytest.param(PLAYING, "bid maso", M + "bid", id="bid-in-play"),
        pytest.param(MID_TRICK, "pass", M + "pass_bid", id="pass-in-play"),
    ],
)
def test_bids_and_passes_outside_the_auction_are_refused(
    state: TrionfoState, move: str, field: str
) -> None:
    """A.12: "BID / PASS outside AUCTION"."""
    rejected(state, move, field, "auction is over")


# ------------------------------------------------------------------------- declaration


def test_a_declaration_before_the_auction_ends_or_twice_is_refused() -> None:
    """A.12: "DECLARE_TRUMP by a non-declarer, twice, with an unknown suit"."""
    rejected(AFTER_CHIAMO, "trump H call 3C", M + "declare_trump", "auction is not over")
    rejected(PLAYING, "trump H call 3C", M + "declare_trump", "already declared")
    rejected(MID_TRICK, "trump S", M + "declare_trump", "already declared")
    rejected(DECLARE_MASO, DeclareTrump(7), M + "declare_trump.suit", "unknown suit")
    accepted(DECLARE_MASO, "trump C")


@pytest.mark.parametrize(
    ("state", "move", "because"),
    [
        pytest.param(DECLARE_CHIAMO, "trump H", "needs a called card", id="chiamo-no-card"),
        pytest.param(DECLARE_MASO, "trump H call 3C", "only under CHIAMO", id="maso-with-card"),
        pytest.param(DECLARE_CHIAMO, "trump H call 3H", "trump suit", id="trump-suit-card"),
        pytest.param(DECLARE_CHIAMO, "trump C call AC", "trump suit", id="trump-suit-ace"),
    ],
)
def test_called_card_rules(state: TrionfoState, move: str, because: str) -> None:
    """A.12: "DECLARE_TRUMP without a called card under CHIAMO, or with one under another
    contract, or calling a trump-suit card" (A.4.1). A malformed card code cannot be
    written in-process; the gRPC tests send one."""
    rejected(state, move, M + "declare_trump.called_card", because)


# ------------------------------------------------------------------------- play


def test_a_play_before_the_declaration_is_refused() -> None:
    """A.12: "PLAY_CARD before the declaration"."""
    rejected(AUCTION, "play 5S", M + "play_card", "not been declared")
    rejected(DECLARE_CHIAMO, "play 2H", M + "play_card", "not been declared")


def test_a_card_not_held_is_refused() -> None:
    """A.12: "PLAY_CARD ... not held"."""
    rejected(PLAYING, "play AS", M + "play_card.card", "not in hand")
    accepted(PLAYING, "play AD")


def test_off_suit_while_holding_the_led_suit_is_refused() -> None:
    """A.12: "off-suit while holding the led suit" (seat 3 holds 3D)."""
    rejected(MID_TRICK, "play 2H", M + "play_card.card", "must follow suit (D led)")
    accepted(MID_TRICK, "play 3D")


@pytest.mark.parametrize(
    ("move", "field"),
    [
        pytest.param("play AD marafona", M + "play_card.declare_marafona", id="marafona"),
        pytest.param(CLAIM, M + "claim", id="claim"),
        pytest.param(REDEAL, M + "request_redeal", id="redeal"),
    ],
)
def test_moves_of_the_other_forms_are_not_part_of_trionfo(move: str | Move, field: str) -> None:
    """A.12: "declare_marafona = true, CLAIM, REQUEST_REDEAL: not part of this form"."""
    rejected(PLAYING, move, field, "Trionfo")


@pytest.mark.parametrize("signal", ["busso", "striscio", "volo", "taglio", "buona"])
def test_any_signal_is_refused_while_signals_are_none(signal: str) -> None:
    """A.12: "any signal while trionfo_signals = none" (the default)."""
    rejected(PLAYING, f"play AD {signal}", M + "play_card.signal", "no signals")


def test_with_core_signals_only_the_leaders_busso_striscio_volo() -> None:
    """A.5.5: trionfo_signals = core: BUSSO / STRISCIO / VOLO by the leader only."""
    core = Options(trionfo_signals=SignalSet.CORE)
    lead = position(bids="pass chiamo pass pass pass", trump="H", called="3C", options=core)
    accepted(lead, "play AD striscio")
    rejected(lead, "play AD taglio", M + "play_card.signal", "only the leader")
    follow = position(
        bids="pass chiamo pass pass pass", trump="H", called="3C", played="AD", options=core
    )
    rejected(follow, "play 3D busso", M + "play_card.signal", "only the leader")


def test_any_move_after_the_match_is_over_is_refused() -> None:
    """A.12: "any move after the match is finished" -> NotAllowedNow (FAILED_PRECONDITION)."""
    state = position(options=Options(match_deals=2))
    for _ in range(5):
        state, _ = trionfo.apply(state, parse("pass"))
    assert state.finished
    rejected(state, "pass", "move", "match is over", NotAllowedNow)
    rejected(state, "play AD", "move", "match is over", NotAllowedNow)


# ------------------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("options", "name"),
    [
        (Options(target=31), "target"),
        (Options(fractions=Fractions.KEEP_THIRDS), "fractions"),
        (Options(marafona_rule=MarafonaRule.OFF), "marafona_rule"),
        (Options(claim_rule=ClaimRule.STRICT_ONE_THIRD), "claim_rule"),
        (Options(redeal_weak_hand=True), "redeal_weak_hand"),
        (Options(series=Series.BEST_OF_THREE), "series"),
        (Options(signals=SignalSet.NONE), "signals"),
        (Options(signals_checked=True), "signals_checked"),
        (Options(dummy_seat=1), "dummy_seat"),
        (Options(marafona_auto_declare=True), "marafona_auto_declare"),
        (Options(bella_target=31), "bella_target"),
        (Options(three_player_form=ThreePlayerForm.DECK39), "three_player_form"),
    ],
)
def test_players_5_with_an_option_of_maraffa_md_is_rejected(options: Options, name: str) -> None:
    """A.9 / A.12: "players = 5 with a maraffa.md-only option set" -> INVALID_ARGUMENT."""
    with pytest.raises(InvalidArgument) as caught:
        trionfo.deal(options, 5, seed=1)
    assert caught.value.field == f"options.maraffa.{name}"
    assert "not an option of Trionfo" in caught.value.reason


@pytest.mark.parametrize(
    ("options", "name", "because"),
    [
        (Options(trionfo_deal_batch=3), "trionfo_deal_batch", "1, 2, 4 or 8"),
        (Options(trionfo_signals=SignalSet.EXTENDED), "trionfo_signals", "none or core"),
        (Options(match_deals=0), "match_deals", "1.."),
        (Options(first_dealer=5), "first_dealer", "0..4"),
        (Options(trionfo_first_speaker_card=card("8S")), "trionfo_first_speaker_card", "pack"),
    ],
)
def test_trionfo_options_out_of_range_are_rejected(
    options: Options, name: str, because: str
) -> None:
    """A.9: the allowed values of each Trionfo option."""
    with pytest.raises(InvalidArgument) as caught:
        trionfo.deal(options, 5, seed=1)
    assert caught.value.field == f"options.maraffa.{name}"
    assert because in caught.value.reason


@pytest.mark.parametrize(
    "options",
    [
        Options(trionfo_first_speaker_card=card("4D")),
        Options(trionfo_deal_batch=1),
        Options(match_deals=1, count_thrown_in=False, trionfo_stop_when_decided=True),
        Options(signals=SignalSet.CORE, target=41),  # the defaults, written out
    ],
)
def test_trionfo_options_in_range_are_accepted(options: Options) -> None:
    state, _ = trionfo.deal(options, 5, seed=1)
    validate(state)


def test_trionfo_options_with_fewer_players_are_rejected() -> None:
    """A.9 options belong to five players; with four they are refused, not ignored."""
    with pytest.raises(InvalidArgument) as caught:
        rules.deal(Options(match_deals=3), 4, seed=1)
    assert caught.value.field == "options.maraffa.match_deals"


# ------------------------------------------------------------------------- invalid states


def with_hands(state: TrionfoState, hands: list[list[int]]) -> TrionfoState:
    return state._replace(hands=tuple(mask_of(h) for h in hands))


def refused(state: TrionfoState, field: str, because: str) -> None:
    with pytest.raises(InvalidState) as caught:
        validate(state)
    assert caught.value.field == field, caught.value
    assert because in caught.value.reason, caught.value


def test_every_card_exactly_once() -> None:
    """A.12: "The 40 codes appear exactly once across hands, the current trick and the
    captured tricks"."""
    hands = [list(cards_of(h)) for h in PLAYING.hands]
    twice = [list(h) for h in hands]
    twice[1][0] = hands[0][0]
    refused(with_hands(PLAYING, twice), P + "hands[1].cards", "more than once")
    played = MID_TRICK._replace(played=(card("3D"),))  # 3D is still in seat 3's hand
    refused(played, P + "played[0]", "more than once")


def test_an_auction_the_rules_could_not_produce_is_refused() -> None:
    """A.12: "the bid history is consistent with A.3 (strictly rising bids, no speech
    after a pass, correct to_act)"."""
    refused(AUCTION._replace(bids=(2, 1)), R + "auction[1]", "not above")
    over = DECLARE_CHIAMO._replace(phase=TPhase.AUCTION, bids=(0, 1, 0, 0, 0, 0))
    refused(over, R + "auction[5]", "already over")
    refused(DECLARE_CHIAMO._replace(phase=TPhase.AUCTION), R + "auction", "AUCTION")
    refused(AFTER_CHIAMO._replace(phase=TPhase.DECLARE), R + "auction", "needs an auction")


def test_trump_and_called_card_set_iff_declared() -> None:
    """A.12: "trump and called_card set iff phase >= PLAY; called_card present iff the
    contract is CHIAMO, and its suit != trump"."""
    refused(DECLARE_CHIAMO._replace(trump=1), P + "trump", "only once it is declared")
    refused(DECLARE_CHIAMO._replace(called_card=card("3C")), R + "called_card", "declaration")
    refused(PLAYING._replace(called_card=0), R + "called_card", "CHIAMO needs")
    refused(PLAYING._replace(called_card=card("3H")), R + "called_card", "not be a trump")
    maso = position(bids="pass maso pass pass pass", trump="H")
    refused(maso._replace(called_card=card("3C")), R + "called_card", "only under CHIAMO")
    refused(PLAYING._replace(trump=-1), P + "trump", "must be set")


def test_hand_sizes_fit_the_tricks() -> None:
    """A.12: "Hand sizes: 8 - completed_tricks, minus 1 for each seat that has already
    played to the current trick"."""
    hands = [list(cards_of(h)) for h in MID_TRICK.hands]
    hands[2].append(hands[3].pop())  # seat 2 has played to the trick, seat 3 not yet
    refused(with_hands(MID_TRICK, hands), P + "hands[2].cards", "must hold 7 cards, not 8")


def test_match_totals_sum_to_zero() -> None:
    """A.12: "Match totals are integers summing to 0" (A.7.2)."""
    table = PLAYING.table._replace(totals=(2, -1, -1, 0, 1))
    refused(PLAYING._replace(table=table), "state.match_score", "summing to 0")


def test_a_deal_that_would_already_have_ended_is_refused() -> None:
    """A.5.6: with trionfo_stop_when_decided the deal ends at the deciding trick, so a
    state still playing after it cannot arise (here MASO_DEI_MASI lost at trick 1)."""
    stop = Options(trionfo_stop_when_decided=True)
    state = position(bids="maso_dei_masi", trump="H", options=stop)
    assert state.to_act == 2 and state.table.first_speaker == 2
    # Seat 2 (declarer) leads 5S; seat 4 takes the trick with 3S.
    played = "5S 4S 3S JS 2S"
    with pytest.raises(InvalidState) as caught:
        position(bids="maso_dei_masi", trump="H", played=played, options=stop)
    assert caught.value.field == P + "played"
    assert "would have been scored" in caught.value.reason
    state = position(bids="maso_dei_masi", trump="H", played=played)  # without the option
    assert state.phase is TPhase.PLAY


def test_the_first_speaker_of_deal_1_holds_the_first_speaker_card() -> None:
    """A.2.2: in deal 1 the first speaker is the seat dealt 5S; later, next(dealer)."""
    first = trionfo_position(hands=HANDS, dealer=0)
    assert first.table.first_speaker == 2
    refused(
        first._replace(table=first.table._replace(first_speaker=3), to_act=3),
        R + "first_speaker",
        "dealt 5S",
    )
    refused(
        AUCTION._replace(table=AUCTION.table._replace(first_speaker=3)),
        R + "first_speaker",
        "next(dealer)",
    )


def test_deals_counted_fit_the_deal_number_and_match_deals() -> None:
    """A.7.1: thrown-in deals count by default: after deal 1, one deal is counted; the
    last deal is recorded with the payments its contract and outcome make (A.6.3)."""

    def with_table(**fields: object) -> TrionfoState:
        return AUCTION._replace(table=AUCTION.table._replace(**fields))

    refused(with_table(deals_counted=0), R + "deals_counted", "counted")
    paid = thrown_in(1)._replace(payments=(1, -1, 0, 0, 0))
    refused(with_table(last_deal=paid), R + "last_deal", "pays nothing")
    # DI_PIU won by seat 0 pays seat 0 eight and takes two from each other seat.
    unpaid = thrown_in(1)._replace(contract=2, declarer=0, won=True, decided_at=8)
    refused(with_table(last_deal=unpaid), R + "last_deal.payments", "A.6.3")
