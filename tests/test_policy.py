"""The move policy (search/policy.py): its move features on hand-built positions, its weights
file, its logit against the JAX of the fitting code, ``pick_scored`` and a search that uses
it.  Every expected value is worked out by hand below from SPEC.md and the feature table of
policy.py's docstring.  Map reminder (SPEC section 1): temples K1 and I7 (with treasures); the
centre block E4-M6 is land; I1, G8, H9, M7 are river."""
import math

import jax.numpy as jnp
import numpy as np
import pytest

from helpers import load
from tne_ai.core import state as S
from tne_ai.core.notation import parse_move
from tne_ai.core.rules.rng import make_rng
from tne_ai.errors import TneError
from tne_ai.matches import fit_policy as FP
from tne_ai.position import Position
from tne_ai.search import policy as PO
from tne_ai.search import priors as P
from tne_ai.search.session import search

RED, BLUE, GREEN, BLACK = range(4)


def features(p, text):
    """The policy features of the move text in position p (checked legal first)."""
    a = parse_move(text)
    assert a in p.legal_codes(), text
    kmask = np.empty((16, 3), np.uint64)
    masks = np.empty((P.N_MASKS, 3), np.uint64)
    P.prepare(p.st, kmask, masks)
    x = np.zeros(PO.N_MOVE_FEATURES, np.float32)
    PO.move_features(p.st, masks, a, x)
    return x


def expected(kind, colour=None, rank=None, temples=0, treasures=0, own=0, rival=0,
             kills_rival=0, kills_own=0, points=0.0, in_hand=0.0):
    x = np.zeros(PO.N_MOVE_FEATURES, np.float32)
    x[PO.PF_KIND + kind] = 1
    if colour is not None:
        x[PO.PF_COLOUR + colour] = 1
        x[PO.PF_RANK + rank] = 1
    x[PO.PF_TEMPLES], x[PO.PF_TREASURES] = temples, treasures
    x[PO.PF_OWN_LEADERS], x[PO.PF_RIVAL_LEADERS] = own, rival
    x[PO.PF_KILLS_RIVAL], x[PO.PF_KILLS_OWN] = kills_rival, kills_own
    x[PO.PF_POINTS], x[PO.PF_IN_HAND] = points, in_hand
    return x


def check(p, text, want):
    np.testing.assert_allclose(features(p, text), want, rtol=0, atol=1e-7, err_msg=text)


def test_tiles_next_to_temples_and_a_treasure_with_the_colour_rank():
    """No leader on the board: no kingdom (SPEC 2), so every tile is K_TILE_ALONE.  A red tile
    on J2.  Player 0 (to act, hand rrbggk) has red 3, blue 0, green 5, black 0.
    tile green J1: neighbours I1 (river), K1 (temple with treasure), J2 (red) -> 2 temples, 1
    treasure; green 5 beats red, blue, black -> rank 3; points 5/10; 2 green in hand -> 2/6.
    tile red K2: neighbours K1, J2 (red), K3, L2 -> 2 temples, 1 treasure; red 3 beats blue and
    black (0) -> rank 2; points 3/10; 2 red -> 2/6.
    tile black K3: neighbours K2, J3, L3, K4 all empty -> nothing; black 0 beats nobody -> rank
    0; points 0; 1 black -> 1/6."""
    p = load(tiles={"J2": "r"}, scores=[{"red": 3, "green": 5}, {}])
    check(p, "tile green J1", expected(P.K_TILE_ALONE, GREEN, 3, temples=2, treasures=1,
                                       points=0.5, in_hand=2 / 6))
    check(p, "tile red K2", expected(P.K_TILE_ALONE, RED, 2, temples=2, treasures=1,
                                     points=0.3, in_hand=2 / 6))
    check(p, "tile black K3", expected(P.K_TILE_ALONE, BLACK, 0, in_hand=1 / 6))


def test_leaders_next_to_temples_and_leaders():
    """Kingdom I6 (player 1's red leader) - I7 (temple, treasure) - J7 (player 0's green
    leader); a leaderless red tile on K6.  Player 0 (to act, hand rrbggk) has red 1, blue 2,
    green 2, black 0.
    leader red J6: neighbours J5 (empty), I6 (rival leader), K6 (red), J7 (own leader) -> 1
    temple, no treasure, 1 own, 1 rival; the kingdom holds a rival red leader -> revolt (K6's
    region has no leader: J6 touches one kingdom).  Red 1 beats black 0 -> rank 1; 0.1; 2/6.
    leader blue H7: neighbours H6, G7, H8 (empty), I7 (temple, treasure) -> 1 temple, 1
    treasure, no leader; next to the kingdom, no rival blue there -> K_LEADER_JOIN.  Blue 2
    beats red 1 and black 0, not green 2 (a tie) -> rank 2; 0.2; 1 blue -> 1/6."""
    p = load(tiles={"K6": "r"}, leaders=[(1, "red", "I6"), (0, "green", "J7")],
             scores=[{"red": 1, "blue": 2, "green": 2}, {}])
    check(p, "leader red J6", expected(P.K_LEADER_REVOLT, RED, 1, temples=1, own=1, rival=1,
                                       points=0.1, in_hand=2 / 6))
    check(p, "leader blue H7", expected(P.K_LEADER_JOIN, BLUE, 2, temples=1, treasures=1,
                                        points=0.2, in_hand=1 / 6))


def test_a_leader_moving_is_not_its_own_neighbour():
    """The position above; player 0 moves his green leader J7 -> J6 (SPEC: a leader on the
    board is lifted and placed again).  J6's neighbours: J5 (empty), I6 (rival red leader),
    K6 (red), J7 (the square the leader leaves: no leader there once it is lifted) -> 1
    temple, no own leader, 1 rival.  Green 2 beats red 1 and black 0 -> rank 2; 0.2; 2 green
    in hand -> 2/6."""
    p = load(tiles={"K6": "r"}, leaders=[(1, "red", "I6"), (0, "green", "J7")],
             scores=[{"red": 1, "blue": 2, "green": 2}, {}])
    check(p, "leader green J6", expected(P.K_LEADER_MOVE, GREEN, 2, temples=1, rival=1,
                                         points=0.2, in_hand=2 / 6))


def test_catastrophes_count_the_leaders_they_strand():
    """Player 1's blue leader on G5 with one temple next to it, the red tile G4 (and a green
    tile F5); player 0's black leader on L6 with two, red tiles L5 and M6.  Player 0 to act.
    catastrophe G4: removes G5's only temple (SPEC 3.4) -> kills 1 rival; G4's neighbours G3,
    F4, H4 (empty), G5 (rival) -> 0 temples, 1 rival; a tile of a kingdom with only a rival
    leader -> K_CAT_RIVAL.
    catastrophe F5: next to G5 but not a temple -> kills nobody; neighbours F4, F6, E5 empty.
    catastrophe L5: L6 keeps M6 -> kills 0; neighbours L4, K5, M5 empty, L6 own -> K_CAT_OWN.
    catastrophe H4: an empty square next to G4 (red) -> 1 temple, no leader; neither on a
    kingdom's tile nor next to nothing -> K_CAT_OTHER.  No colour, rank, points or hand."""
    p = load(tiles={"G4": "r", "F5": "g", "L5": "r", "M6": "r"},
             leaders=[(1, "blue", "G5"), (0, "black", "L6")])
    check(p, "catastrophe G4", expected(P.K_CAT_RIVAL, rival=1, kills_rival=1))
    check(p, "catastrophe F5", expected(P.K_CAT_RIVAL, rival=1))
    check(p, "catastrophe L5", expected(P.K_CAT_OWN, own=1))
    check(p, "catastrophe H4", expected(P.K_CAT_OTHER, temples=1))


def test_pass_swap_and_withdraw_have_only_their_kind():
    """The docstring: moves that are not tiles, leaders or catastrophes have only their kind;
    the priors table puts pass, swap and withdraw in K_PASS, K_SWAP and K_WITHDRAW.  Player 0
    (hand rrbggk, green leader on J7 next to the temple I7) may swap two reds and withdraw."""
    p = load(leaders=[(0, "green", "J7")], scores=[{"red": 3}, {}])
    check(p, "pass", expected(P.K_PASS))
    check(p, "swap rr", expected(P.K_SWAP))
    check(p, "withdraw green", expected(P.K_WITHDRAW))


def net_arrays(hidden=3, seed=7):
    """A seeded policy network's arrays (w, A, b, v) of that many hidden units."""
    rng = np.random.default_rng(seed)
    f = PO.N_MOVE_FEATURES
    return {"w": rng.standard_normal(f).astype(np.float32),
            "A": rng.standard_normal((f, hidden)).astype(np.float32),
            "b": rng.standard_normal(hidden).astype(np.float32),
            "v": rng.standard_normal(hidden).astype(np.float32)}


def _write_npz(path, **arrays):
    np.savez(str(path), **arrays)


def _truncated(path):
    PO.save_policy(path, net_arrays())
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])


def _wrong_shape(path):
    arrays = net_arrays()
    arrays["w"] = np.ones(5, np.float32)
    _write_npz(path, format=np.array(PO.POLICY_FORMAT), **arrays)


def _nan(path):
    arrays = net_arrays()
    arrays["A"][3, 1] = np.nan
    _write_npz(path, format=np.array(PO.POLICY_FORMAT), **arrays)


def _missing(path):
    arrays = net_arrays()
    del arrays["v"]
    _write_npz(path, format=np.array(PO.POLICY_FORMAT), **arrays)


def _other_format(path):
    _write_npz(path, format=np.array("tne-eval/1"), **net_arrays())


def _text(path):
    path.write_text("w = 1, 2, 3\n")


@pytest.mark.parametrize("make,fragment", [
    (_truncated, "not a policy weights file"),
    (_wrong_shape, f"shape (5,), not ({PO.N_MOVE_FEATURES},)"),
    (_nan, "'A' holds a value that is not a finite number"),
    (_missing, "it has no array 'v'"),
    (_other_format, "not a tne-policy/1 file"),
    (_text, "not a policy weights file"),
    (None, "no such file"),
])
def test_a_bad_policy_file_is_one_clear_error_naming_it(tmp_path, make, fragment):
    """load_policy's docstring: a TneError naming the file and what is wrong (unreadable,
    truncated, another format, a wrong shape, NaNs), as one line."""
    path = tmp_path / "policy.npz"
    if make is not None:
        make(path)
    with pytest.raises(TneError) as e:
        PO.load_policy(path)
    text = str(e.value)
    assert text.startswith(f"policy file {path}: ")
    assert fragment in text
    assert "\n" not in text


def test_a_saved_policy_loads_back(tmp_path):
    """save_policy then load_policy: the same float32 arrays, whatever the info kept."""
    arrays = net_arrays()
    PO.save_policy(tmp_path / "p.npz", arrays, info={"games": 400, "source": "test"})
    back = PO.load_policy(tmp_path / "p.npz")
    for name, a in zip(PO.POLICY_ARRAYS, back):
        assert a.dtype == np.float32
        assert a.tolist() == arrays[name].tolist()


def test_the_hidden_layer_by_hand():
    """x = (1, 2, 0, ...); w = (0.5, 0, ...); A's rows 0 and 1 are (1, -1) and (1, 0), b =
    (-1, 0.5), v = (2, 3).  Hidden: (-1 + 1 + 2, 0.5 - 1 + 0) = (2, -0.5), rectified (2, 0);
    logit 0.5 * 1 + 2 * 2 + 3 * 0 = 4.5."""
    f = PO.N_MOVE_FEATURES
    w = np.zeros(f, np.float32)
    w[0] = 0.5
    A = np.zeros((f, 2), np.float32)
    A[0], A[1] = (1, -1), (1, 0)
    net = (w, A, np.array([-1, 0.5], np.float32), np.array([2, 3], np.float32))
    x = np.zeros(f, np.float32)
    x[:2] = (1, 2)
    assert PO.features_logit(net, x, np.zeros(2, np.float32)) == pytest.approx(4.5, abs=1e-6)


def test_the_numba_logit_is_the_jax_forward_pass():
    """On every legal move of three positions (the scenes above and a new game), the kernel's
    logit (move_logit, score_moves) equals w . x + v . relu(x A + b) computed by JAX, for a
    seeded network of 8 hidden units; score_moves writes each move's kind as priors.move_kind
    gives it."""
    arrays = net_arrays(hidden=8)
    net = tuple(arrays[k] for k in PO.POLICY_ARRAYS)
    scratch = (np.zeros(PO.N_MOVE_FEATURES, np.float32), np.zeros(8, np.float32))
    positions = [load(tiles={"J2": "r"}, scores=[{"red": 3, "green": 5}, {}]),
                 load(tiles={"G4": "r", "L5": "r", "M6": "r"},
                      leaders=[(1, "blue", "G5"), (0, "black", "L6")]),
                 Position.new(2, seed=3)]
    kmask = np.empty((16, 3), np.uint64)
    masks = np.empty((P.N_MASKS, 3), np.uint64)
    moves = np.empty(S.MAX_MOVES, np.int64)
    rows = np.zeros((S.MAX_MOVES, PO.N_MOVE_FEATURES), np.float32)
    j = {k: jnp.asarray(v) for k, v in arrays.items()}
    for p in positions:
        n = FP._position_rows(p.st, kmask, masks, moves, rows)
        assert n == len(p.legal_codes()) and n > 20
        xs = jnp.asarray(rows[:n])
        want = np.asarray(xs @ j["w"] + jnp.maximum(xs @ j["A"] + j["b"], 0.0) @ j["v"])
        got = np.array([PO.move_logit(p.st, masks, moves[i], net, scratch) for i in range(n)])
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)
        scores = np.full(S.N_ACTIONS, np.nan)
        kinds = np.full(S.N_ACTIONS, -1, np.int64)
        PO.score_moves(p.st, masks, moves, n, net, scratch, scores, kinds)
        np.testing.assert_allclose(scores[moves[:n]], want, rtol=0, atol=1e-5)
        assert [int(kinds[a]) for a in moves[:n]] == [P.move_kind(p.st, masks, a) for a in moves[:n]]


def _toy():
    """Two decisions on feature column 0.  Group 0: x = 0, 1, 2, all visits on the third;
    group 1: two moves with x = 0, half the visits each."""
    x = np.zeros((5, PO.N_MOVE_FEATURES), np.float32)
    x[:3, 0] = [0, 1, 2]
    return {"x": x, "t": np.array([0, 0, 1, 0.5, 0.5], np.float32),
            "group": np.array([0, 0, 0, 1, 1]), "game": np.array([0, 1])}


def test_the_cross_entropy_of_numpy_and_of_the_jax_fit_agree_with_the_hand_value():
    """With w[0] = ln 2 the logits of group 0 are 0, ln 2, ln 4: softmax 1/7, 2/7, 4/7, so its
    cross-entropy is -ln(4/7); group 1's logits are equal: ln 2.  Mean (ln 2 - ln(4/7)) / 2.
    The JAX loss of fit_policy, by one Adam step: at w = 0 the gradient of w[0] is
    (E_p[x] - E_t[x]) / 2 = (1 - 2) / 2 < 0, so Adam's first step (lr * g / |g|) takes w[0] to
    exactly the learning rate, ln 2; with only column 0 free the held-out loss there is the
    mean above, and at w = 0 (no column free) it is (ln 3 + ln 2) / 2."""
    toy = _toy()
    linear = FP.init_policy(0, 0)            # no hidden unit: the linear term alone
    linear["w"][0] = math.log(2)
    hand = (math.log(2) - math.log(4 / 7)) / 2
    assert FP.policy_loss_np(linear, toy) == pytest.approx(hand, abs=1e-6)
    assert FP.policy_loss_np(FP.init_policy(0, 0), toy) == pytest.approx(math.log(6) / 2, abs=1e-6)
    fitted, report = FP.fit_policy(toy, toy, hidden=0, columns=[0], steps=1,
                                   learning_rate=math.log(2))
    assert fitted["w"][0] == pytest.approx(math.log(2), abs=1e-5)
    assert np.all(fitted["w"][1:] == 0)
    assert report["best"] == pytest.approx(hand, abs=1e-5)
    _, report = FP.fit_policy(toy, toy, hidden=0, columns=[], steps=1)
    assert report["best"] == pytest.approx(math.log(6) / 2, abs=1e-5)


def _open(opened):
    """The tree arrays of a root whose open children are the actions opened (first child,
    sibling, action; node 0 is the root), as search/tree.py chains them."""
    action = np.array([-1] + list(opened), np.int64)
    sibling = np.array([-1] + [i - 1 if i > 1 else -1 for i in range(1, len(opened) + 1)], np.int64)
    return (len(opened) if opened else -1), sibling, action


def _pick(moves, n, legal, child, stamp, scores, kinds, opened, rng):
    first, sibling, action = _open(opened)
    return PO.pick_scored(moves, n, legal, 1, child, stamp, scores, kinds, np.zeros(P.N_KINDS),
                          first, sibling, action, rng)


def test_pick_scored_takes_the_best_untried_legal_move():
    """Moves 2, 5, 7, 9 with scores -0.5, 3, -0.25, 9, each of its own kind: 9 is not legal
    now (stamp 0) and 5 was tried, so -0.25 (7) is the best; then -0.5 (2) once 7 is tried;
    then -1 with all tried."""
    moves = np.array([2, 5, 7, 9], np.int64)
    legal = np.array([0, 0, 1, 0, 0, 1, 0, 1, 0, 0], np.int64)
    child = np.zeros(10, np.int64)
    kinds = np.array([0, 0, 1, 0, 0, 2, 0, 3, 0, 4], np.int64)
    child[5] = 4
    scores = np.zeros(10)
    scores[[2, 5, 7, 9]] = [-0.5, 3.0, -0.25, 9.0]
    rng = make_rng(1)
    assert _pick(moves, 4, legal, child, 4, scores, kinds, [5], rng) == 7
    child[7] = 4
    assert _pick(moves, 4, legal, child, 4, scores, kinds, [5, 7], rng) == 2
    child[2] = 4
    assert _pick(moves, 4, legal, child, 4, scores, kinds, [5, 7, 2], rng) == -1


def test_pick_scored_breaks_ties_at_random():
    """Moves 1 and 3 share the best score 2 (move 0 has 1): over 40 seeds each is picked, and
    move 0 never (a reservoir over the tied moves)."""
    moves = np.array([0, 1, 3], np.int64)
    legal = np.ones(4, np.int64)
    child = np.zeros(4, np.int64)
    scores = np.array([1.0, 2.0, 0.0, 2.0])
    kinds = np.zeros(4, np.int64)
    picks = {_pick(moves, 3, legal, child, 9, scores, kinds, [], make_rng(s)) for s in range(40)}
    assert picks == {1, 3}


def test_pick_scored_discounts_each_further_child_of_a_kind():
    """Moves 0, 1, 2 of kind 0 score 2.0, 1.9, 1.8; move 3 of kind 1 scores 1.5.  Opened one by
    one, each scored less log(1 + its kind's open children): 0 (2.0); then 3 (1.5 against
    1.9 - ln 2 = 1.207); then 1 (1.207 against 1.8 - ln 2 = 1.107); then 2 (1.8 - ln 3).
    Without the discount the order would be 0, 1, 2, 3."""
    moves = np.array([0, 1, 2, 3], np.int64)
    legal = np.ones(4, np.int64)
    child = np.zeros(4, np.int64)
    scores = np.array([2.0, 1.9, 1.8, 1.5])
    kinds = np.array([0, 0, 0, 1], np.int64)
    opened = []
    for _ in range(4):
        a = _pick(moves, 4, legal, child, 7, scores, kinds, opened, make_rng(0))
        child[a] = 7
        opened.append(int(a))
    assert opened == [0, 3, 1, 2]


def test_a_search_with_the_policy_prior_plays_a_legal_move_deterministically():
    """prior="policy" (the shipped weights): a legal move of the new game, the same for the
    same seed."""
    p = Position.new(2, seed=3)
    first = search(p.st, iterations=300, seed=1, prior="policy")
    second = search(p.st, iterations=300, seed=1, prior="policy")
    assert first.move in p.legal_codes()
    assert first.iterations == 300
    assert second.move == first.move
