"""Commands on one position: new, show, legal, apply."""
import click

from tne_ai.cli.base import (OUT_FILE, SEED, CliError, Int, load_position, main, play_moves,
                             position_text, reported, write_file)


@main.command()
@click.option("--players", type=Int(2, 4), default=2, show_default=True,
              help="Number of players.")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the bag shuffle.")
def new(players, seed):
    """Print the start position of a new game."""
    from tne_ai.position import Position

    with reported():
        p = Position.new(players, seed)
    click.echo(position_text(p))


@main.command()
@click.argument("position")
@click.option("--as", "viewer", type=Int(0, 3), default=None, metavar="PLAYER",
              help="Show the position as PLAYER sees it: other players' hands hidden.")
@click.option("--svg", "svg_file", type=OUT_FILE, default=None, metavar="FILE",
              help="Also draw the position as an SVG picture in FILE.")
def show(position, viewer, svg_file):
    """Print the board and a summary of POSITION."""
    p = load_position(position)
    from tne_ai.core.render import summary, svg

    if viewer is not None and not 0 <= viewer < p.players:
        raise CliError(f"--as {viewer}: players are numbered 0 to {p.players - 1}")
    known_hands = [p.hand(i) is not None for i in range(p.players)]
    with reported():
        text = summary(p.st, known_hands, viewer)
    if svg_file is not None:
        write_file(svg_file, svg(p.st, known_hands, viewer))
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
    p = play_moves(load_position(position, seed), moves)
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
    p = play_moves(load_position(position, seed), moves)
    text = position_text(p)
    if output is None:
        click.echo(text)
        return
    write_file(output, text + "\n")
