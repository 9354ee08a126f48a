"""Heuristic evaluation of an unfinished game, for truncated rollouts.

Each player's standing is what final scoring would see now: his colour totals with his
treasures added to the lowest, sorted; its value weighs the lowest colour most, then the
next ones (the tie-breaks) and a little of the total.  A player's reward is his mean win
chance against each opponent, a logistic function of the value difference: in [0, 1] like the
final-ranking reward, which a finished game gets instead.
"""
import math

import numpy as np
from numba import njit

from .. import state as S
from ..engine.scoring import final_values, rewards

WEIGHTS = np.array([1.0, 0.3, 0.1, 0.05])
SCALE = 2.0


@njit(cache=True)
def evaluate(st, out):
    """Rewards per player into out: exact for a finished game, heuristic otherwise."""
    n = st[S.PLAYERS]
    if st[S.PHASE] == S.PH_OVER:
        rewards(st, out)
        return
    values = np.empty(4, dtype=np.float64)
    sorted_totals = np.empty(4, dtype=np.int64)
    for p in range(n):
        final_values(st, p, sorted_totals)
        v = 0.0
        for i in range(4):
            v += WEIGHTS[i] * sorted_totals[i]
        values[p] = v
    for p in range(n):
        total = 0.0
        for q in range(n):
            if q != p:
                total += 1.0 / (1.0 + math.exp(-(values[p] - values[q]) / SCALE))
        out[p] = total / (n - 1)
