"""A small builder of hand-made ``tne-position/1`` dicts for the rules scenario tests.

Positions start from the standard map of SPEC section 1 with the ten starting temples as ``r``
(each with its treasure), and take a few edits: tiles, leaders, hands, an ordered ``bag`` string
(draws come from its front, SPEC section 9), scores, monuments...  ``hidden_discards`` is computed
so that every tile is accounted for (SPEC section 1: 57 red, 36 blue, 30 green, 30 black = 153).

The builder also checks its own output for the consistency rules of SPEC section 9 (a leader on
land next to a face-up red tile, treasures on starting temples, no two same-colour leaders in one
kingdom...), so a mistake in a test position fails loudly here rather than inside the engine.
Expected outcomes are never computed here: each test states them, worked out by hand.
"""
import os
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

# SPEC section 1, copied from the rule text (not from tne_ai.core.board).
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
START_TEMPLES = ["K1", "B2", "P2", "F3", "N5", "I7", "B8", "O9", "F10", "K11"]
CORNERS = ["B2", "P2", "B8", "O9"]
COLOURS = ("red", "blue", "green", "black")
LETTERS = {"r": "red", "b": "blue", "g": "green", "k": "black"}
TOTALS = {"red": 57, "blue": 36, "green": 30, "black": 30}
DEFAULT_BAG = "rrrrbbbbggggkkkkrrbbggkk"


def rc(square):
    """(row, col) of a square name such as ``G5``."""
    return int(square[1:]) - 1, ord(square[0].upper()) - ord("A")


def name(row, col):
    return f"{chr(ord('A') + col)}{row + 1}"


def neighbours(square):
    r, c = rc(square)
    return [name(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < 11 and 0 <= c + dc < 16]


def is_river(square):
    r, c = rc(square)
    return MAP[r][c] == "~"


def hand(text):
    """A hand dict from colour letters: ``hand("rrbggk")``."""
    counts = {c: 0 for c in COLOURS}
    for ch in text:
        counts[LETTERS[ch]] += 1
    return counts


def _zero_scores():
    return {"red": 0, "blue": 0, "green": 0, "black": 0, "treasure": 0}


def position(players=2, tiles=None, leaders=(), hands=None, bag=DEFAULT_BAG, treasures=None,
             monuments=(), catastrophes=None, scores=None, out_of_game=None, turn=0,
             actions_left=2, pending=None):
    """A tne-position/1 dict.

    tiles: {square: char} with char in ``r b g k # x . ~`` (overrides the standard map).
    leaders: [(player, colour, square), ...].  hands: list of letter strings or dicts.
    scores: list (per player) of partial score dicts.  monuments: list of
    {"colors": "red-blue", "at": "F4", "tiles": "red"} (its four squares must be ``#``).
    """
    rows = [list(r.replace("T", "r").replace("*", "r")) for r in MAP]
    for sq, ch in (tiles or {}).items():
        r, c = rc(sq)
        rows[r][c] = ch
    board = ["".join(r) for r in rows]
    if hands is None:
        hands = ["rrbggk"] * players
    hands = [hand(h) if isinstance(h, str) else dict(h) for h in hands]
    if treasures is None:
        treasures = list(START_TEMPLES)
    full_scores = []
    for i in range(players):
        s = _zero_scores()
        if scores is not None:
            s.update(scores[i])
        full_scores.append(s)
    ooc = {c: 0 for c in COLOURS}
    if out_of_game:
        ooc.update(out_of_game)
    if catastrophes is None:
        catastrophes = [2] * players
    monuments = [dict(m) for m in monuments]

    d = {
        "format": "tne-position/1",
        "players": players,
        "turn": turn,
        "actions_left": actions_left,
        "board": board,
        "leaders": [[p, c, s] for p, c, s in leaders],
        "treasures": list(treasures),
        "monuments": monuments,
        "hands": hands,
        "catastrophes": list(catastrophes),
        "scores": full_scores,
        "out_of_game": ooc,
        "hidden_discards": 0,
        "pending": pending,
        "bag": bag,
    }
    d["hidden_discards"] = _balance(d)
    _check(d)
    return d


def _balance(d):
    used = {c: 0 for c in COLOURS}
    for row in d["board"]:
        for ch in row:
            if ch in LETTERS:
                used[LETTERS[ch]] += 1
    flipped = sum(row.count("#") for row in d["board"])
    assert flipped == 4 * len(d["monuments"]), "every monument needs its four '#' squares"
    for m in d["monuments"]:
        used[m["tiles"]] += 4
    for h in d["hands"]:
        for c in COLOURS:
            used[c] += h.get(c, 0)
    for ch in d["bag"]:
        used[LETTERS[ch]] += 1
    for c in COLOURS:
        used[c] += d["out_of_game"][c]
        assert used[c] <= TOTALS[c], f"too many {c} tiles in the test position: {used[c]}"
    hidden = 153 - sum(used.values())
    assert hidden >= 0
    return hidden


def _cell(board, sq):
    r, c = rc(sq)
    return board[r][c]


def _check(d):
    """Consistency of a hand-made position (SPEC section 9); guards the tests, not the engine."""
    board = d["board"]
    assert len(board) == 11 and all(len(r) == 16 for r in board)
    for r in range(11):
        for c in range(16):
            ch, sq = board[r][c], name(r, c)
            if ch == "b":
                assert is_river(sq), f"blue tile on land at {sq}"
            if ch in "rgk":
                assert not is_river(sq), f"{ch} tile on river at {sq}"
            if ch == "~":
                assert is_river(sq)
            if ch == ".":
                assert not is_river(sq)
    for m in d["monuments"]:
        r, c = rc(m["at"])
        for sq in (name(r, c), name(r, c + 1), name(r + 1, c), name(r + 1, c + 1)):
            assert _cell(board, sq) == "#", f"monument square {sq} is not '#'"
            assert is_river(sq) == (m["tiles"] == "blue")
        assert m["tiles"] in m["colors"].split("-")
    seen = set()
    for p, colour, sq in d["leaders"]:
        assert (p, colour) not in seen
        seen.add((p, colour))
        assert not is_river(sq), f"leader on river at {sq}"
        assert _cell(board, sq) == ".", f"leader on an occupied square {sq}"
        assert any(_cell(board, n) == "r" for n in neighbours(sq)), f"leader at {sq} not next to a red tile"
    for sq in d["treasures"]:
        assert sq in START_TEMPLES and _cell(board, sq) in "r#", f"treasure on {sq}"
    crosses = sum(row.count("x") for row in board)
    assert crosses + sum(d["catastrophes"]) <= 2 * d["players"], "catastrophes: too many on board + held"
    taken = sum(s["treasure"] for s in d["scores"])
    assert taken + len(d["treasures"]) == 10, "treasures on the board + taken must be 10"
    if d["pending"] is None:
        for region in regions(d):
            colours = [(colour) for p, colour, sq in d["leaders"] if sq in region]
            assert len(colours) == len(set(colours)), f"two same-colour leaders in one kingdom {sorted(region)}"


def regions(d):
    """The regions (sets of squares) of a position dict: tiles, flipped tiles and leaders."""
    occupied = {name(r, c) for r in range(11) for c in range(16) if d["board"][r][c] in "rbgk#"}
    occupied |= {sq for _, _, sq in d["leaders"]}
    out, done = [], set()
    for start in sorted(occupied):
        if start in done:
            continue
        region, todo = set(), [start]
        while todo:
            sq = todo.pop()
            if sq in region:
                continue
            region.add(sq)
            todo.extend(n for n in neighbours(sq) if n in occupied and n not in region)
        done |= region
        out.append(region)
    return out


# --- reading a Position ------------------------------------------------------------------

def load(**kwargs):
    """Position.from_json of ``position(**kwargs)``."""
    from tne_ai.position import Position
    return Position.from_json(position(**kwargs))


def legal(p):
    """The legal moves as sorted canonical texts."""
    return sorted(str(m) for m in p.legal_moves())


def at(p, square):
    """The board character of a square (SPEC section 9)."""
    r, c = rc(square)
    return p.to_json()["board"][r][c]


def leaders_on_board(p):
    """Sorted (player, colour, square) of the leaders on the board."""
    return sorted(tuple(x) for x in p.to_json()["leaders"])


def hand_of(p, i):
    h = p.hand(i)
    return {c: h.get(c, 0) for c in COLOURS}


def score(p, i):
    s = p.scores[i]
    return {k: s.get(k, 0) for k in ("red", "blue", "green", "black", "treasure")}


def scores_of(**nonzero):
    """A full score dict: ``scores_of(red=2)``."""
    s = _zero_scores()
    s.update(nonzero)
    return s


def out_of_game(p):
    return dict(p.to_json()["out_of_game"])


def treasures_on_board(p):
    return sorted(p.to_json()["treasures"])


def push_all(p, *moves):
    for m in moves:
        p.push(m)
    return p


def assert_user_error(result, *fragments):
    """A CLI result of a user error: exit 2, exactly one stderr line `tne: error: ...` holding
    every fragment, nothing on stdout, no traceback anywhere."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("tne: error: "), lines[0]
    assert "Traceback" not in result.output
    assert result.stdout == ""
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def redeal_hidden_hands(st, seat, pool, rs):
    """Deal every hand but seat's anew, in place, from ``pool`` (the unseen tiles outside
    the hands, as colour indices) and those hands' own tiles together, hand sizes kept
    (SPEC section 7: the other hands are hidden).  Returns the other seats and the tiles
    left over for the bag, in the order of ``rs``'s permutation."""
    from tne_ai.core import state as S
    others = [q for q in range(int(st[S.PLAYERS])) if q != seat]
    pool = list(pool)
    sizes = {}
    for q in others:
        sizes[q] = int(st[S.HAND + 4 * q:S.HAND + 4 * q + 4].sum())
        for c in range(4):
            pool += [c] * int(st[S.HAND + 4 * q + c])
    pool = list(rs.permutation(pool))
    for q in others:
        st[S.HAND + 4 * q:S.HAND + 4 * q + 4] = 0
        for _ in range(sizes[q]):
            st[S.HAND + 4 * q + pool.pop()] += 1
    return others, pool
