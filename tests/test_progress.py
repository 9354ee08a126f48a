"""Progress lines on stderr (tne_ai/matches/progress.py) and `tne -q`."""
import io
import json
import subprocess
import sys
from pathlib import Path

from tne_ai.matches.progress import Progress

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


def test_on_a_pipe_end_writes_the_stages_last_line_held_back():
    out, clock = io.StringIO(), Clock()
    p = Progress(out, every=5.0, clock=clock)
    p.say("moves", "0 of 4")    # the stage's first line: at once
    clock.t = 1.0
    p.say("moves", "3 of 4")    # within 5 s: held back, then replaced by the next
    p.say("moves", "4 of 4")    # the last: held back until the stage ends
    assert out.getvalue() == "0 of 4\n"
    p.end()
    assert out.getvalue() == "0 of 4\n4 of 4\n"
    p.end()                     # nothing left to write
    assert out.getvalue() == "0 of 4\n4 of 4\n"


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

    from tne_ai.cli import main
    from tne_ai.search import warmup
    monkeypatch.setattr(warmup, "kernel_cache_is_cold", lambda group="all": True)
    r = CliRunner().invoke(main, ["new"])
    assert r.exit_code == 0, r.output
    err = r.stderr.splitlines()
    # the estimate is the first run's figure measured in bench/README.md
    assert err[0] == ("tne: compiling the kernels, first run only (about "
                      "20 s, 40 s on a busy machine): 0 s")
    assert warmup.COMPILE_ESTIMATE == "20 s, 40 s on a busy machine"
    assert err[-1].startswith("tne: kernels compiled in ") and err[-1].endswith(
        " s (cached: later runs start at once)")
    q = CliRunner().invoke(main, ["-q", "new"])
    assert q.exit_code == 0 and q.stderr == ""
    assert q.stdout == r.stdout


def test_the_first_run_compiles_every_kernel_a_timed_game_reaches(tmp_path):
    """A command on a cold cache compiles the kernels first (tne_ai.cli.base.compile_kernels),
    and that must include those a game reaches only later: the tree reuse of the second
    action, the exact endings' solver, the checks of a position in each phase.  Else `tne
    engine` in a timed match compiles one on a later move, seconds late, and forfeits the
    game.  A fresh
    numba cache: `tne engine` starts on it (and compiles), then a second engine process is
    given every position of a random game (seed 7, not one of the warm-up's) as the mover
    sees it, with a search of each; it must compile nothing more."""
    import os
    import random
    import subprocess
    import sys
    from tne_ai.core.formats import position_to_dict
    from tne_ai.position import Position
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))

    def engine(lines):
        """Each line to a fresh `tne engine`, waiting for the bestmove after each go;
        returns the bestmoves."""
        proc = subprocess.Popen([sys.executable, os.path.join(root, "cli.py"), "-q", "engine"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
                                cwd=str(tmp_path))
        best = []
        try:
            for x in lines:
                proc.stdin.write(json.dumps(x) + "\n")
                proc.stdin.flush()
                while x["type"] == "go":
                    reply = json.loads(proc.stdout.readline())
                    assert reply["type"] != "error", reply
                    if reply["type"] == "bestmove":
                        best.append(reply)
                        break
            proc.stdin.write('{"type":"quit"}\n')
            proc.stdin.flush()
            assert proc.wait(timeout=900) == 0
        finally:
            proc.kill()
        return best

    def cached():
        return {p.name for p in (tmp_path / "cache").rglob("*.nbi")}

    engine([])
    warm = cached()
    names = {n.split("-")[0] for n in warm}
    for kernel in ("movegen.legal_moves", "mcts.run_iterations", "tree.copy_subtree",
                   "endgame.exact_ending", "apply.treasure_taker", "kingdoms.kingdom_clash"):
        assert kernel in names, kernel
    pos, pick, lines, kinds = Position.new(2, seed=7), random.Random(7), [], set()
    while not pos.is_over():
        view = position_to_dict(pos.st, [p == pos.to_act for p in range(2)], False)
        kinds.add((view["pending"] or {}).get("kind"))
        lines += [{"type": "position", "position": view}, {"type": "go", "iterations": 30}]
        pos.push(pick.choice(pos.legal_codes()))
    assert {None, "revolt", "war", "treasure", "monument"} <= kinds   # the phases it passes
    assert len(engine(lines)) == len(lines) // 2
    assert cached() == warm


def _piped(tmp_path, *args):
    """A command with stderr on a pipe (not a terminal): (its lines on stderr, stdout)."""
    r = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True,
                       text=True, cwd=tmp_path, timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stderr.splitlines(), r.stdout


def test_a_tournament_on_a_pipe_ends_with_the_final_count(tmp_path):
    # 2 deals, each in both seat rotations: 4 games, counted from the first finished; the
    # last line is the final count, however fast the games were
    err, _ = _piped(tmp_path, "tournament", "--agent", "a=random", "--agent", "b=random",
                    "--games", "2", "--seed", "1")
    lines = [ln for ln in err if ln.startswith("tne tournament:")]
    assert lines[0] == "tne tournament: 1 of 4 games"
    assert lines[-1] == "tne tournament: 4 of 4 games"


def test_an_analysis_on_a_pipe_ends_with_the_final_count(tmp_path):
    # the planted blunder's record has 4 moves: counted from 0, the last line says all 4
    err, out = _piped(tmp_path, "analyse", str(ROOT / "examples" / "planted_blunder.jsonl"),
                      "--iterations", "300")
    lines = [ln for ln in err if ln.startswith("tne analyse:")]
    assert lines[0] == "tne analyse: 0 of 4 moves reviewed"
    assert lines[-1] == "tne analyse: 4 of 4 moves reviewed"
    assert out.startswith("game planted-blunder: 4 moves, 300 iterations a move")


def test_train_on_a_pipe_shows_each_stages_first_and_last_line(tmp_path):
    """Every stage of a training (the records read, each fit) shows on a pipe its first and
    its last line: the lines the library reports first and last for the stage (each fit
    reports its iterations, as many as it takes), in order, at most a few between."""
    from tne_ai.matches.tournament import read_records
    from tne_ai.matches.train import train
    data = str(ROOT / "examples" / "greedy_vs_mcts.jsonl")
    said = []
    train([r for _, r in read_records(data)], progress=lambda stage, text: said.append(
        (stage, text)))
    stages = list(dict.fromkeys(stage for stage, _ in said))
    assert stages == ["read", "fit-eval", "fit-counts", "fit-prior"]
    err, _ = _piped(tmp_path, "train", "--games", "0", "--data", data, "-o", "w.npz")
    lines = [ln for ln in err if ln.startswith("tne train:")]
    # the file holds 2 game records
    assert lines[0] == "tne train: reading positions: game 1 of 2"
    assert lines[1] == "tne train: reading positions: game 2 of 2"
    texts = [text for _, text in said]
    assert all(ln in texts for ln in lines)
    assert [texts.index(ln) for ln in lines] == sorted(texts.index(ln) for ln in lines)
    for stage in stages:
        mine = [text for s, text in said if s == stage]
        assert mine[0] in lines and mine[-1] in lines, stage
