"""Progress lines on stderr for the CLI's long steps (compiling, self-play, fitting, reviews).

On a terminal one line is rewritten in place (``\\r``) as the work goes and ended when it is
done; on a pipe or a file, whole lines are written: a stage's first and last, and between them at
most one every ``every`` seconds, so that a log stays short.  On a pipe a stage's latest
line is held back until the next stage starts or ``end()`` is called, so every stage must be
ended (the CLI ends each one, also when it fails or stops early): then its last line, with
the final count ("4 of 4 moves reviewed"), is always written.  ``quiet`` writes nothing
(``tne -q``).
"""
import contextlib
import sys
import threading
import time


class Progress:
    """``say(stage, text)`` reports how far a stage is; ``end(text)`` closes it."""

    def __init__(self, stream=None, quiet=False, every=5.0, clock=time.monotonic):
        self.stream = stream if stream is not None else sys.stderr
        self.quiet = quiet
        self.every = every
        self.clock = clock
        self.stage = None
        self.last = None
        self.open = False
        self.pending = None     # a pipe's latest line not written yet (the stage's last, so far)
        self.lock = threading.Lock()
        try:
            self.tty = self.stream.isatty()
        except (AttributeError, ValueError):
            self.tty = False

    def say(self, stage, text):
        if self.quiet:
            return
        with self.lock:
            now = self.clock()
            new = stage != self.stage
            if self.tty:
                if new and self.open:
                    self.stream.write("\n")
                self.stream.write(f"\r\x1b[K{text}")
                self.open = True
            elif new or self.last is None or now - self.last >= self.every:
                if new and self.pending is not None:
                    self.stream.write(self.pending + "\n")
                self.stream.write(text + "\n")
                self.last = now
                self.pending = None
            else:
                self.pending = text
            self.stage = stage
            self.stream.flush()

    def end(self, text=None):
        """The stage's last line (``text``), or just the end of the terminal's line."""
        if self.quiet:
            return
        with self.lock:
            if self.pending is not None:
                self.stream.write(self.pending + "\n")
                self.pending = None
            if text is not None:
                self.stream.write(f"\r\x1b[K{text}\n" if self.tty else text + "\n")
            elif self.open:
                self.stream.write("\n")
            self.open = False
            self.stage = None
            self.last = None
            self.stream.flush()


@contextlib.contextmanager
def ticking(progress, stage, text, interval=1.0):
    """While the block runs, ``progress.say(stage, text(seconds so far))`` every ``interval``
    seconds from a thread (for work that cannot report, such as numba compiling)."""
    start = time.monotonic()
    stop = threading.Event()

    def run():
        while not stop.wait(interval):
            progress.say(stage, text(time.monotonic() - start))

    progress.say(stage, text(0.0))
    thread = threading.Thread(target=run, daemon=True, name="tne-progress")
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
