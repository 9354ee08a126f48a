"""The `tne` command line: a thin shell over tne_ai (parse, call the library, print).

Every error a user can cause (a file that cannot be read, text that is not JSON, a position
the library rejects, a move that does not parse or is not legal, an option out of its range,
a missing argument) is reported as one line, ``tne: error: <message>``, on stderr with exit
status 2; nothing is written to ``-o``.  The bounds of counts and budgets are those of
tne_ai/limits.py (README, "Limits").
"""
import contextlib
import json
import os
import sys

import click

from tne_ai import limits as L


class CliError(click.ClickException):
    """A user error, shown as one line ``tne: error: <message>`` with exit status 2."""

    exit_code = 2

    def show(self, file=None):
        click.echo(f"tne: error: {_error_line(self.format_message())}", err=True)


def _one_line(text):
    return " ".join(str(text).split())


def _error_line(message):
    """The one stderr line of an error: no line breaks, at most a few hundred characters."""
    return L.clip(_one_line(message), 2 * L.MAX_ECHO)


class _Int(click.ParamType):
    """An integer lo..hi written in ASCII digits (click's int also takes '٣' and '1_0')."""

    name = "integer"

    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    def convert(self, value, param, ctx):
        from tne_ai.errors import InputError
        from tne_ai.core.io import parse_int
        try:
            number = parse_int(value, "value")
        except InputError:
            self.fail(f"{L.clip(str(value).strip(), 40)!r} is not an integer", param, ctx)
        if not self.lo <= number <= self.hi:
            self.fail(f"{number if abs(number) < 10 ** 24 else L.clip(str(number), 24)} is not "
                      f"in the range {self.lo}..{self.hi}", param, ctx)
        return number

    def get_metavar(self, param, ctx=None):
        return f"{self.lo}..{self.hi}"


class _Float(click.ParamType):
    """A finite number in ASCII decimal, lo <= x <= hi (strict where ``lo_open``/``hi_open``)."""

    name = "number"

    def __init__(self, lo, hi, lo_open=False, hi_open=False):
        self.lo, self.hi, self.lo_open, self.hi_open = lo, hi, lo_open, hi_open

    def convert(self, value, param, ctx):
        from tne_ai.errors import InputError
        from tne_ai.core.io import parse_float
        try:
            number = parse_float(value, "value")
        except InputError:
            self.fail(f"{L.clip(str(value).strip(), 40)!r} is not a number", param, ctx)
        low_ok = number > self.lo if self.lo_open else number >= self.lo
        high_ok = number < self.hi if self.hi_open else number <= self.hi
        if not (low_ok and high_ok):
            self.fail(f"{L.clip(str(value), 40)} is not in the range {self.lo:g} "
                      f"{'<' if self.lo_open else '<='} x {'<' if self.hi_open else '<='} "
                      f"{self.hi:g}", param, ctx)
        return number


def _Share():
    """A share: a number 0 < x < 1."""
    return _Float(0, 1, lo_open=True, hi_open=True)


SEED = _Int(0, L.MAX_SEED)


class _SearchOption(click.ParamType):
    """A search option's value, read and bounded by its SearchConfig row (search/config.py),
    so a bad one gets the line every face gives: ``option threads=0 is out of range (1 <= x
    <= 64)``."""

    def __init__(self, option):
        from tne_ai.search.config import canonical, options
        self.option = canonical(option)
        self.row = next(r for r in options() if r.name == self.option)
        self.name = self.row.type

    def convert(self, value, param, ctx):
        from tne_ai.search.config import SearchConfigError, parse_option
        if not isinstance(value, str):
            return value
        try:
            return parse_option(self.option, value)
        except SearchConfigError as e:
            self.fail(str(e), param, ctx)

    def get_metavar(self, param, ctx=None):
        r = self.row
        if r.low is None:
            return "|".join(r.choices) if r.choices else r.type.upper()
        low = f"{r.low:g}" if isinstance(r.low, float) else str(r.low)
        high = f"{r.high:g}" if isinstance(r.high, float) else str(r.high)
        return f"{low}<x..{high}" if r.low_open else f"{low}..{high}"


class _SearchSpec(click.ParamType):
    """An ``mcts:`` spec of search options, read by SearchConfig.from_spec."""

    name = "spec"

    def convert(self, value, param, ctx):
        from tne_ai.search.config import SearchConfig, SearchConfigError
        if not isinstance(value, str):
            return value
        try:
            return SearchConfig.from_spec(value)
        except SearchConfigError as e:
            raise CliError(f"--search: {e}") from None


class _File(click.ParamType):
    """A file option checked when the command line is parsed, before any work (tne_ai.core.io.
    paths): ``out`` a file that can be written, else an existing file that can be read."""

    name = "file"

    def __init__(self, out):
        self.out = out

    def convert(self, value, param, ctx):
        from tne_ai.errors import InputError
        from tne_ai.core.io import check_input_file, check_output_file
        what = max(param.opts, key=len) if param is not None and param.opts else "FILE"
        try:
            return (check_output_file if self.out else check_input_file)(value, what)
        except InputError as e:
            raise CliError(str(e)) from None


OUT_FILE, IN_FILE = _File(out=True), _File(out=False)


def _usage_error_line(e):
    """One line for an error click caught while parsing the command line."""
    if isinstance(e, click.BadParameter) and e.param is not None \
            and not isinstance(e, click.MissingParameter):
        hint = max(e.param.opts, key=len) if getattr(e.param, "opts", None) and \
            e.param.param_type_name == "option" else e.param.human_readable_name
        return f"{hint}: {e.message.rstrip('.')}"
    text = e.format_message().rstrip(".")
    command = e.ctx.command_path if e.ctx is not None else "tne"
    return f"{text[:1].lower() + text[1:]} (see '{command} --help')"


class _Tne(click.Group):
    """The tne group: every click error becomes one line ``tne: error: ...``, exit 2."""

    def main(self, args=None, prog_name=None, **extra):
        extra.pop("standalone_mode", None)
        try:
            rv = super().main(args, prog_name=prog_name, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as e:
            click.echo(e.ctx.get_help())
            sys.exit(0)
        except CliError as e:
            e.show()
            sys.exit(e.exit_code)
        except click.UsageError as e:
            click.echo(f"tne: error: {_error_line(_usage_error_line(e))}", err=True)
            sys.exit(2)
        except click.ClickException as e:
            click.echo(f"tne: error: {_error_line(e.format_message())}", err=True)
            sys.exit(2)
        except click.exceptions.Abort:
            click.echo("tne: interrupted", err=True)
            sys.exit(130)
        sys.exit(rv if isinstance(rv, int) else 0)


@contextlib.contextmanager
def _reported(what=None):
    """Turn a TneError raised inside into a CliError; ``what`` prefixes the message."""
    from tne_ai.errors import TneError

    try:
        yield
    except TneError as e:
        message = _one_line(e) or type(e).__name__
        raise CliError(f"{what}: {message}" if what else message) from None


def _read_text(path, name, max_bytes=L.MAX_INPUT_BYTES):
    """The UTF-8 text of file ``path`` (``-``: stdin), at most ``max_bytes`` (README,
    "Limits"): read through tne_ai.core.io.read_input, so an endless input is refused at once."""
    from tne_ai.errors import TneError
    from tne_ai.core.io import read_input

    try:
        data = read_input(path, name, max_bytes=max_bytes)
    except TneError as e:
        raise CliError(str(e)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CliError(f"{name}: not UTF-8 text: {e.reason} at byte {e.start}") from None


def _load_position(path, seed=0):
    """The Position in file ``path`` (``-`` = stdin); draws of a counted bag use ``seed``."""
    name = "stdin" if path == "-" else (path or "POSITION ''")
    text = _read_text(path, name)
    from tne_ai.core.formats import parse_json
    from tne_ai.position import Position

    with _reported():
        data = parse_json(text, name)
    with _reported(name):
        return Position.from_json(data, seed=seed)


def _require_hand_to_act(p, after=None):
    if not p.is_over() and p.hand(p.to_act) is None:
        message = (f"the hand of player {p.to_act}, who must act, is unknown "
                   f"(hands[{p.to_act}] is null): give it to list or play moves")
        raise CliError(f"{after}: {message}" if after else message)


def _play(p, moves):
    """Push ``moves`` (texts) onto ``p`` in order, checking the hand to act before each."""
    _require_hand_to_act(p)
    for i, text in enumerate(moves, 1):
        with _reported(f"move {i}"):
            p.push(text)
        _require_hand_to_act(p, after=f"after move {i} '{text}'")
    return p


def _position_json(p):
    """The position file text: one top-level key a line, one list item (board row, hand...) a line."""
    def value(v):
        if isinstance(v, list) and v:
            return "[\n" + ",\n".join("    " + json.dumps(x) for x in v) + "\n  ]"
        return json.dumps(v)
    return "{\n" + ",\n".join(f"  {json.dumps(k)}: {value(v)}" for k, v in p.to_json().items()) + "\n}"


def kernel_cache_is_cold(group="all"):
    """Whether numba has not yet cached the kernels of a group (tne_ai/search/warmup.py: ``search``,
    what bestmove runs, or ``all``): a part's last kernel has no cache index where numba keeps
    it (``NUMBA_CACHE_DIR`` when set)."""
    from tne_ai.search.warmup import cold
    return cold(group)


def _show_version(ctx, param, value):
    if value and not ctx.resilient_parsing:
        from tne_ai import __version__
        click.echo(f"tne {__version__}")
        ctx.exit(0)


# progress lines on stderr (tne_ai/matches/progress.py); `tne -q COMMAND` silences them
PROGRESS = [None]


def _progress():
    from tne_ai.matches.progress import Progress
    if PROGRESS[0] is None:
        PROGRESS[0] = Progress()
    return PROGRESS[0]


# measured (bench/README.md, the first run): 14 s idle, 25 to 27 s busy, on 2 cores
COMPILE_ESTIMATE = "15 s, 30 s on a busy machine"

# the kernel group (tne_ai/search/warmup.py) a command compiles first on a cold cache; every other
# command compiles them all (a timed game must not wait for a compile in its middle)
COMMAND_GROUP = {"bestmove": "search"}


def _compile_kernels(group="all"):
    """Compile (and cache) the group's kernels before the command, saying so as it goes
    (``all``: the default search, its tree reuse, the exact endings and the checks of a
    position, so that no later move of a timed game waits for a compile: an engine in a match
    would forfeit it)."""
    import time
    from tne_ai.matches.progress import ticking
    from tne_ai.search.warmup import compile_group
    progress = _progress()
    start = time.monotonic()
    with ticking(progress, "compile", lambda t: "tne: compiling the kernels, first run only "
                 f"(about {COMPILE_ESTIMATE}): {t:.0f} s"):
        compile_group(group)
    progress.end(f"tne: kernels compiled in {time.monotonic() - start:.0f} s (cached: later "
                 f"runs start at once)")


@click.group(name="tne", cls=_Tne, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_show_version, help="Print the version and exit.")
@click.option("-q", "--quiet", is_flag=True,
              help="No progress lines on stderr (compiling, self-play, fitting, reviews).")
@click.pass_context
def main(ctx, quiet):
    """Tigris & Euphrates: positions, legal moves, an AI player, tournaments.

    POSITION is a tne-position/1 JSON file (SPEC.md section 9), or - for stdin.
    Moves use the SPEC.md notation, one shell word each: 'tile red F4', 'commit 2', 'pass'.
    Errors are one line 'tne: error: ...' on stderr, exit status 2, nothing written.
    """
    from tne_ai.matches.progress import Progress
    PROGRESS[0] = Progress(quiet=quiet)
    helping = any(a in ("-h", "--help") for a in sys.argv[1:])
    group = COMMAND_GROUP.get(ctx.invoked_subcommand, "all")
    if not helping and ctx.invoked_subcommand is not None and kernel_cache_is_cold(group):
        _compile_kernels(group)


@main.command()
@click.option("--players", type=_Int(2, 4), default=2, show_default=True,
              help="Number of players.")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the bag shuffle.")
def new(players, seed):
    """Print the start position of a new game."""
    from tne_ai.position import Position

    with _reported():
        p = Position.new(players, seed)
    click.echo(_position_json(p))


def _write_svg(path, text):
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise CliError(f"{path}: cannot write: {e.strerror or _one_line(e)}") from None


@main.command()
@click.argument("position")
@click.option("--as", "viewer", type=_Int(0, 3), default=None, metavar="PLAYER",
              help="Show the position as PLAYER sees it: other players' hands hidden.")
@click.option("--svg", "svg_file", type=OUT_FILE, default=None, metavar="FILE",
              help="Also draw the position as an SVG picture in FILE.")
def show(position, viewer, svg_file):
    """Print the board and a summary of POSITION."""
    p = _load_position(position)
    from tne_ai.core.render import summary, svg

    if viewer is not None and not 0 <= viewer < p.players:
        raise CliError(f"--as {viewer}: players are numbered 0 to {p.players - 1}")
    known_hands = [p.hand(i) is not None for i in range(p.players)]
    with _reported():
        text = summary(p.st, known_hands, viewer)
    if svg_file is not None:
        _write_svg(svg_file, svg(p.st, known_hands, viewer))
    click.echo(str(p))
    click.echo(text)


@main.command()
@click.argument("position")
@click.argument("moves", nargs=-1, metavar="[MOVE]...")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the draws when the bag is given as counts.")
def legal(position, moves, seed):
    """List the legal moves after MOVEs, one per line: by kind, colour, then square in
    board order (A1 B1 ... P1 A2 ...)."""
    p = _play(_load_position(position, seed), moves)
    # by kind (SPEC section 8's order), then colour, then square in board order (A1 B1 .. P1
    # A2 ..): the order of the action codes
    for move in sorted(p.legal_moves(), key=lambda m: m.code):
        click.echo(str(move))


@main.command()
@click.argument("position")
@click.argument("moves", nargs=-1, required=True, metavar="MOVE...")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the draws when the bag is given as counts.")
@click.option("-o", "--output", type=OUT_FILE, default=None, metavar="FILE",
              help="Write the resulting position to FILE instead of stdout.")
def apply(position, moves, seed, output):
    """Play MOVEs and print the resulting position."""
    p = _play(_load_position(position, seed), moves)
    text = _position_json(p)
    if output is None:
        click.echo(text)
        return
    try:
        with open(output, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    except OSError as e:
        raise CliError(f"{output}: cannot write: {e.strerror or _one_line(e)}") from None


@main.command()
@click.argument("position")
@click.option("--time", "seconds", type=_SearchOption("time"), default=None,
              help="Seconds to think (default 1.0 when --iterations is not given).")
@click.option("--iterations", type=_SearchOption("iterations"), default=None,
              help="Search iterations (with --time: whichever is reached first).")
@click.option("--threads", type=_SearchOption("threads"), default=1, show_default=True,
              help="Root-parallel search trees.")
@click.option("--seed", type=_SearchOption("seed"), default=0, show_default=True,
              help="Seed of the search.")
@click.option("--json", "as_json", is_flag=True, help="Print the move with its statistics as JSON.")
@click.option("--svg", "svg_file", type=OUT_FILE, default=None, metavar="FILE",
              help="Also draw the position in FILE (SVG) with the move and the next best "
                   "three marked, with their shares of the search visits.")
def bestmove(position, seconds, iterations, threads, seed, as_json, svg_file):
    """Print the best move for whoever must act in POSITION (ISMCTS), its win chance and,
    when it is the first action of a turn, the rest of the turn as the search plans it."""
    from tne_ai.search.config import SearchConfig
    from tne_ai.search.session import Search

    p = _load_position(position)
    if p.is_over():
        raise CliError(f"{position}: the game is over; there is no move to choose")
    _require_hand_to_act(p)
    if seconds is None and iterations is None:
        seconds = 1.0
    s = Search(p, SearchConfig(threads=threads, seed=seed))
    from tne_ai.search.ending import ending_of
    if ending_of(s) is not None and kernel_cache_is_cold("solver"):
        _compile_kernels("solver")     # the game can end this turn: the exact endings run
    info = s.run(iterations, seconds)
    from tne_ai.search.report import bestmove_json, bestmove_lines, chosen_by
    rule = chosen_by(info, s.config, p.st)
    if svg_file is not None:
        from tne_ai.core.render import svg, visit_shares
        known_hands = [p.hand(i) is not None for i in range(p.players)]
        marks = visit_shares(info.alternatives, chosen=info.move, top=4)
        _write_svg(svg_file, svg(p.st, known_hands, p.to_act, marks))
    if as_json:
        click.echo(json.dumps(bestmove_json(info, p.to_act, rule), indent=1))
    else:
        for line in bestmove_lines(info, rule):
            click.echo(line)


@main.command()
def engine():
    """Serve the search over the engine line protocol on stdin/stdout (docs/PROTOCOL.md):
    JSON lines hello, setoption, newgame, position, go, stop, quit."""
    from tne_ai.protocol.server import main as serve

    serve()


def _saved_bench(path):
    """A run saved by `tne bench --save` (read through tne_ai.core.io, at most
    limits.MAX_INPUT_BYTES): ``figures`` an object of {"median": number} objects."""
    from tne_ai.core.io import read_json

    with _reported("--compare"):
        data = read_json(_read_text(path, path), path)
    figures = data.get("figures") if isinstance(data, dict) else None
    if not isinstance(figures, dict):
        raise CliError(f"--compare {L.clip(path, 60)}: not a saved tne bench run (no "
                       f"'figures' object)")
    for name, f in figures.items():
        median = f.get("median") if isinstance(f, dict) else None
        if isinstance(median, bool) or not isinstance(median, (int, float)):
            raise CliError(f"--compare {L.clip(path, 60)}: figures.{L.clip(name, 40)}: "
                           f"expected an object with a number 'median'")
    return data


@main.command()
@click.option("--quick", is_flag=True, help="Fewer and shorter runs (under a minute); no cold compile.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option("--save", type=OUT_FILE, default=None, metavar="FILE",
              help="Write the figures, machine, versions and commit to FILE (JSON).")
@click.option("--compare", type=IN_FILE, default=None, metavar="FILE",
              help="Show each figure's ratio to a run saved with --save.")
@click.option("--signature", "signature_only", is_flag=True,
              help="Only search the fixed signature positions and print the signature (one "
                   "number; the same before and after a non-functional change).")
def bench(quick, as_json, save, compare, signature_only):
    """Benchmark the engine and the search on this machine."""
    from tne_ai.matches.bench import format_table, run_all

    if signature_only:
        import time

        from tne_ai.matches.bench import signature
        t = time.perf_counter()
        value, details = signature()
        click.echo(f"bench: {len(details)} searches, {sum(d['nodes'] for d in details):,} nodes, "
                   f"{time.perf_counter() - t:.2f} s", err=True)
        click.echo(json.dumps({"signature": value, "searches": details}) if as_json else str(value))
        return

    old = None
    if compare is not None:
        old = _saved_bench(compare)
    result = run_all(quick=quick, progress=lambda text: click.echo(f"bench: {text}", err=True))
    if save is not None:
        try:
            with open(save, "w", encoding="utf-8") as f:
                json.dump(result, f, indent=1)
        except OSError as e:
            raise CliError(f"{save}: cannot write: {e.strerror or _one_line(e)}") from None
    if as_json:
        click.echo(json.dumps(result, indent=1))
    else:
        click.echo(format_table(result, old))


@main.command()
@click.option("--players", type=_Int(2, 4), default=2, show_default=True,
              help="Number of players.")
@click.option("--ai", "ai_spec", default="mcts:time=1", show_default=True, metavar="SPEC",
              help="The agent in every other seat: random, greedy, mcts:time=1, ...")
@click.option("--seat", type=_Int(0, 3), default=0, show_default=True,
              help="Your seat (player number; player 0 moves first).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the bag shuffle and of the AI.")
@click.option("--out", type=OUT_FILE, default=None, metavar="FILE",
              help="Where the game record goes (default: tne-game.json, or the next free "
                   "tne-game-N.json).")
@click.option("--resume", type=IN_FILE, default=None, metavar="FILE",
              help="Continue the game saved in FILE (its players, seat, seed and AI); it is "
                   "saved back there unless --out says otherwise.")
def play(players, ai_spec, seat, seed, out, resume):
    """Play against the AI in the terminal (type help once it starts).

    The game is saved as a tne-game/1 record after every move (a kill loses no move shown),
    and when it ends, on quit, Ctrl-C or end of input (recorded as stopped by you); `undo`
    takes back your last decision.  `tne replay FILE` shows the record and `tne play
    --resume FILE` continues it."""
    from tne_ai.matches.play import default_record_path, play as play_game

    if out is None:
        out = resume if resume is not None else default_record_path()
    with _reported():
        play_game(players, ai_spec, seat, seed, read=_line_reader(), write=click.echo, out=out,
                  resume=resume)


class _PipeLines:
    """``input()`` for a stdin that is a pipe or a file: reads the file descriptor itself
    with short select() timeouts, so that the main thread runs Python often and a Ctrl-C
    (SIGINT), whichever thread the kernel hands it to, stops the read at once."""

    def __init__(self, fd):
        self.fd = fd
        self.buffer = b""
        self.ended = False

    def __call__(self, prompt=""):
        import select
        click.echo(prompt, nl=False)
        sys.stdout.flush()
        while b"\n" not in self.buffer and not self.ended:
            if len(self.buffer) > L.MAX_COMMAND_BYTES:   # an endless line (/dev/zero)
                self.buffer, self.ended = b"", True
                click.echo(f"tne: note: stdin: a line longer than "
                           f"{L.MAX_COMMAND_BYTES} bytes; the input ends there", err=True)
                break
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                chunk = os.read(self.fd, 65536)
                self.buffer += chunk
                self.ended = not chunk
        if not self.buffer:
            raise EOFError
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace").rstrip("\r")


def _line_reader():
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):   # click's CliRunner: an in-memory stdin
        return input
    return input if os.isatty(fd) else _PipeLines(fd)



@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (a name that resolves, at most 253 characters).")
@click.option("--port", type=_Int(1, 65535), default=8000, show_default=True)
@click.option("--ai", "ai_spec", default="mcts:iterations=2000", show_default=True,
              metavar="SPEC", help="The agent a seat set to 'server AI' plays.")
@click.option("--games-dir", default="tne-games", show_default=True,
              help="Where games are saved as they go (a restart continues them); created if "
                   "missing, must be a directory the server can write in.")
def serve(host, port, ai_spec, games_dir):
    """Play, set up and analyse positions in the browser (needs the web extra).

    The host, the port and the games directory are checked before the server starts: a
    host that does not resolve, a port in use, or a games directory that is a file or
    cannot be written is one error line (exit 2)."""
    try:
        from tne_ai.web.app import serve as run_server
    except ImportError as e:
        raise CliError(f"tne serve needs the web extra: pip install \"tne-ai[web]\" ({e})") from None
    with _reported():
        run_server(host, port, ai_spec, games_dir, echo=click.echo)

def _parse_agents(items):
    agents = {}
    for item in items:
        name, eq, spec = item.partition("=")
        name, spec = name.strip(), spec.strip()
        if not eq or not name or not spec:
            raise CliError(f"--agent '{item}': expected NAME=SPEC, e.g. m=mcts:iterations=500")
        if name in agents:
            raise CliError(f"--agent '{item}': the name '{name}' is given twice")
        agents[name] = spec
    return agents


def _elo_text(x, signed=True):
    import math
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


def _tournament_text(result):
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
    for row in rows:
        lines.append("  ".join(cell.ljust(w) if c == 0 else cell.rjust(w)
                               for c, (cell, w) in enumerate(zip(row, widths))).rstrip())
    first = r.standings[0].name
    lines.append(f"score: mean lowest colour after treasures; rank: mean place; elo: {r.elo_method}"
                 f", relative to {first}" + ("; PL: Plackett-Luce on finishing orders" if multi else ""))
    if r.sprt is not None:
        t = r.sprt
        verdict = {"H1": f"H1 accepted (elo >= {t.elo1:g})", "H0": f"H0 accepted (elo <= {t.elo0:g})",
                   None: "undecided"}[t.decision]
        lines.append(f"sprt elo0={t.elo0:g} elo1={t.elo1:g} (alpha=beta={t.alpha:g}): LLR {t.llr:.3f} "
                     f"in [{t.lower:.3f}, {t.upper:.3f}] after {len(t.samples)} deal(s): {verdict}")
    return "\n".join(lines)


@main.command()
@click.option("--agent", "agent_items", multiple=True, required=True, metavar="NAME=SPEC",
              help="An agent and its spec (random, greedy, mcts:iterations=500, ...); "
                   "repeat for each agent. The first is the rating reference.")
@click.option("--table", "table_items", multiple=True, metavar="NAME,NAME,...",
              help="A table: agent names by seat, repeats allowed (m,g,g,g); repeat the option "
                   "for more tables. Default: every combination of --players distinct agents.")
@click.option("--players", type=_Int(2, 4), default=None,
              help="Seats per table for the default tables (default 2).")
@click.option("--games", type=_Int(1, L.MAX_DEALS), default=10, show_default=True,
              help="Deals per table. Each deal (one seeded bag) is played in every cyclic "
                   "rotation of the seats, so a table of N seats plays N games per deal.")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the deals and of the agents.")
@click.option("--jobs", type=_Int(1, L.MAX_JOBS), default=1, show_default=True,
              help="Games played in parallel (1: in this process).")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help='local processes, or a Ray cluster (pip install "tne-ai[ray]").')
@click.option("--ray-address", default=None, metavar="ADDR",
              help="The Ray cluster to join (default: start a local Ray with --jobs CPUs).")
@click.option("--out", type=OUT_FILE, default=None, metavar="FILE.jsonl",
              help="Append one tne-game/1 record per game (a JSON line) as each game ends.")
@click.option("--resume", is_flag=True,
              help="Continue --out: play only the games not yet in it.")
@click.option("--visits", is_flag=True,
              help="Keep each searched move's root visit distribution in its record "
                   "(meta.visits, as tne train's self-play does).")
@click.option("--sprt", default=None, metavar="ELO0,ELO1",
              help="Two agents only: stop as soon as the GSPRT (alpha=beta=0.05) accepts "
                   "elo <= ELO0 or elo >= ELO1 (the second agent against the first), checked "
                   "after each deal; --games is then the most deals per table.")
@click.option("--max-moves", type=_Int(1, L.MAX_PLIES), default=2000, show_default=True,
              help="Plies (actions and decisions) after which a game is cut, scored as it "
                   "stands and marked truncated.")
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
def tournament(agent_items, table_items, players, games, seed, jobs, backend, ray_address, out,
               resume, visits, sprt, max_moves, as_json):
    """Play a tournament between agents and print the standings with ratings.

    Example: tne tournament --agent m=mcts:iterations=500 --agent g=greedy --games 20
    --jobs 2 --out games.jsonl
    """
    from tne_ai.matches.tournament import run_tournament

    agents = _parse_agents(agent_items)
    tables = [tuple(x.strip() for x in item.split(",")) for item in table_items] or None
    sprt_elos = None
    if sprt is not None:
        from tne_ai.errors import InputError
        from tne_ai.core.io import parse_float
        parts = sprt.split(",")
        if len(parts) != 2:
            raise CliError(f"--sprt '{L.clip(sprt, 60)}': expected two Elo values ELO0,ELO1, "
                           f"e.g. 0,5")
        try:
            sprt_elos = tuple(parse_float(x, "--sprt", -L.MAX_SPRT_ELO, L.MAX_SPRT_ELO)
                              for x in parts)
        except InputError as e:
            raise CliError(str(e)) from None
    bar = None
    count = [0]

    def progress(done, total):
        nonlocal bar
        count[0] = done
        if _progress().quiet:
            return
        if not sys.stderr.isatty():  # a pipe or a file: a line now and then, from the first game
            if done:
                _progress().say("games", f"tne tournament: {done} of {total} games")
            return
        if bar is None:
            bar = click.progressbar(length=total, label="games", file=sys.stderr,
                                    show_eta=True, show_pos=True)
            bar.__enter__()
        bar.update(done - bar.pos)

    try:
        with _reported():
            try:
                result = run_tournament(agents, tables=tables, players=players, games=games,
                                        seed=seed, jobs=jobs, backend=backend,
                                        ray_address=ray_address, out=out, resume=resume,
                                        sprt=sprt_elos, max_moves=max_moves, progress=progress,
                                        warn=lambda text: click.echo(f"tne: note: {text}",
                                                                     err=True),
                                        visits=visits)
            finally:
                _progress().end()   # a pipe's last count (the games done), held back till now
    except KeyboardInterrupt:
        if bar is not None:
            bar.__exit__(None, None, None)
        where = f" in {out}; run again with --resume to finish" if out else ""
        click.echo(f"tne: interrupted: {count[0]} games recorded{where}", err=True)
        sys.exit(130)
    if bar is not None:
        bar.__exit__(None, None, None)
    if result.ignored:
        click.echo(f"tne: note: {result.ignored} record(s) in {out} are of games outside this "
                   f"schedule; not counted", err=True)
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=1))
    else:
        click.echo(_tournament_text(result))


def _analyse_text(record, rows, budget, config=None):
    from tne_ai.matches.review import CLASSES, summary

    meta = record.get("meta", {})
    options = {} if config is None else {k: v for k, v in config.changed().items()
                                         if k not in ("iterations", "time", "seed")}
    search = "" if not options else \
        "; search " + type(config)().replace(**options).to_spec()
    lines = [f"game {meta.get('game_id', '?')}: {len(rows)} moves, {budget} a move{search}"]
    plural = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
    head = ["player", "moves", "forced", "avg loss"] + [plural[n] for n, _ in reversed(CLASSES)]
    table = [head]
    for s in summary(rows, record["start"]["players"]):
        table.append([str(s["player"]), str(s["moves"]), str(s["forced"]),
                      "-" if s["average_loss"] is None else f"{s['average_loss']:.1f}"]
                     + [str(s[n]) for n, _ in reversed(CLASSES)])
    widths = [max(len(r[c]) for r in table) for c in range(len(head))]
    for r in table:
        lines.append("  ".join(x.rjust(w) if c else x.ljust(w) for c, (x, w) in enumerate(zip(r, widths))))
    lines.append("loss: points of win chance given up (best move's minus the move played's); "
                 + ", ".join(f"{n} >= {least:g}" for n, least in reversed(CLASSES)))
    flagged = [r for r in rows if r.get("class")]
    if flagged:
        lines.append("")
        # moves numbered from 1, as tne replay --ply and the plot's x axis number them
        lines.append("move  player  class       move played (win chance)  best move (win chance)")
        for r in flagged:
            played = f"{r['move']} ({100 * r['played_win']:.1f}%)"
            lines.append(f"{r['ply'] + 1:>4}  {r['player']:>6}  {r['class']:<10}  {played:<24}  "
                         f"{r['best']} ({100 * r['best_win']:.1f}%)")
    return "\n".join(lines)


@main.command()
@click.argument("record_file", metavar="RECORD")
@click.option("--game", "game", default=None, metavar="ID",
              help="The game id (meta.game_id). Default: the first record.")
@click.option("--time", "seconds", type=_SearchOption("time"), default=None,
              help="Seconds of search per move.")
@click.option("--iterations", type=_SearchOption("iterations"), default=None,
              help="Search iterations per move (default 10000 when --time is not given).")
@click.option("--search", "search_spec", type=_SearchSpec(), default=None, metavar="SPEC",
              help="Options of the per-move searches as an mcts spec, e.g. "
                   "'mcts:threads=2,c=0.5' (the options and bounds of SearchConfig; "
                   "README, 'Search options').")
@click.option("--jobs", type=_Int(1, L.MAX_JOBS), default=1, show_default=True,
              help="Positions searched in parallel (processes).")
@click.option("--seed", type=_SearchOption("seed"), default=None,
              help="Seed of the searches (default 0).")
@click.option("-o", "--output", type=OUT_FILE, default=None, metavar="FILE",
              help="Write the record with the review in meta.analysis (one JSON line; "
                   "tne replay shows it).")
@click.option("--plot", "plot_file", type=OUT_FILE, default=None,
              metavar="FILE", help="Draw each player's win chance across the game with the "
                                   "mistakes marked (.png or .svg; needs matplotlib).")
def analyse(record_file, game, seconds, iterations, search_spec, jobs, seed, output, plot_file):
    """Review every move of a recorded game: the best move and its win chance against the
    move played, as the mover saw the position; inaccuracies, mistakes and blunders.

    RECORD is a records file (tne tournament --out) or one game record (tne play --out)."""
    from tne_ai.matches.review import annotate, load_record, plot, review, review_config
    from tne_ai.search.config import SearchConfig

    config = search_spec if search_spec is not None else SearchConfig()
    for flag, name, value in (("--iterations", "iterations", iterations),
                              ("--time", "time", seconds), ("--seed", "seed", seed)):
        if value is not None and name in config.changed():
            raise CliError(f"{flag} and {name}= in --search: give one")
    iterations = iterations if iterations is not None else config.iterations
    seconds = seconds if seconds is not None else config.time
    if seconds is not None and iterations is not None:
        raise CliError("give --time or --iterations, not both" + (
            " (--search gives one)" if search_spec is not None and search_spec.changed().keys()
            & {"iterations", "time"} else ""))
    if seconds is None and iterations is None:
        iterations = 10000
    with _reported():
        config = review_config(iterations, seconds, seed, config)
    if plot_file is not None and not plot_file.lower().endswith((".png", ".svg")):
        raise CliError(f"--plot {plot_file}: the plot is a .png or .svg file")
    if plot_file is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise CliError('--plot needs matplotlib: pip install "tne-ai[plot]"') from None
    budget = f"{iterations} iterations" if iterations is not None else f"{seconds:g} s"
    bar = None

    def progress(done, total):
        nonlocal bar
        if _progress().quiet:
            return
        if not sys.stderr.isatty():  # a pipe or a file: a line now and then
            _progress().say("moves", f"tne analyse: {done} of {total} moves reviewed")
            return
        if bar is None:
            bar = click.progressbar(length=total, label="moves", file=sys.stderr,
                                    show_eta=True, show_pos=True)
            bar.__enter__()
        bar.update(done - bar.pos)

    with _reported():
        record = load_record(record_file, game)
        try:
            rows = review(record, jobs=jobs, progress=progress, config=config)
        finally:
            _progress().end()   # a pipe's last count (the moves reviewed), held back till now
    if bar is not None:
        bar.__exit__(None, None, None)
    annotated = annotate(record, rows, budget, config)
    if output is not None:
        try:
            with open(output, "w", encoding="utf-8") as f:
                f.write(json.dumps(annotated, separators=(",", ":")) + "\n")
        except OSError as e:
            raise CliError(f"{output}: cannot write: {e.strerror or _one_line(e)}") from None
    if plot_file is not None:
        with _reported():
            plot(record, rows, plot_file)
    click.echo(_analyse_text(record, rows, budget, config))


@main.command()
@click.option("--games", type=_Int(0, L.MAX_TRAIN_GAMES), default=20, show_default=True,
              help="Self-play deals to play (each in every seat rotation); 0 trains on --data alone.")
@click.option("--players", type=_Int(2, 4), default=2, show_default=True,
              help="Players in the self-play games.")
@click.option("--agent", "agent_spec", default="mcts:iterations=1000", show_default=True,
              metavar="SPEC", help="The agent that plays itself.")
@click.option("--data", "data_files", multiple=True, type=IN_FILE,
              metavar="FILE.jsonl", help="Records of earlier games to learn from too (repeatable).")
@click.option("--records", "records_out", type=OUT_FILE, default=None,
              metavar="FILE.jsonl", help="Write the self-play records here (with --resume: continue it).")
@click.option("--resume", is_flag=True, help="Continue the --records file of an interrupted run.")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the games and of the held-out split.")
@click.option("--jobs", type=_Int(1, L.MAX_JOBS), default=1, show_default=True,
              help="Games played at once.")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="Where games run: local processes or a Ray cluster.")
@click.option("--ray-address", default=None, metavar="ADDR", help="Ray cluster to join (ray backend).")
@click.option("--holdout", type=_Share(), default=0.2,
              show_default=True, help="Share of the games held out to score the fit.")
@click.option("--every", type=_Int(1, L.MAX_EVERY), default=1, show_default=True,
              help="Keep every k-th position of a game.")
@click.option("--gate", "gate_deals", type=_Int(0, L.MAX_DEALS), default=0, show_default=True,
              help="Keep the new weights only if they beat the agent that played the "
                   "self-play games: a match of at most this many deals (each in every "
                   "seat rotation) stopped by SPRT(0, --gate-elo); 0: no gate.")
@click.option("--gate-elo", type=_Float(0.0, L.MAX_SPRT_ELO, lo_open=True), default=50.0,
              show_default=True, help="The gate's SPRT tests elo <= 0 against elo >= this.")
@click.option("--gate-records", type=OUT_FILE, default=None, metavar="FILE.jsonl",
              help="Write the gate match's game records here.")
@click.option("--net", "value_net", is_flag=True,
              help="Fit the value network (needs the train extra) instead of the linear "
                   "evaluation and prior: -o names a value network file (give it to "
                   "mcts:evaluation=net,net=FILE); the gate plays it so.")
@click.option("-o", "--out", "weights_out", type=OUT_FILE, required=True,
              metavar="FILE.npz", help="Weights file to write (give it to mcts:weights=FILE).")
def train(games, players, agent_spec, data_files, records_out, resume, seed, jobs, backend,
          ray_address, holdout, every, gate_deals, gate_elo, gate_records, value_net, weights_out):
    """Learn the evaluation and the move prior from self-play games.

    Example: tne train --games 50 --jobs 2 --records selfplay.jsonl -o weights.npz

    With --gate N the weights are written only if they pass the gate (exit status 1
    when they do not: nothing is written).
    """
    import os
    from tne_ai.agents.builtin import make_agent
    from tne_ai.search.evaluate import save_weights
    from tne_ai.matches.tournament import read_records
    from tne_ai.matches.train import (TrainError, check_gate_agent, gate, report_lines, selfplay,
                              train as fit)

    if os.path.isdir(weights_out):
        raise CliError(f"{weights_out}: is a directory, not a weights file")
    records = []
    progress = _progress()
    with _reported():
        make_agent(agent_spec)
        if gate_deals:
            check_gate_agent(agent_spec)
        if gate_records is not None and not gate_deals:
            raise TrainError("--gate-records needs --gate N")
        if gate_records is not None and os.path.exists(gate_records):
            raise TrainError(f"--gate-records {L.clip(gate_records, 80)}: exists; choose "
                             f"another file")
        for path in data_files:
            with _reported("--data"):
                records.extend(r for _, r in read_records(path))
        from_data = len(records)
        if games:
            # every deal is played in each of the players' seat rotations
            records.extend(selfplay(
                agent_spec, games, players=players, seed=seed, jobs=jobs, backend=backend,
                ray_address=ray_address, out=records_out, resume=resume,
                progress=lambda done, total: done and progress.say(
                    "selfplay", f"tne train: self-play: {done} of {total} games ({games} "
                                f"deals x {players} seat rotations)")))
            progress.end()
        if not records:
            raise TrainError("no games to learn from: give --games or --data")
        if value_net:
            from tne_ai.matches.fit_value import train_value
            arrays, report = train_value(records, holdout=holdout, seed=seed, every=every,
                                         progress=progress.say)
        else:
            w, prior, report = fit(records, holdout=holdout, seed=seed, every=every,
                                   progress=progress.say)
        progress.end()
        from tne_ai.matches.provenance import provenance, spec_weights
        info = {"agent": agent_spec, "games": len(records), "seed": seed,
                "provenance": json.dumps(provenance(weights=spec_weights([agent_spec])))}
        # with a gate the weights go to a file beside the output first, and replace it
        # only when the gate accepts them
        target = weights_out
        if gate_deals:
            import tempfile
            try:
                fd, target = tempfile.mkstemp(suffix=".npz", prefix=".gate-",
                                              dir=os.path.dirname(os.path.abspath(weights_out)))
            except OSError as e:
                raise CliError(f"{weights_out}: cannot write beside it: "
                               f"{e.strerror or _one_line(e)}") from None
            os.close(fd)
        try:
            if value_net:
                from tne_ai.search.value import save_net
                save_net(target, arrays, info)
            else:
                save_weights(target, w, prior, info)
        except OSError as e:
            if target != weights_out:
                os.remove(target)
            raise CliError(f"{weights_out}: cannot write: {e.strerror or _one_line(e)}") from None
        if gate_deals:
            try:
                accepted, match = gate(
                    agent_spec, target, gate_deals, players=players, elo1=gate_elo, net=value_net,
                    seed=(seed + 1) % (L.MAX_SEED + 1), jobs=jobs, backend=backend, ray_address=ray_address,
                    out=gate_records, progress=lambda done, total: done and progress.say(
                        "gate", f"tne train: gate: {done} games"))
                progress.end()
            except BaseException:
                os.remove(target)
                raise
            if accepted:
                os.replace(target, weights_out)
            else:
                os.remove(target)
    sources = []
    if games:
        sources.append(f"{len(records) - from_data} of self-play ({games} deals, each played in "
                       f"its {players} seat rotations)")
    if data_files:
        sources.append(f"{from_data} from --data")
    click.echo(f"learnt from {len(records)} game records: {' and '.join(sources)}")
    if value_net:
        from tne_ai.matches.fit_value import value_report_lines
        lines = value_report_lines(report)
    else:
        lines = report_lines(report, w, prior)
    for line in lines:
        click.echo(line)
    if gate_deals:
        click.echo("gate: the new weights (new) against the agent of the self-play games "
                   "(previous)")
        click.echo(_tournament_text(match))
        if not accepted:
            click.echo(f"the gate did not accept the new weights: {weights_out} not written")
            sys.exit(1)
    click.echo(f"wrote {weights_out}")


@main.command()
@click.argument("record_file", metavar="RECORD.jsonl")
@click.option("--game", "game", default=None, metavar="ID",
              help="The game id (meta.game_id, e.g. t0-d1-r0). Default: the first record.")
@click.option("--ply", type=_Int(0, L.MAX_PLIES), default=None,
              help="Moves to replay (default: all, the end of the game).")
@click.option("--json", "as_json", is_flag=True, help="Print the position file instead.")
def replay(record_file, game, ply, as_json):
    """Print a moment of a recorded game: the board and summary, or the position file
    (--json) to give to `tne bestmove`."""
    from tne_ai.core.render import summary
    from tne_ai.matches.tournament import find_record, replay as replay_record

    with _reported():
        record = find_record(record_file, game)
        p = replay_record(record, ply)
    if as_json:
        click.echo(_position_json(p))
        return
    meta = record.get("meta", {})
    agents = ", ".join(f"{a.get('name')} ({a.get('spec')})" if isinstance(a, dict) else str(a)
                       for a in meta.get("agents", []))
    moves = len(record["moves"])
    done = moves if ply is None else ply
    click.echo(f"game {meta.get('game_id', record_file)}, after {done} of {moves} moves"
               + (f"; seats: {agents}" if agents else "")
               + ("; truncated" if meta.get("truncated") and done == moves else ""))
    analysis = meta.get("analysis")
    if isinstance(analysis, dict) and done > 0:
        from tne_ai.matches.review import annotation_text
        rows = [r for r in analysis.get("moves", []) if isinstance(r, dict) and r.get("ply") == done - 1]
        if rows:
            click.echo(f"move {done} (player {rows[0].get('player')}): {annotation_text(rows[0])}")
    click.echo(str(p))
    with _reported():
        click.echo(summary(p.st, [True] * p.players, None))


if __name__ == "__main__":
    main(prog_name="tne")
