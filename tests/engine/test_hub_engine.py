"""HubEngine against the fake Hub engine of ``fake_hub_engine.py``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

import draughts
from draughts.engine import (
    EngineError,
    EngineProtocolError,
    EngineTerminatedError,
    HubEngine,
    Limit,
)
from draughts.engine import hub as _hub

FAKE = str(Path(__file__).resolve().parent / "fake_hub_engine.py")


def fake(
    behaviour: str = "normal",
    variant: str = "international",
    log: Path | None = None,
    **kwargs: Any,
) -> HubEngine:
    command = [sys.executable, FAKE, behaviour, variant] + ([str(log)] if log else [])
    return HubEngine.popen(command, **kwargs)


def test_handshake_reads_id_and_params() -> None:
    with fake() as engine:
        assert engine.name == "fake"
        assert engine.id["author"] == "The draughts tests"
        assert engine.params["variant"]["values"] == "normal killer"
        engine.ping()


def test_play_returns_a_legal_move_with_its_analysis() -> None:
    board = draughts.Board()
    with fake() as engine:
        result = engine.play(board, Limit(time=1))
    # The fake plays the first legal move in the library's order, whatever
    # that is; what matters is that it arrives as that same Move.
    first = next(iter(board.legal_moves))
    assert result.move == first
    assert result.move in board.legal_moves
    analysis = result.analysis
    assert analysis is not None
    assert analysis.score == draughts.engine.Score(0.25)
    assert (analysis.depth, analysis.nodes, analysis.time) == (3, 42, 0.01)
    assert analysis.pv[0] == first and len(analysis.pv) == 2
    board.push(first)
    assert result.ponder == analysis.pv[1] and result.ponder in board.legal_moves


def test_analyse_parses_the_principal_variation_as_moves() -> None:
    # The white king on 46 must capture the man on 37 (46-41-37 is the long
    # diagonal) and may land anywhere from 32 to 5: the fake's PV starts with
    # one of those captures, read back as a Move with its captured square.
    board = draughts.Board("W:WK46:B37,3", variant="international")
    with fake() as engine:
        analysis = engine.analyse(board, Limit(depth=4))
    assert analysis.pv[0].captures == (37,)
    assert analysis.pv[0] in board.legal_moves


def test_captures_are_sent_and_read_in_hub_notation() -> None:
    board = draughts.Board("W:W32:B27,17", variant="international")
    # The man on 32 jumps 27 to 21, then 17 to 12: the only legal move.
    (move,) = board.legal_moves
    assert _hub.format_move(move) == "32x12x17x27"
    assert _hub.parse_move("32x12x27x17", list(board.legal_moves)) == move
    assert _hub.parse_move("32x12", list(board.legal_moves)) == move
    assert _hub.parse_move("32-12", list(board.legal_moves)) is None
    assert _hub.parse_move("banana", list(board.legal_moves)) is None


def test_king_moves_are_sent_as_history() -> None:
    # Two quiet king moves can repeat a position, so they go in moves=; the
    # position before them is sent whole: W to move, black king on 1, white
    # king on 50 (on no common diagonal before or after the moves).
    board = draughts.Board("W:WK50:BK1", variant="international")
    board.push_pdn("50-44")
    board.push_pdn("1-7")
    start = "W" + "B" + "e" * 48 + "W"
    assert _hub.position(board) == (start, ["50-44", "1-7"])
    # A man move cannot be undone: history starts after it.
    board = draughts.Board("W:W31:BK5", variant="international")
    board.push_pdn("31-27")
    assert _hub.position(board)[1] == []


def test_what_is_sent(tmp_path: Path) -> None:
    log = tmp_path / "received.txt"
    board = draughts.Board("W:W31:B20", variant="international")
    with fake(log=log, options={"book": "false"}) as engine:
        engine.play(board, Limit(time=1.5, depth=6, nodes=1000))
    # pos: W to move, black man on 20, white man on 31, all else empty.
    position = "W" + "e" * 19 + "b" + "e" * 10 + "w" + "e" * 19
    assert log.read_text().splitlines() == [
        "hub",
        "set-param name=book value=false",
        "init",
        f"pos pos={position}",
        "level move-time=1.5 depth=6 nodes=1000",
        "go think",
        "quit",
    ]


def test_line_syntax() -> None:
    assert _hub.parse_line('info depth=3 pv="32-28 17-22" ponder') == (
        "info",
        {"depth": "3", "pv": "32-28 17-22", "ponder": ""},
    )
    assert _hub.format_line("set-param", name="book", value="a b") == (
        'set-param name=book value="a b"'
    )
    with pytest.raises(ValueError, match="cannot read"):
        _hub.parse_line('info pv="32-28')


def test_crash_during_search_is_reported_with_its_output() -> None:
    with (
        fake("crash") as engine,
        pytest.raises(EngineTerminatedError, match=r"(?s)exit code 3.*simulated crash"),
    ):
        engine.play(draughts.Board(), Limit(depth=2))


def test_engine_dead_at_start() -> None:
    with pytest.raises(EngineTerminatedError, match="evaluation file"):
        fake("dead")


def test_engine_mute_at_start_is_given_up() -> None:
    with pytest.raises(
        EngineError,
        match=r"sent nothing for 0\.5 s while we waited for the "
        r"reply to 'hub'",
    ):
        fake("mute", timeout=0.5)


def test_bad_info_is_refused() -> None:
    with fake("bad-info") as engine, pytest.raises(EngineProtocolError, match="bad info line"):
        engine.analyse(draughts.Board())


def test_missing_program() -> None:
    with pytest.raises(EngineError, match="cannot start engine"):
        HubEngine.popen(["/nonexistent/scan", "hub"])


def test_garbage_move_is_refused() -> None:
    with (
        fake("garbage") as engine,
        pytest.raises(EngineProtocolError, match="'banana', which is not a legal move in W:W31-50"),
    ):
        engine.play(draughts.Board())


def test_illegal_move_is_refused() -> None:
    with fake("illegal") as engine, pytest.raises(EngineProtocolError, match="'1-2'"):
        engine.play(draughts.Board())


def test_silent_engine_times_out_and_is_stopped() -> None:
    # The handshake waits the default ten seconds (at a load of 11 on two
    # cores the fake took more than two to start), the search two.
    engine = fake("silent")
    engine._timeout = 2.0
    with pytest.raises(EngineError, match=r"sent nothing for 2\.1 s"):
        engine.play(draughts.Board(), Limit(time=0.1))
    assert engine._process._popen.poll() is not None
    engine.quit()


def test_quit_ends_the_process_and_can_be_repeated() -> None:
    engine = fake()
    engine.quit()
    assert engine._process._popen.returncode == 0
    engine.quit()
    with pytest.raises(EngineTerminatedError):
        engine.play(draughts.Board())


def test_no_legal_move_is_a_value_error() -> None:
    board = draughts.Board("W:W:B1", variant="international")
    with fake() as engine, pytest.raises(ValueError, match="white has no legal move"):
        engine.play(board)
