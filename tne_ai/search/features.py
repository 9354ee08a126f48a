"""The evaluation's features: what a strong player weighs in a position, per player.

``features(st, kmask, out)`` writes one row of ``N_FEATURES`` numbers per player into ``out``
(shape (4, N_FEATURES)).  The first ``N_BASE`` columns are the base features below; the next
``N_BASE`` are the same features multiplied by the game's stage (0 at the start, 1 when the end
is near), so a fitted model can weigh, say, tiles in hand more early and points more late.
Everything is read from one kingdom labelling of the board.

Base features of player p (SPEC sections named where the rule is):

=====================  ======================================================================
``F_SORTED + i``       p's colour totals after his treasures are added to the lowest (the
                       final-scoring view, SPEC section 6), sorted ascending, i = 0..3
``F_TREASURES``        treasures he holds
``F_HAND``             tiles in his hand
``F_HAND_RED``         red tiles in his hand (revolt strength, SPEC section 4)
``F_HAND_LEADER``      tiles in hand of the colours of his blue, green and black leaders on
                       the board (war strength)
``F_LEADERS``          his leaders on the board (a leader is what later tiles score for)
``F_KINGDOM``          for each of his leaders, the tiles of its colour in its kingdom (at most
                       6 each): what he scores from and defends with in a war
``F_REVOLT``           for each leader, its revolt margin: adjacent temples plus his red tiles
                       against the most red tiles a rival holds plus one temple, in -3..3
``F_WAR``              for each leader, its war margin: kingdom tiles of its colour plus his
                       tiles of it in hand against the strongest rival leader of that colour
                       in another kingdom (3 when there is none), in -3..3
``F_REACH``            treasures in the kingdom of his trader (green leader)
``F_MONUMENT``         monument colours paying him: a monument of colour c in a kingdom where
                       he has the leader of c (SPEC section 5)
``F_CATASTROPHES``     catastrophe tiles he still holds
``F_CONTESTED``        his leaders sharing a kingdom with a rival's leader
``F_TO_MOVE``          1 if it is his turn
=====================  ======================================================================

The stage is the larger of how much of the bag is gone and how many of the ten treasures
are gone (the game ends at two left, SPEC section 3).  The bag is measured from what it holds
once the game is dealt, which depends on the player count: 153 tiles less the 10 starting
temples less 6 per hand (SPEC section 1), so 131, 125 and 119 tiles for 2, 3 and 4 players,
and the stage is 0 at the start of every game.
"""
import numpy as np
from numba import njit

from tne_ai.core import state as S
from tne_ai.core.board import GREEN, NO_SQUARE, N_MONUMENTS, RED
from tne_ai.core.bits import count3, has
from tne_ai.core.rules.apply import MON_A, MON_B, red_next_to
from tne_ai.core.rules.kingdoms import kingdom_of, label
from tne_ai.core.rules.scoring import final_values

F_SORTED = 0
F_TREASURES = 4
F_HAND = 5
F_HAND_RED = 6
F_HAND_LEADER = 7
F_LEADERS = 8
F_KINGDOM = 9
F_REVOLT = 10
F_WAR = 11
F_REACH = 12
F_MONUMENT = 13
F_CATASTROPHES = 14
F_CONTESTED = 15
F_TO_MOVE = 16
N_BASE = 17
N_FEATURES = 2 * N_BASE

BASE_NAMES = ("lowest", "second", "third", "highest", "treasures", "hand", "hand_red",
              "hand_leader_colours", "leaders", "kingdom_tiles", "revolt_margin", "war_margin",
              "treasures_in_reach", "monument_colours", "catastrophes", "contested_leaders",
              "to_move")
FEATURE_NAMES = BASE_NAMES + tuple(name + "*stage" for name in BASE_NAMES)
assert len(BASE_NAMES) == N_BASE

# the bag after the deal (SPEC section 1): 153 tiles less the 10 starting temples, less a
# hand of 6 per player
BAG_BEFORE_HANDS = 143.0
HAND_TILES = 6.0
TREASURES_START = 10.0


@njit(cache=True, _nrt=False)
def _clip3(x):
    return -3 if x < -3 else (3 if x > 3 else x)


@njit(cache=True, _nrt=False)
def stage(st):
    """How near the end the game is, 0..1 (0 at the deal of a game of any player count)."""
    bag = S.bag_total(st)
    bag_start = BAG_BEFORE_HANDS - HAND_TILES * st[S.PLAYERS]
    bb = st.view(np.uint64)
    treasures = count3(bb[S.BB_TREASURE], bb[S.BB_TREASURE + 1], bb[S.BB_TREASURE + 2])
    a = 1.0 - bag / bag_start
    b = (TREASURES_START - treasures) / (TREASURES_START - 2.0)
    g = a if a > b else b
    return 0.0 if g < 0.0 else (1.0 if g > 1.0 else g)


@njit(cache=True, _nrt=False)
def features(st, kmask, out):
    """Feature rows of every player into out[p, :N_FEATURES]; kmask is (16, 3) scratch."""
    bb = st.view(np.uint64)
    n = st[S.PLAYERS]
    nk = label(bb, NO_SQUARE, kmask)
    g = stage(st)
    for p in range(n):
        row = out[p]
        for i in range(N_FEATURES):
            row[i] = 0.0
    # kingdom of every leader, and per kingdom and colour its tiles (face-up)
    for p in range(n):
        row = out[p]
        final_values(st, p, row[F_SORTED:F_SORTED + 4])
        row[F_TREASURES] = st[S.score(p, S.SCORE_TREASURE)]
        row[F_HAND] = S.hand_size(st, p)
        row[F_HAND_RED] = st[S.hand(p, RED)]
        row[F_CATASTROPHES] = st[S.catastrophes(p)]
        row[F_TO_MOVE] = 1.0 if st[S.TURN] == p else 0.0
        rival_red = 0
        for q in range(n):
            if q != p and st[S.hand(q, RED)] > rival_red:
                rival_red = st[S.hand(q, RED)]
        for c in range(4):
            s = st[S.leader_sq(p, c)]
            if s < 0:
                continue
            row[F_LEADERS] += 1.0
            if c > 0:
                row[F_HAND_LEADER] += st[S.hand(p, c)]
            k = kingdom_of(kmask, nk, s)
            base = S.tile_bb(c)
            own = count3(kmask[k, 0] & bb[base], kmask[k, 1] & bb[base + 1], kmask[k, 2] & bb[base + 2])
            row[F_KINGDOM] += own if own < 6 else 6
            row[F_REVOLT] += _clip3(red_next_to(bb, s) + st[S.hand(p, RED)] - rival_red - 1)
            strongest = -1
            contested = False
            for q in range(n):
                if q == p:
                    continue
                for d in range(4):
                    sq = st[S.leader_sq(q, d)]
                    if sq >= 0 and has(kmask[k, 0], kmask[k, 1], kmask[k, 2], sq):
                        contested = True
                sq = st[S.leader_sq(q, c)]
                if sq < 0:
                    continue
                kq = kingdom_of(kmask, nk, sq)
                if kq == k:
                    continue
                theirs = count3(kmask[kq, 0] & bb[base], kmask[kq, 1] & bb[base + 1],
                                kmask[kq, 2] & bb[base + 2]) + st[S.hand(q, c)]
                if theirs > strongest:
                    strongest = theirs
            if contested:
                row[F_CONTESTED] += 1.0
            if strongest < 0:
                row[F_WAR] += 3.0
            else:
                row[F_WAR] += _clip3(own + st[S.hand(p, c)] - strongest)
            if c == GREEN:
                row[F_REACH] = count3(kmask[k, 0] & bb[S.BB_TREASURE], kmask[k, 1] & bb[S.BB_TREASURE + 1],
                                      kmask[k, 2] & bb[S.BB_TREASURE + 2])
        for m in range(N_MONUMENTS):
            t = st[S.monument_sq(m)]
            if t < 0:
                continue
            k = kingdom_of(kmask, nk, t)
            if k < 0:
                continue
            for c in (MON_A[m], MON_B[m]):
                s = st[S.leader_sq(p, c)]
                if s >= 0 and has(kmask[k, 0], kmask[k, 1], kmask[k, 2], s):
                    row[F_MONUMENT] += 1.0
        for i in range(N_BASE):
            row[N_BASE + i] = row[i] * g
    return n
