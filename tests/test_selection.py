"""Selection inside the tree (search/mcts.py ``_select``, ``_opens``): UCB, normalised UCB,
no unopened winner and widening by count, and the order a conflict's commits open in
(search/priors.py ``commit_rank``).

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
from tne_ai.core import state as S
from tne_ai.agents.builtin import make_agent
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.core.notation import move_text
from tne_ai.position import Position
from tne_ai.search import mcts as M
from tne_ai.search.tree import LOG_TABLE
from tne_ai.search import priors as P
from tne_ai.search.config import SearchConfig
from tne_ai.search.tree import Tree

HERE = os.path.dirname(os.path.abspath(__file__))

# three children of the root: (action, visits, value summed); the root has 100 visits and
# each child was available 99 times before this walk
CHILDREN = [(10, 50, 30.0), (20, 10, 5.0), (30, 39, 27.3)]


def hand_tree(children=CHILDREN, root_visits=100):
    tree = Tree(8)
    tree.visits[0] = root_visits
    for i, (a, v, value) in enumerate(children, start=1):
        tree.action[i], tree.parent[i], tree.child[i] = a, 0, -1
        tree.sibling[i] = tree.child[0]
        tree.child[0] = i
        tree.player[i], tree.visits[i], tree.avail[i] = 0, v, 99
        tree.value[i] = value
    tree.count[0] = len(children) + 1
    return tree


def cfg_of(c=0.35, open_losing=0.0, widen=1.0, widen_exp=0.5, norm=False):
    cfg = np.zeros(M.CFG_SIZE)
    cfg[M.CFG_C], cfg[M.CFG_OPEN_LOSING], cfg[M.CFG_NORM] = c, open_losing, 1.0 if norm else 0.0
    cfg[M.CFG_WIDEN_C], cfg[M.CFG_WIDEN_A] = widen, widen_exp
    return cfg


def select(tree, cfg, even=False):
    """``_select`` on the root of tree: (best child, legal children, their best mean)."""
    st = np.zeros(S.STATE_SIZE, dtype=np.int64)      # player 0 to act, one red tile in hand:
    st[S.hand(0, 0)] = 1                             # the children (red tiles) are all legal
    child_stamp = np.zeros(S.N_ACTIONS, dtype=np.int64)
    out = M._select(0, st, child_stamp, 9, even, cfg, tree.action, tree.child, tree.sibling,
                    tree.visits, tree.avail, tree.value, LOG_TABLE)
    assert sorted(np.flatnonzero(child_stamp == 9)) == [10, 20, 30]   # each marked open
    return out


def opens_of(tree, cfg, opened, best_mean):
    return M._opens(0, opened, best_mean, cfg, tree.visits)


def test_ucb_picks_the_best_mean_plus_exploration_over_availability():
    """After this walk each child was available 100 times (ln 100 = 4.605):
    10: 0.6 + 0.35 sqrt(4.605 / 50) = 0.706; 20: 0.5 + 0.35 sqrt(4.605 / 10) = 0.738;
    30: 0.7 + 0.35 sqrt(4.605 / 39) = 0.820.  The third child (action 30) wins; with c = 1.2
    the second (0.5 + 1.2 sqrt(4.605 / 10) = 1.314 against 30's 1.112 and 10's 0.964)."""
    tree = hand_tree()
    best, opened, best_mean = select(tree, cfg_of())
    assert tree.action[best] == 30 and opened == 3
    assert list(tree.avail[1:4]) == [100, 100, 100]
    assert best_mean == pytest.approx(0.7)
    tree = hand_tree()
    best, opened, best_mean = select(tree, cfg_of(c=1.2))
    assert tree.action[best] == 20 and opened == 3


def test_an_even_root_picks_the_least_visited_child():
    """At a root commit decision with a commit margin the visits are shared evenly: the
    least visited child (20, 10 visits) whatever the means and the exploration term."""
    tree = hand_tree()
    best, opened, best_mean = select(tree, cfg_of(norm=True), even=True)
    assert tree.action[best] == 20 and opened == 3 and best_mean == pytest.approx(0.7)


def test_widening_by_count():
    """3 open, widen 0.29: 0.29 * sqrt(101) = 2.91 < 3, closed; widen 0.3: 3.01, open; widen
    0 opens whatever the count."""
    for widen, opens in ((0.29, 0), (0.3, 1), (0.0, 1)):
        tree = hand_tree()
        cfg = cfg_of(widen=widen)
        best, opened, best_mean = select(tree, cfg)
        assert opens_of(tree, cfg, opened, best_mean) == opens, widen


def test_norm_scales_the_means_between_the_least_and_the_best_before_exploring():
    """Means 25.5 / 50 = 0.51, 5 / 10 = 0.50, 20.28 / 39 = 0.52, each available 100 times
    (ln 100 = 4.605).  UCB: 10: 0.51 + 0.35 sqrt(4.605 / 50) = 0.616; 20: 0.50 + 0.35
    sqrt(4.605 / 10) = 0.738; 30: 0.52 + 0.35 sqrt(4.605 / 39) = 0.640: the least visited
    (20) wins, the hundredths between the means lost under the exploration term.  norm
    scales them to 0.5, 0 and 1 between 0.50 and 0.52: 10: 0.606, 20: 0.238, 30: 1.120, so
    the best mean (30) wins; the best mean returned stays the unscaled 0.52."""
    close = [(10, 50, 25.5), (20, 10, 5.0), (30, 39, 20.28)]
    tree = hand_tree(close)
    best, opened, best_mean = select(tree, cfg_of())
    assert tree.action[best] == 20
    tree = hand_tree(close)
    best, opened, best_mean = select(tree, cfg_of(norm=True))
    assert tree.action[best] == 30 and opened == 3 and best_mean == pytest.approx(0.52)
    assert list(tree.avail[1:4]) == [100, 100, 100]          # counted once, not twice
    # equal means leave nothing to scale: plain UCB, the least visited
    tree = hand_tree([(10, 50, 25.0), (20, 10, 5.0), (30, 40, 20.0)])
    best, *_ = select(tree, cfg_of(norm=True))
    assert tree.action[best] == 20


def test_a_node_whose_opened_children_all_lose_opens_another():
    """Means 0.01, 0.0, 0.015, all below open_losing 0.02: a rescue (2) whatever the
    widening, once the node has two visits per opened child (6); not with 5 visits, not with
    open_losing 0.012 (the third child is above it), not when it is off."""
    losing = [(10, 50, 0.5), (20, 10, 0.0), (30, 39, 0.585)]
    for visits, threshold, opens in ((100, 0.02, 2), (6, 0.02, 2), (5, 0.02, 0), (100, 0.012, 0),
                                     (100, 0.0, 0)):
        tree = hand_tree(losing, root_visits=visits)
        cfg = cfg_of(open_losing=threshold, widen=0.01)
        best, opened, best_mean = select(tree, cfg)
        assert opens_of(tree, cfg, opened, best_mean) == opens, (visits, threshold)


def test_a_node_with_no_child_always_opens():
    tree = Tree(4)
    for cfg in (cfg_of(), cfg_of(widen=0.01), cfg_of(open_losing=0.02)):
        assert opens_of(tree, cfg, 0, -1.0) == 1


# --- the order of commits ------------------------------------------------------------------

def test_commits_open_in_the_order_that_decides_the_conflict_first():
    """The defender of a revolt (attacker 2 + 2 committed = 4, defender 1) needs 3 of his 5
    red (ties go to him, SPEC 4): commit 3 decides it and ranks first, then 0, then the rest
    from the smallest at 2 + k (1, 2, 4, 5 at ranks 3, 4, 6, 7), so a node opens 3, 0, 1, 2,
    4, 5."""
    p = midgame(1, hand_sizes=[4, 6], hands=["rrbggk", "rrrrrk"], out_of_game={"red": 2},
                pending=revolt(0, 1, commit=2), **REVOLT_J6)
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    n = legal_moves(p.st, moves)
    ranks = {int(a) - S.A_COMMIT: int(P.commit_rank(p.st, a - S.A_COMMIT)) for a in moves[:n]}
    assert ranks == {3: 0, 0: 1, 1: 3, 2: 4, 4: 6, 5: 7}
    stamp = np.zeros(S.N_ACTIONS, dtype=np.int64)
    opened = []
    for _ in range(n):
        a = int(P.pick_commit(p.st, moves, n, stamp, 1))
        opened.append(a - S.A_COMMIT)
        stamp[a] = 1
    assert opened == [3, 0, 1, 2, 4, 5]


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


def test_no_unopened_winner_is_on_with_the_fitted_evaluation_and_off_in_the_baseline():
    """open_losing is the fitted evaluation's own at 0.02; the basic evaluation's is 0, so
    the frozen baseline searches as it did."""
    assert SearchConfig().resolved().open_losing == 0.02
    assert SearchConfig(evaluation="basic").resolved().open_losing == 0.0


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
