"""Scenario tests for final scoring (SPEC section 6) on ended positions loaded from a file
(actions_left 0: the game is over, SPEC section 9).

Every expected ranking is worked out by hand from SPEC.md.
"""
from helpers import START_TEMPLES, load


def ended(scores, players=None):
    """An ended position: the bag is empty, the treasures taken are off the board."""
    players = players or len(scores)
    taken = sum(s.get("treasure", 0) for s in scores)
    hands = ["rbgk"] * players
    return load(players=players, scores=scores, treasures=START_TEMPLES[taken:], bag="",
                hands=hands, actions_left=0)


def test_ended_position_is_over():
    """SPEC 9: actions_left 0 once the game is over."""
    p = ended([{"red": 1}, {"blue": 1}])
    assert p.is_over()
    assert p.legal_moves() == []
    assert p.actions_left == 0


def test_treasures_added_one_at_a_time_to_the_lowest_colour():
    """SPEC 6: each treasure goes, one at a time, to the player's lowest colour.
    P0: 5 2 3 4 + 3 treasures: 2->3 (3 3 4 5), 3->4 (3 4 4 5), 3->4: [4, 4, 4, 5].
    P1: 4 4 4 4, no treasure: [4, 4, 4, 4].  Lowest 4 = 4, second 4 = 4, third 4 = 4,
    highest 5 > 4: P0 first."""
    p = ended([{"red": 5, "blue": 2, "green": 3, "black": 4, "treasure": 3},
               {"red": 4, "blue": 4, "green": 4, "black": 4}])
    assert [list(x) for x in p.final_scores()] == [[4, 4, 4, 5], [4, 4, 4, 4]]
    assert list(p.ranking()) == [1, 2]


def test_treasures_one_at_a_time_not_all_on_one_colour():
    """SPEC 6: P0 1 1 5 5 + 2 treasures -> [2, 2, 5, 5] (not 3 1 5 5).
    P1 2 2 4 9 -> [2, 2, 4, 9].  2 = 2, 2 = 2, third 5 > 4: P0 first."""
    p = ended([{"red": 1, "blue": 1, "green": 5, "black": 5, "treasure": 2},
               {"red": 2, "blue": 9, "green": 2, "black": 4}])
    assert [list(x) for x in p.final_scores()] == [[2, 2, 5, 5], [2, 2, 4, 9]]
    assert list(p.ranking()) == [1, 2]


def test_ranking_by_lowest_then_second_lowest():
    """SPEC 6: score = lowest colour; ties broken by the second lowest.
    P0 [3, 4, 9, 9] (total 25) vs P1 [3, 5, 5, 5] (total 18): 3 = 3, 5 > 4: P1 first."""
    p = ended([{"red": 9, "blue": 3, "green": 9, "black": 4},
               {"red": 5, "blue": 5, "green": 3, "black": 5}])
    assert list(p.ranking()) == [2, 1]


def test_lowest_colour_beats_total():
    """SPEC 6: P0 [2, 9, 9, 9] loses to P1 [3, 3, 3, 3] on the lowest colour."""
    p = ended([{"red": 2, "blue": 9, "green": 9, "black": 9},
               {"red": 3, "blue": 3, "green": 3, "black": 3}])
    assert list(p.ranking()) == [2, 1]


def test_equal_on_all_four_share_the_place():
    """SPEC 6: equal on all four -> shared place, places numbered 1, 1, 3.
    P0 3 5 6 7 and P1 7 6 5 3 are both [3, 5, 6, 7]; P2 [2, 9, 9, 9] is third."""
    p = ended([{"red": 3, "blue": 5, "green": 6, "black": 7},
               {"red": 7, "blue": 6, "green": 5, "black": 3},
               {"red": 2, "blue": 9, "green": 9, "black": 9}])
    assert list(p.ranking()) == [1, 1, 3]


def test_equal_after_treasures_share_the_place_four_players():
    """SPEC 6, 4 players: P0 4 4 4 3 + 1 treasure = [4, 4, 4, 4]; P1 4 4 4 4 = [4, 4, 4, 4];
    P2 [1, 8, 8, 8]; P3 8 8 8 0 + 1 treasure = [1, 8, 8, 8].  Places 1, 1, 3, 3."""
    p = ended([{"red": 4, "blue": 4, "green": 4, "black": 3, "treasure": 1},
               {"red": 4, "blue": 4, "green": 4, "black": 4},
               {"red": 1, "blue": 8, "green": 8, "black": 8},
               {"red": 8, "blue": 8, "green": 8, "black": 0, "treasure": 1}])
    assert [list(x) for x in p.final_scores()] == [[4, 4, 4, 4], [4, 4, 4, 4],
                                                   [1, 8, 8, 8], [1, 8, 8, 8]]
    assert list(p.ranking()) == [1, 1, 3, 3]


def test_tie_broken_by_highest_colour():
    """SPEC 6: the tie-break goes down to the highest colour: [2, 3, 4, 6] beats [2, 3, 4, 5]."""
    p = ended([{"red": 2, "blue": 3, "green": 4, "black": 5},
               {"red": 6, "blue": 4, "green": 3, "black": 2}])
    assert list(p.ranking()) == [2, 1]
