"""What every game's codec does alike: checking incoming numbers against what the wire
allows, passing ids that already are wire enum numbers, and memoising options.

Kept apart from the games' codecs so that each of them shows only its own messages.
The checkers are built once per game (closures, not calls through a shared function
with more arguments) because they run on every state a client sends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from enum import IntEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

from mazzo.core.errors import InvalidArgument, InvalidState, RulesError

if TYPE_CHECKING:
    from functools import _lru_cache_wrapper

T = TypeVar("T")
V = TypeVar("V")
E = TypeVar("E", bound=IntEnum)


class _Message(Protocol):
    """Any generated protobuf message."""

    def SerializeToString(self) -> bytes: ...


Msg = TypeVar("Msg", bound=_Message)


def as_wire(values: Iterable[int]) -> Iterable[Any]:
    """Ids (cards, signals) as the wire enum values they already are: typing only."""
    return values


class Checker(Protocol):
    """What ``members_checker`` returns: ``error`` is InvalidState unless given."""

    def __call__(
        self, values: Iterable[int], field: str, error: type[RulesError] = ..., /
    ) -> tuple[int, ...]: ...


def members_checker(allowed: frozenset[int], message: str) -> Checker:
    """A check of a repeated field: each value must be in ``allowed``; ``message`` names
    the first that is not (``{}`` stands for it), at ``field[i]``, as ``error``."""

    def check(
        values: Iterable[int], field: str, error: type[RulesError] = InvalidState
    ) -> tuple[int, ...]:
        got = tuple(values)
        if not allowed.issuperset(got):
            i = next(i for i, v in enumerate(got) if v not in allowed)
            raise error(f"{field}[{i}]", message.format(got[i]))
        return got

    return check


class OneChecker(Protocol):
    """What ``member_checker`` returns: ``error`` is InvalidState unless given."""

    def __call__(self, value: int, field: str, error: type[RulesError] = ..., /) -> int: ...


def member_checker(allowed: frozenset[int], message: str) -> OneChecker:
    """A check of a single field (a card): its value must be in ``allowed``; ``message``
    says why not (``{}`` stands for the value), at ``field``, as ``error``."""

    def check(value: int, field: str, error: type[RulesError] = InvalidState) -> int:
        if value not in allowed:
            raise error(field, message.format(value))
        return value

    return check


def by_number(
    table: Mapping[int, V], value: int, field: str, error: type[RulesError] = InvalidState
) -> V:
    """The member of a wire enum's number; one outside ``table`` is an unknown value."""
    try:
        return table[value]
    except KeyError:
        raise error(field, f"unknown value {value}") from None


def phase_of(
    phases: Mapping[int, V],
    value: int,
    over: V,
    finished: bool,
    field: str,
    finished_field: str,
    error: type[RulesError] = InvalidState,
    unknown: str = "unknown {name} {value}",
) -> V:
    """The phase (a stage, in Burraco) of a state or a view by its wire number at
    ``field``: a known one, and the last (``over``) exactly when the envelope says
    ``finished``, which is what clients read."""
    phase = phases.get(value)
    if phase is not None and finished == (phase is over):
        return phase
    name = field.rsplit(".", 1)[-1]
    if phase is None:
        raise error(field, unknown.format(name=name, value=value))
    raise error(finished_field, f"finished must be true exactly in {name} OVER")


def memoised_encoder(build: Callable[[T], _Message]) -> Callable[[T], bytes]:
    """The wire bytes of what ``build`` makes of a value, memoised: options are encoded
    into every state and reply, and there are few distinct sets of them."""

    @lru_cache(maxsize=TABLE_ENTRIES)
    def encode(value: T) -> bytes:
        return build(value).SerializeToString()

    return encode


def option_enum(value: int, enum: type[E], default: E, field: str) -> E:
    """An enum-valued option: 0 (unset) means its default; an unknown number is refused."""
    if value == 0:
        return default
    try:
        return enum(value)
    except ValueError:
        raise InvalidArgument(field, f"unknown value {value}") from None


#: Entries of each memo of encoded or decoded parts (hands, turns, events, melds):
#: enough for the parts that come back in the next request of the matches in flight
#: (the bench's and the soak's 64), few enough that a server under steady load
#: reaches its full size within minutes and then stays flat (``make soak``).
MEMO_ENTRIES: Final = 1024

#: Entries of each memo of a match's slow-changing parts (tables, options, match
#: scores, the deal's seed and counter): each changes at most once a hand, so under
#: steady load only a few new ones come each second, and a memo of 1,024 (or the
#: validators' 4,096) was still filling, and the server's memory still growing, ten
#: minutes into ``make soak``. Four times the 64 matches in flight of the soak and
#: the bench, as the state memo (``service.state_memo``).
TABLE_ENTRIES: Final = 256

#: The longest wire bytes a decoder's memo keeps as a key. proto3 keeps unknown
#: fields, so a client can make a table or a set of options as long as a whole
#: request: a memo of thousands of such keys could hold gigabytes. Longer bytes are
#: decoded without the memo (real ones are under 150 bytes: a table with its last
#: hand): each memo of MEMO_ENTRIES keys holds at most 1 MiB of them.
MEMO_KEY_LIMIT: Final = 1024


def memo_for(
    cached: _lru_cache_wrapper[T], *keys: bytes | None, limit: int = MEMO_KEY_LIMIT
) -> Callable[..., T]:
    """``cached`` (an ``lru_cache`` of a decoder) if its byte keys are short enough to
    keep, else the function it wraps, which decodes without remembering."""
    if sum(len(key) for key in keys if key) <= limit:
        return cached
    return cached.__wrapped__


def memoised_decoder(
    parse: Callable[[bytes], Msg], decode: Callable[[Msg, str], T]
) -> Callable[[Msg, str], T]:
    """``decode`` memoised on the message's bytes: a match keeps its options from deal
    to end, so each distinct set is decoded (and checked) once."""

    def decode_bytes(data: bytes, field: str) -> T:
        return decode(parse(data), field)

    # Wrapped by a call, not by a decorator: compiled by mypyc, a decorated nested
    # function read by a sibling closure is unbound there (UnboundLocalError).
    from_bytes = lru_cache(maxsize=TABLE_ENTRIES)(decode_bytes)

    def from_wire(msg: Msg, field: str) -> T:
        data = msg.SerializeToString()
        return memo_for(from_bytes, data)(data, field)

    return from_wire
