"""End-game tactics whose only winning move is of a kind the move-kind priors rank low (a
leader moved into a revolt, a catastrophe, a pass, a monument, a trader moved onto the last
treasures), and the exact endings that solve them (tne_ai/search/endgame.py).

Each position in tests/data/tactics_endgame/ (written by its build.py) carries the reasoning
worked out by hand from SPEC, the winning moves it names and one winning line.  Every tile is
accounted for but the other hands (and, in the treasure positions, a bag whose draws cannot
matter), so the hidden information is irrelevant: with 3 or 4 players the other hands hold
one colour only.  The tests check that the winning moves are legal, that the winning line,
played to its end, leaves the player to act first alone (SPEC 6), and that the exact solver
gives each winning move reward 1, exactly, and every other legal move less.

The default search (``Search``, every face's) scores such endings with the exact solver
(tne_ai/search/ending.py): the tests check that it plays a winning move in each position at
2,000 iterations (three seeds), reads only the mover's view, gives the same result for the
same seed, grows its worlds with the budget, hands a position whose worlds are too big to
the MCTS, and stops between worlds.
"""
import glob
import json
import os
import threading
import time

import numpy as np
import pytest

from helpers import legal
from tne_ai.core import state as S
from tne_ai.core.rules.apply import apply_action
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.core.rules.rng import make_rng
from tne_ai.core.rules.scoring import rewards
from tne_ai.errors import TneError
from tne_ai.core.notation import move_text
from tne_ai.core.formats import position_to_dict
from tne_ai.position import Position
from tne_ai.search import endgame
from tne_ai.search.config import SearchConfig
from tne_ai.search.endgame import ending_applies, solve_ending
from tne_ai.search.session import Search

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = sorted(glob.glob(os.path.join(HERE, "data", "tactics_endgame", "*.json")))
NAMES = [os.path.basename(f)[:-5] for f in FILES]


def load(name):
    with open(os.path.join(HERE, "data", "tactics_endgame", name + ".json")) as f:
        d = json.load(f)
    return d, Position.from_json(d["position"])


def test_twelve_positions_for_two_three_and_four_players():
    counts = {n: 0 for n in (2, 3, 4)}
    for name in NAMES:
        d, _ = load(name)
        counts[d["position"]["players"]] += 1
    assert len(NAMES) >= 12 and all(counts[n] >= 2 for n in counts), counts


@pytest.mark.parametrize("name", NAMES)
def test_winning_line_ends_the_game_with_the_mover_first(name):
    d, p = load(name)
    mover = p.to_act
    assert set(d["winning"]) <= set(legal(p)), sorted(set(d["winning"]) - set(legal(p)))
    assert d["line"][0] in d["winning"]
    q = Position(p.st.copy(), known_hands=[True] * p.players, bag_known=True, rng=p.rng.copy())
    for m in d["line"]:
        q.push(m)
    assert q.is_over()
    places = q.ranking()
    assert places[mover] == 1 and places.count(1) == 1, places


@pytest.mark.parametrize("name", NAMES)
def test_exact_solver_finds_exactly_the_hand_worked_moves(name):
    d, p = load(name)
    r = solve_ending(p, worlds=2, seed=5)
    assert {move_text(a) for a, _, _ in r.moves} == set(legal(p))
    for a, value, exact in r.moves:
        if move_text(a) in d["winning"]:
            assert value == 1.0 and exact, (move_text(a), value, exact)
        else:
            assert value < 1.0, (move_text(a), value)
    assert move_text(r.move) in d["winning"]


def test_trigger_on_the_rules_of_the_game_end():
    """SPEC 3: a short draw or 2 or fewer treasures end the game at the turn's end."""
    _, p = load("revolt_by_leader_move_2p")        # bag empty, the mover's hand short already
    assert ending_applies(p.st)
    _, p = load("trader_move_takes_the_last_treasure_2p")   # 3 treasures, a bag of 30
    assert ending_applies(p.st)
    start = Position.new(2, seed=3)                # 10 treasures, 119 tiles in the bag
    assert not ending_applies(start.st)
    st = start.st.copy()
    st[S.BAG_COUNT:S.BAG_COUNT + 4] = [1, 0, 0, 0]  # a bag of 1: two tiles played drain it
    st[S.BAG_LEN] = 1
    assert ending_applies(st)
    st[S.BAG_COUNT] = 2                            # 2 tiles left: two placed draw exactly 2
    st[S.BAG_LEN] = 2
    assert not ending_applies(st)


def test_solve_ending_refuses_bad_arguments():
    _, p = load("pass_keeps_monument_points_2p")
    for bad in (0, -1, True, 1.5, endgame.MAX_WORLDS + 1):
        with pytest.raises(TneError, match="worlds"):
            solve_ending(p, worlds=bad)
    with pytest.raises(TneError, match="seed"):
        solve_ending(p, seed=-1)
    with pytest.raises(TneError):
        solve_ending("not a position")
    q = Position(p.st.copy(), known_hands=[True] * p.players, bag_known=True, rng=p.rng.copy())
    q.push("pass")                                 # the refill is short: the game is over
    assert q.is_over()
    with pytest.raises(TneError, match="over"):
        solve_ending(q)


# --- the pruning is exact: a plain search of every line agrees ------------------------------

def plain_value(st, turn, mover, rng):
    """Every player's reward after st, every line of the turn played (no grouping, no cuts):
    each chooser takes his best reward, a non-mover's ties going against the mover."""
    n = int(st[S.PLAYERS])
    if st[S.PHASE] == S.PH_OVER:
        out = np.zeros(4)
        rewards(st, out)
        return out[:n]
    assert st[S.TURN] == turn, "a line went past the turn: not a position for this check"
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    k = legal_moves(st, moves)
    chooser = int(st[S.TO_ACT])
    best = None
    for a in moves[:k]:
        child = st.copy()
        apply_action(child, int(a), rng)
        v = plain_value(child, turn, mover, rng)
        if best is None or v[chooser] > best[chooser] or \
                (chooser != mover and v[chooser] == best[chooser] and v[mover] < best[mover]):
            best = v
    return best


def last_actions(players, want, seed):
    """Positions from seeded greedy self-play at the mover's last action whose game is over
    at the turn's end whatever he plays (the hands already lack more than the bag holds)."""
    from tne_ai.agents.builtin import make_agent
    found = []
    g = 0
    while len(found) < want and g < 40:
        p = Position.new(players, seed=seed + g)
        agents = [make_agent("greedy", seed=seed + 7 * g + i) for i in range(players)]
        while not p.is_over():
            st = p.st
            if int(st[S.PHASE]) == S.PH_ACTION and int(st[S.ACTIONS_LEFT]) == 1 \
                    and endgame.refill_need(st) > S.bag_total(st):
                found.append(p.copy())
                break
            p.push(agents[p.to_act].choose(p))
        g += 1
    assert len(found) == want
    return found


@pytest.mark.parametrize("players", [2, 3])
def test_grouping_and_cuts_change_no_value(players):
    for p in last_actions(players, 2, seed=11 * players):
        world = p.st.copy()             # the true hands: one world
        r = solve_ending(world, worlds=1, seed=0)
        mover = int(world[S.TO_ACT])
        rng = make_rng(0)
        for a, value, exact in r.moves:
            child = world.copy()
            apply_action(child, a, rng)
            plain = plain_value(child, int(world[S.TURN]), mover, rng)
            assert exact and value == plain[mover], (move_text(a), value, plain)


def test_endgame_kernels_allocate_nothing():
    from test_no_allocation import ALLOCATING, reached
    import inspect
    kernels = reached([endgame.exact_ending, endgame.ending_applies])
    assert "tne_ai.search.endgame.line_value" in kernels
    offenders = [n for n, d in kernels.items() if ALLOCATING.search(inspect.getsource(d.py_func))]
    assert offenders == []


def greedy_endings(players, game):
    """The action decisions of a seeded greedy self-play game where ``ending_applies`` holds,
    up to the first with one action left."""
    from tne_ai.agents.builtin import make_agent
    seed = 100 * players + game
    p = Position.new(players, seed=seed)
    agents = [make_agent("greedy", seed=seed + 7 * game + i) for i in range(players)]
    out = []
    while not p.is_over():
        st = p.st
        if int(st[S.PHASE]) == S.PH_ACTION and ending_applies(st):
            out.append(p.copy())
            if int(st[S.ACTIONS_LEFT]) == 1:
                break
        p.push(agents[p.to_act].choose(p))
    return out


@pytest.mark.parametrize("players, games", [(2, (2, 4)), (3, (0, 4)), (4, (1, 2))])
def test_pruned_values_equal_every_line_played(players, games):
    """Self-play endings with one and two actions left: wherever playing every line
    (``prune=False``) gives an exact value, the pruned solver gives the same, exact."""
    compared = 0
    for game in games:
        for p in greedy_endings(players, game):
            plain = solve_ending(p.st.copy(), worlds=1, seed=0, prune=False)
            fast = solve_ending(p.st.copy(), worlds=1, seed=0)
            assert fast.stats[endgame.ST_LINES] < plain.stats[endgame.ST_LINES]
            values = {a: (v, e) for a, v, e in fast.moves}
            for a, v, e in plain.moves:
                if e:
                    compared += 1
                    assert values[a] == (v, True), (move_text(a), values[a], v)
    assert compared >= 20


def test_same_seed_same_result_over_hidden_hands():
    """A self-play ending seen by the mover (the rival's hand and the bag unknown): the
    worlds are drawn from the seed, so the same seed gives the same values."""
    p = greedy_endings(3, 0)[-1]
    view = Position.from_json(p.to_json() | {"hands": [h if i == p.to_act else None
                                                        for i, h in enumerate(p.to_json()["hands"])]})
    a = solve_ending(view, worlds=3, seed=9)
    b = solve_ending(view, worlds=3, seed=9)
    assert a.moves == b.moves and len(a.moves) > 1


# --- the exact endings inside the default search (tne_ai/search/ending.py) -------------------

@pytest.mark.parametrize("name", NAMES)
def test_the_default_search_solves_each_at_2000_iterations(name):
    """The default agent (the mcts spec every face uses), three seeds: a hand-worked winning
    move, and the search says the win is exact (reward 1 in every world, every line ended)."""
    from tne_ai.agents.builtin import make_agent
    d, p = load(name)
    for seed in (1, 2, 3):
        agent = make_agent("mcts:iterations=2000", seed=seed)
        assert move_text(agent.choose(p)) in d["winning"], (name, seed)
        s = Search(p, SearchConfig(seed=seed))
        info = s.run(iterations=2000)
        assert info.exact and info.iterations == 2000
        assert move_text(info.move) in d["winning"]
        best = info.moves[0]
        assert best.win == 1.0 and best.exact and best.wins[p.to_act] == 1.0
        # the plan: the move, then the mover's best next actions of the turn, each won
        assert best.visits >= 1 and best.pv[0] == info.move and best.pv_win == [1.0] * len(best.pv)


def hidden_view(p):
    """The position as its player to act sees it: the other hands unknown (their sizes
    given), the bag left to the unseen pool (SPEC 9; formats.position_to_dict)."""
    return Position.from_json(position_to_dict(p.st, [i == p.to_act for i in range(p.players)],
                                               False))


def test_search_scores_the_mover_view_only_and_same_seed_same_result():
    """A self-play ending (3 players): the search of the full state and of the mover's view
    (other hands unknown) agree move for move, and a second search with the same seed gives
    the same values; another seed draws other worlds."""
    p = greedy_endings(3, 0)[-1]
    view = hidden_view(p)
    runs = [Search(x, SearchConfig(seed=4)).run(iterations=3000) for x in (p, view, view)]
    assert all(r.exact for r in runs)
    assert runs[0].alternatives == runs[1].alternatives == runs[2].alternatives
    assert runs[0].win_chances == runs[2].win_chances
    worlds = runs[0].moves[0].visits
    assert worlds >= 2 and all(v == worlds for _, v, _ in runs[0].alternatives)
    other = Search(view, SearchConfig(seed=5)).run(iterations=3000)
    assert other.exact and other.alternatives != runs[0].alternatives


def test_worlds_grow_with_the_budget_and_runs_continue():
    """More iterations, more worlds; two runs of 2,000 solve the worlds of one run of 4,000
    (one generator per thread, continued), and are charged the same iterations."""
    _, p = load("revolt_by_leader_move_3p")
    view = hidden_view(p)
    small = Search(view, SearchConfig(seed=2)).run(iterations=2000)
    big = Search(view, SearchConfig(seed=2)).run(iterations=8000)
    assert big.moves[0].visits > small.moves[0].visits >= 2
    s = Search(view, SearchConfig(seed=2))
    s.run(iterations=2000)
    twice = s.run(iterations=2000)
    once = Search(view, SearchConfig(seed=2)).run(iterations=4000)
    assert twice.iterations == once.iterations == 4000
    assert twice.alternatives == once.alternatives
    two = Search(view, SearchConfig(seed=2, threads=2)).run(iterations=4000)
    assert two.iterations == 4000 and two.exact
    assert two.alternatives == Search(view, SearchConfig(seed=2, threads=2)).run(iterations=4000).alternatives


def test_endings_off_and_positions_where_they_do_not_apply_use_the_mcts():
    _, p = load("revolt_by_leader_move_2p")
    off = Search(p, SearchConfig(seed=1, endings=False)).run(iterations=500)
    assert not off.exact and off.moves[0].exact is None and off.nodes > 1
    start = Search(Position.new(2, seed=3), SearchConfig(seed=1)).run(iterations=500)
    assert not start.exact and start.visits == 500
    assert SearchConfig.from_spec("mcts:endings=0").endings is False


def test_a_world_over_its_work_limit_is_given_up_and_the_mcts_searches(monkeypatch):
    """catastrophe_then_revolt_2p needs thousands of decisions a world (its second action's
    revolts): with a work limit of 10 units the world is given up, and the run is the MCTS's
    (its full budget of iterations, no exact flag)."""
    from tne_ai.search import ending
    monkeypatch.setattr(ending, "MIN_WORLD_WORK", 10)
    _, p = load("catastrophe_then_revolt_2p")
    s = Search(p, SearchConfig(seed=1))
    info = s.run(iterations=1)
    assert not info.exact and info.iterations == 1 and s.trees[0] is not None


def test_stop_ends_an_unbounded_ending_search_between_worlds():
    _, p = load("pass_keeps_monument_points_3p")
    s = Search(hidden_view(p), SearchConfig(seed=1))
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("info", s.run()))
    t.start()
    time.sleep(0.3)
    asked = time.perf_counter()
    s.stop()
    t.join(10)
    assert not t.is_alive() and time.perf_counter() - asked < 1.0
    info = out["info"]
    assert info.exact and info.moves[0].visits >= 1 and move_text(info.move) == "pass"


def test_reports_come_between_worlds():
    """Search.run(report=..., every=...) reports the worlds solved so far, as it reports the
    MCTS's rounds: each report exact, the worlds growing, the last one the run's result."""
    _, p = load("pass_keeps_monument_points_3p")
    s = Search(hidden_view(p), SearchConfig(seed=1))
    seen = []
    info = s.run(iterations=200_000, report=seen.append, every=0.001)
    assert seen and all(r.exact for r in seen)
    worlds = [r.moves[0].visits for r in seen]
    assert worlds == sorted(worlds) and worlds[-1] <= info.moves[0].visits
    assert info.iterations == 200_000


def test_the_engine_plays_an_ending_exactly():
    """``tne engine`` (one Search per go): the hand-worked winning move, win 1."""
    from engine_helpers import EngineProcess
    d, p = load("revolt_by_leader_move_2p")
    e = EngineProcess()
    try:
        e.send({"type": "position", "position": d["position"]})
        e.send({"type": "go", "iterations": 2000})
        best = e.until("bestmove")[-1]
        assert best["move"] in d["winning"] and best["win"] == 1.0
    finally:
        e.close()
