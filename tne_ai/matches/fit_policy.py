"""Fitting the move policy (``search/policy.py``) to the root visit shares of searches, with
JAX and optax (the ``train`` extra; the search's inference is the numba kernel).

``policy_dataset(records)`` replays the records and, at every action-phase decision whose
``meta.visits`` entry holds the root visits, lists the legal moves with their features and
their share of the visits (0 for a move the search never opened).  ``fit_policy`` fits the
policy network (a linear term and one hidden layer) by the cross-entropy of the softmax over
each position's legal moves against those shares, Adam on the full training set; the step
with the lowest held-out loss is kept.  The report compares the held-out loss with two
references: every legal move alike (the uniform policy) and the move kinds alone (a linear
policy on the kind columns only, the nearest a per-kind weight vector comes).  Everything
takes a seed.
"""
from functools import partial

import numpy as np
from numba import njit

from tne_ai.core import state as S
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.errors import TneError
from tne_ai.matches.fit_value import require_jax
from tne_ai.search.policy import N_MOVE_FEATURES, PF_KIND, POLICY_ARRAYS, move_features
from tne_ai.search.priors import N_KINDS, N_MASKS, prepare


@njit(cache=True)
def _position_rows(st, kmask, masks, moves, out):
    """The legal moves of st into moves and their features into out's first rows; returns n."""
    n = legal_moves(st, moves)
    prepare(st, kmask, masks)
    for i in range(n):
        move_features(st, masks, moves[i], out[i])
    return n


def policy_dataset(records, every=1, progress=None):
    """Rows of the records' searched action-phase decisions (every ``every``-th of each
    game): a dict of ``x`` (rows, N_MOVE_FEATURES) float32, ``t`` (rows,) the move's share
    of the root visits, ``group`` (rows,) the decision's index, ``game`` (decisions,)."""
    from tne_ai.core.notation import parse_move
    from tne_ai.position import Position
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    kmask = np.empty((16, 3), dtype=np.uint64)
    masks = np.empty((N_MASKS, 3), dtype=np.uint64)
    buf = np.zeros((S.MAX_MOVES, N_MOVE_FEATURES), dtype=np.float32)
    xs, ts, groups, games = [], [], [], []
    for g, record in enumerate(records):
        if progress is not None:
            progress("read", f"policy: reading positions: game {g + 1} of {len(records)}")
        meta = record.get("meta") if isinstance(record, dict) else None
        visits = meta.get("visits") if isinstance(meta, dict) else None
        if not isinstance(visits, list) or len(visits) != len(record["moves"]):
            continue
        pos = Position.from_json(record["start"])
        seen = 0
        for ply, m in enumerate(record["moves"]):
            st = pos.st
            entry = visits[ply]
            if st[S.PHASE] == S.PH_ACTION and isinstance(entry, list) and len(entry) > 1:
                seen += 1
                if seen % every == 0:
                    n = _position_rows(st, kmask, masks, moves, buf)
                    index = {int(a): i for i, a in enumerate(moves[:n])}
                    t = np.zeros(n, dtype=np.float32)
                    for text, v in entry:
                        i = index.get(parse_move(text))
                        if i is None:
                            raise TneError(f"game record {g + 1}, ply {ply}: meta.visits names "
                                           f"'{str(text)[:40]}', not a legal move there")
                        t[i] = v
                    xs.append(buf[:n].copy())
                    ts.append(t / t.sum())
                    groups.append(np.full(n, len(games), dtype=np.int64))
                    games.append(g)
            pos.push(m)
    if not games:
        raise TneError("the games hold no searched decision (meta.visits) to fit a policy to")
    return {"x": np.concatenate(xs), "t": np.concatenate(ts), "group": np.concatenate(groups),
            "game": np.array(games)}


def split_games(data, holdout, seed):
    """(train, test) datasets: the decisions of a seeded share of the games held out."""
    games = np.unique(data["game"])
    rng = np.random.default_rng(seed)
    test_games = set(rng.choice(games, size=max(1, int(round(holdout * len(games)))),
                                replace=False).tolist())
    test_dec = np.array([g in test_games for g in data["game"]])
    parts = []
    for keep in (~test_dec, test_dec):
        rows = keep[data["group"]]
        renumber = np.cumsum(keep) - 1
        parts.append({"x": data["x"][rows], "t": data["t"][rows],
                      "group": renumber[data["group"][rows]], "game": data["game"][keep]})
    return parts[0], parts[1]


def policy_logits_np(arrays, x):
    """The policy network's logits of feature rows x (numpy, float64): w . x + v . relu(x A + b)."""
    x = np.asarray(x, dtype=np.float64)
    w, A, b, v = (np.asarray(arrays[k], dtype=np.float64) for k in POLICY_ARRAYS)
    return x @ w + np.maximum(x @ A + b, 0.0) @ v


def _group_log_softmax(logit, g, n):
    top = np.full(n, -np.inf)
    np.maximum.at(top, g, logit)
    z = np.zeros(n)
    np.add.at(z, g, np.exp(logit - top[g]))
    return logit - top[g] - np.log(z[g])


def policy_loss_np(arrays, data):
    """The mean cross-entropy of the policy network (arrays w, A, b, v) against data's
    visit shares, over its decisions."""
    n = len(data["game"])
    logp = _group_log_softmax(policy_logits_np(arrays, data["x"]), data["group"], n)
    ce = np.zeros(n)
    np.add.at(ce, data["group"], -data["t"] * logp)
    return float(ce.mean())


def top_agreement(arrays, data):
    """The share of decisions where the policy's best move is (one of) the search's most
    visited."""
    logit = policy_logits_np(arrays, data["x"])
    g = data["group"]
    order = np.lexsort((-logit, g))
    first = order[np.r_[True, g[order][1:] != g[order][:-1]]]
    most = np.lexsort((-data["t"], g))
    most_first = most[np.r_[True, g[most][1:] != g[most][:-1]]]
    return float(np.mean(data["t"][first] >= data["t"][most_first] - 1e-9))


def init_policy(hidden, seed):
    """Starting arrays: w, b and v zero (every move alike), A small and seeded."""
    rng = np.random.default_rng(seed)
    return {"w": np.zeros(N_MOVE_FEATURES, dtype=np.float32),
            "A": rng.normal(0.0, 1.0 / np.sqrt(N_MOVE_FEATURES),
                            (N_MOVE_FEATURES, hidden)).astype(np.float32),
            "b": np.zeros(hidden, dtype=np.float32), "v": np.zeros(hidden, dtype=np.float32)}


def fit_policy(train_set, test_set, hidden=16, columns=None, steps=600, learning_rate=0.02,
               l2=1e-4, seed=0, progress=None):
    """The policy network (``hidden`` units; 0: the linear term alone, on ``columns`` only
    when they are given) fitted to train_set by full-batch Adam; returns (arrays, report)
    with the arrays of the step of the lowest held-out loss (checked every 10 steps)."""
    jax, optax = require_jax("the policy")
    import jax.numpy as jnp
    free = np.zeros(N_MOVE_FEATURES, dtype=np.float32)
    free[list(range(N_MOVE_FEATURES)) if columns is None else list(columns)] = 1.0
    free_j = jnp.asarray(free)

    def tensors(d):
        return (jnp.asarray(d["x"]), jnp.asarray(d["t"]), jnp.asarray(d["group"]),
                len(d["game"]))

    def logits(p, x):
        return x @ (p["w"] * free_j) + jax.nn.relu(x @ p["A"] + p["b"]) @ p["v"]

    def loss(p, x, t, g, n):
        logit = logits(p, x)
        top = jax.ops.segment_max(logit, g, num_segments=n)
        z = jax.ops.segment_sum(jnp.exp(logit - top[g]), g, num_segments=n)
        logp = logit - top[g] - jnp.log(z[g])
        return -jnp.sum(t * logp) / n

    def penalty(p):
        return l2 * (jnp.sum(p["w"] ** 2) + jnp.sum(p["A"] ** 2) + jnp.sum(p["v"] ** 2))

    tr, te = tensors(train_set), tensors(test_set)
    optimiser = optax.adam(learning_rate)
    params = {k: jnp.asarray(v) for k, v in init_policy(hidden, seed).items()}
    state = optimiser.init(params)

    # the data are arguments, not constants of the compiled step (XLA would fold them)
    @partial(jax.jit, static_argnums=(5,))
    def step(p, state, x, t, g, n):
        value, grad = jax.value_and_grad(lambda q: loss(q, x, t, g, n) + penalty(q))(p)
        updates, state = optimiser.update(grad, state, p)
        return optax.apply_updates(p, updates), state, value

    held = jax.jit(loss, static_argnums=(4,))
    best, best_loss, history = None, np.inf, []
    for i in range(steps):
        params, state, value = step(params, state, *tr)
        if (i + 1) % 10 == 0 or i == steps - 1:
            test_loss = float(held(params, *te))
            history.append((i + 1, float(value), test_loss))
            if progress is not None:
                progress("fit", f"policy: step {i + 1} of {steps}: train {float(value):.4f}, "
                                f"held out {test_loss:.4f}")
            if test_loss < best_loss:
                best_loss = test_loss
                best = {k: np.asarray(v, dtype=np.float32) for k, v in params.items()}
                best["w"] = best["w"] * free
    return best, {"best": best_loss, "history": history}


def train_policy(records, holdout=0.2, seed=0, every=1, hidden=16, steps=600, progress=None):
    """The policy network fitted to the records' searched decisions (``tne train
    --policy``): returns (arrays, report) with the held-out cross-entropy and top-move
    agreement of the network, of the kinds alone (a linear score of the kind columns only)
    and of the uniform policy."""
    data = policy_dataset(records, every=every, progress=progress)
    train_set, test_set = split_games(data, holdout, seed)
    arrays, _ = fit_policy(train_set, test_set, hidden=hidden, steps=steps, seed=seed,
                           progress=progress)
    kinds, _ = fit_policy(train_set, test_set, hidden=0, steps=steps, seed=seed,
                          columns=range(PF_KIND, PF_KIND + N_KINDS))
    uniform = init_policy(0, seed)
    report = {"train_decisions": len(train_set["game"]), "test_decisions": len(test_set["game"]),
              "moves_per_decision": len(data["t"]) / len(data["game"]), "hidden": hidden}
    for name, a in (("policy", arrays), ("kinds", kinds), ("uniform", uniform)):
        report[name] = (policy_loss_np(a, test_set), top_agreement(a, test_set))
    return arrays, report


def policy_report_lines(report):
    """The text lines of a ``train_policy`` report."""
    lines = [f"policy: {report['hidden']} hidden units, fitted on {report['train_decisions']} decisions "
             f"({report['moves_per_decision']:.0f} legal moves each on average); held out "
             f"{report['test_decisions']}: cross-entropy to the visit shares (top move agrees):"]
    for name in ("policy", "kinds", "uniform"):
        loss, top = report[name]
        lines.append(f"  {name:8s} {loss:.4f} ({top:.1%})")
    return lines
