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
from tne_ai.matches.train import fit_logit, fit_per_count, player_mask, report_lines

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
    # 2-player games: only the 2-player weights were fitted, and only they are printed
    weights = [line for line in out.splitlines() if line.startswith("evaluation weights")]
    assert len(weights) == 2 and weights[0].startswith("evaluation weights, 2 players: lowest ")
    assert weights[1] == ("evaluation weights, 3 and 4 players: no games of those counts to "
                          "fit; the file gives them the one vector fitted on all positions")
    # training on the saved records alone gives the same fit
    again = tne("train", "--games", "0", "--data", "a.jsonl", "--seed", "4", "-o", "c.npz", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert load_weights(tmp_path / "c.npz")[0].tolist() == wa.tolist()
    # provenance (DESIGN): the weights file and the self-play records name the code and the
    # weights that played the games (the default agent searched with the shipped value network,
    # the shipped move policy at the root and the shipped weights' kind prior below it)
    import hashlib
    import json
    from tne_ai import __version__
    from tne_ai.search.evaluate import WEIGHTS_FILE
    from tne_ai.search.policy import POLICY_FILE
    from tne_ai.search.value import NET_FILE
    every = {"shipped": hashlib.sha256(Path(WEIGHTS_FILE).read_bytes()).hexdigest(),
             "shipped value network": hashlib.sha256(Path(NET_FILE).read_bytes()).hexdigest(),
             "shipped move policy": hashlib.sha256(Path(POLICY_FILE).read_bytes()).hexdigest()}
    with np.load(tmp_path / "a.npz") as data:
        made_by = json.loads(str(data["info_provenance"]))
    assert made_by["tne_ai"] == __version__ and made_by["weights_sha256"] == every
    record = json.loads((tmp_path / "a.jsonl").read_text().splitlines()[0])
    assert record["meta"]["provenance"]["weights_sha256"] == every


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


def test_the_report_prints_the_weights_of_the_player_counts_fitted_only():
    """Three distinct per-count vectors; a report that fitted 2 and 4 players prints those two
    and says 3 players had no games (its vector is the pooled one, fit_per_count)."""
    w = np.concatenate([np.full(N_FEATURES, 0.25), np.full(N_FEATURES, 0.5), np.full(N_FEATURES, -1.0)])
    report = {"games": 10, "positions": 100, "train_positions": 80, "test_positions": 20,
              "decisions": 100, "fitted_counts": [2, 4]}
    lines = report_lines(report, w, np.zeros(N_KINDS))
    weights = [line for line in lines if line.startswith("evaluation weights")]
    assert len(weights) == 3
    assert weights[0].startswith("evaluation weights, 2 players: lowest +0.250, ")
    assert weights[1].startswith("evaluation weights, 4 players: lowest -1.000, ")
    assert weights[2] == ("evaluation weights, 3 players: no games of that count to fit; the "
                          "file gives it the one vector fitted on all positions")
    assert not any("+0.500" in line for line in lines)
    # every count fitted: the three vectors, no such note
    report["fitted_counts"] = [2, 3, 4]
    weights = [line for line in report_lines(report, w, np.zeros(N_KINDS))
               if line.startswith("evaluation weights")]
    assert [line.split(":")[0] for line in weights] == [
        f"evaluation weights, {n} players" for n in (2, 3, 4)]


def test_dataset_rows_of_absent_players_are_zero_whatever_came_before():
    """A 2-player game read after a 4-player one has nothing in seats 3 and 4: neither
    features nor results (the fit's gradient sums over every seat, masked or not)."""
    from tne_ai.position import Position
    from tne_ai.matches.train import dataset
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


# --- the prior's targets: root visit shares (expert iteration) ------------------------------

def _one_turn_record(visits):
    """Seat 0's first turn in the 2-player deal of seed 1 (its hand holds red, green and
    black tiles): a red tile on D6 (land with nothing next to it, SPEC's map), then a pass."""
    from tne_ai.position import Position
    return {"start": Position.new(2, seed=1).to_json(), "moves": ["tile red D6", "pass"],
            "meta": {"visits": visits}}


def test_visit_targets_are_each_kinds_share_of_the_root_visits():
    """Three visits each to a red and a green tile on D6 (a tile next to no kingdom) and two
    to a catastrophe there (on an empty square with nothing next to it): the targets are 6/8
    and 2/8 of those kinds.  The pass was not searched (None): its target is its kind."""
    from tne_ai.search import priors as P
    from tne_ai.matches.train import dataset
    data = dataset([_one_turn_record([[["tile red D6", 3], ["catastrophe D6", 2],
                                       ["tile green D6", 3]], None])])
    first = np.zeros(N_KINDS)
    first[P.K_TILE_ALONE], first[P.K_CAT_NOTHING] = 0.75, 0.25
    assert data["target"][0].tolist() == first.tolist()
    assert data["target"][1].tolist() == np.eye(N_KINDS)[P.K_PASS].tolist()
    assert data["from_visits"].tolist() == [True, False]
    assert data["chosen"].tolist() == [P.K_TILE_ALONE, P.K_PASS]


@pytest.mark.parametrize("visits,fragment", [
    ([None], "one entry per move (2)"),
    ([[["tile blue D6", 3]], None], "'tile blue D6', not a legal move there"),  # no blue in hand
    ([[["tile red D6", 0]], None], "is not a [move, visits >= 1] pair"),
    ([[["nonsense", 1]], None], "meta.visits"),
    (["tile red D6", None], "not a list of [move, visits] pairs"),
])
def test_bad_visit_entries_are_refused_naming_the_game(visits, fragment):
    from tne_ai.matches.train import TrainError, dataset
    with pytest.raises(TrainError) as e:
        dataset([_one_turn_record(visits)])
    assert fragment in str(e.value) and "game record 1" in str(e.value)


def test_prior_fitted_to_visit_shares_gets_their_odds_back():
    """Two kinds with one legal move each, visited 4 to 1 at every decision: the fitted
    weights differ by log 4 (P = e^w / sum e^w'), whatever kind was played."""
    from tne_ai.matches.train import fit_prior
    n = 50
    kinds = np.zeros((n, N_KINDS))
    kinds[:, 0] = kinds[:, 5] = 1
    target = np.zeros((n, N_KINDS))
    target[:, 0], target[:, 5] = 0.8, 0.2
    # a vanishing penalty only fixes the weights' common shift and the absent kinds (at 0)
    w = fit_prior({"kinds": kinds, "target": target, "chosen": np.full(n, 5)}, l2=1e-9)
    assert w[0] - w[5] == pytest.approx(np.log(4.0), abs=1e-4)


def test_selfplay_records_the_root_visits_of_every_searched_move(tmp_path):
    """Every move of an mcts self-play game has an entry: the root moves' visits, most
    visited first, summing to the search's 30 iterations (no tree reuse, no exact endings:
    their counts are worlds, and such roots get None too), or None for a forced move."""
    from tne_ai.position import Position
    from tne_ai.matches.train import selfplay
    record = selfplay("mcts:iterations=30,reuse=0,endings=0", 1, seed=2)[0]
    visits = record["meta"]["visits"]
    assert len(visits) == len(record["moves"])
    pos = Position.from_json(record["start"])
    forced = 0
    for entry, move in zip(visits, record["moves"]):
        legal = [str(m) for m in pos.legal_moves()]
        if len(legal) == 1:
            assert entry is None
            forced += 1
        else:
            counts = [v for _, v in entry]
            assert sum(counts) == 30 and counts == sorted(counts, reverse=True)
            assert {m for m, _ in entry} <= set(legal) and move in {m for m, _ in entry}
        pos.push(move)
    assert 0 < forced < len(visits)


# --- the gate ---------------------------------------------------------------------------

def test_gate_accepts_weights_that_beat_the_generation_before(tmp_path):
    """A blind evaluation (every weight 0: each position even) against the shipped
    weights: the shipped ones pass the gate against it, with the SPRT's H1.  The agent is
    the linear search (the weights file is its evaluation and prior; the default search
    evaluates with the value network and reads the file's kind prior only below its root)."""
    from tne_ai.search.evaluate import WEIGHTS_FILE, save_weights
    from tne_ai.matches.train import gate
    blind = tmp_path / "blind.npz"
    save_weights(blind, np.zeros(3 * N_FEATURES), np.zeros(N_KINDS))
    accepted, match = gate(f"mcts:iterations=40,evaluation=model,prior=kinds,belief=0,"
                           f"weights={blind}", WEIGHTS_FILE, 20, elo1=100, seed=3)
    assert accepted and match.sprt.decision == "H1"
    assert {a["name"] for r in match.records for a in r["meta"]["agents"]} == {"new", "previous"}


def test_train_gate_that_cannot_decide_writes_nothing_and_exits_1(tmp_path):
    """One deal can never carry an SPRT(0, 1) to a decision (each deal moves the
    log-likelihood ratio by far less than its bound 2.94): the gate rejects, the weights
    file is not written, no temporary file is left and the exit status is 1."""
    r = tne("train", "--games", "1", "--agent", "mcts:iterations=40", "--gate", "1",
            "--gate-elo", "1", "-o", "w.npz", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert "undecided" in r.stdout
    assert r.stdout.strip().endswith("the gate did not accept the new weights: w.npz not written")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize("args,fragment", [
    (["--gate", "1", "--agent", "greedy"], "is not an mcts: spec"),
    (["--gate", "1", "--gate-elo", "0"], "--gate-elo"),
    (["--gate", "-1"], "--gate"),
    (["--gate-records", "g.jsonl"], "--gate-records needs --gate N"),
    (["--gate", "1", "--gate-records", "w.npz.jsonl"], "exists"),
])
def test_bad_gate_options_are_one_line_and_write_nothing(tmp_path, args, fragment):
    (tmp_path / "w.npz.jsonl").write_text("")         # an existing file: not overwritten
    r = tne("train", "--games", "1", *args, "-o", "w.npz", cwd=tmp_path)
    assert r.returncode == 2, r.stdout
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0]
    assert not (tmp_path / "w.npz").exists()
    assert (tmp_path / "w.npz.jsonl").read_text() == ""


def test_train_net_fits_and_writes_a_value_network_file(tmp_path):
    """tne train --net fits the value network on the games and writes a file the search
    loads (shapes, feature names and digest checked), with a held-out report that names
    the player counts fitted and compares the linear evaluation on the same positions."""
    from tne_ai.search.value import load_net
    data = ROOT / "bench" / "data" / "selfplay" / "gen0_2p.jsonl.gz"
    r = tne("train", "--net", "--games", "0", "--data", str(data), "--seed", "2", "-o", "v.npz",
            cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    arrays, digest = load_net(str(tmp_path / "v.npz"))
    assert arrays["A"].shape[0] == N_FEATURES and len(digest) == 64
    lines = r.stdout.splitlines()
    assert lines[1].startswith("value network: fitted on ")
    assert lines[2].startswith("  2 players, ") and "network" in lines[2] and "linear evaluation" in lines[2]
    assert len(lines) == 4 and lines[3] == "wrote v.npz"


def test_train_policy_fits_and_writes_a_move_policy_file(tmp_path):
    """tne train --policy fits the move policy to the self-play games' root visits and
    writes a file the search loads, with a held-out report of the policy, the kinds alone and
    the uniform policy; the same seed writes the same weights."""
    from tne_ai.search.policy import N_MOVE_FEATURES, load_policy
    written = []
    for name in ("p1.npz", "p2.npz"):
        r = tne("train", "--policy", "--games", "2", "--agent", "mcts:iterations=200", "--seed",
                "4", "-o", name, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        written.append(load_policy(str(tmp_path / name)))
        lines = r.stdout.splitlines()
        assert lines[1].startswith("policy: 16 hidden units, fitted on ")
        assert [line.split()[0] for line in lines[2:5]] == ["policy", "kinds", "uniform"]
        assert lines[-1] == f"wrote {name}"
    assert written[0][0].shape == (N_MOVE_FEATURES,)
    assert all(np.array_equal(a, b) for a, b in zip(written[0], written[1]))


def test_train_net_and_policy_together_is_one_error(tmp_path):
    r = tne("train", "--net", "--policy", "--games", "1", "-o", "w.npz", cwd=tmp_path)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "--net and --policy" in lines[0]
    assert not (tmp_path / "w.npz").exists()
