"""Every search option through every face (search/config.py, DESIGN "one option set"): the
mcts: spec (agents, tournaments, the web's seats), the Python SearchConfig/search()/Search,
`tne engine` (hello lists it, setoption or go sets it) and the CLI flag where there is one.
Each face takes the option by the same name within the same bounds, and refuses a value out
of them with the same line: ``option NAME=VALUE is out of range (LOW <= x <= HIGH)``."""
import json
import subprocess
import sys

import pytest

from engine_helpers import ROOT
from tne_ai.agents.builtin import AgentSpecError, make_agent
from tne_ai.protocol.server import GO_KEYS, EngineServer
from tne_ai.errors import TneError
from tne_ai.position import Position
from tne_ai.protocol.messages import ProtocolError, parse_client
from tne_ai.search.config import SearchConfig, SearchConfigError, options
from tne_ai.search.session import Search, config_of

ROWS = {row.name: row for row in options()}
# the CLI flags that set a search option (tne bestmove's)
CLI_FLAGS = {"iterations": "--iterations", "time": "--time", "threads": "--threads",
             "seed": "--seed"}
from test_search_config import BOUNDS   # each numeric option's bounds, from tne_ai/limits.py


def _text(v):
    return str(v) if isinstance(v, int) else repr(float(v))


def _cases(row):
    """(good value, [(bad value, the words of its refusal)]) for one option row."""
    if row.type == "choice":
        return row.choices[-1], [("zzz", f"use one of {', '.join(row.choices)}")]
    if row.type == "bool":
        return 1, [(2, "expected true or false (1 or 0)")]
    if row.type == "path":          # the shipped file of the option, one the agent reads
        shipped = {"weights": "eval.npz", "net": "value.npz", "policy": "policy.npz"}[row.name]
        return str(ROOT / "tne_ai" / "search" / "weights" / shipped), []
    lo, hi, lo_open = BOUNDS[row.name]
    assert (row.low, row.high, row.low_open) == (lo, hi, lo_open), row.name
    shown = [str(x) if isinstance(x, int) else f"{x:g}" for x in (lo, hi)]
    bound = f"({shown[0]} < x <= {shown[1]})" if lo_open else f"({shown[0]} <= x <= {shown[1]})"
    below = lo if lo_open else lo - 1
    above = hi + 1 if row.type == "int" else hi * 2
    good = (lo + 1 if row.type == "int" else (lo + hi) / 2) if lo_open else lo
    return good, [(below, f"is out of range {bound}"), (above, f"is out of range {bound}")]


def _server():
    out = []
    return EngineServer(read_line=lambda: "", write_line=out.append), out


@pytest.mark.parametrize("name", sorted(ROWS))
def test_every_option_in_every_face(name):
    row = ROWS[name]
    good, bad = _cases(row)
    spec_value = good if isinstance(good, str) else _text(good)
    # the mcts: spec, by the canonical name and by each alias
    for key in (name,) + row.aliases:
        cfg = SearchConfig.from_spec(f"mcts:{key}={spec_value}")
        assert getattr(cfg, name) == good
        assert getattr(make_agent(f"mcts:{key}={spec_value}").config, name) == good
    # Python: SearchConfig, search()'s config, Search
    assert getattr(SearchConfig(**{name: good}), name) == good
    assert getattr(config_of(**{name: good}), name) == good
    # tne engine: hello lists it with its bounds (the budget is go's), setoption takes it
    server, out = _server()
    server.do_hello({})
    listed = {o["name"]: o for o in json.loads(out[-1])["options"]}
    if name in GO_KEYS:
        assert name not in listed
    else:
        assert listed[name]["default"] == row.default
        if row.low is not None:
            assert (listed[name]["min"], listed[name]["max"]) == (row.low, row.high)
        if row.choices:
            assert listed[name]["choices"] == list(row.choices)
        engine_value = bool(good) if row.type == "bool" else good
        server.do_setoption({"type": "setoption", "name": name, "value": engine_value})
        assert getattr(server.config, name) == good
    for value, words in bad:
        with pytest.raises(SearchConfigError) as e:
            SearchConfig.from_spec(f"mcts:{name}={value}")
        assert words in str(e.value)
        with pytest.raises(AgentSpecError) as e:
            make_agent(f"mcts:{name}={value}")
        assert words in str(e.value) and f"option {name}=" in str(e.value)
        with pytest.raises(SearchConfigError) as e:
            SearchConfig(**{name: value})
        assert words in str(e.value) and f"option {name}=" in str(e.value)
        with pytest.raises(SearchConfigError):
            config_of(**{name: value})
        # tne engine: the same words for setoption, or for go's budget and threads
        if name in GO_KEYS or name == "threads":
            go = {"type": "go", name: value}
            if name not in GO_KEYS:
                go["time"] = 1
            with pytest.raises(ProtocolError) as e:
                parse_client(json.dumps(go))
            assert words in str(e.value) and f"go: option {name}=" in str(e.value)
        if name not in GO_KEYS:
            server, _ = _server()
            with pytest.raises(TneError) as e:
                server.do_setoption({"type": "setoption", "name": name, "value": value})
            assert words in str(e.value) and f"option {name}=" in str(e.value)


@pytest.mark.parametrize("name", sorted(CLI_FLAGS))
def test_the_cli_flags_refuse_with_the_same_line(name):
    _, bad = _cases(ROWS[name])
    for value, words in bad:
        r = subprocess.run([sys.executable, str(ROOT / "cli.py"), "bestmove",
                            str(ROOT / "examples" / "start.json"), CLI_FLAGS[name], str(value)],
                           capture_output=True, text=True, cwd=str(ROOT))
        assert r.returncode == 2 and r.stdout == ""
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and f"option {name}=" in lines[0] and words in lines[0], lines


def test_an_unknown_option_is_refused_by_every_face():
    with pytest.raises(SearchConfigError, match="unknown option 'depth'"):
        SearchConfig.from_spec("mcts:depth=3")
    with pytest.raises(AgentSpecError, match="unknown option 'depth'"):
        make_agent("mcts:depth=3")
    with pytest.raises(SearchConfigError, match="unknown search option 'depth'"):
        SearchConfig().replace(depth=3)
    server, _ = _server()
    with pytest.raises(ProtocolError, match="unknown option 'depth'"):
        server.do_setoption({"type": "setoption", "name": "depth", "value": 3})


def test_a_search_takes_the_config_it_is_given():
    cfg = SearchConfig(threads=2, seed=9, c=0.5, batch=16)
    s = Search(Position.new(2, seed=1), cfg)
    assert s.config == cfg.resolved() and len(s.trees) == 2
