"""The observation tensor and the action mask (tne_ai.interop.env.encode, docs/OBSERVATION.md)."""
import numpy as np
import pytest

from helpers import redeal_hidden_hands
from tne_ai.core import state as S
from tne_ai.core.board import RIVER_SQUARES, TEMPLE_SQUARES, parse_square
from tne_ai.core.rules.apply import apply_action
from tne_ai.core.rules.movegen import legal_moves, random_move
from tne_ai.core.rules.playout import deal_start
from tne_ai.core.rules.rng import make_rng
from tne_ai.interop.env import encode as E
from tne_ai.interop.env.vec import start_template
from tne_ai.core.notation import parse_move

# the decisions a seat can face (SPEC sections 3-5): the phase, and for a conflict whether
# the attacker has committed yet
KINDS = [("action", S.PH_ACTION, None), ("revolt, attacker", S.PH_REVOLT, False),
         ("revolt, defender", S.PH_REVOLT, True), ("war choice", S.PH_WAR_CHOICE, None),
         ("war, attacker", S.PH_WAR, False), ("war, defender", S.PH_WAR, True),
         ("monument", S.PH_MONUMENT, None), ("treasure", S.PH_TREASURE, None),
         ("game over", S.PH_OVER, None)]


def kind_of(st):
    phase = int(st[S.PHASE])
    committed = bool(st[S.CF_COMMIT] >= 0) if phase in (S.PH_REVOLT, S.PH_WAR) else None
    for name, ph, c in KINDS:
        if ph == phase and c == committed:
            return name
    raise AssertionError(f"unexpected phase {phase}")


def sample_kinds(players, seed, per_kind=3, max_games=400):
    """States of random games, up to per_kind of every decision kind."""
    rng = make_rng(seed)
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    template = start_template(players)
    found = {name: [] for name, _, _ in KINDS}
    st = np.empty(S.STATE_SIZE, dtype=np.int64)
    for _ in range(max_games):
        deal_start(template, rng, st)
        while True:
            kind = kind_of(st)
            if len(found[kind]) < per_kind:
                found[kind].append(st.copy())
            if st[S.PHASE] == S.PH_OVER:
                break
            apply_action(st, random_move(st, rng, moves), rng)
        if all(len(v) == per_kind for v in found.values()):
            break
    return found


def bag_tiles(st):
    return [int(S.bag_tile(st, i)) for i in range(int(st[S.BAG_LEN]))]


def flip_hidden(st, seat, seed):
    """The same state as seat sees it with every hidden thing changed: the other hands and
    the bag dealt anew from their tiles together (hand sizes and bag size kept), the bag
    order shuffled, and every other player's scores replaced."""
    rs = np.random.default_rng(seed)
    out = st.copy()
    others, pool = redeal_hidden_hands(out, seat, bag_tiles(st), rs)
    out[S.BAG:S.BAG + S.BAG_WORDS] = 0
    out[S.BAG_COUNT:S.BAG_COUNT + 4] = 0
    for i, c in enumerate(pool):
        S.set_bag_tile(out, i, int(c))
        out[S.BAG_COUNT + int(c)] += 1
    for p in others:
        out[S.SCORE + 5 * p:S.SCORE + 5 * p + 5] = rs.integers(0, 30, 5)
    return out


def observe(st, seat):
    out = np.empty(E.OBS_SIZE, dtype=np.float32)
    E.encode(st, seat, out)
    return out


@pytest.fixture(scope="module")
def kinds():
    return {players: sample_kinds(players, seed=players) for players in (2, 3, 4)}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_decision_kind_is_sampled(kinds, players):
    assert {k: len(v) for k, v in kinds[players].items()} == {name: 3 for name, _, _ in KINDS}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hidden_information_never_shows(kinds, players):
    """Flipping every tile and score a seat cannot see leaves its observation unchanged, for
    every seat in every decision kind; its own hand or scores changing does change it."""
    checked = 0
    for name, states in kinds[players].items():
        for k, st in enumerate(states):
            for seat in range(players):
                seen = observe(st, seat)
                for trial in range(3):
                    flipped = flip_hidden(st, seat, seed=1000 * k + 10 * seat + trial)
                    if players > 1:
                        # the flip really changed something the seat cannot see
                        assert not np.array_equal(flipped, st), name
                    assert np.array_equal(observe(flipped, seat), seen), (name, seat)
                    checked += 1
                own = st.copy()
                own[S.SCORE + 5 * seat] += 1
                assert not np.array_equal(observe(own, seat), seen)
    assert checked == len(KINDS) * 3 * players * 3


def test_start_position_by_hand():
    """Two players, seat 1, before any move: the board planes and counts from SPEC section 1
    (the river, ten temples with a treasure each, 6 tiles a hand, 143 - 12 = 131 in the bag)."""
    st = np.empty(S.STATE_SIZE, dtype=np.int64)
    deal_start(start_template(2), make_rng(5), st)
    obs = observe(st, 1)
    planes = obs[:E.BOARD_SIZE].reshape(E.N_PLANES, 11, 16)
    vec = obs[E.BOARD_SIZE:]
    assert sorted(np.flatnonzero(planes[E.P_RIVER])) == sorted(RIVER_SQUARES)
    assert sorted(np.flatnonzero(planes[E.P_TILE + 0])) == sorted(TEMPLE_SQUARES)
    assert sorted(np.flatnonzero(planes[E.P_TREASURE])) == sorted(TEMPLE_SQUARES)
    assert planes[E.P_TILE + 1:E.P_TILE + 4].sum() == 0
    assert planes[E.P_LEADER:E.P_LEADER + 16].sum() == 0
    # counts are divided by their field's scale: 6 tiles a hand, 2 catastrophes, 143 tiles
    # in a full bag, 10 treasures
    assert list(vec[E.V_HAND:E.V_HAND + 4]) == pytest.approx(list(st[S.HAND + 4:S.HAND + 8] / 6))
    assert list(vec[E.V_HAND_SIZE:E.V_HAND_SIZE + 4]) == [1, 1, 0, 0]
    assert list(vec[E.V_CATASTROPHES:E.V_CATASTROPHES + 4]) == [1, 1, 0, 0]
    assert vec[E.V_BAG] == pytest.approx(131 / 143)
    assert vec[E.V_TREASURES_LEFT] == 1
    # player 0's turn: relative player 1 of seat 1; two actions; the action phase
    assert list(vec[E.V_TURN:E.V_TURN + 4]) == [0, 1, 0, 0]
    assert vec[E.V_ACTIONS_LEFT] == 1  # 2 actions left, of 2
    assert vec[E.V_PHASE + S.PH_ACTION] == 1 and vec[E.V_PHASE:E.V_PHASE + 7].sum() == 1
    assert vec[E.V_ROLE + 2] == 0  # seat 1 does not act now
    assert list(vec[E.V_PLAYERS:E.V_PLAYERS + 3]) == [1, 0, 0]
    assert list(vec[E.V_SEAT:E.V_SEAT + 4]) == [0, 1, 0, 0]
    assert list(E.SCALE[E.V_OUT_OF_GAME:E.V_OUT_OF_GAME + 4]) == [57, 36, 30, 30]


def test_leader_planes_are_relative_to_the_seat():
    """Player 0 places its black leader next to a temple: seat 0 sees it as its own
    (relative player 0), seat 1 as relative player 1's."""
    st = np.empty(S.STATE_SIZE, dtype=np.int64)
    deal_start(start_template(2), make_rng(5), st)
    code = parse_move("leader black L1")  # K1 is a temple (SPEC section 1)
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    assert code in moves[:legal_moves(st, moves)]
    apply_action(st, code, make_rng(0))
    sq = parse_square("L1")
    for seat, rel in ((0, 0), (1, 1)):
        planes = observe(st, seat)[:E.BOARD_SIZE].reshape(E.N_PLANES, 176)
        assert list(np.flatnonzero(planes[E.P_LEADER:E.P_LEADER + 16].reshape(-1))) == \
            [(4 * rel + 3) * 176 + sq]


@pytest.mark.parametrize("players", [2, 4])
def test_update_equals_a_whole_encode(players):
    """encode_update, given the state it last encoded, writes exactly what encode writes,
    over random games whose seat to act changes (and across a new deal)."""
    rng = make_rng(players)
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    template = start_template(players)
    st = np.empty(S.STATE_SIZE, dtype=np.int64)
    shadow = np.zeros(E.SHADOW_SIZE, dtype=np.int64)
    shadow[S.STATE_SIZE] = -1
    out = np.full(E.OBS_SIZE, 7.0, dtype=np.float32)
    steps = 0
    for _ in range(3):
        deal_start(template, rng, st)
        while st[S.PHASE] != S.PH_OVER:
            seat = int(st[S.TO_ACT])
            E.encode_update(st, seat, shadow, out)
            assert np.array_equal(out, observe(st, seat))
            assert shadow[S.STATE_SIZE] == seat and np.array_equal(shadow[:S.STATE_SIZE], st)
            apply_action(st, random_move(st, rng, moves), rng)
            steps += 1
    assert steps > 300


def test_mask_is_the_legal_move_list():
    rng = make_rng(9)
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    st = np.empty(S.STATE_SIZE, dtype=np.int64)
    deal_start(start_template(3), rng, st)
    mask = np.zeros(S.N_ACTIONS, dtype=np.int8)
    old = np.empty(S.MAX_MOVES, dtype=np.int64)
    n_old = 0
    for _ in range(60):
        E.clear_mask(old, n_old, mask)
        n = legal_moves(st, moves)
        E.write_mask(moves, n, mask)
        assert list(np.flatnonzero(mask)) == sorted(moves[:n].tolist())
        old[:n] = moves[:n]
        n_old = n
        apply_action(st, random_move(st, rng, moves), rng)
