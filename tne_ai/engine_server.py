"""`tne engine`: the protocol of docs/PROTOCOL.md served over our search, in one warm process.

The numba kernels are loaded once, at start (a tiny search warms them before the first
``hello`` is answered), so every ``go`` after the first costs only its search.

Searching
---------
``go`` runs in a worker thread, in *slices*: each slice is one call of the public
``search()``; the root statistics of the slices are merged (summed visits and rewards per
action, the way root-parallel trees merge), and an ``info`` line follows each slice, its ``pv`` planned by
quick follow-up searches (``INFO_PV_ITERATIONS`` each, redone only when the best move changes).  An
iteration budget is cut into slices of at most ``slice_iterations`` (so a budget that fits in
one slice is exactly one ``search()`` call: the in-process ``mcts`` agent's move, for the same
seed); a time budget and ``infinite`` into slices of ``info_interval`` seconds.  ``stop`` and
``quit`` stop the search running at the time (each registers itself through ``on_start``)
after its batch of iterations, whatever the budget.  Then the rest of the turn is planned
(analyse.plan_rest; after a stop, the quick plan of the info lines) and ``bestmove`` is sent.

Seeds: the search of the k-th ``go`` since ``newgame`` (or the start) uses seed
``seed * 100003 + k``, as the ``mcts`` agent numbers its moves.

Reuse between positions
-----------------------
The last search (its trees) is kept.  The next ``go`` starts from the subtree of the new
position when that position follows from the last one without a draw (the second action of
a turn, or after the opponents' decisions in a conflict: ``search(..., reuse=...)``), exactly
as the in-process ``mcts`` agent does, so with the same seeds and an iteration budget of one
slice the engine plays the agent's moves (``reuse``, on by default).  The position of a
``game`` record is replayed from the previous one when the record extends it.
"""
import sys
import threading
import time

from . import __version__
from . import state as S
from .analyse import follow_up_budget, merge, may_continue, plan_rest
from .errors import TneError
from .notation import move_text
from .protocol import (MAX_SECONDS, MAX_THREADS, PROTOCOL_VERSION, Option, ProtocolError, encode,
                       line_reader,
                       parse_client)

ENGINE_NAME = "tne"
INFO_PV_ITERATIONS = 256  # each follow-up search of the plan shown in info lines


OPTIONS = [
    Option("threads", "int", 1, 1, MAX_THREADS, "root-parallel search trees (go threads wins)"),
    Option("seed", "int", 0, 0, 2 ** 63 - 1, "seed of the searches"),
    Option("c", "float", None, 0.01, 10.0, "UCB exploration constant (null: the search's own)"),
    Option("rollout", "int", 0, -1, 1000, "random moves before the evaluation (-1: to the end)"),
    Option("leader", "float", None, 0.0, 10.0,
           "evaluation value of a leader on the board (null: the evaluation's own)"),
    Option("reuse", "bool", True, doc="start from the last search's subtree when the position follows from it"),
    Option("pv", "bool", True, doc="plan the rest of the turn after the best move"),
    Option("info_interval", "float", 0.5, 0.01, 60.0, "seconds per slice (time, infinite)"),
    Option("slice_iterations", "int", 20000, 32, 10_000_000, "iterations per slice"),
]


class EngineServer:
    """Reads protocol lines from ``read_line`` (returns '' at end of input) and writes
    replies with ``write_line``; ``serve()`` runs until ``quit`` or end of input."""

    def __init__(self, read_line=None, write_line=None):
        self.read_line = read_line or line_reader(sys.stdin.buffer)
        self._write = write_line or self._stdout
        self.lock = threading.Lock()
        self.options = {o.name: o.default for o in OPTIONS}
        self.by_name = {o.name: o for o in OPTIONS}
        self.position = None        # Position of the player to act
        self.game = None            # (record moves, Position) of the last game position
        self.calls = 0
        self.last = None            # the last search (SearchResult with its trees), for reuse
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
        self.send({"type": "hello", "name": ENGINE_NAME, "version": __version__,
                   "protocol": PROTOCOL_VERSION,
                   "options": [o.to_dict() for o in OPTIONS]})

    def do_isready(self, msg):
        self.send({"type": "readyok"})

    def do_setoption(self, msg):
        self._idle("setoption")
        option = self.by_name.get(msg["name"])
        if option is None:
            import json
            from .limits import clip
            name = clip(json.dumps(msg["name"])[1:-1], 60)   # a hostile name: short, one line
            raise ProtocolError(f"unknown option '{name}' (options: "
                                f"{', '.join(self.by_name)})")
        self.options[option.name] = option.check(msg["value"])

    def do_newgame(self, msg):
        self._idle("newgame")
        self.position = None
        self.game = None
        self.calls = 0
        self.last = None

    def do_position(self, msg):
        self._idle("position")
        from .position import Position
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
        from .formats import load_game_record
        from .position import Position
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
        thread count: the flag ends the loop of slices and the plan, and the Search running
        now (a slice or a follow-up of the plan) is stopped too."""
        self.stop_event.set()
        current = self.current
        if current is not None:
            current.stop()

    def _started(self, search):
        """Every search of a go registers here before it runs (``search(on_start=...)``); one
        started after a stop is stopped at once (it ends after its first batch)."""
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
    def _search_options(self):
        o = self.options
        return {"c": o["c"], "rollout_depth": o["rollout"], "leader_value": o["leader"],
                "on_start": self._started}

    def _run(self, st, msg, call):
        try:
            self._go(st, msg, call)
        except Exception as e:  # a bug must not kill the server silently
            self.busy = False
            self.error(f"go: internal error: {type(e).__name__}: {e}")

    def _go(self, st, msg, call):
        from .search.session import search
        o = self.options
        threads = msg.get("threads", o["threads"])
        seed = o["seed"] * 100003 + call
        iterations, seconds = msg.get("iterations"), msg.get("time")
        infinite = msg.get("infinite", False)
        if infinite:
            seconds = MAX_SECONDS
        more = o["pv"] and may_continue(st)
        budget_seconds = seconds * 0.8 if (seconds is not None and more and not infinite) else seconds
        options = self._search_options()
        parts = []
        reused = 0
        previous = self.last if o["reuse"] else None
        self.last = None
        start = time.perf_counter()
        done, nodes, slice_no = 0, 0, 0
        sketch = None  # (first move, its quick plan) for the info lines
        alternatives = None
        while True:  # at least one slice, then until the budget is spent or stop
            if iterations is not None:
                step = min(iterations - done, o["slice_iterations"])
                if step <= 0:
                    break
            else:
                step = None
            if budget_seconds is not None:
                left = budget_seconds - (time.perf_counter() - start)
                if left <= 0 and done > 0:
                    break
                slice_seconds = max(0.001, min(left, o["info_interval"]))
            else:
                slice_seconds = None
            r = search(st, iterations=step, seconds=slice_seconds, threads=threads,
                       seed=seed + 7919 * slice_no, reuse=previous if slice_no == 0 else None,
                       **options)
            if slice_no == 0:
                reused = r.reused
            self.last = r
            slice_no += 1
            done += r.iterations
            nodes += r.nodes
            parts.append(r.alternatives)
            alternatives = merge(parts)
            if r.iterations == 0:  # one legal move: nothing to search
                break
            info = self._info(alternatives, done + reused, nodes, time.perf_counter() - start)
            if more:  # a quick plan of the rest of the turn after the best move so far
                first = alternatives[0][0]
                if sketch is None or sketch[0] != first:
                    sketch = (first, plan_rest(st, first, INFO_PV_ITERATIONS, None, 1, seed,
                                               options))
                info["pv"] += [move_text(a) for a, _, _ in sketch[1]]
            self.send(info)
            if self.stop_event.is_set():
                break
        if self.abandon:
            return
        best, _, win = alternatives[0]
        if int(st[S.PHASE]) in (S.PH_REVOLT, S.PH_WAR) and done > 0:
            # a commit is chosen as the search chooses it (smallest_commit), not by visits
            from .search.mcts import DEFAULTS, commit_outcomes, smallest_commit
            margin = DEFAULTS["model"]["commit_margin"]
            best = r.move if slice_no == 1 else smallest_commit(alternatives, margin, commit_outcomes(st))
            win = {a: m for a, _, m in alternatives}.get(best, win)
        win = None if done == 0 and reused == 0 else win  # a forced move is not searched
        rest = []
        if more and not self.abandon and self.stop_event.is_set():
            # stopped: answer at once with the quick plan of the info lines (or one made now
            # at that budget), not with the follow-ups of the whole budget
            if sketch is not None and sketch[0] == best:
                rest = sketch[1]
            else:
                quick = {k: v for k, v in options.items() if k != "on_start"}
                rest = plan_rest(st, best, INFO_PV_ITERATIONS, None, 1, seed, quick)
        elif more and not self.abandon:
            it, sec = follow_up_budget(iterations if iterations is not None else max(32, done),
                                       None if iterations is not None else
                                       (seconds if not infinite else 0.5))
            rest = plan_rest(st, best, it, sec, threads, seed, options)
        if self.abandon:
            return
        pv = [move_text(best)] + [move_text(a) for a, _, _ in rest]
        elapsed = time.perf_counter() - start
        if rest:  # the plan is made: one more info line with the whole of it
            info = self._info(alternatives, done + reused, nodes, elapsed)
            self.send(dict(info, pv=pv))
        self.send_last({"type": "bestmove", "move": move_text(best), "win": _r(win), "pv": pv,
                   "pv_win": [_r(win)] + [_r(w) for _, w, _ in rest],
                   "iterations": done + reused, "nodes": nodes, "seconds": round(elapsed, 4),
                   # a move the search never went through (a forced move) has no win chance
                   "alternatives": [{"move": move_text(a), "visits": v,
                                     "win": round(m, 4) if v > 0 else None}
                                    for a, v, m in alternatives[:10]]})

    @staticmethod
    def _info(alternatives, iterations, nodes, seconds):
        best, _, win = alternatives[0]
        return {"type": "info", "iterations": iterations, "nodes": nodes,
                "seconds": round(seconds, 4), "move": move_text(best), "win": _r(win),
                "pv": [move_text(best)]}


def _r(x):
    return None if x is None else round(float(x), 4)


def warm_up():
    """Load (or compile) the kernels the search uses: one tiny search of a new game."""
    from .position import Position
    from .search.session import search
    p = Position.new(2, seed=0)
    search(p.st, iterations=64, seed=0)


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
