"""Property-based fuzzing of everything a user can hand to tne_ai: position files, move
strings, game records and records files, engine protocol lines, every CLI command and option,
and the successors of every accepted position.

The contract (docs/cli.md, its opening; DESIGN.md, conventions): every input is either accepted or
rejected with one clear error.  Accepted means the position works: its legal moves list, a
few of them push, and it saves and loads back to the same file.  Rejected means a TneError in
the API, and on the command line exit status 2 with exactly one stderr line
``tne: error: ...``, no traceback and no file written.  Any other exception fails the test.

Inputs are mutations of real positions (reached by seeded random play: every pending kind,
hidden hands, a counted bag, a finished game), of real game records (a tournament's, the
shipped examples, one with a review in meta.analysis), of protocol messages, of legal move
texts and of valid command lines, with values chosen to hit the edges: bounds and one past
them, huge and negative integers, nan and inf, non-ASCII digits, deep nesting, invalid UTF-8.
Accepted positions must also be closed under play: every successor within a few random plies
loads again (the loader's bounds hold for what the engine writes).

A plain run draws a few hundred examples per target; ``pytest -m fuzz`` draws 10,000
(tests/conftest.py).
"""
import copy
import functools
import json
import re
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import event, given, strategies as st

from tne_ai.cli import main
from tne_ai import limits as L
from tne_ai.core.board import COLOURS
from tne_ai.core.rules.rng import below, make_rng
from tne_ai.errors import TneError
from tne_ai.position import Position

pytestmark = pytest.mark.fuzz
ROOT = Path(__file__).resolve().parent.parent
START = ROOT / "examples" / "start.json"


# --- the corpus: real positions -------------------------------------------------------------

def _kind(p):
    pend = p.pending
    if pend is None:
        return "over" if p.is_over() else None
    return pend["kind"] + ("+commit" if pend.get("attacker_commit") is not None else "")


@functools.lru_cache(maxsize=None)
def corpus():
    """Position files from seeded random games (2, 3 and 4 players, until every pending kind
    was met): the start, the first position of every pending kind in each game, the end,
    and every 50th position with the hands of all but the player to act hidden (bag
    omitted) and with the bag as counts."""
    out = []
    met = set()
    for game in range(30):
        if game >= 3 and {"revolt", "war-choice", "war", "monument", "treasure"} <= met:
            break
        p = Position.new(2 + game % 3, seed=game)
        rng = make_rng(100 + game)
        seen = set()
        out.append(p.to_json())
        ply = 0
        while not p.is_over():
            codes = p.legal_codes()
            p.push(codes[below(rng, len(codes))])
            ply += 1
            kind = _kind(p)
            if kind not in seen:
                seen.add(kind)
                out.append(p.to_json())
            if ply % 50 == 0 and not p.is_over():
                known = [i == p.to_act for i in range(p.players)]
                out.append(Position(p.st.copy(), known, bag_known=False).to_json())
                counted = p.to_json()
                counted["bag"] = {c: counted["bag"].count(c[0] if c != "black" else "k")
                                  for c in COLOURS}
                out.append(counted)
        met |= {k.split("+")[0] for k in seen if k}
    return out


def test_the_corpus_covers_every_pending_kind_hidden_hands_and_counted_bags():
    docs = corpus()
    kinds = {(d["pending"] or {}).get("kind") for d in docs}
    assert kinds == {None, "revolt", "war-choice", "war", "monument", "treasure"}
    assert any(None in d["hands"] and "bag" not in d for d in docs)
    assert any(isinstance(d.get("bag"), dict) for d in docs)
    assert any(d["actions_left"] == 0 for d in docs)


# --- values that hit the edges ---------------------------------------------------------------

EDGE_INTS = [0, 1, -1, 2, 3, 4, 5, 6, 7, 10, 11, 15, 16, 152, 153, 154, 175, 176, 2 ** 31 - 1,
             2 ** 31, 2 ** 63 - 1, 2 ** 63, -2 ** 63, -2 ** 63 - 1, 10 ** 30, 10 ** 31,
             L.MAX_SCORE, L.MAX_SCORE + 1, 10 ** 400]
EDGE_TEXT = ["A1", "a1", "P11", "Q1", "A0", "A01", "A12", "A²", "K¹", "B٢", "٣", "²", "", " ",
             "red", "Red", "blue", "green", "black", "pink", "r", "k", "red-blue", "x",
             "revolt", "war", "war-choice", "monument", "treasure", "tne-position/1",
             "." * 16, "~" * 16, "rbgk" * 40, "\x00", "\ud800", "é" * 300, "A" * 5000]


def nested(depth):
    value = []
    for _ in range(depth):
        value = [value]
    return value


LEAVES = st.one_of(st.none(), st.booleans(), st.sampled_from(EDGE_INTS),
                   st.integers(-10 ** 20, 10 ** 20),
                   st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(EDGE_TEXT),
                   st.text(max_size=6), st.integers(20, 1500).map(nested))
VALUES = st.recursive(LEAVES, lambda kids: st.lists(kids, max_size=4)
                      | st.dictionaries(st.text(max_size=8) | st.sampled_from(["kind", "red"]),
                                        kids, max_size=3), max_leaves=8)


SQUARES = [f"{f}{r}" for r in range(1, 12) for f in "ABCDEFGHIJKLMNOP"]


def nudge(data, value):
    """A near miss of value: an integer one off, another square or colour or board row."""
    if isinstance(value, bool) or value is None:
        return data.draw(st.sampled_from([None, True, False, 0]))
    if isinstance(value, int):
        return value + data.draw(st.sampled_from([-1, 1, 2, -value]))
    if isinstance(value, str) and value in SQUARES:
        return data.draw(st.sampled_from(SQUARES))
    if isinstance(value, str) and value in COLOURS:
        return data.draw(st.sampled_from(COLOURS))
    if isinstance(value, str) and len(value) == 16:
        at = data.draw(st.integers(0, 15))
        return value[:at] + data.draw(st.sampled_from(list(".~rbgk#x"))) + value[at + 1:]
    return data.draw(VALUES)


def mutate(data, doc):
    """doc with 0 to 3 edits, each at a random place: a value nudged or replaced, a key or
    list entry deleted, an unknown key added, or a list entry duplicated."""
    doc = copy.deepcopy(doc)
    for _ in range(data.draw(st.integers(0, 3))):
        node = doc
        while True:
            slots = list(node) if isinstance(node, dict) else list(range(len(node)))
            if not slots:
                node_op = "add"
                break
            slot = data.draw(st.sampled_from(slots))
            child = node[slot]
            if isinstance(child, (dict, list)) and child and data.draw(st.booleans()):
                node = child
                continue
            node_op = data.draw(st.sampled_from(["nudge", "nudge", "nudge", "set", "set",
                                                 "delete", "add", "copy"]))
            break
        if node_op == "nudge":
            node[slot] = nudge(data, node[slot])
        elif node_op == "set":
            node[slot] = data.draw(VALUES)
        elif node_op == "delete":
            del node[slot]
        elif node_op == "copy" and isinstance(node, list):
            node.append(node[slot])     # shared, not copied: it may be nested 1,500 deep
        elif isinstance(node, dict):
            node[data.draw(st.text(max_size=8))] = data.draw(VALUES)
        else:
            node.append(data.draw(VALUES))
    return doc


def mutate_bytes(data, raw):
    """raw (bytes) with 0 to 4 byte-level edits: flips, inserts, deletions, a cut end."""
    raw = bytearray(raw)
    for _ in range(data.draw(st.integers(0, 4))):
        op = data.draw(st.sampled_from(["flip", "insert", "delete", "cut"]))
        at = data.draw(st.integers(0, max(0, len(raw) - 1)))
        if op == "flip" and raw:
            raw[at] = data.draw(st.integers(0, 255))
        elif op == "insert":
            raw[at:at] = data.draw(st.binary(min_size=1, max_size=6)
                                   | st.sampled_from([b"\xff", b"\xc3", "²".encode(), b"[[[["]))
        elif op == "delete":
            del raw[at:at + data.draw(st.integers(1, 20))]
        else:
            del raw[at:]
    return bytes(raw)


# --- the outcome ---------------------------------------------------------------------------

def exercise(p, data):
    """An accepted position works: legal moves, up to three pushes, a save/load round trip."""
    for _ in range(3):
        if p.is_over() or p.hand(p.to_act) is None:
            break
        moves = p.legal_moves()
        assert moves, "a position not over has a legal move"
        p.push(moves[data.draw(st.integers(0, len(moves) - 1))])
    saved = p.to_json()
    again = Position.from_json(json.dumps(saved))
    assert again.to_json() == saved


def load_or_reject(data, value):
    try:
        p = Position.from_json(value)
    except TneError:
        event("rejected")
        return None
    event("accepted")
    exercise(p, data)
    return p


@given(st.data())
def test_mutated_position_objects_are_accepted_or_rejected_with_a_tne_error(data):
    doc = mutate(data, data.draw(st.sampled_from(corpus())))
    load_or_reject(data, doc)


@given(st.data())
def test_mutated_position_bytes_are_accepted_or_rejected_with_a_tne_error(data):
    doc = data.draw(st.sampled_from(corpus()))
    raw = json.dumps(doc, indent=data.draw(st.sampled_from([None, 1]))).encode()
    load_or_reject(data, mutate_bytes(data, raw))


MOVE_CHARS = st.sampled_from(list("abcdefghijklmnopqrstuvwxyzABKP0123456789 -_\t\n²¹٣٠０é") +
                             ["\u2003", "\u212a", "\x00"])


@given(st.data())
def test_mutated_move_texts_are_accepted_or_rejected_with_a_tne_error(data):
    docs = [d for d in corpus() if d["actions_left"] and None not in d["hands"]]
    p = Position.from_json(data.draw(st.sampled_from(docs)))
    texts = [str(m) for m in p.legal_moves()]
    text = data.draw(st.sampled_from(texts))
    chars = list(text)
    for _ in range(data.draw(st.integers(0, 4))):
        at = data.draw(st.integers(0, len(chars)))
        op = data.draw(st.sampled_from(["insert", "replace", "delete"]))
        if op == "insert" or not chars:
            chars.insert(at, data.draw(MOVE_CHARS))
        elif op == "replace":
            chars[min(at, len(chars) - 1)] = data.draw(MOVE_CHARS)
        else:
            del chars[min(at, len(chars) - 1)]
    move = data.draw(st.sampled_from(["".join(chars)]) | st.text(max_size=30)
                     | st.none() | st.booleans() | st.floats() | st.binary(max_size=8)
                     | st.sampled_from(EDGE_INTS) | st.lists(st.integers(), max_size=2))
    before = p.to_json()
    try:
        p.push(move)
    except TneError:
        event("rejected")
        assert p.to_json() == before      # a refused move changes nothing
        return
    event("accepted")
    exercise(p, data)


# --- the command line ---------------------------------------------------------------------

BAD_COUNTS = ["-1", "0", "99999999999999999999", "٣", "1_0", "abc", "", "1.5", "inf", "nan",
              "1e3", "9" * 5000, "--help-not"]
BAD_SECONDS = ["0", "-1", "inf", "-inf", "nan", "1e400", "3601", "abc", "", "٣", "1_0"]
BAD_SPECS = ["x=mcts:iterations=99999999999999999999", "x=mcts:time=inf", "x=mcts:c=nan",
             "x=mcts:leader=nan", "x=mcts:time=nan", "y=nosuch", "=random", "a=random",
             "z=random:seed=-1", "q", "w=mcts:iterations=٣", "v=" + "r" * 4000]
OPTIONS = {
    "--players": ["2", "3"] + BAD_COUNTS + ["5", "7", "1"],
    "--seed": ["0", "7"] + BAD_COUNTS,
    "--iterations": ["1", "4"] + BAD_COUNTS,
    "--time": ["0.01"] + BAD_SECONDS,
    "--threads": ["1", "2"] + BAD_COUNTS + ["65"],
    "--games": ["1"] + BAD_COUNTS + ["100001"],
    "--jobs": ["1"] + BAD_COUNTS + ["65"],
    "--max-moves": ["5"] + BAD_COUNTS + ["50001"],
    "--ply": ["0", "3"] + BAD_COUNTS,
    "--as": ["0", "1", "bob", "-1", "4", "9"],
    "--seat": ["0", "bob", "-1", "4"],
    "--ai": ["random", "greedy", "mcts:time=inf", "nosuch", "mcts:iterations=0"],
    "--sprt": ["0,5", "x", "1", "nan,inf", ""],
}
COMMANDS = {
    "new": ["--players", "--seed"],
    "legal": ["--seed"],
    "apply": ["--seed"],
    "show": ["--as"],
    "bestmove": ["--iterations", "--time", "--threads", "--seed"],
    "replay": ["--ply"],
    "tournament": ["--players", "--games", "--seed", "--jobs", "--max-moves", "--sprt"],
}


PROGRESS_LINE = re.compile(r"tne (train|tournament|analyse): |tne: (compiling the kernels|kernels compiled)")


def check_cli(result, written):
    """exit 0, or exit 2 with one stderr line and none of ``written`` on disk."""
    assert "Traceback" not in result.output, result.output
    if result.exit_code == 0:
        event("accepted")
        return
    event("rejected")
    assert result.exit_code == 2, (result.exit_code, result.output)
    # a command that had begun its work may have reported progress on stderr first
    # ('tne train: reading positions: game 1 of 1'); the refusal itself is one line
    lines = [ln for ln in result.stderr.splitlines() if not PROGRESS_LINE.match(ln)]
    assert len(lines) == 1 and lines[0].startswith("tne: error: "), result.stderr
    assert len(lines[0]) <= 2 * L.MAX_ECHO + 120, lines[0]
    for path in written:
        assert not path.exists(), path


@functools.lru_cache(maxsize=None)
def records_text():
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "r.jsonl"
        result = CliRunner().invoke(main, ["tournament", "--agent", "a=random", "--agent",
                                           "b=random", "--games", "1", "--out", str(out)])
        assert result.exit_code == 0, result.output
        return out.read_text()


@given(st.data())
def test_fuzzed_command_lines_succeed_or_fail_in_one_line(data):
    command = data.draw(st.sampled_from(sorted(COMMANDS)))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        position = data.draw(st.sampled_from([str(START), str(tmp / "missing.json"), str(tmp),
                                              "-"]))
        records = tmp / "r.jsonl"
        records.write_text(records_text())
        out, svg = tmp / "out.json", tmp / "out.svg"
        args = [command]
        if command in ("legal", "apply", "show", "bestmove"):
            args.append(position)
        if command == "replay":
            args.append(data.draw(st.sampled_from([str(records), str(START), str(tmp)])))
        if command in ("legal", "apply"):
            args += data.draw(st.lists(st.sampled_from(["pass", "tile red A1", "commit 0",
                                                        "tile red A²", "leader red A01",
                                                        "commit ²", "swap rrrrrrr", ""]),
                                       min_size=0, max_size=2))
        if command == "apply":
            args += ["-o", data.draw(st.sampled_from([str(out), str(tmp)]))]
        if command in ("show", "bestmove") and data.draw(st.booleans()):
            args += ["--svg", data.draw(st.sampled_from([str(svg), str(tmp)]))]
        if command == "bestmove":
            args += ["--iterations", "3"]
        if command == "tournament":
            agents = data.draw(st.lists(st.sampled_from(["a=random", "b=random", "m=mcts:iterations=1"]
                                                        + BAD_SPECS), min_size=1, max_size=3))
            for agent in agents:
                args += ["--agent", agent]
            args += ["--out", str(records) if data.draw(st.booleans()) else str(tmp / "t.jsonl"),
                     "--max-moves", "40"]
            if data.draw(st.booleans()):
                args.append("--resume")
        for option in data.draw(st.lists(st.sampled_from(COMMANDS[command]), max_size=3)):
            args += [option, data.draw(st.sampled_from(OPTIONS[option]))]
        stdin = data.draw(st.sampled_from(["", START.read_text(), "[" * 1200, "\xff"]))
        written = [out, svg] + ([tmp / "t.jsonl"] if command == "tournament" else [])
        result = CliRunner().invoke(main, args, input=stdin)
        check_cli(result, written)


@given(st.data())
def test_mutated_position_files_through_the_cli_succeed_or_fail_in_one_line(data):
    doc = data.draw(st.sampled_from(corpus()))
    raw = json.dumps(doc, indent=1).encode()
    if data.draw(st.booleans()):
        raw = json.dumps(mutate(data, doc), indent=1).encode()
    else:
        raw = mutate_bytes(data, raw)
    with tempfile.TemporaryDirectory() as tmp:
        path, out = Path(tmp) / "p.json", Path(tmp) / "o.json"
        path.write_bytes(raw)
        command = data.draw(st.sampled_from(["legal", "apply", "show"]))
        args = [command, str(path)]
        if command == "apply":
            args += [data.draw(st.sampled_from(["pass", "commit 0", "decline"])), "-o", str(out)]
        check_cli(CliRunner().invoke(main, args), [out])


# --- accepted implies every successor loads -----------------------------------------------------

SCORE_EDGES = [L.MAX_SCORE, L.MAX_SCORE - 1, L.MAX_SCORE - 3]


def edge_scores(data, doc):
    """doc with 0 to 3 colour scores set at or just below the loader's bound."""
    doc = copy.deepcopy(doc)
    for _ in range(data.draw(st.integers(0, 3))):
        player = data.draw(st.integers(0, doc["players"] - 1))
        doc["scores"][player][data.draw(st.sampled_from(COLOURS))] = \
            data.draw(st.sampled_from(SCORE_EDGES))
    return doc


@given(st.data())
def test_every_successor_of_an_accepted_position_loads(data):
    doc = mutate(data, edge_scores(data, data.draw(st.sampled_from(corpus()))))
    try:
        p = Position.from_json(doc)
    except TneError:
        event("rejected")
        return
    event("accepted")
    for _ in range(data.draw(st.integers(1, 8))):
        if p.is_over() or p.hand(p.to_act) is None:
            break
        codes = p.legal_codes()
        p.push(int(codes[data.draw(st.integers(0, len(codes) - 1))]))
        saved = p.to_json()
        assert Position.from_json(json.dumps(saved)).to_json() == saved


# --- game records and records files -------------------------------------------------------------

BLUNDER = ROOT / "examples" / "planted_blunder.jsonl"
GAMES = ROOT / "examples" / "greedy_vs_mcts.jsonl"


@functools.lru_cache(maxsize=None)
def reviewed_record():
    """The planted-blunder record with its review in meta.analysis (tne analyse -o)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "a.jsonl"
        result = CliRunner().invoke(main, ["analyse", str(BLUNDER), "--iterations", "50",
                                           "-o", str(out)])
        assert result.exit_code == 0, result.output
        return json.loads(out.read_text())


@functools.lru_cache(maxsize=None)
def record_corpus():
    """Real records: a tournament's (random agents), the shipped examples, a reviewed one."""
    records = [json.loads(line) for line in records_text().splitlines()]
    records.append(json.loads(BLUNDER.read_text().splitlines()[0]))
    records.append(json.loads(GAMES.read_text().splitlines()[0]))
    records.append(reviewed_record())
    return records


def small_records():
    """The records short enough to analyse in a fuzz example (a few moves)."""
    return [r for r in record_corpus() if len(r["moves"]) <= 8]


def record_bytes(data, records):
    """A records file's bytes: mutated records as JSON lines or one pretty-printed record,
    or bytes edited after the text was made."""
    chosen = data.draw(st.lists(st.sampled_from(records), min_size=1, max_size=2))
    chosen = [mutate(data, r) if data.draw(st.booleans()) else r for r in chosen]
    if len(chosen) == 1 and data.draw(st.booleans()):
        raw = json.dumps(chosen[0], indent=1).encode()
    else:
        raw = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in chosen).encode()
    if data.draw(st.booleans()):
        raw = mutate_bytes(data, raw)
    return raw


@given(st.data())
def test_mutated_records_are_accepted_or_rejected_with_a_tne_error(data):
    from tne_ai.core.formats import load_game_record
    from tne_ai.matches.tournament import replay
    record = mutate(data, data.draw(st.sampled_from(record_corpus())))
    try:
        checked = load_game_record(record)
        # a few moves in (a whole game of pushes is slow), or one past the end
        p = replay(checked, data.draw(st.integers(0, min(8, len(checked["moves"])))
                                      | st.just(len(checked["moves"]) + 1)))
    except TneError:
        event("rejected")
        return
    event("accepted")
    saved = p.to_json()
    assert Position.from_json(json.dumps(saved)).to_json() == saved


@given(st.data())
def test_mutated_records_files_through_replay_and_analyse_succeed_or_fail_in_one_line(data):
    command = data.draw(st.sampled_from(["replay", "analyse"]))
    raw = record_bytes(data, record_corpus() if command == "replay" else small_records())
    with tempfile.TemporaryDirectory() as tmp:
        path, out = Path(tmp) / "r.jsonl", Path(tmp) / "o.jsonl"
        path.write_bytes(raw)
        args = [command, str(path)]
        if data.draw(st.booleans()):
            args += ["--game", data.draw(st.sampled_from(["t0-d0-r0", "planted-blunder", "x",
                                                          ""]))]
        if command == "replay":   # a few moves in (a whole game of pushes is slow)
            args += ["--ply", data.draw(st.sampled_from(["0", "1", "3", "200", "-1", "1_0"]))]
            if data.draw(st.booleans()):
                args.append("--json")
        else:
            args += ["--iterations", "2", "-o", str(out)]
        check_cli(CliRunner().invoke(main, args), [out])


# --- engine protocol lines ------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def protocol_corpus():
    """One valid client message of each kind (docs/PROTOCOL.md), positions and games real."""
    from tne_ai.protocol.server import OPTIONS as ENGINE_OPTIONS
    messages = [{"type": "hello", "protocol": 1}, {"type": "isready"}, {"type": "newgame"},
                {"type": "go", "iterations": 10}, {"type": "go", "time": 0.5, "threads": 2},
                {"type": "go", "infinite": True}, {"type": "stop"}, {"type": "quit"}]
    messages += [{"type": "setoption", "name": o.name, "value": o.default}
                 for o in ENGINE_OPTIONS]
    messages += [{"type": "position", "position": d} for d in corpus()[:12]]
    messages += [{"type": "position", "position": corpus()[0],
                  "legal": ["pass", "tile red A1"]}]
    messages += [{"type": "position", "game": r, "ply": min(2, len(r["moves"]))}
                 for r in small_records()]
    return messages


@given(st.data())
def test_mutated_protocol_lines_are_one_error_or_handled(data):
    """A client line is refused with a ProtocolError, or handled by the engine's handler
    with at most a TneError (which the engine answers as one error line); searches (go,
    stop, quit) are left to tests/test_engine_server.py."""
    from tne_ai.protocol.server import EngineServer
    from tne_ai.protocol.messages import ProtocolError, parse_client
    message = data.draw(st.sampled_from(protocol_corpus()))
    if data.draw(st.booleans()):
        raw = json.dumps(mutate(data, message)).encode()
    else:
        raw = mutate_bytes(data, json.dumps(message).encode())
    try:
        msg = parse_client(raw)
    except ProtocolError as e:
        assert "\n" not in str(e)
        event("rejected")
        return
    event("accepted")
    if msg["type"] in ("go", "stop", "quit"):
        return
    sent = []
    server = EngineServer(read_line=lambda: b"", write_line=sent.append)
    try:
        getattr(server, "do_" + msg["type"])(msg)
    except TneError as e:
        assert "\n" not in str(e)
    for line in sent:
        assert "\n" not in line and json.loads(line)["type"] in ("hello", "readyok", "error")


# --- every other command and option -------------------------------------------------------------

MORE_OPTIONS = {
    "--holdout": ["0.2", "0.5", "0", "1", "-0.1", "nan", "inf", "1e400", "٣", "1_0", ""],
    "--every": ["1", "2"] + BAD_COUNTS + ["1001"],
    "--game": ["t0-d0-r0", "planted-blunder", "nope", ""],
    "--backend": ["local", "ray-not", ""],
    "--table": ["a,b", "a,a", "a", "a,b,c,d,e", "x,y", ""],
    "--ai-play": ["random", "greedy", "mcts:time=inf", "nosuch", "mcts:iterations=0",
                  "mcts:weights=/nonexistent.npz"],
}
MORE_COMMANDS = {
    "analyse": ["--iterations", "--time", "--seed", "--jobs", "--game"],
    "train": ["--games", "--players", "--seed", "--jobs", "--holdout", "--every", "--backend"],
    "play": ["--players", "--seat", "--seed", "--ai-play"],
    "tournament": ["--table", "--backend", "--games", "--players"],
    "bench": [],
}


def bad_file(data, tmp, name):
    """A file that is not what a command wants: missing, a directory, endless, deep, a
    position where a record goes..."""
    choice = data.draw(st.sampled_from(["missing", "directory", "position", "deep", "empty",
                                        "bytes"]))
    path = tmp / name
    if choice == "missing":
        return str(tmp / "missing" / name)
    if choice == "directory":
        return str(tmp)
    if choice == "position":
        path.write_text(START.read_text())
    elif choice == "deep":
        path.write_text("[" * 100_000)
    elif choice == "empty":
        path.write_text("")
    else:
        path.write_bytes(data.draw(st.binary(max_size=40)))
    return str(path)


@given(st.data())
def test_fuzzed_command_lines_of_the_other_commands_succeed_or_fail_in_one_line(data):
    command = data.draw(st.sampled_from(sorted(MORE_COMMANDS)))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        records = tmp / "r.jsonl"
        records.write_text(records_text())
        small = tmp / "small.jsonl"
        small.write_text(json.dumps(small_records()[0]) + "\n")
        out, weights, plot = tmp / "o.jsonl", tmp / "w.npz", tmp / "p.svg"
        args, stdin, written = [command], "", [out, weights]
        if command == "analyse":
            args.append(data.draw(st.sampled_from([str(small), bad_file(data, tmp, "a.jsonl")])))
            args += ["-o", data.draw(st.sampled_from([str(out), str(tmp), ""]))]
            if data.draw(st.booleans()):
                args += ["--plot", data.draw(st.sampled_from([str(tmp / "p.txt"), str(tmp)]))]
            if "--iterations" not in args:
                args += ["--iterations", "2"]
        elif command == "train":
            args += ["--agent", data.draw(st.sampled_from(["random", "greedy", "nosuch"]))]
            args += ["--data", data.draw(st.sampled_from([str(records), str(small),
                                                          bad_file(data, tmp, "d.jsonl")]))]
            args += ["-o", data.draw(st.sampled_from([str(weights), str(tmp), ""]))]
            if data.draw(st.booleans()):
                args += ["--records", data.draw(st.sampled_from([str(out), str(tmp)]))]
            args += ["--games", "0"]
        elif command == "play":
            args += ["--out", data.draw(st.sampled_from([str(out), str(tmp), ""]))]
            if data.draw(st.booleans()):
                args += ["--resume", data.draw(st.sampled_from([str(small),
                                                                bad_file(data, tmp, "g.json")]))]
            stdin = data.draw(st.sampled_from(["quit\n", "", "\xff\n", "help\nquit\n"]))
            written = []
        elif command == "tournament":
            args += ["--agent", "a=random", "--agent", "b=random", "--max-moves", "30",
                     "--out", str(tmp / "t.jsonl")]
            written = [tmp / "t.jsonl"]
        else:   # bench: only files it must refuse (a good one would run the benchmark)
            args += ["--compare", bad_file(data, tmp, "bench.json")]
            if data.draw(st.booleans()):
                args += ["--save", data.draw(st.sampled_from([str(tmp / "b.json"), str(tmp)]))]
            written = [tmp / "b.json"]
        options = MORE_COMMANDS[command]
        for option in data.draw(st.lists(st.sampled_from(options), max_size=3)) if options else []:
            values = MORE_OPTIONS.get(option) or OPTIONS[option]
            args += [option.replace("--ai-play", "--ai"), data.draw(st.sampled_from(values))]
        result = CliRunner().invoke(main, args, input=stdin)
        if command == "bench":
            assert result.exit_code == 2, result.output
        check_cli(result, written)
