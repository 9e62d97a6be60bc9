"""The JSON API through Starlette's TestClient: every endpoint, and every
kind of bad input answered with a 4xx that names the problem."""

from __future__ import annotations

import io
from typing import Any

import pytest
from starlette.testclient import TestClient

import draughts
from draughts import pdn
from draughts.web import create_app
from draughts.web.app import MAX_BODY_BYTES
from draughts.web.positions import MAX_MOVES


def post(client: TestClient, path: str, body: Any, status: int = 200) -> Any:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    return response.json() if path != "/api/pdn" or status != 200 else response.text


def test_the_page_and_its_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert '"static/game.js"' in page.text and '"static/style.css"' in page.text
    game = client.get("/static/game.js")
    assert game.status_code == 200 and '"./board.js"' in game.text
    assert client.get("/static/board.js").status_code == 200
    assert client.get("/static/style.css").headers["content-type"].startswith("text/css")
    # Nothing is fetched from elsewhere: the page works offline.
    for text in (page.text, game.text):
        assert "https://" not in text and "http://" not in text
    assert client.get("/static/nothing.js").status_code == 404


def test_variants_list_the_rule_pages_sets_first_and_every_preset() -> None:
    client = TestClient(create_app())
    listed = client.get("/api/variants").json()
    names = [v["name"] for v in listed]
    assert names[:4] == ["english", "dama", "dama-flying", "brazilian"]
    assert sorted(names) == sorted(v.name for v in draughts.VARIANTS)
    brazilian = listed[3]
    assert brazilian["notation"] == "algebraic"
    variant = draughts.find_variant("brazilian")
    assert {s["square"]: s["name"] for s in brazilian["squares"]} == {
        s: variant.square_name(s) for s in variant.squares
    }


def test_position_after_moves(client: TestClient) -> None:
    answer = post(client, "/api/position", {"variant": "english", "moves": ["11-15", "23-19"]})
    board = draughts.Board(variant="english")
    board.push_pdn("11-15")
    board.push_pdn("23-19")
    assert answer["fen"] == board.fen()
    assert answer["turn"] == "black"
    assert answer["history"] == ["11-15", "23-19"]
    assert sorted(m["pdn"] for m in answer["legal_moves"]) == sorted(
        board.pdn(m) for m in board.legal_moves
    )
    assert answer["last_move"] == {"from": 23, "to": 19, "path": [23, 19], "captures": []}
    assert answer["outcome"] is None and answer["claims"] == []
    assert {"square": 15, "color": "black", "kind": "man"} in answer["pieces"]


def test_a_capture_lists_its_route_and_captures(client: TestClient) -> None:
    answer = post(
        client, "/api/position", {"variant": "international", "fen": "W:WK44:B20,18,12,39"}
    )
    routes = {m["pdn"]: (m["path"], m["captures"]) for m in answer["legal_moves"]}
    assert routes == {
        "44x22x9x25": ([44, 22, 9, 25], [39, 18, 20]),
        "44x17x3x25": ([44, 17, 3, 25], [39, 12, 20]),
    }
    assert answer["capture_required"] is True
    after = post(
        client,
        "/api/position",
        {"variant": "international", "fen": "W:WK44:B20,18,12,39", "moves": ["44x17x3x25"]},
    )
    assert after["last_move"]["captures"] == [39, 12, 20]
    assert sorted(p["square"] for p in after["pieces"]) == [18, 25]


def test_algebraic_moves_and_the_fen_start(client: TestClient) -> None:
    answer = post(client, "/api/position", {"variant": "brazilian", "moves": ["c3-d4"]})
    assert answer["history"] == ["c3-d4"] and answer["turn"] == "black"


def test_outcome_at_the_end_of_the_game(client: TestClient) -> None:
    answer = post(
        client,
        "/api/position",
        {"variant": "international", "fen": "W:W28:B23", "moves": ["28x19"]},
    )
    assert answer["outcome"] == {"result": "2-0", "termination": "no-pieces", "winner": "white"}
    assert answer["legal_moves"] == [] and answer["claims"] == []


def test_threefold_repetition_is_offered_and_claimed(client: TestClient) -> None:
    body = {
        "variant": "english",
        "fen": "B:WK29:BK4",
        "moves": ["4-8", "29-25", "8-4", "25-29", "4-8", "29-25", "8-4", "25-29"],
    }
    answer = post(client, "/api/position", body)
    assert "repetition" in answer["claims"]
    claimed = post(client, "/api/position", {**body, "end": {"by": "claim"}})
    assert claimed["outcome"] == {"result": "1/2-1/2", "termination": "repetition", "winner": None}
    refused = post(
        client, "/api/position", {"variant": "english", "end": {"by": "claim"}}, status=422
    )
    assert "no draw can be claimed" in refused["error"]


def test_dama_insufficient_material_claim_and_timeout_draw(client: TestClient) -> None:
    body = {"variant": "dama", "fen": "B:WK29:BK4"}
    assert post(client, "/api/position", body)["claims"] == ["insufficient-material"]
    timeout = post(client, "/api/position", {**body, "end": {"by": "timeout", "side": "black"}})
    assert timeout["outcome"] == {"result": "1/2-1/2", "termination": "timeout", "winner": None}
    won = post(
        client,
        "/api/position",
        {"variant": "dama", "fen": "B:W5,K29:BK4", "end": {"by": "timeout", "side": "black"}},
    )
    assert won["outcome"]["winner"] == "white"


def test_resignation_and_agreement(client: TestClient) -> None:
    resigned = post(
        client,
        "/api/position",
        {"variant": "english", "end": {"by": "resignation", "side": "black"}},
    )
    # Black, the first player, scores first in English results.
    assert resigned["outcome"] == {"result": "0-1", "termination": "resignation", "winner": "white"}
    agreed = post(client, "/api/position", {"variant": "international", "end": {"by": "agreement"}})
    assert agreed["outcome"]["result"] == "1-1"


def test_engine_plays_a_legal_move_at_every_level(client: TestClient) -> None:
    body = {"variant": "english", "moves": ["11-15"]}
    legal = {m["pdn"] for m in post(client, "/api/position", body)["legal_moves"]}
    for level in ("easy", "medium", "hard"):
        answer = post(client, "/api/engine", {**body, "level": level})
        assert answer["move"] in legal
        assert answer["path"][0] == answer["from"] and answer["path"][-1] == answer["to"]


def test_engine_takes_a_forced_capture(client: TestClient) -> None:
    answer = post(client, "/api/engine", {"variant": "international", "fen": "W:W28:B23"})
    assert answer["move"] == "28x19" and answer["captures"] == [23]


def test_engine_time_is_bounded() -> None:
    # Far less than the hard level's own second: the bound is the server's.
    client = TestClient(create_app(engine_seconds=0.05))
    answer = post(client, "/api/engine", {"variant": "international", "level": "hard"})
    board = draughts.Board(variant="international")
    assert board.parse_pdn(answer["move"]) in board.legal_moves
    assert answer["depth"] >= 1  # the 20-kings test of test_limits.py shows the bound


def test_pdn_download_reads_back(client: TestClient) -> None:
    moves = ["11-15", "23-19", "8-11", "22-17"]
    text = post(
        client,
        "/api/pdn",
        {
            "variant": "english",
            "moves": moves,
            "white": 'Ann "the Bold" \\o/',
            "black": "draughts engine (easy)",
            "end": {"by": "resignation", "side": "white"},
        },
    )
    game = pdn.read_game(io.StringIO(text))
    assert game is not None and game.errors == []
    assert [str(m) for m in game.mainline_moves()] == moves
    assert game.headers.variant().name == "english"
    assert game.headers["White"] == 'Ann "the Bold" \\o/'
    assert game.headers["Black"] == "draughts engine (easy)"
    assert game.headers["Result"] == "1-0"  # Black's win: English results give Black's first
    assert game.headers["Termination"] == "resignation"


def test_pdn_of_a_dama_game_from_a_fen(client: TestClient) -> None:
    text = post(client, "/api/pdn", {"variant": "dama", "fen": "B:WK29:BK4", "moves": ["4-8"]})
    game = pdn.read_game(io.StringIO(text))
    assert game is not None and game.errors == []
    assert game.headers.variant().name == "dama"
    assert game.headers["FEN"] == "B:WK29:BK4"
    assert game.headers["Result"] == "*" and "Termination" not in game.headers


@pytest.mark.parametrize(
    ("path", "body", "status", "words"),
    [
        ("/api/position", {"variant": "chess"}, 422, "variant: unknown variant: 'chess'"),
        ("/api/position", {"variant": 21}, 400, "variant: expected a variant name"),
        ("/api/position", {}, 400, "variant: expected a variant name"),
        ("/api/position", {"variant": "english", "fen": "X:W1:B2"}, 422, "fen:"),
        ("/api/position", {"variant": "english", "fen": 3}, 400, "fen: expected a string"),
        ("/api/position", {"variant": "english", "moves": "11-15"}, 400, "moves: expected a list"),
        ("/api/position", {"variant": "english", "moves": [1115]}, 400, "moves: expected a list"),
        (
            "/api/position",
            {"variant": "english", "moves": ["11-15", "11-15"]},
            422,
            "moves[1]: '11-15' is not a legal move here (white to move)",
        ),
        ("/api/position", {"variant": "english", "moves": ["hello"]}, 422, "moves[0]: 'hello'"),
        (
            "/api/position",
            {"variant": "international", "fen": "W:W28:B23", "moves": ["28x19", "1-6"]},
            422,
            "moves[1]: '1-6' comes after the end of the game",
        ),
        ("/api/position", {"variant": "english", "colour": "red"}, 400, "unknown field 'colour'"),
        ("/api/position", ["english"], 400, "the body must be a JSON object, not list"),
        ("/api/position", {"variant": "english", "end": "resign"}, 400, "end: expected an object"),
        (
            "/api/position",
            {"variant": "english", "end": {"by": "boredom"}},
            400,
            "end.by: expected one of",
        ),
        (
            "/api/position",
            {"variant": "english", "end": {"by": "timeout", "side": "red"}},
            400,
            "end.side: expected 'white' or 'black'",
        ),
        (
            "/api/position",
            {
                "variant": "international",
                "fen": "W:W28:B23",
                "moves": ["28x19"],
                "end": {"by": "resignation", "side": "black"},
            },
            422,
            "the game is already over (no-pieces)",
        ),
        ("/api/engine", {"variant": "english", "level": "expert"}, 400, "level: expected one of"),
        ("/api/engine", {"variant": "english", "seed": "x"}, 400, "seed: expected an integer"),
        ("/api/engine", {"variant": "chess"}, 422, "unknown variant"),
        (
            "/api/engine",
            {"variant": "international", "fen": "W:W28:B23", "moves": ["28x19"]},
            422,
            "the game is over",
        ),
        ("/api/pdn", {"variant": "english", "white": "A\nB"}, 400, "white: expected one line"),
        ("/api/pdn", {"variant": "english", "date": 2026}, 400, "date: expected one line"),
        ("/api/pdn", {"variant": "english", "moves": ["1-2"]}, 422, "moves[0]: '1-2'"),
    ],
)
def test_bad_input_is_a_4xx_naming_the_problem(
    client: TestClient, path: str, body: Any, status: int, words: str
) -> None:
    answer = post(client, path, body, status=status)
    assert words in answer["error"]


def test_an_ambiguous_move_asks_for_the_route(client: TestClient) -> None:
    answer = post(
        client,
        "/api/position",
        {"variant": "international", "fen": "W:WK44:B20,18,12,39", "moves": ["44x25"]},
        status=422,
    )
    assert answer["error"] == "moves[0]: '44x25' is ambiguous: write the whole route"


def test_a_body_that_is_not_json_or_too_large(client: TestClient) -> None:
    for path in ("/api/position", "/api/engine", "/api/pdn"):
        response = client.post(path, content=b"{variant")
        assert response.status_code == 400 and "not JSON" in response.json()["error"]
        response = client.post(path, content=b"\xff\xfe")
        assert response.status_code == 400 and "not UTF-8" in response.json()["error"]
    big = b'{"variant": "english", "moves": [' + b'"11-15",' * MAX_BODY_BYTES + b"]}"
    response = client.post("/api/position", content=big)
    assert response.status_code == 413
    assert f"more than the {MAX_BODY_BYTES} allowed" in response.json()["error"]


def test_a_large_body_without_a_length_is_cut_off(client: TestClient) -> None:
    def chunks() -> Any:
        for _ in range(MAX_BODY_BYTES // 1000 + 2):
            yield b" " * 1000

    response = client.post("/api/position", content=chunks())
    assert response.status_code == 413


def test_too_many_moves(client: TestClient) -> None:
    answer = post(
        client, "/api/position", {"variant": "english", "moves": ["1-5"] * (MAX_MOVES + 1)}, 400
    )
    assert f"more than the {MAX_MOVES} allowed" in answer["error"]


def test_the_board_mounted_under_a_prefix() -> None:
    from starlette.applications import Starlette
    from starlette.routing import Mount

    client = TestClient(Starlette(routes=[Mount("/draughts", app=create_app())]))
    page = client.get("/draughts/")
    assert page.status_code == 200 and 'id="board"' in page.text
    # The page's addresses are relative: they resolve under the prefix.
    assert client.get("/draughts/static/game.js").status_code == 200
    answer = client.post("/draughts/api/position", json={"variant": "english"})
    assert answer.json()["turn"] == "black"


def test_wrong_methods_and_paths(client: TestClient) -> None:
    assert client.get("/api/position").status_code == 405
    assert client.get("/api/nothing").status_code == 404


def test_create_app_refuses_bad_settings() -> None:
    with pytest.raises(ValueError, match="engine_seconds must be positive"):
        create_app(engine_seconds=0)
    with pytest.raises(ValueError, match="engine_threads must be at least 1"):
        create_app(engine_threads=0)
