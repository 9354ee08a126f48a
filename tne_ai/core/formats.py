"""The state buffer <-> the JSON interchange formats: positions and game records.

Position files: ``tne-position/1``
===================================

One JSON object (SPEC.md section 9).  Keys, in the order this module writes them:

``format``           ``"tne-position/1"``
``players``          2 to 4
``turn``             the player whose turn it is, 0 to players-1
``actions_left``     2 or 1 (an action in progress counts); 0 once the game is over
``board``            11 strings of 16 characters, row 1 first: ``.`` empty land, ``~`` empty
                     river, ``r g k`` a face-up tile on land, ``b`` a face-up tile on the river,
                     ``#`` a flipped monument tile, ``x`` a catastrophe
``leaders``          ``[player, colour, square]`` per leader on the board (written sorted by
                     player, then colour in the order red, blue, green, black)
``treasures``        the squares of the treasures still on the board (written in square order:
                     A1, B1, ... P1, A2, ...)
``monuments``        ``{"colors": "red-blue", "at": "F4", "tiles": "red"}`` per built monument:
                     ``at`` is the top-left square of its 2x2 block, ``tiles`` the colour the
                     four flipped tiles had (written in the order red-blue, red-green,
                     red-black, blue-green, blue-black, green-black)
``hands``            per player ``{"red": n, "blue": n, "green": n, "black": n}`` or ``null``
                     (unknown to the viewer)
``hand_sizes``       optional: per player the number of tiles in hand.  Needed only when an
                     unknown hand does not hold 6 tiles; written then (for every player)
``catastrophes``     per player the catastrophe tiles still held (0 to 2)
``scores``           per player ``{"red", "blue", "green", "black", "treasure"}``: colour
                     scores 0 to limits.MAX_SCORE (1,000,000), treasures 0 to 10
``bag``              optional: a string of colour letters (``"rkbbg..."``: draws come from its
                     front) or counts ``{"red": n, ...}`` (draws are random).  It may be omitted
                     only when some hand is unknown; then the unseen pool (153 tiles less the
                     board, the monuments' tiles, ``out_of_game`` and the known hands) is
                     shuffled with ``numpy.random.default_rng(seed)`` and dealt: the unknown
                     hands in player order, then ``hidden_discards`` (gone), the rest is a
                     counted bag.  When a bag is given and some hands are unknown, the unknown
                     hands are dealt the same way from the unseen pool less the bag, and what
                     remains must be exactly ``hidden_discards`` tiles.
``out_of_game``      tiles removed from the game by colour (wars, revolts, catastrophes,
                     committed tiles)
``hidden_discards``  tiles discarded face down by swaps (colours unknown)
``pending``          ``null`` between actions, or the decision the action in progress waits
                     for (``actions_left`` still counts that action):

                     - ``{"kind": "revolt", "colour": C, "attacker": P, "defender": Q,
                       "attacker_commit": null | N}``: a leader placed into a kingdom holding a
                       leader of its colour.  The attacker is the player whose turn it is.  While
                       ``attacker_commit`` is ``null`` the attacker must commit, then the
                       defender.  The committed tiles have already left the attacker's hand
                       (they are counted in ``out_of_game``).
                     - ``{"kind": "war-choice", "unifying": SQ}``: the tile on SQ united
                       kingdoms with two or more colours in conflict; the player whose turn it is
                       picks the colour of the next war.
                     - ``{"kind": "war", "unifying": SQ, "colour": C, "attacker": P,
                       "defender": Q, "attacker_commit": null | N}``: a war of colour C around
                       the unifying tile on SQ; commits as for a revolt.
                     - ``{"kind": "monument", "at": SQ}``: the tile just placed on SQ completed a
                       2x2 block of one colour for which a monument is unbuilt; the player whose
                       turn it is builds one or declines.
                     - ``{"kind": "treasure", "player": P}``: P's trader's kingdom holds two or
                       more treasures; P takes one.

                     (C is a full colour name, SQ a square name such as ``"F4"``, P and Q player
                     indices, N 0 to 6.)

The file is UTF-8 JSON (no NaN or Infinity), nested at most limits.MAX_JSON_DEPTH (32)
deep, with integer literals of at most limits.MAX_INT_DIGITS (30) digits; squares and colours
are ASCII.  No other key is accepted.  Everything is checked (row lengths, terrain, leaders next to a
temple, tile and treasure conservation, the pending decision against the board, ...); an
inconsistency raises ``PositionError`` whose message starts with the field at fault.

Game records: ``tne-game/1``
============================

One JSON object:

``format``  ``"tne-game/1"``
``start``   the start position, a ``tne-position/1`` object with every hand known and the bag
            as an ordered string, so that replaying ``moves`` from it is reproducible
``moves``   the moves in the order played, as SPEC section 8 texts (``"tile red F4"``,
            ``"commit 0"``, ...): every action and decision of every player
``result``  ``{"scores": [...], "final": [...], "ranking": [...]}``: per player the score
            object as in ``scores`` above, the four colour totals after adding the treasures
            one at a time to the lowest colour, sorted ascending, and the place (1-based,
            shared places 1, 1, 3), all at the last position of the record (for a truncated
            game: the standing when it was cut)
``meta``    optional, a free object: agents, seed, seconds per move, game id, ``truncated`` ...
            A game that stopped before its end says why: ``truncated`` true (a ply limit cut
            it), ``forfeit`` ``{"seat", "ply", "reason"}`` (an agent could not go on) or
            ``stopped`` ``{"seat", "ply", "reason"}`` (the person in that seat stopped it:
            ``"quit"``, ``"end of input"``, ``"interrupted"``; ``ply`` is the number of
            moves); ``tne play`` saves its record after every move without any of them, so
            an unfinished game with none is one whose process ended without a word (killed).
"""
import json
import math

import numpy as np

from tne_ai.core import board as B
from tne_ai.core import state as S
from tne_ai.errors import NotationError, PositionError
from tne_ai.limits import MAX_PLIES, MAX_SCORE, MAX_SEED, clip
from tne_ai.core.notation import parse_move

FORMAT = "tne-position/1"
GAME_FORMAT = "tne-game/1"
POSITION_KEYS = ("format", "players", "turn", "actions_left", "board", "leaders", "treasures",
                 "monuments", "hands", "hand_sizes", "catastrophes", "scores", "bag",
                 "out_of_game", "hidden_discards", "pending")
OPTIONAL_KEYS = ("hand_sizes", "bag")
SCORE_KEYS = B.COLOURS + ("treasure",)
GAME_KEYS = ("format", "start", "moves", "result", "meta")
RESULT_KEYS = ("scores", "final", "ranking")
PENDING_KEYS = {
    "revolt": ("kind", "colour", "attacker", "defender", "attacker_commit"),
    "war-choice": ("kind", "unifying"),
    "war": ("kind", "unifying", "colour", "attacker", "defender", "attacker_commit"),
    "monument": ("kind", "at"),
    "treasure": ("kind", "player"),
}
BOARD_CHARS = ".~rbgk#x"
TREASURES_TOTAL = len(B.TEMPLE_SQUARES)

_RIVER = frozenset(B.RIVER_SQUARES)
_TEMPLES = frozenset(B.TEMPLE_SQUARES)
_CORNERS = frozenset(B.CORNER_SQUARES)


# --- small checks -----------------------------------------------------------------------------

def _fail(field, message):
    raise PositionError(f"{field}: {message}" if field else message)


def _show(value, depth=0):
    """A short JSON-like text of a (possibly hostile) value for an error message: nesting,
    long strings and huge integers are cut (limits.MAX_ECHO), nothing recurses deeply."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        if value.bit_length() > 64:
            return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
        return str(value)
    if isinstance(value, float):
        return json.dumps(value)
    if isinstance(value, str):
        return json.dumps(clip(value, 60))
    if isinstance(value, (list, tuple, dict)):
        if depth >= 2:
            return "[...]" if not isinstance(value, dict) else "{...}"
        if isinstance(value, dict):
            items = [f"{_show(k, depth + 1)}: {_show(v, depth + 1)}" for k, v in
                     list(value.items())[:6]]
            more = ", ..." if len(value) > 6 else ""
            return clip("{" + ", ".join(items) + more + "}")
        items = [_show(v, depth + 1) for v in list(value)[:6]]
        more = ", ..." if len(value) > 6 else ""
        return clip("[" + ", ".join(items) + more + "]")
    return clip(f"a {type(value).__name__}", 60)


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value, field, lo, hi):
    if not _is_int(value):
        _fail(field, f"expected an integer, got {_show(value)}")
    if value < lo or value > hi:
        _fail(field, f"{_show(value)} is out of range ({lo} to {hi})")
    return int(value)


def _list(value, field, length=None):
    if not isinstance(value, list):
        _fail(field, f"expected a list, got {_show(value)}")
    if length is not None and len(value) != length:
        _fail(field, f"{len(value)} entries, expected {length} (one per player)")
    return value


def _keys(value, field, allowed, required=None):
    """value must be an object whose keys are exactly `allowed` (or `required` plus optional)."""
    if not isinstance(value, dict):
        _fail(field, f"expected an object, got {_show(value)}")
    required = allowed if required is None else required
    for k in value:
        if k not in allowed:
            name = k if isinstance(k, str) else _show(k)
            name = clip(name, 60)
            _fail(f"{field}.{name}" if field else name,
                  f"unknown key (allowed: {', '.join(allowed)})")
    for k in required:
        if k not in value:
            _fail(f"{field}.{k}" if field else k, "missing")
    return value


def _counts(value, field, most):
    """A {colour: count} object with exactly the four colours, each 0 to most[c];
    returns [r, b, g, k]."""
    _keys(value, field, B.COLOURS)
    return [_int(value[c], f"{field}.{c}", 0, int(most[k])) for k, c in enumerate(B.COLOURS)]


def _square(value, field):
    s = B.parse_square(value) if isinstance(value, str) else -1
    if s < 0:
        _fail(field, f"{_show(value)} is not a square (A1 to P11)")
    return s


def _colour(value, field):
    if not isinstance(value, str) or value not in B.COLOURS:
        _fail(field, f"{_show(value)} is not a colour (red, blue, green, black)")
    return B.COLOURS.index(value)


def _name(s):
    return B.square_name(s)


def _set_bit(bb, base, s):
    bb[base + (s >> 6)] |= B.SQUARE_BIT[s]


# --- JSON text --------------------------------------------------------------------------------

def parse_json(data, what):
    """The JSON object in ``data`` (text, UTF-8 bytes or an already parsed object), read by
    tne_ai.core.io.json_reader (nested at most MAX_JSON_DEPTH deep, integer literals of at most
    MAX_INT_DIGITS digits, no NaN or Infinity); a PositionError (JsonError) starting with
    ``what`` otherwise."""
    from tne_ai.core.io.json_reader import check_value, read_json
    if isinstance(data, (str, bytes, bytearray)):
        data = read_json(data, what)
    elif isinstance(data, dict):
        check_value(data, what, numbers=False)
    if not isinstance(data, dict):
        raise PositionError(f"{what}: expected a JSON object, got {type(data).__name__}")
    return data


# --- the ordered bag --------------------------------------------------------------------------

def pack_bag(st, letters):
    """Write an ordered bag (a string of colour letters, next draw first) into st."""
    words = [0] * S.BAG_WORDS
    counts = [0, 0, 0, 0]
    for i, ch in enumerate(letters):
        c = B.COLOUR_LETTERS.index(ch)
        counts[c] += 1
        words[i >> 5] |= c << (2 * (i & 31))
    st.view(np.uint64)[S.BAG:S.BAG + S.BAG_WORDS] = np.array(words, dtype=np.uint64)
    st[S.BAG_ORDERED] = 1
    st[S.BAG_LEN] = len(letters)
    st[S.BAG_COUNT:S.BAG_COUNT + 4] = counts


def bag_letters(st):
    """The tiles of an ordered bag still to be drawn, next draw first, as letters."""
    words = st.view(np.uint64)
    return "".join(B.COLOUR_LETTERS[(int(words[S.BAG + (i >> 5)]) >> (2 * (i & 31))) & 3]
                   for i in range(int(st[S.BAG_LEN])))


# --- reading ----------------------------------------------------------------------------------

def load_position(text_or_dict, seed=0):
    """Same as position_from_dict: a tne-position/1 object or its JSON text."""
    return position_from_dict(text_or_dict, seed=seed)


def position_from_dict(d, seed=0):
    """Parse and check a tne-position/1 object (or its JSON text, or UTF-8 bytes).

    Returns ``(st, known_hands, bag_known)``: the state buffer of tne_ai.core.state, per player
    whether the hand was given, and whether the bag was.  Unknown hands (and, without a bag,
    the bag) are dealt from the unseen pool with ``numpy.random.default_rng(seed)``.
    Raises PositionError naming the field at fault.

    The fields are read in groups, one reader each, in the order of SPEC section 9; each
    reader checks its own field and what it needs of the groups read before it."""
    if not _is_int(seed) or not 0 <= seed <= MAX_SEED:
        raise PositionError(f"seed: {_show(seed)} is not an integer 0 to {MAX_SEED}")
    d = parse_json(d, "position")
    _keys(d, "", POSITION_KEYS, required=[k for k in POSITION_KEYS if k not in OPTIONAL_KEYS])
    n, turn, actions_left = _read_header(d)
    cells = _read_board(d["board"])
    monuments = _read_monuments(d["monuments"], cells)
    treasures = _read_treasures(d["treasures"], cells)
    leaders = _read_leaders(d["leaders"], n, cells)
    hands = _read_hands(d, n)
    catastrophes = _read_catastrophes(d["catastrophes"], n, cells)
    scores = _read_scores(d["scores"], n, treasures)
    out_of_game = _counts(d["out_of_game"], "out_of_game", B.TILES_PER_COLOUR)
    hidden = _int(d["hidden_discards"], "hidden_discards", 0, B.TOTAL_TILES)
    bag = _read_bag(d, hands)
    pool = _check_tiles(cells, monuments, hands, out_of_game, hidden, bag)
    pending = _read_pending(d["pending"], n, turn, actions_left, cells, leaders, monuments)

    st = S.empty_state()
    st[S.PLAYERS] = n
    st[S.TURN] = turn
    st[S.ACTIONS_LEFT] = actions_left
    _put_board(st, cells, monuments, treasures, leaders)
    for i in range(n):
        if hands.counts[i] is not None:
            st[S.HAND + 4 * i:S.HAND + 4 * i + 4] = hands.counts[i]
        st[S.CATASTROPHES + i] = catastrophes[i]
        st[S.SCORE + 5 * i:S.SCORE + 5 * i + 5] = scores[i]
    st[S.OUT_OF_GAME:S.OUT_OF_GAME + 4] = out_of_game
    st[S.HIDDEN_DISCARDS] = hidden
    for field, value in pending.items():
        st[field] = value
    if bag.letters is not None:
        pack_bag(st, bag.letters)
    elif bag.counts is not None:
        st[S.BAG_COUNT:S.BAG_COUNT + 4] = bag.counts
    if not all(hands.known):
        _deal_unknown(st, hands, hidden, bag, pool, seed)
    _check_kingdoms(st)
    return st, hands.known, bag.known


def _read_header(d):
    """format, players, turn, actions_left."""
    if d["format"] != FORMAT:
        _fail("format", f"{_show(d['format'])}, expected \"{FORMAT}\"")
    n = _int(d["players"], "players", 2, 4)
    turn = _int(d["turn"], "turn", 0, n - 1)
    actions_left = _int(d["actions_left"], "actions_left", 0, 2)
    return n, turn, actions_left


class _Hands:
    """hands and hand_sizes: per player the counts (None: unknown), whether known, size."""

    def __init__(self, counts, sizes):
        self.counts = counts
        self.known = [h is not None for h in counts]
        self.sizes = sizes


def _read_hands(d, n):
    hands = _list(d["hands"], "hands", n)
    counts = [_counts(h, f"hands[{i}]", [B.HAND_SIZE] * 4) if h is not None else None
              for i, h in enumerate(hands)]
    for i, h in enumerate(counts):
        if h is not None and sum(h) > B.HAND_SIZE:
            _fail(f"hands[{i}]", f"{sum(h)} tiles, at most {B.HAND_SIZE}")
    sizes = [sum(h) if h is not None else B.HAND_SIZE for h in counts]
    if "hand_sizes" in d:
        given = _list(d["hand_sizes"], "hand_sizes", n)
        for i, v in enumerate(given):
            _int(v, f"hand_sizes[{i}]", 0, B.HAND_SIZE)
            if counts[i] is not None and v != sizes[i]:
                _fail(f"hand_sizes[{i}]", f"{v}, but hands[{i}] holds {sizes[i]} tiles")
        sizes = [int(v) for v in given]
    return _Hands(counts, sizes)


def _read_catastrophes(value, n, cells):
    catastrophes = _list(value, "catastrophes", n)
    for i, v in enumerate(catastrophes):
        _int(v, f"catastrophes[{i}]", 0, B.CATASTROPHES_PER_PLAYER)
    placed = B.CATASTROPHES_PER_PLAYER * n - sum(catastrophes)
    on_board = sum(ch == "x" for ch in cells)
    if on_board > placed:
        _fail("catastrophes", f"{on_board} catastrophes (x) on the board, but the players "
                              f"hold {sum(catastrophes)} of {B.CATASTROPHES_PER_PLAYER * n}, "
                              f"so at most {placed} were placed")
    return [int(v) for v in catastrophes]


def _read_scores(value, n, treasures):
    """Per player [red, blue, green, black, treasure]; colour scores 0 to MAX_SCORE
    (limits.py), treasures taken 0 to the 10 there are."""
    scores = _list(value, "scores", n)
    out = []
    for i, sc in enumerate(scores):
        _keys(sc, f"scores[{i}]", SCORE_KEYS)
        out.append([_int(sc[k], f"scores[{i}].{k}", 0,
                         TREASURES_TOTAL if k == "treasure" else MAX_SCORE) for k in SCORE_KEYS])
    taken = sum(sc[4] for sc in out)
    if taken + len(treasures) > TREASURES_TOTAL:
        _fail("treasures", f"{len(treasures)} on the board and {taken} taken (scores), "
                           f"but there are only {TREASURES_TOTAL}")
    return out


class _Bag:
    """bag: ``known`` whether given; ``letters`` an ordered bag or ``counts`` [r, b, g, k]."""

    def __init__(self, known, letters=None, counts=None):
        self.known = known
        self.letters = letters
        self.counts = counts if letters is None else \
            [letters.count(ch) for ch in B.COLOUR_LETTERS]

    def contents(self):
        return self.counts if self.known else [0, 0, 0, 0]


def _read_bag(d, hands):
    if "bag" not in d:
        if all(hands.known):
            _fail("bag", "missing; the bag may be omitted only when some hand is unknown (null)")
        return _Bag(False)
    bag = d["bag"]
    if isinstance(bag, str):
        for i, ch in enumerate(bag):
            if ch not in B.COLOUR_LETTERS:
                _fail("bag", f"character {i + 1} is {ch!r}, expected colour letters "
                             f"r, b, g, k")
        if len(bag) > S.MAX_BAG:
            _fail("bag", f"{len(bag)} tiles, at most {S.MAX_BAG}")
        return _Bag(True, letters=bag)
    if isinstance(bag, dict):
        return _Bag(True, counts=_counts(bag, "bag", B.TILES_PER_COLOUR))
    _fail("bag", f"expected a string of colour letters or a counts object, got {_show(bag)}")


def _check_tiles(cells, monuments, hands, out_of_game, hidden, bag):
    """Tile conservation (SPEC section 9: 153 tiles, by colour); returns the unseen pool by
    colour (what the unknown hands, the hidden discards and an omitted bag hold)."""
    seen = [cells.count(ch) for ch in B.COLOUR_LETTERS]
    in_monuments = [0, 0, 0, 0]
    for at, tiles in monuments.values():
        in_monuments[tiles] += 4
    in_hands = [sum(h[c] for h in hands.counts if h is not None) for c in range(4)]
    in_bag = bag.contents()
    for c in range(4):
        total = seen[c] + in_monuments[c] + in_hands[c] + out_of_game[c] + in_bag[c]
        if total > B.TILES_PER_COLOUR[c]:
            _fail("tiles", f"{total} {B.COLOURS[c]} tiles (board {seen[c]}, monuments "
                           f"{in_monuments[c]}, known hands {in_hands[c]}, out_of_game "
                           f"{out_of_game[c]}, bag {in_bag[c]}), but only "
                           f"{B.TILES_PER_COLOUR[c]} exist")
    unknown_sizes = sum(s for s, k in zip(hands.sizes, hands.known) if not k)
    parts = [("board", sum(seen)), ("monuments", sum(in_monuments)),
             ("known hands", sum(in_hands)), ("unknown hands", unknown_sizes),
             ("out_of_game", sum(out_of_game)), ("hidden_discards", hidden)]
    if bag.known:
        parts.append(("bag", sum(in_bag)))
    grand = sum(v for _, v in parts)
    detail = " + ".join(f"{name} {v}" for name, v in parts)
    if bag.known and grand != B.TOTAL_TILES:
        _fail("tiles", f"{detail} = {grand}, expected exactly {B.TOTAL_TILES}")
    if grand > B.TOTAL_TILES:
        _fail("tiles", f"{detail} = {grand}, more than the {B.TOTAL_TILES} that exist")
    return [int(B.TILES_PER_COLOUR[c]) - seen[c] - in_monuments[c] - in_hands[c]
            - out_of_game[c] - in_bag[c] for c in range(4)]


def _put_board(st, cells, monuments, treasures, leaders):
    """The board, monuments, treasures and leaders into st's bitboards."""
    bb = st.view(np.uint64)
    for s, ch in enumerate(cells):
        if ch in "rbgk":
            _set_bit(bb, S.BB_TILE + 3 * B.COLOUR_LETTERS.index(ch), s)
        elif ch == "#":
            _set_bit(bb, S.BB_FLIP, s)
        elif ch == "x":
            _set_bit(bb, S.BB_CATA, s)
    for s in treasures:
        _set_bit(bb, S.BB_TREASURE, s)
    for (p, c), s in leaders.items():
        st[S.LEADER_SQ + 4 * p + c] = s
        _set_bit(bb, S.BB_LEADER, s)
    for m, (at, tiles) in monuments.items():
        st[S.MON_SQ + m] = at
        st[S.MON_TILES + m] = tiles


def _deal_unknown(st, hands, hidden, bag, pool, seed):
    """Deal the unknown hands (in player order), then the hidden discards (gone), from the
    shuffled unseen pool; without a bag the rest is a counted bag."""
    tiles = np.repeat(np.arange(4), pool)
    np.random.default_rng(seed).shuffle(tiles)
    at = 0
    for i, size in enumerate(hands.sizes):
        if not hands.known[i]:
            st[S.HAND + 4 * i:S.HAND + 4 * i + 4] = np.bincount(tiles[at:at + size], minlength=4)
            at += size
    at += hidden
    if not bag.known:
        st[S.BAG_COUNT:S.BAG_COUNT + 4] = np.bincount(tiles[at:], minlength=4)


def _read_board(rows):
    _list(rows, "board", None)
    if len(rows) != B.ROWS:
        _fail("board", f"{len(rows)} rows, expected {B.ROWS}")
    cells = []
    for r, row in enumerate(rows):
        if not isinstance(row, str):
            _fail("board", f"row {r + 1} is {_show(row)}, expected a string")
        if len(row) != B.COLS:
            _fail("board", f"row {r + 1} has {len(row)} squares, expected {B.COLS}")
        for c, ch in enumerate(row):
            s = r * B.COLS + c
            where = f"square {_name(s)}"
            river = s in _RIVER
            if ch not in BOARD_CHARS:
                _fail("board", f"{where} is {ch!r}, expected one of {BOARD_CHARS}")
            if ch == "." and river:
                _fail("board", f"{where} is river, so empty it is '~', not '.'")
            if ch == "~" and not river:
                _fail("board", f"{where} is land, so empty it is '.', not '~'")
            if ch == "b" and not river:
                _fail("board", f"{where} is land, but holds a blue tile (blue goes on the river)")
            if ch in "rgk" and river:
                _fail("board", f"{where} is river, but holds a "
                               f"{B.COLOURS[B.COLOUR_LETTERS.index(ch)]} tile "
                               f"(red, green and black go on land)")
            cells.append(ch)
    return cells


def _read_monuments(value, cells):
    """{monument index: (top-left square, colour of its tiles)}."""
    _list(value, "monuments")
    out = {}
    covered = {}
    for i, mon in enumerate(value):
        field = f"monuments[{i}]"
        _keys(mon, field, ("colors", "at", "tiles"))
        if mon["colors"] not in B.MONUMENT_NAMES:
            _fail(f"{field}.colors", f"{_show(mon['colors'])} is not a monument "
                                     f"(one of {', '.join(B.MONUMENT_NAMES)})")
        m = B.MONUMENT_NAMES.index(mon["colors"])
        if m in out:
            _fail(f"{field}.colors", f"monument {mon['colors']} is listed twice")
        at = _square(mon["at"], f"{field}.at")
        if at % B.COLS == B.COLS - 1 or at // B.COLS == B.ROWS - 1:
            _fail(f"{field}.at", f"{_name(at)}: its 2x2 block would leave the board "
                                 f"(at is the top-left square)")
        tiles = _colour(mon["tiles"], f"{field}.tiles")
        if tiles not in B.MONUMENTS[m]:
            _fail(f"{field}.tiles", f"{mon['tiles']} is not a colour of {mon['colors']}")
        for s in (at, at + 1, at + B.COLS, at + B.COLS + 1):
            if cells[s] != "#":
                _fail(f"{field}.at", f"square {_name(s)} of its block is {cells[s]!r} on the "
                                     f"board, expected '#'")
            if s in covered:
                _fail(f"{field}.at", f"square {_name(s)} is also part of monument "
                                     f"{B.MONUMENT_NAMES[covered[s]]}")
            if (s in _RIVER) != (tiles == B.BLUE):
                _fail(f"{field}.tiles", f"{mon['tiles']} tiles cannot lie on square {_name(s)} "
                                        f"({'river' if s in _RIVER else 'land'})")
            covered[s] = m
        out[m] = (at, tiles)
    for s, ch in enumerate(cells):
        if ch == "#" and s not in covered:
            _fail("board", f"square {_name(s)} is a flipped monument tile '#' but no monument "
                           f"covers it")
    return out


def _read_treasures(value, cells):
    _list(value, "treasures")
    out = []
    for i, name in enumerate(value):
        field = f"treasures[{i}]"
        s = _square(name, field)
        if s in out:
            _fail(field, f"{_name(s)} is listed twice")
        if s not in _TEMPLES:
            _fail(field, f"{_name(s)} is not a starting temple square (treasures start on "
                         f"{', '.join(_name(t) for t in B.TEMPLE_SQUARES)})")
        if cells[s] not in "r#":
            _fail(field, f"{_name(s)} is {cells[s]!r} on the board, but a treasure lies on a "
                         f"temple 'r' or a monument tile '#'")
        out.append(s)
    return out


def _read_leaders(value, n, cells):
    """{(player, colour): square}."""
    _list(value, "leaders")
    out = {}
    where = {}
    for i, entry in enumerate(value):
        field = f"leaders[{i}]"
        if not isinstance(entry, list) or len(entry) != 3:
            _fail(field, f"{_show(entry)}, expected [player, colour, square]")
        p = _int(entry[0], field + " player", 0, n - 1)
        c = _colour(entry[1], field + " colour")
        s = _square(entry[2], field + " square")
        if (p, c) in out:
            _fail(field, f"player {p} has two {B.COLOURS[c]} leaders on the board")
        if s in where:
            _fail(field, f"{_name(s)} already holds leaders[{where[s]}]")
        if s in _RIVER:
            _fail(field, f"{_name(s)} is a river square; leaders stand on land")
        if cells[s] != ".":
            _fail(field, f"{_name(s)} is {cells[s]!r} on the board; a leader stands on an empty "
                         f"land square '.'")
        if not any(cells[t] == "r" for t in B.NEIGHBOURS[s] if t >= 0):
            _fail(field, f"{_name(s)} is not next to a face-up red tile (temple)")
        out[(p, c)] = s
        where[s] = i
    return out


def _block_colours(cells, s):
    """Colours of the 2x2 blocks of four face-up tiles of one colour that hold square s."""
    out = set()
    r, c = divmod(s, B.COLS)
    for top in (r - 1, r):
        for left in (c - 1, c):
            if 0 <= top < B.ROWS - 1 and 0 <= left < B.COLS - 1:
                t = top * B.COLS + left
                block = {cells[t], cells[t + 1], cells[t + B.COLS], cells[t + B.COLS + 1]}
                if len(block) == 1 and block <= set("rbgk"):
                    out.add(B.COLOUR_LETTERS.index(block.pop()))
    return out


def _read_pending(value, n, turn, actions_left, cells, leaders, monuments):
    """The state fields set by the pending decision: {offset: value}."""
    fields = {S.PHASE: S.PH_ACTION, S.TO_ACT: turn}
    if value is None:
        if actions_left == 0:
            fields[S.PHASE] = S.PH_OVER
        return fields
    if not isinstance(value, dict):
        _fail("pending", f"expected null or an object, got {_show(value)}")
    kind = value.get("kind")
    if not isinstance(kind, str) or kind not in PENDING_KEYS:
        _fail("pending.kind", f"{_show(kind)}, expected one of {', '.join(PENDING_KEYS)}")
    _keys(value, "pending", PENDING_KEYS[kind])
    if actions_left == 0:
        _fail("pending", f"a {kind} is pending but actions_left is 0 (the game is over)")
    if kind in ("revolt", "war"):
        c = _colour(value["colour"], "pending.colour")
        att = _int(value["attacker"], "pending.attacker", 0, n - 1)
        dfn = _int(value["defender"], "pending.defender", 0, n - 1)
        commit = value["attacker_commit"]
        if commit is not None:
            _int(commit, "pending.attacker_commit", 0, S.MAX_COMMIT)
        if att == dfn:
            _fail("pending.defender", f"the attacker and the defender are both player {att}")
        for role, p in (("attacker", att), ("defender", dfn)):
            if (p, c) not in leaders:
                _fail(f"pending.{role}", f"player {p} has no {B.COLOURS[c]} leader on the board")
        if kind == "revolt" and att != turn:
            _fail("pending.attacker", f"player {att}, but the attacker of a revolt is the player "
                                      f"whose turn it is ({turn})")
        if kind == "war" and (att - turn) % n > (dfn - turn) % n:
            _fail("pending.attacker", f"player {att}, but player {dfn} comes first clockwise "
                                      f"from player {turn}, whose turn it is")
        fields.update({S.CF_COLOUR: c, S.CF_ATTACKER: att, S.CF_DEFENDER: dfn,
                       S.CF_COMMIT: -1 if commit is None else commit,
                       S.TO_ACT: att if commit is None else dfn,
                       S.PHASE: S.PH_REVOLT if kind == "revolt" else S.PH_WAR})
    if kind in ("war-choice", "war"):
        u = _square(value["unifying"], "pending.unifying")
        if cells[u] not in "rbgk":
            _fail("pending.unifying", f"{_name(u)} is {cells[u]!r} on the board, expected the "
                                      f"face-up unifying tile")
        fields.update({S.UNIFY_SQ: u, S.PLACED_SQ: u})
        if kind == "war-choice":
            fields[S.PHASE] = S.PH_WAR_CHOICE
    if kind == "monument":
        at = _square(value["at"], "pending.at")
        free = {c for m, pair in enumerate(B.MONUMENTS) if m not in monuments for c in pair}
        if not _block_colours(cells, at) & free:
            _fail("pending.at", f"{_name(at)} is in no 2x2 block of four face-up tiles of one "
                                f"colour with an unbuilt monument of that colour")
        fields.update({S.PHASE: S.PH_MONUMENT, S.PLACED_SQ: at})
    if kind == "treasure":
        p = _int(value["player"], "pending.player", 0, n - 1)
        fields.update({S.PHASE: S.PH_TREASURE, S.TO_ACT: p})
    return fields


def _leader_pairs(st, exclude_sq):
    """Pairs of same-colour leaders in one kingdom: [(colour, p, q)] (the engine's labels)."""
    from tne_ai.core.rules.kingdoms import MAX_KINGDOMS, kingdom_of, label
    bb = st.view(np.uint64)
    kmask = np.empty((MAX_KINGDOMS, 3), dtype=np.uint64)
    nk = label(bb, exclude_sq, kmask)
    n = int(st[S.PLAYERS])
    pairs = []
    for c in range(4):
        for p in range(n):
            sp = int(st[S.LEADER_SQ + 4 * p + c])
            for q in range(p + 1, n):
                sq = int(st[S.LEADER_SQ + 4 * q + c])
                if sp >= 0 and sq >= 0 and kingdom_of(kmask, nk, sp) == kingdom_of(kmask, nk, sq):
                    pairs.append((c, p, q))
    return pairs


def _describe(pairs):
    return "; ".join(f"the {B.COLOURS[c]} leaders of players {p} and {q}" for c, p, q in pairs)


def _check_kingdoms(st):
    """Checks that need kingdoms: leader clashes, the pending conflict, owed treasures."""
    from tne_ai.core.rules.apply import treasure_taker, war_conflicts
    from tne_ai.core.rules.kingdoms import MAX_KINGDOMS, kingdom_clash
    phase = int(st[S.PHASE])
    bb = st.view(np.uint64)
    if phase in (S.PH_ACTION, S.PH_OVER, S.PH_MONUMENT, S.PH_TREASURE):
        if kingdom_clash(st):
            _fail("leaders", f"{_describe(_leader_pairs(st, -1))} are in one kingdom while no "
                             f"conflict is pending")
    if phase in (S.PH_ACTION, S.PH_OVER):
        q = int(treasure_taker(st))
        if q >= 0:
            _fail("treasures", f"the kingdom of player {q}'s trader holds 2 or more treasures, "
                               f"but no treasure is pending")
    if phase == S.PH_TREASURE:
        q = int(treasure_taker(st))
        p = int(st[S.TO_ACT])
        if q != p:
            owed = ("no trader's kingdom holds 2 or more treasures" if q < 0 else
                    f"player {q} must take a treasure first")
            _fail("pending.player", f"player {p} cannot be taking a treasure: {owed}")
    if phase == S.PH_REVOLT:
        c, att, dfn = (int(st[S.CF_COLOUR]), int(st[S.CF_ATTACKER]), int(st[S.CF_DEFENDER]))
        pairs = _leader_pairs(st, -1)
        if (c, min(att, dfn), max(att, dfn)) not in pairs:
            _fail("pending", f"revolt: the {B.COLOURS[c]} leaders of players {att} and {dfn} "
                             f"are not in one kingdom")
        others = [x for x in pairs if x != (c, min(att, dfn), max(att, dfn))]
        if others:
            _fail("leaders", f"{_describe(others)} are in one kingdom outside the pending revolt")
    if phase in (S.PH_WAR_CHOICE, S.PH_WAR):
        u = int(st[S.UNIFY_SQ])
        pairs = _leader_pairs(st, u)
        if pairs:
            _fail("leaders", f"{_describe(pairs)} are in one kingdom (the unifying tile on "
                             f"{_name(u)} left out)")
        mask = int(war_conflicts(st, bb, np.empty((MAX_KINGDOMS, 3), dtype=np.uint64)))
        in_conflict = [B.COLOURS[c] for c in range(4) if mask >> c & 1]
        found = ", ".join(in_conflict) or "none"
        if phase == S.PH_WAR_CHOICE and len(in_conflict) < 2:
            _fail("pending", f"war-choice: two or more colours must be in conflict around "
                             f"{_name(u)}; in conflict: {found}")
        if phase == S.PH_WAR:
            c = int(st[S.CF_COLOUR])
            if not mask >> c & 1:
                _fail("pending.colour", f"{B.COLOURS[c]} is not in conflict around {_name(u)}; "
                                        f"in conflict: {found}")
            _check_war_sides(st, u)


def _check_war_sides(st, u):
    """The war's attacker and defender lead the colour in two kingdoms next to the tile."""
    from tne_ai.core.rules.kingdoms import MAX_KINGDOMS, kingdom_of, label
    bb = st.view(np.uint64)
    kmask = np.empty((MAX_KINGDOMS, 3), dtype=np.uint64)
    nk = label(bb, u, kmask)
    c = int(st[S.CF_COLOUR])
    touching = set()
    for t in B.NEIGHBOURS[u]:
        if t >= 0:
            k = kingdom_of(kmask, nk, int(t))
            if k >= 0:
                touching.add(k)
    for role, off in (("attacker", S.CF_ATTACKER), ("defender", S.CF_DEFENDER)):
        p = int(st[off])
        if kingdom_of(kmask, nk, int(st[S.LEADER_SQ + 4 * p + c])) not in touching:
            _fail(f"pending.{role}", f"player {p}'s {B.COLOURS[c]} leader is not in a kingdom "
                                     f"next to the unifying tile on {_name(u)}")


# --- writing ----------------------------------------------------------------------------------

def pending_dict(st):
    """The pending decision of st as a `pending` object, or None between actions."""
    phase = int(st[S.PHASE])
    if phase in (S.PH_ACTION, S.PH_OVER):
        return None
    if phase == S.PH_WAR_CHOICE:
        return {"kind": "war-choice", "unifying": _name(int(st[S.UNIFY_SQ]))}
    if phase in (S.PH_REVOLT, S.PH_WAR):
        commit = int(st[S.CF_COMMIT])
        out = {"kind": "revolt" if phase == S.PH_REVOLT else "war"}
        if phase == S.PH_WAR:
            out["unifying"] = _name(int(st[S.UNIFY_SQ]))
        out.update({"colour": B.COLOURS[int(st[S.CF_COLOUR])],
                    "attacker": int(st[S.CF_ATTACKER]), "defender": int(st[S.CF_DEFENDER]),
                    "attacker_commit": None if commit < 0 else commit})
        return out
    if phase == S.PH_MONUMENT:
        return {"kind": "monument", "at": _name(int(st[S.PLACED_SQ]))}
    if phase == S.PH_TREASURE:
        return {"kind": "treasure", "player": int(st[S.TO_ACT])}
    raise ValueError(f"state phase {phase} is not a phase")


_SQUARE_WORD = np.arange(B.SQUARES) >> 6
_SQUARE_SHIFT = (np.arange(B.SQUARES) & 63).astype(np.uint64)
_EMPTY_CELLS = np.frombuffer("".join("~" if ch == "~" else "." for row in B.MAP for ch in row).encode(),
                             dtype=np.uint8)


def square_flags(st, base):
    """One bool per square: the bitboard at st[base:base + 3]."""
    words = st.view(np.uint64)
    return ((words[base + _SQUARE_WORD] >> _SQUARE_SHIFT) & np.uint64(1)).astype(bool)


def board_cells(st):
    """The board as 176 characters, square order: ``.`` empty land, ``~`` empty river,
    ``r b g k`` a face-up tile, ``#`` a flipped monument tile, ``x`` a catastrophe."""
    cells = _EMPTY_CELLS.copy()
    for c in range(4):
        cells[square_flags(st, S.BB_TILE + 3 * c)] = ord(B.COLOUR_LETTERS[c])
    cells[square_flags(st, S.BB_FLIP)] = ord("#")
    cells[square_flags(st, S.BB_CATA)] = ord("x")
    return cells.tobytes().decode()


def board_rows(st):
    """The `board` strings of st."""
    text = board_cells(st)
    return [text[r * B.COLS:(r + 1) * B.COLS] for r in range(B.ROWS)]


def position_to_dict(st, known_hands, bag_known):
    """The tne-position/1 object of st: hands with known_hands[i] False are written null,
    the bag only when bag_known (or when every hand is known, since then it must be given).
    position_from_dict(position_to_dict(st, k, b)) rebuilds st exactly when the bag is written."""
    n = int(st[S.PLAYERS])
    if st[S.BAG_ORDERED] == S.BAG_EXTERNAL and st[S.DRAWS_OWED:S.DRAWS_OWED + 4].any():
        raise PositionError("bag: draws are owed to an outside source (a chance node); settle "
                            "them before saving the position")
    known = [bool(known_hands[i]) for i in range(n)]
    hands = [{c: int(st[S.HAND + 4 * i + k]) for k, c in enumerate(B.COLOURS)} if known[i]
             else None for i in range(n)]
    sizes = [int(st[S.HAND + 4 * i:S.HAND + 4 * i + 4].sum()) for i in range(n)]
    d = {
        "format": FORMAT,
        "players": n,
        "turn": int(st[S.TURN]),
        "actions_left": int(st[S.ACTIONS_LEFT]),
        "board": board_rows(st),
        "leaders": [[p, B.COLOURS[c], _name(int(st[S.LEADER_SQ + 4 * p + c]))]
                    for p in range(n) for c in range(4) if st[S.LEADER_SQ + 4 * p + c] >= 0],
        "treasures": [_name(int(s)) for s in np.flatnonzero(square_flags(st, S.BB_TREASURE))],
        "monuments": [{"colors": B.MONUMENT_NAMES[m], "at": _name(int(st[S.MON_SQ + m])),
                       "tiles": B.COLOURS[int(st[S.MON_TILES + m])]}
                      for m in range(6) if st[S.MON_SQ + m] >= 0],
        "hands": hands,
    }
    if any(not known[i] and sizes[i] != B.HAND_SIZE for i in range(n)):
        d["hand_sizes"] = sizes
    d["catastrophes"] = [int(st[S.CATASTROPHES + i]) for i in range(n)]
    d["scores"] = [{k: int(st[S.SCORE + 5 * i + j]) for j, k in enumerate(SCORE_KEYS)}
                   for i in range(n)]
    if bag_known or all(known):
        if st[S.BAG_ORDERED] == 1:
            d["bag"] = bag_letters(st)
        else:
            d["bag"] = {c: int(st[S.BAG_COUNT + k]) for k, c in enumerate(B.COLOURS)}
    d["out_of_game"] = {c: int(st[S.OUT_OF_GAME + k]) for k, c in enumerate(B.COLOURS)}
    d["hidden_discards"] = int(st[S.HIDDEN_DISCARDS])
    d["pending"] = pending_dict(st)
    return d


def position_file_text(d):
    """The text of a position file for the tne-position/1 object ``d`` (`tne new`, `tne
    apply`, `tne replay --json`): one top-level key a line, one list item (a board row, a
    hand...) a line, the object's own key order; no final newline."""
    def value(v):
        if isinstance(v, list) and v:
            return "[\n" + ",\n".join("    " + json.dumps(x) for x in v) + "\n  ]"
        return json.dumps(v)
    return "{\n" + ",\n".join(f"  {json.dumps(k)}: {value(v)}" for k, v in d.items()) + "\n}"


# the fields a seat's view copies from the state as they are (the rest follows from these)
_VIEW_FIELDS = ((S.BB_TILE, S.BB_LEADER + 3), (S.LEADER_SQ, S.LEADER_SQ + 16),
                (S.CATASTROPHES, S.CATASTROPHES + 4), (S.SCORE, S.SCORE + 20),
                (S.MON_SQ, S.MON_SQ + 6), (S.MON_TILES, S.MON_TILES + 6),
                (S.OUT_OF_GAME, S.OUT_OF_GAME + 4), (S.HIDDEN_DISCARDS, S.HIDDEN_DISCARDS + 1),
                (S.PLAYERS, S.ACTIONS_LEFT + 1))


def view_state(st, seat, seed=0):
    """The state as ``seat`` sees it (None: a watcher, who sees no hand): what the
    tne-position/1 object of ``position_to_dict(st, [i == seat ...], False)`` holds, made
    from st directly.  The other hands are a guess dealt from the tiles seat cannot see with
    ``numpy.random.default_rng(seed)``, then the hidden discards, and the rest is a counted
    bag, exactly as ``position_from_dict`` deals them from that object."""
    n = int(st[S.PLAYERS])
    if st[S.BAG_ORDERED] == S.BAG_EXTERNAL and st[S.DRAWS_OWED:S.DRAWS_OWED + 4].any():
        raise PositionError("bag: draws are owed to an outside source (a chance node); settle "
                            "them before making a seat's view")
    view = S.empty_state()
    for lo, hi in _VIEW_FIELDS:
        view[lo:hi] = st[lo:hi]
    # the pending decision's fields, as position_from_dict sets them (_read_pending)
    turn, phase = int(st[S.TURN]), int(st[S.PHASE])
    view[S.PHASE], view[S.TO_ACT] = S.PH_ACTION, turn
    if phase in (S.PH_ACTION, S.PH_OVER):
        if int(st[S.ACTIONS_LEFT]) == 0:
            view[S.PHASE] = S.PH_OVER
    else:
        view[S.PHASE] = phase
    if phase in (S.PH_REVOLT, S.PH_WAR):
        commit = int(st[S.CF_COMMIT])
        view[S.CF_COLOUR:S.CF_COMMIT + 1] = st[S.CF_COLOUR:S.CF_COMMIT + 1]
        view[S.CF_COMMIT] = max(commit, -1)
        view[S.TO_ACT] = st[S.CF_ATTACKER] if commit < 0 else st[S.CF_DEFENDER]
    if phase in (S.PH_WAR_CHOICE, S.PH_WAR):
        view[S.UNIFY_SQ] = view[S.PLACED_SQ] = st[S.UNIFY_SQ]
    if phase == S.PH_MONUMENT:
        view[S.PLACED_SQ] = st[S.PLACED_SQ]
    if phase == S.PH_TREASURE:
        view[S.TO_ACT] = st[S.TO_ACT]
    # the hands: seat's own as it is, the others dealt from the unseen tiles
    counts = [[int(x) for x in st[S.HAND + 4 * i:S.HAND + 4 * i + 4]] if i == seat else None
              for i in range(n)]
    sizes = [int(st[S.HAND + 4 * i:S.HAND + 4 * i + 4].sum()) for i in range(n)]
    for i, h in enumerate(counts):
        if h is not None:
            view[S.HAND + 4 * i:S.HAND + 4 * i + 4] = h
    cells = board_cells(st)
    pool = []
    for c, letter in enumerate(B.COLOUR_LETTERS):
        in_monuments = 4 * sum(1 for m in range(6)
                               if st[S.MON_SQ + m] >= 0 and st[S.MON_TILES + m] == c)
        in_hand = sum(h[c] for h in counts if h is not None)
        pool.append(int(B.TILES_PER_COLOUR[c]) - cells.count(letter) - in_monuments - in_hand
                    - int(st[S.OUT_OF_GAME + c]))
    _deal_unknown(view, _Hands(counts, sizes), int(st[S.HIDDEN_DISCARDS]), _Bag(False), pool,
                  seed)
    return view


# --- game records -----------------------------------------------------------------------------

def game_result(scores):
    """The `result` object of a game record from per-player score objects: the final values
    and places come from the engine's scoring kernels (SPEC section 6)."""
    from tne_ai.core.rules.scoring import final_values, ranking
    scores = [{k: int(sc[k]) for k in SCORE_KEYS} for sc in scores]
    st = S.empty_state()
    st[S.PLAYERS] = len(scores)
    for p, sc in enumerate(scores):
        st[S.SCORE + 5 * p:S.SCORE + 5 * p + 5] = [sc[k] for k in SCORE_KEYS]
    out = np.empty(4, dtype=np.int64)
    finals = []
    for p in range(len(scores)):
        final_values(st, p, out)
        finals.append(out.tolist())
    places = np.empty(4, dtype=np.int64)
    ranking(st, places)
    return {"scores": scores, "final": finals, "ranking": places[:len(scores)].tolist()}


def game_record(start_dict, moves, final, meta=None):
    """A tne-game/1 record: the start position (every hand known, ordered bag), the moves as
    texts, the result and a free meta object.

    ``final`` is the last position of the game (a tne-position/1 object, whose scores give
    the result) or a ready ``result`` object ``{"scores", "final", "ranking"}``.  The record
    is checked as load_game_record checks it."""
    if isinstance(final, dict) and final.get("format") == FORMAT:
        try:
            position_from_dict(final)
        except PositionError as e:
            raise PositionError(f"final.{e}") from None
        result = game_result(final["scores"])
    else:
        result = final
    record = {
        "format": GAME_FORMAT,
        "start": start_dict,
        "moves": [str(m) for m in moves],
        "result": result,
        "meta": dict(meta) if meta is not None else {},
    }
    return load_game_record(record)


def load_game_record(text_or_dict):
    """Check a tne-game/1 record (object or JSON text) and return it as a dict.

    Checks: the format, that ``start`` is a valid position with every hand known and an
    ordered bag, that every move parses, and that ``result`` is consistent (final values from
    the scores, places from the final values).  The moves are not replayed here (Position
    does that).  Raises PositionError naming the field."""
    rec = parse_json(text_or_dict, "game")
    if isinstance(rec, dict) and rec.get("format") == FORMAT:  # the format first
        _fail("format", f"\"{FORMAT}\": this is a position, not a game record "
                        "(tne show, tne legal and tne bestmove read positions)")
    _keys(rec, "", GAME_KEYS, required=("format", "start", "moves", "result"))
    if rec["format"] != GAME_FORMAT:
        _fail("format", f"{_show(rec['format'])}, expected \"{GAME_FORMAT}\"")
    start = rec["start"]
    if not isinstance(start, dict):
        _fail("start", f"expected a tne-position/1 object, got {_show(start)}")
    try:
        st, known, _ = position_from_dict(start)
    except PositionError as e:
        raise PositionError(f"start.{e}") from None
    if not isinstance(start.get("bag"), str):
        _fail("start.bag", "a game record's start needs the bag as an ordered string")
    if not all(known):
        _fail("start.hands", "a game record's start needs every hand known")
    n = int(st[S.PLAYERS])
    _list(rec["moves"], "moves")
    if len(rec["moves"]) > MAX_PLIES:
        _fail("moves", f"{len(rec['moves'])} moves, at most {MAX_PLIES}")
    for i, m in enumerate(rec["moves"]):
        if not isinstance(m, str):
            _fail(f"moves[{i}]", f"expected a move text, got {_show(m)}")
        try:
            parse_move(m)
        except NotationError as e:
            _fail(f"moves[{i}]", str(e))
    result = rec["result"]
    _keys(result, "result", RESULT_KEYS)
    _list(result["scores"], "result.scores", n)
    for i, sc in enumerate(result["scores"]):
        _keys(sc, f"result.scores[{i}]", SCORE_KEYS)
        for k in SCORE_KEYS:
            _int(sc[k], f"result.scores[{i}].{k}", 0,
                 TREASURES_TOTAL if k == "treasure" else MAX_SCORE)
    expected = game_result(result["scores"])
    _list(result["final"], "result.final", n)
    for i, values in enumerate(result["final"]):
        if values != expected["final"][i]:
            _fail(f"result.final[{i}]", f"{_show(values)}, but the scores give "
                                        f"{expected['final'][i]}")
    _list(result["ranking"], "result.ranking", n)
    if result["ranking"] != expected["ranking"]:
        _fail("result.ranking", f"{_show(result['ranking'])}, but the final values give "
                                f"{expected['ranking']}")
    if "meta" in rec:
        _check_meta(rec["meta"], n, len(rec["moves"]))
    return rec


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and \
        math.isfinite(value)


def _meta_kind(meta, key, check, expected):
    if key in meta and not check(meta[key]):
        _fail(f"meta.{key}", f"expected {expected}, got {_show(meta[key])}")


def _check_meta(meta, n, plies):
    """``meta`` is free metadata (SPEC section 9), but the fields tne itself reads back
    (tne_ai/matches/tournament.py, play.py and analyse.py write them) must have their types, so no
    reader meets a value of the wrong kind: PositionError naming the field otherwise."""
    if not isinstance(meta, dict):
        _fail("meta", f"expected an object, got {_show(meta)}")

    def count(v):
        return _is_int(v) and 0 <= v <= MAX_SEED

    def agent(a):
        return isinstance(a, str) or (isinstance(a, dict) and isinstance(a.get("name"), str)
                                      and isinstance(a.get("spec", ""), str))

    for key in ("game_id", "ai"):
        _meta_kind(meta, key, lambda v: isinstance(v, str) or (key == "ai" and v is None),
                   "a string")
    for key in ("table", "deal", "rotation", "seed", "deal_seed", "max_moves", "plies"):
        _meta_kind(meta, key, count, f"an integer 0 to {MAX_SEED}")
    _meta_kind(meta, "human_seat", lambda v: _is_int(v) and 0 <= v < n,
               f"a seat 0 to {n - 1}")
    _meta_kind(meta, "truncated", lambda v: isinstance(v, bool), "true or false")
    _meta_kind(meta, "agents", lambda v: isinstance(v, list) and len(v) == n and
               all(agent(a) for a in v), f"a list of {n} agents (names or {{name, spec}})")
    _meta_kind(meta, "agent_seeds", lambda v: isinstance(v, list) and len(v) == n and
               all(count(x) for x in v), f"a list of {n} seeds")
    _meta_kind(meta, "forfeit", lambda v: isinstance(v, dict) and _is_int(v.get("seat"))
               and 0 <= v["seat"] < n and isinstance(v.get("reason", ""), str),
               f"an object {{seat 0 to {n - 1}, ply, reason}}")
    _meta_kind(meta, "stopped", lambda v: isinstance(v, dict) and set(v) == {"seat", "ply",
                                                                              "reason"}
               and _is_int(v["seat"]) and 0 <= v["seat"] < n and _is_int(v["ply"])
               and v["ply"] == plies and isinstance(v["reason"], str),
               f"an object {{seat 0 to {n - 1}, ply {plies} (the moves), reason}}")
    if "analysis" in meta:
        _check_analysis(meta["analysis"], n, plies)


def _check_analysis(analysis, n, plies):
    """meta.analysis as `tne analyse` writes it: ``moves`` a list of rows, each with the ply,
    the player, the move and, unless forced, the best move and the win chances."""
    _keys(analysis, "meta.analysis", ("engine", "budget", "search", "provenance", "classes",
                                        "summary", "moves"),
          required=("moves",))
    rows = _list(analysis["moves"], "meta.analysis.moves")
    if len(rows) > plies:
        _fail("meta.analysis.moves", f"{len(rows)} rows for {plies} moves")
    for i, row in enumerate(rows):
        field = f"meta.analysis.moves[{i}]"
        if not isinstance(row, dict):
            _fail(field, f"expected an object, got {_show(row)}")
        _int(row.get("ply"), f"{field}.ply", 0, max(0, plies - 1))
        _int(row.get("player"), f"{field}.player", 0, n - 1)
        if not isinstance(row.get("move"), str):
            _fail(f"{field}.move", f"expected a move text, got {_show(row.get('move'))}")
        if row.get("forced", False) is True:
            continue
        if row.get("forced", False) is not False:
            _fail(f"{field}.forced", f"expected true or false, got {_show(row['forced'])}")
        if not isinstance(row.get("best"), str):
            _fail(f"{field}.best", f"expected a move text, got {_show(row.get('best'))}")
        for key in ("best_win", "played_win"):
            v = row.get(key)
            if not ((v is None and key == "played_win") or (_is_number(v) and 0 <= v <= 1)):
                _fail(f"{field}.{key}", f"expected a win chance 0 to 1, got {_show(v)}")
        if row.get("played_win") is not None:
            if not (_is_number(row.get("loss")) and 0 <= row["loss"] <= 100):
                _fail(f"{field}.loss", f"expected 0 to 100 points, got {_show(row.get('loss'))}")
        if not (row.get("class") is None or isinstance(row["class"], str)):
            _fail(f"{field}.class", f"expected a class name or null, got {_show(row['class'])}")
