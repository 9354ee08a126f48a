"""The ASGI application of `tne serve` (Starlette): JSON routes over games, views and search.

Routes (every error is a 4xx with a one-line JSON body ``{"error": "..."}``):

GET  /                              the page (static/index.html)
GET  /static/...                    its script and styles
GET  /api/meta                      the renderer's symbols, the AI levels, the server's --ai
GET  /api/games                     the games: id, seats, ply, over
POST /api/games                     {"seats": [...], "seed": n} -> the new game's view
POST /api/games/upload              {"seats", "seed", "data": tne-game/1 or tne-position/1}
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
"""
import asyncio
import contextlib
import json
import os
import secrets
import threading

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.responses import FileResponse, JSONResponse, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import TneError
from ..notation import move_text
from ..position import Position
from . import views
from .games import LEVELS, Analysis, GameStore, RequestError, hint, legal_codes

STATIC = os.path.join(os.path.dirname(__file__), "static")
MAX_BODY = 1 << 20              # bytes of a request body
MAX_ANALYSIS_ITERATIONS = 1_000_000
DEFAULT_ANALYSIS_ITERATIONS = 200_000
MAX_RUNNING_ANALYSES = 2
MAX_KEPT_ANALYSES = 50


def _error(message, status=400):
    return JSONResponse({"error": " ".join(str(message).split())[:500]}, status_code=status)


async def _body(request):
    """The request's JSON object; RequestError for a body too large, not JSON, not an object."""
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
        raise RequestError(f"request body: at most {MAX_BODY} bytes", 413)
    chunks, total = [], 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MAX_BODY:
            raise RequestError(f"request body: at most {MAX_BODY} bytes", 413)
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RequestError(f"request body: not valid JSON: {e}") from None
    except RecursionError:
        raise RequestError("request body: JSON nested too deeply") from None
    if not isinstance(data, dict):
        raise RequestError("request body: expected a JSON object")
    return data


def _seat(value, game, required=True):
    if value is None or value == "":
        if required:
            raise RequestError("seat: required (a player number)")
        return None
    if isinstance(value, str):
        if not value.isdigit():
            raise RequestError(f"seat: expected a player number, got {value[:20]!r}")
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < game.players:
        raise RequestError(f"seat: expected 0 to {game.players - 1}")
    return value


def _int(data, key, default, lo, hi):
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise RequestError(f"{key}: expected an integer {lo} to {hi}")
    return value


def _api(handler):
    """Errors a request can cause become a 4xx one-line JSON answer."""
    async def wrapped(request):
        try:
            return await handler(request)
        except RequestError as e:
            return _error(e, e.status)
        except TneError as e:
            return _error(e, 400)
    wrapped.__name__ = handler.__name__
    return wrapped


def create_app(games_dir=None, default_ai="mcts:iterations=2000", ai_workers=2):
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

    @_api
    async def new_game(request):
        data = await _body(request)
        seed = data.get("seed", secrets.randbelow(1 << 30))
        game = await run_in_threadpool(store.add, data.get("seats"), seed)
        return view(game, first_human(game))

    @_api
    async def upload(request):
        data = await _body(request)
        seed = data.get("seed", 0)
        game = await run_in_threadpool(store.add_upload, data.get("seats"), seed, data.get("data"))
        return view(game, first_human(game))

    @_api
    async def get_game(request):
        game = store.get(request.path_params["gid"])
        return view(game, _seat(request.query_params.get("seat"), game, required=False))

    @_api
    async def move(request):
        game = store.get(request.path_params["gid"])
        data = await _body(request)
        seat = _seat(data.get("seat"), game)
        await run_in_threadpool(store.move, game, seat, data.get("move"))
        return view(game, seat)

    @_api
    async def undo(request):
        game = store.get(request.path_params["gid"])
        data = await _body(request)
        seat = _seat(data.get("seat"), game)
        await run_in_threadpool(store.undo, game, seat)
        return view(game, seat)

    @_api
    async def game_hint(request):
        game = store.get(request.path_params["gid"])
        data = await _body(request)
        seat = _seat(data.get("seat"), game)
        return JSONResponse(await run_in_threadpool(hint, game, seat))

    @_api
    async def game_position(request):
        game = store.get(request.path_params["gid"])
        seat = _seat(request.query_params.get("seat"), game, required=False)
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
        data = await _body(request)
        p = await run_in_threadpool(load, data)
        to_act = p.to_act
        legal = []
        if not p.is_over() and p.known_hands[to_act]:
            legal = sorted(move_text(c) for c in legal_codes(p.st))
        return JSONResponse({"ok": True, "to_act": to_act, "over": p.is_over(),
                             "legal": legal, "conflict": views.conflict_info(p.st)})

    @_api
    async def new_analysis(request):
        data = await _body(request)
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
                    a.stop.set()
                    return
                await asyncio.sleep(0.1)
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})

    @_api
    async def stop_analysis(request):
        a = get_analysis(request)
        a.stop.set()
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
    return app


def serve(host="127.0.0.1", port=8000, ai="mcts:iterations=2000", games_dir="tne-games",
          echo=print):
    """Run the server until interrupted (uvicorn), printing its URL first."""
    import uvicorn
    from ..agents import make_agent
    make_agent(ai)  # a bad --ai is reported before the server starts
    app = create_app(games_dir, ai)
    echo(f"tne serve: http://{host}:{port}/ (games in {os.path.abspath(games_dir)}; "
         f"AI {ai}; Ctrl-C stops)")
    uvicorn.run(app, host=host, port=port, log_level="warning")


__all__ = ["create_app", "serve"]
