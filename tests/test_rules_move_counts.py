"""Legal move counts worked out by hand from the rules (SPEC sections 1, 3 and 8).

Map facts (SPEC 1): 176 squares, 41 river, so 135 land; 10 starting temples (all on land, each
with a treasure).  The 10 temples have 33 empty land neighbours in all (listed in
test_rules_leaders.TEMPLE_LAND_NEIGHBOURS; no square is next to two temples).
"""
from helpers import load


def test_move_count_start_position():
    """P0 to act, hand r r b g g k, 2 catastrophes, no leader on the board.

    pass                                                          1
    swap: sub-multisets of {r:2, b:1, g:2, k:1} minus the empty   3*2*3*2 - 1 = 35
    tile red/green/black on the 135 - 10 = 125 empty land squares  3 * 125 = 375
    tile blue on the 41 empty river squares                       41
    leader (4 colours) on the 33 land squares next to a temple    4 * 33 = 132
    withdraw: no leader on the board                              0
    catastrophe: 125 + 41 empty squares (every tile has a treasure) 166
    total                                                         750
    """
    p = load(hands=["rrbggk", "rrbggk"])
    assert len(p.legal_moves()) == 750


def test_move_count_one_kingdom_red_hand():
    """P0 red leader on H7 (next to I7); P0's hand is six red tiles.

    pass                                                            1
    swap: r .. rrrrrr                                               6
    tile red on 125 - 1 (H7) = 124 empty land squares (one kingdom,
      so no square touches 3)                                       124
    leader blue/green/black from supply: 33 - 1 (H7 occupied) = 32 squares,
      one kingdom only so no 2-kingdom ban                          3 * 32 = 96
    leader red (a move): with it lifted, the 33 squares minus its origin H7    32
    withdraw red                                                    1
    catastrophe: 124 empty land + 41 river                          165
    total                                                           425
    """
    p = load(leaders=[(0, "red", "H7")], hands=["rrrrrr", "rrbggk"])
    assert len(p.legal_moves()) == 425


def test_move_count_three_kingdoms():
    """Red tiles G5, H4, I5; P0 red leader F5 (kingdom A = F5 G5), P1 blue leader H3
    (B = H3 H4), P0 green leader J5 (C = I5 J5).  P0 to act, hand r r b g g k.

    Empty land: 135 - 10 temples - 3 tiles - 3 leaders = 119.  Squares touching kingdoms:
    H5 touches A, B, C; G4 touches A, B; I4 touches B, C; all others at most one.
    tiles: red/green/black on 119 - 1 (H5) = 118 squares      3 * 118 = 354
           blue on 41 river squares                           41
    leader squares (empty land next to a face-up red): the 33 temple squares + G4, G6, H5, I4
      (F5, H3, J5 are occupied) = 37.
      blue, black from supply: minus G4, I4 (2 kingdoms), H5 (3)   2 * 34 = 68
      red (move, A leaderless once lifted): minus H5, I4 (B and C);
        G4 touches only B now; origin F5 excluded                  35
      green (move, C leaderless once lifted): minus H5, G4 (A and B);
        I4 touches only B now; origin J5 excluded                  35
      (a blue leader into B is a revolt: still legal)
    withdraw red, withdraw green                                   2
    catastrophe: 119 + 41 empty squares + G5, H4, I5 (no treasure) 163
    swap                                                           35
    pass                                                           1
    total 354 + 41 + 68 + 35 + 35 + 2 + 163 + 35 + 1 =             734
    """
    p = load(tiles={"G5": "r", "H4": "r", "I5": "r"},
             leaders=[(0, "red", "F5"), (1, "blue", "H3"), (0, "green", "J5")],
             hands=["rrbggk", "rrbggk"])
    assert len(p.legal_moves()) == 734


def test_move_count_revolt_commit():
    """SPEC 4/8: a revolt commit offers commit 0..n for n red tiles in hand: 3 reds -> 4 moves."""
    p = load(leaders=[(1, "red", "H7")], hands=["rrrbgk", "rrbggk"])
    p.push("leader red J7")
    assert len(p.legal_moves()) == 4
