"""A view's samples, checked: what ``Determinize`` and ``Simulate`` answer with.

Run in the simulator's pool (a thousand samples of a hard Ramino view take seconds):
the server's event loop only decodes the view and passes the answer on.
"""

from __future__ import annotations

from typing import Any

from mazzo.codec import GameCodec
from mazzo.codec.wire import first_difference
from mazzo.core.errors import InvalidArgument, NotAllowedNow
from mazzo.core.rules import AnyRules
from mazzo.v1 import game_pb2, game_service_pb2

#: Simulate: moves a call may play, by the rules' bound on a playout's length: a few
#: seconds of a core for the longest (Maraffa plays about 400,000 random moves a second).
MAX_SIMULATED_MOVES = 2_000_000


def determinized(rules: AnyRules, codec: GameCodec, view: Any, count: int, seed: int) -> list[Any]:
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


def decision(rules: AnyRules, state: Any) -> tuple[int, Any]:
    """The seat to act and its legal moves (seat 0 and none once the match is over)."""
    if rules.finished(state):
        return 0, ()
    return rules.to_act(state), rules.legal_moves(state)


def determinize_response(
    rules: AnyRules, codec: GameCodec, view: Any, count: int, seed: int
) -> bytes:
    """``Determinize``'s whole answer, encoded where it was sampled: a thousand states
    written on the server's event loop would stall the other calls."""
    response = game_service_pb2.DeterminizeResponse()
    for state in determinized(rules, codec, view, count, seed):
        seat, _ = decision(rules, state)
        codec.state_to_wire(state, seat, response.states.add())
    return response.SerializeToString()


def simulation_plan(rules: AnyRules, samples: list[Any], to_match_end: bool) -> tuple[int, int]:
    """For samples of one position: how many legal moves, and the longest playout the
    rules allow (``moves_bound``); the legal moves must be the same in every sample."""
    moves = rules.legal_moves(samples[0])
    if any(rules.legal_moves(s) != moves for s in samples[1:]):
        raise RuntimeError(f"{rules.id}: the samples of one view differ in their legal moves")
    return len(moves), max(rules.moves_bound(s, to_match_end) for s in samples)


def check_budget(moves: int, playouts: int, samples: int, limit: int) -> None:
    """Refuse a simulation that may play more than ``MAX_SIMULATED_MOVES``: ``moves``
    legal moves x ``playouts`` x ``samples``, each playout up to ``limit`` moves (and
    the move played first)."""
    asked = moves * playouts * samples * (limit + 1)
    if asked > MAX_SIMULATED_MOVES:
        raise InvalidArgument(
            "playouts",
            f"{moves} moves x {playouts} playouts x {samples} samples may "
            f"simulate up to {asked:,} moves ({limit + 1} a playout, by the rules' "
            f"bound); the budget is {MAX_SIMULATED_MOVES:,} a call",
        )


def check_decides(rules: AnyRules, view: Any, sample: Any) -> None:
    """A view searched from must be the deciding seat's (the dummy's is its
    controller's): from another seat the samples' legal moves are not its own."""
    to_act = rules.to_act(sample)
    decider = rules.controller(sample, to_act)
    if view.seat not in (to_act, decider):
        raise NotAllowedNow(
            "view.seat",
            f"seat {view.seat} does not decide now (seat {decider} does): simulate "
            "from the view of the seat to move",
        )
