"""The one reader of JSON texts, files and numbers (tne_ai/core/io/json_reader.py): each bound of
tne_ai/limits.py (docs/cli.md, "Limits") is refused with one TneError whose message starts with
what was read, never a RecursionError, an overflow or an unbounded read."""
import subprocess
import sys
from pathlib import Path

import pytest

from tne_ai import limits as L
from tne_ai.errors import InputError, JsonError, PositionError, TneError
from tne_ai.core.io import check_value, input_lines, parse_float, parse_int, read_input, read_json

ROOT = Path(__file__).resolve().parent.parent


def refused(call, *words, cls=InputError):
    with pytest.raises(cls) as e:
        call()
    text = str(e.value)
    assert "\n" not in text
    for w in words:
        assert w in text, text
    return text


# --- read_json --------------------------------------------------------------------------------

def test_plain_json_is_read():
    assert read_json('{"a": [1, -2, 3.5, "x", null, true]}', "doc") == \
        {"a": [1, -2, 3.5, "x", None, True]}
    assert read_json(b'[0]', "doc") == [0]


def test_the_error_classes_form_one_tree():
    # a caller catching PositionError (the loaders' callers) catches the reader's refusals
    assert issubclass(JsonError, PositionError) and issubclass(PositionError, InputError)
    assert issubclass(InputError, TneError) and issubclass(InputError, ValueError)


@pytest.mark.parametrize("text", ["[" * 200_000, '{"a":' * 6_000, "[" * 200_000 + "]" * 200_000,
                                  '{"a":' * 33 + "1" + "}" * 33])
def test_deep_nesting_is_refused_without_recursion(text):
    assert refused(lambda: read_json(text, "deep"), cls=JsonError).startswith("deep: ")
    assert "nested more than 32 deep" in refused(lambda: read_json(text, "deep"), cls=JsonError)


def test_nesting_at_the_bound_is_read():
    text = "[" * L.MAX_JSON_DEPTH + "]" * L.MAX_JSON_DEPTH
    assert read_json(text, "doc") is not None
    # brackets inside strings do not count
    assert read_json('["' + "[" * 1000 + '"]', "doc") == ["[" * 1000]


def test_long_integer_literals_are_refused():
    refused(lambda: read_json("[" + "9" * 5000 + "]", "rec"), "rec: ", "5000 digits",
            cls=JsonError)
    refused(lambda: read_json("-" + "1" * 31, "rec"), "31 digits", cls=JsonError)
    assert read_json("-" + "9" * 30, "rec") == -(10 ** 30 - 1)


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", '{"t": -Infinity}'])
def test_nan_and_infinity_are_refused(text):
    refused(lambda: read_json(text, "go"), "go: ", "not a JSON value", cls=JsonError)


@pytest.mark.parametrize("text", ["1e400", "[-1e309]", "1" * 20 + ".0e300"])
def test_floats_that_overflow_are_refused(text):
    refused(lambda: read_json(text, "go"), "go: ", cls=JsonError)


def test_long_float_literals_are_refused():
    refused(lambda: read_json("0." + "1" * 5000, "x"), "5002 characters", cls=JsonError)


def test_bytes_are_strict_utf8():
    refused(lambda: read_json(b'"\xc3("', "line"), "line: not UTF-8", cls=JsonError)
    refused(lambda: read_json('"\udcc3"', "line"), "line: not UTF-8", cls=JsonError)
    refused(lambda: read_json('"\\ud800"', "line"), "unpaired surrogate", cls=JsonError)
    assert read_json('"\\ud83d\\ude00"', "line") == "\U0001f600"


def test_size_bound():
    refused(lambda: read_json(b" " * 101 + b"1", "body", max_bytes=100), "body: larger than",
            cls=JsonError)
    refused(lambda: read_json("é" * 60, "body", max_bytes=100), "larger than", cls=JsonError)
    assert read_json(" " * 99 + "1", "body", max_bytes=100) == 1


def test_malformed_text_is_one_line():
    text = refused(lambda: read_json('{"a": [1, 2}', "pos"), "pos: not valid JSON", cls=JsonError)
    assert "line 1 column" in text


def test_check_value_bounds_parsed_objects():
    deep = []
    for _ in range(100):
        deep = [deep]
    refused(lambda: check_value({"a": deep}, "arg"), "nested more than", cls=JsonError)
    refused(lambda: check_value({"a": 10 ** 40}, "arg"), "more than 30 digits", cls=JsonError)
    refused(lambda: check_value({"a": float("nan")}, "arg"), cls=JsonError)
    refused(lambda: check_value({1: 2}, "arg"), "key", cls=JsonError)
    refused(lambda: check_value({"a": {1, 2}}, "arg"), "set", cls=JsonError)
    assert check_value({"a": [1, 2.5, None]}, "arg") == {"a": [1, 2.5, None]}


# --- read_input -------------------------------------------------------------------------------

def test_read_input_reads_a_file(tmp_path):
    p = tmp_path / "f.json"
    p.write_bytes(b"{}")
    assert read_input(str(p), "POSITION") == b"{}"
    assert read_input(p, "POSITION") == b"{}"


def test_read_input_refuses_over_the_bound(tmp_path):
    p = tmp_path / "f.json"
    p.write_bytes(b"x" * 11)
    refused(lambda: read_input(str(p), "--data", max_bytes=10), "--data: larger than 10 bytes")
    assert read_input(str(p), "--data", max_bytes=11) == b"x" * 11


def test_read_input_refuses_oddities(tmp_path):
    refused(lambda: read_input(str(tmp_path), "POSITION"), "POSITION: is a directory")
    refused(lambda: read_input(str(tmp_path / "none"), "POSITION"), "POSITION: cannot read")
    refused(lambda: read_input("", "POSITION"), "POSITION: the file name is empty")
    refused(lambda: read_input("a\0b", "POSITION"), "NUL")
    refused(lambda: read_input("x" * 5000, "POSITION"), "POSITION: cannot read")


def test_read_input_of_dev_zero_ends_at_once_in_little_memory():
    """An endless input is refused after max_bytes + 1 bytes: in a child process, so its peak
    memory (VmHWM: not the forked parent's, as ru_maxrss would be) is its own."""
    code = ("import time\n"
            "from tne_ai.core.io import read_input\n"
            "t = time.monotonic()\n"
            "try:\n"
            "    read_input('/dev/zero', 'POSITION')\n"
            "except Exception as e:\n"
            "    print(type(e).__name__, e)\n"
            "print(time.monotonic() - t)\n"
            "print([l.split()[1] for l in open('/proc/self/status')\n"
            "       if l.startswith('VmHWM:')][0])\n")   # this image's peak, in KiB
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    message, seconds, rss_kib = out.stdout.strip().split("\n")
    assert message == "InputError POSITION: larger than 4 MiB (4194304 bytes) (the limit of " \
                      "this input)"
    assert float(seconds) < 2
    assert int(rss_kib) < 200 * 1024


def test_input_lines_streams_with_bounds(tmp_path):
    p = tmp_path / "r.jsonl"
    p.write_bytes(b"a\nbb\r\n\nccc")
    assert list(input_lines(str(p), "--out")) == [(1, b"a", 0, True), (2, b"bb", 2, True),
                                                  (3, b"", 6, True), (4, b"ccc", 7, False)]
    refused(lambda: list(input_lines(str(p), "--out", max_line_bytes=2)), "--out line 4: longer")
    refused(lambda: list(input_lines(str(p), "--out", max_bytes=5)), "--out: larger than")
    refused(lambda: list(input_lines("/dev/zero", "--out", max_line_bytes=1000)),
            "--out line 1: longer than 1000 bytes")


def test_input_lines_reads_gzip_and_refuses_a_broken_one(tmp_path):
    import gzip
    p = tmp_path / "r.jsonl.gz"
    p.write_bytes(gzip.compress(b"x\ny\n"))
    assert [line for _, line, _, _ in input_lines(str(p), "RECORD")] == [b"x", b"y"]
    p.write_bytes(gzip.compress(b"x\ny\n")[:-6])
    refused(lambda: list(input_lines(str(p), "RECORD")), "RECORD: cannot read")
    p.write_bytes(b"not gzip at all")
    refused(lambda: list(input_lines(str(p), "RECORD")), "RECORD: cannot read")


# --- numbers ----------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["1_0", "²", "٣", "1.0", "", " ", "0x10", "1e3", "+", "--1",
                                  "１", "1" * 31])
def test_parse_int_refuses_non_ascii_and_odd_texts(text):
    refused(lambda: parse_int(text, "--seed", 0, 10), "--seed: ", "is not an integer")


def test_parse_int_bounds_and_types():
    assert parse_int("  7 ", "--jobs", 1, 64) == 7
    assert parse_int("+7", "--jobs", 1, 64) == 7
    assert parse_int(64, "--jobs", 1, 64) == 64
    refused(lambda: parse_int("65", "--jobs", 1, 64), "--jobs: 65 is out of range (1 to 64)")
    refused(lambda: parse_int("-1", "--seed", 0, L.MAX_SEED), "--seed: -1 is out of range")
    refused(lambda: parse_int(str(2 ** 63), "--seed", 0, L.MAX_SEED), "out of range")
    refused(lambda: parse_int(True, "n", 0, 1), "expected an integer")
    refused(lambda: parse_int(1.0, "n", 0, 1), "expected an integer")
    refused(lambda: parse_int(10 ** 5000, "n", 0, 1), "n: an integer of about 5001 digits")
    assert parse_int("-5", "n") == -5


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1_0", "²", "1e400", "1,5", "0x1p3",
                                  "", "1" * 41])
def test_parse_float_refuses(text):
    refused(lambda: parse_float(text, "--time", 0, 3600, lo_open=True), "--time: ")


def test_parse_float_bounds_and_types():
    assert parse_float("2.5", "--time", 0, 3600, lo_open=True) == 2.5
    assert parse_float(".5e1", "x") == 5.0
    assert parse_float(3, "x", 0, 3) == 3.0
    refused(lambda: parse_float("0", "--time", 0, 3600, lo_open=True), "out of range (above 0 "
                                                                        "and at most 3600)")
    refused(lambda: parse_float("-1e308", "--sprt", -1000, 1000), "--sprt: -1e308 is out of range (-1000 to 1000)")
    refused(lambda: parse_float(10 ** 400, "time", 0, 10), "time: ")
    refused(lambda: parse_float(float("inf"), "time", 0, 10), "not a finite number")
    refused(lambda: parse_float(False, "time", 0, 10), "expected a number")
