"""The state layout: one flat ``int64`` numpy array, documented here and nowhere else.

Copying a state is ``st.copy()`` (one memcpy of ``STATE_SIZE * 8`` bytes).  Bitboards are
stored as the bit patterns of three ``int64`` words; kernels read them through
``st.view(np.uint64)``.  Squares are indexed ``row * 16 + col`` (see ``board.py``).

Layout (offsets are module constants):

=================  =====  ===========================================================
field              words  meaning
=================  =====  ===========================================================
BB_TILE            4x3    face-up tiles of colour c at ``BB_TILE + 3*c``
BB_FLIP            3      flipped (monument) tiles
BB_CATA            3      catastrophes
BB_TREASURE        3      treasures still on the board
BB_LEADER          3      squares holding any leader
LEADER_SQ          4x4    ``LEADER_SQ + 4*player + colour``: square, or -1 in supply
HAND               4x4    ``HAND + 4*player + colour``: tiles in hand
CATASTROPHES       4      catastrophe tiles each player still holds
SCORE              4x5    ``SCORE + 5*player + k``: k = red, blue, green, black, treasure
MON_SQ             6      top-left square of each built monument, -1 if unbuilt
MON_TILES          6      colour the monument's four flipped tiles had, -1 if unbuilt
OUT_OF_GAME        4      tiles removed from the game by colour (wars, revolts, catastrophes)
HIDDEN_DISCARDS    1      tiles discarded face down by swaps
BAG_COUNT          4      tiles of each colour in the bag
BAG_ORDERED        1      1: draws come from the front of BAG (ordered); 0: random from counts;
                          BAG_EXTERNAL: draws are owed (DRAWS_OWED) until a caller supplies
                          their colours with ``resolve_draw`` (OpenSpiel chance nodes)
BAG_LEN            1      tiles in the ordered bag (the next to draw is tile 0)
PLAYERS            1      2..4
TURN               1      player whose turn it is
ACTIONS_LEFT       1      2 or 1 (the action in progress counts); 0 once the game is over
PHASE              1      PH_* below
TO_ACT             1      player who must choose now
CF_COLOUR          1      colour of the conflict in progress, -1 if none
CF_ATTACKER        1      attacker of the conflict in progress
CF_DEFENDER        1      defender of the conflict in progress
CF_COMMIT          1      tiles the attacker committed, -1 until he has
UNIFY_SQ           1      square of the unifying tile while wars last, else -1
PLACED_SQ          1      square of the tile placed by this action (monument check), else -1
DRAWS_OWED         4      draws each player is owed in an external-draw bag (else 0)
BAG                5      ordered bag, 2 bits a tile (colour), tile i in word i >> 5,
                          bits 2*(i & 31); a draw shifts the rest down by one tile
=================  =====  ===========================================================

Phases (the decision the state waits for):

- ``PH_ACTION``: ``TURN`` picks an action (tile, leader, withdraw, catastrophe, swap, pass).
- ``PH_REVOLT``: a commit of red tiles: the attacker while ``CF_COMMIT == -1``, then the
  defender. The two leaders are ``LEADER_SQ[CF_ATTACKER][CF_COLOUR]`` and
  ``LEADER_SQ[CF_DEFENDER][CF_COLOUR]``.
- ``PH_WAR_CHOICE``: the active player picks the colour of the next war (2+ in conflict).
- ``PH_WAR``: a commit of ``CF_COLOUR`` tiles in the war around ``UNIFY_SQ``, attacker first.
- ``PH_MONUMENT``: the active player builds a monument on a 2x2 block holding ``PLACED_SQ``
  or declines.
- ``PH_TREASURE``: ``TO_ACT`` takes a treasure from his trader's kingdom.
- ``PH_OVER``: the game is over.

Kernels name the fields through the small inlined accessors below (``st[hand(p, c)] -= 1``,
``st[score(p, c)] += 1``, ``bb[tile_bb(c) + w]``): each returns the offset of one field, so the
same accessor reads and writes.
"""
import numpy as np
import numpy.typing as npt
from numba import njit

# A state buffer as the Python code's annotations name it: int64, STATE_SIZE words.
State = npt.NDArray[np.int64]

# --- layout -------------------------------------------------------------------------------
BB_TILE = 0
BB_FLIP = 12
BB_CATA = 15
BB_TREASURE = 18
BB_LEADER = 21
LEADER_SQ = 24
HAND = 40
CATASTROPHES = 56
SCORE = 60
MON_SQ = 80
MON_TILES = 86
OUT_OF_GAME = 92
HIDDEN_DISCARDS = 96
BAG_COUNT = 97
BAG_ORDERED = 101
BAG_LEN = 102
PLAYERS = 103
TURN = 104
ACTIONS_LEFT = 105
PHASE = 106
TO_ACT = 107
CF_COLOUR = 108
CF_ATTACKER = 109
CF_DEFENDER = 110
CF_COMMIT = 111
UNIFY_SQ = 112
PLACED_SQ = 113
DRAWS_OWED = 114
BAG = 118
BAG_WORDS = 5
STATE_SIZE = BAG + BAG_WORDS  # 123 words, 984 bytes
BAG_EXTERNAL = 2
MAX_BAG = BAG_WORDS * 32

SCORE_TREASURE = 4


# --- named access (offsets of one player's or one colour's field) -------------------------

@njit(cache=True, _nrt=False, inline="always")
def copy_into(dst, src):
    """dst[:] = src, word by word: a slice assignment of one array to another needs numba's
    reference counts, which the kernels are compiled without (DESIGN, numba conventions)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit(cache=True, _nrt=False, inline="always")
def tile_bb(c):
    """First of the three words of the face-up tiles of colour c."""
    return BB_TILE + 3 * c


@njit(cache=True, _nrt=False, inline="always")
def leader_sq(p, c):
    """Square of p's leader of colour c (-1 in his supply)."""
    return LEADER_SQ + 4 * p + c


@njit(cache=True, _nrt=False, inline="always")
def hand(p, c):
    """Tiles of colour c in p's hand."""
    return HAND + 4 * p + c


@njit(cache=True, _nrt=False, inline="always")
def catastrophes(p):
    """Catastrophe tiles p still holds."""
    return CATASTROPHES + p


@njit(cache=True, _nrt=False, inline="always")
def score(p, k):
    """p's points of colour k (k = SCORE_TREASURE: treasures taken)."""
    return SCORE + 5 * p + k


@njit(cache=True, _nrt=False, inline="always")
def monument_sq(m):
    """Top-left square of monument m, -1 if unbuilt."""
    return MON_SQ + m


@njit(cache=True, _nrt=False, inline="always")
def monument_tiles(m):
    """Colour monument m's flipped tiles had, -1 if unbuilt."""
    return MON_TILES + m


@njit(cache=True, _nrt=False, inline="always")
def out_of_game(c):
    return OUT_OF_GAME + c


@njit(cache=True, _nrt=False, inline="always")
def bag_count(c):
    return BAG_COUNT + c


@njit(cache=True, _nrt=False, inline="always")
def draws_owed(p):
    return DRAWS_OWED + p


@njit(cache=True, _nrt=False, inline="always")
def bag_tile(st, i):
    """Colour of tile i of the ordered bag (tile 0 is drawn next)."""
    return (st[BAG + (i >> 5)] >> (2 * (i & 31))) & 3


@njit(cache=True, _nrt=False, inline="always")
def set_bag_tile(st, i, c):
    w = BAG + (i >> 5)
    shift = 2 * (i & 31)
    st[w] = (st[w] & ~(3 << shift)) | (c << shift)


@njit(cache=True, _nrt=False, inline="always")
def hand_size(st, p):
    """Tiles in p's hand."""
    return st[HAND + 4 * p] + st[HAND + 4 * p + 1] + st[HAND + 4 * p + 2] + st[HAND + 4 * p + 3]


@njit(cache=True, _nrt=False, inline="always")
def bag_total(st):
    """Tiles in the bag (owed draws included)."""
    return st[BAG_COUNT] + st[BAG_COUNT + 1] + st[BAG_COUNT + 2] + st[BAG_COUNT + 3]


@njit(cache=True, _nrt=False, inline="always")
def owed_total(st):
    """Draws owed to all players (external-draw bag)."""
    return st[DRAWS_OWED] + st[DRAWS_OWED + 1] + st[DRAWS_OWED + 2] + st[DRAWS_OWED + 3]

# --- phases -------------------------------------------------------------------------------
PH_ACTION = 0
PH_REVOLT = 1
PH_WAR_CHOICE = 2
PH_WAR = 3
PH_MONUMENT = 4
PH_TREASURE = 5
PH_OVER = 6

# --- action codes: one int per action, a fixed space of N_ACTIONS -------------------------
# tile c s      A_TILE + 176*c + s
# leader c s    A_LEADER + 176*c + s
# withdraw c    A_WITHDRAW + c
# catastrophe s A_CATASTROPHE + s
# swap m        A_SWAP + index of the multiset in SWAP_COUNTS
# pass          A_PASS
# commit n      A_COMMIT + n (n = 0..6)
# war c         A_WAR + c
# monument m s  A_MONUMENT + 176*m + s (s = top-left square of the 2x2 block)
# decline       A_DECLINE
# treasure s    A_TREASURE + s
A_TILE = 0
A_LEADER = 704
A_WITHDRAW = 1408
A_CATASTROPHE = 1412
A_SWAP = 1588
A_PASS = 1797
A_COMMIT = 1798
A_WAR = 1805
A_MONUMENT = 1809
A_DECLINE = 2865
A_TREASURE = 2866
N_ACTIONS = 3042
MAX_COMMIT = 6
# Upper bound on the legal moves of one decision (tiles 4x176 + leaders 4x176 + withdraws
# + catastrophes + swaps + pass); move buffers are this long.
MAX_MOVES = 1800


def _swap_table():
    rows = []
    for r in range(7):
        for b in range(7 - r):
            for g in range(7 - r - b):
                for k in range(7 - r - b - g):
                    if 1 <= r + b + g + k <= 6:
                        rows.append((r, b, g, k))
    return np.array(rows, dtype=np.int64)


# SWAP_COUNTS[i] = tiles of each colour discarded by swap multiset i (209 multisets of 1-6)
SWAP_COUNTS = _swap_table()
N_SWAPS = len(SWAP_COUNTS)
assert N_SWAPS == 209 and A_SWAP + N_SWAPS == A_PASS


def empty_state():
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    st[LEADER_SQ:LEADER_SQ + 16] = -1
    st[MON_SQ:MON_SQ + 6] = -1
    st[MON_TILES:MON_TILES + 6] = -1
    st[CF_COLOUR] = -1
    st[CF_ATTACKER] = -1
    st[CF_DEFENDER] = -1
    st[CF_COMMIT] = -1
    st[UNIFY_SQ] = -1
    st[PLACED_SQ] = -1
    return st
