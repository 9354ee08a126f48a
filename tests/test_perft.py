"""Move counts: every perft count of tests/data/perft (30 positions whose counts were worked
out by an independent implementation of SPEC)."""
import glob
import json
import os

import numpy as np
import pytest

from tne_ai.core import state as S
from tne_ai.core.rules.playout import perft
from tne_ai.core.rules.rng import make_rng
from tne_ai.position import Position

FILES = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "data", "perft", "perft_*.json")))


def test_perft_files_present():
    assert len(FILES) == 30


@pytest.mark.parametrize("path", FILES, ids=[os.path.basename(f) for f in FILES])
def test_perft(path):
    with open(path) as f:
        data = json.load(f)
    pos = Position.from_json(data["position"])
    rng = make_rng(0)
    for depth, expected in sorted(data["perft"].items()):
        depth = int(depth)
        stack = np.empty((depth, S.MAX_MOVES), dtype=np.int64)
        assert perft(pos.st.copy(), depth, rng, stack) == expected, f"perft({depth})"
