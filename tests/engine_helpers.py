"""A protocol client for tests: drives an engine subprocess line by line (docs/PROTOCOL.md).

Lines are read by a thread into a queue and waited for with generous timeouts, so the tests
are deterministic under CPU load: nothing sleeps and hopes."""
import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 300  # seconds: the first start may compile the kernels on a loaded machine


def tne_engine_command():
    return [sys.executable, str(ROOT / "cli.py"), "engine"]


class EngineProcess:
    """``binary``: stdin and stdout as bytes (``send`` takes raw bytes, for lines that are not
    UTF-8); ``env``: variables set for the engine, None removing one."""

    def __init__(self, command=None, binary=False, env=None):
        environ = dict(os.environ, PYTHONPATH=str(ROOT))
        for key, value in (env or {}).items():
            if value is None:
                environ.pop(key, None)
            else:
                environ[key] = value
        self.binary = binary
        text = {} if binary else {"text": True, "bufsize": 1}
        self.proc = subprocess.Popen(command or tne_engine_command(), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=environ, cwd=str(ROOT), **text)
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, message):
        if self.binary:
            raw = message if isinstance(message, bytes) else \
                (message if isinstance(message, str) else json.dumps(message)).encode()
            self.proc.stdin.write(raw + b"\n")
        else:
            text = message if isinstance(message, str) else json.dumps(message)
            self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def read(self, timeout=TIMEOUT):
        """The next message (dict); None at the end of output."""
        line = self.lines.get(timeout=timeout)
        return None if line is None else json.loads(line)

    def until(self, kind, timeout=TIMEOUT):
        """Messages up to and including the first of type ``kind``."""
        out = []
        while True:
            msg = self.read(timeout)
            assert msg is not None, f"the engine ended before a {kind} line: {out}"
            out.append(msg)
            if msg["type"] == kind:
                return out

    def sync(self):
        """Send isready; return the messages before readyok."""
        self.send({"type": "isready"})
        return self.until("readyok")[:-1]

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send({"type": "quit"})
            except OSError:
                pass
            try:
                self.proc.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        try:
            self.stderr = self.proc.stderr.read()   # all the engine wrote there, once it ended
        except (OSError, ValueError):
            self.stderr = b"" if self.binary else ""
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass
