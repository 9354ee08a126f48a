"""`tne serve` over HTTP: every route, malformed and hostile requests, hidden information,
and a restart that continues a game with the same state (Starlette's TestClient)."""
import copy
import json
import os
import re
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tne_ai.position import Position
from tne_ai.web.app import MAX_BODY, create_app
from tne_ai.web.games import LEVELS
from test_web_browser import REVOLT

ROOT = Path(__file__).resolve().parent.parent
ZERO = {"red": 0, "blue": 0, "green": 0, "black": 0, "treasure": 0}


@pytest.fixture()
def client(tmp_path):
    with TestClient(create_app(str(tmp_path / "games"), "random")) as c:
        yield c


def _error(r, status):
    """A refused request: the status, and a one-line JSON error, no traceback."""
    assert r.status_code == status, r.text
    body = r.json()
    assert list(body) == ["error"]
    assert "\n" not in body["error"] and "Traceback" not in body["error"]
    return body["error"]


def _wait(c, gid, seat, until, timeout=120, key=None):
    deadline = time.monotonic() + timeout
    while True:
        v = c.get(f"/api/games/{gid}" + (f"?seat={seat}" if seat is not None else ""),
                  headers=_h(key)).json()
        if until(v):
            return v
        assert time.monotonic() < deadline, "the server did not get there in time"
        time.sleep(0.05)


def _new(c, seats, seed=1, hotseat=False):
    r = c.post("/api/games", json={"seats": seats, "seed": seed, "hotseat": hotseat})
    assert r.status_code == 200, r.text
    return r.json()


def _keys(v):
    """Seat -> key, from the links of a new game's answer (/#game=ID&seat=K&key=KEY)."""
    return {e["seat"]: e["link"].rsplit("&key=", 1)[1] for e in v["links"]}


def _h(key):
    """The header that carries a seat's key (none for a watcher)."""
    return {"X-Tne-Key": key} if key is not None else {}


# --- the page and its files ------------------------------------------------------------------

def test_page_and_static_files_are_served_by_the_package(client):
    page = client.get("/")
    assert page.status_code == 200 and "<script src=\"/static/app.js\">" in page.text
    for name in ("app.js", "board.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    # nothing is loaded from elsewhere (works offline): no http(s) URL in the page's sources
    for name in ("index.html", "app.js", "board.js", "style.css"):
        text = (ROOT / "tne_ai" / "web" / "static" / name).read_text()
        assert not re.search(r"https?://", text), name


def test_meta_levels_are_the_budget_ladder(client):
    meta = client.get("/api/meta").json()
    assert meta["default_ai"] == "random"
    # the Elo of each level is the one measured in bench/results/budget.txt (agent i<budget>)
    table = {}
    for line in (ROOT / "bench" / "results" / "budget.txt").read_text().splitlines():
        m = re.match(r"i(\d+)\s+\d+\s+\d+\s+\d+\s+[\d.]+\s+[\d.]+\s+([+-]\d+)", line)
        if m:
            table[int(m.group(1))] = int(m.group(2))
    assert [(lv["spec"], lv["elo"]) for lv in meta["levels"]] == \
        [(f"mcts:iterations={b}", table[b]) for b in (1000, 2000, 4000, 8000, 16000)]
    # the renderer's colours (render.py TILE_FILL) and four leader shapes per player
    assert meta["symbols"]["tile_fill"] == ["#c8372d", "#2160b5", "#2d8a45", "#2a2a2a"]
    assert len(meta["symbols"]["leader"]) == 4 and len(meta["symbols"]["leader"][0]) == 4


# --- hostile and malformed requests ----------------------------------------------------------

def test_malformed_and_hostile_requests_get_a_4xx_json_line(client):
    v = _new(client, ["human", "human"], hotseat=True)
    gid, K = v["id"], _h(v["key"])
    saved = Path(client.app.state.store.directory, f"{gid}.json")
    _error(client.get("/api/nothing"), 404)
    _error(client.get("/api/games/../../etc/passwd"), 404)
    _error(client.get("/api/games/..%2f..%2fetc"), 404)
    _error(client.get("/api/games/0123456789ab"), 404)
    _error(client.delete(f"/api/games/{gid}"), 405)
    _error(client.post("/api/games", content=b"{not json"), 400)
    _error(client.post("/api/games", content=b"\xff\xfe"), 400)
    _error(client.post("/api/games", json=[1, 2]), 400)
    _error(client.post("/api/positions/check", content=b"[" * 100000), 400)
    _error(client.post("/api/games", content=b" " * (MAX_BODY + 1)), 413)
    _error(client.post("/api/games", content=b"{}", headers={"content-length": "99999999999"}), 413)
    for seats in (None, [], ["human"], ["human"] * 5, ["human", 3], ["human", "x" * 300],
                  ["human", "mcts:time=1000"], ["human", "mcts:iterations=10000000"],
                  ["human", "mcts"], ["human", "mcts:iterations=100,threads=64"],
                  ["human", "openspiel-ismcts"], ["human", "nobody"]):
        _error(client.post("/api/games", json={"seats": seats, "seed": 1}), 400)
    for seed in (-1, 2 ** 31, "1", True, 1.5):
        _error(client.post("/api/games", json={"seats": ["human", "random"], "seed": seed}), 400)
    for body in ({}, {"seat": 0}, {"seat": 0, "move": 7}, {"seat": 0, "move": "x" * 100},
                 {"seat": 0, "move": "tile purple A1"}, {"seat": -1, "move": "pass"},
                 {"seat": 2, "move": "pass"}, {"seat": "0x", "move": "pass"},
                 {"seat": True, "move": "pass"}):
        _error(client.post(f"/api/games/{gid}/move", json=body, headers=K), 400)
    # legal-looking but wrong now: another player's turn, an illegal square, a decision
    assert "player 0's move" in _error(client.post(f"/api/games/{gid}/move", headers=K,
                                                   json={"seat": 1, "move": "pass"}), 409)
    assert "not legal" in _error(client.post(f"/api/games/{gid}/move", headers=K,
                                             json={"seat": 0, "move": "tile blue A1"}), 409)
    _error(client.post(f"/api/games/{gid}/move", json={"seat": 0, "move": "commit 1"},
                       headers=K), 409)
    _error(client.post(f"/api/games/{gid}/undo", json={"seat": 0}, headers=K), 409)
    _error(client.post(f"/api/games/{gid}/hint", json={"seat": 1}, headers=K), 409)
    _error(client.get(f"/api/games/{gid}?seat=9"), 400)
    _error(client.get(f"/api/games/{gid}?seat=abc"), 400)
    assert "over" in _error(client.get(f"/api/games/{gid}/record"), 409)
    _error(client.post("/api/games/upload", json={"seats": ["human", "human"], "data": 5}), 400)
    bad = dict(REVOLT, board=REVOLT["board"][:10])
    assert _error(client.post("/api/games/upload", json={"seats": ["human", "human"],
                                                         "data": bad}), 400).startswith("board")
    assert "seats" in _error(client.post("/api/games/upload", json={
        "seats": ["human", "human", "human"], "data": REVOLT}), 400)
    _error(client.post("/api/positions/check", json={"position": "x"}), 400)
    _error(client.post("/api/analyses", json={"position": REVOLT, "iterations": 10 ** 9}), 400)
    _error(client.post("/api/analyses", json={"position": REVOLT, "iterations": 5}), 400)
    _error(client.get("/api/analyses/nope/events"), 404)
    _error(client.post("/api/analyses/nope/stop"), 404)
    # none of it touched the game, in memory or on disk
    v = client.get(f"/api/games/{gid}?seat=0", headers=K).json()
    assert v["log"] == [] and v["to_act"] == 0
    assert json.loads(saved.read_text())["moves"] == []


def _mutate(d, rng, depth=0):
    """d with one value somewhere replaced, removed or set to a hostile value."""
    values = [None, -1, 0, 7, 10 ** 12, "x", "", [], {}, [None], True, 1.5, "Z99", "rrrr",
              [0, "red", "A1"], {"red": -1}]
    d = copy.deepcopy(d)
    if isinstance(d, (dict, list)) and d:
        key = rng.choice(list(d)) if isinstance(d, dict) else rng.randrange(len(d))
        roll = rng.random()
        if roll < 0.5 and depth < 3:
            d[key] = _mutate(d[key], rng, depth + 1)
        elif roll < 0.6:
            del d[key]
        else:
            d[key] = rng.choice(values)
        return d
    return rng.choice(values)


def test_mutated_positions_never_crash_the_server(tmp_path):
    import random
    rng = random.Random(13)
    with TestClient(create_app(str(tmp_path / "g"), "random"), raise_server_exceptions=False) as c:
        for _ in range(300):
            pos = _mutate(REVOLT, rng)
            for path, body in (("/api/positions/check", {"position": pos}),
                               ("/api/games/upload", {"seats": ["human", "random"],
                                                      "data": pos})):
                r = c.post(path, json=body)
                assert r.status_code in (200, 400), (r.text, pos)


def test_moves_against_an_ai_seat_are_refused(client):
    v = _new(client, ["greedy", "human"])
    gid = v["id"]
    assert v["seat"] == 1 and list(_keys(v)) == [1]  # the AI seat's key is not given out
    v = _wait(client, gid, 1, lambda v: v["to_act"] == 1, key=v["key"])
    assert [e["by"] for e in v["log"]] == ["ai", "ai"]
    assert "played by greedy" in _error(client.post(f"/api/games/{gid}/move",
                                                    json={"seat": 0, "move": "pass"}), 403)
    # nor may anyone read the AI seat's view (its hand)
    _error(client.get(f"/api/games/{gid}?seat=0"), 403)


# --- views: what a seat may see --------------------------------------------------------------

def test_a_seat_sees_only_its_own_hand_and_no_bag(client):
    v = _new(client, ["human", "human", "human"], seed=2)
    gid, keys = v["id"], _keys(v)
    for seat in (0, 1, 2):
        v = client.get(f"/api/games/{gid}?seat={seat}", headers=_h(keys[seat])).json()
        hands = v["position"]["hands"]
        assert [h is not None for h in hands] == [i == seat for i in range(3)]
        assert sum(hands[seat].values()) == 6
        assert "bag" not in v["position"] and v["position"]["hand_sizes"] == [6, 6, 6]
        assert v["bag"] == 143 - 18
        assert (v["legal"] != []) == (seat == 0)
    watcher = client.get(f"/api/games/{gid}").json()
    assert watcher["position"]["hands"] == [None, None, None] and watcher["legal"] == []
    # the position export of a seat is the same view
    assert client.get(f"/api/games/{gid}/position?seat=1", headers=_h(keys[1])).json() == \
        client.get(f"/api/games/{gid}?seat=1", headers=_h(keys[1])).json()["position"]


def test_swaps_of_others_show_only_the_tile_count(client):
    v = _new(client, ["human", "human"], seed=5)
    gid, keys = v["id"], _keys(v)
    hand = v["position"]["hands"][0]
    letters = "".join(c[0] if c != "black" else "k" for c in ("red", "blue", "green", "black")
                      for _ in range(min(hand[c], 1)))[:2]
    client.post(f"/api/games/{gid}/move", json={"seat": 0, "move": f"swap {letters}"},
                headers=_h(keys[0]))
    mine = client.get(f"/api/games/{gid}?seat=0", headers=_h(keys[0])).json()["log"][0]["move"]
    theirs = client.get(f"/api/games/{gid}?seat=1", headers=_h(keys[1])).json()["log"][0]["move"]
    assert mine.startswith("swap ") and len(mine.split()[1]) == 2
    assert theirs == "swap 2 tiles"


def test_the_hint_is_searched_from_the_seats_view(client):
    v = _new(client, ["human", "random"], seed=8)
    gid, K = v["id"], _h(v["key"])
    r = client.post(f"/api/games/{gid}/hint", json={"seat": 0}, headers=K)
    assert r.status_code == 200
    h = r.json()
    legal = client.get(f"/api/games/{gid}?seat=0", headers=K).json()["legal"]
    assert h["move"] in legal and h["iterations"] == 4000
    assert h["top"][0]["move"] == h["move"] and 0 < h["top"][0]["share"] <= 1


# --- play: moves, AI, undo, conflicts, record -------------------------------------------------

def test_a_revolt_is_spelled_out_and_undo_takes_it_back(client):
    r = client.post("/api/games/upload", json={"seats": ["human", "random"], "seed": 0,
                                               "data": REVOLT})
    v = r.json()
    gid, K = v["id"], _h(v["key"])
    before = v["position"]
    v = client.post(f"/api/games/{gid}/move", json={"seat": 0, "move": "leader red B3"},
                    headers=K).json()
    # the revolt worked out in test_web_browser: attacker 1 on the board, defender 3
    assert v["conflict"] == {"kind": "revolt", "colour": "red", "attacker": 0, "defender": 1,
                             "attacker_board": 1, "defender_board": 3, "attacker_commit": None}
    assert v["legal"] == ["commit 0", "commit 1", "commit 2", "commit 3"]
    client.post(f"/api/games/{gid}/move", json={"seat": 0, "move": "commit 2"}, headers=K)
    # the defender (random) holds no red tile: commit 0; 1 + 2 = 3 against 3: a tie, the
    # defender keeps his leader, player 0's red leader goes back, player 1 scores 1 red
    v = _wait(client, gid, 0, lambda v: len(v["log"]) == 3, key=K["X-Tne-Key"])
    assert v["log"][2]["move"] == "commit 0" and v["log"][2]["by"] == "ai"
    assert v["log"][2]["outcome"] == ("revolt (red): player 0 1+2 = 3 against player 1 3+0 = 3:"
                                      " player 1 wins (ties go to the defender); player 0's red "
                                      "leader back to supply; player 1 scores 1 red")
    assert v["position"]["scores"][1]["red"] == 1
    assert v["position"]["hands"][0]["red"] == 1
    # undo: back to before player 0's last move (commit 2), then once more to the start
    v = client.post(f"/api/games/{gid}/undo", json={"seat": 0}, headers=K).json()
    assert [e["move"] for e in v["log"]] == ["leader red B3"] and v["legal"][-1] == "commit 3"
    v = client.post(f"/api/games/{gid}/undo", json={"seat": 0}, headers=K).json()
    assert v["log"] == [] and v["position"] == before and not v["can_undo"]


# A war (SPEC section 4), worked out by hand, rows 5-6, columns B-G (all land):
#   row 5:  . r . r . .      red tiles C5 and E5
#   row 6:  k K . K k k      black tile B6, player 0's king C6; player 1's king E6, black F6 G6
# Player 0 puts a green tile on D6: it touches C6 and E6, two kingdoms with a black leader
# each, one conflict, fought at once.  Attacker player 0: black tiles on his side B6 = 1; the
# defender's F6 G6 = 2.  Player 0 commits 2 (3), player 1 holds no black (0, so 2): player 0
# wins, player 1's king goes home, F6 and G6 leave the game and player 0 scores 2 + 1 = 3 black.
WAR = dict(REVOLT,
           board=["....~~~~~.r.~...", ".r..~.......~..r", "...~~r......~~..", "~~~~.........~~~",
                  "..r.r........r~~", ".k...kk.......~.", "~~~~....r...~~~.", ".r.~~~~.....~...",
                  "......~~~~~~~.r.", ".....r..........", "..........r....."],
           leaders=[[0, "black", "C6"], [1, "black", "E6"]],
           hands=[{"red": 1, "blue": 1, "green": 2, "black": 2},
                  {"red": 2, "blue": 2, "green": 2, "black": 0}],
           bag={"red": 42, "blue": 33, "green": 26, "black": 25})


def test_a_war_is_spelled_out(client):
    v = client.post("/api/games/upload", json={"seats": ["human", "random"], "seed": 0,
                                               "data": WAR}).json()
    gid, key = v["id"], v["key"]
    v = client.post(f"/api/games/{gid}/move", json={"seat": 0, "move": "tile green D6"},
                    headers=_h(key)).json()
    assert v["position"]["pending"]["kind"] == "war"
    assert (v["conflict"]["attacker_board"], v["conflict"]["defender_board"]) == (1, 2)
    client.post(f"/api/games/{gid}/move", json={"seat": 0, "move": "commit 2"}, headers=_h(key))
    v = _wait(client, gid, 0, lambda v: len(v["log"]) == 3, key=key)
    assert v["log"][2]["outcome"] == (
        "war around D6 (black): player 0 1+2 = 3 against player 1 2+0 = 2: player 0 wins; "
        "player 1's black leader back to supply; removed 2 black tile(s); player 0 scores 3 black")
    assert v["position"]["board"][5] == ".k.g..........~."  # B6 stays, D6 green, F6 G6 gone
    assert v["position"]["scores"][0]["black"] == 3


def test_ai_game_to_the_end_and_its_record(client):
    gid = _new(client, ["random", "random"], seed=21)["id"]
    v = _wait(client, gid, None, lambda v: v["over"])
    rec = client.get(f"/api/games/{gid}/record").json()
    assert rec["format"] == "tne-game/1" and rec["meta"]["agents"] == ["random", "random"]
    p = Position.from_json(rec["start"])
    for m in rec["moves"]:
        p.push(m)
    assert p.is_over() and p.ranking() == v["ranking"] == rec["result"]["ranking"]
    assert [e["move"] for e in v["log"] if not e["move"].startswith("swap")] == \
        [m for m in rec["moves"] if not m.startswith("swap")]


def test_upload_a_record_continues_after_its_moves(client):
    start = Position.new(2, seed=3)
    record = {"format": "tne-game/1", "start": start.to_json(), "moves": ["pass"] * 3,
              "result": {"scores": [ZERO, ZERO], "final": [[0] * 4, [0] * 4],
                         "ranking": [1, 1]}}
    v = client.post("/api/games/upload", json={"seats": ["human", "human"], "seed": 0,
                                               "data": record}).json()
    # three passes: player 1's second action
    assert v["to_act"] == 1 and v["position"]["actions_left"] == 1
    assert [e["by"] for e in v["log"]] == ["record"] * 3
    bad = dict(record, moves=["pass", "commit 2"])
    assert _error(client.post("/api/games/upload", json={"seats": ["human", "human"],
                                                         "data": bad}), 400).startswith("moves[1]")


# --- editor and analysis ---------------------------------------------------------------------

def test_check_a_position_with_a_pending_revolt(client):
    pos = copy.deepcopy(REVOLT)
    pos["leaders"] = [[0, "red", "B3"], [1, "red", "C2"]]
    pos["pending"] = {"kind": "revolt", "colour": "red", "attacker": 0, "defender": 1,
                      "attacker_commit": None}
    r = client.post("/api/positions/check", json={"position": pos}).json()
    assert r["legal"] == ["commit 0", "commit 1", "commit 2", "commit 3"]
    assert r["conflict"]["attacker_board"] == 1 and r["conflict"]["defender_board"] == 3
    pos["pending"] = None
    assert "leaders" in _error(client.post("/api/positions/check", json={"position": pos}), 400)


def test_analysis_streams_until_its_budget_and_stops_on_request(client):
    r = client.post("/api/analyses", json={"position": REVOLT, "iterations": 3000}).json()
    events = []
    with client.stream("GET", f"/api/analyses/{r['id']}/events") as s:
        for line in s.iter_lines():
            if line.startswith("data: "):
                events.append(json.loads(line[6:]))
    assert events[-1]["done"] and events[-1]["iterations"] == 3000
    legal = client.post("/api/positions/check", json={"position": REVOLT}).json()["legal"]
    assert all(m["move"] in legal for m in events[-1]["top"])
    shares = [m["share"] for m in events[-1]["top"]]
    assert shares == sorted(shares, reverse=True) and sum(shares) <= 1
    # a long analysis, stopped: its stream ends early
    r = client.post("/api/analyses", json={"position": REVOLT, "iterations": 1_000_000}).json()
    client.post(f"/api/analyses/{r['id']}/stop")
    with client.stream("GET", f"/api/analyses/{r['id']}/events") as s:
        last = [json.loads(x[6:]) for x in s.iter_lines() if x.startswith("data: ")][-1]
    assert last["done"] and last["iterations"] < 1_000_000


# --- files and restarts ----------------------------------------------------------------------

def test_restart_continues_ai_games_with_identical_state(tmp_path):
    seats = ["mcts:iterations=1000", "greedy"]
    with TestClient(create_app(str(tmp_path / "a"), "random")) as c:
        gid = _new(c, seats, seed=9)["id"]
        whole = _wait(c, gid, None, lambda v: v["over"])
    # the same game, its server stopped while the AIs play (after 20 moves: the AI finishes
    # the move it is searching and stops) and started again
    with TestClient(create_app(str(tmp_path / "b"), "random")) as c:
        gid2 = _new(c, seats, seed=9)["id"]
        store = c.app.state.store

        def stop_after_20(v):
            if len(v["log"]) >= 20:
                store.closing = True
                return True
            return False
        _wait(c, gid2, None, stop_after_20)
    saved = json.loads((tmp_path / "b" / f"{gid2}.json").read_text())
    assert 20 <= len(saved["moves"]) < len(whole["log"])
    with TestClient(create_app(str(tmp_path / "b"), "random")) as c:
        # the saved moves come first (the AI goes on from there at once)
        again = c.get(f"/api/games/{gid2}").json()
        # (a watcher's log shows another player's swap as its size only)
        from tne_ai.web.views import redacted
        replayed = Position.from_json(saved["start"], seed=saved["seed"])
        shown = []
        for m in saved["moves"]:
            shown.append(redacted(m, replayed.to_act, None))
            replayed.push(m)
        assert [e["move"] for e in again["log"]][:len(saved["moves"])] == shown
        done = _wait(c, gid2, None, lambda v: v["over"])
    assert done["position"] == whole["position"]
    assert [e["move"] for e in done["log"]] == [e["move"] for e in whole["log"]]
    assert not [n for n in os.listdir(tmp_path / "b") if n.endswith(".tmp")]


def test_restart_mid_game_with_a_human(tmp_path):
    d = str(tmp_path / "games")
    with TestClient(create_app(d, "random")) as c:
        v = _new(c, ["human", "random"], seed=4)
        gid, key = v["id"], v["key"]
        for m in ("pass", "pass"):
            c.post(f"/api/games/{gid}/move", json={"seat": 0, "move": m}, headers=_h(key))
        before = _wait(c, gid, 0, lambda v: v["to_act"] == 0 and len(v["log"]) == 4, key=key)
    # a file the browser could never write, and a stray one, do not stop the server
    Path(d, "0123456789ab.json").write_text("{broken")
    Path(d, "notes.txt").write_text("x")
    with TestClient(create_app(d, "random")) as c:
        after = c.get(f"/api/games/{gid}?seat=0", headers=_h(key)).json()
        for field in ("position", "log", "legal", "to_act", "seats"):
            assert after[field] == before[field]
        assert {g["id"] for g in c.get("/api/games").json()["games"]} == {gid}
        assert any("0123456789ab" in e for e in c.app.state.store.load_errors)
        v = c.post(f"/api/games/{gid}/move", json={"seat": 0, "move": "pass"},
                   headers=_h(key)).json()
        assert len(v["log"]) == 5


# --- the command -----------------------------------------------------------------------------

def test_serve_refuses_a_bad_ai_spec_in_one_line(tmp_path):
    from click.testing import CliRunner
    from cli import main
    r = CliRunner().invoke(main, ["serve", "--ai", "nosuch", "--games-dir", str(tmp_path)])
    assert r.exit_code == 2
    assert r.output.startswith("tne: error: unknown agent 'nosuch'") and r.output.count("\n") == 1


def test_serve_prints_its_url_and_answers(tmp_path):
    import subprocess
    import sys
    import httpx
    from web_support import free_port
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "serve", "--port", str(port),
                             "--games-dir", str(tmp_path / "g"), "--ai", "random"],
                            stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        line = proc.stdout.readline()
        assert line.startswith(f"tne serve: http://127.0.0.1:{port}/ ")
        deadline = time.monotonic() + 120
        while True:
            try:
                meta = httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=5).json()
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert meta["default_ai"] == "random"
    finally:
        proc.terminate()
        proc.wait(60)
