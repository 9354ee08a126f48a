"""Apply one action code to a state, rule by rule as SPEC tells them: the actions of a turn
(section 3), conflicts (section 4), monuments (section 5), the treasure check and the end of
the turn (section 3).

Every kernel works in place on the flat int64 state of ``tne_ai.core.state`` (``bb`` is the same
buffer seen as uint64 words) and allocates nothing: kingdoms are flooded into registers
(``kingdoms.py``), never stored.  Every tile drawn goes through ``give_tile`` (the colour is
the caller's: from the front of an ordered bag, at random from a counted bag by ``draw_tile``,
or from outside, e.g. an OpenSpiel chance node).
"""
import numpy as np
from numba import njit

from tne_ai.core.bits import U0, U1, dilate, has, count3
from tne_ai.core.board import (COLS, CORNERS, HAND_SIZE, MONUMENTS, N_MONUMENTS, NEIGHBOUR_MASK, NO_SQUARE, ROWS,
                     SQUARES, RED, GREEN, BLACK)
from tne_ai.core import state as S
from tne_ai.core.rules.kingdoms import (MAX_KINGDOMS, kingdoms_around, label, occupied,  # noqa: F401
                       region_of, region_without)
from tne_ai.limits import MAX_SCORE
from tne_ai.core.rules.rng import below

# A colour score stops at limits.MAX_SCORE, the position loader's bound, so that every
# successor of a position the loader accepts loads again (docs/cli.md, "Limits").  Real games never
# get there: MAX_PLIES plies score below 600,306 in a colour (tne_ai/limits.py).
SCORE_CAP = np.int64(MAX_SCORE)

MON_A = np.array([m[0] for m in MONUMENTS], dtype=np.int64)
MON_B = np.array([m[1] for m in MONUMENTS], dtype=np.int64)

# what draw_tile returns besides a colour
BAG_EMPTY = -1   # the bag had no tile left: a short draw
DRAW_OWED = 4    # external-draw bag: the draw is owed until resolve_draw names its colour

# Constants at call sites go in typed (NO_SQUARE, np.bool_(...), np.int64(...)): one compile
# of the callee, not one per literal value (DESIGN, conventions).
LAST_COL = COLS - 1
LAST_ROW = ROWS - 1
# A 2x2 block is named by its top-left square t; it covers t, t + 1, t + 16, t + 17.
# BLOCK_OFFSETS[i] is how far the placed tile lies from the top-left square of block i (bits
# of monument_blocks in ascending square order), BLOCK_ROWS / BLOCK_COLS that offset's rows
# and columns.
BLOCK_OFFSETS = np.array([COLS + 1, COLS, 1, 0], dtype=np.int64)
BLOCK_ROWS = np.array([1, 1, 0, 0], dtype=np.int64)
BLOCK_COLS = np.array([1, 0, 1, 0], dtype=np.int64)


# --- bits of the board ----------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def set_bit(bb, offset, s):
    bb[offset + (s >> 6)] |= U1 << np.uint64(s & 63)


@njit(cache=True, _nrt=False, inline="always")
def clear_bit(bb, offset, s):
    bb[offset + (s >> 6)] &= ~(U1 << np.uint64(s & 63))


@njit(cache=True, _nrt=False, inline="always")
def tile_colour_at(bb, s):
    """Colour of the face-up tile on s, or -1."""
    w = s >> 6
    bit = U1 << np.uint64(s & 63)
    for c in range(4):
        if bb[S.tile_bb(c) + w] & bit:
            return c
    return -1


@njit(cache=True, _nrt=False, inline="always")
def red_next_to(bb, s):
    """Face-up red tiles (temples) orthogonally next to s."""
    r = S.tile_bb(RED)
    return count3(bb[r] & NEIGHBOUR_MASK[s, 0], bb[r + 1] & NEIGHBOUR_MASK[s, 1],
                  bb[r + 2] & NEIGHBOUR_MASK[s, 2])


@njit(cache=True, _nrt=False, inline="always")
def colour_in(bb, c, f0, f1, f2):
    """Face-up tiles of colour c in the set f."""
    t = S.tile_bb(c)
    return count3(f0 & bb[t], f1 & bb[t + 1], f2 & bb[t + 2])


@njit(cache=True, _nrt=False, inline="always")
def treasures_in(bb, f0, f1, f2):
    return count3(f0 & bb[S.BB_TREASURE], f1 & bb[S.BB_TREASURE + 1], f2 & bb[S.BB_TREASURE + 2])


@njit(cache=True, _nrt=False, inline="always")
def treasures_left(bb):
    """Treasures still on the board (those on monument tiles included)."""
    return count3(bb[S.BB_TREASURE], bb[S.BB_TREASURE + 1], bb[S.BB_TREASURE + 2])


@njit(cache=True, _nrt=False, inline="always")
def leader_owner(st, colour, sq):
    """Player whose leader of that colour stands on sq, or -1."""
    for p in range(st[S.PLAYERS]):
        if st[S.leader_sq(p, colour)] == sq:
            return p
    return -1


@njit(cache=True, _nrt=False, inline="always")
def lift_leader(st, bb, p, c):
    """p's leader of colour c leaves the board for his supply."""
    s = st[S.leader_sq(p, c)]
    st[S.leader_sq(p, c)] = -1
    clear_bit(bb, S.BB_LEADER, s)


@njit(cache=True, _nrt=False, inline="always")
def put_leader(st, bb, p, c, s):
    st[S.leader_sq(p, c)] = s
    set_bit(bb, S.BB_LEADER, s)


@njit(cache=True, _nrt=False)
def withdraw_stranded(st, bb):
    """Every leader with no face-up red tile next to it goes back to its owner."""
    for p in range(st[S.PLAYERS]):
        for c in range(4):
            s = st[S.leader_sq(p, c)]
            if s >= 0 and red_next_to(bb, s) == 0:
                lift_leader(st, bb, p, c)


# --- draws ----------------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def give_tile(st, p, c):
    """The one kernel every draw goes through: tile colour c leaves the bag for p's hand."""
    st[S.hand(p, c)] += 1
    st[S.bag_count(c)] -= 1


@njit(cache=True, _nrt=False)
def draw_tile(st, p, rng):
    """Draw one tile for p from the bag (front of an ordered bag, or at random from the counts
    with the explicit RNG state); return its colour, or BAG_EMPTY.  With an external-draw bag
    the draw is only owed (DRAWS_OWED) and DRAW_OWED is returned."""
    if st[S.BAG_ORDERED] == 1:
        # the front tile is the low 2 bits of the first word; shift the rest down by one tile
        # so the bag always starts at bit 0 (a position then has one encoding)
        if st[S.BAG_LEN] == 0:
            return BAG_EMPTY
        words = st.view(np.uint64)
        c = st[S.BAG] & 3
        for w in range(S.BAG, S.BAG + S.BAG_WORDS - 1):
            words[w] = (words[w] >> np.uint64(2)) | (words[w + 1] << np.uint64(62))
        words[S.BAG + S.BAG_WORDS - 1] >>= np.uint64(2)
        st[S.BAG_LEN] -= 1
    else:
        total = S.bag_total(st)
        if st[S.BAG_ORDERED] == S.BAG_EXTERNAL:
            # the colour is the caller's to supply later (resolve_draw); only count it now
            if total - S.owed_total(st) <= 0:
                return BAG_EMPTY
            st[S.draws_owed(p)] += 1
            return DRAW_OWED
        if total == 0:
            return BAG_EMPTY
        r = below(rng, total)
        c = 0
        while r >= st[S.bag_count(c)]:
            r -= st[S.bag_count(c)]
            c += 1
    give_tile(st, p, c)
    return c


@njit(cache=True, _nrt=False)
def owed_drawer(st):
    """With an external-draw bag: the player whose owed draw comes next (clockwise from the
    player whose turn it is), or -1 when no draw is owed."""
    n = st[S.PLAYERS]
    for i in range(n):
        q = (st[S.TURN] + i) % n
        if st[S.draws_owed(q)] > 0:
            return q
    return -1


@njit(cache=True, _nrt=False)
def resolve_draw(st, c):
    """Settle the next owed draw with colour c (a chance outcome; probability
    BAG_COUNT[c] / bag total)."""
    q = owed_drawer(st)
    st[S.draws_owed(q)] -= 1
    give_tile(st, q, c)


@njit(cache=True, _nrt=False)
def draw_up_to(st, p, n, rng):
    """Draw n tiles for p; False if the bag ran out first (a short draw)."""
    for _ in range(n):
        if draw_tile(st, p, rng) == BAG_EMPTY:
            return False
    return True


# --- end of the turn (SPEC 3) ---------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def add_points(st, i, n):
    """n points onto the colour score at st[i], which stops at SCORE_CAP."""
    v = st[i] + n
    st[i] = v if v < SCORE_CAP else SCORE_CAP


@njit(cache=True, _nrt=False, inline="always")
def monument_pays(st, p, m, f0, f1, f2):
    """Bit mask of the colours of monument m (its two) of p's leaders standing in the set f
    (m's kingdom): the points m pays p at the end of his turn."""
    paid = 0
    for c in (MON_A[m], MON_B[m]):
        ls = st[S.leader_sq(p, c)]
        if ls >= 0 and has(f0, f1, f2, ls):
            paid |= 1 << c
    return paid


@njit(cache=True, _nrt=False, inline="always")
def score_monuments(st, bb):
    """End of turn 1: for each built monument, the active player scores 1 point of colour X
    for each of his leaders in the monument's kingdom whose colour X is one of its two."""
    t = st[S.TURN]
    for m in range(N_MONUMENTS):
        ms = st[S.monument_sq(m)]
        if ms < 0:
            continue
        f0, f1, f2 = region_of(bb, ms)
        paid = monument_pays(st, t, m, f0, f1, f2)
        for c in (MON_A[m], MON_B[m]):
            if (paid >> c) & 1:
                add_points(st, S.score(t, c), 1)


@njit(cache=True, _nrt=False, inline="always")
def refill_hands(st, rng):
    """End of turn 2: every player, active player first then clockwise, draws back up to 6
    (owed draws count as held).  True if some draw found the bag short."""
    n = st[S.PLAYERS]
    t = st[S.TURN]
    short = False
    for i in range(n):
        q = (t + i) % n
        held = S.hand_size(st, q) + st[S.draws_owed(q)]
        if held < HAND_SIZE and not draw_up_to(st, q, HAND_SIZE - held, rng):
            short = True
    return short


@njit(cache=True, _nrt=False)
def end_turn(st, bb, rng):
    score_monuments(st, bb)
    short = refill_hands(st, rng)
    # 3. game end: 2 or fewer treasures left, or a short draw this turn.  A swap that came up
    # short (swap_tiles) is caught here too: it emptied the bag and left the swapper below 6,
    # so his refill, the first, is short as well.
    t = st[S.TURN]
    if short or treasures_left(bb) <= 2:
        st[S.PHASE] = S.PH_OVER
        st[S.ACTIONS_LEFT] = 0
        st[S.TO_ACT] = t
    else:
        t = (t + 1) % st[S.PLAYERS]
        st[S.TURN] = t
        st[S.ACTIONS_LEFT] = 2
        st[S.PHASE] = S.PH_ACTION
        st[S.TO_ACT] = t


@njit(cache=True, _nrt=False)
def end_action(st, bb, rng):
    """The action (with its conflicts, monument and treasures) is over: the next one, or the
    end of the turn."""
    st[S.PLACED_SQ] = -1
    st[S.UNIFY_SQ] = -1
    clear_conflict(st)
    st[S.ACTIONS_LEFT] -= 1
    if st[S.ACTIONS_LEFT] == 0:
        end_turn(st, bb, rng)
    else:
        st[S.PHASE] = S.PH_ACTION
        st[S.TO_ACT] = st[S.TURN]


# --- treasure check (SPEC 3) ----------------------------------------------------------------

@njit(cache=True, _nrt=False)
def _treasure_taker(st, bb):
    """Traders' owners clockwise from the active player: the first whose trader's kingdom holds
    2 or more treasures, or -1."""
    n = st[S.PLAYERS]
    t = st[S.TURN]
    if treasures_left(bb) < 2:
        return -1
    for i in range(n):
        q = (t + i) % n
        s = st[S.leader_sq(q, GREEN)]
        if s < 0:
            continue
        f0, f1, f2 = region_of(bb, s)
        if treasures_in(bb, f0, f1, f2) >= 2:
            return q
    return -1


@njit(cache=True, _nrt=False)
def treasure_taker(st):
    """The player who must take a treasure now, or -1: traders' owners clockwise from the
    active player, the first whose trader's kingdom holds 2 or more treasures."""
    return _treasure_taker(st, st.view(np.uint64))


@njit(cache=True, _nrt=False)
def treasure_choices(st, bb):
    """The treasures the taker may take: those in his trader's kingdom, corners first."""
    f0, f1, f2 = region_of(bb, st[S.leader_sq(st[S.TO_ACT], GREEN)])
    t0 = f0 & bb[S.BB_TREASURE]
    t1 = f1 & bb[S.BB_TREASURE + 1]
    t2 = f2 & bb[S.BB_TREASURE + 2]
    c0 = t0 & CORNERS[0]
    c1 = t1 & CORNERS[1]
    c2 = t2 & CORNERS[2]
    if (c0 | c1 | c2) != U0:
        return c0, c1, c2
    return t0, t1, t2


@njit(cache=True, _nrt=False)
def treasure_check(st, bb, rng):
    """After every action: a trader's owner takes a treasure (PH_TREASURE), or the action ends."""
    q = _treasure_taker(st, bb)
    if q >= 0:
        st[S.PHASE] = S.PH_TREASURE
        st[S.TO_ACT] = q
    else:
        end_action(st, bb, rng)


@njit(cache=True, _nrt=False, inline="always")
def take_treasure(st, bb, rng, s):
    """`treasure s`: the treasure becomes a wild point of the player to act; check again."""
    clear_bit(bb, S.BB_TREASURE, s)
    st[S.score(st[S.TO_ACT], S.SCORE_TREASURE)] += 1
    treasure_check(st, bb, rng)


# --- monuments (SPEC 5) ---------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def block_colour(bb, t):
    """Colour of the 2x2 block with top-left t if all four are face-up tiles of one colour."""
    if t % COLS == LAST_COL or t // COLS == LAST_ROW:
        return -1  # no block starts in the last column or the last row
    c = tile_colour_at(bb, t)
    if c < 0:
        return -1
    base = S.tile_bb(c)
    for s in (t + 1, t + COLS, t + COLS + 1):
        if not (bb[base + (s >> 6)] & (U1 << np.uint64(s & 63))):
            return -1
    return c


@njit(cache=True, _nrt=False, inline="always")
def monument_free(st, c):
    """True if an unbuilt monument has colour c."""
    for m in range(N_MONUMENTS):
        if st[S.monument_sq(m)] < 0 and (MON_A[m] == c or MON_B[m] == c):
            return True
    return False


@njit(cache=True, _nrt=False)
def monument_blocks(st, bb):
    """Bit mask over BLOCK_OFFSETS: bit i set if the 2x2 block with top-left
    PLACED_SQ - BLOCK_OFFSETS[i] is four face-up tiles of one colour and an unbuilt monument
    has that colour (bits in ascending square order)."""
    s = st[S.PLACED_SQ]
    c = tile_colour_at(bb, s)
    if c < 0 or not monument_free(st, c):
        return 0
    found = 0
    row = s // COLS
    col = s % COLS
    for i in range(4):
        if row < BLOCK_ROWS[i] or col < BLOCK_COLS[i]:
            continue  # that block would start off the board
        if block_colour(bb, s - BLOCK_OFFSETS[i]) == c:
            found |= 1 << i
    return found


@njit(cache=True, _nrt=False)
def monument_check(st, bb, rng):
    """After a tile action (and its wars): may the active player build a monument?"""
    if monument_blocks(st, bb) != 0:
        st[S.PHASE] = S.PH_MONUMENT
        st[S.TO_ACT] = st[S.TURN]
    else:
        st[S.PLACED_SQ] = -1
        treasure_check(st, bb, rng)


@njit(cache=True, _nrt=False, inline="always")
def flip_monument(st, bb, rng, m, t):
    """`monument m t`: the four tiles of the block at t flip (they keep connecting, lose their
    colour); leaders left without a temple go home; then the treasure check."""
    c = tile_colour_at(bb, t)
    base = S.tile_bb(c)
    for s in (t, t + 1, t + COLS, t + COLS + 1):
        clear_bit(bb, base, s)
        set_bit(bb, S.BB_FLIP, s)
    st[S.monument_sq(m)] = t
    st[S.monument_tiles(m)] = c
    st[S.PLACED_SQ] = -1
    withdraw_stranded(st, bb)
    treasure_check(st, bb, rng)


@njit(cache=True, _nrt=False, inline="always")
def decline_monument(st, bb, rng):
    st[S.PLACED_SQ] = -1
    treasure_check(st, bb, rng)


# --- conflicts (SPEC 4) ---------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def open_conflict(st, phase, c, attacker, defender):
    """A revolt or war of colour c begins: the attacker commits first."""
    st[S.PHASE] = phase
    st[S.CF_COLOUR] = c
    st[S.CF_ATTACKER] = attacker
    st[S.CF_DEFENDER] = defender
    st[S.CF_COMMIT] = -1
    st[S.TO_ACT] = attacker


@njit(cache=True, _nrt=False, inline="always")
def clear_conflict(st):
    st[S.CF_COLOUR] = -1
    st[S.CF_ATTACKER] = -1
    st[S.CF_DEFENDER] = -1
    st[S.CF_COMMIT] = -1


@njit(cache=True, _nrt=False)
def war_sides(st, bb):
    """The attacker's and the defender's kingdoms in the war in progress (the unifying tile
    left out): each side is the region of its leader of the war colour."""
    c = st[S.CF_COLOUR]
    u = st[S.UNIFY_SQ]
    a0, a1, a2 = region_without(bb, st[S.leader_sq(st[S.CF_ATTACKER], c)], u)
    d0, d1, d2 = region_without(bb, st[S.leader_sq(st[S.CF_DEFENDER], c)], u)
    return a0, a1, a2, d0, d1, d2


@njit(cache=True, _nrt=False)
def conflict_strengths(st):
    """(attacker, defender) strength on the board in the conflict in progress, before
    commits: adjacent face-up temples in a revolt, tiles of the war colour in each side's
    kingdom (unifying tile left out) in a war.  (0, 0) when no conflict is pending."""
    bb = st.view(np.uint64)
    phase = st[S.PHASE]
    c = st[S.CF_COLOUR]
    if phase == S.PH_REVOLT:
        return (red_next_to(bb, st[S.leader_sq(st[S.CF_ATTACKER], c)]),
                red_next_to(bb, st[S.leader_sq(st[S.CF_DEFENDER], c)]))
    if phase != S.PH_WAR:
        return 0, 0
    a0, a1, a2, d0, d1, d2 = war_sides(st, bb)
    return colour_in(bb, c, a0, a1, a2), colour_in(bb, c, d0, d1, d2)


@njit(cache=True, _nrt=False)
def kingdoms_at_war(st, bb):
    """The kingdoms next to the unifying tile (left out): (union of their squares, bit mask of
    the colours with leaders in two or more of them)."""
    u = st[S.UNIFY_SQ]
    _, k0, k1, k2, clash = kingdoms_around(st, bb, u, u, np.bool_(True))
    return k0, k1, k2, clash


@njit(cache=True, _nrt=False)
def war_conflicts(st, bb, kmask=None):
    """Bit mask of the colours in conflict around the unifying tile (SPEC section 4): colours
    with leaders in two or more of the kingdoms next to it.  (kmask is ignored: kept so callers
    that pass a labelling scratch still work.)"""
    _, _, _, clash = kingdoms_at_war(st, bb)
    return clash


@njit(cache=True, _nrt=False)
def start_war(st, bb, c):
    """`war c`, or the only conflict: fight colour c next.  Attacker: the active player's
    leader, else the first owner clockwise from him; defender: the other."""
    n = st[S.PLAYERS]
    t = st[S.TURN]
    k0, k1, k2, _ = kingdoms_at_war(st, bb)
    att = -1
    dfn = -1
    for i in range(n):
        q = (t + i) % n
        s = st[S.leader_sq(q, c)]
        if s >= 0 and has(k0, k1, k2, s):
            if att < 0:
                att = q
            else:
                dfn = q
    open_conflict(st, S.PH_WAR, c, att, dfn)


@njit(cache=True, _nrt=False)
def next_war(st, bb, rng):
    """The war loop: fight the one conflict, ask for the order, or end the wars."""
    mask = war_conflicts(st, bb)
    if mask == 0:
        # after the last war the unifying tile connects again; monument check on it
        st[S.UNIFY_SQ] = -1
        clear_conflict(st)
        monument_check(st, bb, rng)
    elif mask & (mask - 1) == 0:
        c = 0
        while not (mask >> c) & 1:
            c += 1
        start_war(st, bb, c)
    else:
        st[S.PHASE] = S.PH_WAR_CHOICE
        st[S.TO_ACT] = st[S.TURN]
        st[S.CF_COLOUR] = -1


@njit(cache=True, _nrt=False)
def resolve_war(st, bb, rng, defender_commit):
    """Both sides committed: the loser's leader goes home and the war colour's tiles of his
    kingdom leave the game (not treasures' tiles, and in a red war not temples next to another
    leader still there); the winner scores them + 1.  Then the next war."""
    c = st[S.CF_COLOUR]
    att = st[S.CF_ATTACKER]
    dfn = st[S.CF_DEFENDER]
    a0, a1, a2, d0, d1, d2 = war_sides(st, bb)
    attack = colour_in(bb, c, a0, a1, a2) + st[S.CF_COMMIT]
    defence = colour_in(bb, c, d0, d1, d2) + defender_commit
    if attack > defence:
        winner, loser, k0, k1, k2 = att, dfn, d0, d1, d2
    else:
        winner, loser, k0, k1, k2 = dfn, att, a0, a1, a2
    lift_leader(st, bb, loser, c)
    base = S.tile_bb(c)
    r0 = k0 & bb[base] & ~bb[S.BB_TREASURE]
    r1 = k1 & bb[base + 1] & ~bb[S.BB_TREASURE + 1]
    r2 = k2 & bb[base + 2] & ~bb[S.BB_TREASURE + 2]
    if c == RED:
        # Temples next to another leader still in that kingdom stay.  Dilating the kingdom's
        # remaining leaders (the loser is lifted already) finds them all: a leader next to a
        # temple of the kingdom is connected to it, so it is necessarily in the same kingdom.
        l0, l1, l2 = dilate(k0 & bb[S.BB_LEADER], k1 & bb[S.BB_LEADER + 1], k2 & bb[S.BB_LEADER + 2])
        r0 &= ~l0
        r1 &= ~l1
        r2 &= ~l2
    removed = count3(r0, r1, r2)
    bb[base] &= ~r0
    bb[base + 1] &= ~r1
    bb[base + 2] &= ~r2
    st[S.out_of_game(c)] += removed
    add_points(st, S.score(winner, c), removed + 1)
    clear_conflict(st)
    next_war(st, bb, rng)


@njit(cache=True, _nrt=False)
def resolve_revolt(st, bb, rng, defender_commit):
    """Both sides committed: the loser's leader goes home, the winner scores 1 red point."""
    att = st[S.CF_ATTACKER]
    dfn = st[S.CF_DEFENDER]
    sa, sd = conflict_strengths(st)
    if sa + st[S.CF_COMMIT] > sd + defender_commit:
        winner, loser = att, dfn
    else:
        winner, loser = dfn, att
    lift_leader(st, bb, loser, st[S.CF_COLOUR])
    add_points(st, S.score(winner, RED), 1)
    clear_conflict(st)
    treasure_check(st, bb, rng)


@njit(cache=True, _nrt=False, inline="always")
def commit_tiles(st, bb, rng, n):
    """`commit n`: n tiles of the conflict's colour (red in a revolt) leave the game from the
    hand of the player to act; the attacker first, then the defender, then the conflict is
    decided."""
    p = st[S.TO_ACT]
    revolt = st[S.PHASE] == S.PH_REVOLT
    c = RED if revolt else st[S.CF_COLOUR]
    st[S.hand(p, c)] -= n
    st[S.out_of_game(c)] += n
    if st[S.CF_COMMIT] < 0:
        st[S.CF_COMMIT] = n
        st[S.TO_ACT] = st[S.CF_DEFENDER]
    elif revolt:
        resolve_revolt(st, bb, rng, n)
    else:
        resolve_war(st, bb, rng, n)


# --- the actions of a turn (SPEC 3) ---------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def tile_point_owner(st, c, k0, k1, k2):
    """Who scores a tile of colour c placed next to the one kingdom k: the owner of the
    same-colour leader there, else of its king, else nobody (-1)."""
    scorer = -1
    king = -1
    for p in range(st[S.PLAYERS]):
        ls = st[S.leader_sq(p, c)]
        if ls >= 0 and has(k0, k1, k2, ls):
            scorer = p
        ks = st[S.leader_sq(p, BLACK)]
        if ks >= 0 and has(k0, k1, k2, ks):
            king = p
    return scorer if scorer >= 0 else king


@njit(cache=True, _nrt=False)
def place_tile(st, bb, rng, c, s):
    """`tile c s`: next to 2 kingdoms it unifies them (war); next to 1 it scores a point of
    its colour; then the monument check and the treasure check."""
    p = st[S.TURN]
    nk, k0, k1, k2, _ = kingdoms_around(st, bb, s, NO_SQUARE, np.bool_(False))
    st[S.hand(p, c)] -= 1
    set_bit(bb, S.tile_bb(c), s)
    st[S.PLACED_SQ] = s
    if nk >= 2:
        st[S.UNIFY_SQ] = s
        next_war(st, bb, rng)
        return
    if nk == 1:
        scorer = tile_point_owner(st, c, k0, k1, k2)
        if scorer >= 0:
            add_points(st, S.score(scorer, c), 1)
    monument_check(st, bb, rng)


@njit(cache=True, _nrt=False)
def place_leader(st, bb, rng, c, s):
    """`leader c s`: place from the supply or move; a same-colour leader in its kingdom means
    a revolt, else the treasure check."""
    p = st[S.TURN]
    if st[S.leader_sq(p, c)] >= 0:
        lift_leader(st, bb, p, c)
    put_leader(st, bb, p, c, s)
    f0, f1, f2 = region_of(bb, s)
    for q in range(st[S.PLAYERS]):
        qs = st[S.leader_sq(q, c)]
        if q != p and qs >= 0 and has(f0, f1, f2, qs):
            open_conflict(st, S.PH_REVOLT, c, p, q)
            return
    treasure_check(st, bb, rng)


@njit(cache=True, _nrt=False, inline="always")
def withdraw_leader(st, bb, rng, c):
    """`withdraw c`: the leader goes back to the supply."""
    lift_leader(st, bb, st[S.TO_ACT], c)
    treasure_check(st, bb, rng)


@njit(cache=True, _nrt=False, inline="always")
def place_catastrophe(st, bb, rng, s):
    """`catastrophe s`: the tile there (if any) leaves the game, the square is blocked for
    good, leaders left without a temple go home; no conflict."""
    st[S.catastrophes(st[S.TO_ACT])] -= 1
    c = tile_colour_at(bb, s)
    if c >= 0:
        clear_bit(bb, S.tile_bb(c), s)
        st[S.out_of_game(c)] += 1
    set_bit(bb, S.BB_CATA, s)
    withdraw_stranded(st, bb)
    treasure_check(st, bb, rng)


@njit(cache=True, _nrt=False, inline="always")
def swap_tiles(st, bb, rng, i):
    """`swap`: discard the tiles of multiset i face down and draw as many at once."""
    p = st[S.TO_ACT]
    n = np.int64(0)
    for c in range(4):
        k = S.SWAP_COUNTS[i, c]
        st[S.hand(p, c)] -= k
        n += k
    st[S.HIDDEN_DISCARDS] += n
    # A swap that comes up short (the bag runs out) ends the game at the end of this turn
    # (SPEC 3, game end).  The state keeps no flag for it, and needs none: the bag is empty
    # from now on and the swapper holds fewer than 6, so end_turn's first refill, his, comes
    # up short too (tested in test_rules_turn_end).
    draw_up_to(st, p, n, rng)
    treasure_check(st, bb, rng)


@njit(cache=True, _nrt=False, inline="always")
def pass_action(st, bb, rng):
    treasure_check(st, bb, rng)


@njit(cache=True, _nrt=False)
def apply_action(st, a, rng):
    """Apply action code a (legal in st) for the player to act, in place."""
    bb = st.view(np.uint64)
    if a < S.A_LEADER:
        place_tile(st, bb, rng, a // SQUARES, a % SQUARES)
    elif a < S.A_WITHDRAW:
        place_leader(st, bb, rng, (a - S.A_LEADER) // SQUARES, (a - S.A_LEADER) % SQUARES)
    elif a < S.A_CATASTROPHE:
        withdraw_leader(st, bb, rng, a - S.A_WITHDRAW)
    elif a < S.A_SWAP:
        place_catastrophe(st, bb, rng, a - S.A_CATASTROPHE)
    elif a < S.A_PASS:
        swap_tiles(st, bb, rng, a - S.A_SWAP)
    elif a == S.A_PASS:
        pass_action(st, bb, rng)
    elif a < S.A_WAR:
        commit_tiles(st, bb, rng, a - S.A_COMMIT)
    elif a < S.A_MONUMENT:
        start_war(st, bb, a - S.A_WAR)
    elif a < S.A_DECLINE:
        flip_monument(st, bb, rng, (a - S.A_MONUMENT) // SQUARES, (a - S.A_MONUMENT) % SQUARES)
    elif a == S.A_DECLINE:
        decline_monument(st, bb, rng)
    else:
        take_treasure(st, bb, rng, a - S.A_TREASURE)
