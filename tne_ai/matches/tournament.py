"""Tournaments between agents: scheduling, running (in-process, local processes or Ray),
game records, and the standings with ratings (tne_ai.matches.ratings).

Schedule
--------
A *table* is a tuple of agent names, one per seat (an agent may sit at a table more than
once).  By default the tables are every combination of ``players`` distinct agents.  Each
table plays ``games`` *deals*; a deal is one seeded bag (``Position.new(players,
seed=deal_seed)``, ``deal_seed`` derived from the tournament seed, the table and the deal)
played in every cyclic rotation of the seats (n games for n seats: in rotation r, seat s is
held by ``table[(s + r) % n]``), so each agent of a table holds every seat once per deal and
the luck of the draws cancels as in duplicate bridge.  The deal and its rotations are a
*unit* for the error bars and the SPRT.  The schedule runs deal by deal (deal 0 of every
table, then deal 1, ...); the game ids ``t{table}-d{deal}-r{rotation}`` follow from it.

Every agent of a game is built with ``make_agent(spec, seed=...)``, the seed derived from
(tournament seed, game id, seat), so any game replays alone.  A game that reaches
``max_moves`` plies (every action and decision counts) is cut and scored as it stands (the
engine's ranking of the current scores) and marked truncated.

Records
-------
One ``tne-game/1`` record (tne_ai.core.formats) per game, one JSON line each, appended and flushed
as the game ends.  ``meta`` holds:

``game_id``           ``"t0-d3-r1"``
``table``, ``deal``, ``rotation``  the schedule coordinates
``agents``            per seat ``{"name": ..., "spec": ...}``
``seed``              the tournament seed
``deal_seed``         the seed of the bag (``Position.new(players, seed=deal_seed)``)
``agent_seeds``       per seat, the seed given to ``make_agent`` (a spec's own ``seed=`` wins)
``max_moves``         the ply limit
``plies``             moves played
``truncated``         whether the ply limit cut the game
``seconds_per_move``  per seat ``{"mean": s, "max": s, "moves": k}``
``forfeit``           only when an agent forfeited (agents.AgentForfeit: an external engine
                      that crashed, hung or answered an illegal move): ``{"seat", "ply",
                      "reason"}``; the game stops there, that seat is ranked last and the
                      others keep their order by the scores (``outcome_of``)

With ``resume`` the records already in the file are read back (a line that is not a valid
record is an error naming its line number) and only the missing games are played, so a
crash or Ctrl-C loses at most the games that were in flight.
"""
import hashlib
import itertools
import json
import math
import os
import re
import signal
import time
from dataclasses import dataclass
from typing import (TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence,
                    Tuple, Union)

from tne_ai import limits as L
from tne_ai.errors import TneError

if TYPE_CHECKING:
    from tne_ai.matches.ratings import Rating, Sprt

# a game record (tne-game/1, tne_ai.core.formats): a JSON object
Record = Dict[str, Any]

NAME_RE = re.compile(r"^[A-Za-z0-9_.+-]+$")
BACKENDS = ("local", "ray")
DEFAULT_MAX_MOVES = 2000
RAY_HINT = 'pip install "tne-ai[ray]"'


class TournamentError(TneError):
    """A tournament that cannot run as asked (agents, tables, options, a records file)."""


def _count(value, what, lo, hi):
    """A count or budget argument: an int lo..hi (tne_ai/limits.py), else TournamentError."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        shown = L.clip(repr(value), 40) if not isinstance(value, int) or \
            value.bit_length() <= 64 else "a huge number"
        raise TournamentError(f"{what} must be an integer {lo} to {hi}, not {shown}")
    return value


# --- schedule -----------------------------------------------------------------------------

def derive_seed(*parts):
    """A seed in 0 .. 2^31-1 from any printable parts (sha256 of their text)."""
    text = "/".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") & 0x7FFFFFFF


def game_id(table, deal, rotation):
    return f"t{table}-d{deal}-r{rotation}"


@dataclass(frozen=True)
class ScheduledGame:
    """One game of the schedule: who sits where, and its seeds."""

    game_id: str
    table: int
    deal: int
    rotation: int
    seats: tuple  # agent names by seat
    deal_seed: int
    agent_seeds: tuple

    @property
    def unit(self):
        return (self.table, self.deal)


def check_agents(agents: Mapping[str, str]) -> Dict[str, str]:
    """Check names and specs of ``{name: spec}``; returns a plain dict."""
    from tne_ai.agents.builtin import parse_spec

    if not agents:
        raise TournamentError("no agents: give at least two (--agent NAME=SPEC)")
    out = {}
    for name, spec in dict(agents).items():
        if not isinstance(name, str) or not NAME_RE.match(name):
            raise TournamentError(f"agent name '{name}': use letters, digits and _ . + - only")
        parse_spec(spec)
        out[name] = spec
    return out


def make_tables(agents: Mapping[str, str], tables: Optional[Sequence[Sequence[str]]] = None,
                players: Optional[int] = None) -> List[Tuple[str, ...]]:
    """The tables (tuples of agent names by seat): ``tables`` as given, checked, or every
    combination of ``players`` (default 2) distinct agents."""
    names = list(agents)
    if tables:
        out = []
        for t in tables:
            t = tuple(t)
            for a in t:
                if a not in agents:
                    raise TournamentError(f"table {','.join(t)}: unknown agent '{a}' "
                                          f"(agents: {', '.join(names)})")
            if not 2 <= len(t) <= 4:
                raise TournamentError(f"table {','.join(t)}: a table seats 2 to 4 players, "
                                      f"not {len(t)}")
            if players is not None and len(t) != players:
                raise TournamentError(f"table {','.join(t)} seats {len(t)} players, but "
                                      f"players is {players}")
            if len(set(t)) < 2:
                raise TournamentError(f"table {','.join(t)}: needs at least two different agents")
            out.append(t)
        return out
    players = 2 if players is None else players
    if isinstance(players, bool) or players not in (2, 3, 4):
        raise TournamentError(f"players must be 2, 3 or 4, not {L.clip(repr(players), 40)}")
    if len(names) < players:
        raise TournamentError(f"{len(names)} agent(s) cannot fill a {players}-player table: "
                              f"add agents or give --table with repeated agents")
    combinations = math.comb(len(names), players)
    if combinations * players > L.MAX_TOURNAMENT_GAMES:
        raise TournamentError(f"{len(names)} agents make {combinations} tables of {players}, "
                              f"too many for one tournament (at most "
                              f"{L.MAX_TOURNAMENT_GAMES} games): give --table")
    return list(itertools.combinations(names, players))


def schedule(tables, games, seed):
    """The games in playing order: deal by deal, table by table, rotation by rotation."""
    out = []
    for d in range(games):
        for t, table in enumerate(tables):
            n = len(table)
            deal_seed = derive_seed("deal", seed, t, d)
            for r in range(n):
                gid = game_id(t, d, r)
                seats = tuple(table[(s + r) % n] for s in range(n))
                agent_seeds = tuple(derive_seed("agent", seed, gid, s) for s in range(n))
                out.append(ScheduledGame(gid, t, d, r, seats, deal_seed, agent_seeds))
    return out


def game_task(game, agents, seed, max_moves, visits=False):
    """The plain dict a worker needs to play ``game`` (picklable, no tne_ai objects)."""
    return {"game_id": game.game_id, "table": game.table, "deal": game.deal,
            "rotation": game.rotation, "names": list(game.seats),
            "specs": [agents[a] for a in game.seats], "seed": seed,
            "deal_seed": game.deal_seed, "agent_seeds": list(game.agent_seeds),
            "max_moves": max_moves, "visits": bool(visits)}


def root_visits(agent):
    """The root visit distribution of an agent's last move, for ``meta.visits``: a list of
    [move text, visits] pairs, most visited first (moves without visits left out), or None
    when the agent did not search a tree for it (not a searching agent, a forced move, or
    a root the exact endings scored: their counts are worlds, not visits)."""
    from tne_ai.core.notation import move_text
    info = getattr(agent, "info", None)
    if info is None or not hasattr(info, "alternatives") or info.forced or info.exact:
        return None
    pairs = sorted(((int(v), int(a)) for a, v, _ in info.alternatives if v > 0),
                   key=lambda x: (-x[0], x[1]))
    return [[move_text(a), v] for v, a in pairs] or None


def root_values(agent):
    """Every seat's win chance at the root of an agent's last search, for ``meta.values``
    (the search's own value of the position, beside the game's result): a list by seat, 4
    decimals, or None when the agent did not search (not a searching agent, or a forced
    move).  Unlike ``root_visits``, a root the exact endings scored keeps its chances: the
    best results over the worlds solved."""
    from tne_ai.search.session import round_win
    info = getattr(agent, "info", None)
    if info is None or not hasattr(info, "win_chances") or info.forced or not info.win_chances:
        return None
    return [round_win(w) for w in info.win_chances]


# --- playing one game ---------------------------------------------------------------------

def play_game(task):
    """Play one scheduled game (a ``game_task`` dict) and return its tne-game/1 record."""
    from tne_ai.agents.builtin import AgentForfeit, make_agent
    from tne_ai.core.formats import game_record, game_result
    from tne_ai.core.notation import move_text
    from tne_ai.position import Position
    from tne_ai.matches.provenance import provenance, spec_weights

    n = len(task["names"])
    pos = Position.new(n, seed=task["deal_seed"])
    start = pos.to_json()
    seats = [make_agent(spec, seed=s) for spec, s in zip(task["specs"], task["agent_seeds"])]
    moves = []
    searched = []                  # meta.visits: one entry per move when the task asks
    values = []                    # meta.values: alike
    spent = [[] for _ in range(n)]
    forfeit = None
    try:
        while not pos.is_over() and len(moves) < task["max_moves"]:
            who = pos.to_act
            t0 = time.perf_counter()
            try:
                code = seats[who].choose(pos)
                spent[who].append(time.perf_counter() - t0)
                if task.get("visits"):
                    searched.append(root_visits(seats[who]))
                    values.append(root_values(seats[who]))
                moves.append(move_text(code))
                pos.push(code)
            except AgentForfeit as e:  # an external engine failed: it loses this game
                forfeit = {"seat": who, "ply": len(moves), "reason": str(e)}
                break
            except Exception as e:  # an agent's bug: name the game, seat and ply
                raise TournamentError(f"game {task['game_id']}: agent {task['names'][who]} "
                                      f"({task['specs'][who]}) in seat {who} at ply "
                                      f"{len(moves)}: {type(e).__name__}: {e}") from None
    finally:
        for agent in seats:
            if hasattr(agent, "close"):
                agent.close()
    truncated = not pos.is_over() and forfeit is None
    meta = {
        "game_id": task["game_id"], "table": task["table"], "deal": task["deal"],
        "rotation": task["rotation"],
        "agents": [{"name": a, "spec": s} for a, s in zip(task["names"], task["specs"])],
        "seed": task["seed"], "deal_seed": task["deal_seed"],
        "agent_seeds": task["agent_seeds"], "max_moves": task["max_moves"],
        "plies": len(moves), "truncated": truncated,
        "seconds_per_move": [{"mean": round(sum(t) / len(t), 6) if t else 0.0,
                              "max": round(max(t), 6) if t else 0.0, "moves": len(t)}
                             for t in spent],
    }
    if forfeit is not None:
        meta["forfeit"] = forfeit
    if task.get("visits"):
        meta["visits"] = searched
        meta["values"] = values
    meta["provenance"] = provenance(weights=spec_weights(task["specs"]))
    return game_record(start, moves, game_result(pos.scores), meta)


def replay(record, ply=None):
    """The Position of a game record after ``ply`` moves (default: all of them)."""
    from tne_ai.core.formats import load_game_record
    from tne_ai.position import Position

    record = load_game_record(record)
    moves = record["moves"]
    if ply is None:
        ply = len(moves)
    if not 0 <= ply <= len(moves):
        raise TournamentError(f"ply {ply}: the game has {len(moves)} moves (0 to {len(moves)})")
    pos = Position.from_json(record["start"])
    for i, m in enumerate(moves[:ply]):
        try:
            pos.push(m)
        except TneError as e:
            raise TournamentError(f"move {i + 1} '{m}' of the record: {e}") from None
    return pos


# --- records files ------------------------------------------------------------------------

def read_records(path, cut_tail=None):
    """Yield (line number, record) for each non-blank line of a records file; a line that
    is not a tne-game/1 record raises TournamentError naming the file and the line.

    The file is either JSON lines (one record a line, as tournaments write) or a single
    tne-game/1 document, pretty-printed or not (as ``tne play`` saves); a name ending in
    ``.gz`` is read through gzip.  With ``cut_tail``
    (a list), a last line without its newline that is not valid JSON (a write cut short by
    a crash) is skipped, and ``(line number, byte offset of its start)`` is appended to
    ``cut_tail``."""
    from tne_ai.core.formats import load_game_record, parse_json
    from tne_ai.core.io import input_lines

    def fail(e):
        text = " ".join(str(e).split())
        return TournamentError(text if text.startswith(f"{path}") else f"{path}: {text}")

    lines = input_lines(path, str(path))
    first = None
    try:
        for number, raw, start, ended in lines:
            if not raw.strip():
                continue
            if first is None:
                first = raw
                if ended and raw.lstrip()[:1] == b"{" and not _is_json(raw):
                    # one JSON document over several lines (as tne play saves): the whole
                    # file, at most limits.MAX_JSON_BYTES, is the record
                    yield 1, _one_document(path, raw, lines)
                    return
            try:
                record = parse_json(raw, f"{path} line {number}")
            except TneError as e:
                if not ended and cut_tail is not None and "not valid JSON" in str(e):
                    cut_tail.append((number, start))
                    return
                raise TournamentError(str(e)) from None
            try:
                record = load_game_record(record)
            except TneError as e:
                raise TournamentError(f"{path} line {number}: {e}") from None
            yield number, record
    except TournamentError:
        raise
    except TneError as e:
        raise fail(e) from None


def _is_json(raw):
    """Whether the bytes ``raw`` alone are a JSON text the reader accepts."""
    from tne_ai.core.io import read_json
    try:
        read_json(raw, "line")
    except TneError:
        return False
    return True


def _one_document(path, first, lines):
    """The record spread over the lines of ``path`` from ``first`` on, read to the end (at
    most limits.MAX_JSON_BYTES)."""
    from tne_ai.core.formats import load_game_record, parse_json
    parts, size = [first], len(first)
    for _, raw, _, _ in lines:
        size += len(raw) + 1
        if size > L.MAX_JSON_BYTES:
            from tne_ai.core.io import describe_size
            raise TournamentError(f"{path}: one record larger than "
                                  f"{describe_size(L.MAX_JSON_BYTES)}")
        parts.append(raw)
    try:
        return load_game_record(parse_json(b"\n".join(parts), str(path)))
    except TneError as e:
        text = " ".join(str(e).split())
        raise TournamentError(text if text.startswith(f"{path}:") else f"{path}: {text}") from None


def find_record(path, game=None):
    """The record of game id ``game`` in a records file (default: the first record)."""
    for number, record in read_records(path):
        if game is None or record.get("meta", {}).get("game_id") == game:
            return record
    if game is None:
        raise TournamentError(f"{path}: holds no game record")
    raise TournamentError(f"{path}: no game with id '{game}'")


def _record_id(record, path, number):
    gid = record.get("meta", {}).get("game_id")
    if not isinstance(gid, str):
        raise TournamentError(f"{path} line {number}: meta.game_id is missing; not a "
                              f"tournament record")
    return gid


def _load_resumed(path, by_id, seed, max_moves, agents, warn=None):
    """The records of ``path`` whose ids are in the schedule, checked against it;
    returns (records by id, number of records of games outside the schedule).  A last line
    cut short by a crash is removed from the file (``warn`` is told), so that its game is
    played again."""
    found, lines, ignored = {}, {}, 0
    cut = []
    for number, record in read_records(path, cut_tail=cut):
        gid = _record_id(record, path, number)
        if gid in lines:
            raise TournamentError(f"{path} line {number}: game {gid} is already recorded on "
                                  f"line {lines[gid]}")
        lines[gid] = number
        game = by_id.get(gid)
        if game is None:
            ignored += 1
            continue
        meta = record.get("meta", {})
        want = [{"name": a, "spec": agents[a]} for a in game.seats]
        if [meta.get(k) for k in ("table", "deal", "rotation")] != \
                [game.table, game.deal, game.rotation]:
            raise TournamentError(
                f"{path} line {number}: game {gid} has table, deal and rotation "
                f"{L.clip(repr([meta.get(k) for k in ('table', 'deal', 'rotation')]), 60)}, "
                f"but its id says {[game.table, game.deal, game.rotation]}")
        if meta.get("agents") != want or meta.get("seed") != seed \
                or meta.get("max_moves") != max_moves:
            raise TournamentError(
                f"{path} line {number}: game {gid} was played by "
                f"{_seats_text(meta.get('agents'))} with seed {meta.get('seed')} and max moves "
                f"{meta.get('max_moves')}, but this tournament seats {_seats_text(want)} with "
                f"seed {seed} and max moves {max_moves}; use another output file")
        found[gid] = record
    if cut:
        number, start = cut[0]
        try:
            with open(path, "r+b") as f:
                f.truncate(start)
        except OSError as e:
            raise TournamentError(f"{path}: cannot write: {e.strerror or e}") from None
        if warn is not None:
            warn(f"{path} line {number} was cut short (a crash while it was written): "
                 f"dropped; its game is played again")
    return found, ignored


def _seats_text(agents):
    try:
        return ",".join(f"{a['name']}={a['spec']}" for a in agents)
    except (TypeError, KeyError):
        return repr(agents)


# --- backends -----------------------------------------------------------------------------

def _die_with(parent):
    """Ask Linux to kill this process when its parent dies (even by SIGKILL), so that no
    worker outlives a killed tournament; if the parent is already gone, exit now."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the pool's own shutdown must do
        pass
    if os.getppid() != parent:
        os._exit(1)


def _worker_init(parent=None):
    """A pool worker leaves Ctrl-C to the parent, which stops the pool, and dies with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent is not None:
        _die_with(parent)


def worker_pool(jobs):
    """A ProcessPoolExecutor of at most ``jobs`` spawned workers that leave Ctrl-C to the
    parent and die with it, even when it is killed by SIGKILL (``_die_with``); workers start
    as work is submitted, so a pool never runs more processes than it has tasks.  Every
    command with ``--jobs`` (tournament, train, analyse) runs its workers here."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_worker_init, initargs=(os.getpid(),))


class _InProcess:
    window = 1

    def __init__(self):
        self.done = []

    def submit(self, task):
        try:
            self.done.append((task, play_game(task), None))
        except TneError as e:
            self.done.append((task, None, e))

    def wait(self):
        done, self.done = self.done, []
        return done

    def close(self, abort=False):
        pass


class _ProcessPool:
    """``jobs`` spawned worker processes (each imports tne_ai and loads the numba cache
    once, then plays game after game).  A worker that dies (killed, out of memory) breaks
    the pool: its games come back as errors instead of hanging.  As with any spawned
    process, a script that calls run_tournament with jobs > 1 needs the
    ``if __name__ == "__main__":`` guard."""

    def __init__(self, jobs):
        self.executor = worker_pool(jobs)
        self.pending = {}
        self.window = 2 * jobs

    def submit(self, task):
        self.pending[self.executor.submit(play_game, task)] = task

    def wait(self):
        from concurrent.futures import FIRST_COMPLETED, wait

        while True:  # short timeouts keep Ctrl-C responsive
            ready, _ = wait(list(self.pending), timeout=0.2, return_when=FIRST_COMPLETED)
            if ready:
                break
        done = []
        for future in ready:
            task = self.pending.pop(future)
            error = future.exception()
            done.append((task, None if error else future.result(), error))
        return done

    def close(self, abort=False):
        if not abort:
            self.executor.shutdown(wait=True)
            return
        # stop the games in flight now, not when they end: the workers first, then the
        # executor (whose threads then find a broken pool and close its queues quietly)
        processes = list((getattr(self.executor, "_processes", None) or {}).values())
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(timeout=5)
        self.executor.shutdown(wait=True, cancel_futures=True)


class _Ray:
    """The same games as Ray tasks: a local Ray (``num_cpus=jobs``) or the cluster at
    ``address``."""

    def __init__(self, jobs, address):
        try:
            import ray
        except ImportError:
            raise TournamentError(f"the ray backend needs ray: {RAY_HINT}") from None
        import logging

        self.ray = ray
        self.owned = not ray.is_initialized()
        if self.owned:
            try:
                if address:
                    ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
                else:
                    ray.init(num_cpus=jobs, include_dashboard=False,
                             logging_level=logging.ERROR, log_to_driver=False)
            except Exception as e:
                where = address or "a local Ray"
                raise TournamentError(f"cannot start ray ({where}): "
                                      f"{' '.join(str(e).split())}") from None
        self.remote = ray.remote(num_cpus=1, max_retries=0)(play_game)
        cpus = int(ray.cluster_resources().get("CPU", jobs))
        self.window = 2 * max(1, cpus)
        self.pending = {}

    def submit(self, task):
        self.pending[self.remote.remote(task)] = task

    def wait(self):
        ready, _ = self.ray.wait(list(self.pending), num_returns=1)
        done = []
        for ref in ready:
            task = self.pending.pop(ref)
            try:
                done.append((task, self.ray.get(ref), None))
            except Exception as e:  # RayTaskError wraps the worker's exception
                done.append((task, None, getattr(e, "cause", None) or e))
        return done

    def close(self, abort=False):
        if abort:
            for ref in self.pending:
                try:
                    self.ray.cancel(ref, force=True)
                except Exception:
                    pass
        if self.owned:
            self.ray.shutdown()


def _backend(backend, jobs, ray_address):
    if backend == "ray":
        return _Ray(jobs, ray_address)
    if jobs == 1:
        return _InProcess()
    return _ProcessPool(jobs)


# --- standings ----------------------------------------------------------------------------

@dataclass
class Standing:
    """One agent's totals over its seats (an agent seated twice in a game counts twice)."""

    name: str
    spec: str
    games: int = 0
    wins: int = 0  # first place alone
    shared: int = 0  # first place shared
    truncated: int = 0
    score_sum: int = 0  # lowest colour after treasures
    rank_sum: int = 0
    elo: Optional["Rating"] = None
    multiplayer: Optional["Rating"] = None  # Plackett-Luce, 3-4 player tables only

    @property
    def mean_score(self) -> float:
        return self.score_sum / self.games if self.games else math.nan

    @property
    def mean_rank(self) -> float:
        return self.rank_sum / self.games if self.games else math.nan

    def to_dict(self) -> Dict[str, Any]:
        def num(x: float) -> Optional[float]:
            return None if math.isnan(x) else round(x, 3)
        return {"agent": self.name, "spec": self.spec, "games": self.games, "wins": self.wins,
                "shared": self.shared, "truncated": self.truncated,
                "mean_score": num(self.mean_score), "mean_rank": num(self.mean_rank),
                "elo": self.elo.to_dict() if self.elo else None,
                "multiplayer": self.multiplayer.to_dict() if self.multiplayer else None}


def outcome_of(record):
    """The ratings.Outcome (agent names and places by seat) of a record."""
    from tne_ai.matches.ratings import Outcome

    places = tuple(record["result"]["ranking"])
    forfeit = record["meta"].get("forfeit")
    if forfeit is not None:  # the seat that forfeited is last; the others keep their order
        out = forfeit["seat"]
        places = tuple(len(places) if s == out else
                       1 + sum(1 for t, q in enumerate(places) if t != out and q < p)
                       for s, p in enumerate(places))
    return Outcome(tuple(a["name"] for a in record["meta"]["agents"]), places)


def standings(agents, records):
    """Per-agent totals and ratings of the records, and the name of the Elo method.

    Elo: for two agents the score fraction with per-deal error bars (ratings.match_elo),
    for more a Bradley-Terry fit; with 3-4 player tables also a Plackett-Luce fit.
    All relative to the first agent."""
    from tne_ai.matches import ratings

    names = list(agents)
    table = {a: Standing(a, agents[a]) for a in names}
    units = {}
    outcomes = []
    multi = False
    for rec in records:
        meta = rec["meta"]
        outcome = outcome_of(rec)
        outcomes.append(outcome)
        units.setdefault((meta["table"], meta["deal"]), []).append(outcome)
        multi |= len(outcome.agents) > 2
        first = outcome.places.count(1) > 1
        for s, a in enumerate(outcome.agents):
            st = table[a]
            st.games += 1
            place = outcome.places[s]
            st.wins += place == 1 and not first
            st.shared += place == 1 and first
            st.truncated += bool(meta.get("truncated"))
            st.score_sum += rec["result"]["final"][s][0]
            st.rank_sum += place
    if len(names) == 2:
        match = ratings.match_elo(list(units.values()), names[0], names[1])
        elo = {names[0]: ratings.REFERENCE, names[1]: match.rating}
        method = "score fraction, per-deal standard error"
    else:
        elo = ratings.bradley_terry(names, outcomes)
        method = "Bradley-Terry"
    pl = ratings.plackett_luce(names, outcomes) if multi else None
    for a in names:
        table[a].elo = elo[a]
        if pl is not None:
            table[a].multiplayer = pl[a]
    return [table[a] for a in names], method


# --- running ------------------------------------------------------------------------------

@dataclass
class TournamentResult:
    """What ``run_tournament`` returns: the schedule, the records and the standings."""
    agents: Dict[str, str]          # name: spec, in order (the first is the reference)
    tables: List[Tuple[str, ...]]   # agent names by seat
    games_per_table: int
    seed: int
    records: List[Record]  # in schedule order (with an SPRT: up to its decision)
    standings: List[Standing]
    elo_method: str
    played: int  # games played by this call (the rest came from the resumed file)
    resumed: int
    ignored: int  # records in the resumed file of games outside this schedule
    elapsed: float
    out: Optional[str] = None
    sprt: Optional["Sprt"] = None
    scheduled: int = 0

    @property
    def truncated(self) -> int:
        return sum(bool(r["meta"].get("truncated")) for r in self.records)

    def to_dict(self) -> Dict[str, Any]:
        return {"agents": dict(self.agents), "tables": [list(t) for t in self.tables],
                "deals_per_table": self.games_per_table, "seed": self.seed,
                "games": len(self.records), "scheduled": self.scheduled,
                "played": self.played, "resumed": self.resumed, "ignored": self.ignored,
                "truncated": self.truncated, "seconds": round(self.elapsed, 3),
                "out": self.out, "elo_method": self.elo_method,
                "multiplayer_method": "Plackett-Luce" if any(len(t) > 2 for t in self.tables)
                else None,
                "standings": [s.to_dict() for s in self.standings],
                "sprt": self.sprt.to_dict() if self.sprt else None}


# --- the standings as text (tne tournament, tne train --gate) ------------------------------

def _elo_text(x, signed=True):
    if math.isnan(x):
        return "n/a"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.0f}" if signed else f"{x:.0f}"


def _rating_cells(rating, reference):
    if rating is None:
        return ["", ""]
    if reference:
        return ["0", "(reference)"]
    return [_elo_text(rating.elo), f"[{_elo_text(rating.low)}, {_elo_text(rating.high)}]"]


def result_text(result):
    """The text of `tne tournament`: what was played, the forfeits, a table of the standings
    (columns aligned; the Plackett-Luce ratings with 3-4 player tables, the truncated games
    when there are any), how to read it, and the SPRT's state when one ran."""
    r = result
    seats = sorted({len(t) for t in r.tables})
    lines = [f"{len(r.records)} games: {len(r.tables)} table(s) of {'/'.join(map(str, seats))} "
             f"seats, {r.games_per_table} deal(s) each in every rotation; {r.truncated} "
             f"truncated; {r.played} played in {r.elapsed:.1f} s"
             + (f", {r.resumed} resumed" if r.resumed else "")
             + (f"; records in {r.out}" if r.out else "")]
    forfeits = [rec["meta"]["agents"][rec["meta"]["forfeit"]["seat"]]["name"]
                for rec in r.records if "forfeit" in rec["meta"]]
    if forfeits:  # external engines that crashed, hung or played an illegal move
        from collections import Counter
        lines.append(f"{len(forfeits)} forfeit(s), counted as losses (reasons in meta.forfeit): "
                     + ", ".join(f"{a} {n}" for a, n in Counter(forfeits).items()))
    multi = any(s.multiplayer is not None for s in r.standings)
    lines += _standings_lines(r, multi)
    lines.append(f"score: mean lowest colour after treasures; rank: mean place; elo: "
                 f"{r.elo_method}, relative to {r.standings[0].name}"
                 + ("; PL: Plackett-Luce on finishing orders" if multi else ""))
    if r.sprt is not None:
        t = r.sprt
        verdict = {"H1": f"H1 accepted (elo >= {t.elo1:g})",
                   "H0": f"H0 accepted (elo <= {t.elo0:g})", None: "undecided"}[t.decision]
        # the test is of the second agent against the first: the line names both
        tested = f"{r.standings[1].name} against {r.standings[0].name}"
        lines.append(f"sprt elo0={t.elo0:g} elo1={t.elo1:g} (alpha=beta={t.alpha:g}), {tested}: "
                     f"LLR {t.llr:.3f} in [{t.lower:.3f}, {t.upper:.3f}] after "
                     f"{len(t.samples)} deal(s): {verdict}")
    return "\n".join(lines)


def _standings_lines(r, multi):
    """The standings table of result_text: a header, then a row per agent."""
    head = ["agent", "games", "wins", "shared", "score", "rank", "elo", "95%"]
    if multi:
        head += ["PL elo", "95%"]
    if r.truncated:
        head += ["trunc"]
    rows = [head]
    for i, s in enumerate(r.standings):
        row = [s.name, str(s.games), str(s.wins), str(s.shared),
               "n/a" if not s.games else f"{s.mean_score:.2f}",
               "n/a" if not s.games else f"{s.mean_rank:.2f}"]
        row += _rating_cells(s.elo, i == 0)
        if multi:
            row += _rating_cells(s.multiplayer, i == 0)
        if r.truncated:
            row += [str(s.truncated)]
        rows.append(row)
    widths = [max(len(row[c]) for row in rows) for c in range(len(head))]
    return ["  ".join(cell.ljust(w) if c == 0 else cell.rjust(w)
                      for c, (cell, w) in enumerate(zip(row, widths))).rstrip() for row in rows]


def _parse_sprt(sprt, agents):
    if sprt is None:
        return None
    from tne_ai.errors import InputError
    from tne_ai.core.io import parse_float
    if isinstance(sprt, (str, bytes)) or not hasattr(sprt, "__len__") or len(sprt) != 2:
        raise TournamentError(f"sprt: expected two Elo values ELO0,ELO1, got "
                              f"{L.clip(repr(sprt), 60)}")
    try:
        elo0, elo1 = (parse_float(x, "sprt", -L.MAX_SPRT_ELO, L.MAX_SPRT_ELO) for x in sprt)
    except InputError as e:
        raise TournamentError(str(e)) from None
    if elo0 >= elo1:
        raise TournamentError(f"sprt {elo0:g},{elo1:g}: needs ELO0 < ELO1")
    if len(agents) != 2:
        raise TournamentError(f"sprt: tests a match of two agents, not {len(agents)}")
    return elo0, elo1


def run_tournament(agents: Mapping[str, str], tables: Optional[Sequence[Sequence[str]]] = None,
                   players: Optional[int] = None, games: int = 1, seed: int = 0, jobs: int = 1,
                   backend: str = "local", ray_address: Optional[str] = None,
                   out: Optional[str] = None, resume: bool = False,
                   sprt: Optional[Sequence[Union[float, str]]] = None,
                   max_moves: int = DEFAULT_MAX_MOVES,
                   progress: Optional[Callable[[int, int], None]] = None,
                   warn: Optional[Callable[[str], None]] = None,
                   visits: bool = False) -> TournamentResult:
    """Run a tournament and return a TournamentResult.

    ``agents``: ``{name: spec}`` in order (the first is the rating reference); ``tables``:
    tuples of names by seat (default every combination of ``players`` agents); ``games``:
    deals per table, each played in every rotation of the seats; ``jobs``: parallel games;
    ``backend``: "local" (in-process for one job, else spawned processes) or "ray";
    ``out``: the JSON-lines records file (refused if it exists, unless ``resume``);
    ``sprt``: (elo0, elo1) to stop a two-agent match early; ``progress(done, total)`` is
    called at the start and after each game; ``warn(text)`` is told of a cut last line
    dropped from ``out`` on resume; ``visits``: each record's ``meta.visits`` holds the root
    visit distribution of every move (``root_visits``; what ``tne train`` fits the prior
    to) and ``meta.values`` every seat's win chance at its root (``root_values``).  Raises
    TournamentError for bad arguments before anything is written.  KeyboardInterrupt stops
    the workers and propagates; the file then holds every finished game."""
    from tne_ai.matches.ratings import Sprt, unit_score

    agents = check_agents(agents)
    if len(agents) < 2:
        raise TournamentError("a tournament needs at least two agents")
    _count(games, "games (deals per table)", 1, L.MAX_DEALS)
    _count(jobs, "jobs", 1, L.MAX_JOBS)
    _count(max_moves, "max moves", 1, L.MAX_PLIES)
    _count(seed, "seed", 0, L.MAX_SEED)
    if backend not in BACKENDS:
        raise TournamentError(f"backend '{backend}': use local or ray")
    if ray_address and backend != "ray":
        raise TournamentError("a ray address needs the ray backend")
    if resume and not out:
        raise TournamentError("resume needs the records file (--out FILE)")
    sprt_elos = _parse_sprt(sprt, agents)
    tables = make_tables(agents, tables, players)
    total = sum(len(table) for table in tables) * games
    if total > L.MAX_TOURNAMENT_GAMES:
        raise TournamentError(f"{len(tables)} table(s) x {games} deal(s) x their rotations "
                              f"make {total} games, at most {L.MAX_TOURNAMENT_GAMES}")
    plan = schedule(tables, games, seed)
    by_id = {g.game_id: g for g in plan}

    records, ignored = {}, 0
    if out:
        _check_writable(out)
    if out and os.path.exists(out):
        if not resume:
            raise TournamentError(f"{out} exists: add --resume to continue it, or choose "
                                  f"another output file")
        records, ignored = _load_resumed(out, by_id, seed, max_moves, agents, warn)
    resumed = len(records)

    # the units in schedule order, for the SPRT
    units: List[Tuple[Any, List[str]]] = []
    for g in plan:
        if not units or units[-1][0] != g.unit:
            units.append((g.unit, []))
        units[-1][1].append(g.game_id)
    test = Sprt(*sprt_elos) if sprt_elos else None
    names = list(agents)
    checked = 0  # units fed to the SPRT so far

    def advance_sprt():
        nonlocal checked
        while test is not None and test.decision is None and checked < len(units):
            ids = units[checked][1]
            if not all(i in records for i in ids):
                return
            score, pairs = unit_score([outcome_of(records[i]) for i in ids], names[0], names[1])
            checked += 1
            if pairs:
                test.add(score / pairs)

    advance_sprt()
    todo = [g for g in plan if g.game_id not in records]
    started = time.perf_counter()
    played = 0
    if progress:
        progress(len(records), len(plan))

    def stopped():
        return test is not None and test.decision is not None

    if todo and not stopped():
        runner = _backend(backend, jobs, ray_address)
        sink = None
        try:
            inflight = 0
            queue_ = list(reversed(todo))
            while inflight or (queue_ and not stopped()):
                while queue_ and inflight < runner.window and not stopped():
                    runner.submit(game_task(queue_.pop(), agents, seed, max_moves, visits))
                    inflight += 1
                failed = None
                for task, record, error in runner.wait():
                    inflight -= 1
                    if error is not None:  # the games that did finish are still written
                        failed = failed or (task, error)
                        continue
                    if out and sink is None:
                        sink = _open_sink(out)
                    if sink is not None:
                        sink.write(json.dumps(record, separators=(",", ":")) + "\n")
                        sink.flush()
                    records[task["game_id"]] = record
                    played += 1
                    if progress:
                        progress(len(records), len(plan))
                if failed is not None:
                    task, error = failed
                    if isinstance(error, TneError):
                        raise TournamentError(str(error)) from None
                    raise TournamentError(f"game {task['game_id']}: {type(error).__name__}: "
                                          f"{error}") from None
                advance_sprt()
        except BaseException:
            runner.close(abort=True)
            raise
        else:
            runner.close()
        finally:
            if sink is not None:
                sink.close()

    if test is not None and test.decision is not None:
        keep = {i for _, ids in units[:checked] for i in ids}
    else:
        keep = set(records)
    ordered = [records[g.game_id] for g in plan if g.game_id in keep and g.game_id in records]
    table, method = standings(agents, ordered)
    return TournamentResult(agents, tables, games, seed, ordered, table, method, played,
                            resumed, ignored, time.perf_counter() - started, out, test,
                            len(plan))


def _check_writable(path):
    if os.path.isdir(path):
        raise TournamentError(f"{path}: is a directory, not a records file")
    if os.path.exists(path):
        ok = os.access(path, os.W_OK)
    else:
        ok = os.access(os.path.dirname(os.path.abspath(path)), os.W_OK)
    if not ok:
        raise TournamentError(f"{path}: cannot write here")


def _open_sink(path):
    """Open the records file for appending, after a newline if its last line lacks one."""
    try:
        with open(path, "ab") as f:
            if f.tell() > 0:
                with open(path, "rb") as g:
                    g.seek(-1, os.SEEK_END)
                    if g.read(1) != b"\n":
                        f.write(b"\n")
        return open(path, "a", encoding="utf-8")
    except OSError as e:
        raise TournamentError(f"{path}: cannot write: {e.strerror or e}") from None
