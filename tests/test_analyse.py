"""`tne analyse`, the best turn of `tne bestmove`, and the plot (tne_ai.matches.review).

The shipped record examples/planted_blunder.jsonl is worked out by hand (its meta.note): the
bag is empty, so the first tile player 0 places makes his refill short and the game ends
with his turn (SPEC section 3).  He leads 3-3-3-3 against 3-3-3-1.  His second tile, blue on
the river square E2, joins his kingdom (king B1, black C2 D2) to player 1's (king F4, black F2
G2 G3): a black war he attacks with 2 against 3, with no black tile to commit (SPEC section
4).  He loses it, player 1 scores 2 removed + 1 = 3 black and wins 3-3-3-4 against 3-3-3-3.
Every other second action wins: so that move is a blunder (a win chance of 1 given up for a
certain loss), the first tile is not, and the two commits after it are forced."""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import helpers
from engine_helpers import ROOT
from tne_ai.matches.review import (AnalyseError, CLASSES, classify, label_lanes, plot,
                                    replay_lines, review)
from tne_ai.matches.tournament import find_record, replay

RECORD = ROOT / "examples" / "planted_blunder.jsonl"
ENV = dict(os.environ, PYTHONPATH=str(ROOT))


def tne(*args):
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *map(str, args)],
                          capture_output=True, text=True, env=ENV, cwd=str(ROOT), timeout=900)


def test_the_planted_record_is_what_its_note_says():
    record = find_record(RECORD)
    assert record["moves"] == ["tile blue A4", "tile blue E2", "commit 0", "commit 0"]
    p = replay(record)
    assert p.is_over()
    assert p.scores[1]["black"] == 1 + 3 and p.scores[0]["black"] == 3
    assert record["result"]["ranking"] == [2, 1]
    assert not any(sq == "B1" for _, _, sq in p.to_json()["leaders"])  # his king went home


def test_classes_are_the_documented_thresholds():
    assert CLASSES == (("blunder", 20.0), ("mistake", 10.0), ("inaccuracy", 5.0))
    assert [classify(x) for x in (4.99, 5.0, 9.9, 10.0, 19.9, 20.0, 100.0, None)] == \
        [None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder", None]


def test_analyse_flags_the_planted_blunder_and_not_the_moves_around_it(tmp_path):
    out, picture = tmp_path / "reviewed.jsonl", tmp_path / "win.svg"
    result = tne("analyse", RECORD, "--iterations", 10000, "-o", out, "--plot", picture)
    assert result.returncode == 0, result.stderr
    rows = json.loads(out.read_text())["meta"]["analysis"]["moves"]
    first, blunder, commit_a, commit_b = rows
    assert blunder["move"] == "tile blue E2" and blunder["class"] == "blunder"
    assert blunder["best_win"] == 1.0  # any other second action ends the game won
    assert first["move"] == "tile blue A4" and first["class"] is None and first["loss"] < 5
    assert commit_a["forced"] and commit_b["forced"]
    assert [r["player"] for r in rows] == [0, 0, 0, 1]
    lines = result.stdout.splitlines()
    assert lines[0] == "game planted-blunder: 4 moves, 10000 iterations a move"
    table = {line.split()[0]: line.split() for line in lines[2:4]}
    assert table["0"][1:3] == ["2", "1"] and table["0"][-3:] == ["0", "0", "1"]
    assert table["1"][1:3] == ["0", "1"] and table["1"][-3:] == ["0", "0", "0"]
    flagged = lines[lines.index("move  player  class       move played (win chance)  "
                                "best move (win chance)") + 1:]
    # the second move (tne replay --ply 2 shows the position after it, as below)
    assert len(flagged) == 1 and flagged[0].split()[:3] == ["2", "0", "blunder"]
    assert "tile blue E2" in flagged[0]
    # tne replay shows the annotation of the move that led to the ply shown
    shown = tne("replay", out, "--ply", 2)
    assert shown.returncode == 0, shown.stderr
    assert "move 2 (player 0): tile blue E2: win chance" in shown.stdout
    assert shown.stdout.splitlines()[1].endswith(": blunder")
    # the picture: one line per player, the blunder marked, numbered 1 and listed under the
    # plot at move 2 (as in the table), the conflict settled by the last commit shaded
    root = ET.parse(picture).getroot()
    texts = ["".join(el.itertext()).strip() for el in root.iter() if el.tag.endswith("}text")]
    assert {"1", "blunder (1)", "player 0", "player 1", "conflict settled"} <= set(texts)
    # the bag is empty from the start (the record's note): the end is in sight at once
    assert "the end in sight" in texts
    assert any(t.split()[:4] == ["1", "2", "0", "tile"] and "tile blue E2 (0%)" in t
               for t in texts)
    assert any(t.startswith("Shaded: a revolt or war settled by the defender's commit;")
               for t in texts)
    assert not any(t.startswith(("mistake", "inaccuracy")) for t in texts)


def test_png_plot(tmp_path):
    picture = tmp_path / "win.png"
    result = tne("analyse", RECORD, "--iterations", 2000, "--plot", picture)
    assert result.returncode == 0, result.stderr
    data = picture.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    # 10 inches wide at 110 dpi; high: the caption's 4 lines (0.1 + 4 x 0.15), 0.1, the
    # table's head and one blunder (2 x 0.2), the x axis 0.6, the axes 2.6 and 0.75 above:
    # 5.15 inches, 566.5 px
    assert (width, height) == (1100, 566)


def test_jobs_give_the_same_review():
    record = find_record(RECORD)
    assert review(record, iterations=3000, seed=4, jobs=2) == review(record, iterations=3000, seed=4)


@pytest.mark.parametrize("args, fragment", [
    (["--time", 1, "--iterations", 10], "not both"),
    (["--plot", "win.gif"], ".png or .svg"),
    (["--game", "nope"], "holds one game, 'planted-blunder', not 'nope'"),
    (["--iterations", 0], "--iterations"),
])
def test_bad_options_get_one_line(args, fragment):
    result = tne("analyse", RECORD, *args)
    assert result.returncode == 2 and fragment in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("args, fragment", [
    # the bounds of the search options (docs/cli.md, "Limits"; SearchConfig's rows)
    (["--iterations", 0], "--iterations: option iterations=0 is out of range (1 <= x <= 10000000)"),
    (["--iterations", 10_000_001], "--iterations: option iterations=10000001 is out of range (1 <= x <= 10000000)"),
    (["--time", 0], "--time: option time=0 is out of range (0 < x <= 3600)"),
    (["--time", 3601], "--time: option time=3601 is out of range (0 < x <= 3600)"),
    (["--seed", 2 ** 63], f"--seed: option seed={2 ** 63} is out of range (0 <= x <= {2 ** 63 - 1})"),
    (["--search", "mcts:threads=65"],
     "--search: option threads=65 in spec 'mcts:threads=65' is out of range (1 <= x <= 64)"),
    (["--search", "mcts:c=0"], "option c=0 in spec 'mcts:c=0' is out of range (0 < x <= 1e+06)"),
    (["--search", "mcts:wexp=4.5"], "option wexp=4.5 in spec 'mcts:wexp=4.5' is out of range "
                                    "(0 <= x <= 4)"),
    (["--search", "mcts:iterations=0"], "option iterations=0 in spec 'mcts:iterations=0' is out "
                                        "of range (1 <= x <= 10000000)"),
    (["--search", "mcts:depth=3"], "--search: unknown option 'depth' for mcts"),
    (["--search", "mcts:iterations=20", "--iterations", 30], "--iterations and iterations= in "
                                                              "--search: give one"),
    (["--search", "mcts:time=1", "--iterations", 30], "not both (--search gives one)"),
    (["--search", f"mcts:weights={RECORD}"], f"{RECORD}: not a weights file"),
])
def test_search_options_out_of_range_get_one_line_naming_option_and_bound(args, fragment, tmp_path):
    out = tmp_path / "out.json"
    result = tne("analyse", RECORD, *args, "-o", out)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [result.stderr.strip()] and fragment in result.stderr
    assert not out.exists()
    with pytest.raises(AnalyseError, match=r"c=0 in spec 'mcts:c=0' is out of range \(0 < x"):
        review(find_record(RECORD), iterations=10, config="mcts:c=0")


def test_every_number_option_of_the_config_is_bounded_in_analyse_search_as_in_its_row():
    """The --search spec of tne analyse is SearchConfig's: each number option one past either
    end of its row's range (low itself when the range is open there) is one line naming it."""
    from click.testing import CliRunner
    from tne_ai.cli import main
    from tne_ai.search.config import options
    for row in options():
        if row.type not in ("int", "float"):
            continue
        step = 1 if row.type == "int" else 0.5
        for bad in ((row.low if row.low_open else row.low - step), row.high + step):
            text = str(int(bad)) if row.type == "int" else repr(float(bad))
            result = CliRunner().invoke(main, ["analyse", str(RECORD), "--search",
                                               f"mcts:{row.name}={text}"])
            assert result.exit_code == 2 and result.stdout == "", (row.name, result.output)
            [line] = result.stderr.splitlines()
            assert line.startswith(f"tne: error: --search: option {row.name}={text} in spec "), line
            low, high = (str(v) if isinstance(v, int) else f"{v:g}" for v in (row.low, row.high))
            low = f"{low} < x" if row.low_open else f"{low} <= x"
            assert line.endswith(f"is out of range ({low} <= {high})"), line


def test_the_search_options_reach_every_searched_move(tmp_path):
    # two root-parallel trees of 200 iterations each: 400 a searched move (the two commits
    # are forced and not searched); the options are written with the review
    out = tmp_path / "out.json"
    result = tne("analyse", RECORD, "--search", "mcts:threads=2,eval=basic", "--iterations", 400,
                 "-o", out)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("game planted-blunder: 4 moves, 400 iterations a move; "
                                    "search mcts:evaluation=basic,threads=2\n")
    analysis = json.loads(out.read_text())["meta"]["analysis"]
    assert analysis["search"] == "mcts:evaluation=basic,threads=2,iterations=400"
    assert [r.get("iterations") for r in analysis["moves"]] == [400, 400, None, None]
    # the basic evaluation reads no evaluation weights, but the default prior reads the shipped
    # move policy (the root) and the shipped weights file's kind scores (the nodes below it)
    import hashlib
    from tne_ai.search.evaluate import WEIGHTS_FILE
    from tne_ai.search.policy import POLICY_FILE
    from tne_ai.search.value import NET_FILE

    def sha(path):
        return hashlib.sha256(open(path, "rb").read()).hexdigest()
    assert analysis["provenance"]["weights_sha256"] == {
        "shipped": sha(WEIGHTS_FILE), "shipped move policy": sha(POLICY_FILE)}
    # without a prior it reads no file: none is listed
    bare = tne("analyse", RECORD, "--search", "mcts:eval=basic,prior=none", "--iterations", 50,
               "-o", tmp_path / "bare.json")
    assert bare.returncode == 0, bare.stderr
    assert "weights_sha256" not in \
        json.loads((tmp_path / "bare.json").read_text())["meta"]["analysis"]["provenance"]
    # a weights file given is the one listed, by the SHA-256 of its bytes
    result = tne("analyse", RECORD, "--search", f"mcts:weights={WEIGHTS_FILE}", "--iterations",
                 50, "-o", tmp_path / "w.json")
    assert result.returncode == 0, result.stderr
    listed = json.loads((tmp_path / "w.json").read_text())["meta"]["analysis"]["provenance"]
    # (with the default search's value network and move policy)
    assert listed["weights_sha256"] == {str(WEIGHTS_FILE): sha(WEIGHTS_FILE),
                                        "shipped value network": sha(NET_FILE),
                                        "shipped move policy": sha(POLICY_FILE)}
    # the same budget given inside the spec is the same review
    again = tne("analyse", RECORD, "--search", "mcts:threads=2,eval=basic,iterations=400",
                "-o", tmp_path / "again.json")
    assert again.returncode == 0, again.stderr
    assert json.loads((tmp_path / "again.json").read_text())["meta"]["analysis"]["moves"] == \
        analysis["moves"]


def test_review_arguments():
    record = find_record(RECORD)
    with pytest.raises(AnalyseError, match="either an iteration budget or a time budget"):
        review(record)
    with pytest.raises(AnalyseError, match=r"jobs: 0 is out of range \(1 to 32\)"):
        review(record, iterations=10, jobs=0)


def test_bestmove_plans_the_rest_of_the_turn(tmp_path):
    first = tmp_path / "ply0.json"
    second = tmp_path / "ply1.json"
    for ply, path in ((0, first), (1, second)):
        made = tne("replay", RECORD, "--ply", ply, "--json")
        assert made.returncode == 0, made.stderr
        path.write_text(made.stdout)
    # the first action of the turn: the plan has the second, which must not be the blunder,
    # and wins for sure (the game ends with this turn, player 0 ahead)
    out = json.loads(tne("bestmove", first, "--iterations", 5000, "--json").stdout)
    assert len(out["pv"]) == 2 and out["pv"][0] == out["move"]
    assert out["pv"][1] != "tile blue E2" and out["pv_win"][1] == 1.0
    assert all(0 <= a["win"] <= 1 for a in out["alternatives"])
    # the second action: the turn ends with it, so the plan is the move alone
    out = json.loads(tne("bestmove", second, "--iterations", 5000, "--json").stdout)
    assert out["pv"] == [out["move"]] and out["move"] != "tile blue E2" and out["win"] == 1.0
    text = tne("bestmove", first, "--iterations", 5000).stdout.splitlines()
    assert text[1].startswith("win chance ") and text[2].startswith("then ")
    # every other second action also ends the game won: the search cannot tell them apart
    assert len(text) == 4 and text[3].startswith(f"within noise of {text[0]}: ")


def test_a_game_of_tne_play_can_be_reviewed(tmp_path):
    from tne_ai.matches.play import play
    out = tmp_path / "game.json"
    play(players=2, ai="random", seat=0, seed=2, read=lambda prompt: "pass",
         write=lambda text: None, out=str(out))
    assert out.read_text().count("\n") > 1  # an indented JSON document, not a JSON line
    record = json.loads(out.read_text())
    result = tne("analyse", out, "--iterations", 200)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"game ?: {len(record['moves'])} moves, 200 iterations a move")
    result = tne("analyse", out, "--game", "t0-d0-r0")
    assert result.returncode == 2 and "holds one game" in result.stderr


def test_a_game_picked_from_a_records_file():
    result = tne("analyse", ROOT / "examples" / "greedy_vs_mcts.jsonl", "--game", "t0-d0-r1",
                 "--iterations", 50)
    assert result.returncode == 0, result.stderr
    record = find_record(ROOT / "examples" / "greedy_vs_mcts.jsonl", "t0-d0-r1")
    assert result.stdout.startswith(f"game t0-d0-r1: {len(record['moves'])} moves, 50 iterations")


def test_a_time_budget():
    result = tne("analyse", RECORD, "--time", 0.05)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("game planted-blunder: 4 moves, 0.05 s a move")


def test_a_swap_from_an_empty_bag_draws_nothing_so_the_plan_goes_on(tmp_path):
    """SPEC section 3: a swap draws as many tiles as it discards, so from an empty bag it draws
    none and the swapper knows the position after it; from a bag with tiles he does not."""
    from tne_ai.core import state as S
    from tne_ai.search.session import own_next as after_own_move
    from tne_ai.core.notation import parse_move
    from tne_ai.position import Position
    path = tmp_path / "ply0.json"
    made = tne("replay", RECORD, "--ply", 0, "--json")
    assert made.returncode == 0, made.stderr
    path.write_text(made.stdout)
    pos = Position.from_json(json.loads(made.stdout))
    st = pos.st
    assert int(st[S.BAG_COUNT:S.BAG_COUNT + 4].sum()) == 0 and int(st[S.ACTIONS_LEFT]) == 2
    after = after_own_move(st, parse_move("swap bb"))
    assert after is not None and int(after[S.ACTIONS_LEFT]) == 1
    assert int(after[S.HAND + 1]) == int(st[S.HAND + 1]) - 2          # two blue gone, none drawn
    new = Position.new(2, seed=1)
    swap = next(str(m) for m in new.legal_moves() if str(m).startswith("swap"))
    assert after_own_move(new.st, parse_move(swap)) is None


def test_label_lanes_keep_labels_apart():
    # gap 3: 1 opens lane 0; 2 is too near it, lane 1; 10 fits lane 0; 11 is too near 10 but
    # fits lane 1 (after 2); 12 is too near both, lane 2
    assert label_lanes([1, 2, 10, 11, 12], 3) == [0, 1, 0, 1, 2]
    assert label_lanes([], 3) == []


def test_plot_legend_off_the_data_and_numbered_marks_apart(tmp_path):
    # six blunders on neighbouring moves: the five largest are numbered, in lanes, apart
    record = find_record(RECORD)
    record = dict(record, moves=["pass"] * 200, result=record["result"])  # 4 px a move
    rows = [{"ply": ply, "player": ply % 2, "move": "pass", "best": "tile red A1",
             "best_win": 0.9, "played_win": 0.1, "loss": 80.0 - ply, "class": "blunder"}
            for ply in (10, 11, 12, 13, 14, 30)]
    layout = plot(record, rows, tmp_path / "p.png")
    ax, legend, labels = layout["axes"], layout["legend"], layout["labels"]

    def apart(a, b):
        return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    assert apart(ax, legend)
    assert len(labels) == 5  # NAMED_BLUNDERS: the largest losses, moves 11 to 15
    assert all(apart(a, b) for i, a in enumerate(labels) for b in labels[i + 1:])
    assert len(set(layout["lanes"])) > 1  # neighbours were stacked


def test_replay_says_why_an_unfinished_game_ended():
    # formats.py (tne-game/1 meta): a ply limit, a forfeit or a person's stop ends a game
    # early; the first line at the record's last move names it, with the seat and the reason
    record = {"moves": ["pass", "pass", "pass"],
              "meta": {"game_id": "g1", "truncated": False,
                       "forfeit": {"seat": 1, "ply": 3, "reason": "no bestmove within 1.7 s"}}}
    assert replay_lines(record, None, "x.jsonl") == [
        "game g1, after 3 of 3 moves; forfeit by player 1 (no bestmove within 1.7 s)"]
    assert replay_lines(record, 2, "x.jsonl") == ["game g1, after 2 of 3 moves"]
    cut = {"moves": ["pass"], "meta": {"truncated": True}}
    assert replay_lines(cut, None, "x.jsonl") == ["game x.jsonl, after 1 of 1 moves; truncated"]
