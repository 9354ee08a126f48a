"""The `tne` command line: a thin shell over tne_ai (parse, call the library, print).

Every error a user can cause (a file that cannot be read, text that is not JSON, a position
the library rejects, a move that does not parse or is not legal) is reported as one line,
``tne: error: <message>``, on stderr with exit status 2; nothing is written to ``-o``.
Click's own usage errors (an unknown option, ``--players 5``) keep click's format.
"""
import contextlib
import json
import sys

import click


class CliError(click.ClickException):
    """A user error, shown as one line ``tne: error: <message>`` with exit status 2."""

    exit_code = 2

    def show(self, file=None):
        click.echo(f"tne: error: {self.format_message()}", err=True)


def _one_line(text):
    return " ".join(str(text).split())


@contextlib.contextmanager
def _reported(what=None):
    """Turn a TneError raised inside into a CliError; ``what`` prefixes the message."""
    from tne_ai.errors import TneError

    try:
        yield
    except TneError as e:
        message = _one_line(e) or type(e).__name__
        raise CliError(f"{what}: {message}" if what else message) from None


def _read_text(path, name):
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise CliError(f"{name}: cannot read: {e.strerror or _one_line(e)}") from None
    except UnicodeDecodeError as e:
        raise CliError(f"{name}: not UTF-8 text: {_one_line(e)}") from None


def _load_position(path, seed=0):
    """The Position in file ``path`` (``-`` = stdin); draws of a counted bag use ``seed``."""
    from tne_ai.position import Position

    name = "stdin" if path == "-" else path
    text = _read_text(path, name)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise CliError(f"{name}: not valid JSON: {_one_line(e)}") from None
    if not isinstance(data, dict):
        raise CliError(f"{name}: a position file is a JSON object, not {type(data).__name__}")
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
        with _reported(f"move {i} '{text}'"):
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


@click.group(name="tne", context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """Tigris & Euphrates: positions, legal moves and (later) an AI player.

    POSITION is a tne-position/1 JSON file (SPEC.md section 9), or - for stdin.
    Moves use the SPEC.md notation, one shell word each: 'tile red F4', 'commit 2', 'pass'.
    """


@main.command()
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True,
              help="Number of players.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the bag shuffle.")
def new(players, seed):
    """Print the start position of a new game."""
    from tne_ai.position import Position

    with _reported():
        p = Position.new(players, seed)
    click.echo(_position_json(p))


@main.command()
@click.argument("position")
@click.option("--as", "viewer", type=int, default=None, metavar="PLAYER",
              help="Show the position as PLAYER sees it: other players' hands hidden.")
def show(position, viewer):
    """Print the board and a summary of POSITION."""
    from tne_ai.render import summary

    p = _load_position(position)
    if viewer is not None and not 0 <= viewer < p.players:
        raise CliError(f"--as {viewer}: players are numbered 0 to {p.players - 1}")
    known_hands = [p.hand(i) is not None for i in range(p.players)]
    click.echo(str(p))
    with _reported():
        click.echo(summary(p.st, known_hands, viewer))


@main.command()
@click.argument("position")
@click.argument("moves", nargs=-1, metavar="[MOVE]...")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the draws when the bag is given as counts.")
def legal(position, moves, seed):
    """List the legal moves after MOVEs, sorted, one per line."""
    p = _play(_load_position(position, seed), moves)
    for text in sorted(str(m) for m in p.legal_moves()):
        click.echo(text)


@main.command()
@click.argument("position")
@click.argument("moves", nargs=-1, required=True, metavar="MOVE...")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the draws when the bag is given as counts.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, metavar="FILE",
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
@click.option("--time", "seconds", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Seconds to think (default 1.0 when --iterations is not given).")
@click.option("--iterations", type=click.IntRange(min=1), default=None,
              help="Search iterations (with --time: whichever is reached first).")
@click.option("--threads", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Root-parallel search trees.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the search.")
@click.option("--json", "as_json", is_flag=True, help="Print the move with its statistics as JSON.")
def bestmove(position, seconds, iterations, threads, seed, as_json):
    """Print the best move for whoever must act in POSITION (ISMCTS)."""
    from tne_ai.search.mcts import search

    p = _load_position(position)
    if p.is_over():
        raise CliError(f"{position}: the game is over; there is no move to choose")
    _require_hand_to_act(p)
    if seconds is None and iterations is None:
        seconds = 1.0
    result = search(p.st, iterations=iterations, seconds=seconds, threads=threads, seed=seed)
    if as_json:
        out = result.to_dict()
        out["player"] = p.to_act
        out["alternatives"] = out["alternatives"][:10]
        click.echo(json.dumps(out, indent=1))
    else:
        click.echo(result.to_dict()["move"])


@main.command()
@click.option("--quick", is_flag=True, help="Fewer and shorter runs (under a minute); no cold compile.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option("--save", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the figures, machine, versions and commit to FILE (JSON).")
@click.option("--compare", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Show each figure's ratio to a run saved with --save.")
def bench(quick, as_json, save, compare):
    """Benchmark the engine and the search on this machine."""
    from tne_ai.bench import format_table, load_saved, run_all

    old = None
    if compare is not None:
        try:
            old = load_saved(compare)
        except (OSError, ValueError) as e:
            raise CliError(f"{compare}: {_one_line(e)}") from None
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


if __name__ == "__main__":
    main(prog_name="tne")
