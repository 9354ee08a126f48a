"""Apply one action code to a state: placement, conflicts, monuments, treasures, turn end.

Every kernel works in place on the flat int64 state of ``tne_ai.state``.  Every tile drawn goes
through ``give_tile`` (the colour is the caller's: from the front of an ordered bag, at random
from a counted bag by ``draw_tile``, or from outside, e.g. an OpenSpiel chance node).
"""
import numpy as np
from numba import njit

from ..bits import U0, U1, dilate, flood, has, single, count3
from ..board import CORNERS, NEIGHBOURS, NEIGHBOUR_MASK, MONUMENTS
from .. import state as S
from .kingdoms import label, kingdom_of, occupied, MAX_KINGDOMS
from .rng import below

MON_A = np.array([m[0] for m in MONUMENTS], dtype=np.int64)
MON_B = np.array([m[1] for m in MONUMENTS], dtype=np.int64)


# --- small queries --------------------------------------------------------------------------

@njit(cache=True, inline="always")
def tile_colour_at(bb, s):
    """Colour of the face-up tile on s, or -1."""
    w = s >> 6
    bit = U1 << np.uint64(s & 63)
    for c in range(4):
        if bb[S.BB_TILE + 3 * c + w] & bit:
            return c
    return -1


@njit(cache=True, inline="always")
def leader_owner(st, colour, sq):
    """Player whose leader of that colour stands on sq, or -1."""
    for p in range(st[S.PLAYERS]):
        if st[S.LEADER_SQ + 4 * p + colour] == sq:
            return p
    return -1


@njit(cache=True, inline="always")
def red_next_to(bb, s):
    """Face-up red tiles orthogonally next to s."""
    return count3(bb[S.BB_TILE] & NEIGHBOUR_MASK[s, 0], bb[S.BB_TILE + 1] & NEIGHBOUR_MASK[s, 1],
                  bb[S.BB_TILE + 2] & NEIGHBOUR_MASK[s, 2])


@njit(cache=True, inline="always")
def lift_leader(st, bb, p, c):
    s = st[S.LEADER_SQ + 4 * p + c]
    st[S.LEADER_SQ + 4 * p + c] = -1
    bb[S.BB_LEADER + (s >> 6)] &= ~(U1 << np.uint64(s & 63))


@njit(cache=True, inline="always")
def put_leader(st, bb, p, c, s):
    st[S.LEADER_SQ + 4 * p + c] = s
    bb[S.BB_LEADER + (s >> 6)] |= U1 << np.uint64(s & 63)


@njit(cache=True)
def withdraw_stranded(st, bb):
    """Every leader with no face-up red tile next to it goes back to its owner."""
    for i in range(4 * st[S.PLAYERS]):
        s = st[S.LEADER_SQ + i]
        if s >= 0 and red_next_to(bb, s) == 0:
            lift_leader(st, bb, i >> 2, i & 3)


@njit(cache=True, inline="always")
def kingdoms_next_to(kmask, nk, s):
    """Bit mask of the kingdoms next to square s (bit k for kingdom k)."""
    adj = 0
    for k in range(nk):
        if ((kmask[k, 0] & NEIGHBOUR_MASK[s, 0]) | (kmask[k, 1] & NEIGHBOUR_MASK[s, 1])
                | (kmask[k, 2] & NEIGHBOUR_MASK[s, 2])) != U0:
            adj |= 1 << k
    return adj


@njit(cache=True)
def war_conflicts(st, bb, kmask):
    """Bit mask of the colours in conflict around the unifying tile (SPEC section 4)."""
    u = st[S.UNIFY_SQ]
    nk = label(bb, u, kmask)
    adj = kingdoms_next_to(kmask, nk, u)
    if adj & (adj - 1) == 0:
        return 0
    n = st[S.PLAYERS]
    mask = 0
    for c in range(4):
        first = -1
        for p in range(n):
            s = st[S.LEADER_SQ + 4 * p + c]
            if s < 0:
                continue
            k = kingdom_of(kmask, nk, s)
            if k < 0 or not (adj >> k) & 1:
                continue
            if first < 0:
                first = k
            elif k != first:
                mask |= 1 << c
    return mask


@njit(cache=True)
def treasure_taker(st):
    """The player who must take a treasure now, or -1: traders' owners clockwise from the
    active player, the first whose trader's kingdom holds 2 or more treasures."""
    bb = st.view(np.uint64)
    kmask = np.empty((MAX_KINGDOMS, 3), dtype=np.uint64)
    return _treasure_taker(st, bb, kmask)


@njit(cache=True, inline="always")
def region_of(bb, s):
    """The region (connected tiles and leaders) holding the occupied square s."""
    o0, o1, o2 = occupied(bb)
    a0, a1, a2 = single(s)
    return flood(a0, a1, a2, o0, o1, o2)


@njit(cache=True)
def _treasure_taker(st, bb, kmask):
    n = st[S.PLAYERS]
    t = st[S.TURN]
    if count3(bb[S.BB_TREASURE], bb[S.BB_TREASURE + 1], bb[S.BB_TREASURE + 2]) < 2:
        return -1
    for i in range(n):
        q = (t + i) % n
        s = st[S.LEADER_SQ + 4 * q + 2]
        if s < 0:
            continue
        f0, f1, f2 = region_of(bb, s)
        if count3(f0 & bb[S.BB_TREASURE], f1 & bb[S.BB_TREASURE + 1],
                  f2 & bb[S.BB_TREASURE + 2]) >= 2:
            return q
    return -1


@njit(cache=True)
def treasure_choices(st, bb, kmask):
    """The treasures the taker may take: those in his trader's kingdom, corners first."""
    q = st[S.TO_ACT]
    f0, f1, f2 = region_of(bb, st[S.LEADER_SQ + 4 * q + 2])
    t0 = f0 & bb[S.BB_TREASURE]
    t1 = f1 & bb[S.BB_TREASURE + 1]
    t2 = f2 & bb[S.BB_TREASURE + 2]
    c0 = t0 & CORNERS[0]
    c1 = t1 & CORNERS[1]
    c2 = t2 & CORNERS[2]
    if (c0 | c1 | c2) != U0:
        return c0, c1, c2
    return t0, t1, t2


@njit(cache=True, inline="always")
def block_colour(bb, t):
    """Colour of the 2x2 block with top-left t if all four are face-up tiles of one colour."""
    if (t & 15) == 15 or t >= 160:
        return -1
    c = tile_colour_at(bb, t)
    if c < 0:
        return -1
    base = S.BB_TILE + 3 * c
    for s in (t + 1, t + 16, t + 17):
        if not (bb[base + (s >> 6)] & (U1 << np.uint64(s & 63))):
            return -1
    return c


BLOCK_OFFSETS = np.array([17, 16, 1, 0], dtype=np.int64)


@njit(cache=True)
def monument_blocks(st, bb):
    """Bit mask over BLOCK_OFFSETS: bit i set if the 2x2 block with top-left
    PLACED_SQ - BLOCK_OFFSETS[i] is four face-up tiles of one colour and an unbuilt monument
    has that colour (bits in ascending square order)."""
    s = st[S.PLACED_SQ]
    c = tile_colour_at(bb, s)
    if c < 0:
        return 0
    free = False
    for m in range(6):
        if st[S.MON_SQ + m] < 0 and (MON_A[m] == c or MON_B[m] == c):
            free = True
    if not free:
        return 0
    found = 0
    r = s >> 4
    col = s & 15
    for i in range(4):
        d = BLOCK_OFFSETS[i]
        if r - (d >> 4) < 0 or col - (d & 1) < 0:
            continue
        if block_colour(bb, s - d) == c:
            found |= 1 << i
    return found


# --- draws ----------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def give_tile(st, p, c):
    """The one kernel every draw goes through: tile colour c leaves the bag for p's hand."""
    st[S.HAND + 4 * p + c] += 1
    st[S.BAG_COUNT + c] -= 1


@njit(cache=True)
def draw_tile(st, p, rng):
    """Draw one tile for p from the bag (front of an ordered bag, or at random from the counts
    with the explicit RNG state); return its colour, or -1 if the bag is empty.  With an
    external-draw bag the draw is only owed (DRAWS_OWED) and 4 is returned."""
    if st[S.BAG_ORDERED] == 1:
        # the front tile is the low 2 bits of the first word; shift the rest down by one tile
        # so the bag always starts at bit 0 (a position then has one encoding)
        if st[S.BAG_LEN] == 0:
            return -1
        words = st.view(np.uint64)
        c = st[S.BAG] & 3
        for w in range(S.BAG, S.BAG + S.BAG_WORDS - 1):
            words[w] = (words[w] >> np.uint64(2)) | (words[w + 1] << np.uint64(62))
        words[S.BAG + S.BAG_WORDS - 1] >>= np.uint64(2)
        st[S.BAG_LEN] -= 1
    else:
        total = st[S.BAG_COUNT] + st[S.BAG_COUNT + 1] + st[S.BAG_COUNT + 2] + st[S.BAG_COUNT + 3]
        if st[S.BAG_ORDERED] == S.BAG_EXTERNAL:
            # the colour is the caller's to supply later (resolve_draw); only count it now
            owed = st[S.DRAWS_OWED] + st[S.DRAWS_OWED + 1] + st[S.DRAWS_OWED + 2] + st[S.DRAWS_OWED + 3]
            if total - owed <= 0:
                return -1
            st[S.DRAWS_OWED + p] += 1
            return 4
        if total == 0:
            return -1
        r = below(rng, total)
        c = 0
        while r >= st[S.BAG_COUNT + c]:
            r -= st[S.BAG_COUNT + c]
            c += 1
    give_tile(st, p, c)
    return c


@njit(cache=True)
def owed_drawer(st):
    """With an external-draw bag: the player whose owed draw comes next (clockwise from the
    player whose turn it is), or -1 when no draw is owed."""
    n = st[S.PLAYERS]
    for i in range(n):
        q = (st[S.TURN] + i) % n
        if st[S.DRAWS_OWED + q] > 0:
            return q
    return -1


@njit(cache=True)
def resolve_draw(st, c):
    """Settle the next owed draw with colour c (a chance outcome; probability
    BAG_COUNT[c] / bag total)."""
    q = owed_drawer(st)
    st[S.DRAWS_OWED + q] -= 1
    give_tile(st, q, c)


@njit(cache=True)
def draw_up_to(st, p, n, rng):
    """Draw n tiles for p; False if the bag ran out first (a short draw)."""
    for _ in range(n):
        if draw_tile(st, p, rng) < 0:
            return False
    return True


# --- action flow ----------------------------------------------------------------------------

@njit(cache=True, inline="always")
def open_conflict(st, phase, c, attacker, defender):
    """A revolt or war of colour c begins: the attacker commits first."""
    st[S.PHASE] = phase
    st[S.CF_COLOUR] = c
    st[S.CF_ATTACKER] = attacker
    st[S.CF_DEFENDER] = defender
    st[S.CF_COMMIT] = -1
    st[S.TO_ACT] = attacker


@njit(cache=True, inline="always")
def clear_conflict(st):
    st[S.CF_COLOUR] = -1
    st[S.CF_ATTACKER] = -1
    st[S.CF_DEFENDER] = -1
    st[S.CF_COMMIT] = -1


@njit(cache=True)
def end_turn(st, bb, kmask, rng):
    n = st[S.PLAYERS]
    t = st[S.TURN]
    # 1. monument points for the active player
    o0, o1, o2 = occupied(bb)
    for m in range(6):
        ms = st[S.MON_SQ + m]
        if ms < 0:
            continue
        a0, a1, a2 = single(ms)
        f0, f1, f2 = flood(a0, a1, a2, o0, o1, o2)
        for c in (MON_A[m], MON_B[m]):
            ls = st[S.LEADER_SQ + 4 * t + c]
            if ls >= 0 and has(f0, f1, f2, ls):
                st[S.SCORE + 5 * t + c] += 1
    # 2. every player refills, active player first
    short = False
    for i in range(n):
        q = (t + i) % n
        held = (st[S.HAND + 4 * q] + st[S.HAND + 4 * q + 1] + st[S.HAND + 4 * q + 2] + st[S.HAND + 4 * q + 3]
                + st[S.DRAWS_OWED + q])
        if held < 6 and not draw_up_to(st, q, 6 - held, rng):
            short = True
    # 3. game end
    treasures = count3(bb[S.BB_TREASURE], bb[S.BB_TREASURE + 1], bb[S.BB_TREASURE + 2])
    if short or treasures <= 2:
        st[S.PHASE] = S.PH_OVER
        st[S.ACTIONS_LEFT] = 0
        st[S.TO_ACT] = t
    else:
        t = (t + 1) % n
        st[S.TURN] = t
        st[S.ACTIONS_LEFT] = 2
        st[S.PHASE] = S.PH_ACTION
        st[S.TO_ACT] = t


@njit(cache=True)
def end_action(st, bb, kmask, rng):
    st[S.PLACED_SQ] = -1
    st[S.UNIFY_SQ] = -1
    clear_conflict(st)
    st[S.ACTIONS_LEFT] -= 1
    if st[S.ACTIONS_LEFT] == 0:
        end_turn(st, bb, kmask, rng)
    else:
        st[S.PHASE] = S.PH_ACTION
        st[S.TO_ACT] = st[S.TURN]


@njit(cache=True)
def treasure_check(st, bb, kmask, rng):
    q = _treasure_taker(st, bb, kmask)
    if q >= 0:
        st[S.PHASE] = S.PH_TREASURE
        st[S.TO_ACT] = q
    else:
        end_action(st, bb, kmask, rng)


@njit(cache=True)
def monument_check(st, bb, kmask, rng):
    if monument_blocks(st, bb) != 0:
        st[S.PHASE] = S.PH_MONUMENT
        st[S.TO_ACT] = st[S.TURN]
    else:
        st[S.PLACED_SQ] = -1
        treasure_check(st, bb, kmask, rng)


@njit(cache=True)
def start_war(st, bb, kmask, c):
    """Fight colour c next: find the attacker (the active player's leader, else the first
    owner clockwise from him) and the defender, and ask the attacker to commit."""
    n = st[S.PLAYERS]
    t = st[S.TURN]
    u = st[S.UNIFY_SQ]
    nk = label(bb, u, kmask)
    adj = kingdoms_next_to(kmask, nk, u)
    att = -1
    dfn = -1
    for i in range(n):
        q = (t + i) % n
        s = st[S.LEADER_SQ + 4 * q + c]
        if s < 0:
            continue
        k = kingdom_of(kmask, nk, s)
        if k >= 0 and (adj >> k) & 1:
            if att < 0:
                att = q
            else:
                dfn = q
    open_conflict(st, S.PH_WAR, c, att, dfn)


@njit(cache=True)
def next_war(st, bb, kmask, rng):
    """The war loop: fight the one conflict, ask for the order, or end the wars."""
    mask = war_conflicts(st, bb, kmask)
    if mask == 0:
        # after the last war the unifying tile connects again; monument check on it
        st[S.UNIFY_SQ] = -1
        clear_conflict(st)
        monument_check(st, bb, kmask, rng)
    elif mask & (mask - 1) == 0:
        c = 0
        while not (mask >> c) & 1:
            c += 1
        start_war(st, bb, kmask, c)
    else:
        st[S.PHASE] = S.PH_WAR_CHOICE
        st[S.TO_ACT] = st[S.TURN]
        st[S.CF_COLOUR] = -1


@njit(cache=True)
def resolve_war(st, bb, kmask, rng, defender_commit):
    c = st[S.CF_COLOUR]
    att = st[S.CF_ATTACKER]
    dfn = st[S.CF_DEFENDER]
    sa, sd = conflict_strengths(st)
    nk = label(bb, st[S.UNIFY_SQ], kmask)
    ka = kingdom_of(kmask, nk, st[S.LEADER_SQ + 4 * att + c])
    kd = kingdom_of(kmask, nk, st[S.LEADER_SQ + 4 * dfn + c])
    base = S.BB_TILE + 3 * c
    if sa + st[S.CF_COMMIT] > sd + defender_commit:
        winner, loser, kl = att, dfn, kd
    else:
        winner, loser, kl = dfn, att, ka
    lift_leader(st, bb, loser, c)
    r0 = kmask[kl, 0] & bb[base] & ~bb[S.BB_TREASURE]
    r1 = kmask[kl, 1] & bb[base + 1] & ~bb[S.BB_TREASURE + 1]
    r2 = kmask[kl, 2] & bb[base + 2] & ~bb[S.BB_TREASURE + 2]
    if c == 0:
        # red war: temples next to another leader still in that kingdom stay
        d0, d1, d2 = dilate(kmask[kl, 0] & bb[S.BB_LEADER], kmask[kl, 1] & bb[S.BB_LEADER + 1],
                            kmask[kl, 2] & bb[S.BB_LEADER + 2])
        r0 &= ~d0
        r1 &= ~d1
        r2 &= ~d2
    removed = count3(r0, r1, r2)
    bb[base] &= ~r0
    bb[base + 1] &= ~r1
    bb[base + 2] &= ~r2
    st[S.OUT_OF_GAME + c] += removed
    st[S.SCORE + 5 * winner + c] += removed + 1
    clear_conflict(st)
    next_war(st, bb, kmask, rng)


@njit(cache=True)
def resolve_revolt(st, bb, kmask, rng, defender_commit):
    att = st[S.CF_ATTACKER]
    dfn = st[S.CF_DEFENDER]
    c = st[S.CF_COLOUR]
    sa, sd = conflict_strengths(st)
    if sa + st[S.CF_COMMIT] > sd + defender_commit:
        winner, loser = att, dfn
    else:
        winner, loser = dfn, att
    lift_leader(st, bb, loser, c)
    st[S.SCORE + 5 * winner] += 1
    clear_conflict(st)
    treasure_check(st, bb, kmask, rng)


@njit(cache=True)
def place_tile(st, bb, kmask, rng, c, s):
    p = st[S.TURN]
    st[S.HAND + 4 * p + c] -= 1
    bb[S.BB_TILE + 3 * c + (s >> 6)] |= U1 << np.uint64(s & 63)
    st[S.PLACED_SQ] = s
    # the kingdoms next to s, by flooding from its occupied neighbours with s left out
    o0, o1, o2 = occupied(bb)
    x0, x1, x2 = single(s)
    o0 &= ~x0
    o1 &= ~x1
    o2 &= ~x2
    seen0 = seen1 = seen2 = U0
    nk = 0
    for i in range(4):
        nsq = NEIGHBOURS[s, i]
        if nsq < 0 or not has(o0, o1, o2, nsq) or has(seen0, seen1, seen2, nsq):
            continue
        a0, a1, a2 = single(nsq)
        f0, f1, f2 = flood(a0, a1, a2, o0, o1, o2)
        seen0 |= f0
        seen1 |= f1
        seen2 |= f2
        if ((f0 & bb[S.BB_LEADER]) | (f1 & bb[S.BB_LEADER + 1]) | (f2 & bb[S.BB_LEADER + 2])) != U0:
            kmask[nk, 0] = f0
            kmask[nk, 1] = f1
            kmask[nk, 2] = f2
            nk += 1
    if nk >= 2:
        st[S.UNIFY_SQ] = s
        next_war(st, bb, kmask, rng)
        return
    if nk == 1:
        k = 0
        scorer = -1
        king = -1
        for p2 in range(st[S.PLAYERS]):
            ls = st[S.LEADER_SQ + 4 * p2 + c]
            if ls >= 0 and has(kmask[k, 0], kmask[k, 1], kmask[k, 2], ls):
                scorer = p2
            ks = st[S.LEADER_SQ + 4 * p2 + 3]
            if ks >= 0 and has(kmask[k, 0], kmask[k, 1], kmask[k, 2], ks):
                king = p2
        if scorer < 0:
            scorer = king
        if scorer >= 0:
            st[S.SCORE + 5 * scorer + c] += 1
    monument_check(st, bb, kmask, rng)


@njit(cache=True)
def place_leader(st, bb, kmask, rng, c, s):
    p = st[S.TURN]
    if st[S.LEADER_SQ + 4 * p + c] >= 0:
        lift_leader(st, bb, p, c)
    put_leader(st, bb, p, c, s)
    f0, f1, f2 = region_of(bb, s)
    for q in range(st[S.PLAYERS]):
        qs = st[S.LEADER_SQ + 4 * q + c]
        if q != p and qs >= 0 and has(f0, f1, f2, qs):
            open_conflict(st, S.PH_REVOLT, c, p, q)
            return
    treasure_check(st, bb, kmask, rng)


@njit(cache=True)
def apply_action(st, a, rng):
    """Apply action code a (legal in st) for the player to act, in place."""
    bb = st.view(np.uint64)
    kmask = np.empty((MAX_KINGDOMS, 3), dtype=np.uint64)
    p = st[S.TO_ACT]
    if a < S.A_LEADER:
        place_tile(st, bb, kmask, rng, a // 176, a % 176)
    elif a < S.A_WITHDRAW:
        a -= S.A_LEADER
        place_leader(st, bb, kmask, rng, a // 176, a % 176)
    elif a < S.A_CATASTROPHE:
        lift_leader(st, bb, p, a - S.A_WITHDRAW)
        treasure_check(st, bb, kmask, rng)
    elif a < S.A_SWAP:
        s = a - S.A_CATASTROPHE
        st[S.CATASTROPHES + p] -= 1
        c = tile_colour_at(bb, s)
        if c >= 0:
            bb[S.BB_TILE + 3 * c + (s >> 6)] &= ~(U1 << np.uint64(s & 63))
            st[S.OUT_OF_GAME + c] += 1
        bb[S.BB_CATA + (s >> 6)] |= U1 << np.uint64(s & 63)
        withdraw_stranded(st, bb)
        treasure_check(st, bb, kmask, rng)
    elif a < S.A_PASS:
        i = a - S.A_SWAP
        n = 0
        for c in range(4):
            k = S.SWAP_COUNTS[i, c]
            st[S.HAND + 4 * p + c] -= k
            n += k
        st[S.HIDDEN_DISCARDS] += n
        draw_up_to(st, p, n, rng)
        treasure_check(st, bb, kmask, rng)
    elif a == S.A_PASS:
        treasure_check(st, bb, kmask, rng)
    elif a < S.A_WAR:
        n = a - S.A_COMMIT
        c = st[S.CF_COLOUR]
        cc = 0 if st[S.PHASE] == S.PH_REVOLT else c
        st[S.HAND + 4 * p + cc] -= n
        st[S.OUT_OF_GAME + cc] += n
        if st[S.CF_COMMIT] < 0:
            st[S.CF_COMMIT] = n
            st[S.TO_ACT] = st[S.CF_DEFENDER]
        elif st[S.PHASE] == S.PH_REVOLT:
            resolve_revolt(st, bb, kmask, rng, n)
        else:
            resolve_war(st, bb, kmask, rng, n)
    elif a < S.A_MONUMENT:
        start_war(st, bb, kmask, a - S.A_WAR)
    elif a < S.A_DECLINE:
        a -= S.A_MONUMENT
        m = a // 176
        t = a % 176
        c = tile_colour_at(bb, t)
        base = S.BB_TILE + 3 * c
        for s in (t, t + 1, t + 16, t + 17):
            bit = U1 << np.uint64(s & 63)
            bb[base + (s >> 6)] &= ~bit
            bb[S.BB_FLIP + (s >> 6)] |= bit
        st[S.MON_SQ + m] = t
        st[S.MON_TILES + m] = c
        st[S.PLACED_SQ] = -1
        withdraw_stranded(st, bb)
        treasure_check(st, bb, kmask, rng)
    elif a == S.A_DECLINE:
        st[S.PLACED_SQ] = -1
        treasure_check(st, bb, kmask, rng)
    else:
        s = a - S.A_TREASURE
        bb[S.BB_TREASURE + (s >> 6)] &= ~(U1 << np.uint64(s & 63))
        st[S.SCORE + 5 * p + S.SCORE_TREASURE] += 1
        treasure_check(st, bb, kmask, rng)


@njit(cache=True)
def conflict_strengths(st):
    """(attacker, defender) strength on the board in the conflict in progress, before
    commits: adjacent face-up temples in a revolt, tiles of the war colour in each side's
    kingdom (unifying tile left out) in a war.  (0, 0) when no conflict is pending."""
    bb = st.view(np.uint64)
    phase = st[S.PHASE]
    c = st[S.CF_COLOUR]
    att = st[S.CF_ATTACKER]
    dfn = st[S.CF_DEFENDER]
    if phase == S.PH_REVOLT:
        return (red_next_to(bb, st[S.LEADER_SQ + 4 * att + c]),
                red_next_to(bb, st[S.LEADER_SQ + 4 * dfn + c]))
    if phase != S.PH_WAR:
        return 0, 0
    kmask = np.empty((MAX_KINGDOMS, 3), dtype=np.uint64)
    nk = label(bb, st[S.UNIFY_SQ], kmask)
    ka = kingdom_of(kmask, nk, st[S.LEADER_SQ + 4 * att + c])
    kd = kingdom_of(kmask, nk, st[S.LEADER_SQ + 4 * dfn + c])
    base = S.BB_TILE + 3 * c
    return (count3(kmask[ka, 0] & bb[base], kmask[ka, 1] & bb[base + 1], kmask[ka, 2] & bb[base + 2]),
            count3(kmask[kd, 0] & bb[base], kmask[kd, 1] & bb[base + 1], kmask[kd, 2] & bb[base + 2]))
