"""The fitted evaluation's features, the move kinds of the prior, leaf settling, the weights
file and the frozen baseline, on hand-built positions (values worked out by hand below)."""
import json
import math
import os

import numpy as np
import pytest

from helpers import load
from tne_ai.core import state as S
from tne_ai.errors import TneError
from tne_ai.core.notation import move_text, parse_move
from tne_ai.position import Position
from tne_ai.core.rules.rng import make_rng
from tne_ai.search import features as F
from tne_ai.search import priors as P
from tne_ai.search.evaluate import evaluate_model, load_weights, save_weights, settle
from tne_ai.search.session import search

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def scene():
    """Player 0: black leader on F4 next to the temple F3 (with its treasure), black tiles
    G3, G4, H3 in that kingdom.  Player 1: red leader on I8 next to the temple I7, a red
    tile on H7.  Hands rrbggk and rrrrbb; the 24-tile default bag; player 0 took the
    treasure of P2, the other nine are on their temples."""
    return load(tiles={"G3": "k", "G4": "k", "H3": "k", "H7": "r"},
                treasures=["K1", "B2", "F3", "N5", "I7", "B8", "O9", "F10", "K11"],
                leaders=[(0, "black", "F4"), (1, "red", "I8")],
                hands=["rrbggk", "rrrrbb"],
                scores=[{"red": 2, "blue": 1, "green": 3, "black": 4, "treasure": 1},
                        {"red": 5, "blue": 5, "green": 5}])


def test_features_of_a_hand_built_position():
    p = scene()
    out = np.zeros((4, F.N_FEATURES))
    assert F.features(p.st, np.empty((16, 3), dtype=np.uint64), out) == 2
    # player 0: totals r2 b1 g3 k4, his treasure goes to blue: 2 2 3 4.  Hand 6, 2 red, 1
    # black (his one leader's colour).  Kingdom: black G3 G4 H3 = 3.  Revolt margin: 1
    # temple + 2 red - 4 (player 1's red) - 1 = -2.  No rival black leader: war margin 3.
    # No trader, no monument, 2 catastrophes, no rival in his kingdom, his turn.
    me = [2, 2, 3, 4, 1, 6, 2, 1, 1, 3, -2, 3, 0, 0, 2, 0, 1]
    # player 1: r5 b5 g5 k0, no treasure: 0 5 5 5.  Hand 6, 4 red, no blue/green/black
    # leader.  Kingdom I8 I7 H7: 2 red tiles.  Revolt margin 1 + 4 - 2 - 1 = 2.  War 3.
    them = [0, 5, 5, 5, 0, 6, 4, 0, 1, 2, 2, 3, 0, 0, 2, 0, 0]
    stage = 1 - 24 / 131  # 24 tiles in the bag (more than the 1/8 of one treasure gone)
    assert out[0, :F.N_BASE].tolist() == me
    assert out[1, :F.N_BASE].tolist() == them
    assert np.allclose(out[0, F.N_BASE:], np.array(me) * stage)
    assert np.allclose(out[1, F.N_BASE:], np.array(them) * stage)


@pytest.mark.parametrize("players,bag_start", [(2, 131), (3, 125), (4, 119)])
def test_the_game_stage_is_0_at_the_deal_of_every_player_count(players, bag_start):
    """The bag after the deal: 153 tiles less the 10 starting temples less 6 per hand (SPEC
    section 1), and all ten treasures on their temples: nothing of the game is gone yet."""
    for seed in (1, 2):
        p = Position.new(players, seed=seed)
        assert int(S.bag_total(p.st)) == bag_start
        assert F.stage(p.st) == 0.0


@pytest.mark.parametrize("players,bag,treasures,expected", [
    # 3 players: 125 tiles after the deal, 50 left -> 3/5 of the bag gone; 8 treasures on
    # the board -> 2 of the 8 that can go are gone (1/4): the bag's share decides
    (3, 50, 8, 1 - 50 / 125),
    # 4 players: 119 after the deal, 95 left -> 24/119 gone (about 0.20); 5 treasures left
    # -> 5 of 8 gone (0.625): the treasures' share decides
    (4, 95, 5, 5 / 8),
    # 2 players: 131 after the deal, 24 left -> 107/131 gone
    (2, 24, 9, 1 - 24 / 131),
])
def test_the_game_stage_counts_from_the_bag_of_the_games_own_player_count(players, bag, treasures,
                                                                         expected):
    start = ["K1", "B2", "F3", "N5", "I7", "B8", "O9", "F10", "K11", "P2"]
    kept = start[:treasures]
    scores = [{"treasure": 10 - treasures}] + [{}] * (players - 1)
    mix = "r" * 35 + "b" * 30 + "k" * 20 + "g" * 10      # 95 tiles the board and hands leave
    p = load(players=players, bag=mix[:bag], treasures=kept, scores=scores)
    assert int(S.bag_total(p.st)) == bag
    assert F.stage(p.st) == pytest.approx(expected)


def test_model_win_chances_are_a_softmax_of_the_values():
    p = scene()
    w = np.zeros(F.N_FEATURES)
    w[F.F_SORTED] = 1.0          # value = lowest colour: 2 against 0
    out = np.zeros(4)
    evaluate_model(p.st, w, np.empty((16, 3), dtype=np.uint64), np.zeros((4, F.N_FEATURES)), out)
    assert out[0] == pytest.approx(math.exp(2) / (math.exp(2) + 1))
    assert out[1] == pytest.approx(1 / (math.exp(2) + 1))


def test_per_count_weights_use_the_vector_of_the_games_player_count():
    """Weights of 3 * N_FEATURES: the vectors of 2, 3 and 4 players one after another.  A
    3-player game reads only the middle one: there value = 1 x lowest colour, and the lowest
    colours are 2, 1 and 0, so the chances are e^2, e^1, e^0 over their sum; the 2- and
    4-player vectors (value = -5 x lowest) would give the reverse order."""
    p = load(players=3, hands=["rrbggk", "rrbggk", "rrbggk"],
             scores=[{"red": 2, "blue": 2, "green": 2, "black": 2}, {"red": 1, "blue": 1, "green": 1, "black": 1},
                     {}])
    w = np.zeros(3 * F.N_FEATURES)
    w[F.F_SORTED] = -5.0
    w[F.N_FEATURES + F.F_SORTED] = 1.0
    w[2 * F.N_FEATURES + F.F_SORTED] = -5.0
    out = np.zeros(4)
    evaluate_model(p.st, w, np.empty((16, 3), dtype=np.uint64), np.zeros((4, F.N_FEATURES)), out)
    total = math.exp(2) + math.exp(1) + 1
    assert out[:3].tolist() == pytest.approx([math.exp(2) / total, math.exp(1) / total, 1 / total])
    # the 2-player scene reads the first vector: lowest colours 2 and 0, value -5 x lowest
    evaluate_model(scene().st, w, np.empty((16, 3), dtype=np.uint64), np.zeros((4, F.N_FEATURES)), out)
    assert out[0] == pytest.approx(math.exp(-10) / (math.exp(-10) + 1))


def test_weights_files_of_one_vector_and_of_one_per_count_both_load(tmp_path):
    prior = np.zeros(P.N_KINDS)
    for length in (F.N_FEATURES, 3 * F.N_FEATURES):
        w = np.arange(length, dtype=np.float64)
        save_weights(tmp_path / "w.npz", w, prior)
        assert load_weights(tmp_path / "w.npz")[0].tolist() == w.tolist()
    np.savez(tmp_path / "two.npz", weights=np.zeros(2 * F.N_FEATURES), features=np.array(F.FEATURE_NAMES),
             prior=prior, kinds=np.array(P.KIND_NAMES))
    with pytest.raises(TneError, match="do not match"):
        load_weights(tmp_path / "two.npz")


def kind_of(p, move):
    masks = np.empty((P.N_MASKS, 3), dtype=np.uint64)
    P.prepare(p.st, np.empty((16, 3), dtype=np.uint64), masks)
    return P.KIND_NAMES[P.move_kind(p.st, masks, parse_move(move))]


@pytest.mark.parametrize("move,kind", [
    ("tile black H4", "tile_monument"),   # completes G3 H3 G4 H4, black monuments unbuilt
    ("tile red H4", "tile_mine"),         # joins his kingdom: no red leader, his king scores
    ("tile blue E3", "tile_mine_low"),    # river next to F3: his king scores blue, his lowest
    ("tile red J8", "tile_rival"),        # next to I8: player 1's red leader scores it
    ("tile green C6", "tile_alone"),      # nothing next to C6
    ("leader red F2", "leader_join"),     # next to the temple F3 of his kingdom
    ("leader red H8", "leader_revolt"),   # next to I8's kingdom, which has a red leader
    ("leader red K10", "leader_new"),     # next to the lone temple K11
    ("leader black F2", "leader_move"),   # his black leader is on F4 already
    ("catastrophe C6", "cat_nothing"),
    ("catastrophe G3", "cat_own"),
    ("catastrophe H7", "cat_rival"),
    ("swap rr", "swap"),
    ("pass", "pass"),
])
def test_move_kinds(move, kind):
    p = scene()
    assert parse_move(move) in p.legal_codes()
    assert kind_of(p, move) == kind


def test_every_legal_move_has_exactly_one_kind():
    p = scene()
    masks = np.empty((P.N_MASKS, 3), dtype=np.uint64)
    P.prepare(p.st, np.empty((16, 3), dtype=np.uint64), masks)
    for code in p.legal_codes():
        hits = 0
        if code < S.A_WITHDRAW:
            colour, square = (code % 704) // 176, (code % 704) % 176
            kinds = range(P.K_TILE_MONUMENT, P.K_TILE_RIVAL + 1) if code < S.A_LEADER \
                else range(P.K_LEADER_REVOLT, P.K_LEADER_NEW + 1)
            hits = sum(bool(masks[P.KIND_ROW[k] + colour, square >> 6] >> np.uint64(square & 63) & np.uint64(1))
                       for k in kinds)
            assert hits == 1, code
        elif S.A_CATASTROPHE <= code < S.A_SWAP:
            square = code - S.A_CATASTROPHE
            hits = sum(bool(masks[P.KIND_ROW[k], square >> 6] >> np.uint64(square & 63) & np.uint64(1))
                       for k in range(P.K_CAT_RIVAL, P.K_CAT_OTHER + 1))
            assert hits == 1, code


def test_widening_opens_the_best_kind_first_and_each_further_child_of_a_kind_counts_less():
    """A node opens the kind with the best weight - log(1 + children of that kind open).
    Weights: tile_mine 1.0, tile_alone 0.5, every other kind -10.  First: a tile that scores
    for player 0 (1.0 > 0.5).  With one such child open, tile_mine scores 1 - log 2 = 0.31 <
    0.5: the second child is a tile next to no kingdom."""
    p = scene()
    w = np.full(P.N_KINDS, -10.0)
    w[P.K_TILE_MINE] = 1.0
    w[P.K_TILE_ALONE] = 0.5
    moves = np.array(sorted(p.legal_codes()), dtype=np.int64)
    stamp = 7
    legal_stamp = np.zeros(S.N_ACTIONS, dtype=np.int64)
    legal_stamp[moves] = stamp
    child_stamp = np.zeros(S.N_ACTIONS, dtype=np.int64)
    kmask = np.empty((16, 3), dtype=np.uint64)
    masks = np.empty((P.N_MASKS, 3), dtype=np.uint64)
    counts = np.zeros(P.N_KINDS)
    rng = make_rng(1)
    action = np.array([-1, -1], dtype=np.int32)   # node 0 and, once opened, its child 1
    sibling = np.array([-1, -1], dtype=np.int32)
    first = P.pick_untried(p.st, moves, len(moves), legal_stamp, stamp, child_stamp, stamp, w, -1,
                           sibling, action, kmask, masks, counts, rng)
    assert kind_of(p, move_text(first)) == "tile_mine"
    action[1] = first
    child_stamp[first] = stamp
    second = P.pick_untried(p.st, moves, len(moves), legal_stamp, stamp, child_stamp, stamp, w, 1,
                            sibling, action, kmask, masks, counts, rng)
    assert kind_of(p, move_text(second)) == "tile_alone"


def test_settle_fights_a_pending_revolt_by_the_greedy_rule():
    """Player 0 puts his red leader on H8, next to player 1's red leader on I8: a revolt.
    Attacker: 1 temple (H7) and 2 red in hand; 1 + 2 > 1 (I7 for the defender), so he
    commits both.  Defender: needs 1 + 2 - 1 = 2 of his 4 red; 3 against 3, the tie goes to
    the defender (SPEC section 4).  The attacker's leader returns to his supply, the defender
    scores one red, the four committed tiles leave the game, and player 0 has his second
    action to choose."""
    p = scene()
    p.push("leader red H8")
    assert p.st[S.PHASE] == S.PH_REVOLT
    st = p.st.copy()
    settle(st, make_rng(0), np.empty(S.MAX_MOVES, dtype=np.int64))
    assert st[S.PHASE] == S.PH_ACTION and st[S.TO_ACT] == 0 and st[S.ACTIONS_LEFT] == 1
    assert st[S.LEADER_SQ + 0] == -1                      # player 0's red leader: supply
    assert st[S.SCORE + 5 * 1 + 0] == 6                    # player 1: red 5 + 1
    assert st[S.HAND + 0] == 0 and st[S.HAND + 4] == 2     # red in hand: 0 and 4 - 2
    assert st[S.OUT_OF_GAME + 0] == 4


def test_weights_file_round_trip_and_bad_files(tmp_path):
    w = np.arange(F.N_FEATURES, dtype=np.float64)
    prior = -np.arange(P.N_KINDS, dtype=np.float64)
    path = tmp_path / "w.npz"
    save_weights(path, w, prior, {"games": 3})
    got_w, got_prior = load_weights(path)
    assert got_w.tolist() == w.tolist() and got_prior.tolist() == prior.tolist()
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(TneError, match="not a weights file"):
        load_weights(tmp_path / "junk.npz")
    np.savez(tmp_path / "short.npz", weights=w[:5], features=np.array(F.FEATURE_NAMES[:5]),
             prior=prior, kinds=np.array(P.KIND_NAMES))
    with pytest.raises(TneError, match="do not match"):
        load_weights(tmp_path / "short.npz")


def test_the_frozen_baseline_reproduces_the_search_it_froze():
    """tests/data/baseline_search.json is a pinned regression fixture: the root statistics of
    the search before the fitted evaluation, the priors and widening existed.  The baseline
    options must give them back exactly."""
    with open(os.path.join(ROOT, "tests", "data", "baseline_search.json")) as f:
        cases = json.load(f)["cases"]
    assert len(cases) == 4
    for case in cases:
        pos = Position.from_json(case["position"])
        r = search(pos.st, iterations=case["iterations"], threads=case["threads"],
                   seed=case["seed"], evaluation="basic", prior="none", widen=0)
        got = [[int(a), int(v), round(float(m), 9)] for a, v, m in r.alternatives]
        assert (r.move, r.nodes, got) == (case["move"], case["nodes"], case["alternatives"])


def _completes_by_hand(st, c, s):
    """The rule read square by square: a tile of c on s is one corner of a 2x2 block whose
    other three squares hold face-up tiles of c (SPEC section 5)."""
    def tile(q):
        w = int(st[S.BB_TILE + 3 * c + (q >> 6)]) & (2 ** 64 - 1)
        return (w >> (q & 63)) & 1 == 1
    if tile(s):
        return False
    r, col = divmod(s, 16)
    for top in (r - 1, r):
        for left in (col - 1, col):
            if top < 0 or left < 0 or top + 1 > 10 or left + 1 > 15:
                continue
            corners = [(top + i) * 16 + left + j for i in (0, 1) for j in (0, 1)]
            if all(q == s or tile(q) for q in corners):
                return True
    return False


def test_block_completers_match_the_rule_square_by_square():
    """The bitboard squares that complete a 2x2 block equal the square-by-square reading, on a
    hand-built board with blocks at the board's edges and corners (where a shift would wrap
    into the next row) and on random positions."""
    from tne_ai.matches.bench import positions_at
    p = Position.new(2, seed=1)
    st = p.st.copy()
    for c in range(4):
        st[S.BB_TILE + 3 * c:S.BB_TILE + 3 * c + 3] = 0
    words = st[S.BB_TILE + 3:S.BB_TILE + 6].view(np.uint64)   # colour 1's face-up tiles
    for q in (0, 1, 16,        # top-left corner: 17 completes
              14, 15, 30,      # top-right corner: 31 completes (32 is the next row)
              160, 161, 144,   # bottom-left corner: 145 completes
              175, 174, 159,   # bottom-right corner: 158 completes
              62, 63, 78):     # across the word boundary (squares 63 / 64): 79 completes
        words[q >> 6] |= np.uint64(1) << np.uint64(q & 63)
    bb = st.view(np.uint64)
    got = P.block_completers(bb, 1)
    want = {s for s in range(176) if _completes_by_hand(st, 1, s)}
    have = {s for s in range(176) if (int(got[s >> 6]) >> (s & 63)) & 1}
    assert {17, 31, 145, 158, 79} <= want
    assert have == want
    checked = 0
    for ply in (40, 80, 120, 160):
        for pos in positions_at(2, ply, 40):
            bbp = pos.view(np.uint64)
            for c in range(4):
                got = P.block_completers(bbp, c)
                have = {s for s in range(176) if (int(got[s >> 6]) >> (s & 63)) & 1}
                assert have == {s for s in range(176) if _completes_by_hand(pos, c, s)}
                checked += len(have)
    assert checked > 0
