"""``python -m draughts dxp``: the built-in engine as DXP follower and as
initiator, played against a DxpEngine over loopback."""

from __future__ import annotations

import io
import re
import socket
import time
from pathlib import Path

import draughts
from draughts import pdn
from draughts._cli.dxp import run_dxp
from draughts._cli.main import _parser
from draughts.engine import DxpEngine, Limit, builtin
from draughts.engine._dxp_wire import GameRequest, format_message, position_of
from tests.engine.fake_dxp_peer import FakePeer, in_thread


def play_out(engine: DxpEngine, board: draughts.Board, ours: draughts.Color) -> draughts.Board:
    local = builtin("medium")
    while board.outcome() is None and len(board.move_stack) < 300:
        mover = local if board.turn == ours else engine
        board.push(mover.play(board, Limit(depth=1)).move)
    engine.end_game(board)
    return board


def test_listen_serves_a_game_and_writes_it(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    record = tmp_path / "games.pdn"
    args = _parser().parse_args(
        [
            *("dxp", "--listen", "0", "--games", "1", "--level", "easy"),
            *("--move-time", "0.05", "--name", "Our Engine", "--pdn", str(record)),
        ]
    )
    finish = in_thread(lambda: run_dxp(args, out, err))
    deadline = time.monotonic() + 10
    while not (found := re.search(r"on 127\.0\.0\.1:(\d+)", out.getvalue())):
        assert time.monotonic() < deadline, out.getvalue()
        time.sleep(0.01)
    with DxpEngine.connect("127.0.0.1", int(found.group(1))) as engine:
        board = play_out(engine, draughts.Board(), draughts.BLACK)
    assert finish() == 0
    assert "draughts built-in (easy) waits for a DXP program" in out.getvalue()
    assert f"Our Engine - draughts  {board.outcome().result()}" in out.getvalue()  # type: ignore[union-attr]
    with record.open() as handle:
        game = pdn.read_game(handle)
    assert game is not None and game.mainline_moves() == board.move_stack
    assert err.getvalue() == ""


def test_listen_keeps_serving_after_a_disconnect_garbage_and_an_illegal_move(
    tmp_path: Path,
) -> None:
    out, err = io.StringIO(), io.StringIO()
    record = tmp_path / "games.pdn"
    args = _parser().parse_args(
        [
            *("dxp", "--listen", "0", "--games", "1", "--level", "easy", "--move-time", "0.05"),
            *("--idle-timeout", "2", "--pdn", str(record)),
        ]
    )
    finish = in_thread(lambda: run_dxp(args, out, err))
    deadline = time.monotonic() + 10
    while not (found := re.search(r"on 127\.0\.0\.1:(\d+)", out.getvalue())):
        assert time.monotonic() < deadline, out.getvalue()
        time.sleep(0.01)
    port = int(found.group(1))
    request = format_message(
        GameRequest("Rude", draughts.WHITE, 1, 0, position_of(draughts.Board()))
    )
    for script in (
        [("send", request), ("expect", "A"), ("expect", "M"), ("close",)],  # gone mid-game
        [("raw", b"\x00\x01\x02 garbage\x00"), ("expect_close",)],
        [("send", request), ("expect", "A"), ("expect", "M"), ("send", "M0000474100"),
         ("expect", "E01"), ("expect_close",)],  # an illegal move
    ):  # fmt: skip
        FakePeer(script, connect_to=port).start().join(timeout=20)
    with DxpEngine.connect("127.0.0.1", port) as engine:
        board = play_out(engine, draughts.Board(), draughts.BLACK)
    assert finish() == 0, err.getvalue()
    reports = err.getvalue().splitlines()
    assert len(reports) == 3, reports
    assert "closed the connection" in reports[0] and "abandoned after 1 ply" in reports[0]
    assert "1 to 127 ASCII characters" in reports[1]
    assert "'M0000474100', which is not a legal move" in reports[2]
    with record.open() as handle:  # only the game played to its end
        game = pdn.read_game(handle)
        assert pdn.read_game(handle) is None
    assert game is not None and game.mainline_moves() == board.move_stack
    assert f"draughts - draughts  {board.outcome().result()}" in out.getvalue()  # type: ignore[union-attr]


def test_connect_plays_our_engine_as_initiator() -> None:
    engine = DxpEngine.listen(0, accept_timeout=10)
    out, err = io.StringIO(), io.StringIO()
    fen = "W:W31,32,33,34,35:B16,17,18,19,20"
    args = _parser().parse_args(
        [
            *("dxp", "--connect", f"127.0.0.1:{engine.port}", "--fen", fen),
            *("--level", "easy", "--move-time", "0.05"),
        ]
    )
    finish = in_thread(lambda: run_dxp(args, out, err))
    board = engine.wait_game()
    assert board.fen() == draughts.Board(fen).fen()
    assert engine.color == draughts.WHITE  # the command, at the other end, plays white
    board = play_out(engine, board, draughts.BLACK)
    engine.quit()
    assert finish() == 0, err.getvalue()
    assert "draughts - draughts" in out.getvalue()


def test_bad_addresses() -> None:
    out, err = io.StringIO(), io.StringIO()
    args = _parser().parse_args(["dxp", "--connect", "localhost"])
    assert run_dxp(args, out, err) == 2
    assert "--connect wants HOST:PORT" in err.getvalue()
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
    err = io.StringIO()
    args = _parser().parse_args(["dxp", "--connect", f"127.0.0.1:{port}"])
    assert run_dxp(args, out, err) == 1
    assert "cannot connect to a DXP program" in err.getvalue()
