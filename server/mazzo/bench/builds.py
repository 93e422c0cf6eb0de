"""``mazzo bench --builds``: the compiled build against pure Python in one run
(docs/compiled.md).

The same install runs both: a child ``mazzo bench --only NAME`` with
``MAZZO_PURE=1`` imports the pure sources, one without it the compiled modules. Each
measurement runs in the two builds in alternating rounds, so drift in the machine's
speed hits both alike; the ratios are taken from CPU-time figures, which other
processes on the machine do not inflate. The benchmarks are ``mazzo bench``'s own.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from typing import Any

from mazzo.bench.common import Report
from mazzo.buildinfo import current

#: Each measurement compared, and its figure: (path into the report, True when more is
#: faster). The closure check's figure is its worst time with every memo cleared.
FIGURES: dict[str, tuple[tuple[str, ...], bool]] = {
    "maraffa_random_hands_4p": (("hands_per_cpu_second",), True),
    "burraco_random_hands_4p": (("hands_per_cpu_second",), True),
    "ramino_random_hands_4p": (("hands_per_cpu_second",), True),
    "ramino_closure_check": (("cold", "cpu_worst_us"), False),
}


def _child(name: str, pure: bool, seconds: float, closure_hands: int) -> Report:
    """One measurement in a fresh process of one build."""
    env = {**os.environ, "MAZZO_PURE": "1" if pure else "0"}
    command = [sys.executable, "-m", "mazzo", "bench", "--only", name]
    command += ["--seconds", str(seconds), "--closure-hands", str(closure_hands)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    report: Report = json.loads(done.stdout)[name]
    return report


def _figure(report: Report, path: tuple[str, ...]) -> float:
    value: Any = report
    for key in path:
        value = value[key]
    return float(value)


def builds(seconds: float, closure_hands: int, rounds: int = 3) -> Report:
    """Compiled over pure: how many times faster each figure is (more is better).

    Each figure is measured in ``rounds`` short rounds, pure then compiled, each
    build's child a few seconds after the other's: a shared VM's speed drifts by a
    third within a minute, and alternating rounds let the drift hit both builds alike.
    The ratio given is the median of the rounds' ratios; ``round_ratios`` has them all.
    """
    build = current()
    if not build.compiled:
        return {"skipped": f"no compiled build runs here ({build.describe()}): make compiled"}
    out: Report = {"compiled": build.describe(), "ratios": {}, "round_ratios": {}}
    out.update({"pure": {}, "mypyc": {}})
    for name, (path, more_is_faster) in FIGURES.items():
        pures, compileds, ratios = [], [], []
        for _ in range(rounds):
            pure = _figure(_child(name, True, seconds / rounds, closure_hands), path)
            compiled = _figure(_child(name, False, seconds / rounds, closure_hands), path)
            pures.append(pure)
            compileds.append(compiled)
            ratios.append(round(compiled / pure if more_is_faster else pure / compiled, 2))
        out["pure"][name] = statistics.median(pures)
        out["mypyc"][name] = statistics.median(compileds)
        out["ratios"][name] = statistics.median(ratios)
        out["round_ratios"][name] = ratios
    out["figure"] = {name: "/".join(path) for name, (path, _) in FIGURES.items()}
    return out
