"""Position.view(seat): the position as one seat sees it (SPEC section 9: a hand given as null
is unknown, a bag left out is unknown), made from the state directly.  A hand-built position
checked by hand, and on random games the same position as the JSON round trip the faces used
to make (position_to_dict with only the seat's hand, then Position.from_json)."""
import random

import numpy as np
import pytest

from helpers import position
from tne_ai.core import state as S
from tne_ai.core.formats import position_to_dict
from tne_ai.errors import IllegalMoveError, TneError
from tne_ai.position import Position

# Two players.  The standard map's ten temples (red, each with its treasure), a green tile on
# G5, player 1's red leader on C2 (next to the temple B2).  Player 0 holds r r b g g k, player
# 1 holds b b b k k r.  The ordered bag holds 24 tiles; hidden_discards takes the rest:
# 153 - 11 on the board - 12 in hands - 24 in the bag = 106.
BOARD_G5 = "......g......r~~"     # row 5: G5 green, the temple N5, the river
HAND0 = {"red": 2, "blue": 1, "green": 2, "black": 1}
HAND1 = {"red": 1, "blue": 3, "green": 0, "black": 2}
SCORES = [{"red": 3, "blue": 0, "green": 1, "black": 0, "treasure": 0},
          {"red": 0, "blue": 2, "green": 0, "black": 4, "treasure": 0}]


def _hand_built():
    return position(tiles={"G5": "g"}, leaders=[(1, "red", "C2")], hands=["rrbggk", "bbbkkr"],
                    scores=[{"red": 3, "green": 1}, {"blue": 2, "black": 4}])


def test_a_seats_view_hides_the_other_hand_and_keeps_the_rest():
    d = _hand_built()
    p = Position.from_json(d)
    v = p.view(1)
    assert v.known_hands == [False, True] and v.bag_known is False
    assert v.hand(0) is None and v.hand(1) == HAND1
    out = v.to_json()
    assert out["hands"] == [None, HAND1]
    assert "bag" not in out
    assert out["board"] == d["board"] and out["board"][4] == BOARD_G5
    assert out["leaders"] == [[1, "red", "C2"]]
    assert out["scores"] == v.scores == SCORES
    assert out["treasures"] == d["treasures"] and out["catastrophes"] == [2, 2]
    assert (v.turn, v.to_act, v.actions_left, v.pending) == (0, 0, 2, None)
    assert out["hidden_discards"] == 106
    # seat 0's hand is a guess of 6 tiles; the bag is the 24 tiles still to draw, counted
    assert int(v.st[S.HAND:S.HAND + 4].sum()) == 6
    assert int(v.st[S.BAG_COUNT:S.BAG_COUNT + 4].sum()) == 24
    assert int(v.st[S.BAG_ORDERED]) == 0
    # the position itself is unchanged
    assert p == Position.from_json(d) and p.hand(0) == HAND0


def test_the_view_of_the_other_seat_and_of_a_watcher():
    p = Position.from_json(_hand_built())
    mine = p.view(0)
    assert mine.known_hands == [True, False]
    assert mine.hand(0) == HAND0 and mine.hand(1) is None
    watcher = p.view(None)
    assert watcher.known_hands == [False, False]
    assert watcher.to_json()["hands"] == [None, None]
    assert watcher.to_json()["board"][4] == BOARD_G5


def test_in_a_view_the_mover_without_his_hand_cannot_move():
    v = Position.from_json(_hand_built()).view(1)
    assert v.why_illegal(S.A_PASS) == "the hand of player 0, who must act, is unknown"
    with pytest.raises(IllegalMoveError, match="the hand of player 0, who must act, is unknown"):
        v.push("pass")


@pytest.mark.parametrize("seat, message", [(2, "player 2: players are numbered 0 to 1"),
                                           (-1, "player -1: players are numbered 0 to 1"),
                                           (True, "player True: players are numbered 0 to 1")])
def test_a_seat_not_in_the_game_is_refused(seat, message):
    with pytest.raises(TneError, match=message):
        Position.new(2, seed=1).view(seat)


def test_a_bad_seed_is_refused():
    with pytest.raises(TneError, match="seed must be an integer 0 to"):
        Position.new(2, seed=1).view(0, seed=-1)


def _round_trip(p, seat, seed):
    """The view as the faces made it before Position.view: through the JSON object."""
    known = [i == seat for i in range(p.players)]
    return Position.from_json(position_to_dict(p.st, known, False), seed=seed)


@pytest.mark.parametrize("game_seed", range(9))
def test_the_view_is_the_json_round_trip(game_seed):
    """Random games of 2, 3 and 4 players; about every third position, every seat's view
    and a watcher's, each with a seed of its own."""
    pick = random.Random(game_seed)
    p = Position.new(players=2 + game_seed % 3, seed=game_seed)
    compared = 0
    while not p.is_over():
        if pick.random() < 0.3:
            for seat in [*range(p.players), None]:
                seed = pick.randrange(1000)
                old, new = _round_trip(p, seat, seed), p.view(seat, seed=seed)
                assert new == old
                assert np.array_equal(new.rng, old.rng)
                assert new.to_json() == position_to_dict(p.st, old.known_hands, False)
                compared += 1
        p.push(pick.choice(p.legal_codes()))
    assert compared > 50
