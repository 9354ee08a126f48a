"""Scenario tests for revolts and wars (SPEC section 4).

Expected outcomes are worked out by hand from SPEC.md.  Layouts use the land block E3-M6 and
the temple I7 (land neighbours H7, J7, I6, I8).
"""
from helpers import (at, hand, hand_of, leaders_on_board, legal, load, out_of_game, score,
                     scores_of, treasures_on_board)


def revolt(attacker, defender, commit=None, colour="red"):
    return {"kind": "revolt", "colour": colour, "attacker": attacker, "defender": defender,
            "attacker_commit": commit}


def war(unifying, colour, attacker, defender, commit=None):
    return {"kind": "war", "unifying": unifying, "colour": colour, "attacker": attacker,
            "defender": defender, "attacker_commit": commit}


# --- revolt ------------------------------------------------------------------------------

def test_revolt_attacker_then_defender_commit_tie_goes_to_defender():
    """SPEC 4 (revolt): strength = adjacent face-up red tiles (temple I7 counts for both) +
    committed red tiles; attacker commits first, then defender; ties go to the defender; the
    loser's leader returns to supply; winner +1 red; committed tiles leave the game (the
    attacker's as soon as he commits).

    P1 red leader on H7, P0 places his red leader on J7: both touch only I7 -> 1 each.
    P0 commits 1 (2), P1 commits 1 (2): tie -> P1 wins.
    """
    p = load(leaders=[(1, "red", "H7")], hands=["rrbggk", "rbbggk"])
    p.push("leader red J7")
    assert p.pending == revolt(0, 1)
    assert p.to_act == 0
    assert legal(p) == ["commit 0", "commit 1", "commit 2"]
    p.push("commit 1")
    assert p.pending == revolt(0, 1, commit=1)
    assert p.to_act == 1
    assert hand_of(p, 0) == hand("rbggk")
    assert out_of_game(p)["red"] == 1
    assert legal(p) == ["commit 0", "commit 1"]
    p.push("commit 1")
    assert p.pending is None
    assert leaders_on_board(p) == [(1, "red", "H7")]
    assert score(p, 1) == scores_of(red=1)
    assert score(p, 0) == scores_of()
    assert hand_of(p, 1) == hand("bbggk")
    assert out_of_game(p)["red"] == 2
    assert at(p, "I7") == "r"
    assert p.to_act == 0 and p.actions_left == 1


def test_revolt_adjacent_temples_decide_and_no_tile_removed():
    """SPEC 4 (revolt), 3 players: the defender is the owner of the leader already there (P2).
    J6 is a loose red tile: P0's leader on J7 touches I7 and J6 (2), P2's on H7 only I7 (1).
    No commits: 2 > 1, the attacker wins; P2's leader goes back; no board tile is removed."""
    p = load(players=3, tiles={"J6": "r"}, leaders=[(2, "red", "H7")],
             hands=["bbggkk", "rbbggk", "rrbggk"])
    p.push("leader red J7")
    assert p.pending == revolt(0, 2)
    assert legal(p) == ["commit 0"]
    p.push("commit 0")
    assert p.to_act == 2
    assert legal(p) == ["commit 0", "commit 1", "commit 2"]
    p.push("commit 0")
    assert p.pending is None
    assert leaders_on_board(p) == [(0, "red", "J7")]
    assert score(p, 0) == scores_of(red=1)
    assert score(p, 2) == scores_of()
    assert at(p, "I7") == "r" and at(p, "J6") == "r"
    assert out_of_game(p) == {"red": 0, "blue": 0, "green": 0, "black": 0}


def test_revolt_of_blue_leaders_winner_scores_red():
    """SPEC 4 (revolt): a revolt is fought with red tiles and the winner scores 1 RED point,
    whatever the leaders' colour.  P1 blue on H7, P0 places blue on J7 (1 each);
    P0 commits 1 red (2), P1 commits 0 (1): P0 wins."""
    p = load(leaders=[(1, "blue", "H7")], hands=["rrbggk", "rbbggk"])
    p.push("leader blue J7")
    assert p.pending == revolt(0, 1, colour="blue")
    p.push("commit 1")
    p.push("commit 0")
    assert p.pending is None
    assert leaders_on_board(p) == [(0, "blue", "J7")]
    assert score(p, 0) == scores_of(red=1)
    assert score(p, 1) == scores_of()
    assert out_of_game(p)["red"] == 1


def test_revolt_forced_commit_zero_is_still_a_move():
    """SPEC 8: every decision is a move, even when only `commit 0` is legal (no red in hand).
    1 vs 1, no commits: tie, the defender keeps his leader."""
    p = load(leaders=[(1, "red", "H7")], hands=["bbggkk", "bbggkk"])
    p.push("leader red J7")
    assert p.to_act == 0
    assert legal(p) == ["commit 0"]
    p.push("commit 0")
    assert p.to_act == 1
    assert legal(p) == ["commit 0"]
    p.push("commit 0")
    assert p.pending is None
    assert leaders_on_board(p) == [(1, "red", "H7")]
    assert score(p, 1) == scores_of(red=1)


def test_revolt_by_moving_a_leader_from_the_board():
    """SPEC 3.2: a leader moved from the board into a kingdom holding the same colour starts a
    revolt too.  P0's red leader moves F4 -> J7 (P1 red on H7); P0 loses the tie and the leader
    goes to supply (F4 stays empty)."""
    p = load(leaders=[(0, "red", "F4"), (1, "red", "H7")], hands=["bbggkk", "bbggkk"])
    p.push("leader red J7")
    assert p.pending == revolt(0, 1)
    p.push("commit 0")
    p.push("commit 0")
    assert leaders_on_board(p) == [(1, "red", "H7")]
    assert at(p, "F4") == "."


# --- war ---------------------------------------------------------------------------------
#
# Layout W (black war):  A (west) = E5 black, F5 black, G5 red + P0 black leader on G6;
#                        B (east) = I5 red, J5 black + black leader on I4.
# H5 touches G5 (A) and I5 (B).  Black strength: A 2 (E5, F5), B 1 (J5).

W_TILES = {"E5": "k", "F5": "k", "G5": "r", "I5": "r", "J5": "k"}


def test_war_unifying_tile_not_counted_not_removed_not_scored_then_connects():
    """SPEC 4 (war): strength = war-colour tiles of each side, the unifying tile excluded;
    the loser's leader and war-colour tiles leave (out of game); the winner scores removed + 1;
    the unifying tile never scores and is never removed, and connects after the war.

    P0 plays black H5.  A 2 vs B 1 (H5 counted for nobody), no commits: P0 wins, J5 removed,
    P0 +2 black (not +3: the unifying tile scores nothing).  Then black... green J5 next to I5
    reaches P0's king through H5: +1 green to P0.
    """
    p = load(tiles=W_TILES, leaders=[(0, "black", "G6"), (1, "black", "I4")],
             hands=["rbggkk", "rbbggk"])
    p.push("tile black H5")
    assert p.pending == war("H5", "black", 0, 1)
    assert p.to_act == 0
    assert legal(p) == ["commit 0", "commit 1"]
    p.push("commit 0")
    assert p.pending == war("H5", "black", 0, 1, commit=0)
    assert p.to_act == 1
    assert legal(p) == ["commit 0", "commit 1"]
    p.push("commit 0")
    assert p.pending is None
    assert leaders_on_board(p) == [(0, "black", "G6")]
    assert at(p, "J5") == "."
    assert at(p, "H5") == "k"
    assert at(p, "E5") == "k" and at(p, "F5") == "k"
    assert score(p, 0) == scores_of(black=2)
    assert score(p, 1) == scores_of()
    assert out_of_game(p) == {"red": 0, "blue": 0, "green": 0, "black": 1}
    assert p.to_act == 0 and p.actions_left == 1
    p.push("tile green J5")
    assert score(p, 0) == scores_of(black=2, green=1)


def test_war_commits_score_nothing_and_tie_goes_to_defender():
    """SPEC 4 (war): attacker commits first, then defender; ties go to the defender; committed
    tiles leave the game and score nothing.

    Layout W with a green unifying tile on H5.  P0 (attacker) 2 + 1 committed = 3;
    P1 (defender) 1 + 2 committed = 3: tie, P1 wins.  P0's leader and his black tiles E5, F5
    go: P1 scores 2 + 1 = 3 black.  Out of game: 1 + 2 committed + 2 removed = 5 black.
    """
    p = load(tiles=W_TILES, leaders=[(0, "black", "G6"), (1, "black", "I4")],
             hands=["rbggkk", "rbggkk"])
    p.push("tile green H5")
    assert p.pending == war("H5", "black", 0, 1)
    assert legal(p) == ["commit 0", "commit 1", "commit 2"]
    p.push("commit 1")
    assert hand_of(p, 0) == hand("rbgk")
    assert out_of_game(p)["black"] == 1
    assert p.to_act == 1
    p.push("commit 2")
    assert p.pending is None
    assert leaders_on_board(p) == [(1, "black", "I4")]
    assert at(p, "E5") == "." and at(p, "F5") == "."
    assert at(p, "G5") == "r" and at(p, "H5") == "g" and at(p, "J5") == "k"
    assert score(p, 1) == scores_of(black=3)
    assert score(p, 0) == scores_of()
    assert hand_of(p, 1) == hand("rbgg")
    assert out_of_game(p) == {"red": 0, "blue": 0, "green": 0, "black": 5}


def test_war_attacker_is_first_owner_clockwise_when_active_player_not_involved():
    """SPEC 4 (war), 3 players: the active player (P1) has no leader of the war colour; the
    attacker is the first owner clockwise from him: P2 (P1 -> P2 -> P0), defender P0.
    Layout W with P0 black on G6 (A) and P2 black on I4 (B); P1 plays green H5.
    A 2 vs B 1: P0 (defender) wins, J5 removed, P0 +2 black."""
    p = load(players=3, tiles=W_TILES, leaders=[(0, "black", "G6"), (2, "black", "I4")],
             hands=["rbggkk", "rbggkk", "rbggkk"], turn=1)
    p.push("tile green H5")
    assert p.pending == war("H5", "black", 2, 0)
    assert p.to_act == 2
    p.push("commit 0")
    assert p.to_act == 0
    p.push("commit 0")
    assert p.pending is None
    assert leaders_on_board(p) == [(0, "black", "G6")]
    assert at(p, "J5") == "."
    assert score(p, 0) == scores_of(black=2)
    assert score(p, 1) == scores_of()
    assert score(p, 2) == scores_of()
    assert p.to_act == 1 and p.turn == 1 and p.actions_left == 1


# Layout M (two colours in conflict):
#   A (west) = E5 red, F5 red, G5 red; P0 red leader G4 (next to G5), P0 black leader E6
#              (next to E5).  Red strength 3, black 0.
#   B (east) = I5, J5, K5, L5 red; P1 red leader I4, P1 black leader J6 (next to J5).
#              Red strength 4, black 0.
# P0 plays green H5 (next to G5 and I5): red and black are both in conflict.

M_TILES = {"E5": "r", "F5": "r", "G5": "r", "I5": "r", "J5": "r", "K5": "r", "L5": "r"}
M_LEADERS = [(0, "red", "G4"), (0, "black", "E6"), (1, "red", "I4"), (1, "black", "J6")]


def test_war_choice_then_side_cut_off_stops_the_later_war():
    """SPEC 4 (war): several colours in conflict -> the active player picks (`war red`).
    Red: 3 vs 4, P1 wins.  P0's red leader leaves; red tiles of A removed except E5, a temple
    next to another leader still in A (P0's black on E6): F5 and G5 go, P1 +3 red.
    Recompute: only B touches H5 now (E6's kingdom is cut off), so the black war never happens.
    """
    p = load(tiles=M_TILES, leaders=M_LEADERS, hands=["rbggkk", "rbggkk"])
    p.push("tile green H5")
    assert p.pending == {"kind": "war-choice", "unifying": "H5"}
    assert p.to_act == 0
    assert legal(p) == ["war black", "war red"]
    p.push("war red")
    assert p.pending == war("H5", "red", 0, 1)
    p.push("commit 0")
    p.push("commit 0")
    assert p.pending is None
    assert leaders_on_board(p) == [(0, "black", "E6"), (1, "black", "J6"), (1, "red", "I4")]
    assert at(p, "E5") == "r"
    assert at(p, "F5") == "." and at(p, "G5") == "."
    assert at(p, "H5") == "g"
    assert score(p, 1) == scores_of(red=3)
    assert score(p, 0) == scores_of()
    assert out_of_game(p) == {"red": 2, "blue": 0, "green": 0, "black": 0}
    assert p.to_act == 0 and p.actions_left == 1


def test_war_order_choice_matters_black_first_then_red_fought_at_once():
    """SPEC 4 (war): same position, P0 picks `war black` first.  Black 0 vs 0: tie, P1 wins,
    P0's black leader leaves, no black tile in A, P1 +1 black.  Recompute: red still in both
    kingdoms, a single conflict -> fought at once (no second choice).  Red 3 vs 4: P1 wins;
    now E5 has no other leader next to it, so E5, F5, G5 all go: P1 +4 red."""
    p = load(tiles=M_TILES, leaders=M_LEADERS, hands=["rbggkk", "rbggkk"])
    p.push("tile green H5")
    p.push("war black")
    assert p.pending == war("H5", "black", 0, 1)
    p.push("commit 0")
    p.push("commit 0")
    assert p.pending == war("H5", "red", 0, 1)
    assert p.to_act == 0
    assert score(p, 1) == scores_of(black=1)
    p.push("commit 0")
    p.push("commit 0")
    assert p.pending is None
    assert leaders_on_board(p) == [(1, "black", "J6"), (1, "red", "I4")]
    for sq in ("E5", "F5", "G5"):
        assert at(p, sq) == "."
    assert score(p, 1) == scores_of(red=4, black=1)
    assert score(p, 0) == scores_of()
    assert out_of_game(p) == {"red": 3, "blue": 0, "green": 0, "black": 0}


# Layout R (red war with exceptions):
#   A = temple I7 (treasure) + red I6, I5 + P0 red leader H7.  Red strength 3.
#   B = red I3, J3, K3 + P1 red leader H3.  Red strength 3.
# P0 plays red I4 (next to I3 and I5): red war, attacker P0.  3 vs 3: P1 wins.

R_TILES = {"I6": "r", "I5": "r", "I3": "r", "J3": "r", "K3": "r"}


def test_red_war_temple_with_treasure_is_not_removed():
    """SPEC 4 (war): in the loser's kingdom tiles carrying a treasure stay (I7); I6 and I5 go;
    P1 +3 red.  The red unifying tile I4 is counted by nobody and never removed."""
    p = load(tiles=R_TILES, leaders=[(0, "red", "H7"), (1, "red", "H3")],
             hands=["rrbggk", "rbbggk"])
    p.push("tile red I4")
    assert p.pending == war("I4", "red", 0, 1)
    p.push("commit 0")
    p.push("commit 0")
    assert p.pending is None
    assert leaders_on_board(p) == [(1, "red", "H3")]
    assert at(p, "I7") == "r"
    assert at(p, "I6") == "." and at(p, "I5") == "."
    assert at(p, "I4") == "r"
    assert "I7" in treasures_on_board(p)
    assert score(p, 1) == scores_of(red=3)
    assert score(p, 0) == scores_of()
    assert out_of_game(p)["red"] == 2


def test_red_war_temple_next_to_another_leader_is_not_removed():
    """SPEC 4 (war): in a red war, a temple next to another leader (of any owner) still in the
    loser's kingdom stays.  Layout R plus P1's green leader on J6 (next to I6, in A):
    I7 stays (treasure), I6 stays (next to J6), only I5 goes: P1 +2 red."""
    p = load(tiles=R_TILES, leaders=[(0, "red", "H7"), (1, "red", "H3"), (1, "green", "J6")],
             hands=["rrbggk", "rbbggk"])
    p.push("tile red I4")
    assert p.pending == war("I4", "red", 0, 1)
    p.push("commit 0")
    p.push("commit 0")
    assert p.pending is None
    assert leaders_on_board(p) == [(1, "green", "J6"), (1, "red", "H3")]
    assert at(p, "I7") == "r" and at(p, "I6") == "r"
    assert at(p, "I5") == "."
    assert at(p, "I4") == "r"
    assert score(p, 1) == scores_of(red=2)
    assert out_of_game(p)["red"] == 1


# --- pending decisions round-trip through the position file (SPEC 9) ----------------------

def _roundtrip_then_finish(p, moves):
    """SPEC 9: every reachable state round-trips exactly; the reloaded position offers the same
    moves and reaches the same result."""
    from tne_ai.position import Position
    d = p.to_json()
    q = Position.from_json(d)
    assert q.to_json() == d
    assert legal(q) == legal(p)
    for m in moves:
        p.push(m)
        q.push(m)
    assert q.to_json() == p.to_json()


def test_pending_revolt_after_attacker_commit_round_trips():
    """SPEC 9 with SPEC 4 (revolt): mid-revolt, after the attacker's commit."""
    p = load(leaders=[(1, "red", "H7")], hands=["rrbggk", "rbbggk"])
    p.push("leader red J7")
    p.push("commit 1")
    _roundtrip_then_finish(p, ["commit 1"])
    assert leaders_on_board(p) == [(1, "red", "H7")]


def test_pending_war_choice_and_war_round_trip():
    """SPEC 9 with SPEC 4 (war): at the colour choice, and mid-war after the attacker's commit."""
    p = load(tiles=M_TILES, leaders=M_LEADERS, hands=["rbggkk", "rbggkk"])
    p.push("tile green H5")
    _roundtrip_then_finish(p, ["war red"])
    p.push("commit 0")
    _roundtrip_then_finish(p, ["commit 0"])
    assert score(p, 1) == scores_of(red=3)


def test_revolt_strength_ignores_flipped_monument_tiles():
    """SPEC 4/5: flipped tiles are no temples and never count in conflicts.
    Red-blue monument (flipped) on G4-H5, red I4, P1 red leader J4 (next to I4: 1).
    P0's red leader on F4 is next to temple F3 and flipped G4: strength 1, not 2.
    No commits: 1 vs 1, the defender keeps his leader."""
    p = load(tiles={"G4": "#", "H4": "#", "G5": "#", "H5": "#", "I4": "r"},
             monuments=[{"colors": "red-blue", "at": "G4", "tiles": "red"}],
             leaders=[(1, "red", "J4")], hands=["bbggkk", "bbggkk"])
    p.push("leader red F4")
    assert p.pending == revolt(0, 1)
    p.push("commit 0")
    p.push("commit 0")
    assert leaders_on_board(p) == [(1, "red", "J4")]
    assert score(p, 1) == scores_of(red=1)


def test_war_then_treasure_check_for_winning_trader():
    """SPEC 4 (after the last war: monument check, then treasure check) and SPEC 3.
    A = temple I7 (treasure) + red I6, I5 + P0 green leader H7 (green strength 0).
    B = temple K1 (treasure) + green K2, K3, J3 + red I3 + P1 green leader H3 (strength 3).
    P0 plays black I4: green war, P1 wins, P0's trader leaves (no green tile in A), P1 +1 green.
    The united kingdom holds K1 and I7 with P1's trader: P1 takes one (no corner: his choice)."""
    p = load(tiles={"I6": "r", "I5": "r", "K2": "g", "K3": "g", "J3": "g", "I3": "r"},
             leaders=[(0, "green", "H7"), (1, "green", "H3")], hands=["rbggkk", "rbbggk"])
    p.push("tile black I4")
    assert p.pending == war("I4", "green", 0, 1)
    p.push("commit 0")
    p.push("commit 0")
    assert leaders_on_board(p) == [(1, "green", "H3")]
    assert score(p, 1) == scores_of(green=1)
    assert p.pending == {"kind": "treasure", "player": 1}
    assert p.to_act == 1
    assert legal(p) == ["treasure I7", "treasure K1"]
    p.push("treasure K1")
    assert p.pending is None
    assert score(p, 1) == scores_of(green=1, treasure=1)
    assert "K1" not in treasures_on_board(p) and "I7" in treasures_on_board(p)
    assert p.to_act == 0 and p.actions_left == 1


def test_war_after_split_three_kingdoms_each_leader_counts_its_own():
    """SPEC 4 (war): an earlier war may split a side; each leader counts its own kingdom.
    A = red G5, G4, I3 + black H4; P0 red F5, P0 green G6 (next to G5), P0 black H3 (next to I3).
    B = red I5, J5, K5, L5; P1 red J6, P1 black J4.  P0 plays green H5 (next to G5, H4, I5).
    Red and black in conflict: P0 picks red.  Red 3 (G5 G4 I3) vs 4: P1 wins, P0's red leader
    goes; G5 stays (next to P0's green), I3 stays (next to P0's black), G4 goes: P1 +2 red.
    A is now split: west {G5, G6} and north {H4, H3, I3}, both next to H5.  Black is the only
    conflict (north vs B), fought at once: north's black = H4 = 1 vs 0: P0 wins, P0 +1 black.
    Then no colour is in two kingdoms: stop."""
    p = load(tiles={"G5": "r", "G4": "r", "I3": "r", "H4": "k",
                    "I5": "r", "J5": "r", "K5": "r", "L5": "r"},
             leaders=[(0, "red", "F5"), (0, "green", "G6"), (0, "black", "H3"),
                      (1, "red", "J6"), (1, "black", "J4")],
             hands=["rbggkk", "rbbggr"])
    p.push("tile green H5")
    assert p.pending == {"kind": "war-choice", "unifying": "H5"}
    assert legal(p) == ["war black", "war red"]
    p.push("war red")
    p.push("commit 0")
    p.push("commit 0")
    assert at(p, "G4") == "."
    assert at(p, "G5") == "r" and at(p, "I3") == "r"
    assert score(p, 1) == scores_of(red=2)
    assert p.pending == war("H5", "black", 0, 1)
    p.push("commit 0")
    p.push("commit 0")
    assert p.pending is None
    assert leaders_on_board(p) == [(0, "black", "H3"), (0, "green", "G6"), (1, "red", "J6")]
    assert score(p, 0) == scores_of(black=1)
    assert score(p, 1) == scores_of(red=2)
    assert at(p, "H4") == "k" and at(p, "H5") == "g"
    assert out_of_game(p) == {"red": 1, "blue": 0, "green": 0, "black": 0}
