"""The engine line protocol (docs/PROTOCOL.md): parse and serialise its messages.

One message is one JSON object on one line, its kind in ``"type"``.  This module only checks
the shape of messages (types, ranges, required and unknown keys); it knows nothing of the
search (engine_server.py) nor of processes (external.py).  Every problem is a ProtocolError
whose message names the key at fault, so a server can answer one ``error`` line and go on.
"""
import json
import math

from tne_ai.errors import TneError
from tne_ai.core.io.json_reader import read_json
from tne_ai import limits as L
from tne_ai.limits import clip

PROTOCOL_VERSION = 1
MAX_LINE = 4 << 20          # bytes in one line; a longer line is refused
MAX_ITERATIONS = L.MAX_ITERATIONS    # go's budget and threads: the search's own bounds
MAX_SECONDS = L.MAX_SECONDS
MAX_THREADS = L.MAX_THREADS

# client -> engine: type -> (required keys, optional keys)
CLIENT_MESSAGES = {
    "hello": ((), ("protocol",)),
    "isready": ((), ()),
    "setoption": (("name", "value"), ()),
    "newgame": ((), ()),
    "position": ((), ("position", "game", "ply", "legal")),
    "go": ((), ("iterations", "time", "threads", "infinite")),
    "stop": ((), ()),
    "quit": ((), ()),
}
# engine -> client
ENGINE_MESSAGES = {
    "hello": (("name", "version", "protocol"), ("options",)),
    "readyok": ((), ()),
    "info": (("iterations", "seconds"), ("nodes", "move", "win", "pv")),
    "bestmove": (("move",), ("win", "pv", "pv_win", "iterations", "nodes", "seconds",
                             "alternatives")),
    "error": (("message",), ()),
}


class ProtocolError(TneError):
    """A line that is not a valid protocol message; the text names what is wrong."""


def encode(message):
    """The line (without newline) of a message dict."""
    return json.dumps(message, separators=(",", ":"), allow_nan=False)


def _decode(line, table, side):
    """The message on ``line`` (str, or bytes decoded strictly as UTF-8), read by
    tne_ai.core.io.read_json: at most MAX_LINE bytes, nested at most limits.MAX_JSON_DEPTH deep,
    integers of at most limits.MAX_INT_DIGITS digits, finite numbers (docs/cli.md, "Limits")."""
    if isinstance(line, (bytes, bytearray)):
        text = bytes(line).strip()
    elif isinstance(line, str):
        text = line.strip()
    else:
        raise ProtocolError(f"a line is text, not {type(line).__name__}")
    if not text:
        raise ProtocolError("empty line")
    if len(text) > MAX_LINE:
        raise ProtocolError(f"the line is longer than {MAX_LINE} bytes")
    try:
        msg = read_json(text, "line", max_bytes=MAX_LINE)
    except TneError as e:  # the message names the line already: drop the reader's "line: "
        raise ProtocolError(" ".join(str(e).split()).removeprefix("line: ")) from None
    if not isinstance(msg, dict):
        raise ProtocolError(f"a message is a JSON object, not {type(msg).__name__}")
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("the message has no \"type\" string")
    if kind not in table:
        raise ProtocolError(f"unknown message type '{clip(json.dumps(kind)[1:-1], 60)}' (known to the {side}: "
                            f"{', '.join(table)})")
    required, optional = table[kind]
    for key in required:
        if key not in msg:
            raise ProtocolError(f"{kind}: missing \"{key}\"")
    for key in msg:
        if key != "type" and key not in required and key not in optional:
            raise ProtocolError(f"{kind}: unknown key {clip(json.dumps(key), 60)}")
    return msg


def _number(msg, key, lo, hi, integer):
    value = msg[key]
    ok = isinstance(value, int) and not isinstance(value, bool) if integer else \
        isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if not ok:
        raise ProtocolError(f"{msg['type']}: \"{key}\" must be {'an integer' if integer else 'a number'}"
                            f", not {_echo(value)}")
    if not lo <= value <= hi or (not integer and value <= 0):
        bound = f"{lo} to {hi}" if integer else f"above 0 and at most {hi:g}"
        raise ProtocolError(f"{msg['type']}: \"{key}\" {_echo(value)} is out of range ({bound})")
    return value


def line_reader(stream, max_line=MAX_LINE):
    """A ``read_line()`` for a binary stream (stdin's buffer): each call returns the next
    line as bytes, b"" at the end of input.  A line longer than ``max_line`` comes back cut to
    max_line + 1 bytes (so the decoder refuses it) and the rest of it is skipped, so no line
    is ever held whole; bytes are not decoded here (the decoder refuses invalid UTF-8 with an
    error line, whatever the locale)."""
    def read_line():
        line = stream.readline(max_line + 2)
        if len(line) <= max_line + 1 or line.endswith(b"\n"):
            return line
        while True:  # skip the rest of the overlong line
            more = stream.readline(1 << 16)
            if not more or more.endswith(b"\n"):
                return line[:max_line + 1] + b"\n"
    return read_line


def _echo(value):
    """A short text of a (hostile) value for an error message."""
    try:
        return clip(json.dumps(value), 60)
    except (TypeError, ValueError):
        return clip(repr(value), 60)


def parse_client(line):
    """A client line -> message dict, checked; ProtocolError naming the problem."""
    msg = _decode(line, CLIENT_MESSAGES, "engine")
    kind = msg["type"]
    if kind == "hello" and "protocol" in msg:
        _number(msg, "protocol", 1, 1000, True)
    elif kind == "setoption":
        if not isinstance(msg["name"], str):
            raise ProtocolError("setoption: \"name\" must be a string")
    elif kind == "position":
        has_pos, has_game = "position" in msg, "game" in msg
        if has_pos == has_game:
            raise ProtocolError("position: give either \"position\" (a tne-position/1) or "
                                "\"game\" (a tne-game/1) with \"ply\"")
        if has_pos and "ply" in msg:
            raise ProtocolError("position: \"ply\" goes with \"game\", not with \"position\"")
        if has_pos and not isinstance(msg["position"], dict):
            raise ProtocolError("position: \"position\" must be a tne-position/1 object")
        if has_game:
            if not isinstance(msg["game"], dict):
                raise ProtocolError("position: \"game\" must be a tne-game/1 object")
            if "ply" in msg:
                _number(msg, "ply", 0, 1_000_000, True)
        if "legal" in msg and not (isinstance(msg["legal"], list)
                                   and all(isinstance(m, str) for m in msg["legal"])):
            raise ProtocolError("position: \"legal\" must be a list of move texts")
    elif kind == "go":
        # the budget and threads are search options: checked by their SearchConfig rows, so
        # the line is the one every face gives (go: option threads=0 is out of range ...)
        from tne_ai.search.config import SearchConfigError, check_value
        for key in ("iterations", "time", "threads"):
            if key in msg:
                # null is no budget: refused as a bare go is (taken as absent, it would
                # start a search without end)
                if msg[key] is None:
                    raise ProtocolError(f"go: option {key}=null: needs a value")
                try:
                    check_value(key, msg[key], f"go: option {key}={_echo(msg[key])}")
                except SearchConfigError as e:
                    raise ProtocolError(str(e)) from None
        infinite = msg.get("infinite", False)
        if not isinstance(infinite, bool):
            raise ProtocolError("go: \"infinite\" must be true or false")
        if infinite and ("iterations" in msg or "time" in msg):
            raise ProtocolError("go: \"infinite\" excludes \"iterations\" and \"time\"")
        if not infinite and "iterations" not in msg and "time" not in msg:
            raise ProtocolError("go: give \"iterations\", \"time\" (seconds) or "
                                "\"infinite\": true")
    return msg


def parse_engine(line):
    """An engine line -> message dict, checked as far as a client needs."""
    msg = _decode(line, ENGINE_MESSAGES, "client")
    kind = msg["type"]
    if kind == "bestmove" and not isinstance(msg["move"], str):
        raise ProtocolError("bestmove: \"move\" must be a move text")
    if kind == "error" and not isinstance(msg["message"], str):
        raise ProtocolError("error: \"message\" must be a string")
    return msg


# --- engine options -----------------------------------------------------------------------

class Option:
    """One engine option as ``hello`` lists it: name, type (int, float, bool), default and,
    for numbers, the inclusive range."""

    def __init__(self, name, kind, default, lo=None, hi=None, doc=""):
        self.name, self.kind, self.default, self.lo, self.hi, self.doc = \
            name, kind, default, lo, hi, doc

    def to_dict(self):
        d = {"name": self.name, "type": self.kind, "default": self.default}
        if self.lo is not None:
            d["min"], d["max"] = self.lo, self.hi
        if getattr(self, "low_open", False):
            d["min_open"] = True          # the minimum itself is not allowed
        if getattr(self, "choices", ()):
            d["choices"] = list(self.choices)
        if self.doc:
            d["doc"] = self.doc
        return d

    def check(self, value):
        """The value if it fits this option; ProtocolError naming the option otherwise."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ProtocolError(f"option {self.name}: expected true or false, "
                                    f"not {_echo(value)}")
            return value
        if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                (self.kind == "int" and not isinstance(value, int)) or not math.isfinite(value):
            raise ProtocolError(f"option {self.name}: expected {'an integer' if self.kind == 'int' else 'a number'}"
                                f", not {_echo(value)}")
        if not self.lo <= value <= self.hi:
            raise ProtocolError(f"option {self.name}: {_echo(value)} is out of range "
                                f"({self.lo} to {self.hi})")
        return int(value) if self.kind == "int" else float(value)
