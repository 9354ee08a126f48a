"""The search as a Python API, after python-chess's ``chess.engine``: a ``Limit``, a one-shot
``analyse``, a streaming ``analysis`` for GUIs and ``play`` for the move to make.

Everything runs in this process on ``Search`` (tne_ai/search/session.py) with the options of
a ``SearchConfig`` (tne_ai/search/config.py).  Moves are given as their notation text
(docs/SPEC.md, notation) with the action ``code`` alongside; win chances are the mean reward
of the iterations (1 a win, a shared first place split, 0 a loss; SPEC section 6).  With an
iteration limit and a seed the result is reproducible.

    >>> from tne_ai import Position
    >>> from tne_ai.api import Limit, analyse, play
    >>> infos = analyse(Position.new(players=2, seed=1), Limit(iterations=3000), multipv=3)
    >>> [(i["multipv"], i["move"], i["visits"]) for i in infos]
    [(1, 'leader green J7', 620), (2, 'leader green H7', 381), (3, 'leader green I6', 338)]
    >>> infos[0]["pv"], infos[0]["win"], infos[0]["wins"]
    (['leader green J7', 'leader red I6'], 0.5857, [0.5857, 0.4143])
    >>> play(Position.new(players=2, seed=1), Limit(iterations=3000)).move
    'leader green J7'
"""
import queue
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator, List, Optional, TypedDict, Union

from tne_ai import limits as L
from tne_ai.errors import TneError
from tne_ai.position import Position, State
from tne_ai.search.config import SearchConfig
from tne_ai.search.session import Search, SearchInfo

__all__ = ["Limit", "LimitError", "analyse", "analysis", "Analysis", "play", "PlayResult",
           "InfoDict"]

PositionLike = Union[Position, State]     # a Position or its state buffer


class InfoDict(TypedDict):
    """One line of an analysis (``analyse``'s items, ``Analysis``'s, ``PlayResult.info``)."""
    multipv: int
    move: str
    code: int
    visits: int
    win: Optional[float]
    wins: Optional[List[float]]
    pv: List[str]
    iterations: int
    nodes: int
    seconds: float
    exact: bool


class LimitError(TneError, ValueError):
    """A search limit that is missing or out of range (one line says which)."""


@dataclass(frozen=True)
class Limit:
    """How long to search: ``time`` seconds and/or ``iterations`` (all threads together),
    whichever ends first.  Bounds: 0 < time <= limits.MAX_SECONDS, 1 <= iterations <=
    limits.MAX_ITERATIONS.

    >>> Limit(iterations=5000)
    Limit(time=None, iterations=5000)
    >>> Limit(time=-1)
    Traceback (most recent call last):
    ...
    tne_ai.api.LimitError: Limit time=-1 is out of range (0 < x <= 3600)
    """
    time: Optional[float] = None
    iterations: Optional[int] = None

    def __post_init__(self) -> None:
        t, n = self.time, self.iterations
        if t is not None:
            if isinstance(t, bool) or not isinstance(t, (int, float)) or not (t == t) \
                    or not 0 < t <= L.MAX_SECONDS:
                raise LimitError(f"Limit time={L.clip(t, 40)} is out of range (0 < x <= {L.MAX_SECONDS:g})")
            object.__setattr__(self, "time", float(t))
        if n is not None:
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= L.MAX_ITERATIONS:
                raise LimitError(f"Limit iterations={L.clip(n, 40)} is out of range "
                                 f"(1 <= x <= {L.MAX_ITERATIONS}, an integer)")

    @property
    def bounded(self) -> bool:
        """True when the limit ends a search by itself (a time or an iteration budget)."""
        return self.time is not None or self.iterations is not None


def _config(config: Optional[SearchConfig], seed: Optional[int]) -> SearchConfig:
    cfg = config if config is not None else SearchConfig()
    if not isinstance(cfg, SearchConfig):
        raise LimitError("config must be a SearchConfig (SearchConfig.from_spec('mcts:...'))")
    return cfg if seed is None else cfg.replace(seed=seed)


def _check_multipv(multipv: int) -> int:
    if isinstance(multipv, bool) or not isinstance(multipv, int) or not 1 <= multipv <= L.MAX_MULTIPV:
        raise LimitError(f"multipv={L.clip(multipv, 40)} is out of range (1 <= x <= {L.MAX_MULTIPV})")
    return multipv


def info_dicts(info: SearchInfo, multipv: int = 1) -> List[InfoDict]:
    """The info dicts of a SearchInfo: one per line, best first (fields of its
    ``to_dict()``; seconds to 3 decimals)."""
    d = info.to_dict()
    return [{"multipv": k, "move": m["move"], "code": m["code"], "visits": m["visits"],
             "win": m["win"], "wins": m["wins"], "pv": m["pv"], "iterations": d["iterations"],
             "nodes": d["nodes"], "seconds": round(info.seconds, 3), "exact": d["exact"]}
            for k, m in enumerate(d["lines"][:multipv], 1)]


def analyse(position: PositionLike, limit: Limit, multipv: int = 1,
            config: Optional[SearchConfig] = None, seed: Optional[int] = None) -> List[InfoDict]:
    """Search ``position`` (for the player to act there) within ``limit`` and return one
    info dict per line, best first: multipv (1, 2, ...), move (text), code, visits, win (the
    mover's win chance), wins (every player's), pv (the move and the mover's following
    actions this turn, as text), iterations, nodes, seconds, exact (True when the exact
    endings scored the position: visits are then the worlds solved, win the mean result over
    them; search/ending.py).  ``seed`` replaces the config's.  A forced move (one legal move) is answered unsearched, with win None.

    >>> p = Position.new(players=3, seed=4)
    >>> [i["visits"] for i in analyse(p, Limit(iterations=1000), multipv=2, seed=7)]
    [113, 110]
    """
    if not isinstance(limit, Limit) or not limit.bounded:
        raise LimitError("analyse needs a Limit with a time or an iteration budget")
    multipv = _check_multipv(multipv)
    search = Search(position, _config(config, seed))
    search.run(limit.iterations, limit.time)
    return info_dicts(search.result(multipv), multipv)


@dataclass
class PlayResult:
    """The move ``play`` chose: its text, its action code and the info of its line."""
    move: str
    code: int
    info: InfoDict


def play(position: PositionLike, limit: Limit, config: Optional[SearchConfig] = None,
         seed: Optional[int] = None) -> PlayResult:
    """The move to play in ``position`` after searching within ``limit`` (the in-process
    ``mcts`` agent's choice for the same budget, seed and options)."""
    best = analyse(position, limit, 1, config, seed)[0]
    return PlayResult(best["move"], best["code"], best)


class Analysis:
    """A running analysis (made by ``analysis``): iterate it for info dicts as the search
    goes (``multipv`` dicts per update, best first), ``stop()`` it, ``wait()`` for the
    final ones.  ``info`` holds the latest update's best line."""

    def __init__(self, search: Search, limit: Optional[Limit], multipv: int, interval: float):
        self.search = search
        self.limit = limit
        self.multipv = multipv
        self.interval = interval
        self.info: Optional[InfoDict] = None
        self.lines: List[InfoDict] = []
        self._queue: "queue.Queue[Optional[InfoDict]]" = queue.Queue()
        self._done = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._work, daemon=True)
        self._error: Optional[BaseException] = None

    def _work(self) -> None:
        try:
            self._loop()
        except BaseException as e:      # handed to the reader, not lost in the thread
            self._error = e
        finally:
            self._done.set()
            self._queue.put(None)

    def _loop(self) -> None:
        """One run of the Search for the whole limit (none: until stopped), an update every
        ``interval`` seconds between its rounds, and the final one at its end."""
        limit = self.limit if self.limit is not None else Limit()
        if self._stopping.is_set():
            return
        final = self.search.run(limit.iterations, limit.time, report=self._publish,
                                every=self.interval)
        self._publish(final)

    def _publish(self, info: SearchInfo) -> None:
        self.lines = info_dicts(info, self.multipv)
        self.info = self.lines[0]
        for line in self.lines:
            self._queue.put(line)

    def __iter__(self) -> Iterator[InfoDict]:
        while True:
            item = self._queue.get()
            if item is None:
                if self._error is not None:
                    raise self._error
                return
            yield item

    def stop(self) -> None:
        """End the search after the batch in progress (from any thread)."""
        self._stopping.set()
        self.search.stop()

    def wait(self) -> List[InfoDict]:
        """Wait for the search to end (its limit or ``stop``); the final lines."""
        self._done.wait()
        if self._error is not None:
            raise self._error
        return self.lines


@contextmanager
def analysis(position: PositionLike, config: Optional[SearchConfig] = None,
             limit: Optional[Limit] = None, multipv: int = 1, seed: Optional[int] = None,
             interval: float = 0.2) -> Iterator[Analysis]:
    """Analyse ``position`` in a background thread, one tree that keeps growing; yields an
    ``Analysis`` whose iteration gives info dicts (as ``analyse``'s) every ``interval``
    seconds, until ``limit`` (none: until the block ends or ``stop()``).  Leaving the block
    stops the search.

    >>> with analysis(Position.new(players=2, seed=1), limit=Limit(iterations=2000)) as a:
    ...     seen = [info["iterations"] for info in a]
    >>> seen[-1], seen == sorted(seen)
    (2000, True)
    """
    if limit is not None and not isinstance(limit, Limit):
        raise LimitError("limit must be a Limit (or None: until stopped)")
    if isinstance(interval, bool) or not isinstance(interval, (int, float)) or not 0.01 <= interval <= 60:
        raise LimitError(f"interval={L.clip(interval, 40)} is out of range (0.01 <= x <= 60)")
    a = Analysis(Search(position, _config(config, seed)), limit, _check_multipv(multipv), float(interval))
    a._thread.start()
    try:
        yield a
    finally:
        a.stop()
        a._thread.join()
