"""Position: the Python facade over one state buffer (like python-chess's Board)."""
from typing import Dict, List, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from tne_ai.core import board as B
from tne_ai.core import state as S
from tne_ai.core.board import COLOURS, COLOUR_LETTERS, TEMPLE_SQUARES, TILES_PER_COLOUR, mask_of
from tne_ai.core.rules.apply import apply_action, draw_tile
from tne_ai.core.rules.movegen import legal_moves as _legal_moves
from tne_ai.core.rules.rng import make_rng
from tne_ai.core.rules.scoring import final_values, ranking as _ranking
from tne_ai.errors import IllegalMoveError, NotationError, TneError
from tne_ai.core.formats import pack_bag
from tne_ai.limits import MAX_SEED, clip
from tne_ai.core.notation import Move, move_text, parse_move
from tne_ai.core.render import pending_text


# a state buffer (tne_ai.core.state) and a random stream (one uint64 word, rules/rng.py)
State = S.State
Rng = npt.NDArray[np.uint64]
# what ``push`` takes: a Move, its text or its action code
MoveLike = Union[Move, str, int, np.integer]


def start_state(players: int, bag: str, deal: bool = True) -> State:
    """The start position: temples and treasures placed, then (with deal) each player in
    turn order draws 6 tiles from the front of the ordered bag."""
    st: State = S.empty_state()
    bb = st.view(np.uint64)
    temples = mask_of(TEMPLE_SQUARES)
    bb[S.BB_TILE:S.BB_TILE + 3] = temples
    bb[S.BB_TREASURE:S.BB_TREASURE + 3] = temples
    st[S.PLAYERS] = players
    st[S.CATASTROPHES:S.CATASTROPHES + players] = 2
    st[S.ACTIONS_LEFT] = 2
    pack_bag(st, bag)
    if deal:
        rng = make_rng(0)
        for p in range(players):
            for _ in range(6):
                draw_tile(st, p, rng)
    return st


class Position:
    """A game position: a state buffer plus what the viewer knows (hands, bag).

    ``known_hands[i]`` is False for a hand the position's owner cannot see; such hands hold a
    guess dealt from the unseen pool, which the engine never shows.  Draws from a counted bag
    use this position's own seeded RNG state."""

    __slots__ = ("st", "known_hands", "bag_known", "rng")

    st: State
    known_hands: List[bool]
    bag_known: bool
    rng: Rng

    def __init__(self, st: State, known_hands: Optional[Sequence[bool]] = None,
                 bag_known: bool = True, rng: Optional[Rng] = None) -> None:
        self.st = st
        n = int(st[S.PLAYERS])
        self.known_hands = list(known_hands) if known_hands is not None else [True] * n
        self.bag_known = bag_known
        self.rng = rng if rng is not None else make_rng(0)

    # --- construction ----------------------------------------------------------------------
    @classmethod
    def new(cls, players: int = 2, seed: int = 0) -> "Position":
        if isinstance(players, bool) or players not in (2, 3, 4):
            raise TneError(f"players must be 2, 3 or 4, not {clip(repr(players))}")
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) \
                or not 0 <= seed <= MAX_SEED:
            raise TneError(f"seed must be an integer 0 to {MAX_SEED}, not {clip(repr(seed))}")
        tiles = []
        for c, total in enumerate(TILES_PER_COLOUR):
            tiles += [COLOUR_LETTERS[c]] * (int(total) - (10 if c == 0 else 0))
        order = np.random.default_rng(seed).permutation(len(tiles))
        bag = "".join(tiles[i] for i in order)
        return cls(start_state(players, bag), rng=make_rng(seed))

    @classmethod
    def from_json(cls, data: Union[dict, str, bytes], seed: int = 0) -> "Position":
        from tne_ai.core.formats import position_from_dict
        st, known, bag_known = position_from_dict(data, seed=seed)
        return cls(st, known, bag_known, make_rng(seed))

    def to_json(self) -> dict:
        from tne_ai.core.formats import position_to_dict
        d: dict = position_to_dict(self.st, self.known_hands, self.bag_known)
        return d

    def copy(self) -> "Position":
        return Position(self.st.copy(), self.known_hands, self.bag_known, self.rng.copy())

    def view(self, seat: Optional[int], seed: int = 0) -> "Position":
        """The position as ``seat`` sees it: its own hand, the board, the scores and every
        public count; the other hands unknown (a guess dealt with ``seed`` from the tiles
        seat cannot see, which the engine never shows) and the bag's order unknown (a
        counted bag).  ``None``: a watcher's view, no hand known.  The same position as
        ``Position.from_json`` of ``to_json()`` with only seat's hand and no bag, made
        without the JSON (tne_ai.core.formats.view_state)."""
        from tne_ai.core.formats import view_state
        if seat is not None:
            self.hand(seat)             # a seat of this game, or TneError
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) \
                or not 0 <= seed <= MAX_SEED:
            raise TneError(f"seed must be an integer 0 to {MAX_SEED}, not {clip(repr(seed))}")
        st: State = view_state(self.st, seat, int(seed))
        return Position(st, [i == seat for i in range(self.players)], False, make_rng(seed))

    # --- moves -----------------------------------------------------------------------------
    def legal_codes(self) -> List[int]:
        # a move buffer per call (no module-level scratch), so threads sharing no Position
        # never see each other's moves
        moves = np.empty(S.MAX_MOVES, dtype=np.int64)
        n = _legal_moves(self.st, moves)
        codes: List[int] = moves[:n].tolist()
        return codes

    def legal_moves(self) -> List[Move]:
        return [Move(c) for c in self.legal_codes()]

    def push(self, move: MoveLike) -> "Position":
        if isinstance(move, Move):
            code = move.code
        elif isinstance(move, str):
            code = parse_move(move)
        elif isinstance(move, (int, np.integer)) and not isinstance(move, (bool, np.bool_)):
            code = int(move)
            if not 0 <= code < S.N_ACTIONS:
                shown = code if code.bit_length() <= 64 else "(a huge number)"
                raise NotationError(f"action code {shown} is outside 0..{S.N_ACTIONS - 1}")
        else:
            raise NotationError(f"a move is a Move, a text such as 'tile red F4' or an action "
                                f"code 0..{S.N_ACTIONS - 1}, not {clip(repr(move), 60)}")
        if self.is_over():
            raise IllegalMoveError(f"'{move_text(code)}': the game is over")
        if not self.known_hands[self.to_act]:
            raise IllegalMoveError(f"the hand of player {self.to_act}, who must act, is unknown")
        if code not in self.legal_codes():
            raise IllegalMoveError(f"'{move_text(code)}' is not legal: {self.why_illegal(code)}")
        apply_action(self.st, code, self.rng)
        return self

    def why_illegal(self, code: int) -> str:
        """Why a well-formed move (an action code) is not legal now, in words (SPEC section 3)."""
        p = self
        pend = p.pending
        text = move_text(code)
        verb = text.split()[0]
        decision = {"revolt": ("commit",), "war": ("commit",), "war-choice": ("war",),
                    "monument": ("monument", "decline"), "treasure": ("treasure",)}
        if pend is not None and verb not in decision[pend["kind"]]:
            return f"a decision is pending ({pending_text(p.st)}): answer with " \
                   + " or ".join(decision[pend["kind"]])
        if pend is None and verb in ("commit", "war", "monument", "decline", "treasure"):
            return "no decision is pending: choose an action (tile, leader, withdraw, " \
                   "catastrophe, swap or pass)"
        d = p.to_json()
        me = p.to_act
        hand = p.hand(me)
        if hand is None:
            return f"the hand of player {me}, who must act, is unknown"
        occupied = {sq for _, _, sq in d["leaders"]}

        def cell(sq: str) -> str:
            r, c = divmod(B.parse_square(sq), B.COLS)
            return "L" if sq in occupied else d["board"][r][c]

        words = text.split()
        if verb == "tile":
            colour, sq = words[1], words[2]
            if hand[colour] == 0:
                return f"you have no {colour} tile in hand"
            if cell(sq) not in ".~":
                return f"{sq} is not empty"
            if (cell(sq) == "~") != (colour == "blue"):
                return "blue tiles go on the river" if colour == "blue" else \
                    f"{colour} tiles go on land, {sq} is river"
            return f"a tile on {sq} would join three or more kingdoms"
        if verb == "leader":
            colour, sq = words[1], words[2]
            mine = [s for k, c, s in d["leaders"] if k == me and c == colour]
            if mine and mine[0] == sq:
                return f"your {colour} leader is already on {sq}"
            if cell(sq) != ".":
                return f"{sq} is not empty land" if cell(sq) != "~" else "leaders go on land"
            s = B.parse_square(sq)
            if not any(n >= 0 and cell(B.square_name(int(n))) == "r" for n in B.NEIGHBOURS[s]):
                return f"a leader must stand next to a red tile (a temple); {sq} is not"
            return f"a leader on {sq} would join two kingdoms"
        if verb == "withdraw":
            return f"your {words[1]} leader is not on the board"
        if verb == "catastrophe":
            sq = words[1]
            if d["catastrophes"][me] == 0:
                return "you have no catastrophe tiles left"
            what = {"L": "a leader", "#": "a monument", "x": "a catastrophe"}.get(cell(sq))
            if what is None and sq in d["treasures"]:
                what = "a treasure"
            return f"{sq} holds {what}" if what else f"no catastrophe may go on {sq}"
        if verb == "swap":
            return "your hand does not hold those tiles"
        if verb == "commit":
            revolt = pend is not None and pend["kind"] == "revolt"
            colour = "red" if revolt else B.COLOURS[int(p.st[S.CF_COLOUR])]
            most = hand[colour]
            return f"you can commit at most {most} {colour} tile{'' if most == 1 else 's'} (your hand)"
        if verb == "war":
            return f"there is no war in {words[1]} to choose"
        if verb == "monument":
            return "that monument cannot be built there (see ? for the blocks and monuments)"
        if verb == "treasure":
            return f"{words[1]} holds no treasure you may take now (corner treasures go first)"
        last: str = pending_text(p.st)
        return last

    # --- queries ---------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return int(self.st[S.PLAYERS])

    @property
    def to_act(self) -> int:
        return int(self.st[S.TO_ACT])

    @property
    def turn(self) -> int:
        return int(self.st[S.TURN])

    @property
    def actions_left(self) -> int:
        return int(self.st[S.ACTIONS_LEFT])

    @property
    def pending(self) -> Optional[dict]:
        from tne_ai.core.formats import pending_dict
        pend: Optional[dict] = pending_dict(self.st)
        return pend

    def is_over(self) -> bool:
        return int(self.st[S.PHASE]) == S.PH_OVER

    @property
    def scores(self) -> List[Dict[str, int]]:
        keys = COLOURS + ("treasure",)
        return [{k: int(self.st[S.SCORE + 5 * p + i]) for i, k in enumerate(keys)}
                for p in range(self.players)]

    def hand(self, player: int) -> Optional[Dict[str, int]]:
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) \
                or not 0 <= player < self.players:
            raise TneError(f"player {clip(repr(player), 60)}: players are numbered 0 to "
                           f"{self.players - 1}")
        if not self.known_hands[player]:
            return None
        return {c: int(self.st[S.HAND + 4 * player + i]) for i, c in enumerate(COLOURS)}

    def final_scores(self) -> List[List[int]]:
        out = np.empty(4, dtype=np.int64)
        result = []
        for p in range(self.players):
            final_values(self.st, p, out)
            result.append(out.tolist())
        return result

    def ranking(self) -> List[int]:
        places = np.empty(4, dtype=np.int64)
        _ranking(self.st, places)
        out: List[int] = places[:self.players].tolist()
        return out

    def __str__(self) -> str:
        from tne_ai.core.render import ascii_board
        text: str = ascii_board(self.st)
        return text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and np.array_equal(self.st, other.st) \
            and self.known_hands == other.known_hands and self.bag_known == other.bag_known
