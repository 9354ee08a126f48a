"""What `tne bestmove` prints for a search result, on hand-made results (no search noise).

The search plays its most visited move (Search.best_move), so the move it chooses can show a
lower win chance than a move searched less; the text then says it was chosen by visits and the
JSON names the moves shown with a higher win chance (docs/cli.md, `tne bestmove`)."""
import json
from pathlib import Path

import pytest

from tne_ai.search.report import bestmove_json, bestmove_lines, chosen_by
from tne_ai.core.notation import parse_move
from tne_ai.position import Position
from tne_ai.search.config import SearchConfig
from tne_ai.search.session import MoveInfo, SearchInfo

ROOT = Path(__file__).resolve().parents[1]

A, B, C, D = (parse_move(t) for t in ("tile red A1", "leader blue C3", "pass", "swap rr"))


def result(alternatives, move=None, forced=False, pv=None, pv_win=None):
    """A SearchInfo as Search.result gives it: the chosen move first in ``moves``."""
    move = alternatives[0][0] if move is None else move
    win = next(m for a, _, m in alternatives if a == move)
    return SearchInfo(move=move, moves=[MoveInfo(move, 0, win, None, pv or [move], pv_win or [win])],
                      iterations=2000, visits=2000, nodes=2001, seconds=0.5,
                      win_chances=[0.5, 0.5], forced=forced, alternatives=alternatives)


def test_a_chosen_move_with_less_win_chance_than_another_says_it_is_chosen_by_visits():
    # 1000 visits at 50% against 400 at 53%: the one searched more is played
    info = result([(A, 1000, 0.50), (B, 400, 0.53), (C, 300, 0.45), (D, 0, 0.0)])
    j = bestmove_json(info, 0, "visits")
    assert j["move"] == "tile red A1" and j["win"] == 0.5
    assert j["chosen_by"] == "visits" and j["higher_win"] == ["leader blue C3"]
    lines = bestmove_lines(info, "visits")
    assert lines[:2] == ["tile red A1", "win chance 50.0%"]
    assert lines[2] == ("chosen by visits, not by win chance: tile red A1 shows 50.0% on 1000 "
                        "visits, leader blue C3 53.0% on 400 visits (a mean over fewer visits "
                        "is less sure)")


def test_every_move_shown_higher_is_named_and_no_line_when_the_choice_shows_the_most():
    info = result([(A, 900, 0.40), (B, 500, 0.55), (C, 400, 0.38), (D, 200, 0.41)])
    assert bestmove_json(info, 1, "visits")["higher_win"] == ["leader blue C3", "swap rr"]
    assert ("leader blue C3 55.0% on 500 visits, swap rr 41.0% on 200 visits"
            in bestmove_lines(info, "visits")[2])
    best = result([(A, 1000, 0.60), (B, 400, 0.53), (C, 300, 0.59)])
    assert bestmove_json(best, 0, "visits")["higher_win"] == []
    assert not any(line.startswith("chosen by") for line in bestmove_lines(best, "visits"))


def test_higher_is_judged_on_the_win_chance_as_printed():
    # 0.5501 against 0.5504: apart in the JSON's four decimals, both 55.0% in the text
    info = result([(A, 1000, 0.5501), (B, 900, 0.5504)])
    assert bestmove_json(info, 0, "visits")["higher_win"] == ["leader blue C3"]
    assert not any(line.startswith("chosen by") for line in bestmove_lines(info, "visits"))
    # 0.55001 against 0.55004: the same to four decimals, so not higher in either
    same = result([(A, 1000, 0.55001), (B, 900, 0.55004)])
    assert bestmove_json(same, 0, "visits")["higher_win"] == []


def test_only_the_ten_listed_alternatives_count():
    # the 11th most visited move shows more, but the JSON lists ten alternatives
    alts = [(parse_move(f"tile red {sq}"), 1000 - 50 * i, 0.5)
            for i, sq in enumerate(("A1", "B1", "C1", "D1", "F1", "G1", "J1", "K1", "N1", "O1"))]
    info = result(alts + [(parse_move("tile red P1"), 10, 0.9)])
    j = bestmove_json(info, 0, "visits")
    assert len(j["alternatives"]) == 10 and j["higher_win"] == []


def test_a_commit_chosen_by_the_margin_says_so_without_the_visits_remark():
    c0, c2 = parse_move("commit 0"), parse_move("commit 2")
    info = result([(c2, 500, 0.62), (c0, 480, 0.60)], move=c0)
    j = bestmove_json(info, 1, "commit-margin")
    assert j["move"] == "commit 0" and j["higher_win"] == ["commit 2"]
    assert bestmove_lines(info, "commit-margin")[2] == (
        "chosen as the smallest commit not clearly worse than the best (commit margin), not by "
        "win chance: commit 0 shows 60.0% on 480 visits, commit 2 62.0% on 500 visits")


def test_a_forced_move_has_no_win_chance_and_nothing_higher():
    info = result([(C, 0, 0.0)], forced=True)
    j = bestmove_json(info, 0, "forced")
    assert j["win"] is None and j["higher_win"] == [] and j["chosen_by"] == "forced"
    assert bestmove_lines(info, "forced") == ["pass", "the only legal move: nothing to search"]


def test_the_rule_named_is_the_one_the_search_applies():
    """Search.best_move: the most visited move, but at a root commit decision with a commit
    margin the smallest commit not clearly worse; nothing searched when there is one legal
    move.  The old forced example: a war in green pending,
    the attacker (player 0) to commit with no green tile (examples/war_pending.json)."""
    war = Position.from_json(json.loads(
        (ROOT / "examples" / "war_pending.json").read_text()))
    start = Position.from_json(json.loads(
        (ROOT / "examples" / "start.json").read_text()))
    searched = result([(A, 10, 0.5)])
    default = SearchConfig().resolved(3)
    assert default.commit_margin > 0
    assert chosen_by(searched, default, war.st) == "commit-margin"
    assert chosen_by(searched, SearchConfig(commit_margin=0.0).resolved(3), war.st) == "visits"
    assert chosen_by(searched, SearchConfig().resolved(2), start.st) == "visits"
    assert chosen_by(result([(C, 0, 0.0)], forced=True), default, war.st) == "forced"


@pytest.mark.parametrize("rule", ["visits", "commit-margin", "exact"])
def test_every_rule_has_its_words(rule):
    info = result([(A, 100, 0.4), (B, 50, 0.5)])
    assert bestmove_lines(info, rule)[2].startswith("chosen ")
