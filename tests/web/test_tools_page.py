"""The page's tools for studying, in a headless Chromium on a live server:
a PDN game pasted and stepped through with the arrow keys (a variation
entered and left), the position editor's FEN, the analysis switched on
(a score and a line that change as the search deepens, the best move drawn)
and the opening explorer over an index built here from corpus files, a game
opened from it. With ``DRAUGHTS_WEB_SCREENSHOT=1`` the analysis and the
explorer tests write the documentation's pictures."""

from __future__ import annotations

import gzip
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from draughts.web import create_app
from tests.web.conftest import serving
from tests.web.test_browser import click, state, wait_for_plies
from tests.web.test_explorer import build_index
from tests.web.test_page import keep_picture

pytestmark = pytest.mark.browser

STUDIED = """[Event "Club match"]
[White "Ann"]
[Black "Bob"]
[Result "*"]
[GameType "21"]

{A quiet opening.} 1. 11-15 {the old favourite} (1. 9-13 {the Edinburgh} 22-18) 23-19
2. 8-11 (2. 9-14 {a variation} 22-17) 22-17 *
"""


def current(page: Any) -> str:
    text: str = page.inner_text("#study-moves .current")
    return text.split()[-1].rstrip(".")


def test_a_pasted_game_stepped_through_with_the_arrow_keys(page: Any, tmp_path: Path) -> None:
    page.open("variant=international&engine=white")
    page.click("#study-card summary")
    page.click("#load-pdn")
    assert page.inner_text("#study-state") == "Paste a game in PDN first, or choose a file."
    page.fill("#pdn-text", "[Event")
    page.click("#load-pdn")
    page.wait_for_function(
        "document.querySelector('#study-state').textContent.startsWith('This PDN cannot')"
    )
    assert page.inner_text("#study-state").startswith(
        "This PDN cannot be studied: pdn: the text holds no game: 1:1: "
    )
    assert page.is_hidden("#study-view")
    # A file chosen is read and studied at once.
    upload = tmp_path / "club.pdn"
    upload.write_text(STUDIED)
    page.set_input_files("#pdn-file", str(upload))
    page.wait_for_selector("#study-view:not([hidden])")
    assert page.input_value("#pdn-text") == STUDIED
    assert page.input_value("#variant") == "english" and page.input_value("#engine") == "none"
    assert page.inner_text("#study-header") == "Ann - Bob, Club match"
    assert page.inner_text("#study-comment") == "A quiet opening."
    assert page.inner_text("#study-state") == "8 moves read (English draughts / American checkers)."
    page.focus("#study-forward")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("window.draughtsGame.position.history.length === 1")
    assert current(page) == "11-15" and state(page)["history"] == ["11-15"]
    assert page.inner_text("#study-comment") == "the old favourite"
    # Down: the other first move, a variation; right goes on along it.
    page.keyboard.press("ArrowDown")
    page.wait_for_function("window.draughtsGame.position.history[0] === '9-13'")
    assert page.inner_text("#study-comment") == "the Edinburgh"
    page.keyboard.press("ArrowRight")
    wait_for_plies(page, 2)
    assert state(page)["history"] == ["9-13", "22-18"]
    # Left and up: out of the variation, back on the main line.
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("window.draughtsGame.position.history.length === 1")
    page.keyboard.press("ArrowUp")
    page.wait_for_function("window.draughtsGame.position.history[0] === '11-15'")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("window.draughtsGame.position.history.length === 4")
    assert state(page)["history"] == ["11-15", "23-19", "8-11", "22-17"]
    assert page.is_disabled("#study-forward")
    # A move clicked in the list, and a move of one's own: a new variation.
    page.click("#study-moves button.move:text-is('2. 9-14')")
    page.wait_for_function("window.draughtsGame.position.history[2] === '9-14'")
    assert page.inner_text("#study-comment") == "a variation"
    page.click("#study-back")
    page.wait_for_function("window.draughtsGame.position.history.length === 2")
    click(page, 12, 16)
    page.wait_for_function("window.draughtsGame.position.history[2] === '12-16'")
    assert "12-16" in page.inner_text("#study-moves")
    assert page.locator("#study-moves button.move").count() == 9
    # A share link holds the variant, and the moves.
    page.click("#share")
    link = page.input_value("#share-link")
    assert "variant=english" in link and "moves=11-15+23-19+12-16" in link
    page.goto(link)
    page.wait_for_function(
        "window.draughtsGame && window.draughtsGame.position"
        " && window.draughtsGame.position.history.length === 3"
    )
    assert state(page)["history"] == ["11-15", "23-19", "12-16"]


def test_a_compressed_file_is_studied(page: Any, tmp_path: Path) -> None:
    page.open("variant=international&engine=white")
    page.click("#study-card summary")
    upload = tmp_path / "club.pdn.gz"
    upload.write_bytes(gzip.compress(STUDIED.encode()))
    page.set_input_files("#pdn-file", str(upload))
    page.wait_for_selector("#study-view:not([hidden])")
    assert page.inner_text("#study-header") == "Ann - Bob, Club match"
    assert page.inner_text("#study-state") == "8 moves read (English draughts / American checkers)."


def test_the_position_editor_gives_a_fen(page: Any) -> None:
    page.open("variant=english&engine=none")
    # This server has no games: no explorer.
    page.wait_for_function("window.draughtsGame.explorer.off === true")
    assert page.is_hidden("#explorer")
    page.click("#editor summary")
    # The board's position, every square written out (once the panel's
    # toggle event has filled it in).
    page.wait_for_function("document.querySelector('#editor-fen').value !== ''")
    white, black = range(21, 33), range(1, 13)
    assert page.input_value("#editor-fen") == (
        f"B:W{','.join(map(str, white))}:B{','.join(map(str, black))}"
    )
    page.click("#editor-clear")
    assert page.input_value("#editor-fen") == "B:W:B"
    page.check("input[name=editor-tool][value='white king']")
    click(page, 18)
    page.check("input[name=editor-tool][value='black man']")
    click(page, 14, 10, 10)  # a second click takes the man on 10 away
    page.select_option("#editor-turn", "black")
    assert page.input_value("#editor-fen") == "B:WK18:B14"
    assert page.locator("#board .piece.white.king.s18").count() == 1
    page.click("#editor-use")
    page.wait_for_function("window.draughtsGame.position.fen === 'B:WK18:B14'")
    assert page.is_hidden("#editor-fen")
    assert [m["pdn"] for m in state(page)["legal_moves"]] == ["14x23"]
    # The share link holds the FEN.
    page.click("#share")
    assert "fen=B%3AWK18%3AB14" in page.input_value("#share-link")
    # A position the rules refuse is said so, and the editor stays open.
    page.click("#editor summary")
    page.click("#editor-clear")
    page.check("input[name=editor-tool][value='white man']")
    click(page, 1)
    page.click("#editor-use")
    page.wait_for_function(
        "document.querySelector('#message').textContent.startsWith('Cannot start from')"
    )
    assert page.inner_text("#message").startswith("Cannot start from that position: fen:")
    assert page.is_visible("#editor-fen")


@pytest.mark.slow  # two seconds of searching, twice
def test_analysis_shows_a_score_and_a_line_that_change(page: Any, tmp_path: Path) -> None:
    page.open("variant=english&engine=none")
    page.check("#analysis-on")
    assert "analysis=1" in page.url
    page.wait_for_function("document.querySelector('#analysis-line').textContent !== ''")
    seen = set()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        seen.add((page.inner_text("#analysis-depth"), page.inner_text("#analysis-line")))
        if page.inner_text("#analysis-state").endswith("the search is over."):
            break
        page.wait_for_timeout(30)
    assert len(seen) >= 2, seen  # the view changed as the search deepened
    assert page.inner_text("#analysis-score").endswith("for Black")
    best = page.inner_text("#analysis-line").split()[0]
    move = next(m for m in state(page)["legal_moves"] if m["pdn"] == best)
    assert page.locator(f"#board polyline.best.s{move['from']}").count() == 1
    keep_picture(page, tmp_path, "web-analysis.png")
    # A move played: the analysis starts again for the new position.
    click(page, move["from"], move["to"])
    wait_for_plies(page, 1)
    page.wait_for_function(
        "document.querySelector('#analysis-score').textContent.endsWith('for White')"
    )
    page.uncheck("#analysis-on")
    assert page.is_hidden("#analysis-panel")
    assert page.locator("#board polyline.best").count() == 0


@pytest.fixture(scope="module")
def explorer_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A live server with an index of two corpus files (skips without them)."""
    db = build_index(tmp_path_factory.mktemp("explorer-page"))
    with serving(create_app(engine_seconds=0.5, db=db), "explorer-server") as address:
        yield address


def test_the_explorer_shows_the_moves_and_opens_a_game(
    chromium: Any, explorer_server: str, tmp_path: Path
) -> None:
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    try:
        tab.goto(f"{explorer_server}/?variant=english&engine=none")
        tab.wait_for_selector("#explorer:not([hidden]) #explorer-moves tr")
        rows = tab.locator("#explorer-moves tr")
        first = rows.nth(0).inner_text().split()
        assert first[0] in {m["pdn"] for m in state(tab)["legal_moves"]}
        assert int(first[1]) >= 1
        keep_picture(tab, tmp_path, "web-explorer.png")
        # A move of the table is played; the table follows the board.
        tab.click(f"#explorer-moves button:text-is('{first[0]}')")
        wait_for_plies(tab, 1)
        assert state(tab)["history"] == [first[0]]
        # The games of the new position replace those of the start (which
        # are listed until its answer comes): as many as the table said.
        tab.wait_for_function(
            "n => document.querySelectorAll('#explorer-games button').length === n"
            " && document.querySelector('#explorer-state').textContent !== ''",
            arg=int(first[1]),
        )
        games = tab.locator("#explorer-games button")
        # A game opens in the study view, at its start.
        games.nth(0).click()
        tab.wait_for_selector("#study-view:not([hidden])")
        assert tab.input_value("#variant") == "english"
        assert tab.locator("#study-moves button.move").count() > 2
        tab.focus("#study-forward")
        tab.keyboard.press("ArrowRight")
        tab.wait_for_function("window.draughtsGame.position.history.length === 1")
        assert state(tab)["history"] == [first[0]]
    finally:
        context.close()
    assert not errors, errors
