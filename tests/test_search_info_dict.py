"""SearchInfo.to_dict(): the one dict of a search's result, on hand-made results (no search
noise), and the faces that take their fields from it: the Python API's info dicts, the engine
protocol's info and bestmove lines (docs/PROTOCOL.md) and `tne bestmove --json`."""
from tne_ai.api import info_dicts
from tne_ai.core.notation import parse_move
from tne_ai.search.report import bestmove_json
from tne_ai.protocol.server import EngineServer
from tne_ai.search.session import MoveInfo, SearchInfo

A, B, C = (parse_move(t) for t in ("leader green K2", "leader red J1", "pass"))


def searched():
    """A 3-player search's result by hand: leader green K2 chosen (120 visits, mean
    0.123456), leader red J1 next (80 visits), pass never visited; 200 iterations over
    0.123456789 s, 10 visits inherited."""
    return SearchInfo(
        move=A, iterations=200, visits=210, nodes=187, seconds=0.123456789,
        moves=[MoveInfo(A, 120, 0.123456, [0.123456, 0.5, 0.376544], [A, B], [0.123456, None]),
               MoveInfo(B, 80, 0.66666666, None, [B], [0.66666666])],
        win_chances=[0.2, 0.33333333, 0.46666667],
        alternatives=[(A, 120, 0.123456), (B, 80, 0.66666666), (C, 0, 0.0)])


def test_the_dict_of_a_search():
    assert searched().to_dict() == {
        "move": "leader green K2", "code": A, "iterations": 200, "visits": 210, "nodes": 187,
        "seconds": 0.1235, "forced": False, "stopped": False, "exact": False,
        "win_chances": [0.2, 0.3333, 0.4667],
        "lines": [{"move": "leader green K2", "code": A, "visits": 120, "win": 0.1235,
                   "wins": [0.1235, 0.5, 0.3765], "pv": ["leader green K2", "leader red J1"],
                   "pv_win": [0.1235, None], "exact": None},
                  {"move": "leader red J1", "code": B, "visits": 80, "win": 0.6667,
                   "wins": None, "pv": ["leader red J1"], "pv_win": [0.6667], "exact": None}],
        "alternatives": [
            {"move": "leader green K2", "code": A, "visits": 120, "mean": 0.1235, "win": 0.1235},
            {"move": "leader red J1", "code": B, "visits": 80, "mean": 0.6667, "win": 0.6667},
            {"move": "pass", "code": C, "visits": 0, "mean": 0.0, "win": None}]}


def test_a_forced_move_has_no_win_chance():
    info = SearchInfo(move=C, moves=[MoveInfo(C, 0, 0.0, None, [C], [None])], iterations=0,
                      visits=0, nodes=1, seconds=0.0, win_chances=[0.0, 0.0], forced=True,
                      alternatives=[(C, 0, 0.0)])
    d = info.to_dict()
    assert d["forced"] is True and d["lines"][0]["win"] is None
    assert d["lines"][0]["pv_win"] == [None]
    assert d["alternatives"] == [{"move": "pass", "code": C, "visits": 0, "mean": 0.0,
                                  "win": None}]


def test_the_api_lines():
    assert info_dicts(searched(), multipv=2) == [
        {"multipv": 1, "move": "leader green K2", "code": A, "visits": 120, "win": 0.1235,
         "wins": [0.1235, 0.5, 0.3765], "pv": ["leader green K2", "leader red J1"],
         "iterations": 200, "nodes": 187, "seconds": 0.123, "exact": False},
        {"multipv": 2, "move": "leader red J1", "code": B, "visits": 80, "win": 0.6667,
         "wins": None, "pv": ["leader red J1"], "iterations": 200, "nodes": 187,
         "seconds": 0.123, "exact": False}]


def test_the_protocols_info_line():
    # iterations: the root's visits; seconds: the move's time, as the server measured it
    assert EngineServer._info(searched(), 1.23456789) == {
        "type": "info", "iterations": 210, "nodes": 187, "seconds": 1.2346,
        "move": "leader green K2", "win": 0.1235, "pv": ["leader green K2", "leader red J1"]}


def test_the_bestmove_json():
    d = bestmove_json(searched(), 0, "visits")
    assert (d["move"], d["iterations"], d["seconds"], d["nodes"], d["player"]) == \
        ("leader green K2", 210, 0.1235, 187, 0)
    assert (d["win"], d["pv"], d["pv_win"], d["forced"]) == \
        (0.1235, ["leader green K2", "leader red J1"], [0.1235, None], False)
    assert d["alternatives"] == [
        {"move": "leader green K2", "visits": 120, "mean": 0.1235, "win": 0.1235},
        {"move": "leader red J1", "visits": 80, "mean": 0.6667, "win": 0.6667},
        {"move": "pass", "visits": 0, "mean": 0.0, "win": None}]
    assert d["higher_win"] == ["leader red J1"]
