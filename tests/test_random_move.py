"""random_move draws uniformly from exactly the legal moves, without listing them."""
import numpy as np

from tne_ai.core import state as S
from tne_ai.matches.bench import sample_positions, start_template
from tne_ai.core.rules.movegen import legal_moves, random_move
from tne_ai.core.rules.rng import make_rng


def test_random_move_is_always_legal():
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    rng = make_rng(3)
    for players in (2, 3, 4):
        for ply in (0, 40, 120, 200):
            for st in sample_positions(start_template(players), make_rng(players * 1000 + ply), 30, ply, moves):
                legal = set(moves[:legal_moves(st, moves)].tolist())
                for _ in range(50):
                    assert int(random_move(st, rng, moves)) in legal


def test_random_move_is_uniform_with_board_leaders():
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    # a mid-game position where the player to act has leaders on the board, so leader moves
    # go through the superset-and-check path
    positions = sample_positions(start_template(2), make_rng(11), 200, 60, moves)
    st = next(s for s in positions if s[S.PHASE] == S.PH_ACTION
              and (s[S.LEADER_SQ + 4 * s[S.TO_ACT]:S.LEADER_SQ + 4 * s[S.TO_ACT] + 4] >= 0).sum() >= 2)
    legal = moves[:legal_moves(st, moves)].tolist()
    index = {m: i for i, m in enumerate(legal)}
    k = len(legal)
    draws = 300 * k
    counts = np.zeros(k)
    rng = make_rng(5)
    for _ in range(draws):
        counts[index[int(random_move(st, rng, moves))]] += 1
    assert counts.min() > 0
    expected = draws / k
    chi2 = ((counts - expected) ** 2 / expected).sum()
    # chi-square with k-1 degrees of freedom: mean k-1, sd sqrt(2(k-1)); 6 sd is p < 1e-6
    assert chi2 < (k - 1) + 6 * np.sqrt(2 * (k - 1))
