"""Selection inside the tree (search/mcts.py ``_select``, ``_opens``): UCB or PUCT with
first-play urgency, no unopened winner, widening by count or by prior mass, and the prior as
per-move probabilities (search/priors.py ``prior_probs``).

The unit tests build a small tree by hand and check the kernels' choice against the formula
of each option's help (search/config.py), worked out here by hand; the search tests play the
end-game tactics of tests/data/tactics_endgame/ (their winning moves worked out by hand from
SPEC) that the move-kind priors rank low."""
import json
import math
import os

import numpy as np
import pytest

from test_commit_decisions import REVOLT_J6
from test_tactics import midgame, revolt
from tne_ai import state as S
from tne_ai.agents import make_agent
from tne_ai.engine.movegen import legal_moves
from tne_ai.notation import move_text
from tne_ai.position import Position
from tne_ai.search import mcts as M
from tne_ai.search.tree import LOG_TABLE
from tne_ai.search import priors as P
from tne_ai.search.config import SearchConfig
from tne_ai.search.session import Search
from tne_ai.search.tree import Scratch, Tree

HERE = os.path.dirname(os.path.abspath(__file__))

# three children of the root: (action, visits, value summed, prior probability); the root
# has 100 visits and each child was available 99 times before this walk
CHILDREN = [(10, 50, 30.0, 0.10), (20, 10, 5.0, 0.60), (30, 39, 27.3, 0.05)]


def hand_tree(children=CHILDREN, root_visits=100, untried=0.2):
    tree = Tree(8)
    tree.visits[0] = root_visits
    tree.untried[0] = untried
    for i, (a, v, value, prior) in enumerate(children, start=1):
        tree.action[i], tree.parent[i], tree.child[i] = a, 0, -1
        tree.sibling[i] = tree.child[0]
        tree.child[0] = i
        tree.player[i], tree.visits[i], tree.avail[i] = 0, v, 99
        tree.value[i], tree.prior[i], tree.untried[i] = value, prior, 1.0
    tree.count[0] = len(children) + 1
    return tree


def cfg_of(select="ucb", c=0.35, cpuct=1.0, fpu=0.1, open_losing=0.0, widen=1.0, widen_exp=0.5,
           widen_mass=0.0):
    cfg = np.zeros(M.CFG_SIZE)
    cfg[M.CFG_SELECT] = 1.0 if select == "puct" else 0.0
    cfg[M.CFG_C], cfg[M.CFG_CPUCT], cfg[M.CFG_FPU] = c, cpuct, fpu
    cfg[M.CFG_OPEN_LOSING], cfg[M.CFG_WIDEN_MASS] = open_losing, widen_mass
    cfg[M.CFG_WIDEN_C], cfg[M.CFG_WIDEN_A] = widen, widen_exp
    return cfg


def select(tree, cfg, even=False, by_mass=None, node=0):
    """``_select`` on the root of tree (or on ``node``, given the root's children), with its
    prior sums (``by_mass``: run_iterations passes it for PUCT and widening by mass) or,
    by_mass False, without."""
    st = np.zeros(S.STATE_SIZE, dtype=np.int64)      # player 0 to act, one red tile in hand:
    st[S.hand(0, 0)] = 1                             # the children (red tiles) are all legal
    child_stamp = np.zeros(S.N_ACTIONS, dtype=np.int64)
    if by_mass is None:
        by_mass = cfg[M.CFG_SELECT] == 1.0 or cfg[M.CFG_WIDEN_MASS] > 0.0
    tree.child[node] = tree.child[0]
    out = M._select(node, st, child_stamp, 9, even, cfg, tree.action, tree.child, tree.sibling,
                    tree.visits, tree.avail, tree.value, tree.prior, True if by_mass else None,
                    LOG_TABLE)
    assert sorted(np.flatnonzero(child_stamp == 9)) == [10, 20, 30]   # each marked open
    return out


def opens_of(tree, cfg, opened, score, best_mean, mass, mean):
    return M._opens(0, opened, score, best_mean, mass, mean, False, cfg, tree.visits, tree.untried)


def test_ucb_picks_the_best_mean_plus_exploration_over_availability():
    """After this walk each child was available 100 times (ln 100 = 4.605):
    10: 0.6 + 0.35 sqrt(4.605 / 50) = 0.706; 20: 0.5 + 0.35 sqrt(4.605 / 10) = 0.738;
    30: 0.7 + 0.35 sqrt(4.605 / 39) = 0.820.  The third child (action 30) wins."""
    tree = hand_tree()
    best, score, opened, best_mean, mass, mean = select(tree, cfg_of())
    assert tree.action[best] == 30 and opened == 3
    assert score == pytest.approx(0.7 + 0.35 * math.sqrt(math.log(100) / 39))
    assert list(tree.avail[1:4]) == [100, 100, 100]
    assert best_mean == pytest.approx(0.7) and (mass, mean) == (0.0, 0.0)   # UCB reads neither
    # the same walk with the prior sums: the same choice, and the prior mass and the mean summed
    tree = hand_tree()
    best, score, opened, best_mean, mass, mean = select(tree, cfg_of(), by_mass=True)
    assert tree.action[best] == 30 and opened == 3
    assert score == pytest.approx(0.7 + 0.35 * math.sqrt(math.log(100) / 39))
    assert best_mean == pytest.approx(0.7) and mass == pytest.approx(0.75, abs=1e-6)
    assert mean == pytest.approx(62.3 / 99)


def test_puct_picks_the_best_mean_plus_prior_over_visits():
    """N = 100, sqrt N = 10, cpuct 1: 10: 0.6 + 10 * 0.1 / 51 = 0.620; 20: 0.5 + 10 * 0.6 / 11
    = 1.045; 30: 0.7 + 10 * 0.05 / 40 = 0.713.  The child the prior likes (action 20) wins,
    though its mean is the lowest."""
    tree = hand_tree()
    best, score, *_ = select(tree, cfg_of("puct"))
    assert tree.action[best] == 20
    assert score == pytest.approx(0.5 + 6.0 / 11, rel=1e-6)


def test_puct_opens_the_best_untried_move_when_its_first_play_urgency_wins():
    """The opened children's mean is 62.3 / 99 = 0.629, their prior mass 0.75 (sqrt 0.866);
    with fpu 0.1 an untried move is worth 0.629 - 0.087 + 10 P = 0.543 + 10 P.  The best
    untried prior 0.2 gives 2.543 > 1.045 (the best child): open; 0.04 gives 0.943 < 1.045:
    do not; 0.06 gives 1.143: open, but not with fpu 0.5 (0.629 - 0.433 + 0.6 = 0.796)."""
    for untried, fpu, opens in ((0.2, 0.1, 1), (0.04, 0.1, 0), (0.06, 0.5, 0), (0.06, 0.1, 1)):
        tree = hand_tree(untried=untried)
        cfg = cfg_of("puct", fpu=fpu)
        best, score, opened, best_mean, mass, mean = select(tree, cfg)
        assert opens_of(tree, cfg, opened, score, best_mean, mass, mean) == opens, \
            (untried, fpu)


def test_widening_by_count_and_by_prior_mass():
    """Count: 3 open, widen 0.29: 0.29 * sqrt(101) = 2.91 < 3, closed; widen 0.3: 3.01, open.
    Mass: the open priors sum to 0.75; widen_mass 0.07: 0.07 * sqrt(101) = 0.703 < 0.75,
    closed; 0.08: 0.804, open (the count rule is then not read)."""
    for kw, opens in (({"widen": 0.29}, 0), ({"widen": 0.3}, 1),
                      ({"widen_mass": 0.07, "widen": 100.0}, 0), ({"widen_mass": 0.08, "widen": 0.01}, 1)):
        tree = hand_tree()
        cfg = cfg_of(**kw)
        best, score, opened, best_mean, mass, mean = select(tree, cfg)
        assert opens_of(tree, cfg, opened, score, best_mean, mass, mean) == opens, kw


def test_norm_scales_the_means_between_the_least_and_the_best_before_exploring():
    """Means 25.5 / 50 = 0.51, 5 / 10 = 0.50, 20.28 / 39 = 0.52, each available 100 times
    (ln 100 = 4.605).  UCB: 10: 0.51 + 0.35 sqrt(4.605 / 50) = 0.616; 20: 0.50 + 0.35
    sqrt(4.605 / 10) = 0.738; 30: 0.52 + 0.35 sqrt(4.605 / 39) = 0.640: the least visited
    (20) wins, the hundredths between the means lost under the exploration term.  norm
    scales them to 0.5, 0 and 1 between 0.50 and 0.52: 10: 0.606, 20: 0.238, 30: 1.120, so
    the best mean (30) wins; the best mean returned stays the unscaled 0.52."""
    close = [(10, 50, 25.5, 0.1), (20, 10, 5.0, 0.6), (30, 39, 20.28, 0.05)]
    tree = hand_tree(close)
    best, score, opened, best_mean, *_ = select(tree, cfg_of())
    assert tree.action[best] == 20 and score == pytest.approx(0.5 + 0.35 * math.sqrt(math.log(100) / 10))
    cfg = cfg_of()
    cfg[M.CFG_NORM] = 1.0
    tree = hand_tree(close)
    best, score, opened, best_mean, *_ = select(tree, cfg)
    assert tree.action[best] == 30 and opened == 3 and best_mean == pytest.approx(0.52)
    assert score == pytest.approx(1.0 + 0.35 * math.sqrt(math.log(100) / 39))
    assert list(tree.avail[1:4]) == [100, 100, 100]          # counted once, not twice
    # equal means leave nothing to scale: plain UCB, the least visited
    tree = hand_tree([(10, 50, 25.0, 0.1), (20, 10, 5.0, 0.6), (30, 40, 20.0, 0.05)])
    best, score, *_ = select(tree, cfg)
    assert tree.action[best] == 20 and score == pytest.approx(0.5 + 0.35 * math.sqrt(math.log(100) / 10))


def test_a_node_whose_opened_children_all_lose_opens_another():
    """Means 0.01, 0.0, 0.015, all below open_losing 0.02: a rescue (2) whatever the
    widening, once the node has two visits per opened child (6); not with 5 visits, not with
    open_losing 0.012 (the third child is above it), not when it is off."""
    losing = [(10, 50, 0.5, 0.1), (20, 10, 0.0, 0.6), (30, 39, 0.585, 0.05)]
    for visits, threshold, opens in ((100, 0.02, 2), (6, 0.02, 2), (5, 0.02, 0), (100, 0.012, 0),
                                     (100, 0.0, 0)):
        tree = hand_tree(losing, root_visits=visits)
        cfg = cfg_of(open_losing=threshold, widen=0.01)
        best, score, opened, best_mean, mass, mean = select(tree, cfg)
        assert opens_of(tree, cfg, opened, score, best_mean, mass, mean) == opens, \
            (visits, threshold)


def test_a_node_with_no_child_always_opens():
    tree = Tree(4)
    for cfg in (cfg_of(), cfg_of("puct"), cfg_of(widen_mass=0.01)):
        assert opens_of(tree, cfg, 0, -1e300, -1.0, 0.0, 0.0) == 1


# --- the prior as probabilities ----------------------------------------------------------

def probs_of(p, weights):
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    n = legal_moves(p.st, moves)
    sc = Scratch()
    P.prior_probs(p.st, moves, n, weights, sc.kmask, sc.masks, sc.kind_w, sc.probs)
    return moves[:n].copy(), sc.probs[:n].copy(), sc


def test_prior_probs_are_the_kind_logit_over_the_legal_moves():
    """P(move) = exp(w[kind]) / sum over the legal moves: with every weight 0 but one kind's
    log 3, each move of that kind has three times the chance of any other; all weights equal
    (or no weights) give 1 / n each."""
    p = Position.new(2, seed=4)
    w = np.zeros(P.N_KINDS)
    w[P.K_TILE_ALONE] = math.log(3.0)
    moves, probs, sc = probs_of(p, w)
    kinds = np.array([P.move_kind(p.st, sc.masks, a) for a in moves])
    alone = kinds == P.K_TILE_ALONE
    assert alone.any() and (~alone).any()
    z = 3.0 * alone.sum() + (~alone).sum()
    assert np.allclose(probs[alone], 3.0 / z) and np.allclose(probs[~alone], 1.0 / z)
    assert probs.sum() == pytest.approx(1.0)
    for weights in (np.full(P.N_KINDS, -2.0), None):
        _, flat, _ = probs_of(p, weights)
        assert np.allclose(flat, 1.0 / len(moves))


def test_prior_probs_of_commits_halve_along_the_opening_order():
    """The defender of a revolt (attacker 2 + 2 committed = 4, defender 1) needs 3 of his 5
    red: the opening order is 3 (decides it), 0, then 1, 2, 4, 5 at ranks 3, 4, 6, 7
    (2 + k), so P is proportional to 1, 1/2, 1/8, 1/16, 1/64, 1/128 (sum 219/128)."""
    p = midgame(1, hand_sizes=[4, 6], hands=["rrbggk", "rrrrrk"], out_of_game={"red": 2},
                pending=revolt(0, 1, commit=2), **REVOLT_J6)
    moves, probs, _ = probs_of(p, np.zeros(P.N_KINDS))
    got = {int(a) - S.A_COMMIT: float(x) for a, x in zip(moves, probs)}
    want = {3: 128, 0: 64, 1: 16, 2: 8, 4: 2, 5: 1}
    assert got == pytest.approx({k: v / 219 for k, v in want.items()})


def test_puct_nodes_keep_the_prior_probability_of_their_move():
    """Each root child of a PUCT search holds P of its move among the root's legal moves
    (the shipped kind weights), and the root the best P left untried (no more than the
    largest P)."""
    from tne_ai.search.evaluate import model_prior
    p = Position.new(2, seed=4)
    s = Search(p, SearchConfig(select="puct", seed=2))
    s.run(iterations=400)
    moves, probs, _ = probs_of(p, np.asarray(model_prior(), dtype=np.float64))
    want = dict(zip(moves.tolist(), probs.tolist()))
    tree = s.trees[0]
    kids = tree.children(0)
    assert len(kids) > 3
    for ch in kids:
        assert tree.prior[ch] == pytest.approx(want[int(tree.action[ch])], rel=1e-6)
    assert 0.0 < tree.untried[0] <= max(want.values()) * (1 + 1e-6)


# --- searches ------------------------------------------------------------------------------

def endgame_position(name):
    with open(os.path.join(HERE, "data", "tactics_endgame", name + ".json")) as f:
        d = json.load(f)
    return d, Position.from_json(d["position"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_unopened_winner_finds_the_revolt_by_a_leader_move_at_2000_iterations(players):
    """The only winning move is a leader moved into a revolt on the game's last action, a
    kind the priors rank last: with open_losing (the default's 0.02) every other move is
    tried and lost, so the search keeps opening until it finds it (three seeds)."""
    d, p = endgame_position(f"revolt_by_leader_move_{players}p")
    for seed in (1, 2, 3):
        agent = make_agent("mcts:iterations=2000", seed=seed)        # open_losing 0.02
        assert move_text(agent.choose(p)) in d["winning"], seed


@pytest.mark.parametrize("spec", ["mcts:select=puct", "mcts:widen_mass=0.01",
                                  "mcts:select=puct,open_losing=0.02"])
def test_the_new_selections_search_and_repeat_with_the_same_seed(spec):
    assert SearchConfig().resolved().open_losing == 0.02
    assert SearchConfig(evaluation="basic").resolved().open_losing == 0.0   # the frozen baseline
    p = Position.new(3, seed=8)
    runs = [Search(p, SearchConfig.from_spec(spec).replace(seed=5)).run(iterations=600) for _ in range(2)]
    assert runs[0].alternatives == runs[1].alternatives and runs[0].move == runs[1].move
    assert sum(v for _, v, _ in runs[0].alternatives) == 600
    assert runs[0].move in Search(p).legal


def test_a_child_is_legal_in_a_determinization_when_the_movers_hand_allows_it():
    """A node's board follows from its path, so a child opened in one determinization is
    legal in another exactly when the mover's hand there allows it (SPEC 3: a tile of its
    colour from the hand, a catastrophe tile, a swap of tiles held; SPEC 4: a commit of at
    most the supporters held of the conflict's colour)."""
    st = np.zeros(S.STATE_SIZE, dtype=np.int64)
    st[S.TO_ACT] = 1
    red_c3, blue_c3 = S.A_TILE + 2, S.A_TILE + 176 + 2       # colour * 176 + square
    st[S.hand(1, 0)] = 1
    assert M._hand_allows(st, red_c3) and not M._hand_allows(st, blue_c3)
    st[S.hand(0, 1)] = 3                                      # another player's blue tiles
    assert not M._hand_allows(st, blue_c3)
    assert M._hand_allows(st, S.A_LEADER + 5) and M._hand_allows(st, S.A_WITHDRAW + 2)
    assert M._hand_allows(st, S.A_PASS)
    assert not M._hand_allows(st, S.A_CATASTROPHE + 7)
    st[S.catastrophes(1)] = 1
    assert M._hand_allows(st, S.A_CATASTROPHE + 7)
    red_blue = S.A_SWAP + [tuple(r) for r in S.SWAP_COUNTS.tolist()].index((1, 1, 0, 0))
    assert not M._hand_allows(st, red_blue)                   # one red, no blue in hand
    st[S.hand(1, 1)] = 1
    assert M._hand_allows(st, red_blue)
    st[S.PHASE], st[S.hand(1, 0)] = S.PH_REVOLT, 2            # a revolt: red supporters
    assert M._hand_allows(st, S.A_COMMIT + 2) and not M._hand_allows(st, S.A_COMMIT + 3)
    st[S.PHASE], st[S.CF_COLOUR], st[S.hand(1, 2)] = S.PH_WAR, 2, 1   # a war in green
    assert M._hand_allows(st, S.A_COMMIT + 1) and not M._hand_allows(st, S.A_COMMIT + 2)


def test_the_log_table_holds_the_values_log_would_give():
    """UCB reads ln(availability) from LOG_TABLE below 2^16 and calls log above: the two
    must agree to the last bit, or a search would change with the table."""
    for k in (1, 2, 3, 100, 4097, 65535):
        assert LOG_TABLE[k] == math.log(k) and M._log(np.int32(k), LOG_TABLE) == math.log(k)
    assert M._log(np.int32(1 << 20), LOG_TABLE) == math.log(1 << 20)
    assert not LOG_TABLE.flags.writeable
