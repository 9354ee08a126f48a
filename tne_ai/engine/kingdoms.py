"""Kingdom labelling by bitboard flood fill (SPEC section 2).

A region is an orthogonally connected group of tiles (face-up or flipped) and leaders;
catastrophes never connect.  A kingdom is a region holding a leader.  During wars the
unifying tile is left out (``exclude_sq``).  Kingdoms are found by flooding from each leader
not yet covered, so there are at most 16 of them; ``kmask[k]`` holds kingdom k's squares.
"""
import numpy as np
from numba import njit

from ..bits import U0, flood, has, single, first_square
from .. import state as S

MAX_KINGDOMS = 16


@njit(cache=True, inline="always")
def occupied(bb):
    """Squares holding a tile (face-up or flipped) or a leader: what connects regions."""
    o0 = bb[S.BB_FLIP] | bb[S.BB_LEADER]
    o1 = bb[S.BB_FLIP + 1] | bb[S.BB_LEADER + 1]
    o2 = bb[S.BB_FLIP + 2] | bb[S.BB_LEADER + 2]
    for c in range(4):
        o0 |= bb[S.BB_TILE + 3 * c]
        o1 |= bb[S.BB_TILE + 3 * c + 1]
        o2 |= bb[S.BB_TILE + 3 * c + 2]
    return o0, o1, o2


@njit(cache=True)
def label(bb, exclude_sq, kmask):
    """Write every kingdom's squares into kmask (shape (16, 3)); return the kingdom count.

    ``exclude_sq`` (or -1) is treated as empty: the unifying tile while wars last, or a
    leader lifted for a move."""
    o0, o1, o2 = occupied(bb)
    l0 = bb[S.BB_LEADER]
    l1 = bb[S.BB_LEADER + 1]
    l2 = bb[S.BB_LEADER + 2]
    if exclude_sq >= 0:
        x0, x1, x2 = single(exclude_sq)
        o0 &= ~x0
        o1 &= ~x1
        o2 &= ~x2
        l0 &= ~x0
        l1 &= ~x1
        l2 &= ~x2
    k = 0
    while (l0 | l1 | l2) != U0:
        s = first_square(l0, l1, l2)
        a0, a1, a2 = single(s)
        f0, f1, f2 = flood(a0, a1, a2, o0, o1, o2)
        kmask[k, 0] = f0
        kmask[k, 1] = f1
        kmask[k, 2] = f2
        k += 1
        l0 &= ~f0
        l1 &= ~f1
        l2 &= ~f2
    return k


@njit(cache=True, inline="always")
def kingdom_of(kmask, nk, sq):
    """Index of the kingdom holding square sq, or -1."""
    for k in range(nk):
        if has(kmask[k, 0], kmask[k, 1], kmask[k, 2], sq):
            return k
    return -1


@njit(cache=True)
def kingdom_clash(st):
    """True if some kingdom holds two leaders of one colour (allowed only mid-conflict)."""
    bb = st.view(np.uint64)
    kmask = np.empty((MAX_KINGDOMS, 3), dtype=np.uint64)
    nk = label(bb, -1, kmask)
    n = st[S.PLAYERS]
    for c in range(4):
        for p in range(n):
            sp = st[S.LEADER_SQ + 4 * p + c]
            if sp < 0:
                continue
            kp = kingdom_of(kmask, nk, sp)
            for q in range(p + 1, n):
                sq = st[S.LEADER_SQ + 4 * q + c]
                if sq >= 0 and kingdom_of(kmask, nk, sq) == kp:
                    return True
    return False
