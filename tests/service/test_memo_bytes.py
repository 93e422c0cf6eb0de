"""Issue 13 item 5: every memo holds a bounded number of bytes.

The state memo is bounded by its keys' bytes, and keeps no state above a size of its
own: a client can make long states that pass every check (a Burraco history is only
checked for its form and length), and a flood of them must not grow the process. The
decoders' memos keep no key above a length of their own (see test_memo_keys.py), so
each holds at most its entries times that.
"""

from __future__ import annotations

import random

from mazzo.codec import common
from mazzo.codec.common import MEMO_KEY_LIMIT, memo_for
from mazzo.codec.wire import entry
from mazzo.games.burraco import wire as burraco
from mazzo.games.maraffa import wire as maraffa
from mazzo.games.maraffa.trionfo import wire as maraffa_trionfo
from mazzo.games.ramino import wire as ramino
from mazzo.games.ramino.state import Bets, Bid, BidAction
from mazzo.service import game_service
from mazzo.service.game_service import GameService
from mazzo.service.state_memo import DEFAULT_BYTES, DEFAULT_ENTRY_BYTES, StateMemo
from mazzo.v1 import game_pb2
from mazzo.v1 import game_service_pb2 as gs
from tests.service.padded import played

MiB = 1024 * 1024


def test_the_state_memo_holds_at_most_its_bytes() -> None:
    memo = StateMemo(entries=1000, max_bytes=10_000, entry_bytes=3000)
    for i in range(100):
        memo.put(i.to_bytes(2, "big") * 500, i)  # 1000 bytes each
        assert memo.bytes <= 10_000
    assert memo.count == 10
    assert memo.bytes == 10_000
    assert memo.get((99).to_bytes(2, "big") * 500) == 99  # the latest are kept
    assert memo.get((0).to_bytes(2, "big") * 500) is None


def test_the_state_memo_keeps_no_state_above_its_entry_size() -> None:
    memo = StateMemo(entries=10, max_bytes=10_000, entry_bytes=3000)
    memo.put(b"x" * 3001, "long")
    assert (memo.count, memo.bytes) == (0, 0)
    assert memo.get(b"x" * 3001) is None
    memo.put(b"x" * 3000, "kept")
    memo.put(b"x" * 3000, "again")  # the same key counts once
    assert (memo.count, memo.bytes) == (1, 3000)
    assert memo.get(b"x" * 3000) == "again"


def test_the_state_memo_still_counts_entries() -> None:
    memo = StateMemo(entries=3)
    for i in range(10):
        memo.put(bytes([i]), i)
    assert (memo.count, memo.bytes) == (3, 3)
    assert StateMemo(entries=0).count == 0


def test_the_default_state_memo_holds_256_kib_of_states_of_32_kib() -> None:
    # What a full collection can walk without stalling the loop (state_memo's docstring).
    assert DEFAULT_BYTES == 256 * 1024
    assert DEFAULT_ENTRY_BYTES == 32 * 1024


async def _padded_burraco(cards: int, events: int) -> gs.ApplyMoveRequest:
    """A Burraco state whose history is ``events`` pile pick-ups of ``cards`` cards: long,
    within every bound, and accepted (the rules never read the history)."""
    state, legal = await played("burraco", 4, 20)
    padded = game_pb2.GameState()
    padded.CopyFrom(state)
    taken = padded.burraco.history.add()
    taken.pile_taken.seat = 1
    taken.pile_taken.cards.extend(random.Random(cards).choices(range(1, 53), k=cards))
    padded.burraco.history.extend([taken] * (events - len(padded.burraco.history)))
    return gs.ApplyMoveRequest(state=padded, move=legal[0])


async def test_a_flood_of_long_states_does_not_grow_the_memo() -> None:
    memo = StateMemo(max_bytes=MiB)
    service = GameService(memo=memo)
    request = await _padded_burraco(cards=16, events=1000)  # about 22 KB
    for i in range(60):  # 60 distinct states the server produces and would remember
        request.state.burraco.rng.seed = i
        reply = await service.ApplyMove(request, None)
        assert reply.state.ByteSize() > 20_000
        assert memo.bytes <= MiB
    assert 10 <= memo.count <= MiB // 20_000


async def test_a_state_above_the_entry_size_is_answered_but_not_kept() -> None:
    memo = StateMemo()
    service = GameService(memo=memo)
    request = await _padded_burraco(cards=40, events=1000)
    reply = await service.ApplyMove(request, None)
    assert reply.state.ByteSize() > DEFAULT_ENTRY_BYTES
    assert memo.count == 0
    data = gs.ApplyMoveRequest(state=reply.state, move=reply.legal_moves[0]).SerializeToString()
    await service.apply_move_bytes(data, None)  # a miss: decoded and checked in full
    assert (memo.hits, memo.count) == (0, 0)


# The decoders' memos: their entries times the longest key they keep.

BYTE_MEMOS = [
    ("maraffa table", maraffa._table_from_bytes, MEMO_KEY_LIMIT),
    ("trionfo table", maraffa_trionfo._table_from_bytes, MEMO_KEY_LIMIT),
    ("burraco table", burraco._table_from_bytes, MEMO_KEY_LIMIT),
    ("ramino table", ramino._table_from_bytes, MEMO_KEY_LIMIT),
    ("ramino turn", ramino._turn_from_bytes, ramino._TURN_KEY_LIMIT),
    ("move", game_service._move_from_bytes, game_service._MOVE_KEY_LIMIT),
]


def test_each_decoder_memo_holds_at_most_four_mebibytes_of_keys() -> None:
    total = 0
    for name, memo, limit in BYTE_MEMOS:
        size = memo.cache_info().maxsize
        assert size is not None, name
        assert size * limit <= 4 * MiB, name
        total += size * limit
    assert total <= 21 * MiB
    assert MEMO_KEY_LIMIT == 1024


def test_memo_for_keeps_keys_up_to_the_limit_only() -> None:
    memo = maraffa._table_from_bytes
    assert memo_for(memo, b"x" * MEMO_KEY_LIMIT) is memo
    assert memo_for(memo, b"x" * 1000, b"y" * 24) is memo
    assert memo_for(memo, b"x" * 1000, b"y" * 25) is memo.__wrapped__
    assert memo_for(memo, b"x" * (MEMO_KEY_LIMIT + 1)) is memo.__wrapped__
    assert memo_for(memo, None, b"x" * 10) is memo
    assert common.MEMO_KEY_LIMIT == MEMO_KEY_LIMIT


async def test_a_table_padded_past_the_limit_is_not_kept() -> None:
    state, _ = await played("ramino", 3, 0)
    memo = ramino._table_from_bytes
    memo.cache_clear()
    for pad in (MEMO_KEY_LIMIT - 200, MEMO_KEY_LIMIT + 1):
        padded = game_pb2.GameState()
        padded.CopyFrom(state)
        size = pad - padded.ramino.table.ByteSize() - 4
        padded.ramino.table.MergeFromString(entry(999, b"x" * size))
        ramino.state_from_wire(padded)
    assert memo.cache_info().currsize == 1  # the one under the limit


def test_long_ramino_bets_are_encoded_without_the_memo() -> None:
    few = Bets(
        (0, 0), 2, (1, 1), 0, 0, 1, (1, 1), (), -1, -1, -1, False, (Bid(0, BidAction.OPEN, 1),)
    )
    many = few._replace(bids=tuple(Bid(i % 2, BidAction.ACCEPT, 0) for i in range(65)))
    memo = ramino._memo_bets_bytes
    memo.cache_clear()
    assert ramino._bets_bytes(many) == ramino._bets_bytes(many)
    assert memo.cache_info().currsize == 0
    ramino._bets_bytes(few)
    assert memo.cache_info().currsize == 1
