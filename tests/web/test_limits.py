"""Limits that hold against hostile or unlucky requests: any malformed body
is a 4xx with a message (never a 500), the engine keeps to the server's
time in every position, and searches beyond the configured number are
refused with 503 instead of waiting in an unbounded queue."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from starlette.testclient import TestClient

import draughts
from draughts.engine import Limit, builtin
from draughts.web import create_app
from draughts.web.app import MAX_JSON_DEPTH

ENDPOINTS = ("/api/position", "/api/engine", "/api/analysis", "/api/pdn")
HUGE = "9" * 5000  # more digits than Python reads into an int

# Forty flying kings: one ply of the engine's capture search alone visits
# millions of positions, so no level's least depth fits in a second.
KINGS_20 = (
    "W:W"
    + ",".join(f"K{s}" for s in range(31, 51))
    + ":B"
    + ",".join(f"K{s}" for s in range(1, 21))
)

# Every field a body may have, and a value of each JSON type.
FIELDS = (
    "variant",
    "fen",
    "moves",
    "end",
    "level",
    "seed",
    "seconds",
    "white",
    "black",
    "event",
    "date",
)
WRONG: tuple[Any, ...] = (
    None,
    True,
    0,
    -1,
    1.5,
    1e308,
    10**400,  # an int no float can hold
    "",
    "x" * 300,
    [],
    [1],
    [[]],
    {},
    {"by": []},
)


def refused(client: TestClient, path: str, content: bytes | str, status: int = 400) -> str:
    response = client.post(path, content=content, headers={"content-type": "application/json"})
    assert response.status_code == status, response.text
    message: str = response.json()["error"]
    assert message
    return message


@pytest.mark.parametrize("path", ENDPOINTS)
def test_a_5000_digit_number_anywhere_is_a_400(client: TestClient, path: str) -> None:
    for body in (
        HUGE,
        f'{{"variant": {HUGE}}}',
        f'{{"variant": "english", "moves": [{HUGE}]}}',
        f'{{"variant": "english", "seed": {HUGE}}}',
        f'{{"variant": "english", "end": {{"by": "timeout", "side": -{HUGE}}}}}',
    ):
        assert "number that cannot be read" in refused(client, path, body)
    # Long decimals and exponents are read (as floats), then refused as the wrong type.
    assert refused(client, path, f'{{"variant": 0.{HUGE}}}').startswith("variant: expected")
    assert refused(client, path, '{"variant": 1e999}').startswith("variant: expected")


@pytest.mark.parametrize("path", ENDPOINTS)
def test_deep_nesting_is_a_400(client: TestClient, path: str) -> None:
    for depth in (MAX_JSON_DEPTH + 1, 1000, 10_000):
        for opening, closing in (("[", "]"), ('{"a":', "}")):
            body = f'{{"variant": "english", "moves": {opening * depth}1{closing * depth}}}'
            message = refused(client, path, body)
            assert f"more than the {MAX_JSON_DEPTH} allowed" in message
    # Unclosed, and brackets inside strings that do not count.
    assert "more than the" in refused(client, path, "[" * 1000)
    text = json.dumps({"variant": "english", "white": "[" * 1000, "moves": "{" * 1000})
    assert refused(client, path, text, status=400).startswith(("moves:", "unknown field"))


@pytest.mark.parametrize("path", ENDPOINTS)
def test_not_a_number_constants_are_refused(client: TestClient, path: str) -> None:
    for constant in ("NaN", "Infinity", "-Infinity"):
        message = refused(client, path, f'{{"variant": "english", "seed": {constant}}}')
        assert f"{constant} is not a JSON number" in message


@pytest.mark.parametrize("path", ENDPOINTS)
def test_every_field_of_every_type_is_answered_without_a_server_error(path: str) -> None:
    client = TestClient(create_app(engine_seconds=0.05))
    base: dict[str, Any] = {"variant": "english", "moves": ["11-15"]}
    for field in FIELDS:
        for value in WRONG:
            response = client.post(path, json={**base, field: value})
            assert response.status_code < 500, (field, value, response.text)
            if response.status_code >= 400:
                assert response.json()["error"], (field, value)
    for body in (None, 1, "english", [], [{"variant": "english"}]):
        assert "must be a JSON object" in refused(client, path, json.dumps(body))


def test_a_strict_engine_keeps_to_the_time_within_the_first_ply() -> None:
    board = draughts.Board(KINGS_20, variant="international")
    for level in ("easy", "hard"):
        start = time.monotonic()
        result = builtin(level, strict=True).play(board, Limit(time=0.3))
        assert time.monotonic() - start < 1.3
        assert result.move in board.legal_moves
        assert result.analysis is not None and result.analysis.depth == 0
    # Not strict, the hard level still completes its least depth elsewhere.
    opening = draughts.Board(variant="international")
    depth = builtin("hard").analyse(opening, Limit(time=0.01)).depth
    assert depth is not None and depth >= 6


@pytest.mark.parametrize(
    ("path", "extra"),
    [
        # Each waits out the one-second cap: the default run asks the
        # strongest level and the analysis, -m slow the other two levels.
        pytest.param("/api/engine", {"level": "easy"}, marks=pytest.mark.slow),
        pytest.param("/api/engine", {"level": "medium"}, marks=pytest.mark.slow),
        ("/api/engine", {"level": "hard"}),
        ("/api/analysis", {"seconds": 100}),  # more than the cap: the cap holds
    ],
)
def test_the_20_kings_position_is_answered_within_the_cap(path: str, extra: Any) -> None:
    cap = 1.0
    client = TestClient(create_app(engine_seconds=cap))
    body = {"variant": "international", "fen": KINGS_20, **extra}
    start = time.monotonic()
    response = client.post(path, json=body)
    elapsed = time.monotonic() - start
    assert response.status_code == 200, response.text
    assert elapsed < cap + 1.0, f"{elapsed:.2f} s"
    board = draughts.Board(KINGS_20, variant="international")
    answer = response.json()
    assert board.parse_pdn(answer.get("move") or answer["best"]) in board.legal_moves


def test_searches_beyond_the_limit_are_refused_with_503() -> None:
    app = create_app(engine_seconds=1.5, engine_threads=1)
    slow = {"variant": "international", "fen": KINGS_20, "level": "hard"}
    with TestClient(app) as client, ThreadPoolExecutor(1) as pool:
        started = threading.Event()

        def first() -> Any:
            started.set()
            return client.post("/api/engine", json=slow)

        running = pool.submit(first)
        started.wait()
        time.sleep(0.5)  # well inside the 1.5 s search
        refused_now = client.post("/api/engine", json={"variant": "english"})
        assert refused_now.status_code == 503
        assert refused_now.headers["retry-after"] == "1"
        assert "busy" in refused_now.json()["error"]
        # Analyses share the slots.
        analysis = client.post("/api/analysis", json={"variant": "english", "seconds": 0.1})
        assert analysis.status_code == 503
        # The rest of the API keeps answering meanwhile.
        assert client.post("/api/position", json={"variant": "english"}).status_code == 200
        assert running.result().status_code == 200
        # The slot is free again.
        assert client.post("/api/engine", json={"variant": "english"}).status_code == 200
