"""A scripted DXP program for the tests, run in a thread.

It either listens on a free loopback port (for ``DxpEngine.connect`` and
``initiate``) or connects to one (for ``DxpEngine.listen`` and ``serve``),
then follows its script, one step at a time:

- ``("send", text)``: send ``text`` and the NUL that ends a message;
- ``("raw", data)``: send bytes as they are (garbage, missing NULs);
- ``("expect", prefix)``: read one message, which must start with ``prefix``;
- ``("sleep", seconds)``: stay silent;
- ``("close",)``: close the connection;
- ``("expect_close",)``: read until the other side closes the connection
  (what it sends meanwhile is kept in ``received``).

Every message read is kept in ``received``; a step that fails is raised
again by :meth:`FakePeer.join`.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from draughts.engine import Engine
from draughts.engine.dxp import serve

Step = tuple[Any, ...]


class FakePeer:
    def __init__(self, script: Sequence[Step], *, connect_to: int | None = None) -> None:
        self.script = list(script)
        self.received: list[str] = []
        self.error: BaseException | None = None
        self._connect_to = connect_to
        self._server: socket.socket | None = None
        if connect_to is None:
            self._server = socket.create_server(("127.0.0.1", 0))
            self._server.settimeout(10)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._buffer = b""

    @property
    def port(self) -> int:
        assert self._server is not None
        port: int = self._server.getsockname()[1]
        return port

    def start(self) -> FakePeer:
        self._thread.start()
        return self

    def join(self, timeout: float = 10) -> list[str]:
        self._thread.join(timeout)
        assert not self._thread.is_alive(), f"the fake peer is stuck; it got {self.received}"
        if self.error is not None:
            raise self.error
        return self.received

    def _run(self) -> None:
        sock: socket.socket | None = None
        try:
            if self._server is not None:
                sock, _ = self._server.accept()
            else:
                sock = _connect_when_ready(self._connect_to or 0)
            sock.settimeout(10)
            for step in self.script:
                self._step(sock, step)
        except BaseException as error:  # handed to join()
            self.error = error
        finally:
            if sock is not None:
                sock.close()
            if self._server is not None:
                self._server.close()

    def _step(self, sock: socket.socket, step: Step) -> None:
        action = step[0]
        if action == "send":
            sock.sendall(step[1].encode("ascii") + b"\0")
        elif action == "raw":
            sock.sendall(step[1])
        elif action == "expect":
            message = self._read(sock)
            self.received.append(message)
            assert message.startswith(step[1]), f"expected {step[1]!r}..., got {message!r}"
        elif action == "sleep":
            time.sleep(step[1])
        elif action == "close":
            sock.close()
        elif action == "expect_close":
            while (message := self._next(sock)) is not None:
                self.received.append(message)
        else:
            raise ValueError(f"unknown step {step!r}")

    def _read(self, sock: socket.socket) -> str:
        message = self._next(sock)
        if message is None:
            raise AssertionError(f"connection closed; received so far {self.received}")
        return message

    def _next(self, sock: socket.socket) -> str | None:
        """The next message, or None at the end of the connection."""
        while b"\0" not in self._buffer:
            try:
                chunk = sock.recv(4096)
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                return None
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return message.decode("ascii")


def _connect_when_ready(port: int) -> socket.socket:
    """Connect, retrying while the other side is not yet listening."""
    deadline = time.monotonic() + 10
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=10)
        except ConnectionRefusedError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def in_thread(function: Callable[[], Any]) -> Callable[[], Any]:
    """Run ``function`` in a thread; the returned call joins it and gives
    its result (or raises its exception)."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = function()
        except BaseException as error:
            outcome["error"] = error

    thread = threading.Thread(target=target, daemon=True)
    thread.start()

    def finish(timeout: float = 60) -> Any:
        thread.join(timeout)
        assert not thread.is_alive(), "the thread is stuck"
        if "error" in outcome:
            raise outcome["error"]
        return outcome.get("value")

    return finish


def serve_in_thread(engine: Engine, **options: Any) -> tuple[int, Callable[..., Any]]:
    """Run :func:`draughts.engine.dxp.serve` for ``engine`` on a free port in
    a thread: the port once it listens, and the call that joins the thread
    and gives what ``serve`` returned (see :func:`in_thread`). A server
    that never listens fails the test instead of hanging it."""
    ports: list[int] = []
    finish = in_thread(lambda: serve(engine, 0, on_listening=ports.append, **options))
    deadline = time.monotonic() + 30
    while not ports:
        if time.monotonic() > deadline:
            finish(0)  # raises what serve raised, or says the thread is stuck
            raise AssertionError("serve returned without listening")
        time.sleep(0.01)
    return ports[0], finish
