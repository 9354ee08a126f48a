"""Move kinds and their prior scores, for progressive widening: which children a node opens
first.

Every legal move falls in exactly one kind below.  A kind's score is a weight (``PRIOR_DEFAULT``,
or fitted by ``tne_ai.matches.train`` from the moves a searching player chose); a node opens next an
untried move of the kind with the best weight less log(1 + its children of that kind already
open), at random within the kind.  The kinds of tiles,
leaders and catastrophes are bitboards made once per opening from one labelling of the board
(``prepare``), so finding the best untried move costs a few bit operations and a lookup per
candidate square, not a score per legal move.

=====================  ======================================================================
``K_TILE_MONUMENT``    a tile completing a 2x2 block of its colour while a monument of that
                       colour is unbuilt (SPEC section 5)
``K_TILE_MINE_LOW``    a tile that scores for the mover (SPEC section 3.1: the leader of its
                       colour, else the king, of the one kingdom it joins) in one of his
                       lowest colours
``K_TILE_MINE``        a tile that scores for the mover, in another colour
``K_TILE_WAR``         a tile next to two kingdoms (a unification: wars if leaders clash)
``K_TILE_NOBODY``      a tile joining a kingdom where nobody scores it
``K_TILE_ALONE``       a tile next to no kingdom
``K_TILE_RIVAL``       a tile that scores for a rival
``K_LEADER_REVOLT``    a leader next to a kingdom holding a rival leader of its colour
``K_LEADER_JOIN``      a leader next to a kingdom, no revolt
``K_LEADER_NEW``       a leader next to no kingdom
``K_CAT_RIVAL``        a catastrophe on a tile of a kingdom with a rival leader (and none of
                       the mover's)
``K_CAT_OWN``          a catastrophe on a tile of a kingdom with one of the mover's leaders
``K_CAT_NOTHING``      a catastrophe on an empty square with nothing next to it
``K_CAT_OTHER``        any other catastrophe
``K_WITHDRAW``         withdrawing a leader
``K_SWAP``, ``K_PASS`` swapping tiles, passing
``K_DECISION``         commits, war colours, monuments, treasures (all one kind)
``K_LEADER_MOVE``      moving a leader already on the board (no tile drawn, nothing built)
=====================  ======================================================================
"""
import math

import numpy as np
from numba import njit

from tne_ai.core import state as S
from tne_ai.core.bits import NOT_COL_A, NOT_COL_P, U0, U1, dilate, down_by, has, lowest_bit, up_by
from tne_ai.core.board import ALL, BLACK, NO_SQUARE, N_MONUMENTS, SQUARES
from tne_ai.core.rules.apply import MON_A, MON_B, conflict_strengths
from tne_ai.core.rules.kingdoms import label, occupied
from tne_ai.core.rules.movegen import empty_squares, touch_counts
from tne_ai.core.rules.rng import below
from tne_ai.search.determinize import unseen_of

K_TILE_MONUMENT = 0
K_TILE_MINE_LOW = 1
K_TILE_MINE = 2
K_TILE_WAR = 3
K_TILE_NOBODY = 4
K_TILE_ALONE = 5
K_TILE_RIVAL = 6
K_LEADER_REVOLT = 7
K_LEADER_JOIN = 8
K_LEADER_NEW = 9
K_CAT_RIVAL = 10
K_CAT_OWN = 11
K_CAT_NOTHING = 12
K_CAT_OTHER = 13
K_WITHDRAW = 14
K_SWAP = 15
K_PASS = 16
K_DECISION = 17
K_LEADER_MOVE = 18
N_KINDS = 19
KIND_NAMES = ("tile_monument", "tile_mine_low", "tile_mine", "tile_war", "tile_nobody",
              "tile_alone", "tile_rival", "leader_revolt", "leader_join", "leader_new",
              "cat_rival", "cat_own", "cat_nothing", "cat_other", "withdraw", "swap", "pass",
              "decision", "leader_move")
assert len(KIND_NAMES) == N_KINDS

# hand-set scores, used until fitted ones are given: scoring and building first, pointless
# catastrophes, swaps and passes last
PRIOR_DEFAULT = np.array([3.0, 2.5, 2.0, 1.0, 0.5, 0.0, -0.5, 1.0, 1.5, 0.5, 0.5, -2.0,
                          -3.0, -1.5, -1.5, -1.5, -3.0, 0.0, -1.0])

# rows of the mask scratch (3 words each): tile kinds by colour, leader kinds by colour,
# catastrophe kinds
ROW_LEADER = 28
ROW_CAT = 40
N_MASKS = 44


# KIND_ROW[kind] + c: the mask row of a tile or leader kind for colour c; a catastrophe
# kind has one row (c = 0).  A table, not a function: the kinds are constants, and a call
# with a literal kind would be compiled once per kind.
KIND_ROW = np.array([4 * k for k in range(K_TILE_RIVAL + 1)]
                    + [ROW_LEADER + 4 * (k - K_LEADER_REVOLT) for k in range(K_LEADER_REVOLT, K_LEADER_NEW + 1)]
                    + [ROW_CAT + k - K_CAT_RIVAL for k in range(K_CAT_RIVAL, K_CAT_OTHER + 1)], dtype=np.int64)


@njit(cache=True, _nrt=False)
def _set(masks, row, a0, a1, a2):
    masks[row, 0] = a0
    masks[row, 1] = a1
    masks[row, 2] = a2


@njit(cache=True, _nrt=False)
def block_completers(bb, c):
    """The squares where a tile of colour c would complete a 2x2 block of c (SPEC section 5):
    the square is one corner of the block and the other three hold tiles of c.  Row ends are
    masked where a shift by 1, 15 or 17 would wrap to the next row."""
    base = S.tile_bb(c)
    t0, t1, t2 = bb[base], bb[base + 1], bb[base + 2]
    e0, e1, e2 = down_by(t0, t1, t2, 1)       # s + 1 holds c (east)
    w0, w1, w2 = up_by(t0, t1, t2, 1)         # s - 1 (west)
    s0, s1, s2 = down_by(t0, t1, t2, 16)      # s + 16 (south)
    n0, n1, n2 = up_by(t0, t1, t2, 16)        # s - 16 (north)
    se0, se1, se2 = down_by(t0, t1, t2, 17)   # s + 17
    sw0, sw1, sw2 = down_by(t0, t1, t2, 15)   # s + 15
    ne0, ne1, ne2 = up_by(t0, t1, t2, 15)     # s - 15
    nw0, nw1, nw2 = up_by(t0, t1, t2, 17)     # s - 17
    # s as the block's top-left or bottom-left corner (its column is not the last) ...
    r0 = ((e0 & s0 & se0) | (e0 & n0 & ne0)) & NOT_COL_P
    r1 = ((e1 & s1 & se1) | (e1 & n1 & ne1)) & NOT_COL_P
    r2 = ((e2 & s2 & se2) | (e2 & n2 & ne2)) & NOT_COL_P
    # ... or its top-right or bottom-right corner (its column is not the first)
    r0 |= ((w0 & s0 & sw0) | (w0 & n0 & nw0)) & NOT_COL_A
    r1 |= ((w1 & s1 & sw1) | (w1 & n1 & nw1)) & NOT_COL_A
    r2 |= ((w2 & s2 & sw2) | (w2 & n2 & nw2)) & NOT_COL_A
    return r0 & ~t0, r1 & ~t1, r2 & ~t2


@njit(cache=True, _nrt=False)
def _owner(st, kmask, k, c, n):
    """The player whose leader of colour c stands in kingdom k, or -1."""
    for q in range(n):
        s = st[S.leader_sq(q, c)]
        if s >= 0 and has(kmask[k, 0], kmask[k, 1], kmask[k, 2], s):
            return q
    return -1


@njit(cache=True, _nrt=False)
def prepare(st, kmask, masks):
    """Fill masks (N_MASKS, 3) with the squares of each tile, leader and catastrophe kind for
    the player to act.  The kinds of one piece partition the board, so every legal move has
    exactly one kind."""
    bb = st.view(np.uint64)
    p = st[S.TO_ACT]
    nk = label(bb, NO_SQUARE, kmask)
    two0, two1, two2, _, _, _ = touch_counts(kmask, nk)
    for row in range(N_MASKS):
        masks[row, 0] = U0
        masks[row, 1] = U0
        masks[row, 2] = U0
    one0, one1, one2, own0, own1, own2, riv0, riv1, riv2 = _kingdom_kinds(st, kmask, nk, masks, p)
    _tile_and_leader_kinds(st, bb, masks, p, one0, one1, one2, two0, two1, two2)
    e0, e1, e2 = empty_squares(bb)
    for row in range(ROW_CAT):
        masks[row, 0] &= e0
        masks[row, 1] &= e1
        masks[row, 2] &= e2
    _catastrophe_kinds(bb, masks, own0, own1, own2, riv0, riv1, riv2)
    return 0


@njit(cache=True, _nrt=False, inline="always")
def _kingdom_kinds(st, kmask, nk, masks, p):
    """Per kingdom: its dilation into the tile kinds by who scores there and into the
    revolt kinds of the colours a rival leads.  Returns the squares next to (or in) any
    kingdom, p's own kingdoms and the rivals' (3 words each)."""
    n = st[S.PLAYERS]
    one0 = one1 = one2 = U0
    own0 = own1 = own2 = U0
    riv0 = riv1 = riv2 = U0
    for k in range(nk):
        d0, d1, d2 = dilate(kmask[k, 0], kmask[k, 1], kmask[k, 2])
        one0 |= d0
        one1 |= d1
        one2 |= d2
        king = _owner(st, kmask, k, np.int64(BLACK), n)   # typed: one compile for every colour
        has_mine = False
        has_rival = False
        for c in range(4):
            holder = _owner(st, kmask, k, c, n)
            if holder == p:
                has_mine = True
            elif holder >= 0:
                has_rival = True
            scorer = holder if holder >= 0 else king
            if scorer >= 0:
                row = KIND_ROW[K_TILE_MINE if scorer == p else K_TILE_RIVAL] + c
                masks[row, 0] |= d0
                masks[row, 1] |= d1
                masks[row, 2] |= d2
            if holder >= 0 and holder != p:
                row = KIND_ROW[K_LEADER_REVOLT] + c
                masks[row, 0] |= d0
                masks[row, 1] |= d1
                masks[row, 2] |= d2
        if has_mine:
            own0 |= kmask[k, 0]
            own1 |= kmask[k, 1]
            own2 |= kmask[k, 2]
        elif has_rival:
            riv0 |= kmask[k, 0]
            riv1 |= kmask[k, 1]
            riv2 |= kmask[k, 2]
    return one0, one1, one2, own0, own1, own2, riv0, riv1, riv2


@njit(cache=True, _nrt=False, inline="always")
def _tile_and_leader_kinds(st, bb, masks, p, one0, one1, one2, two0, two1, two2):
    """The tile and leader kinds of every colour, from the kingdom kinds ``_kingdom_kinds``
    left in masks and the squares next to 1+ (one) and 2+ (two) kingdoms."""
    low = 1 << 30
    for c in range(4):
        if st[S.score(p, c)] < low:
            low = st[S.score(p, c)]
    for c in range(4):
        # tiles: war (2+ kingdoms) and alone (none) first, then by who scores
        rm = KIND_ROW[K_TILE_MINE] + c
        rr = KIND_ROW[K_TILE_RIVAL] + c
        m0 = masks[rm, 0] & one0 & ~two0
        m1 = masks[rm, 1] & one1 & ~two1
        m2 = masks[rm, 2] & one2 & ~two2
        r0 = masks[rr, 0] & one0 & ~two0 & ~m0
        r1 = masks[rr, 1] & one1 & ~two1 & ~m1
        r2 = masks[rr, 2] & one2 & ~two2 & ~m2
        b0 = b1 = b2 = U0
        free = False
        for m in range(N_MONUMENTS):
            if st[S.monument_sq(m)] < 0 and (MON_A[m] == c or MON_B[m] == c):
                free = True
        if free:
            b0, b1, b2 = block_completers(bb, c)
        _set(masks, KIND_ROW[K_TILE_MONUMENT] + c, b0, b1, b2)
        if (low == st[S.score(p, c)]):
            _set(masks, KIND_ROW[K_TILE_MINE_LOW] + c, m0 & ~b0, m1 & ~b1, m2 & ~b2)
            _set(masks, rm, U0, U0, U0)
        else:
            _set(masks, rm, m0 & ~b0, m1 & ~b1, m2 & ~b2)
        _set(masks, rr, r0 & ~b0, r1 & ~b1, r2 & ~b2)
        _set(masks, KIND_ROW[K_TILE_WAR] + c, two0 & ~b0, two1 & ~b1, two2 & ~b2)
        _set(masks, KIND_ROW[K_TILE_ALONE] + c, ~one0 & ~b0, ~one1 & ~b1, ~one2 & ~b2)
        _set(masks, KIND_ROW[K_TILE_NOBODY] + c, one0 & ~two0 & ~m0 & ~r0 & ~b0,
             one1 & ~two1 & ~m1 & ~r1 & ~b1, one2 & ~two2 & ~m2 & ~r2 & ~b2)
        # leaders
        rv = KIND_ROW[K_LEADER_REVOLT] + c
        v0 = masks[rv, 0]
        v1 = masks[rv, 1]
        v2 = masks[rv, 2]
        _set(masks, KIND_ROW[K_LEADER_JOIN] + c, one0 & ~v0, one1 & ~v1, one2 & ~v2)
        _set(masks, KIND_ROW[K_LEADER_NEW] + c, ~one0 & ~v0, ~one1 & ~v1, ~one2 & ~v2)


@njit(cache=True, _nrt=False, inline="always")
def _catastrophe_kinds(bb, masks, own0, own1, own2, riv0, riv1, riv2):
    """Catastrophes: on a tile of one's own kingdom, of a rival's, on nothing, anything else."""
    o0, o1, o2 = occupied(bb)
    t0 = t1 = t2 = U0
    for c in range(4):
        t0 |= bb[S.tile_bb(c)]
        t1 |= bb[S.tile_bb(c) + 1]
        t2 |= bb[S.tile_bb(c) + 2]
    near0, near1, near2 = dilate(o0, o1, o2)
    _set(masks, KIND_ROW[K_CAT_OWN], t0 & own0, t1 & own1, t2 & own2)
    _set(masks, KIND_ROW[K_CAT_RIVAL], t0 & riv0, t1 & riv1, t2 & riv2)
    _set(masks, KIND_ROW[K_CAT_NOTHING], ~near0 & ~t0, ~near1 & ~t1, ~near2 & ~t2)
    _set(masks, KIND_ROW[K_CAT_OTHER], ~((t0 & (own0 | riv0)) | (~near0 & ~t0)),
         ~((t1 & (own1 | riv1)) | (~near1 & ~t1)), ~((t2 & (own2 | riv2)) | (~near2 & ~t2)))


@njit(cache=True, _nrt=False)
def _list_kind(a):
    """The kind of an action that is not a tile, leader or catastrophe."""
    if a >= S.A_COMMIT:
        return K_DECISION
    if a >= S.A_PASS:
        return K_PASS
    if a >= S.A_SWAP:
        return K_SWAP
    return K_WITHDRAW


@njit(cache=True, _nrt=False)
def move_kind(st, masks, a):
    """The kind of action a (masks from ``prepare`` for the state a is legal in)."""
    if S.A_LEADER <= a < S.A_WITHDRAW and st[S.leader_sq(st[S.TO_ACT], (a - S.A_LEADER) // SQUARES)] >= 0:
        return K_LEADER_MOVE
    if a < S.A_WITHDRAW:
        piece = 0 if a < S.A_LEADER else 1
        c = ((a - S.A_LEADER * piece) // SQUARES)
        s = (a - S.A_LEADER * piece) % SQUARES
        first = K_TILE_MONUMENT if piece == 0 else K_LEADER_REVOLT
        last = K_TILE_RIVAL if piece == 0 else K_LEADER_NEW
        for kind in range(first, last + 1):
            row = KIND_ROW[kind] + c
            if has(masks[row, 0], masks[row, 1], masks[row, 2], s):
                return kind
        return last
    if S.A_CATASTROPHE <= a < S.A_SWAP:
        s = a - S.A_CATASTROPHE
        for kind in range(K_CAT_RIVAL, K_CAT_OTHER + 1):
            row = KIND_ROW[kind]
            if has(masks[row, 0], masks[row, 1], masks[row, 2], s):
                return kind
        return K_CAT_OTHER
    return _list_kind(a)


@njit(cache=True, _nrt=False)
def _consider(a, legal_stamp, lstamp, child_stamp, stamp, rng, best, found):
    """Reservoir step: a legal untried a replaces best with chance 1/found."""
    if legal_stamp[a] == lstamp and child_stamp[a] != stamp:
        found += 1
        if below(rng, found) == 0:
            best = a
    return best, found


@njit(cache=True, _nrt=False)
def _pick_of_kind(st, moves, n, legal_stamp, lstamp, child_stamp, stamp, kind, masks, rng):
    """An untried legal move of that kind, uniformly at random; -1 if there is none."""
    me = st[S.TO_ACT]
    best = np.int64(-1)   # typed, as _consider's arguments: one compile
    found = np.int64(0)
    if kind == K_LEADER_MOVE:
        for j in range(n):
            a = moves[j]
            if S.A_LEADER <= a < S.A_WITHDRAW and st[S.leader_sq(me, (a - S.A_LEADER) // SQUARES)] >= 0:
                best, found = _consider(a, legal_stamp, lstamp, child_stamp, stamp, rng, best, found)
    elif kind <= K_CAT_OTHER:
        if kind <= K_TILE_RIVAL:
            base = S.A_TILE
            colours = 4
        elif kind <= K_LEADER_NEW:
            base = S.A_LEADER
            colours = 4
        else:
            base = S.A_CATASTROPHE
            colours = 1
        for c in range(colours):
            if base == S.A_LEADER and st[S.leader_sq(me, c)] >= 0:
                continue          # that leader is on the board: its moves are K_LEADER_MOVE
            row = KIND_ROW[kind] + c
            for w in range(3):
                x = masks[row, w]
                if w == 2:
                    x &= ALL[2]
                while x != U0:
                    sq = 64 * w + lowest_bit(x)
                    a = base + SQUARES * c + sq
                    x &= x - U1
                    best, found = _consider(a, legal_stamp, lstamp, child_stamp, stamp, rng, best, found)
    else:
        for j in range(n):
            a = moves[j]
            if (a < S.A_WITHDRAW or S.A_CATASTROPHE <= a < S.A_SWAP) or _list_kind(a) != kind:
                continue
            best, found = _consider(a, legal_stamp, lstamp, child_stamp, stamp, rng, best, found)
    return best


@njit(cache=True, _nrt=False)
def pick_untried(st, moves, n, legal_stamp, lstamp, child_stamp, stamp, weights, first_child,
                 sibling, action, kmask, masks, counts, rng):
    """The untried legal move to open next at a node: of the kind k with the best
    weights[k] - log(1 + children of kind k already open here), uniformly at random within
    the kind; -1 if every legal move was tried.  Each further child of one kind is worth
    less, so the first children cover the likely kinds before the many moves of the most
    likely one (the legal moves are those with legal_stamp == lstamp, the children already
    open those with child_stamp == stamp)."""
    prepare(st, kmask, masks)
    for k in range(N_KINDS):
        counts[k] = 0.0
    ch = first_child
    while ch >= 0:
        a = action[ch]
        if child_stamp[a] == stamp:
            counts[move_kind(st, masks, a)] += 1.0
        ch = sibling[ch]
    empty = 0                       # kinds found to have no untried legal move
    for _ in range(N_KINDS):
        best_kind = np.int64(-1)
        best_score = -1e300
        for k in range(N_KINDS):
            if (empty >> k) & 1:
                continue
            score = weights[k] - math.log(1.0 + counts[k])
            if score > best_score:
                best_score = score
                best_kind = k
        if best_kind < 0:
            break
        a = _pick_of_kind(st, moves, n, legal_stamp, lstamp, child_stamp, stamp, best_kind, masks, rng)
        if a >= 0:
            return a
        empty |= 1 << best_kind
    return -1


@njit(cache=True, _nrt=False)
def commit_context(st):
    """(attacker's board strength, defender's, player to commit, colour, most he can commit)
    of the conflict waiting for a commit (SPEC section 4)."""
    att, dfn = conflict_strengths(st)
    me = st[S.TO_ACT]
    c = 0 if st[S.PHASE] == S.PH_REVOLT else st[S.CF_COLOUR]
    most = st[S.hand(me, c)]
    if most > S.MAX_COMMIT:
        most = S.MAX_COMMIT
    return att, dfn, me, c, most


@njit(cache=True, _nrt=False)
def defender_hidden(st, me, c):
    """The most tiles of colour c the defender may hold as the attacker me sees it: the unseen
    tiles of c (SPEC section 7), at most the defender's hand size."""
    d = st[S.CF_DEFENDER]
    unseen = unseen_of(st, st.view(np.uint64), me, c)
    held = S.hand_size(st, d)
    return unseen if unseen < held else held


@njit(cache=True, _nrt=False)
def commit_rank(st, k):
    """Rank (0 first) of commit k among the commits of the player to act, in the order a
    node opens them: the commit that decides the conflict with the fewest tiles, then 0,
    then the rest from the smallest.  The defender, committing second, knows what he needs
    (ties go to him, SPEC section 4); the attacker is sure of a win only above the most the
    defender could have: his board strength plus the tiles of the colour the attacker cannot
    see, at most the defender's hand size (the attacker's information, SPEC section 7)."""
    att, dfn, me, c, most = commit_context(st)
    if st[S.CF_COMMIT] >= 0:
        key = att + st[S.CF_COMMIT] - dfn          # the defender's smallest winning commit
    else:
        key = dfn + defender_hidden(st, me, c) - att + 1               # the attacker's smallest sure commit
        if key > most and att + most > dfn:
            key = most                             # no sure win: all in, as a gamble
    if key <= 0 or key > most:
        key = 0
    if k == key:
        return 0
    if k == 0:
        return 1
    return 2 + k


@njit(cache=True, _nrt=False)
def pick_commit(st, moves, n, child_stamp, stamp):
    """The untried commit of the best rank (``commit_rank``)."""
    best = -1
    best_rank = 1 << 30
    for i in range(n):
        a = moves[i]
        if child_stamp[a] == stamp:
            continue
        r = commit_rank(st, a - S.A_COMMIT)
        if r < best_rank:
            best_rank = r
            best = a
    return best
