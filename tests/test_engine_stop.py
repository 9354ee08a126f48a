"""`tne engine` honours stop and quit whatever the budget (docs/PROTOCOL.md): an iteration
budget far beyond the time a client will wait, with 1 and with 64 threads, ends with a
bestmove within 1 s of stop, and quit ends the process within 1 s.  (The bound is the
protocol's promise to a GUI, measured from the line sent to the answer.)"""
import time

import pytest

from tne_ai.core.formats import position_to_dict
from tne_ai.position import Position

from engine_helpers import EngineProcess


def _view(p):
    return position_to_dict(p.st, [i == p.to_act for i in range(p.players)], False)


def _searching(e, threads):
    p = Position.new(2, seed=21)
    e.send({"type": "position", "position": _view(p)})
    e.send({"type": "go", "iterations": 10_000_000, "threads": threads})
    first = e.read()
    assert first["type"] == "info", first   # the search is under way
    return p


@pytest.mark.parametrize("threads", [1, 64])
def test_stop_ends_a_huge_iteration_budget_within_a_second(threads):
    e = EngineProcess()
    try:
        p = _searching(e, threads)
        sent = time.perf_counter()
        e.send({"type": "stop"})
        lines = e.until("bestmove")
        waited = time.perf_counter() - sent
        best = lines[-1]
        assert waited < 1.0, f"bestmove {waited:.2f} s after stop"
        assert best["move"] in [m.text() for m in p.legal_moves()]
        assert best["iterations"] < 10_000_000
        assert e.sync() == []          # the engine serves on
    finally:
        e.close()


@pytest.mark.parametrize("threads", [1, 64])
def test_quit_ends_the_process_within_a_second(threads):
    e = EngineProcess()
    try:
        _searching(e, threads)
        sent = time.perf_counter()
        e.send({"type": "quit"})
        assert e.proc.wait(timeout=60) == 0
        waited = time.perf_counter() - sent
        assert waited < 1.0, f"exit {waited:.2f} s after quit"
    finally:
        e.close()
