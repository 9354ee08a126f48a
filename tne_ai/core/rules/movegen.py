"""Legal moves as int action codes (SPEC sections 3-5), written in ascending code order.

Squares touching 2+ or 3+ kingdoms come from bit-sliced counters over the kingdoms' dilated
masks (``touch_counts_of``), so no square is visited one by one except to write its move.
Nothing is allocated: kingdoms live in registers and moves go into the caller's buffer.
"""
import numpy as np
from numba import njit

from tne_ai.core.bits import U0, U1, dilate, lowest_bit, count3, nth_square
from tne_ai.core.board import LAND, RIVER, ALL, SQUARES, RED, BLUE, NO_SQUARE, N_MONUMENTS
from tne_ai.core import state as S
from tne_ai.core.rules.rng import below
from tne_ai.core.rules.kingdoms import (MAX_KINGDOMS, count_in, kingdoms_around, label, occupied, touch_counts_of,  # noqa: F401
                       touch_levels, twos_with_leader_lifted)
from tne_ai.core.rules.apply import (BLOCK_OFFSETS, monument_blocks, monument_free,  # noqa: F401
                    tile_colour_at, treasure_choices, war_conflicts, MON_A, MON_B)


@njit(cache=True, _nrt=False, inline="always")
def touch_counts(kmask, nk):
    """Squares next to (or in) 2+ and 3+ of the labelled kingdoms kmask[:nk]: (twos, threes) as
    6 words (the rules kernels use touch_counts_of, which floods and counts in one pass)."""
    o0 = o1 = o2 = U0
    t0 = t1 = t2 = U0
    h0 = h1 = h2 = U0
    for k in range(nk):
        d0, d1, d2 = dilate(kmask[k, 0], kmask[k, 1], kmask[k, 2])
        o0, o1, o2, t0, t1, t2, h0, h1, h2 = count_in(d0, d1, d2, o0, o1, o2, t0, t1, t2, h0, h1, h2)
    return t0, t1, t2, h0, h1, h2


@njit(cache=True, _nrt=False, inline="always")
def emit(out, n, base, a0, a1, a2):
    """Append base + s for every square s of the set; return the new count."""
    x = a0
    while x != U0:
        out[n] = base + lowest_bit(x)
        n += 1
        x &= x - U1
    x = a1
    while x != U0:
        out[n] = base + 64 + lowest_bit(x)
        n += 1
        x &= x - U1
    x = a2
    while x != U0:
        out[n] = base + 128 + lowest_bit(x)
        n += 1
        x &= x - U1
    return n


@njit(cache=True, _nrt=False, inline="always")
def copy_block(out, n, start, count, offset):
    """Append out[start:start + count] + offset (the same squares for another colour)."""
    for k in range(count):
        out[n + k] = out[start + k] + offset
    return n + count


@njit(cache=True, _nrt=False, inline="always")
def empty_squares(bb):
    """Squares with no tile, leader or catastrophe."""
    o0, o1, o2 = occupied(bb)
    return (~(o0 | bb[S.BB_CATA]) & ALL[0], ~(o1 | bb[S.BB_CATA + 1]) & ALL[1],
            ~(o2 | bb[S.BB_CATA + 2]) & ALL[2])


@njit(cache=True, _nrt=False, inline="always")
def near_temple(bb, e0, e1, e2):
    """Empty land squares next to a face-up red tile: where a leader may stand."""
    red = S.tile_bb(RED)
    r0, r1, r2 = dilate(bb[red], bb[red + 1], bb[red + 2])
    return r0 & e0 & LAND[0], r1 & e1 & LAND[1], r2 & e2 & LAND[2]


@njit(cache=True, _nrt=False, inline="always")
def catastrophe_targets(bb, e0, e1, e2):
    """An empty square, or a face-up tile without a treasure."""
    f0 = f1 = f2 = U0
    for c in range(4):
        f0 |= bb[S.tile_bb(c)]
        f1 |= bb[S.tile_bb(c) + 1]
        f2 |= bb[S.tile_bb(c) + 2]
    return (e0 | (f0 & ~bb[S.BB_TREASURE]), e1 | (f1 & ~bb[S.BB_TREASURE + 1]),
            e2 | (f2 & ~bb[S.BB_TREASURE + 2]))


@njit(cache=True, _nrt=False)
def legal_moves(st, out):
    """Write the legal action codes of whoever must act into out; return how many."""
    bb = st.view(np.uint64)
    phase = st[S.PHASE]
    p = st[S.TO_ACT]
    n = 0
    if phase == S.PH_ACTION:
        return action_moves(st, bb, p, out)
    if phase == S.PH_REVOLT or phase == S.PH_WAR:
        c = 0 if phase == S.PH_REVOLT else st[S.CF_COLOUR]
        for k in range(st[S.hand(p, c)] + 1):
            out[n] = S.A_COMMIT + k
            n += 1
        return n
    if phase == S.PH_WAR_CHOICE:
        mask = war_conflicts(st, bb)
        for c in range(4):
            if (mask >> c) & 1:
                out[n] = S.A_WAR + c
                n += 1
        return n
    if phase == S.PH_MONUMENT:
        found = monument_blocks(st, bb)
        s = st[S.PLACED_SQ]
        c = tile_colour_at(bb, s)
        for m in range(N_MONUMENTS):
            if st[S.monument_sq(m)] < 0 and (MON_A[m] == c or MON_B[m] == c):
                for i in range(4):
                    if (found >> i) & 1:
                        out[n] = S.A_MONUMENT + SQUARES * m + s - BLOCK_OFFSETS[i]
                        n += 1
        out[n] = S.A_DECLINE
        return n + 1
    if phase == S.PH_TREASURE:
        t0, t1, t2 = treasure_choices(st, bb)
        return emit(out, 0, S.A_TREASURE, t0, t1, t2)
    return 0


@njit(cache=True, _nrt=False)
def action_moves(st, bb, p, out):
    n = 0
    on0, on1, on2, tw0, tw1, tw2, th0, th1, th2 = touch_levels(bb, NO_SQUARE)
    e0, e1, e2 = empty_squares(bb)
    # tiles: blue on the river, the others on land, never next to 3+ kingdoms (red, green and
    # black share one set of squares: it is listed once, then copied with the colour's offset)
    land_at = -1
    land_n = 0
    for c in range(4):
        if st[S.hand(p, c)] > 0:
            if c == BLUE:
                n = emit(out, n, S.A_TILE + SQUARES * c, e0 & RIVER[0] & ~th0, e1 & RIVER[1] & ~th1,
                         e2 & RIVER[2] & ~th2)
            elif land_at < 0:
                land_at = n
                n = emit(out, n, S.A_TILE + SQUARES * c, e0 & LAND[0] & ~th0, e1 & LAND[1] & ~th1,
                         e2 & LAND[2] & ~th2)
                land_n = n - land_at
                land_c = c
            else:
                n = copy_block(out, n, land_at, land_n, SQUARES * (c - land_c))
    # leaders: empty land next to a face-up red tile, touching at most one kingdom (the same
    # squares for every leader in the supply)
    r0, r1, r2 = near_temple(bb, e0, e1, e2)
    supply_at = -1
    supply_n = 0
    for c in range(4):
        s = st[S.leader_sq(p, c)]
        if s < 0:
            if supply_at < 0:
                supply_at = n
                n = emit(out, n, S.A_LEADER + SQUARES * c, r0 & ~tw0, r1 & ~tw1, r2 & ~tw2)
                supply_n = n - supply_at
                supply_c = c
            else:
                n = copy_block(out, n, supply_at, supply_n, SQUARES * (c - supply_c))
        else:
            # a move: lift the leader first, then the target must touch at most one kingdom
            u0, u1, u2 = twos_with_leader_lifted(bb, s, on0, on1, on2, tw0, tw1, tw2, th0, th1, th2)
            n = emit(out, n, S.A_LEADER + SQUARES * c, r0 & ~u0, r1 & ~u1, r2 & ~u2)
    # withdraw
    for c in range(4):
        if st[S.leader_sq(p, c)] >= 0:
            out[n] = S.A_WITHDRAW + c
            n += 1
    # catastrophe: an empty square, or a face-up tile without a treasure
    if st[S.catastrophes(p)] > 0:
        c0, c1, c2 = catastrophe_targets(bb, e0, e1, e2)
        n = emit(out, n, S.A_CATASTROPHE, c0, c1, c2)
    # swap every non-empty sub-multiset of the hand (at most 6 tiles), in the order of
    # SWAP_COUNTS (lexicographic in r, b, g, k), so the codes come out ascending
    for r in range(st[S.hand(p, 0)] + 1):
        for b in range(st[S.hand(p, 1)] + 1):
            for g in range(st[S.hand(p, 2)] + 1):
                for k in range(st[S.hand(p, 3)] + 1):
                    if r + b + g + k > 0:
                        out[n] = S.A_SWAP + SWAP_INDEX[((r * 7 + b) * 7 + g) * 7 + k]
                        n += 1
    out[n] = S.A_PASS
    return n + 1


def _swap_index_table():
    table = np.full(7 * 7 * 7 * 7, -1, dtype=np.int64)
    for i, (r, b, g, k) in enumerate(S.SWAP_COUNTS):
        table[((r * 7 + b) * 7 + g) * 7 + k] = i
    return table


SWAP_INDEX = _swap_index_table()


@njit(cache=True, _nrt=False)
def leader_move_ok(st, bb, p, c, target):
    """Exact check of a board leader's move: with it lifted, target touches <= 1 kingdom."""
    nk, _, _, _, _ = kingdoms_around(st, bb, target, st[S.leader_sq(p, c)], np.bool_(False))
    return nk <= 1


@njit(cache=True, _nrt=False, inline="always")
def nth_tile_move(hand, k, e0, e1, e2, th0, th1, th2, land_n, river_n):
    """The k-th tile placement of random_move's count: the colours in hand in order, each
    over its free squares (river for blue, land for the others; th: next to 3+ kingdoms)."""
    for c in range(4):
        if hand[c] == 0:
            continue
        if c == BLUE:
            if k < river_n:
                return S.A_TILE + SQUARES + nth_square(e0 & RIVER[0] & ~th0, e1 & RIVER[1] & ~th1,
                                                   e2 & RIVER[2] & ~th2, k)
            k -= river_n
        else:
            if k < land_n:
                return S.A_TILE + SQUARES * c + nth_square(e0 & LAND[0] & ~th0, e1 & LAND[1] & ~th1,
                                                       e2 & LAND[2] & ~th2, k)
            k -= land_n
    return -1


@njit(cache=True, _nrt=False, inline="always")
def nth_swap_move(hand, k):
    """The k-th swap of random_move's count: sub-multiset k + 1 of the hand, counted with
    the red tiles' count as the lowest digit."""
    k += 1
    d0 = k % (hand[0] + 1)
    k //= hand[0] + 1
    d1 = k % (hand[1] + 1)
    k //= hand[1] + 1
    d2 = k % (hand[2] + 1)
    d3 = k // (hand[2] + 1)
    return S.A_SWAP + SWAP_INDEX[((d0 * 7 + d1) * 7 + d2) * 7 + d3]


@njit(cache=True, _nrt=False)
def random_move(st, rng, out):
    """A move drawn uniformly from the legal moves of whoever must act, without listing them
    all: moves are counted per kind by popcount and only the drawn one is built.  A board
    leader's move is drawn from a superset (every empty land square next to a temple) and
    checked exactly; an illegal draw is redrawn, which keeps the pick uniform."""
    if st[S.PHASE] != S.PH_ACTION:
        n = legal_moves(st, out)
        return out[below(rng, n)]
    bb = st.view(np.uint64)
    p = st[S.TO_ACT]
    tw0, tw1, tw2, th0, th1, th2 = touch_counts_of(bb, NO_SQUARE)
    e0, e1, e2 = empty_squares(bb)
    land_n = count3(e0 & LAND[0] & ~th0, e1 & LAND[1] & ~th1, e2 & LAND[2] & ~th2)
    river_n = count3(e0 & RIVER[0] & ~th0, e1 & RIVER[1] & ~th1, e2 & RIVER[2] & ~th2)
    r0, r1, r2 = near_temple(bb, e0, e1, e2)
    near_temple_n = count3(r0, r1, r2)
    supply_n = count3(r0 & ~tw0, r1 & ~tw1, r2 & ~tw2)
    hand = st[S.hand(p, 0):S.hand(p, 0) + 4]
    tile_n = 0
    for c in range(4):
        if hand[c] > 0:
            tile_n += river_n if c == BLUE else land_n
    leader_n = 0
    withdraw_n = 0
    for c in range(4):
        if st[S.leader_sq(p, c)] < 0:
            leader_n += supply_n
        else:
            leader_n += near_temple_n
            withdraw_n += 1
    cata_n = 0
    c0, c1, c2 = catastrophe_targets(bb, e0, e1, e2)
    if st[S.catastrophes(p)] > 0:
        cata_n = count3(c0, c1, c2)
    swap_n = (hand[0] + 1) * (hand[1] + 1) * (hand[2] + 1) * (hand[3] + 1) - 1
    total = tile_n + leader_n + withdraw_n + cata_n + swap_n + 1
    while True:
        k = below(rng, total)
        if k < tile_n:
            return nth_tile_move(hand, k, e0, e1, e2, th0, th1, th2, land_n, river_n)
        k -= tile_n
        if k < leader_n:
            for c in range(4):
                if st[S.leader_sq(p, c)] < 0:
                    if k < supply_n:
                        return S.A_LEADER + SQUARES * c + nth_square(r0 & ~tw0, r1 & ~tw1, r2 & ~tw2, k)
                    k -= supply_n
                else:
                    if k < near_temple_n:
                        target = nth_square(r0, r1, r2, k)
                        if leader_move_ok(st, bb, p, c, target):
                            return S.A_LEADER + SQUARES * c + target
                        break
                    k -= near_temple_n
            continue
        k -= leader_n
        if k < withdraw_n:
            for c in range(4):
                if st[S.leader_sq(p, c)] >= 0:
                    if k == 0:
                        return S.A_WITHDRAW + c
                    k -= 1
        k -= withdraw_n
        if k < cata_n:
            return S.A_CATASTROPHE + nth_square(c0, c1, c2, k)
        k -= cata_n
        if k < swap_n:
            return nth_swap_move(hand, k)
        return S.A_PASS
