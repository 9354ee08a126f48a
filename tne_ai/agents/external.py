"""The ``engine:CMD`` agent: any program that speaks docs/PROTOCOL.md, in its own process.

Spec: ``engine:CMD`` or ``engine[KEY=VALUE,...]:CMD``, e.g. ``engine:python my_bot.py``,
``engine[iterations=500]:tne engine``, ``engine[time=0.5,set.c=0.9]:./bot``.  Keys:

``time``        seconds per move, sent as ``go time`` (default 1 when no ``iterations``)
``iterations``  iterations per move, sent as ``go iterations``
``threads``     sent as ``go threads``
``seed``        given to the engine as its ``seed`` option, if it lists one (a tournament
                gives each seat a seed)
``timeout``     seconds to wait for a move when only ``iterations`` bounds it (default 60)
``startup``     seconds to wait for ``hello`` and ``readyok`` at start (default 120)
``set.NAME``    the engine option NAME (``set.reuse=false``); the value is read as JSON
                (numbers, true, false), else as a string

What the engine sees: the position as its seat sees it (``Position.view``'s tne-position/1
object: only its own hand known and no bag, so the other hands are ``null`` and the bag is left
to counts) and the legal moves, never a hand it was not given.

Time: with ``time`` T the move must arrive within T + ``margin(T)`` = T + max(0.5 s, T/2)
of the ``go``; with only ``iterations``, within ``timeout``.  An engine that exits, sends
no move in time, answers ``error`` or a move that does not parse or is not legal forfeits:
``choose`` raises AgentForfeit with the reason, and the process is killed.
"""
import collections
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time

from tne_ai import limits as L
from tne_ai.agents.base import Agent, AgentForfeit, AgentSpecError
from tne_ai.errors import InputError, NotationError
from tne_ai.core.io import parse_float, parse_int, read_json
from tne_ai.core.notation import move_text, parse_move
from tne_ai.protocol.messages import PROTOCOL_VERSION, ProtocolError, encode, parse_engine

DEFAULT_TIME = 1.0
DEFAULT_TIMEOUT = 60.0
DEFAULT_STARTUP = 120.0
MIN_MARGIN = 0.5
TOO_LONG = object()  # what the stdout reader queues for a line over L.MAX_JSON_BYTES
QUEUED_LINES = 256   # stdout lines read ahead of the agent; beyond, the engine's writes wait
SPEC_KEYS = {"time": float, "iterations": int, "threads": int, "seed": int, "timeout": float,
             "startup": float}
# their bounds (tne_ai/limits.py; docs/cli.md, "Limits"); the seconds are above the low bound
_SPEC_RANGES = {"time": (0, L.MAX_SECONDS), "iterations": (1, L.MAX_ITERATIONS),
                "threads": (1, L.MAX_THREADS), "seed": (0, L.MAX_SEED),
                "timeout": (0, L.MAX_SECONDS), "startup": (0, L.MAX_SECONDS)}


def margin(seconds):
    """Extra seconds an engine gets beyond its ``go time`` before it forfeits."""
    return max(MIN_MARGIN, 0.5 * seconds)


def parse_engine_spec(spec):
    """The options dict of an ``engine...:CMD`` spec (``command`` and the keys above)."""
    text = spec.strip()
    head, colon, command = text.partition(":")
    head = head.strip()
    if head.lower().startswith("engine["):
        if not head.endswith("]"):
            raise AgentSpecError(f"spec '{spec}': engine options go in brackets: "
                                 f"engine[time=1]:CMD")
        items = head[len("engine["):-1]
    elif head.lower() == "engine":
        items = ""
    else:
        raise AgentSpecError(f"spec '{spec}' is not an engine spec (engine:CMD)")
    if not colon or not command.strip():
        raise AgentSpecError(f"spec '{spec}': give the engine's command after 'engine:'")
    try:
        words = shlex.split(command)
    except ValueError as e:
        raise AgentSpecError(f"spec '{spec}': the command does not parse: {e}") from None
    if not words:
        raise AgentSpecError(f"spec '{spec}': give the engine's command after 'engine:'")
    options = {"command": command.strip(), "engine_options": {}}
    for item in filter(None, (x.strip() for x in items.split(","))):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq:
            raise AgentSpecError(f"option '{item}' in spec '{spec}' needs a value (key=value)")
        if key.startswith("set.") and len(key) > 4:
            try:
                options["engine_options"][key[4:]] = read_json(value, key)
            except InputError:   # not JSON: the text itself
                options["engine_options"][key[4:]] = value
            continue
        kind = SPEC_KEYS.get(key.lower())
        if kind is None:
            raise AgentSpecError(f"unknown option '{key}' for engine in spec '{spec}' (known: "
                                 f"{', '.join(SPEC_KEYS)}, set.NAME)")
        lo, hi = _SPEC_RANGES[key.lower()]
        try:
            if kind is int:
                options[key.lower()] = parse_int(value, "value", lo, hi)
            else:
                options[key.lower()] = parse_float(value, "value", lo, hi, lo_open=True)
        except InputError as e:
            why = str(e).partition(": ")[2]
            raise AgentSpecError(f"option {L.clip(key, 40)} in spec '{L.clip(spec, 80)}': "
                                 f"{why}") from None
    return options


class ExternalAgent(Agent):
    """An engine process speaking the protocol; started at the first move, one per agent."""

    def __init__(self, command, engine_options=None, time=None, iterations=None, threads=None,
                 seed=0, timeout=DEFAULT_TIMEOUT, startup=DEFAULT_STARTUP):
        self.command = command
        self.words = shlex.split(command)
        self.engine_options = dict(engine_options or {})
        self.time = DEFAULT_TIME if time is None and iterations is None else time
        self.iterations = iterations
        self.threads = threads
        self.seed = seed
        self.timeout = timeout
        self.startup = startup
        self.name = "engine:" + command
        self.proc = None
        self.lines = queue.Queue(maxsize=QUEUED_LINES)
        self.stderr_tail = collections.deque(maxlen=5)
        self.stderr_pump = None
        self.engine_info = None
        self.last_info = None

    # --- process ------------------------------------------------------------------------
    def _start(self):
        try:
            self.proc = subprocess.Popen(self.words, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, encoding="utf-8",
                                         errors="replace", bufsize=1, start_new_session=True)
        except OSError as e:
            raise AgentForfeit(f"cannot start engine '{self.command}': "
                               f"{e.strerror or e}") from None
        threading.Thread(target=self._pump, args=(self.proc.stdout, True), daemon=True).start()
        self.stderr_pump = threading.Thread(target=self._pump, args=(self.proc.stderr, False),
                                            daemon=True)
        self.stderr_pump.start()
        self._send({"type": "hello", "protocol": PROTOCOL_VERSION})
        hello = self._wait("hello", time.monotonic() + self.startup, "hello")
        self.engine_info = hello
        if hello["protocol"] != PROTOCOL_VERSION:
            self._forfeit(f"speaks protocol {hello['protocol']}, not {PROTOCOL_VERSION}")
        names = {o.get("name") for o in hello.get("options") or [] if isinstance(o, dict)}
        settings = dict(self.engine_options)
        if "seed" in names and "seed" not in settings:
            settings["seed"] = int(self.seed)
        for name, value in settings.items():
            self._send({"type": "setoption", "name": name, "value": value})
        self._send({"type": "newgame"})
        self._send({"type": "isready"})
        self._wait("readyok", time.monotonic() + self.startup, "readyok")

    def _pump(self, stream, is_stdout):
        """Read the engine's stdout (into ``lines``) or stderr (its last lines, each clipped)
        a line at a time, each line at most MAX_JSON_BYTES characters: a longer stdout line
        ends the reading (``TOO_LONG``: the engine forfeits), a longer stderr line is kept
        clipped and the rest of it skipped."""
        limit = L.MAX_JSON_BYTES
        try:
            while True:
                line = stream.readline(limit + 1)
                if not line:
                    break
                too_long = len(line) > limit and not line.endswith("\n")
                if is_stdout:
                    if not self._queue(TOO_LONG if too_long else line) or too_long:
                        return
                    continue
                self.stderr_tail.append(L.clip(line.rstrip()))
                while too_long and line and not line.endswith("\n"):
                    line = stream.readline(limit + 1)
        except (OSError, ValueError):
            pass
        if is_stdout:
            self._queue(None)  # end of output

    def _queue(self, item):
        """Put item on ``lines``, waiting while it is full (at most QUEUED_LINES lines ahead)
        until the agent reads or closes the engine; False once closed."""
        while True:
            try:
                self.lines.put(item, timeout=0.5)
                return True
            except queue.Full:
                if self.proc is None:
                    return False

    def _send(self, message):
        try:
            self.proc.stdin.write(encode(message) + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):
            self._forfeit(self._exit_text())

    def _exit_text(self):
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        if code is not None and self.stderr_pump is not None:
            # the process is gone: its last stderr lines are in the pipe, let the pump read
            # them to the end before quoting them (a loaded machine may not have run it yet)
            self.stderr_pump.join(timeout=2)
        tail = " | ".join(x for x in self.stderr_tail if x)
        return (f"the engine exited (code {code})" if code is not None else
                "the engine closed its output") + (f": {tail}" if tail else "")

    def _wait(self, kind, deadline, what):
        """The next ``kind`` message before ``deadline``; other messages are kept or skipped;
        an ``error`` line, a malformed line, end of output or the deadline forfeit."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self._forfeit(f"no {what} within {self._limit_text()}")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                self._forfeit(self._exit_text())
            if line is TOO_LONG:
                self._forfeit(f"sent a line over {L.MAX_JSON_BYTES} characters")
            if not line.strip():
                continue
            try:
                msg = parse_engine(line)
            except ProtocolError as e:
                self._forfeit(f"sent a bad line ({e}): {line.strip()[:120]}")
            if msg["type"] == "error":
                self._forfeit(f"answered error: {msg['message']}")
            if msg["type"] == "info":
                self.last_info = msg
            if msg["type"] == kind:
                return msg

    def _limit_text(self):
        return getattr(self, "_limit", "the time allowed")

    def _forfeit(self, reason):
        self.close(kill=True)
        raise AgentForfeit(f"engine '{self.command}' forfeits: {reason}")

    def close(self, kill=False):
        """Ask the engine to quit (kill it if it does not, or at once with ``kill``)."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        self.proc = proc  # _exit_text may still read it
        if not kill and proc.poll() is None:
            try:
                proc.stdin.write(encode({"type": "quit"}) + "\n")
                proc.stdin.flush()
                proc.wait(timeout=2)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                stream.close()
            except (OSError, ValueError):
                pass
        self.proc = None

    def __del__(self):
        try:
            self.close(kill=True)
        except Exception:
            pass

    # --- moves --------------------------------------------------------------------------
    def choose(self, position):
        if self.proc is None:
            self._start()
        me = position.to_act
        view = position.view(me).to_json()
        legal = position.legal_codes()
        texts = sorted(move_text(c) for c in legal)
        self._send({"type": "position", "position": view, "legal": texts})
        go = {"type": "go"}
        if self.iterations is not None:
            go["iterations"] = self.iterations
        if self.time is not None:
            go["time"] = self.time
        if self.threads is not None:
            go["threads"] = self.threads
        if self.time is not None:
            wait = self.time + margin(self.time)
        else:
            wait = self.timeout
        self._limit = f"{wait:g} s"
        self._send(go)
        reply = self._wait("bestmove", time.monotonic() + wait, "bestmove")
        text = reply["move"]
        try:
            code = parse_move(text)
        except NotationError as e:
            self._forfeit(f"answered a move that does not parse: '{text}' ({e})")
        if code not in legal:
            self._forfeit(f"answered an illegal move: '{text}' (player {me} to act)")
        self.last = reply
        return code
