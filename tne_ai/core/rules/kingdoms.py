"""Kingdom labelling by bitboard flood fill (SPEC section 2).

A region is an orthogonally connected group of tiles (face-up or flipped) and leaders;
catastrophes never connect.  A kingdom is a region holding a leader.  During wars the
unifying tile is left out, and for a leader's move the lifted leader (``exclude_sq``).

The rules kernels keep kingdoms in registers, never in arrays: ``kingdoms_around`` floods the
(at most four) kingdoms next to one square, ``touch_counts_of`` streams every kingdom through
the bit-sliced 2+/3+ counters, ``region_without`` is the one region holding a square.  ``label``
writes every kingdom into a caller's ``kmask`` array (shape (16, 3); kingdoms are found by
flooding from each leader not yet covered, so there are at most 16) for callers that want the
whole labelling at once (position checks, the bench).
"""
import numpy as np
from numba import njit

from tne_ai.core.bits import U0, dilate, flood, has, single, first_square
from tne_ai.core.board import NEIGHBOURS, NEIGHBOUR_MASK
from tne_ai.core import state as S

MAX_KINGDOMS = 16


@njit(cache=True, _nrt=False)
def occupied(bb):
    """Squares holding a tile (face-up or flipped) or a leader: what connects regions."""
    o0 = bb[S.BB_FLIP] | bb[S.BB_LEADER]
    o1 = bb[S.BB_FLIP + 1] | bb[S.BB_LEADER + 1]
    o2 = bb[S.BB_FLIP + 2] | bb[S.BB_LEADER + 2]
    for c in range(4):
        o0 |= bb[S.tile_bb(c)]
        o1 |= bb[S.tile_bb(c) + 1]
        o2 |= bb[S.tile_bb(c) + 2]
    return o0, o1, o2


@njit(cache=True, _nrt=False)
def connecting(bb, exclude_sq):
    """(occupied squares, leader squares) with exclude_sq (or -1) treated as empty."""
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
    return o0, o1, o2, l0, l1, l2


@njit(cache=True, _nrt=False, inline="always")
def region_of(bb, s):
    """The region (connected tiles and leaders) holding the occupied square s."""
    o0, o1, o2 = occupied(bb)
    a0, a1, a2 = single(s)
    return flood(a0, a1, a2, o0, o1, o2)


@njit(cache=True, _nrt=False, inline="always")
def region_without(bb, s, exclude_sq):
    """The region holding the occupied square s, with exclude_sq treated as empty (during wars
    the unifying tile: then the region of a leader is its side's kingdom)."""
    o0, o1, o2, _, _, _ = connecting(bb, exclude_sq)
    a0, a1, a2 = single(s)
    return flood(a0, a1, a2, o0, o1, o2)


@njit(cache=True, _nrt=False)
def leader_colours_in(st, f0, f1, f2):
    """Bit mask of the colours of the leaders (any owner) standing in the set f."""
    cm = 0
    for p in range(st[S.PLAYERS]):
        for c in range(4):
            s = st[S.leader_sq(p, c)]
            if s >= 0 and has(f0, f1, f2, s):
                cm |= 1 << c
    return cm


@njit(cache=True, _nrt=False)
def kingdoms_around(st, bb, s, exclude_sq, with_colours):
    """The kingdoms next to square s, with s and exclude_sq treated as empty: one flood from
    each occupied neighbour not yet covered (a square has four, so at most four kingdoms).

    Returns (count, k0, k1, k2, clash): how many kingdoms, the union of their squares, and
    (only if with_colours) the bit mask of the colours with leaders in two or more of them."""
    o0, o1, o2, l0, l1, l2 = connecting(bb, s)
    if exclude_sq >= 0:
        x0, x1, x2 = single(exclude_sq)
        o0 &= ~x0
        o1 &= ~x1
        o2 &= ~x2
        l0 &= ~x0
        l1 &= ~x1
        l2 &= ~x2
    seen0 = seen1 = seen2 = U0
    k0 = k1 = k2 = U0
    count = 0
    ones = 0
    twos = 0
    for i in range(4):
        nsq = NEIGHBOURS[s, i]
        if nsq < 0 or not has(o0, o1, o2, nsq) or has(seen0, seen1, seen2, nsq):
            continue
        a0, a1, a2 = single(nsq)
        f0, f1, f2 = flood(a0, a1, a2, o0, o1, o2)
        seen0 |= f0
        seen1 |= f1
        seen2 |= f2
        if ((f0 & l0) | (f1 & l1) | (f2 & l2)) != U0:
            count += 1
            k0 |= f0
            k1 |= f1
            k2 |= f2
            if with_colours:
                cm = leader_colours_in(st, f0, f1, f2)
                twos |= ones & cm
                ones |= cm
    return count, k0, k1, k2, twos


@njit(cache=True, _nrt=False, inline="always")
def count_in(d0, d1, d2, n0, n1, n2, t0, t1, t2, h0, h1, h2):
    """Bit-sliced counters of how many sets cover each square (n: 1+, t: 2+, h: 3+, three
    words each) with the set d counted in; returns the nine new words."""
    return (n0 | d0, n1 | d1, n2 | d2, t0 | (n0 & d0), t1 | (n1 & d1), t2 | (n2 & d2),
            h0 | (t0 & d0), h1 | (t1 & d1), h2 | (t2 & d2))


@njit(cache=True, _nrt=False)
def touch_levels(bb, exclude_sq):
    """Squares next to (or in) 1+, 2+ and 3+ kingdoms, (ones, twos, threes) as 9 words: every
    kingdom (exclude_sq treated as empty) is flooded once, in ``label``'s order, and its dilated
    mask goes through bit-sliced counters; nothing is stored."""
    o0, o1, o2, l0, l1, l2 = connecting(bb, exclude_sq)
    n0 = n1 = n2 = U0
    t0 = t1 = t2 = U0
    h0 = h1 = h2 = U0
    while (l0 | l1 | l2) != U0:
        a0, a1, a2 = single(first_square(l0, l1, l2))
        f0, f1, f2 = flood(a0, a1, a2, o0, o1, o2)
        l0 &= ~f0
        l1 &= ~f1
        l2 &= ~f2
        d0, d1, d2 = dilate(f0, f1, f2)
        n0, n1, n2, t0, t1, t2, h0, h1, h2 = count_in(d0, d1, d2, n0, n1, n2, t0, t1, t2, h0, h1, h2)
    return n0, n1, n2, t0, t1, t2, h0, h1, h2


@njit(cache=True, _nrt=False, inline="always")
def touch_counts_of(bb, exclude_sq):
    """Squares next to (or in) 2+ kingdoms and 3+ kingdoms: (twos, threes) as 6 words."""
    _, _, _, t0, t1, t2, h0, h1, h2 = touch_levels(bb, exclude_sq)
    return t0, t1, t2, h0, h1, h2


@njit(cache=True, _nrt=False)
def twos_with_leader_lifted(bb, s, n0, n1, n2, t0, t1, t2, h0, h1, h2):
    """Squares next to 2+ kingdoms once the leader on s is lifted, from the full board's
    counters (ones, twos, threes of ``touch_levels``) without labelling the board again.

    Only s's kingdom K changes.  Taking K out lowers each count by one inside K's dilation D:
    a square stays at 1+ if it was at 1+ outside D or at 2+ inside it, likewise for 2+.  Then
    the kingdoms K falls into without s (floods from its other leaders) are counted in."""
    k0, k1, k2 = region_of(bb, s)
    d0, d1, d2 = dilate(k0, k1, k2)
    n0 = (n0 & ~d0) | (t0 & d0)
    n1 = (n1 & ~d1) | (t1 & d1)
    n2 = (n2 & ~d2) | (t2 & d2)
    t0 = (t0 & ~d0) | (h0 & d0)
    t1 = (t1 & ~d1) | (h1 & d1)
    t2 = (t2 & ~d2) | (h2 & d2)
    o0, o1, o2, l0, l1, l2 = connecting(bb, s)
    l0 &= k0
    l1 &= k1
    l2 &= k2
    while (l0 | l1 | l2) != U0:
        a0, a1, a2 = single(first_square(l0, l1, l2))
        f0, f1, f2 = flood(a0, a1, a2, o0, o1, o2)
        l0 &= ~f0
        l1 &= ~f1
        l2 &= ~f2
        e0, e1, e2 = dilate(f0, f1, f2)
        n0, n1, n2, t0, t1, t2, _, _, _ = count_in(e0, e1, e2, n0, n1, n2, t0, t1, t2, h0, h1, h2)
    return t0, t1, t2


@njit(cache=True, _nrt=False)
def label(bb, exclude_sq, kmask):
    """Write every kingdom's squares into kmask (shape (16, 3)); return the kingdom count.

    ``exclude_sq`` (or -1) is treated as empty: the unifying tile while wars last, or a
    leader lifted for a move."""
    o0, o1, o2, l0, l1, l2 = connecting(bb, exclude_sq)
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


@njit(cache=True, _nrt=False)
def kingdom_of(kmask, nk, sq):
    """Index of the kingdom holding square sq, or -1."""
    for k in range(nk):
        if has(kmask[k, 0], kmask[k, 1], kmask[k, 2], sq):
            return k
    return -1


@njit(cache=True, _nrt=False)
def kingdom_clash(st):
    """True if some kingdom holds two leaders of one colour (allowed only mid-conflict)."""
    bb = st.view(np.uint64)
    n = st[S.PLAYERS]
    for c in range(4):
        for p in range(n):
            sp = st[S.leader_sq(p, c)]
            if sp < 0:
                continue
            f0, f1, f2 = region_of(bb, sp)
            for q in range(p + 1, n):
                sq = st[S.leader_sq(q, c)]
                if sq >= 0 and has(f0, f1, f2, sq):
                    return True
    return False
