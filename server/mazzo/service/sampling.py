"""A view's samples, checked: what ``Determinize`` and ``Simulate`` answer with.

Run in the simulator's pool (a thousand samples of a hard Ramino view take seconds):
the server's event loop only decodes the view and encodes the states.
"""

from __future__ import annotations

from typing import Any

from mazzo.codec import GameCodec
from mazzo.codec.wire import first_difference
from mazzo.core.errors import InvalidArgument
from mazzo.v1 import game_pb2


def determinized(rules: Any, codec: GameCodec, view: Any, count: int, seed: int) -> list[Any]:
    """The game's samples of ``view``, each checked to give ``view`` back: a view that
    no deal can give, and that the sampler let through, is refused here, naming the
    first field where the sample's view differs."""
    states = list(rules.determinize(view, count, seed))
    if len(states) != count:
        raise RuntimeError(f"{rules.id}: asked for {count} samples, got {len(states)}")
    for state in states:
        seen = rules.view(state, view.seat)
        if seen != view:
            given, got = game_pb2.GameView(), game_pb2.GameView()
            codec.view_to_wire(view, given)
            codec.view_to_wire(seen, got)
            raise InvalidArgument(
                first_difference(given, got, "view"), "no deal of the cards gives this view"
            )
    return states
