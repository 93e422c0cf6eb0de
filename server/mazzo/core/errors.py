"""Domain errors: what a client did wrong, with the field at fault.

The service maps these to status codes in one place: ``InvalidState`` and
``IllegalMove`` to INVALID_ARGUMENT, ``NotAllowedNow`` to FAILED_PRECONDITION,
each with a ``google.rpc.BadRequest`` field violation built from ``field``.
Field paths are relative to the request (``state.maraffa.hands[2].cards``).
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base of every error a client can cause. ``field`` names the input at fault."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}" if field else reason)
        self.field = field
        self.reason = reason

    def __reduce__(self) -> tuple[type[RulesError], tuple[str, str]]:
        # Raised in the simulator's worker processes and pickled back: the default
        # pickling would call ``__init__`` with the one joined message.
        return (type(self), (self.field, self.reason))


class InvalidArgument(RulesError):
    """A request field is malformed or out of range (unknown game, bad option)."""


class InvalidState(RulesError):
    """A state breaks the game's invariants: it cannot have arisen by the rules."""


class IllegalMove(RulesError):
    """A move the rules do not allow in this state."""


class NotAllowedNow(RulesError):
    """The request is well-formed but the state does not allow it (match over)."""
