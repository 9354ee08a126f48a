"""Writes the hand-worked end-game tactics of this folder (``python3 build.py``).

Each position is built from the standard map (tests/helpers.py) with a few edits and is shown
as the player to act sees it (SPEC 7): the other hands unknown, no bag, no hidden discards,
and every tile not on the board, in a monument or in a hand out of the game, so the unseen
pool is exactly the other hands (with 3 or 4 players those hands hold one colour only, so any
deal of the pool is the same).  Each file keeps the reasoning worked out by hand from SPEC
beside the position, and the winning moves it names.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))  # tests/
from helpers import COLOURS, LETTERS, TOTALS, position  # noqa: E402


def used(d):
    n = {c: d["out_of_game"][c] for c in COLOURS}
    for row in d["board"]:
        for ch in row:
            if ch in LETTERS:
                n[LETTERS[ch]] += 1
    for m in d["monuments"]:
        n[m["tiles"]] += 4
    for h in d["hands"]:
        for c in COLOURS:
            n[c] += h.get(c, 0)
    return n


def view(d, viewer, bag=0):
    """d as the viewer sees it; every tile not accounted for is out of the game except
    ``bag`` tiles (taken from the colours with the most to spare), which stay unseen."""
    u = used(d)
    d["out_of_game"] = {c: TOTALS[c] - u[c] + d["out_of_game"][c] for c in COLOURS}
    for _ in range(bag):
        c = max(COLOURS, key=lambda c: d["out_of_game"][c])
        d["out_of_game"][c] -= 1
    sizes = [sum(h.values()) for h in d["hands"]]
    d["hands"] = [h if i == viewer else None for i, h in enumerate(d["hands"])]
    d.pop("bag", None)
    d["hidden_discards"] = 0
    d["hand_sizes"] = sizes
    return d


def sc(red, blue, green, black, treasure=0):
    return {"red": red, "blue": blue, "green": green, "black": black, "treasure": treasure}


POSITIONS = []


LINES = {"revolt": ["leader red J7", "commit 0", "commit 0"],
         "catastrophe": ["catastrophe H6", "leader red J7", "commit 0", "commit 0"],
         "pass": ["pass"], "blue_tile": ["tile blue P5", "monument blue-green O4"],
         "blue_choice": ["monument blue-green O4"], "trader": ["leader green B1", "treasure B2"]}


def add(name, kind, winning, reasoning, viewer, bag=0, **kw):
    """``line``: one winning line played to the end of the game (the hands being the ones the
    reasoning names), after which the player to act is first alone."""
    line = LINES[kw.pop("line")]
    d = view(position(bag="", **kw), viewer, bag)
    POSITIONS.append((name, {"name": name, "kind": kind, "winning": sorted(winning), "line": line,
                             "reasoning": " ".join(reasoning.split()), "position": d}))


# --- 1-3: a revolt won by moving a leader, on the last action --------------------------------
REVOLT = dict(tiles={"K7": "r"})
add("revolt_by_leader_move_2p", "leader_move", ["leader red J7"], """
P0's last action; his hand holds 5 tiles and the bag is empty, so the refill comes up short
whatever he plays and the game ends with this turn (SPEC 3).  Scores: P0 red 4, blue, green,
black 6 -> (4,6,6,6); P1 (5,5,5,5).  Only a red point wins: (5,6,6,6) beats (5,5,5,5).
P1's priest stands on H7 next to temple I7 (strength 1: I7; SPEC 4).  P0's priest stands on J1
next to K1.  Moved to J7 it touches I7 and the red tile K7 (strength 2) and joins P1's
kingdom: a revolt.  Nobody holds a red tile (P0's hand bbggk; P1's, known by elimination,
bbbggk), so 2 beats 1, P1's priest goes home and P0 scores 1 red.  Any other square next to
the kingdom (I6, I8: strength 1) ties, and ties go to the defender (P1 +1 red).  No tile of P0
scores (no red in hand; his only leader is the priest, so blue, green or black tiles score for
nobody), no region holds 2 treasures for a trader, no 2x2 block can be made.
Only winning move: leader red J7.""",
    0, line="revolt", players=2, leaders=[(1, "red", "H7"), (0, "red", "J1")], hands=["bbggk", "bbbggk"],
    actions_left=1, scores=[sc(4, 6, 6, 6), sc(5, 5, 5, 5)], **REVOLT)

add("revolt_by_leader_move_3p", "leader_move", ["leader red J7"], """
The 2-player revolt above with a third player: P1 is to act (turn 1, last action, hand of 5,
empty bag: the game ends with this turn).  P2's priest on H7 next to I7 (strength 1); P1's
priest on J1.  Scores: P1 (4,6,6,6); P0 (5,5,5,4) -> sorted (4,5,5,5); P2 (5,5,5,5).  Only a
red point for P1 wins: (5,6,6,6) beats P2's (5,5,5,5).  leader red J7 touches I7 and K7
(strength 2 vs 1); the hands of P0 and P2 hold black tiles only (the unseen pool is 12
black), P1 holds no red, so nobody commits and P1 wins the revolt: +1 red.  I6 or I8 tie
(the defender wins).  Nothing else scores red for P1.  Only winning move: leader red J7.""",
    1, line="revolt", players=3, turn=1, leaders=[(2, "red", "H7"), (1, "red", "J1")],
    hands=["kkkkkk", "bbggk", "kkkkkk"], actions_left=1,
    scores=[sc(5, 5, 5, 4), sc(4, 6, 6, 6), sc(5, 5, 5, 5)], **REVOLT)

add("revolt_by_leader_move_4p", "leader_move", ["leader red J7"], """
The same revolt with four players: P3 to act (last action, hand of 5, empty bag: the game
ends with this turn).  P0's priest on H7 (strength 1), P3's priest on J1.  Scores: P3 (4,6,6,6);
P0 (5,5,5,5); P1 and P2 (4,4,4,4).  Only a red point for P3 wins: (5,6,6,6) > (5,5,5,5).
leader red J7: strength 2 (I7, K7) vs 1; the other hands hold black only (18 black unseen),
P3 holds no red, so the revolt is won: +1 red.  I6 or I8 tie: the defender P0 wins.  Only
winning move: leader red J7.""",
    3, line="revolt", players=4, turn=3, leaders=[(0, "red", "H7"), (3, "red", "J1")],
    hands=["kkkkkk", "kkkkkk", "kkkkkk", "bbggk"], actions_left=1,
    scores=[sc(5, 5, 5, 5), sc(4, 4, 4, 4), sc(4, 4, 4, 4), sc(4, 6, 6, 6)], **REVOLT)

# --- 4-6: a catastrophe that weakens the defender, then the revolt ---------------------------
CATA = dict(tiles={"K7": "r", "H6": "r"})
add("catastrophe_then_revolt_2p", "cat_rival", ["catastrophe H6"], """
P0's turn, two actions; hand of 5 tiles (bbggk), empty bag: the game ends with this turn.
Scores: P0 (4,6,6,6), P1 (5,5,5,5): only a red point for P0 wins ((5,6,6,6)).  P1's priest on
H7 touches temple I7 and the red tile H6: strength 2.  P0's priest (on J1) can reach at most
strength 2 next to that kingdom (J7: I7 and K7; I6: I7 and H6), a tie that the defender wins
(SPEC 4), and nobody holds red (P1's hand bbbggk by elimination).  A catastrophe on H6 (no
treasure there) removes that tile: P1's priest keeps I7 only (strength 1) and stays; then
leader red J7 wins 2 vs 1: +1 red.  The catastrophe must come first (a revolt is fought at
once).  A catastrophe elsewhere leaves P1 at 2; no tile of P0 scores red (none in hand, and
his only leader is the priest).  Only winning first action: catastrophe H6.""",
    0, line="catastrophe", players=2, leaders=[(1, "red", "H7"), (0, "red", "J1")], hands=["bbggk", "bbbggk"],
    scores=[sc(4, 6, 6, 6), sc(5, 5, 5, 5)], **CATA)

add("catastrophe_then_revolt_3p", "cat_rival", ["catastrophe H6"], """
The catastrophe-then-revolt above with three players: P2 to act with two actions, hand of 5
(bbggk), empty bag (the game ends with this turn).  P0's priest on H7 (strength 2: I7, H6);
P2's priest in his supply: placed on J7 it touches I7 and K7 (strength 2), a tie the defender
wins.  The hands of P0 and P1 hold black only.  Scores: P2 (4,6,6,6), P0 (5,5,5,5), P1
(4,4,5,5).  Only +1 red wins for P2.  catastrophe H6, then leader red J7: 2 vs 1, +1 red,
(5,6,6,6) > (5,5,5,5).  Only winning first action: catastrophe H6.""",
    2, line="catastrophe", players=3, turn=2, leaders=[(0, "red", "H7")],
    hands=["kkkkkk", "kkkkkk", "bbggk"],
    scores=[sc(5, 5, 5, 5), sc(4, 4, 5, 5), sc(4, 6, 6, 6)], **CATA)

add("catastrophe_then_revolt_4p", "cat_rival", ["catastrophe H6"], """
Four players: P1 to act with two actions, hand of 5 (bbggk), empty bag (the game ends with
this turn).  P3's priest on H7 (strength 2: I7, H6); P1's priest on J1.  Every other hand
holds black only.  Scores: P1 (4,6,6,6), P3 (5,5,5,5), P0 and P2 (3,3,3,3).  Only +1 red wins
for P1: catastrophe H6 (P3's priest drops to strength 1), then leader red J7 (strength 2)
wins the revolt.  Without the catastrophe every revolt ties and the defender wins.  Only
winning first action: catastrophe H6.""",
    1, line="catastrophe", players=4, turn=1, leaders=[(3, "red", "H7"), (1, "red", "J1")],
    hands=["kkkkkk", "bbggk", "kkkkkk", "kkkkkk"],
    scores=[sc(3, 3, 3, 3), sc(4, 6, 6, 6), sc(3, 3, 3, 3), sc(5, 5, 5, 5)], **CATA)

# --- 7-8: pass, keeping every leader on the monuments that pay at the turn's end ------------
MON2 = dict(tiles={"G10": "#", "H10": "#", "G11": "#", "H11": "#", "F11": "x",
                   "L10": "#", "M10": "#", "L11": "#", "M11": "#"},
            monuments=[{"colors": "red-blue", "at": "G10", "tiles": "red"},
                       {"colors": "green-black", "at": "L10", "tiles": "black"}])
MON2_LEADERS = [(0, "red", "E10"), (0, "blue", "F9"), (0, "green", "J11"), (0, "black", "K10")]
add("pass_keeps_monument_points_2p", "pass", ["pass"], """
P0's last action; his hand is empty and the bag too, so the refill is short and the game ends
with this turn (SPEC 3).  Monument red-blue (G10-H11) is in the kingdom of temple F10 with
P0's priest (E10) and farmer (F9); monument green-black (L10-M11) in the kingdom of temple
K11 with his trader (J11) and king (K10).  At the end of his turn each pays him a point per
leader of its colours there (SPEC 3): +1 red, blue, green, black: (3,3,3,3) -> (4,4,4,4),
which beats P1's (3,5,5,5).  P0 holds no tile and no catastrophe, so his moves are: pass, a
withdraw, or moving a leader; every square next to F10 and K11 is taken (F11 is a
catastrophe), so a moved leader leaves its monument's kingdom, and a withdrawn one is gone:
either way one colour stays at 3: (3,4,4,4) loses to (3,5,5,5).  Only winning move: pass.""",
    0, line="pass", players=2, leaders=MON2_LEADERS, hands=["", "bbbggk"], catastrophes=[0, 2],
    actions_left=1, scores=[sc(3, 3, 3, 3), sc(3, 5, 5, 5)], **MON2)

add("pass_keeps_monument_points_3p", "pass", ["pass"], """
The monument position above with three players: P0's last action, empty hand and bag (the
game ends), no catastrophes.  His four leaders in the two monuments' kingdoms pay him +1 in
each colour at the turn's end: (3,3,3,3) -> (4,4,4,4), beating P1 (3,5,5,5) and P2 (3,3,6,6).
Any withdraw or leader move takes one leader out of its monument's kingdom (every square next
to F10 and K11 is taken): one colour stays 3, and (3,4,4,4) loses to (3,5,5,5).  The other
hands hold black only.  Only winning move: pass.""",
    0, line="pass", players=3, leaders=MON2_LEADERS, hands=["", "kkkkkk", "kkkkkk"], catastrophes=[0, 2, 2],
    actions_left=1, scores=[sc(3, 3, 3, 3), sc(3, 5, 5, 5), sc(3, 3, 6, 6)], **MON2)

# --- 9-10: a tile that completes a 2x2 of blue on the river for the monument that wins ------
BLUE = dict(tiles={"O4": "b", "P4": "b", "O5": "b"})
add("blue_monument_tile_3p", "tile_monument", ["tile blue P5"], """
P0's last action, hand of 5 (bbggk), empty bag: the game ends with this turn.  Temple N5 with
P0's farmer (N6) and trader (M5) and the blue river tiles O5, O4, P4 form one kingdom.  Scores:
P0 red 5, blue 4, green 4, black 5; P1 (5,5,5,5); P2 (4,4,4,4).  P0 needs +1 blue and +1
green.  tile blue P5 (river) joins the kingdom (+1 blue to his farmer, SPEC 3) and completes
the 2x2 of blue O4-P5: monument blue-green, and at the end of the turn it pays his farmer +1
blue and his trader +1 green (SPEC 3): (5,5,5,6) beats (5,5,5,5).  A blue tile elsewhere in
the kingdom or a green one gives one colour only (a 4 stays); blue-black or red-blue pays
only the farmer.  A tile on P3 also joins the temple P2 (corner treasure) to the kingdom,
so P0's trader takes P2: a green one there gives +1 green and a wild point on blue,
(5,5,5,5), only a share of first place with P1.  Only winning move: tile blue P5 (then
monument blue-green).""",
    0, line="blue_tile", players=3, leaders=[(0, "blue", "N6"), (0, "green", "M5")],
    hands=["bbggk", "kkkkkk", "kkkkkk"], actions_left=1,
    scores=[sc(5, 4, 4, 5), sc(5, 5, 5, 5), sc(4, 4, 4, 4)], **BLUE)

add("blue_monument_choice_4p", "decision", ["monument blue-green O4"], """
Four players; P0 has just put a blue tile on P5 (his last action: the farmer scored, blue 5 now)
and must decide the monument for the 2x2 of blue O4-P5 (SPEC 5).  Hand of 4, empty bag: the
game ends with this turn.  P0 red 5, blue 5, green 4, black 5; P1 (5,5,5,5); P2, P3 (4,4,4,4).
blue-green pays his farmer (N6) +1 blue and his trader (M5) +1 green at the end of the turn:
(5,5,5,6) wins.  blue-black or red-blue pay the farmer only (green stays 4); decline pays
nothing.  Only winning move: monument blue-green O4.""",
    0, line="blue_choice", players=4, leaders=[(0, "blue", "N6"), (0, "green", "M5")],
    hands=["bggk", "kkkkkk", "kkkkkk", "kkkkkk"], actions_left=1,
    tiles={"O4": "b", "P4": "b", "O5": "b", "P5": "b"},
    pending={"kind": "monument", "at": "P5"},
    scores=[sc(5, 5, 4, 5), sc(5, 5, 5, 5), sc(4, 4, 4, 4), sc(4, 4, 4, 4)])

# --- 11-12: moving the trader to take the treasure that ends the game ------------------------
TREASURE = dict(tiles={"C2": "r", "D2": "r", "E2": "b", "F2": "r"},
                treasures=["B2", "F3", "K11"])
TRADER = ["A2", "B1", "B3", "C1", "C3", "D1", "G2", "G3", "F4"]
add("trader_move_takes_the_last_treasure_2p", "leader_move",
    [f"leader green {s}" for s in TRADER], """
P0's last action; three treasures are left (B2, F3, K11); the bag is big (the game ends only
if 2 or fewer treasures remain at the end of the turn, SPEC 3).  A leaderless region joins the
temples B2 (corner treasure) and F3 (C2, D2, E2, F2).  P0's trader stands on J1 next to K1
(K11 is alone).  Moved next to a red tile of that region (A2, B1, B3, C1, C3, D1, G2, G3, F4)
it makes a kingdom with 2 treasures: P0 takes the corner B2 (SPEC 3), 2 treasures are left
and the game ends.  Scores: P0 red, blue, green 5, black 1 and 3 treasures (wild points go to
the lowest colour one at a time, SPEC 6: black 4) -> (4,5,5,5), with a fourth treasure
(5,5,5,5); P1 red 4, blue, green 5, black 1 and 4 treasures -> black 4, then red 5 ->
(4,5,5,5): P0 wins.  Nothing else ends the game (tiles and swaps draw from a big bag) or
takes a treasure, and P0 ahead only with the treasure: any other move leaves the game going
(a win chance below 1).  Winning moves: the trader's nine squares.""",
    0, line="trader", players=2, leaders=[(0, "green", "J1")], hands=["rrbbg", "rbbggk"],
    actions_left=1, bag=30, scores=[sc(5, 5, 5, 1, 3), sc(4, 5, 5, 1, 4)], **TREASURE)

add("trader_move_takes_the_last_treasure_3p", "leader_move",
    [f"leader green {s}" for s in TRADER], """
The treasure position above with three players: P1 to act (last action), three treasures left,
a big bag.  P1's trader on J1; moved next to the region of B2 and F3 it takes B2 and leaves 2
treasures: the game ends.  Scores (treasures added to the lowest colour): P1 red, blue, green
5, black 1, 3 treasures -> (4,5,5,5), with the fourth (5,5,5,5); P0 red 4, blue, green 5,
black 1, 4 treasures -> (4,5,5,5); P2 (4,4,5,5): P1 wins.  Any other move leaves the game going.  Winning moves: the trader's
nine squares.""",
    1, line="trader", players=3, turn=1, leaders=[(1, "green", "J1")], hands=["rbbggk", "rrbbg", "kkkkkk"],
    actions_left=1, bag=30, scores=[sc(4, 5, 5, 1, 4), sc(5, 5, 5, 1, 3), sc(4, 4, 5, 5)], **TREASURE)


def main():
    for name, d in POSITIONS:
        with open(os.path.join(HERE, name + ".json"), "w") as f:
            json.dump(d, f, indent=1)
            f.write("\n")
    print(len(POSITIONS), "positions written")


if __name__ == "__main__":
    main()
