"""Bit-identical play against a pinned regression fixture (tests/data/regression_games.json,
recorded by tests/record_regression.py from the engine before its kernels were split into
rule-named kernels and freed of allocation): 200 seeded random games give the same moves,
the same legal move lists and the same final state; playouts from shuffled starts and
determinizations are unchanged too."""
import hashlib
import json
import os

import numpy as np
import pytest

from tne_ai.core import state as S
from tne_ai.core.rules.apply import apply_action
from tne_ai.core.rules.movegen import legal_moves, random_move
from tne_ai.core.rules.playout import random_game, shuffled_start
from tne_ai.core.rules.rng import make_rng
from tne_ai.position import Position, start_state
from tne_ai.search.determinize import determinize

with open(os.path.join(os.path.dirname(__file__), "data", "regression_games.json")) as f:
    FIXTURE = json.load(f)
FULL_BAG = "r" * 47 + "b" * 36 + "g" * 30 + "k" * 30


def test_fixture_size():
    assert len(FIXTURE["games"]) == 200 and len(FIXTURE["playouts"]) == 60
    assert len(FIXTURE["determinize"]) == 20


@pytest.mark.parametrize("chunk", range(4))
def test_seeded_games_are_bit_identical(chunk):
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    listed = np.empty(S.MAX_MOVES, dtype=np.int64)
    for game in range(chunk * 50, (chunk + 1) * 50):
        want = FIXTURE["games"][game]
        pos = Position.new(players=want["players"], seed=game)
        st = pos.st
        rng = make_rng(game)
        legal_hash = hashlib.sha256()
        played = []
        while st[S.PHASE] != S.PH_OVER:
            n = legal_moves(st, listed)
            legal_hash.update(listed[:n].tobytes())
            a = int(random_move(st, rng, moves))
            assert a == want["moves"][len(played)], f"game {game} move {len(played)}"
            played.append(a)
            apply_action(st, a, rng)
        assert played == want["moves"], f"game {game}"
        assert legal_hash.hexdigest() == want["legal_sha256"], f"game {game}: legal move lists"
        assert hashlib.sha256(st.tobytes()).hexdigest() == want["final_sha256"], f"game {game}"


def test_playouts_are_bit_identical():
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    got = []
    for players in (2, 3, 4):
        template = start_state(players, FULL_BAG, deal=False)
        rng = make_rng(100 + players)
        for _ in range(20):
            st = shuffled_start(template, rng)
            made = int(random_game(st, rng, moves, 100000))
            got.append({"players": players, "made": made,
                        "final_sha256": hashlib.sha256(st.tobytes()).hexdigest()})
    assert got == FIXTURE["playouts"]


def test_determinizations_are_bit_identical():
    for want in FIXTURE["determinize"]:
        game = want["game"]
        pos = Position.new(players=2 + game % 3, seed=game)
        rng = make_rng(game)
        moves = np.empty(S.MAX_MOVES, dtype=np.int64)
        sample = np.empty(S.STATE_SIZE, dtype=np.int64)
        digest = hashlib.sha256()
        ply = 0
        while pos.st[S.PHASE] != S.PH_OVER:
            if ply % 25 == 0:
                for viewer in range(pos.players):
                    determinize(pos.st, viewer, make_rng(ply * 7 + viewer), sample)
                    digest.update(sample.tobytes())
            apply_action(pos.st, int(random_move(pos.st, rng, moves)), rng)
            ply += 1
        assert digest.hexdigest() == want["sha256"], f"game {game}"
