"""The `tne` command line, driven through click's CliRunner (and once as a real process).

Expected outcomes come from the rules (SPEC.md sections 1, 3, 8, 9) and from the CLI contract
(errors are one line `tne: error: ...` on stderr, exit status 2, nothing written), not from
the engine's output.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tne_ai.cli import main
from helpers import assert_user_error

ROOT = Path(__file__).resolve().parent.parent
COLOURS = ("red", "blue", "green", "black")
LETTERS = {"red": "r", "blue": "b", "green": "g", "black": "k"}


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def start_position(players=2, seed=1):
    result = run("new", "--players", players, "--seed", seed)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def write(tmp_path, data, name="pos.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


# --- new ------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_new_is_a_start_position(players):
    d = start_position(players, seed=11)
    assert d["format"] == "tne-position/1"
    assert d["players"] == players
    assert d["turn"] == 0 and d["actions_left"] == 2 and d["pending"] is None
    assert len(d["hands"]) == players
    for hand in d["hands"]:
        assert set(hand) == set(COLOURS)
        assert sum(hand.values()) == 6
    # 153 tiles, 10 red temples on the board, 6 drawn by each player: the rest is the bag,
    # an ordered string of colour letters.
    assert isinstance(d["bag"], str)
    assert len(d["bag"]) == 143 - 6 * players
    assert set(d["bag"]) <= set("rbgk")
    for colour, total in zip(COLOURS, (57 - 10, 36, 30, 30)):
        held = sum(hand[colour] for hand in d["hands"])
        assert d["bag"].count(LETTERS[colour]) + held == total
    assert d["leaders"] == [] and d["monuments"] == []
    assert sorted(d["treasures"]) == sorted(["K1", "B2", "P2", "F3", "N5", "I7", "B8", "O9",
                                             "F10", "K11"])
    assert d["catastrophes"] == [2] * players


def test_new_same_seed_same_position():
    assert start_position(3, seed=5) == start_position(3, seed=5)


def test_new_players_out_of_range_is_one_error_line():
    # SPEC section 1: 2 to 4 players; click's own four-line usage message is not used
    line = assert_user_error(run("new", "--players", 5))
    assert line == "tne: error: --players: 5 is not in the range 2..4"


# --- legal ----------------------------------------------------------------------------------

def test_legal_on_a_start_position(tmp_path):
    d = start_position(2, seed=1)
    result = run("legal", write(tmp_path, d))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    # sorted by kind in SPEC section 8's order, then colour, then square in board order
    # (row by row: A1 B1 .. P1 A2 .., so A2 before A10, not after it as text would have it)
    kinds = ["tile", "leader", "withdraw", "catastrophe", "swap", "pass"]
    assert [kinds.index(x.split()[0]) for x in lines] == \
        sorted(kinds.index(x.split()[0]) for x in lines)
    reds = [x.split()[2] for x in lines if x.startswith("tile red ")]
    board_order = [(int(sq[1:]), sq[0]) for sq in reds]
    assert board_order == sorted(board_order)
    assert reds.index("A2") < reds.index("A10")     # both empty land at the start
    assert len(lines) == len(set(lines))
    assert "pass" in lines
    # No leader is on the board: nothing to withdraw.
    assert not any(line.startswith("withdraw") for line in lines)
    # A leader goes on empty land next to a red tile: K2 touches the temple on K1; H5 touches
    # nothing red; A4 is river.
    for colour in COLOURS:
        assert f"leader {colour} K2" in lines
        assert f"leader {colour} H5" not in lines
        assert f"leader {colour} A4" not in lines
    # A catastrophe may go on empty land or river, never on a treasure.
    assert "catastrophe A1" in lines and "catastrophe E1" in lines
    assert "catastrophe K1" not in lines and "catastrophe B2" not in lines
    # Tiles: one move per colour in hand and empty square of its terrain; blue only on river.
    hand = d["hands"][0]
    for colour in COLOURS:
        assert (f"tile {colour} E1" in lines) == (colour == "blue" and hand[colour] > 0)
        assert (f"tile {colour} A1" in lines) == (colour != "blue" and hand[colour] > 0)
        assert f"tile {colour} K1" not in lines  # the temple's square is occupied


def test_legal_reads_stdin(tmp_path):
    d = start_position(2, seed=2)
    from_file = run("legal", write(tmp_path, d))
    from_stdin = run("legal", "-", input=json.dumps(d))
    assert from_stdin.exit_code == 0, from_stdin.output
    assert from_stdin.stdout == from_file.stdout


def test_apply_then_legal_chain(tmp_path):
    d = start_position(2, seed=3)
    hand = d["hands"][0]
    colour = next(c for c in ("red", "green", "black") if hand[c] > 0)
    first = tmp_path / "after1.json"
    result = run("apply", write(tmp_path, d), f"tile {colour} H5", "-o", first)
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    after1 = json.loads(first.read_text(encoding="utf-8"))
    # H5 touches no kingdom: the tile lands, scores nothing, and one action is left.
    assert after1["board"][4][7] == LETTERS[colour]
    assert after1["hands"][0][colour] == hand[colour] - 1
    assert after1["turn"] == 0 and after1["actions_left"] == 1
    assert after1["scores"] == d["scores"]
    assert after1["bag"] == d["bag"]

    result = run("legal", first)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    # H5 is taken for tiles; a catastrophe may still go on the tile.
    assert f"tile {colour} H5" not in lines and "catastrophe H5" in lines
    # H4 is land whose only tile neighbour is H5: a leader may go there only if H5 is red.
    assert ("leader black H4" in lines) == (colour == "red")

    # Second action through stdin: the turn ends, player 0 draws one tile from the bag's front.
    result = run("apply", "-", "pass", input=json.dumps(after1))
    assert result.exit_code == 0, result.output
    after2 = json.loads(result.stdout)
    assert after2["turn"] == 1 and after2["actions_left"] == 2
    drawn = d["bag"][0]
    expected = dict(after1["hands"][0])
    expected[next(c for c in COLOURS if LETTERS[c] == drawn)] += 1
    assert after2["hands"][0] == expected
    assert after2["bag"] == d["bag"][1:]

    # The same two moves in one call give the same position.
    both = run("apply", write(tmp_path, d), f"tile {colour} H5", "pass")
    assert both.exit_code == 0, both.output
    assert json.loads(both.stdout) == after2


# --- show -----------------------------------------------------------------------------------

def test_show(tmp_path):
    path = write(tmp_path, start_position(2, seed=4))
    result = run("show", path)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip()
    seen_by_0 = run("show", path, "--as", 0)
    assert seen_by_0.exit_code == 0, seen_by_0.output
    assert_user_error(run("show", path, "--as", 2), "--as 2")


# --- errors ---------------------------------------------------------------------------------

def test_missing_file(tmp_path):
    missing = tmp_path / "nowhere.json"
    assert_user_error(run("legal", missing), str(missing))
    assert_user_error(run("show", missing), str(missing))
    assert_user_error(run("apply", missing, "pass"), str(missing))


def test_invalid_json(tmp_path):
    path = write(tmp_path, '{"format": "tne-position/1",')
    assert_user_error(run("legal", path), "not valid JSON")
    assert_user_error(run("legal", "-", input="[1, 2"), "not valid JSON")


def test_unknown_key(tmp_path):
    d = start_position()
    d["colour_of_the_sky"] = "blue"
    assert_user_error(run("legal", write(tmp_path, d)), "colour_of_the_sky")


def test_unparsable_move(tmp_path):
    path = write(tmp_path, start_position())
    assert_user_error(run("legal", path, "tile purple A1"), "move 1:", "'purple' is not a colour")
    assert_user_error(run("apply", path, "pass", "jump A1"), "move 2:", "unknown move 'jump'")


def test_illegal_move(tmp_path):
    path = write(tmp_path, start_position())
    # The start hand holds no blue tile.
    assert_user_error(run("apply", path, "pass", "tile blue A1"), "move 2:", "'tile blue A1' is not legal: you have no blue tile in hand")
    # No leader on the board: nothing to withdraw.
    assert_user_error(run("legal", path, "withdraw red"), "move 1:", "'withdraw red' is not legal: your red leader is not on the board")


def test_apply_output_untouched_on_error(tmp_path):
    path = write(tmp_path, start_position())
    out = tmp_path / "out.json"
    assert_user_error(run("apply", path, "pass", "tile blue A1", "-o", out))
    assert not out.exists()


def test_hidden_hand_of_player_to_act(tmp_path):
    d = start_position()
    d["hands"][0] = None
    del d["bag"]  # with a hand unknown, the engine deals it and the bag from the unseen pool
    path = write(tmp_path, d)
    assert_user_error(run("legal", path), "player 0", "unknown")
    assert_user_error(run("apply", path, "pass"), "player 0", "unknown")


def test_hidden_hand_of_next_player(tmp_path):
    d = start_position()
    d["hands"][1] = None
    del d["bag"]
    path = write(tmp_path, d)
    assert run("legal", path).exit_code == 0
    assert_user_error(run("legal", path, "pass", "pass"), "after move 2 'pass'", "player 1")


# --- a real process -------------------------------------------------------------------------

def _tne_command():
    return [sys.executable, str(ROOT / "cli.py")]


def test_real_process(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    made = subprocess.run(_tne_command() + ["new", "--players", "3", "--seed", "9"],
                          capture_output=True, text=True, env=env, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    d = json.loads(made.stdout)
    assert d["players"] == 3 and len(d["bag"]) == 143 - 18

    bad = subprocess.run(_tne_command() + ["legal", "-", "tile blue A1"], input=made.stdout,
                         capture_output=True, text=True, env=env, cwd=tmp_path)
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.splitlines() == [bad.stderr.strip()]
    assert bad.stderr.startswith("tne: error: move 1: 'tile blue A1' is not legal: blue tiles go on the river")
