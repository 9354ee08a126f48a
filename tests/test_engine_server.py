"""`tne engine` as a subprocess, driven line by line (docs/PROTOCOL.md).

Expected behaviour comes from PROTOCOL.md (one error line per bad line, then the engine keeps
serving; bestmove after stop; no bestmove after quit) and from the rules (SPEC section 3: a
turn is two actions, so the best turn's plan has a second action exactly when the first was
the turn's first and drew nothing)."""
import pytest

import helpers
from engine_helpers import TIMEOUT, EngineProcess
from tne_ai.core.formats import position_to_dict
from tne_ai.position import Position


@pytest.fixture(scope="module")
def engine():
    e = EngineProcess()
    yield e
    e.close()


def view(p, player=None):
    """The position as ``player`` (default: the one to act) sees it: other hands null, no bag."""
    me = p.to_act if player is None else player
    return position_to_dict(p.st, [i == me for i in range(p.players)], False)


def legal_texts(p):
    return {str(m) for m in p.legal_moves()}


def test_hello_lists_options_with_types_and_ranges(engine):
    engine.send({"type": "hello", "protocol": 1})
    hello = engine.until("hello")[-1]
    assert hello["name"] == "tne" and hello["protocol"] == 1 and hello["version"]
    options = {o["name"]: o for o in hello["options"]}
    assert options["threads"]["type"] == "int"
    assert (options["threads"]["min"], options["threads"]["max"]) == (1, 64)
    assert options["reuse"]["type"] == "bool" and "min" not in options["reuse"]


@pytest.mark.parametrize("line, fragment", [
    ("hello there", "not valid JSON"),
    ('{"type": "fly"}', "unknown message type 'fly'"),
    ('{"type": "go", "iterations": 0}', 'go: option iterations=0 is out of range (1 <= x <= 10000000)'),
    ('{"type": "setoption", "name": "threads", "value": 65}', "option threads=65 is out of range (1 <= x <= 64)"),
    ('{"type": "setoption", "name": "c", "value": "high"}', "option c=high: expected a number"),
    ('{"type": "setoption", "name": "depth", "value": 3}', "unknown option 'depth'"),
    ('{"type": "position", "position": {"format": "tne-position/1"}}', "players: missing"),
])
def test_a_bad_line_gets_one_error_and_the_engine_serves_on(engine, line, fragment):
    engine.send(line)
    before = engine.sync()
    assert len(before) == 1 and before[0]["type"] == "error"
    assert fragment in before[0]["message"]


def test_a_null_budget_is_one_error_and_no_search(engine):
    """go with "iterations" or "time" null has no budget: one error, as a bare go gets
    (PROTOCOL.md), never a search without end.  No search runs after it: a position is
    taken, and the next go with a budget answers its bestmove."""
    p = Position.new(2, seed=3)
    engine.send({"type": "newgame"})
    engine.send({"type": "position", "position": view(p)})
    for go, message in [({"iterations": None}, "go: option iterations=null: needs a value"),
                        ({"time": None}, "go: option time=null: needs a value"),
                        ({"iterations": 50, "time": None}, "go: option time=null: needs a value"),
                        ({}, 'go: give "iterations", "time" (seconds) or "infinite": true')]:
        engine.send({"type": "go", **go})
        assert engine.sync() == [{"type": "error", "message": message}]
    engine.send({"type": "position", "position": view(p)})
    assert engine.sync() == []
    engine.send({"type": "go", "iterations": 50})
    best = engine.until("bestmove")[-1]
    assert best["iterations"] == 50 and best["move"] in legal_texts(p)


def test_setoption_null_is_the_default_of_an_option_whose_default_is_null(engine):
    """hello's default null is the engine's own choice: setoption may set it back; an
    option with a value for default (seed, threads, info_interval) refuses null."""
    engine.send({"type": "setoption", "name": "c", "value": 0.5})
    engine.send({"type": "setoption", "name": "c", "value": None})
    engine.send({"type": "setoption", "name": "weights", "value": None})
    assert engine.sync() == []
    for name in ("seed", "threads"):
        engine.send({"type": "setoption", "name": name, "value": None})
        assert engine.sync() == [{"type": "error",
                                  "message": f"setoption: option {name}=null: needs a value"}]
    engine.send({"type": "setoption", "name": "info_interval", "value": None})
    assert engine.sync() == [{"type": "error", "message": "setoption: option info_interval: "
                                                          "expected a number, not null"}]


def test_go_before_any_position_is_an_error():
    e = EngineProcess()
    try:
        e.send({"type": "go", "iterations": 10})
        [err] = e.sync()
        assert err["type"] == "error" and "no position" in err["message"]
    finally:
        e.close()


def test_go_answers_a_legal_move_and_plans_the_second_action(engine):
    p = Position.new(2, seed=11)
    engine.send({"type": "newgame"})
    engine.send({"type": "position", "position": view(p)})
    engine.send({"type": "go", "iterations": 1000})
    lines = engine.until("bestmove")
    best = lines[-1]
    infos = [m for m in lines if m["type"] == "info"]
    assert infos and infos[-1]["iterations"] == 1000
    assert infos[-1]["pv"] == best["pv"]  # the last info carries the whole plan
    assert all(len(m["pv"]) == 2 and m["pv"][0] == m["move"] for m in infos)
    assert best["move"] in legal_texts(p)
    assert 0.0 <= best["win"] <= 1.0
    # the start of a turn with no leader on the board: no conflict can follow, the player
    # still has his second action, so the plan is two moves, the second legal after the first
    assert len(best["pv"]) == 2 and best["pv"][0] == best["move"]
    q = p.copy()
    q.push(best["move"])
    assert q.to_act == p.to_act and best["pv"][1] in legal_texts(q)
    assert all(0.0 <= a["win"] <= 1.0 for a in best["alternatives"])
    # a second go in the same process, on the second action: its plan ends the turn
    engine.send({"type": "position", "position": view(q)})
    engine.send({"type": "go", "iterations": 1000})
    second = engine.until("bestmove")[-1]
    assert second["move"] in legal_texts(q) and second["pv"] == [second["move"]]


def test_the_hand_of_the_player_to_act_is_needed_and_no_other(engine):
    p = Position.new(2, seed=12)
    engine.send({"type": "position", "position": view(p, player=1)})
    [err] = engine.sync()
    assert "hand of player 0, who must act, is unknown" in err["message"]
    engine.send({"type": "position", "position": view(p, player=0)})
    assert engine.sync() == []


def test_a_game_record_and_a_ply(engine, tmp_path):
    from tne_ai.matches.tournament import run_tournament
    result = run_tournament({"r": "random", "g": "greedy"}, games=1, seed=3, max_moves=30)
    record = result.records[0]
    ply = 7
    p = Position.from_json(record["start"])
    for m in record["moves"][:ply]:
        p.push(m)
    engine.send({"type": "position", "game": record, "ply": ply})
    engine.send({"type": "go", "iterations": 300})
    best = engine.until("bestmove")[-1]
    assert best["move"] in legal_texts(p)
    engine.send({"type": "position", "game": record, "ply": 10 ** 5})
    [err] = engine.sync()
    assert "ply 100000" in err["message"] and "30 moves" in err["message"]


def test_stop_ends_go_infinite_with_a_bestmove(engine):
    p = Position.new(2, seed=13)
    engine.send({"type": "setoption", "name": "info_interval", "value": 0.05})
    engine.send({"type": "position", "position": view(p)})
    engine.send({"type": "go", "infinite": True})
    first = engine.read()
    assert first["type"] == "info" and first["move"] in legal_texts(p)
    # while a search runs only isready, stop and quit are taken; anything else is an error
    busy = [{"type": "position", "position": view(p)}, {"type": "hello"},
            {"type": "setoption", "name": "seed", "value": 1}, {"type": "newgame"},
            {"type": "go", "iterations": 10}]
    for line in busy:
        engine.send(line)
    engine.send({"type": "isready"})
    engine.send({"type": "stop"})
    lines = engine.until("bestmove")
    errors = [m["message"] for m in lines if m["type"] == "error"]
    # one error for each, in order, naming the message; then readyok, then the bestmove
    assert errors == [f"{m['type']}: a search is running; send stop before {m['type']}"
                      for m in busy]
    assert [m["type"] for m in lines if m["type"] not in ("info", "error")] == \
        ["readyok", "bestmove"]
    assert lines[-1]["move"] in legal_texts(p)
    assert engine.sync() == []  # nothing more: one bestmove per go
    engine.send({"type": "setoption", "name": "info_interval", "value": 0.5})


def test_quit_mid_search_exits_without_a_bestmove():
    e = EngineProcess()
    try:
        p = Position.new(2, seed=14)
        e.send({"type": "setoption", "name": "info_interval", "value": 0.05})
        e.send({"type": "position", "position": view(p)})
        e.send({"type": "go", "infinite": True})
        assert e.read()["type"] == "info"
        e.send({"type": "quit"})
        assert e.proc.wait(timeout=TIMEOUT) == 0
        rest = []
        while (msg := e.read()) is not None:
            rest.append(msg["type"])
        assert "bestmove" not in rest and set(rest) <= {"info"}
    finally:
        e.close()


def test_end_of_input_is_quit():
    e = EngineProcess()
    try:
        e.proc.stdin.close()
        assert e.proc.wait(timeout=TIMEOUT) == 0
    finally:
        e.close()


def test_the_planned_second_action_is_reused_on_the_next_position():
    """PROTOCOL.md "Reuse": after the engine's first action the next search starts from its
    subtree (more iterations counted than the go asked for); with reuse off, or from a
    position that does not follow from the last one, exactly the go's."""
    e = EngineProcess()
    try:
        p = Position.new(2, seed=15)
        for reuse in (True, False):
            e.send({"type": "newgame"})
            e.send({"type": "setoption", "name": "reuse", "value": reuse})
            e.send({"type": "position", "position": view(p)})
            e.send({"type": "go", "iterations": 1000})
            best = e.until("bestmove")[-1]
            q = p.copy()
            q.push(best["move"])
            e.send({"type": "position", "position": view(q)})
            e.send({"type": "go", "iterations": 1000})
            counted = e.until("bestmove")[-1]["iterations"]
            assert counted > 1000 if reuse else counted == 1000
        # another information set (the other seat's view) reuses nothing
        e.send({"type": "setoption", "name": "reuse", "value": True})
        e.send({"type": "position", "position": view(p)})
        e.send({"type": "go", "iterations": 1000})
        e.until("bestmove")
        e.send({"type": "position", "position": view(p)})  # not the planned position
        e.send({"type": "go", "iterations": 1000})
        assert e.until("bestmove")[-1]["iterations"] == 1000
    finally:
        e.close()


def test_go_with_a_time_budget_and_threads(engine):
    p = Position.new(2, seed=16)
    engine.send({"type": "position", "position": view(p)})
    engine.send({"type": "go", "time": 0.3, "threads": 2})
    lines = engine.until("bestmove")
    assert lines[-1]["move"] in legal_texts(p) and lines[-1]["iterations"] > 0
    assert all(m["type"] == "info" for m in lines[:-1]) and len(lines) >= 2


def test_a_forced_decision_is_answered_without_a_win_chance(engine):
    """examples/planted_blunder.jsonl after 2 moves: player 0 attacks in a black war with no
    black tile in hand, so `commit 0` is his only move (SPEC section 8), and the defender
    decides next, so the plan ends there."""
    from tne_ai.matches.tournament import find_record
    record = find_record(helpers._ROOT + "/examples/planted_blunder.jsonl")
    engine.send({"type": "position", "game": record, "ply": 2})
    engine.send({"type": "go", "iterations": 500})
    best = engine.until("bestmove")[-1]
    assert best["move"] == "commit 0" and best["win"] is None and best["pv"] == ["commit 0"]
    # its one alternative is itself, unsearched: no win chance there either
    assert best["alternatives"] == [{"move": "commit 0", "visits": 0, "win": None}]


def _served_go(p, go):
    """An engine served in a thread on queues, given position p (its mover's view) and the
    go message: (its input queue, its output queue, the thread)."""
    import json
    import queue
    import threading

    from tne_ai.protocol import server as engine_server
    lines, out = queue.Queue(), queue.Queue()
    server = engine_server.EngineServer(read_line=lines.get, write_line=out.put)
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    lines.put(json.dumps({"type": "position", "position": view(p)}))
    lines.put(json.dumps(go))
    return lines, out, thread


def test_go_infinite_ends_by_itself_at_the_longest_go(monkeypatch):
    """PROTOCOL.md: go infinite searches until stop, at most 3600 s (the longest time budget
    of a go).  The cap made 0.5 s here: with no stop the bestmove comes once it is reached."""
    import json

    from tne_ai.protocol import server as engine_server
    from tne_ai.limits import MAX_SECONDS
    assert engine_server.INFINITE_SECONDS == MAX_SECONDS == 3600
    monkeypatch.setattr(engine_server, "INFINITE_SECONDS", 0.5)
    p = Position.new(2, seed=15)
    lines, out, thread = _served_go(p, {"type": "go", "infinite": True})
    while True:
        msg = json.loads(out.get(timeout=TIMEOUT))
        assert msg["type"] in ("info", "bestmove"), msg
        if msg["type"] == "bestmove":
            break
    assert msg["move"] in legal_texts(p) and msg["seconds"] >= 0.5
    lines.put("")            # the end of input: quit
    thread.join(TIMEOUT)
    assert not thread.is_alive()


def test_an_info_line_whose_count_has_not_grown_is_not_sent(monkeypatch):
    """PROTOCOL.md: the info lines' iterations grow from line to line.  A search whose time
    runs out just after a report would give the same count again (in the report and then in
    the final line); here the search reports its last statistics twice before it returns, so
    three lines would carry the same count: one info line is sent, then the bestmove."""
    import json

    from tne_ai.search.session import Search
    real = Search.run

    def run(self, iterations=None, seconds=None, report=None, every=None):
        info = real(self, iterations=iterations, seconds=seconds)
        if report is not None:          # a go's search (other runs report nothing)
            report(info)
            report(info)
        return info
    monkeypatch.setattr(Search, "run", run)
    lines, out, thread = _served_go(Position.new(2, seed=15), {"type": "go", "iterations": 500})
    sent = []
    while not sent or sent[-1]["type"] != "bestmove":
        sent.append(json.loads(out.get(timeout=TIMEOUT)))
    assert [m["type"] for m in sent] == ["info", "bestmove"]
    assert sent[0]["iterations"] == sent[1]["iterations"] == 500
    lines.put("")
    thread.join(TIMEOUT)
    assert not thread.is_alive()
