"""`tne serve` in a real browser: headless Chromium (Debian's package) driven by Playwright.

Each test starts the server on a free port with its own games directory and clicks through
the page as a person would.  Waits are on conditions the page sets (``body[data-state]``),
never on time."""
import json
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from tne_ai.position import Position
from web_support import TIMEOUT_MS, Server, launch

STATES = "['your-move', 'decision', 'over', 'hotseat']"


@pytest.fixture()
def browser():
    with sync_playwright() as pw:
        b = launch(pw)
        yield b
        b.close()


def _page(browser, received=None, width=1280, height=800):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(TIMEOUT_MS)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    if received is not None:
        def keep(response):
            if "/api/" in response.url and "events" not in response.url:
                try:
                    received.append(response.json())
                except Exception:  # a download or an empty body
                    pass
        page.on("response", keep)
    return page, errors


def _wait_state(page, states=STATES):
    page.wait_for_function(f"{states}.includes(document.body.dataset.state)")
    return page.evaluate("document.body.dataset.state")


def _new_game(page, url, seats, seed):
    page.goto(url + "/")
    page.wait_for_selector("#dlg-new[open]")
    page.select_option("#new-players", str(len(seats)))
    for i, s in enumerate(seats):
        page.select_option(f"select[data-seat='{i}']", s)
    page.fill("#new-seed", str(seed))
    page.click("#new-start")


def _hidden_hands_kept(received, seat):
    """Every game view the page received shows only seat's own hand and no bag."""
    views = [r for r in received if isinstance(r, dict) and "position" in r]
    assert views
    for v in views:
        hands = v["position"]["hands"]
        assert all(h is None for i, h in enumerate(hands) if i != v["seat"])
        assert v["seat"] == seat
        assert "bag" not in v["position"]
        for e in v["log"]:
            if e["player"] != seat and e["move"].startswith("swap"):
                assert e["move"].split()[1].isdigit()  # 'swap 3 tiles': colours hidden
    return views


def _boxes(page, selector):
    return page.evaluate(f"""[...document.querySelectorAll({selector!r})].map(e => {{
        const r = e.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; }})""")


def _small_tap_targets(page):
    """The visible buttons, selects, inputs and board squares smaller than 44 x 44 px."""
    return page.evaluate("""[...document.querySelectorAll(
        'button, select, input, a, svg.board rect.square')].filter(e => {
            const r = e.getBoundingClientRect();
            return r.width > 0 && r.height > 0 && e.closest('[hidden]') === null &&
                   getComputedStyle(e).visibility !== 'hidden';
        }).filter(e => {
            const r = e.getBoundingClientRect();
            return r.width < 44 || r.height < 44;
        }).map(e => (e.id || e.className.baseVal || e.className || e.tagName) + ' ' +
                    Math.round(e.getBoundingClientRect().width) + 'x' +
                    Math.round(e.getBoundingClientRect().height))""")


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_whole_game_against_random_by_clicks(tmp_path, browser, width, height):
    received = []
    with Server(tmp_path / "games") as srv:
        page, errors = _page(browser, received, width, height)
        _new_game(page, srv.url, ["human", "random"], seed=11)
        clicks = 0
        shot = None
        while True:
            state = _wait_state(page)
            if state == "over":
                break
            assert clicks < 3000
            clicks += 1
            if state == "decision":
                # the first choice offered: commit 0, decline, the first treasure or war colour
                page.locator("#dec-buttons button").first.click()
            else:
                tiles = page.locator(".hand-tile:not([disabled])")
                if tiles.count():
                    tiles.first.click()
                    if shot is None:
                        # the first selection: a legal target is a dot, never a square
                        # outline that reads as a tile; and on the phone nothing to tap is
                        # smaller than a finger (44 x 44 px)
                        assert page.locator("svg#board rect.target").count() == 0
                        for box in _boxes(page, "svg#board circle.target"):
                            assert box[2] - box[0] < 20  # a dot, much smaller than a square
                        if width < 700:
                            assert _small_tap_targets(page) == []
                        shot = tmp_path / f"game-{width}x{height}.png"
                        page.screenshot(path=str(shot))
                    page.locator("circle.target").first.click()
                else:
                    page.click("#btn-pass")
            page.wait_for_function("document.body.dataset.state != 'your-move' || "
                                   "document.querySelectorAll('circle.target').length == 0")
        page.screenshot(path=str(tmp_path / f"over-{width}x{height}.png"))
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        # the final ranking: places follow SPEC section 6 on the colours shown (lowest first,
        # ties broken by the next lowest ...): the row with the greater list is first
        rows = page.locator("#ranking tr[data-player]")
        assert rows.count() == 2
        shown = {}
        for i in range(2):
            cells = rows.nth(i).locator("td")
            shown[int(rows.nth(i).get_attribute("data-player"))] = (
                int(cells.nth(0).inner_text()), [int(x) for x in cells.nth(2).inner_text().split()])
        (p0, v0), (p1, v1) = shown[0], shown[1]
        if v0 == v1:
            assert p0 == p1 == 1
        else:
            assert (p0, p1) == ((1, 2) if v0 > v1 else (2, 1))
        assert page.locator("#btn-record").is_enabled()
        with page.expect_download() as dl:
            page.click("#btn-record")
        record = json.loads(open(dl.value.path(), encoding="utf-8").read())
        p = Position.from_json(record["start"])
        for m in record["moves"]:
            p.push(m)
        assert p.is_over()
        assert record["result"]["ranking"] == [shown[0][0], shown[1][0]]
        _hidden_hands_kept(received, 0)
        assert errors == []


# A revolt (SPEC section 4), worked out by hand.  Rows 1-4, columns A-E of the board below:
#   row 1:  . . r . ~      a red tile on C1
#   row 2:  . r L r ~      temple B2 (corner), a red tile on D2; player 1's red leader on C2
#   row 3:  . . . ~ ~
#   row 4:  ~ ~ ~ ~ .
# One kingdom: C1 B2 C2 D2.  Player 0 places his red leader on B3 (empty land next to the
# temple B2, touching only that kingdom): a revolt.  Attacker strength on the board: red
# tiles next to B3 = B2 only = 1; the defender's on C2: C1, B2 and D2 = 3.
REVOLT = {
    "format": "tne-position/1", "players": 2, "turn": 0, "actions_left": 2,
    "board": ["..r.~~~~~.r.~...",
              ".r.r~.......~..r",
              "...~~r......~~..",
              "~~~~.........~~~",
              ".............r~~",
              "..............~.",
              "~~~~....r...~~~.",
              ".r.~~~~.....~...",
              "......~~~~~~~.r.",
              ".....r..........",
              "..........r....."],
    "leaders": [[1, "red", "C2"]],
    "treasures": ["K1", "B2", "P2", "F3", "N5", "I7", "B8", "O9", "F10", "K11"],
    "monuments": [],
    "hands": [{"red": 3, "blue": 1, "green": 1, "black": 1},
              {"red": 0, "blue": 2, "green": 2, "black": 2}],
    "catastrophes": [2, 2],
    "scores": [{"red": 0, "blue": 0, "green": 0, "black": 0, "treasure": 0},
               {"red": 0, "blue": 0, "green": 0, "black": 0, "treasure": 0}],
    "bag": {"red": 42, "blue": 33, "green": 27, "black": 27},
    "out_of_game": {"red": 0, "blue": 0, "green": 0, "black": 0},
    "hidden_discards": 0, "pending": None,
}


def _upload(page, url, data, seats, tmp_path):
    path = tmp_path / "upload.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    page.goto(url + "/#none")
    page.wait_for_selector("#dlg-new[open]")
    page.click("#dlg-new button[value=cancel]")
    page.set_input_files("#file-upload", str(path))
    page.wait_for_selector("#dlg-new[open]")
    for i, s in enumerate(seats):
        page.select_option(f"select[data-seat='{i}']", s)
    page.click("#new-start")


def test_revolt_with_the_commit_dialog(tmp_path, browser):
    with Server(tmp_path / "games") as srv:
        page, errors = _page(browser)
        _upload(page, srv.url, REVOLT, ["human", "random"], tmp_path)
        assert _wait_state(page) == "your-move"
        page.click(".supply-leader.red")
        targets = page.locator("circle.target")
        squares = {targets.nth(i).get_attribute("data-square") for i in range(targets.count())}
        assert "B3" in squares
        page.click("circle.target[data-square='B3']")
        assert _wait_state(page) == "decision"
        dlg = page.locator("#dlg-decision")
        assert dlg.get_attribute("data-kind") == "revolt"
        assert page.inner_text("#dec-title") == "Revolt (red)"
        assert page.inner_text("#dlg-decision tr.attacker td.board-strength") == "1"
        assert page.inner_text("#dlg-decision tr.defender td.board-strength") == "3"
        # the attacker may commit 0 to 3 red tiles (his hand holds 3)
        assert page.locator("#dec-buttons button").count() == 4
        page.click("#dec-buttons button[data-move='commit 3']")
        # the defender (random, no red tile) can only commit 0: 1 + 3 = 4 beats 3 + 0
        page.wait_for_function("document.querySelector('#log .outcome') !== null")
        outcome = page.inner_text("#log .outcome")
        assert "player 0 1+3 = 4 against player 1 3+0 = 3: player 0 wins" in outcome
        assert "player 1's red leader back to supply" in outcome
        assert "player 0 scores 1 red" in outcome
        # and under the board, as news since the player's last move
        assert page.inner_text("#news") == outcome
        assert errors == []


# A position set up in the editor from the start position: player 0's black king on F4 (next
# to the temple F3), player 0 to act with one action left, one black tile in hand and nothing
# else, scores red 3 blue 3 green 3 black 0.  A black tile next to his kingdom F3-F4 scores
# him a black point, his lowest colour (SPEC section 3): the land squares next to F3 or F4
# are F2, G3, E4, G4, F5 (E3 is river).  Whether that point beats placing a leader is the
# search's judgement; the test checks that the engine's answer is a legal move there.


def test_editor_position_and_the_engines_move(tmp_path, browser):
    with Server(tmp_path / "games") as srv:
        page, errors = _page(browser)
        checks = []
        page.on("response", lambda r: checks.append(r) if "/api/positions/check" in r.url else None)
        page.goto(srv.url + "/#editor")
        page.wait_for_function("document.body.dataset.state == 'editor'")
        page.wait_for_function("document.querySelector('#editor-status').dataset.valid == 'yes'")
        # a leader: player 0's black king on F4 (next to the temple on F3)
        page.click("button.tool[data-tool='leader']")
        page.select_option("#ed-lp", "0")
        page.select_option("#ed-lc", "black")
        page.click("#editor-board rect.square[data-square='F4']")
        # a bad field first: a blue tile on land is named by the loader
        page.click("button.tool[data-tool='tile:blue']")
        page.click("#editor-board rect.square[data-square='A1']")
        page.wait_for_function("document.querySelector('#editor-status').dataset.valid == 'no'")
        assert "board" in page.inner_text("#editor-status")
        page.click("button.tool[data-tool='erase']")
        page.click("#editor-board rect.square[data-square='A1']")
        page.wait_for_function("document.querySelector('#editor-status').dataset.valid == 'yes'")
        # player 0: one black tile in hand, no catastrophes, scores red 3 blue 3 green 3
        for c, n in (("red", 0), ("blue", 0), ("green", 0), ("black", 1)):
            page.fill(f"input[data-path='hands.0.{c}']", str(n))
            page.dispatch_event(f"input[data-path='hands.0.{c}']", "change")
        for c in ("red", "blue", "green"):
            page.fill(f"input[data-path='scores.0.{c}']", "3")
            page.dispatch_event(f"input[data-path='scores.0.{c}']", "change")
        page.fill("input[data-path='catastrophes.0']", "0")
        page.dispatch_event("input[data-path='catastrophes.0']", "change")
        page.fill("input[data-path='actions_left']", "1")
        page.dispatch_event("input[data-path='actions_left']", "change")
        page.wait_for_function("document.querySelector('#editor-status').dataset.valid == 'yes'"
                               " && document.querySelector('#editor-status').textContent"
                               ".includes('player 0 to act')")
        page.click("#ed-analyse")
        page.wait_for_selector("#analysis[data-state=running]")
        page.wait_for_selector("#editor-board g.mark.best")
        page.click("#ed-stop")
        page.wait_for_selector("#analysis[data-state=stopped]")
        # then a full search to its end (a small budget) gives the engine's move
        page.evaluate("document.getElementById('an-status').dataset.best = ''")
        page.click("#ed-analyse")
        page.wait_for_selector("#analysis[data-state=done]")
        best = page.get_attribute("#an-status", "data-best")
        # the analysis marks: inside the board, none over another; the list in words
        assert len(_no_overlap_inside_board(page, "svg#editor-board")) >= 1
        assert page.inner_text("#an-moves li").startswith(best)
        assert page.locator("#an-moves p.noise").count() == 1
        # the engine's move is legal in the position the loader accepted (the page checks
        # every edit through /api/positions/check, which lists the legal moves)
        legal = checks[-1].json()["legal"]
        assert best in legal
        assert "tile black F2" in legal and "tile black E3" not in legal  # E3 is river
        assert errors == []


def test_upload_a_record_and_continue(tmp_path, browser):
    # a record of 4 moves from a new game: player 0 passes twice, player 1 passes twice
    start = Position.new(2, seed=3)
    record = {"format": "tne-game/1", "start": start.to_json(),
              "moves": ["pass", "pass", "pass", "pass"],
              "result": {"scores": [{"red": 0, "blue": 0, "green": 0, "black": 0, "treasure": 0}] * 2,
                         "final": [[0, 0, 0, 0], [0, 0, 0, 0]], "ranking": [1, 1]},
              "meta": {}}
    with Server(tmp_path / "games") as srv:
        page, errors = _page(browser)
        _upload(page, srv.url, record, ["human", "human"], tmp_path)
        # after 4 passes it is player 0's turn again, two actions
        assert _wait_state(page) == "your-move"
        assert page.locator("#log li").count() == 4
        assert "action 1 of 2" in page.inner_text("#status")
        assert errors == []


def test_hot_seat_never_shows_the_other_hand(tmp_path, browser):
    received = []
    with Server(tmp_path / "games") as srv:
        page, errors = _page(browser, received, width=390, height=844)  # a phone
        _new_game(page, srv.url, ["human", "human"], seed=4)
        assert _wait_state(page) == "your-move"
        page.click("#btn-pass")
        page.wait_for_function("document.querySelectorAll('#log li').length == 1")
        page.click("#btn-pass")
        assert _wait_state(page) == "hotseat"
        assert page.is_visible("#cover")
        page.click("#cover-btn")
        page.wait_for_function("document.body.dataset.state == 'your-move'")
        assert "Your hand (player 1)" in page.inner_text("#hand")
        views = [r for r in received if isinstance(r, dict) and "position" in r]
        for v in views:
            hands = v["position"]["hands"]
            assert [i for i, h in enumerate(hands) if h is not None] == [v["seat"]]
            assert "bag" not in v["position"]
        assert {v["seat"] for v in views} == {0, 1}
        assert errors == []


def _no_overlap_inside_board(page, svg):
    """Every analysis mark of ``svg`` lies inside the board's squares, and no two overlap."""
    marks = _boxes(page, f"{svg} g.mark")
    squares = _boxes(page, f"{svg} rect.square")
    left, top = min(b[0] for b in squares), min(b[1] for b in squares)
    right, bottom = max(b[2] for b in squares), max(b[3] for b in squares)
    for a in marks:
        assert left <= a[0] and a[2] <= right and top <= a[1] and a[3] <= bottom, a
    for i, a in enumerate(marks):
        for b in marks[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    return marks


def _escape_closes(page, dialog):
    assert page.evaluate(f"document.getElementById({dialog!r}).open")
    page.keyboard.press("Escape")
    page.wait_for_function(f"!document.getElementById({dialog!r}).open")


def test_dialogs_close_on_escape_and_a_forced_choice_plays_itself(tmp_path, browser):
    # hot seat on the revolt above: player 0 attacks with his red leader on B3; player 1,
    # the defender, holds no red tile, so his only answer is commit 0: played with no click
    with Server(tmp_path / "games") as srv:
        page, errors = _page(browser)
        page.goto(srv.url + "/")
        page.wait_for_selector("#dlg-new[open]")
        # the first load's New game dialog, cancelled: a page to go on from, not a blank one
        _escape_closes(page, "dlg-new")
        assert page.is_visible("#idle-view")
        assert page.is_visible("#idle-new") and page.is_visible("#idle-upload")
        assert "bench/" not in page.inner_text("#levels-note")
        assert "against one fixed opponent" in page.inner_text("#levels-note")
        path = tmp_path / "revolt.json"
        path.write_text(json.dumps(REVOLT), encoding="utf-8")
        page.set_input_files("#file-upload", str(path))
        page.wait_for_selector("#dlg-new[open]")
        assert "a position (2 players)" in page.inner_text("#new-title")
        for i in range(2):
            page.select_option(f"select[data-seat='{i}']", "human")
        page.click("#new-start")
        assert _wait_state(page) == "your-move"
        # every other dialog closes on Escape, and no move is made by closing one
        page.click("#btn-swap")
        _escape_closes(page, "dlg-swap")
        page.click("#btn-games")
        page.wait_for_selector("#dlg-games[open]")
        _escape_closes(page, "dlg-games")
        page.click("#btn-new")
        _escape_closes(page, "dlg-new")
        assert page.is_visible("#play-view")
        assert page.locator("#log li").count() == 0
        # the engine's hint: the top moves in words, marks on the board inside it, apart
        page.click("#btn-hint")
        page.wait_for_selector("#hint ol.an-moves li")
        assert page.inner_text("#hint h3").startswith("Engine's suggestion: ")
        assert "visits" in page.inner_text("#hint ol.an-moves li") and \
            "win chance" in page.inner_text("#hint ol.an-moves li")
        assert page.locator("#hint p.noise").count() == 1
        assert len(_no_overlap_inside_board(page, "svg#board")) >= 1
        # Escape drops a selection
        page.click(".supply-leader.red")
        assert page.locator("circle.target").count() > 0
        page.keyboard.press("Escape")
        page.wait_for_function("document.querySelectorAll('circle.target').length == 0")
        page.click(".supply-leader.red")
        page.click("circle.target[data-square='B3']")
        assert _wait_state(page) == "decision"
        # the decision's dialog is not modal: the page's buttons stay usable; it closes on
        # Escape and on its close control, and Decide... opens it again
        assert page.evaluate("document.querySelector('dialog:modal') === null")
        assert page.is_enabled("#btn-upload") and page.is_enabled("#btn-editor")
        _escape_closes(page, "dlg-decision")
        page.click("#btn-decide")
        page.wait_for_selector("#dlg-decision[open]")
        page.click("#dlg-decision button.close")
        page.wait_for_function("!document.getElementById('dlg-decision').open")
        page.click("#btn-decide")
        page.click("#dec-buttons button[data-move='commit 3']")
        assert _wait_state(page) == "hotseat"
        page.click("#cover-btn")
        # player 1's one answer was played: no dialog, no click; the log says so
        page.wait_for_function("document.querySelector('#log .outcome') !== null")
        assert page.locator("#log li").count() == 3
        assert page.inner_text("#log li:nth-child(3) code") == "commit 0"
        assert "the only choice" in page.inner_text("#log li:nth-child(3)")
        assert "player 0 1+3 = 4 against player 1 3+0 = 3: player 0 wins" in \
            page.inner_text("#log .outcome")
        assert errors == []


def test_upload_a_tournament_jsonl_and_open_the_chosen_game(tmp_path, browser):
    junk = tmp_path / "junk.json"
    junk.write_text(json.dumps({"players": 9}), encoding="utf-8")
    records = Path(__file__).resolve().parent.parent / "examples" / "greedy_vs_mcts.jsonl"
    second = [json.loads(line) for line in records.read_text().splitlines()][1]
    with Server(tmp_path / "games") as srv:
        page, errors = _page(browser)
        page.goto(srv.url + "/#none")
        page.wait_for_selector("#dlg-new[open]")
        page.click("#dlg-new button[value=cancel]")
        # junk: its format is checked first (as the loader does), before any seat is asked
        page.set_input_files("#file-upload", str(junk))
        page.wait_for_selector("#dlg-message[open]")
        assert page.inner_text("#msg-text").startswith("junk.json: format: missing")
        assert not page.evaluate("document.getElementById('dlg-new').open")
        _escape_closes(page, "dlg-message")
        # a tournament's records: one a line; the page lists them, Escape cancels
        page.set_input_files("#file-upload", str(records))
        page.wait_for_selector("#dlg-pick[open]")
        assert page.locator("#pick-list li").count() == 2
        _escape_closes(page, "dlg-pick")
        page.set_input_files("#file-upload", str(records))
        page.wait_for_selector("#dlg-pick[open]")
        page.click("#pick-list button.pick[data-index='1']")
        page.wait_for_selector("#dlg-new[open]")
        assert page.inner_text("#new-title") == "Continue from a record (2 players)"
        for i in range(2):
            page.select_option(f"select[data-seat='{i}']", "human")
        page.click("#new-start")
        # the second game (118 moves, played to its end): every move in the log, game over
        assert _wait_state(page) == "over"
        assert page.locator("#log li").count() == len(second["moves"]) == 118
        assert page.inner_text("#log li:last-child code") == second["moves"][-1]
        assert errors == []


def test_board_marks_one_a_square_inside_the_board(tmp_path, browser):
    # top moves that share squares: the best rank keeps a square, a monument's block that
    # holds a better mark is left to the list; marks at the board's edges stay inside it
    top = [{"move": "tile red F2", "share": 0.4, "win": 0.5, "visits": 40,
            "mark": {"square": "F2", "size": 1, "from": None}},
           {"move": "tile black F2", "share": 0.3, "win": 0.5, "visits": 30,
            "mark": {"square": "F2", "size": 1, "from": None}},
           {"move": "monument red-blue E1", "share": 0.1, "win": 0.5, "visits": 10,
            "mark": {"square": "E1", "size": 2, "from": None}},
           {"move": "leader red P11", "share": 0.1, "win": 0.5, "visits": 10,
            "mark": {"square": "P11", "size": 1, "from": "A1"}},
           {"move": "pass", "share": 0.1, "win": 0.5, "visits": 10, "mark": None}]
    with Server(tmp_path / "games") as srv:
        page, errors = _page(browser, width=390, height=844)
        page.goto(srv.url + "/#editor")
        page.wait_for_function("document.body.dataset.state == 'editor'")
        page.evaluate("top => { ED.marks = top; drawEditor(); "
                      "document.getElementById('an-moves').innerHTML = movesHtml(top); }", top)
        marks = _no_overlap_inside_board(page, "svg#editor-board")
        shown = page.evaluate("[...document.querySelectorAll('#editor-board g.mark')]"
                              ".map(g => [g.dataset.rank, g.dataset.square])")
        assert shown == [["1", "F2"], ["4", "P11"]]
        assert len(marks) == 2
        # the list has all five, in words
        assert page.locator("#an-moves li").count() == 5
        assert "not on the board" in page.inner_text("#an-moves li:nth-child(5)")
def test_each_seat_plays_from_its_own_link(tmp_path, browser):
    """Two humans, not hot-seat: the maker's page carries seat 0's key in its address and
    shows the link of seat 1; seat 1's link opens its hand in another browser; the game's
    address without a key gets no view of the seat."""
    received = []
    with Server(tmp_path / "games") as srv:
        page, errors = _page(browser, received)
        page.goto(srv.url + "/")
        page.wait_for_selector("#dlg-new[open]")
        page.select_option("select[data-seat='1']", "human")
        page.uncheck("#new-hotseat")
        page.click("#new-start")
        page.wait_for_selector("#dlg-message[open]")
        made = next(r for r in received if isinstance(r, dict) and "links" in r)
        gid, links = made["id"], {e["seat"]: e["link"] for e in made["links"]}
        assert page.evaluate("location.hash") == links[0][1:]  # '#game=..&seat=0&key=..'
        assert f"{srv.url}{links[1]}" in page.inner_text("#msg-text")
        page.click("#dlg-message button")
        assert _wait_state(page) == "your-move"
        page.click("#btn-pass")
        page.wait_for_function("document.querySelectorAll('#log li').length == 1")
        page.click("#btn-pass")
        # seat 1 is another person: no cover, no hand of theirs on this screen
        page.wait_for_function("document.body.dataset.state == 'waiting'")
        assert not page.is_visible("#cover")
        other = browser.new_context()   # another browser: no keys remembered
        page1 = other.new_page()
        page1.set_default_timeout(TIMEOUT_MS)
        seen = []
        page1.on("response", lambda r: seen.append((r.status, r.url)) if "/api/games/" in r.url
                 else None)
        page1.goto(srv.url + links[1])
        page1.wait_for_function("document.body.dataset.state == 'your-move'")
        assert "Your hand (player 1)" in page1.inner_text("#hand")
        # the address without the key, in a third browser: refused, the hand is never sent
        third = browser.new_context()
        page2 = third.new_page()
        page2.set_default_timeout(TIMEOUT_MS)
        refused = []
        page2.on("response", lambda r: refused.append(r) if f"/api/games/{gid}" in r.url
                 else None)
        page2.goto(f"{srv.url}/#game={gid}&seat=1")
        page2.wait_for_function("document.getElementById('status').textContent"
                                ".includes(\"the seat's key\")")
        assert refused and all(r.status == 403 for r in refused)
        other.close()
        third.close()
        _hidden_hands_kept(received, 0)
        assert errors == []


def _game_as_shown(page):
    """What the play view shows of a game: the pieces on the board (kind and square), the
    log and the hand."""
    pieces = page.evaluate("[...document.querySelectorAll('svg#board [data-square]:not(rect.square)')]"
                           ".map(e => e.getAttribute('class') + ' ' + e.dataset.square).sort()")
    return pieces, page.inner_text("#log"), page.inner_text("#hand")


def test_analyse_then_back_to_the_game(tmp_path, browser):
    """Analyse opens the editor on the game's position; "Back to the game", and the browser's
    back button, return to the same game: its board, log and hand as they were."""
    with Server(tmp_path / "games") as srv:
        page, errors = _page(browser)
        _new_game(page, srv.url, ["human", "random"], seed=5)
        assert _wait_state(page) == "your-move"
        # player 0's first action, a tile: the log has one move and it is his second action
        page.locator(".hand-tile:not([disabled])").first.click()
        page.locator("circle.target").first.click()
        page.wait_for_function("document.querySelectorAll('#log li').length == 1")
        assert _wait_state(page) == "your-move"
        before = _game_as_shown(page)
        address = page.evaluate("location.hash")
        assert address.startswith("#game=") and "&seat=0" in address
        assert len(before[1].splitlines()) == 1 and "tile" in before[1]
        for way_back in ("button", "browser"):
            page.click("#btn-analyse")
            page.wait_for_function("document.body.dataset.state == 'editor'")
            assert page.is_visible("#ed-back") and page.is_visible("#editor-board")
            assert not page.is_visible("#board")
            gid = address.split("=")[1].split("&")[0]
            assert page.inner_text("#ed-from-text") == f"From game {gid} (player 0's view)."
            if way_back == "button":
                page.click("#ed-back")
            else:
                page.go_back()
            assert _wait_state(page) == "your-move"
            assert page.is_visible("#board") and not page.is_visible("#editor-board")
            assert page.evaluate("location.hash") == address
            assert _game_as_shown(page) == before
            assert page.locator("#ed-stop").is_disabled()   # the analysis was stopped
        assert errors == []


def test_the_board_wider_than_a_phone_says_so(tmp_path, browser):
    """At 390 px the board is 760 px wide (style.css) inside 382 px (main's padding of 4 px
    each side), so it scrolls.  Its viewBox is 674 units (26 + 16 x 40 + 8) at 760/674 px a
    unit: column c spans 26 + 40 c to 26 + 40 (c + 1) units.  Scrolled to the left, the view
    ends at 382 px = 338.8 units: A to G (G ends at 306, H at 346).  Scrolled to the right
    (378 px = 335.2 units in), I (from 346) to P are whole.  On a desktop it fits: no cue."""
    with Server(tmp_path / "games") as srv:
        page, errors = _page(browser, width=390, height=844)
        _new_game(page, srv.url, ["human", "random"], seed=5)
        assert _wait_state(page) == "your-move"
        box = "document.querySelector('#play-view .board-scroll')"
        assert page.evaluate(f"[{box}.clientWidth, {box}.scrollWidth]") == [382, 760]
        cue = page.locator("#play-view .scroll-cue")
        assert cue.is_visible()
        assert cue.inner_text() == "⇆ Columns A to G in view: swipe the board sideways for H to P."
        shadows = ("[...['::before', '::after']].map(p => getComputedStyle("
                   "document.querySelector('#play-view .board-wrap'), p).display)")
        assert page.evaluate(shadows) == ["none", "block"]   # more board to the right only
        # the cue is above the board, in the first screen
        top = page.evaluate("document.querySelector('#play-view .scroll-cue').getBoundingClientRect().bottom")
        assert top <= page.evaluate("document.querySelector('#board').getBoundingClientRect().top")
        page.evaluate(f"{box}.scrollLeft = {box}.scrollWidth")
        page.wait_for_function("document.querySelector('#play-view .scroll-cue').textContent"
                               ".includes('for A to H')")
        assert cue.inner_text() == "⇆ Columns I to P in view: swipe the board sideways for A to H."
        assert page.evaluate(shadows) == ["block", "none"]
        # the editor's board says the same
        page.click("#btn-analyse")
        page.wait_for_function("document.body.dataset.state == 'editor'")
        page.click("#ed-stop")
        assert page.locator("#editor-view .scroll-cue").inner_text().startswith("⇆ Columns A to G in view")
        assert errors == []
        desk, errors = _page(browser)
        _new_game(desk, srv.url, ["human", "random"], seed=6)
        assert _wait_state(desk) == "your-move"
        assert not desk.locator("#play-view .scroll-cue").is_visible()
        assert desk.evaluate(shadows) == ["none", "none"]
        assert errors == []
