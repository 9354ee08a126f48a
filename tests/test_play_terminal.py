"""`tne play` in a real terminal (a pseudo-terminal, the standard library's pty module) and
on a pipe: whatever is typed, the game goes on; the record on disk holds every move the
terminal has shown, whatever kills the process; undo takes back the person's decisions; a
game the person stops is recorded as stopped by him (tne-game/1, meta.stopped).

Expected positions come from the rules and the start board (SPEC section 1): on the standard
board, row 8 is land at A8, a temple with a treasure at B8, land at C8, river D8 to G8, land
H8 to L8, river at M8 and land N8 to P8.
"""
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from test_fuzz_inputs import BAD_COUNTS, EDGE_TEXT, MOVE_CHARS
from tne_ai.errors import TneError
from tne_ai.core.formats import load_game_record
from tne_ai.core.notation import parse_move
from tne_ai.position import Position

ROOT = Path(__file__).resolve().parent.parent
PROMPT = re.compile(r"player \d, your [a-z0-9 ]+> $")
MOVE_LINE = re.compile(r"^player (\d) \((?:you|[^)]*)\): (.+)$")
# on the standard board, before any move (SPEC section 1)
ROW_8 = " 8 . r*. ~ ~ ~ ~ . . . . . ~ . . ."
# not text a line can hold: keys a terminal turns into signals or flow control (Ctrl-C, Ctrl-Z,
# Ctrl-\, Ctrl-Q, Ctrl-S), and NUL, which ends readline's line
UNTYPEABLE = "\x03\x1a\x1c\x11\x13\x00"


def default_sigint():
    """In the child: Ctrl-C's default action, even when this test run ignores SIGINT."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class Terminal:
    """`tne play ARGS` with a pseudo-terminal for stdin, stdout and stderr (30,000 columns,
    so that readline never wraps a line)."""

    def __init__(self, cwd, *args):
        env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm")
        env.pop("INPUTRC", None)
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 30000, 0, 0))
        self.proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "play", *args],
                                     stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env,
                                     close_fds=True, preexec_fn=default_sigint)
        os.close(slave)
        self.seen = ""        # everything the terminal has shown
        self.buffer = b""

    def _more(self):
        ready, _, _ = select.select([self.master], [], [], 180)  # a guard against a hang
        assert ready, self.seen[-3000:]
        try:
            chunk = os.read(self.master, 65536)
        except OSError:       # the child closed the terminal
            chunk = b""
        return chunk

    def until(self, pattern):
        """The text shown from the last call until ``pattern`` (a regex) matches its end."""
        text = b""
        while not re.search(pattern, text.decode("utf-8", "replace")):
            chunk = self._more()
            assert chunk, (self.seen + text.decode("utf-8", "replace"))[-3000:]
            text += chunk
        shown = text.decode("utf-8", "replace")
        self.seen += shown
        return shown

    def prompt(self):
        return self.until(PROMPT.pattern)

    def type(self, keys):
        """Type ``keys`` (str or bytes) and Enter."""
        os.write(self.master, (keys.encode("utf-8") if isinstance(keys, str) else keys) + b"\r")

    def answer(self, keys):
        """Type a line; the lines shown between its echo and the next prompt, and the prompt."""
        self.type(keys)
        shown = self.prompt().split("\r\n")
        return shown[1:-1], shown[-1]

    def finish(self):
        """Read to the end of output; the exit status."""
        while True:
            chunk = self._more()
            if not chunk:
                break
            self.seen += chunk.decode("utf-8", "replace")
        return self.proc.wait(timeout=120)

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)


def shown_moves(text):
    """The moves the terminal acknowledged ('player 1 (random): pass'), in order."""
    return [m.group(2) for m in map(MOVE_LINE.match, text.replace("\r", "").split("\n")) if m]


def load(path):
    return load_game_record(path.read_text(encoding="utf-8"))


def position_after(record):
    p = Position.from_json(record["start"])
    for text in record["moves"]:
        p.push(text)
    return p


# --- bad input -----------------------------------------------------------------------------

def test_piped_hint_with_a_superscript_two_is_one_line_and_the_record_is_written(tmp_path):
    """printf 'hint \\xc2\\xb2\\nquit\\n' | tne play"""
    out = tmp_path / "game.json"
    proc = subprocess.run([sys.executable, str(ROOT / "cli.py"), "play", "--ai", "random",
                           "--out", str(out)], input=b"hint \xc2\xb2\nquit\n", cwd=tmp_path,
                          capture_output=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    stdout, stderr = proc.stdout.decode(), proc.stderr.decode()
    assert proc.returncode == 0, stderr
    assert "Traceback" not in stdout + stderr
    answers = [ln for ln in stdout.splitlines() if ln.startswith("player 0, your action")]
    # the prompt (without a newline: the pipe does not echo) is followed by the answer
    assert answers[0] == ("player 0, your action 1 of 2> hint: '²' is not an integer (ASCII "
                          "digits, at most 30); 'hint N' searches N iterations, 100 to 200000")
    record = load(out)
    assert record["moves"] == []
    assert record["meta"]["stopped"] == {"seat": 0, "ply": 0, "reason": "quit"}
    assert record["meta"]["truncated"] is False


def test_long_and_non_ascii_numbers_in_a_terminal(tmp_path):
    term = Terminal(tmp_path, "--ai", "random", "--seed", "3", "--out", "game.json")
    try:
        first = term.prompt().split("\r\n")[-1]
        assert first == "player 0, your action 1 of 2> "
        for keys, expected in (
                ("hint " + "9" * 5000, "hint: '" + "9" * 40 + "... (5000 characters)' is not "
                 "an integer (ASCII digits, at most 30); 'hint N' searches N iterations, 100 "
                 "to 200000"),
                ("hint ٣٠٠", "hint: '٣٠٠' is not an integer (ASCII digits, at most 30); 'hint "
                 "N' searches N iterations, 100 to 200000"),
                ("hint 200001", "hint: 200001 is out of range (100 to 200000); 'hint N' "
                 "searches N iterations, 100 to 200000"),
                ("undo 1", "undo: you have made no decision to take back; type help for help"),
                (b"pass\xff", "not a move: unknown move 'pass\\udcff' in 'pass\\udcff' (expected"
                 " one of tile, leader, withdraw, catastrophe, swap, pass, commit, war, "
                 "monument, decline, treasure); type ? for the legal moves, help for help")):
            lines, prompt = term.answer(keys)
            assert lines == [expected]
            assert prompt == first
        lines, prompt = term.answer("pass")            # the game goes on
        assert lines[0] == "player 0 (you): pass"
        assert prompt.endswith("player 0, your action 2 of 2> ")
        # an undo with a count beyond the decisions made, in superscript, or too long
        for keys, expected in (("undo 2", "undo: 2 is out of range (1 to 1); type help for help"),
                               ("undo ²", "undo: '²' is not an integer (ASCII digits, at most "
                                          "30); type help for help"),
                               ("undo " + "1" * 31, "undo: '" + "1" * 31 + "' is not an integer "
                                "(ASCII digits, at most 30); type help for help")):
            lines, _ = term.answer(keys)
            assert lines == [expected]
        term.type("quit")
        assert term.finish() == 0
    finally:
        term.close()
    assert "Traceback" not in term.seen
    record = load(tmp_path / "game.json")
    assert record["moves"] == ["pass"]


def _keys(text):
    """``text`` as typed at readline: a control character after Ctrl-V (quoted insert, so it
    is text, not an editing command), a lone surrogate as the bytes that are not UTF-8."""
    out = b""
    for ch in text:
        raw = ch.encode("utf-8", "surrogatepass")
        out += b"\x16" + raw if ord(ch) < 32 or ord(ch) == 127 else raw
    return out


def _mutated(data, texts):
    """A legal move text with 0 to 4 characters inserted, replaced or deleted (as the move
    fuzz of test_fuzz_inputs.py mutates them)."""
    chars = list(data.draw(st.sampled_from(texts)))
    for _ in range(data.draw(st.integers(0, 4))):
        at = data.draw(st.integers(0, len(chars)))
        op = data.draw(st.sampled_from(["insert", "replace", "delete"]))
        if op == "insert" or not chars:
            chars.insert(at, data.draw(MOVE_CHARS))
        elif op == "replace":
            chars[min(at, len(chars) - 1)] = data.draw(MOVE_CHARS)
        else:
            del chars[min(at, len(chars) - 1)]
    return "".join(chars)


def _harmless(text, legal):
    """Whether typing ``text`` is not bad input: blank, a command that works (help, ?, board,
    quit, hint with a budget, undo of the one decision made) or a legal move."""
    words = text.split()
    if not words:
        return True
    first, rest = words[0].lower(), " ".join(words[1:])
    if first in ("help", "h", "?", "board", "quit", "exit", "q") and (first == "?" or not rest):
        return True
    if first in ("hint", "hints") and (not rest or re.fullmatch(r"\+?[0-9]{1,30}", rest, re.ASCII)
                                        and 100 <= int(rest) <= 200000):
        return True
    if first == "undo" and (not rest or re.fullmatch(r"\+?0*1", rest, re.ASCII)):
        return True
    try:
        return parse_move(" ".join(words)) in legal
    except TneError:
        return False


def test_the_move_fuzz_through_the_terminal_prompt(tmp_path):
    """Hostile lines drawn as the move fuzz draws them (mutated legal moves, arbitrary text,
    the edge texts, bad counts after hint and undo), typed at the prompt of a game where the
    person has made one decision: each gets one line and the same prompt back."""
    term = Terminal(tmp_path, "--ai", "random", "--seed", "6", "--out", "game.json")
    p = Position.new(2, seed=6)
    p.push("pass")
    legal = set(p.legal_codes())
    texts = [str(m) for m in p.legal_moves()]
    try:
        term.prompt()
        lines, expected_prompt = term.answer("pass")
        assert expected_prompt == "player 0, your action 2 of 2> "
        count = [0]

        @settings(max_examples=120, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(st.data())
        def one_line(data):
            kind = data.draw(st.sampled_from(["mutated", "text", "edge", "count"]))
            if kind == "mutated":
                text = _mutated(data, texts)
            elif kind == "text":
                text = data.draw(st.text(max_size=30))
            elif kind == "edge":
                text = data.draw(st.sampled_from(EDGE_TEXT))
            else:
                text = data.draw(st.sampled_from(["hint", "undo", "commit", "tile red"])) \
                    + " " + data.draw(st.sampled_from(BAD_COUNTS + EDGE_TEXT))
            typed = "".join(ch for ch in text if ch not in UNTYPEABLE)
            parts = [part for part in re.split("[\r\n]", typed) if part.strip()]
            assume(parts and not any(_harmless(part, legal) for part in parts))
            for part in parts:   # Enter typed where the text holds a line break
                lines, prompt = term.answer(_keys(part))
                assert len(lines) == 1, lines
                assert lines[0].startswith(("not a move: ", "not legal now: ", "hint: ",
                                            "undo: ")), lines
                assert prompt == expected_prompt
                count[0] += 1

        one_line()
        assert count[0] >= 100
        lines, _ = term.answer("undo")                  # the game went on all along
        assert lines[0] == ("undo: took back 1 move (1 of your decisions); back before your "
                            "'pass'")
        term.type("quit")
        assert term.finish() == 0
    finally:
        term.close()
    assert "Traceback" not in term.seen
    record = load(tmp_path / "game.json")
    assert record["moves"] == []
    assert record["meta"]["stopped"] == {"seat": 0, "ply": 0, "reason": "quit"}


# --- kill -9 --------------------------------------------------------------------------------

def test_sigkill_loses_no_acknowledged_move(tmp_path):
    term = Terminal(tmp_path, "--ai", "random", "--seed", "8", "--out", "game.json")
    try:
        term.prompt()
        term.answer("pass")
        term.answer("leader red I8")       # beside the temple on I7 (SPEC section 1)
        term.answer("pass")                # the random player's two moves came between
        acknowledged = shown_moves(term.seen)
        term.proc.send_signal(signal.SIGKILL)
        assert term.proc.wait(timeout=60) == -signal.SIGKILL
    finally:
        term.close()
    assert len(acknowledged) == 5
    assert [acknowledged[i] for i in (0, 1, 4)] == ["pass", "leader red I8", "pass"]
    record = load(tmp_path / "game.json")
    assert record["moves"] == acknowledged
    assert "stopped" not in record["meta"]
    assert [0, "red", "I8"] in position_after(record).to_json()["leaders"]
    assert sorted(os.listdir(tmp_path)) == ["game.json"]    # no temporary left
    # the killed game goes on from its record
    term = Terminal(tmp_path, "--resume", "game.json")
    try:
        shown = term.prompt()
        assert "Resumed after move 5." in shown
        assert shown.endswith("player 0, your action 2 of 2> ")
        lines, _ = term.answer("undo 2")   # the decisions are known again from the record
        assert lines[0] == ("undo: took back 4 moves (2 of your decisions); back before your "
                            "'leader red I8'")
        term.type("quit")
        assert term.finish() == 0
    finally:
        term.close()
    assert load(tmp_path / "game.json")["moves"] == ["pass"]


def test_sigkill_while_the_ai_searches(tmp_path):
    """The AI's long search is cut by kill -9: the person's two moves are in the record."""
    term = Terminal(tmp_path, "--ai", "mcts:iterations=1000000", "--seed", "2",
                    "--out", "game.json")
    try:
        term.prompt()
        term.answer("pass")
        term.type("pass")
        term.until(r"player 1 \(mcts:iterations=1000000\) is thinking\.\.\.\r\n$")
        term.proc.send_signal(signal.SIGKILL)
        assert term.proc.wait(timeout=60) == -signal.SIGKILL
    finally:
        term.close()
    assert shown_moves(term.seen) == ["pass", "pass"]
    assert load(tmp_path / "game.json")["moves"] == ["pass", "pass"]


# --- undo ------------------------------------------------------------------------------------

def _row_8(shown):
    return next(ln for ln in reversed(shown.split("\r\n")) if ln.startswith(" 8 "))


def test_undo_and_undo_n_restore_the_position_before_the_decision(tmp_path):
    term = Terminal(tmp_path, "--ai", "random", "--seed", "1", "--out", "game.json")
    out = tmp_path / "game.json"
    try:
        assert _row_8(term.prompt()) == ROW_8
        term.answer("leader black I8")     # beside the temple on I7
        term.answer("tile red H8")
        assert load(out)["moves"][:2] == ["leader black I8", "tile red H8"]
        # back before the tile: the leader stands on I8, H8 is empty land again
        lines, prompt = term.answer("undo")
        assert lines[0] == ("undo: took back 3 moves (1 of your decisions); back before your "
                            "'tile red H8'")
        assert prompt.endswith("player 0, your action 2 of 2> ")
        assert _row_8("\r\n".join(lines)) == " 8 . r*. ~ ~ ~ ~ . K0. . . ~ . . ."
        record = load(out)
        assert record["moves"] == ["leader black I8"]
        board = position_after(record).to_json()
        assert board["board"][7] == ".r.~~~~.....~..." and board["leaders"] == [[0, "black", "I8"]]
        # back before the leader: the start
        lines, prompt = term.answer("undo")
        assert lines[0] == ("undo: took back 1 move (1 of your decisions); back before your "
                            "'leader black I8'")
        assert prompt.endswith("player 0, your action 1 of 2> ")
        assert _row_8("\r\n".join(lines)) == ROW_8
        assert load(out)["moves"] == []
        lines, _ = term.answer("undo")
        assert lines == ["undo: you have made no decision to take back; type help for help"]
        # undo 2 after three decisions: back before the second, with the first kept
        term.answer("tile red H8")       # H8 is empty land
        term.answer("leader black I8")
        term.answer("pass")
        assert len(load(out)["moves"]) == 5
        lines, prompt = term.answer("undo 2")
        assert lines[0] == ("undo: took back 4 moves (2 of your decisions); back before your "
                            "'leader black I8'")
        assert prompt.endswith("player 0, your action 2 of 2> ")
        assert _row_8("\r\n".join(lines)) == " 8 . r*. ~ ~ ~ ~ r . . . . ~ . . ."
        assert load(out)["moves"] == ["tile red H8"]
        term.type("quit")
        assert term.finish() == 0
    finally:
        term.close()
    assert "Traceback" not in term.seen
    record = load(out)
    assert record["moves"] == ["tile red H8"]
    assert record["meta"]["stopped"] == {"seat": 0, "ply": 1, "reason": "quit"}


# --- stopping ------------------------------------------------------------------------------

def test_quit_and_ctrl_d_are_recorded_as_stopped_by_the_player(tmp_path):
    for keys, reason in (("quit", "quit"), (b"\x04", "end of input")):
        term = Terminal(tmp_path, "--ai", "random", "--seed", "4", "--players", "3",
                        "--seat", "1", "--out", f"{reason}.json")
        try:
            term.prompt()
            moves = shown_moves(term.seen)   # player 0 (random) moved first
            lines, _ = term.answer("pass")
            if keys == b"\x04":
                os.write(term.master, keys)   # Ctrl-D at an empty line: end of input
            else:
                term.type(keys)
            assert term.finish() == 0
        finally:
            term.close()
        record = load(tmp_path / f"{reason}.json")
        assert record["moves"] == moves + ["pass"]
        assert len(moves) == 2
        assert record["meta"]["stopped"] == {"seat": 1, "ply": 3, "reason": reason}
        assert record["meta"]["truncated"] is False
        assert f"stopped ({reason}) after 3 moves" in term.seen
