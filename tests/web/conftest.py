"""Fixtures of the web board's tests: an API client, and for the browser
tests a live server and a headless Chromium driven by Playwright."""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

starlette = pytest.importorskip("starlette", reason="the web extra is not installed")
from starlette.testclient import TestClient  # noqa: E402

from draughts.web import create_app  # noqa: E402

CHROMIUM = os.environ.get("DRAUGHTS_CHROMIUM", "/usr/bin/chromium")
HOW_TO_GET_A_BROWSER = (
    "install Playwright for Python (pip install playwright; the dev extra has it) and "
    "Debian's Chromium (apt-get install chromium), or point DRAUGHTS_CHROMIUM at a "
    "Chromium binary"
)


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app(engine_seconds=1.0))


@contextlib.contextmanager
def serving(app: Any, name: str = "live-server") -> Iterator[str]:
    """The address of a uvicorn server running ``app`` on a free port, in a
    thread, while the context lasts."""
    uvicorn = pytest.importorskip("uvicorn", reason="uvicorn (the web extra) is not installed")
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, name=name, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the live server did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """The address of a uvicorn server running the app on a free port."""
    with serving(create_app(engine_seconds=1.0)) as address:
        yield address


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """A headless Chromium (Debian's, Playwright's own download being out
    of reach), or skip saying how to get one."""
    # CI sets DRAUGHTS_REQUIRE_BROWSER=1: there a missing browser is a failure.
    missing = pytest.fail if os.environ.get("DRAUGHTS_REQUIRE_BROWSER") == "1" else pytest.skip
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing(f"Playwright is not installed: {HOW_TO_GET_A_BROWSER}")
    executable = shutil.which(CHROMIUM) or CHROMIUM
    if not Path(executable).exists():
        missing(f"no Chromium at {CHROMIUM}: {HOW_TO_GET_A_BROWSER}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium: Any, live_server: str) -> Iterator[Any]:
    """A fresh page (a new context: its own downloads) on the live server.
    ``page.open(query)`` loads the board with that query string."""
    context = chromium.new_context(accept_downloads=True, viewport={"width": 1100, "height": 800})
    context.set_default_timeout(15_000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))

    def open_board(query: str) -> None:
        tab.goto(f"{live_server}/?{query}")
        tab.wait_for_selector("#board svg .square")
        tab.wait_for_function("window.draughtsGame && window.draughtsGame.position")

    tab.open = open_board
    yield tab
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
