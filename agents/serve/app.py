"""The web application (Starlette): the page, its script and style, and the JSON API the page calls.

Every refusal is a 4xx with ``{"error": "<one line>"}`` and leaves the game as it was; a body is read
up to :data:`MAX_BODY` bytes and no further. The routes (docs/serve.md describes each):

==========================================  ==========================================================
``GET /``                                   the page (lobby and table), ``/static/serve.js``, ``.css``
``GET /api/options``                        the agents offered, the rule options and presets, the pace
``GET /api/games``                          the saved games, newest first
``POST /api/games``                         a new game; the answer holds the tab's token
``GET /api/games/{id}?since=N&wait=S``      the frames after move N (waiting up to S s for the bots)
``POST /api/games/{id}/claim``              take the person's seat in this tab (a new token)
``POST /api/games/{id}/act``                the person's action: ``{"token", "seq", "action"}``
``GET /api/games/{id}/analysis/{hand}``     a completed hand's double-dummy analysis (202 while computed)
``GET /games/{id}/replay``                  the game in the HTML replay viewer
``GET /games/{id}/save``                    the save file (JSON Lines)
==========================================  ==========================================================
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ..replay_html import game_page, suit_symbols
from ..replay_records import load_games
from .roster import RequestError, Roster, presets, rule_options
from .store import ANALYSIS_NODES, GameStore
from .table import ServedGame, analysis_for_viewer

MAX_BODY = 4096  # bytes: the largest request the page sends is a few hundred
MAX_WAIT = 25  # seconds a page may wait for the bots in one request
STATIC = {"serve.js": "text/javascript; charset=utf-8", "serve.css": "text/css; charset=utf-8"}
TOKEN_HEADER = "x-seat-token"


def _asset(name: str) -> str:
    return resources.files("spades_env.agents.serve").joinpath("static", name).read_text(encoding="utf-8")


async def read_json(request: Request) -> object:
    """The request's JSON body, read no further than :data:`MAX_BODY` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise RequestError(413, f"the body is larger than {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise RequestError(413, f"the body is larger than {MAX_BODY} bytes")
    try:
        return json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RequestError(400, f"the body is not JSON: {exc}") from None


def _int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    if not re.fullmatch(r"-?\d{1,9}", text) or not low <= int(text) <= high:
        raise RequestError(400, f"{name} must be a whole number in {low}..{high}, got {text!r}")
    return int(text)


class Api:
    """The handlers, around the games of one server."""

    def __init__(self, store: GameStore, pace_ms: int) -> None:
        self.store, self.pace_ms = store, pace_ms
        self.index = _asset("index.html").replace("{{suits}}", suit_symbols())
        self.static = {name: _asset(name) for name in STATIC}

    def routes(self) -> list[Route]:
        return [
            Route("/", self.page), Route("/static/{name}", self.asset), Route("/api/options", self.options),
            Route("/api/games", self.games, methods=["GET"]), Route("/api/games", self.create, methods=["POST"]),
            Route("/api/games/{id}", self.state), Route("/api/games/{id}/claim", self.claim, methods=["POST"]),
            Route("/api/games/{id}/act", self.act, methods=["POST"]),
            Route("/api/games/{id}/analysis/{hand}", self.analysis), Route("/games/{id}/replay", self.replay),
            Route("/games/{id}/save", self.save),
        ]

    async def open_game(self, request: Request) -> ServedGame:
        """The game of the path; opening one from its save (agents built, moves replayed) runs off the loop."""
        game_id = request.path_params["id"]
        return self.store.games.get(game_id) or await asyncio.to_thread(self.store.get, game_id)

    async def page(self, request: Request) -> Response:
        return HTMLResponse(self.index)

    async def asset(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            raise RequestError(404, f"no file {name!r}")
        return Response(self.static[name], media_type=STATIC[name])

    async def options(self, request: Request) -> Response:
        return JSONResponse({"agents": self.store.roster.to_json(), "rules": rule_options(), "presets": presets(),
                             "pace_ms": self.pace_ms})

    async def games(self, request: Request) -> Response:
        return JSONResponse({"games": await asyncio.to_thread(self.store.listing)})

    async def create(self, request: Request) -> Response:
        body = await read_json(request)
        game = await asyncio.to_thread(self.store.create, body)
        token = game.claim()
        return JSONResponse({"game": game.meta(), "token": token, **game.state(-1, token)}, status_code=201)

    async def state(self, request: Request) -> Response:
        game = await self.open_game(request)
        since = _int_param(request, "since", -1, -1, 10**8)
        wait = _int_param(request, "wait", 0, 0, MAX_WAIT)
        if wait:
            started = time.perf_counter()
            await game.wait(since, wait)
            request.state.waited = time.perf_counter() - started
        return JSONResponse({"game": game.meta(), **game.state(since, request.headers.get(TOKEN_HEADER))})

    async def claim(self, request: Request) -> Response:
        game = await self.open_game(request)
        token = game.claim()
        return JSONResponse({"token": token, **game.state(-1, token)})

    async def act(self, request: Request) -> Response:
        game = await self.open_game(request)
        body = await read_json(request)
        if not isinstance(body, dict) or set(body) != {"token", "seq", "action"}:
            raise RequestError(400, 'an action is a JSON object {"token": ..., "seq": move number, "action": id}')
        game.act(body["token"], body["seq"], body["action"])
        return JSONResponse(game.state(body["seq"], body["token"]))

    async def analysis(self, request: Request) -> Response:
        game = await self.open_game(request)
        hand = _path_int(request, "hand")
        result = game.analysis(hand, self.store.analysis_pool, self.store.analysis_nodes)
        if result is None:
            return JSONResponse({"hand": hand, "pending": True}, status_code=202)
        return JSONResponse(result)

    async def replay(self, request: Request) -> Response:
        game = await self.open_game(request)
        recorded = (await asyncio.to_thread(load_games, str(game.path)))[0]
        done = game.finished_analyses()
        for record in recorded.hands:
            if record["hand"] in done:
                record["analysis"] = analysis_for_viewer(done[record["hand"]])
        return HTMLResponse(game_page(recorded, f"Spades: game {game.id}"))

    async def save(self, request: Request) -> Response:
        game = await self.open_game(request)
        return FileResponse(game.path, media_type="application/x-ndjson", filename=game.path.name)


def create_app(agents: list[str], games_dir: str | Path, pace_ms: int = 600,
               analysis_nodes: int = ANALYSIS_NODES) -> ServerTiming:
    """The application serving ``agents`` (specs, checked here: a bad one raises ``ValueError``) and the games
    saved in ``games_dir``."""
    store = GameStore(games_dir, Roster(agents), analysis_nodes)

    @asynccontextmanager
    async def lifespan(app: Starlette):
        yield
        store.close()

    handlers = {RequestError: _refused, HTTPException: _http_error, Exception: _server_error}
    app = Starlette(routes=Api(store, pace_ms).routes(), exception_handlers=handlers, lifespan=lifespan)
    app.state.store = store
    return ServerTiming(app)


def _path_int(request: Request, name: str) -> int:
    text = request.path_params[name]
    if not re.fullmatch(r"\d{1,6}", text):
        raise RequestError(404, f"{name} must be a number, got {text!r}")
    return int(text)


async def _refused(request: Request, exc: RequestError) -> Response:
    return JSONResponse({"error": exc.reason}, status_code=exc.status)


async def _http_error(request: Request, exc: HTTPException) -> Response:
    reason = {404: f"no page {request.url.path}", 405: f"{request.method} is not allowed on {request.url.path}"}
    return JSONResponse({"error": reason.get(exc.status_code, exc.detail)}, status_code=exc.status_code)


async def _server_error(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": f"internal error: {type(exc).__name__}: {exc}"}, status_code=500)


class ServerTiming:
    """ASGI middleware: each answer says how long the server worked on it (``Server-Timing: app;dur=MS``),
    not counting the time it waited for the bots, so that a load test can tell the two apart."""

    def __init__(self, app: Starlette) -> None:
        self.app = app
        self.state = app.state

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        scope.setdefault("state", {})

        async def timed_send(message) -> None:
            if message["type"] == "http.response.start":
                waited = scope["state"].get("waited", 0.0)
                work = (time.perf_counter() - started - waited) * 1000
                message["headers"] = [*message.get("headers", []), (b"server-timing", f"app;dur={work:.2f}".encode())]
            await send(message)

        await self.app(scope, receive, timed_send)
