"""The play page as a first-time player meets it, in a headless Chromium on
a live server: the heading and the rules, who plays which side, a game by
keyboard, the messages in view on a desktop and on phones with the clock
on, no horizontal scrolling, the address that keeps the board's options,
the clock, New game, a wrong click inside a capture and undo against the
clock. With ``DRAUGHTS_WEB_SCREENSHOT=1`` the layout tests write the
documentation's pictures (``docs/_static/web-*.png``)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

import draughts
from draughts.engine import Limit, builtin
from draughts.web.howto import how_to_play
from tests.web.test_browser import click, play_by_clicks, state, wait_for_plies

pytestmark = pytest.mark.browser

DOCS_STATIC = Path(__file__).resolve().parents[2] / "docs" / "_static"
VIEWPORTS = {
    "desktop": (1280, 800),
    "phone": (390, 844),
    "landscape": (844, 390),
    "tablet": (768, 1024),
}


def open_at(chromium: Any, live_server: str, size: tuple[int, int], query: str) -> Any:
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    context.set_default_timeout(15_000)
    tab = context.new_page()
    tab.goto(f"{live_server}/?{query}")
    tab.wait_for_function("window.draughtsGame && window.draughtsGame.position")
    return tab


def keep_picture(tab: Any, tmp_path: Path, name: str) -> None:
    """Screenshot ``tab``; copied into the docs when asked for."""
    picture = tmp_path / name
    tab.screenshot(path=str(picture))
    assert picture.read_bytes().startswith(b"\x89PNG")
    if os.environ.get("DRAUGHTS_WEB_SCREENSHOT") == "1":
        shutil.copyfile(picture, DOCS_STATIC / name)


def in_view(tab: Any, selector: str) -> bool:
    box = tab.locator(selector).bounding_box()
    size = tab.viewport_size
    return bool(
        box
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and box["y"] + box["height"] <= size["height"]
    )


def test_a_first_visit_shows_a_heading_the_rules_and_the_sides(page: Any) -> None:
    page.open("")
    assert page.inner_text("h1") == "Draughts"
    assert page.title() == "English draughts / American checkers: Draughts"
    assert page.is_visible("#how-to-play")
    english = draughts.find_variant("english")
    rules = page.eval_on_selector_all("#rules li", "nodes => nodes.map(n => n.textContent)")
    assert rules == how_to_play(english)
    assert "Capturing is compulsory" in page.inner_text("#how-to-play")
    assert page.inner_text("#sides") == (
        "You play Black, moving first; the engine (medium) plays White."
    )
    assert page.inner_text("#status") == "Black to move (your turn)."
    # Another variant: its own rules, heading and sides.
    page.select_option("#variant", "turkish")
    page.wait_for_function("window.draughtsGame.variant.name === 'turkish'")
    assert page.inner_text("#variant-title") == "Turkish dama (straight moves, 16 men each)"
    assert "straight forward or sideways" in page.inner_text("#rules")
    assert page.inner_text("#sides") == (
        "You play Black; the engine (medium) plays White, moving first."
    )
    page.select_option("#engine", "none")
    assert page.inner_text("#sides") == (
        "Two players on this screen: White moves first, then Black."
    )


def test_the_menu_tells_the_three_damas_apart(page: Any) -> None:
    page.open("")
    names = page.eval_on_selector_all(
        "#variant option", "nodes => Object.fromEntries(nodes.map(n => [n.value, n.textContent]))"
    )
    assert names["turkish"].startswith("Turkish dama")
    assert names["dama"] == "Dama (checkers moves, online-play draws)"
    assert names["dama-flying"] == "Dama with flying kings (diagonal moves)"
    assert len(set(names.values())) == len(draughts.VARIANTS)


def move_cursor(page: Any, number: int) -> None:
    """Press arrow keys until the keyboard's cursor is on square ``number``."""
    target = page.evaluate(
        f"(() => {{ const s = window.draughtsGame.view.bySquare.get({number});"
        " return [s.row, s.col]; })()"
    )
    sign = 1 if page.evaluate("window.draughtsGame.view.orientation") == "white" else -1
    if page.evaluate("window.draughtsGame.cursor") is None:
        page.keyboard.press("ArrowUp")  # the first arrow puts the cursor on a piece
    for _ in range(40):
        row, col = page.evaluate("window.draughtsGame.cursor")
        if [row, col] == target:
            return
        if row != target[0]:
            page.keyboard.press("ArrowUp" if (target[0] - row) * sign > 0 else "ArrowDown")
        else:
            page.keyboard.press("ArrowRight" if (target[1] - col) * sign > 0 else "ArrowLeft")
    pytest.fail(f"the cursor did not reach {number}")


def test_a_game_by_keyboard(page: Any) -> None:
    page.open("variant=english&engine=white&level=easy")
    helper = builtin("medium")
    page.focus("#board")
    assert page.locator("#board rect.cursor").count() == 1
    for turn in range(8):
        position = state(page)
        if position["outcome"] is not None:
            break
        board = draughts.Board(position["fen"], variant="english")
        move = helper.play(board, Limit(depth=3)).move
        text = board.pdn(move)
        before = len(position["history"])
        if turn % 2 == 0:
            # Arrow keys and Enter: the piece, then its square.
            page.focus("#board")
            move_cursor(page, move.from_square)
            page.keyboard.press("Enter")
            assert page.locator(f"#board .selected.s{move.from_square}").count() == 1
            for stop in move.path[1:]:
                if len(state(page)["history"]) > before:
                    break
                move_cursor(page, stop)
                page.keyboard.press("Enter")
        else:
            # Typed as the move list writes it.
            page.fill("#move-input", text)
            page.press("#move-input", "Enter")
        wait_for_plies(page, before + 2)
        assert state(page)["history"][before] == text
    assert len(state(page)["history"]) >= 8
    # A typed move that is not legal is answered in words, and nothing is played.
    before = state(page)["history"]
    page.fill("#move-input", "1-32")
    page.press("#move-input", "Enter")
    assert "not a legal move here" in page.inner_text("#message") or (
        "capturing is compulsory" in page.inner_text("#message")
    )
    page.fill("#move-input", "hello")
    page.press("#move-input", "Enter")
    assert page.inner_text("#message").startswith('"hello" is not a move')
    assert state(page)["history"] == before


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_message_stays_in_view_with_the_clock_on(
    chromium: Any, live_server: str, tmp_path: Path, viewport: str
) -> None:
    tab = open_at(
        chromium,
        live_server,
        VIEWPORTS[viewport],
        "variant=international&engine=none&minutes=5&fen=W:W28,34,35:B23,8,9",
    )
    try:
        assert tab.is_visible("#clock-white") and tab.is_visible("#clock-black")
        click(tab, 34)
        message = tab.inner_text("#message")
        assert message.startswith("Capturing is compulsory: you must take")
        for selector in ("#message", "#status", "#clock-white", "#clock-black"):
            assert in_view(tab, selector), selector
        # Scrolled down to the controls, the message line is still in view.
        tab.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        tab.wait_for_timeout(100)
        assert in_view(tab, "#message")
        tab.evaluate("window.scrollTo(0, 0)")
        keep_picture(tab, tmp_path, f"web-play-{viewport}.png")
    finally:
        tab.context.close()


@pytest.mark.parametrize(
    "variant",
    [
        pytest.param("dama", marks=pytest.mark.slow),
        "international",
        "canadian",  # the largest board
        pytest.param("turkish", marks=pytest.mark.slow),
    ],
)
def test_no_horizontal_scrolling_and_the_board_in_view(
    chromium: Any, live_server: str, tmp_path: Path, variant: str
) -> None:
    for name in VIEWPORTS:
        tab = open_at(chromium, live_server, VIEWPORTS[name], f"variant={variant}&minutes=3")
        try:
            widths = tab.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert widths[0] <= widths[1], (name, widths)
            assert in_view(tab, "#board"), name
            assert in_view(tab, "#status"), name
            if name == "landscape" and variant == "dama":
                keep_picture(tab, tmp_path, "web-play-landscape.png")
        finally:
            tab.context.close()


def test_flip_and_coordinates_are_kept_in_the_address(page: Any) -> None:
    page.open("variant=english&engine=none")
    page.click("#flip")
    assert "flip=1" in page.url
    assert page.get_attribute("#flip", "aria-pressed") == "true"
    page.uncheck("#coordinates")
    assert "coordinates=0" in page.url
    address = page.url
    page.goto(address)
    page.wait_for_function("window.draughtsGame && window.draughtsGame.position")
    assert page.evaluate("window.draughtsGame.view.orientation") == "black"
    assert page.locator("#board text.coord").count() == 0
    page.click("#flip")
    page.check("#coordinates")
    assert "flip" not in page.url and "coordinates" not in page.url


def test_the_clock_shows_as_soon_as_it_is_set(page: Any) -> None:
    page.open("variant=english&engine=none")
    assert not page.is_visible("#clock-white")
    page.fill("#minutes", "3")
    page.dispatch_event("#minutes", "change")
    assert page.is_visible("#clock-white") and page.is_visible("#clock-black")
    assert page.inner_text("#clock-white") == "White 3:00"
    assert "minutes=3" in page.url


def test_new_game_starts_from_the_variants_start(page: Any) -> None:
    page.open("variant=english&engine=none&fen=B:W18:B14,10")
    play_by_clicks(page, "14x23")
    page.click("#new-game")
    page.wait_for_function("window.draughtsGame.position.history.length === 0")
    assert state(page)["fen"] == draughts.Board(variant="english").fen()
    assert page.input_value("#fen") == "" and "fen=" not in page.url


def test_a_wrong_click_in_a_two_route_capture_says_what_to_do(page: Any) -> None:
    page.open("variant=international&engine=none&fen=W:WK44:B20,18,12,39")
    click(page, 44, 50)
    assert page.inner_text("#message") == (
        "Capturing is compulsory: the piece on 44 must take; click 17 or 22 (marked)."
    )
    assert page.locator("#board .selected.s44").count() == 1
    click(page, 25)
    assert "2 capture routes end on 25" in page.inner_text("#message")
    click(page, 49)  # wrong again: the piece stays selected
    assert page.locator("#board .selected.s44").count() == 1
    click(page, 17)
    wait_for_plies(page, 1)
    assert state(page)["history"] == ["44x17x3x25"]


@pytest.mark.slow  # waits 3 s of real time for the flag to fall
def test_undo_gives_back_the_clock_of_the_position(page: Any) -> None:
    # Three seconds each: White's flag falls, undo brings back a live game.
    page.open("variant=english&engine=none&minutes=0.05")
    play_by_clicks(page, "11-15")
    page.wait_for_function(
        "document.querySelector('#status').textContent.includes('ran out of time')",
        timeout=10_000,
    )
    assert page.inner_text("#clock-white") == "White 0:00"
    page.click("#undo")
    page.wait_for_function("window.draughtsGame.position.history.length === 0")
    assert page.inner_text("#clock-white") == "White 0:03"
    page.wait_for_timeout(500)
    assert page.inner_text("#status") == "Black to move."
    assert page.inner_text("#clock-black") in ("Black 0:03", "Black 0:02")


def test_a_typed_capture_with_two_routes_asks_for_the_route(page: Any) -> None:
    page.open("variant=international&engine=none&fen=W:WK44:B20,18,12,39")
    assert page.get_attribute("#move-input", "placeholder") == "e.g. 44x22x9x25"
    page.fill("#move-input", "44x25")
    page.press("#move-input", "Enter")
    assert page.inner_text("#message") == (
        "2 captures go from 44 to 25: type the whole route (44x22x9x25, 44x17x3x25)."
    )
    page.fill("#move-input", "44-17-3-25")  # "-" for "x" is understood
    page.press("#move-input", "Enter")
    wait_for_plies(page, 1)
    assert state(page)["history"] == ["44x17x3x25"]


def test_a_busy_engine_is_asked_again(page: Any) -> None:
    """The server answers 503 when all its searches are taken: the page says
    so and asks again, and the engine's move comes."""
    refusals: list[str] = []

    def busy_once(route: Any) -> None:
        if not refusals:
            refusals.append(route.request.url)
            route.fulfill(
                status=503,
                content_type="application/json",
                body='{"error": "the engine is busy with 2 other searches: try again in a moment"}',
            )
        else:
            route.continue_()

    page.route("**/api/engine", busy_once)
    page.open("variant=english&engine=black&level=easy")
    page.wait_for_function(
        "document.querySelector('#message').textContent.includes('busy with other games')"
    )
    wait_for_plies(page, 1)
    assert len(refusals) == 1
    assert page.inner_text("#message") == ""
