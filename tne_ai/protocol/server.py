"""`tne engine`: the protocol of docs/PROTOCOL.md served over our search, in one warm process.

The numba kernels are loaded once, at start (a tiny search warms them before the first
``hello`` is answered), so every ``go`` after the first costs only its search.

Searching
---------
A ``go`` runs one ``Search`` (tne_ai/search/session.py) in a worker thread: ONE set of
trees (``threads`` root-parallel ones) grown for the whole budget (``iterations``, ``time``
or ``infinite``), never cut into fresh trees.  Every ``info_interval`` seconds the search
pauses between batches for an ``info`` line read from the trees (iterations = the root's
visits, which keep growing); the pauses do not change the search.  ``stop`` and ``quit``
stop it after the batch in progress, whatever the budget.  ``bestmove`` gives the move the
search chooses (the most visited; a root commit by the commit margin), its principal
variation to the end of the turn read from the tree (``Search.pv_line``) and the
statistics of the root moves.

Options
-------
The engine's options are the search's (``SearchConfig``, tne_ai/search/config.py: one name,
one bound and one check per option, the same as the ``mcts:`` spec and the Python API),
listed by ``hello`` and set by ``setoption``, plus ``info_interval``.  ``iterations`` and
``time``, the budget, are ``go``'s own keys (bounded by the same rows), and so is
``threads`` for one search.

Seeds and reuse
---------------
The k-th ``go`` since ``newgame`` (or the start) searches with seed ``move_seed(seed, k)``,
as the ``mcts`` agent numbers its moves.  The last Search is kept: when the next position
follows from its root without a draw (the second action of a turn, or after the opponents'
decisions in a conflict) and reuse is on, it moves on to it (``session.next_search``, the
agent's own rule), so with the same seed and iteration budget the engine plays the agent's
moves with the agent's statistics.  The position of a ``game`` record is replayed from the
previous one when the record extends it.
"""
import json
import sys
import threading
import time

from tne_ai import __version__
from tne_ai import limits as L
from tne_ai.errors import TneError
from tne_ai.protocol.messages import PROTOCOL_VERSION, Option, ProtocolError, encode, line_reader, parse_client
from tne_ai.search.config import SearchConfig, SearchConfigError, canonical, check_value
from tne_ai.search.config import options as search_options

ENGINE_NAME = "tne"


def _option(row):
    """The protocol Option of a SearchConfig row (hello lists it; setoption checks through
    the config)."""
    kind = {"int": "int", "float": "float", "bool": "bool", "choice": "string",
            "path": "string"}[row.type]
    default = row.default
    option = Option(row.name, kind, default, row.low, row.high, row.help)
    option.choices = row.choices
    option.low_open = row.low_open
    return option


ENGINE_ONLY = [Option("info_interval", "float", 0.5, 0.01, 60.0,
                      "seconds between the info lines of a go")]
# iterations and time are go's own keys (its budget), not options
GO_KEYS = ("iterations", "time")
# go infinite searches until stop, at most this long (the longest time budget of a go): its
# trees count visits in int32, which an hour fills only at 600,000 iterations a second (a
# few times this machine's rate of one thread, bench/README.md)
INFINITE_SECONDS = L.MAX_SECONDS
OPTIONS = [_option(row) for row in search_options() if row.name not in GO_KEYS] + ENGINE_ONLY


class EngineServer:
    """Reads protocol lines from ``read_line`` (returns '' at end of input) and writes
    replies with ``write_line``; ``serve()`` runs until ``quit`` or end of input."""

    def __init__(self, read_line=None, write_line=None):
        self.read_line = read_line or line_reader(sys.stdin.buffer)
        self._write = write_line or self._stdout
        self.lock = threading.Lock()
        self.config = SearchConfig()            # the search options set so far
        self._warmed = SearchConfig()           # the options whose kernels are loaded
        self.options = {o.name: o.default for o in ENGINE_ONLY}
        self.by_name = {o.name: o for o in OPTIONS}
        self.position = None        # Position of the player to act
        self.game = None            # (record moves, Position) of the last game position
        self.calls = 0
        self.last = None            # the last Search (its trees), for reuse
        self.worker = None
        self.stop_event = threading.Event()
        self.current = None         # the Search running now (its stop() is what stop calls)
        self.abandon = False
        self.busy = False           # from go until its bestmove is written

    @staticmethod
    def _stdout(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def send(self, message):
        with self.lock:
            self._write(encode(message))

    def send_last(self, message):
        """Send the bestmove of a go and mark the search done, in one step."""
        with self.lock:
            if self.abandon:  # quit came first: no bestmove
                return
            self.busy = False
            self._write(encode(message))

    def error(self, text):
        self.send({"type": "error", "message": text})

    def searching(self):
        return self.busy

    # --- the loop -----------------------------------------------------------------------
    def serve(self):
        warm_up()
        while True:
            line = self.read_line()
            if not line:
                self._quit()
                return
            if not line.strip():
                continue
            try:
                msg = parse_client(line)
            except ProtocolError as e:
                self.error(str(e))
                continue
            if msg["type"] == "quit":
                self._quit()
                return
            try:
                getattr(self, "do_" + msg["type"])(msg)
            except TneError as e:
                self.error(f"{msg['type']}: {' '.join(str(e).split())}")

    def _quit(self):
        self.abandon = True  # before the stop: a worker that sees the stop sees this too
        self._stop_search()
        if self.worker is not None:
            self.worker.join(timeout=5)  # the search ends after its batch; then exit regardless

    def _idle(self, what):
        if self.searching():
            raise ProtocolError(f"a search is running; send stop before {what}")

    # --- messages -----------------------------------------------------------------------
    def do_hello(self, msg):
        self._idle("hello")
        self.send({"type": "hello", "name": ENGINE_NAME, "version": __version__,
                   "protocol": PROTOCOL_VERSION,
                   "options": [o.to_dict() for o in OPTIONS]})

    def do_isready(self, msg):
        # the options set may call for kernels the start did not load (the value network,
        # the policy): a tiny search with them loads (or compiles) them now, not in a timed go
        if self.config != self._warmed and not self.searching():
            warm_up(self.config)
            self._warmed = self.config
        self.send({"type": "readyok"})

    def do_setoption(self, msg):
        self._idle("setoption")
        name = msg["name"]
        if name in self.options:
            self.options[name] = self.by_name[name].check(msg["value"])
            return
        try:
            key = canonical(name)
        except SearchConfigError:
            key = None
        if key is None or key in GO_KEYS:
            from tne_ai.limits import clip
            shown = clip(json.dumps(name)[1:-1], 60)   # a hostile name: short, one line
            raise ProtocolError(f"unknown option '{shown}' (options: "
                                f"{', '.join(self.by_name)})")
        value = msg["value"]
        # null (JSON) is the engine's own choice for an option whose default is null, and
        # refused for any other; a refusal spells null, true and false as the line did
        shown = json.dumps(value) if value is None or isinstance(value, bool) else None
        config = self.config.replace(
            **{key: check_value(key, value, shown and f"option {key}={shown}")})
        # a weights or network file is read now: a bad one is this line's error, not go's
        if key == "weights" and config.weights is not None:
            from tne_ai.search.evaluate import load_weights
            load_weights(config.weights)
        if key in ("net", "evaluation", "policy", "prior"):
            from tne_ai.search.session import check_files
            check_files(config)
        self.config = config

    def do_newgame(self, msg):
        self._idle("newgame")
        self.position = None
        self.game = None
        self.calls = 0
        self.last = None

    def do_position(self, msg):
        self._idle("position")
        from tne_ai.position import Position
        if "position" in msg:
            p = Position.from_json(msg["position"], seed=self.calls)
            self.game = None
        else:
            p = self._game_position(msg["game"], msg.get("ply"))
        if not p.is_over() and p.hand(p.to_act) is None:
            raise ProtocolError(f"the hand of player {p.to_act}, who must act, is unknown "
                                f"(hands[{p.to_act}] is null)")
        self.position = p

    def _game_position(self, record, ply):
        from tne_ai.core.formats import load_game_record
        from tne_ai.position import Position
        record = load_game_record(record)
        moves = record["moves"]
        ply = len(moves) if ply is None else ply
        if ply > len(moves):
            raise ProtocolError(f"ply {ply}: the game has {len(moves)} moves")
        if self.game is not None and self.game[0] == record["start"] and \
                moves[:len(self.game[1])] == self.game[1] and len(self.game[1]) <= ply:
            p, done = self.game[2].copy(), len(self.game[1])
        else:
            p, done = Position.from_json(record["start"]), 0
        for i in range(done, ply):
            try:
                p.push(moves[i])
            except TneError as e:
                raise ProtocolError(f"game move {i + 1} '{moves[i]}': {e}") from None
        self.game = (record["start"], list(moves[:ply]), p.copy())
        return p

    def do_stop(self, msg):
        self._stop_search()  # no search running: nothing to stop

    def _stop_search(self):
        """Stop the go in progress within a batch of iterations, whatever its budget and
        thread count: its Search is stopped (a go whose Search is not made yet sees the flag
        when it registers)."""
        self.stop_event.set()
        current = self.current
        if current is not None:
            current.stop()

    def _started(self, search):
        """The Search of a go registers here before it runs; one registered after a stop is
        stopped at once (it ends after its first batch)."""
        self.current = search
        if self.stop_event.is_set():
            search.stop()

    def do_go(self, msg):
        self._idle("go")
        if self.position is None:
            raise ProtocolError("no position: send position before go")
        if self.position.is_over():
            raise ProtocolError("the game is over; there is no move to choose")
        self.calls += 1
        self.stop_event.clear()
        self.abandon = False
        self.busy = True
        st = self.position.st.copy()
        self.worker = threading.Thread(target=self._run, args=(st, msg, self.calls), daemon=True)
        self.worker.start()

    # --- the search ---------------------------------------------------------------------
    def _run(self, st, msg, call):
        try:
            self._go(st, msg, call)
        except Exception as e:  # a bug must not kill the server silently
            self.busy = False
            self.error(f"go: internal error: {type(e).__name__}: {e}")

    def _go(self, st, msg, call):
        from tne_ai.search.session import move_seed, next_search, seconds_left
        start = time.perf_counter()        # the move's time runs from here (seconds_left)
        cfg = self.config.replace(threads=msg.get("threads", self.config.threads),
                                  seed=move_seed(self.config.seed, call))
        iterations, seconds = msg.get("iterations"), msg.get("time")
        infinite = msg.get("infinite", False)
        s = next_search(self.last, st, cfg)
        self.last = s
        self._started(s)
        # go infinite runs until stop, and at most INFINITE_SECONDS: a timer stops it then
        # (not a time budget, which would size the trees for the whole hour at the start)
        timer = threading.Timer(INFINITE_SECONDS, s.stop) if infinite else None

        # the root's visits of the last info line sent: a line whose count has not grown
        # since (the search's time ran out just after a report) says nothing new
        sent = [-1]

        def report(info, d=None, seconds=None):
            line = self._info(info, time.perf_counter() - start if seconds is None else seconds, d)
            if line["iterations"] != sent[0]:
                sent[0] = line["iterations"]
                self.send(line)
        if timer is not None:
            timer.daemon = True
            timer.start()
        try:
            info = s.run(iterations, seconds_left(seconds, start), report=report,
                         every=self.options["info_interval"])
        finally:
            if timer is not None:
                timer.cancel()
        if self.abandon:
            return
        elapsed = time.perf_counter() - start
        d = info.to_dict()
        best = d["lines"][0]
        if not info.forced:
            report(info, d, elapsed)
        self.send_last({"type": "bestmove", "move": d["move"], "win": best["win"],
                        "pv": best["pv"], "pv_win": best["pv_win"],
                        "iterations": d["visits"], "nodes": d["nodes"],
                        "seconds": round(elapsed, 4),
                        # a move the search never went through (a forced move) has no win chance
                        "alternatives": [{"move": a["move"], "visits": a["visits"],
                                          "win": a["win"]} for a in d["alternatives"][:10]]})

    @staticmethod
    def _info(info, seconds, d=None):
        """The info line of a SearchInfo (``d``: its ``to_dict()`` when made already)."""
        d = info.to_dict() if d is None else d
        best = d["lines"][0]
        return {"type": "info", "iterations": d["visits"], "nodes": d["nodes"],
                "seconds": round(seconds, 4), "move": d["move"], "win": best["win"],
                "pv": best["pv"]}


def warm_up(config=None):
    """Load (or compile) the kernels the search uses (with the options of ``config``, a
    SearchConfig): one tiny search of a new game."""
    from tne_ai.position import Position
    from tne_ai.search.session import Search
    warm = (config or SearchConfig()).replace(iterations=None, time=None, threads=1)
    Search(Position.new(2, seed=0), warm).run(iterations=64)


def main():
    """Serve on stdin/stdout (the `tne engine` command)."""
    server = EngineServer()
    server.serve()
    # quit (or the end of input) was answered: leave at once.  The interpreter's own
    # teardown (module and numba clean-up, joining idle pool threads) takes most of a second
    # on a busy machine, and a GUI waits for the process to end; nothing is left to write.
    import os
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
