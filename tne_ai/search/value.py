"""The value network: every seated player's win chance from the evaluation's features.

A small network shared by the seats (its weights do not depend on which seat a player has,
so it needs no seat order and serves 2, 3 and 4 players alike).  For player p with feature
row f_p (``search.features``, N_FEATURES numbers) it computes

    z_p   = (f_p - mu) / sigma                            the features, standardised
    h1_p  = relu(A z_p + B m_p + c[n])                    m_p: the mean of the other seated
                                                          players' z; c[n]: a bias per count
    h2_p  = relu(W2 h1_p + b2)
    v_p   = w3 . h2_p + l[n] . z_p                        a linear term per count beside it
    P(p wins) = softmax over the seated players of v_p

The linear term is the fitted linear evaluation's form (``evaluate_model``): the trainer
starts it from that fit, so the hidden layers learn what the linear model misses.  A finished
game scores its final ranking instead.  Inference is this module's numba kernels alone,
float32 with preallocated scratch (``value_scratch``); training is ``tne_ai.matches.fit_value``.

A weights file (``save_net`` / ``load_net``, ``.npz``) holds the arrays above with the feature
names they were fitted on, its format name and the SHA-256 of its arrays; loading checks the
names, every shape against the others, finiteness and the digest, and refuses a file that
fails any of them with one ``TneError`` line.
"""
import hashlib
import os

import numpy as np
from numba import njit

from tne_ai.core import state as S
from tne_ai.core.rules.scoring import rewards
from tne_ai.search.evaluate import softmax_seats
from tne_ai.search.features import FEATURE_NAMES, N_FEATURES, features

NET_FORMAT = "tne-value/1"
# the arrays of a weights file, in the order of the tuple the kernels take and of the digest
NET_ARRAYS = ("mu", "sigma", "A", "B", "c", "W2", "b2", "w3", "l")
MAX_HIDDEN = 256
N_COUNTS = 3    # 2, 3 and 4 players
NET_FILE = os.path.join(os.path.dirname(__file__), "weights", "value.npz")


@njit(cache=True, _nrt=False, nogil=True)
def net_values(feats, n, net, scratch, out):
    """The value network's win chances of the n seated players (feature rows feats[:n]) into
    out[:n]; ``net`` the tuple of a weights file's arrays (``NET_ARRAYS`` order, float32, sigma
    already inverted), ``scratch`` from ``value_scratch``."""
    mu, inv_sigma, A, B, c, W2, b2, w3, lin = net
    z, a, b, bsum, h2 = scratch
    h1n = A.shape[1]
    h2n = W2.shape[1]
    nf = A.shape[0]
    k = n - 2
    for q in range(n):
        for j in range(h1n):
            a[q, j] = 0.0
            b[q, j] = 0.0
        for i in range(nf):
            zi = np.float32((feats[q, i] - mu[i]) * inv_sigma[i])
            z[q, i] = zi
            if zi != 0.0:
                for j in range(h1n):
                    a[q, j] += A[i, j] * zi
                    b[q, j] += B[i, j] * zi
    # the sum of every seat's B z: less one's own, over n - 1, the mean of the others'
    for j in range(h1n):
        total = np.float32(0.0)
        for q in range(n):
            total += b[q, j]
        bsum[j] = total
    inv_others = np.float32(1.0 / (n - 1))
    for p in range(n):
        for j in range(h2n):
            h2[j] = b2[j]
        for j in range(h1n):
            h = a[p, j] + (bsum[j] - b[p, j]) * inv_others + c[k, j]
            if h > 0.0:
                for m in range(h2n):
                    h2[m] += W2[j, m] * h
        v = np.float32(0.0)
        for m in range(h2n):
            if h2[m] > 0.0:
                v += w3[m] * h2[m]
        for i in range(nf):
            v += lin[k, i] * z[p, i]
        out[p] = v
    softmax_seats(out, n)


@njit(cache=True, _nrt=False, nogil=True)
def evaluate_net(st, net, scratch, kmask, feats, out):
    """Win chance of every player into out: the final ranking for a finished game, else the
    value network on the position's features (``net_values``)."""
    if st[S.PHASE] == S.PH_OVER:
        rewards(st, out)
        return
    n = features(st, kmask, feats)
    net_values(feats, n, net, scratch, out)


def value_scratch(net):
    """Preallocated scratch for ``net_values`` with this network's sizes."""
    nf, h1n = net[2].shape
    h2n = net[5].shape[1]
    return (np.zeros((4, nf), np.float32), np.zeros((4, h1n), np.float32),
            np.zeros((4, h1n), np.float32), np.zeros(h1n, np.float32), np.zeros(h2n, np.float32))


def net_tuple(arrays):
    """The kernels' tuple of a network's arrays (a dict by ``NET_ARRAYS`` name): float32,
    C-contiguous, sigma inverted."""
    out = []
    for name in NET_ARRAYS:
        x = np.asarray(arrays[name], dtype=np.float64)
        if name == "sigma":
            x = 1.0 / x
        out.append(np.ascontiguousarray(x, dtype=np.float32))
    return tuple(out)


def net_digest(arrays):
    """SHA-256 (hex) of a network's arrays as float32, in ``NET_ARRAYS`` order with their
    shapes: what a weights file records and loading checks."""
    h = hashlib.sha256(NET_FORMAT.encode())
    for name in NET_ARRAYS:
        x = np.ascontiguousarray(arrays[name], dtype="<f4")
        h.update(repr((name, x.shape)).encode())
        h.update(x.tobytes())
    return h.hexdigest()


def net_shapes_error(arrays):
    """What is wrong with the arrays' shapes (None when they fit each other)."""
    A = arrays["A"]
    if A.ndim != 2:
        return f"A is {A.ndim}-d, expected features x hidden"
    nf, h1n = A.shape
    if nf != N_FEATURES:
        return f"A has {nf} feature rows, this version has {N_FEATURES} features"
    if not 1 <= h1n <= MAX_HIDDEN:
        return f"the first hidden layer has {h1n} units (1 to {MAX_HIDDEN})"
    W2 = arrays["W2"]
    if W2.ndim != 2 or W2.shape[0] != h1n or not 1 <= W2.shape[1] <= MAX_HIDDEN:
        return f"W2 has shape {W2.shape}, expected ({h1n}, 1 to {MAX_HIDDEN})"
    h2n = W2.shape[1]
    expected = {"mu": (nf,), "sigma": (nf,), "A": (nf, h1n), "B": (nf, h1n),
                "c": (N_COUNTS, h1n), "W2": (h1n, h2n), "b2": (h2n,), "w3": (h2n,),
                "l": (N_COUNTS, nf)}
    for name, shape in expected.items():
        if arrays[name].shape != shape:
            return f"{name} has shape {arrays[name].shape}, expected {shape}"
    return None


def save_net(path, arrays, info=None):
    """Write a value network's weights file: its arrays (float32), the feature names, the
    format name and the arrays' SHA-256 (``net_digest``); ``info``: strings and numbers kept
    beside them (how it was trained).  Returns the digest."""
    arrays = {name: np.asarray(arrays[name], dtype=np.float32) for name in NET_ARRAYS}
    error = net_shapes_error(arrays)
    if error is not None:
        raise ValueError(error)
    digest = net_digest(arrays)
    extra = {f"info_{k}": np.asarray(v) for k, v in (info or {}).items()}
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        np.savez(f, format=np.array(NET_FORMAT), features=np.array(FEATURE_NAMES),
                 sha256=np.array(digest), **arrays, **extra)
    os.replace(tmp, path)
    return digest


def load_net(path):
    """(arrays by name, their SHA-256) of a value network's weights file, checked: the format,
    the feature names of this version, every array present, numeric and finite, shapes that
    fit each other, sigma positive, and the recorded digest equal to the arrays'."""
    import zipfile
    from tne_ai.errors import TneError
    from tne_ai.limits import MAX_INPUT_BYTES, clip

    def bad(why):
        return TneError(f"{path}: not a value network weights file ({why})")
    try:
        if os.path.isdir(path):
            raise OSError(0, "a directory")
        data = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
        raise bad(clip(getattr(e, "strerror", None) or e, 80)) from None
    if not isinstance(data, np.lib.npyio.NpzFile):
        raise bad("a single array, expected an .npz archive")
    arrays = {}
    with data:
        for key in ("format", "features", "sha256") + NET_ARRAYS:
            try:
                if data.zip.getinfo(key + ".npy").file_size > MAX_INPUT_BYTES:
                    raise bad(f"{key} is larger than {MAX_INPUT_BYTES} bytes")
                arrays[key] = data[key]
            except (KeyError, OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
                raise bad(f"{key}: {clip(e, 80)}") from None
    if str(arrays["format"]) != NET_FORMAT:
        raise bad(f"format {clip(str(arrays['format']), 40)!r}, expected {NET_FORMAT!r}")
    if tuple(str(x) for x in np.atleast_1d(arrays["features"])) != FEATURE_NAMES:
        raise bad(f"fitted on other features than this version's {N_FEATURES}")
    for name in NET_ARRAYS:
        if arrays[name].dtype.kind not in "fiu":
            raise bad(f"{name} is not numbers")
        arrays[name] = arrays[name].astype(np.float32)
        if not np.all(np.isfinite(arrays[name])):
            raise bad(f"{name} holds a NaN or an infinity")
    error = net_shapes_error(arrays)
    if error is not None:
        raise bad(error)
    if not np.all(arrays["sigma"] > 0):
        raise bad("sigma must be positive")
    digest = net_digest(arrays)
    if str(arrays["sha256"]) != digest:
        raise bad("its arrays do not match its recorded SHA-256")
    return {name: arrays[name] for name in NET_ARRAYS}, digest


def net_values_np(arrays, x, players):
    """The network's win chances in numpy, for many positions at once: x (rows, 4,
    N_FEATURES) feature rows, players (rows,); returns (rows, 4), zero for empty seats.  The
    same computation as ``net_values`` (in float64), for training reports and tests."""
    x = np.asarray(x, dtype=np.float64)
    players = np.asarray(players)
    mask = np.arange(4)[None, :] < players[:, None]
    z = np.where(mask[:, :, None], (x - arrays["mu"]) / arrays["sigma"], 0.0)
    k = players - 2
    a = z @ arrays["A"]
    b = z @ arrays["B"]
    others = (b.sum(axis=1, keepdims=True) - b) / (players - 1)[:, None, None]
    h1 = np.maximum(a + others + arrays["c"][k][:, None, :], 0.0)
    h2 = np.maximum(h1 @ arrays["W2"] + arrays["b2"], 0.0)
    v = h2 @ arrays["w3"] + np.einsum("rpf,rf->rp", z, arrays["l"][k])
    v = np.where(mask, v, -np.inf)
    e = np.exp(v - v.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


_NETS = {}


def net_of_file(path=None):
    """A value network file as the kernels' tuple (the shipped one when ``path`` is None),
    loaded and checked once per version of the file (its path, size and modification time):
    a search per move does not read it again.  TneError (one line) for a bad file."""
    from tne_ai.core.io.paths import loaded_once
    return loaded_once(_NETS, NET_FILE if path is None else path,
                       lambda p: net_tuple(load_net(p)[0]))


def shipped_net():
    """The shipped value network (``search/weights/value.npz``) as the kernels' tuple."""
    return net_of_file(None)
