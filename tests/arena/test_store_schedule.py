"""What the store tells the scheduler, on SQLite and PostgreSQL alike: a ladder's bots
with their ratings, owners and whether they are busy or paused; the matches queued;
the bots to pause after faults in match after match, with the reason."""

from __future__ import annotations

import pytest

from mazzo.arena.models import MU, SIGMA
from mazzo.arena.store import LadderInfo, Refused, Store
from tests.arena.test_store import play, record, two_player_ladder


def test_a_ladder_lists_its_bots_with_what_matchmaking_weighs(store: Store) -> None:
    ladder = store.add_ladder("maraffa", 4, {"target": 41})
    other = store.add_ladder("briscola", 2)
    assert store.ladders() == [
        LadderInfo(ladder, "maraffa", 4, {"target": 41}),
        LadderInfo(other, "briscola", 2, {}),
    ]
    assert store.ladder(other).options == {}
    with pytest.raises(Refused):
        store.ladder(999)
    store.add_owner("ada")
    store.add_owner("bob")
    store.add_bot("ada", "ada-1", ladder, "builtin", "builtin:random")
    store.add_bot("bob", "bob-1", ladder)
    store.add_bot("bob", "bob-2", other, "builtin", "builtin:heuristic")
    store.pause_bot("bob-1", "its owner asked")
    bots = {b.name: b for b in store.ladder_bots(ladder)}
    assert sorted(bots) == ["ada-1", "bob-1"]
    ada, bob = bots["ada-1"], bots["bob-1"]
    assert (ada.owner, ada.kind, ada.target) == ("ada", "builtin", "builtin:random")
    assert (ada.mu, ada.sigma, ada.games, ada.faults) == (MU, SIGMA, 0, 0)
    assert ada.paused_reason is None and bob.paused_reason == "its owner asked"
    assert (bob.kind, bob.target) == ("dial-in", "")
    assert not ada.busy and not bob.busy


def test_bots_in_a_scheduled_or_playing_match_are_busy_and_the_queue_counts_them(
    store: Store,
) -> None:
    ladder = two_player_ladder(store, "p", "q", "r")
    assert store.queued(ladder) == 0
    ids = store.schedule_set(ladder, ["p", "q"])
    assert store.queued(ladder) == 2
    assert {b.name: b.busy for b in store.ladder_bots(ladder)} == {
        "p": True,
        "q": True,
        "r": False,
    }
    assert [b.name for b in store.seat_bots(ids[1])] == ["q", "p"]
    play(store, "w1", [0])  # finished: no longer queued
    assert store.queued(ladder) == 1
    store.void(ids[1], "by hand")
    assert store.queued(ladder) == 0
    assert not any(b.busy for b in store.ladder_bots(ladder))


def test_a_bot_that_faults_in_match_after_match_is_paused_with_the_reason(store: Store) -> None:
    ladder = two_player_ladder(store, "p", "q")

    def match(faults: list[int]) -> str:
        store.schedule_set(ladder, ["p", "q"], rotations=1)
        return str(play(store, "w1", [1], faults=faults)["id"])  # p sits at seat 0

    for faults in ([0, 0], [], [0, 0]):
        last = match(faults)
    assert store.pause_faulty(last, limit=3, window=3) == {}  # faults in 2 matches of 3
    last = match([0])
    paused = store.pause_faulty(last, limit=3, window=4)
    assert list(paused) == ["p"]
    assert paused["p"] == f"5 faults in 3 of its last 4 matches (the last in {last})"
    table = {s.bot: s for s in store.standings(ladder)}
    assert table["p"].paused_reason == paused["p"] and table["q"].paused_reason is None
    assert store.pause_faulty(last, limit=3, window=4) == {}  # paused already
    with pytest.raises(Refused):
        store.pause_faulty(last, limit=5, window=4)


def test_a_finish_can_pause_its_faulty_bots_in_its_own_transaction(store: Store) -> None:
    ladder = two_player_ladder(store, "p", "q")
    store.schedule_set(ladder, ["p", "q"], rotations=1)
    claim = store.claim("w1")
    assert claim is not None
    done = record(claim.match_id, claim.seed, [1], [[0], [1]], faults=[1, 1, 1])
    stored = store.finish(claim.match_id, "w1", done, pause=(1, 1))
    reason = f"3 faults in 1 of its last 1 matches (the last in {claim.match_id})"
    assert stored.paused == {"q": reason}
    assert {s.bot: s.paused_reason for s in store.standings(ladder)} == {"p": None, "q": reason}
    assert store.finish(claim.match_id, "w1", done, pause=(1, 1)).paused == {}  # counted once


def test_a_finish_pauses_only_a_bot_that_faulted_in_it(store: Store) -> None:
    """A clean match cannot bring a bot to the limit: a bot whose owner resumed it after
    its faults plays again, and is paused again only by a fault of its own."""
    ladder = two_player_ladder(store, "p", "q")

    def finish(faults: list[int]) -> dict[str, str]:
        store.schedule_set(ladder, ["p", "q"], rotations=1)
        claim = store.claim("w1")
        assert claim is not None
        done = record(claim.match_id, claim.seed, [1], [[0], [1]], faults=faults)
        return store.finish(claim.match_id, "w1", done, pause=(2, 3)).paused

    assert finish([0]) == {}
    assert list(finish([0])) == ["p"]  # faults in 2 of its last 2
    store.pause_bot("p", None)  # its owner resumes it
    assert finish([]) == {}  # clean: played on, though 2 of its last 3 were faulty
    assert list(finish([0])) == ["p"]
