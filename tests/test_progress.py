"""Progress lines on stderr (tne_ai/progress.py) and `tne -q`."""
import io
import subprocess
import sys
from pathlib import Path

from tne_ai.progress import Progress

ROOT = Path(__file__).resolve().parents[1]


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


class Tty(io.StringIO):
    def isatty(self):
        return True


def test_a_pipe_gets_a_line_per_stage_and_then_one_every_few_seconds():
    out, clock = io.StringIO(), Clock()
    p = Progress(out, every=5.0, clock=clock)
    p.say("a", "a 1")       # a new stage: written
    clock.t = 2.0
    p.say("a", "a 2")       # 2 s later: not yet
    clock.t = 5.5
    p.say("a", "a 3")       # 5.5 s after the last line: written
    clock.t = 6.0
    p.say("a", "a 4")       # the stage's last line: written when the next stage starts
    p.say("b", "b 1")       # a new stage: written at once
    clock.t = 7.0
    p.say("b", "b 2")       # its last: written at the end
    p.end("done")
    assert out.getvalue() == "a 1\na 3\na 4\nb 1\nb 2\ndone\n"


def test_a_terminal_gets_one_line_rewritten_in_place():
    out = Tty()
    p = Progress(out, clock=Clock())
    p.say("a", "a 1")
    p.say("a", "a 2")
    p.say("b", "b 1")       # the next stage starts a new line
    p.end()
    assert out.getvalue() == "\r\x1b[Ka 1\r\x1b[Ka 2\n\r\x1b[Kb 1\n"


def test_quiet_writes_nothing():
    out = Tty()
    p = Progress(out, quiet=True)
    p.say("a", "a 1")
    p.end("done")
    assert out.getvalue() == ""


def test_train_reports_games_then_the_fit_on_stderr_and_q_silences_it(tmp_path):
    def tne(*args):
        return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True,
                              text=True, cwd=tmp_path, timeout=600)
    r = tne("train", "--games", "2", "--agent", "mcts:iterations=40", "--seed", "4",
            "--records", "a.jsonl", "-o", "a.npz")
    assert r.returncode == 0, r.stderr
    err = r.stderr.splitlines()
    # 2 deals, each in both seat rotations: 4 games, from the first finished; then the
    # positions of the 4 records; then the two fits, each from its first iteration
    assert err[0] == "tne train: self-play: 1 of 4 games (2 deals x 2 seat rotations)"
    assert "tne train: self-play: 4 of 4 games (2 deals x 2 seat rotations)" in err
    assert "tne train: reading positions: game 1 of 4" in err
    fits = [ln for ln in err if ln.startswith("tne train: fitting ")]
    assert fits[0].startswith("tne train: fitting the evaluation on ")
    assert "iteration 1 (at most 100)" in fits[0]
    assert any(ln.startswith("tne train: fitting the move-kind prior on ") for ln in fits)
    # what the count of games means, on stdout
    assert r.stdout.splitlines()[0] == ("learnt from 4 game records: 4 of self-play (2 deals, "
                                        "each played in its 2 seat rotations)")
    q = tne("-q", "train", "--games", "0", "--data", "a.jsonl", "--seed", "4", "-o", "b.npz")
    assert q.returncode == 0, q.stderr
    assert q.stderr == ""
    assert q.stdout.splitlines()[0] == "learnt from 4 game records: 4 from --data"


def test_a_cold_kernel_cache_is_compiled_first_with_a_progress_line(monkeypatch):
    # (the kernels are cached by now; the cold check is made to answer yes)
    from click.testing import CliRunner

    import cli
    monkeypatch.setattr(cli, "kernel_cache_is_cold", lambda: True)
    r = CliRunner().invoke(cli.main, ["new"])
    assert r.exit_code == 0, r.output
    err = r.stderr.splitlines()
    assert err[0] == ("tne: compiling the kernels, first run only (about "
                      f"{cli.COMPILE_ESTIMATE}): 0 s")
    assert err[-1].startswith("tne: kernels compiled in ") and err[-1].endswith(
        " s (cached: later runs start at once)")
    q = CliRunner().invoke(cli.main, ["-q", "new"])
    assert q.exit_code == 0 and q.stderr == ""
    assert q.stdout == r.stdout


def test_the_first_run_compiles_every_kernel_a_timed_game_reaches(tmp_path):
    """A command on a cold cache compiles the kernels first (cli._compile_kernels), and that
    must include those a game reaches only later: the tree reuse of the second action
    (``tree.copy_subtree``) and the exact endings' solver (``endgame.exact_ending``).  Else
    `tne engine` in a timed match compiles them on its first end-game move, seconds late,
    and forfeits the game.  A fresh interpreter with an empty numba cache."""
    import os
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, os.path.join(root, "cli.py"), "-q", "engine"],
                         input='{"type":"quit"}\n', capture_output=True, text=True, env=env,
                         cwd=str(tmp_path), timeout=900)
    assert out.returncode == 0, out.stderr
    cached = {p.name.split("-")[0] for p in tmp_path.rglob("*.nbi")}
    for kernel in ("movegen.legal_moves", "mcts.run_iterations", "tree.copy_subtree",
                   "endgame.exact_ending", "endgame.ending_applies"):
        assert kernel in cached, kernel
