"""The DamExchange protocol on the wire: its seven messages, their text, and
a socket that carries them.

The formats are those of the DamExchange pages (Harm Mesander,
http://www.mesander.nl/damexchange/, "Layer 2 protocol description" and the
page of each message; "SOCKET protocol" for the framing). Every message is
1 to 127 ASCII characters, its first character its type, sent over TCP
followed by a NUL character. Fields have fixed widths, numbers are written
with leading zeros:

============ ==== ===============================================================
message      type fields (widths)
============ ==== ===============================================================
GAMEREQ      R    version ``01`` (2), initiator name (32, blank padded),
                  follower's colour ``W``/``Z`` (1), minutes per player (3),
                  moves in that time (3, ``000`` for no limit), ``A`` (the
                  standard start) or ``B`` followed by the side to move (1)
                  and one letter per square 1-50 (50)
GAMEACC      A    follower name (32), acceptance code (1)
MOVE         M    seconds used (4), from (2), to (2), pieces captured (2),
                  each captured square (2 each, in any order)
GAMEEND      E    reason (1), stop code (1)
CHAT         C    free text (1-126)
BACKREQ      B    move number (3), side to move then (1)
BACKACC      K    acceptance code (1)
============ ==== ===============================================================

Colours are ``W`` (white) and ``Z`` (*zwart*, black). Square letters are
``e`` empty, ``w``/``z`` white and black men, ``W``/``Z`` white and black
kings. The squares are those of international draughts, numbered 1-50.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import time

import attrs

from draughts.board import Board
from draughts.engine.base import EngineError, EngineProtocolError, EngineTerminatedError
from draughts.move import Move
from draughts.outcome import Outcome
from draughts.piece import BLACK, KING, MAN, WHITE, Color, Piece
from draughts.variant import INTERNATIONAL, Variant

__all__ = [
    "DEFAULT_PORT",
    "BackAccept",
    "BackRequest",
    "Channel",
    "Chat",
    "DxpGameEnded",
    "GameAccept",
    "GameEnd",
    "GameRequest",
    "Message",
    "MoveMessage",
    "board_from_position",
    "check_variant",
    "end_reason",
    "find_move",
    "format_message",
    "move_message",
    "parse_message",
    "position_of",
]

DEFAULT_PORT = 27531
"""The TCP port of the DamExchange SOCKET protocol."""

MAX_LENGTH = 127
NAME_WIDTH = 32
SQUARES = 50

_logger = logging.getLogger("draughts.engine.dxp")

_COLOR_LETTERS = {WHITE: "W", BLACK: "Z"}
_LETTER_COLORS = {"W": WHITE, "Z": BLACK}
_PIECE_LETTERS = {
    Piece(MAN, WHITE): "w",
    Piece(MAN, BLACK): "z",
    Piece(KING, WHITE): "W",
    Piece(KING, BLACK): "Z",
}
_LETTER_PIECES = {letter: piece for piece, letter in _PIECE_LETTERS.items()}

ACCEPT_CODES = {
    0: "accepts the game",
    1: "does not speak this protocol version",
    2: "cannot or will not play this game, but would play another",
    3: "does not want to play at all",
}
END_REASONS = {
    0: "without giving a reason",
    1: "it gives up",
    2: "it claims a draw",
    3: "it claims a win",
}
BACK_CODES = {0: "accepted", 1: "not supported", 2: "declined"}


@attrs.frozen
class GameRequest:
    """GAMEREQ: the initiator asks for a game.

    ``position`` is None for the standard start (white to move), else the
    side to move and the 50 square letters.

    >>> format_message(GameRequest("Me", BLACK, 5, 75))
    'R01Me                              Z005075A'
    """

    name: str
    follower_color: Color
    minutes: int
    moves: int
    position: str | None = None


@attrs.frozen
class GameAccept:
    """GAMEACC: the follower's answer to a GAMEREQ (code 0 accepts).

    >>> format_message(GameAccept("Moby Dam", 0))
    'AMoby Dam                        0'
    """

    name: str
    code: int


@attrs.frozen
class MoveMessage:
    """MOVE: a move and the seconds it took.

    >>> format_message(MoveMessage(0, 27, 18, (22,)))
    'M000027180122'
    """

    seconds: int
    from_square: int
    to_square: int
    captures: tuple[int, ...] = ()


@attrs.frozen
class GameEnd:
    """GAMEEND: end the game (``reason`` 0 none, 1 I give up, 2 draw, 3 I
    win; ``stop`` 1 means no further game).

    >>> format_message(GameEnd(1, 0))
    'E10'
    """

    reason: int
    stop: int = 0


@attrs.frozen
class Chat:
    """CHAT: free text.

    >>> format_message(Chat("good luck"))
    'Cgood luck'
    """

    text: str


@attrs.frozen
class BackRequest:
    """BACKREQ: take moves back to move ``move_number`` with ``color`` to move.

    >>> format_message(BackRequest(5, BLACK))
    'B005Z'
    """

    move_number: int
    color: Color


@attrs.frozen
class BackAccept:
    """BACKACC: the answer to a BACKREQ (code 0 accepts).

    >>> format_message(BackAccept(1))
    'K1'
    """

    code: int


Message = GameRequest | GameAccept | MoveMessage | GameEnd | Chat | BackRequest | BackAccept


def _digits(value: int, width: int, what: str) -> str:
    text = str(value)
    if value < 0 or len(text) > width:
        raise ValueError(f"DXP {what} must be 0 to {10**width - 1}, not {value}")
    return text.zfill(width)


def _name(name: str) -> str:
    name = name.strip()[:NAME_WIDTH] or "draughts"
    return name.ljust(NAME_WIDTH)


def format_message(message: Message) -> str:
    """The text of ``message`` (without the NUL that ends it on the wire).

    :raises ValueError: for a value the fixed-width fields cannot carry.
    """
    match message:
        case GameRequest(name, color, minutes, moves, position):
            start = "A" if position is None else "B" + position
            text = (
                f"R01{_name(name)}{_COLOR_LETTERS[color]}"
                f"{_digits(minutes, 3, 'minutes')}{_digits(moves, 3, 'move count')}{start}"
            )
        case GameAccept(name, code):
            text = f"A{_name(name)}{_digits(code, 1, 'acceptance code')}"
        case MoveMessage(seconds, origin, target, captures):
            squares = "".join(_digits(s, 2, "square") for s in (origin, target))
            text = (
                f"M{_digits(min(seconds, 9999), 4, 'time')}{squares}"
                f"{_digits(len(captures), 2, 'capture count')}"
                + "".join(_digits(s, 2, "square") for s in captures)
            )
        case GameEnd(reason, stop):
            text = f"E{_digits(reason, 1, 'reason')}{_digits(stop, 1, 'stop code')}"
        case Chat(chat):
            text = "C" + chat
        case BackRequest(number, color):
            text = f"B{_digits(number, 3, 'move number')}{_COLOR_LETTERS[color]}"
        case BackAccept(code):
            text = f"K{_digits(code, 1, 'acceptance code')}"
        case _:
            raise TypeError(f"not a DXP message: {message!r}")
    if len(text) > MAX_LENGTH or not all(0 < ord(c) < 128 for c in text):
        raise ValueError(f"a DXP message is 1 to 127 ASCII characters without NUL: {text!r}")
    return text


def _number(text: str, start: int, width: int, what: str) -> int:
    field = text[start : start + width]
    if len(field) != width or not field.isdigit() or not field.isascii():
        raise ValueError(f"{what} at column {start + 1} must be {width} digits, not {field!r}")
    return int(field)


def _color(text: str, at: int, what: str) -> Color:
    letter = text[at : at + 1]
    if letter not in _LETTER_COLORS:
        raise ValueError(f"{what} at column {at + 1} must be W or Z, not {letter!r}")
    return _LETTER_COLORS[letter]


def _square(text: str, start: int, what: str) -> int:
    square = _number(text, start, 2, what)
    if not 1 <= square <= SQUARES:
        raise ValueError(f"{what} at column {start + 1} must be 01 to 50, not {square:02}")
    return square


def _expect_length(text: str, length: int, what: str) -> None:
    if len(text) != length:
        raise ValueError(f"a {what} message has {length} characters, this one {len(text)}")


def parse_message(text: str) -> Message:
    """Read one message (its text, without the NUL).

    >>> parse_message("M0001373100")
    MoveMessage(seconds=1, from_square=37, to_square=31, captures=())

    :raises ValueError: naming the field that is wrong.
    """
    kind = text[:1]
    if kind == "R":
        return _parse_request(text)
    if kind == "A":
        _expect_length(text, 1 + NAME_WIDTH + 1, "GAMEACC")
        return GameAccept(text[1:33].rstrip(), _number(text, 33, 1, "the acceptance code"))
    if kind == "M":
        count = _number(text, 9, 2, "the capture count")
        _expect_length(text, 11 + 2 * count, f"MOVE with {count} captures")
        captures = tuple(_square(text, 11 + 2 * i, "a captured square") for i in range(count))
        return MoveMessage(
            _number(text, 1, 4, "the time"),
            _square(text, 5, "the from square"),
            _square(text, 7, "the to square"),
            captures,
        )
    if kind == "E":
        _expect_length(text, 3, "GAMEEND")
        return GameEnd(_number(text, 1, 1, "the reason"), _number(text, 2, 1, "the stop code"))
    if kind == "C":
        return Chat(text[1:])
    if kind == "B":
        _expect_length(text, 5, "BACKREQ")
        return BackRequest(_number(text, 1, 3, "the move number"), _color(text, 4, "the colour"))
    if kind == "K":
        _expect_length(text, 2, "BACKACC")
        return BackAccept(_number(text, 1, 1, "the acceptance code"))
    raise ValueError(f"{kind!r} is not a DXP message type (R, A, M, E, C, B or K)")


def _parse_request(text: str) -> GameRequest:
    version = text[1:3]
    if version != "01":
        raise ValueError(f"protocol version {version!r}, not '01'")
    if len(text) < 43:
        raise ValueError(f"a GAMEREQ message has 43 or 94 characters, this one {len(text)}")
    color = _color(text, 35, "the follower's colour")
    minutes = _number(text, 36, 3, "the minutes")
    moves = _number(text, 39, 3, "the move count")
    start = text[42]
    if start == "A":
        _expect_length(text, 43, "GAMEREQ from the start position")
        return GameRequest(text[3:35].rstrip(), color, minutes, moves)
    if start != "B":
        raise ValueError(f"the start indicator at column 43 must be A or B, not {start!r}")
    _expect_length(text, 94, "GAMEREQ with a position")
    position = text[43:]
    board_from_position(position)  # checks it
    return GameRequest(text[3:35].rstrip(), color, minutes, moves, position)


# -- Positions and moves -------------------------------------------------------


def check_variant(variant: Variant, what: str) -> None:
    """Refuse variants DXP cannot carry: it knows 50 squares numbered as in
    international draughts, nothing else.

    :raises ValueError: naming the variant.
    """
    if variant.width != 10 or variant.height != 10 or len(variant.squares) != SQUARES:
        raise ValueError(
            f"DXP carries 10x10 positions (50 squares, international draughts); "
            f"{what} is {variant.name}, played on {variant.width}x{variant.height}"
        )


def position_of(board: Board) -> str:
    """The side to move and the 50 square letters of ``board``.

    >>> position_of(Board("W:W46:BK5"))[:7]
    'WeeeeZe'
    """
    check_variant(board.variant, "the board")
    letters = [_COLOR_LETTERS[board.turn]]
    for square in board.variant.squares:
        piece = board.piece_at(square)
        letters.append("e" if piece is None else _PIECE_LETTERS[piece])
    return "".join(letters)


def board_from_position(position: str, variant: Variant = INTERNATIONAL) -> Board:
    """The board a GAMEREQ position describes.

    :raises ValueError: for a wrong length or letter.
    """
    if len(position) != 1 + SQUARES:
        raise ValueError(f"a position is 51 characters, this one {len(position)}")
    board = Board.empty(variant=variant)
    for square, letter in enumerate(position[1:], start=1):
        if letter == "e":
            continue
        if letter not in _LETTER_PIECES:
            raise ValueError(
                f"square {square} holds {letter!r}; a square is e, w, z, W or Z "
                f"(column {44 + square})"
            )
        board.set_piece_at(square, _LETTER_PIECES[letter])
    board.turn = _color(position, 0, "the side to move")
    return board


def move_message(move: Move, seconds: float) -> MoveMessage:
    """The MOVE message of ``move`` (captured squares in ascending order)."""
    return MoveMessage(int(seconds), move.from_square, move.to_square, tuple(sorted(move.captures)))


def find_move(board: Board, message: MoveMessage) -> Move | None:
    """The legal move of ``board`` that ``message`` names, or None.

    DXP names a move by its ends and its captured pieces; two legal moves
    that share all three differ only in the route, and play the same.
    """
    captured = sorted(message.captures)
    for move in board.legal_moves:
        if (
            move.from_square == message.from_square
            and move.to_square == message.to_square
            and sorted(move.captures) == captured
        ):
            return move
    return None


# -- Game ends ---------------------------------------------------------------


class DxpGameEnded(EngineError):
    """The DXP peer sent GAMEEND instead of a move.

    >>> str(DxpGameEnded(1, 0, "Moby Dam"))
    'DXP peer Moby Dam ended the game: it gives up'
    """

    def __init__(self, reason: int, stop: int, peer: str) -> None:
        self.reason = reason
        """0 no reason, 1 the peer gives up, 2 it claims a draw, 3 it claims a win."""
        self.stop = stop
        """1 if the peer wants no further game."""
        text = END_REASONS.get(reason, f"with reason {reason}")
        super().__init__(f"DXP peer {peer} ended the game: {text}")

    def outcome(self, board: Board, peer_color: Color) -> Outcome | None:
        """The result this ends the game with on ``board``: the rules' own
        when the game is over, else a resignation for reason 1 and a draw by
        agreement for reason 2; None (no result) for reasons 0 and 3."""
        over = board.outcome(claim_draw=True)
        if over is not None:
            return over
        if self.reason == 1:
            return board.outcome_on_resignation(peer_color)
        if self.reason == 2:
            return board.outcome_by_agreement()
        return None


def end_reason(outcome: Outcome | None, sender: Color) -> int:
    """The GAMEEND reason ``sender`` gives for ``outcome``."""
    if outcome is None:
        return 0
    if outcome.winner is None:
        return 2
    return 3 if outcome.winner == sender else 1


# -- The socket ----------------------------------------------------------------


class Channel:
    """A TCP connection carrying DXP messages, each read with a timeout.

    Errors name the peer, what it sent and what we were waiting for.
    """

    def __init__(self, sock: socket.socket, peer: str) -> None:
        self._sock = sock
        self._buffer = bytearray()
        self.peer = peer
        """``host:port`` of the other program."""
        self.closed = False

    @classmethod
    def connect(cls, host: str, port: int, timeout: float) -> Channel:
        """Connect to a DXP program.

        :raises EngineError: if it cannot be reached within ``timeout``.
        """
        try:
            sock = socket.create_connection((host, port), timeout=timeout)
        except OSError as error:
            raise EngineError(
                f"cannot connect to a DXP program at {host}:{port}: {error}"
            ) from None
        return cls(sock, f"{host}:{port}")

    def send(self, message: Message) -> None:
        """Send one message.

        :raises EngineTerminatedError: if the connection is gone.
        """
        text = format_message(message)
        _logger.debug("snd %s %s", self.peer, text)
        try:
            self._sock.sendall(text.encode("ascii") + b"\0")
        except OSError as error:
            raise EngineTerminatedError(
                f"the DXP connection to {self.peer} is closed ({error}); could not send {text!r}"
            ) from None

    def receive(self, timeout: float, what: str) -> Message:
        """The next message, waiting at most ``timeout`` seconds.

        :raises EngineError: if nothing complete arrives in time.
        :raises EngineTerminatedError: if the peer closes the connection.
        :raises EngineProtocolError: for a message that cannot be read.
        """
        deadline = time.monotonic() + timeout
        while b"\0" not in self._buffer:
            if len(self._buffer) > MAX_LENGTH:
                raise EngineProtocolError(
                    f"DXP peer {self.peer} sent {bytes(self._buffer[:40])!r}... more than "
                    f"{MAX_LENGTH} characters without the NUL that ends a message, while we "
                    f"waited for {what}"
                )
            self._fill(deadline, timeout, what)
        raw, _, rest = self._buffer.partition(b"\0")
        self._buffer = bytearray(rest)
        text = raw.decode("ascii", errors="replace")
        _logger.debug("rcv %s %s", self.peer, text)
        try:
            if not raw.isascii() or not raw:
                raise ValueError("a DXP message is 1 to 127 ASCII characters")
            return parse_message(text)
        except ValueError as error:
            raise EngineProtocolError(
                f"DXP peer {self.peer} sent {text!r} while we waited for {what}: {error}"
            ) from None

    def _fill(self, deadline: float, timeout: float, what: str) -> None:
        remaining = deadline - time.monotonic()
        try:
            if remaining <= 0:
                raise TimeoutError
            self._sock.settimeout(remaining)
            chunk = self._sock.recv(4096)
        except TimeoutError:
            raise EngineError(
                f"DXP peer {self.peer} sent nothing for {timeout:g} s while we waited for {what}"
            ) from None
        except OSError as error:
            raise EngineTerminatedError(
                f"the DXP connection to {self.peer} failed ({error}) while we waited for {what}"
            ) from None
        if not chunk:
            self.closed = True
            raise EngineTerminatedError(
                f"DXP peer {self.peer} closed the connection while we waited for {what}"
            )
        self._buffer += chunk

    def close(self) -> None:
        """Close the connection (harmless when already closed)."""
        self.closed = True
        with contextlib.suppress(OSError):  # already shut down by the other side
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()


def listen_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: any free port).

    :raises EngineError: if the port cannot be bound.
    """
    try:
        server = socket.create_server((host, port), reuse_port=False)
    except OSError as error:
        raise EngineError(f"cannot listen for DXP on {host}:{port}: {error}") from None
    return server


def accept(server: socket.socket, timeout: float | None) -> Channel:
    """Wait at most ``timeout`` seconds (None: for ever) for a program to
    connect.

    :raises EngineError: if none does.
    """
    host, port = server.getsockname()[:2]
    server.settimeout(timeout)
    try:
        sock, address = server.accept()
    except TimeoutError:
        raise EngineError(
            f"no DXP program connected to {host}:{port} within {timeout:g} s"
        ) from None
    return Channel(sock, f"{address[0]}:{address[1]}")
