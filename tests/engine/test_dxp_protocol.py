"""DXP messages: their text, field by field, and every way a message can be
wrong. The examples are Moby Dam's log of a real DXP game."""

from __future__ import annotations

import pytest

import draughts
from draughts.engine._dxp_wire import (
    BackAccept,
    BackRequest,
    Chat,
    GameAccept,
    GameEnd,
    GameRequest,
    MoveMessage,
    board_from_position,
    check_variant,
    find_move,
    format_message,
    move_message,
    parse_message,
    position_of,
)

# Moby Dam's log of its DXP game against Scan 2.0 (MatchMaker initiating).
LOG_REQUEST = (
    "R01MatchMaker                      W001075BWzzzzzzzzzzzzzzzezzzzzeeeeweeeeewwwwwwwwwwwwwwwwwww"
)
LOG_ACCEPT = "AMoby Dam (Nov 29 2026)          0"


def test_the_logged_gamereq_is_read_field_by_field() -> None:
    request = parse_message(LOG_REQUEST)
    assert isinstance(request, GameRequest)
    assert request.name == "MatchMaker"
    assert request.follower_color == draughts.WHITE
    assert (request.minutes, request.moves) == (1, 75)
    assert request.position is not None
    # The position is the game's FEN in the PDN Moby Dam wrote: the ballot
    # 31-26 16-21, white to move.
    board = board_from_position(request.position)
    assert board.fen() == "W:W26,32-50:B1-15,17-21"
    assert format_message(request) == LOG_REQUEST


def test_the_logged_gameacc_and_moves() -> None:
    accept = parse_message(LOG_ACCEPT)
    assert accept == GameAccept("Moby Dam (Nov 29 2026)", 0)
    assert format_message(accept) == LOG_ACCEPT
    assert parse_message("M0001373100") == MoveMessage(1, 37, 31, ())
    assert parse_message("M000027180122") == MoveMessage(0, 27, 18, (22,))
    assert format_message(MoveMessage(0, 27, 18, (22,))) == "M000027180122"


def test_every_message_reads_back_as_written() -> None:
    messages = [
        GameRequest("draughts", draughts.BLACK, 5, 0),
        GameRequest("x", draughts.WHITE, 120, 50, position_of(draughts.Board("B:WK46:BK5,6"))),
        GameAccept("Scan", 2),
        MoveMessage(12, 5, 25, (10, 12, 20, 22)),
        GameEnd(2, 1),
        Chat("What do you think about move 35?"),
        BackRequest(5, draughts.BLACK),
        BackAccept(0),
    ]
    for message in messages:
        text = format_message(message)
        assert parse_message(text) == message, text
    assert format_message(BackRequest(5, draughts.BLACK)) == "B005Z"
    assert format_message(GameEnd(0, 0)) == "E00"
    assert format_message(GameRequest("Tornado", draughts.WHITE, 60, 65)) == (
        "R01Tornado                         W060065A"
    )


def test_positions_use_dxp_letters() -> None:
    board = draughts.Board("W:W50,K46:B1,K5")
    position = position_of(board)
    assert position[0] == "W"
    assert position[1] == "z" and position[5] == "Z"
    assert position[46] == "W" and position[50] == "w"
    assert board_from_position(position).fen() == board.fen()
    assert position_of(draughts.Board("B:W50:B1"))[0] == "Z"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "not a DXP message type"),
        ("Xhello", "'X' is not a DXP message type"),
        ("M00013731", "capture count at column 10"),
        ("M0001373101", "a MOVE with 1 captures message has 13 characters, this one 11"),
        ("M00a1373100", "the time at column 2 must be 4 digits"),
        ("M0001003100", "the from square at column 6 must be 01 to 50, not 00"),
        ("M0001375100", "the to square at column 8 must be 01 to 50, not 51"),
        ("AMoby Dam0", "a GAMEACC message has 34 characters, this one 10"),
        ("E0", "a GAMEEND message has 3 characters, this one 2"),
        ("E0x", "the stop code at column 3 must be 1 digits"),
        ("B005X", "the colour at column 5 must be W or Z"),
        ("K", "a BACKACC message has 2 characters"),
        ("R02" + LOG_REQUEST[3:], "protocol version '02'"),
        (LOG_REQUEST[:35] + "B" + LOG_REQUEST[36:], "the follower's colour at column 36"),
        (LOG_REQUEST[:42] + "C" + LOG_REQUEST[43:], "the start indicator at column 43"),
        (LOG_REQUEST[:-1], "a GAMEREQ with a position message has 94 characters, this one 93"),
        (LOG_REQUEST[:44] + "q" + LOG_REQUEST[45:], "square 1 holds 'q'"),
    ],
)
def test_bad_messages_name_the_field(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=None) as caught:
        parse_message(text)
    assert words in str(caught.value)


def test_values_that_do_not_fit_are_refused() -> None:
    with pytest.raises(ValueError, match="minutes must be 0 to 999"):
        format_message(GameRequest("x", draughts.WHITE, 1000, 0))
    with pytest.raises(ValueError, match="1 to 127 ASCII"):
        format_message(Chat("é"))
    with pytest.raises(ValueError, match="1 to 127 ASCII"):
        format_message(Chat("x" * 127))
    # Seconds beyond 9999 are capped, as the field cannot say more.
    assert format_message(MoveMessage(12345, 32, 28)) == "M9999322800"


def test_moves_are_found_by_their_ends_and_captures() -> None:
    # The white king on 46 takes 37 and may land on 32, 28, 23, 19 or 14.
    board = draughts.Board("W:WK46:B37,3")
    message = MoveMessage(0, 46, 23, (37,))
    move = find_move(board, message)
    assert move is not None and move.to_square == 23 and move.captures == (37,)
    assert move_message(move, 2.7) == MoveMessage(2, 46, 23, (37,))
    assert find_move(board, MoveMessage(0, 46, 23, ())) is None
    assert find_move(board, MoveMessage(0, 46, 41, ())) is None


def test_only_ten_by_ten_variants_travel() -> None:
    check_variant(draughts.variant.INTERNATIONAL, "the board")
    with pytest.raises(ValueError, match="english, played on 8x8"):
        check_variant(draughts.variant.ENGLISH, "the board")
    with pytest.raises(ValueError, match="english"):
        position_of(draughts.Board(variant="english"))
