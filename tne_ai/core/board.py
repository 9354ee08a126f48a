"""Static geometry of the Tigris & Euphrates board (SPEC section 1).

A square's index is ``row * 16 + col`` (row 0 = rank 1 at the top, col 0 = file A), so the
176 squares map onto three 64-bit words, 16 bits per row: word ``s >> 6`` holds bit ``s & 63``
(rows 0-3, 4-7 and 8-10).  Masks here are numpy ``uint64`` arrays of three words.
"""
import numpy as np

ROWS = 11
COLS = 16
SQUARES = ROWS * COLS
FILES = "ABCDEFGHIJKLMNOP"

MAP = (
    "....~~~~~.T.~...",
    ".*..~.......~..*",
    "...~~T......~~..",
    "~~~~.........~~~",
    ".............T~~",
    "..............~.",
    "~~~~....T...~~~.",
    ".*.~~~~.....~...",
    "......~~~~~~~.*.",
    ".....T..........",
    "..........T.....",
)

COLOURS = ("red", "blue", "green", "black")
COLOUR_LETTERS = "rbgk"
RED, BLUE, GREEN, BLACK = 0, 1, 2, 3

# "no square" (an empty leader slot, no square left out of a flood), typed: numba compiles a
# callee once more for each literal value it is passed, so constant arguments go in typed.
NO_SQUARE = np.int64(-1)

# Monuments, one per colour pair, in SPEC order (colour order red, blue, green, black).
MONUMENTS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
N_MONUMENTS = len(MONUMENTS)
MONUMENT_NAMES = tuple(f"{COLOURS[a]}-{COLOURS[b]}" for a, b in MONUMENTS)

TILES_PER_COLOUR = np.array([57, 36, 30, 30], dtype=np.int64)
TOTAL_TILES = 153
HAND_SIZE = 6
LEADERS_PER_PLAYER = 4
CATASTROPHES_PER_PLAYER = 2


def square_name(sq):
    return f"{FILES[sq % COLS]}{sq // COLS + 1}"


def parse_square(text):
    """Return the index of a square name such as ``F4`` (any case; ASCII letter and digits, no
    leading zero), or -1 if it is not one."""
    if not text.isascii():  # before upper(): 'ı7'.upper() is 'I7'
        return -1
    t = text.strip().upper()
    if len(t) < 2 or len(t) > 3 or t[0] not in FILES \
            or not all("0" <= ch <= "9" for ch in t[1:]) or t[1] == "0":
        return -1   # ASCII only, no leading zero (A01): SPEC section 8
    row = int(t[1:]) - 1
    if not 0 <= row < ROWS:
        return -1
    return row * COLS + FILES.index(t[0])


def mask_of(squares):
    m = np.zeros(3, dtype=np.uint64)
    for s in squares:
        m[s >> 6] |= np.uint64(1) << np.uint64(s & 63)
    return m


def squares_of(mask):
    out = []
    for w in range(3):
        x = int(mask[w])
        while x:
            low = x & -x
            out.append(w * 64 + low.bit_length() - 1)
            x ^= low
    return out


RIVER_SQUARES = [r * COLS + c for r in range(ROWS) for c in range(COLS) if MAP[r][c] == "~"]
TEMPLE_SQUARES = [r * COLS + c for r in range(ROWS) for c in range(COLS) if MAP[r][c] in "T*"]
CORNER_SQUARES = [r * COLS + c for r in range(ROWS) for c in range(COLS) if MAP[r][c] == "*"]

RIVER = mask_of(RIVER_SQUARES)
ALL = mask_of(range(SQUARES))
LAND = ALL & ~RIVER
CORNERS = mask_of(CORNER_SQUARES)
START_TEMPLES = mask_of(TEMPLE_SQUARES)
# File A and file P in every row: shifts along a row must not wrap into the next row.
COL_A = mask_of([r * COLS for r in range(ROWS)])
COL_P = mask_of([r * COLS + COLS - 1 for r in range(ROWS)])

# NEIGHBOURS[s] lists the orthogonal neighbours of s, padded with -1; NEIGHBOUR_MASK[s] as bits.
NEIGHBOURS = np.full((SQUARES, 4), -1, dtype=np.int64)
NEIGHBOUR_MASK = np.zeros((SQUARES, 3), dtype=np.uint64)
for _s in range(SQUARES):
    _r, _c = divmod(_s, COLS)
    _n = [(_r + dr) * COLS + _c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
          if 0 <= _r + dr < ROWS and 0 <= _c + dc < COLS]
    NEIGHBOURS[_s, :len(_n)] = _n
    NEIGHBOUR_MASK[_s] = mask_of(_n)
# SQUARE_BIT[s] is the single-bit word of s within word s >> 6.
SQUARE_BIT = np.array([1 << (s & 63) for s in range(SQUARES)], dtype=np.uint64)

assert len(RIVER_SQUARES) == 41 and len(TEMPLE_SQUARES) == 10 and len(CORNER_SQUARES) == 4
