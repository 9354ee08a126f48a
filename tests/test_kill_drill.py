"""A tournament killed hard leaves nothing behind, and --resume finishes it exactly.

`tne tournament --jobs 2` runs its games in worker processes (and multiprocessing's resource
tracker).  SIGKILL gives the parent no chance to stop them, so they must die with it
(tournament.py asks the kernel for that), and the records file then holds whole games only,
save perhaps a last line cut mid-write, which --resume drops and plays again.  Everything here
waits for what it needs (a record on disk, the workers started) with generous deadlines, so it
holds under CPU load; nothing is timed.
"""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, str(ROOT / "cli.py")]
AGENTS = ["--agent", "a=greedy", "--agent", "b=greedy:seed=5", "--games", "30", "--seed", "4"]
TIMING = ("seconds_per_move",)


def children(pid):
    """The pids whose parent is pid (from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
    return out


def alive(pid):
    """Whether pid is a process that still runs (a zombie waiting for its reaper is dead)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_for(condition, seconds=120.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def records(path):
    out = {}
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        for key in TIMING:
            rec["meta"].pop(key)
        out[rec["meta"]["game_id"]] = rec
    return out


def test_sigkill_leaves_no_process_and_resume_matches_an_uninterrupted_run(tmp_path):
    out = tmp_path / "killed.jsonl"
    proc = subprocess.Popen(CLI + ["tournament", *AGENTS, "--jobs", "2", "--out", str(out)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        # the workers are up and at least one game is on disk
        wait_for(lambda: len(children(proc.pid)) >= 3)   # 2 workers + the resource tracker
        wait_for(lambda: out.exists() and out.read_text().count("\n") >= 1)
        spawned = children(proc.pid)
        assert proc.poll() is None      # still playing: 60 games, one or a few done
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        wait_for(lambda: not any(alive(p) for p in spawned), seconds=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    done_before = out.read_text().count("\n")
    assert 1 <= done_before < 60

    resumed = subprocess.run(CLI + ["tournament", *AGENTS, "--jobs", "2", "--out", str(out),
                                    "--resume"], capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    fresh = tmp_path / "fresh.jsonl"
    whole = subprocess.run(CLI + ["tournament", *AGENTS, "--out", str(fresh)],
                           capture_output=True, text=True, timeout=600)
    assert whole.returncode == 0, whole.stderr
    got, want = records(out), records(fresh)
    assert len(want) == 60          # 30 deals x 2 rotations
    assert got == want


def test_resume_drops_a_last_line_cut_by_a_crash(tmp_path):
    out = tmp_path / "cut.jsonl"
    args = ["tournament", "--agent", "a=random", "--agent", "b=random", "--games", "3",
            "--out", str(out)]
    first = subprocess.run(CLI + args, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    whole = out.read_text()
    lines = whole.splitlines(keepends=True)
    assert len(lines) == 6
    # a crash while writing the fifth record: four whole lines and half of the fifth
    out.write_text("".join(lines[:4]) + lines[4][:len(lines[4]) // 2])
    again = subprocess.run(CLI + args + ["--resume"], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    notes = [line for line in again.stderr.splitlines() if line.startswith("tne: note:")]
    assert len(notes) == 1 and "line 5" in notes[0] and "dropped" in notes[0]
    strip = [{**json.loads(x), "meta": {k: v for k, v in json.loads(x)["meta"].items()
                                        if k not in TIMING}} for x in out.read_text().splitlines()]
    want = [{**json.loads(x), "meta": {k: v for k, v in json.loads(x)["meta"].items()
                                       if k not in TIMING}} for x in lines]
    assert sorted(strip, key=lambda r: r["meta"]["game_id"]) == \
        sorted(want, key=lambda r: r["meta"]["game_id"])


# --- every command with --jobs: no worker outlives a SIGKILL of its parent --------------------

GAMES = ROOT / "examples" / "greedy_vs_mcts.jsonl"
JOBS_COMMANDS = {
    # each runs long enough (many searches or games) to be killed while its workers work
    "tournament": ["tournament", "--agent", "a=mcts:iterations=3000", "--agent", "b=greedy",
                   "--games", "50", "--jobs", "2"],
    "analyse": ["analyse", str(GAMES), "--iterations", "3000", "--jobs", "2"],
    "train": ["train", "--games", "50", "--agent", "mcts:iterations=3000", "--jobs", "2",
              "-o", "{tmp}/w.npz"],
}


def working(pid):
    """Whether process pid has loaded the engine (llvmlite is mapped): it runs tasks."""
    try:
        return "llvmlite" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def test_sigkill_leaves_no_worker_of_any_jobs_command(tmp_path):
    """SIGKILL of the parent: 2 s later (the acceptance bound) none of its workers runs."""
    for name, args in JOBS_COMMANDS.items():
        args = [a.replace("{tmp}", str(tmp_path)) for a in args]
        proc = subprocess.Popen(CLI + args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, cwd=tmp_path)
        spawned = []
        try:
            wait_for(lambda: len(children(proc.pid)) >= 3)  # 2 workers + the resource tracker
            spawned = children(proc.pid)
            # both workers at work: the engine (numba's llvmlite) is loaded in each
            wait_for(lambda: sum(working(p) for p in spawned) >= 2, seconds=300)
            assert proc.poll() is None, name
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=60)
            time.sleep(2.0)
            left = [p for p in spawned if alive(p)]
            assert left == [], (name, left)
        finally:
            if proc.poll() is None:
                proc.kill()
            for p in spawned:
                if alive(p):    # a failed drill: end the orphans it found, by their pids
                    os.kill(p, signal.SIGKILL)
