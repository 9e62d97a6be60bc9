"""DxpEngine in both roles, and our engine serving DXP, against the scripted
peer of ``fake_dxp_peer.py`` over loopback; then whole games between two
of our engines through DXP."""

from __future__ import annotations

import socket
import time

import pytest

import draughts
from draughts import pdn
from draughts.engine import (
    DxpEngine,
    DxpGameEnded,
    EngineError,
    EngineProtocolError,
    EngineTerminatedError,
    Limit,
    builtin,
)
from draughts.engine._dxp_wire import (
    GameRequest,
    format_message,
    move_message,
    parse_message,
    position_of,
)
from draughts.engine.dxp import initiate
from draughts.engine.matches import play_game
from tests.engine.fake_dxp_peer import FakePeer, in_thread, serve_in_thread

NAME = "Fake Peer"
ACCEPT = "A" + NAME.ljust(32) + "0"


def request_for(board: draughts.Board, follower: draughts.Color, name: str = NAME) -> str:
    return format_message(GameRequest(name, follower, 1, 75, position_of(board)))


# -- We initiate: DxpEngine.connect -------------------------------------------------


def test_connect_sends_gamereq_and_plays_through_every_message() -> None:
    peer = FakePeer(
        [
            ("expect", "R01"),
            ("send", ACCEPT),
            ("send", "Cgood luck"),
            ("send", "M0003322800"),  # 32-28, the peer plays white
            ("expect", "M"),  # our reply
            ("send", "B001W"),  # a takeback request: declined
            ("expect", "K1"),
            ("send", "M0001282200"),  # 28-22, not legal: 28 must take 23
        ]
    ).start()
    board = draughts.Board()
    engine = DxpEngine.connect("127.0.0.1", peer.port, name="Tester", minutes=3, moves=40)
    first = engine.play(board, Limit(time=1))
    assert first.move == board.parse_pdn("32-28")
    assert engine.name == NAME and engine.color == draughts.WHITE
    assert first.analysis is not None and first.analysis.time == 3.0
    board.push(first.move)
    board.push_pdn("19-23")
    with pytest.raises(EngineProtocolError, match=r"M0001282200.*not a legal move"):
        engine.play(board)
    received = peer.join()
    request = parse_message(received[0])
    assert request == GameRequest("Tester", draughts.WHITE, 3, 40, position_of(draughts.Board()))
    assert parse_message(received[1]) == parse_message("M0000192300")
    assert engine.chats == ["good luck"]
    # After a protocol error the connection is closed, and says why.
    with pytest.raises(EngineTerminatedError, match="closed after an error"):
        engine.play(board)
    engine.quit()


def test_a_new_board_ends_the_game_and_asks_for_another() -> None:
    after = draughts.Board()
    after.push_pdn("32-28")
    peer = FakePeer(
        [
            ("expect", "R01"),
            ("send", ACCEPT),
            ("send", "M0000322800"),
            ("expect", "E"),  # the next board is another game
            ("send", "E00"),
            ("expect", "R01"),
            ("send", ACCEPT),
            ("send", "M0000192300"),
            ("expect", "E"),
            ("send", "E01"),
        ]
    ).start()
    with DxpEngine.connect("127.0.0.1", peer.port) as engine:
        assert engine.play(draughts.Board()).move == draughts.Board().parse_pdn("32-28")
        assert engine.play(after).move.from_square == 19
        assert engine.color == draughts.BLACK
    received = peer.join()
    assert parse_message(received[1]).reason == 0  # type: ignore[union-attr]
    second = parse_message(received[2])
    assert isinstance(second, GameRequest) and second.follower_color == draughts.BLACK
    assert second.position == position_of(after)


def test_end_game_sends_the_last_move_and_answers_the_peers_gameend() -> None:
    # White takes the last black man: black (the peer) cannot move and ends.
    board = draughts.Board("B:W32:B23")
    peer = FakePeer(
        [
            ("expect", "R01"),
            ("send", ACCEPT),
            ("send", "M0000232800"),  # 23-28
            ("expect", "M"),  # our 32x23
            ("send", "E10"),  # the peer gives up
            ("expect", "E0"),
        ]
    ).start()
    engine = DxpEngine.connect("127.0.0.1", peer.port)
    board.push(engine.play(board).move)
    board.push_pdn("32x23")
    assert board.outcome() is not None
    engine.end_game(board)
    assert engine.color is None
    received = peer.join()
    assert parse_message(received[1]) == parse_message("M000032230128")  # 32x23 takes 28
    engine.quit()


@pytest.mark.parametrize(
    ("reply", "error", "words"),
    [
        ("A" + NAME.ljust(32) + "2", EngineError, "refused the game .* code 2 .cannot or will not"),
        ("Xgarbage", EngineProtocolError, "sent 'Xgarbage' while we waited for the GAMEACC"),
        ("A" + NAME + "0", EngineProtocolError, "GAMEACC message has 34 characters"),
        ("M0000322800", EngineProtocolError, "sent 'M0000322800' while we waited for the GAMEACC"),
    ],
)
def test_bad_answers_to_gamereq(reply: str, error: type[Exception], words: str) -> None:
    peer = FakePeer([("expect", "R01"), ("send", reply), ("sleep", 0.2)]).start()
    engine = DxpEngine.connect("127.0.0.1", peer.port, timeout=5)
    with pytest.raises(error, match=words):
        engine.play(draughts.Board())
    peer.join()
    engine.quit()


@pytest.mark.parametrize(
    ("steps", "error", "words"),
    [
        ([("close",)], EngineTerminatedError, "closed the connection while we waited for the move"),
        ([("raw", b"M" * 200)], EngineProtocolError, "without the NUL"),
        ([("send", "M000032")], EngineProtocolError, "capture count at column 10"),
        ([("send", "M0000474100")], EngineProtocolError, "'M0000474100', which is not a legal"),
        ([("send", "R01" + " " * 40)], EngineProtocolError, "sent 'R01"),
        ([("raw", b"M00\xff0322800\0")], EngineProtocolError, "1 to 127 ASCII"),
        ([("sleep", 1.5)], EngineError, "sent nothing for 0.6 s"),
    ],
)
def test_a_misbehaving_peer_gets_a_clear_error(
    steps: list[tuple[object, ...]], error: type[Exception], words: str
) -> None:
    peer = FakePeer([("expect", "R01"), ("send", ACCEPT), *steps]).start()
    engine = DxpEngine.connect("127.0.0.1", peer.port, timeout=0.5)
    began = time.monotonic()
    with pytest.raises(error, match=words):
        engine.play(draughts.Board(), Limit(time=0.1))
    assert time.monotonic() - began < 5
    engine.quit()
    peer.join()


def test_gameend_instead_of_a_move_is_answered_and_raised() -> None:
    peer = FakePeer(
        [("expect", "R01"), ("send", ACCEPT), ("send", "E20"), ("expect", "E0")]
    ).start()
    engine = DxpEngine.connect("127.0.0.1", peer.port)
    board = draughts.Board()
    with pytest.raises(DxpGameEnded, match="claims a draw") as caught:
        engine.play(board)
    assert caught.value.reason == 2
    assert caught.value.outcome(board, draughts.WHITE) == board.outcome_by_agreement()
    peer.join()
    engine.quit()


def test_connecting_to_nobody_fails_clearly() -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
    # The port is closed again: nobody listens there.
    with pytest.raises(EngineError, match=f"cannot connect to a DXP program at 127.0.0.1:{port}"):
        DxpEngine.connect("127.0.0.1", port, timeout=1)


def test_dxp_refuses_other_variants_and_analysis() -> None:
    peer = FakePeer([("sleep", 0.1)]).start()  # between games quit() sends nothing
    engine = DxpEngine.connect("127.0.0.1", peer.port)
    with pytest.raises(ValueError, match=r"DXP carries 10x10 positions.*english"):
        engine.play(draughts.Board(variant="english"))
    with pytest.raises(EngineError, match="no analysis"):
        engine.analyse(draughts.Board())
    engine.quit()
    engine.quit()  # twice is harmless
    peer.join()


# -- We follow: DxpEngine.listen ----------------------------------------------------


def test_listen_accepts_the_peers_game_and_plays_it() -> None:
    start = draughts.Board()
    start.push_pdn("31-26")
    start.push_pdn("16-21")
    engine = DxpEngine.listen(0, name="Listener", accept_timeout=5)
    peer = FakePeer(
        [
            ("send", request_for(start, draughts.BLACK)),  # we play black
            ("expect", "AListener"),
            ("send", "M0001373100"),  # 37-31, as in Moby Dam's log
            ("expect", "M"),
            ("send", "B001W"),
            ("expect", "K1"),
            ("send", "E10"),
            ("expect", "E0"),
        ],
        connect_to=engine.port,
    ).start()
    board = engine.wait_game()
    assert board.fen() == "W:W26,32-50:B1-15,17-21"
    assert engine.color == draughts.WHITE and engine.name == NAME
    result = engine.play(board)
    assert board.pdn(result.move) == "37-31"
    board.push(result.move)
    board.push_pdn("11-16")
    with pytest.raises(DxpGameEnded, match="gives up"):
        engine.play(board)
    received = peer.join()
    assert received[0] == "AListener" + " " * 24 + "0"
    assert received[1][5:] == "111600"  # the 11-16 we played (its seconds vary)
    engine.quit()


def test_listen_refuses_a_board_that_is_not_the_peers_game() -> None:
    engine = DxpEngine.listen(0, accept_timeout=5)
    peer = FakePeer(
        [("send", request_for(draughts.Board(), draughts.WHITE)), ("expect", "A")],
        connect_to=engine.port,
    ).start()
    other = draughts.Board("W:W31:B20")
    with pytest.raises(EngineError, match=r"asked for the game from .* does not continue"):
        engine.play(other)
    peer.join()
    engine.quit()


def test_listen_gives_up_when_nobody_comes() -> None:
    engine = DxpEngine.listen(0, accept_timeout=0.3)
    with pytest.raises(EngineError, match=r"no DXP program connected .* within 0\.3 s"):
        engine.wait_game()
    engine.quit()


def test_listen_reports_a_bad_gamereq() -> None:
    engine = DxpEngine.listen(0, accept_timeout=5)
    bad = request_for(draughts.Board(), draughts.WHITE)[:-1] + "x"
    peer = FakePeer([("send", bad)], connect_to=engine.port).start()
    with pytest.raises(EngineProtocolError, match="square 50 holds 'x'"):
        engine.wait_game()
    peer.join()
    engine.quit()


# -- Our engine serves DXP -----------------------------------------------------------


def test_serve_plays_takes_back_and_records_the_game() -> None:
    start = draughts.Board()
    port, games = serve_in_thread(
        builtin("medium"), name="Server", limit=Limit(depth=2), games=1, idle_timeout=5
    )
    peer = FakePeer(
        [
            ("send", request_for(start, draughts.WHITE)),  # our engine plays white
            ("expect", "AServer"),
            ("expect", "M"),
            ("send", "B001W"),  # back to white's first move: accepted
            ("expect", "K0"),
            ("expect", "M"),  # the engine plays it again
            ("send", "Chello"),
            ("send", "E10"),  # black gives up
            ("expect", "E0"),
            ("close",),
        ],
        connect_to=port,
    ).start()
    received = peer.join()
    (game,) = games()
    # The same move twice (medium is deterministic), the one the record keeps.
    assert received[1][5:] == received[3][5:]
    (move,) = game.mainline_moves()
    assert move in start.legal_moves
    assert received[1][5:] == format_message(move_message(move, 0))[5:]
    assert game.headers["White"] == "Server" and game.headers["Black"] == NAME
    assert (game.headers["Result"], game.headers["Termination"]) == ("2-0", "resignation")


def _real_game(port: int) -> draughts.Board:
    """A whole game from the start against the follower on ``port``, which
    plays black, through DxpEngine; the final board. (The follower's game
    starts where our GAMEREQ was sent: after white's first move.)"""
    local = builtin("medium")
    with DxpEngine.connect("127.0.0.1", port, minutes=5) as remote:
        board = draughts.Board()
        while board.outcome() is None and len(board.move_stack) < 300:
            mover = local if board.turn == draughts.WHITE else remote
            board.push(mover.play(board, Limit(depth=1)).move)
        remote.end_game(board)
    return board


def test_an_illegal_move_ends_the_game_and_the_connection_not_the_service() -> None:
    errors: list[str] = []
    port, games = serve_in_thread(
        builtin("easy"), limit=Limit(depth=1), games=1, on_error=errors.append
    )
    FakePeer(
        [
            ("send", request_for(draughts.Board(), draughts.BLACK)),
            ("expect", "A"),
            ("send", "M0000474100"),
            ("expect", "E01"),  # no further game: the illegal move ended it
            ("expect_close",),
        ],
        connect_to=port,
    ).start().join()
    board = _real_game(port)
    (game,) = games()
    assert game.mainline_moves() == board.move_stack[1:]
    (error,) = errors
    assert "'M0000474100', which is not a legal move" in error
    assert "the game from W:W31-50:B1-20 is abandoned after 0 plies" in error


def test_the_follower_survives_a_disconnect_garbage_and_a_stall() -> None:
    # One program after another: each misbehaves and loses its connection,
    # the last plays a real game.
    errors: list[str] = []
    port, games = serve_in_thread(
        builtin("easy"), limit=Limit(depth=1), games=1, idle_timeout=1, on_error=errors.append
    )
    start = draughts.Board()
    scripts: list[list[tuple[object, ...]]] = [
        # Gone in the middle of a game: after our first move (we play white).
        [("send", request_for(start, draughts.WHITE)), ("expect", "A"), ("expect", "M"),
         ("send", "M0001192400"), ("expect", "M"), ("close",)],
        # Garbage instead of a GAMEREQ, then as a move.
        [("raw", b"\xff\xfe garbage\0"), ("expect_close",)],
        [("send", request_for(start, draughts.WHITE)), ("expect", "A"), ("expect", "M"),
         ("send", "Qwhat"), ("expect_close",)],
        # Half a message, then silence: dropped after the idle timeout.
        [("raw", b"R01Half a"), ("expect_close",)],
        # Connected, and nothing at all.
        [("expect_close",)],
    ]  # fmt: skip
    for script in scripts:
        FakePeer(script, connect_to=port).start().join(timeout=20)
    board = _real_game(port)
    (game,) = games()
    assert game.mainline_moves() == board.move_stack[1:]
    assert game.headers["Result"] == board.outcome().result()  # type: ignore[union-attr]
    assert len(errors) == 5, errors
    assert "closed the connection" in errors[0] and "abandoned after 3 plies" in errors[0]
    assert "a DXP message is 1 to 127 ASCII characters" in errors[1]
    assert "sent 'Qwhat'" in errors[2] and "abandoned after 1 ply" in errors[2]
    assert "sent nothing for 1 s while we waited for a GAMEREQ" in errors[3]
    assert "sent nothing for 1 s" in errors[4]


# -- Whole games between our engines through DXP --------------------------------------


def replay(game: pdn.Game) -> draughts.Board:
    board = game.board()
    for move in game.mainline_moves():
        assert move in board.legal_moves
        board.push(move)
    return board


def test_a_whole_game_over_loopback_agrees_with_the_board() -> None:
    port, served = serve_in_thread(
        builtin("easy", seed=4), limit=Limit(depth=2), games=1, idle_timeout=10
    )
    opening = draughts.Board()
    opening.push_pdn("32-28")  # black, the DXP side, moves first
    with DxpEngine.connect("127.0.0.1", port, minutes=5) as remote:
        board, termination, _reason, outcome = play_game(
            builtin("medium"), remote, opening, limit=Limit(depth=2), max_plies=400
        )
        remote.end_game(board, outcome)
    (game,) = served()
    # The server saw the same game from the position after 32-28.
    assert game.mainline_moves() == board.move_stack[1:]
    assert replay(game).fen() == board.fen()
    assert outcome is not None and outcome == board.outcome()
    assert game.headers["Result"] == outcome.result()
    assert game.headers["Termination"] == termination


def test_initiate_plays_each_board_against_a_listening_engine() -> None:
    engine = DxpEngine.listen(0, accept_timeout=10)
    local = builtin("medium")
    opening = draughts.Board()
    opening.push_pdn("34-30")
    opening.push_pdn("20-25")
    records = in_thread(
        lambda: initiate(
            builtin("easy", seed=1),
            "127.0.0.1",
            engine.port,
            boards=[opening],
            colors=[draughts.BLACK],
            limit=Limit(depth=1),
        )
    )
    board = engine.wait_game()
    assert board.fen() == opening.fen() and engine.color == draughts.BLACK
    while board.outcome() is None and len(board.move_stack) < 300:
        mover = engine if board.turn == draughts.BLACK else local
        board.push(mover.play(board, Limit(depth=2)).move)
    engine.end_game(board)
    engine.quit()
    (game,) = records()
    assert game.mainline_moves() == board.move_stack
    assert game.headers["Black"] == "draughts"
    assert replay(game).fen() == board.fen()


@pytest.mark.parametrize(
    ("steps", "error", "words"),
    [
        ([("close",)], EngineTerminatedError, "closed the connection while we waited for the move"),
        ([("send", "Qwhat")], EngineProtocolError, "sent 'Qwhat' while we waited for the move"),
        ([("send", "M00003228")], EngineProtocolError, "capture count at column 10"),
        ([("send", "M0000313600")], EngineProtocolError, "'M0000313600', which is not a legal"),
        ([("sleep", 1.5)], EngineError, "sent nothing for 0.6 s"),
    ],
)
def test_a_misbehaving_initiator_gets_a_clear_error(
    steps: list[tuple[object, ...]], error: type[Exception], words: str
) -> None:
    engine = DxpEngine.listen(0, timeout=0.5, accept_timeout=5)
    peer = FakePeer(
        [("send", request_for(draughts.Board(), draughts.BLACK)), ("expect", "A"), *steps],
        connect_to=engine.port,
    ).start()
    began = time.monotonic()
    with pytest.raises(error, match=words):
        engine.play(engine.wait_game(), Limit(time=0.1))
    assert time.monotonic() - began < 5
    engine.quit()
    peer.join()


def test_serve_refuses_a_finished_position_and_plays_the_next_request() -> None:
    # After the peer leaves, serve waits a second for another.
    port, games = serve_in_thread(builtin("easy"), limit=Limit(depth=1), accept_timeout=1)
    over = draughts.Board("W:W:B20")  # white to move has no piece left
    peer = FakePeer(
        [
            ("send", request_for(over, draughts.WHITE)),
            ("expect", "A"),
            ("send", request_for(draughts.Board("B:W40:B10"), draughts.BLACK)),
            ("expect", "A"),
            ("expect", "M"),
            ("send", "E30"),  # the peer claims a win: no result, the game stops
            ("expect", "E0"),
            ("close",),
        ],
        connect_to=port,
    ).start()
    received = peer.join()
    assert received[0].endswith("2") and received[1].endswith("0")
    (game,) = games()
    assert game.headers["Result"] == "*" and "claims a win" in game.end().comment


def test_serve_answers_the_logged_matchmaker_request() -> None:
    # MatchMaker's GAMEREQ from Moby Dam's log: we follow, as white, from
    # the ballot 31-26 16-21, with 1 minute for 75 moves.
    logged = (
        "R01MatchMaker                      W001075B"
        "Wzzzzzzzzzzzzzzzezzzzzeeeeweeeeewwwwwwwwwwwwwwwwwww"
    )
    port, games = serve_in_thread(
        builtin("medium"),
        name="Moby Dam (Nov 29 2026)",
        games=1,
        limit=Limit(depth=2),
        idle_timeout=5,
    )
    peer = FakePeer(
        [("send", logged), ("expect", "A"), ("expect", "M"), ("send", "E20"), ("expect", "E0")],
        connect_to=port,
    ).start()
    accept, move, _ = peer.join()
    assert accept == "AMoby Dam (Nov 29 2026)          0"  # as in the log
    (game,) = games()
    assert game.headers["FEN"] == "W:W26,32-50:B1-15,17-21"
    assert game.headers["Black"] == "MatchMaker"
    assert move[5:] == format_message(move_message(game.mainline_moves()[0], 0))[5:]
    assert (game.headers["Result"], game.headers["Termination"]) == ("1-1", "agreement")
