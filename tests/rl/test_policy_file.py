"""Policy files (docs/rl.md, "Policy files"): what is written is read back; whatever
is wrong with a file is refused on load with the reason; loading runs no code from it."""

from __future__ import annotations

import io
import itertools
import json
import pickle
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mazzo.rl.policy import PolicyFileError, load_policy, save_policy

MARAFFA_OBS, MARAFFA_ACTIONS = 981, 891


def layers(rng: np.random.Generator, sizes: list[int]) -> list[tuple[Any, Any]]:
    return [
        (rng.normal(size=(a, b)).astype(np.float32), rng.normal(size=b).astype(np.float32))
        for a, b in itertools.pairwise(sizes)
    ]


def write(path: Path, header: dict[str, Any] | str, **arrays: Any) -> Path:
    text = header if isinstance(header, str) else json.dumps(header)
    with open(path, "wb") as out:
        np.savez(out, header=np.array(text), **arrays)
    return path


def good_header(**change: Any) -> dict[str, Any]:
    header: dict[str, Any] = {
        "format": 1,
        "game": "maraffa",
        "observation": MARAFFA_OBS,
        "actions": MARAFFA_ACTIONS,
        "layers": 1,
    }
    header.update(change)
    return header


def test_a_saved_policy_reads_back_and_computes_the_same_logits(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    saved = layers(rng, [MARAFFA_OBS, 16, MARAFFA_ACTIONS])
    path = tmp_path / "p.npz"
    save_policy(path, "maraffa", saved, players=[2], note="test")
    policy = load_policy(path)
    assert (policy.game, policy.observation, policy.actions) == ("maraffa", 981, 891)
    assert policy.players == (2,) and policy.note == "test"
    x = rng.random(MARAFFA_OBS).astype(np.float32)
    hidden = np.maximum(x @ saved[0][0] + saved[0][1], 0.0)
    expected = hidden @ saved[1][0] + saved[1][1]
    np.testing.assert_allclose(policy.logits(x), expected, rtol=1e-5, atol=1e-4)
    legal = [3, 100, 725]
    best = int(np.argmax(expected[legal]))
    assert policy.choose(x, legal) == best


def test_ramino_policies_carry_their_stakes(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    save_policy(tmp_path / "r.npz", "ramino", layers(rng, [920, 130]), options={"max_stake": 9})
    assert load_policy(tmp_path / "r.npz").actions == 130
    with pytest.raises(PolicyFileError, match="the action space has 122"):
        save_policy(tmp_path / "bad.npz", "ramino", layers(rng, [920, 130]))


class Boom:
    """Unpickling this would create a file: the proof that code ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Path(self.marker).touch, ())  # type: ignore[return-value]


def test_loading_never_unpickles(tmp_path: Path) -> None:
    marker = tmp_path / "code-ran"
    # An object array in an .npz (NumPy stores it pickled) ...
    boom = np.empty(1, dtype=object)
    boom[0] = Boom(marker)
    with open(tmp_path / "object.npz", "wb") as out:
        np.savez(out, header=np.array(json.dumps(good_header())), w0=boom, b0=boom)
    with pytest.raises(PolicyFileError, match=r"not a policy file.*pickle"):
        load_policy(tmp_path / "object.npz")
    # ... and a plain pickle under the name of a policy file.
    (tmp_path / "pickled.npz").write_bytes(pickle.dumps(Boom(marker)))
    with pytest.raises(PolicyFileError, match="pickle"):
        load_policy(tmp_path / "pickled.npz")
    assert not marker.exists()


def refusal(tmp_path: Path, header: dict[str, Any] | str, **arrays: Any) -> str:
    with pytest.raises(PolicyFileError) as caught:
        load_policy(write(tmp_path / "p.npz", header, **arrays))
    return str(caught.value)


def test_every_flaw_is_refused_with_its_reason(tmp_path: Path) -> None:
    w = np.zeros((MARAFFA_OBS, MARAFFA_ACTIONS), np.float32)
    b = np.zeros(MARAFFA_ACTIONS, np.float32)
    ok = {"w0": w, "b0": b}
    assert load_policy(write(tmp_path / "p.npz", good_header(), **ok)).actions == 891
    cases: list[tuple[dict[str, Any] | str, dict[str, Any], str]] = [
        ("not json", ok, "not JSON"),
        ("[1]", ok, "not a JSON object"),
        (good_header(format=2), ok, "format 2; this Mazzo reads format 1"),
        (good_header(game="scopa"), ok, "game 'scopa' is not one of"),
        (
            good_header(observation=980),
            ok,
            "observation size 980, but a maraffa observation has 981",
        ),
        (good_header(actions=890), ok, "890 actions, but maraffa's action space has 891"),
        (
            good_header(game="burraco"),
            ok,
            "observation size 981, but a burraco observation has 1917",
        ),
        (good_header(layers=0), ok, "layers is 0, not a positive integer"),
        (good_header(layers=2), ok, "the header says 2 layers, and 'w1' is missing"),
        (good_header(extra=1), ok, "unknown header field 'extra'"),
        ({k: v for k, v in good_header().items() if k != "game"}, ok, "has no 'game'"),
        (good_header(players="2"), ok, "players is '2', not a list"),
        (good_header(), {**ok, "w9": w}, "unexpected array 'w9'"),
        (good_header(), {"w0": w[:, :10], "b0": b[:10]}, "the last layer gives 10 numbers"),
        (good_header(), {"w0": w[:5], "b0": b}, "w0 has shape (5, 891); expected (981, outputs)"),
        (good_header(), {"w0": w, "b0": b[:5]}, "b0 has shape (5,); expected (891,)"),
        (good_header(), {"w0": w, "b0": np.full(891, np.nan, np.float32)}, "not finite"),
        (good_header(), {"w0": w.astype(bool), "b0": b}, "w0 holds bool, not numbers"),
        (good_header(game="ramino", observation=920, actions=115), {}, "no Ramino action space"),
    ]
    for header, arrays, reason in cases:
        assert reason in refusal(tmp_path, header, **arrays) or pytest.fail(
            f"{header!r}: {refusal(tmp_path, header, **arrays)!r} does not say {reason!r}"
        )


def test_files_that_are_not_policies_are_refused(tmp_path: Path) -> None:
    with pytest.raises(PolicyFileError, match="cannot read the policy file"):
        load_policy(tmp_path / "missing.npz")
    np.save(tmp_path / "one.npy", np.zeros(3))
    with pytest.raises(PolicyFileError, match=r"one array, not a \.npz archive"):
        load_policy(tmp_path / "one.npy")
    (tmp_path / "text.npz").write_text("hello")
    with pytest.raises(PolicyFileError, match="not a"):
        load_policy(tmp_path / "text.npz")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("readme.txt", "no arrays")
    (tmp_path / "zip.npz").write_bytes(buf.getvalue())
    with pytest.raises(PolicyFileError, match="no 'header' array"):
        load_policy(tmp_path / "zip.npz")
