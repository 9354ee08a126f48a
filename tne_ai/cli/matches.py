"""Commands over many games: tournament, analyse, train."""
import json
import os
import sys

import click

from tne_ai import limits as L
from tne_ai.cli.base import (IN_FILE, OUT_FILE, SEED, CliError, CountBar, Float, Int,
                             SearchOption, SearchSpec, Share, main, progress_lines, reported,
                             write_file)


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


def _where_games_run(jobs_help, backend_help, address_help):
    """The options --jobs, --backend and --ray-address (tournament, train), with each
    command's help texts."""
    def add(command):
        command = click.option("--ray-address", default=None, metavar="ADDR",
                               help=address_help)(command)
        command = click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
                               show_default=True, help=backend_help)(command)
        return click.option("--jobs", type=Int(1, L.MAX_JOBS), default=1, show_default=True,
                            help=jobs_help)(command)
    return add


@main.command()
@click.option("--agent", "agent_items", multiple=True, required=True, metavar="NAME=SPEC",
              help="An agent and its spec (random, greedy, mcts:iterations=500, ...); "
                   "repeat for each agent. The first is the rating reference.")
@click.option("--table", "table_items", multiple=True, metavar="NAME,NAME,...",
              help="A table: agent names by seat, repeats allowed (m,g,g,g); repeat the option "
                   "for more tables. Default: every combination of --players distinct agents.")
@click.option("--players", type=Int(2, 4), default=None,
              help="Seats per table for the default tables (default 2).")
@click.option("--games", type=Int(1, L.MAX_DEALS), default=10, show_default=True,
              help="Deals per table. Each deal (one seeded bag) is played in every cyclic "
                   "rotation of the seats, so a table of N seats plays N games per deal.")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the deals and of the agents.")
@_where_games_run("Games played in parallel (1: in this process).",
                  'local processes, or a Ray cluster (pip install "tne-ai[ray]").',
                  "The Ray cluster to join (default: start a local Ray with --jobs CPUs).")
@click.option("--out", type=OUT_FILE, default=None, metavar="FILE.jsonl",
              help="Append one tne-game/1 record per game (a JSON line) as each game ends.")
@click.option("--resume", is_flag=True,
              help="Continue --out: play only the games not yet in it.")
@click.option("--visits", is_flag=True,
              help="Keep each searched move's root visit distribution and every seat's "
                   "win chance at its root in its record (meta.visits, meta.values, as "
                   "tne train's self-play does).")
@click.option("--sprt", default=None, metavar="ELO0,ELO1",
              help="Two agents only: stop as soon as the GSPRT (alpha=beta=0.05) accepts "
                   "elo <= ELO0 or elo >= ELO1 (the second agent against the first), checked "
                   "after each deal; --games is then the most deals per table.")
@click.option("--max-moves", type=Int(1, L.MAX_PLIES), default=2000, show_default=True,
              help="Plies (actions and decisions) after which a game is cut, scored as it "
                   "stands and marked truncated.")
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
def tournament(agent_items, table_items, players, games, seed, jobs, backend, ray_address, out,
               resume, visits, sprt, max_moves, as_json):
    """Play a tournament between agents and print the standings with ratings.

    Example: tne tournament --agent m=mcts:iterations=500 --agent g=greedy --games 20
    --jobs 2 --out games.jsonl
    """
    from tne_ai.matches.ratings import parse_sprt
    from tne_ai.matches.tournament import result_text, run_tournament

    agents = _parse_agents(agent_items)
    tables = [tuple(x.strip() for x in item.split(",")) for item in table_items] or None
    with reported():
        sprt_elos = None if sprt is None else parse_sprt(sprt, "--sprt")
    bar = CountBar("games", lambda done, total: done and f"tne tournament: {done} of {total} "
                                                         f"games" or None)
    try:
        with reported():
            try:
                result = run_tournament(
                    agents, tables=tables, players=players, games=games, seed=seed, jobs=jobs,
                    backend=backend, ray_address=ray_address, out=out, resume=resume,
                    sprt=sprt_elos, max_moves=max_moves, progress=bar, visits=visits,
                    warn=lambda text: click.echo(f"tne: note: {text}", err=True))
            finally:
                progress_lines().end()   # a pipe's last count (the games done), held back
    except KeyboardInterrupt:
        bar.close()
        where = f" in {out}; run again with --resume to finish" if out else ""
        click.echo(f"tne: interrupted: {bar.done} games recorded{where}", err=True)
        sys.exit(130)
    bar.close()
    if result.ignored:
        click.echo(f"tne: note: {result.ignored} record(s) in {out} are of games outside this "
                   f"schedule; not counted", err=True)
    click.echo(json.dumps(result.to_dict(), indent=1) if as_json else result_text(result))


@main.command()
@click.argument("record_file", metavar="RECORD")
@click.option("--game", "game", default=None, metavar="ID",
              help="The game id (meta.game_id). Default: the first record.")
@click.option("--time", "seconds", type=SearchOption("time"), default=None,
              help="Seconds of search per move.")
@click.option("--iterations", type=SearchOption("iterations"), default=None,
              help="Search iterations per move (default 10000 when --time is not given).")
@click.option("--search", "search_spec", type=SearchSpec(), default=None, metavar="SPEC",
              help="Options of the per-move searches as an mcts spec, e.g. "
                   "'mcts:threads=2,c=0.5' (the options and bounds of SearchConfig; "
                   "docs/search.md).")
@click.option("--jobs", type=Int(1, L.MAX_JOBS), default=1, show_default=True,
              help="Positions searched in parallel (processes).")
@click.option("--seed", type=SearchOption("seed"), default=None,
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
    from tne_ai.matches.review import annotate, load_record, plot, review, review_text

    config, budget = _review_budget(seconds, iterations, search_spec, seed)
    _check_plot(plot_file)
    bar = CountBar("moves", lambda done, total: f"tne analyse: {done} of {total} moves reviewed")
    with reported():
        record = load_record(record_file, game)
        try:
            rows = review(record, jobs=jobs, progress=bar, config=config)
        finally:
            progress_lines().end()   # a pipe's last count (the moves reviewed), held back
    bar.close()
    annotated = annotate(record, rows, budget, config)
    if output is not None:
        write_file(output, json.dumps(annotated, separators=(",", ":")) + "\n")
    if plot_file is not None:
        with reported():
            plot(record, rows, plot_file)
    click.echo(review_text(record, rows, budget, config))


def _review_budget(seconds, iterations, search_spec, seed):
    """The review's SearchConfig and its budget's words ("10000 iterations", "2 s") from
    --time, --iterations, --seed and --search (one of each pair, not both)."""
    from tne_ai.matches.review import review_config
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
    with reported():
        config = review_config(iterations, seconds, seed, config)
    return config, (f"{iterations} iterations" if iterations is not None else f"{seconds:g} s")


def _check_plot(plot_file):
    if plot_file is not None and not plot_file.lower().endswith((".png", ".svg")):
        raise CliError(f"--plot {plot_file}: the plot is a .png or .svg file")
    if plot_file is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise CliError('--plot needs matplotlib: pip install "tne-ai[plot]"') from None


@main.command()
@click.option("--games", type=Int(0, L.MAX_TRAIN_GAMES), default=20, show_default=True,
              help="Self-play deals to play (each in every seat rotation); 0 trains on --data "
                   "alone.")
@click.option("--players", type=Int(2, 4), default=2, show_default=True,
              help="Players in the self-play games.")
@click.option("--agent", "agent_spec", default="mcts:iterations=1000", show_default=True,
              metavar="SPEC", help="The agent that plays itself.")
@click.option("--data", "data_files", multiple=True, type=IN_FILE,
              metavar="FILE.jsonl", help="Records of earlier games to learn from too (repeatable).")
@click.option("--records", "records_out", type=OUT_FILE, default=None,
              metavar="FILE.jsonl",
              help="Write the self-play records here (with --resume: continue it).")
@click.option("--resume", is_flag=True, help="Continue the --records file of an interrupted run.")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the games and of the held-out split.")
@_where_games_run("Games played at once.", "Where games run: local processes or a Ray cluster.",
                  "Ray cluster to join (ray backend).")
@click.option("--holdout", type=Share(), default=0.2,
              show_default=True, help="Share of the games held out to score the fit.")
@click.option("--every", type=Int(1, L.MAX_EVERY), default=1, show_default=True,
              help="Keep every k-th position of a game.")
@click.option("--gate", "gate_deals", type=Int(0, L.MAX_DEALS), default=0, show_default=True,
              help="Keep the new weights only if they beat the agent that played the "
                   "self-play games: a match of at most this many deals (each in every "
                   "seat rotation) stopped by SPRT(0, --gate-elo); 0: no gate.")
@click.option("--gate-elo", type=Float(0.0, L.MAX_SPRT_ELO, lo_open=True), default=50.0,
              show_default=True, help="The gate's SPRT tests elo <= 0 against elo >= this.")
@click.option("--gate-records", type=OUT_FILE, default=None, metavar="FILE.jsonl",
              help="Write the gate match's game records here.")
@click.option("--net", "value_net", is_flag=True,
              help="Fit the value network (needs the train extra) instead of the linear "
                   "evaluation and prior: -o names a value network file (give it to "
                   "mcts:evaluation=net,net=FILE); the gate plays it so.")
@click.option("--policy", "move_policy", is_flag=True,
              help="Fit the move policy (needs the train extra) to the root visits of the "
                   "records' searched moves instead: -o names a move policy file (give it to "
                   "mcts:prior=policy,policy=FILE); the gate plays it so.")
@click.option("-o", "--out", "weights_out", type=OUT_FILE, required=True,
              metavar="FILE.npz", help="Weights file to write (give it to mcts:weights=FILE).")
def train(games, players, agent_spec, data_files, records_out, resume, seed, jobs, backend,
          ray_address, holdout, every, gate_deals, gate_elo, gate_records, value_net,
          move_policy, weights_out):
    """Learn the evaluation and the move prior from self-play games.

    Example: tne train --games 50 --jobs 2 --records selfplay.jsonl -o weights.npz

    With --gate N the weights are written only if they pass the gate (exit status 1
    when they do not: nothing is written).
    """
    from tne_ai.matches.train import TrainError, weights_info, write_gated

    _check_train(agent_spec, gate_deals, gate_records, weights_out)
    if value_net and move_policy:
        raise CliError("--net and --policy fit different files: give one")
    with reported():
        records, from_data = _read_data(data_files)
        records += _selfplay(agent_spec, games, players, seed, jobs, backend, ray_address,
                             records_out, resume)
        if not records:
            raise TrainError("no games to learn from: give --games or --data")
        what = "net" if value_net else "policy" if move_policy else "weights"
        save, lines = _fit(records, what, holdout, seed, every,
                           weights_info(agent_spec, len(records), seed))
        gate_match = None if not gate_deals else _gate_match(
            agent_spec, gate_deals, players, gate_elo, what, seed, jobs, backend,
            ray_address, gate_records)
        accepted, match = write_gated(weights_out, save, gate_match)
    sources = []
    if games:
        sources.append(f"{len(records) - from_data} of self-play ({games} deals, each played in "
                       f"its {players} seat rotations)")
    if data_files:
        sources.append(f"{from_data} from --data")
    click.echo(f"learnt from {len(records)} game records: {' and '.join(sources)}")
    for line in lines:
        click.echo(line)
    if gate_deals:
        _say_gate(match, accepted, weights_out)
    click.echo(f"wrote {weights_out}")


def _check_train(agent_spec, gate_deals, gate_records, weights_out):
    """The options of `tne train` checked before any game is played."""
    from tne_ai.agents.builtin import make_agent
    from tne_ai.matches.train import check_gate_agent

    if os.path.isdir(weights_out):
        raise CliError(f"{weights_out}: is a directory, not a weights file")
    with reported():
        make_agent(agent_spec)
        if gate_deals:
            check_gate_agent(agent_spec)
    if gate_records is not None and not gate_deals:
        raise CliError("--gate-records needs --gate N")
    if gate_records is not None and os.path.exists(gate_records):
        raise CliError(f"--gate-records {L.clip(gate_records, 80)}: exists; choose another file")


def _read_data(data_files):
    """The game records of the --data files, and their number."""
    from tne_ai.matches.tournament import read_records

    records = []
    for path in data_files:
        with reported("--data"):
            records.extend(r for _, r in read_records(path))
    return records, len(records)


def _selfplay(agent_spec, games, players, seed, jobs, backend, ray_address, records_out,
              resume):
    """The records of ``games`` self-play deals, each played in the players' seat rotations."""
    from tne_ai.matches.train import selfplay

    if not games:
        return []
    progress = progress_lines()
    records = selfplay(
        agent_spec, games, players=players, seed=seed, jobs=jobs, backend=backend,
        ray_address=ray_address, out=records_out, resume=resume,
        progress=lambda done, total: done and progress.say(
            "selfplay", f"tne train: self-play: {done} of {total} games ({games} "
                        f"deals x {players} seat rotations)"))
    progress.end()
    return records


def _fit(records, what, holdout, seed, every, info):
    """Fit the weights (``what``: "weights", the value network "net" or the move policy
    "policy") to the records: (save, report lines), save writing the file with ``info`` to
    the path it is given."""
    progress = progress_lines()
    if what == "policy":
        from tne_ai.matches.fit_policy import policy_report_lines, train_policy
        from tne_ai.search.policy import save_policy
        w, report = train_policy(records, holdout=holdout, seed=seed, every=every,
                                 progress=progress.say)
        progress.end()
        return (lambda path: save_policy(path, w, info)), policy_report_lines(report)
    if what == "net":
        from tne_ai.matches.fit_value import train_value, value_report_lines
        from tne_ai.search.value import save_net
        arrays, report = train_value(records, holdout=holdout, seed=seed, every=every,
                                     progress=progress.say)
        progress.end()
        return (lambda path: save_net(path, arrays, info)), value_report_lines(report)
    from tne_ai.matches.train import report_lines, train as fit
    from tne_ai.search.evaluate import save_weights
    w, prior, report = fit(records, holdout=holdout, seed=seed, every=every,
                           progress=progress.say)
    progress.end()
    return (lambda path: save_weights(path, w, prior, info)), report_lines(report, w, prior)


def _gate_match(agent_spec, deals, players, elo1, what, seed, jobs, backend, ray_address,
                gate_records):
    """The gate's match of the weights in a file against the agent of the self-play games:
    a function of the file's path -> (accepted, TournamentResult)."""
    from tne_ai.matches.train import gate
    progress = progress_lines()

    def match(path):
        result = gate(agent_spec, path, deals, players=players, elo1=elo1, net=what == "net",
                      policy=what == "policy",
                      seed=(seed + 1) % (L.MAX_SEED + 1), jobs=jobs, backend=backend,
                      ray_address=ray_address, out=gate_records,
                      progress=lambda done, total: done and progress.say(
                          "gate", f"tne train: gate: {done} games"))
        progress.end()
        return result
    return match


def _say_gate(match, accepted, weights_out):
    from tne_ai.matches.tournament import result_text

    click.echo("gate: the new weights (new) against the agent of the self-play games "
               "(previous)")
    click.echo(result_text(match))
    if not accepted:
        click.echo(f"the gate did not accept the new weights: {weights_out} not written")
        sys.exit(1)
