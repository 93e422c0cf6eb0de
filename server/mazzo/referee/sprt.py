"""The sequential probability ratio test of two players, as engine testers run it.

H0: the first player is ``elo0`` stronger than the second; H1: ``elo1``. After each
result the log-likelihood ratio is compared with the bounds of Wald's test for
error rates ``alpha`` and ``beta``; the run stops as soon as it leaves them. The
LLR is the generalised SPRT's normal approximation, which works on any scores in
[0, 1]: per match (win 1, draw ½, loss 0) or per duplicate pair (the mean of the
pair's scores, the "pentanomial" form, which removes the deal's luck).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: A variance of zero (every result the same) would make the LLR infinite.
MIN_VARIANCE = 1e-4


def expected_score(elo: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@dataclass(frozen=True)
class Sprt:
    elo0: float
    elo1: float
    alpha: float
    beta: float

    def __post_init__(self) -> None:
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError("alpha and beta must be between 0 and 1")
        if self.elo0 >= self.elo1:
            raise ValueError("ELO0 must be below ELO1")

    @property
    def bounds(self) -> tuple[float, float]:
        return (
            math.log(self.beta / (1 - self.alpha)),
            math.log((1 - self.beta) / self.alpha),
        )

    def llr(self, scores: Sequence[float]) -> float:
        n = len(scores)
        if n == 0:
            return 0.0
        mean = sum(scores) / n
        variance = max(sum(x * x for x in scores) / n - mean * mean, MIN_VARIANCE)
        s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
        return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)

    def decide(self, scores: Sequence[float]) -> str | None:
        """ "H1" (accept elo1), "H0" (accept elo0), or None to go on."""
        llr = self.llr(scores)
        lower, upper = self.bounds
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None
