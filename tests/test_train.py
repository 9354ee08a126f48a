"""tne train: self-play, fitting and the weights file (structure and reproducibility; the
strength of the shipped weights is measured by matches in bench/README.md)."""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tne_ai.search.evaluate import load_weights
from tne_ai.search.features import N_FEATURES
from tne_ai.search.priors import N_KINDS
from tne_ai.train import fit_logit, fit_per_count, player_mask

ROOT = Path(__file__).resolve().parents[1]


def tne(*args, cwd):
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True,
                          text=True, cwd=cwd, timeout=600)


def test_train_plays_fits_and_writes_the_same_weights_for_the_same_seed(tmp_path):
    args = ["train", "--games", "2", "--agent", "mcts:iterations=40", "--seed", "4"]
    first = tne(*args, "--records", "a.jsonl", "-o", "a.npz", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    second = tne(*args, "-o", "b.npz", cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    wa, pa = load_weights(tmp_path / "a.npz")
    wb, pb = load_weights(tmp_path / "b.npz")
    assert wa.shape == (3 * N_FEATURES,) and pa.shape == (N_KINDS,)   # per count: 2, 3, 4
    assert wa.tolist() == wb.tolist() and pa.tolist() == pb.tolist()
    assert len((tmp_path / "a.jsonl").read_text().splitlines()) == 4   # 2 deals x 2 seats
    out = first.stdout
    assert "held-out positions" in out and "fitted weights" in out and "hand-set (baseline)" in out
    assert out.strip().endswith("wrote a.npz")
    # training on the saved records alone gives the same fit
    again = tne("train", "--games", "0", "--data", "a.jsonl", "--seed", "4", "-o", "c.npz", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert load_weights(tmp_path / "c.npz")[0].tolist() == wa.tolist()
    # provenance (DESIGN): the weights file and the self-play records name the code and the
    # weights that played the games (the agent searched with the shipped weights)
    import hashlib
    import json
    from tne_ai import __version__
    from tne_ai.search.evaluate import WEIGHTS_FILE
    shipped = hashlib.sha256(Path(WEIGHTS_FILE).read_bytes()).hexdigest()
    with np.load(tmp_path / "a.npz") as data:
        made_by = json.loads(str(data["info_provenance"]))
    assert made_by["tne_ai"] == __version__ and made_by["weights_sha256"] == {"shipped": shipped}
    record = json.loads((tmp_path / "a.jsonl").read_text().splitlines()[0])
    assert record["meta"]["provenance"]["weights_sha256"] == {"shipped": shipped}


@pytest.mark.parametrize("args,fragment", [
    (["--games", "0"], "no games to learn from"),
    (["--games", "1", "--agent", "mcts:widen=-1"], "out of range"),
    (["--games", "0", "--data", "missing.jsonl"], "missing.jsonl"),
])
def test_train_errors_are_one_line_and_write_nothing(tmp_path, args, fragment):
    r = tne("train", *args, "-o", "w.npz", cwd=tmp_path)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0]
    assert not (tmp_path / "w.npz").exists()


def test_fit_logit_recovers_known_weights():
    """Two players, one feature: player 0 wins with chance sigmoid(2 (x0 - x1)); a fit on many
    sampled outcomes gets the weight 2 back."""
    rng = np.random.default_rng(0)
    n = 20000
    x = np.zeros((n, 4, 1))
    x[:, :2, 0] = rng.normal(size=(n, 2))
    p0 = 1 / (1 + np.exp(-2 * (x[:, 0, 0] - x[:, 1, 0])))
    win = rng.random(n) < p0
    y = np.zeros((n, 4))
    y[win, 0] = 1
    y[~win, 1] = 1
    w = fit_logit(x, y, player_mask(np.full(n, 2)), l2=0.0)
    assert w[0] == pytest.approx(2.0, abs=0.1)


def test_per_count_fits_recover_each_counts_weight_and_keep_the_pooled_one_where_no_data():
    """2-player rows where the feature's weight is 2 and 4-player rows where it is -1 (the
    winner drawn with chance softmax(w x)); no 3-player rows.  With a light penalty each count
    gets its own weight back; the 3-player vector is the pooled fit, and a heavy penalty keeps
    every count at the pooled fit."""
    rng = np.random.default_rng(1)
    rows = []
    for players, weight in ((2, 2.0), (4, -1.0)):
        x = np.zeros((20000, 4, 1))
        x[:, :players, 0] = rng.normal(size=(20000, players))
        v = np.exp(weight * x[:, :players, 0])
        p = v / v.sum(axis=1, keepdims=True)
        winner = (rng.random((20000, 1)) > np.cumsum(p, axis=1)).sum(axis=1)
        y = np.zeros((20000, 4))
        y[np.arange(20000), winner] = 1
        rows.append((x, y, np.full(20000, players)))
    data = {k: np.concatenate([r[i] for r in rows]) for i, k in enumerate(("x", "y", "players"))}
    pooled = fit_logit(data["x"], data["y"], player_mask(data["players"]), l2=0.0)
    w = fit_per_count(data, pooled, 1e-6)
    assert w.shape == (3,)
    assert w[0] == pytest.approx(2.0, abs=0.1) and w[2] == pytest.approx(-1.0, abs=0.1)
    assert w[1] == pooled[0]
    assert fit_per_count(data, pooled, 1e6) == pytest.approx(np.tile(pooled, 3), abs=1e-3)


def test_dataset_rows_of_absent_players_are_zero_whatever_came_before():
    """A 2-player game read after a 4-player one has nothing in seats 3 and 4: neither
    features nor results (the fit's gradient sums over every seat, masked or not)."""
    from tne_ai.position import Position
    from tne_ai.train import dataset
    records = []
    for players, seed in ((4, 1), (2, 2)):
        pos = Position.new(players, seed=seed)
        start = pos.to_json()
        moves = []
        for _ in range(12):
            m = pos.legal_moves()[0]
            moves.append(m)
            pos.push(m)
        records.append({"start": start, "moves": moves})
    data = dataset(records)
    two = data["players"] == 2
    assert two.sum() > 0 and (~two).sum() > 0
    assert np.abs(data["x"][~two][:, 3]).sum() > 0          # the 4-player rows are filled
    assert np.all(data["x"][two][:, 2:] == 0.0)
    assert np.all(data["y"][two][:, 2:] == 0.0)
