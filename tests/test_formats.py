"""tne-position/1 and tne-game/1 (SPEC.md section 9) and the ASCII pictures.

Every position here is written out as a dict; the expected state fields, tile counts and
messages are worked out from SPEC sections 1, 4, 6 and 9 and the layout in tne_ai/core/state.py.
Loading a position runs the engine's kingdom checks (tne_ai.core.rules.kingdoms.kingdom_clash,
label; tne_ai.core.rules.apply.treasure_taker, war_conflicts).
"""
import json

import numpy as np
import pytest

from tne_ai.core import state as S
from tne_ai.core.board import parse_square
from tne_ai.errors import PositionError
from tne_ai.core.formats import (game_record, game_result, load_game_record, load_position,
                            position_from_dict, position_to_dict)
from tne_ai.core.render import ascii_board, summary

KEY_ORDER = ["format", "players", "turn", "actions_left", "board", "leaders", "treasures",
             "monuments", "hands", "catastrophes", "scores", "bag", "out_of_game",
             "hidden_discards", "pending"]
START_BOARD = ["....~~~~~.r.~...", ".r..~.......~..r", "...~~r......~~..", "~~~~.........~~~",
               ".............r~~", "..............~.", "~~~~....r...~~~.", ".r.~~~~.....~...",
               "......~~~~~~~.r.", ".....r..........", "..........r....."]
ALL_TREASURES = ["K1", "B2", "P2", "F3", "N5", "I7", "B8", "O9", "F10", "K11"]
ZERO_SCORE = {"red": 0, "blue": 0, "green": 0, "black": 0, "treasure": 0}
ZERO = {"red": 0, "blue": 0, "green": 0, "black": 0}


def sq(name):
    return parse_square(name)


def words(st):
    return st.view(np.uint64)


def has_bit(st, base, name):
    s = sq(name)
    return bool(int(words(st)[base + (s >> 6)]) >> (s & 63) & 1)


def spec_example():
    """The example of SPEC section 9, verbatim."""
    return {
        "format": "tne-position/1",
        "players": 2,
        "turn": 0,
        "actions_left": 2,
        "board": list(START_BOARD),
        "leaders": [[0, "red", "G3"], [1, "black", "L1"]],
        "treasures": list(ALL_TREASURES),
        "monuments": [],
        "hands": [{"red": 2, "blue": 1, "green": 2, "black": 1}, None],
        "catastrophes": [2, 2],
        "scores": [dict(ZERO_SCORE), dict(ZERO_SCORE)],
        "out_of_game": dict(ZERO),
        "hidden_discards": 0,
        "pending": None,
    }


def full():
    """The SPEC example with player 1's hand known and the bag as counts.
    Bag = 153 per colour less 10 temples and the hands: red 57-10-2-1 = 44, blue 36-1-2 = 33,
    green 30-2-1 = 27, black 30-1-2 = 27."""
    d = spec_example()
    d["hands"] = [{"red": 2, "blue": 1, "green": 2, "black": 1},
                  {"red": 1, "blue": 2, "green": 1, "black": 2}]
    d["bag"] = {"red": 44, "blue": 33, "green": 27, "black": 27}
    d["pending"] = None
    return {k: d[k] for k in KEY_ORDER}


ORDERED_BAG = "rbgk" * 27 + "rb" * 6 + "r" * 11   # 44 r, 33 b, 27 g, 27 k


def ordered():
    d = full()
    d["bag"] = ORDERED_BAG
    return d


def revolt(commit=None):
    """Player 1 placed his red leader on F4; F3's temple joins it to player 0's red leader on
    G3: a revolt, player 1 attacking.  With commit 1 his red tile has gone out of the game."""
    d = full()
    d["turn"] = 1
    d["leaders"] = [[0, "red", "G3"], [1, "red", "F4"]]
    if commit is not None:
        d["hands"][1] = {"red": 0, "blue": 2, "green": 1, "black": 2}
        d["out_of_game"] = {"red": 1, "blue": 0, "green": 0, "black": 0}
    d["pending"] = {"kind": "revolt", "colour": "red", "attacker": 1, "defender": 0,
                    "attacker_commit": commit}
    return d


def war_board():
    """Row 10: E10 R0, F10 temple, G10 K0, H10 green, I10 black (the unifying tile), J10 red,
    K10 R1; row 11: J11 K1, K11 temple.  Kingdoms {E10..H10} and {J10, K10, J11, K11} meet
    at I10 with red and black in conflict.  Player 1 placed I10 (his second action).
    Bag: red 57-11-2-1 = 43, blue 36-1-2 = 33, green 30-1-2-1 = 26, black 30-1-1-1 = 27."""
    d = full()
    d["turn"] = 1
    d["actions_left"] = 1
    d["board"][9] = ".....r.gkr......"
    d["leaders"] = [[0, "red", "E10"], [0, "black", "G10"], [1, "red", "K10"],
                    [1, "black", "J11"]]
    d["hands"] = [{"red": 2, "blue": 1, "green": 2, "black": 1},
                  {"red": 1, "blue": 2, "green": 1, "black": 1}]
    d["bag"] = {"red": 43, "blue": 33, "green": 26, "black": 27}
    return d


def war_choice():
    d = war_board()
    d["pending"] = {"kind": "war-choice", "unifying": "I10"}
    return d


def war(commit=None):
    d = war_board()
    if commit is not None:
        d["hands"][1] = {"red": 1, "blue": 2, "green": 1, "black": 0}
        d["out_of_game"] = {"red": 0, "blue": 0, "green": 0, "black": 1}
    d["pending"] = {"kind": "war", "unifying": "I10", "colour": "black", "attacker": 1,
                    "defender": 0, "attacker_commit": commit}
    return d


def monument():
    """Player 0's red tile on C11 completes the red block B10 C10 B11 C11.
    Bag: red 57-14-1-1 = 41, blue 33, green 27, black 27."""
    d = full()
    d["actions_left"] = 1
    d["board"][9] = ".rr..r.........."
    d["board"][10] = ".rr.......r....."
    d["leaders"] = []
    d["hands"][0] = {"red": 1, "blue": 1, "green": 2, "black": 1}
    d["bag"] = {"red": 41, "blue": 33, "green": 27, "black": 27}
    d["pending"] = {"kind": "monument", "at": "C11"}
    return d


def treasure():
    """Player 1's blue tile on E3 joined the leaderless temple F3 to the kingdom of player 0's
    trader on C3 (B2 C2 D2 D3 E3 F3): two treasures, player 0 must take one.
    Bag: red 57-12-2-1 = 42, blue 36-2-1-1 = 32, green 27, black 27."""
    d = full()
    d["turn"] = 1
    d["board"][1] = ".rrr~.......~..r"
    d["board"][2] = "...bbr......~~.."
    d["leaders"] = [[0, "green", "C3"]]
    d["hands"][1] = {"red": 1, "blue": 1, "green": 1, "black": 2}
    d["bag"] = {"red": 42, "blue": 32, "green": 27, "black": 27}
    d["pending"] = {"kind": "treasure", "player": 0}
    return d


def game_over():
    """Over after player 1's turn: monuments red-blue on B10 and red-green on E9 (red tiles,
    F10's treasure on the flipped temple), a catastrophe on H5, eight treasures taken.
    Face-up red 9; bag red 57-9-8-3-3 = 34, blue 36-3 = 33, green 30-3 = 27,
    black 30-3-1 = 26."""
    d = full()
    d["turn"] = 1
    d["actions_left"] = 0
    d["board"] = ["....~~~~~.r.~...", ".r..~.......~..r", "...~~r......~~..",
                  "~~~~.........~~~", ".......x.....r~~", "..............~.",
                  "~~~~....r...~~~.", ".r.~~~~.....~...", "....##~~~~~~~.r.",
                  ".##.##..........", ".##.......r....."]
    d["leaders"] = [[0, "black", "L1"], [1, "red", "H7"]]
    d["treasures"] = ["K1", "F10"]
    d["monuments"] = [{"colors": "red-blue", "at": "B10", "tiles": "red"},
                      {"colors": "red-green", "at": "E9", "tiles": "red"}]
    d["hands"] = [{"red": 1, "blue": 1, "green": 2, "black": 2},
                  {"red": 2, "blue": 2, "green": 1, "black": 1}]
    d["catastrophes"] = [1, 2]
    d["scores"] = [{"red": 3, "blue": 2, "green": 1, "black": 4, "treasure": 5},
                   {"red": 5, "blue": 1, "green": 2, "black": 2, "treasure": 3}]
    d["bag"] = {"red": 34, "blue": 33, "green": 27, "black": 26}
    d["out_of_game"] = {"red": 3, "blue": 0, "green": 0, "black": 1}
    return d


# --- the SPEC example -----------------------------------------------------------------------

def test_spec_example_loads_and_deals_the_unknown_hand():
    st, known, bag_known = position_from_dict(spec_example(), seed=3)
    assert known == [True, False] and bag_known is False
    assert st[S.PLAYERS] == 2 and st[S.TURN] == 0 and st[S.ACTIONS_LEFT] == 2
    assert st[S.PHASE] == S.PH_ACTION and st[S.TO_ACT] == 0
    assert list(st[S.HAND:S.HAND + 4]) == [2, 1, 2, 1]
    dealt = st[S.HAND + 4:S.HAND + 8]
    assert dealt.sum() == 6 and (dealt >= 0).all()
    # unseen pool: 153 per colour less the 10 temples and hand 0 = red 45, blue 35, green 28,
    # black 29; the dealt hand plus the counted bag is exactly that pool.
    assert st[S.BAG_ORDERED] == 0
    assert list(dealt + st[S.BAG_COUNT:S.BAG_COUNT + 4]) == [45, 35, 28, 29]
    assert st[S.LEADER_SQ + 0] == sq("G3")
    assert st[S.LEADER_SQ + 4 + 3] == sq("L1")
    assert has_bit(st, S.BB_LEADER, "G3") and has_bit(st, S.BB_LEADER, "L1")
    for name in ALL_TREASURES:
        assert has_bit(st, S.BB_TREASURE, name) and has_bit(st, S.BB_TILE, name)
    assert not has_bit(st, S.BB_TILE, "G3")
    assert list(st[S.CATASTROPHES:S.CATASTROPHES + 2]) == [2, 2]
    assert list(st[S.MON_SQ:S.MON_SQ + 6]) == [-1] * 6


def test_spec_example_same_seed_same_deal_and_deals_vary():
    a, _, _ = position_from_dict(spec_example(), seed=5)
    b, _, _ = load_position(json.dumps(spec_example()), seed=5)
    assert np.array_equal(a, b)
    deals = {tuple(position_from_dict(spec_example(), seed=s)[0][S.HAND + 4:S.HAND + 8])
             for s in range(20)}
    assert len(deals) > 1


def test_spec_example_round_trips_with_the_hand_still_unknown():
    st, known, bag_known = position_from_dict(spec_example())
    assert position_to_dict(st, known, bag_known) == spec_example()


def test_unknown_hand_with_bag_given_deals_from_pool_minus_bag():
    d = spec_example()
    # pool less the bag: red 45-40 = 5, blue 35-33 = 2, green 28-27 = 1, black 29-27 = 2,
    # 10 tiles = hand 1 (6) + hidden discards (4).
    d["bag"] = {"red": 40, "blue": 33, "green": 27, "black": 27}
    d["hidden_discards"] = 4
    for seed in range(10):
        st, known, bag_known = position_from_dict(d, seed=seed)
        hand = st[S.HAND + 4:S.HAND + 8]
        assert hand.sum() == 6 and all(hand <= [5, 2, 1, 2])
        assert list(st[S.BAG_COUNT:S.BAG_COUNT + 4]) == [40, 33, 27, 27]
        assert bag_known and known == [True, False]


def test_hand_sizes_and_hidden_discards_without_bag():
    d = spec_example()
    d["hands"] = [None, None]
    d["hand_sizes"] = [6, 4]
    d["hidden_discards"] = 3
    st, known, _ = position_from_dict(d, seed=1)
    assert known == [False, False]
    assert st[S.HAND:S.HAND + 4].sum() == 6 and st[S.HAND + 4:S.HAND + 8].sum() == 4
    # 153 - 10 temples - 6 - 4 - 3 discarded
    assert st[S.BAG_COUNT:S.BAG_COUNT + 4].sum() == 130
    assert st[S.HIDDEN_DISCARDS] == 3


def test_single_unknown_hand_is_determined_and_round_trips():
    d = full()
    # player 1 holds 4 tiles, one of each colour: the bag is red 44, blue 36-1-1 = 34,
    # green 27, black 30-1-1 = 28, and nothing else is unseen.
    d["hands"][1] = None
    d["hand_sizes"] = [6, 4]
    d["bag"] = {"red": 44, "blue": 34, "green": 27, "black": 28}
    st, known, bag_known = position_from_dict(d, seed=9)
    assert list(st[S.HAND + 4:S.HAND + 8]) == [1, 1, 1, 1]
    out = position_to_dict(st, known, bag_known)
    assert out == d
    assert list(out) == KEY_ORDER[:9] + ["hand_sizes"] + KEY_ORDER[9:]
    assert np.array_equal(position_from_dict(out, seed=4)[0], st)


# --- state fields ---------------------------------------------------------------------------

def test_ordered_bag_is_packed_two_bits_a_tile():
    st, known, bag_known = position_from_dict(ordered())
    assert st[S.BAG_ORDERED] == 1 and st[S.BAG_LEN] == 131
    assert list(st[S.BAG_COUNT:S.BAG_COUNT + 4]) == [44, 33, 27, 27]
    # r=0 b=1 g=2 k=3, tile i at bits 2i: "rbgk" is the byte 0b11100100
    assert int(words(st)[S.BAG]) == 0xE4E4E4E4E4E4E4E4
    # tiles 128..130 are "rrr" (the tail of "r" * 11): word 4, bits 0..5 are zero
    assert int(words(st)[S.BAG + 4]) & 0x3F == 0
    assert known == [True, True] and bag_known


def test_ordered_bag_after_a_draw_is_written_from_the_next_tile():
    d = ordered()
    d["hands"][0] = {"red": 1, "blue": 1, "green": 2, "black": 1}
    d["bag"] = "r" + ORDERED_BAG
    st, known, bag_known = position_from_dict(d)
    # player 0 draws the front tile, a red one, through the engine's draw kernel
    from tne_ai.core.rules.apply import draw_tile
    from tne_ai.core.rules.rng import make_rng
    assert draw_tile(st, 0, make_rng(0)) == 0
    out = position_to_dict(st, known, bag_known)
    assert out["bag"] == ORDERED_BAG
    assert out["hands"][0] == {"red": 2, "blue": 1, "green": 2, "black": 1}
    assert out == ordered()
    again, _, _ = position_from_dict(out)
    assert np.array_equal(again, position_from_dict(ordered())[0])


def test_revolt_fields():
    st, _, _ = position_from_dict(revolt())
    assert st[S.PHASE] == S.PH_REVOLT and st[S.TO_ACT] == 1
    assert (st[S.CF_COLOUR], st[S.CF_ATTACKER], st[S.CF_DEFENDER], st[S.CF_COMMIT]) == (0, 1, 0, -1)
    assert st[S.UNIFY_SQ] == -1 and st[S.PLACED_SQ] == -1
    st, _, _ = position_from_dict(revolt(commit=1))
    assert st[S.TO_ACT] == 0 and st[S.CF_COMMIT] == 1
    assert st[S.OUT_OF_GAME] == 1 and st[S.HAND + 4] == 0


def test_war_choice_and_war_fields():
    st, _, _ = position_from_dict(war_choice())
    assert st[S.PHASE] == S.PH_WAR_CHOICE and st[S.TO_ACT] == 1
    assert st[S.UNIFY_SQ] == sq("I10") == st[S.PLACED_SQ] == 152
    assert st[S.CF_COLOUR] == -1
    st, _, _ = position_from_dict(war())
    assert st[S.PHASE] == S.PH_WAR and st[S.TO_ACT] == 1
    assert (st[S.CF_COLOUR], st[S.CF_ATTACKER], st[S.CF_DEFENDER], st[S.CF_COMMIT]) == (3, 1, 0, -1)
    assert st[S.UNIFY_SQ] == 152 == st[S.PLACED_SQ]
    st, _, _ = position_from_dict(war(commit=1))
    assert st[S.TO_ACT] == 0 and st[S.CF_COMMIT] == 1


def test_monument_treasure_and_over_fields():
    st, _, _ = position_from_dict(monument())
    assert st[S.PHASE] == S.PH_MONUMENT and st[S.TO_ACT] == 0
    assert st[S.PLACED_SQ] == sq("C11") == 162 and st[S.UNIFY_SQ] == -1
    st, _, _ = position_from_dict(treasure())
    assert st[S.PHASE] == S.PH_TREASURE and st[S.TO_ACT] == 0 and st[S.TURN] == 1
    assert st[S.PLACED_SQ] == -1
    st, _, _ = position_from_dict(game_over())
    assert st[S.PHASE] == S.PH_OVER and st[S.TO_ACT] == 1 and st[S.ACTIONS_LEFT] == 0
    # red-blue is monument 0, red-green monument 1, both of red tiles
    assert list(st[S.MON_SQ:S.MON_SQ + 6]) == [sq("B10"), sq("E9"), -1, -1, -1, -1]
    assert list(st[S.MON_TILES:S.MON_TILES + 6]) == [0, 0, -1, -1, -1, -1]
    assert has_bit(st, S.BB_FLIP, "F10") and has_bit(st, S.BB_TREASURE, "F10")
    assert not has_bit(st, S.BB_TILE, "F10")
    assert has_bit(st, S.BB_CATA, "H5")
    assert list(st[S.SCORE:S.SCORE + 10]) == [3, 2, 1, 4, 5, 5, 1, 2, 2, 3]
    assert list(st[S.OUT_OF_GAME:S.OUT_OF_GAME + 4]) == [3, 0, 0, 1]


# --- round trips ----------------------------------------------------------------------------

ROUND_TRIPS = {
    "counted bag": full,
    "ordered bag": ordered,
    "revolt": revolt,
    "revolt committed": lambda: revolt(commit=1),
    "war-choice": war_choice,
    "war": war,
    "war committed": lambda: war(commit=1),
    "monument": monument,
    "treasure": treasure,
    "game over": game_over,
}


@pytest.mark.parametrize("name", list(ROUND_TRIPS))
def test_round_trip(name):
    d = ROUND_TRIPS[name]()
    st, known, bag_known = position_from_dict(d)
    out = position_to_dict(st, known, bag_known)
    assert out == d
    assert list(out) == KEY_ORDER
    json.dumps(out)   # plain JSON types only
    again, known2, bag_known2 = position_from_dict(json.dumps(out))
    assert np.array_equal(again, st)
    assert (known2, bag_known2) == (known, bag_known)


def test_output_is_sorted():
    d = war_board()
    d["pending"] = None
    d["board"][9] = ".....r.g.r......"   # no unifying tile: two separate kingdoms
    d["hands"][1]["black"] = 2
    d["leaders"] = [[1, "black", "J11"], [0, "black", "G10"], [1, "red", "K10"],
                    [0, "red", "E10"]]
    d["treasures"] = list(reversed(ALL_TREASURES))
    st, known, bag_known = position_from_dict(d)
    out = position_to_dict(st, known, bag_known)
    assert out["leaders"] == [[0, "red", "E10"], [0, "black", "G10"], [1, "red", "K10"],
                              [1, "black", "J11"]]
    assert out["treasures"] == ALL_TREASURES


# --- rejected positions ---------------------------------------------------------------------

def put(d, square, ch):
    s = sq(square)
    row = d["board"][s // 16]
    d["board"][s // 16] = row[:s % 16] + ch + row[s % 16 + 1:]


def with_monument(d):
    """full() with a red-blue monument of red tiles on B10 C10 B11 C11 (bag red 44-4 = 40)."""
    for name in ("B10", "C10", "B11", "C11"):
        put(d, name, "#")
    d["monuments"] = [{"colors": "red-blue", "at": "B10", "tiles": "red"}]
    d["bag"]["red"] = 40
    return d


def set_key(key, value):
    def change(d):
        d[key] = value
    return change


REJECTED = [
    # top level
    ("unknown key", set_key("colour_of_the_sky", "blue"),
     r"^colour_of_the_sky: unknown key \(allowed: format, players, turn"),
    ("missing key", lambda d: d.pop("scores"), r"^scores: missing"),
    ("format", set_key("format", "tne-position/2"), r"^format: "),
    ("players 1", set_key("players", 1), r"^players: 1 is out of range \(2 to 4\)"),
    ("players 5", set_key("players", 5), r"^players: 5 is out of range"),
    ("players text", set_key("players", "2"), r"^players: expected an integer"),
    ("players bool", set_key("players", True), r"^players: expected an integer"),
    ("turn", set_key("turn", 2), r"^turn: 2 is out of range \(0 to 1\)"),
    ("actions_left", set_key("actions_left", 3), r"^actions_left: 3 is out of range"),
    # board
    ("rows", lambda d: d["board"].pop(), r"^board: 10 rows, expected 11"),
    ("row length", lambda d: d["board"].__setitem__(2, d["board"][2][:15]),
     r"^board: row 3 has 15 squares, expected 16$"),
    ("character", lambda d: put(d, "A1", "z"), r"^board: square A1 is 'z'"),
    ("blue on land", lambda d: put(d, "A1", "b"), r"^board: square A1 is land.*blue"),
    ("red on river", lambda d: put(d, "E1", "r"), r"^board: square E1 is river.*red"),
    ("~ on land", lambda d: put(d, "A1", "~"), r"^board: square A1 is land"),
    (". on river", lambda d: put(d, "E1", "."), r"^board: square E1 is river"),
    ("# without monument", lambda d: put(d, "A1", "#"), r"^board: square A1 .* no monument"),
    # leaders
    ("leader player", lambda d: d["leaders"].__setitem__(0, [2, "red", "G3"]),
     r"^leaders\[0\] player: 2 is out of range"),
    ("leader colour", lambda d: d["leaders"].__setitem__(0, [0, "purple", "G3"]),
     r"^leaders\[0\] colour: \"purple\" is not a colour"),
    ("leader square", lambda d: d["leaders"].__setitem__(0, [0, "red", "Q1"]),
     r"^leaders\[0\] square: \"Q1\" is not a square"),
    ("leader shape", lambda d: d["leaders"].__setitem__(0, [0, "red"]), r"^leaders\[0\]: "),
    ("leader twice", lambda d: d["leaders"].append([0, "red", "K2"]),
     r"^leaders\[2\]: player 0 has two red leaders"),
    ("leader on river", lambda d: d["leaders"].append([1, "blue", "E1"]),
     r"^leaders\[2\]: E1 is a river square"),
    ("leader on a tile", lambda d: d["leaders"].append([1, "blue", "K1"]),
     r"^leaders\[2\]: K1 is 'r' on the board"),
    ("leader not next to red", lambda d: d["leaders"].append([1, "green", "H5"]),
     r"^leaders\[2\]: H5 is not next to a face-up red tile"),
    ("two leaders on a square", lambda d: d["leaders"].append([1, "green", "G3"]),
     r"^leaders\[2\]: G3 already holds leaders\[0\]"),
    # treasures
    ("treasure twice", lambda d: d["treasures"].__setitem__(1, "K1"),
     r"^treasures\[1\]: K1 is listed twice"),
    ("treasure off a temple square", lambda d: d["treasures"].__setitem__(0, "A1"),
     r"^treasures\[0\]: A1 is not a starting temple square"),
    ("treasure without its temple", lambda d: (put(d, "B2", "."), d["bag"].update(red=45)),
     r"^treasures\[1\]: B2 is '.' on the board"),
    ("treasures taken too many", lambda d: d["scores"][0].update(treasure=1),
     r"^treasures: 10 on the board and 1 taken"),
    # monuments
    ("monument name", lambda d: with_monument(d)["monuments"][0].update(colors="red-red"),
     r"^monuments\[0\]\.colors: \"red-red\" is not a monument"),
    ("monument off the board", lambda d: with_monument(d)["monuments"][0].update(at="P3"),
     r"^monuments\[0\]\.at: P3: its 2x2 block would leave the board"),
    ("monument not on #", lambda d: with_monument(d)["monuments"][0].update(at="C10"),
     r"^monuments\[0\]\.at: square D10 of its block is '\.'"),
    ("monument tiles", lambda d: with_monument(d)["monuments"][0].update(tiles="green"),
     r"^monuments\[0\]\.tiles: green is not a colour of red-blue"),
    ("monument blue tiles on land", lambda d: with_monument(d)["monuments"][0].update(tiles="blue"),
     r"^monuments\[0\]\.tiles: blue tiles cannot lie on square B10 \(land\)"),
    ("monument twice", lambda d: with_monument(d)["monuments"].append(
        {"colors": "red-blue", "at": "B10", "tiles": "red"}),
     r"^monuments\[1\]\.colors: monument red-blue is listed twice"),
    ("monuments overlap", lambda d: with_monument(d)["monuments"].append(
        {"colors": "red-green", "at": "B10", "tiles": "red"}),
     r"^monuments\[1\]\.at: square B10 is also part of monument red-blue"),
    ("monument key", lambda d: with_monument(d)["monuments"][0].update(size=4),
     r"^monuments\[0\]\.size: unknown key \(allowed: colors, at, tiles\)"),
    # hands
    ("hands length", lambda d: d["hands"].pop(), r"^hands: 1 entries, expected 2"),
    ("hand missing colour", lambda d: d["hands"][0].pop("black"), r"^hands\[0\]\.black: missing"),
    ("hand extra colour", lambda d: d["hands"][0].update(white=0),
     r"^hands\[0\]\.white: unknown key"),
    ("hand negative", lambda d: d["hands"][0].update(red=-1),
     r"^hands\[0\]\.red: -1 is out of range"),
    ("hand of seven", lambda d: d["hands"][0].update(red=3), r"^hands\[0\]: 7 tiles, at most 6"),
    ("hand_sizes length", set_key("hand_sizes", [6]), r"^hand_sizes: 1 entries, expected 2"),
    ("hand_sizes range", set_key("hand_sizes", [7, 6]), r"^hand_sizes\[0\]: 7 is out of range"),
    ("hand_sizes vs hand", set_key("hand_sizes", [5, 6]),
     r"^hand_sizes\[0\]: 5, but hands\[0\] holds 6 tiles"),
    # catastrophes, scores, out of game
    ("catastrophes range", set_key("catastrophes", [3, 2]),
     r"^catastrophes\[0\]: 3 is out of range \(0 to 2\)"),
    ("catastrophes placed", lambda d: put(d, "A1", "x"),
     r"^catastrophes: 1 catastrophes \(x\) on the board"),
    ("score key", lambda d: d["scores"][1].pop("treasure"), r"^scores\[1\]\.treasure: missing"),
    ("score negative", lambda d: d["scores"][0].update(red=-2), r"^scores\[0\]\.red: -2"),
    ("out_of_game key", lambda d: d["out_of_game"].pop("black"), r"^out_of_game\.black: missing"),
    ("out_of_game negative", lambda d: d["out_of_game"].update(green=-1),
     r"^out_of_game\.green: -1"),
    ("hidden_discards", set_key("hidden_discards", -1), r"^hidden_discards: -1 is out of range"),
    # bag and tile conservation
    ("bag letters", set_key("bag", "rbx"), r"^bag: character 3 is 'x'"),
    ("bag counts key", lambda d: d["bag"].pop("black"), r"^bag\.black: missing"),
    ("bag type", set_key("bag", 131), r"^bag: expected a string of colour letters"),
    ("bag omitted, hands known", lambda d: d.pop("bag"),
     r"^bag: missing; the bag may be omitted only when some hand is unknown"),
    # red: board 10 + hands 3 + out_of_game 1 + bag 44 = 58
    ("too many red", lambda d: d["out_of_game"].update(red=1),
     r"^tiles: 58 red tiles .* only 57 exist"),
    ("total with bag", lambda d: d["bag"].update(red=43), r"^tiles: .* = 152, expected exactly 153"),
    # pending
    ("pending type", set_key("pending", "revolt"), r"^pending: expected null or an object"),
    ("pending kind", set_key("pending", {"kind": "duel"}), r"^pending\.kind: \"duel\""),
    ("pending extra key", lambda d: revolt_in(d)["pending"].update(size=1),
     r"^pending\.size: unknown key \(allowed: kind, colour, attacker, defender, attacker_commit\)"),
    ("pending missing key", lambda d: revolt_in(d)["pending"].pop("attacker_commit"),
     r"^pending\.attacker_commit: missing"),
    ("pending colour", lambda d: revolt_in(d)["pending"].update(colour="r"),
     r"^pending\.colour: \"r\" is not a colour"),
    ("pending attacker range", lambda d: revolt_in(d)["pending"].update(attacker=2),
     r"^pending\.attacker: 2 is out of range \(0 to 1\)"),
    ("pending same player", lambda d: revolt_in(d)["pending"].update(defender=1),
     r"^pending\.defender: the attacker and the defender are both player 1"),
    ("pending commit", lambda d: revolt_in(d)["pending"].update(attacker_commit=7),
     r"^pending\.attacker_commit: 7 is out of range \(0 to 6\)"),
    ("revolt without leaders", lambda d: revolt_in(d)["pending"].update(colour="green"),
     r"^pending\.attacker: player 1 has no green leader on the board"),
    ("revolt attacker not on turn", lambda d: revolt_in(d).update(turn=0),
     r"^pending\.attacker: player 1, but the attacker of a revolt is the player whose turn"),
    ("pending when over", lambda d: revolt_in(d).update(actions_left=0),
     r"^pending: a revolt is pending but actions_left is 0"),
    ("war-choice square", set_key("pending", {"kind": "war-choice", "unifying": "Z1"}),
     r"^pending\.unifying: \"Z1\" is not a square"),
    ("war-choice empty square", set_key("pending", {"kind": "war-choice", "unifying": "A1"}),
     r"^pending\.unifying: A1 is '\.' on the board"),
    ("monument square", set_key("pending", {"kind": "monument", "at": "K1"}),
     r"^pending\.at: K1 is in no 2x2 block"),
    ("treasure player", set_key("pending", {"kind": "treasure", "player": 2}),
     r"^pending\.player: 2 is out of range"),
]


def revolt_in(d):
    d.update(revolt())
    return d


@pytest.mark.parametrize("change,message", [r[1:] for r in REJECTED], ids=[r[0] for r in REJECTED])
def test_rejected(change, message):
    d = full()
    change(d)
    with pytest.raises(PositionError, match=message):
        position_from_dict(d)


def test_valid_monument_base_loads():
    # the base of the monument rejections is itself valid
    st, _, _ = position_from_dict(with_monument(full()))
    assert st[S.MON_SQ] == sq("B10")


def test_not_json():
    with pytest.raises(PositionError, match=r"^position: not valid JSON"):
        load_position('{"format": "tne-position/1",')
    with pytest.raises(PositionError, match=r"^position: expected a JSON object"):
        load_position("[1, 2]")


def test_unknown_hands_more_than_153():
    d = spec_example()
    # 10 temples + 6 + 6 unknown + 132 discarded = 154
    d["hidden_discards"] = 132
    with pytest.raises(PositionError, match=r"^tiles: .* = 154, more than the 153"):
        position_from_dict(d)


def test_bag_and_unknown_hand_must_leave_the_hidden_discards():
    d = spec_example()
    d["bag"] = {"red": 40, "blue": 33, "green": 27, "black": 27}
    d["hidden_discards"] = 3      # 10 + 6 + 6 + 127 + 3 = 152
    with pytest.raises(PositionError, match=r"^tiles: .* = 152, expected exactly 153"):
        position_from_dict(d)


# --- checks that use kingdoms (engine) -------------------------------------------------------

def test_two_red_leaders_in_one_kingdom_without_a_revolt():
    d = revolt()
    d["pending"] = None
    with pytest.raises(PositionError,
                       match=r"^leaders: the red leaders of players 0 and 1 are in one kingdom"):
        position_from_dict(d)


def test_revolt_leaders_in_two_kingdoms():
    d = revolt()
    d["leaders"] = [[0, "red", "G3"], [1, "red", "K2"]]   # K2 touches K1, far from F3
    with pytest.raises(PositionError, match=r"^pending: revolt: the red leaders of players 1 "
                                            r"and 0 are not in one kingdom"):
        position_from_dict(d)


def test_treasure_owed_without_pending_treasure():
    d = treasure()
    d["pending"] = None
    with pytest.raises(PositionError, match=r"^treasures: the kingdom of player 0's trader"):
        position_from_dict(d)


def test_pending_treasure_of_the_wrong_player():
    d = treasure()
    d["pending"] = {"kind": "treasure", "player": 1}
    with pytest.raises(PositionError, match=r"^pending\.player: player 1 cannot be taking"):
        position_from_dict(d)


def test_war_choice_with_one_colour_in_conflict():
    d = war_choice()
    d["leaders"].remove([1, "black", "J11"])
    d["hands"][1]["black"] = 1
    with pytest.raises(PositionError, match=r"^pending: war-choice: two or more colours .* "
                                            r"in conflict: red$"):
        position_from_dict(d)


def test_war_colour_not_in_conflict():
    d = war()
    d["leaders"] = [[0, "red", "E10"], [0, "black", "G10"], [1, "red", "K10"],
                    [1, "black", "L1"]]   # player 1's king away, next to K1
    with pytest.raises(PositionError, match=r"^pending\.colour: black is not in conflict "
                                            r"around I10; in conflict: red"):
        position_from_dict(d)


def test_war_attacker_is_first_clockwise_from_the_active_player():
    d = war()
    d["pending"].update(attacker=0, defender=1)
    with pytest.raises(PositionError, match=r"^pending\.attacker: player 0, but player 1"):
        position_from_dict(d)


# --- game records ---------------------------------------------------------------------------

def test_game_record_result_from_the_final_position():
    rec = game_record(ordered(), ["tile red H5", "pass"], game_over(),
                      {"agents": ["random", "random"], "seed": 7})
    assert list(rec) == ["format", "start", "moves", "result", "meta"]
    assert rec["format"] == "tne-game/1"
    # player 0: red 3 blue 2 green 1 black 4 + 5 treasures to the lowest one at a time:
    # green 2, blue 3, green 3, red 4, blue 4 -> 3 4 4 4.  Player 1: red 5 blue 1 green 2
    # black 2 + 3: blue 2, green 3, black 3 -> 2 3 3 5.  Player 0's lowest (3) beats 2.
    assert rec["result"]["final"] == [[3, 4, 4, 4], [2, 3, 3, 5]]
    assert rec["result"]["ranking"] == [1, 2]
    assert rec["result"]["scores"] == game_over()["scores"]
    assert load_game_record(json.dumps(rec)) == rec


def _score(r, b, g, k, t=0):
    return {"red": r, "blue": b, "green": g, "black": k, "treasure": t}


def test_final_values_and_shared_places():
    # treasures go one at a time to the lowest colour: 1 2 2 2 + 1 -> 2 2 2 2
    assert game_result([_score(1, 2, 2, 2, 1), _score(0, 5, 0, 1, 3)])["final"] == [[2, 2, 2, 2], [1, 1, 2, 5]]
    # equal on all four share a place; the next place counts the players above: 1, 1, 3
    assert game_result([_score(2, 2, 2, 2), _score(2, 2, 2, 2), _score(0, 0, 0, 9)])["ranking"] == [1, 1, 3]
    # lowest colour first, then the second lowest
    assert game_result([_score(1, 5, 5, 5), _score(2, 2, 2, 2), _score(2, 2, 3, 3)])["ranking"] == [3, 2, 1]


def test_game_record_with_a_ready_result():
    scores = [{"red": 2, "blue": 2, "green": 2, "black": 2, "treasure": 0},
              {"red": 1, "blue": 2, "green": 2, "black": 2, "treasure": 1}]
    result = {"scores": scores, "final": [[2, 2, 2, 2], [2, 2, 2, 2]], "ranking": [1, 1]}
    rec = game_record(ordered(), ["pass", "pass"], result)
    assert rec["result"] == result and rec["meta"] == {}


def record():
    return {"format": "tne-game/1", "start": ordered(), "moves": ["tile red H5", "pass"],
            "result": {"scores": [dict(ZERO_SCORE), dict(ZERO_SCORE)],
                       "final": [[0, 0, 0, 0], [0, 0, 0, 0]], "ranking": [1, 1]},
            "meta": {"truncated": True}}


def test_game_record_loads():
    assert load_game_record(record()) == record()


def test_game_record_start_with_an_unknown_hand_and_ordered_bag():
    rec = record()
    rec["start"]["hands"][1] = None
    with pytest.raises(PositionError, match=r"^start\.hands: .*every hand known"):
        load_game_record(rec)


GAME_REJECTED = [
    ("format", lambda r: r.update(format="tne-game/2"), r"^format: "),
    ("key", lambda r: r.update(winner=0), r"^winner: unknown key \(allowed: format, start"),
    ("no result", lambda r: r.pop("result"), r"^result: missing"),
    ("start invalid", lambda r: r["start"].update(players=5), r"^start\.players: 5"),
    ("start counted bag", lambda r: r.update(start=full()), r"^start\.bag: .*ordered string"),
    ("moves type", lambda r: r.update(moves="pass"), r"^moves: expected a list"),
    ("move text", lambda r: r["moves"].append(3), r"^moves\[2\]: expected a move text"),
    ("move parse", lambda r: r["moves"].append("jump A1"), r"^moves\[2\]: unknown move 'jump'"),
    ("result key", lambda r: r["result"].update(winner=0), r"^result\.winner: unknown key"),
    ("result scores", lambda r: r["result"]["scores"].pop(), r"^result\.scores: 1 entries"),
    ("result final", lambda r: r["result"].update(final=[[0, 0, 0, 1], [0, 0, 0, 0]]),
     r"^result\.final\[0\]: \[0, 0, 0, 1\], but the scores give \[0, 0, 0, 0\]"),
    ("result ranking", lambda r: r["result"].update(ranking=[1, 2]),
     r"^result\.ranking: \[1, 2\], but the final values give \[1, 1\]"),
    ("meta", lambda r: r.update(meta=[]), r"^meta: expected an object"),
]


@pytest.mark.parametrize("change,message", [r[1:] for r in GAME_REJECTED],
                         ids=[r[0] for r in GAME_REJECTED])
def test_game_record_rejected(change, message):
    rec = record()
    change(rec)
    with pytest.raises(PositionError, match=message):
        load_game_record(rec)


def test_game_record_not_json():
    with pytest.raises(PositionError, match=r"^game: not valid JSON"):
        load_game_record("{")


# --- ASCII ----------------------------------------------------------------------------------

def cell(text, name):
    """The two characters drawn for square `name` (rows below the header line)."""
    s = sq(name)
    line = text.splitlines()[1 + s // 16].ljust(3 + 32)
    return line[3 + 2 * (s % 16):5 + 2 * (s % 16)]


def test_ascii_board_war_position():
    st, _, _ = position_from_dict(war_choice())
    text = ascii_board(st)
    lines = text.splitlines()
    assert lines[0].split() == list("ABCDEFGHIJKLMNOP")
    assert [line.split()[0] for line in lines[1:12]] == [str(r) for r in range(1, 12)]
    assert len(lines) == 13
    assert "catastrophe" in lines[12] and "treasure" in lines[12]
    expected = {"E10": "R0", "F10": "r*", "G10": "K0", "H10": "g ", "I10": "k ", "J10": "r ",
                "K10": "R1", "J11": "K1", "K11": "r*", "A1": ". ", "E1": "~ ", "K1": "r*",
                "A4": "~ ", "H5": ". "}
    for name, drawn in expected.items():
        assert cell(text, name) == drawn, name


def test_ascii_board_monuments_catastrophe_treasure_taken():
    st, _, _ = position_from_dict(game_over())
    text = ascii_board(st)
    expected = {"B10": "# ", "C11": "# ", "E9": "# ", "F10": "#*", "H5": "x ", "L1": "K0",
                "H7": "R1", "K1": "r*", "B2": "r ", "I7": "r ", "K11": "r "}
    for name, drawn in expected.items():
        assert cell(text, name) == drawn, name


def test_ascii_board_blue_tiles_on_the_river():
    st, _, _ = position_from_dict(treasure())
    text = ascii_board(st)
    assert [cell(text, n) for n in ("B2", "C2", "D2", "D3", "E3", "F3", "C3")] == \
        ["r*", "r ", "r ", "b ", "b ", "r*", "G0"]


def test_summary_hides_hands_from_a_viewer():
    st, known, _ = position_from_dict(game_over())
    everyone = summary(st, known)
    assert "red 1 blue 1 green 2 black 2" in everyone      # player 0's hand
    assert "red 2 blue 2 green 1 black 1" in everyone      # player 1's hand
    as_0 = summary(st, known, viewer=0)
    lines = as_0.splitlines()
    assert "red 1 blue 1 green 2 black 2" in lines[0]
    assert "hidden (6 tiles)" in lines[1] and "red 2 blue 2" not in lines[1]
    assert "game over" in as_0
    assert "bag: 120 tiles" in as_0


def test_summary_unknown_hand_and_pending():
    st, known, _ = position_from_dict(spec_example())
    text = summary(st, known)
    assert "hidden (6 tiles)" in text.splitlines()[1]
    st, known, _ = position_from_dict(revolt())
    text = summary(st, known)
    assert "revolt (red)" in text and "player 1 commits" in text
