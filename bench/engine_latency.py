"""`go` latency of a warm `tne engine` against a fresh `tne bestmove` process.

Warm: one `tne engine` process; after its hello, each of RUNS positions (a new game, then
random moves) is sent and the time from writing `go iterations=N` to reading `bestmove` is
measured (with the default pv option: the search of N iterations plus the follow-up search of
N/4 that plans the second action).  Fresh: the wall time of `tne bestmove POSITION
--iterations N` as a new process (Python start, imports, loading the cached kernels, the
search), FRESH_RUNS times.  Prints medians and ranges; results go in bench/README.md.

    python bench/engine_latency.py [--iterations 1000] [--runs 30] [--fresh-runs 5]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tne_ai.agents.builtin import make_agent  # noqa: E402
from tne_ai.core.formats import position_to_dict  # noqa: E402
from tne_ai.position import Position  # noqa: E402


def positions(count):
    out = []
    for i in range(count):
        p = Position.new(2, seed=100 + i)
        rnd = make_agent("random", seed=i)
        for _ in range(2 * i % 40):
            if p.is_over():
                break
            p.push(rnd.choose(p))
        me = p.to_act
        out.append(position_to_dict(p.st, [k == me for k in range(p.players)], False))
    return out


def warm(iterations, runs, pv):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "engine"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, bufsize=1, env=env)

    def send(msg):
        proc.stdin.write(json.dumps(msg) + "\n")
        proc.stdin.flush()

    def until(kind):
        while True:
            msg = json.loads(proc.stdout.readline())
            if msg["type"] == kind:
                return msg

    send({"type": "hello"})
    until("hello")
    send({"type": "setoption", "name": "pv", "value": pv})
    times = []
    for view in positions(runs + 1):
        send({"type": "position", "position": view})
        t0 = time.perf_counter()
        send({"type": "go", "iterations": iterations})
        until("bestmove")
        times.append(time.perf_counter() - t0)
    send({"type": "quit"})
    proc.wait()
    return times[1:]  # the first go after hello is counted like the others but dropped


def fresh(iterations, runs):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    view = positions(1)[0]
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "pos.json"
        path.write_text(json.dumps(view))
        for _ in range(runs):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, str(ROOT / "cli.py"), "bestmove", str(path),
                            "--iterations", str(iterations)], check=True, capture_output=True,
                           env=env)
            times.append(time.perf_counter() - t0)
    return times


def show(name, times):
    ms = [1000 * t for t in times]
    print(f"{name:<34} median {statistics.median(ms):8.1f} ms   min {min(ms):8.1f}   "
          f"max {max(ms):8.1f}   ({len(ms)} runs)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--fresh-runs", type=int, default=5)
    a = ap.parse_args()
    show(f"warm go iterations={a.iterations} (pv)", warm(a.iterations, a.runs, True))
    show(f"warm go iterations={a.iterations} (no pv)", warm(a.iterations, a.runs, False))
    show(f"fresh tne bestmove --iterations {a.iterations}", fresh(a.iterations, a.fresh_runs))


if __name__ == "__main__":
    main()
