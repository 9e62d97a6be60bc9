"""``python -m draughts serve``: the web board on a local server.

The server needs the ``web`` extra (Starlette and uvicorn); without it the
command says how to install it instead of failing on an import.
"""

from __future__ import annotations

import argparse
import socket
import sys
import threading
import time
import webbrowser
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    import uvicorn


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``serve`` subcommand."""
    serve = commands.add_parser("serve", help="play in the web browser (needs the web extra)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (0: any free)")
    serve.add_argument("--open", action="store_true", help="open the page in the web browser")
    serve.add_argument(
        "--engine-seconds",
        type=float,
        default=1.0,
        metavar="S",
        help="the most time the engine may think per request (default 1)",
    )
    serve.add_argument(
        "--engine-threads",
        type=int,
        default=2,
        metavar="N",
        help="engine searches at once; more requests are answered 503 (default 2)",
    )
    serve.add_argument(
        "--db",
        metavar="FILE",
        help="an index made by draughts index --positions: the opening explorer shows its games",
    )
    serve.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The ``serve`` subcommand: serve until interrupted."""
    return serve(
        host=args.host,
        port=args.port,
        open_browser=args.open,
        out=sys.stdout,
        engine_seconds=args.engine_seconds,
        engine_threads=args.engine_threads,
        db=args.db,
    )


def serve(
    *,
    host: str,
    port: int,
    open_browser: bool,
    out: TextIO,
    engine_seconds: float = 1.0,
    engine_threads: int = 2,
    db: str | None = None,
) -> int:
    """Serve the web board; returns the exit code (2 without the extra, for
    a port out of range, an engine setting that is not positive or a
    ``db`` that is not an index of games with positions)."""
    if not 0 <= port <= 65535:
        print(f"draughts serve: --port {port} is not a port number (0 to 65535)", file=out)
        return 2
    if not engine_seconds > 0 or engine_threads < 1:
        print(
            f"draughts serve: --engine-seconds {engine_seconds} and --engine-threads "
            f"{engine_threads} must both be positive",
            file=out,
        )
        return 2
    try:
        import uvicorn

        from draughts.web import create_app
    except ImportError as error:
        print(
            f"draughts serve: {error.name or 'a web package'} is missing: "
            "install the web extra (in a clone: pip install '.[web]'; "
            "or pip install starlette uvicorn)",
            file=out,
        )
        return 2
    try:
        app = create_app(engine_seconds=engine_seconds, engine_threads=engine_threads, db=db)
    except ValueError as error:
        print(f"draughts serve: --db: {error}", file=out)
        return 2
    problem = _cannot_listen(host, port)
    if problem:
        print(f"draughts serve: cannot listen on {host}:{port}: {problem}", file=out)
        return 2
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level="warning",
        )
    )
    announcer = threading.Thread(
        target=_announce, args=(server, open_browser, out), name="announce", daemon=True
    )
    announcer.start()
    server.run()
    return 0


def _cannot_listen(host: str, port: int) -> str | None:
    """Why a server cannot listen on ``host:port`` (an unknown host, a port
    taken), or None: tried here, where it is one message, rather than in
    uvicorn, which logs the error and exits with its own status, 3."""
    try:
        family, *_ = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.create_server((host, port), family=family):
            return None
    except OSError as error:
        return error.strerror or str(error)


def _announce(server: uvicorn.Server, open_browser: bool, out: TextIO) -> None:
    """Print the address once the server listens (with ``--port 0`` only
    the bound socket knows it) and open the browser if asked."""
    while not server.started:
        if server.should_exit:
            return
        time.sleep(0.05)
    host, port = server.servers[0].sockets[0].getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    print(f"draughts serve: the board is at {url} (Ctrl+C stops the server)", file=out, flush=True)
    if open_browser:
        webbrowser.open(url)
