"""Messages a new user met: a position given where a record is wanted, a forced decision,
top moves the search cannot tell apart (docs/cli.md, "Within noise")."""
import json
import os
import sys
from pathlib import Path

from click.testing import CliRunner

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tne_ai.cli import main  # noqa: E402
from tne_ai.position import Position  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_replay_of_a_position_says_it_is_a_position():
    r = run("replay", ROOT / "examples" / "start.json")
    assert r.exit_code == 2
    assert r.stderr.strip() == (f"tne: error: {ROOT / 'examples' / 'start.json'}: format: "
                                "\"tne-position/1\": this is a position, not a game record "
                                "(tne show, tne legal and tne bestmove read positions)")


def _forced_position(tmp_path):
    """The first moment of the example tournament's first game where the player to act has
    one legal move and it is a decision (SPEC section 4: a defender without tiles of the
    conflict's colour can only commit 0), as a position file."""
    record = json.loads((ROOT / "examples" / "greedy_vs_mcts.jsonl").read_text().splitlines()[0])
    p = Position.from_json(record["start"])
    for move in record["moves"]:
        if p.pending is not None and len(p.legal_codes()) == 1:
            break
        p.push(move)
    else:
        raise AssertionError("no forced decision in the example game")
    path = tmp_path / "forced.json"
    path.write_text(json.dumps(p.to_json()), encoding="utf-8")
    return path, p, move


def test_bestmove_says_a_forced_decision_is_the_only_move(tmp_path):
    path, p, played = _forced_position(tmp_path)
    r = run("bestmove", path, "--iterations", 100)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0] == played  # the game played it too: it was the only move
    assert lines[-1] == "the only legal move: nothing to search"
    j = json.loads(run("bestmove", path, "--iterations", 100, "--json").stdout)
    assert j["forced"] is True and j["within_noise"] == []


def test_bestmove_names_the_moves_within_noise_of_its_choice():
    # the start: about 100 legal first actions, 300 iterations; many are never told apart
    r = run("bestmove", ROOT / "examples" / "start.json", "--iterations", 300, "--seed", 1)
    assert r.exit_code == 0, r.output
    best = r.stdout.splitlines()[0]
    note = r.stdout.splitlines()[-1]
    assert note.startswith(f"within noise of {best}: ")
    named = note[len(f"within noise of {best}: "):].split(" (")[0].split(", ")
    legal = {str(m) for m in Position.from_json(json.loads(
        (ROOT / "examples" / "start.json").read_text())).legal_moves()}
    assert named and best not in named and set(named) <= legal
    j = json.loads(run("bestmove", ROOT / "examples" / "start.json", "--iterations", 300,
                       "--seed", 1, "--json").stdout)
    assert j["forced"] is False and j["within_noise"] == named
