"""The value network (search/value.py): its numba forward pass against hand-worked values and
against the training framework's, its evaluation of finished games, and its weights files."""
import math
import os
import zipfile

import numpy as np
import pytest

from tne_ai.errors import TneError
from tne_ai.search.features import N_FEATURES
from tne_ai.search.value import (NET_ARRAYS, load_net, net_digest, net_tuple, net_values,
                                 net_values_np, save_net, value_scratch)


def zero_net(h1=2, h2=2):
    """A network that computes 0 for every player: mu 0, sigma 1, every weight 0."""
    return {"mu": np.zeros(N_FEATURES), "sigma": np.ones(N_FEATURES),
            "A": np.zeros((N_FEATURES, h1)), "B": np.zeros((N_FEATURES, h1)),
            "c": np.zeros((3, h1)), "W2": np.zeros((h1, h2)), "b2": np.zeros(h2),
            "w3": np.zeros(h2), "l": np.zeros((3, N_FEATURES))}


def numba_chances(arrays, feats, n):
    net = net_tuple(arrays)
    out = np.zeros(4)
    net_values(np.asarray(feats, dtype=np.float64), n, net, value_scratch(net), out)
    return out[:n]


def test_linear_term_alone_by_hand():
    # v_p = l[count] . z_p; with l[0][0] = ln 3 and feature 0 equal to 2 and 1 for the two
    # players, v = 2 ln 3 and ln 3: P(0) = 9 / (9 + 3) = 0.75
    arrays = zero_net()
    arrays["l"][0, 0] = math.log(3.0)
    feats = np.zeros((4, N_FEATURES))
    feats[0, 0], feats[1, 0] = 2.0, 1.0
    assert numba_chances(arrays, feats, 2) == pytest.approx([0.75, 0.25], abs=1e-6)
    # the 3-player row of l is another vector: zero there gives equal chances
    assert numba_chances(arrays, feats, 3) == pytest.approx([1 / 3] * 3, abs=1e-6)


def test_hidden_layers_and_the_others_mean_by_hand():
    # one hidden path: h1 = relu(A z_p + B mean_others + c), h2 = relu(W2 h1 + b2), v = w3 h2.
    # A[0,0] = 1, B[1,0] = 1, c[1,0] = -1 (3 players), W2 = 1, w3 = 0.5.
    arrays = zero_net(1, 1)
    arrays["A"][0, 0] = 1.0
    arrays["B"][1, 0] = 1.0
    arrays["c"][1, 0] = -1.0
    arrays["W2"][0, 0] = 1.0
    arrays["w3"][0] = 0.5
    # standardisation: mu 1 and sigma 2 on features 0 and 1
    arrays["mu"][:2] = 1.0
    arrays["sigma"][:2] = 2.0
    feats = np.zeros((4, N_FEATURES))
    feats[:3, 0] = [5.0, 1.0, 3.0]      # z = 2, 0, 1
    feats[:3, 1] = [1.0, 9.0, 5.0]      # z = 0, 4, 2
    # player 0: 2 + mean(4, 2) - 1 = 4;  player 1: 0 + mean(0, 2) - 1 = 0;
    # player 2: 1 + mean(0, 4) - 1 = 2;  v = 0.5 * relu(.) = 2, 0, 1
    v = np.array([2.0, 0.0, 1.0])
    expected = np.exp(v) / np.exp(v).sum()
    assert numba_chances(arrays, feats, 3) == pytest.approx(expected, abs=1e-6)
    assert net_values_np(arrays, feats[None], np.array([3]))[0, :3] == pytest.approx(expected)


def random_net(seed, h1=8, h2=4):
    rng = np.random.default_rng(seed)
    arrays = {"mu": rng.normal(0, 1, N_FEATURES), "sigma": rng.uniform(0.5, 2, N_FEATURES),
              "A": rng.normal(0, 0.3, (N_FEATURES, h1)), "B": rng.normal(0, 0.3, (N_FEATURES, h1)),
              "c": rng.normal(0, 0.3, (3, h1)), "W2": rng.normal(0, 0.5, (h1, h2)),
              "b2": rng.normal(0, 0.1, h2), "w3": rng.normal(0, 0.5, h2),
              "l": rng.normal(0, 0.1, (3, N_FEATURES))}
    return {k: v.astype(np.float32).astype(np.float64) for k, v in arrays.items()}


def random_rows(seed, rows=12):
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 2, (rows, 4, N_FEATURES)).astype(np.float32).astype(np.float64)
    players = rng.integers(2, 5, rows)
    for r in range(rows):
        x[r, players[r]:] = 0.0
    return x, players


def test_numba_forward_equals_jax_forward():
    import jax.numpy as jnp
    from tne_ai.matches.fit_value import jax_log_chances
    arrays = random_net(3)
    x, players = random_rows(4)
    mask = np.arange(4)[None, :] < players[:, None]
    z = np.where(mask[:, :, None], (x - arrays["mu"]) / arrays["sigma"], 0.0)
    params = {k: jnp.asarray(arrays[k], dtype=jnp.float32) for k in ("A", "B", "c", "W2", "b2", "w3", "l")}
    logp = jax_log_chances(params, jnp.asarray(z, dtype=jnp.float32), jnp.asarray(mask),
                           jnp.asarray(players - 2), jnp.asarray(players - 1, dtype=jnp.float32))
    theirs = np.exp(np.asarray(logp, dtype=np.float64))
    for r in range(len(x)):
        n = players[r]
        assert numba_chances(arrays, x[r], n) == pytest.approx(theirs[r, :n], abs=1e-5)
        assert net_values_np(arrays, x[r:r + 1], players[r:r + 1])[0, :n] == \
            pytest.approx(theirs[r, :n], abs=1e-5)


def test_finished_game_scores_its_ranking():
    # an ended 2-player game (SPEC section 6): P0's lowest colour 3 beats P1's 2, so P0 has
    # won (1, 0), whatever the network would say (its linear term strongly favours P1 here)
    from helpers import START_TEMPLES, load
    from tne_ai.search.value import evaluate_net
    p = load(players=2, scores=[{"red": 3, "blue": 3, "green": 3, "black": 3},
                                {"red": 2, "blue": 9, "green": 9, "black": 9}],
             treasures=START_TEMPLES, bag="", hands=["rbgk", "rbgk"], actions_left=0)
    assert p.is_over()
    arrays = zero_net()
    arrays["l"][0, 3] = 50.0    # the highest sorted colour
    net = net_tuple(arrays)
    out = np.zeros(4)
    evaluate_net(p.st, net, value_scratch(net), np.zeros((16, 3), np.uint64),
                 np.zeros((4, N_FEATURES)), out)
    assert list(out[:2]) == [1.0, 0.0]


# --- weights files -----------------------------------------------------------------------

def test_save_and_load_round_trip(tmp_path):
    arrays = random_net(5)
    path = str(tmp_path / "value.npz")
    digest = save_net(path, arrays, info={"games": 12})
    loaded, loaded_digest = load_net(path)
    assert loaded_digest == digest == net_digest(loaded)
    for name in NET_ARRAYS:
        assert np.array_equal(loaded[name], arrays[name].astype(np.float32))


def rewrite(path, **changes):
    """Rewrite an .npz weights file with some arrays replaced (or removed, given None)."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    for k, v in changes.items():
        if v is None:
            del arrays[k]
        else:
            arrays[k] = v
    with open(path, "wb") as f:
        np.savez(f, **arrays)


@pytest.fixture
def saved(tmp_path):
    path = str(tmp_path / "value.npz")
    save_net(path, random_net(6))
    return path


def one_line_error(path):
    with pytest.raises(TneError) as e:
        load_net(path)
    text = str(e.value)
    assert "\n" not in text and text.startswith(f"{path}: not a value network weights file")
    return text


def test_truncated_file_is_refused(saved):
    size = os.path.getsize(saved)
    with open(saved, "rb") as f:
        head = f.read(size // 2)
    with open(saved, "wb") as f:
        f.write(head)
    one_line_error(saved)


def test_wrong_shape_is_refused(saved):
    text = one_line_error_after(saved, W2=np.zeros((3, 4), np.float32))
    assert "W2 has shape (3, 4)" in text


def one_line_error_after(path, **changes):
    rewrite(path, **changes)
    return one_line_error(path)


def test_nan_is_refused(saved):
    w3 = np.zeros(4, np.float32)
    w3[2] = np.nan
    assert "w3 holds a NaN" in one_line_error_after(saved, w3=w3)


def test_changed_array_fails_the_digest(saved):
    with np.load(saved) as data:
        b2 = data["b2"].copy()
    b2[0] += 1.0
    assert "SHA-256" in one_line_error_after(saved, b2=b2)


def test_missing_array_and_other_features_are_refused(tmp_path):
    path = str(tmp_path / "a.npz")
    save_net(path, random_net(7))
    assert "mu" in one_line_error_after(path, mu=None)
    save_net(path, random_net(7))
    assert "other features" in one_line_error_after(path, features=np.array(["x"] * N_FEATURES))
    save_net(path, random_net(7))
    assert "format" in one_line_error_after(path, format=np.array("tne-value/0"))


def test_not_an_archive_and_a_directory_are_refused(tmp_path):
    path = str(tmp_path / "plain.npz")
    with open(path, "wb") as f:
        np.save(f, np.zeros(3))
    one_line_error(path)
    one_line_error(str(tmp_path))
    junk = str(tmp_path / "junk.npz")
    with zipfile.ZipFile(junk, "w") as z:
        z.writestr("other.txt", "nothing")
    one_line_error(junk)
