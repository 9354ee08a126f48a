"""Commands that play or show a game: play, serve, replay."""
import click

from tne_ai import limits as L
from tne_ai.cli.base import (IN_FILE, OUT_FILE, SEED, CliError, Int, main, position_text,
                             reported)


@main.command()
@click.option("--players", type=Int(2, 4), default=2, show_default=True,
              help="Number of players.")
@click.option("--ai", "ai_spec", default="mcts:time=1", show_default=True, metavar="SPEC",
              help="The agent in every other seat: random, greedy, mcts:time=1, ...")
@click.option("--seat", type=Int(0, 3), default=0, show_default=True,
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
    from tne_ai.matches.play import default_record_path, line_reader, play as play_game

    if out is None:
        out = resume if resume is not None else default_record_path()
    with reported():
        play_game(players, ai_spec, seat, seed, read=line_reader(), write=click.echo, out=out,
                  resume=resume)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (a name that resolves, at most 253 characters).")
@click.option("--port", type=Int(1, 65535), default=8000, show_default=True)
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
        raise CliError(f"tne serve needs the web extra: pip install \"tne-ai[web]\" "
                       f"({e})") from None
    with reported():
        run_server(host, port, ai_spec, games_dir, echo=click.echo)


@main.command()
@click.argument("record_file", metavar="RECORD.jsonl")
@click.option("--game", "game", default=None, metavar="ID",
              help="The game id (meta.game_id, e.g. t0-d1-r0). Default: the first record.")
@click.option("--ply", type=Int(0, L.MAX_PLIES), default=None,
              help="Moves to replay (default: all, the end of the game).")
@click.option("--json", "as_json", is_flag=True, help="Print the position file instead.")
def replay(record_file, game, ply, as_json):
    """Print a moment of a recorded game: the board and summary, or the position file
    (--json) to give to `tne bestmove`."""
    from tne_ai.core.render import summary
    from tne_ai.matches.review import replay_lines
    from tne_ai.matches.tournament import find_record, replay as replay_record

    with reported():
        record = find_record(record_file, game)
        p = replay_record(record, ply)
    if as_json:
        click.echo(position_text(p))
        return
    for line in replay_lines(record, ply, record_file):
        click.echo(line)
    click.echo(str(p))
    with reported():
        click.echo(summary(p.st, [True] * p.players, None))
