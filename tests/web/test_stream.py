"""``GET /api/analysis/stream``: the engine's view as Server-Sent Events,
one ``info`` event per deeper search and ``done`` at the end, within the
server's time cap; bad queries answered 4xx, a busy server an ``error``
event; and ``POST /api/study``, a PDN game as the study view reads it."""

from __future__ import annotations

import base64
import bz2
import gzip
import json
import lzma
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import anyio
import pytest
from starlette.testclient import TestClient

import draughts
from draughts.web import create_app
from draughts.web.app import _analysis
from draughts.web.streams import Slots, analysis_events

T = TypeVar("T")


def run(collect: Callable[[], Awaitable[T]]) -> T:
    """``anyio.run(collect)`` in a thread of its own: Playwright's tests
    leave an event loop on this one."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(anyio.run, collect).result()


def events(text: str) -> list[tuple[str, Any]]:
    found = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        found.append((lines["event"], json.loads(lines["data"])))
    return found


def test_the_view_deepens_and_ends_within_the_cap() -> None:
    client = TestClient(create_app(engine_seconds=0.5))
    moves = ["11-15", "23-19"]
    started = time.monotonic()
    response = client.get(
        "/api/analysis/stream", params={"variant": "english", "moves": " ".join(moves)}
    )
    assert time.monotonic() - started < 0.5 + 1
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    found = events(response.text)
    names = [name for name, _ in found]
    assert names[-1] == "done" and set(names[:-1]) == {"info"} and len(names) >= 3
    depths = [data["depth"] for name, data in found if name == "info"]
    assert depths == sorted(depths) and depths[-1] > depths[0]
    for _, data in found:
        board = draughts.Board(variant="english")
        for text in [*moves, *data["pv"]]:
            board.push(board.parse_pdn(text))  # every line is legal
        assert data["best"] == data["pv"][0]


@pytest.mark.parametrize(
    ("query", "status", "words"),
    [
        ("variant=english&seconds=abc", 400, "seconds: expected a positive number"),
        ("variant=english&seconds=-1", 400, "seconds: expected a positive number"),
        ("variant=english&seconds=nan", 400, "seconds: expected a positive number"),
        ("variant=english&level=hard", 400, "unknown field 'level'"),
        ("variant=english&moves=1&moves=2", 400, "moves: given 2 times"),
        ("variant=chess", 422, "unknown variant"),
        ("", 400, "variant: expected a variant name"),
        ("variant=english&moves=11-15+11-15", 422, "moves[1]: '11-15' is not a legal move"),
        ("variant=international&fen=W:W28:B23&moves=28x19", 422, "the game is over"),
    ],
)
def test_bad_stream_queries(client: TestClient, query: str, status: int, words: str) -> None:
    response = client.get(f"/api/analysis/stream?{query}")
    assert response.status_code == status, response.text
    assert words in response.json()["error"]


def test_a_busy_server_says_so_in_an_event() -> None:
    slots = Slots(1, "the engine")
    slots.take()

    async def collect() -> list[str]:
        return [item async for item in analysis_events(slots, lambda info, stop: {})]

    (only,) = run(collect)
    name, data = events(only)[0]
    assert name == "error" and data["status"] == 503
    assert "busy" in data["error"] and slots.busy == 1


def test_the_slot_is_given_back_when_the_search_ends() -> None:
    slots = Slots(1, "the engine")

    def search(info: Any, stop: Any) -> dict[str, Any]:
        info({"depth": 1})
        return {"depth": 2}

    async def collect() -> list[str]:
        found = [item async for item in analysis_events(slots, search)]
        await anyio.sleep(0.05)  # the thread gives the slot back through the loop
        return found

    found = [events(item)[0] for item in run(collect)]
    assert found == [("info", {"depth": 1}), ("done", {"depth": 2})]
    assert slots.busy == 0


STUDIED = """[Event "Study"]
[GameType "20"]
[FEN "W:W31,32,33:B18,19,20"]

{before} 1. 33-28 {main} (1. 32-28 {side} 19-23 (1... 18-22 28x17) 28x19) 1... 19-23 2. 28x19 *
"""


def test_a_game_with_variations_as_a_flat_tree(client: TestClient) -> None:
    answer = client.post("/api/study", json={"pdn": STUDIED}).json()
    assert answer["variant"] == "international"
    assert answer["fen"] == "W:W31-33:B18-20"
    assert ["Event", "Study"] in answer["headers"]
    nodes = answer["nodes"]
    assert nodes[0]["comment"] == "before" and nodes[0]["parent"] is None
    main = [nodes[0]]
    while main[-1]["children"]:
        main.append(nodes[main[-1]["children"][0]])
    assert [n["move"] for n in main[1:]] == ["33-28", "19-23", "28x19"]
    assert main[1]["comment"] == "main"
    side = nodes[nodes[0]["children"][1]]
    assert (side["move"], side["comment"]) == ("32-28", "side")
    reply = nodes[side["children"][0]]
    assert [nodes[i]["move"] for i in reply["children"]] == ["28x19"]
    other = nodes[side["children"][1]]
    assert other["move"] == "18-22" and [nodes[i]["move"] for i in other["children"]] == ["28x17"]
    for index, node in enumerate(nodes[1:], start=1):
        assert index in nodes[node["parent"]]["children"]


def test_the_variant_is_inferred_as_read_game_does(client: TestClient) -> None:
    answer = client.post("/api/study", json={"pdn": "1. 11-15 23-19 2. 8-11 *"}).json()
    assert answer["variant"] == "english"
    assert any("read as english" in warning for warning in answer["warnings"])
    told = client.post("/api/study", json={"pdn": "1. 11-15 *", "variant": "dama"}).json()
    assert told["variant"] == "dama"


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"pdn": ""}, 422, "pdn: the text holds no game"),
        ({"pdn": 5}, 400, "pdn: expected the text of a PDN game"),
        ({"text": "1. 32-28 *"}, 400, "unknown field 'text'"),
        ({"pdn": "1. 32-28 *", "variant": "chess"}, 422, "unknown variant"),
        ({"pdn": "1. 32-28 *", "variant": 3}, 400, "variant: expected a variant name"),
        ({"pdn": "1. 32-28 *", "pdn_base64": ""}, 400, "either pdn"),
        ({"pdn_base64": "not base64!"}, 400, "pdn_base64: not base64"),
        ({"pdn_base64": 12}, 400, "pdn_base64: expected a file's bytes"),
        ({"pdn_base64": base64.b64encode(bytes(range(256)) * 4).decode()}, 422, "not"),
        (
            {"pdn_base64": base64.b64encode(gzip.compress(b"1. 32-28 *")[:-9]).decode()},
            422,
            "cannot be read",
        ),
    ],
)
def test_bad_study_requests(client: TestClient, body: Any, status: int, words: str) -> None:
    response = client.post("/api/study", json=body)
    assert response.status_code == status, response.text
    assert words in response.json()["error"]


@pytest.mark.parametrize("compress", [gzip.compress, bz2.compress, lzma.compress, bytes])
def test_a_file_sent_as_it_is_compressed_or_not_is_studied(
    client: TestClient, compress: Callable[[bytes], bytes]
) -> None:
    packed = base64.b64encode(compress(STUDIED.encode())).decode()
    answer = client.post("/api/study", json={"pdn_base64": packed}).json()
    assert answer == client.post("/api/study", json={"pdn": STUDIED}).json()


def test_a_file_that_decompresses_to_gigabytes_is_read_only_so_far(client: TestClient) -> None:
    # 64 MB of comment after a move, a few kilobytes compressed: the server
    # reads MAX_TEXT characters of it, the first game is cut there.
    bomb = b"1. 32-28 {" + b" " * (64 << 20)
    response = client.post(
        "/api/study", json={"pdn_base64": base64.b64encode(bz2.compress(bomb)).decode()}
    )
    assert response.status_code == 200, response.text
    answer = response.json()
    assert [node["move"] for node in answer["nodes"][1:]] == ["32-28"]
    assert any("comment not closed" in error for error in answer["errors"])


@pytest.mark.parametrize("text", ["\x00\x01 1. 99-98 {unclosed", "hello world", "[Event"])
def test_garbage_is_no_game(client: TestClient, text: str) -> None:
    response = client.post("/api/study", json={"pdn": text})
    assert response.status_code == 422, response.text
    assert response.json()["error"].startswith("pdn: the text holds no game: 1:1: ")


def test_a_game_with_errors_is_studied_as_far_as_it_goes(client: TestClient) -> None:
    answer = client.post("/api/study", json={"pdn": "1. 32-28 19-23 2. 99-98 *"}).json()
    assert [node["move"] for node in answer["nodes"][1:]] == ["32-28", "19-23"]
    assert answer["errors"] and "99-98" in answer["errors"][0]


def test_a_nag_of_5000_digits_is_an_error_of_the_game_not_a_failure(client: TestClient) -> None:
    response = client.post("/api/study", json={"pdn": "1. 32-28 $" + "9" * 5000 + " *"})
    assert response.status_code == 200
    answer = response.json()
    assert [node["move"] for node in answer["nodes"][1:]] == ["32-28"]
    assert len(answer["errors"]) == 1 and "out of range" in answer["errors"][0]


def test_variations_nested_5000_deep_are_read(client: TestClient) -> None:
    text = "1. 11-15 " + "(1. 9-13 " * 5000 + ")" * 5000 + " *"
    answer = client.post("/api/study", json={"pdn": text}).json()
    # Each variation is another first move: 11-15 and 5,000 times 9-13.
    assert len(answer["nodes"][0]["children"]) == 5001


def test_a_text_over_the_limit_is_a_413(client: TestClient) -> None:
    response = client.post("/api/study", json={"pdn": "1. 32-28 " * 200_000})
    assert response.status_code == 413 and response.json()["error"]


def test_a_client_that_leaves_stops_the_search() -> None:
    """The stream closed after its first event: the search (given 30 s)
    stops, and its slot is given back, within a second or two."""
    slots = Slots(1, "the engine")
    board = draughts.Board(variant="international")

    def search(info: Any, stop: Any) -> dict[str, Any]:
        return _analysis(board, 30.0, info, stop)

    async def first_then_leave() -> tuple[str, float]:
        stream = analysis_events(slots, search)
        first = await stream.__anext__()
        await stream.aclose()
        left = time.monotonic()
        while slots.busy and time.monotonic() - left < 10:
            await anyio.sleep(0.02)
        return first, time.monotonic() - left

    first, waited = run(first_then_leave)
    assert events(first)[0][0] == "info"
    assert slots.busy == 0 and waited < 3
