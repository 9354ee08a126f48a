"""ISMCTS: determinization never peeks, the search answers legal moves everywhere and is
reproducible for a seed, an iteration budget and a thread count."""
import json
import math
from pathlib import Path

import numpy as np
import pytest

from tne_ai.core import state as S
from tne_ai.core.board import TILES_PER_COLOUR
from tne_ai.core.rules.apply import apply_action
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.core.rules.rng import below, make_rng
from tne_ai.position import Position
from tne_ai.search.determinize import determinize, determinize_belief
from tne_ai.search.session import search

MOVES = np.empty(S.MAX_MOVES, dtype=np.int64)


def random_walk(players, seed, stop):
    """Random moves from a new game until stop(st) holds (None if the game ends first)."""
    pos = Position.new(players, seed=seed)
    rng = make_rng(seed)
    while not pos.is_over():
        if stop(pos.st):
            return pos
        n = legal_moves(pos.st, MOVES)
        apply_action(pos.st, MOVES[below(rng, n)], rng)
    return None


def first_walk(players, stop):
    for seed in range(500):
        pos = random_walk(players, seed, stop)
        if pos is not None:
            return pos
    raise AssertionError("no random game reached the wanted situation")


def board_count(st, c):
    words = st[S.BB_TILE + 3 * c:S.BB_TILE + 3 * c + 3]
    return sum(bin(int(w) & (2 ** 64 - 1)).count("1") for w in words) + 4 * int((st[S.MON_TILES:S.MON_TILES + 6] == c).sum())


def hidden_variant(pos, viewer, seed):
    """The same information set for viewer with other opponent hands and bag: reload the
    position with every other hand unknown and the bag omitted (dealt anew by the seed)."""
    d = pos.to_json()
    for p in range(pos.players):
        if p != viewer:
            d["hands"][p] = None
    d["hand_sizes"] = [sum(pos.hand(p).values()) for p in range(pos.players)]
    del d["bag"]
    return Position.from_json(d, seed=seed)


MID = dict(players=3, stop=lambda st: st[S.PHASE] == S.PH_ACTION and st[S.BAG_LEN] < 90)


def test_determinized_tiles_are_conserved_and_match_the_unseen_pool():
    pos = first_walk(**MID)
    viewer = pos.to_act
    out = np.empty_like(pos.st)
    rng = make_rng(1)
    for _ in range(50):
        determinize(pos.st, viewer, rng, out)
        for c in range(4):
            others = sum(out[S.HAND + 4 * p + c] for p in range(pos.players) if p != viewer)
            on_board = board_count(pos.st, c)
            unseen = TILES_PER_COLOUR[c] - on_board - pos.st[S.OUT_OF_GAME + c] - pos.st[S.HAND + 4 * viewer + c]
            # dealt hands and bag come out of the unseen pool; the hidden discards take the rest
            assert others + out[S.BAG_COUNT + c] <= unseen
        assert (out[S.HAND + 4 * viewer:S.HAND + 4 * viewer + 4] == pos.st[S.HAND + 4 * viewer:S.HAND + 4 * viewer + 4]).all()
        for p in range(pos.players):
            assert out[S.HAND + 4 * p:S.HAND + 4 * p + 4].sum() == pos.st[S.HAND + 4 * p:S.HAND + 4 * p + 4].sum()
        total = sum(board_count(out, c) for c in range(4)) + out[S.HAND:S.HAND + 16].sum() + \
            out[S.BAG_COUNT:S.BAG_COUNT + 4].sum() + out[S.OUT_OF_GAME:S.OUT_OF_GAME + 4].sum() + out[S.HIDDEN_DISCARDS]
        assert total == 153
        assert out[S.BAG_LEN] == pos.st[S.BAG_COUNT:S.BAG_COUNT + 4].sum()


def test_determinization_ignores_the_true_hidden_tiles():
    pos = first_walk(**MID)
    viewer = pos.to_act
    other = hidden_variant(pos, viewer, seed=99)
    assert not np.array_equal(other.st, pos.st)  # the hidden part really differs
    a = np.empty_like(pos.st)
    b = np.empty_like(pos.st)
    determinize(pos.st, viewer, make_rng(7), a)
    determinize(other.st, viewer, make_rng(7), b)
    assert np.array_equal(a, b)


SITUATIONS = {
    "start": lambda st: True,
    "mid-game": lambda st: st[S.PHASE] == S.PH_ACTION and st[S.BAG_LEN] < 90,
    "conflict-commit": lambda st: st[S.PHASE] in (S.PH_REVOLT, S.PH_WAR) and st[S.HAND + 4 * st[S.TO_ACT] + (0 if st[S.PHASE] == S.PH_REVOLT else st[S.CF_COLOUR])] > 0,
    "end-game": lambda st: st[S.PHASE] == S.PH_ACTION and st[S.BAG_LEN] < 8,
}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("situation", list(SITUATIONS))
def test_search_returns_a_legal_move(players, situation):
    pos = first_walk(players, SITUATIONS[situation])
    legal = set(pos.legal_codes())
    for rollout in (-1, 0, 5):
        result = search(pos.st, iterations=200, seed=3, rollout_depth=rollout)
        assert result.move in legal
        assert len(legal) == 1 or result.iterations == 200


def test_same_seed_and_budget_give_the_same_move_with_one_and_two_threads():
    pos = first_walk(**MID)
    for threads in (1, 2):
        first = search(pos.st, iterations=600, seed=11, threads=threads)
        again = search(pos.st, iterations=600, seed=11, threads=threads)
        assert first.move == again.move
        assert first.alternatives == again.alternatives


def test_search_is_the_same_with_and_without_the_true_hidden_tiles():
    pos = first_walk(**MID)
    other = hidden_variant(pos, pos.to_act, seed=5)
    for threads in (1, 2):
        a = search(pos.st, iterations=400, seed=21, threads=threads)
        b = search(other.st, iterations=400, seed=21, threads=threads)
        assert a.move == b.move and a.alternatives == b.alternatives


def test_a_forced_decision_is_answered_without_search():
    pos = first_walk(2, lambda st: st[S.PHASE] in (S.PH_REVOLT, S.PH_WAR)
                     and st[S.HAND + 4 * st[S.TO_ACT] + (0 if st[S.PHASE] == S.PH_REVOLT else st[S.CF_COLOUR])] == 0)
    result = search(pos.st, iterations=1000, seed=1)
    assert result.iterations == 0 and result.move == S.A_COMMIT


def test_the_second_action_of_a_turn_reuses_the_first_search_and_a_new_turn_does_not():
    from tne_ai.agents.builtin import make_agent
    pos = Position.new(2, seed=5)
    agent = make_agent("mcts:iterations=3000", seed=1)

    def inherited(a):             # the root's visits the last search did not run itself
        return a.info.visits - a.info.iterations
    pos.push(agent.choose(pos))                   # player 0's first action
    assert inherited(agent) == 0
    first = agent.last
    assert pos.to_act == 0 and pos.st[S.ACTIONS_LEFT] == 1
    pos.push(agent.choose(pos))                   # his second: the chosen child's subtree
    assert agent.last is first and inherited(agent) > 0   # the same Search, moved on
    assert agent.info.iterations == 3000
    other = make_agent("mcts:iterations=3000", seed=1)
    pos.push(other.choose(pos))                   # player 1's turn: a fresh tree
    assert inherited(other) == 0
    agent_again = make_agent("mcts:iterations=3000,reuse=0", seed=1)
    agent_again.choose(pos)
    assert inherited(agent_again) == 0


def test_mover_moves_are_the_same_in_every_determinization():
    """run_iterations lists the root's moves once when the viewer acts there: the legal moves
    depend only on the board and the mover's own hand (SPEC section 3), which every
    determinization of the mover's view keeps.  Checked over random positions of 2-4 players,
    in every phase the walks reach, against 5 samples each."""
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    sample = np.empty(S.STATE_SIZE, dtype=np.int64)
    phases = set()
    checked = 0
    for players in (2, 3, 4):
        for seed in range(12):
            pos = Position.new(players, seed=seed)
            rng = make_rng(100 + seed)
            while not pos.is_over():
                st = pos.st
                n = legal_moves(st, MOVES)
                own = sorted(MOVES[:n].tolist())
                viewer = int(st[S.TO_ACT])
                for _ in range(5):
                    determinize(st, viewer, rng, sample)
                    m = legal_moves(sample, moves)
                    assert sorted(moves[:m].tolist()) == own
                    assert moves[:m].tolist() == MOVES[:n].tolist()   # same order too
                checked += 1
                phases.add(int(st[S.PHASE]))
                apply_action(st, MOVES[below(rng, n)], rng)
    assert checked > 1000
    assert {S.PH_ACTION, S.PH_REVOLT, S.PH_WAR} <= phases


BASELINE_ONLY = """
from tne_ai.position import Position
from tne_ai.search import evaluate, features, policy, priors, session, value
KERNELS = (features.features, priors.prepare, priors.pick_untried, priors.pick_commit,
           evaluate.evaluate_model, evaluate.settle, value.evaluate_net, policy.pick_scored)
session.search(Position.new(2, seed=3).st, iterations=50, seed=1, evaluation="basic", prior="none", widen=0)
print("compiled:", ",".join(f.__name__ for f in KERNELS if f.signatures) or "-")
session.search(Position.new(2, seed=3).st, iterations=50, seed=1)
print("default:", ",".join(f.__name__ for f in KERNELS if f.signatures) or "-")
session.search(Position.new(2, seed=3).st, iterations=50, seed=1, evaluation="model", prior="kinds")
print("linear:", ",".join(f.__name__ for f in KERNELS if f.signatures) or "-")
"""


def test_the_baseline_search_compiles_none_of_the_ingredients_it_switches_off(tmp_path):
    """DESIGN (conventions): an ingredient switched off is None, and numba prunes its branch
    before typing, so the frozen baseline (hand-set evaluation, no priors, no settling) never
    compiles the fitted evaluations, the priors or settling.  A fresh interpreter with an empty
    numba cache, so that every callee is compiled, not loaded."""
    import os
    import subprocess
    import sys
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", BASELINE_ONLY], capture_output=True, text=True,
                         env=env, cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert out.returncode == 0, out.stderr
    # the default search (the value network, the move policy at the root and the kinds below
    # it, settling) compiles every one but the linear evaluation, which the linear search
    # (evaluation=model, prior=kinds) adds
    assert out.stdout.strip().splitlines()[-3:] == [
        "compiled: -",
        "default: features,prepare,pick_untried,pick_commit,settle,evaluate_net,pick_scored",
        "linear: features,prepare,pick_untried,pick_commit,evaluate_model,settle,evaluate_net,"
        "pick_scored"]


def test_the_hand_belief_deals_a_hidden_tile_by_its_colour_odds():
    """examples/midgame.json (player 1 to move) with player 0's hand unknown and one tile in
    it: the belief (search/determinize.py) draws that tile's colour c with odds unseen_c *
    exp(0.273 s_c + b_c), s_c = min(score_c - lowest, 6) / 6 and b = (0.331, 0.092, -0.056, 0)
    for red, blue, green, black.  Player 0 scores red 4, blue 1, green 6, black 1, so s = (3/6,
    0, 5/6, 0); the unseen pool is what neither the board, the out-of-game pile nor player
    1's hand (red 2, blue 1, green 3) holds.  20,000 deals: every colour's share within four
    standard errors of its chance."""
    d = json.loads((Path(__file__).parent.parent / "examples" / "midgame.json").read_text())
    d["hands"][0] = None
    d["hand_sizes"] = [1, 6]
    del d["bag"]
    pos = Position.from_json(d, seed=4)
    viewer = 1
    assert pos.st[S.TO_ACT] == viewer
    s = [3 / 6, 0.0, 5 / 6, 0.0]
    b = [0.331, 0.092, -0.056, 0.0]
    out_of_game = [4, 6, 5, 3]
    in_hand = [2, 1, 3, 0]
    unseen = [TILES_PER_COLOUR[c] - board_count(pos.st, c) - out_of_game[c] - in_hand[c]
              for c in range(4)]
    odds = [unseen[c] * math.exp(0.273 * s[c] + b[c]) for c in range(4)]
    chance = [o / sum(odds) for o in odds]
    out = np.empty_like(pos.st)
    rng = make_rng(5)
    draws = 20_000
    counts = [0, 0, 0, 0]
    for _ in range(draws):
        determinize_belief(pos.st, viewer, rng, out)
        hand = out[S.HAND:S.HAND + 4]
        assert hand.sum() == 1
        counts[int(np.argmax(hand))] += 1
    for c in range(4):
        se = math.sqrt(chance[c] * (1 - chance[c]) / draws)
        assert abs(counts[c] / draws - chance[c]) < 4 * se, (c, counts, chance)
