"""The SVG picture (tne_ai.core.render.svg) and `tne show/bestmove --svg`.

The expected numbers of squares, tiles, leaders, treasures and monuments come from the
hand-built position below and the rules (SPEC section 1: 176 squares, 41 of them river, four
corner treasures), not from the renderer.

Golden file: tests/data/golden_board.svg is the picture of GOLDEN_ARGS.  After a deliberate
change to the picture, regenerate it with

    python tests/test_render_svg.py --regenerate

then look at it (e.g. `rsvg-convert tests/data/golden_board.svg -o /tmp/golden.png`) before
committing it.
"""
import json
import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from helpers import position  # noqa: E402

from tne_ai.cli import main  # noqa: E402
from tne_ai.core.notation import parse_move  # noqa: E402
from tne_ai.position import Position  # noqa: E402
from tne_ai.core.render import svg, visit_shares  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "data" / "golden_board.svg"
NS = "{http://www.w3.org/2000/svg}"


def sample():
    """Two players, player 0 to act: a red-green monument on C5-D6 (its four tiles were red),
    catastrophes on A1 (land) and E1 (river), a blue tile on A4, green on H3, black on I3,
    the K1 treasure taken by player 1, four leaders on the board."""
    tiles = {"A1": "x", "E1": "x", "A4": "b", "H3": "g", "I3": "k",
             "C5": "#", "D5": "#", "C6": "#", "D6": "#"}
    leaders = [(0, "red", "G3"), (0, "black", "F4"), (1, "green", "J11"), (1, "blue", "N6")]
    treasures = ["B2", "P2", "F3", "N5", "I7", "B8", "O9", "F10", "K11"]
    d = position(tiles=tiles, leaders=leaders, treasures=treasures,
                 monuments=[{"colors": "red-green", "at": "C5", "tiles": "red"}],
                 hands=["rrbggk", "rbbgkk"], catastrophes=[1, 1],
                 scores=[{"red": 3, "black": 1}, {"green": 2, "treasure": 1}])
    return d, Position.from_json(d)


MARKS = [("tile red J5", 0.5), ("leader red F2", 0.3), ("catastrophe J5", 0.15), ("pass", 0.05)]


def golden_svg():
    _, p = sample()
    return svg(p.st, p.known_hands, 0, [(parse_move(m), s) for m, s in MARKS])


def parse(text):
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    return root


def with_class(root, *names):
    """Elements whose class attribute holds every one of names."""
    return [el for el in root.iter() if set(names) <= set(el.get("class", "").split())]


def texts(el):
    return " ".join(" ".join(el.itertext()).split())


def test_one_element_per_square_tile_leader_treasure_monument():
    _, p = sample()
    root = parse(svg(p.st))
    squares = with_class(root, "square")
    assert len(squares) == 176
    assert len(with_class(root, "square", "river")) == 41
    assert len({el.get("data-square") for el in squares}) == 176
    # 10 starting temples + blue A4 + green H3 + black I3
    assert len(with_class(root, "tile")) == 13
    assert len(with_class(root, "tile", "red")) == 10
    assert {el.get("data-square") for el in with_class(root, "tile", "blue")} == {"A4"}
    assert {el.get("data-square") for el in with_class(root, "tile", "green")} == {"H3"}
    assert {el.get("data-square") for el in with_class(root, "tile", "black")} == {"I3"}
    assert {el.get("data-square") for el in with_class(root, "flipped")} == {"C5", "D5", "C6", "D6"}
    monuments = with_class(root, "monument")
    assert len(monuments) == 1
    assert monuments[0].get("class").split() == ["monument", "red-green"]
    assert monuments[0].get("data-square") == "C5"
    assert {el.get("data-square") for el in with_class(root, "catastrophe")} == {"A1", "E1"}
    treasures = with_class(root, "treasure")
    assert len(treasures) == 9
    assert {el.get("data-square") for el in with_class(root, "treasure", "corner")} == \
        {"B2", "P2", "B8", "O9"}
    leaders = {(el.get("class"), el.get("data-square")) for el in with_class(root, "leader")}
    assert leaders == {("leader p0 red", "G3"), ("leader p0 black", "F4"),
                       ("leader p1 green", "J11"), ("leader p1 blue", "N6")}


def test_panel_supply_scores_and_hands():
    _, p = sample()
    root = parse(svg(p.st, p.known_hands, viewer=0))
    blocks = {el.get("data-player"): el for el in with_class(root, "player")}
    assert set(blocks) == {"0", "1"}
    # leaders not on the board are in supply: player 0 blue and green, player 1 red and black
    supply = {(el.get("class")) for el in with_class(root, "supply-leader")}
    assert supply == {"supply-leader p0 blue", "supply-leader p0 green",
                      "supply-leader p1 red", "supply-leader p1 black"}
    assert len(with_class(blocks["0"], "supply-catastrophe")) == 1
    assert len(with_class(blocks["1"], "supply-catastrophe")) == 1
    # scores red blue green black, then treasures; hand rrbggk = 2 1 2 1
    assert texts(blocks["0"]) == "Player 0 (you) to act Score 3 0 0 1 0 Supply Hand 2 1 2 1"
    assert texts(blocks["1"]) == "Player 1 Score 0 0 2 0 1 Supply Hand hidden (6 tiles)"
    # no viewer: every known hand is shown (rbbgkk = 1 2 1 2)
    root = parse(svg(p.st))
    block = [el for el in with_class(root, "player") if el.get("data-player") == "1"][0]
    assert texts(block).endswith("Hand 1 2 1 2")


def test_marks_arrow_and_move_list():
    _, p = sample()
    root = parse(golden_svg())
    marks = with_class(root, "mark")
    # pass has no square; the tile and the catastrophe share J5: one mark a square, the
    # better rank's; the catastrophe is in the list only
    assert [(m.get("data-rank"), m.get("data-square")) for m in marks] == \
        [("1", "J5"), ("2", "F2")]
    assert [texts(b) for b in with_class(root, "mark-rank")] == ["1", "2"]
    assert marks[0].get("class") == "mark best"
    assert all(m.get("class") == "mark alternative" for m in marks[1:])
    arrows = with_class(root, "arrow")
    assert [(a.get("data-from"), a.get("data-to")) for a in arrows] == [("G3", "F2")]
    entries = [texts(el) for el in with_class(root, "movelist-entry")]
    assert entries == ["1. tile red J5 50%", "2. leader red F2 30%", "3. catastrophe J5 15%",
                       "4. pass 5.0%"]


def test_monument_move_marks_its_block_and_placing_leader_draws_no_arrow():
    _, p = sample()
    root = parse(svg(p.st, marks=[(parse_move("leader blue H2"), None),
                                  (parse_move("monument red-blue J5"), None)]))
    assert with_class(root, "arrow") == []  # the blue leader comes from the supply
    rects = [m.find(NS + "rect") for m in with_class(root, "mark")]
    assert [int(r.get("width")) for r in rects] == [30, 64]  # one square, a 2x2 block (less 4)
    # a monument's block holding a better mark is left to the list: J5-K6 holds K6
    root = parse(svg(p.st, marks=[(parse_move("tile red K6"), 0.6),
                                  (parse_move("monument red-blue J5"), 0.4)]))
    assert [m.get("data-square") for m in with_class(root, "mark")] == ["K6"]
    assert len(with_class(root, "movelist-entry")) == 2


def test_visit_shares_put_the_chosen_move_first():
    alternatives = [(10, 60, 0.5), (20, 30, 0.4), (30, 6, 0.2), (40, 3, 0.1), (50, 1, 0.0)]
    assert visit_shares(alternatives, chosen=20, top=3) == [(20, 0.3), (10, 0.6), (30, 0.06)]
    assert visit_shares([(7, 0, 0.0)], chosen=7) == [(7, 1.0)]


def test_pending_decision_is_written_in_the_panel():
    d, _ = sample()
    d = dict(d, pending={"kind": "revolt", "colour": "red", "attacker": 0, "defender": 1,
                         "attacker_commit": None})
    d["leaders"] = [[0, "red", "O2"], [1, "red", "P1"]]
    p = Position.from_json(d)
    text = " ".join(t.text or "" for t in parse(svg(p.st)).iter(NS + "text"))
    assert "revolt (red)" in text and "player 0 commits" in text


def test_golden_file():
    assert golden_svg() == GOLDEN.read_text(encoding="utf-8"), \
        "the picture changed: if deliberate, see the module docstring to regenerate"


# --- CLI ------------------------------------------------------------------------------------

def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_show_svg(tmp_path):
    d, _ = sample()
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(d), encoding="utf-8")
    plain = run("show", pos)
    result = run("show", pos, "--svg", tmp_path / "board.svg", "--as", 1)
    assert result.exit_code == 0, result.output
    assert result.stdout == run("show", pos, "--as", 1).stdout
    assert plain.exit_code == 0
    root = parse((tmp_path / "board.svg").read_text(encoding="utf-8"))
    assert len(with_class(root, "square")) == 176 and len(with_class(root, "leader")) == 4
    block = [el for el in with_class(root, "player") if el.get("data-player") == "0"][0]
    assert texts(block).endswith("Hand hidden (6 tiles)")


def test_show_svg_errors_write_nothing(tmp_path):
    d, _ = sample()
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(d), encoding="utf-8")
    result = run("show", pos, "--svg", tmp_path / "no" / "such" / "dir.svg")
    assert result.exit_code == 2
    assert result.stderr.startswith("tne: error: ") and len(result.stderr.splitlines()) == 1
    assert "cannot write" in result.stderr and result.stdout == ""
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    result = run("show", bad, "--svg", tmp_path / "out.svg")
    assert result.exit_code == 2 and not (tmp_path / "out.svg").exists()
    result = run("show", pos, "--as", 5, "--svg", tmp_path / "out.svg")
    assert result.exit_code == 2 and not (tmp_path / "out.svg").exists()


def test_bestmove_svg_marks_the_printed_move(tmp_path):
    d, _ = sample()
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(d), encoding="utf-8")
    out = tmp_path / "best.svg"
    result = run("bestmove", pos, "--iterations", 40, "--seed", 3, "--svg", out, "--json")
    assert result.exit_code == 0, result.output
    best = json.loads(result.stdout)
    root = parse(out.read_text(encoding="utf-8"))
    entries = [texts(el) for el in with_class(root, "movelist-entry")]
    assert entries[0].startswith(f"1. {best['move']} ")
    assert len(entries) == min(4, len(best["alternatives"]))
    words = best["move"].split()
    marks = with_class(root, "mark", "best")
    if words[0] in ("tile", "leader", "catastrophe", "treasure"):
        assert [m.get("data-square") for m in marks] == [words[-1]]
    # the picture is what player 0, who acts, sees
    block = [el for el in with_class(root, "player") if el.get("data-player") == "1"][0]
    assert texts(block).endswith("Hand hidden (6 tiles)")


if __name__ == "__main__":
    if sys.argv[1:] == ["--regenerate"]:
        GOLDEN.write_text(golden_svg(), encoding="utf-8")
        print(f"wrote {GOLDEN}")
    else:
        print(__doc__)


# --- leader marks, legend, scores, the pending conflict ----------------------------------------

def points_of(element):
    return [tuple(map(float, xy.split(","))) for xy in element.get("points").split()]


def test_no_leader_mark_is_a_tile_sign_or_a_treasure():
    # tile signs: a triangle (red), a circle (green), a square (black), lines (blue);
    # treasures: a circle or a star.  Each player's leader is a polygon of 6, 4, 3 or 12
    # corners (hexagon, diamond, triangle point down, cross): none of those shapes.
    # one leader per player, each next to a different starting temple (K1, B2, P2, F3)
    d = position(players=4, leaders=[(0, "red", "J1"), (1, "black", "A2"), (2, "black", "O2"),
                                     (3, "green", "G3")])
    root = parse(svg(Position.from_json(d).st))
    corners = {}
    for el in with_class(root, "leader"):
        player = int(el.get("class").split()[1][1:])
        assert el.find(NS + "circle") is None and el.find(NS + "rect") is None
        pts = points_of(el.find(NS + "polygon"))
        corners[player] = len(pts)
        if player == 2:
            # point down: two corners share the top edge, the third lies below both
            ys = sorted(y for _, y in pts)
            assert ys[0] == ys[1] < ys[2]
    assert corners == {0: 6, 1: 4, 2: 3, 3: 12}


def test_the_legend_names_the_treasures_and_every_players_leader():
    _, p = sample()
    legend = with_class(parse(svg(p.st)), "legend")
    assert len(legend) == 1
    words = " ".join(t.text for t in legend[0].iter(NS + "text"))
    assert words == ("corner treasure treasure leaders: player 0 player 1 "
                     "red temple blue farm green market black settlement catastrophe monument "
                     "conflict")


def test_two_digit_scores_do_not_run_into_the_next_colour():
    d, _ = sample()
    d["scores"][0].update({"red": 57, "blue": 10, "green": 99, "black": 12})
    root = parse(svg(Position.from_json(d).st))
    block = [b for b in with_class(root, "player") if b.get("data-player") == "0"][0]
    swatches = [float(r.get("x")) for r in block.iter(NS + "rect") if r.get("class") == "swatch"]
    numbers = {t.text: float(t.get("x")) for t in block.iter(NS + "text")
               if t.text in ("57", "10", "99", "12")}
    # at 10 px a digit is about 6.5 px wide: each number ends before the next swatch starts
    starts = sorted(numbers.values())
    for x, next_swatch in zip(starts, swatches[1:4]):
        assert x + 2 * 6.5 < next_swatch


def test_a_pending_revolt_rings_both_leaders_and_the_header_names_who_acts():
    d, _ = sample()
    d = dict(d, pending={"kind": "revolt", "colour": "red", "attacker": 0, "defender": 1,
                         "attacker_commit": 1})
    d["leaders"] = [[0, "red", "O2"], [1, "red", "P1"]]
    d["hands"][0]["red"] -= 1
    d["out_of_game"]["red"] += 1
    root = parse(svg(Position.from_json(d).st))
    conflict = with_class(root, "conflict")
    assert len(conflict) == 1
    centres = {(float(c.get("cx")), float(c.get("cy"))) for c in conflict[0].iter(NS + "circle")}
    # O2 and P1: columns 14 and 15, rows 2 and 1; squares of 34 px from (26, 24)
    assert centres == {(26 + 14 * 34 + 17, 24 + 34 + 17), (26 + 15 * 34 + 17, 24 + 17)}
    header = [t.text for t in root.iter(NS + "text") if (t.text or "").startswith("Player 0's")]
    assert header == ["Player 0's turn, 2 actions left; player 1 acts"]
