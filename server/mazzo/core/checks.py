"""The checks of a state from outside that every game makes alike.

A state is plain data that a client may build by hand, so each game's ``validate``
checks every field and names the wire field at fault. Every game's table carries a
seeded generator, a dealer and a count of its hands; those fields are checked here,
once, with the same bounds and the same words for every game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Protocol, TypeVar

from mazzo.core.errors import InvalidArgument, InvalidState

Opt = TypeVar("Opt")

#: Far more deals than any match makes, and room to count on within 64 bits.
MAX_COUNTER: Final = 2**63
#: Far more hands than any match has (Maraffa's target is at most 1,000,000 points, and
#: each hand gives the sides 10 points or more together; Ramino's match_hands decided
#: hands have fewer than match_hands void hands before each, about 10**8), and room on
#: the wire (uint32) for the next hand's number: a state at hand 2**32 - 1 could not be
#: written after it.
MAX_HAND_NUMBER: Final = 2**31


class Dealing(Protocol):
    """The fields of a table that every game's has: the generator and the dealer."""

    @property
    def seed(self) -> int: ...

    @property
    def counter(self) -> int: ...

    @property
    def dealer(self) -> int: ...


def check_seat(value: int, seats: int, field: str) -> None:
    """A seat number of a table of ``seats``."""
    if not 0 <= value < seats:
        raise InvalidState(field, f"seat {value} is out of range 0..{seats - 1}")


def check_dealing(table: Dealing, seats: int, state: str) -> None:
    """The generator's seed and counter, and the dealer; ``state`` is the prefix of the
    game's state fields (``state.briscola.``), under which the table is ``table.``."""
    if not 0 <= table.seed < 2**64:
        raise InvalidState(state + "rng.seed", "the seed must fit in 64 bits")
    if not 1 <= table.counter < MAX_COUNTER:
        raise InvalidState(
            state + "rng.counter", f"the generator counter must be 1..{MAX_COUNTER - 1}"
        )
    check_seat(table.dealer, seats, state + "table.dealer")


def check_hand_number(number: int, field: str, noun: str = "hand") -> None:
    """The number of the hand (``noun``: a Trionfo deal) being played: from 1."""
    if not 1 <= number <= MAX_HAND_NUMBER:
        raise InvalidState(field, f"{noun} numbers are 1..{MAX_HAND_NUMBER}")


def options_in_state(error: InvalidArgument, table: str, game: str) -> InvalidState:
    """The error of the options a state carries: ``check_options`` names the request's
    field (``options.<game>.…``); in a state they stand at ``table`` + ``options.…``."""
    field = table + "options." + error.field.removeprefix(f"options.{game}.")
    return InvalidState(field, error.reason)


def check_state_options(
    check: Callable[[Opt, int], None], options: Opt, players: int, table: str, game: str
) -> None:
    """The options a state carries, checked by the game's ``check_options`` as a
    request's are, the error moved to the state's table (``options_in_state``)."""
    try:
        check(options, players)
    except InvalidArgument as e:
        raise options_in_state(e, table, game) from e
