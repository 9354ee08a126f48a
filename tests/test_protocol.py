"""The message checks of the engine line protocol (tne_ai.protocol, docs/PROTOCOL.md).

Every malformed line is refused with one message that names what is wrong: the key, the
value or the message type, as PROTOCOL.md's "Errors" section promises."""
import pytest

import helpers  # noqa: F401  (puts the repository on sys.path)
from tne_ai.protocol import Option, ProtocolError, encode, parse_client, parse_engine


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
