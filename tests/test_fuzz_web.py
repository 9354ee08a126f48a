"""Property-based fuzzing of `tne serve`'s HTTP routes: no request gets a 5xx.

Each example is one request to the application (Starlette's TestClient, which raises any
exception that escapes the application: none may), built from a real request of the page
with hostile parts: the method, the path (real and unknown game ids, path junk), the query
(seat numbers as superscript, Arabic-Indic or 5,000-digit digits, keys right, wrong and
hostile), the headers (the seat key, Content-Length, Content-Type, other names with bytes
that are not ASCII) and the body (a route's own JSON body with one value replaced by a
hostile literal: 5,000-digit integers, numbers above 1e308, NaN, deep nesting, wrong types;
or raw bytes: invalid UTF-8, nesting 100,000 deep, over the size limit).

The contract (docs/cli.md, `tne serve`): an answer is a 2xx, or a 4xx whose body is one JSON
object ``{"error": "<one line>"}``; never a 5xx, never a traceback in the log; and a view
holds no hand but its seat's, and no bag.

A plain run draws a few hundred examples; ``pytest -m fuzz`` draws 10,000 (tests/conftest.py).
"""
import json

import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st
from starlette.testclient import TestClient

from tne_ai.position import Position
from tne_ai.web.app import MAX_BODY, create_app
from test_web_browser import REVOLT

pytestmark = pytest.mark.fuzz

HUGE = "1" + "0" * 4999


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One application for the whole run: two games (a hot-seat human pair and a human
    against random), a finished analysis; hints searched with a small budget."""
    app = create_app(str(tmp_path_factory.mktemp("games")), "random", hint_iterations=50)
    with TestClient(app) as c:
        a = c.post("/api/games", json={"seats": ["human", "human"], "seed": 1, "hotseat": True})
        b = c.post("/api/games", json={"seats": ["human", "random"], "seed": 2})
        assert a.status_code == b.status_code == 200
        an = c.post("/api/analyses", json={"position": REVOLT, "iterations": 1000}).json()
        with c.stream("GET", f"/api/analyses/{an['id']}/events") as s:
            s.read()
        yield c, [a.json(), b.json()], an["id"]


# --- the parts of a request ---------------------------------------------------------------

# hostile JSON literals, as text (json.dumps could not write most of them)
LITERALS = [HUGE, "-" + HUGE, "1e309", "-1e400", "9" * 400, "1" * 31, "NaN", "Infinity",
            "-Infinity", '"\u00b2"', '"\u0661"', '"\uff11"', '"1_0"', '"0x1"', '" 1 "', '""',
            "0.5", "-1", "2147483648", "true", "null", "[]", "{}", "[0]", '"\\ud800"',
            "[" * 40 + "]" * 40, '{"a":' * 40 + "1" + "}" * 40, '"' + "x" * 3000 + '"']
NUMBER_TEXT = ["\u00b2", "\u0661", "\uff11", HUGE, "1e3", "-1", "1_0", "0x1", " 0", "0.0",
               "%ff", "%C2%B2", "+1", "", "9" * 40]


def _game_body(game, kind):
    seat = game["seat"] if game["seat"] is not None else 0
    if kind == "move":
        legal = game["legal"] or ["pass"]
        return {"seat": seat, "move": legal[0]}
    return {"seat": seat}


@st.composite
def requests(draw, games, aid):
    game = draw(st.sampled_from(games))
    gid = draw(st.sampled_from([game["id"]] * 12 + ["0123456789ab", "x" * 300, "%ff%fe",
                                                     "..%2f..", game["id"].upper()]))
    key = draw(st.sampled_from([game["key"]] * 4 + [None, game["key"][:-1] + "A", "",
                                                    "x" * 5000, "\u00e9"]))
    route = draw(st.sampled_from(["view", "position", "record", "move", "undo", "hint",
                                  "list", "new", "upload", "check", "analysis", "events",
                                  "stop", "meta", "junk"]))
    method, body = "GET", None
    if route == "view":
        path = f"/api/games/{gid}"
    elif route == "position":
        path = f"/api/games/{gid}/position"
    elif route == "record":
        path = f"/api/games/{gid}/record"
    elif route in ("move", "undo", "hint"):
        method, path, body = "POST", f"/api/games/{gid}/{route}", _game_body(game, route)
    elif route == "list":
        path = "/api/games"
    elif route == "new":
        method, path = "POST", "/api/games"
        body = {"seats": ["human", "random"], "seed": 3, "hotseat": False}
    elif route == "upload":
        method, path = "POST", "/api/games/upload"
        body = {"seats": ["human", "random"], "seed": 0, "data": REVOLT}
    elif route == "check":
        method, path, body = "POST", "/api/positions/check", {"position": REVOLT, "seed": 1}
    elif route == "analysis":
        method, path = "POST", "/api/analyses"
        body = {"position": REVOLT, "iterations": 1000, "seed": 0}
    elif route == "events":
        path = f"/api/analyses/{draw(st.sampled_from([aid, 'nope', 'x' * 500]))}/events"
    elif route == "stop":
        method, path = "POST", f"/api/analyses/{draw(st.sampled_from([aid, 'nope']))}/stop"
    elif route == "meta":
        path = "/api/meta"
    else:
        path = draw(st.sampled_from(["/api", "/api/games/", "/static/../../etc/passwd",
                                     "/api/analyses", "/%00", "/api/games/" + gid + "/x"]))
    method = draw(st.sampled_from([method] * 20 + ["GET", "POST", "PUT", "DELETE", "PATCH"]))
    query = {}
    if route in ("view", "position") or draw(st.booleans()):
        query["seat"] = draw(st.sampled_from(["0", "1", None] * 5 + NUMBER_TEXT))
    if draw(st.integers(0, 3)) == 0:
        query["key"] = key or ""
    headers = {}
    if key is not None and draw(st.integers(0, 3)) > 0:
        headers["X-Tne-Key"] = key.encode("utf-8")
    content = None
    if body is not None:
        roll = draw(st.integers(0, 9))
        if roll < 6:  # one field (or one field inside the position) set to a hostile literal
            fields = sorted(body)
            field = draw(st.sampled_from(fields + ["extra"]))
            literal = draw(st.sampled_from(LITERALS))
            body = dict(body, **{field: "@@"})
            if "position" in body and field == "extra":
                body["position"] = dict(REVOLT, **{draw(st.sampled_from(sorted(REVOLT))): "@@"})
            text = json.dumps(body).replace('"@@"', literal, 1)
            content = text.encode("utf-8")
        elif roll == 6:
            content = draw(st.binary(max_size=200))
        elif roll == 7:
            content = draw(st.sampled_from([b"[" * 100000, b'{"a":' * 30000, b"\xc3(",
                                            b'{"seat": "\xff"}', b" " * (MAX_BODY + 1),
                                            b"\xef\xbb\xbf{}", b"{}" * 10]))
        else:
            content = json.dumps(body).encode()
    if draw(st.integers(0, 4)) == 0:
        headers["content-length"] = draw(st.sampled_from(
            [b"\xc2\xb2", b"\xb2", b"9" * 5000, b"-1", b"1_0", b"99999999999", b"0"]))
    if draw(st.integers(0, 4)) == 0:
        headers["content-type"] = draw(st.sampled_from([b"text/plain", b"\xff\xfe",
                                                        b"application/json; charset=latin-1"]))
    if draw(st.integers(0, 5)) == 0:
        headers[draw(st.sampled_from(["x-junk", "cookie", "accept", "range"]))] = draw(
            st.binary(min_size=0, max_size=60).map(
                lambda b: bytes(c for c in b if c not in b"\r\n\x00")))
    return method, path, {k: v for k, v in query.items() if v is not None}, headers, content


def route_of(path):
    parts = path.split("/")
    if len(parts) > 3 and parts[2] == "games" and len(parts[3]) == 12:
        return "games/ID" + ("/" + parts[4] if len(parts) > 4 else "")
    return "/".join(parts[:3])


def _stop_analyses(client):
    for a in list(client.app.state.analyses.values()):
        a.stop()


@settings(suppress_health_check=list(settings.default.suppress_health_check)
          + [HealthCheck.function_scoped_fixture])   # capfd: read once per example
@given(data=st.data())
def test_no_request_gets_a_5xx(server, data, capfd):
    client, games, aid = server
    method, path, query, headers, content = data.draw(requests(games, aid))
    try:
        if path.endswith("/events") and aid in path:
            with client.stream(method, path, params=query, headers=headers,
                               content=content) as r:
                r.read()   # the finished analysis: its events, to the end
        else:
            r = client.request(method, path, params=query, headers=headers, content=content)
    finally:
        _stop_analyses(client)
    event(f"{route_of(path)} {r.status_code}")
    assert r.status_code < 500, (method, path, query, headers, content[:300] if content else None,
                                 r.text[:300])
    if r.status_code >= 400:
        body = r.json()
        assert list(body) == ["error"] and "\n" not in body["error"], r.text[:300]
    elif "application/json" in r.headers.get("content-type", ""):
        body = r.json()
        if isinstance(body, dict) and "position" in body:   # a seat's view: its hand only
            hands = body["position"]["hands"]
            assert [i for i, h in enumerate(hands) if h is not None] in ([], [body["seat"]])
            assert "bag" not in body["position"]
        if isinstance(body, dict) and body.get("format") == "tne-position/1":  # an export
            assert sum(h is not None for h in body["hands"]) <= 1 and "bag" not in body
    err = capfd.readouterr().err
    assert "Traceback" not in err and "internal error" not in err, err[-2000:]


def test_the_fuzzed_games_are_still_whole(server):
    """After the fuzz (it runs first in this module), each game still replays: its saved
    moves from its start give the position the server shows."""
    client, games, _ = server
    store = client.app.state.store
    for g in games:
        game = store.games[g["id"]]
        p = Position.from_json(game.start, seed=game.seed)
        for e in game.log:
            p.push(e["move"])
        assert p.to_json() == game.position.to_json()
