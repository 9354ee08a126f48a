"""Single-observer information-set MCTS (SO-ISMCTS) in numba.

One tree over the searcher's view.  Each iteration samples a determinization of the root
(``determinize``), walks the tree choosing by UCB (``norm``: on normalised means) among the children
whose action is legal in that sample (availability counts: a child's ``avail`` grows each
time it was selectable), expands one untried legal action, plays a random rollout (to the
end when ``rollout_depth`` is negative, else that many moves, then evaluates the position with ``evaluate``) and backs up
the reward: from the final ranking when the game ended (win 1, a shared first place split,
loss 0), else the heuristic win chance; each node accumulates the reward of the player who
chose its action.  Tile draws are sampled through the determinized bag.

The tree lives in preallocated numpy arrays (no Python object per node); see ``Tree``.
"""
import math

import numpy as np
from numba import njit

from tne_ai.core import state as S
from tne_ai.core.board import SQUARES
from tne_ai.core.rules.apply import apply_action
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.core.rules.playout import random_game
from tne_ai.core.rules.rng import below, make_rng
from tne_ai.search.config import DEFAULT_ROLLOUT, EVALUATION_DEFAULTS  # noqa: F401 (DEFAULT_ROLLOUT re-exported)
from tne_ai.search.determinize import determinize, determinize_belief
from tne_ai.search.evaluate import evaluate, evaluate_model, settle
from tne_ai.search.policy import pick_scored
from tne_ai.search.priors import commit_context, defender_hidden, pick_commit, pick_untried
from tne_ai.search.value import evaluate_net
from tne_ai.search.tree import MAX_DEPTH, NODE_BYTES, Scratch, Tree, copy_subtree, reset_tree  # noqa: F401

FULL_ROLLOUT = 1 << 30
SWAP_COUNTS = S.SWAP_COUNTS

# the search configuration array ``cfg`` (float64) that run_iterations reads
CFG_WIDEN_C = 0   # progressive widening: a node opens children by prior score while it has
CFG_WIDEN_A = 1   # fewer than max(1, C * visits ** A); C = 0 opens untried moves at random
CFG_EVEN_ROOT = 2  # 1: at a root commit decision, share the visits evenly among the commits
CFG_C = 3          # the UCB exploration constant
CFG_ROLLOUT = 4    # random moves before the evaluation (negative: to the end)
CFG_OPEN_LOSING = 5  # > 0: a node whose opened children all have a mean below this opens more
CFG_NORM = 6       # 1: UCB on the children's means scaled to [0, 1] between their least and best
CFG_BELIEF = 7     # 1: the other hands dealt by the hand belief (determinize_belief)
CFG_SIZE = 8
RESCUE_TIE = 1e-3    # a rescue's kind order: fewest children open, then this times the weight


@njit(cache=True, _nrt=False, nogil=True)
def run_iterations(root, viewer, iterations, cfg, eval_params, model_w, prior_w, settle_on,
                   rollout_on, rng, scratch, tree, net=None, policy=None):
    """Run that many ISMCTS iterations from root for viewer, growing the tree in place
    (``scratch`` and ``tree``: the packed tuples of search/tree.py; ``cfg``: the CFG_*
    array).  Each iteration determinizes, walks down (``_select`` among the children legal
    in the sample, ``_opens`` and ``_new_move`` to open one untried action, then stop),
    plays a random rollout of cfg's length (to the end when negative), settles the leaf
    when on, scores every player (the final ranking or the evaluation) and backs up
    (``_backup``).

    The optional ingredients are switched off by passing None: ``model_w`` (the fitted
    evaluation; None: the hand-set ``evaluate`` with ``eval_params``), ``net`` (the value
    network, search/value.py: its arrays and this thread's scratch; it wins over model_w),
    ``policy`` (the move policy, search/policy.py: its network, its scratch and the root
    moves' scores and kinds, made once per root by ``policy.score_root``; it orders the root's widening
    instead of prior_w),
    ``prior_w`` (move priors for widening; None: untried moves open at random),
    ``settle_on`` (True: settle pending decisions before scoring a leaf) and ``rollout_on``
    (True: the random rollout of cfg's length; None when that length is 0, the default, so
    that the search compiles no playout: bench/README.md, the first run).  numba prunes a
    branch on an argument that is None before typing it, so a search without an ingredient
    is compiled without its code (the frozen baseline compiles none of them).  The tuples
    are unpacked here once and the helpers take the arrays one by one, all inlined at the
    numba level, so run_iterations is the search's one compile unit per ingredient set
    (bench/README.md, packed arguments)."""
    (st, moves, legal_stamp, root_moves, root_legal, child_stamp, stamps, path, reward, kmask, masks,
     feats, root_sum, kind_counts, move_sums, kind_w, log_table) = scratch
    action, parent, child, sibling, player, visits, avail, value, count = tree
    even_root = cfg[CFG_EVEN_ROOT] == 1.0 and (root[S.PHASE] == S.PH_REVOLT or root[S.PHASE] == S.PH_WAR)
    # The root's legal moves when the viewer acts there: they depend only on the board and
    # the mover's own hand, both the same in every determinization, so they are listed once.
    root_n, root_lstamp = -1, 0
    if root[S.TO_ACT] == viewer and root[S.PHASE] != S.PH_OVER:
        root_n = legal_moves(root, root_moves)
        root_lstamp = _stamp_moves(root_moves, root_n, root_legal, stamps)
    rollout_depth = np.int64(cfg[CFG_ROLLOUT])
    for _ in range(iterations):
        if cfg[CFG_BELIEF] == 1.0:
            determinize_belief(root, viewer, rng, st)
        else:
            determinize(root, viewer, rng, st)
        node = depth = 0
        while st[S.PHASE] != S.PH_OVER and depth < MAX_DEPTH - 1:
            # children legal by hand (``_hand_allows``); moves listed only where one may open
            at_root = depth == 0 and root_n >= 0
            stamps[0] += 1
            stamp, even = stamps[0], even_root and depth == 0
            best, opened, best_mean = _select(node, st, child_stamp, stamp, even, cfg, action, child,
                                              sibling, visits, avail, value, log_table)
            opens = _opens(node, opened, best_mean, cfg, visits) if count[0] < action.shape[0] else 0
            if opens:
                n, lstamp, legal = _legal_here(st, at_root, root_n, root_lstamp, root_legal, moves,
                                               legal_stamp, stamps)
                opens = opens if opened < n else 0
            if opens:
                a = _new_move(st, root_moves if at_root else moves, n, legal, lstamp, child_stamp, stamp,
                              node, opens == 2, cfg, prior_w, rng, kmask, masks, kind_counts, kind_w,
                              action, child, sibling, policy, at_root)
                depth += 1
                path[depth] = _add_child(node, a, st[S.TO_ACT], action, parent, child, sibling, player,
                                         visits, avail, value, count)
                apply_action(st, a, rng)
                break
            if best < 0:
                break
            apply_action(st, np.int64(action[best]), rng)
            depth += 1
            path[depth] = node = best
        if rollout_on is not None:
            random_game(st, rng, moves, rollout_depth if rollout_depth >= 0 else FULL_ROLLOUT)
        if settle_on is not None:
            settle(st, rng, moves)
        if net is not None:
            evaluate_net(st, net[0], net[1], kmask, feats, reward)
        elif model_w is not None:
            evaluate_model(st, model_w, kmask, feats, reward)
        else:
            evaluate(st, eval_params, reward)
        _backup(depth, path, reward, action, player, visits, value, root_sum, move_sums)
    return iterations


@njit(cache=True, _nrt=False, nogil=True, inline="always")
def _legal_here(st, at_root, root_n, root_lstamp, root_legal, moves, legal_stamp, stamps):
    """(n, stamp, stamped array) of the legal moves of a node that may open a move: the
    root's, listed once per call, or listed now into moves and stamped.  A node's board
    follows from the actions on its path (draws change only hands and the bag), so the walk
    checks its opened children by hand (``_hand_allows``) and lists moves only here."""
    if at_root:
        return root_n, root_lstamp, root_legal
    n = legal_moves(st, moves)
    return n, _stamp_moves(moves, n, legal_stamp, stamps), legal_stamp


@njit(cache=True, _nrt=False, nogil=True, inline="always")
def _log(k, log_table):
    """ln k (k >= 1): from the table of ``tree.LOG_TABLE`` while k is in it, the same value."""
    return log_table[k] if k < log_table.shape[0] else math.log(k)


@njit(cache=True, _nrt=False, nogil=True, inline="always")
def _hand_allows(st, a):
    """Whether action a, a child of the node whose position st is (legal when it was opened,
    in another determinization), is legal in st: a node's board, phase and mover follow from
    the actions on its path, so only what the hands hold can differ (a tile of the colour, the
    tiles a swap discards or a commit adds, a catastrophe tile)."""
    p = st[S.TO_ACT]
    if a < S.A_LEADER:                  # a tile: colour * SQUARES + square
        return st[S.hand(p, (a - S.A_TILE) // SQUARES)] > 0
    if a < S.A_CATASTROPHE:
        return True
    if a < S.A_SWAP:
        return st[S.catastrophes(p)] > 0
    if a < S.A_PASS:
        i = a - S.A_SWAP
        for c in range(4):
            if SWAP_COUNTS[i, c] > st[S.hand(p, c)]:
                return False
        return True
    if S.A_COMMIT <= a < S.A_WAR:
        c = 0 if st[S.PHASE] == S.PH_REVOLT else st[S.CF_COLOUR]
        return a - S.A_COMMIT <= st[S.hand(p, c)]
    return True


@njit(cache=True, _nrt=False, nogil=True, inline="always")
def _stamp_moves(mv, n, legal, stamps):
    """A new stamp, marked on the n moves of mv in legal; returns it."""
    stamps[0] += 1
    stamp = stamps[0]
    for i in range(n):
        legal[mv[i]] = stamp
    return stamp


@njit(cache=True, _nrt=False, nogil=True, inline="always")
def _select(node, st, child_stamp, stamp, even, cfg, action, child, sibling, visits, avail,
            value, log_table):
    """The children of node legal in this determinization st (the mover's hand allows them,
    ``_hand_allows``; marked child_stamp = stamp, each counted available once more) and
    the best of them: by UCB (mean + c sqrt(ln avail / visits)), with ``norm`` on the means
    scaled between the least and the best (``_select_norm``), or at an even root the least
    visited.  Returns (best child or -1, legal children, their best mean)."""
    c_explore = cfg[CFG_C]
    # norm scores the children in a second pass (``_select_norm``), once their least and best
    # means are known: the first pass then computes no UCB score (one log a child, not two)
    norm = cfg[CFG_NORM] == 1.0 and not even
    best, best_score, opened = -1, -1e300, 0
    best_mean, low_mean = -1.0, 2.0
    ch = child[node]
    while ch >= 0:
        a = action[ch]
        if _hand_allows(st, a):
            opened += 1
            child_stamp[a] = stamp
            avail[ch] += 1
            v = visits[ch]
            q = value[ch] / v
            if even:
                score = -v        # the least visited commit: means stay comparable
            elif norm:
                score = -1e300
            else:
                score = q + c_explore * math.sqrt(_log(avail[ch], log_table) / v)
            if score > best_score:
                best_score, best = score, ch
            best_mean = max(best_mean, q)
            low_mean = min(low_mean, q)
        ch = sibling[ch]
    if norm:
        # equal means (or no child): plain UCB, as the first pass would have scored it
        best = _select_norm(node, child_stamp, stamp, c_explore, low_mean, best_mean,
                            best_mean > low_mean, action, child, sibling, visits, avail, value,
                            log_table)
    return best, opened, best_mean


@njit(cache=True, _nrt=False, nogil=True, inline="always")
def _select_norm(node, child_stamp, stamp, c_explore, low, high, scaled, action, child, sibling,
                 visits, avail, value, log_table):
    """``norm``: UCB over the children of node legal in this determinization (child_stamp =
    stamp, counted available by ``_select``) on their means scaled to [0, 1] between the
    least (low) and the best (high): the exploration term weighs against the spread of
    this node's values, not against the whole [0, 1], so the visits gather on the best
    children even where their win chances differ by a hundredth.  Not ``scaled`` (the means
    all equal): plain UCB on the means.  Returns the child (-1 if none is legal)."""
    best, best_score = -1, -1e300
    scale = 1.0 / (high - low) if scaled else 1.0
    shift = low if scaled else 0.0
    ch = child[node]
    while ch >= 0:
        if child_stamp[action[ch]] == stamp:
            v = visits[ch]
            score = (value[ch] / v - shift) * scale + \
                c_explore * math.sqrt(_log(avail[ch], log_table) / v)
            if score > best_score:
                best_score, best = score, ch
        ch = sibling[ch]
    return best


@njit(cache=True, _nrt=False, nogil=True, inline="always")
def _opens(node, opened, best_mean, cfg, visits):
    """Whether node opens an untried legal action now (one is left and the tree has room):
    0 no, 1 yes, 2 yes to rescue a losing node.  Always when none is open; when every
    opened child's mean is below open_losing and the node has had two visits per opened
    child (no unopened winner); else by progressive widening: while fewer than
    widen (visits + 1) ** widen_exp are open (widen 0: always)."""
    if opened == 0:
        return 1
    threshold = cfg[CFG_OPEN_LOSING]
    if threshold > 0.0 and best_mean < threshold and visits[node] >= 2 * opened:
        return 2
    if cfg[CFG_WIDEN_C] > 0.0:
        return 1 if opened < cfg[CFG_WIDEN_C] * (visits[node] + 1.0) ** cfg[CFG_WIDEN_A] else 0
    return 1


@njit(cache=True, _nrt=False, nogil=True, inline="always")
def _new_move(st, mv, n, legal, lstamp, child_stamp, stamp, node, rescue, cfg, prior_w, rng, kmask,
              masks, kind_counts, kind_w, action, child, sibling, policy, at_root):
    """The untried legal action to open: with priors by kind score (``pick_untried`` in the
    action phase: each further child of a kind is worth less, so the first children cover
    the likely kinds; ``pick_commit`` in a conflict) while widening (or a rescue) orders
    them, else at random.
    A rescue (``rescue``: every opened child loses) opens the kind with the fewest children
    open, the prior only breaking ties: the priors' favourites were tried and lost.
    With the move policy (``policy``), the root opens its best-scored untried move instead,
    each further child of a kind worth less as with the kinds (search/policy.py); the nodes below it and rescues keep the kinds (scoring a node's moves
    at each opening cost a third of the iterations: bench/README.md, "The move policy")."""
    phase = st[S.PHASE]
    widen = cfg[CFG_WIDEN_C] > 0.0 or rescue
    if policy is not None and at_root and widen and not rescue and phase == S.PH_ACTION:
        a = pick_scored(mv, n, legal, lstamp, child_stamp, stamp, policy[2], policy[3], kind_counts,
                        child[node], sibling, action, rng)
    elif prior_w is not None and widen and phase == S.PH_ACTION:
        weights = prior_w
        if rescue:
            for k in range(prior_w.shape[0]):
                kind_w[k] = RESCUE_TIE * prior_w[k]
            weights = kind_w
        a = pick_untried(st, mv, n, legal, lstamp, child_stamp, stamp, weights,
                         child[node], sibling, action, kmask, masks, kind_counts, rng)
    elif prior_w is not None and widen and (phase == S.PH_REVOLT or phase == S.PH_WAR):
        a = pick_commit(st, mv, n, child_stamp, stamp)
    else:
        a = mv[below(rng, n)]
        while child_stamp[a] == stamp:
            a = mv[below(rng, n)]
    return np.int64(a)


@njit(cache=True, _nrt=False, nogil=True, inline="always")
def _add_child(node, a, to_act, action, parent, child, sibling, player, visits, avail, value, count):
    """Open action a under node: a new unvisited child, first in node's chain; returns it."""
    new = count[0]
    count[0] = new + 1
    action[new], parent[new], child[new], sibling[new] = a, node, -1, child[node]
    child[node] = new
    player[new], visits[new], avail[new], value[new] = to_act, 0, 1, 0.0
    return new


@njit(cache=True, _nrt=False, nogil=True, inline="always")
def _backup(depth, path, reward, action, player, visits, value, root_sum, move_sums):
    """Back up one iteration's rewards along path[1..depth]: each node gets its chooser's,
    the root and the root action's row of move_sums every player's."""
    visits[0] += 1
    for p in range(4):
        root_sum[p] += reward[p]
    if depth >= 1:
        a = action[path[1]]
        for p in range(4):
            move_sums[a, p] += reward[p]
        move_sums[a, 4] += 1.0
    for d in range(1, depth + 1):
        nd = path[d]
        visits[nd] += 1
        value[nd] += reward[player[nd]]


# the per-evaluation defaults live in search/config.py; this name stays for the faces that
# still read it
DEFAULTS = EVALUATION_DEFAULTS


def _view(st, viewer):
    """What viewer sees of a state: other hands as their sizes, the bag as its size."""
    v = st.copy()
    for p in range(int(st[S.PLAYERS])):
        if p != viewer:
            v[S.HAND + 4 * p] = st[S.HAND + 4 * p:S.HAND + 4 * p + 4].sum()
            v[S.HAND + 4 * p + 1:S.HAND + 4 * p + 4] = 0
    v[S.BAG_COUNT] = st[S.BAG_COUNT:S.BAG_COUNT + 4].sum()
    v[S.BAG_COUNT + 1:S.BAG_COUNT + 4] = 0
    v[S.BAG_ORDERED] = v[S.BAG_LEN] = 0
    v[S.BAG:S.BAG + S.BAG_WORDS] = 0
    return v


REUSE_DEPTH = 3


def reusable_node(tree, root, st, viewer):
    """The node of tree (searched from state root) whose position is st as viewer sees it,
    found by replaying the tree's actions at most REUSE_DEPTH deep, or -1.  Only positions
    reached without a tile draw match (a draw changes the viewer's own hand)."""
    target = _view(st, viewer)
    rng = make_rng(0)
    frontier = [(0, root)]
    for _ in range(REUSE_DEPTH):
        nxt = []
        for node, state in frontier:
            ch = int(tree.child[node])
            while ch >= 0:
                if tree.visits[ch] > 0:
                    after = state.copy()
                    apply_action(after, int(tree.action[ch]), rng)
                    # a draw from the bag (a turn's end) ends the match: the tree's root state
                    # may hold a bag the viewer cannot see, and its draws are not his
                    if after[S.BAG_COUNT:S.BAG_COUNT + 4].sum() != state[S.BAG_COUNT:S.BAG_COUNT + 4].sum():
                        ch = int(tree.sibling[ch])
                        continue
                    if np.array_equal(_view(after, viewer), target):
                        return ch
                    nxt.append((ch, after))
                ch = int(tree.sibling[ch])
        frontier = nxt
    return -1


def thread_seed(seed, index):
    return (int(seed) * 1000003 + index * 7919 + 1) & 0x7FFFFFFFFFFFFFFF


def commit_outcomes(st):
    """For the player to commit in st, the conflict's outcome class of each commit k
    (SPEC section 4; ties go to the defender).  The defender, who commits second, wins with
    k >= the attacker's total minus his board strength, else loses.  The attacker is sure
    to win above the most the defender could reach (his board strength plus the tiles of
    the colour the attacker cannot see, at most the defender's hand), cannot win at or below
    the defender's board strength, and otherwise each k is its own gamble."""
    att, dfn, me, c, most = (int(x) for x in commit_context(st))
    out = {}
    if st[S.CF_COMMIT] >= 0:
        need = att + int(st[S.CF_COMMIT]) - dfn
        for k in range(most + 1):
            out[k] = "win" if k >= need else "lose"
        return out
    hidden = int(defender_hidden(st, me, c))
    for k in range(most + 1):
        if att + k > dfn + hidden:
            out[k] = "sure"
        elif att + k <= dfn:
            out[k] = "hopeless"
        else:
            out[k] = f"gamble {k}"
    return out


def smallest_commit(alternatives, margin, outcomes):
    """The commit to play: the best mean decides the conflict's outcome class
    (``commit_outcomes``); within that class, the smallest commit not clearly worse than the
    best (the commits of a root decision share the visits evenly, so their means compare):
    within ``margin`` plus two standard errors of the difference (a reward in [0, 1] with
    mean m has variance at most m (1 - m)).  Tiles beyond what the outcome needs leave the
    game and come back only as blind draws, so they are spent only where the search finds
    them clearly worth it; a smaller commit of another outcome is never taken for savings."""
    best, best_visits, best_mean = max(alternatives, key=lambda x: (x[2], -x[0]))
    wanted = outcomes.get(best - S.A_COMMIT)
    for a, v, m in sorted(alternatives):
        if v <= 0 or outcomes.get(a - S.A_COMMIT) != wanted:
            continue
        se = math.sqrt(best_mean * (1 - best_mean) / max(1, best_visits) + m * (1 - m) / v)
        if m >= best_mean - margin - 2 * se:
            return a
    return best
