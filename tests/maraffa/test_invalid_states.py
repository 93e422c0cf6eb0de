"""State invariants of maraffa.md §8, each broken once: ``validate`` must refuse.

Every test starts from a state the rules produced (``rules.deal`` and a few moves),
checks that it is valid, breaks one field, and expects ``InvalidState`` naming that
field by its wire path (``state.maraffa.hands[2].cards``) and saying why. Cards that
are not of the Maraffa pack cannot be put in a hand mask, so those go through the
codec (``state_from_wire``), the door every state from outside passes.
"""

from __future__ import annotations

import pytest

from mazzo.core.cards import card, code
from mazzo.core.errors import InvalidState
from mazzo.games.maraffa import rules
from mazzo.games.maraffa import wire as codec
from mazzo.games.maraffa.cards import BIT, FOUR_OF_COINS, SUIT, cards_of, mask_of
from mazzo.games.maraffa.moves import CLAIM, Signal
from mazzo.games.maraffa.options import MarafonaRule, Options, Series, SignalSet
from mazzo.games.maraffa.positions import position
from mazzo.games.maraffa.state import NO_SEAT, NO_SUIT, Phase, State
from mazzo.games.maraffa.tricks import trick_leaders
from mazzo.games.maraffa.validate import hand_mask, validate
from tests.grpc_helpers import wire_state

P = "state.maraffa."
T = P + "table."


def advance(state: State, plays: int) -> State:
    """The state after ``plays`` moves, each the first legal one (never CLAIM: it is last)."""
    for _ in range(plays):
        state, _ = rules.apply(state, rules.legal_moves(state)[0])
    return state


def dealt(players: int = 4, options: Options | None = None, seed: int = 11) -> State:
    """Hand 1 of a new match, TRUMP phase."""
    return rules.deal(options or Options(), players, seed)[0]


def mid_hand(options: Options | None = None) -> State:
    """4 seats, PLAY: trump declared, trick 1 complete, two cards of trick 2 played."""
    state = advance(dealt(4, options), 1 + 6)
    assert state.completed == 1 and len(state.trick_cards) == 2
    return state


def two_players(plays: int = 3, options: Options | None = None) -> State:
    """2 seats, PLAY: trump declared, then ``plays`` cards (3: one trick and one card)."""
    return advance(dealt(2, options), 1 + plays)


def hands_of(state: State) -> list[list[int]]:
    return [list(cards_of(h)) for h in state.hands]


def with_hands(state: State, hands: list[list[int]]) -> State:
    return state._replace(hands=tuple(mask_of(h) for h in hands))


def with_table(state: State, **fields: object) -> State:
    return state._replace(table=state.table._replace(**fields))


def refused(state: State, field: str, because: str) -> InvalidState:
    with pytest.raises(InvalidState) as caught:
        validate(state)
    assert caught.value.field == field, caught.value
    assert because in caught.value.reason, caught.value
    return caught.value


def expected_hand_sizes(state: State) -> list[int]:
    """§8, written out: 4 seats 10 - completed; 2 seats 10 while completed <= 10, then
    20 - completed; minus one for each seat that has played to the current trick."""
    seats = state.table.seats
    completed = len(state.played) // seats
    base = 10 - completed if seats == 4 else 10 if completed <= 10 else 20 - completed
    leader = trick_leaders(state)[-1]
    in_trick = len(state.played) % seats
    return [base - (1 if (s - leader) % seats < in_trick else 0) for s in range(seats)]


@pytest.mark.parametrize(
    "build",
    [
        dealt,
        mid_hand,
        lambda: dealt(2),
        two_players,
        lambda: two_players(1 + 2 * 11),
        lambda: dealt(3),
    ],
    ids=["deal-4", "mid-hand-4", "deal-2", "two-players", "late-two-players", "deal-3"],
)
def test_the_starting_states_are_valid_and_keep_the_size_invariant(build) -> None:  # type: ignore[no-untyped-def]
    state = build()
    validate(state)
    assert [h.bit_count() for h in state.hands] == expected_hand_sizes(state)
    if state.table.seats == 2:
        assert len(state.stock) == 20 - 2 * min(state.completed, 10)


# --------------------------------------------------------------------------- each card once


def test_a_card_twice_within_one_hand_is_refused() -> None:
    """§8: the 40 codes appear exactly once — a hand listing one card twice (wire only:
    a hand mask cannot hold a card twice)."""
    msg = wire_state(mid_hand())
    cards = msg.maraffa.hands[2].cards
    cards[1] = cards[0]
    with pytest.raises(InvalidState) as caught:
        codec.state_from_wire(msg)
    assert caught.value.field == P + "hands[2].cards"
    assert "appears twice" in caught.value.reason
    with pytest.raises(InvalidState, match="appears twice"):
        hand_mask([card("KS"), card("KS")], P + "hands[0].cards")


def test_a_card_in_two_hands_is_refused() -> None:
    """§8: exactly once across hands. Seat 2 gets a card of seat 0 instead of its own."""
    state = mid_hand()
    hands = hands_of(state)
    hands[2][0] = hands[0][0]
    refused(with_hands(state, hands), P + "hands[2].cards", "more than once")


def test_a_card_both_in_a_hand_and_played_is_refused() -> None:
    """§8: exactly once across hands and tricks. Seat 1 holds a card already played."""
    state = mid_hand()
    hands = hands_of(state)
    hands[1][0] = state.played[0]
    refused(with_hands(state, hands), P + "played[0]", "more than once")


def test_a_card_both_played_and_in_the_stock_is_refused() -> None:
    """§8: exactly once across tricks and (2 players) the stock."""
    state = two_players()
    stock = list(state.stock)
    stock[3] = state.played[0]
    refused(state._replace(stock=tuple(stock)), P + "stock[3]", "more than once")


def test_a_card_twice_in_the_stock_is_refused() -> None:
    state = two_players()
    stock = list(state.stock)
    stock[4] = stock[3]
    refused(state._replace(stock=tuple(stock)), P + "stock[4]", "more than once")


@pytest.mark.parametrize("build", [mid_hand, two_players], ids=["4-seats", "2-seats"])
def test_a_missing_card_is_refused(build) -> None:  # type: ignore[no-untyped-def]
    """§8: every one of the 40 codes must appear. Seat 0's first card vanishes."""
    state = build()
    hands = hands_of(state)
    gone = hands[0].pop(0)
    err = refused(with_hands(state, hands), P + "hands", "missing")
    assert code(gone) in err.reason


@pytest.mark.parametrize("foreign", ["8S", "9H", "TD", "JK"])
def test_a_played_card_not_of_the_maraffa_pack_is_refused(foreign: str) -> None:
    """§1.1: 40 cards, no 8, 9, 10 or joker — one in the trick being played (in-process;
    a card of the current trick changes no leader, so nothing else is broken)."""
    state = mid_hand()
    played = list(state.played)
    played[5] = card(foreign)
    refused(state._replace(played=tuple(played)), P + "played[5]", "not in the Maraffa pack")


@pytest.mark.parametrize(
    ("where", "index", "field"),
    [
        ("hand", 0, P + "hands[1].cards"),
        ("played", 1, P + "played[1]"),
        ("stock", 5, P + "stock[5]"),
        ("drawn", 1, P + "drawn[1]"),
    ],
)
@pytest.mark.parametrize("foreign", ["8S", "JK"])
def test_a_card_not_of_the_maraffa_pack_is_refused_on_the_wire(
    where: str, index: int, field: str, foreign: str
) -> None:
    """§1.1 through the codec: an 8 or a joker anywhere a card goes (2 players, so the
    stock and the drawn cards are there too)."""
    msg = wire_state(two_players())
    m = msg.maraffa
    cards = {"hand": m.hands[1].cards, "played": m.played, "stock": m.stock, "drawn": m.drawn}
    cards[where][index] = card(foreign)  # type: ignore[index]
    with pytest.raises(InvalidState) as caught:
        codec.state_from_wire(msg)
    assert caught.value.field == field
    assert "not in the Maraffa pack" in caught.value.reason


# --------------------------------------------------------------------------- sizes


@pytest.mark.parametrize("build", [dealt, mid_hand], ids=["trump-phase", "mid-hand"])
def test_wrong_hand_size_for_the_trick_count_is_refused_with_four_seats(build) -> None:  # type: ignore[no-untyped-def]
    """§8: 4 seats — 10 - completed tricks, minus one per seat that played to this trick.
    One card moves from seat 0 to seat 1: every card still appears once."""
    state = build()
    hands = hands_of(state)
    hands[1].append(hands[0].pop())
    want = expected_hand_sizes(state)[0]
    err = refused(with_hands(state, hands), P + "hands[0].cards", "must hold")
    assert f"{want} cards, not {want - 1}" in err.reason


@pytest.mark.parametrize(
    "plays", [0, 3, 1 + 2 * 11], ids=["first-trick", "stock-lasting", "stock-empty"]
)
def test_wrong_hand_size_for_the_trick_count_is_refused_with_two_seats(plays: int) -> None:
    """§8: 2 seats — 10 while completed <= 10, then 20 - completed, minus one for a seat
    that played to this trick."""
    state = two_players(plays)
    hands = hands_of(state)
    hands[1].append(hands[0].pop())
    want = expected_hand_sizes(state)[0]
    err = refused(with_hands(state, hands), P + "hands[0].cards", "must hold")
    assert f"{want} cards, not {want - 1}" in err.reason


def test_wrong_stock_size_is_refused() -> None:
    """§8: stock = 20 - 2 * min(completed, 10). The top stock card moves into a hand."""
    state = two_players()
    hands = hands_of(state)
    hands[0].append(state.stock[0])
    broken = with_hands(state, hands)._replace(stock=state.stock[1:])
    refused(broken, P + "stock", f"must hold {len(state.stock)} cards")


def test_a_stock_with_four_seats_is_refused() -> None:
    """§8 / §2.3: only the 2-player form has a stock (size 0 with 4 seats)."""
    state = mid_hand()
    hands = hands_of(state)
    moved = hands[3].pop()
    refused(with_hands(state, hands)._replace(stock=(moved,)), P + "stock", "2-player")


# --------------------------------------------------------------------------- trump and phase


def test_trump_set_in_the_trump_phase_is_refused() -> None:
    """§8: trump is set iff phase is PLAY or later — set before it is declared."""
    state = dealt()
    assert state.phase is Phase.TRUMP
    refused(state._replace(trump=2), P + "trump", "only after it is declared")


@pytest.mark.parametrize("build", [mid_hand, two_players], ids=["4-seats", "2-seats"])
def test_trump_unset_in_the_play_phase_is_refused(build) -> None:  # type: ignore[no-untyped-def]
    """§8: trump is set iff phase is PLAY or later — unset while cards are played."""
    refused(build()._replace(trump=NO_SUIT), P + "trump", "trump must be set")


def test_cards_played_in_the_trump_phase_are_refused() -> None:
    state = mid_hand()
    refused(state._replace(phase=Phase.TRUMP, trump=NO_SUIT), P + "played", "before trump")


def test_more_tricks_than_a_hand_has_are_refused() -> None:
    """§3.3: a live hand has at most 9 completed tricks (10 ends it)."""
    state = advance(dealt(), 1 + 39)
    last = rules.legal_moves(state)[0]
    assert state.completed == 9
    full = state._replace(played=(*state.played, last.card), signals=(*state.signals, 0))  # type: ignore[attr-defined]
    hands = list(state.hands)
    hands[state.to_act] ^= BIT[last.card]  # type: ignore[attr-defined]
    refused(full._replace(hands=tuple(hands)), P + "played", "10 tricks")


# --------------------------------------------------------------------------- to_act


@pytest.mark.parametrize("build", [dealt, mid_hand, two_players])
def test_to_act_inconsistent_with_the_trick_is_refused(build) -> None:  # type: ignore[no-untyped-def]
    """§8: to_act is the leader plus the cards already in the trick (the battezzante in
    the TRUMP phase)."""
    state = build()
    wrong = (state.to_act + 1) % state.table.seats
    err = refused(state._replace(to_act=wrong), "state.to_act", "is to act")
    assert f"seat {state.to_act} is to act, not {wrong}" in err.reason


# --------------------------------------------------------------------------- seats in range


@pytest.mark.parametrize("seat", [4, 9, -1])
@pytest.mark.parametrize("name", ["dealer", "battezzante"])
def test_table_seat_out_of_range_is_refused(name: str, seat: int) -> None:
    """Seats are 0..3 with four seats."""
    state = mid_hand()
    refused(with_table(state, **{name: seat}), T + name, "out of range")


@pytest.mark.parametrize("name", ["dealer", "battezzante"])
def test_table_seat_out_of_range_is_refused_with_two_seats(name: str) -> None:
    """Seats are 0..1 with two seats."""
    refused(with_table(two_players(), **{name: 2}), T + name, "out of range 0..1")


@pytest.mark.parametrize("seat", [4, 7])
def test_to_act_out_of_range_is_refused(seat: int) -> None:
    refused(mid_hand()._replace(to_act=seat), "state.to_act", "not")


@pytest.mark.parametrize("seat", [4, 7, -2])
def test_marafona_seat_out_of_range_is_refused(seat: int) -> None:
    refused(mid_hand()._replace(marafona_seat=seat), P + "marafona_seat", "out of range")


# --------------------------------------------------------------------------- totals and series


@pytest.mark.parametrize("totals", [(-1, 0), (0, -5)])
def test_negative_team_total_is_refused(totals: tuple[int, int]) -> None:
    """§8: team totals >= 0."""
    refused(with_table(mid_hand(), totals=totals), "state.match_score", ">= 0")


@pytest.mark.parametrize("totals", [(41, 0), (12, 41), (45, 44)])
def test_total_at_or_above_the_target_in_a_live_game_is_refused(totals: tuple[int, int]) -> None:
    """§4.2.2: a total at the effective target would have ended the game after the hand."""
    refused(with_table(mid_hand(), totals=totals), "state.match_score", "would have ended")


def test_effective_target_below_the_target_is_refused() -> None:
    """§4.2.3: effective_target starts at target and only rises (ties)."""
    refused(with_table(mid_hand(), effective_target=40), T + "effective_target", "below 41")


@pytest.mark.parametrize(
    ("series", "game_number", "games_won", "field"),
    [
        pytest.param(Series.SINGLE, 1, (1, 0), "games_won", id="single-won-yet-live"),
        pytest.param(Series.SINGLE, 2, (1, 0), "game_number", id="single-has-no-game-2"),
        pytest.param(Series.BEST_OF_THREE, 2, (0, 0), "games_won", id="game-2-none-won"),
        pytest.param(Series.BEST_OF_THREE, 3, (2, 0), "games_won", id="game-3-after-2-0"),
        pytest.param(Series.BEST_OF_THREE, 4, (2, 1), "game_number", id="no-game-4"),
        pytest.param(Series.BEST_OF_THREE, 1, (0, -1), "games_won", id="negative"),
    ],
)
def test_games_won_inconsistent_with_series_or_game_number_is_refused(
    series: Series, game_number: int, games_won: tuple[int, int], field: str
) -> None:
    """§4.3: game n of a series follows n - 1 finished games, none of them decisive."""
    state = mid_hand(Options(series=series))
    refused(with_table(state, game_number=game_number, games_won=games_won), T + field, "game")


def test_a_finished_match_without_a_winner_is_refused() -> None:
    over, _ = rules.apply(mid_hand(), CLAIM)
    validate(over)
    refused(with_table(over, games_won=(0, 0)), T + "games_won", "finished match")


# --------------------------------------------------------------------------- options

BAD_OPTIONS = [
    pytest.param(Options(target=0), 4, "target", ">= 1", id="target-0"),
    pytest.param(Options(dummy_seat=5), 3, "dummy_seat", "0..3", id="dummy-seat-5"),
    pytest.param(Options(bella_target=0), 4, "bella_target", ">= 1", id="bella-target-0"),
    pytest.param(Options(first_dealer=2), 2, "first_dealer", "0..1", id="first-dealer-2-of-2"),
]


def _with_options(options: Options, players: int) -> State:
    state = two_players() if players == 2 else mid_hand()
    if players == 3:
        state = with_table(state, players=3)
    return with_table(state, options=options)


@pytest.mark.parametrize(("options", "players", "name", "allowed"), BAD_OPTIONS)
def test_invalid_options_in_a_state_are_refused(
    options: Options, players: int, name: str, allowed: str
) -> None:
    """§5: each option has its allowed values; a state carrying others is refused."""
    with pytest.raises(InvalidState) as caught:
        validate(_with_options(options, players))
    assert name in caught.value.reason
    assert caught.value.field.endswith(name)


@pytest.mark.parametrize(("options", "players", "name", "allowed"), BAD_OPTIONS)
def test_invalid_option_is_named_by_its_wire_path(
    options: Options, players: int, name: str, allowed: str
) -> None:
    """The field of the violation is where the option lives on the wire
    (MaraffaState.table.options.<name>), as the codec names unknown option enums."""
    with pytest.raises(InvalidState) as caught:
        validate(_with_options(options, players))
    assert caught.value.field == f"{T}options.{name}"


# --------------------------------------------------------------------------- marafona

# Trump H; seat 0 (battezzante) holds 3H 2H AH.
MARAFONA_DEAL = (
    "3H 2H AH KS 5S 4D 5D 2C 4C 5C",
    "4H 5H 6H AD 2D 3D 6C 7C JC QC",
    "3S 2S AS 4S 6S 7H JH 6D 7D KC",
    "7S JS QS QH KH JD QD KD AC 3C",
)


def _marafona_position(
    marafona_seat: int | None, options: Options | None = None, played: str = "AH 4H 7H QH"
) -> State:
    gone = set(played.split())
    hands = [" ".join(c for c in h.split() if c not in gone) for h in MARAFONA_DEAL]
    return position(
        hands=hands,
        played=played,
        trump="H",
        battezzante=0,
        options=options,
        marafona_seat=marafona_seat,
    )


def test_a_marafona_seat_that_held_three_two_ace_is_valid() -> None:
    """The contrast: seat 0 led AH (declaring) and still holds 3H 2H."""
    state = _marafona_position(0)
    assert state.marafona_seat == 0


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_a_marafona_seat_that_did_not_hold_three_two_ace_is_refused(seat: int) -> None:
    """§3.4: the marafona is the 3, 2 and A of trumps in one hand."""
    valid = _marafona_position(NO_SEAT)
    refused(valid._replace(marafona_seat=seat), P + "marafona_seat", "did not hold")


def test_a_marafona_seat_before_trump_is_refused() -> None:
    state = dealt()
    refused(state._replace(marafona_seat=state.to_act), P + "marafona_seat", "before trump")


@pytest.mark.parametrize(
    ("rule", "seat", "deal_to_seat_1"),
    [
        pytest.param(MarafonaRule.OFF, 0, False, id="rule-off"),
        pytest.param(MarafonaRule.BATTEZZANTE_ONLY, 1, True, id="battezzante-only"),
        pytest.param(MarafonaRule.BATTEZZANTE_ACE_LEAD, 1, True, id="battezzante-ace-lead"),
    ],
)
def test_a_marafona_the_rule_in_force_forbids_is_refused(
    rule: MarafonaRule, seat: int, deal_to_seat_1: bool
) -> None:
    """§3.4: with marafona_rule = off nobody declares; with battezzante_only /
    battezzante_ace_lead only the battezzante (seat 0) may. The same state is valid
    under the default rule (any holder, first trick): only the option makes it wrong."""
    if deal_to_seat_1:
        # Seat 1 holds 3H 2H AH and cut the spade lead with AH.
        hands = [
            "4H 5H 6H KS 4D 5D 2C 4C 5C",
            "3H 2H AD 2D 3D 6C 7C JC QC",
            "3S 2S AS 4S 6S 7H JH 6D 7D KC",
            "7S JS QS QH KH JD QD KD AC 3C",
        ]
        state = position(hands=hands, played="5S AH", trump="H", battezzante=0, marafona_seat=1)
    else:
        state = _marafona_position(0)
    assert state.marafona_seat == seat
    refused(with_table(state, options=Options(marafona_rule=rule)), P + "marafona_seat", "marafona")


# --------------------------------------------------------------------------- signals


@pytest.mark.parametrize(
    ("signals", "value"),
    [
        pytest.param(SignalSet.NONE, Signal.BUSSO, id="none-busso"),
        pytest.param(SignalSet.CORE, Signal.FUORI_TUTTO, id="core-fuori_tutto"),
        pytest.param(SignalSet.CORE, Signal.BUONA, id="core-buona"),
    ],
)
def test_a_signal_not_enabled_is_refused(signals: SignalSet, value: Signal) -> None:
    """§3.5: only the signals of the option `signals` can have been attached."""
    state = mid_hand(Options(signals=signals))
    marks = [0] * len(state.played)
    marks[4] = value  # the lead of trick 2
    refused(state._replace(signals=tuple(marks)), P + "signals[4]", "not enabled")


@pytest.mark.parametrize("signal", [Signal.BUSSO, Signal.STRISCIO, Signal.VOLO])
def test_a_leaders_signal_on_a_card_that_does_not_lead_is_refused(signal: Signal) -> None:
    """§3.5: BUSSO, STRISCIO and VOLO belong to the leader's card only (issue 13 item 8:
    a state with BUSSO on the second card of a trick was accepted)."""
    state = mid_hand()
    marks = [0] * len(state.played)
    marks[5] = signal  # the second card of trick 2
    refused(state._replace(signals=tuple(marks)), P + "signals[5]", "only the leader")


def test_taglio_is_a_cutting_trump_and_never_the_lead() -> None:
    """§3.5: TAGLIO goes with a trump played on a non-trump lead, not with the lead."""
    state = mid_hand()
    marks = [0] * len(state.played)
    marks[4] = Signal.TAGLIO
    refused(state._replace(signals=tuple(marks)), P + "signals[4]", "not for the leader")
    trump, lead, second = state.trump, state.played[4], state.played[5]
    if SUIT[second] != trump or SUIT[lead] == trump:
        marks = [0] * len(state.played)
        marks[5] = Signal.TAGLIO
        refused(state._replace(signals=tuple(marks)), P + "signals[5]", "TAGLIO goes only")


def test_a_signal_in_the_two_player_form_is_refused() -> None:
    """§2.3.6: with two players the only signal value is NONE."""
    state = two_players(options=Options(signals=SignalSet.EXTENDED))
    marks = [0] * len(state.played)
    marks[0] = Signal.BUSSO
    refused(state._replace(signals=tuple(marks)), P + "signals[0]", "not enabled")


def test_more_signals_than_cards_played_is_refused() -> None:
    """§8: one signal (or none) per play, parallel to the cards played."""
    state = mid_hand()
    refused(state._replace(signals=(0,) * (len(state.played) + 1)), P + "signals", "per card")


# --------------------------------------------------------------------------- battezzante


def _four_of_coins_holder(state: State) -> int:
    return next(s for s, h in enumerate(state.hands) if h & BIT[FOUR_OF_COINS])


@pytest.mark.parametrize("plays", [0, 1 + 4], ids=["trump-phase", "after-trick-1"])
def test_hand_one_battezzante_not_the_four_of_coins_holder_is_refused(plays: int) -> None:
    """§3.2.1: in the first hand of a game the battezzante is the holder of 4D. The
    other seats are tried, to_act moved along (at a trick boundary the hand sizes do
    not depend on who led), so only the battezzante is wrong."""
    state = advance(dealt(seed=7), plays)
    holder = state.table.battezzante
    assert state.table.hand_number == 1 and len(state.trick_cards) == 0
    assert _four_of_coins_holder(state) == holder
    for other in (s for s in range(4) if s != holder):
        shifted = (state.to_act - holder + other) % 4
        broken = with_table(state, battezzante=other)._replace(to_act=shifted)
        refused(broken, T + "battezzante", "4D")


def test_from_hand_two_the_battezzante_is_next_of_the_dealer() -> None:
    """§3.2.2: battezzante(h) = next(dealer(h)) for every later hand."""
    state = with_table(dealt(), hand_number=2, dealer=0, battezzante=1)._replace(to_act=1)
    validate(state)
    refused(with_table(state, dealer=2), T + "battezzante", "next(dealer)")


def test_two_player_hand_one_battezzante_not_the_dealt_four_of_coins_holder_is_refused() -> None:
    """§2.3.4: first hand, two players — the holder of 4D if it was dealt to a player."""
    state = dealt(2, seed=5)
    holder = _four_of_coins_holder(state)
    assert state.table.battezzante == holder and not state.drawn
    other = 1 - holder
    broken = with_table(state, battezzante=other)._replace(to_act=other)
    refused(broken, T + "battezzante", "4D")


# --------------------------------------------------------------------------- other fields


def test_hands_for_the_wrong_number_of_seats_are_refused() -> None:
    state = mid_hand()
    refused(state._replace(hands=state.hands[:3]), P + "hands", "4 hands")


def test_players_inconsistent_with_the_seats_are_refused() -> None:
    refused(with_table(mid_hand(), players=2), "state.players", "2, 3 or 4")


def test_generator_counter_before_the_first_deal_is_refused() -> None:
    refused(with_table(mid_hand(), counter=0), P + "rng.counter", "must be 1..")


def test_hand_number_zero_is_refused() -> None:
    refused(with_table(mid_hand(), hand_number=0), T + "hand_number", "are 1..")


def test_a_hand_number_no_match_reaches_is_refused() -> None:
    """Found by the fuzz: a state at hand 2**32 - 1 was accepted, and the state after its
    last card, at hand 2**32, could not be written (HTTP 500 from ApplyMoves)."""
    state = with_table(dealt(), hand_number=2**32 - 1, dealer=0, battezzante=1)
    refused(state._replace(to_act=1), T + "hand_number", "are 1..")
