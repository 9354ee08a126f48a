"""Determinization: a full state drawn from what one player can see.

The viewer sees the board, scores, supplies, out-of-game tiles, his own hand, how many
tiles every other hand holds and how many tiles are in the bag and in the hidden discards.
The unseen pool (153 less the board, the monuments' tiles, the out-of-game tiles and his own
hand) is shuffled and dealt: the other hands in player order, then the hidden discards
(gone), the rest becomes the bag in that shuffled order.  Only public fields and the viewer's
hand are read, so the result is the same whether or not the true hands and bag are in the
state.  (The viewer's own past swaps are treated as unknown too: the state keeps one count of
hidden discards, not their owners.)

Nothing is allocated: the pool (at most 153 tiles, the bag holds 160) is laid out and
shuffled in the output's own bag words, dealt from there, and what is left is moved to the
front of the bag.
"""
import numpy as np
from numba import njit

from .. import state as S
from ..bits import U0, U1, count3, popcount
from ..board import TILES_PER_COLOUR
from ..engine.rng import shuffle_bag

LOW_BITS = np.uint64(0x5555555555555555)  # the low bit of every 2-bit tile


@njit(cache=True, inline="always")
def unseen_of(st, bb, viewer, c):
    """Tiles of colour c the viewer cannot see."""
    t = S.tile_bb(c)
    on_board = count3(bb[t], bb[t + 1], bb[t + 2])
    for m in range(6):
        if st[S.monument_tiles(m)] == c:
            on_board += 4
    return TILES_PER_COLOUR[c] - on_board - st[S.out_of_game(c)] - st[S.hand(viewer, c)]


@njit(cache=True)
def unseen_pool(st, viewer, pool):
    """pool[c] = tiles of colour c the viewer cannot see; return the total."""
    bb = st.view(np.uint64)
    total = 0
    for c in range(4):
        pool[c] = unseen_of(st, bb, viewer, c)
        total += pool[c]
    return total


@njit(cache=True)
def determinize(st, viewer, rng, out):
    """Write into out a full state consistent with viewer's information set in st."""
    out[:] = st
    bb = st.view(np.uint64)
    # the unseen tiles colour by colour, as bag tiles 0..total-1 of out, then shuffled
    for w in range(S.BAG_WORDS):
        out[S.BAG + w] = 0
    total = 0
    for c in range(4):
        for _ in range(unseen_of(st, bb, viewer, c)):
            out[S.BAG + (total >> 5)] |= c << (2 * (total & 31))
            total += 1
    shuffle_bag(out, total, rng)
    # deal: the other hands in player order, then the hidden discards (gone)
    i = 0
    for p in range(st[S.PLAYERS]):
        if p == viewer:
            continue
        held = S.hand_size(st, p)
        for c in range(4):
            out[S.hand(p, c)] = 0
        for _ in range(held):
            out[S.hand(p, S.bag_tile(out, i))] += 1
            i += 1
    i += st[S.HIDDEN_DISCARDS]
    # the rest is the bag: shift tiles i.. to the front (tiles past the pool are 0 already)
    n = total - i
    words = out.view(np.uint64)
    if n <= 0:
        for w in range(S.BAG_WORDS):
            out[S.BAG + w] = 0
    elif i > 0:
        ws = (2 * i) >> 6
        bs = np.uint64((2 * i) & 63)
        for w in range(S.BAG_WORDS):
            lo = words[S.BAG + w + ws] if w + ws < S.BAG_WORDS else U0
            hi = words[S.BAG + w + ws + 1] if w + ws + 1 < S.BAG_WORDS else U0
            words[S.BAG + w] = (lo >> bs) | (hi << (np.uint64(64) - bs)) if bs != U0 else lo
    # bag counts: colours 1, 2, 3 are the 2-bit patterns 01, 10, 11
    ones = twos = threes = 0
    for w in range(S.BAG_WORDS):
        lo = words[S.BAG + w] & LOW_BITS
        hi = (words[S.BAG + w] >> U1) & LOW_BITS
        ones += popcount(lo & ~hi)
        twos += popcount(hi & ~lo)
        threes += popcount(lo & hi)
    out[S.bag_count(0)] = max(n, 0) - ones - twos - threes
    out[S.bag_count(1)] = ones
    out[S.bag_count(2)] = twos
    out[S.bag_count(3)] = threes
    out[S.BAG_LEN] = n
    out[S.BAG_ORDERED] = 1
