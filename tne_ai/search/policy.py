"""The move policy: a score for every legal move of the action phase from the move's own
features, which decides the order in which progressive widening opens a node's moves, within
a kind and across kinds (search/mcts.py, ``_new_move``).

``move_features(st, masks, a, x)`` writes the ``N_MOVE_FEATURES`` numbers of action a into x
(float32); ``masks`` must be ``priors.prepare``d for st.  The policy's logit of a move is a small
network over them, a linear term and one hidden layer of rectified units,
``w . x + v . relu(x A + b)``; its probabilities over a position's legal moves are their
softmax, fitted by ``tne_ai.matches.fit_policy`` to the root visit shares of searches (the
``meta.visits`` of self-play records).  The features (SPEC sections named where the rule is):

=======================  ====================================================================
``PF_KIND + k``          the move's kind k (``priors``: 19 kinds, one-hot)
``PF_COLOUR + c``        a tile's or leader's colour c (one-hot; 0 for other moves)
``PF_RANK + r``          the rank r of that colour among the mover's scores, 0 the lowest
                         (the number of his colours with fewer points, SPEC section 6)
``PF_TEMPLES``           temples (red tiles) next to the square (a leader needs one, SPEC
                         section 2; a catastrophe next to them may strand a leader)
``PF_TREASURES``         treasures next to the square
``PF_OWN_LEADERS``       the mover's leaders next to the square
``PF_RIVAL_LEADERS``     rivals' leaders next to the square
``PF_KILLS_RIVAL``       a catastrophe on the last temple next to rivals' leaders: how many it
                         removes (SPEC section 3.4)
``PF_KILLS_OWN``         the same for the mover's own leaders
``PF_POINTS``            the mover's points in the colour, / 10
``PF_IN_HAND``           the mover's tiles of the colour in hand, / 6 (his strength in a war
                         or, for red, a revolt: SPEC section 4)
=======================  ====================================================================

Moves that are not tiles, leaders or catastrophes have only their kind.  The conflict
decisions keep their own order (``priors.pick_commit``).
"""
import math
import os

import numpy as np
from numba import njit

from tne_ai.core import state as S
from tne_ai.core.bits import count3, has
from tne_ai.core.board import NEIGHBOURS, NEIGHBOUR_MASK, SQUARES
from tne_ai.core.rules.rng import below
from tne_ai.errors import TneError
from tne_ai.search.priors import N_KINDS, move_kind

PF_KIND = 0
PF_COLOUR = PF_KIND + N_KINDS
PF_RANK = PF_COLOUR + 4
PF_TEMPLES = PF_RANK + 4
PF_TREASURES = PF_TEMPLES + 1
PF_OWN_LEADERS = PF_TREASURES + 1
PF_RIVAL_LEADERS = PF_OWN_LEADERS + 1
PF_KILLS_RIVAL = PF_RIVAL_LEADERS + 1
PF_KILLS_OWN = PF_KILLS_RIVAL + 1
PF_POINTS = PF_KILLS_OWN + 1
PF_IN_HAND = PF_POINTS + 1
N_MOVE_FEATURES = PF_IN_HAND + 1

POLICY_FORMAT = "tne-policy/1"
POLICY_ARRAYS = ("w", "A", "b", "v")
MAX_POLICY_HIDDEN = 256
POLICY_FILE = os.path.join(os.path.dirname(__file__), "weights", "policy.npz")


@njit(cache=True, _nrt=False, nogil=True)
def _leader_owner(st, sq):
    """The player whose leader stands on sq, or -1."""
    n = st[S.PLAYERS]
    for q in range(n):
        for c in range(4):
            if st[S.leader_sq(q, c)] == sq:
                return q
    return -1


@njit(cache=True, _nrt=False, nogil=True)
def move_features(st, masks, a, x):
    """Write the features of action a (legal in st, masks prepared for st) into x; returns
    a's kind."""
    for i in range(N_MOVE_FEATURES):
        x[i] = 0.0
    kind = move_kind(st, masks, a)
    x[PF_KIND + kind] = 1.0
    if a >= S.A_SWAP or S.A_WITHDRAW <= a < S.A_CATASTROPHE:
        return kind
    p = st[S.TO_ACT]
    bb = st.view(np.uint64)
    if a < S.A_WITHDRAW:
        piece = 0 if a < S.A_LEADER else 1
        c = (a - S.A_LEADER * piece) // SQUARES
        sq = (a - S.A_LEADER * piece) % SQUARES
        x[PF_COLOUR + c] = 1.0
        mine = st[S.score(p, c)]
        rank = 0
        for d in range(4):
            if st[S.score(p, d)] < mine:
                rank += 1
        x[PF_RANK + rank] = 1.0
        x[PF_POINTS] = mine / 10.0
        x[PF_IN_HAND] = st[S.hand(p, c)] / 6.0
    else:
        sq = a - S.A_CATASTROPHE
    m0, m1, m2 = NEIGHBOUR_MASK[sq, 0], NEIGHBOUR_MASK[sq, 1], NEIGHBOUR_MASK[sq, 2]
    red = S.tile_bb(0)
    x[PF_TEMPLES] = count3(m0 & bb[red], m1 & bb[red + 1], m2 & bb[red + 2])
    x[PF_TREASURES] = count3(m0 & bb[S.BB_TREASURE], m1 & bb[S.BB_TREASURE + 1],
                             m2 & bb[S.BB_TREASURE + 2])
    own = 0
    rival = 0
    # a leader moving is lifted first (SPEC section 2): the square it leaves is not a neighbour
    lifted = st[S.leader_sq(p, (a - S.A_LEADER) // SQUARES)] if S.A_LEADER <= a < S.A_WITHDRAW else -1
    kills_own = 0
    kills_rival = 0
    on_red = has(bb[red], bb[red + 1], bb[red + 2], sq)
    for j in range(4):
        t = NEIGHBOURS[sq, j]
        if t < 0 or t == lifted:
            continue
        q = _leader_owner(st, t)
        if q < 0:
            continue
        if q == p:
            own += 1
        else:
            rival += 1
        if a >= S.A_CATASTROPHE and on_red:
            # the catastrophe removes the temple on sq: a leader with no other temple next
            # to it leaves the board
            left = count3(NEIGHBOUR_MASK[t, 0] & bb[red], NEIGHBOUR_MASK[t, 1] & bb[red + 1],
                          NEIGHBOUR_MASK[t, 2] & bb[red + 2])
            if left == 1:
                if q == p:
                    kills_own += 1
                else:
                    kills_rival += 1
    x[PF_OWN_LEADERS] = own
    x[PF_RIVAL_LEADERS] = rival
    x[PF_KILLS_RIVAL] = kills_rival
    x[PF_KILLS_OWN] = kills_own
    return kind


@njit(cache=True, _nrt=False, nogil=True)
def features_logit(net, x, h):
    """The policy network's logit of a feature row x: w . x + v . relu(x A + b) (``net`` =
    (w, A, b, v), float32; h: scratch of the hidden units).  Most features of a move are 0
    (the one-hot kind, colour and rank), so only the rows of A of the others are added."""
    w, A, b, v = net
    hidden = b.shape[0]
    for j in range(hidden):
        h[j] = b[j]
    s = np.float32(0.0)
    for i in range(N_MOVE_FEATURES):
        xi = x[i]
        if xi != 0.0:
            s += w[i] * xi
            for j in range(hidden):
                h[j] += A[i, j] * xi
    for j in range(hidden):
        if h[j] > 0.0:
            s += v[j] * h[j]
    return s


@njit(cache=True, _nrt=False, nogil=True)
def move_logit(st, masks, a, net, scratch):
    """The policy's logit of action a (masks prepared for st; scratch = (feature row,
    hidden units), ``policy_scratch``'s)."""
    move_features(st, masks, a, scratch[0])
    return features_logit(net, scratch[0], scratch[1])


@njit(cache=True, _nrt=False, nogil=True)
def score_moves(st, masks, moves, n, net, scratch, scores, kinds):
    """scores[a] = the logit and kinds[a] the kind of each of the n legal moves a in moves
    (masks prepared)."""
    for i in range(n):
        a = moves[i]
        kinds[a] = move_features(st, masks, a, scratch[0])
        scores[a] = features_logit(net, scratch[0], scratch[1])


@njit(cache=True, _nrt=False, nogil=True)
def pick_scored(moves, n, legal_stamp, lstamp, child_stamp, stamp, scores, kinds, counts,
                first_child, sibling, action, rng):
    """The untried legal move of the best scores[a] - log(1 + children of a's kind already
    open here), ties at random; -1 if none is left.  ``kinds[a]``: a's kind (``priors``);
    ``counts``: a scratch of N_KINDS numbers.  Each further child of one kind is worth less,
    as with the kinds' own scores (``priors.pick_untried``): where the policy tells the moves
    of a kind apart little (swaps and passes have only their kind), the root still opens
    several of them before the many moves of another kind scored a little higher (the legal
    moves are those with legal_stamp == lstamp, the children already open those with
    child_stamp == stamp)."""
    for k in range(N_KINDS):
        counts[k] = 0.0
    ch = first_child
    while ch >= 0:
        a = action[ch]
        if child_stamp[a] == stamp:
            counts[kinds[a]] += 1.0
        ch = sibling[ch]
    best = np.int64(-1)
    best_score = -1e300
    ties = 0
    for i in range(n):
        a = moves[i]
        if legal_stamp[a] != lstamp or child_stamp[a] == stamp:
            continue
        s = scores[a] - math.log(1.0 + counts[kinds[a]])
        if s > best_score:
            best_score, best, ties = s, a, 1
        elif s == best_score:
            ties += 1
            if below(rng, ties) == 0:
                best = a
    return best


def policy_scratch(net):
    """One search thread's scratch for the policy network (w, A, b, v): a feature row and
    the hidden units."""
    return (np.zeros(N_MOVE_FEATURES, dtype=np.float32),
            np.zeros(net[2].shape[0], dtype=np.float32))


def score_root(st, net, scratch, scores, kinds):
    """Score the legal moves of st (the root of a search, where the policy orders widening
    in the action phase) into scores, and write their kinds into kinds: the root's moves are
    the same in every determinization, so they are scored once per root, for every thread,
    not once per batch of iterations."""
    from tne_ai.core.rules.kingdoms import MAX_KINGDOMS
    from tne_ai.core.rules.movegen import legal_moves
    from tne_ai.search.priors import N_MASKS, prepare
    if st[S.PHASE] != S.PH_ACTION:
        return
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    n = legal_moves(st, moves)
    kmask = np.empty((MAX_KINGDOMS, 3), dtype=np.uint64)
    masks = np.empty((N_MASKS, 3), dtype=np.uint64)
    prepare(st, kmask, masks)
    score_moves(st, masks, moves, n, net, scratch, scores, kinds)


# --- weights files --------------------------------------------------------------------------

def policy_error(arrays):
    """Why arrays (w, A, b, v) are not a policy network (a sentence), or None."""
    for name in POLICY_ARRAYS:
        if arrays.get(name) is None:
            return f"it has no array '{name}'"
    hidden = np.asarray(arrays["b"]).shape[0] if np.ndim(arrays["b"]) == 1 else -1
    if not 1 <= hidden <= MAX_POLICY_HIDDEN:
        return f"'b' has shape {np.shape(arrays['b'])}, not (H,) with 1 <= H <= {MAX_POLICY_HIDDEN}"
    want = {"w": (N_MOVE_FEATURES,), "A": (N_MOVE_FEATURES, hidden), "b": (hidden,),
            "v": (hidden,)}
    for name, shape in want.items():
        a = np.asarray(arrays[name])
        if a.shape != shape:
            return f"'{name}' has shape {a.shape}, not {shape}"
        if a.dtype.kind not in "fiu" or not np.all(np.isfinite(a)):
            return f"'{name}' holds a value that is not a finite number"
    return None


def policy_net(arrays):
    """The kernels' tuple (w, A, b, v) of a policy's arrays, float32 and contiguous."""
    return tuple(np.ascontiguousarray(arrays[k], dtype=np.float32) for k in POLICY_ARRAYS)


def save_policy(path, arrays, info=None):
    """Write a policy network's file (``POLICY_FORMAT``; arrays w, A, b, v as float32) to
    path in one step (a file beside it, then renamed); ``info``: a dict of strings and
    numbers kept beside them (how it was fitted)."""
    arrays = dict(zip(POLICY_ARRAYS, policy_net(arrays)))
    why = policy_error(arrays)
    if why is not None:
        raise ValueError(why)
    extra = {f"info_{k}": np.asarray(v) for k, v in (info or {}).items()}
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        np.savez(f, format=np.array(POLICY_FORMAT), **arrays, **extra)
    os.replace(tmp, path)


def load_policy(path):
    """The kernels' tuple (w, A, b, v) of a policy file; TneError naming the file and what is
    wrong (unreadable, truncated, another format, a missing array, a wrong shape, NaNs)."""
    def bad(why):
        return TneError(f"policy file {path}: {why}")
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except FileNotFoundError:
        raise bad("no such file") from None
    except OSError as e:
        raise bad(f"cannot read it ({e.strerror or type(e).__name__})") from None
    except Exception as e:   # a truncated or foreign file: numpy raises many kinds
        raise bad(f"not a policy weights file ({type(e).__name__})") from None
    fmt = arrays.get("format")
    if fmt is None or str(fmt) != POLICY_FORMAT:
        raise bad(f"not a {POLICY_FORMAT} file")
    why = policy_error(arrays)
    if why is not None:
        raise bad(why)
    return policy_net(arrays)


_POLICIES = {}


def policy_of_file(path=None):
    """A policy file's network tuple (the shipped one when ``path`` is None), loaded and checked
    once per version of the file (its path, size and modification time)."""
    from tne_ai.core.io.paths import loaded_once
    return loaded_once(_POLICIES, POLICY_FILE if path is None else path, load_policy)
