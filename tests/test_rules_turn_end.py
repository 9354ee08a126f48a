"""Scenario tests for the turn structure and the end of a turn (SPEC section 3: "A turn is 2
actions" and "End of turn": refill, game end).

Expected outcomes are worked out by hand from SPEC.md.
"""
from helpers import hand, hand_of, legal, load, score, scores_of


def test_two_actions_per_turn_then_next_player():
    """SPEC 3: a turn is 2 actions, any mix, repeats allowed; play passes clockwise."""
    p = load(players=3)
    assert p.turn == 0 and p.to_act == 0 and p.actions_left == 2
    p.push("pass")
    assert p.turn == 0 and p.to_act == 0 and p.actions_left == 1
    p.push("pass")
    assert p.turn == 1 and p.to_act == 1 and p.actions_left == 2
    p.push("tile red A1")
    p.push("tile red C1")
    assert p.turn == 2 and p.to_act == 2 and p.actions_left == 2
    p.push("pass")
    p.push("pass")
    assert p.turn == 0 and p.actions_left == 2


def test_refill_active_player_first_then_clockwise_from_bag_front():
    """SPEC 3 (turn end, refill): every player draws back up to 6, the active player first then
    clockwise.  3 players, P1 active with 6 tiles plays two; P2 holds 5, P0 holds 4.
    Bag front k g b r r ...: P1 draws k g, P2 draws b, P0 draws r r."""
    p = load(players=3, turn=1, hands=["bbgk", "rrbggk", "rrrrr"], bag="kgbrrgbk")
    p.push("tile red A1")     # A1 and C1 touch nothing
    p.push("tile green C1")
    assert hand_of(p, 1) == hand("rbggkk")
    assert hand_of(p, 2) == hand("rrrrrb")
    assert hand_of(p, 0) == hand("bbgkrr")
    assert p.turn == 2 and p.actions_left == 2
    assert not p.is_over()
    # everyone full: a turn of two passes draws nothing
    p.push("pass")
    p.push("pass")
    assert hand_of(p, 0) == hand("bbgkrr")
    assert hand_of(p, 1) == hand("rbggkk")
    assert hand_of(p, 2) == hand("rrrrrb")


def test_game_ends_at_turn_end_when_two_treasures_left():
    """SPEC 3 (game end): over if 2 or fewer treasures remain on the board at turn end.
    Only B2, F3 and K11 are on the board (P0 took 4, P1 took 3 earlier).  P0 joins B2 and F3
    to P1's trader: P1 takes B2, 2 are left; the game is over only once P0's turn ends
    (refill first: P0 draws 1).  Then no moves, actions_left 0, the turn stays on P0."""
    p = load(tiles={"C2": "k", "D2": "k", "F2": "k"}, leaders=[(1, "green", "G3")],
             treasures=["B2", "F3", "K11"], scores=[{"treasure": 4}, {"treasure": 3}],
             hands=["rbbggk", "rbbggk"], bag="rrrrggggkkkk")
    p.push("tile blue E2")
    p.push("treasure B2")
    assert not p.is_over()
    assert p.actions_left == 1 and p.to_act == 0
    p.push("pass")
    assert p.is_over()
    assert p.actions_left == 0
    assert p.legal_moves() == []
    assert p.turn == 0
    assert hand_of(p, 0) == hand("rbggkr")
    assert score(p, 1) == scores_of(treasure=4)
    # all colours 0, 4 treasures each: [1, 1, 1, 1] for both -> shared first place
    assert p.ranking() == [1, 1]


def test_drawing_exactly_the_last_tile_ends_nothing():
    """SPEC 3 (game end): drawing exactly the last tile ends nothing."""
    p = load(hands=["rrbggk", "rbbggk"], bag="kk")
    p.push("tile red A1")
    p.push("tile green C1")
    assert hand_of(p, 0) == hand("rbgkkk")
    assert not p.is_over()
    assert p.turn == 1 and p.actions_left == 2


def test_empty_bag_alone_ends_nothing_until_a_draw_comes_up_short():
    """SPEC 3 (game end): an empty bag by itself ends nothing; the game goes on until a draw
    comes up short (the drawer takes what is left; the turn still finishes)."""
    p = load(hands=["rrbggk", "rbbggk"], bag="")
    p.push("pass")
    p.push("pass")
    assert not p.is_over() and p.turn == 1
    p.push("pass")
    p.push("pass")
    assert not p.is_over() and p.turn == 0
    p.push("tile red A1")
    assert not p.is_over()
    p.push("pass")
    assert p.is_over()
    assert p.actions_left == 0
    assert hand_of(p, 0) == hand("rbggk")
    assert p.legal_moves() == []


def test_short_refill_ends_game():
    """SPEC 3 (game end): a refill that finds too few tiles: the drawer takes what is left and
    the game is over at the end of that turn."""
    p = load(hands=["rrbggk", "rbbggk"], bag="g")
    p.push("tile red A1")
    p.push("tile green C1")
    assert p.is_over()
    assert p.actions_left == 0
    assert hand_of(p, 0) == hand("rbggk")
    assert hand_of(p, 1) == hand("rbbggk")


def test_short_swap_lets_the_turn_finish_then_ends_game():
    """SPEC 3 (game end): a short swap draws what is left; the turn still finishes (P0 keeps his
    second action) and the game is over at its end."""
    p = load(hands=["rrbggk", "rbbggk"], bag="gk")
    p.push("swap rrb")
    assert hand_of(p, 0) == hand("gggkk")
    assert not p.is_over()
    assert p.actions_left == 1 and p.to_act == 0
    assert "pass" in legal(p)
    p.push("pass")
    assert p.is_over()
    assert p.actions_left == 0
    assert hand_of(p, 0) == hand("gggkk")


def _monument_on_f10(treasures):
    """A red-blue monument on the block E9 F9 E10 F10: the temple F10 is flipped and its
    treasure stays on the board (SPEC 5)."""
    return load(tiles={"E9": "#", "F9": "#", "E10": "#", "F10": "#"},
                monuments=[{"colors": "red-blue", "at": "E9", "tiles": "red"}],
                treasures=treasures, scores=[{"treasure": 10 - len(treasures)}, {}])


def test_treasure_on_a_monument_counts_towards_the_game_end():
    """SPEC 3 (game end): the game is over if 2 or fewer treasures remain on the board, those
    on monument tiles counting.  Three treasures, one of them on the monument: not over."""
    p = _monument_on_f10(["K1", "F10", "K11"])
    p.push("pass")
    p.push("pass")
    assert not p.is_over() and p.turn == 1


def test_two_treasures_one_on_a_monument_end_the_game():
    """The same with two treasures left, one on the monument tile F10: over at turn end."""
    p = _monument_on_f10(["K1", "F10"])
    p.push("pass")
    p.push("pass")
    assert p.is_over() and p.actions_left == 0
