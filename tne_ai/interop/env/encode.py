"""Observation tensors and action masks for learning agents (docs/OBSERVATION.md).

A seat's observation is one flat float32 vector of ``OBS_SIZE`` values: ``N_PLANES`` board
planes of 11 x 16 squares (``plane * 176 + square``, square = row * 16 + col as everywhere),
then ``N_VECTOR`` scalars (counts divided by the fixed ``SCALE`` of their field).  It holds only what that seat may see (SPEC: the seat's own hand
and scores, the public board and counts); players are numbered relative to the seat (0 = the
seat itself, 1 = the next in turn order...).  The action mask is over the engine's fixed
action space (``state.N_ACTIONS`` codes, as ``legal_moves`` writes them).

Every kernel writes into the caller's arrays and allocates nothing.  ``encode`` writes a
whole observation; ``encode_update`` rewrites only what changed since the state it last
encoded into the same array (kept in a ``shadow`` copy), which gives the same values.
"""
import numpy as np
from numba import njit

from tne_ai.core import state as S
from tne_ai.core.bits import U0, U1, lowest_bit
from tne_ai.core.board import RIVER_SQUARES, SQUARES, COLS, TILES_PER_COLOUR
from tne_ai.core.rules.apply import conflict_strengths, treasures_left

# --- layout -----------------------------------------------------------------------------------
P_RIVER = 0          # river squares (constant)
P_TILE = 1           # 1 + c: face-up tiles of colour c (red, blue, green, black)
P_FLIPPED = 5        # flipped (monument) tiles
P_CATASTROPHE = 6
P_TREASURE = 7       # treasures still on the board
P_LEADER = 8         # 8 + 4 * r + c: the leader of colour c of relative player r
P_MONUMENT = 24      # 24 + m: the 2x2 block of monument m (colour pairs in board.MONUMENTS)
P_UNIFY = 30         # the unifying tile of the wars in progress
P_PLACED = 31        # the tile whose monument decision is pending
N_PLANES = 32
BOARD_SIZE = N_PLANES * SQUARES

V = BOARD_SIZE       # the scalars, offsets from V:
V_HAND = 0           # 0..3: the seat's tiles of each colour
V_HAND_SIZE = 4      # 4 + r: tiles in relative player r's hand
V_CATASTROPHES = 8   # 8 + r: catastrophe tiles r still holds
V_BAG = 12           # tiles in the bag
V_SCORE = 13         # 13..17: the seat's own points red, blue, green, black, treasures taken
V_TREASURES_LEFT = 18
V_OUT_OF_GAME = 19   # 19..22: tiles of each colour out of the game
V_HIDDEN_DISCARDS = 23
V_TURN = 24          # 24 + r: r is the player whose turn it is
V_ACTIONS_LEFT = 28
V_PHASE = 29         # 29 + phase (PH_ACTION .. PH_OVER)
V_CF_COLOUR = 36     # 36 + c: colour of the conflict in progress
V_STRENGTH = 40      # 40, 41: attacker's and defender's board strength in the conflict
V_COMMITTED = 42     # 1 once the attacker has committed
V_COMMIT = 43        # tiles the attacker committed
V_ROLE = 44          # 44 the seat attacks, 45 it defends, 46 it must act now
V_ATTACKER = 47      # 47 + r: r attacks
V_DEFENDER = 51      # 51 + r: r defends
V_PLAYERS = 55       # 55 + (players - 2)
V_SEAT = 58          # 58 + seat (absolute seat number)
N_VECTOR = 64        # 62, 63 are always 0
OBS_SIZE = BOARD_SIZE + N_VECTOR


def _scales():
    """SCALE[i]: the scalar at V + i is its count divided by this (1 for the one-hot fields),
    so that every value is about 0..1 for a network."""
    scale = np.ones(N_VECTOR, dtype=np.float32)
    scale[V_HAND:V_HAND + 4] = 6                  # a hand holds 6 tiles
    scale[V_HAND_SIZE:V_HAND_SIZE + 4] = 6
    scale[V_CATASTROPHES:V_CATASTROPHES + 4] = 2  # 2 catastrophe tiles a player
    scale[V_BAG] = 143                            # the bag after the temples are placed
    scale[V_SCORE:V_SCORE + 5] = 20
    scale[V_TREASURES_LEFT] = 10
    scale[V_OUT_OF_GAME:V_OUT_OF_GAME + 4] = TILES_PER_COLOUR
    scale[V_HIDDEN_DISCARDS] = 143
    scale[V_ACTIONS_LEFT] = 2
    scale[V_STRENGTH:V_STRENGTH + 2] = 10
    scale[V_COMMIT] = 6
    return scale


SCALE = _scales()
INV_SCALE = (np.float32(1) / SCALE).astype(np.float32)

SHADOW_SIZE = S.STATE_SIZE + 1  # encode_update's memory: the state last encoded, then its seat

RIVER_LIST = np.array(RIVER_SQUARES, dtype=np.int64)
BLOCK = np.array([0, 1, COLS, COLS + 1], dtype=np.int64)  # a monument's squares from its top-left


@njit(cache=True, inline="always")
def _rel(p, seat, n):
    return (p - seat + n) % n


@njit(cache=True)
def _write_bits(out, base, x0, x1, x2, value):
    """out[base + s] = value for every square s of the set."""
    x = x0
    while x != U0:
        out[base + lowest_bit(x)] = value
        x &= x - U1
    x = x1
    while x != U0:
        out[base + 64 + lowest_bit(x)] = value
        x &= x - U1
    x = x2
    while x != U0:
        out[base + 128 + lowest_bit(x)] = value
        x &= x - U1


@njit(cache=True)
def _write_vector(st, seat, out):
    """The N_VECTOR scalars (all rewritten: they are few)."""
    n = st[S.PLAYERS]
    for i in range(N_VECTOR):
        out[V + i] = 0.0
    for c in range(4):
        out[V + V_HAND + c] = st[S.hand(seat, c)]
        out[V + V_OUT_OF_GAME + c] = st[S.out_of_game(c)]
    for p in range(n):
        r = _rel(p, seat, n)
        out[V + V_HAND_SIZE + r] = S.hand_size(st, p)
        out[V + V_CATASTROPHES + r] = st[S.catastrophes(p)]
    out[V + V_BAG] = S.bag_total(st) - S.owed_total(st)
    for k in range(5):
        out[V + V_SCORE + k] = st[S.score(seat, k)]
    out[V + V_TREASURES_LEFT] = treasures_left(st.view(np.uint64))
    out[V + V_HIDDEN_DISCARDS] = st[S.HIDDEN_DISCARDS]
    out[V + V_TURN + _rel(st[S.TURN], seat, n)] = 1.0
    out[V + V_ACTIONS_LEFT] = st[S.ACTIONS_LEFT]
    phase = st[S.PHASE]
    out[V + V_PHASE + phase] = 1.0
    c = st[S.CF_COLOUR]
    if c >= 0:
        out[V + V_CF_COLOUR + c] = 1.0
    if phase == S.PH_REVOLT or phase == S.PH_WAR:
        a, d = conflict_strengths(st)
        out[V + V_STRENGTH] = a
        out[V + V_STRENGTH + 1] = d
        if st[S.CF_COMMIT] >= 0:
            out[V + V_COMMITTED] = 1.0
            out[V + V_COMMIT] = st[S.CF_COMMIT]
    attacker = st[S.CF_ATTACKER]
    defender = st[S.CF_DEFENDER]
    if attacker >= 0:
        out[V + V_ATTACKER + _rel(attacker, seat, n)] = 1.0
        out[V + V_ROLE] = 1.0 if attacker == seat else 0.0
    if defender >= 0:
        out[V + V_DEFENDER + _rel(defender, seat, n)] = 1.0
        out[V + V_ROLE + 1] = 1.0 if defender == seat else 0.0
    if phase != S.PH_OVER and st[S.TO_ACT] == seat:
        out[V + V_ROLE + 2] = 1.0
    out[V + V_PLAYERS + n - 2] = 1.0
    out[V + V_SEAT + seat] = 1.0
    for i in range(N_VECTOR):
        out[V + i] *= INV_SCALE[i]


@njit(cache=True)
def _set_square(out, plane, s, value):
    if s >= 0:
        out[plane * SQUARES + s] = value


@njit(cache=True)
def _set_block(out, plane, s, value):
    if s >= 0:
        for i in range(4):
            out[plane * SQUARES + s + BLOCK[i]] = value


@njit(cache=True)
def _pending_squares(st):
    """(unifying square, placed square) as the planes show them: each only while its
    decision is pending."""
    phase = st[S.PHASE]
    u = st[S.UNIFY_SQ] if phase == S.PH_WAR_CHOICE or phase == S.PH_WAR else -1
    m = st[S.PLACED_SQ] if phase == S.PH_MONUMENT else -1
    return u, m


@njit(cache=True)
def encode(st, seat, out):
    """Write seat's whole observation of st into out (float32, OBS_SIZE)."""
    bb = st.view(np.uint64)
    n = st[S.PLAYERS]
    out[:] = 0.0
    for i in range(RIVER_LIST.shape[0]):
        out[P_RIVER * SQUARES + RIVER_LIST[i]] = 1.0
    for g in range(7):  # tiles of the 4 colours, flipped, catastrophes, treasures
        _write_bits(out, (P_TILE + g) * SQUARES, bb[3 * g], bb[3 * g + 1], bb[3 * g + 2], 1.0)
    for p in range(n):
        r = _rel(p, seat, n)
        for c in range(4):
            _set_square(out, P_LEADER + 4 * r + c, st[S.leader_sq(p, c)], 1.0)
    for m in range(6):
        _set_block(out, P_MONUMENT + m, st[S.monument_sq(m)], 1.0)
    u, m = _pending_squares(st)
    _set_square(out, P_UNIFY, u, 1.0)
    _set_square(out, P_PLACED, m, 1.0)
    _write_vector(st, seat, out)


@njit(cache=True)
def encode_update(st, seat, shadow, out):
    """Bring out, holding the observation encode wrote of the state in shadow (seat in
    shadow[STATE_SIZE]), to seat's observation of st, rewriting only the squares that
    changed; then remember st and seat in shadow.  shadow[STATE_SIZE] = -1 means out holds
    nothing yet (a whole encode).  The result equals encode(st, seat, out)."""
    old_seat = shadow[S.STATE_SIZE]
    if old_seat < 0 or shadow[S.PLAYERS] != st[S.PLAYERS]:
        encode(st, seat, out)
    else:
        bb = st.view(np.uint64)
        old = shadow.view(np.uint64)
        n = st[S.PLAYERS]
        for g in range(7):
            w = 3 * g
            base = (P_TILE + g) * SQUARES
            # clear the squares that left the set, then set the ones that joined
            _write_bits(out, base, old[w] & ~bb[w], old[w + 1] & ~bb[w + 1],
                        old[w + 2] & ~bb[w + 2], 0.0)
            _write_bits(out, base, bb[w] & ~old[w], bb[w + 1] & ~old[w + 1],
                        bb[w + 2] & ~old[w + 2], 1.0)
        for r in range(n):
            p_new = (seat + r) % n
            p_old = (old_seat + r) % n
            for c in range(4):
                s_new = st[S.leader_sq(p_new, c)]
                s_old = shadow[S.leader_sq(p_old, c)]
                if s_new != s_old:
                    _set_square(out, P_LEADER + 4 * r + c, s_old, 0.0)
                    _set_square(out, P_LEADER + 4 * r + c, s_new, 1.0)
        for m in range(6):
            s_new = st[S.monument_sq(m)]
            s_old = shadow[S.monument_sq(m)]
            if s_new != s_old:
                _set_block(out, P_MONUMENT + m, s_old, 0.0)
                _set_block(out, P_MONUMENT + m, s_new, 1.0)
        u_new, m_new = _pending_squares(st)
        u_old, m_old = _pending_squares(shadow)
        if u_new != u_old:
            _set_square(out, P_UNIFY, u_old, 0.0)
            _set_square(out, P_UNIFY, u_new, 1.0)
        if m_new != m_old:
            _set_square(out, P_PLACED, m_old, 0.0)
            _set_square(out, P_PLACED, m_new, 1.0)
        _write_vector(st, seat, out)
    for i in range(S.STATE_SIZE):
        shadow[i] = st[i]
    shadow[S.STATE_SIZE] = seat


@njit(cache=True)
def write_mask(moves, n, mask):
    """mask[a] = 1 for the n codes in moves (mask cleared by the caller)."""
    for i in range(n):
        mask[moves[i]] = 1


@njit(cache=True)
def clear_mask(moves, n, mask):
    """Undo write_mask(moves, n, mask): only those entries are cleared."""
    for i in range(n):
        mask[moves[i]] = 0
