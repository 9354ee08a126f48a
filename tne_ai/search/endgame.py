"""Exact endings: every line of the current turn played to the end, per determinization.

DESIGN NOTE.  Near the end of a game (SPEC section 3, game end) the turn in progress often
decides it: a tile played makes the refill come up short, or the last treasures are taken.
Then the search's evaluation and priors are beside the point: the final ranking (SPEC
section 6, ``engine.scoring.rewards``) can be computed for every way the turn can go.

- **Trigger** (``ending_applies``): a cheap, public test that the game can be over by the end
  of the current turn through the turn's own actions (see its docstring for the exact rule).
- **One world** (``exact_ending``): a full state (a determinization of the viewer's
  information set, ``determinize.determinize``).  Every legal move of the player to act at
  the root is tried; after it, every decision up to the end of the current turn (the
  active player's second action, commits, war colours, monuments, treasures, whoever makes
  them) is searched depth first.  **Every player, the mover included, chooses what maximises
  his own reward in that same world** (the others see the world as it is, so this is
  their best reply when the world is the true one); among a non-mover's equally good
  choices the one worst for the root mover is assumed.  Draws inside the turn (a swap, the
  refill) come from the world's ordered bag, so a line is deterministic.
- **Exact or not**: a line whose game is over at the turn's end is scored with the final
  ranking: exact.  A line whose game goes on is scored by the fitted evaluation
  (``evaluate.evaluate_model``, the shipped weights) and the result is flagged not exact.  So
  a value is exact for the sampled world when every line that could change it ended the
  game; with hidden hands it is exact only for that world, not for the true one.
- **Per root move**: the best reward the root mover can reach after it (a share of first
  place counts its share, SPEC section 6 ranking in ``rewards``).  ``solve_ending`` averages
  that over K sampled worlds and says whether every line of every world was exact.
- **Pruning** (each proved exact, not a heuristic):
  (1) a chooser who reaches reward 1 in an exact line stops looking (nothing beats a sole
  win);
  (2) at the last action of the turn, moves that end alike are grouped and one of each
  group is played (``group_last_action`` lists the groups): after the last action only the
  end of the turn follows (monument points, refill, game end), and final scoring sees only
  the points, so moves that give the same points to the same players, take the same
  treasures, leave the mover's paying monuments alone and draw the same number of tiles
  end the same way.  E.g. every tile joining one kingdom (and no leaderless region holding
  a treasure or a monument tile) scores the same point wherever it goes; a catastrophe or a
  withdraw outside the mover's paying monuments' regions changes no score (a split never
  makes a kingdom with 2 treasures), so the pass stands for it.  When a group's game does
  not end, its one move's evaluation stands for the group (an approximation, and flagged
  not exact anyway);
  (3) inside the last action, decisions that end alike are grouped too: which treasure the
  taker takes (the count is all final scoring sees, and no later action of the turn can
  reach the one left), and commits by what they decide (``group_decision``): committed
  tiles score nothing (SPEC 4), so within a group only the hand's size differs, and nothing
  after the conflict uses it once the refill is surely short (or no other war follows);
  (4) with 2 players the rewards (final or evaluated) sum to 1, so a rival maximising his
  reward minimises the mover's: the mover's reward is searched with alpha-beta (each root
  move with a full window, so its own value is exact).  With 3 or 4 players only (1)-(3).
- **Tested**: ``prune=False`` plays every line; tests/test_tactics_endgame.py checks that
  the pruned values equal it on self-play endings, and a plain Python search on last actions.
- **Cost** (``bench/endgame_cost.py``, greedy self-play endings, one world): see
  ``bench/README.md``, "Exact endings".  With one action left a world costs well under a
  millisecond; with two, the second action's wars and revolts dominate.

The kernels are free functions over plain arrays (``@njit(cache=True, nogil=True)``) and
allocate nothing: the caller passes the scratch (``EndgameScratch``): one state and one
move list per ply, the value vectors, the labelling and feature buffers.
"""
import time

import numpy as np
from numba import njit

from tne_ai.core import state as S
from tne_ai.core.bits import U0, U1, dilate, flood, has, popcount
from tne_ai.core.board import GREEN, NEIGHBOUR_MASK, SQUARES
from tne_ai.core.rules.apply import apply_action, conflict_strengths, monument_pays, red_next_to, war_conflicts
from tne_ai.core.rules.kingdoms import MAX_KINGDOMS, kingdom_of, label, leader_colours_in, occupied, region_of
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.core.rules.rng import make_rng
from tne_ai.core.rules.scoring import rewards
from tne_ai.search.determinize import determinize
from tne_ai.search.evaluate import evaluate_model, model_weights
from tne_ai.search.features import N_FEATURES
from tne_ai.search.priors import block_completers

MAX_PLY = 64          # plies of one turn searched at most (a deeper line is evaluated)
HAND_LIMIT = 6        # hands are refilled up to 6 (SPEC section 3)

# stats[...] counters written by exact_ending (summed over the worlds by solve_ending)
ST_NODES = 0          # decisions searched (states whose moves were listed)
ST_LINES = 1          # lines scored (game over or evaluated)
ST_INEXACT = 2        # lines scored by the evaluation (the game went on)
ST_GROUPED = 3        # moves skipped by the last action's grouping of inert moves
ST_LIMIT = 4          # set by the caller: give the world up once nodes + lines reach it
ST_ABORTED = 5        # 1 when exact_ending gave its world up (ST_LIMIT reached)
ST_SIZE = 6
NO_LIMIT = 1 << 62


@njit(cache=True, _nrt=False, nogil=True)
def refill_need(st):
    """Tiles the refill would draw if the turn ended now: every hand's shortfall below 6."""
    need = 0
    for p in range(st[S.PLAYERS]):
        short = HAND_LIMIT - S.hand_size(st, p)
        if short > 0:
            need += short
    return need


@njit(cache=True, _nrt=False, nogil=True)
def treasures_on_board(st):
    bb = st.view(np.uint64)
    return popcount(bb[S.BB_TREASURE]) + popcount(bb[S.BB_TREASURE + 1]) + popcount(bb[S.BB_TREASURE + 2])


@njit(cache=True, _nrt=False, nogil=True)
def ending_applies(st):
    """True when the game can be over at the end of the current turn through the turn's own
    actions, tested on public fields only (the bag's size, hand sizes, treasures):

    - the bag holds fewer tiles than the refill needs if one tile leaves a hand in each
      action still to come: ``bag < shortfall + actions_left`` (shortfall = tiles the hands
      now lack below 6, the action in progress counted in ``actions_left``); a line that
      places or commits that many tiles (or swaps enough) then finds a draw short (SPEC 3);
    - or at most 3 treasures are on the board: the next treasure taken ends the game (2 or
      fewer left at the turn's end, SPEC 3), and with 2 or fewer it ends whatever is played;
    - and the game is not over yet.

    It says the ending *can* come this turn, not that it must: lines that avoid it are scored
    by the evaluation and flagged not exact by ``exact_ending``."""
    if st[S.PHASE] == S.PH_OVER:
        return False
    left = st[S.ACTIONS_LEFT]
    if S.bag_total(st) < refill_need(st) + left:
        return True
    return treasures_on_board(st) <= 3


@njit(cache=True, _nrt=False, nogil=True)
def stake_regions(st, p):
    """The regions of the built monuments whose kingdom holds a leader of p of one of their
    two colours: where the points SPEC 3 pays p at the end of his turn come from."""
    bb = st.view(np.uint64)
    z0 = z1 = z2 = U0
    for m in range(6):
        ms = st[S.monument_sq(m)]
        if ms < 0:
            continue
        f0, f1, f2 = region_of(bb, ms)
        if monument_pays(st, p, m, f0, f1, f2):
            z0 |= f0
            z1 |= f1
            z2 |= f2
    return z0, z1, z2


@njit(cache=True, _nrt=False, nogil=True)
def only_kingdom(kdil, nk, s):
    """The one kingdom whose dilation holds s, or -1 (none, or two or more)."""
    found = -1
    for k in range(nk):
        if has(kdil[k, 0], kdil[k, 1], kdil[k, 2], s):
            if found >= 0:
                return -1
            found = k
    return found


@njit(cache=True, _nrt=False, nogil=True)
def plain_merge(bb, s, l0, l1, l2, treasures_count):
    """True if the leaderless regions (within l) next to s hold no monument tile and, when
    ``treasures_count`` (the kingdom they would join has or gets a trader), no treasure: a
    piece put on s that joins them changes no treasure check and no monument's kingdom."""
    n0 = NEIGHBOUR_MASK[s, 0] & l0
    n1 = NEIGHBOUR_MASK[s, 1] & l1
    n2 = NEIGHBOUR_MASK[s, 2] & l2
    if (n0 | n1 | n2) == U0:
        return True
    r0, r1, r2 = flood(n0, n1, n2, l0, l1, l2)
    t0 = bb[S.BB_FLIP]
    t1 = bb[S.BB_FLIP + 1]
    t2 = bb[S.BB_FLIP + 2]
    if treasures_count:
        t0 |= bb[S.BB_TREASURE]
        t1 |= bb[S.BB_TREASURE + 1]
        t2 |= bb[S.BB_TREASURE + 2]
    return ((r0 & t0) | (r1 & t1) | (r2 & t2)) == U0


SEEN_LEADER = 0       # seen[c], c < 4: bit 4 k + strength: a leader of colour c joining k kept
SEEN_ALONE = 4        # bit c: a tile of colour c next to no kingdom was kept
SEEN_TILE = 5         # bit 16 c + k: a tile of colour c joining kingdom k alone was kept
SEEN_SWAP = 6         # bit k: a swap of k tiles was kept
SEEN_SIZE = 7
UNIFIED = MAX_KINGDOMS + 4    # kdil row: the squares whose unifying tile was kept


@njit(cache=True, _nrt=False, nogil=True)
def kingdom_reach(st, bb, nk, kmask, kdil):
    """Fill kdil for ``group_last_action``: rows k < nk the dilation of kingdom k, rows
    MAX_KINGDOMS + c the squares completing a 2x2 of colour c, row UNIFIED cleared.  Return
    the union of the dilations (n), the connecting squares (tiles, flipped tiles, leaders)
    outside the kingdoms (l) and the kingdoms holding a trader (bit k)."""
    n0 = n1 = n2 = U0
    u0 = u1 = u2 = U0
    for k in range(nk):
        d0, d1, d2 = dilate(kmask[k, 0], kmask[k, 1], kmask[k, 2])
        kdil[k, 0] = d0
        kdil[k, 1] = d1
        kdil[k, 2] = d2
        n0 |= d0
        n1 |= d1
        n2 |= d2
        u0 |= kmask[k, 0]
        u1 |= kmask[k, 1]
        u2 |= kmask[k, 2]
    for c in range(4):
        b0, b1, b2 = block_completers(bb, c)
        kdil[MAX_KINGDOMS + c, 0] = b0
        kdil[MAX_KINGDOMS + c, 1] = b1
        kdil[MAX_KINGDOMS + c, 2] = b2
    kdil[UNIFIED, 0] = U0
    kdil[UNIFIED, 1] = U0
    kdil[UNIFIED, 2] = U0
    c0, c1, c2 = occupied(bb)
    traders = 0
    for q in range(st[S.PLAYERS]):
        ts = st[S.leader_sq(q, GREEN)]
        k = kingdom_of(kmask, nk, ts) if ts >= 0 else -1
        if k >= 0:
            traders |= 1 << k
    return n0, n1, n2, c0 & ~u0, c1 & ~u1, c2 & ~u2, traders


@njit(cache=True, _nrt=False, nogil=True)
def keep_tile(bb, a, nk, n0, n1, n2, l0, l1, l2, traders, kdil, seen):
    """``group_last_action`` on the tile move a: False if a tile of its group was kept."""
    c = a // SQUARES
    s = a % SQUARES
    if not has(n0, n1, n2, s):
        if (seen[SEEN_ALONE] >> c) & 1:
            return False
        seen[SEEN_ALONE] |= 1 << c
        return True
    if has(kdil[MAX_KINGDOMS + c, 0], kdil[MAX_KINGDOMS + c, 1], kdil[MAX_KINGDOMS + c, 2], s):
        return True                       # completes a 2x2: its own group
    k = only_kingdom(kdil, nk, s)
    if k < 0:
        if has(kdil[UNIFIED, 0], kdil[UNIFIED, 1], kdil[UNIFIED, 2], s):
            return False
        kdil[UNIFIED, s >> 6] |= U1 << np.uint64(s & 63)
        return True
    if plain_merge(bb, s, l0, l1, l2, (traders >> k) & 1 == 1):
        key = 16 * c + k
        if (seen[SEEN_TILE] >> key) & 1:
            return False
        seen[SEEN_TILE] |= 1 << key
    return True


@njit(cache=True, _nrt=False, nogil=True)
def keep_leader(st, bb, a, nk, n0, n1, n2, l0, l1, l2, z0, z1, z2, traders, kmask, kdil, seen):
    """``group_last_action`` on the leader move a: False if the pass or a leader of its group
    stands for it."""
    p = st[S.TO_ACT]
    c = (a - S.A_LEADER) // SQUARES
    s = (a - S.A_LEADER) % SQUARES
    origin = st[S.leader_sq(p, c)]
    if not has(n0, n1, n2, s):
        if plain_merge(bb, s, l0, l1, l2, c == GREEN):
            return origin >= 0 and has(z0, z1, z2, origin)
        return True
    k = only_kingdom(kdil, nk, s)
    if k < 0 or not plain_merge(bb, s, l0, l1, l2, c == GREEN or (traders >> k) & 1 == 1) \
            or (origin >= 0 and has(kmask[k, 0], kmask[k, 1], kmask[k, 2], origin)):
        return True
    strength = 0        # p's own leader of c is not in k (above): one there is a rival's
    if (leader_colours_in(st, kmask[k, 0], kmask[k, 1], kmask[k, 2]) >> c) & 1:
        strength = 1 + red_next_to(bb, s)         # a revolt: its strength counts
    if strength < 4:
        key = 4 * k + strength
        if (seen[SEEN_LEADER + c] >> key) & 1:
            return False
        seen[SEEN_LEADER + c] |= 1 << key
    return True


@njit(cache=True, _nrt=False, nogil=True)
def group_last_action(st, moves, n, kmask, kdil, seen):
    """At the last action of the turn: keep one move of each group of moves that end alike
    (the module note, pruning (2)); return the new count.  Moves keep their order.  Scratch:
    kmask, kdil (MAX_KINGDOMS + 5 rows) and seen (SEEN_SIZE words).

    Groups (the player to act is p; "plain" leaderless regions hold no monument tile, and no
    treasure when the kingdom they join has or gets a trader; "stake" regions are p's paying
    monuments', ``stake_regions``):

    - a tile next to no kingdom: one per colour (no point, no kingdom changes);
    - a tile joining one kingdom k (and maybe plain leaderless regions), completing no 2x2
      of its colour: one per (colour, k): the same point to the same player;
    - a unifying tile completing no 2x2 of its colour: one per square (it never scores, does
      not count in the wars and is never removed, SPEC 4);
    - a leader joining one kingdom k (and maybe plain regions) from the supply or from
      outside k: one per (colour, k, revolt strength);
    - a leader next to plain regions only, from outside the stake regions; a catastrophe on
      an empty square or on a tile outside the stake regions; a withdraw of a leader outside
      them: the pass stands for them (no score, no treasure, p's monument points unchanged);
    - a swap: one per number of tiles.

    The tests of a tile and a leader are ``keep_tile`` and ``keep_leader``."""
    bb = st.view(np.uint64)
    p = st[S.TO_ACT]
    nk = label(bb, np.int64(-1), kmask)
    n0, n1, n2, l0, l1, l2, traders = kingdom_reach(st, bb, nk, kmask, kdil)
    z0, z1, z2 = stake_regions(st, p)
    for r in range(SEEN_SIZE):
        seen[r] = 0
    kept = 0
    for i in range(n):
        a = moves[i]
        keep = True
        if a < S.A_LEADER:
            keep = keep_tile(bb, a, nk, n0, n1, n2, l0, l1, l2, traders, kdil, seen)
        elif a < S.A_WITHDRAW:
            keep = keep_leader(st, bb, a, nk, n0, n1, n2, l0, l1, l2, z0, z1, z2, traders, kmask,
                               kdil, seen)
        elif a < S.A_CATASTROPHE:
            keep = has(z0, z1, z2, st[S.leader_sq(p, a - S.A_WITHDRAW)])
        elif a < S.A_SWAP:
            keep = has(z0, z1, z2, a - S.A_CATASTROPHE)
        elif a < S.A_PASS:
            k = np.int64(0)
            for c in range(4):
                k += S.SWAP_COUNTS[a - S.A_SWAP, c]
            if (seen[SEEN_SWAP] >> k) & 1:
                keep = False
            else:
                seen[SEEN_SWAP] |= 1 << k
        if keep:
            moves[kept] = a
            kept += 1
    return kept


@njit(cache=True, _nrt=False, nogil=True)
def group_decision(st, moves, n):
    """Inside the last action of the turn: keep one move of each group of decisions that end
    alike (the module note, pruning (3)); return the new count.

    A commit k of the conflict's colour c is keyed by what it decides and whether the refill
    is then surely short (the hands lack more than the bag holds: the game ends whatever
    follows, and a hand's size no longer matters):

    - the defender (who commits last): wins (k >= need) or not;
    - the attacker, once the refill is surely short: the defender wins whatever he commits
      (need <= 0), may choose (1 <= need <= his tiles of c), or cannot win;
    - a commit that leaves the refill not surely short is grouped (defender only, by wins or
      not) only when no other war follows, so that no later commit can change the shortfall.

    Nothing is grouped in a war while a third leader of colour c is on the board (a later
    war of the same colour could use the tiles kept)."""
    phase = st[S.PHASE]
    if phase == S.PH_TREASURE:
        return 1 if n > 0 else 0
    if phase != S.PH_REVOLT and phase != S.PH_WAR:
        return n
    c = np.int64(0)
    last_war = True
    if phase == S.PH_WAR:
        bb = st.view(np.uint64)
        c = st[S.CF_COLOUR]
        leaders = 0
        for p in range(st[S.PLAYERS]):
            if st[S.leader_sq(p, c)] >= 0:
                leaders += 1
        if leaders > 2:
            return n
        last_war = war_conflicts(st, bb) == (1 << c)
    att, dfn = conflict_strengths(st)
    short = refill_need(st)
    bag = S.bag_total(st)
    attacker = st[S.CF_COMMIT] < 0
    held = st[S.hand(st[S.CF_DEFENDER], c)]      # the defender's tiles of c in this world
    seen = 0
    kept = 0
    for i in range(n):
        k = moves[i] - S.A_COMMIT
        sure_short = short + k > bag
        if attacker:
            if not sure_short:
                key = -1                           # kept
            else:
                need = att + k - dfn
                key = 0 if need <= 0 else (1 if need <= held else 2)
        else:
            wins = 1 if k >= att + st[S.CF_COMMIT] - dfn else 0
            if sure_short:
                key = 2 + wins
            elif last_war:
                key = wins
            else:
                key = -1
        if key < 0 or not (seen >> key) & 1:
            if key >= 0:
                seen |= 1 << key
            moves[kept] = moves[i]
            kept += 1
    return kept


@njit(cache=True, _nrt=False, nogil=True)
def line_value(ply, turn, mover, alpha, beta, zero_sum, prune, weights, states, moves, values,
               kmask, kdil, seen, feats, rng, stats):
    """Value vector (every player's reward) of states[ply] into values[ply] when everyone
    chooses as the module note says, up to the end of the turn of player ``turn``; return
    True if it is exact (every line that decided it ended the game).  With ``zero_sum`` (2
    players: the rewards, final or evaluated, sum to 1) the mover's reward is searched with
    alpha-beta in the window (alpha, beta): a value outside it is only a bound."""
    st = states[ply]
    out = values[ply]
    if st[S.PHASE] == S.PH_OVER:
        rewards(st, out)
        stats[ST_LINES] += 1
        return True
    if st[S.TURN] != turn or ply >= MAX_PLY - 1:
        evaluate_model(st, weights, kmask, feats, out)
        stats[ST_LINES] += 1
        stats[ST_INEXACT] += 1
        return False
    if stats[ST_NODES] + stats[ST_LINES] >= stats[ST_LIMIT]:
        stats[ST_ABORTED] = 1           # over the work limit: the caller drops this world
        return False
    stats[ST_NODES] += 1
    chooser = st[S.TO_ACT]
    mv = moves[ply]
    n = legal_moves(st, mv)
    if prune and st[S.ACTIONS_LEFT] == 1:
        if st[S.PHASE] == S.PH_ACTION:
            kept = group_last_action(st, mv, n, kmask, kdil, seen)
        else:
            kept = group_decision(st, mv, n)
        stats[ST_GROUPED] += n - kept
        n = kept
    players = st[S.PLAYERS]
    for p in range(players):
        out[p] = -1.0
    out[mover] = 2.0 if chooser != mover else -1.0
    exact = True
    nxt = states[ply + 1]
    child = values[ply + 1]
    for i in range(n):
        S.copy_into(nxt, st)
        apply_action(nxt, mv[i], rng)
        ex = line_value(ply + 1, turn, mover, alpha, beta, zero_sum, prune, weights, states, moves,
                        values, kmask, kdil, seen, feats, rng, stats)
        if stats[ST_ABORTED] != 0:
            return False
        exact = exact and ex
        v = child[chooser]
        if chooser == mover:
            better = v > out[mover]
        else:
            better = v > out[chooser] or (v == out[chooser] and child[mover] < out[mover])
        if better:
            for p in range(players):
                out[p] = child[p]
        if prune and ex and v >= 1.0:
            return True         # a sole win in an exact line: nothing beats it (pruning 1)
        if prune and zero_sum:
            if chooser == mover:
                if out[mover] >= beta:
                    return exact
                if out[mover] > alpha:
                    alpha = out[mover]
            else:
                if out[mover] <= alpha:
                    return exact
                if out[mover] < beta:
                    beta = out[mover]
    return exact


@njit(cache=True, _nrt=False, nogil=True)
def exact_ending(world, root_moves, n_root, prune, weights, states, moves, values, kmask, kdil,
                 seen, feats, row, row_exact, rng, stats, totals, exact):
    """One world (a full state, the root mover to act): for each of the root's legal moves
    root_moves[:n_root], add to totals[i, p] every player p's reward in the line the mover
    chooses after it (totals[i, mover]: the best reward he reaches) and clear exact[i]
    unless it was exact (module note); return True.  ``prune`` False plays every line (no
    grouping, no cuts: the reference the pruning is tested against).  Once the counters
    ``stats[ST_NODES] + stats[ST_LINES]`` reach ``stats[ST_LIMIT]`` the world is given up:
    ``stats[ST_ABORTED]`` is set, totals and exact are left as they were and False is
    returned.  The rest of the arguments are scratch (``EndgameScratch``: row, row_exact
    hold the world's values until it is done) and the stats counters (``ST_*``)."""
    mover = world[S.TO_ACT]
    turn = world[S.TURN]
    players = world[S.PLAYERS]
    zero_sum = players == 2
    stats[ST_ABORTED] = 0
    stats[ST_NODES] += 1
    for i in range(n_root):
        S.copy_into(states[1], world)
        apply_action(states[1], root_moves[i], rng)
        ex = line_value(np.int64(1), turn, mover, -1.0, 2.0, zero_sum, prune, weights, states, moves,
                        values, kmask, kdil, seen, feats, rng, stats)
        if stats[ST_ABORTED] != 0:
            return False
        for p in range(players):
            row[i, p] = values[1][p]
        row_exact[i] = ex
    for i in range(n_root):
        for p in range(players):
            totals[i, p] += row[i, p]
        if not row_exact[i]:
            exact[i] = False
    return True


class EndgameScratch:
    """The work arrays of ``exact_ending`` (about 1 MB), made once and reused."""

    def __init__(self):
        self.states = np.empty((MAX_PLY, S.STATE_SIZE), dtype=np.int64)
        self.moves = np.empty((MAX_PLY, S.MAX_MOVES), dtype=np.int64)
        self.values = np.empty((MAX_PLY, 4), dtype=np.float64)
        self.kmask = np.empty((MAX_KINGDOMS, 3), dtype=np.uint64)
        self.kdil = np.empty((MAX_KINGDOMS + 5, 3), dtype=np.uint64)
        self.seen = np.empty(SEEN_SIZE, dtype=np.int64)
        self.feats = np.empty((4, N_FEATURES), dtype=np.float64)
        self.row = np.empty((S.MAX_MOVES, 4), dtype=np.float64)
        self.row_exact = np.empty(S.MAX_MOVES, dtype=np.bool_)
        self.world = np.empty(S.STATE_SIZE, dtype=np.int64)

    def arrays(self):
        return (self.states, self.moves, self.values, self.kmask, self.kdil, self.seen, self.feats,
                self.row, self.row_exact)


class EndingResult:
    """What ``solve_ending`` found: ``moves`` is a list of (code, mean reward, exact) per
    legal root move, best first (ties in code order); ``stats`` the summed counters
    (nodes, lines, inexact lines, grouped moves), ``seconds`` the wall time."""

    def __init__(self, moves, worlds, stats, seconds):
        self.moves = moves
        self.worlds = worlds
        self.stats = stats
        self.seconds = seconds

    @property
    def move(self):
        return self.moves[0][0]

    @property
    def exact(self):
        """Every line of every world was exact."""
        return all(e for _, _, e in self.moves)

    def reward_of(self, code):
        for a, r, _ in self.moves:
            if a == code:
                return r
        raise KeyError(code)

    def to_dict(self):
        from tne_ai.core.notation import move_text
        return {"moves": [{"move": move_text(a), "reward": r, "exact": e} for a, r, e in self.moves],
                "worlds": self.worlds, "nodes": int(self.stats[ST_NODES]),
                "lines": int(self.stats[ST_LINES]), "inexact_lines": int(self.stats[ST_INEXACT]),
                "grouped": int(self.stats[ST_GROUPED]), "seconds": self.seconds}


MAX_WORLDS = 10_000


def solve_ending(state, worlds=8, seed=0, weights=None, scratch=None, prune=True, work=None):
    """Exact endings from ``state`` (a Position or a state array) for the player to act:
    ``worlds`` determinizations of his information set (seeded), each solved by
    ``exact_ending``.  Returns an ``EndingResult``: per legal root move the mean over the
    worlds of the best reward he can reach after it, and whether every line was exact.
    ``work`` (None: no limit) bounds the work of all the worlds together (decisions searched
    plus lines scored, ``ST_LIMIT``): the world that reaches it is given up, and the result
    is that of the worlds solved before it, or None when there were none."""
    from tne_ai.errors import TneError
    from tne_ai.limits import MAX_SEED, clip
    st = getattr(state, "st", state)
    if not isinstance(st, np.ndarray) or st.shape != (S.STATE_SIZE,) or st.dtype != np.int64:
        raise TneError("solve_ending needs a Position or a state array")
    if isinstance(worlds, bool) or not isinstance(worlds, (int, np.integer)) or not 1 <= worlds <= MAX_WORLDS:
        raise TneError(f"worlds must be an integer 1 to {MAX_WORLDS}, not {clip(repr(worlds))}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise TneError(f"seed must be an integer 0 to {MAX_SEED}, not {clip(repr(seed))}")
    if int(st[S.PHASE]) == S.PH_OVER:
        raise TneError("the game is over: no move to solve")
    w = model_weights() if weights is None else np.asarray(weights, dtype=np.float64)
    sc = scratch if scratch is not None else EndgameScratch()
    root_moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    n = legal_moves(st, root_moves)
    totals = np.zeros((n, 4), dtype=np.float64)
    exact = np.ones(n, dtype=np.bool_)
    stats = np.zeros(ST_SIZE, dtype=np.int64)
    stats[ST_LIMIT] = NO_LIMIT if work is None else int(work)
    rng = make_rng(seed)
    viewer = np.int64(st[S.TO_ACT])
    start = time.perf_counter()
    solved = 0
    for _ in range(int(worlds)):
        determinize(st, viewer, rng, sc.world)
        if not exact_ending(sc.world, root_moves, np.int64(n), np.bool_(prune), w, *sc.arrays(), rng,
                            stats, totals, exact):
            break
        solved += 1
    if solved == 0:
        return None
    worlds = solved
    seconds = time.perf_counter() - start
    rows = [(int(root_moves[i]), float(totals[i, viewer]) / worlds, bool(exact[i])) for i in range(n)]
    rows.sort(key=lambda r: (-r[1], r[0]))
    return EndingResult(rows, int(worlds), stats, seconds)
