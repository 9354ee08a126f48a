"""`tne serve` over HTTP: every route, malformed and hostile requests, hidden information,
and a restart that continues a game with the same state (Starlette's TestClient)."""
import copy
import json
import os
import re
import threading
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tne_ai.position import Position
from tne_ai.web.app import MAX_BODY, create_app
from tne_ai.web.games import LEVELS, Analysis, RequestError, checked_levels
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
    # a field the request does not have is named, not ignored (no game of a guessed shape)
    assert _error(client.post("/api/games", json={"players": 5}), 400) == (
        "request body: 'players' is not a field of this request (its fields: seats, seed, "
        "hotseat)")
    assert "'sead'" in _error(client.post("/api/games", json={"seats": ["human", "random"],
                                                             "sead": 3}), 400)
    assert "'iteration'" in _error(client.post("/api/analyses", json={
        "position": REVOLT, "iteration": 5000}), 400)
    assert "'key'" in _error(client.post(f"/api/games/{gid}/move", headers=K,
                                         json={"seat": 0, "move": "pass", "key": "k"}), 400)
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


def test_hostile_numbers_bodies_and_headers_get_a_4xx(client):
    v = _new(client, ["human", "human"], hotseat=True)
    gid, K = v["id"], _h(v["key"])
    game = f"/api/games/{gid}"
    seats = '"seats": ["human", "human"]'
    huge = "1" + "0" * 4999                       # 5,000 digits
    deep = '{"a":' * 30000
    for path, body in (
            ("/api/games", f'{{{seats}, "seed": {huge}}}'),
            ("/api/games", f'{{{seats}, "seed": 1e309}}'),
            ("/api/games", f'{{{seats}, "seed": {"9" * 400}}}'),   # above 10^308
            ("/api/games", f'{{{seats}, "seed": "\u00b2"}}'),
            ("/api/games", f'{{{seats}, "seed": NaN}}'),
            ("/api/games", f'{{{seats}, "hotseat": "yes"}}'),
            ("/api/games", f'{{"seats": {"[" * 50000}'),
            ("/api/games", f'{{"seats": {deep}'),
            ("/api/games/upload", f'{{{seats}, "seed": {huge}, "data": {{}}}}'),
            (f"{game}/move", f'{{"seat": "\u00b2", "move": "pass"}}'),
            (f"{game}/move", f'{{"seat": "\u0661", "move": "pass"}}'),   # Arabic-Indic one
            (f"{game}/move", f'{{"seat": {huge}, "move": "pass"}}'),
            (f"{game}/move", f'{{"seat": 1e400, "move": "pass"}}'),
            (f"{game}/move", f'{{"seat": 0.0, "move": "pass"}}'),
            (f"{game}/move", f'{{"seat": [0], "move": "pass"}}'),
            (f"{game}/undo", f'{{"seat": {"9" * 400}}}'),
            (f"{game}/hint", '{"seat": "\u00b2"}'),
            ("/api/analyses", f'{{"position": {{}}, "iterations": {huge}}}'),
            ("/api/analyses", '{"position": {}, "iterations": 1e309}'),
            ("/api/analyses", f'{{"position": {{}}, "seed": {"9" * 400}}}'),
            ("/api/positions/check", f'{{"position": {"[" * 200000}'),
            ("/api/positions/check", f'{{"position": {{}}, "seed": "\u00b2"}}')):
        _error(client.post(path, content=body.encode(), headers=K), 400)
    for raw in (b'{"seats": ["\xc3("]}', b'{"seats": ["human", "human"], "x": "\xff"}'):
        _error(client.post("/api/games", content=raw), 400)   # not UTF-8
    for query in ("seat=\u00b2", "seat=%C2%B2", "seat=%D9%A1", f"seat={huge}", "seat=0x1",
                  "seat=-1", "seat=%ff", "seat=1e3", "seat=0.0"):
        _error(client.get(f"{game}?{query}", headers=K), 400)
        _error(client.get(f"{game}/position?{query}", headers=K), 400)
    # hostile headers: a content-length that is not ASCII digits, huge, or negative
    for length in ("\u00b2".encode("utf-8"), b"\xb2", b"1" * 5000, b"-1", b"1_0"):
        _error(client.post("/api/games", content=b"{}", headers={"content-length": length}),
               400)
    _error(client.post("/api/games", content=b"{}", headers={"content-length": b"9" * 20}), 413)
    # none of it touched the game
    assert client.get(f"{game}?seat=0", headers=K).json()["log"] == []


def test_an_unexpected_error_is_one_json_line_and_one_log_line(client, monkeypatch, capfd):
    """The outermost guard: an exception no handler expects (here a fault planted in the
    store) is a 500 with a one-line JSON error, and the log gets one line, no traceback;
    the exception does not reach the server (TestClient would raise it)."""
    def broken(gid):
        raise RuntimeError("planted\nfault")
    monkeypatch.setattr(client.app.state.store, "get", broken)
    r = client.get("/api/games/0123456789ab")
    assert r.status_code == 500 and r.json() == {"error": "internal error: RuntimeError"}
    err = capfd.readouterr().err
    assert "Traceback" not in err
    assert err.splitlines() == ["tne serve: internal error on GET /api/games/0123456789ab: "
                                "RuntimeError: planted fault"]


def test_a_client_that_leaves_in_the_middle_of_a_body_is_no_error(tmp_path):
    """A real `tne serve` on 127.0.0.1: a client sends the head of a POST and 9 of the 100
    bytes its Content-Length announces, then closes the socket.  That is a normal event:
    the server serves on (the next request is answered; the cut request made no game) and
    its log, read once it has stopped (Ctrl-C), holds no error and no traceback: only the
    line of the Ctrl-C."""
    import signal
    import socket
    import subprocess
    import sys
    from web_support import free_port
    port = free_port()
    with open(tmp_path / "err.txt", "w+") as err:
        proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "-q", "serve", "--port",
                                 str(port), "--ai", "random", "--games-dir",
                                 str(tmp_path / "games")],
                                stdout=subprocess.PIPE, stderr=err, text=True, cwd=tmp_path)
        try:
            first = proc.stdout.readline()
            assert first.startswith(f"tne serve: http://127.0.0.1:{port}/ "), first
            deadline = time.monotonic() + 120     # the URL is printed just before it listens
            while True:
                try:
                    s = socket.create_connection(("127.0.0.1", port), timeout=60)
                    break
                except ConnectionRefusedError:
                    assert time.monotonic() < deadline, "the server did not listen"
                    time.sleep(0.1)
            with s:
                s.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
                          b'{"seats":')
            with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
                s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          b"Connection: close\r\n\r\n")
                answer = b""
                while chunk := s.recv(65536):
                    answer += chunk
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200 ")
            assert json.loads(body) == {"games": []}
            proc.send_signal(signal.SIGINT)
            assert proc.wait(timeout=60) == 130     # stopped by Ctrl-C (SIGINT)
        finally:
            proc.kill()
            proc.stdout.close()
        err.seek(0)
        assert [line for line in err.read().splitlines() if line] == ["tne: interrupted"]


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


# --- seat keys -------------------------------------------------------------------------------

def test_a_seat_needs_its_key(client):
    v = _new(client, ["human", "human"], seed=3)
    gid, keys = v["id"], _keys(v)
    # each human seat has its own key, in its link; the maker's answer is seat 0 with its key
    assert v["seat"] == 0 and v["key"] == keys[0] and not v["hotseat"]
    assert [e["link"] for e in v["links"]] == [f"/#game={gid}&seat={i}&key={keys[i]}"
                                               for i in (0, 1)]
    assert keys[0] != keys[1] and all(re.fullmatch(r"[A-Za-z0-9_-]{22}", k) for k in keys.values())
    seat1 = f"/api/games/{gid}?seat=1"
    # without a key, with another seat's key, with a wrong or a hostile one: 403
    for headers in ({}, _h(keys[0]), _h(keys[1][:-1]), _h(keys[1] + "x"), _h("x" * 5000),
                    {"X-Tne-Key": "é".encode("latin-1")}):
        assert "seat 1" in _error(client.get(seat1, headers=headers), 403)
    _error(client.get(seat1 + f"&key={keys[0]}"), 403)
    _error(client.get(f"/api/games/{gid}/position?seat=1"), 403)
    # with it (the header or the key parameter): 200, seat 1's own hand
    for r in (client.get(seat1, headers=_h(keys[1])), client.get(seat1 + f"&key={keys[1]}")):
        assert r.status_code == 200 and r.json()["seat"] == 1
        assert [h is not None for h in r.json()["position"]["hands"]] == [False, True]
    assert client.get(f"/api/games/{gid}/position?seat=1&key={keys[1]}").status_code == 200
    # moves, undo and hint need the key of the seat they name
    move = {"seat": 0, "move": "pass"}
    _error(client.post(f"/api/games/{gid}/move", json=move), 403)
    _error(client.post(f"/api/games/{gid}/move", json=move, headers=_h(keys[1])), 403)
    _error(client.post(f"/api/games/{gid}/hint", json={"seat": 0}, headers=_h(keys[1])), 403)
    assert client.post(f"/api/games/{gid}/move", json=move, headers=_h(keys[0])).status_code == 200
    _error(client.post(f"/api/games/{gid}/undo", json={"seat": 0}, headers=_h(keys[1])), 403)
    _error(client.post(f"/api/games/{gid}/undo", json={"seat": 0}), 403)
    assert client.get(seat1, headers=_h(keys[1])).json()["log"][0]["move"] == "pass"
    # a watcher (no seat) needs no key and sees no hand; no answer but the maker's holds a key
    watcher = client.get(f"/api/games/{gid}")
    assert watcher.status_code == 200 and watcher.json()["position"]["hands"] == [None, None]
    for r in (watcher, client.get("/api/games"), client.get(seat1, headers=_h(keys[1])),
              client.get(f"/api/games/{gid}?seat=0", headers=_h(keys[0]))):
        assert keys[0] not in r.text and keys[1] not in r.text


def test_hot_seat_games_share_one_key_among_the_human_seats(client):
    v = _new(client, ["human", "random", "human"], seed=3, hotseat=True)
    gid, keys = v["id"], _keys(v)
    assert v["hotseat"] and keys == {0: v["key"], 2: v["key"]}
    for seat in (0, 2):
        assert client.get(f"/api/games/{gid}?seat={seat}", headers=_h(v["key"])).json()[
            "position"]["hands"][seat] is not None
    # the AI seat's key is its own, never given out
    _error(client.get(f"/api/games/{gid}?seat=1", headers=_h(v["key"])), 403)


def test_keys_survive_a_restart(tmp_path):
    d = str(tmp_path / "games")
    with TestClient(create_app(d, "random")) as c:
        v = _new(c, ["human", "human"], seed=6)
        gid, keys = v["id"], _keys(v)
    saved = json.loads(Path(d, f"{gid}.json").read_text())
    assert saved["format"] == "tne-web-game/2" and saved["keys"] == [keys[0], keys[1]]
    with TestClient(create_app(d, "random")) as c:
        _error(c.get(f"/api/games/{gid}?seat=1"), 403)
        _error(c.get(f"/api/games/{gid}?seat=1", headers=_h(keys[0])), 403)
        assert c.get(f"/api/games/{gid}?seat=1", headers=_h(keys[1])).status_code == 200
        assert c.post(f"/api/games/{gid}/move", json={"seat": 0, "move": "pass"},
                      headers=_h(keys[0])).status_code == 200


def test_a_game_saved_without_keys_becomes_a_hot_seat_game_with_new_keys(tmp_path):
    d = tmp_path / "games"
    d.mkdir()
    start = Position.new(2, seed=4).to_json()
    old = {"format": "tne-web-game/1", "id": "00000000000a", "seats": ["human", "human"],
           "seed": 4, "created": 1.0, "start": start, "moves": ["pass"], "by": ["human"]}
    (d / "00000000000a.json").write_text(json.dumps(old))
    with TestClient(create_app(str(d), "random")) as c:
        store = c.app.state.store
        assert [g.id for g in store.upgraded] == ["00000000000a"]
        game = store.games["00000000000a"]
        assert game.hotseat and game.keys[0] == game.keys[1]
        _error(c.get("/api/games/00000000000a?seat=0"), 403)
        v = c.get("/api/games/00000000000a?seat=1", headers=_h(game.keys[0])).json()
        assert v["log"][0]["move"] == "pass" and v["hotseat"]
    # saved again at once in the new format, with those keys
    saved = json.loads((d / "00000000000a.json").read_text())
    assert saved["format"] == "tne-web-game/2" and saved["keys"] == game.keys
    assert saved["moves"] == ["pass"]


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
    # one search: its root was visited once per iteration, and the moves listed share them
    assert h["visits"] == 4000 and sum(m["visits"] for m in h["top"]) <= 4000
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


def test_analysis_grows_one_tree_in_doubling_steps():
    # steps of 1,000, 2,000, 4,000 and 8,000 iterations, then the 5,000 left of 20,000: after
    # each, the iterations reported are the root visits of the one tree (fresh trees would
    # have the last step's alone)
    a = Analysis("t", Position.from_json(REVOLT, seed=0).st, 20000, seed=3)
    seen, publish = [], a._publish

    def published(info, alternatives):
        publish(info, alternatives)
        trees = a.search.trees
        seen.append((a.snapshot["iterations"], len(trees), int(trees[0].visits[0])))
    a._publish = published
    a.run()
    assert seen == [(n, 1, n) for n in (1000, 3000, 7000, 15000, 20000)]
    assert a.done and a.error is None and a.snapshot["done"]
    assert a.snapshot["iterations"] == a.snapshot["visits"] == 20000
    assert a.search is None      # let go when done: its tree is freed


def test_analysis_stop_ends_the_step_in_progress_and_the_tree_grows_no_more():
    a = Analysis("t", Position.from_json(REVOLT, seed=0).st, 1_000_000, seed=1)
    a.FIRST_STEP = 1_000_000     # one step of the whole budget: stop must cut it short
    thread = threading.Thread(target=a.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while (a.search is None or a.search.trees[0] is None or a.search.trees[0].visits[0] < 500) \
            and time.monotonic() < deadline:
        time.sleep(0.02)
    s = a.search
    assert s is not None and s.trees[0] is not None and s.trees[0].visits[0] >= 500
    a.stop()
    thread.join(30)
    assert not thread.is_alive() and a.done and a.error is None
    visits = int(s.trees[0].visits[0])
    assert 500 <= visits < 1_000_000
    assert a.snapshot["iterations"] == a.snapshot["visits"] == s.iterations == visits
    time.sleep(0.3)
    assert int(s.trees[0].visits[0]) == visits and s.iterations == visits


def test_a_level_or_a_seat_with_a_bad_search_option_is_refused(client):
    # the levels are read by SearchConfig.from_spec: one bound per option (tne_ai/limits.py)
    assert [lv["iterations"] for lv in LEVELS] == [1000, 2000, 4000, 8000, 16000]
    for spec, fragment in (("mcts:iterations=0", "iterations=0 in spec 'mcts:iterations=0' "
                                                 "is out of range (1 <= x <= 10000000)"),
                           ("mcts:iterations=1000,c=0", "c=0 in spec 'mcts:iterations=1000,c=0' "
                                                        "is out of range (0 < x <= 1e+06)"),
                           ("mcts:iterations=1000,wexp=5", "(0 <= x <= 4)"),
                           ("mcts:iterations=1000,depth=3", "unknown option 'depth'"),
                           ("mcts:iterations=64001", "iterations=64001 is out of range for a "
                                                     "page (1 <= x <= 64000)"),
                           ("mcts:time=1", "not a time budget")):
        with pytest.raises(RequestError) as e:
            checked_levels([{"name": "odd", "spec": spec, "elo": 0}])
        assert str(e.value).startswith("AI level odd: ") and fragment in str(e.value)
        assert "\n" not in str(e.value)
        # the same spec asked for by a page: 400, the same line without the level
        error = _error(client.post("/api/games", json={"seats": ["human", spec], "seed": 1}), 400)
        assert fragment in error and "AI level" not in error
    # options that are the server's (a weights file, the tree's memory) a page may not set
    for spec, option in (("mcts:iterations=1000,weights=/etc/passwd", "weights"),
                         ("mcts:iterations=1000,capacity=33554432", "capacity")):
        error = _error(client.post("/api/games", json={"seats": ["human", spec], "seed": 1}), 400)
        assert f"option {option} is the server's to set" in error


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


def test_temporaries_of_a_killed_save_are_removed_at_start(tmp_path):
    d = tmp_path / "games"
    with TestClient(create_app(str(d), "random")) as c:
        v = _new(c, ["human", "random"], seed=2)
    gid = v["id"]
    # what a SIGKILL during GameStore.save leaves: the temporary, never renamed
    for name in (f"{gid}.json.140234.tmp", "0123456789ab.json.77.tmp"):
        (d / name).write_text('{"format": "tne-web-game/2", "half a')
    (d / "notes.tmp").write_text("not the server's: left alone")
    with TestClient(create_app(str(d), "random")) as c:
        assert sorted(os.listdir(d)) == [f"{gid}.json", "notes.tmp"]
        assert sorted(c.app.state.store.removed_tmp) == ["0123456789ab.json.77.tmp",
                                                         f"{gid}.json.140234.tmp"]
        assert c.get(f"/api/games/{gid}?seat=0", headers=_h(v["key"])).status_code == 200


def test_a_move_that_cannot_be_saved_is_not_acknowledged(client, monkeypatch):
    v = _new(client, ["human", "human"], hotseat=True)
    gid, K = v["id"], _h(v["key"])
    store = client.app.state.store
    saved = Path(store.directory, f"{gid}.json")

    def full(game):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(store, "save", full)
    assert "could not be saved" in _error(client.post(
        f"/api/games/{gid}/move", json={"seat": 0, "move": "pass"}, headers=K), 503)
    # the game is as its file says: no move
    assert client.get(f"/api/games/{gid}?seat=0", headers=K).json()["log"] == []
    assert json.loads(saved.read_text())["moves"] == []


# --- the command -----------------------------------------------------------------------------

def test_serve_refuses_a_bad_ai_spec_in_one_line(tmp_path):
    from click.testing import CliRunner
    from tne_ai.cli import main
    r = CliRunner().invoke(main, ["serve", "--ai", "nosuch", "--games-dir", str(tmp_path)])
    assert r.exit_code == 2
    assert r.output.startswith("tne: error: unknown agent 'nosuch'") and r.output.count("\n") == 1


def test_serve_prints_its_url_and_answers(tmp_path):
    import subprocess
    import sys
    import urllib.error
    import urllib.request
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
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/meta",
                                            timeout=5) as answer:
                    meta = json.loads(answer.read())
                break
            except (urllib.error.URLError, ConnectionError):
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert meta["default_ai"] == "random"
    finally:
        proc.terminate()
        proc.wait(60)


def _serve_fails(args, cwd):
    """`tne serve ARGS` in a subprocess: it must stop by itself with exit 2 and one line."""
    import subprocess
    import sys
    r = subprocess.run([sys.executable, str(ROOT / "cli.py"), "serve", "--ai", "random", *args],
                       capture_output=True, text=True, cwd=cwd, timeout=120)
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert r.stdout == "" and r.stderr.count("\n") == 1, r.stderr[-2000:]
    assert r.stderr.startswith("tne: error: ") and "Traceback" not in r.stderr
    return r.stderr


@pytest.mark.parametrize("games_dir, reason", [
    ("a-file", "exists and is not a directory"),
    ("/dev/null", "exists and is not a directory"),
    ("", "empty"),
    ("/proc/tne-games", "No such file or directory"),
    ("/proc/1", "cannot use it"),
    ("x" * 300, "File name too long"),
    ("a-file/games", "Not a directory"),
])
def test_serve_refuses_a_games_dir_it_cannot_use_in_one_line(tmp_path, games_dir, reason):
    from web_support import free_port
    (tmp_path / "a-file").write_text("x")
    err = _serve_fails(["--port", str(free_port()), "--games-dir", games_dir], tmp_path)
    assert err.startswith("tne: error: --games-dir: ") and reason in err
    assert sorted(os.listdir(tmp_path)) == ["a-file"]


def test_serve_refuses_a_bad_host_or_port_in_one_line(tmp_path):
    import socket
    from web_support import free_port
    games = str(tmp_path / "g")
    assert "--host: at most 253 characters" in _serve_fails(
        ["--host", "h" * 5000, "--games-dir", games], tmp_path)
    assert "--host 'no-such-host.invalid': does not resolve" in _serve_fails(
        ["--host", "no-such-host.invalid", "--port", str(free_port()), "--games-dir", games],
        tmp_path)
    for port in ("0", "65536", "1_0", "\u00b2", "8" * 5000):
        assert "--port" in _serve_fails(["--port", port, "--games-dir", games], tmp_path)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert f"cannot listen on 127.0.0.1:{port} (Address already in use)" in _serve_fails(
            ["--port", str(port), "--games-dir", games], tmp_path)
    # nothing was written: the games directory is made only once host and port are taken
    assert os.listdir(tmp_path) == []


def test_a_short_soak_loses_nothing(tmp_path):
    """bench/web_soak.py for 20 s (the full run, 10 minutes, is in bench/README.md): 20
    games with hostile requests mixed in, no 5xx, then SIGKILL and restart with every
    acknowledged move still there."""
    import subprocess
    import sys
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "web_soak.py"), "--seconds", "20",
                        "--games", "20", "--ai", "random", "--games-dir", str(tmp_path / "g")],
                       capture_output=True, text=True, cwd=ROOT, timeout=900)
    summary = json.loads(r.stdout)
    assert r.returncode == 0 and summary["failures"] == [], (r.stdout[-3000:], r.stderr[-2000:])
    assert summary["hostile"] > 0 and summary["games_checked_after_restart"] >= 20
    assert summary["moves_in_acknowledged_logs"] > 0
    assert not any(k.split()[1].startswith("5") for k in summary["requests"])
