"""Learning the evaluation and the move-kind prior from self-play (``tne train``).

1. **Play.** ``selfplay`` runs a tournament (``tne_ai.matches.tournament``: local processes or Ray,
   resumable records) in which every seat is the same agent spec, so the games are the
   search playing itself.  Each record keeps the root visit distribution of every searched
   move (``meta.visits``: [move, visits] pairs, most visited first; None for a move not
   searched), as AlphaZero's self-play keeps the visit counts it learns its policy from.
2. **Positions.** ``dataset`` replays each record and keeps every ``every``-th position
   where a player must choose an action (the positions the search scores at its leaves),
   with the features of every player (``search.features``) and the final result (win 1,
   a shared first place split, loss 0; a truncated game counts as its ranking then).  The
   same pass records, for each action chosen, how many legal moves of each kind there were
   (``search.priors``) and the prior's target: each kind's share of the root visits where
   the record has them, else the kind of the move played.
3. **Fit.** ``fit_logit`` fits a conditional logit by Newton's method with an L2 penalty:
   for the evaluation, P(p wins) = softmax over players of w . features_p; for the prior,
   P(move) = softmax over the legal moves of the weight of the move's kind, fitted by
   cross-entropy to the targets (the visit shares: expert iteration).  The evaluation
   is then fitted per player count (``fit_per_count``): each count's vector is the pooled
   one plus a deviation fitted on that count's positions under the same penalty.
4. **Report.** Held-out games (a seeded share, split by game so no game is in both) are
   scored by log-loss and accuracy (the favourite won) for the new weights, the weights in
   use before and the hand-set evaluation of the frozen baseline.
5. **Gate** (``tne train --gate``). The new weights are kept only when an SPRT match
   against the agent that played the self-play games (the generation before) accepts
   them (``gate``), as AlphaZero's first pipeline gated each new network.

Everything takes a seed: the same command gives the same weights file.
"""
import os

import numpy as np
from numba import njit

from tne_ai.core import state as S
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.core.rules.scoring import rewards
from tne_ai.errors import TneError
from tne_ai.search.evaluate import EVAL_DEFAULT, WEIGHTS_FILE, load_weights
from tne_ai.search.features import FEATURE_NAMES, N_FEATURES, features
from tne_ai.search.priors import KIND_NAMES, N_KINDS, N_MASKS, move_kind, prepare

# games longer than this are left out of the data: leaders moved back and forth for hundreds
# of plies while monuments pay every turn give scores no real game reaches
MAX_PLIES = 600
DEFAULT_AGENT = "mcts:iterations=1000"


class TrainError(TneError):
    """Training options or data that cannot be used."""


def selfplay(spec, games, players=2, seed=0, jobs=1, backend="local", ray_address=None,
             out=None, resume=False, progress=None):
    """Play ``games`` deals of ``spec`` against itself (each deal in every seat rotation);
    return the records, each with the root visit distribution of every searched move
    (``meta.visits``, the prior's targets)."""
    from tne_ai.matches.tournament import run_tournament
    agents = {f"self{i}": spec for i in range(players)}
    result = run_tournament(agents, tables=[tuple(agents)], games=games, seed=seed, jobs=jobs,
                            backend=backend, ray_address=ray_address, out=out, resume=resume,
                            progress=progress, visits=True)
    return result.records


@njit(cache=True)
def kind_counts(st, chosen, moves, kmask, masks, counts):
    """counts[k] = legal moves of kind k in st (the moves left in moves[:counts.sum()]);
    return the kind of the chosen action."""
    n = legal_moves(st, moves)
    prepare(st, kmask, masks)
    for k in range(N_KINDS):
        counts[k] = 0.0
    for i in range(n):
        counts[move_kind(st, masks, moves[i])] += 1.0
    return move_kind(st, masks, chosen)


def visit_target(st, entry, legal, masks, where):
    """The prior's target at one decision from its ``meta.visits`` entry (a list of
    [move text, visits] pairs): each kind's share of the root visits.  ``masks`` must be
    ``prepare``d for st (``kind_counts`` does it); ``legal``: st's legal action codes.
    TrainError names the game and ply of an entry that is not such a list, or that
    names a move not legal there."""
    from tne_ai.core.notation import parse_move
    target = np.zeros(N_KINDS)
    if not isinstance(entry, list) or not entry:
        raise TrainError(f"{where}: meta.visits entry is not a list of [move, visits] pairs")
    for pair in entry:
        if (not isinstance(pair, list) or len(pair) != 2 or not isinstance(pair[0], str)
                or isinstance(pair[1], bool) or not isinstance(pair[1], int) or pair[1] < 1):
            raise TrainError(f"{where}: meta.visits entry {str(pair)[:60]} is not a "
                             f"[move, visits >= 1] pair")
        try:
            code = parse_move(pair[0])
        except TneError as e:
            raise TrainError(f"{where}: meta.visits: {e}") from None
        if code not in legal:
            raise TrainError(f"{where}: meta.visits names '{pair[0][:40]}', not a legal move there")
        target[move_kind(st, masks, code)] += pair[1]
    return target / target.sum()


def dataset(records, every=1, progress=None):
    """Features, results and move kinds of the records' action positions.

    Returns a dict: ``x`` (positions, 4, N_FEATURES), ``y`` (positions, 4) the final
    result, ``players`` (positions,), ``game`` (positions,) the record's index, and for the
    prior ``kinds`` (decisions, N_KINDS) legal-move counts per kind, ``chosen``
    (decisions,) the kind played, ``target`` (decisions, N_KINDS) what the prior is fitted
    to (each kind's share of the root visits where the record's ``meta.visits`` has them,
    else the kind played), ``from_visits`` (decisions,) which targets are visit shares,
    and ``kind_game``.  ``progress(stage, text)`` hears of each game read."""
    from tne_ai.position import Position
    from tne_ai.core.notation import parse_move
    xs, ys, ns, gs = [], [], [], []
    kinds, chosen, targets, from_visits, kind_game = [], [], [], [], []
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    kmask = np.empty((16, 3), dtype=np.uint64)
    masks = np.empty((N_MASKS, 3), dtype=np.uint64)
    feats = np.zeros((4, N_FEATURES))
    result = np.zeros(4)
    counts = np.zeros(N_KINDS)
    one_hot = np.eye(N_KINDS)
    for g, record in enumerate(records):
        if progress is not None:
            progress("read", f"tne train: reading positions: game {g + 1} of {len(records)}")
        if len(record["moves"]) > MAX_PLIES:
            continue
        searched = _visits_of(record, g)
        pos = Position.from_json(record["start"])
        first_row = len(xs)
        for ply, m in enumerate(record["moves"]):
            st = pos.st
            if st[S.PHASE] == S.PH_ACTION:
                code = parse_move(m) if isinstance(m, str) else int(m)
                k = kind_counts(st, code, moves, kmask, masks, counts)
                kinds.append(counts.copy())
                chosen.append(k)
                kind_game.append(g)
                entry = searched[ply] if searched is not None else None
                if entry is not None:
                    # kind_counts listed st's legal moves in moves, one count per move
                    legal = set(moves[:int(counts.sum())].tolist())
                    targets.append(visit_target(st, entry, legal, masks,
                                                f"game record {g + 1}, ply {ply}"))
                else:
                    targets.append(one_hot[k])
                from_visits.append(entry is not None)
                if ply % every == 0:
                    feats[:] = 0.0           # rows of absent players stay 0 (features
                    n = features(st, kmask, feats)   # writes only the seated ones)
                    xs.append(feats.copy())
                    ns.append(n)
                    gs.append(g)
            pos.push(m)
        result[:] = 0.0
        rewards(pos.st, result)      # the result at the end (a cut game's ranking then)
        ys.extend(result.copy() for _ in range(len(xs) - first_row))
    if not xs:
        raise TrainError("the games hold no position to learn from")
    return {"x": np.array(xs), "y": np.array(ys), "players": np.array(ns), "game": np.array(gs),
            "kinds": np.array(kinds), "chosen": np.array(chosen, dtype=np.int64),
            "target": np.array(targets), "from_visits": np.array(from_visits, dtype=bool),
            "kind_game": np.array(kind_game)}


def _visits_of(record, g):
    """A record's ``meta.visits`` (one entry per move: None or [move, visits] pairs), or
    None when it has none; TrainError when it is not one entry per move."""
    meta = record.get("meta")
    searched = meta.get("visits") if isinstance(meta, dict) else None
    if searched is None:
        return None
    if not isinstance(searched, list) or len(searched) != len(record["moves"]):
        raise TrainError(f"game record {g + 1}: meta.visits must be a list with one entry per "
                         f"move ({len(record['moves'])})")
    return searched


# --- fitting ------------------------------------------------------------------------------

def _softmax(v, mask):
    v = np.where(mask, v, -np.inf)
    v = v - v.max(axis=1, keepdims=True)
    e = np.where(mask, np.exp(v), 0.0)
    return e / e.sum(axis=1, keepdims=True)


def fit_logit(x, y, mask, l2=1e-3, offset=None, iterations=100, tol=1e-8, report=None):
    """Weights w of a conditional logit: P(choice j of row i) = softmax_j(x[i, j] . w +
    offset[i, j]) over the choices where mask[i, j], fitted to the target shares y[i, j]
    (rows sum to 1) by Newton's method, with step halving, under the penalty
    l2 * |w|^2 * rows.  ``report(iteration, loss)`` hears of each Newton step."""
    rows, _, k = x.shape
    offset = np.zeros(mask.shape) if offset is None else offset
    w = np.zeros(k)

    def loss(w):
        p = _softmax(x @ w + offset, mask)
        return -np.sum(np.where(mask, y * np.log(np.clip(p, 1e-300, 1.0)), 0.0)) + l2 * rows * w @ w

    current = loss(w)
    for _ in range(iterations):
        p = _softmax(x @ w + offset, mask)
        grad = np.einsum("ij,ijk->k", p - y, x) + 2 * l2 * rows * w
        xm = np.einsum("ij,ijk->ik", p, x)                      # mean feature per row
        flat = x.reshape(-1, k)
        hess = (flat * p.reshape(-1, 1)).T @ flat - xm.T @ xm
        hess += 2 * l2 * rows * np.eye(k)
        step = np.linalg.solve(hess, grad)
        scale = 1.0
        while scale > 1e-6:
            trial = loss(w - scale * step)
            if trial <= current:
                break
            scale /= 2
        w = w - scale * step
        done = current - trial < tol * max(1.0, abs(current))
        current = trial
        if report is not None:
            report(_ + 1, current)
        if done:
            break
    return w


def fit_per_count(data, pooled, l2_dev, report=None):
    """One evaluation vector per player count, flattened (2, 3 then 4 players, each as long
    as ``pooled``): each is the pooled vector plus a deviation fitted on that count's positions alone
    (the pooled values as an offset) under the L2 penalty ``l2_dev``, so a count with few
    positions stays near the pooled fit; a count without positions keeps the pooled one."""
    out = np.tile(np.asarray(pooled, dtype=np.float64), 3)
    k = len(pooled)
    for n in (2, 3, 4):
        rows = data["players"] == n
        if not rows.any():
            continue
        x = data["x"][rows]
        d = fit_logit(x, data["y"][rows], player_mask(data["players"][rows]), l2=l2_dev,
                      offset=x @ pooled, report=report)
        out[(n - 2) * k:(n - 1) * k] += d
    return out


def log_loss(p, y, mask):
    """Mean over rows of -sum_j y_ij log p_ij, and the share of rows whose favourite won."""
    p = np.clip(p, 1e-12, 1.0)
    loss = -np.sum(np.where(mask, y * np.log(p), 0.0), axis=1).mean()
    fav = np.argmax(np.where(mask, p, -1.0), axis=1)
    return float(loss), float(np.mean(y[np.arange(len(y)), fav] > 0))


def player_mask(players):
    return np.arange(4)[None, :] < np.asarray(players)[:, None]


def basic_chances(data):
    """The hand-set evaluation's win chances on a dataset's positions (normalised to sum to
    one), rebuilt from the sorted totals and leader counts it reads."""
    x, n = data["x"], data["players"]
    w = EVAL_DEFAULT
    value = x[:, :, 0:4] @ w[0:4] + w[4] * x[:, :, 8]
    mask = player_mask(n)
    out = np.zeros(value.shape)
    for i in range(4):
        for j in range(4):
            if i != j:
                out[:, i] += np.where(mask[:, j], 1.0 / (1.0 + np.exp(-(value[:, i] - value[:, j]) / w[5])), 0.0)
    out = np.where(mask, out, 0.0)
    return out / out.sum(axis=1, keepdims=True)


def model_chances(data, w):
    """Win chances under w: one vector for every count, or per-count vectors (2, 3, 4
    players one after another)."""
    x, players = data["x"], np.asarray(data["players"])
    if len(w) == N_FEATURES:
        return _softmax(x @ w, player_mask(players))
    value = np.zeros(x.shape[:2])
    for n in (2, 3, 4):
        rows = players == n
        value[rows] = x[rows] @ w[(n - 2) * N_FEATURES:(n - 1) * N_FEATURES]
    return _softmax(value, player_mask(players))


def kind_rows(data):
    """The prior's fitting rows: one choice per kind present (one-hot features), the target
    ``data["target"]`` (the kinds' shares of the root visits, or the kind played);
    legal-move counts enter as log-multiplicities (a kind with m moves has m times the
    chance of one of them)."""
    counts = data["kinds"]
    mask = counts > 0
    x = np.broadcast_to(np.eye(N_KINDS), (len(counts), N_KINDS, N_KINDS)).copy()
    return x, data["target"], mask, np.log(np.maximum(counts, 1.0))


def fit_prior(data, l2=1e-2, report=None):
    """Kind weights w: P(move) = exp(w[kind]) / sum over legal moves of exp(w[kind']); the
    best kind scores 0."""
    x, y, mask, offset = kind_rows(data)
    w = fit_logit(x, y, mask, l2=l2, offset=offset, report=report)
    return w - w.max()


def split(data, holdout, seed):
    """(train, test) datasets split by game: a seeded share ``holdout`` of the games held out."""
    games = np.unique(np.concatenate([data["game"], data["kind_game"]]))
    rng = np.random.default_rng(seed)
    test_games = set(rng.choice(games, size=max(1, int(round(holdout * len(games)))), replace=False).tolist())
    parts = ({}, {})
    for key_set, gkey in ((("x", "y", "players", "game"), "game"), (("kinds", "chosen", "target", "from_visits", "kind_game"), "kind_game")):
        held = np.array([g in test_games for g in data[gkey]], dtype=bool)
        for key in key_set:
            parts[0][key] = data[key][~held]
            parts[1][key] = data[key][held]
    return parts


def held_out_split(records, holdout, seed, every, progress):
    """(data, train set, held-out set, seed) of the records' positions (``dataset``), split by
    game (``split``); the options checked first (TrainError, one line)."""
    from tne_ai import limits as L
    from tne_ai.errors import InputError
    from tne_ai.core.io import parse_float, parse_int
    try:
        holdout = parse_float(holdout, "holdout", 0, 1, lo_open=True, hi_open=True)
        seed = parse_int(seed, "seed", 0, L.MAX_SEED)
        every = parse_int(every, "every", 1, L.MAX_EVERY)
    except InputError as e:
        raise TrainError(str(e)) from None
    data = dataset(records, every=every, progress=progress)
    train_set, test_set = split(data, holdout, seed)
    if len(train_set["y"]) == 0 or len(test_set["y"]) == 0:
        raise TrainError("too few games to hold some out: play more games")
    return data, train_set, test_set, seed


def train(records, holdout=0.2, seed=0, l2=1e-2, every=1, previous=WEIGHTS_FILE,
          progress=None):
    """Fit the evaluation and the prior on records; return (weights, prior, report).
    ``progress(stage, text)`` hears how far it is: games read, then each fit's iterations."""
    data, train_set, test_set, seed = held_out_split(records, holdout, seed, every, progress)

    def step(stage, what, rows):
        if progress is None:
            return None
        return lambda k, loss: progress(stage, f"tne train: fitting {what} on {rows} rows: "
                                               f"iteration {k} (at most 100), loss {loss:.6g}")
    pooled = fit_logit(train_set["x"], train_set["y"], player_mask(train_set["players"]), l2=l2,
                       report=step("fit-eval", "the evaluation", len(train_set["y"])))
    w = fit_per_count(train_set, pooled, l2,
                      report=step("fit-counts", "the per-count evaluations", len(train_set["y"])))
    prior = fit_prior(train_set, l2=l2,
                      report=step("fit-prior", "the move-kind prior", len(train_set["chosen"])))
    mask = player_mask(test_set["players"])
    report = {"games": int(len(records)), "positions": int(len(data["y"])),
              "train_positions": int(len(train_set["y"])), "test_positions": int(len(test_set["y"])),
              "decisions": int(len(data["chosen"])),
              "decisions_from_visits": int(data["from_visits"].sum()),
              # the player counts with training positions: the others keep the pooled vector
              "fitted_counts": [n for n in (2, 3, 4) if (train_set["players"] == n).any()]}
    report["fitted"] = log_loss(model_chances(test_set, w), test_set["y"], mask)
    report["basic"] = log_loss(basic_chances(test_set), test_set["y"], mask)
    if previous and os.path.exists(previous):
        try:
            prev_w, _ = load_weights(previous)
            report["previous"] = log_loss(model_chances(test_set, prev_w), test_set["y"], mask)
        except TneError:
            pass
    # the same per player count, the one-vector fit beside the per-count one
    report["by_players"] = {}
    for n in (2, 3, 4):
        rows = test_set["players"] == n
        if not rows.any():
            continue
        part = {"x": test_set["x"][rows], "players": test_set["players"][rows]}
        y, m = test_set["y"][rows], mask[rows]
        entry = {"positions": int(rows.sum()), "fitted": log_loss(model_chances(part, w), y, m),
                 "pooled": log_loss(model_chances(part, pooled), y, m)}
        if "previous" in report:
            entry["previous"] = log_loss(model_chances(part, prev_w), y, m)
        report["by_players"][n] = entry
    # the prior's held-out log-loss per decision, against uniform over the legal moves
    if len(test_set["chosen"]):
        x, y, kmask, offset = kind_rows(test_set)
        p = _softmax(x @ prior + offset, kmask)
        pu = _softmax(x @ np.zeros(N_KINDS) + offset, kmask)
        report["prior_fitted"] = log_loss(p, y, kmask)[0]
        report["prior_uniform"] = log_loss(pu, y, kmask)[0]
    return w, prior, report


def report_lines(report, w, prior):
    lines = [f"game records {report['games']}, positions {report['positions']} "
             f"(train {report['train_positions']}, held out {report['test_positions']}), "
             f"decisions {report['decisions']}",
             "held-out positions       log-loss  accuracy"]
    for key, name in (("fitted", "fitted weights"), ("previous", "weights in use"),
                      ("basic", "hand-set (baseline)")):
        if key in report:
            loss, acc = report[key]
            lines.append(f"  {name:<22} {loss:8.4f}  {acc:8.3f}")
    for n, entry in report.get("by_players", {}).items():
        parts = [f"{name} {entry[key][0]:.4f}" for key, name in
                 (("fitted", "fitted"), ("pooled", "one vector for all counts"),
                  ("previous", "in use")) if key in entry]
        lines.append(f"  {n} players ({entry['positions']} positions), log-loss: " + ", ".join(parts))
    if "prior_fitted" in report:
        lines.append(f"move-kind prior, held-out log-loss per action: fitted "
                     f"{report['prior_fitted']:.4f}, uniform {report['prior_uniform']:.4f} "
                     f"(targets: root visit shares at {report['decisions_from_visits']} of "
                     f"{report['decisions']} decisions, the kind played at the rest)")
    # only the counts fitted: a count without games keeps the pooled vector (fit_per_count)
    fitted = report.get("fitted_counts", [2, 3, 4])
    for k in range(len(w) // N_FEATURES):
        if len(w) > N_FEATURES and k + 2 not in fitted:
            continue
        label = "evaluation weights" + (f", {k + 2} players" if len(w) > N_FEATURES else "")
        lines.append(f"{label}: " + ", ".join(
            f"{n} {v:+.3f}" for n, v in zip(FEATURE_NAMES, w[k * N_FEATURES:(k + 1) * N_FEATURES])))
    kept = [n for n in (2, 3, 4) if n not in fitted]
    if len(w) > N_FEATURES and kept:
        counts = " and ".join(str(n) for n in kept)
        one = len(kept) == 1
        lines.append(f"evaluation weights, {counts} players: no games of "
                     f"{'that count' if one else 'those counts'} to fit; the file gives "
                     f"{'it' if one else 'them'} the one vector fitted on all positions")
    lines.append("prior weights: " + ", ".join(f"{n} {v:+.2f}" for n, v in zip(KIND_NAMES, prior)))
    return lines


# --- gating -------------------------------------------------------------------------------

DEFAULT_GATE_ELO = 50.0


def check_gate_agent(agent_spec):
    """TrainError unless ``agent_spec`` is an ``mcts:`` spec, whose search the gate can give
    the new weights (``tne train`` checks it before its self-play)."""
    from tne_ai import limits as L
    from tne_ai.agents.builtin import AgentSpecError, parse_spec
    try:
        kind = parse_spec(agent_spec)[0]
    except AgentSpecError as e:
        raise TrainError(str(e)) from None
    if kind != "mcts":
        raise TrainError(f"the gate plays the new weights in the agent's search: "
                         f"'{L.clip(agent_spec, 60)}' is not an mcts: spec")


def gate(agent_spec, weights_file, deals, players=2, elo1=DEFAULT_GATE_ELO, seed=0, jobs=1,
         backend="local", ray_address=None, out=None, progress=None, net=False, policy=False):
    """Whether the weights in ``weights_file`` pass the gate: a match of ``agent_spec``
    with those weights ("new") against ``agent_spec`` as given ("previous", the generation
    before: the agent that played the self-play games), ``players`` seats with one "new",
    at most ``deals`` deals in every seat rotation, stopped by an SPRT(0, elo1) (alpha =
    beta = 0.05).  Returns (accepted, TournamentResult): accepted only when the SPRT
    accepts H1 (elo >= elo1); H0 or no decision within the deals rejects the weights.
    ``net``: the file is a value network, played as ``evaluation=net,net=FILE``;
    ``policy``: a move policy, played as ``prior=policy,policy=FILE``."""
    from tne_ai import limits as L
    from tne_ai.errors import InputError
    from tne_ai.core.io import parse_float, parse_int
    from tne_ai.search.config import SearchConfig, SearchConfigError
    from tne_ai.matches.tournament import run_tournament
    try:
        deals = parse_int(deals, "gate deals", 1, L.MAX_DEALS)
        elo1 = parse_float(elo1, "gate elo", 0, L.MAX_SPRT_ELO, lo_open=True)
        players = parse_int(players, "players", 2, 4)
    except InputError as e:
        raise TrainError(str(e)) from None
    check_gate_agent(agent_spec)
    try:
        cfg = SearchConfig.from_spec(agent_spec)
        if net:
            cfg = cfg.replace(evaluation="net", net=weights_file)
        elif policy:
            cfg = cfg.replace(prior="policy", policy=weights_file)
        else:
            cfg = cfg.replace(weights=weights_file)
        new_spec = cfg.to_spec()
    except SearchConfigError as e:
        raise TrainError(str(e)) from None
    agents = {"previous": agent_spec, "new": new_spec}
    table = ("new",) + ("previous",) * (players - 1)
    result = run_tournament(agents, tables=[table], games=deals, seed=seed, jobs=jobs,
                            backend=backend, ray_address=ray_address, out=out,
                            sprt=(0.0, elo1), progress=progress)
    return result.sprt.decision == "H1", result


def weights_info(agent_spec, games, seed):
    """The info stored in a weights file that `tne train` writes: the agent of the self-play,
    the number of game records learnt from, the seed, and the provenance (JSON text) of the
    code and of the weights that agent played with."""
    import json
    from tne_ai.matches.provenance import provenance, spec_weights
    return {"agent": agent_spec, "games": games, "seed": seed,
            "provenance": json.dumps(provenance(weights=spec_weights([agent_spec])))}


def _cannot(weights_out, what, e):
    return TrainError(f"{weights_out}: {what}: {' '.join(str(e.strerror or e).split())}")


def write_gated(weights_out, save, gate_match=None):
    """Write the new weights with ``save(path)``.  Without a gate (``gate_match`` None)
    straight to ``weights_out``.  With one, to a temporary file beside ``weights_out`` first
    (``.gate-*.npz``), given to ``gate_match(path)`` -> (accepted, TournamentResult) (a
    ``gate`` match); the file replaces ``weights_out`` only when the gate accepts it, and is
    removed otherwise, also when the match fails or is stopped, so nothing is written on
    failure.  Returns (accepted, match): (True, None) without a gate.  TrainError when the
    file cannot be written."""
    import tempfile
    target = weights_out
    if gate_match is not None:
        try:
            fd, target = tempfile.mkstemp(suffix=".npz", prefix=".gate-",
                                          dir=os.path.dirname(os.path.abspath(weights_out)))
        except OSError as e:
            raise _cannot(weights_out, "cannot write beside it", e) from None
        os.close(fd)
    try:
        save(target)
    except OSError as e:
        if target != weights_out:
            os.remove(target)
        raise _cannot(weights_out, "cannot write", e) from None
    if gate_match is None:
        return True, None
    try:
        accepted, match = gate_match(target)
    except BaseException:
        os.remove(target)
        raise
    if accepted:
        os.replace(target, weights_out)
    else:
        os.remove(target)
    return accepted, match
