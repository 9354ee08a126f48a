"""bench/commit_decisions.py: the needed commit of a revolt or war decision (SPEC 4), worked out
by hand on the tactics layouts, and the saved decision set."""
import os
import sys

from test_tactics import W_LEADERS, W_TILES, midgame, revolt, war
from tne_ai.position import Position

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench"))
import commit_decisions as C  # noqa: E402

REVOLT_J6 = dict(tiles={"J6": "r"}, leaders=[(1, "red", "H7"), (0, "red", "J7")])


def test_defender_needs_the_attackers_total_less_his_board_strength():
    """Attacker 2 (I7, J6) + 2 committed = 4, defender 1 (I7): 3 of his 5 red (ties go to him)."""
    p = midgame(1, hand_sizes=[4, 6], hands=["rrbggk", "rrrrrk"], out_of_game={"red": 2},
                pending=revolt(0, 1, commit=2), **REVOLT_J6)
    assert C.classify(p.st) == ("defender-wins", 3, 5)


def test_defender_already_winning_needs_zero():
    """Attacker 1 (I7) + 0, defender 2 (I7, H6): he wins with 0."""
    p = midgame(1, tiles={"H6": "r"}, leaders=[(1, "red", "H7"), (0, "red", "J7")],
                hands=["rrbggk", "rrbggk"], pending=revolt(0, 1, commit=0))
    assert C.classify(p.st) == ("defender-wins", 0, 2)


def test_defender_short_even_with_all_cannot_win():
    """Attacker 3 (I7, J6, J8) + 2 = 5; defender 1 + 2 red = 3 at most."""
    p = midgame(1, hand_sizes=[4, 6], tiles={"J6": "r", "J8": "r"},
                leaders=[(1, "red", "H7"), (0, "red", "J7")], hands=["rrbggk", "rrbggk"],
                out_of_game={"red": 2}, pending=revolt(0, 1, commit=2))
    assert C.classify(p.st) == ("cannot-win", 0, 2)


def test_attacker_sure_when_no_red_is_unseen():
    """No red is unseen by P0: the defender stays at 1; P0's 2 wins with 0 of his 2 red."""
    p = midgame(0, hands=["rrbggk", "bbggkk"], out_of_game={"red": 44}, pending=revolt(0, 1),
                **REVOLT_J6)
    assert C.classify(p.st) == ("attacker-sure", 0, 2)


def test_attacker_sure_counts_at_most_the_unseen_tiles_of_the_colour():
    """39 red out of the game: 57 - 11 on the board - 4 in P0's hand - 39 = 3 unseen, so the
    defender reaches 1 + 3 = 4 at most (not 1 + 6); P0 needs 2 + 3 = 5, and holds 4 red."""
    p = midgame(0, hands=["rrrrbk", "bbggkk"], out_of_game={"red": 39}, pending=revolt(0, 1),
                **REVOLT_J6)
    assert C.classify(p.st) == ("attacker-sure", 3, 4)


def test_attacker_whose_win_depends_on_the_hidden_hand_is_left_out():
    """Many red unseen: the defender may reach 1 + 6 = 7; P0 with 2 + 4 can neither be sure
    (needs 6) nor is he beaten by the defender's board strength alone."""
    p = midgame(0, hands=["rrrrbk", "bbggkk"], pending=revolt(0, 1), **REVOLT_J6)
    assert C.classify(p.st) is None


def test_attacker_who_cannot_beat_the_board_strength_cannot_win():
    """Attacker 1 (I7) + his 1 red = 2 vs the defender's board 2 (I7, H6): a tie at best."""
    p = midgame(0, tiles={"H6": "r"}, leaders=[(1, "red", "H7"), (0, "red", "J7")],
                hands=["rbbggk", "rrbggk"], pending=revolt(0, 1))
    assert C.classify(p.st) == ("cannot-win", 0, 1)


def test_war_commits_are_counted_in_the_war_colour():
    """Layout W, P0 placed green H5 and committed 1 black: 3; P1 1 + 2 of his 4 black; his red
    does not count."""
    p = midgame(1, hand_sizes=[4, 6], tiles={**W_TILES, "H5": "g"}, leaders=W_LEADERS,
                hands=["rbggkk", "kkkkrb"], out_of_game={"black": 1},
                pending=war("H5", "black", 0, 1, commit=1))
    assert C.classify(p.st) == ("defender-wins", 2, 4)


def test_the_saved_set():
    """At least 60 decisions, each of the three kinds present, each position as its decider sees
    it (the other hands unknown) with a commit decision pending, more than `needed` committable."""
    decisions = C.load()
    assert len(decisions) >= 60
    assert {d["category"] for d in decisions} == set(C.CATEGORIES)
    for i, d in enumerate(decisions):
        pos = d["position"]
        assert pos["pending"]["kind"] in ("revolt", "war")
        assert [h is not None for h in pos["hands"]] == [j == d["player"] for j in range(pos["players"])]
        assert "bag" not in pos
        assert 0 <= d["needed"] < d["most"]
        assert d["category"] != "cannot-win" or d["needed"] == 0
        assert Position.from_json(pos, seed=i).to_act == d["player"]
