"""OpenSpiel interoperability (tne_ai.interop.openspiel): the pyspiel game, its resampler and the
OpenSpiel agents.  open_spiel must be installed (extra ``openspiel``): without it these tests
fail at import, they do not skip."""
import numpy as np
import pytest

import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import tne_ai.interop.openspiel as O
from helpers import redeal_hidden_hands
from tne_ai.core import state as S
from tne_ai.agents.builtin import AgentSpecError, make_agent
from tne_ai.core.board import COLOUR_LETTERS, TILES_PER_COLOUR
from tne_ai.core.rules.rng import make_rng
from tne_ai.interop.env.encode import OBS_SIZE, V, V_BAG, V_HAND, V_HAND_SIZE
from tne_ai.core.notation import parse_move
from tne_ai.position import Position, start_state
from tne_ai.search.determinize import determinize

# 153 tiles: 57 red (10 of them start on the board as temples), 36 blue, 30 green, 30 black
START_BAG = [47, 36, 30, 30]
RED, BLUE, GREEN, BLACK = range(4)


def hand(state, p):
    return [int(x) for x in state.st[S.HAND + 4 * p:S.HAND + 4 * p + 4]]


def hand_sizes(state):
    return [sum(hand(state, p)) for p in range(state.num_players())]


def expected_returns(places):
    firsts = places.count(1)
    return [1.0 / firsts if place == 1 else 0.0 for place in places]


def ended_by_the_rules(state):
    """Over as the rules end a game: two treasures or fewer left on the board, or a refill
    the bag could not cover (every tile left in it is owed to someone)."""
    st = state.st
    words = st.view(np.uint64)
    treasures = sum(bin(int(w)).count("1") for w in words[S.BB_TREASURE:S.BB_TREASURE + 3])
    bag_left = int(st[S.BAG_COUNT:S.BAG_COUNT + 4].sum() - st[S.DRAWS_OWED:S.DRAWS_OWED + 4].sum())
    return st[S.PHASE] == S.PH_OVER and (treasures <= 2 or bag_left == 0)


def play_random(game, seed):
    """A uniformly random game through pyspiel (chance outcomes sampled from
    chance_outcomes()).  Checks every chance node against a bag counted here; returns the
    events: ('move', turn before the move, player, code, legal actions) and ('draw', player
    who got the tile, colour)."""
    rs = np.random.RandomState(seed)
    state = game.new_initial_state()
    n = game.num_players()
    bag = list(START_BAG)
    events = []
    while not state.is_terminal():
        assert state.returns() == [0.0] * n
        if state.is_chance_node():
            assert state.current_player() == pyspiel.PlayerId.CHANCE
            outcomes = state.chance_outcomes()
            total = sum(bag)
            assert [c for c, _ in outcomes] == [c for c in range(4) if bag[c] > 0]
            assert [p for _, p in outcomes] == \
                pytest.approx([bag[c] / total for c in range(4) if bag[c] > 0])
            colour = int(rs.choice([c for c, _ in outcomes], p=[p for _, p in outcomes]))
            before = hand_sizes(state)
            state.apply_action(colour)
            gained = [q for q in range(n) if hand_sizes(state)[q] == before[q] + 1]
            assert len(gained) == 1
            bag[colour] -= 1
            events.append(("draw", gained[0], colour))
        else:
            player = state.current_player()
            legal = state.legal_actions()
            assert legal == sorted(legal) and len(legal) > 0
            code = int(rs.choice(legal))
            events.append(("move", int(state.st[S.TURN]), player, code, legal))
            state.apply_action(code)
    return state, events, bag


def ordered_bag(events, n, rest):
    """The bag order that deals the same tiles to the same players in an engine game with
    an ordered bag: there a refill draws for the active player first, then clockwise (the
    OpenSpiel state settles the same draws clockwise from the next player), so every run of
    draws is reordered clockwise from the player whose turn it was."""
    letters = []
    turn = 0
    batch = []
    for event in events + [("end",)]:
        if event[0] == "draw":
            batch.append(event)
            continue
        batch.sort(key=lambda e: (e[1] - turn) % n)  # stable: each player's own order kept
        letters += [COLOUR_LETTERS[e[2]] for e in batch]
        batch = []
        if event[0] == "move":
            turn = event[1]
    for c in range(4):
        letters += [COLOUR_LETTERS[c]] * rest[c]
    return "".join(letters)


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2)])
def test_random_game_matches_the_engine(players, seed):
    game = pyspiel.load_game("python_tigris_euphrates", {"players": players})
    assert game.num_players() == players
    assert game.num_distinct_actions() == S.N_ACTIONS
    assert game.max_chance_outcomes() == 4
    assert game.max_game_length() == O.MOVE_CAP == 2000
    state, events, rest = play_random(game, seed)
    # the deal: 6 draws per player before the first move, player 0's six first
    first_move = next(i for i, e in enumerate(events) if e[0] == "move")
    assert first_move == 6 * players
    assert [e[1] for e in events[:first_move]] == [p for p in range(players) for _ in range(6)]
    # the same game in the engine with an ordered bag: same legal moves at every decision
    position = Position(start_state(players, ordered_bag(events, players, rest)))
    for event in events:
        if event[0] != "move":
            continue
        _, _, player, code, legal = event
        assert position.to_act == player
        assert position.legal_codes() == legal
        position.push(code)
    # the game ended by the rules, well before the move cap, and the returns are the ranking's
    assert state.is_terminal() and position.is_over() and ended_by_the_rules(state)
    assert state.moves < O.MOVE_CAP
    returns = state.returns()
    assert len(returns) == players and sum(returns) == pytest.approx(1.0)
    assert returns == pytest.approx(expected_returns(position.ranking()))
    assert [int(x) for x in state.st[S.SCORE:S.SCORE + 5 * players]] == \
        [int(x) for x in position.st[S.SCORE:S.SCORE + 5 * players]]


def test_start_state_and_move_cap():
    game = pyspiel.load_game("python_tigris_euphrates", {"players": 3, "max_moves": 1})
    assert game.max_game_length() == 1
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [colour for colour, _ in outcomes] == [0, 1, 2, 3]
    assert [p for _, p in outcomes] == pytest.approx([47 / 143, 36 / 143, 30 / 143, 30 / 143])
    for _ in range(18):
        state.apply_action(BLUE)
    assert state.current_player() == 0
    assert hand(state, 0) == hand(state, 1) == hand(state, 2) == [0, 6, 0, 0]
    # one move ends the game at the cap; nobody could score yet (no leader on the board), so
    # the three players share first place
    state.apply_action(state.legal_actions()[0])
    assert state.is_terminal()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == pytest.approx([1 / 3, 1 / 3, 1 / 3])


@pytest.mark.parametrize("players,serialize", [(2, True), (4, False)])
def test_openspiel_conformance(players, serialize):
    # OpenSpiel's own checks over random games: clones, strings for every player at every
    # node, chance outcomes, returns, (de)serialization
    pyspiel.random_sim_test(O.load_game(players), num_sims=2, serialize=serialize, verbose=False)


def test_bad_parameters():
    with pytest.raises(O.OpenSpielError, match="players must be 2, 3 or 4"):
        pyspiel.load_game("python_tigris_euphrates", {"players": 5})
    with pytest.raises(O.OpenSpielError, match="max_moves"):
        pyspiel.load_game("python_tigris_euphrates", {"max_moves": 0})


def swap_code(counts):
    return S.A_SWAP + [tuple(int(x) for x in row) for row in S.SWAP_COUNTS].index(tuple(counts))


def test_strings_show_own_hand_and_others_swaps_by_count():
    state = O.load_game(2).new_initial_state()
    for c in [RED] * 6 + [BLACK] * 6:
        state.apply_action(c)
    obs0 = state.observation_string(0)
    assert "hand r6 b0 g0 k0" in obs0 and "k6" not in obs0
    assert "hand r0 b0 g0 k6" in state.observation_string(1)
    state.apply_action(swap_code((2, 0, 0, 0)))  # player 0 discards two red face down
    assert state.is_chance_node()
    state.apply_action(GREEN)
    state.apply_action(GREEN)
    assert hand(state, 0) == [4, 0, 2, 0]
    info0 = state.information_state_string(0)
    info1 = state.information_state_string(1)
    assert "moves 0:swap rr" in info0
    assert "moves 0:swap 2" in info1 and "swap rr" not in info1
    assert "hidden discards 2" in info1 and "hand sizes 6 6" in info1
    assert "moves" not in state.observation_string(1)
    assert state.information_state_string() == info0  # player 0 still to act
    # in a world sampled for player 1, player 0's swap is known only by its count
    world = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))
    assert world.information_state_string(1) == info1
    assert "moves 0:swap 2" in world.information_state_string(0)


def test_resample_keeps_the_information_state():
    game = O.load_game(3)
    state, _, _ = play_random(game, 7)  # a finished game: replay it to points along the way
    history = state.history()
    sampler = pyspiel.UniformProbabilitySampler(11, 0.0, 1.0)
    checked = 0
    hidden_changed = 0
    for cut in range(40, len(history), 45):
        s = game.new_initial_state()
        for a in history[:cut]:
            s.apply_action(a)
        if s.is_chance_node():
            continue
        for p in range(3):
            info = s.information_state_string(p)
            for _ in range(3):
                r = s.resample_from_infostate(p, sampler)
                assert r.information_state_string(p) == info
                assert r.observation_string(p) == s.observation_string(p)
                assert r.current_player() == s.current_player()
                assert hand(r, p) == hand(s, p)
                others = [q for q in range(3) if q != p]
                if any(hand(r, q) != hand(s, q) for q in others):
                    hidden_changed += 1
                # every tile is somewhere: board, monuments, out of game, hands, hidden
                # discards or the bag
                st = r.st
                bb = st.view(np.uint64)
                on_board = sum(bin(int(w)).count("1") for w in bb[S.BB_TILE:S.BB_TILE + 12])
                flipped = sum(bin(int(w)).count("1") for w in bb[S.BB_FLIP:S.BB_FLIP + 3])
                total = (on_board + flipped + st[S.OUT_OF_GAME:S.OUT_OF_GAME + 4].sum()
                         + st[S.HAND:S.HAND + 12].sum() + st[S.HIDDEN_DISCARDS]
                         + st[S.BAG_COUNT:S.BAG_COUNT + 4].sum())
                assert total == TILES_PER_COLOUR.sum()
                assert st[S.BAG_ORDERED] == S.BAG_EXTERNAL
                if p == s.current_player():
                    assert r.legal_actions() == s.legal_actions()
                checked += 1
    assert checked >= 9
    assert hidden_changed > checked // 2  # the other hands are really redealt


def run_ismcts_game(players, seed):
    game = O.load_game(players)
    rs = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, O.EngineRolloutEvaluator(seed=seed), 0.7, 5, random_state=rs)
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    calls = []

    def resample(state, player):
        calls.append(player)
        return state.resample_from_infostate(player, sampler)

    bot.set_resampler(resample)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(int(rs.choice([c for c, _ in outcomes], p=[p for _, p in outcomes])))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state, calls


@pytest.mark.parametrize("players", [2, 3])
def test_ismcts_bot_plays_complete_games(players):
    state, calls = run_ismcts_game(players, seed=players)
    assert ended_by_the_rules(state)  # not by the move cap
    assert sum(state.returns()) == pytest.approx(1.0)
    assert set(calls) == set(range(players))  # every player searched through the resampler


def test_ismcts_bot_with_openspiel_rollouts():
    # OpenSpiel's own random-rollout evaluator, playing through pyspiel: a few moves
    game = O.load_game(2)
    rs = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(random_state=rs), 0.7, 3,
                           random_state=rs)
    state = game.new_initial_state()
    for _ in range(12):
        state.apply_action(RED)
    moves = 0
    while moves < 3:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1


def midgame(seed, moves=60):
    position = Position.new(2, seed=seed)
    agent = make_agent("random", seed=seed)
    for _ in range(moves):
        position.push(agent.choose(position))
    return position


def test_openspiel_mcts_never_sees_the_true_hands(monkeypatch):
    seen = []
    original = mcts.MCTSBot.step

    def recording_step(bot, state):
        seen.append(state.st.copy())
        return original(bot, state)

    monkeypatch.setattr(mcts.MCTSBot, "step", recording_step)
    differs = 0
    for seed in range(5):
        position = midgame(seed)
        me = position.to_act
        other = 1 - me
        if len(position.legal_codes()) == 1:
            continue
        agent = make_agent(f"openspiel-mcts:simulations=5,seed={seed}")
        agent.choose(position)
        searched = seen[-1]
        # what the agent searched is the determinization its seeded RNG deals
        expected = np.empty_like(position.st)
        determinize(position.st, me, make_rng(seed), expected)
        assert list(searched[S.HAND:S.HAND + 8]) == list(expected[S.HAND:S.HAND + 8])
        assert list(searched[S.HAND + 4 * me:S.HAND + 4 * me + 4]) == \
            list(position.st[S.HAND + 4 * me:S.HAND + 4 * me + 4])
        assert searched[S.BAG_ORDERED] == S.BAG_EXTERNAL
        assert not searched[S.BAG:S.BAG + S.BAG_WORDS].any()
        if list(searched[S.HAND + 4 * other:S.HAND + 4 * other + 4]) != \
                list(position.st[S.HAND + 4 * other:S.HAND + 4 * other + 4]):
            differs += 1
    assert len(seen) >= 4 and differs >= 3


@pytest.mark.parametrize("kind", ["openspiel-mcts", "openspiel-ismcts"])
def test_same_move_whatever_the_hidden_tiles(kind):
    position = midgame(4)
    me = position.to_act
    other = 1 - me
    # another world with the same information for the player to act: other hand, other bag
    world = np.empty_like(position.st)
    determinize(position.st, me, make_rng(99), world)
    assert list(world[S.HAND + 4 * other:S.HAND + 4 * other + 4]) != \
        list(position.st[S.HAND + 4 * other:S.HAND + 4 * other + 4])
    twin = Position(world)
    first = make_agent(f"{kind}:simulations=8,seed=5").choose(position)
    second = make_agent(f"{kind}:simulations=8,seed=5").choose(twin)
    assert first == second
    assert first in position.legal_codes()


def test_agents_play_a_complete_game():
    position = Position.new(2, seed=8)
    agents = [make_agent("openspiel-ismcts:simulations=5,seed=1"),
              make_agent("openspiel-mcts:simulations=5,seed=2")]
    while not position.is_over():
        position.push(agents[position.to_act].choose(position))  # push checks legality
    assert sorted(position.ranking())[0] == 1


def test_time_budget_and_specs():
    agent = make_agent("openspiel-ismcts:time=0.05,seed=3")
    assert agent.name == "openspiel-ismcts:time=0.05"
    position = midgame(2)
    for _ in range(2):
        code = agent.choose(position)
        position.push(code)
    assert agent.seconds_per_simulation > 0
    assert make_agent("openspiel-mcts:simulations=7,playout=python").name == \
        "openspiel-mcts:simulations=7,playout=python"
    with pytest.raises(AgentSpecError, match="simulations=0"):
        make_agent("openspiel-mcts:simulations=0")
    with pytest.raises(AgentSpecError, match="simulations=1 is out of range"):
        make_agent("openspiel-ismcts:simulations=1")  # ISMCTSBot needs 2
    with pytest.raises(AgentSpecError, match="playout=fast"):
        make_agent("openspiel-mcts:playout=fast")
    with pytest.raises(AgentSpecError, match="unknown option 'iterations'"):
        make_agent("openspiel-mcts:iterations=5")


# --- tensors (docs/OBSERVATION.md) ------------------------------------------------------------

def test_tensor_shapes_are_the_documented_ones():
    for players in (2, 4):
        game = O.load_game(players)
        assert game.observation_tensor_shape() == [5696] == [OBS_SIZE]
        assert game.information_state_tensor_shape() == [5696 + 4 * 11 + 1] == [O.INFO_SIZE]
        state = game.new_initial_state()
        assert len(state.observation_tensor(0)) == 5696
        assert len(state.information_state_tensor(players - 1)) == O.INFO_SIZE


def test_tensors_show_own_hand_and_count_moves_by_kind():
    game = O.load_game(2)
    state = game.new_initial_state()
    for c in [RED] * 6 + [BLACK] * 6:   # player 0 draws six red, player 1 six black
        state.apply_action(c)
    obs0 = np.array(state.observation_tensor(0))
    obs1 = np.array(state.observation_tensor(1))
    # counts divided by their scale (docs/OBSERVATION.md): 6 tiles a hand, 143 in the bag
    assert list(obs0[V + V_HAND:V + V_HAND + 4]) == [1, 0, 0, 0]
    assert list(obs1[V + V_HAND:V + V_HAND + 4]) == [0, 0, 0, 1]
    assert list(obs0[V + V_HAND_SIZE:V + V_HAND_SIZE + 2]) == [1, 1]
    assert obs0[V + V_BAG] == pytest.approx(131 / 143)
    state.apply_action(parse_move("leader red L1"))  # next to the temple at K1
    info0 = np.array(state.information_state_tensor(0))
    info1 = np.array(state.information_state_tensor(1))
    assert np.array_equal(info0[:OBS_SIZE], np.array(state.observation_tensor(0)))
    # counts / 100, moves made / the move cap (2,000)
    history0 = info0[OBS_SIZE:OBS_SIZE + 44].reshape(4, 11) * 100
    history1 = info1[OBS_SIZE:OBS_SIZE + 44].reshape(4, 11) * 100
    assert history0[0, 1] == pytest.approx(1) and history0.sum() == pytest.approx(1)  # itself: a leader
    assert history1[1, 1] == pytest.approx(1) and history1.sum() == pytest.approx(1)  # 1 seat after 1
    assert info0[-1] == pytest.approx(1 / 2000) and info1[-1] == pytest.approx(1 / 2000)
    # the draws are not moves; a swap is counted as a swap
    state.apply_action(swap_code((1, 0, 0, 0)))
    state.apply_action(GREEN)  # the draw replacing the discarded red
    info1 = np.array(state.information_state_tensor(1))
    assert info1[OBS_SIZE:OBS_SIZE + 44].reshape(4, 11)[1, 4] * 100 == pytest.approx(1)
    assert info1[-1] * 2000 == pytest.approx(2)


def test_resampled_worlds_keep_the_tensors():
    """A world drawn from p's information set shows p the same tensors (the others' hands
    and the bag are what resample_from_infostate changes)."""
    game = O.load_game(3)
    state, _, _ = play_random(game, 3)
    history = state.history()
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    checked = 0
    for cut in range(60, len(history), 70):
        s = game.new_initial_state()
        for a in history[:cut]:
            s.apply_action(a)
        for p in range(3):
            world = s.resample_from_infostate(p, sampler)
            assert world.observation_tensor(p) == s.observation_tensor(p)
            assert world.information_state_tensor(p) == s.information_state_tensor(p)
            checked += 1
    assert checked >= 9


_POLICY_GRADIENT = """
import json, sys
import numpy as np
import jax
sys.path.insert(0, "examples")
import openspiel_policy_gradient as example
result = {}
for shared in (True, False):
    pg = example.learners(seed=0, hidden=(16,), shared=shared)
    before = [[np.array(x) for x in jax.tree_util.tree_leaves(a.hk_net_params)] for a in pg]
    example.train(episodes=2, seed=0, max_moves=20, log=lambda text: None, pg=pg)
    changed = []
    for p in range(2):
        after = [np.array(x) for x in jax.tree_util.tree_leaves(pg[p].hk_net_params)]
        changed.append(len(after) == len(before[p]) > 0
                       and any(not np.array_equal(a, b) for a, b in zip(after, before[p])))
    result["shared" if shared else "per seat"] = {
        "same": pg[0] is pg[1], "changed": changed,
        "match": example.match(pg, games=2, max_moves=20)}
print(json.dumps(result))
"""


def test_openspiel_policy_gradient_learns_on_the_tensors():
    """OpenSpiel's own actor-critic (open_spiel.python.jax.policy_gradient) trains on the
    information state tensors of capped 2-player games (the networks change), then plays
    legal moves against OpenSpiel's random agent in both seats (examples/openspiel_policy_gradient.py;
    extra openspiel-jax).  In a fresh interpreter: JAX's threads must not be in the test
    process when later tests fork."""
    import json
    import os
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run([sys.executable, "-c", _POLICY_GRADIENT], cwd=root, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    # one network for both seats, or one a seat: every network trained (both seats' games
    # update the shared one), then one game in each seat
    assert result["shared"]["same"] is True and result["per seat"]["same"] is False
    for kind in ("shared", "per seat"):
        assert result[kind]["changed"] == [True, True], kind
        assert [sum(seat) for seat in result[kind]["match"]] == [1, 1], kind


def test_illegal_actions_are_refused():
    """pyspiel does not check a Python game's actions; the state does, and changes nothing."""
    state = O.load_game(2).new_initial_state()
    with pytest.raises(O.OpenSpielError, match="chance outcome 7 is not a colour"):
        state.apply_action(7)
    for c in [BLUE] * 6 + [BLACK] * 6:
        state.apply_action(c)
    before = state.st.copy()
    with pytest.raises(O.OpenSpielError, match="action 0 is not legal for player 0"):
        state.apply_action(parse_move("tile red A1"))  # player 0 holds no red tile
    with pytest.raises(O.OpenSpielError, match="is not legal"):
        state.apply_action(S.A_COMMIT)  # no conflict
    assert np.array_equal(state.st, before) and state.history() == \
        [BLUE] * 6 + [BLACK] * 6


# --- hidden information in the strings and tensors ---------------------------------------

def flip_hidden_openspiel(state, seat, rs):
    """A copy of the pyspiel state as seat sees it, with everything else changed: the other
    hands and the bag dealt anew from their tiles together (hand sizes and bag size kept),
    every other player's scores replaced, and the tiles of the other players' swaps in the
    move history replaced (SPEC section 7: hands, the bag and swapped tiles are hidden; the
    observation tensor hides the others' scores too)."""
    out = state.clone()
    st = out._core.st.copy()
    bag = [c for c in range(4) for _ in range(int(st[S.BAG_COUNT + c]))]
    others, pool = redeal_hidden_hands(st, seat, bag, rs)
    st[S.BAG_COUNT:S.BAG_COUNT + 4] = np.bincount(np.array(pool, dtype=np.int64), minlength=4)
    for q in others:
        st[S.SCORE + 5 * q:S.SCORE + 5 * q + 5] = rs.integers(0, 30, 5)
    out._core.st = st
    out._core.public = None
    history = []
    for q, public, full in out._core.history:
        if q != seat and public.startswith(f"{q}:swap "):
            count = int(public.split()[1])
            letters = full.split()[1]
            full = f"{q}:swap " + ("k" * count if letters != "k" * count else "r" * count)
        history.append((q, public, full))
    out._core.history = history
    return out


def views(state, p):
    return (state.observation_string(p), state.information_state_string(p),
            state.observation_tensor(p), state.information_state_tensor(p))


def swap_happy_states(players, seed, every=17):
    """Clones of a random pyspiel game (chance nodes included) every few nodes; a swap is
    chosen whenever one is legal with probability 1/4, so that the history holds swaps."""
    rs = np.random.RandomState(seed)
    state = O.load_game(players).new_initial_state()
    found = []
    node = 0
    while not state.is_terminal():
        if node % every == 0:
            found.append(state.clone())
        node += 1
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(int(rs.choice([c for c, _ in outcomes], p=[p for _, p in outcomes])))
            continue
        legal = state.legal_actions()
        swaps = [a for a in legal if S.A_SWAP <= a < S.A_PASS]
        state.apply_action(int(rs.choice(swaps if swaps and rs.random_sample() < 0.25 else legal)))
    found.append(state.clone())
    return found


def assert_views_hide(states, players, rs):
    """For every state and player: the strings and tensors do not change when the hidden
    information does, and do change with the player's own scores (which they show)."""
    checked = 0
    for state in states:
        for p in range(players):
            seen = views(state, p)
            for _ in range(2):
                flipped = flip_hidden_openspiel(state, p, rs)
                others = [q for q in range(players) if q != p]
                assert any(not np.array_equal(flipped.st[S.SCORE + 5 * q:S.SCORE + 5 * q + 5],
                                              state.st[S.SCORE + 5 * q:S.SCORE + 5 * q + 5])
                           for q in others)
                assert views(flipped, p) == seen
                checked += 1
            own = state.clone()
            own._core.st = state.st.copy()
            own._core.st[S.SCORE + 5 * p + BLUE] += 1
            changed = views(own, p)
            assert changed[0] != seen[0] and changed[1] != seen[1]
            assert changed[2] != seen[2] and changed[3] != seen[3]
    return checked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_strings_and_tensors_hide_what_a_player_cannot_see(players):
    """Every player's observation and information state (strings and tensors) stay the same
    when the other hands, the bag, the other players' scores and the tiles of their swaps
    change: at every kind of decision (states of random engine games) and along a pyspiel
    game with swaps in its history, chance nodes included."""
    from test_env_encode import KINDS, kind_of, sample_kinds
    rs = np.random.default_rng(players)
    game = O.load_game(players)
    by_kind = sample_kinds(players, seed=players, per_kind=1)
    states = [O.state_from_array(game, found[0]) for found in by_kind.values()]
    assert sorted(kind_of(s.st) for s in states) == sorted(name for name, _, _ in KINDS)
    along = swap_happy_states(players, seed=players)
    assert any(s.is_chance_node() for s in along)
    assert any(" 1:swap " in s.information_state_string(0) for s in along)
    checked = assert_views_hide(states + along, players, rs)
    assert checked == 2 * players * (len(states) + len(along))


def test_a_player_sees_his_own_scores_only():
    state = O.load_game(3).new_initial_state()
    for _ in range(18):
        state.apply_action(RED)
    state._core.st[S.SCORE:S.SCORE + 15] = [1, 2, 3, 4, 0, 5, 6, 7, 8, 1, 9, 9, 9, 9, 2]
    state._core.public = None
    text = [state.observation_string(p) for p in range(3)]
    assert "score r1 b2 g3 k4 t0" in text[0] and "r5" not in text[0] and "r9" not in text[0]
    assert "score r5 b6 g7 k8 t1" in text[1] and "r1 b2" not in text[1] and "r9" not in text[1]
    assert "score r9 b9 g9 k9 t2" in text[2] and "r1 b2" not in text[2] and "r5" not in text[2]
    assert "scores r1 b2 g3 k4 t0; r5 b6 g7 k8 t1; r9 b9 g9 k9 t2" in str(state)
