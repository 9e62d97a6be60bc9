"""``python -m draughts serve`` in a real process, and the server's engine
running beside its event loop."""

from __future__ import annotations

import builtins
import io
import json
import subprocess
import sys
import threading
import urllib.request
from typing import Any

import pytest

from draughts._cli import main
from draughts._cli.serve import serve


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)


def test_serve_prints_its_address_and_serves_the_board() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "draughts", "serve", "--port", "0", "--engine-seconds", "0.2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("draughts serve: the board is at http://127.0.0.1:"), line
        url = line.split(" at ", 1)[1].split()[0]
        with urllib.request.urlopen(url, timeout=30) as page:
            assert b'id="board"' in page.read()
        answer = _post(url + "api/position", {"variant": "dama", "moves": ["11-15"]})
        assert answer["history"] == ["11-15"]
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_serve_refuses_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert "--port 70000 is not a port number" in capsys.readouterr().out


def test_serve_refuses_engine_settings_that_are_not_positive(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["serve", "--engine-seconds", "0"]) == 2
    assert "--engine-seconds 0.0 and --engine-threads 2 must both be positive" in (
        capsys.readouterr().out
    )
    assert main(["serve", "--engine-threads", "0"]) == 2
    assert "--engine-threads 0 must" in capsys.readouterr().out


def test_serve_without_the_web_extra_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_uvicorn(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "uvicorn":
            raise ImportError("No module named 'uvicorn'", name="uvicorn")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_uvicorn)
    out = io.StringIO()
    assert serve(host="127.0.0.1", port=0, open_browser=False, out=out) == 2
    assert "uvicorn is missing: install the web extra" in out.getvalue()
    assert "pip install '.[web]'" in out.getvalue()


def test_the_page_is_answered_while_the_engine_thinks(live_server: str) -> None:
    """The engine runs in a worker thread: a position request made while a
    long search runs is answered before the search ends."""
    order: list[str] = []

    def think() -> None:
        _post(live_server + "/api/engine", {"variant": "canadian", "level": "hard"})
        order.append("engine")

    thinker = threading.Thread(target=think)
    thinker.start()
    try:
        # The server bounds the engine at one second; a position takes milliseconds.
        threading.Event().wait(0.2)
        _post(live_server + "/api/position", {"variant": "english"})
        order.append("position")
    finally:
        thinker.join(timeout=60)
    assert order == ["position", "engine"]
