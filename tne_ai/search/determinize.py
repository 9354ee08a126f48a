"""Determinization: a full state drawn from what one player can see.

The viewer sees the board, scores, supplies, out-of-game tiles, his own hand, how many
tiles every other hand holds and how many tiles are in the bag and in the hidden discards.
The unseen pool (153 less the board, the monuments' tiles, the out-of-game tiles and his own
hand) is shuffled and dealt: the other hands in player order, then the hidden discards
(gone), the rest becomes the bag in that shuffled order.  Only public fields and the viewer's
hand are read, so the result is the same whether or not the true hands and bag are in the
state.  (The viewer's own past swaps are treated as unknown too: the state keeps one count of
hidden discards, not their owners.)

Nothing is allocated: the output buffer itself (984 bytes) is the scratch for the pool, one
byte a tile, until the deal is done; then it receives its copy of the state, the dealt hands
and the bag (at most 153 tiles; the bag holds 160).
"""
import math

import numpy as np
from numba import njit

from tne_ai.core import state as S
from tne_ai.core.bits import U0, U1, count3, popcount
from tne_ai.core.board import N_MONUMENTS, TILES_PER_COLOUR
from tne_ai.core.rules.rng import below, next_u64

LOW_BITS = np.uint64(0x5555555555555555)  # the low bit of every 2-bit tile


@njit(cache=True, _nrt=False, inline="always")
def unseen_of(st, bb, viewer, c):
    """Tiles of colour c the viewer cannot see."""
    t = S.tile_bb(c)
    on_board = count3(bb[t], bb[t + 1], bb[t + 2])
    for m in range(N_MONUMENTS):
        if st[S.monument_tiles(m)] == c:
            on_board += 4
    return TILES_PER_COLOUR[c] - on_board - st[S.out_of_game(c)] - st[S.hand(viewer, c)]


@njit(cache=True, _nrt=False)
def unseen_pool(st, viewer, pool):
    """pool[c] = tiles of colour c the viewer cannot see; return the total."""
    bb = st.view(np.uint64)
    total = 0
    for c in range(4):
        pool[c] = unseen_of(st, bb, viewer, c)
        total += pool[c]
    return total


@njit(cache=True, _nrt=False)
def pack_tiles(tiles, start, count):
    """Tiles start .. start + count - 1 (count <= 32) of a byte-per-tile array as one bag word."""
    word = U0
    for k in range(count):
        word |= np.uint64(tiles[start + k]) << np.uint64(2 * k)
    return word


@njit(cache=True, _nrt=False, inline="always")
def _shuffled_pool(tiles, n0, n1, n2, n3, rng):
    """Lay n0 red, n1 blue, n2 green and n3 black tiles (one byte a tile) into tiles from 0,
    shuffle them (Fisher-Yates) and return how many there are."""
    total = 0
    for c, n in ((0, n0), (1, n1), (2, n2), (3, n3)):
        for _ in range(n):
            tiles[total] = c
            total += 1
    for i in range(total - 1, 0, -1):
        j = below(rng, i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return total


@njit(cache=True, _nrt=False, inline="always")
def _finish(st, out, tiles, i, n, dealt, viewer, n_players):
    """Copy st into out with the dealt hands (4 bits per player and colour in dealt) and
    the bag tiles[i:i + n] (in that order)."""
    b0 = pack_tiles(tiles, i, min(max(n, 0), 32))
    b1 = pack_tiles(tiles, i + 32, min(max(n - 32, 0), 32))
    b2 = pack_tiles(tiles, i + 64, min(max(n - 64, 0), 32))
    b3 = pack_tiles(tiles, i + 96, min(max(n - 96, 0), 32))
    b4 = pack_tiles(tiles, i + 128, min(max(n - 128, 0), 32))
    S.copy_into(out, st)
    for p in range(n_players):
        if p != viewer:
            for c in range(4):
                out[S.hand(p, c)] = (dealt >> (4 * (4 * p + c))) & 15
    words = out.view(np.uint64)
    words[S.BAG] = b0
    words[S.BAG + 1] = b1
    words[S.BAG + 2] = b2
    words[S.BAG + 3] = b3
    words[S.BAG + 4] = b4
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


@njit(cache=True, _nrt=False)
def determinize(st, viewer, rng, out):
    """Write into out (another array than st) a full state consistent with viewer's
    information set in st."""
    bb = st.view(np.uint64)
    n_players = st[S.PLAYERS]
    hidden = st[S.HIDDEN_DISCARDS]
    # out is scratch until its copy of st below: the unseen pool, one byte a tile, shuffled
    tiles = out.view(np.uint8)
    total = _shuffled_pool(tiles, unseen_of(st, bb, viewer, 0), unseen_of(st, bb, viewer, 1),
                           unseen_of(st, bb, viewer, 2), unseen_of(st, bb, viewer, 3), rng)
    # deal: the other hands in player order (counts kept 4 bits each, slot 4 * p + c), then
    # the hidden discards (gone); the rest, in that order, is the bag
    dealt = 0
    i = 0
    for p in range(n_players):
        if p == viewer:
            continue
        for _ in range(S.hand_size(st, p)):
            dealt += 1 << (4 * (4 * p + tiles[i]))
            i += 1
    _finish(st, out, tiles, i + hidden, total - i - hidden, dealt, viewer, n_players)


# Hand belief (``determinize_belief``): the other hands are dealt tile by tile, each tile's
# colour c drawn with odds unseen_c * exp(HB_SCORE * s_c + HB_COLOUR[c]), s_c the holder's
# score in c above his lowest colour (at most 6) over 6.  Fitted by maximum likelihood on the
# 131,590 opponent hands of bench/data/selfplay/value_pair_2p.jsonl.gz (bench/README.md, "The
# hidden hands"): held-out 1.3157 nats a tile against 1.3288 for the uniform deal.
HB_SCORE = 0.273
HB_COLOUR = np.array([0.331, 0.092, -0.056, 0.0])


@njit(cache=True, _nrt=False)
def determinize_belief(st, viewer, rng, out):
    """``determinize`` with the other hands dealt by the hand belief's colour odds (above);
    the hidden discards and the bag are the rest of the unseen pool, shuffled."""
    bb = st.view(np.uint64)
    n_players = st[S.PLAYERS]
    hidden = st[S.HIDDEN_DISCARDS]
    tiles = out.view(np.uint8)
    base = out.shape[0] - 4            # out[base + c]: colour c's unseen tiles left to deal
    for c in range(4):                 # (past the tiles, scratch until the copy of st)
        out[base + c] = unseen_of(st, bb, viewer, c)
    dealt = 0
    for p in range(n_players):
        if p == viewer:
            continue
        low = min(min(st[S.score(p, 0)], st[S.score(p, 1)]), min(st[S.score(p, 2)], st[S.score(p, 3)]))
        w0 = math.exp(HB_SCORE * min(st[S.score(p, 0)] - low, 6) / 6.0 + HB_COLOUR[0])
        w1 = math.exp(HB_SCORE * min(st[S.score(p, 1)] - low, 6) / 6.0 + HB_COLOUR[1])
        w2 = math.exp(HB_SCORE * min(st[S.score(p, 2)] - low, 6) / 6.0 + HB_COLOUR[2])
        w3 = math.exp(HB_SCORE * min(st[S.score(p, 3)] - low, 6) / 6.0 + HB_COLOUR[3])
        for _ in range(S.hand_size(st, p)):
            o0, o1, o2, o3 = out[base] * w0, out[base + 1] * w1, out[base + 2] * w2, out[base + 3] * w3
            r = float(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * (o0 + o1 + o2 + o3)
            c = 0 if r < o0 else (1 if r < o0 + o1 else (2 if r < o0 + o1 + o2 else 3))
            if out[base + c] == 0:            # rounding at the top end: the last colour left
                c = 3
                while out[base + c] == 0:
                    c -= 1
            out[base + c] -= 1
            dealt += 1 << (4 * (4 * p + c))
    total = _shuffled_pool(tiles, out[base], out[base + 1], out[base + 2], out[base + 3], rng)
    _finish(st, out, tiles, hidden, total - hidden, dealt, viewer, n_players)
