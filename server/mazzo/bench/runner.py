"""Every benchmark by its name in the report: ``mazzo bench`` runs them all, or the
``--only`` ones."""

from __future__ import annotations

import sys
from collections.abc import Callable

from mazzo.bench import anchors as anchors_
from mazzo.bench import builds as builds_
from mazzo.bench import gateway as gateway_
from mazzo.bench import layers, rl, sealing, search
from mazzo.bench.common import Report
from mazzo.bench.engines import (
    burraco_largest_legal_list,
    burraco_move_times,
    burraco_random_hands,
    maraffa_random_hands,
    maraffa_random_hands_deck39,
    ramino_closure_agreement,
    ramino_closure_check,
    ramino_random_hands,
    state_codec,
    trionfo_random_deals,
)
from mazzo.bench.referee import referee_builtin, referee_exec
from mazzo.bench.rpc import grpc_apply_vs_health, grpc_through_envoy
from mazzo.buildinfo import current
from mazzo.ops.replicas import MissingPrerequisite


def run_all(
    seconds: float = 2.0,
    only: list[str] | None = None,
    closure_hands: int = 2000,
    anchors: bool = False,
    builds: bool = False,
    gateway_tables: int = 250,
    builds_rounds: int = 3,
) -> Report:
    """Every measurement (or ``only`` these); ``anchors``: also ``bench.anchors``, which
    needs the ``anchors`` extra; ``builds``: also ``bench.builds``, compiled against pure
    Python, in ``builds_rounds`` rounds. ``gateway`` (``bench.gateway``: ``4 *
    gateway_tables`` bots in processes of their own) runs only when named in ``only``."""
    measurements: dict[str, Callable[[], Report]] = {
        "maraffa_random_hands_4p": lambda: maraffa_random_hands(4, seconds),
        "maraffa_random_hands_3p": lambda: maraffa_random_hands(3, seconds / 2),
        "maraffa_random_hands_2p": lambda: maraffa_random_hands(2, seconds / 2),
        "maraffa_random_hands_3p_deck39": lambda: maraffa_random_hands_deck39(seconds / 2),
        "trionfo_random_deals_5p": lambda: trionfo_random_deals(seconds),
        "maraffa_state_codec": lambda: state_codec(seconds),
        "wire_layers": lambda: layers.wire_layers(max(100, int(2000 * seconds))),
        "grpc_apply_move_vs_health_check": lambda: grpc_apply_vs_health(4 * seconds),
        "grpc_through_envoy": lambda: grpc_through_envoy(2 * seconds),
        "referee_maraffa_builtin_bots": lambda: referee_builtin(seconds),
        "referee_maraffa_exec_bots": lambda: referee_exec(seconds),
        "burraco_random_hands_4p": lambda: burraco_random_hands(4, seconds),
        "burraco_random_hands_3p": lambda: burraco_random_hands(3, seconds / 2),
        "burraco_random_hands_2p": lambda: burraco_random_hands(2, seconds / 2),
        "burraco_move_times": lambda: burraco_move_times(seconds),
        "burraco_largest_legal_list": lambda: burraco_largest_legal_list(),
        "ramino_random_hands_4p": lambda: ramino_random_hands(4, seconds),
        "ramino_random_hands_3p": lambda: ramino_random_hands(3, seconds / 2),
        "ramino_random_hands_2p": lambda: ramino_random_hands(2, seconds / 2),
        "ramino_closure_check": lambda: ramino_closure_check(closure_hands),
        "ramino_closure_agreement": lambda: ramino_closure_agreement(closure_hands),
        "search_apply_moves_vs_apply_move": lambda: search.apply_moves_vs_apply_move(2 * seconds),
        "search_determinize": lambda: search.determinize_rates(seconds),
        "search_simulate_vs_in_process": lambda: search.simulate_vs_in_process(2 * seconds),
        "search_pimc_decisions": lambda: search.pimc_decisions(),
        "sealed_apply_move_vs_plain": lambda: sealing.sealed_vs_plain(4 * seconds),
        "rl": lambda: rl.rl(seconds),
    }
    if anchors or (only is not None and "anchors" in only):
        measurements["anchors"] = lambda: anchors_.anchors(seconds)
    if builds or (only is not None and "builds" in only):
        measurements["builds"] = lambda: builds_.builds(seconds, closure_hands, builds_rounds)
    if only is not None and "gateway" in only:
        measurements["gateway"] = lambda: gateway_.gateway(seconds, gateway_tables)
    unknown = sorted(set(only or ()) - set(measurements))
    if unknown:
        known = ", ".join(dict.fromkeys([*measurements, "anchors", "builds", "gateway"]))
        raise ValueError(f"no benchmark {unknown[0]!r}; there are: {known}")
    report: Report = {
        "python": sys.version.split()[0],
        "build": current().describe(),
        "seconds_per_measurement": seconds,
    }
    for name, measure in measurements.items():
        if only is None or name in only:
            try:
                report[name] = measure()
            except MissingPrerequisite as e:
                report[name] = {"skipped": str(e)}
    return report
