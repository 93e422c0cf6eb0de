"""Moves an engine must reject — maraffa.md §8, one test (or parameter) per row.

Every rejection is checked three ways: ``rules.apply`` raises ``IllegalMove`` (or
``NotAllowedNow``), ``rules.verify`` agrees, and the move is not offered by
``rules.legal_moves``. The error must say why (``reason``) and point at the move
field at fault (``field``, a path in the ``ApplyMove`` request).

Row "any move by a seat other than to_act" cannot be written in-process (the engine
plays for ``to_act``); it is tested through gRPC in tests/service/test_errors.py.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from mazzo.core.errors import IllegalMove, NotAllowedNow, RulesError
from mazzo.games.maraffa import rules
from mazzo.games.maraffa.moves import CLAIM, DeclareTrump, Move, parse
from mazzo.games.maraffa.options import MarafonaRule, Options, SignalSet
from mazzo.games.maraffa.positions import position
from mazzo.games.maraffa.state import Phase, State

CARD = "move.maraffa.play_card.card"
SIGNAL = "move.maraffa.play_card.signal"
MARAFONA = "move.maraffa.play_card.declare_marafona"

# A 4-seat deal, trump H from the tests' choice, battezzante (and first leader) seat 0.
# Seat 0 holds the marafona of hearts (3H 2H AH) and only KS 5S in spades; seat 1 is
# void in spades; seat 2 holds the top spades.
DEAL_A = (
    "3H 2H AH KS 5S 4D 5D 2C 4C 5C",
    "4H 5H 6H AD 2D 3D 6C 7C JC QC",
    "3S 2S AS 4S 6S 7H JH 6D 7D KC",
    "7S JS QS QH KH JD QD KD AC 3C",
)
# The same, but the marafona of hearts is with seat 1 (not the battezzante).
DEAL_B = (
    "4H 5H 6H KS 5S 4D 5D 2C 4C 5C",
    "3H 2H AH AD 2D 3D 6C 7C JC QC",
    "3S 2S AS 4S 6S 7H JH 6D 7D KC",
    "7S JS QS QH KH JD QD KD AC 3C",
)
# Two players: seat 0 as in DEAL_A; seat 1 holds spades but no club; the rest is the
# stock (top first).
DEAL_2P = ("3H 2H AH KS 5S 4D 5D 2C 4C 5C", "3S 2S AS 4S 6S 7S 7H JH 6D 7D")
STOCK_2P = "4H 5H 6H AD 2D 3D 6C 7C JC QC KC JS QS QH KH JD QD KD AC 3C"

EXTENDED = Options(signals=SignalSet.EXTENDED)
CHECKED = Options(signals_checked=True)
EXTENDED_CHECKED = Options(signals=SignalSet.EXTENDED, signals_checked=True)


def table(
    played: str = "",
    *,
    deal: tuple[str, ...] = DEAL_A,
    trump: str | None = "H",
    options: Options | None = None,
    players: int = 4,
    stock: str = "",
) -> State:
    """The position after ``played`` (every card of the hand so far) from ``deal``,
    battezzante seat 0."""
    gone = set(played.split())
    hands = [" ".join(c for c in hand.split() if c not in gone) for hand in deal]
    return position(
        hands=hands,
        played=played,
        trump=trump,
        battezzante=0,
        options=options,
        players=players,
        stock=stock,
    )


def as_move(move: str | Move) -> Move:
    return parse(move) if isinstance(move, str) else move


def rejected(
    state: State, move: str | Move, field: str, because: str, error: type[RulesError] = IllegalMove
) -> RulesError:
    """Assert that the rules refuse ``move`` in ``state``, naming ``field`` and saying why."""
    m = as_move(move)
    assert m not in rules.legal_moves(state), f"{m} is listed as legal"
    with pytest.raises(error) as by_verify:
        rules.verify(state, m)
    with pytest.raises(error) as by_apply:
        rules.apply(state, m)
    for caught in (by_verify.value, by_apply.value):
        assert caught.field == field, caught
        assert because in caught.reason, caught
    return by_apply.value


def accepted(state: State, move: str | Move) -> State:
    """The contrast: a move the rules allow here (so the rejection above is specific)."""
    m = as_move(move)
    assert m in rules.legal_moves(state), f"{m} is not listed as legal"
    return rules.apply(state, m)[0]


def test_the_positions_are_what_the_tests_say() -> None:
    state = table()
    assert state.phase is Phase.PLAY and state.to_act == 0 and state.table.battezzante == 0
    assert table("KS").to_act == 1
    assert table(deal=DEAL_2P, players=2, stock=STOCK_2P).to_act == 0


# --------------------------------------------------------------------------- not held


@pytest.mark.parametrize(
    ("played", "move"),
    [
        ("", "play AS"),  # seat 0 leads a card seat 2 holds
        ("KS", "play 3S"),  # seat 1 plays a card of seat 2
        ("KS 4H", "play KS"),  # seat 2 plays a card already on the table
    ],
)
def test_play_card_not_in_hand_is_rejected_as_not_held(played: str, move: str) -> None:
    """§8: PLAY_CARD with a card not in the player's hand — not held."""
    rejected(table(played), move, CARD, "not in hand")


# --------------------------------------------------------------------------- follow suit


@pytest.mark.parametrize("move", ["play 7H", "play JH", "play KC", "play 6D"])
def test_off_suit_while_holding_the_led_suit_must_follow_suit(move: str) -> None:
    """§8 / §3.3.3: seat 2 holds spades after KS is led, so it must play a spade."""
    state = table("KS 4H")
    err = rejected(state, move, CARD, "must follow suit")
    assert "S led" in err.reason
    accepted(state, "play 3S")


def test_two_players_must_follow_suit_while_the_stock_lasts_by_default() -> None:
    """§2.3.5 (two_player_must_follow = true) and §8: must follow suit."""
    state = table("KS", deal=DEAL_2P, players=2, stock=STOCK_2P)
    assert state.stock
    rejected(state, "play 7H", CARD, "must follow suit")
    lifted = table(
        "KS",
        deal=DEAL_2P,
        players=2,
        stock=STOCK_2P,
        options=Options(two_player_must_follow=False),
    )
    accepted(lifted, "play 7H")


# --------------------------------------------------------------------------- trump phase


def test_play_card_during_the_trump_phase_is_rejected_trump_not_declared() -> None:
    """§8: PLAY_CARD during the TRUMP phase — trump not declared."""
    state = table(trump=None)
    assert state.phase is Phase.TRUMP
    rejected(state, "play KS", "move.maraffa.play_card", "trump has not been declared")


def test_declare_trump_twice_is_rejected() -> None:
    """§8: DECLARE_TRUMP twice — wrong phase."""
    state = accepted(table(trump=None), "trump H")
    rejected(state, "trump S", "move.maraffa.declare_trump", "already declared")


@pytest.mark.parametrize("played", ["", "KS", "KS 4H 3S 7S"])
def test_declare_trump_in_the_play_phase_is_rejected(played: str) -> None:
    """§8: DECLARE_TRUMP once play has begun — wrong phase."""
    rejected(table(played), "trump C", "move.maraffa.declare_trump", "already declared")


def test_declare_trump_with_an_unknown_suit_is_rejected() -> None:
    """§8: DECLARE_TRUMP with an unknown suit (only S H D C exist)."""
    rejected(table(trump=None), DeclareTrump(4), "move.maraffa.declare_trump.suit", "unknown suit")


# --------------------------------------------------------------------------- redeal

# MF-7: 3 thirds (one ace) -> weak; 4 thirds (J Q K 2) -> not weak.
WEAK = ("AS 4D 5D 6C 7C 4H 5H 6S 7S 5C", "", "", "")
NOT_WEAK = ("JS QS KD 2H 4D 5D 6C 7C 4H 5H", "", "", "")
REDEAL_ON = Options(redeal_weak_hand=True)


def test_redeal_with_the_option_off_is_not_eligible() -> None:
    """§8 / §3.2.4: REQUEST_REDEAL with redeal_weak_hand off, even with a weak hand."""
    rejected(
        table(deal=WEAK, trump=None),
        "redeal",
        "move.maraffa.request_redeal",
        "redeals are off",
    )


def test_redeal_with_a_hand_worth_four_thirds_is_not_eligible() -> None:
    """§8 / MF-7: a hand worth >= 4 thirds may not ask a redeal."""
    rejected(
        table(deal=NOT_WEAK, trump=None, options=REDEAL_ON),
        "redeal",
        "move.maraffa.request_redeal",
        "less than 4 thirds",
    )
    accepted(table(deal=WEAK, trump=None, options=REDEAL_ON), "redeal")


def test_redeal_after_trump_is_not_eligible() -> None:
    """§8: REQUEST_REDEAL after trump, by a battezzante who could have asked before."""
    before = table(deal=WEAK, trump=None, options=REDEAL_ON)
    assert parse("redeal") in rules.legal_moves(before)
    after = accepted(before, "trump S")
    rejected(after, "redeal", "move.maraffa.request_redeal", "only before trump")


# --------------------------------------------------------------------------- marafona


def test_marafona_without_holding_three_two_ace_of_trumps_is_rejected() -> None:
    """§8 / MF-10: a trick-1 play declaring the marafona without 3, 2, A of trumps."""
    state = table("KS")  # seat 1 holds 4H 5H 6H only
    rejected(state, "play 4H marafona", MARAFONA, "3, 2 and A of trumps")
    # The same seat holding 3H 2H AH (DEAL_B) may declare on the same trick.
    accepted(table("KS", deal=DEAL_B), "play AH marafona")


def test_marafona_after_trick_one_is_rejected() -> None:
    """§8 / MF-10: the holder declaring on a trick-2 play is too late."""
    state = table("KS 6C 4S 7S")  # seat 0 wins with KS and leads trick 2
    assert state.to_act == 0
    rejected(state, "play AH marafona", MARAFONA, "only during trick 1")
    accepted(state, "play AH")


def test_marafona_by_a_non_battezzante_under_battezzante_only_is_rejected() -> None:
    """§8 / §3.4 battezzante_only: seat 1 holds 3H 2H AH but is not the battezzante."""
    only = Options(marafona_rule=MarafonaRule.BATTEZZANTE_ONLY)
    rejected(table("KS", deal=DEAL_B, options=only), "play AH marafona", MARAFONA, "battezzante")
    accepted(table(options=only), "play AH marafona")


@pytest.mark.parametrize("lead", ["play 3H marafona", "play 2H marafona"])
def test_marafona_not_by_leading_the_trump_ace_under_battezzante_ace_lead_is_rejected(
    lead: str,
) -> None:
    """§8 / MF-10 battezzante_ace_lead: the ace of trumps must be the lead."""
    ace_lead = Options(marafona_rule=MarafonaRule.BATTEZZANTE_ACE_LEAD)
    state = table(options=ace_lead)
    rejected(state, lead, MARAFONA, "leading the ace of trumps")
    accepted(state, "play AH marafona")


def test_marafona_by_a_follower_under_battezzante_ace_lead_is_rejected() -> None:
    """§8 / §3.4 battezzante_ace_lead: only the battezzante, only by leading."""
    ace_lead = Options(marafona_rule=MarafonaRule.BATTEZZANTE_ACE_LEAD)
    state = table("KS", deal=DEAL_B, options=ace_lead)
    rejected(state, "play AH marafona", MARAFONA, "battezzante")


def test_marafona_with_the_rule_off_is_rejected() -> None:
    """§8 / §3.4.3: with marafona_rule = off the flag is never valid."""
    state = table(options=Options(marafona_rule=MarafonaRule.OFF))
    rejected(state, "play AH marafona", MARAFONA, "marafona is off")
    accepted(state, "play AH")


# --------------------------------------------------------------------------- signals


@pytest.mark.parametrize(
    ("options", "played", "move"),
    [
        pytest.param(Options(signals=SignalSet.NONE), "", "play KS busso", id="none-busso"),
        pytest.param(Options(signals=SignalSet.NONE), "KS", "play 4H taglio", id="none-taglio"),
        pytest.param(Options(), "", "play KS taglia", id="core-taglia"),
        pytest.param(Options(), "", "play KS ristriscio", id="core-ristriscio"),
        pytest.param(Options(), "", "play KS buona", id="core-buona"),
        pytest.param(Options(), "", "play 4D fuori_tutto", id="core-fuori_tutto"),
    ],
)
def test_signal_not_in_the_enabled_set_is_rejected(
    options: Options, played: str, move: str
) -> None:
    """§8 / §3.5: a signal outside the option `signals` (none / core) is refused."""
    rejected(table(played, options=options), move, SIGNAL, "not enabled")


@pytest.mark.parametrize("signals", [SignalSet.CORE, SignalSet.EXTENDED])
@pytest.mark.parametrize("move", ["play KS busso", "play KS striscio", "play KS volo"])
def test_two_player_form_accepts_no_signal_whatever_the_option(
    signals: SignalSet, move: str
) -> None:
    """§2.3.6: with two players the only signal value accepted is NONE."""
    state = table(deal=DEAL_2P, players=2, stock=STOCK_2P, options=Options(signals=signals))
    rejected(state, move, SIGNAL, "not enabled")
    accepted(state, "play KS")


def test_two_player_form_refuses_taglio_even_on_a_real_cut() -> None:
    """§2.3.6: not even TAGLIO. Seat 0 leads 2C; seat 1, void in clubs, cuts with 7H."""
    state = table("2C", deal=DEAL_2P, players=2, stock=STOCK_2P)
    rejected(state, "play 7H taglio", SIGNAL, "not enabled")
    accepted(state, "play 7H")


@pytest.mark.parametrize(
    ("played", "move"),
    [
        ("KS", "play 6C busso"),
        ("KS 4H", "play 3S striscio"),
        ("KS 4H 3S", "play 7S volo"),
        ("KS", "play 6C taglia"),
        ("KS 4H", "play 2S ristriscio"),
        ("KS 4H", "play 3S buona"),
        ("KS", "play 4H fuori_tutto"),
    ],
)
def test_lead_signal_by_a_non_leader_is_rejected(played: str, move: str) -> None:
    """§8: a lead signal by a non-leader (all but TAGLIO belong to the leader)."""
    err = rejected(table(played, options=EXTENDED), move, SIGNAL, "only the leader may signal")
    assert move.split()[-1].upper() in err.reason


def test_fuori_tutto_on_a_non_trump_lead_is_rejected() -> None:
    """§8: FUORI_TUTTO on a non-trump lead."""
    rejected(table(options=EXTENDED), "play KS fuori_tutto", SIGNAL, "only with a trump lead")


def test_fuori_tutto_after_a_top_trump_has_fallen_is_rejected() -> None:
    """§8: FUORI_TUTTO after a top trump (3, 2 or A of trumps) has been played."""
    before = table(options=EXTENDED)
    accepted(before, "play 2H fuori_tutto")  # unchecked: allowed while none has fallen
    state = table("3H 4H 7H QH", options=EXTENDED)  # seat 0 wins trick 1 with 3H
    assert state.to_act == 0
    rejected(state, "play 2H fuori_tutto", SIGNAL, "top trump has fallen")
    accepted(state, "play 2H")


def test_taglia_on_a_trump_lead_is_rejected() -> None:
    """§8: TAGLIA ("cut it") on a trump lead."""
    state = table(options=EXTENDED)
    rejected(state, "play AH taglia", SIGNAL, "non-trump lead")
    accepted(state, "play KS taglia")


@pytest.mark.parametrize(
    ("played", "move", "because"),
    [
        pytest.param("", "play KS taglio", "not for the leader", id="by-the-leader"),
        pytest.param("KS 4H", "play 3S taglio", "void in a non-trump", id="following-suit"),
        pytest.param("KS", "play 6C taglio", "void in a non-trump", id="plain-discard"),
        pytest.param("AH", "play 4H taglio", "void in a non-trump", id="trump-led"),
    ],
)
def test_taglio_on_a_play_that_is_not_a_cut_is_rejected(
    played: str, move: str, because: str
) -> None:
    """§8: TAGLIO ("I cut") only with a trump played while void in a non-trump led suit."""
    rejected(table(played), move, SIGNAL, because)


def test_taglio_on_a_real_cut_is_accepted() -> None:
    """The contrast to the test above: seat 1, void in spades, cuts KS with 4H."""
    accepted(table("KS"), "play 4H taglio")


def test_two_signals_on_one_play_cannot_be_written() -> None:
    """§8: two signals on one play — the move has one signal field, and the text form
    refuses a second signal."""
    with pytest.raises(ValueError, match="more than one signal"):
        parse("play KS busso volo")


# --------------------------------------------------------------------------- dishonest signals


@pytest.mark.parametrize(
    ("options", "move", "because"),
    [
        # MF-12: seat 0 leads KS and still holds 5S.
        pytest.param(CHECKED, "play KS volo", "false VOLO", id="volo-with-spades-left"),
        pytest.param(
            EXTENDED_CHECKED, "play KS ristriscio", "false RISTRISCIO", id="ristriscio-one-left"
        ),
        # Leading AH keeps 3H 2H: no heart from K down is left.
        pytest.param(CHECKED, "play AH striscio", "false STRISCIO", id="striscio-only-high"),
        # Seat 0 leads the ace of trumps and holds 3H 2H.
        pytest.param(
            EXTENDED_CHECKED, "play AH fuori_tutto", "false FUORI_TUTTO", id="fuori-tutto-top"
        ),
        # 3S 2S AS are with seat 2 and none has been played.
        pytest.param(EXTENDED_CHECKED, "play KS buona", "false BUONA", id="buona-beatable"),
    ],
)
def test_false_signal_when_signals_are_checked_is_rejected(
    options: Options, move: str, because: str
) -> None:
    """§8 / §3.5 / MF-12: with signals_checked = true a false signal is a dishonest one."""
    rejected(table(options=options), move, SIGNAL, because)


def test_false_signals_are_only_poor_play_when_not_checked() -> None:
    """The contrast (§3.5, signals_checked = false): the same signals are legal."""
    for move in ("play KS volo", "play AH striscio", "play AH fuori_tutto", "play KS buona"):
        accepted(table(options=EXTENDED), move)


@pytest.mark.parametrize("move", ["play KS striscio", "play KS busso"])
def test_true_signals_are_accepted_when_checked(move: str) -> None:
    """MF-12: STRISCIO (5S left, K or lower) and BUSSO (a request) are valid."""
    accepted(table(options=EXTENDED_CHECKED), move)


def test_buona_is_true_when_the_stronger_cards_are_in_the_leaders_own_hand() -> None:
    """§3.5 BUONA (review change): a stronger card held by the leader does not make it
    false. Seat 2 leads 2S holding 3S."""
    deal = (DEAL_A[2], DEAL_A[3], DEAL_A[0], DEAL_A[1])  # seat 0 now holds 3S 2S AS ...
    state = table(deal=deal, options=EXTENDED_CHECKED)
    accepted(state, "play 2S buona")
    rejected(state, "play 4S buona", SIGNAL, "false BUONA")


# --------------------------------------------------------------------------- match over


def _claimed() -> State:
    over, _ = rules.apply(table(), CLAIM)
    assert over.finished
    return over


def _played_out() -> State:
    state, _ = rules.deal(Options(target=11), players=4, seed=3)
    while not state.finished:
        state, _ = rules.apply(state, rules.legal_moves(state)[0])
    return state


@pytest.mark.parametrize("finish", [_claimed, _played_out], ids=["by-claim", "by-points"])
@pytest.mark.parametrize("move", ["play KS", "play 4D", "trump H", "redeal", "claim"])
def test_any_move_after_the_match_is_finished_is_not_allowed_now(
    finish: Callable[[], State], move: str
) -> None:
    """§8: any move after the match is finished — match over (NotAllowedNow)."""
    state = finish()
    assert rules.legal_moves(state) == ()
    rejected(state, move, "move", "the match is over", error=NotAllowedNow)
