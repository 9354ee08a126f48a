"""Provenance (DESIGN, "Provenance"): the version, the commit of the checkout and the weights'
digests that records and weights files carry."""
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

from tne_ai import __version__
from tne_ai.matches.provenance import git_commit, provenance, weights_sha256
from tne_ai.search.evaluate import WEIGHTS_FILE

ROOT = Path(__file__).resolve().parent.parent


def test_commit_is_the_checkouts_head():
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout.strip()
    commit = git_commit()
    assert commit in (head, head + "+dirty")


def test_weights_digest_is_the_sha256_of_the_files_bytes(tmp_path):
    shipped = hashlib.sha256(Path(WEIGHTS_FILE).read_bytes()).hexdigest()
    assert weights_sha256() == shipped
    other = tmp_path / "w.npz"
    other.write_bytes(b"not weights, but bytes all the same")
    assert weights_sha256(other) == hashlib.sha256(b"not weights, but bytes all the same").hexdigest()
    p = provenance(weights=[None, other])
    assert p["tne_ai"] == __version__
    assert p["weights_sha256"] == {"shipped": shipped, str(other): weights_sha256(other)}


def test_a_copy_outside_a_checkout_reports_no_commit(tmp_path):
    # an installed copy inside some other repository (as a virtual environment under a
    # checkout): no commit, never the commit of the repository further up
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git + ["init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "f").write_text("x")
    subprocess.run(git + ["add", "f"], cwd=tmp_path, check=True)
    subprocess.run(git + ["commit", "-qm", "x"], cwd=tmp_path, check=True)
    site = tmp_path / "site"
    shutil.copytree(ROOT / "tne_ai", site / "tne_ai",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    out = subprocess.run([sys.executable, "-c",
                          "from tne_ai.matches.provenance import git_commit; print(git_commit())"],
                         cwd=site, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "None"


def test_records_and_reviews_carry_provenance(tmp_path):
    import json
    from tne_ai.matches.review import annotate
    from tne_ai.matches.tournament import read_records, run_tournament
    from tne_ai.search.policy import POLICY_FILE
    from tne_ai.search.value import NET_FILE
    shipped = hashlib.sha256(Path(WEIGHTS_FILE).read_bytes()).hexdigest()
    net = hashlib.sha256(Path(NET_FILE).read_bytes()).hexdigest()
    policy = hashlib.sha256(Path(POLICY_FILE).read_bytes()).hexdigest()
    out = tmp_path / "games.jsonl"
    run_tournament({"r": "random", "m": "mcts:iterations=8", "b": "mcts:iterations=8,eval=basic"},
                   tables=[("r", "m"), ("r", "b")], games=1, seed=3, out=out, max_moves=4)
    records = {tuple(a["name"] for a in rec["meta"]["agents"]): rec for _, rec in read_records(out)}
    # the default agent searched with the shipped value network, the shipped move policy (its
    # prior at the root) and the shipped weights (the move kinds' prior below the root); the
    # basic evaluation's reads the same prior's two files; random reads none
    every = {"shipped": shipped, "shipped value network": net, "shipped move policy": policy}
    prior = {"shipped": shipped, "shipped move policy": policy}
    assert records[("r", "m")]["meta"]["provenance"]["weights_sha256"] == every
    assert records[("r", "b")]["meta"]["provenance"]["weights_sha256"] == prior
    for rec in records.values():
        assert rec["meta"]["provenance"]["tne_ai"] == __version__
        assert rec["meta"]["provenance"]["commit"] == git_commit()
    reviewed = annotate(records[("r", "m")], [], {"iterations": 10})
    made_by = reviewed["meta"]["analysis"]["provenance"]
    assert made_by == {"tne_ai": __version__, "commit": git_commit(), "weights_sha256": every}
    json.dumps(reviewed)


def test_a_value_network_agent_lists_the_network_and_the_prior_weights(tmp_path):
    # evaluation=net reads the value network and the weights file's move prior: both are
    # listed, the shipped network under its own name, a given one by its path
    from tne_ai.matches.provenance import SHIPPED_NET, SHIPPED_POLICY, spec_weights
    from tne_ai.search.value import NET_FILE
    # the default prior is the move policy: its shipped file is listed after the network
    assert spec_weights(["mcts:evaluation=net"]) == [None, SHIPPED_NET, SHIPPED_POLICY]
    # the default search (the value network and the move policy) adds the shipped network
    assert spec_weights(["mcts:evaluation=net,net=v.npz", "mcts"]) == \
        [None, "v.npz", SHIPPED_POLICY, SHIPPED_NET]
    # the move policy's file where it is the prior (the kinds below its root read the
    # weights file); neither a prior nor a fitted evaluation: nothing
    assert spec_weights(["mcts:evaluation=model,prior=policy",
                         "mcts:evaluation=model,prior=policy,policy=p.npz"]) == \
        [None, SHIPPED_POLICY, "p.npz"]
    assert spec_weights(["mcts:evaluation=model,prior=kinds"]) == [None]
    assert spec_weights(["mcts:evaluation=basic,prior=none", "random"]) == []
    assert spec_weights(["mcts:evaluation=net,prior=none"]) == [SHIPPED_NET]
    assert weights_sha256(SHIPPED_NET) == hashlib.sha256(open(NET_FILE, "rb").read()).hexdigest()
