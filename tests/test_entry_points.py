"""Every entry point holds: endless inputs, hostile records given to `tne analyse` and `tne
replay`, and options outside their bounds each get one line ``tne: error: ...`` and exit
status 2 (docs/cli.md, its opening and "Limits"; the bounds are tne_ai/limits.py's), never a
traceback, an unbounded read or a guessed value.
"""
import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tne_ai.cli import main
from helpers import assert_user_error
from tne_ai import limits as L

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, str(ROOT / "cli.py")]
BLUNDER = ROOT / "examples" / "planted_blunder.jsonl"
GAMES = ROOT / "examples" / "greedy_vs_mcts.jsonl"


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def first_record(path=GAMES):
    return json.loads(path.read_text().splitlines()[0])


# --- endless inputs ----------------------------------------------------------------------------

# a wrapper that runs one command and reports its CPU seconds and peak memory; the child's
# address space is capped at 4 GiB so that a reader without a limit fails instead of eating
# the machine
_MEASURE = """
import json, resource, subprocess, sys
def cap():
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
stdin = open(sys.argv[1], "rb") if sys.argv[1] != "-" else subprocess.DEVNULL
p = subprocess.run(sys.argv[2:], stdin=stdin, capture_output=True, text=True,
                   timeout=120, preexec_fn=cap)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"rc": p.returncode, "stderr": p.stderr, "stdout": p.stdout,
                  "cpu": u.ru_utime + u.ru_stime, "rss_kib": u.ru_maxrss}))
"""


def measured(*args, stdin="-"):
    out = subprocess.run([sys.executable, "-c", _MEASURE, stdin, *CLI, *map(str, args)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


ENDLESS = [
    ("show", "/dev/zero"),
    ("legal", "/dev/zero"),
    ("apply", "/dev/zero", "pass"),
    ("bestmove", "/dev/zero"),
    ("replay", "/dev/zero"),
    ("analyse", "/dev/zero"),
    ("play", "--resume", "/dev/zero"),
    ("train", "--games", "0", "--data", "/dev/zero", "-o", "{tmp}/w.npz"),
    ("bench", "--compare", "/dev/zero"),
    ("tournament", "--agent", "a=random", "--agent", "b=random", "--out", "/dev/zero",
     "--resume"),
]


@pytest.mark.parametrize("args", ENDLESS, ids=[" ".join(a[:2]) for a in ENDLESS])
def test_an_endless_input_is_refused_at_once_in_little_memory(args, tmp_path):
    got = measured(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    lines = got["stderr"].splitlines()
    assert got["rc"] == 2 and len(lines) == 1, got
    assert lines[0].startswith("tne: error: ") and "/dev/zero" in lines[0], lines
    assert "4 MiB" in lines[0], lines          # limits.MAX_JSON_BYTES, docs/cli.md "Limits"
    assert got["stdout"] == ""
    assert got["cpu"] < 2.0, got               # CPU seconds: holds under load
    assert got["rss_kib"] < 200 * 1024, got
    assert not (tmp_path / "w.npz").exists()


def test_play_on_an_endless_stdin_stops_and_saves_in_little_memory(tmp_path):
    """A piped stdin line over limits.MAX_COMMAND_BYTES ends the input: the game stops as at
    the end of input and is saved."""
    # the game itself (engine, kernels, readline) needs 170-220 MB whatever its input: the
    # endless line may add no more than its bounded buffer to what an empty input costs (the
    # empty run goes first, so anything either run compiles is cached by then)
    empty = measured("play", "--ai", "random", "--out", tmp_path / "e.json", stdin="/dev/null")
    assert empty["rc"] == 0, empty
    out = tmp_path / "g.json"
    got = measured("play", "--ai", "random", "--out", out, stdin="/dev/zero")
    assert got["rc"] == 0, got
    assert "stopped (end of input) after 0 moves" in got["stdout"]
    assert f"a line longer than {L.MAX_COMMAND_BYTES} bytes" in got["stderr"]
    assert json.loads(out.read_text())["moves"] == []
    assert got["rss_kib"] < empty["rss_kib"] + 32 * 1024, (got, empty)


def test_a_huge_position_on_stdin_is_refused():
    r = run("show", "-", input=b" " * (L.MAX_INPUT_BYTES + 1))
    assert_user_error(r, "stdin: larger than 4 MiB")


@pytest.mark.parametrize("command", ["show", "replay", "analyse"])
def test_a_directory_is_refused_naming_it(command, tmp_path):
    assert_user_error(run(command, tmp_path), f"{tmp_path}: is a directory")


# --- hostile records for analyse and replay ---------------------------------------------------

def _deep(depth):
    return '{"format":"tne-game/1","start":' + "[" * depth + "]" * depth + "}"


HOSTILE_RECORDS = {
    "nested 50,000 deep": _deep(50_000) + "\n",
    "a 5,000-digit number": json.dumps(first_record()).replace('"plies":', '"plies":'
                                                                + "9" * 5000 + ",\"x\":", 1)
    + "\n",
    "a number above 1e308": json.dumps(first_record()).replace('"plies":', '"plies":1e999,'
                                                               '"x":', 1) + "\n",
    "NaN": json.dumps(first_record()).replace('"plies":', '"plies":NaN,"x":', 1) + "\n",
}


@pytest.mark.parametrize("command", ["analyse", "replay"])
@pytest.mark.parametrize("name", list(HOSTILE_RECORDS))
def test_a_hostile_records_file_is_one_line(command, name, tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text(HOSTILE_RECORDS[name])
    extra = ["--iterations", "1"] if command == "analyse" else []
    assert_user_error(run(command, path, *extra), str(path))


WRONG_META = [
    ("agents", 5, "meta.agents"),
    ("agents", [1, 2], "meta.agents"),
    ("game_id", ["x"], "meta.game_id"),
    ("truncated", "yes", "meta.truncated"),
    ("analysis", {"moves": [{"ply": 0, "player": 0, "move": 5}]}, "meta.analysis.moves[0].move"),
    ("analysis", {"moves": [{"ply": 0, "player": 0, "move": "pass", "best": "pass",
                             "best_win": "high", "played_win": None}]},
     "meta.analysis.moves[0].best_win"),
    ("analysis", 3, "meta.analysis"),
    ("forfeit", {"seat": 9}, "meta.forfeit"),
]


@pytest.mark.parametrize("command", ["replay", "analyse"])
@pytest.mark.parametrize("key,value,field", WRONG_META, ids=[f"{k}={v!r}"[:40]
                                                             for k, v, _ in WRONG_META])
def test_a_meta_field_of_the_wrong_type_is_one_line(command, key, value, field, tmp_path):
    record = first_record()
    record["meta"][key] = value
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(record) + "\n")
    extra = ["--iterations", "1"] if command == "analyse" else ["--ply", "1"]
    assert_user_error(run(command, path, *extra), field)


def test_a_pretty_printed_record_nested_deeply_is_one_line(tmp_path):
    path = tmp_path / "r.json"
    path.write_text("{\n" + '"a":' + "[" * 100_000 + "\n}")
    assert_user_error(run("replay", path), str(path), "nested more than 32 deep")


# --- options ----------------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["analyse", "train"])
@pytest.mark.parametrize("seed", ["1_0", "-1", str(2 ** 63), "٣", "1e3"])
def test_a_seed_outside_0_to_2_63_or_not_ascii_is_refused(command, seed, tmp_path):
    args = [BLUNDER, "--iterations", "1"] if command == "analyse" else \
        ["--games", "0", "--data", BLUNDER, "-o", tmp_path / "w.npz"]
    assert_user_error(run(command, *args, "--seed", seed), "--seed")
    assert not (tmp_path / "w.npz").exists()


@pytest.mark.parametrize("option,value", [("--iterations", L.MAX_ITERATIONS + 1),
                                          ("--iterations", "1_0"),
                                          ("--jobs", L.MAX_JOBS + 1), ("--jobs", 256),
                                          ("--time", "1e308"), ("--time", "nan")])
def test_analyse_budgets_have_the_bounds_of_limits(option, value):
    assert_user_error(run("analyse", BLUNDER, option, value), option)


@pytest.mark.parametrize("option,value", [("--jobs", L.MAX_JOBS + 1), ("--games", "1_0"),
                                          ("--every", "1_0"), ("--holdout", "nan"),
                                          ("--holdout", "1e400"), ("--players", "٣")])
def test_train_options_have_the_bounds_of_limits(option, value, tmp_path):
    assert_user_error(run("train", "--data", BLUNDER, "--games", "0", option, value,
                          "-o", tmp_path / "w.npz"), option)
    assert not (tmp_path / "w.npz").exists()


@pytest.mark.parametrize("sprt", ["-1e308,1e308", "-1e400,5", "0,1e999", "nan,5", "0,5,6",
                                  "1_0,20", f"0,{L.MAX_SPRT_ELO + 1:g}"])
def test_sprt_elos_are_bounded(sprt, tmp_path):
    assert_user_error(run("tournament", "--agent", "a=random", "--agent", "b=random",
                          "--sprt", sprt, "--out", tmp_path / "t.jsonl"), "--sprt")
    assert not (tmp_path / "t.jsonl").exists()


# --- weights files ------------------------------------------------------------------------------

def _weights_files(tmp_path):
    import numpy as np
    plain = tmp_path / "plain.npy"
    np.save(plain, np.zeros(3))
    zero_d = tmp_path / "zero_d.npz"
    np.savez(zero_d, weights=np.zeros(3), features=np.array("x"), prior=np.zeros(2),
             kinds=np.array(["a", "b"]))
    strings = tmp_path / "strings.npz"
    np.savez(strings, weights=np.array(["a"]), features=np.array(["x"]), prior=np.zeros(2),
             kinds=np.array(["a", "b"]))
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"PK\x03\x04 not a zip")
    return {"plain .npy": (plain, "a single array"), "0-d features": (zero_d, "0-d"),
            "string weights": (strings, "numbers"), "broken zip": (broken, "not a weights")}


@pytest.mark.parametrize("kind", ["plain .npy", "0-d features", "string weights", "broken zip"])
def test_a_weights_file_that_is_not_one_is_one_line(kind, tmp_path):
    path, words = _weights_files(tmp_path)[kind]
    assert_user_error(run("play", "--ai", f"mcts:weights={path}", "--out", tmp_path / "g.json",
                          input="quit\n"), str(path), words)
    assert_user_error(run("tournament", "--agent", f"a=mcts:weights={path}", "--agent",
                          "b=random", "--out", tmp_path / "t.jsonl"), str(path), words)
    assert not (tmp_path / "g.json").exists() and not (tmp_path / "t.jsonl").exists()


# --- paths: checked before any work -------------------------------------------------------------

START = ROOT / "examples" / "start.json"
# each command would work for hours before writing its file: a refusal that comes at all
# within the subprocess timeout came before the work
LONG = {
    "--svg": ["bestmove", START, "--iterations", L.MAX_ITERATIONS, "--svg"],
    "--output": ["analyse", BLUNDER, "--iterations", L.MAX_ITERATIONS, "-o"],
    "--plot": ["analyse", BLUNDER, "--iterations", L.MAX_ITERATIONS, "--plot"],
    "--records": ["train", "--games", "1000", "--agent", "mcts:iterations=1000000", "-o",
                  "{tmp}/w.npz", "--records"],
    "--out": ["train", "--games", "1000", "--agent", "mcts:iterations=1000000", "-o"],
    "--save": ["bench", "--save"],
}
BAD_PATHS = {
    "a directory": ("{tmp}", "is a directory"),
    "a missing directory": ("{tmp}/no/such/f.svg", "no such directory"),
    "a name part over 255 bytes": ("{tmp}/" + "x" * 300 + ".svg", "at most 255"),
    "an empty name": ("", "the file name is empty"),
    "under /proc": ("/proc/tne-test/f.svg", "cannot write"),
}


@pytest.mark.parametrize("option", list(LONG))
@pytest.mark.parametrize("bad", list(BAD_PATHS))
def test_a_bad_output_path_is_refused_before_any_work(option, bad, tmp_path):
    path, words = BAD_PATHS[bad]
    path = path.replace("{tmp}", str(tmp_path))
    if option == "--plot" and path:
        path = path if path.endswith(".svg") or bad == "a directory" else path + ".svg"
    args = [str(a).replace("{tmp}", str(tmp_path)) for a in LONG[option]] + [path]
    out = subprocess.run(CLI + args, capture_output=True, text=True, timeout=120,
                         stdin=subprocess.DEVNULL)
    lines = out.stderr.splitlines()
    assert out.returncode == 2 and len(lines) == 1, out.stderr[-2000:]
    assert lines[0].startswith(f"tne: error: {option}") and words in lines[0], lines
    assert out.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize("args,option", [
    (["train", "--games", "0", "-o", "{tmp}/w.npz", "--data"], "--data"),
    (["bench", "--compare"], "--compare"),
    (["play", "--resume"], "--resume"),
])
@pytest.mark.parametrize("bad", ["missing", "directory"])
def test_a_bad_input_path_is_refused_naming_the_option(args, option, bad, tmp_path):
    path = tmp_path / "none.json" if bad == "missing" else tmp_path
    args = [a.replace("{tmp}", str(tmp_path)) for a in args] + [path]
    out = subprocess.run(CLI + args, capture_output=True, text=True, timeout=120,
                         stdin=subprocess.DEVNULL)
    lines = out.stderr.splitlines()
    assert out.returncode == 2 and len(lines) == 1, out.stderr[-2000:]
    assert lines[0].startswith(f"tne: error: {option}"), lines
    assert ("cannot read" if bad == "missing" else "is a directory") in lines[0]


# --- squares are ASCII; engine spec numbers are bounded ------------------------------------------

@pytest.mark.parametrize("square", ["ı7", "İ7", "K１", "\u2003F4", "ｆ4"])
def test_a_square_that_is_not_ascii_is_refused(square, tmp_path):
    from tne_ai.errors import PositionError
    from tne_ai.position import Position
    doc = json.loads(START.read_text())
    doc["treasures"] = [square if s == "I7" else s for s in doc["treasures"]]
    with pytest.raises(PositionError, match=r"^treasures"):
        Position.from_json(doc)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert_user_error(run("show", path), "treasures")


@pytest.mark.parametrize("option", ["seed=-1", f"seed={2 ** 63}", "iterations=1_0",
                                    f"iterations={L.MAX_ITERATIONS + 1}", "threads=65",
                                    "time=inf", "timeout=nan", "startup=1e999", "time=²"])
def test_engine_spec_numbers_are_bounded_ascii(option):
    from tne_ai.agents.builtin import AgentSpecError, make_agent
    with pytest.raises(AgentSpecError, match=option.partition("=")[0]):
        make_agent(f"engine[{option}]:python3 engine.py")


# --- what the engine writes loads again ----------------------------------------------------------

@pytest.mark.parametrize("before,after", [(L.MAX_SCORE, L.MAX_SCORE),
                                          (L.MAX_SCORE - 1, L.MAX_SCORE),
                                          (L.MAX_SCORE - 2, L.MAX_SCORE - 1)])
def test_a_score_at_the_bound_stays_there_and_the_successor_loads(before, after, tmp_path):
    """start.json: player 0 sets his red leader on F4 next to the temple F3, then a red tile
    on G3 joins that kingdom: 1 red point for him (SPEC section 3, tile placement).  From a
    red score at the loader's bound the point is not counted past it (limits.MAX_SCORE)."""
    doc = json.loads(START.read_text())
    doc["scores"][0]["red"] = before
    src = tmp_path / "p.json"
    src.write_text(json.dumps(doc))
    out = tmp_path / "o.json"
    made = run("apply", src, "leader red F4", "tile red G3", "-o", out)
    assert made.exit_code == 0, made.output
    assert json.loads(out.read_text())["scores"][0]["red"] == after
    assert run("legal", out).exit_code == 0
