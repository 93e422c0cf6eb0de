"""Saved policies: a documented file of arrays, loaded without running any code from it,
and played by the referee as ``builtin:policy?path=FILE`` (docs/rl.md, "Policy files").

A policy file is a NumPy ``.npz`` archive read with ``allow_pickle=False`` (an object
array, the only way code could ride along, is refused by NumPy itself) holding:

- ``header``: a JSON object as a 0-d string array: ``format`` (1), ``game``
  (a registered game's id), ``observation`` and ``actions`` (the sizes of
  the game's observation and action space, as ``mazzo.rl`` lays them out), ``layers``
  (how many dense layers), and optionally ``players`` (the forms it was trained for,
  for the reader; not enforced) and ``note`` (free text).
- ``w0``, ``b0``, … ``w{n-1}``, ``b{n-1}``: the dense layers, ``w{i}`` of shape
  ``(inputs, outputs)`` and ``b{i}`` of shape ``(outputs,)``, floating point; the first
  takes the observation, the last gives one number (a logit) per action, and a ReLU
  sits between layers. One layer is a linear policy.

The player computes the logits of its seat's observation and plays the legal action
with the highest (the lowest index among equals); with ``temperature=T`` it draws
from the softmax of the legal logits divided by T, from the match's seed.
"""

from __future__ import annotations

import json
import math
import os
import random
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mazzo.games.registry import GAMES

FORMAT = 1
HEADER_KEYS = {"format", "game", "observation", "actions", "layers", "players", "note"}
#: The largest file the player reads: a policy is a small network, and a file many
#: times this size is more likely a mistake than a policy.
MAX_BYTES = 256 * 1024 * 1024

Array = NDArray[np.float32]


class PolicyFileError(ValueError):
    """A policy file that cannot be played, with the reason."""


@dataclass(frozen=True)
class PolicyNetwork:
    """A loaded policy: dense layers (weights, biases) for one game."""

    game: str
    observation: int
    actions: int
    layers: tuple[tuple[Array, Array], ...]
    players: tuple[int, ...] = ()
    note: str = ""

    def logits(self, observation: NDArray[Any]) -> Array:
        x: Array = np.asarray(observation, np.float32)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < last:
                x = np.maximum(x, 0.0)
        return x

    def choose(
        self,
        observation: NDArray[Any],
        legal: Sequence[int],
        temperature: float = 0.0,
        rng: random.Random | None = None,
    ) -> int:
        """The position in ``legal`` of the action to play."""
        if not legal:
            raise ValueError("no legal action")
        scores = self.logits(observation)[np.asarray(legal, np.int64)].astype(np.float64)
        if temperature <= 0.0:
            return int(np.argmax(scores))
        z = (scores - scores.max()) / temperature
        weights = np.exp(z)
        r = (rng or random.Random()).random() * float(weights.sum())
        return min(int(np.searchsorted(np.cumsum(weights), r, side="right")), len(legal) - 1)


def game_sizes(game: str, options: Any = None) -> tuple[int, int]:
    """The observation size and action-space size of ``game`` with ``options``."""
    from mazzo.rl.encoding import encoding_for, game_options

    encoding = encoding_for(game, game_options(game, options))
    return encoding.layout.size, encoding.actions


def save_policy(
    path: str | os.PathLike[str],
    game: str,
    layers: Sequence[tuple[NDArray[Any], NDArray[Any]]],
    players: Sequence[int] = (),
    note: str = "",
    options: Any = None,
) -> None:
    """Write a policy file (``path`` as given: NumPy adds no suffix to an open file).
    ``options``: the game's options, for Ramino's action space (its stakes)."""
    observation, actions = game_sizes(game, options)
    header = {
        "format": FORMAT,
        "game": game,
        "observation": observation,
        "actions": actions,
        "layers": len(layers),
        "players": [int(p) for p in players],
        "note": note,
    }
    arrays: dict[str, NDArray[Any]] = {"header": np.array(json.dumps(header))}
    for i, (w, b) in enumerate(layers):
        arrays[f"w{i}"] = np.asarray(w, np.float32)
        arrays[f"b{i}"] = np.asarray(b, np.float32)
    checked = [(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(len(layers))]
    _check_layers(str(path), observation, actions, checked)
    with open(path, "wb") as out:
        np.savez(out, **arrays)  # type: ignore[arg-type]


def load_policy(path: str | os.PathLike[str]) -> PolicyNetwork:
    """Read and check a policy file; ``PolicyFileError`` saying what is wrong."""
    where = str(path)
    try:
        size = os.path.getsize(path)
    except OSError as e:
        raise PolicyFileError(f"{where}: cannot read the policy file: {e.strerror}") from None
    if size > MAX_BYTES:
        raise PolicyFileError(f"{where}: {size} bytes; a policy file is at most {MAX_BYTES}")
    try:
        loaded = np.load(path, allow_pickle=False)
        if not isinstance(loaded, np.lib.npyio.NpzFile):
            raise PolicyFileError(f"{where}: one array, not a .npz archive of a policy")
        with loaded as npz:
            arrays = {name: npz[name] for name in npz.files}
    except ValueError as e:
        if isinstance(e, PolicyFileError):
            raise
        # NumPy refuses pickled data and object arrays without allow_pickle: said so.
        raise PolicyFileError(f"{where}: not a policy file ({' '.join(str(e).split())})") from None
    except (OSError, EOFError, zipfile.BadZipFile) as e:
        raise PolicyFileError(f"{where}: not a NumPy .npz archive ({e})") from None
    if "header" not in arrays:
        raise PolicyFileError(f"{where}: no 'header' array: not a mazzo policy file")
    for name, value in arrays.items():
        if not isinstance(value, np.ndarray):  # a member of the zip that is no .npy
            raise PolicyFileError(f"{where}: {name!r} is not a NumPy array")
    header = _header(where, arrays["header"])
    game, observation, actions, count = (
        header["game"],
        header["observation"],
        header["actions"],
        header["layers"],
    )
    fixed_observation, fixed_actions = game_sizes(game)
    if observation != fixed_observation:
        raise PolicyFileError(
            f"{where}: observation size {observation}, but a {game} observation has "
            f"{fixed_observation} numbers"
        )
    # A count that options can change (Ramino's stakes) is checked again against the
    # match's options at its first move.
    refusal = GAMES[game].learning.action_count_refusal(game, actions, fixed_actions)
    if refusal is not None:
        raise PolicyFileError(f"{where}: {refusal}")
    expected = ["header"] + [f"{k}{i}" for i in range(count) for k in ("w", "b")]
    extra = sorted(set(arrays) - set(expected))
    missing = [name for name in expected if name not in arrays]
    if missing:
        raise PolicyFileError(
            f"{where}: the header says {count} layers, and {missing[0]!r} is missing"
        )
    if extra:
        raise PolicyFileError(
            f"{where}: unexpected array {extra[0]!r} (the header says {count} layers)"
        )
    layers: list[tuple[Array, Array]] = []
    for i in range(count):
        w, b = arrays[f"w{i}"], arrays[f"b{i}"]
        for name, a in ((f"w{i}", w), (f"b{i}", b)):
            if a.dtype.kind not in "fiu":
                raise PolicyFileError(f"{where}: {name} holds {a.dtype}, not numbers")
        layers.append((np.asarray(w, np.float32), np.asarray(b, np.float32)))
    _check_layers(where, observation, actions, layers)
    players = header.get("players", [])
    return PolicyNetwork(
        game, observation, actions, tuple(layers), tuple(players), str(header.get("note", ""))
    )


def _header(where: str, raw: NDArray[Any]) -> dict[str, Any]:
    if raw.shape != () or raw.dtype.kind != "U":
        raise PolicyFileError(f"{where}: 'header' is not one string (a JSON object)")
    try:
        header = json.loads(str(raw))
    except json.JSONDecodeError as e:
        raise PolicyFileError(f"{where}: 'header' is not JSON: {e}") from None
    if not isinstance(header, dict):
        raise PolicyFileError(f"{where}: 'header' is not a JSON object")
    unknown = sorted(set(header) - HEADER_KEYS)
    if unknown:
        raise PolicyFileError(f"{where}: unknown header field {unknown[0]!r}")
    for key in ("format", "game", "observation", "actions", "layers"):
        if key not in header:
            raise PolicyFileError(f"{where}: the header has no {key!r}")
    if header["format"] != FORMAT:
        raise PolicyFileError(
            f"{where}: policy file format {header['format']!r}; this Mazzo reads format {FORMAT}"
        )
    if header["game"] not in GAMES:
        raise PolicyFileError(f"{where}: game {header['game']!r} is not one of {', '.join(GAMES)}")
    for key in ("observation", "actions", "layers"):
        value = header[key]
        if type(value) is not int or value < 1:
            raise PolicyFileError(f"{where}: {key} is {value!r}, not a positive integer")
    players = header.get("players", [])
    if not isinstance(players, list) or any(type(p) is not int for p in players):
        raise PolicyFileError(f"{where}: players is {players!r}, not a list of integers")
    if not isinstance(header.get("note", ""), str):
        raise PolicyFileError(f"{where}: note is not a string")
    return header


def _check_layers(
    where: str, observation: int, actions: int, layers: Sequence[tuple[NDArray[Any], NDArray[Any]]]
) -> None:
    if not layers:
        raise PolicyFileError(f"{where}: no layers")
    inputs = observation
    for i, (w, b) in enumerate(layers):
        if w.ndim != 2 or w.shape[0] != inputs:
            raise PolicyFileError(
                f"{where}: w{i} has shape {w.shape}; expected ({inputs}, outputs)"
            )
        if b.shape != (w.shape[1],):
            raise PolicyFileError(f"{where}: b{i} has shape {b.shape}; expected ({w.shape[1]},)")
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise PolicyFileError(f"{where}: layer {i} holds a value that is not finite")
        inputs = w.shape[1]
    if inputs != actions:
        raise PolicyFileError(
            f"{where}: the last layer gives {inputs} numbers; the action space has {actions}"
        )


@lru_cache(maxsize=16)
def _cached(path: str, _mtime_ns: int, _size: int) -> PolicyNetwork:
    return load_policy(path)


def cached_policy(path: str) -> PolicyNetwork:
    """``load_policy``, read once per file version (a tournament makes a player per match)."""
    try:
        st = os.stat(path)
    except OSError as e:
        raise PolicyFileError(f"{path}: cannot read the policy file: {e.strerror}") from None
    return _cached(str(Path(path)), st.st_mtime_ns, st.st_size)


PARAMS = ("path", "temperature")


def settings_of(params: Mapping[str, str]) -> tuple[str, float]:
    unknown = sorted(set(params) - set(PARAMS))
    if unknown:
        raise ValueError(
            f"builtin:policy: unknown parameter {unknown[0]!r}; there are {', '.join(PARAMS)}"
        )
    path = params.get("path", "")
    if not path:
        raise ValueError("builtin:policy: needs path=FILE (a policy file: docs/rl.md)")
    text = params.get("temperature", "0")
    try:
        temperature = float(text)
    except ValueError:
        temperature = math.nan
    if not (math.isfinite(temperature) and temperature >= 0):
        raise ValueError(f"builtin:policy: temperature is a number >= 0, not {text!r}")
    return path, temperature


class Featurizer:
    """An ``ActRequest`` as the environment sees it: its observation (the numbers of
    the request's view) and the actions of its legal moves, in the request's order."""

    def __init__(self) -> None:
        self._encodings: dict[tuple[str, Any], Any] = {}
        #: The action-space size of the last request's game and options.
        self.actions = 0

    def __call__(self, request: Any) -> tuple[NDArray[np.float32], list[int]]:
        from mazzo.rl.encoding import encoding_for

        game = request.view.game
        codec = GAMES[game].codec
        view = GAMES[game].learning.agent_view(codec.view_from_wire(request.view, "view"))
        options = view.table.options
        key = (game, getattr(options, "max_stake", None))
        encoding = self._encodings.get(key)
        if encoding is None:
            encoding = self._encodings[key] = encoding_for(game, options)
        self.actions = encoding.actions
        moves = [codec.move_from_wire(m, "legal_moves") for m in request.legal_moves]
        return encoding.observe(view), [encoding.action_of(m) for m in moves]


def policy_player(seed: int, params: Mapping[str, str]) -> Callable[[Any], Any]:
    """``builtin:policy?path=FILE[&temperature=T]``: the policy file's network plays
    each request's legal move of highest logit (or draws, with a temperature)."""
    from mazzo.v1 import bot_pb2

    path, temperature = settings_of(params)
    network = cached_policy(path)
    featurize = Featurizer()
    rng = random.Random(seed)

    def act(request: bot_pb2.ActRequest) -> bot_pb2.ActResponse:
        game = request.view.game
        if game != network.game:
            raise PolicyFileError(f"{path}: a {network.game} policy cannot play {game}")
        observation, legal = featurize(request)
        if len(observation) != network.observation:
            raise PolicyFileError(
                f"{path}: observation size {network.observation}, the match's {len(observation)}"
            )
        if featurize.actions != network.actions:
            raise PolicyFileError(
                f"{path}: {network.actions} actions, but this match's {game} has "
                f"{featurize.actions} (its options set them)"
            )
        return bot_pb2.ActResponse(index=network.choose(observation, legal, temperature, rng))

    return act
