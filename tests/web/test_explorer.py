"""The opening explorer's API on an index built here from two files of the
corpus: ``POST /api/explorer`` (the moves played from a position, with
their games and results, and the games), ``GET /api/games/{id}`` (a game's
PDN), and their answers to hostile input; ``serve --db`` refusing what is
not an index with positions."""

from __future__ import annotations

import io
import json
import sqlite3
import subprocess
import sys
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import draughts
from draughts import pdn
from draughts._cli.serve import serve
from draughts.pdn.index import Index
from draughts.web import create_app
from draughts.web.explorer import Explorer
from draughts.web.positions import BadRequest
from tests.conftest import shared_path

FILES = (
    "english/British_Computer_Championship_2002.pdn",
    "english/playstrategy_american.pdn",
)


def build_index(folder: Path) -> Path:
    """An index with positions of the two files (english games)."""
    db = folder / "games.sqlite"
    with Index(db) as index:
        for name in FILES:
            index.add_file(shared_path(name), variant="english", positions=True)
    return db


@pytest.fixture(scope="module")
def games_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_index(tmp_path_factory.mktemp("explorer"))


@pytest.fixture(scope="module")
def explorer(games_db: Path) -> TestClient:
    return TestClient(create_app(engine_seconds=0.3, db=games_db))


def mainlines(games_db: Path) -> list[tuple[int, list[str], str | None]]:
    """Every indexed game's id, main line and result, read again from its file."""
    with Index(games_db) as index:
        found = []
        for hit in index.search():
            game = index.read_game(hit)
            moves, board = [], game.board()
            for move in game.mainline_moves():
                moves.append(board.pdn(move))
                board.push(move)
            found.append((hit.game_id, moves, game.headers.get("Result")))
    return found


def test_the_moves_from_the_start_are_those_of_the_games(
    explorer: TestClient, games_db: Path
) -> None:
    answer = explorer.post("/api/explorer", json={"variant": "english"}).json()
    games = mainlines(games_db)
    expected = Counter(moves[0] for _, moves, _ in games if moves)
    assert {m["pdn"]: m["games"] for m in answer["moves"]} == dict(expected)
    assert [m["games"] for m in answer["moves"]] == sorted(expected.values(), reverse=True)
    assert len(answer["games"]) == len(games)
    assert {g["id"] for g in answer["games"]} == {game_id for game_id, _, _ in games}


def test_after_a_move_the_results_add_up(explorer: TestClient, games_db: Path) -> None:
    games = mainlines(games_db)
    first = Counter(moves[0] for _, moves, _ in games if moves).most_common(1)[0][0]
    answer = explorer.post("/api/explorer", json={"variant": "english", "moves": [first]}).json()
    following = [(moves, result) for _, moves, result in games if moves[:1] == [first]]
    replies = Counter(moves[1] for moves, _ in following if len(moves) > 1)
    assert {m["pdn"]: m["games"] for m in answer["moves"]} == dict(replies)
    for entry in answer["moves"]:
        results = Counter(r for moves, r in following if moves[1:2] == [entry["pdn"]])
        # English results give the first player's (Black's) score first.
        assert entry["white_wins"] == results["0-1"]
        assert entry["black_wins"] == results["1-0"]
        assert entry["draws"] == results["1/2-1/2"]
    assert len(answer["games"]) == len(following)
    assert set(answer["games"][0]) == {"id", "white", "black", "event", "date", "result"}


def test_a_position_reached_by_a_fen_finds_the_same_games(explorer: TestClient) -> None:
    by_moves = explorer.post(
        "/api/explorer", json={"variant": "english", "moves": ["9-13", "22-18"]}
    ).json()
    board = draughts.Board(variant="english")
    for text in ("9-13", "22-18"):
        board.push(board.parse_pdn(text))
    by_fen = explorer.post("/api/explorer", json={"variant": "english", "fen": board.fen()}).json()
    assert by_fen == by_moves and by_fen["games"]


def test_a_position_no_game_had(explorer: TestClient) -> None:
    answer = explorer.post("/api/explorer", json={"variant": "english", "fen": "B:W18:B14"})
    assert answer.json() == {"moves": [], "games": []}
    # Another variant's games are not this one's.
    answer = explorer.post("/api/explorer", json={"variant": "dama"})
    assert answer.json() == {"moves": [], "games": []}


def test_a_game_is_answered_as_pdn_that_reads_back(explorer: TestClient, games_db: Path) -> None:
    game_id, moves, result = mainlines(games_db)[3]
    response = explorer.get(f"/api/games/{game_id}")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/x-pdn")
    game = pdn.read_game(io.StringIO(response.text))
    assert game is not None and game.variant.name == "english"
    board = game.board()
    texts = []
    for move in game.mainline_moves():
        texts.append(board.pdn(move))
        board.push(move)
    assert texts == moves and game.headers.get("Result") == result


@pytest.mark.parametrize(
    ("path", "status", "words"),
    [
        ("/api/games/abc", 400, "game id: expected a number"),
        ("/api/games/-1", 400, "game id: expected a number"),
        ("/api/games/1.5", 400, "game id: expected a number"),
        ("/api/games/%C3%A9", 400, "game id: expected a number, not 'é'"),
        ("/api/games/" + "9" * 5000, 404, "no game 99999"),
        ("/api/games/9223372036854775808", 404, "no game 9223372036854775808 in the index"),
        ("/api/games/0", 404, "no game 0 in the index"),
        ("/api/games/999999", 404, "no game 999999 in the index"),
    ],
)
def test_bad_game_ids(explorer: TestClient, path: str, status: int, words: str) -> None:
    response = explorer.get(path)
    assert response.status_code == status, response.text
    assert words in response.json()["error"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ([], 400, "the body must be a JSON object"),
        ({"variant": 5}, 400, "variant: expected a variant name"),
        ({"variant": "chess"}, 422, "unknown variant"),
        ({"variant": "english", "moves": "11-15"}, 400, "moves: expected a list of strings"),
        ({"variant": "english", "moves": [11]}, 400, "moves: expected a list of strings"),
        ({"variant": "english", "moves": ["11-17"]}, 422, "moves[0]: '11-17' is not a legal"),
        ({"variant": "english", "fen": "Z:W1"}, 422, "fen:"),
        ({"variant": "english", "limit": 5}, 400, "unknown field 'limit'"),
    ],
)
def test_bad_explorer_requests(explorer: TestClient, body: Any, status: int, words: str) -> None:
    response = explorer.post("/api/explorer", json=body)
    assert response.status_code == status, response.text
    assert words in response.json()["error"]


@pytest.mark.parametrize(
    "content",
    ['{"variant": "english", "moves": [' + "9" * 5000 + "]}", "[" * 1000 + "]" * 1000],
)
def test_malformed_explorer_bodies(explorer: TestClient, content: str) -> None:
    response = explorer.post(
        "/api/explorer", content=content, headers={"content-type": "application/json"}
    )
    assert response.status_code == 400 and response.json()["error"]


def test_without_a_database_the_explorer_answers_404(client: TestClient) -> None:
    for response in (
        client.post("/api/explorer", json={"variant": "english"}),
        client.get("/api/games/1"),
    ):
        assert response.status_code == 404
        assert "draughts serve --db" in response.json()["error"]


def test_a_database_removed_while_served_is_a_503(tmp_path: Path) -> None:
    db = build_index(tmp_path)
    client = TestClient(create_app(db=db))
    db.unlink()
    response = client.post("/api/explorer", json={"variant": "english"})
    assert response.status_code == 503
    assert "the index cannot be" in response.json()["error"]


def test_serve_refuses_what_is_not_an_index_with_positions(tmp_path: Path) -> None:
    no_positions = tmp_path / "plain.sqlite"
    with Index(no_positions) as index:
        index.add_file(shared_path(FILES[0]), variant="english")
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE t (x)")
    text = tmp_path / "text.sqlite"
    text.write_text("not a database\n" * 100)
    cases = {
        tmp_path / "absent.sqlite": "no such file",
        no_positions: "has no positions: index the files again with draughts index --positions",
        other: "is not an index of PDN games",
        text: "is not an index of PDN games",
        tmp_path: "not a file (make an index with draughts index --positions",
    }
    for path, words in cases.items():
        out = io.StringIO()
        assert serve(host="127.0.0.1", port=0, open_browser=False, out=out, db=str(path)) == 2
        assert out.getvalue().startswith("draughts serve: --db: ") and words in out.getvalue()
    assert not (tmp_path / "absent.sqlite").exists()  # not created by looking


def test_a_content_length_of_5000_digits_is_a_413(client: TestClient) -> None:
    response = client.post(
        "/api/position",
        content=b"{}",
        headers={"content-length": "9" * 5000, "content-type": "application/json"},
    )
    assert response.status_code == 413
    assert "(5000 digits) bytes or more" in response.json()["error"]


def test_a_question_over_the_time_bound_is_a_503(games_db: Path) -> None:
    explorer = Explorer(games_db, seconds=1e-9)
    with pytest.raises(BadRequest) as caught:
        explorer.explore(draughts.Board(variant="english"))
    assert caught.value.status == 503
    assert "took more than 1e-09 s over this position" in str(caught.value)


def test_serve_with_db_answers_the_explorer(tmp_path: Path) -> None:
    games = tmp_path / "games.pdn"
    games.write_text('[White "Ann"]\n1. 11-15 23-19 1-0\n\n[White "Bob"]\n1. 11-15 22-17 0-1\n')
    db = tmp_path / "games.sqlite"
    with Index(db) as index:
        index.add_file(games, variant="english", positions=True)
    process = subprocess.Popen(
        [sys.executable, "-m", "draughts", "serve", "--port", "0", "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        url = line.split(" at ", 1)[1].split()[0]
        request = urllib.request.Request(
            url + "api/explorer",
            data=json.dumps({"variant": "english", "moves": ["11-15"]}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            answer = json.load(response)
        assert [(m["pdn"], m["games"]) for m in answer["moves"]] == [("23-19", 1), ("22-17", 1)]
        assert [g["white"] for g in answer["games"]] == ["Ann", "Bob"]
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_game_whose_file_changed_is_a_409(tmp_path: Path) -> None:
    games = tmp_path / "games.pdn"
    games.write_text("1. 11-15 23-19 *\n")
    db = tmp_path / "games.sqlite"
    with Index(db) as index:
        index.add_file(games, variant="english", positions=True)
    client = TestClient(create_app(db=db))
    game_id = client.post("/api/explorer", json={"variant": "english"}).json()["games"][0]["id"]
    assert client.get(f"/api/games/{game_id}").status_code == 200
    games.write_text("1. 9-13 22-18 *\n\n")
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 409
    assert "changed since it was indexed" in response.json()["error"]
    games.unlink()
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 409 and response.json()["error"].startswith(
        f"game {game_id} cannot be read: "
    )
