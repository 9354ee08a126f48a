"""Scenario tests for the catastrophe, swap and pass actions (SPEC section 3, actions 4-6).

Expected outcomes are worked out by hand from SPEC.md.
"""
from helpers import (at, hand, hand_of, leaders_on_board, legal, load, out_of_game, score,
                     scores_of)


def test_catastrophe_on_empty_land_and_river():
    """SPEC 3.4: a catastrophe goes on an empty square, land or river, and blocks it for the
    rest of the game (no tile, leader or catastrophe may go there)."""
    p = load(catastrophes=[2, 2])
    moves = legal(p)
    assert "catastrophe A1" in moves      # land
    assert "catastrophe E1" in moves      # river
    p.push("catastrophe E1")
    assert at(p, "E1") == "x"
    assert p.to_json()["catastrophes"] == [1, 2]
    assert p.pending is None
    moves = legal(p)
    assert "catastrophe E1" not in moves
    assert "tile blue E1" not in moves
    p.push("catastrophe A1")
    assert at(p, "A1") == "x"
    assert p.to_json()["catastrophes"] == [0, 2]
    # catastrophes are never replenished (SPEC 1): still 0 after the refill
    assert p.turn == 1


def test_catastrophe_none_left_gives_no_catastrophe_move():
    """SPEC 1/3.4: a player with no catastrophe tile left has no catastrophe move."""
    p = load(catastrophes=[1, 2])
    p.push("catastrophe A1")
    assert not any(m.startswith("catastrophe") for m in legal(p))


def test_catastrophe_on_a_tile_removes_it_from_the_game():
    """SPEC 3.4: on a tile (no treasure, not a monument), removing that tile from the game."""
    p = load(tiles={"G5": "r", "H5": "k"})
    moves = legal(p)
    assert "catastrophe G5" in moves and "catastrophe H5" in moves
    p.push("catastrophe G5")
    assert at(p, "G5") == "x"
    assert out_of_game(p) == {"red": 1, "blue": 0, "green": 0, "black": 0}
    p.push("catastrophe H5")
    assert at(p, "H5") == "x"
    assert out_of_game(p) == {"red": 1, "blue": 0, "green": 0, "black": 1}


def test_catastrophe_not_on_treasure_monument_leader_or_catastrophe():
    """SPEC 3.4: not on a treasure (every starting temple here), a monument tile, a leader or
    another catastrophe.  A red tile without treasure (G5) is fine."""
    mon = {"colors": "red-black", "at": "B10", "tiles": "red"}
    p = load(tiles={"B10": "#", "C10": "#", "B11": "#", "C11": "#", "A1": "x", "G5": "r"},
             monuments=[mon], leaders=[(1, "red", "H7")], catastrophes=[1, 2])
    moves = legal(p)
    for sq in ("K1", "I7", "B2", "B10", "C10", "B11", "C11", "H7", "A1"):
        assert f"catastrophe {sq}" not in moves
    assert "catastrophe G5" in moves
    assert "catastrophe A2" in moves


def test_catastrophe_withdraws_leader_without_temple_and_splits_kingdom():
    """SPEC 3.4: a leader left with no adjacent face-up red tile goes back to its owner; the
    catastrophe can split a kingdom and starts no conflict.

    Kingdom: E5 red, F5 black, G5 red, I5 black, J5 red; P1 green leader E4 (next to E5),
    P0 red leader H5 (next to G5 only), P1 black leader J4 (next to J5).
    Catastrophe on G5: P0's red leader loses its only red neighbour and goes back; the kingdom
    splits into E4-E5-F5 (P1 green) and I5-J5-J4 (P1 black).  Then a black tile on F6 (next
    to F5) scores nothing: that kingdom has no black leader and no king any more.
    """
    p = load(tiles={"E5": "r", "F5": "k", "G5": "r", "I5": "k", "J5": "r"},
             leaders=[(1, "green", "E4"), (0, "red", "H5"), (1, "black", "J4")])
    p.push("catastrophe G5")
    assert p.pending is None
    assert at(p, "G5") == "x"
    assert leaders_on_board(p) == [(1, "black", "J4"), (1, "green", "E4")]
    assert out_of_game(p)["red"] == 1
    assert p.to_act == 0 and p.actions_left == 1
    p.push("tile black F6")
    assert score(p, 0) == scores_of()
    assert score(p, 1) == scores_of()


def test_swap_discards_and_draws_from_bag_front():
    """SPEC 3.5: discard 1 to 6 hand tiles out of the game face down (hidden_discards grows) and
    draw as many at once (ordered bag: from its front)."""
    p = load(hands=["rrbggk", "rbbggk"], bag="kkbgrrbbggkkrrbbggkk")
    before = p.to_json()["hidden_discards"]
    moves = legal(p)
    assert "swap rrk" in moves
    assert "swap rrbggk" in moves
    assert "swap rrr" not in moves
    assert "swap kk" not in moves
    # sub-multisets of {r:2, b:1, g:2, k:1} minus the empty one: 3*2*3*2 - 1
    assert sum(1 for m in moves if m.startswith("swap ")) == 35
    p.push("swap rrk")
    # kept b, g, g; drew k, k, b
    assert hand_of(p, 0) == hand("bbggkk")
    assert p.to_json()["hidden_discards"] == before + 3
    assert out_of_game(p) == {"red": 0, "blue": 0, "green": 0, "black": 0}
    assert p.to_act == 0 and p.actions_left == 1
    assert hand_of(p, 1) == hand("rbbggk")


def test_pass_does_nothing():
    """SPEC 3.6: pass; the turn is two actions."""
    p = load()
    before = p.to_json()
    p.push("pass")
    after = p.to_json()
    assert after["actions_left"] == 1
    for key in ("board", "leaders", "hands", "scores", "treasures", "hidden_discards"):
        assert after[key] == before[key]
