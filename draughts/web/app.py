"""The ASGI application: the page, its static files and the JSON API on
Starlette.

The API is stateless: every request carries the whole game (variant, start
FEN, moves), so any number of games can share one server and a page can be
reloaded without losing anything it keeps. The engine runs in a worker
thread so that the event loop keeps answering while it thinks: a few
searches at a time (more are refused with 503, not queued) and each within
a hard time bound.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import draughts
from draughts.engine import Analysis, BuiltinEngine, Level, Limit
from draughts.engine.search import TABLE_ENTRIES, StopSignal
from draughts.web import positions
from draughts.web.explorer import Explorer
from draughts.web.positions import BadRequest
from draughts.web.streams import Slots, analysis_events
from draughts.web.study import study

__all__ = [
    "DEFAULT_ENGINE_SECONDS",
    "MAX_BODY_BYTES",
    "MAX_JSON_DEPTH",
    "MAX_STUDY_BYTES",
    "create_app",
]

STATIC = Path(__file__).resolve().parent / "static"

MAX_BODY_BYTES = 64 * 1024
"""The largest request body accepted: a game of :data:`~draughts.web.positions.MAX_MOVES`
plies in long notation fits with room to spare."""

MAX_STUDY_BYTES = 1024 * 1024
"""The largest PDN text ``POST /api/study`` accepts (its JSON body): a game
with many annotated variations fits."""

MAX_JSON_DEPTH = 8
"""The deepest nesting of arrays and objects a body may have: the API's
own bodies need 3 (an object holding ``end``, itself an object)."""

DEFAULT_ENGINE_SECONDS = 1.0
"""How long the engine may think per request unless :func:`create_app` is
told otherwise: the hard level's own second (see
:class:`~draughts.engine.BuiltinEngine`). The easy and medium levels stop at
their fixed depth well before, except in positions so rich in captures that
the time runs out first."""

# A string, or an unterminated one to the end: matching at every quote keeps
# the scan linear (a failed match would be retried from each later quote).
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*+"?')
_BRACKETS = re.compile(r"[][{}]")
_LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")
_ENGINE_FIELDS = {"variant", "fen", "moves", "level", "seed"}
_ANALYSIS_FIELDS = {"variant", "fen", "moves", "seconds"}
_EXPLORER_FIELDS = {"variant", "fen", "moves"}
_NO_EXPLORER = (
    "the opening explorer is off: start the server with an index of games, "
    "draughts serve --db games.sqlite (made by draughts index --positions)"
)
_GAME_ID = re.compile(r"[0-9]+")
_MOST_ID_DIGITS = 18  # below 2**63, SQLite's largest integer


def create_app(
    *,
    engine_seconds: float = DEFAULT_ENGINE_SECONDS,
    engine_threads: int = 2,
    db: str | os.PathLike[str] | None = None,
) -> Starlette:
    """The web board as an ASGI application: ``/`` is the page, ``/api/...``
    the JSON API (see :doc:`/web`).

    :param engine_seconds: the time the engine may think per move or
        analysis request, a hard bound: when it runs out the engine answers the best move found
        so far, even before its level's least depth.
    :param engine_threads: how many engine searches may run at once; a
        request beyond them is answered 503 at once (try again later), so
        that waiting requests never pile up. The explorer's questions and the
        studied PDN texts have as many slots again each, of their own.
    :param db: an index of games made by ``draughts index --positions``
        (:mod:`draughts.pdn.index`) for the opening explorer; without it the
        explorer is off.

    >>> from starlette.testclient import TestClient
    >>> client = TestClient(create_app())
    >>> client.post("/api/position", json={"variant": "english", "moves": ["11-15"]}).json()["turn"]
    'white'
    >>> client.post("/api/position", json={"variant": "chess"}).status_code
    422
    >>> client.post("/api/explorer", json={"variant": "english"}).status_code
    404

    :raises ValueError: for a time or a thread count that is not positive,
        or a ``db`` that is not an index with positions.
    """
    if not engine_seconds > 0:
        raise ValueError(f"engine_seconds must be positive, not {engine_seconds!r}")
    if engine_threads < 1:
        raise ValueError(f"engine_threads must be at least 1, not {engine_threads!r}")
    explorer = None if db is None else Explorer(db)
    engine_slots = Slots(engine_threads, "the engine")
    # The explorer's questions are reads, but of a database that can be big.
    explorer_slots = Slots(engine_threads, "the games database")
    # Reading a PDN text of a megabyte takes seconds of CPU.
    reader_slots = Slots(engine_threads, "the PDN reader")
    variant_list_json = positions.variants()  # the presets do not change

    # The handlers below are closures over these settings and slots, which
    # is why this one function is longer than most: one call, one app.

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def variant_list(request: Request) -> Response:
        return JSONResponse(variant_list_json)

    async def position(request: Request) -> Response:
        return JSONResponse(positions.position(await _json_body(request)))

    async def game_pdn(request: Request) -> Response:
        text = positions.game_pdn(await _json_body(request))
        return PlainTextResponse(
            text,
            media_type="application/x-pdn; charset=utf-8",
            headers={"Content-Disposition": 'attachment; filename="game.pdn"'},
        )

    async def engine(request: Request) -> Response:
        body = positions.check_fields(await _json_body(request), _ENGINE_FIELDS)
        board = _board_to_search(body)
        level, seed = _engine_settings(body)
        return JSONResponse(
            await engine_slots.run(lambda: _engine_move(board, level, seed, engine_seconds))
        )

    async def analysis(request: Request) -> Response:
        body = positions.check_fields(await _json_body(request), _ANALYSIS_FIELDS)
        board = _board_to_search(body)
        seconds = _seconds(body, engine_seconds)
        return JSONResponse(await engine_slots.run(lambda: _analysis(board, seconds)))

    async def analysis_stream(request: Request) -> Response:
        body = positions.check_fields(_query_body(request), _ANALYSIS_FIELDS)
        board = _board_to_search(body)
        seconds = _seconds(body, engine_seconds)
        events = analysis_events(
            engine_slots, lambda info, stop: _analysis(board, seconds, info, stop)
        )
        return StreamingResponse(
            events,
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    async def explore(request: Request) -> Response:
        if explorer is None:
            raise BadRequest(_NO_EXPLORER, status=404)
        body = positions.check_fields(await _json_body(request), _EXPLORER_FIELDS)
        board = positions.board_from_request(body)
        found = explorer  # for the closure: not None here
        return JSONResponse(await explorer_slots.run(lambda: found.explore(board)))

    async def stored_game(request: Request) -> Response:
        if explorer is None:
            raise BadRequest(_NO_EXPLORER, status=404)
        text = request.path_params["id"]
        if not _GAME_ID.fullmatch(text):
            raise BadRequest(f"game id: expected a number, not {positions.short(text)}")
        if len(text) > _MOST_ID_DIGITS:
            raise BadRequest(f"no game {positions.short(text)[1:-1]} in the index", status=404)
        found = explorer
        game = await explorer_slots.run(lambda: found.game_pdn(int(text)))
        return PlainTextResponse(game, media_type="application/x-pdn; charset=utf-8")

    async def study_game(request: Request) -> Response:
        body = await _json_body(request, limit=MAX_STUDY_BYTES)
        return JSONResponse(await reader_slots.run(lambda: study(body)))

    return Starlette(
        routes=[
            Route("/", page),
            Route("/api/variants", variant_list),
            Route("/api/position", position, methods=["POST"]),
            Route("/api/engine", engine, methods=["POST"]),
            Route("/api/analysis", analysis, methods=["POST"]),
            Route("/api/analysis/stream", analysis_stream),
            Route("/api/pdn", game_pdn, methods=["POST"]),
            Route("/api/study", study_game, methods=["POST"]),
            Route("/api/explorer", explore, methods=["POST"]),
            Route("/api/games/{id}", stored_game),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        exception_handlers={BadRequest: _bad_request},
    )


async def _bad_request(request: Request, error: Exception) -> Response:
    status = error.status if isinstance(error, BadRequest) else 400
    headers = {"Retry-After": "1"} if status == 503 else None
    return JSONResponse({"error": str(error)}, status_code=status, headers=headers)


async def _json_body(request: Request, limit: int = MAX_BODY_BYTES) -> Any:
    """The request's JSON body, read no further than ``limit`` bytes.

    :raises BadRequest: (413) for a body too large, (400) for one that is
        not JSON or not UTF-8, or has a number too long to read or a nesting
        deeper than :data:`MAX_JSON_DEPTH`.
    """
    declared = request.headers.get("content-length", "")
    # A 5,000-digit length is "large": compared as text, never converted.
    if declared.isdigit() and (len(declared) > 12 or int(declared) > limit):
        raise BadRequest(_too_large(declared, limit), status=413)
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise BadRequest(_too_large(str(len(data)), limit), status=413)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("the body is not UTF-8 text") from None
    # Measured before parsing: the parser recurses once per level.
    depth = _nesting(text)
    if depth > MAX_JSON_DEPTH:
        raise BadRequest(
            f"the body nests arrays and objects {depth} deep, more than the "
            f"{MAX_JSON_DEPTH} allowed"
        )
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise BadRequest(f"the body is not JSON: {error}") from None
    except ValueError as error:  # an integer of more than 4300 digits
        raise BadRequest(f"the body has a number that cannot be read: {error}") from None


def _nesting(text: str) -> int:
    """How deep ``text``'s arrays and objects nest, brackets inside strings
    not counted (a malformed text gets a number all the same: the parser
    then says what is wrong with it)."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _no_constant(name: str) -> Any:
    raise BadRequest(f"the body is not JSON: {name} is not a JSON number")


def _too_large(size: str, limit: int) -> str:
    shown = size if len(size) <= 12 else f"{size[:6]}... ({len(size)} digits)"
    return f"the body has {shown} bytes or more, more than the {limit} allowed"


def _query_body(request: Request) -> dict[str, Any]:
    """The fields of a GET request's query string as a JSON body would give
    them: ``moves`` separated by spaces, ``seconds`` a number.

    :raises BadRequest: for a field given twice or a ``seconds`` that is not
        a number.
    """
    query = request.query_params
    body: dict[str, Any] = {}
    for key in query:
        values = query.getlist(key)
        if len(values) > 1:
            raise BadRequest(f"{positions.short(key)[1:-1]}: given {len(values)} times")
        body[key] = values[0]
    if "moves" in body:
        body["moves"] = body["moves"].split()
    if "seconds" in body:
        try:
            body["seconds"] = float(body["seconds"])
        except ValueError:
            raise BadRequest(
                f"seconds: expected a positive number, not {positions.short(body['seconds'])}"
            ) from None
    return body


def _engine_settings(body: Any) -> tuple[Level, int]:
    """The level and seed of an engine request whose board was read (so its
    ``moves`` are known to be a list)."""
    level = body.get("level", "medium")
    if not isinstance(level, str) or level not in _LEVELS:
        raise BadRequest(
            f"level: expected one of {', '.join(_LEVELS)}, not {positions.short(level)}"
        )
    seed = body.get("seed", None)
    if seed is None:
        # The same position gets the same reply: a game can be replayed.
        seed = len(body.get("moves") or ())
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise BadRequest(f"seed: expected an integer, not {positions.short(seed)}")
    return level, seed


def _board_to_search(body: Mapping[str, Any]) -> draughts.Board:
    board = positions.board_from_request(body)
    if board.outcome() is not None:
        raise BadRequest("the game is over: the engine has no move to play", status=422)
    return board


def _seconds(body: Mapping[str, Any], cap: float) -> float:
    """The ``seconds`` an analysis asks for, at most ``cap`` (the default)."""
    seconds = body.get("seconds", cap)
    if (
        not isinstance(seconds, int | float)
        or isinstance(seconds, bool)
        or not 0 < seconds < math.inf
    ):
        raise BadRequest(f"seconds: expected a positive number, not {positions.short(seconds)}")
    return float(min(seconds, cap))  # min first: float() of a 400-digit int overflows


def _analysis(
    board: draughts.Board,
    seconds: float,
    info: Callable[[dict[str, Any]], None] | None = None,
    stop: StopSignal | None = None,
) -> dict[str, Any]:
    """The hard level's view of ``board`` within ``seconds`` (run in a
    worker thread): its score for the side to move, the depth, the nodes and
    the best line, each move written as the position before it asks. With
    ``info``, every deeper search's view is given to it as it comes;
    ``stop`` ends the search early (with the view so far)."""

    def report(analysis: Analysis) -> None:
        assert info is not None
        info(_analysis_json(board, analysis))

    result = _request_engine("hard", 0).analyse(
        board, Limit(time=seconds), info=None if info is None else report, stop=stop
    )
    return _analysis_json(board, result)


def _analysis_json(board: draughts.Board, result: Analysis) -> dict[str, Any]:
    line = board.copy()
    pv = []
    for move in result.pv:
        pv.append(line.pdn(move))
        line.push(move)
    return {
        "score": None if result.score is None else str(result.score),
        "depth": result.depth,
        "nodes": result.nodes,
        "pv": pv,
        "best": pv[0] if pv else None,
    }


def _request_engine(level: Level, seed: int) -> BuiltinEngine:
    """An engine for one request, kept to the time it is given, with the
    default table (8 MB in C): the engine of a request makes one search and
    goes, so the table that hard grows for a game's moves (up to 128 MB at
    1 s a move) would be memory taken from the server for each request at
    once, with no later move to use it."""
    return BuiltinEngine(level, seed=seed, strict=True, table_entries=TABLE_ENTRIES)


def _engine_move(board: draughts.Board, level: Level, seed: int, seconds: float) -> dict[str, Any]:
    """The engine's move on ``board`` (run in a worker thread)."""
    result = _request_engine(level, seed).play(board, Limit(time=seconds))
    move = result.move
    analysis = result.analysis
    return {
        "move": board.pdn(move),
        "from": move.from_square,
        "to": move.to_square,
        "path": list(move.path),
        "captures": list(move.captures),
        "score": None if analysis is None or analysis.score is None else str(analysis.score),
        "depth": None if analysis is None else analysis.depth,
    }
