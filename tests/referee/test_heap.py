"""Once many bots are seated, the referee freezes what holds them and makes full
collections rare (referee.heap): the gateway bench's full collections paused it
145-264 ms with 1,000 bots."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from mazzo.referee import heap


@pytest.fixture
def collector() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


@pytest.mark.usefixtures("collector")
def test_settling_freezes_what_is_held_and_spaces_the_full_collections() -> None:
    held = [[n] for n in range(1000)]  # containers the collector tracks
    young, middle, _ = gc.get_threshold()
    heap.settle()
    assert gc.get_freeze_count() >= len(held)
    assert gc.get_threshold() == (young, middle, heap.FULL_EVERY)
    assert heap.FULL_EVERY > 10  # CPython's own: a full collection every 10 middle ones
