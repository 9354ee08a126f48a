"""Heuristic evaluation of an unfinished game, for truncated rollouts.

Each player's standing is what final scoring would see now: his colour totals with his
treasures added to the lowest, sorted; its value weighs the lowest colour most, then the
next ones (the tie-breaks) and a little of the total, plus a bonus per leader he has on the
board (a leader is what later tiles score for).  A player's reward is his mean win chance
against each opponent, a logistic function of the value difference: in [0, 1] like the
final-ranking reward, which a finished game gets instead.

The weights are an array so they can be tuned without recompiling: ``EVAL_DEFAULT``.
"""
import math

import numpy as np
from numba import njit

from .. import state as S
from ..engine.scoring import final_values, rewards

# weights of the sorted colour totals (lowest first), value of a leader on the board, and the
# logistic scale of a value difference
W_SORTED = 0
W_LEADER = 4
W_SCALE = 5
EVAL_DEFAULT = np.array([1.0, 0.3, 0.1, 0.05, 0.0, 2.0])


@njit(cache=True)
def evaluate(st, params, out):
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
            v += params[W_SORTED + i] * sorted_totals[i]
            if st[S.LEADER_SQ + 4 * p + i] >= 0:
                v += params[W_LEADER]
        values[p] = v
    for p in range(n):
        total = 0.0
        for q in range(n):
            if q != p:
                total += 1.0 / (1.0 + math.exp(-(values[p] - values[q]) / params[W_SCALE]))
        out[p] = total / (n - 1)
