"""Scenario tests for the treasure check (SPEC section 3, "treasure check").

Expected outcomes are worked out by hand from SPEC.md.
"""
from helpers import START_TEMPLES, legal, load, score, scores_of, treasures_on_board

# West chain: corner temple B2 - black C2 - black D2 (leaderless); E2 is river (empty).
# East: temple F3 - black F2 + P1 green leader (trader) on G3.  A blue tile on E2 joins them.
CHAIN_TILES = {"C2": "k", "D2": "k", "F2": "k"}


def test_trader_owner_takes_corner_treasure_even_when_not_active():
    """SPEC 3 (treasure check): a kingdom holding a trader and 2+ treasures: the trader's owner
    (here P1, not the active player) takes until exactly one is left; corner treasures first;
    the forced single `treasure B2` is still a move; a taken treasure scores `treasure`.

    P0 plays blue E2: one kingdom (the west chain has no leader), no blue leader, no king:
    nobody scores the tile.  The kingdom now holds B2 (corner) and F3: P1 must take B2.
    """
    p = load(tiles=CHAIN_TILES, leaders=[(1, "green", "G3")], hands=["rbbggk", "rbbggk"])
    p.push("tile blue E2")
    assert p.pending == {"kind": "treasure", "player": 1}
    assert p.to_act == 1
    assert legal(p) == ["treasure B2"]
    p.push("treasure B2")
    assert p.pending is None
    assert score(p, 1) == scores_of(treasure=1)
    assert score(p, 0) == scores_of()
    assert treasures_on_board(p) == sorted(t for t in START_TEMPLES if t != "B2")
    assert p.to_act == 0 and p.actions_left == 1


# A long region: I7 - J7 K7 L7 L6 M6 N6 (black) - N5; N6 - N7 (blue, river) - N8 O8 (black) - O9.
LONG_TILES = {"J7": "k", "K7": "k", "L7": "k", "L6": "k", "M6": "k", "N6": "k",
              "N7": "b", "N8": "k", "O8": "k"}


def test_corner_first_then_choice_until_one_left_after_leader_placement():
    """SPEC 3: the check runs after a leader action too.  P0's trader placed on H7 makes a
    kingdom with I7, N5 and corner O9: while the corner is there only `treasure O9` is legal;
    then P0 chooses between I7 and N5 and stops when exactly one is left."""
    p = load(tiles=LONG_TILES)
    p.push("leader green H7")
    assert p.pending == {"kind": "treasure", "player": 0}
    assert legal(p) == ["treasure O9"]
    p.push("treasure O9")
    assert p.pending == {"kind": "treasure", "player": 0}
    assert legal(p) == ["treasure I7", "treasure N5"]
    p.push("treasure N5")
    assert p.pending is None
    assert score(p, 0) == scores_of(treasure=2)
    assert treasures_on_board(p) == sorted(["K1", "B2", "P2", "F3", "I7", "B8", "F10", "K11"])
    assert p.actions_left == 1


def test_no_treasure_taken_without_trader():
    """SPEC 3: only a kingdom holding a trader (green leader) gives treasures.  P0's red
    leader on H7 joins the same three treasures: nothing happens."""
    p = load(tiles=LONG_TILES)
    p.push("leader red H7")
    assert p.pending is None
    assert len(treasures_on_board(p)) == 10
