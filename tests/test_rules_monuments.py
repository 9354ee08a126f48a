"""Scenario tests for monuments (SPEC section 5 and the monument points of section 3's turn end).

Expected outcomes are worked out by hand from SPEC.md.
"""
from helpers import at, leaders_on_board, legal, load, score, scores_of

BLOCK = ("G4", "H4", "G5", "H5")


def test_monument_offer_on_completed_red_block_and_build():
    """SPEC 5: a tile completing a 2x2 square of one colour: the active player may build an
    unbuilt monument having that colour (red-blue, red-green, red-black) or decline; the four
    tiles are flipped."""
    p = load(tiles={"G4": "r", "H4": "r", "G5": "r"})
    p.push("tile red H5")
    assert p.pending == {"kind": "monument", "at": "H5"}
    assert p.to_act == 0
    assert legal(p) == ["decline", "monument red-black G4", "monument red-blue G4",
                        "monument red-green G4"]
    p.push("monument red-green G4")
    assert p.pending is None
    for sq in BLOCK:
        assert at(p, sq) == "#"
    assert p.to_json()["monuments"] == [{"colors": "red-green", "at": "G4", "tiles": "red"}]
    assert p.actions_left == 1 and p.to_act == 0


def test_monument_decline_leaves_tiles_face_up():
    """SPEC 5: declining builds nothing."""
    p = load(tiles={"G4": "r", "H4": "r", "G5": "r"})
    p.push("tile red H5")
    p.push("decline")
    assert p.pending is None
    for sq in BLOCK:
        assert at(p, sq) == "r"
    assert p.to_json()["monuments"] == []


def test_monument_choice_of_square_in_two_by_three_block():
    """SPEC 5: the placed tile H5 is in two red 2x2 squares (top-left G4 and H4) of the 2x3
    block G4-I5: 3 monuments x 2 squares + decline = 7 moves."""
    p = load(tiles={"G4": "r", "H4": "r", "I4": "r", "G5": "r", "I5": "r"})
    p.push("tile red H5")
    assert p.pending == {"kind": "monument", "at": "H5"}
    assert legal(p) == ["decline",
                        "monument red-black G4", "monument red-black H4",
                        "monument red-blue G4", "monument red-blue H4",
                        "monument red-green G4", "monument red-green H4"]
    p.push("monument red-blue H4")
    for sq in ("H4", "I4", "H5", "I5"):
        assert at(p, sq) == "#"
    assert at(p, "G4") == "r" and at(p, "G5") == "r"
    assert p.to_json()["monuments"] == [{"colors": "red-blue", "at": "H4", "tiles": "red"}]


# Three monuments already built elsewhere (their flipped tiles drawn as #).
BUILT_RED = {
    "tiles": {"B10": "#", "C10": "#", "B11": "#", "C11": "#",
              "M10": "#", "N10": "#", "M11": "#", "N11": "#",
              "H10": "#", "I10": "#", "H11": "#", "I11": "#"},
    "monuments": [{"colors": "red-blue", "at": "B10", "tiles": "red"},
                  {"colors": "red-green", "at": "M10", "tiles": "green"},
                  {"colors": "red-black", "at": "H10", "tiles": "black"}],
}


def test_no_monument_decision_when_every_monument_of_that_colour_is_built():
    """SPEC 5: only an UNBUILT monument having the block's colour can be built: with red-blue,
    red-green and red-black all built, a red block asks nothing."""
    tiles = dict(BUILT_RED["tiles"], G4="r", H4="r", G5="r")
    p = load(tiles=tiles, monuments=BUILT_RED["monuments"])
    p.push("tile red H5")
    assert p.pending is None
    assert p.actions_left == 1 and p.to_act == 0
    for sq in BLOCK:
        assert at(p, sq) == "r"


def test_monument_offer_lists_only_unbuilt_monuments_of_the_colour():
    """SPEC 5: a green block with red-green built: blue-green and green-black are offered."""
    tiles = dict(BUILT_RED["tiles"], G4="g", H4="g", G5="g")
    p = load(tiles=tiles, monuments=BUILT_RED["monuments"], hands=["rrbggk", "rbbggk"])
    p.push("tile green H5")
    assert legal(p) == ["decline", "monument blue-green G4", "monument green-black G4"]


def test_monument_flip_withdraws_leader_and_flipped_tiles_still_connect():
    """SPEC 5 and 3 (turn end).  Kingdom: red G4, H4, G5, I3; P1 blue leader G6 (next to G5
    only), P0 black leader I4 (next to H4 and I3).
    1. P0 plays red H5: one kingdom, no red leader -> P0's king scores 1 red; block complete.
    2. Build red-black on G4: the flipped tiles are no temples, so P1's blue leader on G6 has
       no face-up red neighbour and goes back; P0's king keeps I3.
    3. P0 plays green F5 next to G5 (flipped): the flipped tiles connect it to P0's king:
       +1 green (king fallback).
    4. Turn end: red-black monument in the kingdom of P0's black leader: +1 black.
    """
    p = load(tiles={"G4": "r", "H4": "r", "G5": "r", "I3": "r"},
             leaders=[(1, "blue", "G6"), (0, "black", "I4")], hands=["rrbggk", "rbbggk"])
    p.push("tile red H5")
    assert score(p, 0) == scores_of(red=1)
    assert p.pending == {"kind": "monument", "at": "H5"}
    p.push("monument red-black G4")
    assert leaders_on_board(p) == [(0, "black", "I4")]
    assert "leader red G6" not in legal(p)   # flipped tiles are no temples
    p.push("tile green F5")
    assert p.turn == 1
    assert score(p, 0) == scores_of(red=1, green=1, black=1)
    assert score(p, 1) == scores_of()


# Built monument red-black on the G4 block (flipped red tiles); red I4, I5, K5 face up.
MON_TILES = {"G4": "#", "H4": "#", "G5": "#", "H5": "#", "I4": "r", "I5": "r", "K5": "r"}


def test_monument_points_only_for_active_player_at_turn_end():
    """SPEC 3 (turn end, monument points): the ACTIVE player scores 1 point of colour X per
    leader of his in the monument's kingdom whose colour X is one of its two colours.
    Kingdom: the red-black monument, I4, I5, K5; P0 red J4, P0 green J5, P1 black K6.
    P0's turn: +1 red (green is no monument colour), P1 nothing.  P1's turn: P1 +1 black."""
    p = load(tiles=MON_TILES,
             monuments=[{"colors": "red-black", "at": "G4", "tiles": "red"}],
             leaders=[(0, "red", "J4"), (0, "green", "J5"), (1, "black", "K6")])
    p.push("pass")
    assert score(p, 0) == scores_of()     # only at turn end
    p.push("pass")
    assert score(p, 0) == scores_of(red=1)
    assert score(p, 1) == scores_of()
    p.push("pass")
    p.push("pass")
    assert score(p, 0) == scores_of(red=1)
    assert score(p, 1) == scores_of(black=1)


def test_monument_points_have_no_king_fallback():
    """SPEC 3 (turn end): no king fallback.  Blue-green monument (green tiles) in a kingdom with
    P0's black (king) and red leaders: P0 scores nothing; P1's green leader scores 1 green at the
    end of P1's turn only."""
    tiles = dict(MON_TILES)
    p = load(tiles=tiles,
             monuments=[{"colors": "blue-green", "at": "G4", "tiles": "green"}],
             leaders=[(0, "black", "J4"), (0, "red", "J5"), (1, "green", "K6")])
    p.push("pass")
    p.push("pass")
    assert score(p, 0) == scores_of()
    assert score(p, 1) == scores_of()
    p.push("pass")
    p.push("pass")
    assert score(p, 0) == scores_of()
    assert score(p, 1) == scores_of(green=1)


def test_monument_check_on_unifying_tile_after_its_war():
    """SPEC 4/5: after the last war the unifying tile is unmarked, then the monument check runs
    on it.  A = black G4, H4, G5 + red F5 + P0 black leader F6; B = red I5 + P1 black leader J5.
    P0 plays black H5 (next to G5, H4 and I5): black war, A 3 (G4 H4 G5; H5 excluded) vs B 0:
    P0 wins, P1's leader goes, no black tile in B, P0 +1 black.  Then the block G4-H5 is four
    face-up black tiles: blue-black, green-black, red-black or decline."""
    p = load(tiles={"G4": "k", "H4": "k", "G5": "k", "F5": "r", "I5": "r"},
             leaders=[(0, "black", "F6"), (1, "black", "J5")], hands=["rbggkk", "rbbggk"])
    p.push("tile black H5")
    assert p.pending == {"kind": "war", "unifying": "H5", "colour": "black", "attacker": 0,
                         "defender": 1, "attacker_commit": None}
    p.push("commit 0")
    p.push("commit 0")
    assert leaders_on_board(p) == [(0, "black", "F6")]
    assert score(p, 0) == scores_of(black=1)
    assert p.pending == {"kind": "monument", "at": "H5"}
    assert p.to_act == 0
    assert legal(p) == ["decline", "monument blue-black G4", "monument green-black G4",
                        "monument red-black G4"]
    p.push("monument green-black G4")
    for sq in BLOCK:
        assert at(p, sq) == "#"
    assert p.to_json()["monuments"] == [{"colors": "green-black", "at": "G4", "tiles": "black"}]


def test_treasure_on_monument_tiles_stays_and_can_be_taken():
    """SPEC 5: a treasure on flipped tiles stays and can still be taken.
    Temple F3 + red G3, F4; black G5 G6 G7 H7 link G4's square to temple I7.
    P0 plays red G4 (no leader: no point) and builds red-blue on F3: F3 is flipped but keeps its
    treasure.  Then P0's trader on I6 (next to I7) makes a kingdom holding F3 and I7 (no corner):
    P0 chooses either; he takes F3."""
    p = load(tiles={"G3": "r", "F4": "r", "G5": "k", "G6": "k", "G7": "k", "H7": "k"})
    p.push("tile red G4")
    assert p.pending == {"kind": "monument", "at": "G4"}
    p.push("monument red-blue F3")
    for sq in ("F3", "G3", "F4", "G4"):
        assert at(p, sq) == "#"
    assert "F3" in p.to_json()["treasures"]
    assert len(p.to_json()["treasures"]) == 10
    p.push("leader green I6")
    assert p.pending == {"kind": "treasure", "player": 0}
    assert legal(p) == ["treasure F3", "treasure I7"]
    p.push("treasure F3")
    assert "F3" not in p.to_json()["treasures"]
    assert score(p, 0) == scores_of(treasure=1)


def test_monument_points_for_each_matching_leader():
    """SPEC 3 (turn end): one point per matching leader: P0's red and black leaders in the
    red-black monument's kingdom give +1 red and +1 black; P1's green leader nothing ever."""
    p = load(tiles=MON_TILES,
             monuments=[{"colors": "red-black", "at": "G4", "tiles": "red"}],
             leaders=[(0, "red", "J4"), (0, "black", "J5"), (1, "green", "K6")])
    p.push("pass")
    p.push("pass")
    assert score(p, 0) == scores_of(red=1, black=1)
    p.push("pass")
    p.push("pass")
    assert score(p, 0) == scores_of(red=1, black=1)
    assert score(p, 1) == scores_of()
