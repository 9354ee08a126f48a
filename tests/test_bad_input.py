"""Bad input, one case at a time: each is refused with one clear error (a TneError in the
API; on the command line one stderr line ``tne: error: ...``, exit status 2, nothing written),
never a traceback, an overflow or an unbounded run.  The bounds are tne_ai/limits.py's
(docs/cli.md, "Limits"); the notation is SPEC section 8's (ASCII letters and digits).
"""
import json
import math
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from tne_ai.cli import main
from tne_ai.search.warmup import kernel_cache_is_cold
from helpers import assert_user_error
from tne_ai import limits as L
from tne_ai.agents.builtin import AgentSpecError, make_agent
from tne_ai.errors import NotationError, PositionError, TneError
from tne_ai.core.formats import load_game_record
from tne_ai.position import Position
from tne_ai.matches.tournament import TournamentError, run_tournament

ROOT = Path(__file__).resolve().parent.parent
START = ROOT / "examples" / "start.json"
HUGE = "99999999999999999999"      # 10^20 - 1: above every count and budget


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def start_doc():
    return json.loads(START.read_text())


def write(tmp_path, text, name="p.json"):
    path = tmp_path / name
    path.write_text(text if isinstance(text, str) else json.dumps(text), encoding="utf-8")
    return path


# --- 1. counts and budgets have bounds ---------------------------------------------------------

def test_huge_game_count_is_refused_at_once(tmp_path):
    out = tmp_path / "t.jsonl"
    assert_user_error(run("tournament", "--agent", "a=random", "--agent", "b=random",
                          "--games", HUGE, "--out", out),
                      f"--games: {HUGE} is not in the range 1..{L.MAX_DEALS}")
    assert not out.exists()
    with pytest.raises(TournamentError, match="games"):
        run_tournament({"a": "random", "b": "random"}, games=10 ** 20)


def test_huge_iteration_budgets_are_refused():
    assert_user_error(run("bestmove", START, "--iterations", HUGE),
                      f"--iterations: option iterations={HUGE} is out of range (1 <= x <= {L.MAX_ITERATIONS})")
    with pytest.raises(AgentSpecError, match="out of range"):
        make_agent(f"mcts:iterations={HUGE}")
    assert_user_error(run("tournament", "--agent", f"a=mcts:iterations={HUGE}", "--agent",
                          "b=random"), "iterations", "out of range")


def test_a_schedule_of_too_many_games_is_refused():
    # 30 agents at 4-player tables: C(30, 4) = 27,405 tables x 4 rotations x 10 deals
    agents = {f"a{i}": "random" for i in range(30)}
    with pytest.raises(TournamentError, match="make 1096200 games, at most 1000000"):
        run_tournament(agents, players=4, games=10)


# --- 2. integer fields are bounded by what the game can reach ----------------------------------

@pytest.mark.parametrize("value", [2 ** 63 - 1, 2 ** 63, 10 ** 30, L.MAX_SCORE + 1, -1])
def test_a_score_beyond_the_bound_is_refused(value):
    d = start_doc()
    d["scores"][0]["red"] = value
    with pytest.raises(PositionError, match=r"^scores\[0\]\.red: .* out of range "
                                            rf"\(0 to {L.MAX_SCORE}\)"):
        Position.from_json(d)


def test_a_score_at_the_bound_plays_on_and_saves_a_loadable_file(tmp_path):
    d = start_doc()
    d["scores"][0]["red"] = L.MAX_SCORE
    src = write(tmp_path, d)
    out = tmp_path / "o.json"
    result = run("apply", src, "pass", "pass", "-o", out)
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["scores"][0]["red"] == L.MAX_SCORE
    assert run("legal", out).exit_code == 0


def test_treasures_taken_are_at_most_ten():
    d = start_doc()
    d["treasures"] = []
    d["scores"][0]["treasure"] = 11
    with pytest.raises(PositionError, match=r"^scores\[0\]\.treasure: 11 is out of range "
                                            r"\(0 to 10\)"):
        Position.from_json(d)


# --- 3. deep nesting, huge literals, bytes -----------------------------------------------------

def test_deeply_nested_json_is_refused(tmp_path):
    text = "[" * 1000 + "]" * 1000
    with pytest.raises(PositionError, match="nested more than"):
        Position.from_json(text)
    assert_user_error(run("legal", write(tmp_path, text)), "nested more than")
    d = start_doc()
    d["pending"] = json.loads("[" * 900 + "]" * 900)
    with pytest.raises(PositionError, match="nested more than"):
        Position.from_json(d)
    assert_user_error(run("legal", write(tmp_path, json.dumps(d))), "nested more than")
    deep = {"pending": None}
    for _ in range(5000):     # built by hand: deeper than json or repr can go
        deep = {"pending": deep}
    with pytest.raises(PositionError, match="nested more than"):
        Position.from_json(deep)


def test_integer_literals_over_4300_digits_are_refused(tmp_path):
    text = START.read_text().replace('"turn": 0', '"turn": ' + "7" * 5000)
    with pytest.raises(PositionError, match="an integer of 5000 digits"):
        Position.from_json(text)
    assert_user_error(run("legal", write(tmp_path, text)), "an integer of 5000 digits")
    assert_user_error(run("legal", START, "commit " + "0" * 5000), "is not a tile count")


def test_invalid_utf8_and_utf16_are_refused_alike(tmp_path):
    with pytest.raises(PositionError, match="not UTF-8"):
        Position.from_json(b"\xff")
    utf16 = START.read_text().encode("utf-16")
    with pytest.raises(PositionError, match="not UTF-8"):
        Position.from_json(utf16)
    path = tmp_path / "p16.json"
    path.write_bytes(utf16)
    assert_user_error(run("legal", path), "not UTF-8")
    assert Position.from_json(START.read_bytes()) == Position.from_json(START.read_text())


def test_a_huge_integer_in_a_python_object_is_named_not_printed():
    d = start_doc()
    d["turn"] = 10 ** 5000      # str() of it would raise
    with pytest.raises(PositionError, match=r"^turn: an integer of about 5001 digits"):
        Position.from_json(d)


# --- 4. ASCII digits only ------------------------------------------------------------------------

@pytest.mark.parametrize("move", ["tile red A²", "commit ²", "commit ٠", "tile red A01",
                                  "leader red B٢", "commit 1_0"])
def test_moves_take_ascii_digits_only(move):
    with pytest.raises(NotationError):
        Position.from_json(START.read_text()).push(move)
    assert_user_error(run("legal", START, move))


def test_files_take_ascii_squares_only():
    for square in ("K¹", "K01", "Ｋ1"):
        d = start_doc()
        d["treasures"][0] = square
        with pytest.raises(PositionError, match=r"^treasures\[0\]: .* is not a square"):
            Position.from_json(d)


def test_options_take_ascii_digits_only():
    assert_user_error(run("new", "--players", "٣"), "--players: '٣' is not an integer")
    assert_user_error(run("new", "--seed", "1_0"), "--seed: '1_0' is not an integer")


# --- 5. seeds, seconds and agent options ---------------------------------------------------------

def test_negative_seeds_are_refused():
    assert_user_error(run("new", "--seed", -1), f"--seed: -1 is not in the range 0..{L.MAX_SEED}")
    assert_user_error(run("play", "--seed", -1), "--seed: -1 is not in the range")
    with pytest.raises(TneError, match="seed"):
        Position.new(2, seed=-1)


@pytest.mark.parametrize("seconds", ["inf", "nan", "-1", "0", "1e400", "3601"])
def test_seconds_must_be_finite_and_bounded(seconds):
    assert_user_error(run("bestmove", START, "--time", seconds), "--time:")


@pytest.mark.parametrize("spec", ["mcts:time=inf", "mcts:time=nan", "mcts:c=nan", "mcts:c=inf",
                                  "mcts:leader=nan", "mcts:leader=inf", "mcts:threads=65",
                                  "mcts:seed=-1", "random:seed=٣"])
def test_agent_options_must_be_finite_ascii_and_bounded(spec):
    with pytest.raises(AgentSpecError, match=r"option .* (is not a valid|is out of range)"):
        make_agent(spec)


# --- 6. a pending kind that is not a string ------------------------------------------------------

@pytest.mark.parametrize("kind", [{}, [], 3, None])
def test_pending_kind_of_the_wrong_type_is_named(kind):
    d = start_doc()
    d["pending"] = {"kind": kind}
    with pytest.raises(PositionError, match=r"^pending\.kind: .* expected one of revolt"):
        Position.from_json(d)


# --- 7. Position.push takes moves only -----------------------------------------------------------

@pytest.mark.parametrize("move", [None, [1], b"pass", float("nan"), 1.5, True, False, -1,
                                  10 ** 6, 10 ** 400, np.float64(3.0), object()])
def test_push_refuses_what_is_not_a_move(move):
    p = Position.from_json(START.read_text())
    before = p.to_json()
    with pytest.raises(NotationError):
        p.push(move)
    assert p.to_json() == before


def test_push_takes_an_action_code_including_numpy_integers():
    p = Position.from_json(START.read_text())
    code = p.legal_codes()[0]
    p.push(np.int64(code))
    assert len(p.legal_codes()) > 0


def test_hand_of_a_player_who_is_not_there():
    p = Position.from_json(START.read_text())
    for player in (2, -1, "0", None, True):
        with pytest.raises(TneError, match="players are numbered 0 to 1"):
            p.hand(player)


# --- 8. Ctrl-C in a tournament (the SIGKILL drill is in test_kill_drill.py) ----------------------

def test_ctrl_c_stops_a_parallel_tournament_in_one_line(tmp_path):
    out = tmp_path / "t.jsonl"
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "tournament", "--agent",
                             "a=greedy", "--agent", "b=greedy:seed=1", "--games", "50",
                             "--jobs", "2", "--out", str(out)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        from test_kill_drill import wait_for
        wait_for(lambda: out.exists() and out.read_text().count("\n") >= 1)
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    # on a pipe, progress lines ('tne tournament: 3 of 100 games') come first
    lines = [ln for ln in stderr.decode().splitlines() if not ln.startswith("tne tournament: ")]
    assert len(lines) == 1 and lines[0].startswith("tne: interrupted:"), stderr.decode()
    assert "--resume" in lines[0]


# --- 9. click's errors are one line too; values are echoed short ---------------------------------

@pytest.mark.parametrize("args, line", [
    (["new", "--players", "7"], "--players: 7 is not in the range 2..4"),
    (["bestmove", str(START), "--time", "-1"], "--time: option time=-1 is out of range (0 < x <= 3600)"),
    (["bestmove", str(START), "--iterations", "0"], "--iterations: option iterations=0 is out "
                                                    "of range (1 <= x <= 10000000)"),
    (["bestmove", str(START), "--threads", "0"], "--threads: option threads=0 is out of range (1 <= x <= 64)"),
    (["tournament", "--agent", "a=random", "--agent", "b=random", "--games", "0"],
     "--games: 0 is not in the range 1..100000"),
    (["replay", str(START), "--ply", "-1"], "--ply: -1 is not in the range 0..50000"),
    (["show", str(START), "--as", "bob"], "--as: 'bob' is not an integer"),
    (["apply", str(START)], "missing argument 'MOVE...'"),
])
def test_option_errors_are_one_line(args, line):
    assert assert_user_error(run(*args)).startswith(f"tne: error: {line}")


def test_a_directory_for_a_file_option_is_one_line(tmp_path):
    assert_user_error(run("show", START, "--svg", tmp_path), "--svg:", "is a directory")
    assert_user_error(run("apply", START, "pass", "-o", tmp_path), "--output:", "is a directory")


def test_a_long_bad_value_is_echoed_short(tmp_path):
    long = "x" * 3500
    for args in (["legal", START, f"tile red {long}"], ["new", "--seed", long],
                 ["tournament", "--agent", f"a={long}", "--agent", "b=random"],
                 ["legal", tmp_path / ("p" * 200) / "f.json"]):
        line = assert_user_error(run(*args))
        assert len(line) <= 2 * L.MAX_ECHO + 40, len(line)


# --- the rough edges -----------------------------------------------------------------------------

def test_version():
    result = run("--version")
    assert result.exit_code == 0 and result.stdout == "tne 0.1.0\n"


def test_help_no_longer_promises_a_later_ai():
    result = run("--help")
    assert result.exit_code == 0 and "(later)" not in result.stdout


def test_a_cold_kernel_cache_is_noticed(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert kernel_cache_is_cold() and kernel_cache_is_cold("search")
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "movegen.legal_moves-12.py311.nbi").write_text("")
    # the move generator alone is not enough: bestmove's group ends with the search's kernel
    assert kernel_cache_is_cold("search")
    (tmp_path / "x" / "mcts.run_iterations-57.py311.nbi").write_text("")
    assert not kernel_cache_is_cold("search")
    # every other command's group also needs the tree reuse, the exact endings' solver and
    # the checks of a position file
    names = ["tree.copy_subtree-190.py311.nbi", "endgame.exact_ending-477.py311.nbi",
             "kingdoms.kingdom_clash-200.py311.nbi"]
    for name in names:
        assert kernel_cache_is_cold()
        (tmp_path / "x" / name).write_text("")
    assert not kernel_cache_is_cold()


def test_play_records_are_read_by_replay_and_resumed(tmp_path):
    saved = tmp_path / "game.json"
    first = run("play", "--ai", "random", "--seed", 3, "--out", saved, input="pass\npass\n")
    assert first.exit_code == 0, first.output
    record = load_game_record(saved.read_text())
    assert saved.read_text().count("\n") > 2            # pretty-printed, not one JSON line
    assert len(record["moves"]) >= 2 and record["moves"][:2] == ["pass", "pass"]
    shown = run("replay", saved, "--json")
    assert shown.exit_code == 0, shown.output
    again = run("play", "--resume", saved, input="pass\n")
    assert again.exit_code == 0, again.output
    resumed = load_game_record(saved.read_text())
    assert resumed["moves"][:len(record["moves"])] == record["moves"]
    assert resumed["moves"][len(record["moves"])] == "pass"
    assert resumed["start"] == record["start"]
