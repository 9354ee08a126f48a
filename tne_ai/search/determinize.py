"""Determinization: a full state drawn from what one player can see.

The viewer sees the board, scores, supplies, out-of-game tiles, his own hand, how many
tiles every other hand holds and how many tiles are in the bag and in the hidden discards.
The unseen pool (153 less the board, the monuments' tiles, the out-of-game tiles and his own
hand) is shuffled and dealt: the other hands in player order, then the hidden discards
(gone), the rest becomes the bag in that shuffled order.  Only public fields and the viewer's
hand are read, so the result is the same whether or not the true hands and bag are in the
state.  (The viewer's own past swaps are treated as unknown too: the state keeps one count of
hidden discards, not their owners.)
"""
import numpy as np
from numba import njit

from .. import state as S
from ..bits import count3
from ..board import TILES_PER_COLOUR
from ..engine.rng import below


@njit(cache=True)
def unseen_pool(st, viewer, pool):
    """pool[c] = tiles of colour c the viewer cannot see; return the total."""
    bb = st.view(np.uint64)
    total = 0
    for c in range(4):
        on_board = count3(bb[S.BB_TILE + 3 * c], bb[S.BB_TILE + 3 * c + 1], bb[S.BB_TILE + 3 * c + 2])
        for m in range(6):
            if st[S.MON_TILES + m] == c:
                on_board += 4
        pool[c] = TILES_PER_COLOUR[c] - on_board - st[S.OUT_OF_GAME + c] - st[S.HAND + 4 * viewer + c]
        total += pool[c]
    return total


@njit(cache=True)
def determinize(st, viewer, rng, out):
    """Write into out a full state consistent with viewer's information set in st."""
    out[:] = st
    pool = np.empty(4, dtype=np.int64)
    total = unseen_pool(st, viewer, pool)
    tiles = np.empty(total, dtype=np.int64)
    i = 0
    for c in range(4):
        for _ in range(pool[c]):
            tiles[i] = c
            i += 1
    for i in range(total - 1, 0, -1):
        j = below(rng, i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    i = 0
    for p in range(st[S.PLAYERS]):
        if p == viewer:
            continue
        held = 0
        for c in range(4):
            held += st[S.HAND + 4 * p + c]
            out[S.HAND + 4 * p + c] = 0
        for _ in range(held):
            out[S.HAND + 4 * p + tiles[i]] += 1
            i += 1
    i += st[S.HIDDEN_DISCARDS]
    for c in range(4):
        out[S.BAG_COUNT + c] = 0
    for w in range(S.BAG_WORDS):
        out[S.BAG + w] = 0
    n = total - i
    for k in range(n):
        c = tiles[i + k]
        out[S.BAG_COUNT + c] += 1
        out[S.BAG + (k >> 5)] |= c << (2 * (k & 31))
    out[S.BAG_LEN] = n
    out[S.BAG_ORDERED] = 1
