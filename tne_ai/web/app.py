"""The ASGI application of `tne serve` (Starlette): JSON routes over games, views and search.

Routes (every error is a 4xx with a one-line JSON body ``{"error": "..."}``):

GET  /                              the page (static/index.html)
GET  /static/...                    its script and styles
GET  /api/meta                      the renderer's symbols, the AI levels, the server's --ai
GET  /api/games                     the games: id, seats, ply, over
POST /api/games                     {"seats": [...], "seed": n, "hotseat": bool} -> the new
                                    game's view, its first human seat's "key", and "links"
POST /api/games/upload              {"seats", "seed", "hotseat", "data": tne-game/1 or
                                    tne-position/1}: the same answer
GET  /api/games/{id}?seat=k         seat k's view (views.game_view); no seat: a watcher's
POST /api/games/{id}/move           {"seat": k, "move": "tile red F4"}
POST /api/games/{id}/undo           {"seat": k}: take back k's last move and the AI's after it
POST /api/games/{id}/hint           {"seat": k}: the engine's move for k, from k's view
GET  /api/games/{id}/position?seat=k  k's view as a tne-position/1 file
GET  /api/games/{id}/record         the tne-game/1 record, once the game is over
POST /api/positions/check           {"position": {...}}: loaded as files are; legal moves
POST /api/analyses                  {"position": {...}, "iterations": n} -> {"id"}
GET  /api/analyses/{id}/events      server-sent events: the top moves as the search grows
POST /api/analyses/{id}/stop

Seat keys: a request for seat k (its view, move, undo, hint, position) carries k's key in
the ``X-Tne-Key`` header or the ``key`` query parameter, else it is refused with 403.  The
page's link of a seat is ``/#game=ID&seat=K&key=KEY`` (games.Game.link).

Every body is read by tne_ai.core.io.json_reader (at most MAX_BODY bytes, strict UTF-8, bounded
nesting and numbers) and every number by its parse_int; the outermost layer (``_Guard``)
answers whatever still escapes with a one-line JSON 500 and logs one line, never a traceback.
"""
import asyncio
import contextlib
import json
import os
import secrets
import socket
import sys
import threading

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from tne_ai import limits as L
from tne_ai.errors import TneError
from tne_ai.core.io.json_reader import parse_int, read_json
from tne_ai.core.notation import move_text
from tne_ai.position import Position
from tne_ai.web import views
from tne_ai.web.games import (HINT_ITERATIONS, HUMAN, LEVELS, Analysis, GameStore, RequestError, hint,
                    legal_codes, prepare_games_dir)

STATIC = os.path.join(os.path.dirname(__file__), "static")
MAX_BODY = 1 << 20              # bytes of a request body
MAX_ANALYSIS_ITERATIONS = 1_000_000
DEFAULT_ANALYSIS_ITERATIONS = 200_000
MAX_RUNNING_ANALYSES = 2
MAX_KEPT_ANALYSES = 50
KEY_HEADER = "x-tne-key"
MAX_HOST = 253                  # characters of a host name (RFC 1035)


def _error(message, status=400):
    return JSONResponse({"error": " ".join(str(message).split())[:500]}, status_code=status)


async def _body(request, fields):
    """The request's JSON object (read by json_reader); RequestError for a body too large,
    not JSON, not an object, or with a key that is not one of ``fields`` (a misspelt or
    unknown field is named, never ignored)."""
    size = request.headers.get("content-length")
    if size is not None:
        if parse_int(size, "content-length", 0) > MAX_BODY:
            raise RequestError(f"request body: at most {MAX_BODY} bytes", 413)
    chunks, total = [], 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MAX_BODY:
            raise RequestError(f"request body: at most {MAX_BODY} bytes", 413)
        chunks.append(chunk)
    data = read_json(b"".join(chunks), "request body", max_bytes=MAX_BODY)
    if not isinstance(data, dict):
        raise RequestError("request body: expected a JSON object")
    for key in data:
        if key not in fields:
            raise RequestError(f"request body: {str(key)[:40]!r} is not a field of this request "
                               f"(its fields: {', '.join(fields)})")
    return data


def _seat(value, game, required=True):
    """The seat number in ``value`` (a query text or a JSON value), 0 to players - 1."""
    if value is None or value == "":
        if required:
            raise RequestError("seat: required (a player number)")
        return None
    return parse_int(value, "seat", 0, game.players - 1)


def _int(data, key, default, lo, hi):
    """The integer field ``key`` of a JSON body (a JSON number, not a text), lo..hi."""
    value = data.get(key, default)
    if isinstance(value, str):
        raise RequestError(f"{key}: expected an integer {lo} to {hi}, got a text")
    return parse_int(value, key, lo, hi)


def _key(request):
    """The seat key a request carries: the X-Tne-Key header, else the ``key`` parameter."""
    key = request.headers.get(KEY_HEADER)
    return key if key is not None else request.query_params.get("key")


def _seat_of(request, game, value, required=True, human=False):
    """The seat a request names, once it has shown that seat's key (403 otherwise).
    ``human``: the seat must be a human's (an AI seat is nobody's to move)."""
    seat = _seat(value, game, required)
    if seat is None:
        return None
    if human and game.seats[seat] != HUMAN:
        raise RequestError(f"seat {seat} is played by {game.seats[seat]}", 403)
    if not game.key_fits(seat, _key(request)):
        raise RequestError(f"seat {seat}: this needs the seat's key (the key in the link of "
                           "that seat, as the X-Tne-Key header or the key parameter)", 403)
    return seat


def _api(handler):
    """Errors a request can cause become a 4xx one-line JSON answer.  A client that leaves
    before its body is read whole (ClientDisconnect) is a normal event, not an error: nobody
    is left to answer, nothing is logged and nothing was changed (the body is read before
    anything is done with it)."""
    async def wrapped(request):
        try:
            return await handler(request)
        except ClientDisconnect:
            return Response(status_code=400)
        except RequestError as e:
            return _error(e, e.status)
        except TneError as e:
            return _error(e, 400)
    wrapped.__name__ = handler.__name__
    return wrapped


def _log_line(text):
    print(f"tne serve: {' '.join(str(text).split())[:300]}", file=sys.stderr, flush=True)


class _Guard:
    """The outermost layer: an exception that escapes everything else becomes a one-line
    JSON 500 (if no answer was started) and one log line, never a traceback in the log."""

    def __init__(self, app):
        self.app = app
        self.state = app.state

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = False

        async def sending(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)
        try:
            await self.app(scope, receive, sending)
        except ClientDisconnect:  # the client left: a normal event, no one to answer
            return
        except Exception as e:  # the last resort: one line, no traceback
            _log_line(f"internal error on {scope.get('method')} "
                      f"{L.clip(scope.get('path', ''), 80)}: {type(e).__name__}: {e}")
            if not started:
                body = json.dumps({"error": f"internal error: {type(e).__name__}"}).encode()
                await send({"type": "http.response.start", "status": 500,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})


def create_app(games_dir=None, default_ai="mcts:iterations=2000", ai_workers=2,
               hint_iterations=HINT_ITERATIONS):
    """The application; games are saved in ``games_dir`` (None: kept in memory only)."""
    store = GameStore(games_dir, default_ai, ai_workers)
    analyses = {}
    analyses_lock = threading.Lock()

    def first_human(game):
        return next((i for i, s in enumerate(game.seats) if s == "human"), None)

    def view(game, seat):
        with game.lock:
            return JSONResponse(views.game_view(game, seat))

    async def index(request):
        return FileResponse(os.path.join(STATIC, "index.html"))

    @_api
    async def meta(request):
        return JSONResponse({"symbols": views.symbols(), "levels": LEVELS,
                             "default_ai": default_ai})

    @_api
    async def list_games(request):
        out = []
        for g in list(store.games.values()):
            with g.lock:
                out.append({"id": g.id, "seats": g.seats, "ply": len(g.log),
                            "over": g.position.is_over(), "created": g.created})
        out.sort(key=lambda g: -g["created"])
        return JSONResponse({"games": out})

    def created(game):
        """A new game's answer: its first human seat's view and key, and every human
        seat's link (the maker hands them out; the AI seats' keys never leave)."""
        seat = first_human(game)
        with game.lock:
            out = views.game_view(game, seat)
        out["key"] = game.keys[seat] if seat is not None else None
        out["hotseat"] = game.hotseat
        out["links"] = game.human_links()
        return JSONResponse(out)

    def hotseat(data):
        value = data.get("hotseat", False)
        if not isinstance(value, bool):
            raise RequestError("hotseat: expected true or false")
        return value

    @_api
    async def new_game(request):
        data = await _body(request, ("seats", "seed", "hotseat"))
        seed = _int(data, "seed", secrets.randbelow(1 << 30), 0, 2 ** 31 - 1)
        game = await run_in_threadpool(store.add, data.get("seats"), seed,
                                       hotseat=hotseat(data))
        return created(game)

    @_api
    async def upload(request):
        data = await _body(request, ("seats", "seed", "hotseat", "data"))
        seed = _int(data, "seed", 0, 0, 2 ** 31 - 1)
        game = await run_in_threadpool(store.add_upload, data.get("seats"), seed,
                                       data.get("data"), hotseat=hotseat(data))
        return created(game)

    @_api
    async def get_game(request):
        game = store.get(request.path_params["gid"])
        return view(game, _seat_of(request, game, request.query_params.get("seat"),
                                   required=False))

    @_api
    async def move(request):
        game = store.get(request.path_params["gid"])
        data = await _body(request, ("seat", "move"))
        seat = _seat_of(request, game, data.get("seat"), human=True)
        await run_in_threadpool(store.move, game, seat, data.get("move"))
        return view(game, seat)

    @_api
    async def undo(request):
        game = store.get(request.path_params["gid"])
        data = await _body(request, ("seat",))
        seat = _seat_of(request, game, data.get("seat"), human=True)
        await run_in_threadpool(store.undo, game, seat)
        return view(game, seat)

    @_api
    async def game_hint(request):
        game = store.get(request.path_params["gid"])
        data = await _body(request, ("seat",))
        seat = _seat_of(request, game, data.get("seat"), human=True)
        return JSONResponse(await run_in_threadpool(hint, game, seat, hint_iterations))

    @_api
    async def game_position(request):
        game = store.get(request.path_params["gid"])
        seat = _seat_of(request, game, request.query_params.get("seat"), required=False)
        with game.lock:
            return JSONResponse(views.position_view(game.position.st, seat))

    @_api
    async def game_record(request):
        game = store.get(request.path_params["gid"])
        with game.lock:
            return JSONResponse(game.record())

    def load(data):
        position = data.get("position")
        if not isinstance(position, dict):
            raise RequestError("position: expected a tne-position/1 object")
        seed = _int(data, "seed", 0, 0, 2 ** 31 - 1)
        return Position.from_json(position, seed=seed)

    @_api
    async def check_position(request):
        data = await _body(request, ("position", "seed"))
        p = await run_in_threadpool(load, data)
        to_act = p.to_act
        legal = []
        if not p.is_over() and p.known_hands[to_act]:
            legal = sorted(move_text(c) for c in legal_codes(p.st))
        return JSONResponse({"ok": True, "to_act": to_act, "over": p.is_over(),
                             "legal": legal, "conflict": views.conflict_info(p.st)})

    @_api
    async def new_analysis(request):
        data = await _body(request, ("position", "seed", "iterations"))
        p = await run_in_threadpool(load, data)
        if p.is_over():
            raise RequestError("the game is over: nothing to analyse", 409)
        if not p.known_hands[p.to_act]:
            raise RequestError(f"hands[{p.to_act}]: the hand of the player to act must be "
                               "known to analyse", 400)
        iterations = _int(data, "iterations", DEFAULT_ANALYSIS_ITERATIONS, 1000,
                          MAX_ANALYSIS_ITERATIONS)
        with analyses_lock:
            running = sum(1 for a in analyses.values() if not a.done)
            if running >= MAX_RUNNING_ANALYSES:
                raise RequestError(f"{running} analyses are running: stop one first", 429)
            while len(analyses) >= MAX_KEPT_ANALYSES:
                oldest = min((a for a in analyses.values() if a.done),
                             key=lambda a: a.started, default=None)
                if oldest is None:
                    break
                del analyses[oldest.id]
            a = Analysis(secrets.token_hex(6), p.st.copy(), iterations,
                         _int(data, "seed", 0, 0, 2 ** 31 - 1))
            analyses[a.id] = a
        threading.Thread(target=a.run, daemon=True, name=f"tne-analysis-{a.id}").start()
        return JSONResponse({"id": a.id, "to_act": p.to_act, "iterations": iterations})

    def get_analysis(request):
        a = analyses.get(request.path_params["aid"])
        if a is None:
            raise RequestError(f"no analysis '{request.path_params['aid'][:40]}'", 404)
        return a

    @_api
    async def analysis_events(request):
        a = get_analysis(request)

        async def stream():
            seen = -1
            while True:
                if a.version != seen:
                    seen = a.version
                    snap = a.snapshot
                    yield f"data: {json.dumps(snap)}\n\n"
                    if snap.get("done"):
                        return
                if await request.is_disconnected():
                    a.stop()
                    return
                await asyncio.sleep(0.1)
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})

    @_api
    async def stop_analysis(request):
        a = get_analysis(request)
        a.stop()
        return JSONResponse({"id": a.id, "stopping": True})

    async def http_error(request, exc):
        return _error(exc.detail if exc.status_code != 404 else f"no such page: {request.url.path}",
                      exc.status_code)

    async def server_error(request, exc):
        return _error(f"internal error: {type(exc).__name__}", 500)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        store.close()

    gid = "{gid:str}"
    routes = [
        Route("/", index),
        Route("/api/meta", meta),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/upload", upload, methods=["POST"]),
        Route(f"/api/games/{gid}", get_game, methods=["GET"]),
        Route(f"/api/games/{gid}/move", move, methods=["POST"]),
        Route(f"/api/games/{gid}/undo", undo, methods=["POST"]),
        Route(f"/api/games/{gid}/hint", game_hint, methods=["POST"]),
        Route(f"/api/games/{gid}/position", game_position, methods=["GET"]),
        Route(f"/api/games/{gid}/record", game_record, methods=["GET"]),
        Route("/api/positions/check", check_position, methods=["POST"]),
        Route("/api/analyses", new_analysis, methods=["POST"]),
        Route("/api/analyses/{aid:str}/events", analysis_events, methods=["GET"]),
        Route("/api/analyses/{aid:str}/stop", stop_analysis, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error,
                                                       Exception: server_error},
                    lifespan=lifespan)
    app.state.store = store
    app.state.analyses = analyses
    return _Guard(app)


def listening_socket(host, port):
    """A TCP socket bound to ``host``:``port`` (the first address host resolves to);
    TneError naming --host or --port when the host is not a name, does not resolve, or the
    address cannot be taken (in use, not this machine's)."""
    if not isinstance(host, str) or not host.strip():
        raise TneError("--host: expected a host name or address, got an empty one")
    if len(host) > MAX_HOST:
        raise TneError(f"--host: at most {MAX_HOST} characters, got {len(host)}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError, ValueError) as e:
        reason = getattr(e, "strerror", None) or " ".join(str(e).split())
        raise TneError(f"--host '{L.clip(host, 60)}': does not resolve ({reason})") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as e:
        sock.close()
        raise TneError(f"--host/--port: cannot listen on {L.clip(host, 60)}:{port} "
                       f"({e.strerror or type(e).__name__})") from None
    return sock


def serve(host="127.0.0.1", port=8000, ai="mcts:iterations=2000", games_dir="tne-games",
          echo=print):
    """Run the server until interrupted (uvicorn), printing its URL first.  Everything
    that can be wrong with the options (--ai, --host, --port, --games-dir) is reported as a
    TneError before the server starts, the games directory checked last (so a host or a
    port that fails leaves nothing behind)."""
    import uvicorn
    from tne_ai.agents.builtin import make_agent
    make_agent(ai)  # a bad --ai is reported before the server starts
    sock = listening_socket(host, port)
    try:
        try:
            prepare_games_dir(games_dir)
        except TneError as e:
            raise TneError(f"--games-dir: {e}") from None
        app = create_app(games_dir, ai)
        store = app.state.store
        echo(f"tne serve: http://{host}:{port}/ (games in {os.path.abspath(games_dir)}; "
             f"AI {ai}; Ctrl-C stops)")
        for name in store.removed_tmp:
            echo(f"tne serve: removed {name}, left by a save that was cut short")
        for message in store.load_errors:
            echo(f"tne serve: not loaded: {message}")
        for game in store.upgraded:
            echo(f"tne serve: game {game.id} was saved without seat keys: it is now a "
                 f"hot-seat game; its human seats open with {game.link(game.seats.index(HUMAN))}"
                 if HUMAN in game.seats else f"tne serve: game {game.id} got seat keys")
        config = uvicorn.Config(app, log_level="warning", lifespan="on")
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()


__all__ = ["create_app", "serve"]
