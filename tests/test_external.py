"""The engine:CMD agent (tne_ai.agents.external) in tournaments and games.

Expected outcomes: the forfeit rule of tne_ai.agents.external / docs/PROTOCOL.md (an engine that
exits, sends nothing in time + margin, or answers an illegal move loses that game, the
reason is recorded, the other games go on), and the seeding rule of docs/PROTOCOL.md (the
k-th go since newgame searches with seed * 100003 + k, as the mcts agent numbers its moves),
from which the same records follow for `tne engine` and the in-process agent."""
import json
import subprocess
import sys

import pytest

import helpers
from engine_helpers import ROOT
from tne_ai.agents.builtin import AgentSpecError, make_agent, parse_spec
from tne_ai.agents.external import margin
from tne_ai.matches.tournament import run_tournament

PY = sys.executable
TNE_ENGINE = f"{PY} {ROOT / 'cli.py'} engine"
RANDOM_ENGINE = f"{PY} {ROOT / 'examples' / 'random_engine.py'}"


def bad_engine(tmp_path, name, on_go, on_position="pass"):
    """An engine script that speaks the protocol until ``go``, then runs ``on_go`` (Python
    lines, with ``legal`` the moves given); ``on_position`` runs on each position."""
    body = "\n".join("        " + line for line in on_go.splitlines())
    seen = "\n".join("        " + line for line in on_position.splitlines())
    path = tmp_path / f"{name}.py"
    path.write_text(f"""import json, sys, time
legal = []
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        print(json.dumps({{"type": "hello", "name": "{name}", "version": "0", "protocol": 1}}), flush=True)
    elif kind == "isready":
        print(json.dumps({{"type": "readyok"}}), flush=True)
    elif kind == "position":
        legal = msg["legal"]
{seen}
    elif kind == "go":
{body}
    elif kind == "quit":
        break
""")
    return f"{PY} {path}"


def test_engine_specs():
    kind, options = parse_spec("engine[iterations=50,set.reuse=false,set.c=0.5]:python bot.py --x")
    assert kind == "engine" and options["command"] == "python bot.py --x"
    assert options["iterations"] == 50 and options["engine_options"] == {"reuse": False, "c": 0.5}
    assert parse_spec("engine:./bot")[1]["command"] == "./bot"
    for spec, fragment in [("engine:", "give the engine's command"),
                           ("engine[time=0]:bot", "out of range"),
                           ("engine[depth=3]:bot", "unknown option 'depth'"),
                           ("engine[time=1:bot", "brackets"),
                           ("engine:bot 'unclosed", "does not parse")]:
        with pytest.raises(AgentSpecError, match=fragment):
            parse_spec(spec)
    assert make_agent("engine:./bot").time == 1.0  # no budget given: one second a move
    assert margin(0.2) == 0.5 and margin(4.0) == 2.0


def test_tne_engine_gives_the_mcts_agents_records():
    """With iteration budgets and seeds, the engine process and the in-process agent play
    the same moves: with their defaults (both start from the last search's subtree where the
    position follows from it) and with that reuse off on both."""
    common = dict(games=1, seed=5)
    for agent, engine in (("mcts:iterations=200", "engine[iterations=200]"),
                          ("mcts:iterations=200,reuse=0", "engine[iterations=200,set.reuse=false]")):
        ours = run_tournament({"r": "random", "m": agent}, **common)
        theirs = run_tournament({"r": "random", "e": f"{engine}:{TNE_ENGINE}"}, **common)
        assert [r["moves"] for r in ours.records] == [r["moves"] for r in theirs.records]
        assert [r["result"] for r in ours.records] == [r["result"] for r in theirs.records]
    assert len(theirs.records) == 2  # whole games, the engine in either seat
    assert all(not r["meta"]["truncated"] and "forfeit" not in r["meta"] for r in theirs.records)


def test_the_example_engine_plays_a_tournament_against_greedy():
    result = run_tournament({"g": "greedy", "x": f"engine:{RANDOM_ENGINE}"}, games=1, seed=2)
    assert len(result.records) == 2
    for record in result.records:
        assert "forfeit" not in record["meta"] and not record["meta"]["truncated"]
    assert sum(s.games for s in result.standings) == 4


def test_failing_engines_lose_with_the_reason_and_the_others_finish(tmp_path):
    crash = bad_engine(tmp_path, "crash", 'sys.stderr.write("boom\\n"); sys.exit(3)')
    hang = bad_engine(tmp_path, "hang", "time.sleep(600)")
    illegal = bad_engine(tmp_path, "illegal", 'bad = next(m for m in ["commit 6", "war red", "decline"] '
                                             'if m not in legal)\n'
                                             'print(json.dumps({"type": "bestmove", "move": bad}), flush=True)')
    agents = {"g": "greedy", "crash": f"engine:{crash}", "hang": f"engine[time=0.2]:{hang}",
              "illegal": f"engine:{illegal}", "r": f"engine:{RANDOM_ENGINE}"}
    tables = [("g", "crash"), ("g", "hang"), ("g", "illegal"), ("g", "r")]
    out = tmp_path / "games.jsonl"
    result = run_tournament(agents, tables=tables, games=1, seed=1, out=str(out))
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 8  # four tables, two rotations each: every game was recorded
    reasons = {}
    for record in records:
        names = [a["name"] for a in record["meta"]["agents"]]
        forfeit = record["meta"].get("forfeit")
        if "r" in names:
            assert forfeit is None
            continue
        bad = names.index([n for n in names if n != "g"][0])
        assert forfeit["seat"] == bad
        reasons.setdefault(names[bad], []).append(forfeit["reason"])
    assert all("exited (code 3): boom" in r for r in reasons["crash"])
    assert all("no bestmove within 0.7 s" in r for r in reasons["hang"])  # 0.2 + 0.5 margin
    assert all("illegal move: 'commit 6'" in r for r in reasons["illegal"])
    assert {k: len(v) for k, v in reasons.items()} == {"crash": 2, "hang": 2, "illegal": 2}
    by_name = {s.name: s for s in result.standings}
    for name in ("crash", "hang", "illegal"):  # a forfeit is a loss: last place
        assert by_name[name].games == 2 and by_name[name].wins == 0
        assert by_name[name].rank_sum == 4


def test_the_engine_sees_only_its_seat(tmp_path):
    """Every position sent holds the engine's own hand and null for the others, and no bag
    (SPEC section 7: hands and the bag's order are hidden)."""
    log = tmp_path / "seen.jsonl"
    spy = bad_engine(tmp_path, "spy",
                     'print(json.dumps({"type": "bestmove", "move": legal[0]}), flush=True)',
                     f'open({str(log)!r}, "a").write(json.dumps(msg) + "\\n")')
    result = run_tournament({"g": "greedy", "s": f"engine:{spy}"}, games=1, seed=4, max_moves=40)
    assert all("forfeit" not in r["meta"] for r in result.records)
    seen = [json.loads(line) for line in log.read_text().splitlines()]
    assert seen
    from tne_ai.position import Position
    for record in result.records:
        seat = [a["name"] for a in record["meta"]["agents"]].index("s")
        p = Position.from_json(record["start"])
        for move in record["moves"]:
            if p.to_act == seat:
                msg = seen.pop(0)
                view = msg["position"]
                assert "bag" not in view
                assert view["hands"][seat] == p.hand(seat)
                assert view["hands"][1 - seat] is None
                assert msg["legal"] == sorted(str(m) for m in p.legal_moves())
            p.push(move)
    assert seen == []


def test_play_against_an_engine():
    from tne_ai.matches.play import play
    lines = []
    record = play(players=2, ai=f"engine:{RANDOM_ENGINE}", seat=0, seed=3,
                  read=lambda prompt: "pass", write=lines.append)
    assert record["meta"]["agents"] == ["human", f"engine:{RANDOM_ENGINE}"]
    assert record["meta"]["truncated"] is False


def test_an_engine_that_never_says_hello_or_talks_nonsense_forfeits(tmp_path):
    from tne_ai.agents.builtin import AgentForfeit
    from tne_ai.position import Position
    silent = tmp_path / "silent.py"
    silent.write_text("import sys, time\nsys.stdin.readline()\ntime.sleep(600)\n")
    agent = make_agent(f"engine[startup=0.5]:{PY} {silent}")
    with pytest.raises(AgentForfeit, match="no hello within"):
        agent.choose(Position.new(2, seed=1))
    assert agent.proc is None  # killed
    chatty = bad_engine(tmp_path, "chatty", 'print("thinking...", flush=True)')
    with pytest.raises(AgentForfeit, match=r"sent a bad line \(not valid JSON"):
        make_agent(f"engine:{chatty}").choose(Position.new(2, seed=1))
    with pytest.raises(AgentForfeit, match="cannot start engine"):
        make_agent(f"engine:{tmp_path / 'no-such-program'}").choose(Position.new(2, seed=1))


def test_an_engine_line_over_the_json_bound_forfeits_and_its_stderr_is_clipped(tmp_path):
    """A protocol line is one JSON text, at most MAX_JSON_BYTES (docs/cli.md, "Limits"): a longer
    stdout line forfeits at once, without the agent reading the rest of it; a long stderr line
    is quoted clipped to MAX_ECHO characters."""
    from tne_ai import limits as L
    from tne_ai.agents.builtin import AgentForfeit
    from tne_ai.position import Position
    flood = bad_engine(tmp_path, "flood", f'sys.stdout.write("x" * {L.MAX_JSON_BYTES + 10}); '
                                          'sys.stdout.flush(); time.sleep(600)')
    with pytest.raises(AgentForfeit, match=f"sent a line over {L.MAX_JSON_BYTES} characters"):
        make_agent(f"engine[time=30]:{flood}").choose(Position.new(2, seed=1))
    loud = bad_engine(tmp_path, "loud", 'sys.stderr.write("e" * 100000 + "\\n"); '
                                        'sys.stderr.flush(); sys.exit(4)')
    with pytest.raises(AgentForfeit) as caught:
        make_agent(f"engine:{loud}").choose(Position.new(2, seed=1))
    text = str(caught.value)
    assert "exited (code 4)" in text and "(100000 characters)" in text
    assert len(text) < 1000


def test_the_tournament_table_counts_forfeits(tmp_path):
    crash = bad_engine(tmp_path, "crash", "sys.exit(3)")
    result = subprocess.run([PY, str(ROOT / "cli.py"), "tournament", "--agent", "g=greedy",
                             "--agent", f"c=engine:{crash}", "--games", "1"],
                            capture_output=True, text=True, cwd=str(ROOT), timeout=900)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1] == "2 forfeit(s), counted as losses (reasons in meta.forfeit): c 2"
    assert lines[3].split()[:3] == ["g", "2", "2"] and lines[4].split()[:3] == ["c", "2", "0"]


def test_tne_engine_with_its_defaults_plays_whole_games():
    """Reuse and the plan on (the defaults): every move is legal (else a forfeit) to the end."""
    result = run_tournament({"r": "random", "e": f"engine[iterations=300]:{TNE_ENGINE}"},
                            games=1, seed=8)
    assert len(result.records) == 2
    assert all(not r["meta"]["truncated"] and "forfeit" not in r["meta"] for r in result.records)
