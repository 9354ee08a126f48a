"""Commands that search or measure the search: bestmove, engine, bench."""
import json

import click

from tne_ai import limits as L
from tne_ai.cli.base import (IN_FILE, OUT_FILE, CliError, SearchOption, compile_if_cold,
                             load_position, main, read_text, reported, require_hand_to_act,
                             write_file)


@main.command()
@click.argument("position")
@click.option("--time", "seconds", type=SearchOption("time"), default=None,
              help="Seconds to think (default 1.0 when --iterations is not given).")
@click.option("--iterations", type=SearchOption("iterations"), default=None,
              help="Search iterations (with --time: whichever is reached first).")
@click.option("--threads", type=SearchOption("threads"), default=1, show_default=True,
              help="Root-parallel search trees.")
@click.option("--seed", type=SearchOption("seed"), default=0, show_default=True,
              help="Seed of the search.")
@click.option("--json", "as_json", is_flag=True, help="Print the move with its statistics as JSON.")
@click.option("--svg", "svg_file", type=OUT_FILE, default=None, metavar="FILE",
              help="Also draw the position in FILE (SVG) with the move and the next best "
                   "three marked, with their shares of the search visits.")
def bestmove(position, seconds, iterations, threads, seed, as_json, svg_file):
    """Print the best move for whoever must act in POSITION (ISMCTS), its win chance and,
    when it is the first action of a turn, the rest of the turn as the search plans it."""
    from tne_ai.search.config import SearchConfig
    from tne_ai.search.ending import ending_of
    from tne_ai.search.report import bestmove_json, bestmove_lines, chosen_by
    from tne_ai.search.session import Search

    p = load_position(position)
    if p.is_over():
        raise CliError(f"{position}: the game is over; there is no move to choose")
    require_hand_to_act(p)
    if seconds is None and iterations is None:
        seconds = 1.0
    s = Search(p, SearchConfig(threads=threads, seed=seed))
    if ending_of(s) is not None:
        compile_if_cold("solver")     # the game can end this turn: the exact endings run
    info = s.run(iterations, seconds)
    rule = chosen_by(info, s.config, p.st)
    if svg_file is not None:
        _draw_search(svg_file, p, info)
    if as_json:
        click.echo(json.dumps(bestmove_json(info, p.to_act, rule), indent=1))
    else:
        for line in bestmove_lines(info, rule):
            click.echo(line)


def _draw_search(svg_file, p, info):
    """The position drawn in svg_file with the chosen move and the next best three marked."""
    from tne_ai.core.render import svg, visit_shares
    known_hands = [p.hand(i) is not None for i in range(p.players)]
    marks = visit_shares(info.alternatives, chosen=info.move, top=4)
    write_file(svg_file, svg(p.st, known_hands, p.to_act, marks))


@main.command()
def engine():
    """Serve the search over the engine line protocol on stdin/stdout (docs/PROTOCOL.md):
    JSON lines hello, setoption, newgame, position, go, stop, quit."""
    from tne_ai.protocol.server import main as serve

    serve()


@main.command()
@click.option("--quick", is_flag=True,
              help="Fewer and shorter runs (under a minute); no cold compile.")
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
    from tne_ai.matches.bench import check_saved, format_table, run_all

    if signature_only:
        _signature(as_json)
        return
    old = None
    if compare is not None:
        from tne_ai.core.io import read_json
        with reported("--compare"):
            data = read_json(read_text(compare, compare), compare)
        with reported():
            old = check_saved(data, f"--compare {L.clip(compare, 60)}")
    result = run_all(quick=quick, progress=lambda text: click.echo(f"bench: {text}", err=True))
    if save is not None:
        write_file(save, json.dumps(result, indent=1))
    if as_json:
        click.echo(json.dumps(result, indent=1))
    else:
        click.echo(format_table(result, old))


def _signature(as_json):
    """`tne bench --signature`: the signature on stdout, the searches' count on stderr."""
    import time

    from tne_ai.matches.bench import signature
    t = time.perf_counter()
    value, details = signature()
    click.echo(f"bench: {len(details)} searches, {sum(d['nodes'] for d in details):,} nodes, "
               f"{time.perf_counter() - t:.2f} s", err=True)
    click.echo(json.dumps({"signature": value, "searches": details}) if as_json else str(value))
