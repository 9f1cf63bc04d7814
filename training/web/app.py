"""The HTTP API and the page of `plunder serve` (Starlette; docs/web.md).

Every answer is JSON; a refused request gets ``{"error": "..."}`` with its status: 400 a
malformed or invalid request (bad JSON, an illegal move, a bad setting), 403 a view the
requester may not have (another seat of a game you play) or a change asked by another
web site, 404 an unknown game or id, 409 a stale move or one out of turn, 413 a body over
``MAX_BODY`` (``MAX_REPLAY_BODY`` for a replay), 415 a change not sent as JSON, 500 a bot
that failed, 503 a full server. A refused request changes nothing.

A request that changes something (POST, DELETE) is answered only when it comes from the
page itself: an ``Origin`` header, when there is one, must name this server's own
address, and a POST body must be ``application/json`` (a form or a ``text/plain`` fetch,
which another site can send without asking the browser first, is refused).

=======  ===============================  ===================================================
GET      /                                the page (static/index.html)
GET      /rules/{game}                    the game's rules page (HTML, from the package)
GET      /api/catalog                     games, player counts, variant options, bot kinds,
                                          the trained bots found under ``--bot-dir``
POST     /api/games                       a new game: {game, mode: play|watch, players,
                                          seat, bots, options, seed, max_turns}
GET      /api/games/{id}?seat=K           the table from seat K (``omniscient``: all of it,
                                          watch and replay only)
POST     /api/games/{id}/move             play: {action, version}; the bots then move
POST     /api/games/{id}/seek             watch/replay: {to, version}: show step ``to``
                                          (a live watch plays the bots forward)
GET      /api/games/{id}/replay           the replay file (JSON)
DELETE   /api/games/{id}                  close the game
POST     /api/replays                     open a replay file: a replay session
=======  ===============================  ===================================================
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import threading
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from plunder.envs import specs
from plunder.envs.core import InvalidArgumentError, PlunderError, UnknownEnvError
from plunder.envs.core.registry import SpecTable
from plunder.envs.core.strict import MAX_JSON_DEPTH, is_whole_number, load_json
from plunder.policies import base as policy_base

from . import menu
from .replays import open_replay
from .rules import rules_page, rules_url
from .sessions import (
    PLAY, RequestError, SessionStore, bad_request, check_new_game, new_session,
)

STATIC = Path(__file__).parent / "static"
#: the largest request body read (a game's settings, a move)
MAX_BODY = 1024 * 1024
#: the largest replay file opened (a long game's replay is a few MB)
MAX_REPLAY_BODY = 32 * 1024 * 1024
#: methods that change something: only from the page's own origin
CHANGING_METHODS = ("POST", "PUT", "PATCH", "DELETE")
#: host names a server bound to a loopback address answers to (DNS-rebinding guard)
LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]
#: the games' display names (read from their specs)
TITLES = SpecTable(lambda s: s.title)

log = logging.getLogger("plunder.web")


def api(handler):
    """Turn a handler's refusals into JSON errors: RequestError keeps its status, a
    PlunderError (bad input caught by the engine) is 400, anything else 500."""
    @functools.wraps(handler)
    async def wrapped(request: Request) -> Response:
        """The handler's answer, or its refusal as JSON."""
        try:
            if request.method in CHANGING_METHODS:
                check_own_origin(request)
            return await handler(request)
        except RequestError as exc:
            return JSONResponse({"error": exc.message}, status_code=exc.status)
        except PlunderError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        except Exception as exc:  # noqa: BLE001 - the page gets a JSON answer, the log the trace
            log.exception("internal error in %s %s", request.method, request.url.path)
            return JSONResponse({"error": f"internal error ({type(exc).__name__}: {exc})"},
                                status_code=500)
    return wrapped


def check_own_origin(request: Request) -> None:
    """Refuse a change another web site asks for: 403 when the ``Origin`` header (sent by
    browsers with every cross-site POST) or ``Sec-Fetch-Site`` names another site, 415
    when a POST body is not declared JSON (a form or ``text/plain`` request needs no
    permission from the browser; a JSON one from another site does, and is not given)."""
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    if origin is not None:
        own = f"{request.url.scheme}://{host}".lower()
        if origin.lower().rstrip("/") != own:
            raise RequestError(403, f"refused: the request comes from {origin!r}, not from "
                                    f"this server's page ({own})")
    fetch_site = request.headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        raise RequestError(403, f"refused: a {fetch_site} request; only this server's own "
                                "page may change games")
    if request.method == "POST":
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise RequestError(415, f"a request that changes something must send JSON "
                                    f"(Content-Type: application/json), got "
                                    f"{kind or 'no Content-Type'!r}")


async def read_json(request: Request, limit: int | None = None) -> Any:
    """The request's JSON body: 413 if it is over ``limit`` bytes (``MAX_BODY``; told by
    Content-Length before anything is read, else while reading), 400 if it is not JSON
    or nests deeper than ``MAX_JSON_DEPTH`` levels."""
    limit = MAX_BODY if limit is None else limit
    size = f"{limit / 2**20:g} MB" if limit >= 2**20 else f"{limit / 2**10:g} KB"
    too_large = RequestError(413, f"request body over {size}")
    length = request.headers.get("content-length")
    if length is not None:
        if not is_whole_number(length):
            raise bad_request(f"malformed Content-Length {length!r}")
        if int(length) > limit:
            raise too_large
    body = bytearray()          # grows in place: no copy of what was read per chunk
    async for chunk in request.stream():
        if len(body) + len(chunk) > limit:
            raise too_large
        body += chunk
    try:
        return await run_in_threadpool(load_json, body, MAX_JSON_DEPTH)
    except (UnicodeDecodeError, ValueError) as exc:
        raise bad_request(f"malformed JSON in the request body ({exc})") from None


#: how often a request whose bots think checks that its client is still there (seconds)
DISCONNECT_POLL_SECONDS = 0.25


async def while_connected(request: Request, work) -> Any:
    """``work(gone)`` in a worker thread; ``gone`` (an event) is set if the client
    disconnects meanwhile, so that the game's bots stop and the request changes nothing
    (nobody would see the result)."""
    gone = threading.Event()
    task = asyncio.ensure_future(run_in_threadpool(work, gone))
    while not task.done():
        await asyncio.wait({task}, timeout=DISCONNECT_POLL_SECONDS)
        if not task.done() and await request.is_disconnected():
            gone.set()
    return task.result()


#: the catalogue's note when the server has no bot folder
NO_BOT_DIR = ("trained bots: none on this server (start plunder serve with --bot-dir DIR to "
              "offer the .onnx files in DIR)")
#: the catalogue's note when trained bots cannot be read
NO_ONNXRUNTIME = "trained bots need onnxruntime (pip install 'plunder[onnx]')"


def find_models(root: Path | None, limit: int = 200) -> tuple[list[dict], str]:
    """The trained bots (``*.onnx``) under ``root`` with the game and player count their
    metadata names, and a note when they cannot be read."""
    if root is None or not root.is_dir():
        return [], ""
    try:
        from plunder.policies.onnx_policy import read_metadata
    except ImportError:
        return [], NO_ONNXRUNTIME
    models = []
    inside = root.resolve()
    for path in sorted(root.rglob("*.onnx"))[:limit]:
        if not path.resolve().is_relative_to(inside):
            continue        # a link out of the folder: the server would refuse it
        try:
            meta = read_metadata(path)
        except ImportError:
            return [], NO_ONNXRUNTIME
        except PlunderError as exc:
            models.append({"path": str(path), "error": str(exc)})
            continue
        models.append({"path": str(path), "env_id": meta.get("env_id"),
                       "num_players": meta.get("num_players"),
                       "options": meta.get("options", {})})
    return models, ""


def option_type(default: Any) -> str:
    """How the page asks for a variant option: bool, int, float, str, list (of whole
    numbers) or json (anything else, e.g. an option whose default is None)."""
    for kind, name in ((bool, "bool"), (int, "int"), (float, "float"), (str, "str"),
                       ((list, tuple), "list")):
        if isinstance(default, kind):
            return name
    return "json"


def bot_kind(spec: str) -> dict:
    """How the page offers a bot spec of ``BOT_SPECS``: its kind (``search``), the argument
    after the colon as the spec writes it (``SAMPLES``, ``PATH.onnx[:SAMPLES]``,
    ``early|final[:sampled]``; empty when it takes none), whether that argument is
    required, and whether it names a bot file."""
    kind = re.split(r"[:\[]", spec, maxsplit=1)[0]
    rest = spec[len(kind):]
    if rest.startswith("[:") and rest.endswith("]"):
        close = rest.index("]")        # the first optional part's bracket; later parts stay
        arg, required = rest[2:close] + rest[close + 1:], False
    elif rest.startswith(":"):
        arg, required = rest[1:], True
    elif not rest:
        arg, required = "", False
    else:
        raise ValueError(f"bot spec {spec!r} is neither KIND, KIND:ARG nor KIND[:ARG]")
    return {"spec": spec, "kind": kind, "arg": arg, "required": required,
            "file": "PATH" in arg}


def shipped_bots() -> list[list]:
    """``[env id, players, strength]`` of every network shipped in the package (none when
    its manifest cannot be read)."""
    try:
        from plunder.policies.pretrained import shipped
        return [list(entry) for entry in shipped()]
    except PlunderError:
        return []


def catalog(models_dir: Path | None) -> dict:
    """What the page offers: every game with its player counts and variant options, the
    bot kinds, and the trained bots found."""
    games = []
    for spec in specs():
        games.append({"env_id": spec.env_id, "title": spec.title,
                      "min_players": spec.min_players, "max_players": spec.max_players,
                      "options": [menu.option_entry(spec.name, name, default,
                                                    option_type(default))
                                  for name, default in spec.options().items()],
                      "planner": spec.planner is not None,
                      "simultaneous": spec.simultaneous,
                      "rules": rules_url(spec.name) if spec.rules else None})
    models, note = find_models(models_dir)
    if models_dir is None:
        note = NO_BOT_DIR
    elif not note and not models:
        note = f"no trained bots (.onnx files) under {models_dir}, the only folder this " \
               "server opens bot files from"
    return {"games": games, "bot_kinds": [bot_kind(spec) for spec in policy_base.BOT_SPECS],
            "bots": menu.bot_menu(), "shipped": shipped_bots(),
            "models": models, "models_dir": str(models_dir) if models_dir else None,
            "models_note": note}


def parse_seat(request: Request, session) -> int | None:
    """The ``seat`` query parameter: a seat number or ``omniscient`` (default: the
    person's seat in a played game, omniscient otherwise)."""
    raw = request.query_params.get("seat")
    if raw is None:
        return session.you if session.mode == PLAY else None
    if raw == "omniscient":
        return session.check_seat(None)
    if not is_whole_number(raw):
        raise bad_request(f"seat must be a seat number (digits 0-9) or 'omniscient', "
                          f"got {raw!r}")
    return session.check_seat(int(raw))


def create_app(bot_dir: str | Path | None = None, max_games: int = 32,
               idle_minutes: float = 30.0, trusted_hosts: list[str] | None = None,
               models_dir: str | Path | None = None) -> Starlette:
    """The web app: the page and the JSON API over a fresh :class:`SessionStore`.

    ``bot_dir``: the folder of trained bots (``*.onnx``, searched recursively) the page
    offers, and the only place a request may name a bot file in (None: the shipped bots
    only); ``models_dir``: its former name (deprecated); ``max_games`` and
    ``idle_minutes``: how many games the server holds and when an idle one is dropped;
    ``trusted_hosts``: the Host names answered (None: any)."""
    store = SessionStore(max_games=max_games, idle_seconds=idle_minutes * 60.0)
    if bot_dir is None:
        bot_dir = models_dir
    models_root = Path(bot_dir) if bot_dir is not None else None

    async def index(request: Request) -> Response:
        """The page."""
        return FileResponse(STATIC / "index.html")

    async def rules(request: Request) -> Response:
        """A game's rules page (HTML); 404 for an unknown game or one without rules."""
        try:
            page = await run_in_threadpool(rules_page, request.path_params["game"])
        except (UnknownEnvError, InvalidArgumentError) as exc:
            return Response(str(exc), status_code=404, media_type="text/plain")
        return HTMLResponse(page)

    @api
    async def get_catalog(request: Request) -> Response:
        """Games, bot kinds, trained bots."""
        return JSONResponse(await run_in_threadpool(catalog, models_root))

    @api
    async def create_game(request: Request) -> Response:
        """Start a played or watched game."""
        body = await read_json(request)
        settings = await run_in_threadpool(check_new_game, body, models_root)  # loads bots

        def start():
            """Create and keep the session; its first snapshot."""
            session = new_session(settings)
            store.add(session)
            with session.lock:
                return session.snapshot(session.you if settings["mode"] == PLAY else None)
        return JSONResponse(await run_in_threadpool(start), status_code=201)

    @api
    async def get_game(request: Request) -> Response:
        """The game from the asked seat."""
        session = store.get(request.path_params["id"])
        seat = parse_seat(request, session)

        def look():
            """The snapshot, under the game's lock."""
            with session.lock:
                return session.snapshot(seat)
        return JSONResponse(await run_in_threadpool(look))

    @api
    async def move(request: Request) -> Response:
        """The person's move, then the bots'."""
        session = store.get(request.path_params["id"])
        body = await read_json(request)
        if session.mode != PLAY:
            raise RequestError(409, f"a {session.mode} game takes no moves; step it with seek")
        if not isinstance(body, dict) or set(body) != {"action", "version"}:
            raise bad_request("a move is {\"action\": N, \"version\": V}")

        def play(gone: threading.Event):
            """Apply the move under the game's lock."""
            with session.lock, session.for_client(gone):
                session.move(body["action"], body["version"])
                return session.snapshot(session.you)
        return JSONResponse(await while_connected(request, play))

    @api
    async def seek(request: Request) -> Response:
        """Show another step of a watched game or replay."""
        session = store.get(request.path_params["id"])
        seat = parse_seat(request, session)
        body = await read_json(request)
        if session.mode == PLAY:
            raise RequestError(409, "a game you play moves on with your moves, not seek")
        if not isinstance(body, dict) or set(body) != {"to", "version"}:
            raise bad_request("a seek is {\"to\": STEP, \"version\": V}")

        def go(gone: threading.Event):
            """Move the cursor under the game's lock."""
            with session.lock, session.for_client(gone):
                session.seek(body["to"], body["version"])
                return session.snapshot(seat)
        return JSONResponse(await while_connected(request, go))

    @api
    async def get_replay(request: Request) -> Response:
        """The replay file, as a download."""
        session = store.get(request.path_params["id"])

        def save():
            """The replay data under the game's lock."""
            with session.lock:
                return session.replay()
        data = await run_in_threadpool(save)
        name = f"{session.env_id}-{session.id[:8]}.replay.json"
        return JSONResponse(data, headers={
            "Content-Disposition": f'attachment; filename="{name}"'})

    @api
    async def close_game(request: Request) -> Response:
        """Close a game."""
        store.remove(request.path_params["id"])
        return JSONResponse({"closed": request.path_params["id"]})

    @api
    async def load_replay(request: Request) -> Response:
        """Open a replay file as a replay session."""
        data = await read_json(request, MAX_REPLAY_BODY)

        def start():
            """Create and keep the session; its first snapshot."""
            session = store.add(open_replay(data))
            with session.lock:
                return session.snapshot(None)
        return JSONResponse(await run_in_threadpool(start), status_code=201)

    async def not_found(request: Request, exc: HTTPException) -> Response:
        """Routing errors: JSON under /api/, text elsewhere."""
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": f"{exc.detail}: {request.method} "
                                          f"{request.url.path}"}, status_code=exc.status_code)
        return Response(str(exc.detail), status_code=exc.status_code)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        """Run the idle-game sweeper while the server runs."""
        async def sweeper():
            """Drop idle games now and then."""
            while True:
                await asyncio.sleep(min(60.0, store.idle_seconds / 2))
                store.sweep()
        task = asyncio.create_task(sweeper())
        try:
            yield
        finally:
            task.cancel()
            store.close_all()

    routes = [
        Route("/", index),
        Route("/rules/{game}", rules),
        Route("/api/catalog", get_catalog),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{id}", get_game, methods=["GET"]),
        Route("/api/games/{id}", close_game, methods=["DELETE"]),
        Route("/api/games/{id}/move", move, methods=["POST"]),
        Route("/api/games/{id}/seek", seek, methods=["POST"]),
        Route("/api/games/{id}/replay", get_replay),
        Route("/api/replays", load_replay, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=trusted_hosts)] \
        if trusted_hosts else []
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={HTTPException: not_found})
    app.state.store = store
    return app


#: seconds a stopping server waits for the requests in progress
SHUTDOWN_SECONDS = 5


def serve(host: str = "127.0.0.1", port: int = 8000, bot_dir: str | None = None,
          max_games: int = 32, idle_minutes: float = 30.0,
          models_dir: str | None = None) -> None:
    """Run the server until interrupted (uvicorn). Bound to a loopback address it answers
    only to loopback host names (a guard against DNS rebinding). ``bot_dir``: see
    :func:`create_app` (``models_dir``: its former name). On SIGINT/SIGTERM every game is
    closed at once, so bots thinking in a request stop at their next sample."""
    import uvicorn

    loopback = host in ("127.0.0.1", "localhost", "::1") or host.startswith("127.")
    hosts = LOOPBACK_HOSTS + [host] if loopback else None
    app = create_app(bot_dir=bot_dir if bot_dir is not None else models_dir,
                     max_games=max_games, idle_minutes=idle_minutes, trusted_hosts=hosts)

    class Server(uvicorn.Server):
        """uvicorn's server, closing the games as soon as it is asked to stop."""

        def handle_exit(self, sig, frame) -> None:
            """Stop the bots' work, then stop as uvicorn does."""
            app.state.store.close_all()
            super().handle_exit(sig, frame)

    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            timeout_graceful_shutdown=SHUTDOWN_SECONDS)
    Server(config).run()

