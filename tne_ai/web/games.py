"""Games on the server: seats, the moves played, the AI off the request path, saving to disk.

A game is its start position (every hand known, as the server deals them), the seed of its
counted-bag draws and AI seats, the list of moves played, and one secret key per seat.  Its state is always the replay
of those moves from the start, so a game saved as ``{start, seed, seats, moves}`` and loaded
again after a restart is the same game, move for move.  Each AI move is made by a fresh agent
seeded from the game's seed and the ply (``make_agent(spec, seed=seed * 1009 + ply)``), so a
replayed or restarted game makes the same AI moves.

AI moves run in a small thread pool (the search kernels release the GIL): a request only ever
waits for a game's lock, held for one push and one save, never for a search.

Seat keys: every seat gets its own random key when the game is made (``secrets``); a seat's
view, moves, undo, hint and position export need it.  In the hot-seat mode (chosen when the
game is made: several humans on one screen) the human seats share one key.  The AI seats'
keys are never given out.  Keys are saved with the game, so links stay valid over restarts.
A file of the first save format (``tne-web-game/1``, written before seats had keys) is loaded
as a hot-seat game (that was the only way such a game was played), gets fresh keys, and is
saved again at once; ``GameStore.upgraded`` lists them so that the server can print the links.
"""
import hmac
import contextlib
import json
import os
import re
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from tne_ai import limits as L
from tne_ai.core import state as S
from tne_ai.agents.builtin import make_agent, parse_spec
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.errors import IllegalMoveError, PositionError, TneError
from tne_ai.core.formats import GAME_FORMAT, game_record, load_game_record
from tne_ai.core.notation import move_text, parse_move
from tne_ai.position import Position
from tne_ai.search.config import SearchConfig, SearchConfigError
from tne_ai.search.session import Search
from tne_ai.web import views

SAVE_FORMAT = "tne-web-game/2"
OLD_SAVE_FORMAT = "tne-web-game/1"   # no seat keys: loaded as hot-seat games with new keys
HUMAN = "human"
ID_PATTERN = re.compile(r"^[0-9a-f]{12}$")
KEY_PATTERN = re.compile(r"^[A-Za-z0-9_-]{22}$")   # secrets.token_urlsafe(16)
TMP_PATTERN = re.compile(r"^[0-9a-f]{12}\.json\.[0-9]+\.tmp$")   # GameStore.save's temporaries
MAX_SAVE_BYTES = 16 << 20  # a saved game: the start position and at most MAX_PLIES move texts
MAX_GAMES = 1000          # games kept (in memory and on disk); a new one beyond is refused
MAX_SEED = 2 ** 31 - 1
MAX_ITERATIONS = 64000    # the largest iteration budget a page may ask of an AI seat
HINT_ITERATIONS = 4000
# Position.legal_codes/push share one scratch array in position.py: one engine call at a time
ENGINE_LOCK = threading.Lock()

# AI levels: iteration budgets of the project's budget ladder (bench/README.md, "Against the
# time per move", bench/results/budget.txt): Elo measured against a fixed mcts:iterations=2000
# over 60 games each (the 2,000 budget is that opponent's copy with another seed, the control:
# its +35 is noise around 0).  Apart: 258, 60, 112 and 53 Elo from one level to the next.
# Each spec is read by SearchConfig.from_spec when this module is imported (checked_levels):
# a level's budget ("iterations", as /api/meta gives it) is its config's.
_LADDER = [
    {"name": "beginner", "spec": "mcts:iterations=1000", "elo": -223},
    {"name": "casual", "spec": "mcts:iterations=2000", "elo": 35},
    {"name": "club", "spec": "mcts:iterations=4000", "elo": 95},
    {"name": "strong", "spec": "mcts:iterations=8000", "elo": 207},
    {"name": "expert", "spec": "mcts:iterations=16000", "elo": 260},
]
# the search options a page may set on an mcts seat: the others are the server's (a time
# budget would not replay; weights name a server file; capacity and batch size memory)
PAGE_OPTIONS = ("iterations", "seed", "threads", "c", "rollout", "leader", "evaluation",
                "prior", "widen", "widen_exp", "settle", "commit_margin", "reuse")
MAX_PAGE_THREADS = 2


class RequestError(TneError):
    """A request the server refuses: ``status`` is the HTTP status (4xx)."""

    def __init__(self, message, status=400):
        super().__init__(message)
        self.status = status


def seat_config(spec):
    """The SearchConfig of an mcts seat spec a page may ask for: every option by the search's
    one name and bound (SearchConfig.from_spec, tne_ai/limits.py), an iteration budget of at
    most MAX_ITERATIONS, no time budget (games replay the same), at most MAX_PAGE_THREADS
    threads and only the options of PAGE_OPTIONS.  RequestError (400) naming the option."""
    try:
        cfg = SearchConfig.from_spec(spec)
    except SearchConfigError as e:
        raise RequestError(str(e)) from None     # it names the option, the spec and the bound
    server = [k for k in cfg.changed() if k not in PAGE_OPTIONS]
    if cfg.time is not None or cfg.iterations is None:
        raise RequestError(f"seat '{spec}': give mcts an iteration budget (iterations=N), "
                           "not a time budget, so that games replay the same")
    if server:
        raise RequestError(f"seat '{spec}': option {server[0]} is the server's to set "
                           f"(a page may set {', '.join(PAGE_OPTIONS)})")
    if cfg.iterations > MAX_ITERATIONS:
        raise RequestError(f"seat '{spec}': option iterations={cfg.iterations} is out of range "
                           f"for a page (1 <= x <= {MAX_ITERATIONS})")
    if cfg.threads > MAX_PAGE_THREADS:
        raise RequestError(f"seat '{spec}': option threads={cfg.threads} is out of range "
                           f"for a page (1 <= x <= {MAX_PAGE_THREADS})")
    return cfg


def checked_levels(ladder):
    """The AI levels of ``ladder`` (dicts of name, spec, elo), each spec checked as a page's
    seat is (seat_config) and given its config's iteration budget as ``iterations``;
    RequestError naming the level and the bad option."""
    out = []
    for lv in ladder:
        try:
            cfg = seat_config(lv["spec"])
        except RequestError as e:
            raise RequestError(f"AI level {lv['name']}: {e}") from None
        out.append(dict(lv, iterations=cfg.iterations))
    return out


LEVELS = checked_levels(_LADDER)
_LEVEL_SPECS = {lv["name"]: lv["spec"] for lv in LEVELS}


def seat_spec(value, default_ai, trusted=()):
    """A seat as the page names it: ``human``, a level name, ``ai`` (the server's --ai) or an
    agent spec with a bounded, reproducible budget (random, greedy, or mcts as seat_config
    allows).  ``trusted`` specs (the server's own) pass."""
    if not isinstance(value, str) or not value.strip() or len(value) > 200:
        raise RequestError(f"seat {value!r}: expected 'human', a level "
                           f"({', '.join(_LEVEL_SPECS)}) or an agent spec")
    value = value.strip()
    if value == HUMAN:
        return HUMAN
    if value == "ai":
        return default_ai
    if value in _LEVEL_SPECS:
        return _LEVEL_SPECS[value]
    if value in trusted:
        return value
    if value.partition(":")[0].strip().lower() == "mcts":
        seat_config(value)       # the search's names and bounds first, then the agent's
    kind, options = parse_spec(value)
    if kind not in ("random", "greedy", "mcts"):
        raise RequestError(f"seat '{value}': the page may choose random, greedy or mcts")
    return value


def legal_codes(st):
    """The legal action codes of st (own scratch array: safe from any thread)."""
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    n = legal_moves(st, moves)
    return moves[:n].tolist()


def _parse_move(text):
    if not isinstance(text, str) or len(text) > 60:
        raise RequestError("move: expected a move text such as 'tile red F4'")
    return parse_move(text)


def new_key():
    return secrets.token_urlsafe(16)


def seat_keys(seats, hotseat):
    """One new key per seat; in the hot-seat mode the human seats share one."""
    shared = new_key()
    return [shared if hotseat and s == HUMAN else new_key() for s in seats]


class Game:
    """One game: seats (``human`` or an agent spec), seed, start position, moves played, and
    the seats' keys (``hotseat``: the human seats share one)."""

    def __init__(self, gid, seats, seed, start, created=None, keys=None, hotseat=False):
        self.id = gid
        self.seats = list(seats)
        self.seed = int(seed)
        self.start = start
        self.created = created if created is not None else time.time()
        self.hotseat = bool(hotseat)
        self.keys = list(keys) if keys is not None else seat_keys(self.seats, self.hotseat)
        self.upgraded = False
        self.lock = threading.RLock()
        self.version = 0
        self.thinking = False
        self.ai_error = None
        self.log = []
        self.position = self._start_position()
        if self.position.players != len(self.seats):
            raise RequestError(f"seats: the position has {self.position.players} players, "
                               f"but {len(self.seats)} seats were given")

    @property
    def players(self):
        return len(self.seats)

    def key_fits(self, seat, key):
        """Whether ``key`` (text from a request, or None) is seat's key (constant time)."""
        if not isinstance(key, str) or len(key) > 64:
            return False
        return hmac.compare_digest(key.encode("ascii", "replace"),
                                   self.keys[seat].encode("ascii"))

    def link(self, seat):
        """The page's address of seat (the fragment never reaches a server log)."""
        return f"/#game={self.id}&seat={seat}&key={self.keys[seat]}"

    def human_links(self):
        return [{"seat": i, "link": self.link(i)} for i, s in enumerate(self.seats)
                if s == HUMAN]

    def _start_position(self):
        p = Position.from_json(self.start, seed=self.seed)
        p.known_hands = [True] * p.players
        return p

    def legal_codes(self):
        return legal_codes(self.position.st)

    # --- moves -----------------------------------------------------------------------------
    def _push(self, code, by):
        before = self.position.st.copy()
        mover = self.position.to_act
        with ENGINE_LOCK:
            self.position.push(int(code))
        self.log.append({"player": mover, "by": by, "move": move_text(int(code)),
                         "outcome": views.outcome(before, int(code), self.position.st),
                         "mark": views.move_marks(before, int(code))})
        self.version += 1

    def replay(self, moves, by):
        """Play ``moves`` (texts) from the start; PositionError naming the first bad one."""
        self.position = self._start_position()
        self.log = []
        for i, (text, who) in enumerate(zip(moves, by)):
            try:
                code = _parse_move(text)
                if code not in self.legal_codes():
                    raise IllegalMoveError(f"'{text}' is not legal there")
                self._push(code, who)
            except TneError as e:
                raise PositionError(f"moves[{i}]: {e}") from None
        self.version += 1

    def human_move(self, seat, text):
        code = _parse_move(text)
        with self.lock:
            p = self.position
            if p.is_over():
                raise RequestError("the game is over", 409)
            if self.seats[seat] != HUMAN:
                raise RequestError(f"seat {seat} is played by {self.seats[seat]}", 403)
            if seat != p.to_act:
                raise RequestError(f"it is player {p.to_act}'s move, not player {seat}'s", 409)
            if code not in self.legal_codes():
                raise RequestError(f"'{move_text(code)}' is not legal: {p.why_illegal(code)}",
                                   409)
            self._push(code, HUMAN)

    def can_undo(self, seat):
        """A human seat may take back its last move (and the AI moves after it), unless
        another human has moved since."""
        if not (0 <= seat < self.players) or self.seats[seat] != HUMAN:
            return False
        for e in reversed(self.log):
            if e["player"] == seat and e["by"] == HUMAN:
                return True
            if e["by"] == HUMAN:
                return False
        return False

    def undo(self, seat):
        with self.lock:
            if not self.can_undo(seat):
                raise RequestError(f"player {seat} has no move to take back", 409)
            keep = len(self.log)
            while True:
                keep -= 1
                e = self.log[keep]
                if e["player"] == seat and e["by"] == HUMAN:
                    break
            moves = [e["move"] for e in self.log[:keep]]
            by = [e["by"] for e in self.log[:keep]]
            self.replay(moves, by)
            self.ai_error = None

    def ai_to_act(self):
        p = self.position
        return not p.is_over() and self.seats[p.to_act] != HUMAN and self.ai_error is None

    # --- files -----------------------------------------------------------------------------
    def to_save(self):
        return {"format": SAVE_FORMAT, "id": self.id, "seats": self.seats, "seed": self.seed,
                "created": self.created, "hotseat": self.hotseat, "keys": self.keys,
                "start": self.start,
                "moves": [e["move"] for e in self.log], "by": [e["by"] for e in self.log]}

    @classmethod
    def from_save(cls, d):
        """The game of a saved file's object; PositionError naming the bad field.  A file of
        OLD_SAVE_FORMAT (no keys) becomes a hot-seat game with new keys (``upgraded``)."""
        fmt = d.get("format") if isinstance(d, dict) else None
        if fmt not in (SAVE_FORMAT, OLD_SAVE_FORMAT):
            raise PositionError(f"format: expected \"{SAVE_FORMAT}\"")
        gid, seats, seed, start = d.get("id"), d.get("seats"), d.get("seed"), d.get("start")
        if not isinstance(gid, str) or not ID_PATTERN.match(gid):
            raise PositionError("id: expected 12 hexadecimal digits")
        if not isinstance(seats, list) or not 2 <= len(seats) <= 4 or not all(
                isinstance(v, str) and 0 < len(v) <= 200 for v in seats):
            raise PositionError("seats: expected a list of 2 to 4 seat names")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise PositionError(f"seed: expected an integer 0 to {MAX_SEED}")
        if not isinstance(start, dict):
            raise PositionError("start: expected a tne-position/1 object")
        created = d.get("created")
        if not isinstance(created, (int, float)) or isinstance(created, bool) or \
                not 0 <= created < 1e11:
            created = None
        moves, by = d.get("moves"), d.get("by")
        if not isinstance(moves, list) or not isinstance(by, list) or len(moves) != len(by) \
                or len(moves) > L.MAX_PLIES or not all(isinstance(b, str) for b in by):
            raise PositionError(f"moves/by: expected two lists of the same length (at most "
                                f"{L.MAX_PLIES})")
        if fmt == OLD_SAVE_FORMAT:
            keys, hotseat = None, True
        else:
            keys, hotseat = d.get("keys"), d.get("hotseat")
            if not isinstance(hotseat, bool):
                raise PositionError("hotseat: expected true or false")
            if not isinstance(keys, list) or len(keys) != len(seats) or not all(
                    isinstance(k, str) and KEY_PATTERN.match(k) for k in keys):
                raise PositionError(f"keys: expected {len(seats)} seat keys")
        game = cls(gid, seats, seed, start, created, keys, hotseat)
        game.upgraded = fmt == OLD_SAVE_FORMAT
        game.replay(moves, by)
        return game

    def record(self):
        """The tne-game/1 record: it holds every hand and the bag order, so it is given out
        only once the game is over (SPEC section 7)."""
        if not self.position.is_over():
            raise RequestError("the record holds every hand and the bag order: it is offered "
                               "when the game is over (export the position from your view "
                               "meanwhile)", 409)
        if not isinstance(self.start.get("bag"), str):
            raise RequestError("this game started from a position with a counted bag: a "
                               "tne-game/1 record needs an ordered bag (export the position)",
                               409)
        meta = {"agents": self.seats, "seed": self.seed, "game": self.id, "truncated": False}
        return game_record(self.start, [e["move"] for e in self.log], self.position.to_json(),
                           meta)


def prepare_games_dir(path):
    """Make sure ``path`` is a directory the server can write its games in (created if
    missing); TneError naming what is wrong otherwise.  Nothing is left in it but the
    directory itself."""
    if not isinstance(path, str) or not path.strip():
        raise TneError("expected a directory name, got an empty one")
    if "\0" in path:
        raise TneError("a directory name cannot hold a NUL character")
    shown = L.clip(path, 80)
    try:
        if os.path.lexists(path) and not os.path.isdir(path):
            raise TneError(f"'{shown}' exists and is not a directory")
        os.makedirs(path, exist_ok=True)
        probe = os.path.join(path, f".tne-probe-{os.getpid()}.tmp")
        with open(probe, "w", encoding="utf-8") as f:
            f.write("x")
        os.remove(probe)
        os.listdir(path)
    except OSError as e:
        raise TneError(f"'{shown}': cannot use it for the games: "
                       f"{e.strerror or type(e).__name__}") from None


class GameStore:
    """The games by id, saved to ``directory`` as they go; AI moves in a thread pool."""

    def __init__(self, directory, default_ai="mcts:iterations=2000", ai_workers=2):
        self.directory = directory
        self.default_ai = default_ai
        self.games = {}
        self.lock = threading.Lock()
        self.pool = ThreadPoolExecutor(max_workers=ai_workers, thread_name_prefix="tne-ai")
        self.load_errors = []
        self.upgraded = []       # games of the old save format, given keys at this start
        self.removed_tmp = []    # temporaries of saves cut short (a killed server), removed
        self.closing = False
        if directory is not None:
            prepare_games_dir(directory)
            self._remove_temporaries()
            self._load_all()

    def close(self):
        """Stop: the AI finishes the move it is searching (and saves it), then stops."""
        self.closing = True
        self.pool.shutdown(wait=True, cancel_futures=True)

    # --- files -----------------------------------------------------------------------------
    def _path(self, gid):
        return os.path.join(self.directory, f"{gid}.json")

    def save(self, game):
        """Write game's file (a temporary file, fsync, rename); OSError if that fails, with
        the temporary removed and the old file as it was."""
        if self.directory is None:
            return
        path = self._path(game.id)
        tmp = f"{path}.{threading.get_ident()}.tmp"
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(game.to_save(), f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.remove(tmp)
            raise

    def _saved_or_restored(self, game, moves, by, what):
        """Save game; if that fails, put it back to ``moves``/``by`` (what the file holds)
        and refuse the request (503): nothing is acknowledged that is not on disk."""
        try:
            self.save(game)
        except OSError as e:
            game.replay(moves, by)
            raise RequestError(f"{what}: the game could not be saved "
                               f"({e.strerror or type(e).__name__}), so it was not done", 503) \
                from None

    def _remove_temporaries(self):
        """A server killed during a save leaves its temporary file: no game's file depends
        on it (the rename never happened), so it goes."""
        for name in sorted(os.listdir(self.directory)):
            if TMP_PATTERN.match(name):
                with contextlib.suppress(OSError):
                    os.remove(os.path.join(self.directory, name))
                    self.removed_tmp.append(name)

    def _load_all(self):
        from tne_ai.core.io.json_reader import read_json
        for name in sorted(os.listdir(self.directory)):
            if not name.endswith(".json") or not ID_PATTERN.match(name[:-5]):
                continue
            try:
                with open(os.path.join(self.directory, name), "rb") as f:
                    data = f.read(MAX_SAVE_BYTES + 1)
                game = Game.from_save(read_json(data, name, max_bytes=MAX_SAVE_BYTES))
                if game.id != name[:-5]:
                    raise PositionError("id: does not match the file name")
                if game.upgraded:
                    self.save(game)
            except (OSError, ValueError, TneError, KeyError, TypeError) as e:
                self.load_errors.append(f"{name}: {' '.join(str(e).split())}")
                continue
            self.games[game.id] = game
            if game.upgraded:
                self.upgraded.append(game)
        for game in self.games.values():
            self.kick(game)

    # --- games -----------------------------------------------------------------------------
    def get(self, gid):
        if not isinstance(gid, str) or not ID_PATTERN.match(gid) or gid not in self.games:
            raise RequestError(f"no game '{str(gid)[:40]}'", 404)
        return self.games[gid]

    def seats(self, values):
        if not isinstance(values, list) or not 2 <= len(values) <= 4:
            raise RequestError("seats: expected a list of 2 to 4 seats")
        return [seat_spec(v, self.default_ai, trusted=(self.default_ai,)) for v in values]

    def add(self, seats, seed, start=None, moves=(), by=None, hotseat=False):
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise RequestError(f"seed: expected an integer 0 to {MAX_SEED}")
        if not isinstance(hotseat, bool):
            raise RequestError("hotseat: expected true or false")
        seats = self.seats(seats)
        if start is None:
            start = Position.new(len(seats), seed).to_json()
        with self.lock:
            gid = secrets.token_hex(6)
            while gid in self.games:
                gid = secrets.token_hex(6)
        game = Game(gid, seats, seed, start, hotseat=hotseat)
        moves = list(moves)
        game.replay(moves, by if by is not None else [HUMAN] * len(moves))
        with self.lock:
            if len(self.games) >= MAX_GAMES:
                raise RequestError(f"the server keeps at most {MAX_GAMES} games", 429)
            self.games[gid] = game
        with game.lock:
            try:
                self.save(game)
            except OSError as e:
                with self.lock:
                    del self.games[gid]
                raise RequestError(f"the game could not be saved "
                                   f"({e.strerror or type(e).__name__})", 503) from None
        self.kick(game)
        return game

    def add_upload(self, seats, seed, data, hotseat=False):
        """A game continued from an uploaded tne-game/1 record or tne-position/1 object."""
        if not isinstance(data, dict):
            raise RequestError("upload: expected a tne-game/1 record or a tne-position/1 object")
        if data.get("format") == GAME_FORMAT:
            rec = load_game_record(data)
            moves = rec["moves"]
            if len(moves) > 5000:
                raise RequestError("moves: at most 5000")
            return self.add(seats, seed, rec["start"], moves, ["record"] * len(moves), hotseat)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise RequestError(f"seed: expected an integer 0 to {MAX_SEED}")
        p = Position.from_json(data, seed=seed)
        p.known_hands = [True] * p.players
        return self.add(seats, seed, p.to_json(), hotseat=hotseat)

    def move(self, game, seat, text):
        with game.lock:
            moves, by = [e["move"] for e in game.log], [e["by"] for e in game.log]
            game.human_move(seat, text)
            self._saved_or_restored(game, moves, by, "move")
        self.kick(game)

    def undo(self, game, seat):
        with game.lock:
            moves, by = [e["move"] for e in game.log], [e["by"] for e in game.log]
            game.undo(seat)
            self._saved_or_restored(game, moves, by, "undo")
        self.kick(game)

    # --- the AI ----------------------------------------------------------------------------
    def kick(self, game):
        """Start the AI's moves in the pool if an AI seat is to act and none is thinking."""
        with game.lock:
            if game.thinking or not game.ai_to_act():
                return
            game.thinking = True
        self.pool.submit(self._ai_moves, game)

    def _ai_moves(self, game):
        while True:
            with game.lock:
                if self.closing or not game.ai_to_act():
                    game.thinking = False
                    return
                snapshot = game.position.copy()
                version = game.version
                spec = game.seats[snapshot.to_act]
                ply = len(game.log)
            try:
                code = make_agent(spec, seed=game.seed * 1009 + ply).choose(snapshot)
            except Exception as e:  # an agent that fails stops the AI of this game, visibly
                with game.lock:
                    game.ai_error = f"the AI ({spec}) failed: {' '.join(str(e).split())}"
                    game.thinking = False
                return
            with game.lock:
                if game.version != version:
                    continue  # taken back meanwhile: look again
                moves, by = [e["move"] for e in game.log], [e["by"] for e in game.log]
                game._push(code, "ai")
                try:
                    self._saved_or_restored(game, moves, by, "the AI's move")
                except RequestError as e:
                    game.ai_error = str(e)
                    game.thinking = False
                    return


def hint(game, seat, iterations=HINT_ITERATIONS):
    """The engine's suggestion for seat: one Search of seat's own view only, its top moves
    with their visits and win chances (``visits``: the root's, equal to the iterations)."""
    with game.lock:
        st = game.position.st
        if game.position.is_over() or int(st[S.TO_ACT]) != seat or game.seats[seat] != HUMAN:
            raise RequestError(f"player {seat} is not to move", 409)
        ply = len(game.log)
        p = game.position.view(seat, seed=ply)
    info = Search(p.st, SearchConfig(seed=game.seed * 1009 + ply)).run(iterations=iterations)
    d = info.to_dict()
    return {"move": d["move"], "iterations": d["iterations"], "visits": d["visits"],
            "top": views.share_marks(p.st, info.alternatives)}


class Analysis:
    """The engine thinking about a position, in a thread: ONE Search whose tree grows.

    ``run`` continues the same tree in steps that double from FIRST_STEP iterations up to
    STEP_CAP, publishing the search's result after each (the top moves, the iterations so
    far, which are the root's visits), until ``max_iterations`` or ``stop()``.  ``stop()``,
    from any thread (a request's), ends the step in progress after its current batch
    (Search.stop), and no step follows.  When done, the search is let go (its tree freed)."""

    FIRST_STEP = 1000
    STEP_CAP = 32000

    def __init__(self, aid, st, max_iterations, seed):
        self.id = aid
        self.st = st
        self.max_iterations = max_iterations
        self.seed = seed
        self.search = None          # the Search while it runs
        self.stopped = threading.Event()
        self._lock = threading.Lock()
        self.version = 0
        self.snapshot = {"iterations": 0, "visits": 0, "top": [], "done": False}
        self.done = False
        self.error = None
        self.started = time.time()

    def stop(self):
        """End the analysis: the step running stops after its batch, no other starts."""
        with self._lock:
            self.stopped.set()
            if self.search is not None:
                self.search.stop()

    def run(self):
        try:
            s = Search(self.st, SearchConfig(seed=self.seed))
            with self._lock:
                self.search = s
            step = self.FIRST_STEP
            while not self.stopped.is_set() and s.iterations < self.max_iterations:
                info = s.run(iterations=min(step, self.max_iterations - s.iterations))
                if info.forced:  # one legal move: nothing to search
                    self._publish(info, [(a, 1, m) for a, _, m in info.alternatives])
                    break
                self._publish(info, info.alternatives)
                step = min(2 * step, self.STEP_CAP)
        except Exception as e:  # reported on the stream, never raised into the server
            self.error = " ".join(str(e).split())
        with self._lock:
            self.search = None
        self.done = True
        self.snapshot = dict(self.snapshot, done=True, error=self.error)
        self.version += 1

    def _publish(self, info, alternatives):
        d = info.to_dict()
        self.snapshot = {"iterations": int(d["iterations"]), "visits": int(d["visits"]),
                         "top": views.share_marks(self.st, alternatives), "done": False,
                         "seconds": round(time.time() - self.started, 2)}
        self.version += 1
