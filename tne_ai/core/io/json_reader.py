"""The one reader of every JSON text and every number a user gives tne_ai.

Position and record files, the lines of a records file, protocol lines, HTTP bodies and the
numbers in options all come through here, with the bounds of tne_ai/limits.py (docs/cli.md,
"Limits"):

* ``read_json(data, what)``: str or bytes (bytes decoded strictly as UTF-8) of at most
  limits.MAX_JSON_BYTES, nested at most limits.MAX_JSON_DEPTH deep (measured on the text
  before parsing, so no nesting reaches the parser's recursion), integer literals of at most
  limits.MAX_INT_DIGITS digits, other number literals of at most limits.MAX_NUMBER_CHARS
  characters and finite, no NaN or Infinity, no lone surrogate escapes.
* ``check_value(value, what)``: the same bounds for a value already parsed (an API dict).
* ``read_input(path, what)``: the bytes of a file or of stdin (``-``), at most ``max_bytes``
  (limits.MAX_INPUT_BYTES); at most max_bytes + 1 bytes are read, so an endless input
  (``/dev/zero``) is refused at once.  Directories, sockets and block devices are refused.
* ``input_lines(path, what)``: the lines of a records file (``.gz`` read through gzip), one
  at a time, each at most limits.MAX_JSON_BYTES, the whole at most limits.MAX_RECORDS_BYTES.
* ``parse_int(value, what, lo, hi)`` / ``parse_float(value, what, lo, hi)``: a number from
  user text (ASCII digits only: no ``1_0``, no ``²`` or other Unicode digits) or from a JSON
  value (a bool is not a number), bounded in length, finite and in range.

Every refusal is a TneError whose message starts with ``what``: JsonError (a PositionError,
so the loaders' callers catch it) for a text that is not acceptable JSON, InputError for the
rest (tne_ai/errors.py).
"""
import json
import math
import os
import re
import stat
import sys

from tne_ai import limits as L
from tne_ai.errors import InputError, JsonError

__all__ = ["read_json", "check_value", "read_input", "input_lines", "parse_int",
           "parse_float", "describe_size"]


def describe_size(n):
    """``n`` bytes as a short text: '4 MiB (4194304 bytes)'."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit} ({n} bytes)"
    return f"{n} bytes"


# --- JSON text --------------------------------------------------------------------------------

# a JSON string literal (unrolled: no backtracking per character); what is left once the
# strings are removed holds every bracket that counts
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKET = re.compile(r'[^\[\]{}]+')
_SURROGATE_ESCAPE = re.compile(r'\\u[dD][89a-fA-F]', re.ASCII)


class _Refused(Exception):
    """Raised from inside json.loads by the number hooks; carries the message."""


def _int_literal(text):
    digits = len(text) - (text[0] == "-")
    if digits > L.MAX_INT_DIGITS:
        raise _Refused(f"an integer of {digits} digits (at most {L.MAX_INT_DIGITS})")
    return int(text)


def _float_literal(text):
    if len(text) > L.MAX_NUMBER_CHARS:
        raise _Refused(f"a number of {len(text)} characters (at most {L.MAX_NUMBER_CHARS})")
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"the number {text} is too large for a float (at most about 1.8e308)")
    return value


def _constant(name):
    raise _Refused(f"{name} is not a JSON value")


def _text_depth(text):
    """The deepest nesting of arrays and objects in JSON ``text``, counted without parsing
    (strings removed first); for a malformed text it may count too deep, never too shallow."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text) if '"' in text else text)
    if len(brackets) <= L.MAX_JSON_DEPTH:
        return len(brackets)
    import numpy as np
    codes = np.frombuffer(brackets.encode("ascii"), dtype=np.uint8)
    steps = np.where((codes == ord("[")) | (codes == ord("{")), 1, -1)
    return int(np.cumsum(steps, dtype=np.int64).max())


def _decode(data, what, max_bytes):
    if isinstance(data, (bytes, bytearray, memoryview)):
        data = bytes(data)
        if len(data) > max_bytes:
            raise JsonError(f"{what}: larger than {describe_size(max_bytes)}")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise JsonError(f"{what}: not UTF-8 text: {e.reason} at byte {e.start}") from None
    if not isinstance(data, str):
        raise JsonError(f"{what}: expected JSON text, got {type(data).__name__}")
    if len(data) > max_bytes or (len(data) * 4 > max_bytes
                                 and len(data.encode("utf-8", "surrogatepass")) > max_bytes):
        raise JsonError(f"{what}: larger than {describe_size(max_bytes)}")
    try:
        data.encode("utf-8")
    except UnicodeEncodeError as e:
        raise JsonError(f"{what}: not UTF-8 text: {e.reason} at character {e.start}") from None
    return data


def read_json(data, what, *, max_bytes=L.MAX_JSON_BYTES):
    """The JSON value in ``data`` (str, or bytes decoded strictly as UTF-8), within the
    bounds of the module docstring; JsonError whose message starts with ``what`` otherwise."""
    text = _decode(data, what, max_bytes)
    if _text_depth(text) > L.MAX_JSON_DEPTH:
        raise JsonError(f"{what}: arrays and objects nested more than {L.MAX_JSON_DEPTH} deep")
    try:
        value = json.loads(text, parse_int=_int_literal, parse_float=_float_literal,
                           parse_constant=_constant)
    except json.JSONDecodeError as e:
        raise JsonError(f"{what}: not valid JSON: {e.msg} at line {e.lineno} column "
                        f"{e.colno}") from None
    except _Refused as e:
        raise JsonError(f"{what}: not valid JSON here: {e.args[0]}") from None
    except RecursionError:  # not reached after the depth count; kept as a guard
        raise JsonError(f"{what}: arrays and objects nested more than {L.MAX_JSON_DEPTH} "
                        f"deep") from None
    if "\\u" in text and _SURROGATE_ESCAPE.search(text):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise JsonError(f"{what}: not valid JSON here: a string holds an unpaired "
                            f"surrogate escape (\\ud800 to \\udfff)") from None
    return value


def check_value(value, what, *, numbers=True):
    """``value`` (an already parsed object, e.g. an API argument) checked against the bounds
    of read_json: only JSON types, nested at most MAX_JSON_DEPTH, and (``numbers``) integers
    of at most MAX_INT_DIGITS digits and finite floats; walked without recursion.  Returns
    ``value``.  (The position loader passes numbers=False: it bounds each number itself and
    names the field.)"""
    big = 10 ** L.MAX_INT_DIGITS
    todo = [(value, 0)]
    while todo:
        v, level = todo.pop()
        if isinstance(v, (dict, list, tuple)):
            if level + 1 > L.MAX_JSON_DEPTH:
                raise JsonError(f"{what}: arrays and objects nested more than "
                                f"{L.MAX_JSON_DEPTH} deep")
            if isinstance(v, dict):
                for k in v:
                    if not isinstance(k, str):
                        raise JsonError(f"{what}: an object key is a {type(k).__name__}, "
                                        f"not a string")
                todo.extend((x, level + 1) for x in v.values())
            else:
                todo.extend((x, level + 1) for x in v)
        elif isinstance(v, bool) or v is None or isinstance(v, str):
            continue
        elif not numbers:
            if not isinstance(v, (int, float)):
                raise JsonError(f"{what}: a {type(v).__name__} is not a JSON value")
        elif isinstance(v, int):
            if not -big < v < big:
                raise JsonError(f"{what}: an integer of more than {L.MAX_INT_DIGITS} digits")
        elif isinstance(v, float):
            if not math.isfinite(v):
                raise JsonError(f"{what}: {v} is not a JSON number")
        else:
            raise JsonError(f"{what}: a {type(v).__name__} is not a JSON value")
    return value


# --- files and stdin --------------------------------------------------------------------------

def _os_reason(e):
    return e.strerror or " ".join(str(e).split())


def _open(path, what):
    """A binary file object for ``path`` after checking what it names; InputError naming
    ``what`` otherwise.  Regular files, pipes and character devices are read; directories,
    sockets and block devices are refused."""
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise InputError(f"{what}: expected a file name, got {type(path).__name__}")
    name = os.fsdecode(path) if not isinstance(path, os.PathLike) else os.fspath(path)
    if name == "":
        raise InputError(f"{what}: the file name is empty")
    if "\0" in str(name):
        raise InputError(f"{what}: the file name holds a NUL character")
    try:
        mode = os.stat(name).st_mode
    except OSError as e:
        raise InputError(f"{what}: cannot read: {_os_reason(e)}") from None
    except ValueError as e:
        raise InputError(f"{what}: cannot read: {e}") from None
    if stat.S_ISDIR(mode):
        raise InputError(f"{what}: is a directory, not a file")
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        raise InputError(f"{what}: is not a regular file")
    try:
        return open(name, "rb")
    except OSError as e:
        raise InputError(f"{what}: cannot read: {_os_reason(e)}") from None


def _read_bounded(f, what, max_bytes):
    chunks, total = [], 0
    while total <= max_bytes:
        chunk = f.read(min(1 << 20, max_bytes + 1 - total))
        if not chunk:
            break
        if isinstance(chunk, str):  # a text stdin without a buffer (tests)
            chunk = chunk.encode("utf-8", "surrogateescape")
        chunks.append(chunk)
        total += len(chunk)
    if total > max_bytes:
        raise InputError(f"{what}: larger than {describe_size(max_bytes)} (the limit of "
                         f"this input)")
    return b"".join(chunks)


def read_input(path, what, *, max_bytes=L.MAX_INPUT_BYTES):
    """The bytes of file ``path`` (``'-'``: stdin), at most ``max_bytes``; at most
    max_bytes + 1 bytes are read.  InputError whose message starts with ``what`` if the path
    names no readable file, a directory, a socket or a block device, or if the input is
    longer."""
    if isinstance(path, str) and path == "-":
        stream = getattr(sys.stdin, "buffer", sys.stdin)
        if stream is None:
            raise InputError(f"{what}: there is no standard input")
        try:
            return _read_bounded(stream, what, max_bytes)
        except OSError as e:
            raise InputError(f"{what}: cannot read: {_os_reason(e)}") from None
    with _open(path, what) as f:
        try:
            return _read_bounded(f, what, max_bytes)
        except OSError as e:
            raise InputError(f"{what}: cannot read: {_os_reason(e)}") from None


def input_lines(path, what, *, max_line_bytes=L.MAX_JSON_BYTES, max_bytes=L.MAX_RECORDS_BYTES,
                gz=None):
    """Yield ``(line number, line bytes without its newline, byte offset of its start, whether
    a newline ended it)`` for each line of file ``path`` (``'-'``: stdin), read one line at a
    time.  With ``gz`` (default: the name ends in ``.gz``) the file is read through gzip and
    the offsets count decompressed bytes.  InputError naming ``what`` (and the line) for a
    line over ``max_line_bytes``, a whole over ``max_bytes``, or a file that cannot be read."""
    import gzip
    import zlib

    if isinstance(path, str) and path == "-":
        raw = getattr(sys.stdin, "buffer", sys.stdin)
        owned = None
    else:
        raw = owned = _open(path, what)
    if gz is None:
        gz = str(os.fspath(path) if isinstance(path, os.PathLike) else path).endswith(".gz")
    try:
        f = gzip.GzipFile(fileobj=raw, mode="rb") if gz else raw
        number = offset = 0
        while True:
            try:
                line = f.readline(max_line_bytes + 2)
            except (OSError, EOFError, zlib.error) as e:
                reason = _os_reason(e) if isinstance(e, OSError) else (" ".join(str(e).split())
                                                                       or "truncated")
                raise InputError(f"{what}: cannot read: {reason}") from None
            if isinstance(line, str):
                line = line.encode("utf-8", "surrogateescape")
            if not line:
                return
            number += 1
            ended = line.endswith(b"\n")
            body = line[:-1] if ended else line
            if body.endswith(b"\r"):
                body = body[:-1]
            if len(body) > max_line_bytes:
                raise InputError(f"{what} line {number}: longer than "
                                 f"{describe_size(max_line_bytes)}")
            if offset + len(line) > max_bytes:
                raise InputError(f"{what}: larger than {describe_size(max_bytes)}")
            yield number, body, offset, ended
            offset += len(line)
    finally:
        if owned is not None:
            owned.close()


# --- numbers ----------------------------------------------------------------------------------

_INT_TEXT = re.compile(r"[+-]?[0-9]+", re.ASCII)
_FLOAT_TEXT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
_BLANK = " \t\r\n"


def _echo(value):
    if isinstance(value, str):
        return repr(L.clip(value, 40))
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 24:
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    return L.clip(repr(value), 40)


def _range_text(lo, hi, lo_open=False, hi_open=False):
    if lo is not None and hi is not None and not lo_open and not hi_open:
        return f"{lo} to {hi}"
    parts = []
    if lo is not None:
        parts.append(f"{'above' if lo_open else 'at least'} {lo}")
    if hi is not None:
        parts.append(f"{'below' if hi_open else 'at most'} {hi}")
    return " and ".join(parts) or "any"


def parse_int(value, what, lo=None, hi=None):
    """The integer in ``value``: a text of ASCII digits with an optional sign (at most
    limits.MAX_INT_DIGITS digits, blanks around allowed) or an int (not a bool), lo <= n <= hi
    (None: unbounded).  InputError whose message starts with ``what`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InputError(f"{what}: expected an integer, got {_echo(value)}")
    if isinstance(value, str):
        text = value.strip(_BLANK)
        if len(text) > L.MAX_INT_DIGITS + 1 or not _INT_TEXT.fullmatch(text) or \
                len(text.lstrip("+-")) > L.MAX_INT_DIGITS:
            raise InputError(f"{what}: {_echo(value)} is not an integer (ASCII digits, at most "
                             f"{L.MAX_INT_DIGITS})")
        number = int(text)
    else:
        number = int(value)
    if (lo is not None and number < lo) or (hi is not None and number > hi):
        raise InputError(f"{what}: {_echo(number)} is out of range ({_range_text(lo, hi)})")
    return number


def parse_float(value, what, lo=None, hi=None, *, lo_open=False, hi_open=False):
    """The finite number in ``value``: a decimal text in ASCII (at most
    limits.MAX_NUMBER_CHARS characters) or an int or float (not a bool), within lo..hi
    (``lo_open``/``hi_open``: the bound itself excluded).  InputError starting with ``what``
    otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InputError(f"{what}: expected a number, got {_echo(value)}")
    if isinstance(value, str):
        text = value.strip(_BLANK)
        if len(text) > L.MAX_NUMBER_CHARS or not _FLOAT_TEXT.fullmatch(text):
            raise InputError(f"{what}: {_echo(value)} is not a number (ASCII decimal, at most "
                             f"{L.MAX_NUMBER_CHARS} characters)")
        number = float(text)
    elif isinstance(value, int):
        if abs(value) >= 10 ** L.MAX_INT_DIGITS:
            raise InputError(f"{what}: {_echo(value)} is out of range "
                             f"({_range_text(lo, hi, lo_open, hi_open)})")
        number = float(value)
    else:
        number = float(value)
    if not math.isfinite(number):
        raise InputError(f"{what}: {_echo(value)} is not a finite number")
    if (lo is not None and (number < lo or (lo_open and number == lo))) or \
            (hi is not None and (number > hi or (hi_open and number == hi))):
        raise InputError(f"{what}: {L.clip(value if isinstance(value, str) else repr(value), 40)}"
                         f" is out of range ({_range_text(lo, hi, lo_open, hi_open)})")
    return number
