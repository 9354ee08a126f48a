"""`tne play` and the game loop behind it (tne_ai.matches.play.play).

The person is driven two ways: through the real command (click's CliRunner, stdin lines) and
through play()'s injected ``read``/``write`` callables, where a scripted person reads the
prompts and the ``?`` listing like a human would.  What is expected comes from the rules
(SPEC sections 3 and 8): pass is always a legal action; a player with no leader on the board
who never places a tile is never asked a decision (he is in no revolt, war, monument or
treasure) and never scores; bad input gets the reason and the same prompt again; the record
is saved however the game stops.
"""
import json
import os
import random
import select
import signal
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from hypothesis import assume, given, settings, strategies as st

from tne_ai.cli import main
from test_play_terminal import _harmless
from tne_ai.core import board as B
from tne_ai.errors import TneError
from tne_ai.core.formats import load_game_record
from tne_ai.matches.play import hint_lines, play, replay_decisions
from tne_ai.position import Position
from tne_ai.core.render import LEGEND

ROOT = Path(__file__).resolve().parent.parent
ACTION_PROMPT = "player 0, your action 1 of 2> "


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def replay(record):
    """The position after the record's moves, and the moves made by each seat."""
    p = Position.from_json(record["start"])
    by_seat = {k: [] for k in range(p.players)}
    for text in record["moves"]:
        by_seat[p.to_act].append(text)
        p.push(text)
    return p, by_seat


class Script:
    """read/write for play(): answers prompts from a list of lines, then ends the input
    (EOFError) or, with ``interrupt``, presses Ctrl-C (KeyboardInterrupt)."""

    def __init__(self, lines, interrupt=False):
        self.lines = list(lines)
        self.interrupt = interrupt
        self.prompts = []
        self.output = []

    def read(self, prompt):
        self.prompts.append(prompt)
        if not self.lines:
            raise KeyboardInterrupt if self.interrupt else EOFError
        return self.lines.pop(0)

    def write(self, text):
        self.output.extend(str(text).splitlines())


class Person:
    """A person who types ``?`` at every prompt, then one of the listed moves at random."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.listing = None
        self.prompts = []
        self.typed = []
        self.moves = []  # typed, and the only choices the game played at once
        self.output = []
        self._header = False

    def write(self, text):
        lines = str(text).splitlines()
        self.output.extend(lines)
        for line in lines:
            if line.startswith("your only choice, played at once: "):
                self.moves.append(line.rpartition(": ")[2])
        if self._header:
            self.listing = [ln for ln in lines if ln.startswith("  ") and not ln.startswith("   ")]
        self._header = bool(lines) and lines[0].startswith("legal moves (")

    def read(self, prompt):
        self.prompts.append(prompt)
        if self.listing is None:
            return "?"
        head, sep, args = self.rng.choice(self.listing).strip().partition(": ")
        self.listing = None
        move = f"{head} {self.rng.choice(args.split())}" if sep else head
        self.typed.append((prompt, move))
        self.moves.append(move)
        return move


def expand(listing):
    """The moves of a `?` listing: 'tile red: A1 B1' -> tile red A1, tile red B1; 'pass'."""
    moves, head = [], None
    for line in listing:
        if line.startswith("      "):
            moves += [f"{head} {a}" for a in line.split()]
            continue
        head, sep, args = line.strip().partition(": ")
        moves += [f"{head} {a}" for a in args.split()] if sep else [head]
    return moves


# --- whole games ------------------------------------------------------------------------------

def test_whole_game_against_random_through_the_cli(tmp_path):
    out = tmp_path / "game.json"
    result = run("play", "--ai", "random", "--seed", 5, "--out", out, input="pass\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    record = load_game_record(out.read_text(encoding="utf-8"))
    assert record["meta"] == {"agents": ["human", "random"], "ai": "random", "seed": 5, "human_seat": 0,
                              "truncated": False}
    p, by_seat = replay(record)
    assert p.is_over()
    # only passing, the person was never asked a decision and scored nothing
    assert by_seat[0] and set(by_seat[0]) == {"pass"}
    assert record["result"]["scores"][0] == {"red": 0, "blue": 0, "green": 0, "black": 0,
                                             "treasure": 0}
    assert result.output.count("player 0 (you): pass") == len(by_seat[0])
    assert "game over" in result.output
    assert result.output.rstrip().endswith(f"game record written to {out}")
    assert "not a move" not in result.output and "not legal" not in result.output


def test_whole_game_with_a_person_who_answers_decisions():
    person = Person(seed=7)
    record = play(players=2, ai="random", seat=0, seed=7, read=person.read, write=person.write)
    assert record["meta"]["truncated"] is False
    p, by_seat = replay(record)  # every typed move was legal, or push would raise
    assert p.is_over()
    assert by_seat[0] == person.moves
    # the person's decisions (what undo takes back) are the moves he typed, not those
    # played at once for him
    _, decisions = replay_decisions(record["start"], record["moves"], 0)
    assert [record["moves"][i] for i in decisions] == [move for _, move in person.typed]
    # a decision with one legal answer was played without asking, and said so with what
    # was pending (player 0 holds no tile of the conflict's colour: commit 0 is all he has)
    forced = len(person.moves) - len(person.typed)
    assert forced >= 1
    for i, line in enumerate(person.output):
        if line.startswith("your only choice, played at once: "):
            assert person.output[i - 1].startswith("decision: ")
            assert person.output[i + 1] == f"player 0 (you): {line.rpartition(': ')[2]}"
    asked = [(prompt, move) for prompt, move in person.typed if "action" not in prompt]
    assert asked, "the person was never asked a decision: pick another seed"
    for prompt, move in asked:
        expected = {"commit": "commit", "treasure": "treasure", "war choice": "war",
                    "monument": ("monument", "decline")}[prompt[len("player 0, your "):-2]]
        assert move.startswith(expected)
    # each decision was announced with what is pending and its legal moves
    assert sum(line.startswith("decision: ") for line in person.output) >= len(asked)


def test_ai_in_seat_0_and_three_players():
    person = Person(seed=2)
    record = play(players=3, ai="random", seat=1, seed=2, read=person.read, write=person.write)
    p, by_seat = replay(record)
    assert p.is_over() and p.players == 3
    assert record["meta"]["agents"] == ["random", "human", "random"]
    assert by_seat[1] == person.moves
    assert all(prompt.startswith("player 1, your ") for prompt in person.prompts)


# --- input the loop must survive -----------------------------------------------------------------

def test_bad_input_gets_the_reason_and_a_fresh_prompt(tmp_path):
    out = tmp_path / "game.json"
    script = Script(["hello world", "tile red", "leader red A1", "leader red F3",
                     "catastrophe K1", "commit 0", "withdraw red", "", "help", "board"])
    record = play(ai="random", seed=1, read=script.read, write=script.write, out=out)
    errors = [ln for ln in script.output if ln.startswith(("not a move", "not legal now"))]
    assert len(errors) == 7
    assert errors[0].startswith("not a move: unknown move 'hello'")
    assert errors[1].startswith("not a move: 'tile' takes 2 argument(s)")
    # A1's neighbours B1 and A2 hold no temple; F3 holds one
    assert errors[2] == ("not legal now: 'leader red A1': a leader must stand next to a red "
                         "tile (a temple); A1 is not")
    assert errors[3] == "not legal now: 'leader red F3': F3 is not empty land"
    assert errors[4] == "not legal now: 'catastrophe K1': K1 holds a treasure"
    assert errors[5].startswith("not legal now: 'commit 0': no decision is pending")
    assert errors[6] == "not legal now: 'withdraw red': your red leader is not on the board"
    assert any(ln.startswith("  hint        ask the engine") for ln in script.output)  # help
    # ten lines answered, then the end of input: the same prompt each time
    assert script.prompts == [ACTION_PROMPT] * 11
    assert record["moves"] == [] and record["meta"]["truncated"] is False
    assert record["meta"]["stopped"] == {"seat": 0, "ply": 0, "reason": "end of input"}
    assert load_game_record(out.read_text(encoding="utf-8")) == record
    assert script.output[-2:] == ["stopped (end of input) after 0 moves",
                                  f"game record written to {out}"]


def test_hints_list_exactly_the_legal_moves():
    script = Script(["?", "? tile r", "? war"])
    play(ai="random", seed=4, read=script.read, write=script.write)
    out = script.output
    first = out.index(next(ln for ln in out if ln.startswith("legal moves (")))
    second = out.index(next(ln for ln in out[first + 1:] if ln.startswith("legal moves (")))
    legal = sorted(str(m) for m in Position.new(2, seed=4).legal_moves())
    assert out[first] == f"legal moves ({len(legal)}):"
    assert sorted(expand(out[first + 1:second])) == legal
    third = out.index(next(ln for ln in out[second + 1:] if ln.startswith("legal moves (")))
    assert sorted(expand(out[second + 1:third])) == [m for m in legal if m.startswith("tile red ")]
    assert out[third:third + 2] == ["legal moves (0 starting 'war'):", "  none"]


def test_hint_asks_the_engine_with_a_budget():
    script = Script(["hint 500", "hint lots", "hint 99"])
    play(ai="random", seed=4, read=script.read, write=script.write)
    out = script.output
    legal = {str(m) for m in Position.new(2, seed=4).legal_moves()}
    i = out.index(next(ln for ln in out if ln.startswith("engine's suggestion (")))
    head, _, move = out[i].partition(": ")
    assert head == ("engine's suggestion (500 iterations, from your view; win chances ± two "
                    "standard errors)")
    assert move in legal
    # its top moves, most visited first, with their visits and win chances
    ranked = [ln for ln in out[i + 1:i + 6] if ln.startswith("  ") and ". " in ln[:6]]
    assert [ln.split(". ")[0] for ln in ranked] == [f"  {k}" for k in range(1, len(ranked) + 1)]
    visits = [int(ln.split(": ")[1].split()[0]) for ln in ranked]
    assert visits == sorted(visits, reverse=True) and sum(visits) <= 500
    assert all(ln.split(". ", 1)[1].split(":")[0] in legal for ln in ranked)
    bad = [ln for ln in out if ln.startswith("hint: ") and ln.endswith("100 to 200000")]
    assert bad == ["hint: 'lots' is not an integer (ASCII digits, at most 30); 'hint N' "
                   "searches N iterations, 100 to 200000",
                   "hint: 99 is out of range (100 to 200000); 'hint N' searches N iterations, "
                   "100 to 200000"]


def test_compact_board_before_each_prompt_and_board_shows_the_whole():
    # two passes, the AI's turn (two moves, no board printed), two passes, the AI's turn, then
    # `board` (at the fifth prompt) and the end of input
    script = Script(["pass", "pass", "pass", "pass", "board"])
    play(ai="random", seed=4, read=script.read, write=script.write)
    out = script.output
    headers = [i for i, ln in enumerate(out) if ln == "   " + " ".join(B.FILES)]
    legends = [i for i, ln in enumerate(out) if ln == LEGEND]
    # the legend at the start, a compact board before each of the five prompts, `board`'s
    # whole board with its legend
    assert len(headers) == 6
    assert len(legends) == 2 and legends[0] < headers[0] and legends[1] == headers[5] + 12
    # compact: the 11 rows, then one line a player
    first = headers[0]
    assert out[first + 12].startswith("you: score r0 b0 g0 k0 t0 | supply rbgk | catastrophes 2")
    assert out[first + 13] == "player 1: score r0 b0 g0 k0 t0 | supply rbgk | catastrophes 2 | hand 6 hidden"
    ai = [ln for ln in out if ln.startswith("player 1 (random): ")]
    assert len(ai) == 4  # two after each pair of passes
    between = out[out.index(ai[0]):out.index(ai[1])]
    assert "   " + " ".join(B.FILES) not in between


def test_hint_lines_group_by_move_kind():
    lines = hint_lines(["tile red B10", "tile red A2", "pass", "commit 0", "commit 1",
                        "swap rk", "swap b"])
    assert lines == ["  commit: 0 1", "  pass", "  swap: b rk", "  tile red: A2 B10"]


def test_ctrl_c_saves_the_game(tmp_path):
    out = tmp_path / "game.json"
    script = Script(["pass", "pass"], interrupt=True)
    record = play(ai="random", seed=3, read=script.read, write=script.write, out=out)
    assert record["moves"][:2] == ["pass", "pass"]
    assert record["meta"]["truncated"] is False
    assert record["meta"]["stopped"] == {"seat": 0, "ply": len(record["moves"]),
                                         "reason": "interrupted"}
    assert json.loads(out.read_text(encoding="utf-8")) == record
    p, by_seat = replay(record)
    # interrupted at the person's next prompt: the random player finished its turn
    assert by_seat[0] == ["pass", "pass"] and len(by_seat[1]) >= 2
    assert p.to_act == 0 and p.pending is None and not p.is_over()
    assert script.prompts[-1] == ACTION_PROMPT
    assert f"stopped (interrupted) after {len(record['moves'])} moves" in script.output


def test_quit_saves_the_game(tmp_path):
    out = tmp_path / "game.json"
    record = play(ai="random", seed=3, read=Script(["pass", "quit"]).read,
                  write=lambda text: None, out=out)
    assert record["moves"] == ["pass"] and record["meta"]["truncated"] is False
    assert record["meta"]["stopped"] == {"seat": 0, "ply": 1, "reason": "quit"}
    assert load_game_record(out.read_text(encoding="utf-8")) == record


# --- the command ---------------------------------------------------------------------------------

def test_cli_end_of_input_saves_the_record(tmp_path):
    out = tmp_path / "game.json"
    result = run("play", "--ai", "random", "--seed", 2, "--out", out, input="pass\n")
    assert result.exit_code == 0, result.output
    record = load_game_record(out.read_text(encoding="utf-8"))
    assert record["moves"] == ["pass"]
    assert record["meta"] == {"agents": ["human", "random"], "ai": "random", "seed": 2, "human_seat": 0,
                              "truncated": False,
                              "stopped": {"seat": 0, "ply": 1, "reason": "end of input"}}
    assert "stopped (end of input) after 1 move" in result.output
    # tne replay says why the game ended at its last move, and only there
    shown = run("replay", out)
    assert shown.exit_code == 0, shown.output
    assert shown.output.splitlines()[0] == ("game %s, after 1 of 1 moves; seats: human, random; "
                                            "stopped by player 0 (end of input)" % out)
    before = run("replay", out, "--ply", 0)
    assert before.output.splitlines()[0] == ("game %s, after 0 of 1 moves; seats: human, random"
                                             % out)


def test_cli_default_record_names_never_overwrite(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for _ in range(2):
        result = runner.invoke(main, ["play", "--ai", "random"], input="")
        assert result.exit_code == 0, result.output
    assert sorted(os.listdir(tmp_path)) == ["tne-game-1.json", "tne-game.json"]


def test_cli_bad_options_write_nothing(tmp_path):
    for args, words in ((["--seat", 2], "seat 2: players are numbered 0 to 1"),
                        (["--ai", "alphazero"], "unknown agent 'alphazero'"),
                        (["--ai", "mcts:time=0"], "out of range"),
                        (["--out", tmp_path / "no" / "game.json"], "no such directory")):
        result = run("play", "--out", tmp_path / "game.json", *args, input="pass\n")
        assert result.exit_code == 2, result.output
        assert result.stdout == ""
        assert result.stderr.startswith("tne: error: ") and len(result.stderr.splitlines()) == 1
        assert words in result.stderr
        assert os.listdir(tmp_path) == []
    result = run("play", "--players", 5)
    assert result.exit_code == 2 and "Traceback" not in result.output


def default_sigint():
    """In the child: Ctrl-C's default action, even when this test run ignores SIGINT (as a
    background job of a shell does), so that Python turns it into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def test_real_process_ctrl_c_saves_the_record(tmp_path):
    """A real `tne play`: wait for the first prompt, press Ctrl-C (SIGINT)."""
    out = tmp_path / "game.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "play", "--ai", "random",
                             "--out", str(out)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=tmp_path, env=env,
                            preexec_fn=default_sigint)

    def read_until(marker, seen=b""):
        while marker not in seen:
            ready, _, _ = select.select([proc.stdout], [], [], 120)  # a guard against a hang
            assert ready, seen.decode()
            chunk = os.read(proc.stdout.fileno(), 65536)
            assert chunk, seen.decode() + proc.stderr.read().decode()
            seen += chunk
        return seen

    try:
        seen = read_until(b"> ")
        prompt = seen.decode()
        proc.send_signal(signal.SIGINT)
        # stdin stays open until the game has said it stopped: closing it first would race
        # the signal (end of input instead of interrupted) on a loaded machine
        after = read_until(b"game record written", b"")
        stdout, stderr = proc.communicate(timeout=120)
        stdout = after + stdout
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, stderr.decode()
    assert b"Traceback" not in stderr
    assert prompt.endswith(ACTION_PROMPT)
    assert "stopped (interrupted) after 0 moves" in stdout.decode()
    record = load_game_record(out.read_text(encoding="utf-8"))
    assert record["moves"] == [] and record["meta"]["truncated"] is False
    assert record["meta"]["stopped"] == {"seat": 0, "ply": 0, "reason": "interrupted"}


# --- a conflict is told, not silent ---------------------------------------------------------------

def test_a_decided_revolt_is_told_with_strengths_commits_winner_removals_and_points():
    # player 0's red leader on O2 revolts against player 1's on P1: both stand next to the
    # temple on P2 and nothing else red (O1, N2, O3 are empty), so each has strength 1 on the
    # board (SPEC section 3).  Player 0 committed 1 red tile; player 1 now commits 1: 2 against
    # 2, a tie, so the defender wins; the attacker's leader leaves O2, no board tile is removed,
    # and player 1 scores 1 red point.
    from test_render_svg import sample
    from tne_ai.core.notation import parse_move
    from tne_ai.matches.play import conflict_lines, strength_line
    d, _ = sample()
    d = dict(d, pending={"kind": "revolt", "colour": "red", "attacker": 0, "defender": 1,
                         "attacker_commit": 1})
    d["leaders"] = [[0, "red", "O2"], [1, "red", "P1"]]
    d["hands"][0]["red"] -= 1
    d["out_of_game"]["red"] += 1
    before = Position.from_json(d)
    assert strength_line(before) == ("strength: attacker player 0 1 on the board + 1 committed "
                                     "= 2; defender player 1 1 on the board (ties go to the "
                                     "defender)")
    after = before.copy()
    after.push("commit 1")
    assert conflict_lines(before, parse_move("commit 1"), after) == [
        "revolt (red): player 0 attacked with 1 on the board + 1 committed = 2; player 1 "
        "defended with 1 + 1 = 2; player 1 wins (ties go to the defender)",
        "removed: player 0's red leader from O2",
        "scored: player 1 +1 red"]



def test_in_a_terminal_up_recalls_the_last_move(tmp_path):
    """A real `tne play` in a pseudo-terminal: type pass, then at the next prompt press Up
    (the terminal sends ESC [ A) and Enter: readline gives the line back, a second pass."""
    import pty
    out = tmp_path / "game.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm")
    env.pop("INPUTRC", None)
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "play", "--ai", "random",
                             "--seed", "4", "--out", str(out)], stdin=slave, stdout=slave,
                            stderr=slave, cwd=tmp_path, env=env, close_fds=True,
                            preexec_fn=default_sigint)
    os.close(slave)
    seen = b""

    def read_until(marker):
        nonlocal seen
        while marker not in seen:
            ready, _, _ = select.select([master], [], [], 120)  # a guard against a hang
            assert ready, seen.decode(errors="replace")
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                chunk = b""
            assert chunk, seen.decode(errors="replace")
            seen += chunk

    try:
        read_until(b"player 0, your action 1 of 2> ")
        os.write(master, b"pass\r")
        read_until(b"player 0, your action 2 of 2> ")
        os.write(master, b"\x1b[A\r")
        read_until(b"player 1 (random): ")
        read_until(b"player 0, your action 1 of 2> ")
        os.write(master, b"quit\r")
        read_until(b"game record written")
        assert proc.wait(timeout=120) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    text = seen.decode(errors="replace")
    assert text.count("player 0 (you): pass") == 2
    assert "^[[A" not in text and "not a move" not in text
    assert load_game_record(out.read_text(encoding="utf-8"))["moves"][:2] == ["pass", "pass"]


# --- saved after every move, undo, stopped by the player -------------------------------------

def test_the_file_holds_every_move_shown_whenever_the_person_is_asked(tmp_path):
    """At each prompt, the record on disk holds exactly the moves the game has shown."""
    out = tmp_path / "game.json"
    shown, checked = [], []

    def write(text):
        for line in str(text).splitlines():
            if line.startswith(("player 0 (you): ", "player 1 (random): ")):
                shown.append(line.split(": ", 1)[1])

    lines = ["pass", "tile red H8", "pass", "undo", "pass", "pass", "undo 3", "pass"]

    def read(prompt):
        checked.append(load_game_record(out.read_text(encoding="utf-8"))["moves"])
        if not lines:
            raise EOFError
        return lines.pop(0)

    record = play(ai="random", seed=1, read=read, write=write, out=out)
    # shown: pass, tile red H8, the random player's two, pass (taken back), pass, pass, the
    # random player's two (the last three taken back), pass, the random player's two
    assert len(shown) == 12 and len(checked) == 9
    first, second, third = shown[2:4], shown[7:9], shown[10:12]
    assert checked[:4] == [[], ["pass"], ["pass", "tile red H8"] + first,
                           ["pass", "tile red H8"] + first + ["pass"]]
    assert checked[4] == ["pass", "tile red H8"] + first          # undo: before the pass
    assert checked[5:7] == [["pass", "tile red H8"] + first + ["pass"],
                            ["pass", "tile red H8"] + first + ["pass", "pass"] + second]
    assert checked[7] == ["pass"]                    # undo 3: before 'tile red H8'
    assert checked[8] == ["pass", "pass"] + third
    assert record["moves"] == checked[8]
    assert load_game_record(out.read_text(encoding="utf-8")) == record
    assert record["meta"]["stopped"] == {"seat": 0, "ply": 4, "reason": "end of input"}


def test_undo_lines_and_its_count_bounds():
    script = Script(["undo", "pass", "undo 0", "undo -1", "undo 2", "undo 1_0", "undo 1.0",
                     "undo ٣", "undo " + "9" * 40, "undo 1"])
    record = play(ai="random", seed=5, read=script.read, write=script.write)
    assert [ln for ln in script.output if ln.startswith("undo: ")] == [
        "undo: you have made no decision to take back; type help for help",
        "undo: 0 is out of range (1 to 1); type help for help",
        "undo: -1 is out of range (1 to 1); type help for help",
        "undo: 2 is out of range (1 to 1); type help for help",
        "undo: '1_0' is not an integer (ASCII digits, at most 30); type help for help",
        "undo: '1.0' is not an integer (ASCII digits, at most 30); type help for help",
        "undo: '٣' is not an integer (ASCII digits, at most 30); type help for help",
        "undo: '" + "9" * 40 + "' is not an integer (ASCII digits, at most 30); type help for "
        "help",
        "undo: took back 1 move (1 of your decisions); back before your 'pass'"]
    assert script.prompts == [ACTION_PROMPT, ACTION_PROMPT] + \
        ["player 0, your action 2 of 2> "] * 8 + [ACTION_PROMPT]
    assert record["moves"] == []


def test_help_tells_undo():
    script = Script(["help"])
    play(ai="random", seed=5, read=script.read, write=script.write)
    at = script.output.index("  undo        take back your last decision and the moves after "
                             "it; 'undo 3' your")
    assert script.output[at + 1] == "              last three"


def test_typed_control_characters_and_undecodable_bytes_are_shown_escaped():
    """A control character (an escape sequence that would clear the screen, NUL, a bell) or
    a byte that was not UTF-8 (Python reads it as a lone surrogate) is answered with the
    line written out with escapes, never echoed raw to the terminal."""
    verbs = ("(expected one of tile, leader, withdraw, catastrophe, swap, pass, commit, war, "
             "monument, decline, treasure)")
    again = "; type ? for the legal moves, help for help"
    script = Script(["pass\x1b[2J", "tile red \udcff", "\x00", "hint \x07"])
    play(ai="random", seed=5, read=script.read, write=script.write)
    assert script.output[-6:-2] == [
        r"not a move: unknown move 'pass\x1b[2J' in 'pass\x1b[2J' " + verbs + again,
        r"not a move: '\udcff' is not a square (A1 to P11) in move 'tile red \udcff'" + again,
        r"not a move: unknown move '\x00' in '\x00' " + verbs + again,
        r"hint: '\\x07' is not an integer (ASCII digits, at most 30); 'hint N' searches N "
        r"iterations, 100 to 200000"]
    assert script.prompts == [ACTION_PROMPT] * 5


def test_a_record_that_cannot_be_saved_stops_the_game_with_one_line(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    out = folder / "game.json"
    lines = ["pass", "pass"]

    def read(prompt):
        if len(lines) == 1:           # the folder goes away before the second move
            out.unlink()
            folder.rmdir()
        return lines.pop(0)

    try:
        play(ai="random", seed=1, read=read, write=lambda text: None, out=out)
    except TneError as e:
        message = str(e)
    assert message == (f"{out}: cannot write the game record: No such file or directory; the "
                       f"game stops here")


def test_meta_stopped_is_checked_when_a_record_is_loaded(tmp_path):
    record = play(ai="random", seed=3, read=Script(["pass", "quit"]).read,
                  write=lambda text: None)
    assert record["meta"]["stopped"] == {"seat": 0, "ply": 1, "reason": "quit"}
    for bad, words in (({"seat": 2, "ply": 1, "reason": "quit"}, "meta.stopped"),
                       ({"seat": 0, "ply": 0, "reason": "quit"}, "ply 1 (the moves)"),
                       ({"seat": 0, "ply": True, "reason": "quit"}, "meta.stopped"),
                       ({"seat": 0, "ply": 1}, "meta.stopped"),
                       ("quit", "meta.stopped")):
        broken = dict(record, meta=dict(record["meta"], stopped=bad))
        try:
            load_game_record(broken)
        except TneError as e:
            assert words in str(e)
        else:
            raise AssertionError(f"accepted meta.stopped {bad!r}")



@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=40), min_size=1, max_size=5))
def test_any_text_on_a_pipe_gets_one_line_and_the_same_prompt(lines):
    """Lines as a pipe delivers them (any character but the newline that ends them: NUL,
    Ctrl-C, escape sequences, lone surrogates for bytes that were not UTF-8): each that is
    neither a command nor a legal move gets one line and the same prompt."""
    legal = set(Position.new(2, seed=5).legal_codes())
    lines = [line.replace("\n", " ") for line in lines]
    assume(not any(_harmless(line, legal) for line in lines))
    script = Script(lines)
    marks = []

    def read(prompt):
        marks.append(len(script.output))
        return script.read(prompt)

    record = play(ai="random", seed=5, read=read, write=script.write)
    blocks = [script.output[a:b] for a, b in zip(marks, marks[1:])]
    assert all(len(block) == 1 and block[0].startswith(("not a move: ", "not legal now: ",
                                                        "hint: ", "undo: "))
               for block in blocks), blocks
    assert script.prompts == [ACTION_PROMPT] * (len(lines) + 1)
    assert record["moves"] == []
