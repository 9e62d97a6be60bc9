"""``POST /api/analysis``: the built-in engine's view of a position (score,
depth, nodes and best line) within the time asked, at most the server's."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

import draughts
from draughts.web import create_app


@pytest.fixture
def fast() -> TestClient:
    return TestClient(create_app(engine_seconds=0.3))


def analyse(client: TestClient, body: Any, status: int = 200) -> Any:
    response = client.post("/api/analysis", json=body)
    assert response.status_code == status, response.text
    return response.json()


def test_the_best_line_is_a_legal_line_from_the_position(fast: TestClient) -> None:
    moves = ["11-15", "23-19"]
    answer = analyse(fast, {"variant": "english", "moves": moves, "seconds": 0.2})
    assert set(answer) == {"score", "depth", "nodes", "pv", "best"}
    assert answer["depth"] >= 1 and answer["nodes"] > 0
    assert answer["pv"] and answer["best"] == answer["pv"][0]
    assert answer["score"].startswith(("+", "-", "win", "loss"))
    board = draughts.Board(variant="english")
    for text in [*moves, *answer["pv"]]:
        board.push(board.parse_pdn(text))  # raises if a move is not legal there


def test_a_forced_win_is_seen(fast: TestClient) -> None:
    answer = analyse(fast, {"variant": "international", "fen": "W:W28:B23"})
    assert answer["best"] == "28x19" and answer["pv"] == ["28x19"]
    assert answer["score"] == "win in 1"


def test_algebraic_variants_write_the_line_as_they_write_moves(fast: TestClient) -> None:
    answer = analyse(fast, {"variant": "brazilian", "seconds": 0.1})
    board = draughts.Board(variant="brazilian")
    assert board.parse_pdn(answer["best"]) in board.legal_moves
    assert answer["best"][0] in "abcdefgh"


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"variant": "english", "seconds": 0}, 400, "seconds: expected a positive number"),
        ({"variant": "english", "seconds": -1}, 400, "seconds: expected a positive number"),
        ({"variant": "english", "seconds": "1"}, 400, "seconds: expected a positive number"),
        ({"variant": "english", "seconds": True}, 400, "seconds: expected a positive number"),
        ({"variant": "english", "level": "hard"}, 400, "unknown field 'level'"),
        ({"variant": "chess"}, 422, "unknown variant"),
        (
            {"variant": "international", "fen": "W:W28:B23", "moves": ["28x19"]},
            422,
            "the game is over",
        ),
    ],
)
def test_bad_analysis_requests(fast: TestClient, body: Any, status: int, words: str) -> None:
    assert words in analyse(fast, body, status)["error"]


def test_a_time_beyond_a_float_is_the_cap(fast: TestClient) -> None:
    for seconds in ("9" * 400, "1e308"):
        response = fast.post(
            "/api/analysis",
            content=f'{{"variant": "english", "seconds": {seconds}}}',
            headers={"content-type": "application/json"},
        )
        assert response.status_code == 200, response.text
        assert response.json()["best"]


def test_an_infinite_time_is_refused(fast: TestClient) -> None:
    # 1e999 is valid JSON that Python reads as infinity.
    response = fast.post(
        "/api/analysis",
        content='{"variant": "english", "seconds": 1e999}',
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 400
    assert response.json()["error"] == "seconds: expected a positive number, not inf"
