"""Record tests/data/regression_games.json: the pinned regression fixture of
tests/test_regression.py.  It was recorded from the engine before the kernels were split into
rule-named kernels and freed of allocation (SPEC/DESIGN unchanged); rerun this script only if
the rules themselves change, never to make a failing refactor pass.

Per game (seed g = 0..199, players 2 + g % 3, Position.new(seed=g), RNG make_rng(g)):
the moves drawn by ``random_move`` (the playout kernel), a SHA-256 of every legal move list
met on the way (``legal_moves``), and a SHA-256 of the final state buffer.  Plus, for the
bench's path, ``shuffled_start`` + ``random_game``: moves made and the final state; and
``determinize`` of positions met in the seeded games (every 25th move, each viewer)."""
import hashlib
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tne_ai.core import state as S  # noqa: E402
from tne_ai.core.rules.apply import apply_action  # noqa: E402
from tne_ai.core.rules.movegen import legal_moves, random_move  # noqa: E402
from tne_ai.core.rules.playout import random_game, shuffled_start  # noqa: E402
from tne_ai.core.rules.rng import make_rng  # noqa: E402
from tne_ai.position import Position, start_state  # noqa: E402
from tne_ai.search.determinize import determinize  # noqa: E402

GAMES = 200
FULL_BAG = "r" * 47 + "b" * 36 + "g" * 30 + "k" * 30


def play(game):
    pos = Position.new(players=2 + game % 3, seed=game)
    st = pos.st
    rng = make_rng(game)
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    listed = np.empty(S.MAX_MOVES, dtype=np.int64)
    legal_hash = hashlib.sha256()
    played = []
    while st[S.PHASE] != S.PH_OVER:
        n = legal_moves(st, listed)
        legal_hash.update(listed[:n].tobytes())
        a = int(random_move(st, rng, moves))
        played.append(a)
        apply_action(st, a, rng)
    return {"players": 2 + game % 3, "moves": played, "legal_sha256": legal_hash.hexdigest(),
            "final_sha256": hashlib.sha256(st.tobytes()).hexdigest()}


def playouts():
    out = []
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    for players in (2, 3, 4):
        template = start_state(players, FULL_BAG, deal=False)
        rng = make_rng(100 + players)
        for _ in range(20):
            st = shuffled_start(template, rng)
            made = int(random_game(st, rng, moves, 100000))
            out.append({"players": players, "made": made,
                        "final_sha256": hashlib.sha256(st.tobytes()).hexdigest()})
    return out


def determinizations():
    out = []
    for game in range(0, GAMES, 10):
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
        out.append({"game": game, "sha256": digest.hexdigest()})
    return out


def main(path):
    data = {"comment": "pinned regression fixture, recorded from the engine before the "
                       "rule-named kernel refactor; see tests/record_regression.py",
            "games": [play(g) for g in range(GAMES)], "playouts": playouts(),
            "determinize": determinizations()}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, separators=(",", ":"))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else
         os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "regression_games.json"))
