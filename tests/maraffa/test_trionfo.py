"""The worked examples TF-1 .. TF-10 of maraffa-forms.md A.10 (Trionfo, five players),
through the engine. The same examples go through the gRPC API in
``test_trionfo_grpc.py``; the inputs A.12 rejects are in ``test_trionfo_rejects.py``.

Plays are written ``seat:card`` as in the spec, and each is checked to be made by the
seat whose turn it is.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from mazzo.core.cards import card
from mazzo.core.errors import IllegalMove, InvalidState
from mazzo.core.shuffle import shuffled
from mazzo.games.maraffa.cards import DECK, cards_of
from mazzo.games.maraffa.events import TrickWon
from mazzo.games.maraffa.game import RULES
from mazzo.games.maraffa.moves import Contract, Move, PlayCard, bid, parse
from mazzo.games.maraffa.options import Options, TrionfoAuction
from mazzo.games.maraffa.trionfo import rules as trionfo
from mazzo.games.maraffa.trionfo.events import (
    AuctionWon,
    ContractDeclared,
    DealDealt,
    DealScored,
    PartnerRevealed,
    ThrownIn,
    TrionfoEvent,
    TrionfoMatchOver,
)
from mazzo.games.maraffa.trionfo.positions import trionfo_position
from mazzo.games.maraffa.trionfo.scoring import public_score
from mazzo.games.maraffa.trionfo.state import NO_SEAT, Role, TPhase, TrionfoState
from mazzo.games.maraffa.trionfo.validate import validate
from mazzo.games.maraffa.trionfo.view import view
from tests.maraffa.forms_helpers import codes_of, same_suit_tricks

# ----------------------------------------------------------------------------------- helpers


def run(state: TrionfoState, moves: Iterable[str]) -> tuple[TrionfoState, list[TrionfoEvent]]:
    """Apply moves written as text ("seat:card" plays, "bid maso", "pass", "trump H call
    3C"); a "seat:" prefix asserts whose turn it is."""
    events: list[TrionfoEvent] = []
    for text in moves:
        if ":" in text:
            seat, text = text.split(":")
            assert state.to_act == int(seat), f"{text}: seat {state.to_act} is to act"
            if text[0] not in "bpt":
                text = "play " + text
        state, caused = trionfo.apply(state, parse(text))
        events.extend(caused)
    return state, events


def of_type(events: Iterable[object], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def texts(moves: Iterable[Move]) -> list[str]:
    return [str(m) for m in moves]


def refused(state: TrionfoState, move: str, field: str, because: str) -> None:
    """The rules refuse ``move``: not listed, and apply raises naming field and reason."""
    m = parse(move)
    assert m not in trionfo.legal_moves(state)
    with pytest.raises(IllegalMove) as caught:
        trionfo.apply(state, m)
    assert caught.value.field == field, caught.value
    assert because in caught.value.reason, caught.value


def seed_with(dealer: int, card_code: str, seat: int, batch: int = 4) -> int:
    """A seed whose deal 1 gives ``card_code`` to ``seat`` when ``dealer`` deals."""
    c = card(card_code)
    return next(
        s
        for s in range(10_000)
        if trionfo.dealt_to(dealer, batch, shuffled(DECK, s, 1).index(c)) == seat
    )


# ----------------------------------------------------------------------------------- TF-1


@pytest.mark.parametrize("batch", [4, 1, 2, 8])
def test_tf1_deal_in_batches_from_the_dealers_right(batch: int) -> None:
    """TF-1: dealer 0, batch 4: seat 1 gets d[0..3], d[20..23]; seat 2 d[4..7],
    d[24..27]; seat 3 d[8..11], d[28..31]; seat 4 d[12..15], d[32..35]; the dealer
    d[16..19], d[36..39]. Other batches: the same cycle (A.2.1, trionfo_deal_batch)."""
    seed = 11
    state, _ = trionfo.deal(Options(first_dealer=0, trionfo_deal_batch=batch), 5, seed)
    d = shuffled(DECK, seed, 1)
    expected: list[set[int]] = [set() for _ in range(5)]
    for start in range(0, 40, batch):
        expected[(start // batch + 1) % 5].update(d[start : start + batch])
    assert [set(cards_of(h)) for h in state.hands] == expected
    if batch == 4:
        assert set(cards_of(state.hands[1])) == {*d[0:4], *d[20:24]}
        assert set(cards_of(state.hands[2])) == {*d[4:8], *d[24:28]}
        assert set(cards_of(state.hands[3])) == {*d[8:12], *d[28:32]}
        assert set(cards_of(state.hands[4])) == {*d[12:16], *d[32:36]}
        assert set(cards_of(state.hands[0])) == {*d[16:20], *d[36:40]}


# ----------------------------------------------------------------------------------- TF-2


def all_pass(state: TrionfoState) -> tuple[TrionfoState, list[TrionfoEvent]]:
    return run(state, ["pass"] * 5)


@pytest.mark.parametrize("first_deal", ["thrown in", "played"])
def test_tf2_who_speaks_leads_and_deals(first_deal: str) -> None:
    """TF-2: "Deal 1: dealer 0 (seed), 5S in seat 2's hand -> seat 2 speaks first and
    leads trick 1 whoever wins the auction. Deal 2: dealer 2, first speaker 3. Deal 3:
    dealer 3, first speaker 4. Deal 4: dealer 4, first speaker 0. Same rotation if
    deal 1 is thrown in." (A.2.2-4)"""
    seed = seed_with(dealer=0, card_code="5S", seat=2)
    state, events = trionfo.deal(Options(first_dealer=0), 5, seed)
    assert "5S" in codes_of(cards_of(state.hands[2]))
    assert events == [DealDealt(1, 0, 2)]
    assert state.to_act == 2 and state.table.first_speaker == 2
    dealt: list[DealDealt] = []
    if first_deal == "played":
        # Seat 4 wins the auction; seat 2 still leads trick 1.
        state, _ = run(state, ["2:pass", "3:pass", "4:bid di_piu", "0:pass", "1:pass", "trump S"])
        assert state.phase is TPhase.PLAY and state.to_act == 2
        while state.table.deal_number == 1:
            state, events = trionfo.apply(state, trionfo.legal_moves(state)[0])
            dealt += of_type(events, DealDealt)
    else:
        state, events = all_pass(state)
        dealt += of_type(events, DealDealt)
    for _ in range(2):
        state, events = all_pass(state)
        dealt += of_type(events, DealDealt)
    assert [(d.deal_number, d.dealer, d.first_speaker) for d in dealt] == [
        (2, 2, 3),
        (3, 3, 4),
        (4, 4, 0),
    ]


# ----------------------------------------------------------------------------------- TF-3


def auction_position(options: Options | None = None) -> TrionfoState:
    """First speaker 2 (deal 2, dealt by seat 1): the order is 2 -> 3 -> 4 -> 0 -> 1."""
    return trionfo_position(hands=[""] * 5, dealer=1, deal_number=2, options=options)


@pytest.mark.parametrize(
    ("speeches", "declarer", "contract"),
    [
        pytest.param(
            "2:pass, 3:bid chiamo, 4:pass, 0:bid di_piu, 1:pass, 3:pass",
            0,
            Contract.DI_PIU,
            id="a",
        ),
        pytest.param(
            "2:pass, 3:bid chiamo, 4:pass, 0:bid di_piu, 1:pass, 3:bid maso, 0:pass",
            3,
            Contract.MASO,
            id="b",
        ),
        pytest.param("2:bid chiamo, 3:pass, 4:pass, 0:pass, 1:pass", 2, Contract.CHIAMO, id="c"),
        pytest.param("2:pass, 3:bid maso_dei_masi", 3, Contract.MASO_DEI_MASI, id="d"),
    ],
)
def test_tf3_auctions(speeches: str, declarer: int, contract: Contract) -> None:
    """TF-3 a-d (first speaker 2): the final, highest bidder declares (A.3.2-3); a
    MASO_DEI_MASI ends the auction at once."""
    state, events = run(auction_position(), speeches.split(", "))
    assert of_type(events, AuctionWon) == [AuctionWon(declarer, contract)]
    assert state.phase is TPhase.DECLARE and state.to_act == declarer


def test_tf3e_all_pass_throws_the_deal_in() -> None:
    """TF-3 e: "all five PASS -> THROWN_IN; all payments 0; deal 2 dealt by seat 2"
    (here: the next deal, dealt by this deal's first speaker, seat 2)."""
    state, events = run(auction_position(), ["2:pass", "3:pass", "4:pass", "0:pass", "1:pass"])
    assert of_type(events, ThrownIn) == [ThrownIn(2)]
    assert state.table.last_deal is not None and state.table.last_deal.payments == (0,) * 5
    assert state.table.totals == (0,) * 5
    assert of_type(events, DealDealt) == [DealDealt(3, 2, 3)]


def test_tf3_legal_bids_rise_and_passing_is_final() -> None:
    """TF-3: "after 3 CHIAMO the legal moves of seat 4 are BID{DI_PIU}, BID{MASO},
    BID{MASO_DEI_MASI}, PASS (in that order); BID{CHIAMO} by seat 4 is rejected (not
    higher). After seat 2's PASS, any move by seat 2 in this deal is out of turn."""
    state, _ = run(auction_position(), ["2:pass", "3:bid chiamo"])
    assert state.to_act == 4
    assert texts(trionfo.legal_moves(state)) == [
        "bid di_piu",
        "bid maso",
        "bid maso_dei_masi",
        "pass",
    ]
    refused(state, "bid chiamo", "move.maraffa.bid.contract", "above CHIAMO")
    # Seat 2 passed: a state in which seat 2 is to speak cannot arise, and is refused.
    for later in (state, run(state, ["4:pass", "0:bid di_piu", "1:pass"])[0]):
        with pytest.raises(InvalidState) as caught:
            validate(later._replace(to_act=2))
        assert caught.value.field == "state.to_act"


def test_tf3_single_round_each_seat_speaks_once() -> None:
    """TF-3: "Under single_round, case a ends after seat 1's PASS (seat 3 cannot speak
    again): seat 0 declares DI_PIU." (A.3.4)"""
    options = Options(trionfo_auction=TrionfoAuction.SINGLE_ROUND)
    state, events = run(
        auction_position(options),
        ["2:pass", "3:bid chiamo", "4:pass", "0:bid di_piu", "1:pass"],
    )
    assert of_type(events, AuctionWon) == [AuctionWon(0, Contract.DI_PIU)]
    assert state.phase is TPhase.DECLARE and state.to_act == 0


# ----------------------------------------------------------------------------------- TF-4

TF4_SEAT3 = "2H AH KH QH 7H 3D 4S 6C"


def declaring(contract: str) -> TrionfoState:
    """Seat 3 has won the auction with ``contract``, holding TF-4's hand."""
    return trionfo_position(
        hands=["", "", "", TF4_SEAT3, ""],
        bids=f"pass {contract}" + ("" if contract == "maso_dei_masi" else " pass pass pass"),
        dealer=1,
        deal_number=2,
    )


def test_tf4_declarations_under_chiamo() -> None:
    """TF-4: declarer seat 3 (CHIAMO) holding 2H AH KH QH 7H 3D 4S 6C: {H, 3C} valid (the
    holder of 3C is amico, hidden); {H, 3D} valid (his own card: alone v 4, hidden);
    {H, 3H} invalid (trump suit); {H} invalid (CHIAMO needs a called card)."""
    state = declaring("chiamo")
    assert state.phase is TPhase.DECLARE and state.to_act == 3
    listed = trionfo.legal_moves(state)
    assert len(listed) == 120 and texts(listed[:2]) == ["trump S call AH", "trump S call 2H"]
    for move in ("trump H call 3C", "trump H call 3D"):
        after, events = trionfo.apply(state, parse(move))
        assert after.phase is TPhase.PLAY and after.to_act == 2, "the first speaker leads"
        assert of_type(events, ContractDeclared)[0].called_card == card(move[-2:])
        assert not of_type(events, PartnerRevealed), "the amico stays hidden"
    refused(state, "trump H call 3H", "move.maraffa.declare_trump.called_card", "trump suit")
    refused(state, "trump H", "move.maraffa.declare_trump.called_card", "needs a called card")


def test_tf4_the_same_moves_by_another_seat_are_out_of_turn() -> None:
    """TF-4: "the same moves by seat 0 -> invalid: not the declarer" (a move has no
    seat: a state in which seat 0 is to declare is refused)."""
    with pytest.raises(InvalidState) as caught:
        validate(declaring("chiamo")._replace(to_act=0))
    assert caught.value.field == "state.to_act"
    assert "seat 3 declares" in caught.value.reason


@pytest.mark.parametrize("contract", ["di_piu", "maso", "maso_dei_masi"])
def test_tf4_other_contracts_name_trumps_only(contract: str) -> None:
    """TF-4: "With DI_PIU, MASO or MASO_DEI_MASI only DECLARE_TRUMP{suit} is valid; a
    called card is rejected." """
    state = declaring(contract)
    assert texts(trionfo.legal_moves(state)) == ["trump S", "trump H", "trump D", "trump C"]
    refused(state, "trump H call 3C", "move.maraffa.declare_trump.called_card", "only under")


# ----------------------------------------------------------------------------------- TF-5


def tf5_position() -> TrionfoState:
    """Trump D, seat 3 leads trick 1 (deal 2 dealt by seat 2); seat 1 declared DI_PIU.
    Seats 0 and 1 hold no spade."""
    return trionfo_position(
        hands=["4D 4H AH 5H 6H 7H JH QH", "2D JC 2H 3H KH 5C 6C 7C", "AS", "KS", "3S"],
        bids="pass pass pass di_piu pass",
        trump="D",
        dealer=2,
        deal_number=2,
    )


@pytest.mark.parametrize(
    ("plays", "winner"),
    [
        (["3:KS", "4:3S", "0:4D", "1:2D", "2:AS"], 1),  # 2D beats 4D
        (["3:KS", "4:3S", "0:4D", "1:JC", "2:AS"], 0),  # 4D, the only trump
        (["3:KS", "4:3S", "0:4H", "1:JC", "2:AS"], 4),  # no trump: 3S, highest spade
    ],
)
def test_tf5_a_five_card_trick(plays: list[str], winner: int) -> None:
    """TF-5: trump D; 3:KS 4:3S 0:4D 1:2D 2:AS -> seat 1 (2D beats 4D), 6 thirds; with
    1:JC -> seat 0 (4D, the only trump); with 0:4H and 1:JC -> seat 4 (3S), 6 thirds."""
    state, events = run(tf5_position(), plays)
    (won,) = of_type(events, TrickWon)
    thirds = {"KS": 1, "3S": 1, "4D": 0, "2D": 1, "AS": 3, "JC": 1, "4H": 0}
    assert won == TrickWon(1, winner, sum(thirds[p.split(":")[1]] for p in plays))
    assert state.to_act == winner
    if winner in (1, 4):
        assert won.thirds == 6


# ----------------------------------------------------------------------------------- TF-6

TF6_HANDS = [
    "3C 2C AC 6H 5D 4D JS 7S",
    "3H JH 2S AS KC QC 6S 4C",
    "5S 5H 4H 2D AD KD 7C 5C",
    "2H AH KH QH 7H 3D 4S 6C",
    "3S KS QS QD JD 7D 6D JC",
]
TF6_AUCTION = ["2:pass", "3:bid chiamo", "4:pass", "0:pass", "1:pass"]
#: (plays, winner, thirds to the winner's side) per trick.
TF6_TRICKS = [
    ("2:AD 3:3D 4:6D 0:4D 1:4C", 3, 4),
    ("3:2H 4:7D 0:6H 1:JH 2:4H", 3, 2),
    ("3:AH 4:JD 0:7S 1:3H 2:5H", 1, 5),
    ("1:AS 2:5S 3:4S 4:3S 0:JS", 4, 5),
    ("4:QD 0:5D 1:6S 2:2D 3:7H", 3, 2),
    ("3:6C 4:JC 0:3C 1:KC 2:7C", 0, 3),
    ("0:AC 1:QC 2:5C 3:QH 4:KS", 3, 6),
    ("3:KH 4:QS 0:2C 1:2S 2:KD", 3, 8),
]
SIGNORI = {3, 0}


def tf6_deal(options: Options | None = None) -> TrionfoState:
    """TF-6's deal 1, dealt by seat 0: seat 2 holds 5S and speaks first."""
    state = trionfo_position(hands=TF6_HANDS, dealer=0, options=options)
    assert state.table.first_speaker == 2 and state.to_act == 2
    return state


def tf6_plays(tricks: int = 8) -> list[str]:
    return [p for plays, _, _ in TF6_TRICKS[:tricks] for p in plays.split()]


def test_tf6_a_complete_deal_under_chiamo() -> None:
    """TF-6: 2 PASS, 3 CHIAMO, 4 PASS, 0 PASS, 1 PASS; seat 3 declares {H, 3C}; 3C is in
    seat 0 -> signori {3, 0}; seat 2 leads. Every trick as the table says; the called
    card reveals seat 0 at trick 6; card points 8 v 3 -> signori win: seat 3 +2, seat
    0 +1, seats 1, 2, 4 -1 each (A.6.3)."""
    state, _ = run(tf6_deal(), TF6_AUCTION)
    state, events = run(state, ["3:trump H call 3C"])
    assert of_type(events, ContractDeclared) == [ContractDeclared(3, 1, 1, card("3C"))]
    assert state.to_act == 2
    running = [0, 0]  # signori, popolo
    for number, (plays, winner, thirds) in enumerate(TF6_TRICKS, 1):
        for play in plays.split():
            c = play.split(":")[1]
            legal = [m for m in trionfo.legal_moves(state) if isinstance(m, PlayCard)]
            assert card(c) in {m.card for m in legal}, f"{play} is legal (A.5.1)"
            state, events = run(state, [play])
            revealed = of_type(events, PartnerRevealed)
            assert revealed == ([PartnerRevealed(0)] if c == "3C" else [])
        (won,) = of_type(events, TrickWon)
        assert won == TrickWon(number, winner, thirds)
        running[0 if winner in SIGNORI else 1] += thirds
    assert running == [25, 10]
    (scored,) = of_type(events, DealScored)
    score = scored.score
    assert (score.declarer, score.amico, score.contract) == (3, 0, Contract.CHIAMO)
    assert score.signori is not None and score.popolo is not None
    assert (score.signori.thirds, score.popolo.thirds) == (25, 10)
    assert (score.signori.card_points, score.popolo.card_points) == (8, 3)
    assert score.won is True and score.decided_at == 8
    assert score.payments == (1, -1, -1, 2, -1)
    assert scored.totals == (1, -1, -1, 2, -1)


def test_tf6_every_play_of_the_table_is_legal_and_voids_are_free() -> None:
    """TF-6: "trick 1: seat 1 has no diamond, so 4C is free; trick 7: seat 3 holds only
    hearts" -- at those points every card of the hand is listed."""
    state, _ = run(tf6_deal(), [*TF6_AUCTION, "3:trump H call 3C", *tf6_plays()[:4]])
    assert state.to_act == 1
    hand = codes_of(cards_of(state.hands[1]))
    assert codes_of(m.card for m in trionfo.legal_moves(state) if isinstance(m, PlayCard)) == hand
    state, _ = run(tf6_deal(), [*TF6_AUCTION, "3:trump H call 3C", *tf6_plays()[:33]])
    assert state.to_act == 3 and codes_of(cards_of(state.hands[3])) == {"QH", "KH"}


# ----------------------------------------------------------------------------------- TF-7


def tf7(contract: str, call: str = "", options: Options | None = None) -> list[TrionfoEvent]:
    """TF-7: TF-6's cards and play, seat 3 declaring ``contract`` with trump H."""
    auction = ["2:pass", f"3:bid {contract}"]
    if contract != "maso_dei_masi":  # nothing outbids it: the auction ends at once
        auction += ["4:pass", "0:pass", "1:pass"]
    declare = f"3:trump H call {call}" if call else "3:trump H"
    state, _ = run(tf6_deal(options), [*auction, declare])
    events: list[TrionfoEvent] = []
    for play in tf6_plays():
        if state.table.deal_number != 1:
            break  # the deal stopped early (trionfo_stop_when_decided)
        state, caused = run(state, [play])
        events += caused
    return events


@pytest.mark.parametrize(
    ("contract", "call", "won", "decided_at", "payments", "revealed"),
    [
        pytest.param("di_piu", "", True, 8, (-2, -2, -2, 8, -2), [], id="di_piu"),
        pytest.param("chiamo", "3D", True, 8, (-2, -2, -2, 8, -2), [3], id="chiamo-in-mano"),
        pytest.param("maso", "", False, 3, (4, 4, 4, -16, 4), [], id="maso"),
        pytest.param("maso_dei_masi", "", False, 3, (8, 8, 8, -32, 8), [], id="maso_dei_masi"),
    ],
)
def test_tf7_the_same_cards_under_other_contracts(
    contract: str,
    call: str,
    won: bool,
    decided_at: int,
    payments: tuple[int, ...],
    revealed: list[int],
) -> None:
    """TF-7: DI_PIU ends 22 / 13 (7 v 4 card points): +8 / -2 each; CHIAMO calling 3D
    (his own card) is DI_PIU's result, PARTNER_REVEALED{3} at trick 1; MASO fails at
    trick 3 (opponents reach a whole point): -16 / +4; MASO_DEI_MASI fails at trick 3
    (the declarer loses it): -32 / +8."""
    events = tf7(contract, call)
    assert [e.seat for e in of_type(events, PartnerRevealed)] == revealed
    if revealed:
        first_trick = events[: events.index(of_type(events, TrickWon)[0])]
        assert of_type(first_trick, PartnerRevealed), "revealed during trick 1"
    (scored,) = of_type(events, DealScored)
    score = scored.score
    assert (score.won, score.decided_at, score.payments) == (won, decided_at, payments)
    assert score.amico == (3 if call else NO_SEAT)
    if contract == "di_piu":
        assert score.signori is not None and score.popolo is not None
        assert (score.signori.thirds, score.popolo.thirds) == (22, 13)
    assert len(of_type(events, TrickWon)) == 8, "all eight tricks are played by default"


@pytest.mark.parametrize(
    ("contract", "call", "tricks"),
    [("maso", "", 3), ("maso_dei_masi", "", 3), ("di_piu", "", 8), ("chiamo", "3D", 8)],
)
def test_tf7_stop_when_decided_ends_the_deal_at_the_deciding_trick(
    contract: str, call: str, tricks: int
) -> None:
    """TF-7: "With trionfo_stop_when_decided = true, MASO and MASO_DEI_MASI end after
    trick 3, CHIAMO/DI_PIU after trick 8 (22 thirds are reached only there)." Payments
    are the same either way (A.5.6)."""
    stop = tf7(contract, call, Options(trionfo_stop_when_decided=True))
    full = tf7(contract, call)
    assert len(of_type(stop, TrickWon)) == tricks
    (scored,) = of_type(stop, DealScored)
    assert scored.score.payments == of_type(full, DealScored)[0].score.payments
    assert of_type(stop, DealDealt), "the next deal follows at once"


# ----------------------------------------------------------------------------------- TF-8


def maso_position(third_trick: str) -> tuple[TrionfoState, list[str]]:
    """TF-8: seat 2 (first speaker) bids MASO alone and takes tricks worth d5, d4,
    then the popolo a trick worth ``third_trick``, then d6, d3. Every trick is five
    cards of one suit, the strongest held by the trick's winner. The position before
    the first card, and the cards in play order."""
    d, p = 2, 4
    low_diamonds = {"2": "2D KD 7D 6D 5D", "3": "2D KD QD 6D 5D"}[third_trick]
    rest = {c for c in (["3D", "AD", "QD", "JD", "4D", "7D"]) if c not in low_diamonds.split()}
    tricks = [
        ("3S 2S KS QS JS", d),  # 5
        ("3H AH 7H 6H 5H", d),  # 4
        (low_diamonds, p),  # 2 (or 3)
        ("3C 2C AC KC 7C", d),  # 6
        ("AS 7S 6S 5S 4S", d),  # 3
        ("2H KH QH JH 4H", d),
        (" ".join(sorted(rest)), d),
        ("QC JC 6C 5C 4C", d),
    ]
    orders = same_suit_tricks(tricks, first_leader=d, seats=5)
    hands: list[list[str]] = [[] for _ in range(5)]
    leader = d
    for order, (_, winner) in zip(orders, tricks, strict=True):
        for i, c in enumerate(order.split()):
            hands[(leader + i) % 5].append(c)
        leader = winner
    state = trionfo_position(
        hands=[" ".join(h) for h in hands],
        bids="maso pass pass pass pass",
        trump="H",
        dealer=1,
        deal_number=2,
        options=Options(trionfo_stop_when_decided=True),
    )
    return state, " ".join(orders).split()


def maso_deal(third_trick: str) -> list[TrionfoEvent]:
    """TF-8's deal played through the engine, up to its end."""
    state, plays = maso_position(third_trick)
    events: list[TrionfoEvent] = []
    for c in plays:
        state, caused = trionfo.apply(state, parse(f"play {c}"))
        events += caused
        if of_type(caused, DealScored):
            break
    return events


def test_tf8_maso_succeeds_once_six_points_come_before_one() -> None:
    """TF-8: d5, d4, p2, d6, d3 -> 5/0, 9/0, 9/2, 15/2, 18/2 -> success at trick 5
    (6 card points while the opponents hold only 2/3): declarer +16, each -4."""
    events = maso_deal("2")
    won = of_type(events, TrickWon)
    assert [(t.seat, t.thirds) for t in won] == [(2, 5), (2, 4), (4, 2), (2, 6), (2, 3)]
    (scored,) = of_type(events, DealScored)
    assert (scored.score.won, scored.score.decided_at) == (True, 5)
    assert scored.score.payments == (-4, -4, 16, -4, -4)


def test_tf8_maso_fails_the_moment_the_opponents_have_a_point() -> None:
    """TF-8: "Had the third trick been p3, the contract would have failed there (O = 3)."""
    events = maso_deal("3")
    assert [t.thirds for t in of_type(events, TrickWon)] == [5, 4, 3]
    (scored,) = of_type(events, DealScored)
    assert (scored.score.won, scored.score.decided_at) == (False, 3)
    assert scored.score.payments == (4, 4, -16, 4, 4)


# ----------------------------------------------------------------------------------- TF-9


def test_tf9_the_amico_is_known_only_to_himself_until_the_called_card_is_played() -> None:
    """TF-9: until trick 6 seat 0's view shows amico = 0 (it holds 3C); seats 1-4 see the
    called card 3C but no amico; after trick 6 every view shows amico = 0. Score leaves
    the amico and the sides out until then (A.11.3)."""
    state, _ = run(tf6_deal(), [*TF6_AUCTION, "3:trump H call 3C"])
    plays = tf6_plays()
    for i in range(len(plays) + 1):
        revealed = i > plays.index("0:3C")
        for seat in range(5):
            v = view(state, seat)
            assert v.called_card == card("3C") and v.declarer == 3
            assert v.amico == (0 if revealed or seat == 0 else NO_SEAT), (i, seat)
        report = RULES.score(state)
        deal = report.sides[0].detail.deal
        assert deal.amico == (0 if revealed else NO_SEAT)
        assert (deal.signori is not None) == revealed
        roles = [side.detail.role for side in report.sides]
        expected = (
            [Role.AMICO if revealed else Role.UNKNOWN]
            + [Role.POPOLO if revealed else Role.UNKNOWN] * 2
            + [Role.DECLARER, Role.POPOLO if revealed else Role.UNKNOWN]
        )
        assert roles == expected
        if i == len(plays) - 1:
            break
        state, _ = run(state, [plays[i]])


def test_tf9_in_mano_the_declarer_knows_and_the_others_learn_at_trick_1() -> None:
    """TF-9: "In the TF-7 chiamata in mano variant, seat 3's view shows from the
    declaration that the called card is its own (alone); the others learn it at
    trick 1." """
    auction = ["2:pass", "3:bid chiamo", "4:pass", "0:pass", "1:pass", "3:trump H call 3D"]
    state, _ = run(tf6_deal(), auction)
    assert [view(state, s).amico for s in range(5)] == [NO_SEAT] * 3 + [3, NO_SEAT]
    state, _ = run(state, ["2:AD"])
    assert view(state, 0).amico == NO_SEAT
    state, _ = run(state, ["3:3D"])
    assert [view(state, s).amico for s in range(5)] == [3] * 5


def test_tf9_every_view_shows_the_first_speaker() -> None:
    """TF-9: "In deal 1 every view shows which seat is first speaker, hence who holds
    5S (public by the rules, as 4D is in maraffa.md)."""
    state = tf6_deal()
    assert {view(state, s).table.first_speaker for s in range(5)} == {2}


# ----------------------------------------------------------------------------------- TF-10


def test_tf10_the_match_ends_after_match_deals_deals() -> None:
    """TF-10 (match_deals = 2): deal 1 = TF-6 (+1, -1, -1, +2, -1), deal 2 thrown in ->
    match over after 2 deals: totals [1, -1, -1, 2, -1] -> seat 3 wins (A.7)."""
    options = Options(match_deals=2)
    state, _ = run(tf6_deal(options), [*TF6_AUCTION, "3:trump H call 3C", *tf6_plays()])
    assert state.table.deal_number == 2 and state.table.totals == (1, -1, -1, 2, -1)
    state, events = all_pass(state)
    assert of_type(events, ThrownIn) == [ThrownIn(2)]
    assert of_type(events, TrionfoMatchOver) == [TrionfoMatchOver((3,), (1, -1, -1, 2, -1))]
    assert state.finished and trionfo.legal_moves(state) == ()
    report = RULES.score(state)
    assert report.finished and report.winners == (3,)
    assert [side.match_total for side in report.sides] == [1, -1, -1, 2, -1]


def test_tf10_without_counting_thrown_in_deals_a_third_deal_is_played() -> None:
    """TF-10: "With count_thrown_in = false a third deal is played." """
    options = Options(match_deals=2, count_thrown_in=False)
    state, _ = run(tf6_deal(options), [*TF6_AUCTION, "3:trump H call 3C", *tf6_plays()])
    state, events = all_pass(state)
    assert not state.finished and of_type(events, DealDealt) == [DealDealt(3, 3, 4)]
    assert state.table.deals_counted == 1


def test_a7_tied_totals_make_every_tied_seat_a_winner() -> None:
    """A.7.3: the seats with the highest total win; a tie makes all of them winners."""
    assert trionfo.match_winners((2, -1, 2, -2, -1)) == (0, 2)
    assert trionfo.match_winners((0, 0, 0, 0, 0)) == (0, 1, 2, 3, 4)


def test_public_score_during_the_auction_names_no_contract() -> None:
    """A.6.4: before the auction ends there is no contract nor declarer to report."""
    state, _ = run(auction_position(), ["2:pass", "3:bid chiamo"])
    score = public_score(state)
    assert (score.contract, score.declarer, score.payments) == (0, NO_SEAT, ())
    assert bid(Contract.CHIAMO) not in trionfo.legal_moves(state)
