"""Tactics: hand-built positions whose best decision follows from the rules (docs/SPEC.md).

Each test builds a small position, states the best move (or a set of equally right moves) with
its reasoning worked out by hand from SPEC, checks that those moves are legal, and asks the
project's default search for its choice through one helper, ``best``, so that these tests
follow the search as it changes.  Nothing here is copied from the engine's output.

Positions are shown as the deciding player sees them (SPEC 7): the other hands are unknown
(``null``), the bag and the hidden discards are the unseen pool's business.  Two kinds:

- mid-game positions: a big unseen pool (the bag is what the deciding player cannot see);
- endgame positions (``endgame``): the bag is empty and every tile is accounted for except the
  opponent's hand, so an attentive player knows that hand by elimination (SPEC 7: board, points,
  committed and removed tiles are public).  Any tile placed or committed this turn makes the
  refill come up short and ends the game at the end of the turn (SPEC 3, game end), so the
  final ranking (SPEC 6) decides the answer exactly.  These tests also play the winning line
  and a losing one to their end (``ranking_after``) and check the places reasoned by hand, so a
  mis-built position fails before the search is asked.

Final ranking reminder (SPEC 6): treasures go one at a time to the lowest colour; the score is
the lowest colour, ties broken by the second lowest, then third, then highest.
"""
import itertools

from helpers import COLOURS, LETTERS, TOTALS, legal, position
from tne_ai.agents.builtin import make_agent
from tne_ai.core.notation import move_text
from tne_ai.position import Position

BUDGET = 20000  # iterations of the default search per decision (about 0.1 s here)


def best(p):
    """The default agent's choice in position p, as SPEC 8 text."""
    return move_text(make_agent(f"mcts:iterations={BUDGET}", seed=1).choose(p))


# --- building positions ------------------------------------------------------------------

def _used(d):
    """Tiles of each colour the dict accounts for: board, monuments, hands, bag, out of game."""
    used = {c: d["out_of_game"][c] for c in COLOURS}
    for row in d["board"]:
        for ch in row:
            if ch in LETTERS:
                used[LETTERS[ch]] += 1
    for m in d["monuments"]:
        used[m["tiles"]] += 4
    for h in d["hands"]:
        for c in COLOURS:
            used[c] += h.get(c, 0)
    for ch in d.get("bag", ""):
        used[LETTERS[ch]] += 1
    return used


def seen_by(d, viewer, hand_sizes=None):
    """The position as `viewer` sees it: other hands unknown, bag left to the unseen pool.

    With hidden_discards 0 the bag is the unseen pool less the unknown hands (SPEC 9)."""
    d = dict(d)
    d["hands"] = [h if i == viewer else None for i, h in enumerate(d["hands"])]
    d.pop("bag", None)
    d["hidden_discards"] = 0
    if hand_sizes is not None:
        d["hand_sizes"] = list(hand_sizes)
    return d


def midgame(viewer, hand_sizes=None, **kwargs):
    """A mid-game position seen by `viewer` (the big unseen pool is the bag)."""
    return Position.from_json(seen_by(position(bag="", **kwargs), viewer, hand_sizes))


def endgame(viewer, hand_sizes=None, **kwargs):
    """An endgame seen by `viewer`: empty bag, no hidden discards, every tile not on the board,
    in a monument, in a hand or named in `out_of_game` is out of the game; so the unseen pool is
    exactly the other hands (known by elimination)."""
    return short_bag(viewer, "", hand_sizes, **kwargs)


def short_bag(viewer, bag, hand_sizes=None, **kwargs):
    """A position seen by `viewer` whose bag holds exactly the tiles of `bag` (a letter string):
    every tile not on the board, in a monument, in a hand or in the bag is out of the game, and
    no discard is hidden, so the viewer knows the bag's size (SPEC 9) though not its tiles.
    Whether this turn's refill comes up short, and so ends the game (SPEC 3), is then known."""
    d = position(bag=bag, **kwargs)
    used = _used(d)
    d["out_of_game"] = {c: TOTALS[c] - used[c] + d["out_of_game"][c] for c in COLOURS}
    assert sum(_used(d).values()) == 153
    return Position.from_json(seen_by(d, viewer, hand_sizes))


def play_out(p, moves):
    """A copy of p with every hand open after `moves`: checks that a line ends as reasoned.  In
    an endgame the unknown hand was dealt the whole unseen pool, so it is the true one; with a
    short bag it is a random part of the pool, so a line checked this way must not depend on
    that hand's tiles."""
    q = Position(p.st.copy(), known_hands=[True] * p.players, bag_known=True, rng=p.rng.copy())
    for m in moves:
        q.push(m)
    return q


def ranking_after(p, moves):
    """The places (SPEC 6) once `moves` have ended the game."""
    q = play_out(p, moves)
    assert q.is_over()
    return q.ranking()


def unseen(p, colour):
    """Tiles of `colour` the player to act cannot see (SPEC 7), counted from the position file:
    the total less the board, the monuments' tiles, out of game and his own hand."""
    d = p.to_json()
    letter = {LETTERS[k]: k for k in LETTERS}[colour]
    n = TOTALS[colour] - d["out_of_game"][colour] - d["hands"][p.to_act][colour]
    n -= sum(row.count(letter) for row in d["board"])
    n -= sum(4 for m in d["monuments"] if m["tiles"] == colour)
    return n


def revolt(attacker, defender, commit=None, colour="red"):
    return {"kind": "revolt", "colour": colour, "attacker": attacker, "defender": defender,
            "attacker_commit": commit}


def war(unifying, colour, attacker, defender, commit=None):
    return {"kind": "war", "unifying": unifying, "colour": colour, "attacker": attacker,
            "defender": defender, "attacker_commit": commit}


def check(p, expected):
    """The expected moves are legal here, then the search must pick one of them."""
    assert set(expected) <= set(legal(p)), sorted(set(expected) - set(legal(p)))
    assert best(p) in expected


def scores(red, blue, green, black, treasure=0):
    return {"red": red, "blue": blue, "green": green, "black": black, "treasure": treasure}


# --- revolts (SPEC 4): the defender --------------------------------------------------------
#
# Layout: temple I7 (land neighbours H7, J7, I6, I8).  P1's red leader stands on H7 (touches I7
# only: strength 1).  P0's red leader came to J7; with a red tile on J6 it touches I7 and J6
# (strength 2).  Committed tiles of the attacker are already out of the game (SPEC 9 pending).

def test_revolt_defender_commits_the_smallest_winning_number():
    """P0 (attacker) 2 on the board + 2 committed = 4.  P1 (defender) 1 + k; ties go to the
    defender, so k = 3 wins (4 vs 4).  P1 holds 5 red: committing 4 or 5 wins no more and
    throws away tiles that leave the game and score nothing (SPEC 4); 0-2 lose the leader and
    give P0 a red point.  Best: commit 3."""
    p = midgame(1, hand_sizes=[4, 6], tiles={"J6": "r"}, leaders=[(1, "red", "H7"), (0, "red", "J7")],
                hands=["rrbggk", "rrrrrk"], out_of_game={"red": 2},
                pending=revolt(0, 1, commit=2))
    assert p.to_act == 1
    check(p, {"commit 3"})


def test_revolt_defender_tie_is_enough():
    """P0 2 + 0 committed = 2; P1 1 + 1 = 2: a tie, and ties go to the defender (SPEC 4).
    Best: commit 1 (not 2 or 3: they win no more and the tiles leave the game)."""
    p = midgame(1, tiles={"J6": "r"}, leaders=[(1, "red", "H7"), (0, "red", "J7")],
                hands=["rrbggk", "rrrbgk"], pending=revolt(0, 1, commit=0))
    check(p, {"commit 1"})


def test_revolt_defender_already_winning_commits_zero():
    """Red tile on H6: P1's leader on H7 touches I7 and H6 (2); P0's on J7 touches I7 only (1),
    P0 committed 0.  1 < 2: P1 already wins; any commit is wasted.  Best: commit 0."""
    p = midgame(1, tiles={"H6": "r"}, leaders=[(1, "red", "H7"), (0, "red", "J7")],
                hands=["rrbggk", "rrbggk"], pending=revolt(0, 1, commit=0))
    check(p, {"commit 0"})


def test_revolt_defender_hopeless_commits_zero():
    """Red tiles on J6 and J8: P0's leader on J7 touches I7, J6, J8 (3) and P0 committed 2: 5.
    P1 has 1 on the board and 2 red in hand: at most 3 < 5.  The revolt is lost whatever he
    commits, and committed tiles leave the game.  Best: commit 0."""
    p = midgame(1, hand_sizes=[4, 6], tiles={"J6": "r", "J8": "r"},
                leaders=[(1, "red", "H7"), (0, "red", "J7")], hands=["rrbggk", "rrbggk"],
                out_of_game={"red": 2}, pending=revolt(0, 1, commit=2))
    check(p, {"commit 0"})


def test_revolt_of_farmers_is_fought_with_red_tiles():
    """SPEC 4: a revolt is fought with red tiles whatever the leaders' colour.  P1's farmer on
    H7 (I7: 1), P0's farmer came to J7 (I7, J6: 2) and P0 committed 1: 3.  P1 needs 1 + 2 = 3
    (a tie goes to the defender): 2 of his 3 red; his blue tiles do not count.  Best: commit 2."""
    p = midgame(1, hand_sizes=[5, 6], tiles={"J6": "r"},
                leaders=[(1, "blue", "H7"), (0, "blue", "J7")], hands=["rrbggk", "rrrbbb"],
                out_of_game={"red": 1}, pending=revolt(0, 1, commit=1, colour="blue"))
    check(p, {"commit 2"})


def test_revolt_defender_keeps_the_red_tiles_that_defend_his_leaders():
    """Endgame, first action of P0's turn; P1 (defender) holds 3 red, and P0's hand, known to
    him by elimination, holds 1.  Revolt: P0's priest on J7 (I7, J6: 2) committed 0; P1's on H7
    has 1, so commit 1 wins (a tie).  P1's farmer stands on J11 next to temple K11 (1).
    In his second action P0 can attack again with his 1 red: his priest back on J7 (2 + 1 = 3)
    or his farmer on L11 or K10 (1 + 1 = 2).  P1 holds both with 2 red left (3 vs 1 + 2, 2 vs
    1 + 1: ties).  Scores: P0 red 3, others 5; P1 red 3, others 4.  P1 winning the revolt makes
    him (4,4,4,4); any red point P0 gains makes P0 (4,5,5,5) and the winner; P0 has no other
    leader on the board, so no tile can score for him.  Commit 1: P0 cannot gain, P1 wins (his
    refill comes up short: the game ends).  Commit 2 or 3: P0's priest comes back and wins.
    Commit 0: the revolt is lost.  Best: commit 1."""
    p = endgame(1, tiles={"J6": "r"},
                leaders=[(1, "red", "H7"), (0, "red", "J7"), (1, "blue", "J11")],
                hands=["rbbggk", "rrrbgk"],
                scores=[scores(3, 5, 5, 5), scores(3, 4, 4, 4)], pending=revolt(0, 1, commit=0))
    assert unseen(p, "red") == 1
    assert ranking_after(p, ["commit 1", "leader red J7", "commit 1", "commit 2"]) == [2, 1]
    assert ranking_after(p, ["commit 1", "leader blue L11", "commit 1", "commit 1"]) == [2, 1]
    assert ranking_after(p, ["commit 2", "leader red J7", "commit 1", "commit 1"]) == [1, 2]
    check(p, {"commit 1"})


# --- revolts: the attacker -----------------------------------------------------------------

def test_revolt_attacker_already_sure_commits_zero():
    """Every red tile is on the board, out of the game or in P0's hand: P1 can hold no red, so
    his strength is his board strength 1 whatever he holds.  P0 has 2 (I7, J6) > 1 and wins
    with commit 0; committing more wins no more and wastes tiles.  Best: commit 0."""
    # red: 57 = 11 on the board (10 temples + J6) + 2 in P0's hand + 44 out of the game
    p = midgame(0, tiles={"J6": "r"}, leaders=[(1, "red", "H7"), (0, "red", "J7")],
                hands=["rrbggk", "bbggkk"], out_of_game={"red": 44}, pending=revolt(0, 1))
    assert unseen(p, "red") == 0
    check(p, {"commit 0"})


def test_revolt_attacker_hopeless_commits_zero():
    """Red tile on H6: P1 (defender) has 2 on the board; P0's leader on J7 has 1 and P0 holds
    1 red: at most 2, a tie at best, and ties go to the defender.  The revolt is lost whatever
    P0 commits.  Best: commit 0."""
    p = midgame(0, tiles={"H6": "r"}, leaders=[(1, "red", "H7"), (0, "red", "J7")],
                hands=["rbbggk", "rrbggk"], pending=revolt(0, 1))
    check(p, {"commit 0"})


def test_revolt_attacker_commits_all_when_all_are_needed():
    """Endgame, P0's last action.  Both leaders touch only I7: 1 vs 1.  The unseen pool is P1's
    hand, which holds exactly 2 red (every other red is accounted for), so P1 reaches 3 at most
    and exactly 3 if he wants.  P0 must exceed 3: 1 + 3, all his 3 red.
    Scores: P0 red 3, others 5; P1 red 5, blue 4, green 4, black 5.  Winning the revolt
    (+1 red) makes P0 (4,5,5,5) > P1 (4,4,5,5): the game ends (P0's refill comes up short) and
    P0 wins.  Commit 1 or 2: P1 ties or beats it, wins the revolt and the game.  Commit 0: the
    revolt is lost too.  Best: commit 3."""
    p = endgame(0, leaders=[(1, "red", "H7"), (0, "red", "J7")],
                hands=["rrrbgk", "rrbggk"], actions_left=1,
                scores=[scores(3, 5, 5, 5), scores(5, 4, 4, 5)], pending=revolt(0, 1))
    assert unseen(p, "red") == 2
    assert ranking_after(p, ["commit 3", "commit 2"]) == [1, 2]
    assert ranking_after(p, ["commit 2", "commit 2"]) == [2, 1]
    check(p, {"commit 3"})


def test_revolt_attacker_keeps_the_red_tile_it_needs_next():
    """Endgame, first action of P0's turn.  P0 (J7: I7, J6) 2 vs P1 (H7: I7) 1.  P1's hand,
    known by elimination, holds 2 red: at most 3.  P0's smallest sure win is commit 2 (4 > 3).
    Scores: P0 red 3, others 5; P1 red 4, others 6.  P0 needs red 5: +1 for the revolt and
    +1 for a red tile next to his priest in his second action ((5,5,5,5) beats (4,6,6,6);
    (4,5,5,5) loses to it on the second lowest).  P0 holds 3 red: commit 2 keeps one for the
    tile; commit 3 wins the revolt but leaves no red to place; commit 0 or 1 can be matched by
    P1.  Best: commit 2 (the needed commit, not more)."""
    p = endgame(0, tiles={"J6": "r"}, leaders=[(1, "red", "H7"), (0, "red", "J7")],
                hands=["rrrbgk", "rrbggk"],
                scores=[scores(3, 5, 5, 5), scores(4, 6, 6, 6)], pending=revolt(0, 1))
    assert unseen(p, "red") == 2
    assert ranking_after(p, ["commit 2", "commit 2", "tile red K7"]) == [1, 2]
    assert ranking_after(p, ["commit 3", "commit 2", "tile black K7"]) == [2, 1]
    check(p, {"commit 2"})


# --- wars (SPEC 4) ------------------------------------------------------------------------
#
# Layout W: A (west) = black E5, F5, red G5 + P0's king on G6; B (east) = red I5, black J5 +
# P1's king on I4.  H5 touches G5 (A) and I5 (B) and nothing else of theirs, so a tile on H5
# unites them: a black war, attacker P0 (the active player), defender P1.  Black strength
# (the unifying tile counts for nobody): A 2, B 1.

W_TILES = {"E5": "k", "F5": "k", "G5": "r", "I5": "r", "J5": "k"}
W_LEADERS = [(0, "black", "G6"), (1, "black", "I4")]


def test_war_defender_commits_the_smallest_winning_number():
    """P0 placed green H5 and committed 1 black: 3.  P1 1 + k, ties to the defender: k = 2.
    Winning keeps his king and takes E5, F5 off the board (P1 +3 black); losing costs his king
    and J5.  He holds 4 black; 3 or 4 win no more.  Best: commit 2."""
    p = midgame(1, hand_sizes=[4, 6], tiles={**W_TILES, "H5": "g"}, leaders=W_LEADERS,
                hands=["rbggkk", "kkkkrb"], out_of_game={"black": 1},
                pending=war("H5", "black", 0, 1, commit=1))
    assert p.to_act == 1
    check(p, {"commit 2"})


def test_war_defender_tie_is_enough():
    """P0 placed green H5 in his last action and committed 0: 2.  P1 1 + 1 = 2, a tie: the
    defender wins, keeps his king and takes E5, F5 off the board: P1 +3 black.
    Committed tiles come back as draws: every player refills to six at the end of the turn
    (SPEC 3), so in mid-game a commit beyond the need trades tiles for draws, a worth no rule
    fixes.  Here the bag fixes it: it holds 2 tiles, P0 (5 in hand) draws 1, so P1 can draw 1.
    Commit 2 or 3 makes his refill come up short and the game ends with this turn (SPEC 3):
    P0 (5,5,5,5) beats P1 (4,5,5,5) (P1 before the war: red 4, blue 5, green 5, black 2).
    Commit 1: the game goes on and P1 plays next: red on H4 and green on J4 score for his
    king, the only leader of the kingdom (SPEC 3): (5,5,5,6) beats (5,5,5,5), and his own
    refill ends the game.  Commit 0 loses the war and the king.  Best: commit 1."""
    p = short_bag(1, "rb", hand_sizes=[5, 6], tiles={**W_TILES, "H5": "g"},
                  leaders=W_LEADERS, hands=["rbggk", "kkkrbg"], actions_left=1,
                  scores=[scores(5, 5, 5, 5), scores(4, 5, 5, 2)],
                  pending=war("H5", "black", 0, 1, commit=0))
    assert ranking_after(p, ["commit 2"]) == [1, 2]
    assert ranking_after(p, ["commit 3"]) == [1, 2]
    assert not play_out(p, ["commit 1"]).is_over()
    assert ranking_after(p, ["commit 1", "tile red H4", "tile green J4"]) == [2, 1]
    check(p, {"commit 1"})


def test_war_defender_hopeless_commits_zero():
    """P0 placed green H5 in his last action and committed 3 black: 5.  P1 1 + at most 2 black
    = 3 < 5: the war is lost whatever he commits (his king and J5 go: P0 +2 black).
    In mid-game the tiles he commits would come back as draws (every player refills to six,
    SPEC 3); here the bag holds 4 tiles, exactly P0's refill (2 in hand), so any commit makes
    P1's refill come up short and the game ends with this turn: P0 (5,5,5,5) beats P1
    (4,5,5,5).  Commit 0: the game goes on and P1 plays next: two green tiles next to his
    trader on K10 (J10, L10) make him (5,5,5,6), and his own refill ends the game.
    Best: commit 0."""
    p = short_bag(1, "rrbg", hand_sizes=[2, 6], tiles={**W_TILES, "H5": "g"},
                  leaders=W_LEADERS + [(1, "green", "K10")], hands=["rb", "kkggrb"],
                  actions_left=1, scores=[scores(5, 5, 5, 3), scores(5, 5, 4, 5)],
                  pending=war("H5", "black", 0, 1, commit=3))
    assert ranking_after(p, ["commit 1"]) == [1, 2]
    assert ranking_after(p, ["commit 2"]) == [1, 2]
    assert not play_out(p, ["commit 0"]).is_over()
    assert ranking_after(p, ["commit 0", "tile green J10", "tile green L10"]) == [2, 1]
    check(p, {"commit 0"})


def test_war_attacker_already_sure_commits_zero():
    """Every black tile is on the board, out of the game or in P0's hand: P1 holds none, his
    strength stays 1.  P0 (attacker) has 2 > 1: he wins with commit 0.  Best: commit 0."""
    # black: 30 = 3 on the board + 2 in P0's hand + 25 out of the game
    p = midgame(0, hand_sizes=[5, 6], tiles={**W_TILES, "H5": "g"}, leaders=W_LEADERS,
                hands=["rrbkk", "rrbbgg"], out_of_game={"black": 25},
                pending=war("H5", "black", 0, 1))
    assert unseen(p, "black") == 0
    check(p, {"commit 0"})


def test_war_attacker_hopeless_commits_zero():
    """Turn of P1, who placed green H5: the attacker is P1 (B: 1 black), the defender P0 (A: 2).
    P1 holds 1 black: at most 2, a tie at best, and ties go to the defender.  Best: commit 0."""
    p = midgame(1, hand_sizes=[6, 5], turn=1, tiles={**W_TILES, "H5": "g"}, leaders=W_LEADERS,
                hands=["rbggkk", "kbrrg"], pending=war("H5", "black", 1, 0))
    assert p.to_act == 1
    check(p, {"commit 0"})


def test_war_attacker_keeps_the_black_tile_it_needs_next():
    """Endgame, first action of P0's turn: P0 placed red H5 (layout W).  P1's hand, known by
    elimination, holds 2 black: at most 1 + 2 = 3.  P0's smallest sure win: 2 + 2 = 4 > 3.
    Winning removes J5: P0 +2 black; then a black tile next to his king scores +1 black.
    Scores: P0 black 2, others 5; P1 black 4, others 6.  P0 needs black 5 ((5,5,5,5) beats
    (4,6,6,6); (4,5,5,5) loses on the second lowest).  P0 holds 3 black: commit 2 keeps one
    for the second action; commit 3 leaves none; 0 or 1 can be matched (P1 wins the war and
    the game).  Best: commit 2."""
    p = endgame(0, hand_sizes=[5, 6], tiles={**W_TILES, "H5": "r"}, leaders=W_LEADERS,
                hands=["kkkrb", "kkrbgg"],
                scores=[scores(5, 5, 5, 2), scores(6, 6, 6, 4)], pending=war("H5", "black", 0, 1))
    assert unseen(p, "black") == 2
    assert ranking_after(p, ["commit 2", "commit 2", "tile black G7"]) == [1, 2]
    assert ranking_after(p, ["commit 3", "commit 2", "tile red G7"]) == [2, 1]
    check(p, {"commit 2"})


def test_war_defender_three_players_attacker_is_first_clockwise():
    """Three players, P1's turn: P1 placed green H5 but has no king, so the attacker is the
    first king owner clockwise from him, P2 (B: 1 black), and the defender P0 (A: 2) (SPEC 4).
    P2 committed 2: 3.  P0 needs 2 + 1 = 3 (a tie goes to the defender).  Best: commit 1."""
    p = midgame(0, players=3, hand_sizes=[6, 5, 4], turn=1, tiles={**W_TILES, "H5": "g"},
                leaders=[(0, "black", "G6"), (2, "black", "I4")],
                hands=["kkkrbg", "rbggk", "rbggkk"], out_of_game={"black": 2},
                pending=war("H5", "black", 2, 0, commit=2))
    assert p.to_act == 0
    check(p, {"commit 1"})


def test_red_war_defender_counts_the_temple():
    """Red war (SPEC 4): A = temple I7 + red I6, I5 + P0's priest H7: 3 red; B = red I3, J3, K3
    + P1's priest H3: 3 red.  P0 placed red I4 (counted for nobody) and committed 2: 5.  P1
    needs 3 + 2 = 5 (a tie goes to the defender).  Best: commit 2 of his 4 red."""
    p = midgame(1, hand_sizes=[3, 6],
                tiles={"I6": "r", "I5": "r", "I4": "r", "I3": "r", "J3": "r", "K3": "r"},
                leaders=[(0, "red", "H7"), (1, "red", "H3")], hands=["rrbggk", "rrrrbg"],
                out_of_game={"red": 2}, pending=war("I4", "red", 0, 1, commit=2))
    check(p, {"commit 2"})


# Layout M (two colours in conflict), from the war scenario tests:
#   A (west) = red E5, F5, G5; P0's priest G4 (next to G5), P0's king E6 (next to E5).
#   B (east) = red I5, J5, K5, L5; P1's priest I4, P1's king J6 (next to J5).
# P0 placed green H5 (next to G5 and I5): red (3 vs 4) and black (0 vs 0) are in conflict.
M_TILES = {"E5": "r", "F5": "r", "G5": "r", "I5": "r", "J5": "r", "K5": "r", "L5": "r", "H5": "g"}
M_LEADERS = [(0, "red", "G4"), (0, "black", "E6"), (1, "red", "I4"), (1, "black", "J6")]


def test_war_choice_fight_the_lost_war_that_cuts_the_other_off():
    """P0 holds no red and no black, so he loses both wars whatever P1 holds (red 3 < 4; black
    0 vs 0 is a tie, which goes to the defender).  `war red` first: P1 +3 red, F5 and G5 leave,
    E5 stays (a temple next to P0's king, SPEC 4); A is then cut off from H5, so the black war
    never happens and P0 keeps his king.  `war black` first: P0's king goes (P1 +1 black),
    then red is fought anyway and E5 goes too (P1 +4 red).  Best: war red."""
    p = midgame(0, hand_sizes=[5, 6], tiles=M_TILES, leaders=M_LEADERS,
                hands=["bbggg", "rrbggk"], pending={"kind": "war-choice", "unifying": "H5"})
    check(p, {"war red"})


def test_war_that_removes_the_rivals_only_leader_wins_the_game():
    """Endgame, P0's last action, layout W (no tile on H5 yet).  P1's only leader is his king
    in B.  No black is unseen (P1's hand, known by elimination, has none; P0 has none either),
    so a tile on H5 starts a black war P0 wins 2 vs 1 whatever: P1's king and J5 leave, P0
    scores 1 + 1 = 2 black.  Scores: P0 black 2, others 5; P1 4, 4, 4, 4.  Black 4 gives
    (4,5,5,5) > (4,4,4,4).  Nothing else raises P0's black (no black tile in hand; a red or green
    tile next to A scores its own colour to the king).  H5 is the only square next to both
    kingdoms.  Best: a red or a green tile on H5."""
    p = endgame(0, tiles=W_TILES, leaders=W_LEADERS, hands=["rrggbb", "rrbbgg"],
                actions_left=1, scores=[scores(5, 5, 5, 2), scores(4, 4, 4, 4)])
    assert unseen(p, "black") == 0
    assert ranking_after(p, ["tile green H5", "commit 0", "commit 0"]) == [1, 2]
    assert ranking_after(p, ["tile red G7"]) == [2, 1]
    check(p, {"tile red H5", "tile green H5"})


# --- monuments (SPEC 5) -------------------------------------------------------------------
#
# Red F5, G5, F6 (three squares of the block F5-G6) and red H5; P0's priest on H4 and king on
# I5 both touch H5, which stays face-up when the block flips.  A red tile on G6 joins the
# kingdom (+1 red to P0's priest) and completes the 2x2 of red F5-G6.
MON_TILES = {"F5": "r", "G5": "r", "F6": "r", "H5": "r"}
MON_LEADERS = [(0, "red", "H4"), (0, "black", "I5")]


def test_tile_completing_a_red_square_for_the_monument_that_wins():
    """Endgame, P0's last action.  Scores: P0 red 3, black 3, blue 5, green 5; P1 4,4,4,4.
    Red G6: +1 red (priest), then the red-black monument, and at the end of the turn the
    monument gives P0 +1 red +1 black (his priest and king are in its kingdom, SPEC 3 end of
    turn): red 5, black 4, (4,5,5,5) > (4,4,4,4).  Any other single action raises at most one
    of red and black, leaving a 3.  G6 is the only square that completes a red block.
    Best: tile red G6."""
    p = endgame(0, tiles=MON_TILES, leaders=MON_LEADERS, hands=["rrkbgg", "rrbbgk"],
                actions_left=1, scores=[scores(3, 5, 5, 3), scores(4, 4, 4, 4)])
    assert ranking_after(p, ["tile red G6", "monument red-black F5"]) == [1, 2]
    assert ranking_after(p, ["tile red G6", "monument red-blue F5"]) == [2, 1]
    check(p, {"tile red G6"})


def test_monument_choice_takes_the_pair_of_ones_leaders():
    """The position after red G6 above (P0 red 4 now).  Red-black scores both his leaders at
    the end of the turn: red 5, black 4, a win.  Red-blue or red-green score only the priest
    (black stays 3, a loss); decline scores nothing.  Best: monument red-black F5."""
    p = endgame(0, hand_sizes=[5, 6], tiles={**MON_TILES, "G6": "r"}, leaders=MON_LEADERS,
                hands=["rkbgg", "rrbbgk"], actions_left=1,
                scores=[scores(4, 5, 5, 3), scores(4, 4, 4, 4)],
                pending={"kind": "monument", "at": "G6"})
    assert ranking_after(p, ["monument red-black F5"]) == [1, 2]
    assert ranking_after(p, ["decline"]) == [2, 1]
    check(p, {"monument red-black F5"})


# --- treasures (SPEC 3) -------------------------------------------------------------------

# A leaderless region joins the temples B2 (corner treasure) and F3: red C2, D2, F2 and blue E2
# on the river.  A trader next to one of its red tiles makes it a kingdom with a trader and two
# treasures: his owner takes one at once (the corner B2 first).  Empty land next to its red
# tiles: A2, B1, B3 (B2); C1, C3 (C2); D1 (D2); G2 (F2); G3, F4 (F3).
TREASURE_TILES = {"C2": "r", "D2": "r", "E2": "b", "F2": "r"}
TRADER_SQUARES = ["A2", "B1", "B3", "C1", "C3", "D1", "G2", "G3", "F4"]


def test_trader_placement_takes_the_treasure_that_wins():
    """P0's last action; three treasures are left (B2, F3, K11), so taking one ends the game at
    the end of the turn (2 or fewer remain, SPEC 3).  P0: red, blue, green 5, black 0, 3
    treasures -> (3,5,5,5); one more treasure -> (4,5,5,5).  P1: red 3, blue 3, green 4, black 4,
    4 treasures -> (4,4,5,5).  P0 holds no black tile, so only a treasure (a wild point) raises
    his lowest colour.  Best: his trader on any square next to the region's red tiles."""
    p = midgame(0, tiles=TREASURE_TILES, hands=["rrbbgg", "rrbbgk"], actions_left=1,
                treasures=["B2", "F3", "K11"],
                scores=[scores(5, 5, 5, 0, 3), scores(3, 3, 4, 4, 4)])
    assert ranking_after(p, ["leader green G3", "treasure B2"]) == [1, 2]
    check(p, {f"leader green {sq}" for sq in TRADER_SQUARES})


# --- the last action of a game ------------------------------------------------------------

def test_last_tile_wins_on_the_second_lowest_colour():
    """Endgame, P0's last action.  P0's priest on J1 next to temple K1: a red tile on J2, K2 or
    L1 scores him 1 red.  P0 red 4, blue 4, green 6, black 6 -> (4,4,6,6) loses to P1
    (4,5,5,5) on the second lowest; with red 5: (4,5,6,6) wins on the third.  P0 has no other
    leader, so no other tile scores.  Best: a red tile next to the priest's kingdom."""
    p = endgame(0, leaders=[(0, "red", "J1")], hands=["rrggkk", "rbbggk"], actions_left=1,
                scores=[scores(4, 4, 6, 6), scores(4, 5, 5, 5)])
    assert ranking_after(p, ["tile red L1"]) == [1, 2]
    assert ranking_after(p, ["tile green L1"]) == [2, 1]
    check(p, {"tile red J2", "tile red K2", "tile red L1"})


def test_swap_ends_the_game_while_ahead():
    """P0's last action; the bag holds 1 tile (the unseen pool is P1's 6 tiles and 1 more).
    P0 leads: (5,5,5,5) vs P1 (4,5,5,5).  A swap of 2 or more tiles comes up short, so the game
    ends at the end of this turn and P0 wins (SPEC 3).  A tile, or a swap of one, draws exactly
    the last tile (that ends nothing) and P1, with all four leaders in the kingdom of I7 and a
    full hand, plays on.  Best: any swap of 2 to 6 tiles."""
    p = short_bag(0, "k", tiles={"I6": "r"},
                  leaders=[(1, "red", "H7"), (1, "blue", "J7"), (1, "green", "I8"),
                           (1, "black", "H6")],
                  hands=["rrbgkk", "rbbggk"], actions_left=1,
                  scores=[scores(5, 5, 5, 5), scores(4, 5, 5, 5)])
    hand = "rrbgkk"
    swaps = {"swap " + "".join(sorted(combo, key="rbgk".index))
             for k in range(2, 7) for combo in itertools.combinations(hand, k)}
    assert ranking_after(p, ["swap kk"]) == [1, 2]
    assert not play_out(p, ["swap k"]).is_over()
    check(p, swaps)


def test_tile_scores_the_lowest_colour():
    """Endgame, P0's last action: any tile he places makes his refill come up short and ends
    the game with this turn (SPEC 3).  P0's four leaders stand around temple I7 (priest H7,
    farmer J7, trader I6, king I8): a tile next to that kingdom scores its colour for P0.
    His lowest colour is red (2; others 4), P1 has (3,3,3,3): a red tile makes P0 (3,4,4,4), the
    winner; any other colour leaves his lowest at 2 and loses.  (In mid-game no rule makes red
    the best: every colour of his will grow before the end.)  Land next to the kingdom: G7,
    H6, H8, K7, J6, J8, I5.  Best: a red tile on one of them."""
    p = endgame(0, leaders=[(0, "red", "H7"), (0, "blue", "J7"), (0, "green", "I6"),
                            (0, "black", "I8")],
                hands=["rrbggk", "rbbggk"], actions_left=1,
                scores=[scores(2, 4, 4, 4), scores(3, 3, 3, 3)])
    assert ranking_after(p, ["tile red H6"]) == [1, 2]
    assert ranking_after(p, ["tile green H8"]) == [2, 1]
    check(p, {f"tile red {sq}" for sq in ("G7", "H6", "H8", "K7", "J6", "J8", "I5")})


def test_tile_scores_the_lowest_colour_through_the_king():
    """Endgame, P0's last action.  P0's king on H7 next to I7 is his only leader.  A green tile
    in a kingdom without a trader scores for the king's owner (SPEC 3): +1 green.  P0 green 3,
    others 5 -> (4,5,5,5) beats P1 (4,4,4,4); a red or black tile scores red or black (no use).
    Land next to the kingdom: G7, H6, H8, I6, I8, J7.  Best: a green tile on one of them."""
    p = endgame(0, leaders=[(0, "black", "H7")], hands=["rrggkk", "rbbggk"], actions_left=1,
                scores=[scores(5, 5, 3, 5), scores(4, 4, 4, 4)])
    assert ranking_after(p, ["tile green J7"]) == [1, 2]
    assert ranking_after(p, ["tile black J7"]) == [2, 1]
    check(p, {f"tile green {sq}" for sq in ("G7", "H6", "H8", "I6", "I8", "J7")})


# --- catastrophes (SPEC 3) ----------------------------------------------------------------

def test_catastrophe_that_breaks_the_rivals_kingdom_before_the_war():
    """Endgame, P0's turn, two actions.  A (west) = black E5, F5, G5, red F6, P0's king on F7;
    B (east) = red I5, P1's king on I4, black J4, J5, J6.  H5 is the only square next to both.
    Black: A 3 vs B 3, a tie that goes to the defender.  Neither P0's nor P1's hand (known by
    elimination) holds black, so nobody can commit.
    A catastrophe on J4 or J6 leaves B with 2 black (J5 and the other) and P1's king still next
    to I5: then a tile on H5 wins the war 3 vs 2, removes 2 black tiles, P0 +3 black.  A
    catastrophe on J5 cuts J6 off: B keeps only J4, the war gives +2.  On I5 it sends P1's
    king home: no war.  Without a catastrophe the war is lost.
    Scores: P0 black 1, others 5; P1 4, 4, 4, 4.  Only +3 black wins: (4,5,5,5).
    Best first action: catastrophe J4 or J6."""
    p = endgame(0, tiles={"E5": "k", "F5": "k", "G5": "k", "F6": "r",
                          "I5": "r", "J4": "k", "J5": "k", "J6": "k"},
                leaders=[(0, "black", "F7"), (1, "black", "I4")],
                hands=["rrggbb", "rrbbgg"],
                scores=[scores(5, 5, 5, 1), scores(4, 4, 4, 4)])
    assert unseen(p, "black") == 0
    assert ranking_after(p, ["catastrophe J6", "tile green H5", "commit 0", "commit 0"]) == [1, 2]
    assert ranking_after(p, ["catastrophe J5", "tile green H5", "commit 0", "commit 0"]) == [2, 1]
    assert ranking_after(p, ["tile green H5", "commit 0", "commit 0", "pass"]) == [2, 1]
    check(p, {"catastrophe J4", "catastrophe J6"})
