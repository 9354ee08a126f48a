"""The message checks of the engine line protocol (tne_ai.protocol.messages, docs/PROTOCOL.md).

Every malformed line is refused with one message that names what is wrong: the key, the
value or the message type, as PROTOCOL.md's "Errors" section promises."""
import pytest

import helpers  # noqa: F401  (puts the repository on sys.path)
from tne_ai.protocol.messages import Option, ProtocolError, encode, parse_client, parse_engine


@pytest.mark.parametrize("line, fragment", [
    ("", "empty line"),
    ("go now", "not valid JSON"),
    ("[1, 2]", "JSON object, not list"),
    ('{"kind": "go"}', '"type"'),
    ('{"type": "fly"}', "unknown message type 'fly'"),
    ('{"type": "go"}', '"iterations", "time"'),
    ('{"type": "go", "iterations": 0}', 'go: option iterations=0 is out of range (1 <= x <= 10000000)'),
    ('{"type": "go", "iterations": 2.5}', 'go: option iterations=2.5: expected an integer'),
    ('{"type": "go", "time": -1}', 'go: option time=-1 is out of range (0 < x <= 3600)'),
    ('{"type": "go", "time": 0.5, "threads": 65}', 'go: option threads=65 is out of range (1 <= x <= 64)'),
    ('{"type": "go", "infinite": true, "time": 1}', '"infinite" excludes'),
    ('{"type": "go", "infinite": "yes"}', '"infinite" must be true or false'),
    ('{"type": "go", "depth": 3, "time": 1}', 'unknown key "depth"'),
    ('{"type": "setoption", "name": "c"}', 'missing "value"'),
    ('{"type": "setoption", "name": 3, "value": 1}', '"name" must be a string'),
    ('{"type": "position"}', 'either "position"'),
    ('{"type": "position", "position": {}, "game": {}}', 'either "position"'),
    ('{"type": "position", "position": {}, "ply": 3}', '"ply" goes with "game"'),
    ('{"type": "position", "position": [1]}', "tne-position/1 object"),
    ('{"type": "position", "game": {}, "ply": -1}', '"ply" -1 is out of range'),
    ('{"type": "position", "position": {}, "legal": ["pass", 3]}', '"legal" must be a list'),
])
def test_bad_client_lines_name_the_problem(line, fragment):
    with pytest.raises(ProtocolError) as e:
        parse_client(line)
    assert fragment in str(e.value)


# Every key of every client message set to null (JSON's null is not "no value": a budget of
# null would be no budget, a search without end): each line is refused with one message
# naming the key.  The one null a client may send is an option's value (setoption), whose
# default null means the engine's own choice (PROTOCOL.md, "Client to engine").
@pytest.mark.parametrize("line, fragment", [
    ('{"type": "hello", "protocol": null}', 'hello: "protocol" must be an integer, not null'),
    ('{"type": "setoption", "name": null, "value": 1}', 'setoption: "name" must be a string'),
    ('{"type": "position", "position": null}', '"position" must be a tne-position/1 object'),
    ('{"type": "position", "game": null}', '"game" must be a tne-game/1 object'),
    ('{"type": "position", "game": {}, "ply": null}', '"ply" must be an integer, not null'),
    ('{"type": "position", "position": {}, "legal": null}', '"legal" must be a list'),
    ('{"type": "go", "iterations": null}', "go: option iterations=null: needs a value"),
    ('{"type": "go", "time": null}', "go: option time=null: needs a value"),
    ('{"type": "go", "iterations": null, "time": null}', "go: option iterations=null: needs a value"),
    ('{"type": "go", "iterations": 100, "time": null}', "go: option time=null: needs a value"),
    ('{"type": "go", "time": 1, "iterations": null}', "go: option iterations=null: needs a value"),
    ('{"type": "go", "iterations": 100, "threads": null}', "go: option threads=null: needs a value"),
    ('{"type": "go", "infinite": null}', '"infinite" must be true or false'),
    ('{"type": null}', 'no "type" string'),
])
def test_a_null_value_is_refused_like_a_missing_one(line, fragment):
    with pytest.raises(ProtocolError) as e:
        parse_client(line)
    assert fragment in str(e.value)


def test_every_client_key_is_covered_by_the_null_cases():
    """Each key of each client message (protocol.CLIENT_MESSAGES) is in a case above, so a
    key added later without a null check shows here; setoption's value is the engine's."""
    import json

    from tne_ai.protocol.messages import CLIENT_MESSAGES
    cases = test_a_null_value_is_refused_like_a_missing_one.pytestmark[0].args[1]
    nulled = {(json.loads(line)["type"], key) for line, _ in cases
              for key, value in json.loads(line).items() if value is None and key != "type"}
    keys = {(kind, key) for kind, (required, optional) in CLIENT_MESSAGES.items()
            for key in required + optional}
    assert keys - nulled == {("setoption", "value")}


def test_good_client_lines():
    assert parse_client('{"type": "go", "iterations": 1000}') == {"type": "go", "iterations": 1000}
    assert parse_client('{"type":"go","infinite":true}')["infinite"] is True
    assert parse_client('{"type": "go", "time": 0.25, "threads": 2}')["threads"] == 2
    msg = parse_client('{"type": "position", "game": {"format": "tne-game/1"}, "ply": 4}')
    assert msg["ply"] == 4
    assert parse_client(b'{"type": "quit"}\n') == {"type": "quit"}


def test_engine_lines():
    assert parse_engine('{"type": "bestmove", "move": "pass"}')["move"] == "pass"
    with pytest.raises(ProtocolError, match='missing "move"'):
        parse_engine('{"type": "bestmove"}')
    with pytest.raises(ProtocolError, match="unknown message type 'go'"):
        parse_engine('{"type": "go", "time": 1}')


def test_encode_is_one_line():
    text = encode({"type": "info", "pv": ["tile red F4", "pass"], "win": 0.5})
    assert "\n" not in text and text.startswith('{"type":"info"')


def test_option_ranges():
    threads = Option("threads", "int", 1, 1, 64)
    assert threads.check(8) == 8
    with pytest.raises(ProtocolError, match=r"option threads: 65 is out of range \(1 to 64\)"):
        threads.check(65)
    with pytest.raises(ProtocolError, match="expected an integer"):
        threads.check(2.5)
    with pytest.raises(ProtocolError, match="expected an integer"):
        threads.check(True)
    flag = Option("reuse", "bool", True)
    assert flag.check(False) is False
    with pytest.raises(ProtocolError, match="expected true or false"):
        flag.check(0)
    c = Option("c", "float", 0.7, 0.01, 10.0)
    assert c.check(2) == 2.0
    assert threads.to_dict() == {"name": "threads", "type": "int", "default": 1, "min": 1, "max": 64}


# --- docs/PROTOCOL.md against the code -----------------------------------------------------

def _doc():
    from pathlib import Path
    return (Path(__file__).resolve().parents[1] / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")


def _doc_number(text):
    """A number as PROTOCOL.md writes it: 1,048,576, 1e+06, 0.01, 2^63-1."""
    if text == "2^63-1":
        return 2 ** 63 - 1
    text = text.replace(",", "")
    return float(text) if any(c in text for c in ".e") else int(text)


def _option_table():
    """{name: (type, default, range)} of the option table of PROTOCOL.md's `tne engine`
    section, in its order."""
    lines = _doc().split("## `tne engine`", 1)[1].splitlines()
    start = lines.index("| option | type | default | range | meaning |")
    rows = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        name, kind, default, bounds = cells[0].strip("`"), cells[1], cells[2].strip("`"), cells[3]
        assert name not in rows, name
        rows[name] = (kind, default, bounds)
    return rows


def test_the_option_table_of_protocol_md_is_the_engines():
    """PROTOCOL.md's option table lists exactly the options `hello` lists (the live rows of
    SearchConfig, tne_ai/search/config.py, less go's budget, plus info_interval), in their
    order, each with its type, default, bounds (limits.py, through the rows) or choices."""
    import re

    from tne_ai.protocol.server import OPTIONS
    table = _option_table()
    options = [o.to_dict() for o in OPTIONS]
    assert list(table) == [o["name"] for o in options]
    number = r"-?(?:2\^63-1|[0-9][0-9,]*(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?)"
    for o in options:
        kind, default, bounds = table[o["name"]]
        assert kind == o["type"], o["name"]
        shown = {None: "null", True: "true", False: "false"}.get(o["default"], o["default"]) \
            if o["default"] is None or isinstance(o["default"], bool) else o["default"]
        if isinstance(shown, (int, float)):
            assert _doc_number(default) == shown, o["name"]
        else:
            assert default == shown, o["name"]
        if "choices" in o:
            assert bounds.split(", ") == o["choices"], o["name"]
        elif "min" in o:
            open_low = re.fullmatch(rf"({number}) < x <= ({number})", bounds)
            closed = re.fullmatch(rf"({number})-({number})", bounds)
            assert (open_low or closed) is not None, (o["name"], bounds)
            lo, hi = (open_low or closed).groups()
            assert (_doc_number(lo), _doc_number(hi)) == (o["min"], o["max"]), o["name"]
            assert bool(open_low) == o.get("min_open", False), o["name"]
        else:
            assert bounds == "", o["name"]


def test_the_bounds_of_go_in_protocol_md_are_the_limits():
    """The go row of PROTOCOL.md's client table and its infinite search's cap give the bounds
    of tne_ai/limits.py, which the engine enforces."""
    import re

    from tne_ai import limits as L
    from tne_ai.protocol.server import INFINITE_SECONDS
    doc = _doc()
    [row] = [line for line in doc.splitlines() if line.startswith("| `go` |")]
    iterations = re.search(r"`iterations` \(1 to ([0-9,]+)\)", row)
    seconds = re.search(r"`time` \(seconds, above 0, at most ([0-9,]+)\)", row)
    threads = re.search(r"`threads` \(1 to ([0-9,]+)\)", row)
    assert _doc_number(iterations.group(1)) == L.MAX_ITERATIONS
    assert _doc_number(seconds.group(1)) == L.MAX_SECONDS
    assert _doc_number(threads.group(1)) == L.MAX_THREADS
    infinite = re.search(r"`infinite` alone\s+\(searches until `stop`, at most ([0-9,]+) s\)", doc)
    assert _doc_number(infinite.group(1)) == INFINITE_SECONDS
    # and the engine refuses one past each bound, accepts the bound
    for key, bound in (("iterations", L.MAX_ITERATIONS), ("time", L.MAX_SECONDS),
                       ("threads", L.MAX_THREADS)):
        budget = {} if key != "threads" else {"iterations": 1}
        assert parse_client(encode({"type": "go", key: bound, **budget}))[key] == bound
        with pytest.raises(ProtocolError, match=f"go: option {key}=.* is out of range"):
            parse_client(encode({"type": "go", key: bound + 1, **budget}))
