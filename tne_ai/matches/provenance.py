"""What made a result: the package version, the git commit of the checkout it ran from, and the
SHA-256 of the weights files a search used.

Match and tournament records, ``tne analyse`` output and weights files carry these fields
(DESIGN, "Provenance"), so a record says which code and weights played it.  The commit is read
only when the package runs from a git checkout of this repository (its parent folder holds
``.git``); an installed copy reports ``null`` rather than the commit of whatever repository
happens to contain its site-packages.
"""
import functools
import hashlib
import os
import subprocess

from tne_ai import __version__

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@functools.lru_cache(maxsize=1)
def git_commit():
    """The full commit hash of the checkout the package runs from, with ``+dirty`` when the
    tracked files differ from it; None when not run from a checkout (or git is missing)."""
    if not os.path.exists(os.path.join(ROOT, ".git")):
        return None
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=ROOT, capture_output=True, text=True, check=True,
                               timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return (head + "+dirty" if dirty else head) or None


@functools.lru_cache(maxsize=64)
def _digest(path, size, mtime):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def file_sha256(path):
    """The SHA-256 (hex) of a file's bytes."""
    st = os.stat(path)
    return _digest(os.path.abspath(path), st.st_size, st.st_mtime_ns)


# how records name the shipped value network (search/weights/value.npz) among weights files
SHIPPED_NET = "shipped value network"
SHIPPED_POLICY = "shipped move policy"


def weights_sha256(path=None):
    """The SHA-256 of a weights file; of the shipped one when ``path`` is None, of the shipped
    value network when it is ``SHIPPED_NET``, of the shipped policy when ``SHIPPED_POLICY``."""
    if path is None:
        from tne_ai.search.evaluate import WEIGHTS_FILE
        path = WEIGHTS_FILE
    elif path == SHIPPED_NET:
        from tne_ai.search.value import NET_FILE
        path = NET_FILE
    elif path == SHIPPED_POLICY:
        from tne_ai.search.policy import POLICY_FILE
        path = POLICY_FILE
    return file_sha256(path)


def provenance(weights=()):
    """``{"tne_ai": version, "commit": hash or None, "weights_sha256": {...}}``; ``weights``
    names the weights files used (None for the shipped file), each listed by its digest."""
    out = {"tne_ai": __version__, "commit": git_commit()}
    digests = {}
    for path in weights:
        digests["shipped" if path is None else str(path)] = weights_sha256(path)
    if digests:
        out["weights_sha256"] = digests
    return out


def spec_weights(specs):
    """The weights files the ``mcts`` agents among agent ``specs`` search with (None for the
    shipped file, ``SHIPPED_NET`` for the shipped value network, ``SHIPPED_POLICY`` for the
    shipped move policy), once each in order: the weights file where the fitted evaluation
    or the move kinds' prior reads it (the kinds order the nodes below the policy's root too,
    whatever the evaluation), the value network and the move policy where they are asked
    for; an agent with neither a fitted evaluation nor a prior adds nothing."""
    from tne_ai.search.config import SearchConfig
    out = []
    for spec in specs:
        text = str(spec).strip()
        if text.partition(":")[0].strip().lower() != "mcts":
            continue
        cfg = SearchConfig.from_spec(text)
        if (cfg.evaluation == "model" or cfg.prior in ("kinds", "policy")) and cfg.weights not in out:
            out.append(cfg.weights)
        net = SHIPPED_NET if cfg.net is None else cfg.net
        if cfg.evaluation == "net" and net not in out:
            out.append(net)
        policy = SHIPPED_POLICY if cfg.policy is None else cfg.policy
        if cfg.prior == "policy" and policy not in out:
            out.append(policy)
    return out
