"""Golden transcripts: whole Burraco matches that pin the engine's behaviour across releases.

Each file in ``golden/`` holds one match: how it was dealt (players, seed, options),
the deterministic chooser that played it, and for every move the seat, the move text
(``str(move)``) and the events it caused, then the final totals and winners. The
test deals and plays the same match again and must get exactly the stored
transcript: the same cards (the seeded generator), the same legal moves in the same
order (§3.7, through the chooser), the same scores (§4).

A second test re-checks every stored transcript with an independent referee written
from burraco.md (the deal mapping of §2.3-§2.4 from the documented generator, turn
order, cards moved by each move, meld validity, pozzetti, closings, the end of the
stock, scores, dealer rotation, the match end), so a regenerated file cannot
silently pin a rule violation.

The test never writes the files (tests/golden.py plays and records them); after an
intended change of behaviour, regenerate them with
``.venv/bin/python -m tests.burraco.test_golden_transcripts --regenerate`` and review the diff.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from mazzo.core.cards import code
from mazzo.core.shuffle import draw_below, shuffled
from mazzo.games.burraco import events as ev
from mazzo.games.burraco import rules
from mazzo.games.burraco.cards import DECK
from mazzo.games.burraco.moves import Discard, Move
from mazzo.games.burraco.options import Options
from mazzo.games.burraco.state import HandScore, Stage, State
from tests.burraco import oracle
from tests.golden import Golden, Params

#: name -> (players, seed, chooser seed, options as in the JSON file)
MATCHES: dict[str, Params] = {
    # One hand at the defaults: 4 players in pairs.
    "four_players_one_hand": (4, 7, 7, {"hands": 1}),
    # Options: no semipulito, closing needs a clean burraco, dealer fixed.
    "four_players_options": (
        4,
        12,
        3,
        {"hands": 2, "semipulito": False, "closing_needs_clean": True, "first_dealer": 1},
    ),
    # The 2-player form, the one-card pile rule off.
    "two_players_two_hands": (2, 21, 21, {"hands": 2, "single_card_pile_rule": False}),
    # The 3-player form: a solo player and a pair (18 + 11 pozzetti).
    "three_players_pair": (3, 5, 5, {"hands": 2}),
    # 3 players over three hands: a total reaches 1000, the last hand has three pozzetti.
    "three_players_phase_switch": (3, 0, 0, {"hands": 3}),
}

CHOOSER = (
    "random.Random(chooser_seed): in the MELD stage a meld or lay-off (uniformly) with "
    "probability 0.8 when there is one, else a discard (uniformly); otherwise a move uniformly"
)


def choose(state: State, moves: tuple[Move, ...], rnd: random.Random) -> Move:
    if state.stage is Stage.MELD:
        building = [m for m in moves if not isinstance(m, Discard)]
        if building and rnd.random() < 0.8:
            return building[rnd.randrange(len(building))]
        discards = [m for m in moves if isinstance(m, Discard)]
        return discards[rnd.randrange(len(discards))]
    return moves[rnd.randrange(len(moves))]


# --------------------------------------------------------------------------------------- recording


def _field(name: str, value: Any) -> Any:
    """One event field as plain JSON: cards as codes, kinds by name."""
    if name in ("card", "up_card"):
        return code(value)
    if name == "kind":
        return value.name.lower()
    if isinstance(value, HandScore):
        return dict(zip(value._fields, [list(value.seats), *value[1:]], strict=True))
    if name == "cards":
        return [code(c) for c in value]
    if name == "hands":
        return [[code(c) for c in h] for h in value]
    if isinstance(value, tuple):
        return [_field(name, v) for v in value]
    return value


def _hands(state: State) -> dict[str, Any]:
    return {"hands": [[code(c) for c in h] for h in state.hands]}


def final(state: State) -> dict[str, Any]:
    return {
        "totals": list(state.table.totals),
        "winners": list(rules.winners(state)),
        "hands": state.table.hand_number,
    }


GOLDEN = Golden(
    __file__, MATCHES, CHOOSER, rules, lambda data: Options(**data), choose, _field, _hands, final
)
play_match = GOLDEN.play
load = GOLDEN.load


# --------------------------------------------------------------------------------- the golden test


test_replay_matches_golden_transcript, test_golden_file_is_small = GOLDEN.tests(250_000)


def test_golden_files_cover_the_forms_and_events() -> None:
    """The files exercise each form and the main kinds of event at least once."""
    assert GOLDEN.players() == {2, 3, 4}
    kinds = {event["type"] for event in GOLDEN.events()}
    assert kinds >= {
        "HandDealt",
        "Drew",
        "PileTaken",
        "MeldOpened",
        "LaidOff",
        "Discarded",
        "PozzettoTaken",
        "PairFormed",
        "PozzettoUnlocked",
        "LastTurn",
        "Closed",
        "PhaseChanged",
        "HandEnded",
        "HandScored",
        "MatchEnded",
    }


# ------------------------------------------------------------------------ the rules, independently

CODES = [code(c) for c in DECK]


def dealt(
    seed: int, counter: int, dealer: int, players: int, three_pozzetti: bool = False
) -> dict[str, Any]:
    """§2.3 / §2.4 from the documented generator: hands, up-card, pozzetti, stock."""
    d = shuffled(CODES, seed, counter)
    n = players
    hands: list[list[str]] = [[] for _ in range(n)]
    for j in range(11 * n):
        hands[(dealer + 1 + j % n) % n].append(d[j])
    if three_pozzetti:  # §2.4.5: from the bottom in rotation P1, P2, P3, P1, ...
        pozzetti = [[d[107 - k - 3 * i] for i in range(11)] for k in range(3)]
        return {"hands": hands, "up": d[33], "pozzetti": pozzetti, "stock": d[34:75]}
    if n == 3:
        p1 = [d[i] for i in range(107, 86, -2)] + [d[i] for i in range(85, 78, -1)]
        p2 = [d[i] for i in range(106, 85, -2)]
        stock = d[34:79]
    else:
        p1 = [d[i] for i in range(107, 86, -2)]
        p2 = [d[i] for i in range(106, 85, -2)]
        stock = d[11 * n + 1 : 86]
    return {"hands": hands, "up": d[11 * n], "pozzetti": [p1, p2], "stock": stock}


class Referee:
    """Follows a transcript and checks it against burraco.md, knowing nothing of the engine."""

    def __init__(self, t: dict[str, Any]) -> None:
        self.t = t
        self.n = t["players"]
        self.options = Options(**t["options"])
        first = self.options.first_dealer
        self.dealer = draw_below(t["seed"], 0, self.n) if first is None else first
        self.counter = 1
        self.hand_number = 0
        self.scorer = oracle.Scorer(self.n, semipulito=self.options.semipulito)
        self.events: list[dict[str, Any]] = []
        self.over = False
        self.three_pozzetti = False

    def expect(self, event_type: str, **fields: Any) -> dict[str, Any]:
        assert self.events, f"missing {event_type} {fields}"
        event = self.events.pop(0)
        assert event["type"] == event_type, (event, event_type, fields)
        for k, v in fields.items():
            assert event[k] == v, (event, k, v)
        return event

    # -- sides and pozzetti --

    def side(self, seat: int) -> set[int]:
        if self.n == 4:
            return {seat, (seat + 2) % 4}
        if self.n == 2 or self.solo < 0 or self.solo == seat:
            return {seat}
        return {0, 1, 2} - {self.solo}

    def side_took(self, seat: int) -> bool:
        return bool(self.side(seat) & set(self.takers))

    def side_has_burraco(self, seat: int) -> bool:
        for opener, cards in self.melds:
            if opener in self.side(seat) and len(cards) >= 7:
                clean = max(r.clean for r in oracle.readings(cards))
                if not self.options.closing_needs_clean or clean == oracle.PULITO:
                    return True
        return False

    # -- the deal --

    def new_hand(self, hands_json: list[list[str]]) -> None:
        self.hand_number += 1
        deal = dealt(self.t["seed"], self.counter, self.dealer, self.n, self.three_pozzetti)
        self.counter += 1
        assert [sorted(h) for h in hands_json] == [sorted(h) for h in deal["hands"]]
        self.expect(
            "HandDealt",
            hand_number=self.hand_number,
            dealer=self.dealer,
            up_card=deal["up"],
            pozzetti=[len(p) for p in deal["pozzetti"]],
        )
        self.hands = [list(h) for h in deal["hands"]]
        self.stock = list(deal["stock"])
        self.pile = [deal["up"]]
        self.pozzetti = deal["pozzetti"]
        self.takers: list[int] = []
        self.melds: list[tuple[int, list[str]]] = []
        self.solo = -1
        self.locked: set[int] = set()
        self.to_act = (self.dealer + 1) % self.n
        self.stage = "acquire"
        self.last_turn = False
        self.forbidden = ""

    # -- moves --

    def move(self, entry: dict[str, Any]) -> None:
        self.events = list(entry["events"])
        seat, words = entry["seat"], entry["move"].split()
        assert seat == self.to_act, entry
        hand = self.hands[seat]
        if words[0] == "draw":
            assert self.stage == "acquire"
            hand.append(self.stock.pop(0))
            self.expect("Drew", seat=seat)
            self.stage = "meld"
            if len(self.stock) == 2:  # §3.6
                self.last_turn = True
                self.expect("LastTurn", seat=seat)
        elif words[0] == "pickup":
            assert self.stage == "acquire" and self.pile
            self.expect("PileTaken", seat=seat, cards=self.pile)
            self.forbidden = self.pile[0] if len(self.pile) == 1 else ""
            if not self.options.single_card_pile_rule:
                self.forbidden = ""
            hand.extend(self.pile)
            self.pile = []
            self.stage = "meld"
        elif words[0] == "meld":
            assert self.stage == "meld"
            cards = words[1:]
            for c in cards:
                hand.remove(c)
            assert oracle.is_meld(cards), cards
            kind = oracle.kind_of(cards)
            if kind == "combination":  # §3.2 rule 4
                rank = next(c[0] for c in cards if not oracle.is_wild_card(c))
                for opener, other in self.melds:
                    if opener in self.side(seat) and oracle.kind_of(other) == "combination":
                        assert rank != next(c[0] for c in other if not oracle.is_wild_card(c))
            self.expect("MeldOpened", seat=seat, meld_id=len(self.melds), kind=kind)
            self.melds.append((seat, list(cards)))
            self.after_meld(seat)
        elif words[0] == "layoff":
            assert self.stage == "meld"
            meld_id, cards = int(words[1]), words[2:]
            opener, meld = self.melds[meld_id]
            assert opener in self.side(seat), "lay off only on one's own side's melds (§3.2)"
            for c in cards:
                hand.remove(c)
            meld.extend(cards)
            assert oracle.is_meld(meld), meld
            self.expect("LaidOff", seat=seat, meld_id=meld_id)
            self.after_meld(seat)
        else:
            assert words[0] == "discard" and self.stage == "meld"
            self.discard(seat, words[1])
        for event in entry["events"]:
            self.scorer.feed(_domain(event))
        assert not self.events or self.over, f"unexpected events {self.events}"

    def take_pozzetto(self, seat: int, in_diretta: bool) -> None:
        """§3.4: the first untaken pozzetto becomes the hand; 3 players: P1 makes the solo."""
        index = len(self.takers)
        assert not self.side_took(seat)
        self.expect(
            "PozzettoTaken",
            seat=seat,
            pozzetto=index,
            size=len(self.pozzetti[index]),
            in_diretta=in_diretta,
        )
        self.hands[seat] = list(self.pozzetti[index])
        self.takers.append(seat)
        if self.n == 3 and index == 0 and not self.three_pozzetti:
            self.solo = seat
            self.expect("PairFormed", solo=seat)

    def after_meld(self, seat: int) -> None:
        hand = self.hands[seat]
        if not hand:
            assert not self.side_took(seat), "§3.4: keep a card once the pozzetto is taken"
            self.take_pozzetto(seat, True)
            return
        # §3.5 dead-end rule: a legal discard must remain.
        if len(hand) == 1:
            c = hand[0]
            assert c != self.forbidden
            if self.side_took(seat):
                assert not oracle.is_wild_card(c) and self.side_has_burraco(seat)
        else:
            assert any(c != self.forbidden for c in hand)

    def discard(self, seat: int, c: str) -> None:
        hand = self.hands[seat]
        assert c != self.forbidden, "§3.1 one-card pile rule"
        hand.remove(c)
        self.pile.append(c)
        self.expect("Discarded", seat=seat, card=c)
        self.forbidden = ""
        closed = False
        if not hand:
            if self.side_took(seat):  # §3.5
                assert not oracle.is_wild_card(c) and self.side_has_burraco(seat)
                self.expect("Closed", seat=seat)
                closed = True
            else:
                self.take_pozzetto(seat, False)
                self.locked.add(seat)
        if closed or self.last_turn:
            self.end_hand(seat if closed else -1)
            return
        self.to_act = (seat + 1) % self.n
        self.stage = "acquire"
        # §3.4: a locked pozzetto is seen once the partner has discarded, or, without a
        # partner, when its owner's turn comes.
        for other in sorted(self.locked):
            partners = self.side(other) - {other}
            if (partners and seat in partners) or (not partners and other == self.to_act):
                self.locked.discard(other)
                self.expect("PozzettoUnlocked", seat=other)

    def end_hand(self, closer: int) -> None:
        ended = self.expect("HandEnded", closer=closer)
        assert [sorted(h) for h in ended["hands"]] == [sorted(h) for h in self.hands]
        scored = self.expect("HandScored")
        totals = scored["totals"]
        target = 1505 if self.n == 3 and self.options.three_player_phase_switch else None
        over, winners = oracle.expected_result(
            totals,
            self.hand_number,
            target or self.options.target,
            self.options.hands,
            self.options.max_hands,
        )
        if over:
            self.expect("MatchEnded", winners=list(winners), totals=totals)
            self.over = True
            self.final = (totals, list(winners))
            return
        switch = self.n == 3 and self.options.three_player_phase_switch
        if switch and not self.three_pozzetti and max(totals) >= 1000:  # §2.4.5
            self.three_pozzetti = True
            self.expect("PhaseChanged", three_pozzetti=True)
        self.dealer = (self.dealer + 1) % self.n  # §2.2.2
        self.new_hand(self.pending_hands)

    def run(self) -> None:
        t = self.t
        self.events = list(t["deal"]["events"])
        self.new_hand(t["deal"]["hands"])
        assert not self.events
        for event in t["deal"]["events"]:
            self.scorer.feed(_domain(event))
        for entry in t["moves"]:
            assert not self.over
            self.pending_hands = entry.get("hands", [])
            self.move(entry)
        assert self.over
        assert self.scorer.finished and self.scorer.totals == t["final"]["totals"]
        assert self.final == (t["final"]["totals"], t["final"]["winners"])
        assert t["final"]["hands"] == self.hand_number


def _domain(event: dict[str, Any]) -> object:
    """The events the independent scorer reads, from their JSON form."""
    from mazzo.core.cards import card

    def cs(xs: list[str]) -> tuple[int, ...]:
        return tuple(card(x) for x in xs)

    match event["type"]:
        case "HandDealt":
            return ev.HandDealt(event["hand_number"], event["dealer"], 0, ())
        case "MeldOpened":
            return ev.MeldOpened(event["seat"], event["meld_id"], cs(event["cards"]), event["kind"])
        case "LaidOff":
            return ev.LaidOff(event["seat"], event["meld_id"], cs(event["cards"]))
        case "PozzettoTaken":
            return ev.PozzettoTaken(
                event["seat"], event["pozzetto"], event["size"], event["in_diretta"]
            )
        case "PairFormed":
            return ev.PairFormed(event["solo"], tuple(event["pair"]))
        case "Closed":
            return ev.Closed(event["seat"])
        case "HandEnded":
            return ev.HandEnded(event["closer"], tuple(cs(h) for h in event["hands"]))
        case "HandScored":
            scores = tuple(
                HandScore(tuple(s["seats"]), *[s[k] for k in HandScore._fields[1:]])
                for s in event["scores"]
            )
            return ev.HandScored(scores, tuple(event["credits"]), tuple(event["totals"]))
        case "MatchEnded":
            return ev.MatchEnded(tuple(event["winners"]), tuple(event["totals"]))
    return None


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_golden_transcript_obeys_the_rules(name: str) -> None:
    """Each stored match, checked by an independent referee written from burraco.md."""
    Referee(load(name)).run()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fresh_matches_obey_the_rules(players: int) -> None:
    """The same referee on matches that are not stored: 15 seeds per form, with options."""
    variants: list[dict[str, Any]] = [
        {"hands": 1},
        {"hands": 2, "semipulito": False, "single_card_pile_rule": False},
        {"target": 150, "max_hands": 3, "closing_needs_clean": True},
    ]
    for seed in range(15):
        options = variants[seed % len(variants)]
        Referee(play_match(players, 500 + seed, seed, options)).run()


def test_cards_moved_by_each_transcript_stay_108() -> None:
    """The deal of every stored hand uses all 108 cards once each code twice, jokers four."""
    for name in MATCHES:
        t = load(name)
        deal = dealt(t["seed"], 1, t["deal"]["events"][0]["dealer"], t["players"])
        every = [c for h in deal["hands"] for c in h] + deal["stock"] + [deal["up"]]
        every += [c for p in deal["pozzetti"] for c in p]
        counts = Counter(every)
        assert (
            len(every) == 108
            and counts["JK"] == 4
            and all(v == 2 for k, v in counts.items() if k != "JK")
        )


if __name__ == "__main__":
    GOLDEN.main()
