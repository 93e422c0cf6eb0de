"""The arena's store, on SQLite and PostgreSQL alike: tokens kept hashed, a match
claimed by one worker only, a result counted once, stale claims voided with a reason."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select, text, update

from mazzo.arena.models import MU, SIGMA, Match, RatingUpdate, Skill, utcnow
from mazzo.arena.store import Refused, Store
from mazzo.gateway import tokens

Json = dict[str, Any]


def two_player_ladder(store: Store, *bots: str) -> int:
    """A Burraco 2-player ladder with one owner's bots on it."""
    ladder = store.add_ladder("burraco", 2, {"target": 2005})
    store.add_owner("house")
    for name in bots:
        store.add_bot("house", name, ladder, "builtin", "builtin:random")
    return ladder


def record(
    claim_id: str,
    seed: int,
    winners: list[int],
    sides: list[list[int]],
    faults: list[int] = (),  # type: ignore[assignment]
    commitment: str = "c0",
) -> Json:
    """The parts of a `mazzo match` record the store reads (docs/referee.md#records)."""
    return {
        "mazzo_record": 1,
        "id": claim_id,
        "seed": seed,
        "deal_commitment": commitment,
        "sides": [{"entrant": f"side{i}", "seats": seats} for i, seats in enumerate(sides)],
        "faults": [{"seat": seat, "class": "timeout"} for seat in faults],
        "result": {"finished": True, "winners": winners, "forfeit": None},
    }


def play(store: Store, worker: str, winners: list[int], **kw: Any) -> Json:
    """Claim the next match and finish it with ``winners`` (two sides of one seat)."""
    claim = store.claim(worker)
    assert claim is not None
    done = record(claim.match_id, claim.seed, winners, kw.pop("sides", [[0], [1]]), **kw)
    store.finish(claim.match_id, worker, done)
    return done


def rows(store: Store, table: type[Any]) -> int:
    with store.engine.connect() as connection:
        return int(connection.scalar(select(func.count()).select_from(table)) or 0)


def test_tokens_are_kept_only_as_hashes_and_compared_in_constant_time(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = store.add_owner("ada")
    ladder = store.add_ladder("maraffa", 4)
    bot = store.add_bot("ada", "ada-bot", ladder)
    dump = []
    with store.engine.connect() as connection:
        for table in ("owners", "bots"):
            dump += [str(row) for row in connection.execute(text(f"SELECT * FROM {table}"))]
    everything = "\n".join(dump)
    assert owner.token not in everything and bot.token not in everything
    assert tokens.token_hash(owner.token) in everything
    assert tokens.token_hash(bot.token) in everything

    compared = []
    real = tokens.hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(tokens.hmac, "compare_digest", spy)
    found = store.find_bot(bot.token)
    assert found is not None and (found.name, found.owner) == ("ada-bot", "ada")
    assert compared, "the token was not compared with hmac.compare_digest"
    assert store.find_owner(owner.token) == "ada"
    assert store.find_bot(owner.token) is None  # an owner's token is no bot's
    assert store.find_bot(bot.token[:-1] + "x") is None
    assert store.find_owner("") is None


def test_an_owner_lists_its_own_bots_and_no_one_elses(store: Store) -> None:
    ladder = store.add_ladder("ramino", 4)
    ada, bob = store.add_owner("ada"), store.add_owner("bob")
    store.add_bot("ada", "ada-1", ladder)
    store.add_bot("ada", "ada-2", ladder, "grpc", "grpc://127.0.0.1:50051")
    store.add_bot("bob", "bob-1", ladder, "builtin", "builtin:heuristic")
    assert [b.name for b in store.owner_bots(ada.token)] == ["ada-1", "ada-2"]
    assert [b.name for b in store.owner_bots(bob.token)] == ["bob-1"]
    with pytest.raises(Refused):
        store.owner_bots("not a token")
    with pytest.raises(Refused):
        store.add_bot("bob", "ada-1", ladder)  # names are unique across owners
    with pytest.raises(Refused):
        store.add_owner("ada")


def test_a_duplicate_set_shares_its_seed_and_rotates_the_seats(store: Store) -> None:
    ladder = store.add_ladder("maraffa", 4, {"target": 41})
    assert store.add_ladder("maraffa", 4, {"target": 41}) == ladder  # one ladder per form
    store.add_owner("house")
    for name in "abcd":
        store.add_bot("house", name, ladder)
    ids = store.schedule_set(ladder, ["a", "b", "c", "d"], seed=7)
    assert [store.seats(i) for i in ids] == [
        ["a", "b", "c", "d"],
        ["d", "a", "b", "c"],
        ["c", "d", "a", "b"],
        ["b", "c", "d", "a"],
    ]
    assert {store.match(i).seed for i in ids} == {7}
    assert len(store.schedule_set(ladder, ["a", "b", "c", "d"], rotations=2)) == 2
    with pytest.raises(Refused):
        store.schedule_set(ladder, ["a", "b", "c"])  # the ladder seats four


def test_two_workers_never_claim_the_same_match_nor_seat_a_bot_twice(
    url: str, store: Store
) -> None:
    pairs = [(f"p{k}", f"q{k}") for k in range(15)]
    ladder = two_player_ladder(store, *(bot for pair in pairs for bot in pair))
    sets = [store.schedule_set(ladder, list(pair)) for pair in pairs]
    set_ids = sorted(store.match(first).set_id for first, _second in sets)
    got: dict[str, list[str]] = {"w1": [], "w2": []}
    start = threading.Barrier(2)

    errors: list[BaseException] = []

    def worker(name: str) -> None:
        try:
            with Store(url, migrate=False) as own:  # its own engine and connections
                start.wait()
                while (claim := own.claim(name)) is not None:
                    got[name].append(claim.match_id)
        except BaseException as e:  # a worker that died (SQLite: "database is locked")
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(name,)) for name in got]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    claims = Counter(got["w1"] + got["w2"])
    assert set(claims.values()) == {1}
    # One match of each set: the other seats the same bots, in play (which of the two
    # a race decides).
    assert sorted(store.match(i).set_id for i in claims) == set_ids
    for name, ids in got.items():
        assert {store.match(i).claimed_by for i in ids} <= {name}
    assert store.claim("w3") is None


def test_a_result_that_arrives_twice_counts_once(store: Store) -> None:
    ladder = two_player_ladder(store, "p", "q")
    store.schedule_set(ladder, ["p", "q"], rotations=1)
    claim = store.claim("w1")
    assert claim is not None
    # The claim carries what its worker needs to play it: no other transaction.
    assert claim.ladder == store.ladder(ladder)
    assert list(claim.bots) == store.seat_bots(claim.match_id)
    assert claim.seats == tuple(b.name for b in claim.bots)
    done = record(claim.match_id, claim.seed, [0], [[0], [1]])
    first = store.finish(claim.match_id, "w1", done)
    standings = store.standings(ladder)
    again = store.finish(claim.match_id, "w1", dict(done))
    assert not first.repeated and again.repeated
    assert again.changes == first.changes
    assert rows(store, RatingUpdate) == 2  # one per bot, once
    assert store.standings(ladder) == standings
    assert [s.games for s in standings] == [1, 1]


def test_another_record_for_a_finished_match_is_refused(store: Store) -> None:
    ladder = two_player_ladder(store, "p", "q")
    store.schedule_set(ladder, ["p", "q"], rotations=1)
    claim = store.claim("w1")
    assert claim is not None
    store.finish(claim.match_id, "w1", record(claim.match_id, claim.seed, [0], [[0], [1]]))
    standings = store.standings(ladder)
    with pytest.raises(Refused, match="another record"):
        store.finish(claim.match_id, "w1", record(claim.match_id, claim.seed, [1], [[0], [1]]))
    assert store.standings(ladder) == standings
    assert store.match(claim.match_id).record["result"]["winners"] == [0]  # type: ignore[index]


def test_a_rating_update_keeps_the_values_before_and_after(store: Store) -> None:
    ladder = two_player_ladder(store, "p", "q")
    store.schedule_set(ladder, ["p", "q"])  # p at seat 0, then q at seat 0
    first = store.claim("w1")
    assert first is not None
    won = store.finish(first.match_id, "w1", record(first.match_id, first.seed, [0], [[0], [1]]))
    p, q = won.changes  # p, at seat 0, won: the set is not over, nothing rated yet
    assert (p.bot, q.bot) == ("p", "q")
    assert p.before == p.after == q.before == q.after == Skill(MU, SIGMA)
    assert [s.games for s in store.standings(ladder)] == [1, 1]
    second = store.claim("w1")
    assert second is not None
    again = store.finish(
        second.match_id, "w1", record(second.match_id, second.seed, [1], [[0], [1]])
    )
    p2, q2 = again.changes  # p, at seat 1, won again: the set is p's, rated as one win
    assert p2.before == p.after and q2.before == q.after
    assert p2.after.mu > MU > q2.after.mu
    assert p2.after.sigma < SIGMA and q2.after.sigma < SIGMA
    table = {s.bot: s for s in store.standings(ladder)}
    assert (table["p"].mu, table["p"].sigma) == (p2.after.mu, p2.after.sigma)
    assert store.rating_changes(first.match_id) == list(won.changes)
    assert store.rating_changes(second.match_id) == list(again.changes)


def test_partners_are_rated_as_a_team_and_faults_counted_per_bot(store: Store) -> None:
    ladder = store.add_ladder("maraffa", 4)
    store.add_owner("house")
    for name in ("a", "b", "c", "d"):
        store.add_bot("house", name, ladder, "builtin", "builtin:random")
    store.schedule_set(ladder, ["a", "b", "c", "d"], rotations=1)
    # Maraffa's sides: seats 0 and 2 (a, c) against 1 and 3 (b, d).
    play(store, "w1", [1], sides=[[0, 2], [1, 3]], faults=[2, 2, 1])
    table = {s.bot: s for s in store.standings(ladder)}
    assert table["b"].mu == table["d"].mu > MU > table["a"].mu == table["c"].mu
    assert {bot: s.faults for bot, s in table.items()} == {"a": 0, "b": 1, "c": 2, "d": 0}
    assert [s.bot for s in store.standings(ladder)][:2] == ["b", "d"]


def test_a_stale_claim_is_voided_with_its_reason(store: Store) -> None:
    ladder = two_player_ladder(store, "p", "q", "r", "s")
    store.schedule_set(ladder, ["p", "q"])
    store.schedule_set(ladder, ["r", "s"])
    dead, alive = store.claim("dead-worker"), store.claim("live-worker")
    assert dead is not None and alive is not None
    with store.engine.begin() as connection:  # the dead worker's last heartbeat: long ago
        connection.execute(
            update(Match)
            .where(Match.id == dead.match_id)
            .values(heartbeat_at=utcnow() - timedelta(minutes=10))
        )
    assert store.void_stale(timedelta(minutes=1)) == [dead.match_id]
    voided = store.match(dead.match_id)
    assert voided.status == "voided" and voided.finished_at is not None
    assert voided.voided_reason is not None and "dead-worker" in voided.voided_reason
    assert store.match(alive.match_id).status == "playing"
    assert not store.heartbeat(dead.match_id, "dead-worker")  # told to stop
    assert store.heartbeat(alive.match_id, "live-worker")
    late = record(dead.match_id, dead.seed, [0], [[0], [1]])
    with pytest.raises(Refused, match="voided"):
        store.finish(dead.match_id, "dead-worker", late)
    assert rows(store, RatingUpdate) == 0
    assert store.void_stale(timedelta(minutes=1)) == []


def test_only_the_claiming_worker_finishes_and_only_its_own_match(store: Store) -> None:
    ladder = two_player_ladder(store, "p", "q")
    ids = store.schedule_set(ladder, ["p", "q"])
    with pytest.raises(Refused, match="scheduled"):
        store.finish(ids[0], "w1", record(ids[0], store.match(ids[0]).seed, [0], [[0], [1]]))
    claim = store.claim("w1")
    assert claim is not None
    done = record(claim.match_id, claim.seed, [0], [[0], [1]])
    with pytest.raises(Refused, match="not being played by 'w2'"):
        store.finish(claim.match_id, "w2", done)
    with pytest.raises(Refused, match="no result"):
        store.finish(claim.match_id, "w1", {**done, "result": None})
    with pytest.raises(Refused, match="not of match"):
        store.finish(claim.match_id, "w1", {**done, "seed": claim.seed + 1})
    with pytest.raises(Refused, match="not being played by 'w2'"):
        store.publish_commitment(claim.match_id, "w2", "c0")
    with pytest.raises(Refused, match="no match"):
        store.publish_commitment("no-such-match", "w1", "c0")
    store.publish_commitment(claim.match_id, "w1", "c0")
    store.publish_commitment(claim.match_id, "w1", "c0")  # again, the same: kept
    with pytest.raises(Refused, match="another deal commitment already"):
        store.publish_commitment(claim.match_id, "w1", "c1")
    with pytest.raises(Refused, match="deal commitment"):
        store.finish(claim.match_id, "w1", {**done, "deal_commitment": "c1"})
    assert store.finish(claim.match_id, "w1", done).changes
    assert store.match(claim.match_id).deal_commitment == "c0"
