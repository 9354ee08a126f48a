"""Scenario tests for the tile action and kingdoms (SPEC sections 2 and 3, action 1).

Every expected outcome is worked out by hand from the rule text of SPEC.md.
Map reminder (SPEC section 1): the centre block E4-M6 is land; I7 is a starting temple whose
land neighbours are H7, J7, I6, I8; E1-I1, E2, D3, E3 are river.
"""
from helpers import at, hand, hand_of, legal, load, score, scores_of


def test_tile_point_goes_to_same_colour_leader_owner():
    """SPEC 3.1 (1 kingdom): one point of the tile's colour to the owner of the same-colour
    leader in that kingdom, even when he is not the active player, and even when a king is there.

    Kingdom: temple I7 + P1 green leader on H7 + P0 black leader (king) on I8.
    """
    p = load(leaders=[(1, "green", "H7"), (0, "black", "I8")], hands=["rrbggk", "rbbggk"])
    p.push("tile green J7")  # next to I7: one kingdom; green leader of P1 there
    assert score(p, 1) == scores_of(green=1)
    assert score(p, 0) == scores_of()
    assert at(p, "J7") == "g"
    assert hand_of(p, 0) == hand("rrbgk")
    p.push("tile red I6")  # next to I7: no red leader -> P0's king takes it, as a red point
    assert score(p, 0) == scores_of(red=1)
    assert score(p, 1) == scores_of(green=1)


def test_tile_point_king_fallback_in_tile_colour():
    """SPEC 3.1: no leader of the tile's colour -> the point (in the tile's colour) goes to the
    owner of the kingdom's king."""
    p = load(leaders=[(1, "black", "H7")])
    p.push("tile green J7")
    assert score(p, 1) == scores_of(green=1)
    assert score(p, 0) == scores_of()


def test_tile_point_nobody_without_matching_leader_or_king():
    """SPEC 3.1: no leader of the tile's colour and no king in the kingdom -> nobody scores."""
    p = load(leaders=[(1, "red", "H7")])
    p.push("tile green J7")
    assert score(p, 0) == scores_of()
    assert score(p, 1) == scores_of()
    assert at(p, "J7") == "g"


def test_blue_tile_on_river_scores_blue_for_blue_leader():
    """SPEC 3.1: blue tiles go on the river, and score like any other tile.
    P1 blue leader on F2 next to temple F3; E3 is river next to F3."""
    p = load(leaders=[(1, "blue", "F2")])
    p.push("tile blue E3")
    assert at(p, "E3") == "b"
    assert score(p, 1) == scores_of(blue=1)
    assert score(p, 0) == scores_of()


def test_tile_next_to_no_kingdom_scores_nothing():
    """SPEC 3.1 (0 kingdoms): no point, whether the tile touches nothing (G5) or only a
    leaderless region (K2 next to temple K1: a region without a leader is no kingdom, SPEC 2)."""
    p = load(leaders=[(0, "red", "H7")])
    p.push("tile red G5")
    assert score(p, 0) == scores_of()
    p.push("tile black K2")
    assert score(p, 0) == scores_of()
    assert score(p, 1) == scores_of()
    assert at(p, "G5") == "r" and at(p, "K2") == "k"


def test_tile_terrain_blue_only_on_river_others_only_on_land():
    """SPEC 3.1: a hand tile on an empty square; blue only on river, other colours only on land;
    only colours in hand; never on a tile, a leader or a catastrophe."""
    p = load(tiles={"A3": "x"}, leaders=[(1, "red", "H7")], hands=["rrbggg", "rbbggk"],
             catastrophes=[1, 2])
    moves = legal(p)
    # E1 river, A1 land
    assert "tile blue E1" in moves
    assert "tile blue A1" not in moves
    for colour in ("red", "green"):
        assert f"tile {colour} A1" in moves
        assert f"tile {colour} E1" not in moves
    # no black tile in hand
    assert not any(m.startswith("tile black") for m in moves)
    # occupied squares: temple I7, leader H7, catastrophe A3
    for sq in ("I7", "H7", "A3"):
        assert f"tile red {sq}" not in moves
        assert f"tile green {sq}" not in moves


def test_tile_touching_three_kingdoms_is_illegal():
    """SPEC 3.1: a square next to 3 or more distinct kingdoms is not a legal tile square.

    Kingdom A = G5 red + P0 red leader F5; B = H4 red + P1 blue leader H3;
    C = I5 red + P0 green leader J5.  H5 touches A, B and C; G4 touches A and B only;
    I4 touches B and C only; H6 touches none.
    """
    p = load(tiles={"G5": "r", "H4": "r", "I5": "r"},
             leaders=[(0, "red", "F5"), (1, "blue", "H3"), (0, "green", "J5")])
    moves = legal(p)
    for colour in ("red", "green", "black"):
        assert f"tile {colour} H5" not in moves
        assert f"tile {colour} G4" in moves
        assert f"tile {colour} I4" in moves
        assert f"tile {colour} H6" in moves


def test_tile_joining_two_kingdoms_without_shared_colour_no_war_no_point():
    """SPEC 3.1 (2 kingdoms) and 4: the unifying tile never scores; without a colour in both
    kingdoms there is no war.  Afterwards the two are one kingdom.

    A = G5 red + P0 black leader (king) F5; B = H4 red + P1 red leader H3.  G4 touches both.
    A black tile on G4 would give P0 a black point if it touched A only; here nobody scores.
    """
    p = load(tiles={"G5": "r", "H4": "r"}, leaders=[(0, "black", "F5"), (1, "red", "H3")])
    p.push("tile black G4")
    assert p.pending is None
    assert at(p, "G4") == "k"
    assert score(p, 0) == scores_of()
    assert score(p, 1) == scores_of()
    assert p.actions_left == 1 and p.to_act == 0
    # one kingdom now: a red tile next to G5 (A's side) gives P1's red leader (B's side) the point
    p.push("tile red G6")
    assert score(p, 1) == scores_of(red=1)
    assert score(p, 0) == scores_of()


def test_tile_with_two_neighbours_in_one_kingdom_is_not_a_unification():
    """SPEC 3.1: count DISTINCT kingdoms.  H6 touches H7 (leader) and I6, both in one kingdom
    (I7 temple, I6 red tile, P1 green leader on H7): one kingdom, normal scoring."""
    p = load(tiles={"I6": "r"}, leaders=[(1, "green", "H7")])
    p.push("tile green H6")
    assert p.pending is None
    assert score(p, 1) == scores_of(green=1)


def test_catastrophe_never_connects():
    """SPEC 2: catastrophes never connect.  Kingdom I7 + P1 green leader H7; a catastrophe on
    J7; a green tile on K7 touches only the catastrophe: no kingdom, no point."""
    p = load(tiles={"J7": "x"}, leaders=[(1, "green", "H7")], catastrophes=[1, 2])
    p.push("tile green K7")
    assert score(p, 1) == scores_of()
    assert score(p, 0) == scores_of()
