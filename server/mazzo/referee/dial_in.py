"""``connect:NAME``: a seat played by a bot that dialed in to the run's gateway.

The gateway (``mazzo.gateway``) carries the decisions; this is the referee's
``Transport`` over it, which turns what the gateway saw into the fault classes every
bot is judged by: no answer in time is a ``timeout``, an answer for another
decision, match or seat is ``illegal``, one with neither index nor move is
``malformed``, and a bot gone past the grace is a ``crash``.
"""

from __future__ import annotations

from collections.abc import Iterable

from mazzo.gateway.server import Miss, Seat
from mazzo.referee.transports import Fault, Reply
from mazzo.v1 import bot_pb2

_FAULTS = {Miss.TIMEOUT: Fault.TIMEOUT, Miss.WRONG: Fault.ILLEGAL, Miss.GONE: Fault.CRASH}


class DialInBot:
    """One match's use of a dial-in seat; several matches may share the seat."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self._match = ""
        self._move = 0.0
        self._gone = False

    @property
    def alive(self) -> bool:
        return not self._gone

    async def start(self) -> None:
        return None

    def new_match(self, seed: int) -> None:
        return None

    def match_started(
        self, match_id: str, game: str, players: int, seats: Iterable[int], move: float
    ) -> None:
        """Tell the bot its match and seats; ``move`` splits its time into move and bank."""
        self._match, self._move = match_id, move
        self.seat.started(match_id, game, players, seats)

    def match_ended(
        self, match_id: str, winners: Iterable[int], forfeit: str, recorded: bool = True
    ) -> None:
        self.seat.ended(match_id, winners, forfeit, recorded)

    async def act(self, request: bot_pb2.ActRequest, timeout: float) -> Reply:
        outcome = await self.seat.decide(self._match, request, timeout, self._move)
        if outcome.miss is not None:
            if outcome.miss is Miss.GONE:
                self._gone = True
            return Reply(None, outcome.elapsed, _FAULTS[outcome.miss], outcome.detail)
        response = outcome.response
        if response is None or response.WhichOneof("choice") is None:
            return Reply(None, outcome.elapsed, Fault.MALFORMED, "neither index nor move")
        return Reply(response, outcome.elapsed)

    async def close(self) -> None:
        return None
