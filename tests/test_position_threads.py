"""Position.legal_codes from many threads at once gives every thread the same lists as a
single-threaded run (each call has its own move buffer; DESIGN: no shared scratch)."""
import sys
from concurrent.futures import ThreadPoolExecutor

from tne_ai.core.rules.rng import below, make_rng
from tne_ai.position import Position


def positions():
    """60 positions of random 2-4 player games, from the start to late in the game."""
    out = []
    for game in range(6):
        pos = Position.new(players=2 + game % 3, seed=game)
        rng = make_rng(game)
        ply = 0
        while not pos.is_over():
            if ply % 20 == 0:
                out.append(pos.copy())
            codes = pos.legal_codes()
            pos.push(codes[below(rng, len(codes))])
            ply += 1
    return out[:60]


def test_legal_moves_from_many_threads_match_a_single_thread():
    todo = positions()
    assert len(todo) == 60
    expected = [p.legal_codes() for p in todo]
    assert len({len(e) for e in expected}) > 10  # the lists differ from position to position

    def worker(start):
        got = []
        for r in range(5):
            for i in range(len(todo)):
                k = (start + 7 * r + i) % len(todo)
                got.append((k, todo[k].legal_codes()))
        return got

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        with ThreadPoolExecutor(max_workers=8) as pool:
            results = list(pool.map(worker, range(16)))
    finally:
        sys.setswitchinterval(old)
    for got in results:
        assert len(got) == 5 * len(todo)
        for k, codes in got:
            assert codes == expected[k], f"position {k}"
