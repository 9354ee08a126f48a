"""Final scoring (SPEC section 6): wild treasures, then the lowest colour with tie-breaks.

The kernels keep a player's four totals in registers (no array is made); ``final_values``
writes them into a caller's array for Python callers.
"""
from numba import njit

from tne_ai.core import state as S


@njit(cache=True, _nrt=False)
def sorted_totals(st, p):
    """p's four colour totals after adding his treasures one at a time to his lowest colour
    (the first lowest, in colour order), sorted ascending, as a tuple."""
    v0 = st[S.score(p, 0)]
    v1 = st[S.score(p, 1)]
    v2 = st[S.score(p, 2)]
    v3 = st[S.score(p, 3)]
    for _ in range(st[S.score(p, S.SCORE_TREASURE)]):
        low = v0
        if v1 < low:
            low = v1
        if v2 < low:
            low = v2
        if v3 < low:
            low = v3
        if v0 == low:
            v0 += 1
        elif v1 == low:
            v1 += 1
        elif v2 == low:
            v2 += 1
        else:
            v3 += 1
    # a sorting network for four
    if v1 < v0:
        v0, v1 = v1, v0
    if v3 < v2:
        v2, v3 = v3, v2
    if v2 < v0:
        v0, v2 = v2, v0
    if v3 < v1:
        v1, v3 = v3, v1
    if v2 < v1:
        v1, v2 = v2, v1
    return v0, v1, v2, v3


@njit(cache=True, _nrt=False)
def final_values(st, p, out):
    """p's four colour totals after adding his treasures one at a time to his lowest colour,
    sorted ascending, into out[0:4]."""
    v0, v1, v2, v3 = sorted_totals(st, p)
    out[0] = v0
    out[1] = v1
    out[2] = v2
    out[3] = v3


@njit(cache=True, _nrt=False)
def better(a, b):
    """1 if sorted totals a beat b (lowest first, then the next), -1 if worse, 0 if equal."""
    for i in range(4):
        if a[i] != b[i]:
            return 1 if a[i] > b[i] else -1
    return 0


@njit(cache=True, _nrt=False)
def place_of(st, p):
    """1 + the number of players strictly better than p (shared places 1, 1, 3)."""
    mine = sorted_totals(st, p)
    place = 1
    for q in range(st[S.PLAYERS]):
        if q != p and better(sorted_totals(st, q), mine) > 0:
            place += 1
    return place


@njit(cache=True, _nrt=False)
def ranking(st, places):
    """places[p] = 1 + the number of players strictly better than p (shared places 1, 1, 3)."""
    for p in range(st[S.PLAYERS]):
        places[p] = place_of(st, p)


@njit(cache=True, _nrt=False)
def rewards(st, out):
    """Reward per player from the final ranking: win 1, a shared place split, loss 0.
    Players sharing first place split 1 evenly; everyone else gets 0."""
    n = st[S.PLAYERS]
    firsts = 0
    for p in range(n):
        if place_of(st, p) == 1:
            firsts += 1
    for p in range(n):
        out[p] = 1.0 / firsts if place_of(st, p) == 1 else 0.0
