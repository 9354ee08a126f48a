"""Heuristic evaluation of an unfinished game, for truncated rollouts.

Each player's standing is what final scoring would see now: his colour totals with his
treasures added to the lowest, sorted; its value weighs the lowest colour most, then the
next ones (the tie-breaks) and a little of the total, plus a bonus per leader he has on the
board (a leader is what later tiles score for).  A player's reward is his mean win chance
against each opponent, a logistic function of the value difference: in [0, 1] like the
final-ranking reward, which a finished game gets instead.

The weights are an array so they can be tuned without recompiling: ``EVAL_DEFAULT``.

The fitted evaluation (``evaluate_model``) takes one weight vector for every player count
or one per count (``PER_COUNT_WEIGHTS``: the vectors of 2, 3 and 4 players one after
another), and reads the vector of the game's count.  The features carry no count of their
own: a feature equal for every player cancels in the softmax, so per-count weights are how
a model can tell a 4-player position from a 2-player one.  ``tne_ai.matches.train`` fits each
count's vector as the pooled fit plus a deviation fitted on that count's positions under an
L2 penalty.  Measured (``bench/eval_fit.py``, bench/README.md "Per-count fits"): on
held-out self-play games the per-count fit lowers the log-loss from 0.832 to 0.815 with 3
players and from 1.142 to 1.075 with 4 (2 players unchanged, 0.462), and with 4 players it
makes the search's reported win chances calibrated (ECE 0.048 -> 0.020).  Its 4-player
vector also plays better (22 of 60 first places against three one-vector searches), so the
shipped file holds the one-vector fit for 2 and 3 players and that 4-player vector; the
3-player vector's strength is not yet measured.
"""
import math
import os

import numpy as np
from numba import njit

from tne_ai.core import state as S
from tne_ai.core.rules.apply import apply_action
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.core.rules.scoring import rewards, sorted_totals
from tne_ai.search.features import FEATURE_NAMES, N_FEATURES, features
from tne_ai.search.priors import KIND_NAMES, N_KINDS, commit_context

# weights of the sorted colour totals (lowest first), value of a leader on the board, and the
# logistic scale of a value difference
W_SORTED = 0
W_LEADER = 4
W_SCALE = 5
EVAL_DEFAULT = np.array([1.0, 0.3, 0.1, 0.05, 0.0, 2.0])


@njit(cache=True, _nrt=False)
def basic_value(st, params, p):
    """The hand-set value of p's standing: weighted sorted totals plus a bonus per leader."""
    t0, t1, t2, t3 = sorted_totals(st, p)
    v = 0.0
    for i in range(4):
        t = t0 if i == 0 else (t1 if i == 1 else (t2 if i == 2 else t3))
        v += params[W_SORTED + i] * t
        if st[S.leader_sq(p, i)] >= 0:
            v += params[W_LEADER]
    return v


@njit(cache=True, _nrt=False)
def evaluate(st, params, out):
    """Rewards per player into out: exact for a finished game, heuristic otherwise."""
    n = st[S.PLAYERS]
    if st[S.PHASE] == S.PH_OVER:
        rewards(st, out)
        return
    v0 = basic_value(st, params, np.int64(0))
    v1 = basic_value(st, params, np.int64(1))
    v2 = basic_value(st, params, np.int64(2)) if n > 2 else 0.0
    v3 = basic_value(st, params, np.int64(3)) if n > 3 else 0.0
    for p in range(n):
        vp = v0 if p == 0 else (v1 if p == 1 else (v2 if p == 2 else v3))
        total = 0.0
        for q in range(n):
            if q != p:
                vq = v0 if q == 0 else (v1 if q == 1 else (v2 if q == 2 else v3))
                total += 1.0 / (1.0 + math.exp(-(vp - vq) / params[W_SCALE]))
        out[p] = total / (n - 1)


# --- the fitted evaluation ------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def greedy_commit(st):
    """The greedy commit rule (as the ``greedy`` agent's): an attacker commits all his tiles of
    the colour when that beats the defender's board strength, else none; a defender commits
    the fewest tiles that win (ties go to him, SPEC section 4), or none if he cannot."""
    att, dfn, _, _, most = commit_context(st)
    if st[S.CF_COMMIT] < 0:
        return S.A_COMMIT + (most if att + most > dfn else 0)
    need = att + st[S.CF_COMMIT] - dfn
    return S.A_COMMIT + (need if 0 < need <= most else 0)


@njit(cache=True, _nrt=False)
def settle(st, rng, moves):
    """Play out the decisions pending in st (commits by the greedy rule, the first war colour,
    monument and treasure offered) until a player must choose an action or the game is over:
    a leaf is never scored with a conflict half fought."""
    steps = 0
    while st[S.PHASE] != S.PH_ACTION and st[S.PHASE] != S.PH_OVER and steps < 64:
        if st[S.PHASE] == S.PH_REVOLT or st[S.PHASE] == S.PH_WAR:
            a = greedy_commit(st)
        else:
            legal_moves(st, moves)
            a = moves[0]
        apply_action(st, a, rng)
        steps += 1


# a weights vector is N_FEATURES long (one fit for every player count, the files before
# per-count fits) or PER_COUNT_WEIGHTS long: the vectors of 2, 3 and 4 players one after another
N_COUNTS = 3
PER_COUNT_WEIGHTS = N_COUNTS * N_FEATURES


@njit(cache=True, _nrt=False)
def evaluate_model(st, weights, kmask, feats, out):
    """Win chance of every player into out: exact for a finished game, else the fitted model:
    value v_p = weights . features_p, win chances softmax(v) (a conditional logit, fitted by
    ``tne_ai.matches.train``).  Per-count weights (``PER_COUNT_WEIGHTS`` long) use the vector of the
    game's player count."""
    n = st[S.PLAYERS]
    if st[S.PHASE] == S.PH_OVER:
        rewards(st, out)
        return
    features(st, kmask, feats)
    base = (n - 2) * N_FEATURES if weights.shape[0] >= PER_COUNT_WEIGHTS else 0
    for p in range(n):
        v = 0.0
        for i in range(N_FEATURES):
            v += weights[base + i] * feats[p, i]
        out[p] = v
    softmax_seats(out, n)


@njit(cache=True, _nrt=False, nogil=True)
def softmax_seats(out, n):
    """out[:n] (the seated players' values) replaced by their softmax: win chances."""
    top = out[0]
    for p in range(1, n):
        if out[p] > top:
            top = out[p]
    total = 0.0
    for p in range(n):
        out[p] = math.exp(out[p] - top)
        total += out[p]
    for p in range(n):
        out[p] /= total


@njit(cache=True)
def evaluate_calls(st, weights, model, calls):
    """Evaluate st ``calls`` times (the bench's cost per call)."""
    kmask = np.empty((16, 3), dtype=np.uint64)
    feats = np.empty((4, N_FEATURES))
    out = np.empty(4)
    for _ in range(calls):
        if model:
            evaluate_model(st, weights, kmask, feats, out)
        else:
            evaluate(st, weights, out)
    return out[0]


WEIGHTS_FILE = os.path.join(os.path.dirname(__file__), "weights", "eval.npz")
_MODEL = {}


def load_weights(path):
    """(evaluation weights, move-kind prior weights) of a weights file (``tne train`` writes
    them): arrays ``weights`` and ``prior`` with the names of their features and kinds, which
    must be this version's.  ``weights`` holds one vector for every player count (files of
    the versions before per-count fits) or the vectors of 2, 3 and 4 players one after
    another; either is returned as stored and ``evaluate_model`` reads both."""
    import zipfile
    from tne_ai.errors import TneError
    from tne_ai.limits import MAX_INPUT_BYTES, clip
    try:
        if os.path.isdir(path):
            raise OSError(0, "a directory")
        data = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
        raise TneError(f"{path}: not a weights file ({clip(getattr(e, 'strerror', None) or e, 80)})") \
            from None
    if not isinstance(data, np.lib.npyio.NpzFile):
        raise TneError(f"{path}: not a weights file (a single array; tne train writes an .npz "
                       f"with weights, features, prior and kinds)")
    with data:
        arrays = {}
        for key in ("weights", "features", "prior", "kinds"):
            try:
                if data.zip.getinfo(key + ".npy").file_size > MAX_INPUT_BYTES:
                    raise TneError(f"{path}: not a weights file ({key} is larger than "
                                   f"{MAX_INPUT_BYTES} bytes)")
                arrays[key] = data[key]
            except (KeyError, OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
                raise TneError(f"{path}: not a weights file ({key}: {clip(e, 80)})") from None
            if arrays[key].ndim != 1:
                raise TneError(f"{path}: not a weights file ({key} is a {arrays[key].ndim}-d "
                               f"array, expected a list)")
        try:
            w = np.asarray(arrays["weights"], dtype=np.float64)
            prior = np.asarray(arrays["prior"], dtype=np.float64)
        except (TypeError, ValueError) as e:
            raise TneError(f"{path}: not a weights file (weights and prior must be numbers: "
                           f"{clip(e, 80)})") from None
        names = tuple(str(x) for x in arrays["features"])
        kinds = tuple(str(x) for x in arrays["kinds"])
    if w.shape not in ((N_FEATURES,), (PER_COUNT_WEIGHTS,)) or names != FEATURE_NAMES \
            or not np.all(np.isfinite(w)):
        raise TneError(f"{path}: evaluation weights do not match this version's {N_FEATURES} "
                       f"features (one vector, or one for each of 2, 3 and 4 players)")
    if prior.shape != (N_KINDS,) or kinds != KIND_NAMES or not np.all(np.isfinite(prior)):
        raise TneError(f"{path}: prior weights do not match this version's {N_KINDS} move kinds")
    return w, prior


def save_weights(path, weights, prior, info=None):
    """Write a weights file (``info``: a dict of strings and numbers kept beside them)."""
    extra = {f"info_{k}": np.asarray(v) for k, v in (info or {}).items()}
    with open(path, "wb") as f:
        np.savez(f, weights=np.asarray(weights, dtype=np.float64), features=np.array(FEATURE_NAMES),
                 prior=np.asarray(prior, dtype=np.float64), kinds=np.array(KIND_NAMES), **extra)


def _shipped():
    if "w" not in _MODEL:
        _MODEL["w"], _MODEL["prior"] = load_weights(WEIGHTS_FILE)
    return _MODEL


def model_weights():
    """The shipped fitted evaluation weights (``search/weights/eval.npz``), loaded once."""
    return _shipped()["w"]


def model_prior():
    """The shipped fitted move-kind prior weights, loaded once."""
    return _shipped()["prior"]
