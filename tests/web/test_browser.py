"""The web board in a real headless Chromium, driven by Playwright on a live
server: moves by click and by drag, capture routes square by square, the
messages, draw claims, the clock and the PDN download.

The page is driven only as a player drives it (clicks, drags, buttons);
the page's state is read back to check what happened and to pick moves."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

import draughts
from draughts import pdn
from draughts.engine import Limit, builtin

pytestmark = pytest.mark.browser

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "_static" / "web-board.png"


def square(page: Any, number: int) -> str:
    return f"#board .square.s{number}"


def click(page: Any, *numbers: int) -> None:
    for number in numbers:
        page.click(square(page, number))


def state(page: Any) -> dict[str, Any]:
    position: dict[str, Any] = page.evaluate("window.draughtsGame.position")
    return position


def wait_for_plies(page: Any, count: int) -> None:
    page.wait_for_function(
        f"window.draughtsGame.position.history.length >= {count} && !window.draughtsGame.thinking"
    )


def play_by_clicks(page: Any, text: str) -> None:
    """Play the move ``text`` (as the page lists it) by clicking its squares:
    the origin, then the destination, or every landing square when the
    destination alone does not tell the route."""
    before = len(state(page)["history"])
    move = next(m for m in state(page)["legal_moves"] if m["pdn"] == text)
    same_end = [
        m for m in state(page)["legal_moves"] if (m["from"], m["to"]) == (move["from"], move["to"])
    ]
    click(page, move["from"])
    if len(same_end) == 1:
        click(page, move["to"])
    else:
        for stop in move["path"][1:]:
            if len(state(page)["history"]) > before:
                break
            click(page, stop)
    wait_for_plies(page, before + 1)


@pytest.mark.slow  # a whole game to its end against the engine (about 4 s idle, 13 s loaded)
def test_a_whole_english_game_by_clicks_against_the_easy_engine(page: Any) -> None:
    page.open("variant=english&engine=white&level=easy")
    assert page.input_value("#engine") == "white" and page.input_value("#level") == "easy"
    # The player (Black, who moves first) is helped by the medium level.
    helper = builtin("medium")
    board = draughts.Board(variant="english")
    for _ in range(150):
        position = state(page)
        if position["outcome"] is not None:
            break
        assert position["turn"] == "black"
        board = draughts.Board(position["fen"], variant="english")
        choice = helper.play(board, Limit(depth=4)).move
        play_by_clicks(page, board.pdn(choice))
        page.wait_for_function(
            "(() => { const game = window.draughtsGame, p = game.position;"
            " return p.outcome !== null || (p.turn === 'black' && !game.thinking); })()"
        )
    position = state(page)
    assert position["outcome"] is not None, "the game did not end in 150 moves"
    # The move list shows the game in PDN notation, and it replays.
    replay = draughts.Board(variant="english")
    for text in position["history"]:
        replay.push_pdn(text)
    assert replay.outcome() is not None
    assert replay.outcome().result() == position["outcome"]["result"]  # type: ignore[union-attr]
    listed = page.inner_text("#moves").split()
    assert [t for t in listed if not t.endswith(".")] == position["history"]
    assert page.inner_text("#status").endswith(f"Result {position['outcome']['result']}.")


def test_the_engine_plays_black_and_moves_first(page: Any) -> None:
    page.open("variant=dama&engine=black&level=easy&minutes=1&increment=5")
    wait_for_plies(page, 1)
    first = state(page)
    assert first["turn"] == "white"
    assert page.inner_text("#status") == "White to move (your turn)."
    # The engine's move earned its 5 seconds of increment.
    assert page.inner_text("#clock-black") in ("Red 1:05", "Red 1:04")
    text = first["legal_moves"][0]["pdn"]
    play_by_clicks(page, text)
    wait_for_plies(page, 3)
    assert state(page)["history"][1] == text


def test_drag_and_drop_and_an_illegal_drop_snaps_back(page: Any) -> None:
    page.open("variant=english&engine=none")
    page.drag_and_drop(square(page, 11), square(page, 18))  # not a move
    page.wait_for_timeout(300)
    assert state(page)["history"] == []
    assert page.locator("#board .piece.black.man.s11").count() == 1
    assert page.get_attribute("#board .piece.s11", "style") in (None, "", "transform: none;")
    page.drag_and_drop(square(page, 11), square(page, 15))
    wait_for_plies(page, 1)
    assert state(page)["history"] == ["11-15"]
    assert page.locator("#board .piece.black.man.s15").count() == 1
    assert page.locator("#board .piece.s11").count() == 0
    assert page.locator("#board .lastmove.s11").count() == 1


def test_a_touch_drag_plays_a_move(chromium: Any, live_server: str) -> None:
    context = chromium.new_context(has_touch=True, viewport={"width": 800, "height": 800})
    try:
        tab = context.new_page()
        tab.goto(f"{live_server}/?variant=russian&engine=none")
        tab.wait_for_function("window.draughtsGame && window.draughtsGame.position")
        variant = draughts.find_variant("russian")
        c3, d4 = variant.parse_square("c3"), variant.parse_square("d4")
        start, end = (tab.locator(f"#board .square.s{n}").bounding_box() for n in (c3, d4))
        cdp = context.new_cdp_session(tab)

        def touch(kind: str, box: Any) -> None:
            points = [] if kind == "touchEnd" else [{"x": box["x"] + 20, "y": box["y"] + 20}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        touch("touchStart", start)
        touch("touchMove", {"x": (start["x"] + end["x"]) / 2, "y": (start["y"] + end["y"]) / 2})
        touch("touchMove", end)
        touch("touchEnd", end)
        tab.wait_for_function("window.draughtsGame.position.history.length === 1")
        assert state(tab)["history"] == ["c3-d4"]
    finally:
        context.close()


def test_international_capture_chosen_square_by_square(page: Any, tmp_path: Path) -> None:
    # Two routes of the king on 44 take three pieces and end on 25.
    page.open("variant=international&engine=none&fen=W:WK44:B20,18,12,39")
    click(page, 44, 25)
    assert "2 capture routes end on 25" in page.inner_text("#message")
    targets = page.eval_on_selector_all(
        "#board .target", "nodes => nodes.map(n => n.getAttribute('class'))"
    )
    assert sorted(targets) == ["highlight target s17", "highlight target s22"]
    # The documentation's picture: DRAUGHTS_WEB_SCREENSHOT=1 writes it there.
    picture = tmp_path / "web-board.png"
    page.screenshot(path=str(picture))
    assert picture.read_bytes().startswith(b"\x89PNG")
    if os.environ.get("DRAUGHTS_WEB_SCREENSHOT") == "1":
        shutil.copyfile(picture, SCREENSHOT)
    assert state(page)["history"] == []
    click(page, 17)
    wait_for_plies(page, 1)
    assert state(page)["history"] == ["44x17x3x25"]
    pieces = page.eval_on_selector_all(
        "#board .piece", "nodes => nodes.map(n => n.getAttribute('class'))"
    )
    assert sorted(pieces) == ["piece black man s18", "piece white king s25"]
    # The last move shows its route and the pieces it took.
    for taken in (39, 12, 20):
        assert page.locator(f"#board .captured.s{taken}").count() == 1
    assert page.locator("#board polyline.route").count() == 1


def test_compulsory_capture_is_said_in_words(page: Any) -> None:
    page.open("variant=english&engine=none&fen=B:W18:B14,10")
    click(page, 10)
    assert "Capturing is compulsory" in page.inner_text("#message")
    assert "14x23" in page.inner_text("#message")
    # The pieces that can take are marked.
    assert page.locator("#board .movable.s14").count() == 1
    click(page, 14, 17)
    # The wrong square does not drop the piece: the message says what to do.
    assert page.inner_text("#message") == (
        "Capturing is compulsory: the piece on 14 must take; click 23 (marked)."
    )
    assert page.locator("#board .selected.s14").count() == 1
    assert page.locator("#board .target.s23").count() == 1
    assert state(page)["history"] == []
    click(page, 23)
    wait_for_plies(page, 1)
    assert state(page)["history"] == ["14x23"]


def test_threefold_repetition_claim(page: Any) -> None:
    page.open("variant=english&engine=none&fen=B:WK29:BK4")
    assert page.is_hidden("#claim")
    for ply, text in enumerate(["4-8", "29-25", "8-4", "25-29", "4-8", "29-25"]):
        play_by_clicks(page, text)
        assert page.is_hidden("#claim"), f"a claim offered after {ply + 1} plies"
    play_by_clicks(page, "8-4")
    # White may claim: 25-29 would make the position a third time.
    assert "threefold repetition" in page.inner_text("#claim")
    page.click("#claim")
    page.wait_for_function("document.querySelector('#status').dataset.result")
    assert page.inner_text("#status") == "Drawn by threefold repetition. Result 1/2-1/2."


@pytest.mark.parametrize(
    ("fen", "status"),
    [
        (
            "B:WK29:BK4",
            "Red ran out of time, but the game is drawn (insufficient material: "
            "neither side can win). Result 1/2-1/2.",
        ),
        # The first player (Red) scores first in its results.
        ("B:W5,K29:BK4", "Red ran out of time: White wins. Result 0-1."),
    ],
)
def test_dama_timeout_decided_by_the_rules(page: Any, fen: str, status: str) -> None:
    page.open(f"variant=dama&engine=none&fen={fen}&minutes=0.02")
    assert page.is_visible("#clock-black")
    page.wait_for_function("document.querySelector('#status').dataset.result", timeout=10_000)
    assert page.inner_text("#status") == status


def test_pdn_download_reads_back_with_the_same_moves(page: Any, tmp_path: Path) -> None:
    page.open("variant=english&engine=none")
    for text in ["11-15", "24-19", "15x24", "28x19", "8-11"]:
        play_by_clicks(page, text)
    page.click("#resign")
    page.wait_for_function("document.querySelector('#status').dataset.result")
    assert page.inner_text("#status") == "White resigned: Black wins. Result 1-0."
    with page.expect_download() as download:
        page.click("#download")
    saved = tmp_path / "game.pdn"
    download.value.save_as(saved)
    game = pdn.read_game(io.StringIO(saved.read_text(encoding="utf-8")))
    assert game is not None and game.errors == []
    assert [str(m) for m in game.mainline_moves()] == ["11-15", "24-19", "15x24", "28x19", "8-11"]
    assert game.headers.variant().name == "english"
    assert (game.headers["White"], game.headers["Black"]) == ("Player", "Player")
    assert game.headers["Result"] == "1-0"
    assert game.headers["Termination"] == "resignation"


def test_board_options_flip_colours_marks_crown_and_undo(page: Any) -> None:
    page.open("variant=dama&engine=none&fen=B:WK29:B4,7")
    # The dama pages' colours: Black's pieces are drawn red, and named so.
    assert page.input_value("#scheme") == "red-white"
    assert page.inner_text("#status") == "Red to move."
    fill = "getComputedStyle(document.querySelector('#board .piece.black .body')).fill"
    red = page.evaluate(fill)
    page.select_option("#scheme", "black-white")
    assert page.evaluate(fill) != red and page.inner_text("#status") == "Black to move."
    # A king wears a crown; numbers as the variant writes them.
    assert page.locator("#board .piece.white.king.s29 .crown").count() == 1
    assert page.locator("#board .piece.black.man.s4 .crown").count() == 0
    assert page.locator("#board text.coord").count() == 32
    before = page.locator(square(page, 1)).bounding_box()
    page.click("#flip")
    after = page.locator(square(page, 1)).bounding_box()
    assert (before["x"], before["y"]) != (after["x"], after["y"])
    page.check("#show-movable")
    movable = page.eval_on_selector_all(
        "#board .movable", "nodes => nodes.map(n => n.getAttribute('class'))"
    )
    assert sorted(movable) == ["movable s4", "movable s7"]
    play_by_clicks(page, "7-11")
    assert page.inner_text("#moves").split() == ["1.", "7-11"]
    page.click("#undo")
    page.wait_for_function("window.draughtsGame.position.history.length === 0")
    assert page.locator("#board .piece.black.man.s7").count() == 1
    # A new game from a FEN, and a FEN that is refused in words.
    page.fill("#fen", "W:W9:B1")
    page.click("#set-fen")
    page.wait_for_function("window.draughtsGame.position.fen === 'W:W9:B1'")
    page.fill("#fen", "W:W99:B1")
    page.click("#set-fen")
    page.wait_for_function("document.querySelector('#message').textContent !== ''")
    assert page.inner_text("#message").startswith("Cannot start from that position: fen:")
    assert state(page)["fen"] == "W:W9:B1"


def test_algebraic_coordinates_at_the_edges(page: Any) -> None:
    page.open("variant=brazilian&engine=none")
    edges = page.eval_on_selector_all(
        "#board text.coord.edge", "nodes => nodes.map(n => n.textContent)"
    )
    assert sorted(edges) == sorted("abcdefgh12345678")
    play_by_clicks(page, "c3-d4")
    assert page.inner_text("#moves").split() == ["1.", "c3-d4"]
