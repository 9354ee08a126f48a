"""`tne engine` reads every line through the one JSON reader (docs/PROTOCOL.md; docs/cli.md,
"Limits"): a hostile line of any message type gets exactly one ``error`` line and the engine
lives on, whatever the locale.  The engine runs as a subprocess under LANG=en_US.UTF-8 (the
locale under which a text stdin refuses invalid UTF-8 by raising), its stdin written as bytes.
"""
import pytest

from engine_helpers import EngineProcess
from tne_ai.protocol.messages import MAX_LINE, ProtocolError, line_reader, parse_client

DEEP_OBJECT = '{"a":' * 6_000 + "1" + "}" * 6_000     # 30 KB of {"a":
DEEP_ARRAY = "[" * 200_000                            # 200 KB of [
HUGE_INT = "9" * 5000
BEYOND_FLOAT = "1" + "0" * 309                        # an integer above 1e308 (310 digits)
BEYOND_FLOAT_LITERAL = "1e309"
HOSTILE = {"deep object": DEEP_OBJECT, "deep array": DEEP_ARRAY, "5000 digits": HUGE_INT,
           "integer above 1e308": BEYOND_FLOAT, "1e309": BEYOND_FLOAT_LITERAL,
           "NaN": "NaN", "-Infinity": "-Infinity"}
# the key of each message type that a hostile value goes into (one it reads, where it has one)
KEYS = {"hello": "protocol", "isready": "x", "setoption": "value", "newgame": "x",
        "position": "position", "go": "iterations", "stop": "x", "quit": "x"}


def hostile_lines():
    lines = []
    for kind, key in KEYS.items():
        for name, value in HOSTILE.items():
            extra = ',"name":"c"' if kind == "setoption" else ""
            lines.append((f"{kind} {key}={name}",
                          f'{{"type":"{kind}"{extra},"{key}":{value}}}'.encode()))
        if kind == "go":
            for name, value in HOSTILE.items():
                lines.append((f"go time={name}", f'{{"type":"go","time":{value}}}'.encode()))
        if kind == "position":
            for name, value in HOSTILE.items():
                lines.append((f"position game={name}",
                              f'{{"type":"position","game":{{"format":"tne-game/1","start":'
                              f'{value}}}}}'.encode()))
    lines += [("invalid UTF-8", b'{"type":"hello","x":"\xc3("}'),
              ("invalid UTF-8 bare", b"\xc3("),
              ("lone surrogate escape", b'{"type":"setoption","name":"\\ud800","value":1}'),
              ("superscript digit", '{"type":"go","iterations":²}'.encode()),
              ("overlong line", b'{"type":"hello","x":"' + b"a" * (MAX_LINE + 10) + b'"}')]
    return lines


def _engine():
    """`tne engine` under a UTF-8 locale, with a binary stdin (lines that are not UTF-8)."""
    return EngineProcess(binary=True, env={"LANG": "en_US.UTF-8", "LC_ALL": "en_US.UTF-8",
                                           "PYTHONIOENCODING": None, "PYTHONUTF8": None})


def test_every_hostile_line_is_one_error_and_the_engine_lives():
    engine = _engine()
    try:
        engine.send(b'{"type":"isready"}')
        assert engine.read()["type"] == "readyok"
        for name, raw in hostile_lines():
            engine.send(raw)
            engine.send(b'{"type":"isready"}')
            got = engine.read()
            assert got["type"] == "error", (name, got)
            assert "\n" not in got["message"] and len(got["message"]) < 1000, (name, got)
            assert engine.read()["type"] == "readyok", name      # exactly one error, alive
        engine.send(b'{"type":"hello"}')
        assert engine.read()["type"] == "hello"
    finally:
        engine.close()
    assert engine.proc.returncode == 0, engine.stderr
    assert b"Traceback" not in engine.stderr


@pytest.mark.parametrize("name,raw", hostile_lines(), ids=[n for n, _ in hostile_lines()])
def test_the_decoder_refuses_each_hostile_line_with_a_protocol_error(name, raw):
    with pytest.raises(ProtocolError) as e:
        parse_client(raw)
    assert "\n" not in str(e.value)


def test_the_line_reader_cuts_an_overlong_line_and_goes_on():
    import io
    stream = io.BytesIO(b"a" * 100 + b"\nnext\n" + b"tail")
    read = line_reader(stream, max_line=10)
    first = read()
    assert first == b"a" * 11 + b"\n"
    assert read() == b"next\n"
    assert read() == b"tail"
    assert read() == b""
