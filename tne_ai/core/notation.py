"""Action code <-> move text (SPEC section 8).

Canonical text uses full colour names, swap letters in the order r, b, g, k and monument
colours in the order red, blue, green, black.  Parsing accepts any case, colour letters for
colour names, and extra white space.
"""
from typing import Union

from tne_ai.core.board import COLOURS, COLOUR_LETTERS, MONUMENTS, MONUMENT_NAMES, SQUARES, parse_square, square_name
import numpy as np

from tne_ai.errors import NotationError
from tne_ai.limits import clip
from tne_ai.core import state as S

_SWAP_INDEX = {tuple(int(x) for x in row): i for i, row in enumerate(S.SWAP_COUNTS)}


def move_text(code: Union[int, np.integer]) -> str:
    """The canonical text of an action code."""
    code = int(code)
    if S.A_TILE <= code < S.A_LEADER:
        c, s = divmod(code - S.A_TILE, SQUARES)
        return f"tile {COLOURS[c]} {square_name(s)}"
    if code < S.A_WITHDRAW:
        c, s = divmod(code - S.A_LEADER, SQUARES)
        return f"leader {COLOURS[c]} {square_name(s)}"
    if code < S.A_CATASTROPHE:
        return f"withdraw {COLOURS[code - S.A_WITHDRAW]}"
    if code < S.A_SWAP:
        return f"catastrophe {square_name(code - S.A_CATASTROPHE)}"
    if code < S.A_PASS:
        counts = S.SWAP_COUNTS[code - S.A_SWAP]
        return "swap " + "".join(COLOUR_LETTERS[c] * int(counts[c]) for c in range(4))
    if code == S.A_PASS:
        return "pass"
    if code < S.A_WAR:
        return f"commit {code - S.A_COMMIT}"
    if code < S.A_MONUMENT:
        return f"war {COLOURS[code - S.A_WAR]}"
    if code < S.A_DECLINE:
        m, s = divmod(code - S.A_MONUMENT, SQUARES)
        return f"monument {MONUMENT_NAMES[m]} {square_name(s)}"
    if code == S.A_DECLINE:
        return "decline"
    if code < S.N_ACTIONS:
        return f"treasure {square_name(code - S.A_TREASURE)}"
    raise NotationError(f"action code {code} is outside 0..{S.N_ACTIONS - 1}")


def parse_colour(word: str) -> int:
    w = word.strip().lower()
    if w in COLOURS:
        return COLOURS.index(w)
    if len(w) == 1 and w in COLOUR_LETTERS:
        return COLOUR_LETTERS.index(w)
    return -1


def _colour(word: str, text: str) -> int:
    c = parse_colour(word)
    if c < 0:
        raise NotationError(f"'{clip(word, 40)}' is not a colour (red, blue, green, black or r, b, g, k) in move '{clip(text, 80)}'")
    return c


def _square(word: str, text: str) -> int:
    s: int = parse_square(word)
    if s < 0:
        raise NotationError(f"'{clip(word, 40)}' is not a square (A1 to P11) in move '{clip(text, 80)}'")
    return s


def _ascii_number(word: str) -> bool:
    """ASCII digits 0-9 only, at most 3 of them (str.isdigit() also takes '²' and '٣')."""
    return 0 < len(word) <= 3 and all("0" <= ch <= "9" for ch in word)


def parse_move(text: object) -> int:
    """The action code of a move text; raises NotationError naming what is wrong."""
    if not isinstance(text, str):
        raise NotationError(f"a move must be text, not {type(text).__name__}")
    if not text.isascii():
        bad = next(ch for ch in text if not ch.isascii())
        raise NotationError(f"{bad!r} is not an ASCII character, in move '{clip(text, 80)}' "
                            f"(moves are written in ASCII: 'tile red F4')")
    words = text.split()
    if not words:
        raise NotationError("empty move")
    verb, args = words[0].lower(), words[1:]
    arity = {"tile": 2, "leader": 2, "withdraw": 1, "catastrophe": 1, "swap": 1, "pass": 0,
             "commit": 1, "war": 1, "monument": 2, "decline": 0, "treasure": 1}
    if verb not in arity:
        raise NotationError(f"unknown move '{clip(words[0], 40)}' in '{clip(text, 80)}' (expected one of {', '.join(arity)})")
    if len(args) != arity[verb]:
        raise NotationError(f"'{verb}' takes {arity[verb]} argument(s), got {len(args)} in '{clip(text, 80)}'")
    if verb == "tile":
        return S.A_TILE + SQUARES * _colour(args[0], text) + _square(args[1], text)
    if verb == "leader":
        return S.A_LEADER + SQUARES * _colour(args[0], text) + _square(args[1], text)
    if verb == "withdraw":
        return S.A_WITHDRAW + _colour(args[0], text)
    if verb == "catastrophe":
        return S.A_CATASTROPHE + _square(args[0], text)
    if verb == "swap":
        counts = [0, 0, 0, 0]
        for ch in args[0].lower():
            if ch not in COLOUR_LETTERS:
                raise NotationError(f"'{ch}' is not a colour letter (r, b, g, k) in move '{clip(text, 80)}'")
            counts[COLOUR_LETTERS.index(ch)] += 1
        index = _SWAP_INDEX.get(tuple(counts))
        if index is None:
            raise NotationError(f"a swap discards 1 to 6 tiles, not {sum(counts)}, in move '{clip(text, 80)}'")
        return S.A_SWAP + index
    if verb == "pass":
        return S.A_PASS
    if verb == "commit":
        if not _ascii_number(args[0]) or int(args[0]) > S.MAX_COMMIT:
            raise NotationError(f"'{clip(args[0], 40)}' is not a tile count 0 to {S.MAX_COMMIT} "
                                f"in move '{clip(text, 80)}'")
        return S.A_COMMIT + int(args[0])
    if verb == "war":
        return S.A_WAR + _colour(args[0], text)
    if verb == "monument":
        pair = args[0].lower().split("-")
        if len(pair) != 2:
            raise NotationError(f"'{clip(args[0], 40)}' is not a monument such as red-blue in move '{clip(text, 80)}'")
        a, b = sorted((_colour(pair[0], text), _colour(pair[1], text)))
        if (a, b) not in MONUMENTS:
            raise NotationError(f"'{clip(args[0], 40)}' is not a monument (two different colours) in move '{clip(text, 80)}'")
        return S.A_MONUMENT + SQUARES * MONUMENTS.index((a, b)) + _square(args[1], text)
    if verb == "decline":
        return S.A_DECLINE
    return S.A_TREASURE + _square(args[0], text)


class Move:
    """One move (an action or a decision), an int code with SPEC text; like chess.Move."""

    __slots__ = ("code",)
    code: int

    def __init__(self, code: Union[int, np.integer]) -> None:
        if isinstance(code, (bool, np.bool_)) or not isinstance(code, (int, np.integer)) \
                or not 0 <= code < S.N_ACTIONS:
            raise NotationError(f"an action code is an integer 0..{S.N_ACTIONS - 1}, not "
                                f"{clip(repr(code), 60) if not isinstance(code, int) or code.bit_length() <= 64 else 'a huge number'}")
        self.code = int(code)

    @classmethod
    def from_text(cls, text: str) -> "Move":
        return cls(parse_move(text))

    def text(self) -> str:
        return move_text(self.code)

    def __str__(self) -> str:
        return move_text(self.code)

    def __repr__(self) -> str:
        return f"Move.from_text({move_text(self.code)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self.code == other.code
        if isinstance(other, str):
            try:
                return self.code == parse_move(other)
            except NotationError:
                return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.code)

    def __int__(self) -> int:
        return self.code
