"""Game review, on top of the public search API (tne_ai.search.session.search).

The best move of one position, with its plan to the end of the turn, is one ``Search``
(``tne bestmove``, ``tne engine``, ``tne_ai.api.analyse``): its ``result()`` reads the
principal variation from the tree; tne_ai/search/report.py words it.

Win chance
----------
The win chance of a move is the search's mean reward of that root action for the player who
chooses it (SearchInfo.alternatives: ``(action, visits, mean)``; a won game is 1, a shared
first place its share, a lost one 0, an unfinished line the evaluation's win estimate).  The
win chance of a position is that of its best (most visited) move.

Game review
-----------
``review`` replays a tne-game/1 record; for every move it searches the position as the mover
saw it (his own hand, the public board, counts of the rest: ``determinize`` never reads the
others' hands or the bag), and records the best move, its win chance, and the win chance of the
move played (its mean in the same search).  The loss is best minus played, in points of win
chance (0-100).  Classes (``CLASSES``): a loss of at least 20 points is a blunder, 10 a mistake,
5 an inaccuracy (``classify``).  A move with one legal choice is forced: not searched, not
classed.  A played move the search never tried (possible only when the budget is below the
number of legal moves) has no win chance of its own: ``played_win`` is null and it is not classed.
The record comes back with the review in ``meta.analysis`` (``annotate``), which `tne replay`
shows move by move.
"""
import json

import numpy as np

from tne_ai import limits as L
from tne_ai.core import state as S
from tne_ai.errors import TneError
from tne_ai.core.notation import move_text

# (name, least loss in points of win chance), largest first
CLASSES = (("blunder", 20.0), ("mistake", 10.0), ("inaccuracy", 5.0))


class AnalyseError(TneError):
    """Arguments or a record that a review cannot use."""


def forced(st):
    """The only legal move of st, or None when there is a choice."""
    from tne_ai.core.rules.movegen import legal_moves
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    n = legal_moves(st, moves)
    return int(moves[0]) if n == 1 else None


# --- game review ----------------------------------------------------------------------------

def load_record(path, game=None):
    """The game record in ``path``: a records file (one tne-game/1 record a line, as `tne
    tournament --out` writes; ``game`` picks by meta.game_id, default the first) or one
    record as a JSON document (as `tne play --out` writes)."""
    import itertools
    from tne_ai.matches.tournament import find_record, read_records
    if game is not None:
        first = list(itertools.islice(read_records(path), 2))
        if len(first) == 1 and first[0][1].get("meta", {}).get("game_id") != game:
            gid = first[0][1].get("meta", {}).get("game_id")
            raise AnalyseError(f"{path}: holds one game, '{gid}', not '{game}'")
    return find_record(path, game)


def classify(loss):
    """The class of a loss in points of win chance (CLASSES), or None below them all."""
    if loss is None:
        return None
    for name, least in CLASSES:
        if loss >= least:
            return name
    return None


def positions_of(record):
    """Yield (ply, mover, the position before the move (a Position of its own), move text)
    for each move of a checked tne-game/1 record."""
    from tne_ai.position import Position
    p = Position.from_json(record["start"])
    for ply, text in enumerate(record["moves"]):
        yield ply, p.to_act, p.copy(), text
        try:
            p.push(text)
        except TneError as e:
            raise AnalyseError(f"move {ply + 1} '{text}' of the record: {e}") from None


# a move played that the search opened less often than this (progressive widening opens
# the likely moves first) gets its own search from the position after it
FOLLOW_UP_VISITS = 50


def _review_search(st, config, iterations, seconds, seed):
    """One search of a review: a new Search of st with the review's options (a SearchConfig)
    and this search's seed, run for the budget; its SearchInfo."""
    from tne_ai.search.session import Search
    return Search(st, config.replace(seed=seed)).run(iterations, seconds)


def after_move_win(st, code, player, iterations, seconds, seed, config=None):
    """player's win chance after playing code in st: exact if the game ends, else the mean
    reward of a search from there (a quarter of the budget, the review's options)."""
    import numpy as np
    from tne_ai.core.rules.apply import apply_action
    from tne_ai.core.rules.rng import make_rng
    from tne_ai.core.rules.scoring import rewards
    from tne_ai.search.config import SearchConfig
    config = config if config is not None else SearchConfig()
    child = st.copy()
    apply_action(child, code, make_rng(seed))
    if child[S.PHASE] == S.PH_OVER:
        out = np.zeros(4)
        rewards(child, out)
        return float(out[player])
    r = _review_search(child, config, None if iterations is None else max(100, iterations // 4),
                       None if seconds is None else seconds / 4, seed + 1)
    if r.forced:                       # one legal move there: search after it
        return after_move_win(child, r.move, player, iterations, seconds, seed + 1, config)
    return r.win_chances[player]


def review_move(task):
    """One row of a review: the task is (ply, player, the player's view (a Position,
    ``Position.view``), move text, iterations, seconds, seed, SearchConfig); picklable, so
    --jobs can farm it out."""
    from tne_ai.core.notation import parse_move
    ply, player, p, text, iterations, seconds, seed, config = task
    row = {"ply": ply, "player": player, "move": text}
    only = forced(p.st)
    if only is not None:
        row["forced"] = True
        return row
    r = _review_search(p.st, config, iterations, seconds, seed)
    code = parse_move(text)
    best, _, best_win = r.alternatives[0]
    played = {a: (v, m) for a, v, m in r.alternatives}.get(code)
    if played is None or played[0] < FOLLOW_UP_VISITS:
        played = (0 if played is None else played[0], after_move_win(p.st, code, player, iterations,
                                                                      seconds, seed, config))
    row.update(best=move_text(best), best_win=round(best_win, 4),
               played_win=None if played is None else round(played[1], 4),
               visits=None if played is None else played[0], iterations=r.iterations)
    if played is not None:
        loss = max(0.0, 100.0 * (best_win - played[1]))
        row["loss"] = round(loss, 2)
        row["class"] = classify(loss)
    return row


def review_config(iterations=None, seconds=None, seed=None, config=None):
    """The SearchConfig of a review's per-move searches: ``config`` (a SearchConfig or an
    ``mcts:`` spec; default ``SearchConfig()``) with the budget and seed given put in.  A
    budget given here replaces the config's; the budget must be iterations or time, not both.
    Every value is held to the option's bound (SearchConfig); AnalyseError names it."""
    from tne_ai.search.config import SearchConfig, SearchConfigError
    try:
        if config is None:
            config = SearchConfig()
        elif isinstance(config, str):
            config = SearchConfig.from_spec(config)
        elif not isinstance(config, SearchConfig):
            raise AnalyseError("config: a SearchConfig or an mcts: spec")
        if iterations is not None or seconds is not None:
            config = config.replace(iterations=iterations, time=seconds)
        if seed is not None:
            config = config.replace(seed=seed)
    except SearchConfigError as e:
        raise AnalyseError(str(e)) from None
    if (config.iterations is None) == (config.time is None):
        raise AnalyseError("give either an iteration budget or a time budget per move")
    return config


def review(record, iterations=None, seconds=None, jobs=1, seed=None, progress=None, config=None):
    """Review every move of a tne-game/1 record (module docstring): a list of rows, one per
    move, in order.  The per-move searches are those of ``review_config(iterations, seconds,
    seed, config)`` (default: SearchConfig's, seed 0); each move's seed is derived from the
    seed and the ply.  ``progress(done, total)`` is called as rows arrive."""
    from tne_ai.core.formats import load_game_record
    from tne_ai.errors import InputError
    from tne_ai.core.io import parse_int
    cfg = review_config(iterations, seconds, seed, config)
    try:
        jobs = parse_int(jobs, "jobs", 1, L.MAX_JOBS)
    except InputError as e:
        raise AnalyseError(str(e)) from None
    if cfg.weights is not None:
        from tne_ai.search.evaluate import load_weights
        load_weights(cfg.weights)      # a bad weights file: one error now, not one a move
    from tne_ai.search.session import check_files
    check_files(cfg)
    record = load_game_record(record)
    base = cfg.replace(iterations=None, time=None, seed=0)
    tasks = []
    for ply, me, before, text in positions_of(record):
        seed = (cfg.seed * 1000003 + ply) & 0x7FFFFFFF
        tasks.append((ply, me, before.view(me, seed=seed), text, cfg.iterations, cfg.time, seed,
                      base))
    rows = [None] * len(tasks)
    if progress:
        progress(0, len(tasks))
    if jobs == 1 or len(tasks) < 2:
        for i, task in enumerate(tasks):
            rows[i] = review_move(task)
            if progress:
                progress(i + 1, len(tasks))
        return rows
    from concurrent.futures import as_completed
    from tne_ai.matches.tournament import worker_pool
    with worker_pool(min(jobs, len(tasks))) as pool:
        futures = {pool.submit(review_move, t): i for i, t in enumerate(tasks)}
        for done, future in enumerate(as_completed(futures), 1):
            rows[futures[future]] = future.result()
            if progress:
                progress(done, len(tasks))
    return rows


def summary(rows, players):
    """Per player: moves reviewed (not forced, with a win chance), average loss, and the
    count of each class."""
    out = []
    for k in range(players):
        mine = [r for r in rows if r["player"] == k and r.get("loss") is not None]
        counts = {name: sum(1 for r in mine if r["class"] == name) for name, _ in CLASSES}
        out.append({"player": k, "moves": len(mine), "forced": sum(
            1 for r in rows if r["player"] == k and r.get("forced")),
            "average_loss": round(sum(r["loss"] for r in mine) / len(mine), 2) if mine else None,
            **counts})
    return out


def annotate(record, rows, budget, config=None):
    """The record with the review in ``meta.analysis``: ``{"engine", "budget", "search",
    "provenance", "classes", "summary", "moves"}`` (rows as ``review`` returns them; ``search``
    the ``mcts:`` spec of ``config``, the review's SearchConfig, default SearchConfig())."""
    from tne_ai.matches.provenance import provenance, spec_weights
    from tne_ai.search.config import SearchConfig
    record = json.loads(json.dumps(record))
    players = record["start"]["players"]
    spec = (config if config is not None else SearchConfig()).to_spec()
    record.setdefault("meta", {})["analysis"] = {
        "engine": "tne ISMCTS (tne_ai.search)", "budget": budget, "search": spec,
        "provenance": provenance(weights=spec_weights([spec])),
        "classes": {name: least for name, least in CLASSES},
        "summary": summary(rows, players), "moves": rows}
    return record


def review_text(record, rows, budget, config=None):
    """The text of `tne analyse`: the game and the budget (and the search's options beyond
    the budget and the seed), a table of ``summary`` per player, the classes' thresholds,
    then one line per classed move (moves numbered from 1, as `tne replay --ply` and the
    plot's x axis number them)."""
    meta = record.get("meta", {})
    options = {} if config is None else {k: v for k, v in config.changed().items()
                                         if k not in ("iterations", "time", "seed")}
    search = "" if not options else \
        "; search " + type(config)().replace(**options).to_spec()
    lines = [f"game {meta.get('game_id', '?')}: {len(rows)} moves, {budget} a move{search}"]
    lines += _summary_lines(rows, record["start"]["players"])
    lines.append("loss: points of win chance given up (best move's minus the move played's); "
                 + ", ".join(f"{n} >= {least:g}" for n, least in reversed(CLASSES)))
    flagged = [r for r in rows if r.get("class")]
    if flagged:
        lines.append("")
        lines.append("move  player  class       move played (win chance)  best move (win chance)")
        for r in flagged:
            played = f"{r['move']} ({100 * r['played_win']:.1f}%)"
            lines.append(f"{r['ply'] + 1:>4}  {r['player']:>6}  {r['class']:<10}  {played:<24}  "
                         f"{r['best']} ({100 * r['best_win']:.1f}%)")
    return "\n".join(lines)


def _summary_lines(rows, players):
    """The table of ``summary``: a header, then a row per player, columns aligned."""
    plural = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
    head = ["player", "moves", "forced", "avg loss"] + [plural[n] for n, _ in reversed(CLASSES)]
    table = [head]
    for s in summary(rows, players):
        table.append([str(s["player"]), str(s["moves"]), str(s["forced"]),
                      "-" if s["average_loss"] is None else f"{s['average_loss']:.1f}"]
                     + [str(s[n]) for n, _ in reversed(CLASSES)])
    widths = [max(len(r[c]) for r in table) for c in range(len(head))]
    return ["  ".join(x.rjust(w) if c else x.ljust(w) for c, (x, w) in enumerate(zip(r, widths)))
            for r in table]


def annotation_text(row):
    """One line describing a reviewed move, for `tne replay`."""
    if row.get("forced"):
        return f"{row['move']}: forced"
    if row.get("played_win") is None:
        return f"{row['move']}: not tried by the search (best {row['best']}, " \
               f"win chance {100 * row['best_win']:.1f}%)"
    text = f"{row['move']}: win chance {100 * row['played_win']:.1f}%"
    if row["move"] != row["best"]:
        text += f", best {row['best']} {100 * row['best_win']:.1f}% (loss {row['loss']:.1f})"
    if row.get("class"):
        text += f": {row['class']}"
    return text


def ending_text(meta):
    """Why a recorded game ended before its end, as `tne replay` says it after its last move
    (formats.py, tne-game/1 ``meta``): "; truncated", "; forfeit by player 1 (reason)",
    "; stopped by player 0 (quit)"; empty for a game played to its end."""
    text = "; truncated" if meta.get("truncated") else ""
    for key in ("forfeit", "stopped"):
        why = meta.get(key)
        if isinstance(why, dict):
            text += f"; {key} by player {why.get('seat')}" + (
                f" ({why['reason']})" if why.get("reason") else "")
    return text


def replay_lines(record, ply, name):
    """The lines `tne replay` prints above the board at ``ply`` (None: the end) of a game
    record read from the file ``name``: the game, the moment, the seats; then, when the
    record holds a review, its line on the move that led there."""
    meta = record.get("meta", {})
    agents = ", ".join(f"{a.get('name')} ({a.get('spec')})" if isinstance(a, dict) else str(a)
                       for a in meta.get("agents", []))
    moves = len(record["moves"])
    done = moves if ply is None else ply
    lines = [f"game {meta.get('game_id', name)}, after {done} of {moves} moves"
             + (f"; seats: {agents}" if agents else "")
             + (ending_text(meta) if done == moves else "")]
    analysis = meta.get("analysis")
    if isinstance(analysis, dict) and done > 0:
        rows = [r for r in analysis.get("moves", [])
                if isinstance(r, dict) and r.get("ply") == done - 1]
        if rows:
            lines.append(f"move {done} (player {rows[0].get('player')}): "
                         f"{annotation_text(rows[0])}")
    return lines


# --- the picture ----------------------------------------------------------------------------

PLOT_FORMATS = (".png", ".svg")
NAMED_BLUNDERS = 5
MARKS = {"blunder": ("X", "#d62728", 110), "mistake": ("o", "#ff7f0e", 60),
         "inaccuracy": ("o", "#e6c300", 35)}


def final_shares(record):
    """Each player's result as a win chance: 1 alone first, 1/k for k sharing first, else 0."""
    ranking = record["result"]["ranking"]
    first = ranking.count(1)
    return [1.0 / first if place == 1 else 0.0 for place in ranking]


def label_lanes(xs, gap):
    """Lanes (0, 1, ...) for labels at the sorted positions ``xs``: each goes in the lowest
    lane whose last label is at least ``gap`` to its left, so no two labels of a lane are
    closer than ``gap`` and labels never overlap."""
    ends, lanes = [], []
    for x in xs:
        for lane, last in enumerate(ends):
            if x - last >= gap:
                ends[lane] = x
                lanes.append(lane)
                break
        else:
            ends.append(x)
            lanes.append(len(ends) - 1)
    return lanes


def _conflict_moves(record):
    """Move numbers (1-based) of the commits that settled a revolt or a war: the second
    commit of each conflict, the defender's (SPEC section 4)."""
    out, waiting = [], False
    for i, text in enumerate(record["moves"]):
        if str(text).startswith("commit "):
            if waiting:
                out.append(i + 1)
            waiting = not waiting
        else:
            waiting = False
    return out


END_IN_SIGHT_TILES = 12   # the plot's "end in sight": a bag of at most this many tiles ...
END_IN_SIGHT_TREASURES = 3   # ... or this many treasures on the board (one more taken ends it)


def _end_in_sight(record):
    """The first move (1-based) after which the board holds END_IN_SIGHT_TREASURES treasures
    or fewer or the bag END_IN_SIGHT_TILES tiles or fewer, or None.  The game is over after a
    turn that leaves 2 treasures or fewer, or whose draws find the bag short (SPEC section 3):
    from there every move weighs on the final scores."""
    from tne_ai.position import Position
    p = Position.from_json(record["start"])
    for i, text in enumerate(record["moves"]):
        p.push(text)
        treasures = int(sum(bin(int(w)).count("1") for w in p.st.view(np.uint64)[
            S.BB_TREASURE:S.BB_TREASURE + 3]))
        bag = int(p.st[S.BAG_LEN]) if int(p.st[S.BAG_ORDERED]) == 1 else END_IN_SIGHT_TILES + 1
        if treasures <= END_IN_SIGHT_TREASURES or bag <= END_IN_SIGHT_TILES:
            return i + 1
    return None


def plot(record, rows, path):
    """Draw each player's win chance across the game into ``path`` (.png or .svg) with
    matplotlib (the ``plot`` extra); returns the layout in pixels (``axes``, ``legend``,
    ``labels``: bounding boxes ``(x0, y0, x1, y1)``) for checking.

    x is the move number, as in the review's table (``move`` column) and ``tne replay --ply``:
    move n's marks stand at x = n, after it.  A player's line joins, for each of his searched
    moves, the best move's win chance before it (x = n - 1) and the move played's after it
    (x = n), and ends at his result (1 won, 1/k shared by k, 0 lost) after the last move.
    Inaccuracies, mistakes and blunders are marked at the move played's win chance; the
    largest blunders (NAMED_BLUNDERS) get numbers, set in lanes above the plot (label_lanes:
    never on top of each other) and listed in a table under it.  Conflicts settled (a
    defender's commit) are shaded: the swings they cause are explained in the caption.  The
    legend stands to the right of the plot, off the data."""
    import os
    ext = os.path.splitext(str(path))[1].lower()
    if ext not in PLOT_FORMATS:
        raise AnalyseError(f"{path}: the plot is a .png or .svg file")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.transforms import blended_transform_factory
        matplotlib.rcParams["svg.fonttype"] = "none"  # SVG text stays text
    except ImportError:
        raise AnalyseError('the plot needs matplotlib: pip install "tne-ai[plot]"') from None
    players = record["start"]["players"]
    end = len(record["moves"])
    shares = final_shares(record)
    colours = ["#1f77b4", "#2ca02c", "#9467bd", "#8c564b"]
    blunders = [r for r in rows if r.get("class") == "blunder"]
    named = sorted(sorted(blunders, key=lambda r: -r["loss"])[:NAMED_BLUNDERS],
                   key=lambda r: r["ply"])
    import textwrap
    caption = ("Shaded: a revolt or war settled by the defender's commit; a conflict removes "
               "leaders and tiles and scores points at once, so the win chances jump there. "
               f"Dashed: the end in sight, {END_IN_SIGHT_TREASURES} treasures left on the board "
               f"(one more taken ends the game) or {END_IN_SIGHT_TILES} tiles in the bag (a "
               "short refill ends it); from there one move can change whose lowest colour is "
               "ahead at the end, so the chances swing between 0 and 100%.")
    caption_lines = textwrap.wrap(caption, 130)
    width, dpi = 10.0, 110
    table_h = 0.2 * (len(named) + 1) if named else 0.0
    caption_h = 0.1 + 0.15 * len(caption_lines)
    # inches from the bottom: the caption, the table, the x axis's ticks and label (0.6), the
    # axes (2.6); 0.75 above them for the numbered lanes and the title
    height = caption_h + 0.1 + table_h + 0.6 + 2.6 + 0.75
    fig = plt.figure(figsize=(width, height), dpi=dpi)
    bottom = (caption_h + 0.1 + table_h + 0.6) / height
    ax = fig.add_axes([0.07, bottom, 0.72, 1 - bottom - 0.75 / height])
    for x in _conflict_moves(record):
        ax.axvspan(x - 0.5, x + 0.5, color="#f4c7d9", alpha=0.6, lw=0, zorder=0)
    if _conflict_moves(record):
        ax.axvspan(0, 0, color="#f4c7d9", alpha=0.6, lw=0, label="conflict settled")
    sight = _end_in_sight(record)
    if sight is not None:
        ax.axvline(sight, color="#666", ls="--", lw=1, label="the end in sight")
    for k in range(players):
        xs, ys = [], []
        for r in rows:
            if r["player"] != k or r.get("best_win") is None:
                continue
            xs.append(r["ply"])  # before his move n = ply + 1: the best move's win chance
            ys.append(100 * r["best_win"])
            if r.get("played_win") is not None:
                xs.append(r["ply"] + 1)  # after it: the move played's
                ys.append(100 * r["played_win"])
        xs.append(end)
        ys.append(100 * shares[k])
        ax.plot(xs, ys, "-", color=colours[k], lw=1.4, label=f"player {k}", marker=".", ms=5)
    for name, (marker, colour, size) in MARKS.items():
        hits = [r for r in rows if r.get("class") == name]
        if hits:
            ax.scatter([r["ply"] + 1 for r in hits], [100 * r["played_win"] for r in hits],
                       marker=marker, s=size, color=colour, zorder=5,
                       label=f"{name} ({len(hits)})")
    from matplotlib.ticker import MaxNLocator
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(0, max(1, end) + 0.5)
    ax.set_ylim(-3, 103)
    ax.set_xlabel("move (as numbered in the table and by tne replay --ply)")
    ax.set_ylabel("win chance (%)")
    ax.grid(alpha=0.3)
    gid = record.get("meta", {}).get("game_id", "game")
    fig.text(0.07, 1 - 0.12 / height, f"{gid}: win chance of each player at his moves; marks "
             "at the move played", fontsize=11, va="top")
    legend = ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0),
                       borderaxespad=0.0)
    # the numbered blunders: lanes above the axes, a dotted line down to each mark
    labels = []
    lane_h = 0.22 / (height * (1 - bottom - 0.75 / height))   # 0.22 inch, in axes fraction
    axes_px = 0.72 * width * dpi
    gap = 16 / axes_px * (max(1, end) + 0.5)                    # 16 px, in moves
    lanes = label_lanes([r["ply"] + 1 for r in named], gap)
    trans = blended_transform_factory(ax.transData, ax.transAxes)
    for i, (r, lane) in enumerate(zip(named, lanes), 1):
        x = r["ply"] + 1
        y = 1.03 + lane * lane_h
        ax.plot([x, x], [y, (100 * r["played_win"] + 3) / 106], ":", color=MARKS["blunder"][1],
                lw=0.8, transform=trans, clip_on=False, zorder=4)
        labels.append(ax.text(x, y, str(i), transform=trans, ha="center", va="bottom",
                              fontsize=8, color="#fff", fontweight="bold", clip_on=False,
                              bbox={"boxstyle": "circle,pad=0.25", "fc": MARKS["blunder"][1],
                                    "ec": "none"}))
    lines = []
    if named:
        lines.append(f"{'':>3}  {'move':>5}  {'player':>6}  "
                     f"{'move played (win chance after it)':<36}  best move (win chance)")
        for i, r in enumerate(named, 1):
            played = f"{r['move']} ({100 * r['played_win']:.0f}%)"
            lines.append(f"{i:>3}  {r['ply'] + 1:>5}  {r['player']:>6}  {played:<36}  "
                         f"{r['best']} ({100 * r['best_win']:.0f}%)")
    y = (caption_h + 0.1 + table_h) / height
    for line in lines:
        fig.text(0.07, y, line, fontsize=8, family="monospace", va="top")
        y -= 0.2 / height
    fig.text(0.07, 0.05 / height, "\n".join(caption_lines),
             fontsize=8, color="#444", va="bottom")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()

    def box(artist):
        b = artist.get_window_extent(renderer)
        return (b.x0, b.y0, b.x1, b.y1)
    layout = {"axes": box(ax.patch), "legend": box(legend), "labels": [box(t) for t in labels],
              "lanes": lanes}
    try:
        fig.savefig(path)
    except OSError as e:
        raise AnalyseError(f"{path}: cannot write: {e.strerror or e}") from None
    finally:
        plt.close(fig)
    return layout
