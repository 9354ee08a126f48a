"""The `tne` group and what its commands share: the parameter types, the error line, reading a
position, writing a file, the progress lines and the first run's compile.

Every error a user can cause (a file that cannot be read, text that is not JSON, a position
the library rejects, a move that does not parse or is not legal, an option out of its range,
a missing argument) is reported as one line, ``tne: error: <message>``, on stderr with exit
status 2; nothing is written to ``-o``.  The bounds of counts and budgets are those of
tne_ai/limits.py (docs/cli.md, "Limits").
"""
import contextlib
import sys

import click

from tne_ai import limits as L


class CliError(click.ClickException):
    """A user error, shown as one line ``tne: error: <message>`` with exit status 2."""

    exit_code = 2

    def show(self, file=None):
        click.echo(f"tne: error: {error_line(self.format_message())}", err=True)


def one_line(text):
    return " ".join(str(text).split())


def error_line(message):
    """The one stderr line of an error: no line breaks, at most a few hundred characters."""
    return L.clip(one_line(message), 2 * L.MAX_ECHO)


# --- parameter types --------------------------------------------------------------------------

class Int(click.ParamType):
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


class Float(click.ParamType):
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


def Share():
    """A share: a number 0 < x < 1."""
    return Float(0, 1, lo_open=True, hi_open=True)


SEED = Int(0, L.MAX_SEED)


class SearchOption(click.ParamType):
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


class SearchSpec(click.ParamType):
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


class File(click.ParamType):
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


OUT_FILE, IN_FILE = File(out=True), File(out=False)


# --- the group ----------------------------------------------------------------------------------

def usage_error_line(e):
    """One line for an error click caught while parsing the command line."""
    if isinstance(e, click.BadParameter) and e.param is not None \
            and not isinstance(e, click.MissingParameter):
        hint = max(e.param.opts, key=len) if getattr(e.param, "opts", None) and \
            e.param.param_type_name == "option" else e.param.human_readable_name
        return f"{hint}: {e.message.rstrip('.')}"
    text = e.format_message().rstrip(".")
    command = e.ctx.command_path if e.ctx is not None else "tne"
    return f"{text[:1].lower() + text[1:]} (see '{command} --help')"


class Tne(click.Group):
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
            click.echo(f"tne: error: {error_line(usage_error_line(e))}", err=True)
            sys.exit(2)
        except click.ClickException as e:
            click.echo(f"tne: error: {error_line(e.format_message())}", err=True)
            sys.exit(2)
        except click.exceptions.Abort:
            click.echo("tne: interrupted", err=True)
            sys.exit(130)
        sys.exit(rv if isinstance(rv, int) else 0)


def _show_version(ctx, param, value):
    if value and not ctx.resilient_parsing:
        from tne_ai import __version__
        click.echo(f"tne {__version__}")
        ctx.exit(0)


@click.group(name="tne", cls=Tne, context_settings={"help_option_names": ["-h", "--help"]})
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
    from tne_ai.search import warmup
    PROGRESS[0] = Progress(quiet=quiet)
    helping = any(a in ("-h", "--help") for a in sys.argv[1:])
    group = warmup.COMMAND_GROUP.get(ctx.invoked_subcommand, "all")
    if not helping and ctx.invoked_subcommand is not None and \
            warmup.kernel_cache_is_cold(group):
        compile_kernels(group)


# --- progress lines and the first run's compile ------------------------------------------------

# progress lines on stderr (tne_ai/matches/progress.py); `tne -q COMMAND` silences them
PROGRESS = [None]


def progress_lines():
    from tne_ai.matches.progress import Progress
    if PROGRESS[0] is None:
        PROGRESS[0] = Progress()
    return PROGRESS[0]


def compile_kernels(group="all"):
    """Compile (and cache) the group's kernels (tne_ai/search/warmup.py) before the command,
    saying so as it goes."""
    from tne_ai.matches.progress import ticking
    from tne_ai.search.warmup import COMPILE_ESTIMATE, compile_kernels as compile_group
    progress = progress_lines()
    with ticking(progress, "compile", lambda t: "tne: compiling the kernels, first run only "
                 f"(about {COMPILE_ESTIMATE}): {t:.0f} s"):
        seconds = compile_group(group)
    progress.end(f"tne: kernels compiled in {seconds:.0f} s (cached: later runs start at once)")


def compile_if_cold(group):
    """compile_kernels when numba has not yet cached the group's kernels."""
    from tne_ai.search import warmup
    if warmup.kernel_cache_is_cold(group):
        compile_kernels(group)


class CountBar:
    """A count of work done (the ``progress(done, total)`` of a tournament or a review), on
    stderr: a bar on a terminal, else the lines ``line(done, total)`` (None: no line) through
    the progress lines; nothing with `tne -q`.  ``close()`` ends the bar."""

    def __init__(self, label, line):
        self.label, self.line, self.bar, self.done = label, line, None, 0

    def __call__(self, done, total):
        self.done = done
        progress = progress_lines()
        if progress.quiet:
            return
        if not sys.stderr.isatty():  # a pipe or a file: a line now and then
            text = self.line(done, total)
            if text is not None:
                progress.say(self.label, text)
            return
        if self.bar is None:
            self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr,
                                         show_eta=True, show_pos=True)
            self.bar.__enter__()
        self.bar.update(done - self.bar.pos)

    def close(self):
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


# --- reading and writing --------------------------------------------------------------------------

@contextlib.contextmanager
def reported(what=None):
    """Turn a TneError raised inside into a CliError; ``what`` prefixes the message."""
    from tne_ai.errors import TneError

    try:
        yield
    except TneError as e:
        message = one_line(e) or type(e).__name__
        raise CliError(f"{what}: {message}" if what else message) from None


def read_text(path, name, max_bytes=L.MAX_INPUT_BYTES):
    """The UTF-8 text of file ``path`` (``-``: stdin), at most ``max_bytes`` (docs/cli.md,
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


def write_file(path, text):
    """Write ``text`` to the file ``path``; one error line when it cannot be written."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise CliError(f"{path}: cannot write: {e.strerror or one_line(e)}") from None


def load_position(path, seed=0):
    """The Position in file ``path`` (``-`` = stdin); draws of a counted bag use ``seed``."""
    name = "stdin" if path == "-" else (path or "POSITION ''")
    text = read_text(path, name)
    from tne_ai.core.formats import parse_json
    from tne_ai.position import Position

    with reported():
        data = parse_json(text, name)
    with reported(name):
        return Position.from_json(data, seed=seed)


def require_hand_to_act(p, after=None):
    if not p.is_over() and p.hand(p.to_act) is None:
        message = (f"the hand of player {p.to_act}, who must act, is unknown "
                   f"(hands[{p.to_act}] is null): give it to list or play moves")
        raise CliError(f"{after}: {message}" if after else message)


def play_moves(p, moves):
    """Push ``moves`` (texts) onto ``p`` in order, checking the hand to act before each."""
    require_hand_to_act(p)
    for i, text in enumerate(moves, 1):
        with reported(f"move {i}"):
            p.push(text)
        require_hand_to_act(p, after=f"after move {i} '{text}'")
    return p


def position_text(p):
    """The position file text of ``p`` (tne_ai.core.formats.position_file_text)."""
    from tne_ai.core.formats import position_file_text
    return position_file_text(p.to_json())
