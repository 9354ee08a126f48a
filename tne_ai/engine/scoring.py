"""Final scoring (SPEC section 6): wild treasures, then the lowest colour with tie-breaks."""
import numpy as np
from numba import njit

from .. import state as S


@njit(cache=True)
def final_values(st, p, out):
    """p's four colour totals after adding his treasures one at a time to his lowest colour,
    sorted ascending, into out[0:4]."""
    for c in range(4):
        out[c] = st[S.SCORE + 5 * p + c]
    for _ in range(st[S.SCORE + 5 * p + S.SCORE_TREASURE]):
        low = 0
        for c in range(1, 4):
            if out[c] < out[low]:
                low = c
        out[low] += 1
    out[:4].sort()


@njit(cache=True)
def better(a, b):
    """1 if sorted totals a beat b (lowest first, then the next), -1 if worse, 0 if equal."""
    for i in range(4):
        if a[i] != b[i]:
            return 1 if a[i] > b[i] else -1
    return 0


@njit(cache=True)
def ranking(st, places):
    """places[p] = 1 + the number of players strictly better than p (shared places 1, 1, 3)."""
    n = st[S.PLAYERS]
    values = np.empty((4, 4), dtype=np.int64)
    for p in range(n):
        final_values(st, p, values[p])
    for p in range(n):
        place = 1
        for q in range(n):
            if q != p and better(values[q], values[p]) > 0:
                place += 1
        places[p] = place


@njit(cache=True)
def rewards(st, out):
    """Reward per player from the final ranking: win 1, a shared place split, loss 0.
    Players sharing first place split 1 evenly; everyone else gets 0."""
    n = st[S.PLAYERS]
    places = np.empty(4, dtype=np.int64)
    ranking(st, places)
    firsts = 0
    for p in range(n):
        if places[p] == 1:
            firsts += 1
    for p in range(n):
        out[p] = 1.0 / firsts if places[p] == 1 else 0.0
