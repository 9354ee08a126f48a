"""Scenario tests for the leader and withdraw actions (SPEC section 3, actions 2 and 3).

Expected outcomes are worked out by hand from SPEC.md.
"""
from helpers import at, leaders_on_board, legal, load, score, scores_of

# SPEC 1: land squares next to each starting temple (worked out from the map by hand).
TEMPLE_LAND_NEIGHBOURS = {
    "K1": ["J1", "L1", "K2"],
    "B2": ["B1", "A2", "C2", "B3"],
    "P2": ["P1", "O2", "P3"],
    "F3": ["F2", "G3", "F4"],          # E3 is river
    "N5": ["M5", "N6"],                # N4 and O5 are river
    "I7": ["H7", "J7", "I6", "I8"],
    "B8": ["A8", "C8", "B9"],          # B7 is river
    "O9": ["O8", "N9", "P9", "O10"],
    "F10": ["F9", "E10", "G10", "F11"],
    "K11": ["K10", "J11", "L11"],
}


def test_leader_only_on_empty_land_next_to_a_face_up_red_tile():
    """SPEC 3.2: a leader goes on an empty land square next to at least one face-up red tile.
    In the start position those are the 33 land squares next to the 10 temples."""
    p = load()
    moves = legal(p)
    expected = sorted(sq for sqs in TEMPLE_LAND_NEIGHBOURS.values() for sq in sqs)
    assert len(expected) == 33
    for colour in ("red", "blue", "green", "black"):
        got = sorted(m.split()[2] for m in moves if m.startswith(f"leader {colour} "))
        assert got == expected
    # river square next to a temple: E3 (next to F3); B7 (next to B8)
    assert "leader red E3" not in moves and "leader red B7" not in moves


def test_leader_not_next_to_non_red_tile_nor_on_occupied_square():
    """SPEC 3.2: only a face-up RED tile makes a square eligible; the square must be empty.
    C5 green tile: C6 next to it only is not eligible.  H7 holds P1's leader."""
    p = load(tiles={"C5": "g", "G5": "r"}, leaders=[(1, "black", "H7")])
    moves = legal(p)
    assert "leader red C6" not in moves
    assert "leader red H7" not in moves       # occupied by a leader
    assert "leader red I7" not in moves       # the temple itself
    assert "leader red G6" in moves           # next to the loose red tile G5
    assert "leader red J7" in moves           # next to I7, joins P1's kingdom (no red there)


def test_leader_touching_two_kingdoms_is_illegal():
    """SPEC 3.2: illegal if the leader would touch 2 or more kingdoms.

    A = G5 red + P0 red leader F5; B = H4 red + P1 blue leader H3.  G4 (next to G5 and H4)
    touches both.  J4 red is a leaderless region (no kingdom, SPEC 2): I4 touches B and J4 only,
    so it touches one kingdom and is legal.
    """
    p = load(tiles={"G5": "r", "H4": "r", "J4": "r"},
             leaders=[(0, "red", "F5"), (1, "blue", "H3")])
    moves = legal(p)
    assert "leader black G4" not in moves
    assert "leader green G4" not in moves
    assert "leader black G6" in moves
    assert "leader black I4" in moves


def test_leader_move_origin_excluded_and_legality_with_leader_lifted():
    """SPEC 3.2: a leader on the board may move (lift it first; the target must differ).

    A = G5 red + P0 red leader F5 (A's only leader); B = H4 red + P1 blue leader H3.
    With P0's red leader lifted, A is leaderless, so G4 touches B only: moving the red leader to
    G4 is legal, while P0's black leader from supply may not go to G4 (touches A and B).
    """
    p = load(tiles={"G5": "r", "H4": "r"}, leaders=[(0, "red", "F5"), (1, "blue", "H3")])
    moves = legal(p)
    assert "leader red F5" not in moves       # the origin
    assert "leader red G4" in moves
    assert "leader black G4" not in moves
    assert "leader red G6" in moves
    p.push("leader red G4")
    assert p.pending is None
    assert leaders_on_board(p) == [(0, "red", "G4"), (1, "blue", "H3")]
    assert at(p, "F5") == "."
    # G4 joins G5 and H4: one kingdom with P0 red and P1 blue.  A red tile next to G5 -> P0.
    p.push("tile red G6")
    assert score(p, 0) == scores_of(red=1)
    assert score(p, 1) == scores_of()


def test_leader_move_within_own_kingdom_is_no_revolt():
    """SPEC 3.2: the moving leader is lifted first, so moving it inside its own kingdom
    (H7 -> J7, both next to temple I7) finds no other red leader: no revolt."""
    p = load(leaders=[(0, "red", "H7")])
    p.push("leader red J7")
    assert p.pending is None
    assert leaders_on_board(p) == [(0, "red", "J7")]
    assert p.actions_left == 1


def test_withdraw_leader():
    """SPEC 3.3: take one of your leaders from the board back to supply; only leaders on the
    board can be withdrawn.  Once back in supply it may be placed again."""
    p = load(leaders=[(0, "red", "H7"), (1, "red", "F4")])
    moves = legal(p)
    assert "withdraw red" in moves
    assert "withdraw blue" not in moves
    p.push("withdraw red")
    assert leaders_on_board(p) == [(1, "red", "F4")]
    assert at(p, "H7") == "."
    assert p.pending is None and p.actions_left == 1
    moves = legal(p)
    assert "withdraw red" not in moves
    assert "leader red H7" in moves
    # I7 is leaderless now: a tile next to it scores nothing
    p.push("tile red J7")
    assert score(p, 0) == scores_of()
    assert score(p, 1) == scores_of()


def test_leader_move_lifting_splits_its_kingdom():
    """SPEC 3.2: legality of a move is decided with the leader lifted, which can also SPLIT its
    kingdom.  Red G4, G5 + P1 black F5 (R1); red I4, I5 + P1 blue J5 (R2); P0's red leader on
    H5 (next to G5 and I5) joins them into one kingdom.  H4 touches G4 and I4:
    - P0's red leader lifted: R1 and R2 are two kingdoms -> moving it to H4 is illegal;
    - P0's blue leader from supply: one kingdom (a revolt with P1's blue) -> legal."""
    p = load(tiles={"G4": "r", "G5": "r", "I4": "r", "I5": "r"},
             leaders=[(1, "black", "F5"), (1, "blue", "J5"), (0, "red", "H5")])
    moves = legal(p)
    assert "leader red H4" not in moves
    assert "leader blue H4" in moves
    assert "leader black H4" in moves
    assert "tile black H4" in moves
