"""Fitting the value network (``search/value.py``) to game outcomes, with JAX and optax.

The training step is the one place this project uses a training library; it is an optional
extra (``pip install -e ".[train]"``), and the search never imports it: inference is the
numba kernels of ``search/value.py``.

``fit_value(train_set, test_set, ...)`` takes datasets of ``tne_ai.matches.train.dataset`` (feature
rows of every seated player, the final result, the player count, the game) and returns the
network's arrays (``NET_ARRAYS``) and a report.  The loss is the cross-entropy of the
softmax over the seated players against the result (a shared first place split), plus an L2
penalty on the hidden layers' weights; Adam on shuffled mini-batches; the epoch with the
lowest held-out loss is kept (the held-out games are never trained on).  The network's
linear term starts from the fitted linear evaluation (``linear``: its weight vector(s)),
rescaled to the standardised features, so the first epoch starts at the linear model's loss
and the hidden layers learn what it misses.  Everything takes a seed.
"""
import numpy as np

from tne_ai.errors import TneError
from tne_ai.search.features import N_FEATURES
from tne_ai.search.value import N_COUNTS, NET_ARRAYS, net_values_np


def require_jax(what="the value network"):
    """(jax, optax), float32 by default; TneError naming what needs them when the ``train``
    extra is not installed."""
    try:
        import jax
        import optax
    except ImportError:
        raise TneError(f"fitting {what} needs JAX and optax: "
                       "pip install -e \".[train]\"") from None
    jax.config.update("jax_enable_x64", False)
    return jax, optax


def standardise(data):
    """(mu, sigma) of the seated players' feature rows (sigma 1 where a feature is constant)."""
    mask = np.arange(4)[None, :] < np.asarray(data["players"])[:, None]
    rows = data["x"][mask]
    mu = rows.mean(axis=0)
    sigma = rows.std(axis=0)
    return mu, np.where(sigma > 1e-6, sigma, 1.0)


def linear_start(linear, mu, sigma):
    """The linear term's start, (N_COUNTS, N_FEATURES) on standardised features, from a
    linear evaluation's weights: one vector for every count or one per count."""
    w = np.asarray(linear, dtype=np.float64).reshape(-1, N_FEATURES)
    w = np.broadcast_to(w, (N_COUNTS, N_FEATURES)) if len(w) == 1 else w
    return w * sigma[None, :]


def init_arrays(hidden, mu, sigma, linear, seed):
    """Starting arrays: small random hidden layers whose output starts near 0, the linear
    term from ``linear``."""
    h1n, h2n = hidden
    rng = np.random.default_rng(seed)
    return {
        "mu": mu, "sigma": sigma,
        "A": rng.normal(0, 1 / np.sqrt(N_FEATURES), (N_FEATURES, h1n)),
        "B": rng.normal(0, 0.5 / np.sqrt(N_FEATURES), (N_FEATURES, h1n)),
        "c": np.zeros((N_COUNTS, h1n)),
        "W2": rng.normal(0, np.sqrt(2 / h1n), (h1n, h2n)),
        "b2": np.zeros(h2n),
        "w3": rng.normal(0, 0.01, h2n),
        "l": linear_start(linear, mu, sigma) if linear is not None else np.zeros((N_COUNTS, N_FEATURES)),
    }


def value_loss(arrays, data):
    """Mean cross-entropy of the network's win chances against the results, and the share of
    positions whose favourite won (as ``tne_ai.matches.train.log_loss``)."""
    p = np.clip(net_values_np(arrays, data["x"], data["players"]), 1e-12, 1.0)
    mask = np.arange(4)[None, :] < np.asarray(data["players"])[:, None]
    y = data["y"]
    loss = -np.sum(np.where(mask, y * np.log(p), 0.0), axis=1).mean()
    fav = np.argmax(np.where(mask, p, -1.0), axis=1)
    return float(loss), float(np.mean(y[np.arange(len(y)), fav] > 0))


def jax_log_chances(params, z, mask, k, others):
    """The network in JAX on standardised features z (rows, 4, N_FEATURES; empty seats 0):
    log win chances (rows, 4) over the seated players (``mask``), ``k`` the count index
    (players - 2), ``others`` players - 1.  The same computation as ``net_values``."""
    jax, _ = require_jax()
    import jax.numpy as jnp
    a = z @ params["A"]
    b = z @ params["B"]
    h1 = jax.nn.relu(a + (b.sum(axis=1, keepdims=True) - b) / others[:, None, None]
                     + params["c"][k][:, None, :])
    h2 = jax.nn.relu(h1 @ params["W2"] + params["b2"])
    v = h2 @ params["w3"] + jnp.einsum("rpf,rf->rp", z, params["l"][k])
    return jax.nn.log_softmax(jnp.where(mask, v, -1e9), axis=1)


def fit_value(train_set, test_set, hidden=(32, 16), linear=None, epochs=40, batch=512,
              learning_rate=2e-3, l2=1e-4, seed=0, progress=None):
    """The value network fitted to train_set's results; returns (arrays, report): the
    arrays of the epoch with the lowest loss on test_set, and per epoch the train and
    held-out losses.  ``progress(stage, text)`` hears of each epoch."""
    jax, optax = require_jax()
    import jax.numpy as jnp
    mu, sigma = standardise(train_set)
    start = init_arrays(hidden, mu, sigma, linear, seed)
    trained = ("A", "B", "c", "W2", "b2", "w3", "l")
    params = {k: jnp.asarray(start[k], dtype=jnp.float32) for k in trained}

    def prepare(data):
        players = np.asarray(data["players"])
        mask = np.arange(4)[None, :] < players[:, None]
        z = np.where(mask[:, :, None], (data["x"] - mu) / sigma, 0.0).astype(np.float32)
        return (jnp.asarray(z), jnp.asarray(data["y"], dtype=jnp.float32), jnp.asarray(mask),
                jnp.asarray(players - 2), jnp.asarray(players - 1, dtype=jnp.float32))

    def loss_fn(params, z, y, mask, k, others):
        logp = jax_log_chances(params, z, mask, k, others)
        ce = -jnp.sum(jnp.where(mask, y * logp, 0.0), axis=1).mean()
        penalty = sum(jnp.sum(params[w] ** 2) for w in ("A", "B", "W2", "w3"))
        return ce + l2 * penalty, ce

    optimiser = optax.adam(learning_rate)
    state = optimiser.init(params)

    @jax.jit
    def step(params, state, z, y, mask, k, others):
        (_, ce), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, z, y, mask, k, others)
        updates, state = optimiser.update(grads, state, params)
        return optax.apply_updates(params, updates), state, ce

    full_loss = jax.jit(lambda params, *d: loss_fn(params, *d)[1])
    tr, te = prepare(train_set), prepare(test_set)
    rows = len(train_set["y"])
    rng = np.random.default_rng(seed)
    best, best_loss, history = None, np.inf, []
    for epoch in range(epochs):
        order = rng.permutation(rows)
        for i in range(0, rows - batch + 1, batch):
            idx = jnp.asarray(order[i:i + batch])
            params, state, _ = step(params, state, *(d[idx] for d in tr))
        train_loss, test_loss = float(full_loss(params, *tr)), float(full_loss(params, *te))
        history.append((epoch + 1, train_loss, test_loss))
        if progress is not None:
            progress("fit", f"value network: epoch {epoch + 1} of {epochs}: "
                            f"train {train_loss:.4f}, held out {test_loss:.4f}")
        if test_loss < best_loss:
            best_loss = test_loss
            best = {k: np.asarray(v, dtype=np.float64) for k, v in params.items()}
    arrays = {"mu": mu, "sigma": sigma, **best}
    return {k: arrays[k] for k in NET_ARRAYS}, {"epochs": history, "best": best_loss}


def train_value(records, holdout=0.2, seed=0, every=1, hidden=(32, 16), epochs=12,
                learning_rate=5e-4, l2=1e-3, progress=None):
    """The value network fitted to the records' positions (``tne train --net``): returns
    (arrays, report).  The games are split by a seeded share ``holdout`` (as the linear fit's
    ``tne_ai.matches.train.split``); the report gives, per player count present, the held-out
    positions and the log-loss and favourite's accuracy of the network and of the shipped
    linear evaluation it starts from."""
    from tne_ai.search.evaluate import model_weights
    from tne_ai.matches.train import held_out_split, log_loss, model_chances, player_mask
    _, train_set, test_set, seed = held_out_split(records, holdout, seed, every, progress)
    linear = model_weights()
    arrays, fit_report = fit_value(train_set, test_set, hidden=hidden, linear=linear,
                                   epochs=epochs, learning_rate=learning_rate, l2=l2, seed=seed,
                                   progress=progress)
    counts = {}
    for n in (2, 3, 4):
        rows = np.asarray(test_set["players"]) == n
        if not rows.any():
            continue
        part = {k: test_set[k][rows] for k in ("x", "y", "players")}
        counts[n] = {"positions": int(rows.sum()),
                     "net": value_loss(arrays, part),
                     "linear": log_loss(model_chances(part, linear), part["y"],
                                        player_mask(part["players"]))}
    return arrays, {"counts": counts, "epochs": fit_report["epochs"],
                    "train_positions": len(train_set["y"])}


def value_report_lines(report):
    """The text lines of a ``train_value`` report."""
    lines = [f"value network: fitted on {report['train_positions']} positions; held-out "
             f"log-loss (favourite won):"]
    for n, r in report["counts"].items():
        lines.append(f"  {n} players, {r['positions']} positions: network {r['net'][0]:.4f} "
                     f"({r['net'][1]:.1%}), linear evaluation {r['linear'][0]:.4f} "
                     f"({r['linear'][1]:.1%})")
    return lines
