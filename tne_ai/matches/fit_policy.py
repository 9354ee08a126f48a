"""Fitting the move policy (``search/policy.py``) to the root visit shares of searches, with
JAX and optax (the ``train`` extra; the search's inference is the numba kernel).

``policy_dataset(records)`` replays the records and, at every action-phase decision whose
``meta.visits`` entry holds the root visits, lists the legal moves with their features and
their share of the visits (0 for a move the search never opened).  ``fit_policy`` fits the
linear policy's weights by the cross-entropy of the softmax over each position's legal moves
against those shares, Adam on the full training set; the step with the lowest held-out loss
is kept.  The report compares the held-out loss with two references: every legal move alike
(the uniform policy) and the move kinds alone (a linear policy on the kind columns only, the
nearest a per-kind weight vector comes).  Everything takes a seed.
"""
from functools import partial

import numpy as np
from numba import njit

from tne_ai.core import state as S
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.errors import TneError
from tne_ai.search.policy import N_MOVE_FEATURES, PF_KIND, move_features
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


def _require_jax():
    try:
        import jax
        import optax
    except ImportError:
        raise TneError("fitting the policy needs JAX and optax: pip install -e \".[train]\"") \
            from None
    return jax, optax


def policy_loss_np(w, data):
    """The mean cross-entropy of the linear policy w against data's visit shares."""
    logit = data["x"].astype(np.float64) @ np.asarray(w, dtype=np.float64)
    g = data["group"]
    n = len(data["game"])
    top = np.full(n, -np.inf)
    np.maximum.at(top, g, logit)
    z = np.zeros(n)
    np.add.at(z, g, np.exp(logit - top[g]))
    logp = logit - top[g] - np.log(z[g])
    ce = np.zeros(n)
    np.add.at(ce, g, -data["t"] * logp)
    return float(ce.mean())


def top_agreement(w, data):
    """The share of decisions where the policy's best move is the search's most visited."""
    logit = data["x"].astype(np.float64) @ np.asarray(w, dtype=np.float64)
    g = data["group"]
    n = len(data["game"])
    order = np.lexsort((-logit, g))
    first = order[np.r_[True, g[order][1:] != g[order][:-1]]]
    most = np.lexsort((-data["t"], g))
    most_first = most[np.r_[True, g[most][1:] != g[most][:-1]]]
    return float(np.mean(data["t"][first] >= data["t"][most_first] - 1e-9)) if n else 0.0


def fit_policy(train_set, test_set, columns=None, steps=400, learning_rate=0.05, l2=1e-4,
               progress=None):
    """The linear policy's weights fitted to train_set (only ``columns`` free when given, the
    rest 0); returns (w, report) with the held-out loss of the best step."""
    jax, optax = _require_jax()
    import jax.numpy as jnp
    free = np.zeros(N_MOVE_FEATURES, dtype=np.float32)
    free[list(range(N_MOVE_FEATURES)) if columns is None else list(columns)] = 1.0
    free_j = jnp.asarray(free)

    def tensors(d):
        return (jnp.asarray(d["x"]), jnp.asarray(d["t"]), jnp.asarray(d["group"]),
                len(d["game"]))

    def loss(w, x, t, g, n):
        logit = x @ (w * free_j)
        top = jax.ops.segment_max(logit, g, num_segments=n)
        z = jax.ops.segment_sum(jnp.exp(logit - top[g]), g, num_segments=n)
        logp = logit - top[g] - jnp.log(z[g])
        return -jnp.sum(t * logp) / n

    tr, te = tensors(train_set), tensors(test_set)
    optimiser = optax.adam(learning_rate)
    w = jnp.zeros(N_MOVE_FEATURES, dtype=jnp.float32)
    state = optimiser.init(w)

    # the data are arguments, not constants of the compiled step (XLA would fold them)
    @partial(jax.jit, static_argnums=(5,))
    def step(w, state, x, t, g, n):
        value, grad = jax.value_and_grad(lambda v: loss(v, x, t, g, n) + l2 * jnp.sum(v * v))(w)
        updates, state = optimiser.update(grad, state, w)
        return optax.apply_updates(w, updates), state, value

    held = jax.jit(loss, static_argnums=(4,))
    best, best_loss, history = np.zeros(N_MOVE_FEATURES), np.inf, []
    for i in range(steps):
        w, state, value = step(w, state, *tr)
        if (i + 1) % 10 == 0 or i == steps - 1:
            test_loss = float(held(w, *te))
            history.append((i + 1, float(value), test_loss))
            if progress is not None:
                progress("fit", f"policy: step {i + 1} of {steps}: train {float(value):.4f}, "
                                f"held out {test_loss:.4f}")
            if test_loss < best_loss:
                best_loss, best = test_loss, np.asarray(w * free_j, dtype=np.float64)
    return best.astype(np.float32), {"best": best_loss, "history": history}


def train_policy(records, holdout=0.2, seed=0, every=1, steps=400, progress=None):
    """The policy fitted to the records' searched decisions (``tne train --policy``): returns
    (w, report) with the held-out cross-entropy and top-move agreement of the policy, of the
    kinds alone and of the uniform policy."""
    data = policy_dataset(records, every=every, progress=progress)
    train_set, test_set = split_games(data, holdout, seed)
    w, fit = fit_policy(train_set, test_set, steps=steps, progress=progress)
    kinds, _ = fit_policy(train_set, test_set, columns=range(PF_KIND, PF_KIND + N_KINDS),
                          steps=steps)
    uniform = np.zeros(N_MOVE_FEATURES, dtype=np.float32)
    report = {"train_decisions": len(train_set["game"]), "test_decisions": len(test_set["game"]),
              "moves_per_decision": len(data["t"]) / len(data["game"])}
    for name, v in (("policy", w), ("kinds", kinds), ("uniform", uniform)):
        report[name] = (policy_loss_np(v, test_set), top_agreement(v, test_set))
    return w, report


def policy_report_lines(report):
    """The text lines of a ``train_policy`` report."""
    lines = [f"policy: fitted on {report['train_decisions']} decisions "
             f"({report['moves_per_decision']:.0f} legal moves each on average); held out "
             f"{report['test_decisions']}: cross-entropy to the visit shares (top move agrees):"]
    for name in ("policy", "kinds", "uniform"):
        loss, top = report[name]
        lines.append(f"  {name:8s} {loss:.4f} ({top:.1%})")
    return lines
