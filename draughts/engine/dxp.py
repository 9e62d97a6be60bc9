"""DamExchange (DXP): draughts programs playing each other over TCP.

:class:`DxpEngine` is a program at the other end of a DXP connection, used
like any other :class:`~draughts.engine.Engine`: :meth:`DxpEngine.connect`
makes us the *initiator* (we ask for each game with GAMEREQ), and
:meth:`DxpEngine.listen` the *follower* (the other program connects and asks).
:func:`serve` and :func:`initiate` do the opposite: our own engine plays a DXP
program, as follower or as initiator.

The message formats are in :mod:`draughts.engine._dxp_wire`; the protocol is
described on the DamExchange pages (http://www.mesander.nl/damexchange/). DXP
carries international draughts only: 50 squares, numbered as in FMJD
notation.
"""

from __future__ import annotations

import socket
import time

from draughts.board import Board
from draughts.engine._dxp_ours import initiate, serve
from draughts.engine._dxp_wire import (
    ACCEPT_CODES,
    DEFAULT_PORT,
    BackAccept,
    BackRequest,
    Channel,
    Chat,
    DxpGameEnded,
    GameAccept,
    GameEnd,
    GameRequest,
    Message,
    MoveMessage,
    accept,
    board_from_position,
    check_variant,
    end_reason,
    find_move,
    format_message,
    listen_socket,
    move_message,
    position_of,
)
from draughts.engine.base import (
    Analysis,
    Engine,
    EngineError,
    EngineProtocolError,
    EngineTerminatedError,
    Limit,
    PlayResult,
    require_moves,
)
from draughts.move import Move
from draughts.outcome import Outcome
from draughts.piece import WHITE, Color

__all__ = ["DEFAULT_PORT", "DxpEngine", "DxpGameEnded", "initiate", "serve"]


class DxpEngine(Engine):
    """A program at the other end of a DXP connection.

    :meth:`play` sends the moves played on ``board`` since the program's last
    move and waits for its answer. A board that does not continue the current
    game starts a new one: as initiator (:meth:`connect`) we end the old game
    with GAMEEND and send GAMEREQ with the board's position, the program
    playing the side to move; as follower (:meth:`listen`) the program chose
    the position, and a board that does not continue it is an error.

    The program's messages are checked: a move that is not legal, a message
    that cannot be read, silence longer than its clock allows (or ``timeout``
    past ``Limit.time``) and a closed connection raise :class:`EngineError`
    (its subclasses :class:`EngineProtocolError`,
    :class:`EngineTerminatedError`), and the connection is closed. GAMEEND
    raises :class:`DxpGameEnded` after it is acknowledged; CHAT messages are
    kept in :attr:`chats`; BACKREQ is declined (code 1, not supported), as the
    board belongs to the caller.

    DXP has no analysis: :meth:`analyse` raises :class:`EngineError`.

    >>> import draughts
    >>> with DxpEngine.connect("localhost", 27531, minutes=5) as moby:  # doctest: +SKIP
    ...     print(moby.name, moby.play(draughts.Board()).move)
    Moby Dam 32-28
    """

    def __init__(
        self,
        *,
        channel: Channel | None,
        server: socket.socket | None,
        our_name: str,
        minutes: int,
        moves: int,
        timeout: float,
        accept_timeout: float,
    ) -> None:
        self._channel = channel
        self._server = server
        self._our_name = our_name
        self._minutes = minutes
        self._moves = moves
        self._timeout = timeout
        self._accept_timeout = accept_timeout
        self._game: Board | None = None
        self._peer_color: Color = WHITE
        self._returned_at = time.monotonic()
        self._failed: str | None = None
        self.peer_name = ""
        """The name the program gave in GAMEACC or GAMEREQ."""
        self.chats: list[str] = []
        """The CHAT texts received, oldest first."""
        self.request: GameRequest | None = None
        """The GAMEREQ of the current or last game (as follower, the
        program's; as initiator, ours)."""

    @classmethod
    def connect(
        cls,
        host: str,
        port: int = DEFAULT_PORT,
        *,
        name: str = "draughts",
        minutes: int = 10,
        moves: int = 0,
        timeout: float = 10.0,
    ) -> DxpEngine:
        """Connect to a DXP program that waits as follower. Each game's
        GAMEREQ gives it ``minutes`` for ``moves`` moves (0: the whole game)
        and our ``name``.

        ``timeout`` is how long it may take to answer GAMEREQ and GAMEEND,
        and how far past ``Limit.time`` (or its clock) a move may be late.

        :raises EngineError: if it cannot be reached.
        """
        channel = Channel.connect(host, port, timeout)
        return cls(
            channel=channel,
            server=None,
            our_name=name,
            minutes=minutes,
            moves=moves,
            timeout=timeout,
            accept_timeout=timeout,
        )

    @classmethod
    def listen(
        cls,
        port: int = DEFAULT_PORT,
        *,
        host: str = "127.0.0.1",
        name: str = "draughts",
        timeout: float = 10.0,
        accept_timeout: float = 60.0,
    ) -> DxpEngine:
        """Listen on ``host:port`` (0: any free port, see :attr:`port`) for a
        DXP program that connects as initiator. The first :meth:`play` or
        :meth:`wait_game` waits up to ``accept_timeout`` seconds for it to
        connect and for its GAMEREQ, which is accepted with ``name``.

        :raises EngineError: if the port cannot be bound.
        """
        return cls(
            channel=None,
            server=listen_socket(host, port),
            our_name=name,
            minutes=0,
            moves=0,
            timeout=timeout,
            accept_timeout=accept_timeout,
        )

    @property
    def port(self) -> int:
        """The port we listen on (as follower) or are connected to."""
        if self._server is not None:
            port: int = self._server.getsockname()[1]
            return port
        return int(self._peer().rsplit(":", 1)[1])

    @property
    def name(self) -> str:
        return self.peer_name or f"DXP program at {self._peer()}"

    @property
    def color(self) -> Color | None:
        """The side the program plays in the current game (None between games)."""
        return None if self._game is None else self._peer_color

    def _peer(self) -> str:
        if self._channel is not None:
            return self._channel.peer
        assert self._server is not None
        host, port = self._server.getsockname()[:2]
        return f"{host}:{port}"

    # -- Sending and receiving -------------------------------------------------

    def _open_channel(self) -> Channel:
        if self._failed is not None:
            raise EngineTerminatedError(
                f"the DXP connection to {self._peer()} was closed after an error: {self._failed}"
            )
        if self._channel is None:
            assert self._server is not None
            self._channel = accept(self._server, self._accept_timeout)
        return self._channel

    def _fail(self, error: EngineError) -> EngineError:
        """Close the connection after ``error`` and return it to be raised."""
        if not isinstance(error, DxpGameEnded):
            self._failed = str(error)
            self._game = None
            if self._channel is not None:
                self._channel.close()
        return error

    def _send(self, message: Message) -> None:
        try:
            self._open_channel().send(message)
        except EngineError as error:
            raise self._fail(error) from None

    def _receive(self, timeout: float, what: str) -> Message:
        """The next message that is not a CHAT."""
        while True:
            try:
                message = self._open_channel().receive(timeout, what)
            except EngineError as error:
                raise self._fail(error) from None
            if not isinstance(message, Chat):
                return message
            self.chats.append(message.text)

    def _unexpected(self, message: Message, what: str) -> EngineError:
        return self._fail(
            EngineProtocolError(
                f"DXP peer {self.name} sent {format_message(message)!r} while we waited for {what}"
            )
        )

    # -- Games -----------------------------------------------------------------

    def wait_game(self) -> Board:
        """As follower: wait for the program's GAMEREQ, accept it and return
        the position it asked for (the program then plays :attr:`color`).
        Returns the current game's start if one is under way.

        :raises EngineError: if no program connects or asks in time.
        """
        if self._game is not None:
            start = self._game.copy()
            while start.move_stack:
                start.pop()
            return start
        if self._server is None:
            raise EngineError("only a DXP engine made with listen() waits for a GAMEREQ")
        while True:
            message = self._receive(self._accept_timeout, "a GAMEREQ")
            if isinstance(message, GameRequest):
                break
            if isinstance(message, GameEnd):
                continue  # a late acknowledgement of a game already over
            raise self._unexpected(message, "a GAMEREQ")
        self.request = message
        self.peer_name = message.name
        board = Board() if message.position is None else board_from_position(message.position)
        if not board.legal_moves:
            self._send(GameAccept(self._our_name, 2))
            raise self._fail(
                EngineProtocolError(f"DXP peer {self.name} asked for a game in a finished position")
            )
        self._send(GameAccept(self._our_name, 0))
        self._peer_color = message.follower_color.opponent
        self._game = board
        self._returned_at = time.monotonic()
        return board.copy()

    def _request_game(self, board: Board) -> None:
        """As initiator: GAMEREQ for ``board``'s position, the program
        playing the side to move."""
        request = GameRequest(
            self._our_name, board.turn, self._minutes, self._moves, position_of(board)
        )
        self._send(request)
        answer = self._receive(self._timeout, "the GAMEACC answering our GAMEREQ")
        while isinstance(answer, GameEnd):  # a late answer to the last game's end
            answer = self._receive(self._timeout, "the GAMEACC answering our GAMEREQ")
        if not isinstance(answer, GameAccept):
            raise self._unexpected(answer, "the GAMEACC answering our GAMEREQ")
        self.peer_name = answer.name
        if answer.code != 0:
            meaning = ACCEPT_CODES.get(answer.code, "an unknown code")
            raise EngineError(
                f"DXP peer {self.name} refused the game from {board.fen()}: code "
                f"{answer.code} ({meaning})"
            )
        self.request = request
        self._peer_color = board.turn
        self._game = board.copy(stack=False)

    def _continuation(self, board: Board) -> tuple[bool, Move | None]:
        """Whether ``board`` continues the current game, and the one move of
        ours it adds (None when the program is to move in the game itself)."""
        game = self._game
        if game is None or board.turn != self._peer_color:
            return False, None
        fen = board.fen()
        if game.turn == self._peer_color:
            return game.fen() == fen, None
        for move in game.legal_moves:
            after = game.copy(stack=False)
            after.push(move)
            if after.fen() == fen:
                return True, move
        return False, None

    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        require_moves(board)
        check_variant(board.variant, "the board")
        continues, ours = self._continuation(board)
        if not continues and self._server is not None:
            start = self.wait_game()
            continues, ours = self._continuation(board)
            if not continues:
                raise EngineError(
                    f"DXP peer {self.name} asked for the game from {start.fen()} and plays "
                    f"{self._peer_color.name.lower()}; the board given, {board.fen()}, does "
                    "not continue that game"
                )
        elif not continues:
            self.end_game(stop=False)
            self._request_game(board)
        assert self._game is not None
        if ours is not None:
            self._send(move_message(ours, time.monotonic() - self._returned_at))
            self._game.push(ours)
        return self._await_move(limit)

    def _await_move(self, limit: Limit | None) -> PlayResult:
        game = self._game
        assert game is not None
        if limit is not None and limit.time is not None:
            wait = limit.time + self._timeout
        else:
            wait = max(self._minutes, 1) * 60.0 + self._timeout
        what = f"the move of {self._peer_color.name.lower()} in {game.fen()}"
        while True:
            message = self._receive(wait, what)
            if isinstance(message, MoveMessage):
                move = find_move(game, message)
                if move is None:
                    raise self._fail(
                        EngineProtocolError(
                            f"DXP peer {self.name} sent {format_message(message)!r}, which is "
                            f"not a legal move in {game.fen()}"
                        )
                    )
                game.push(move)
                self._returned_at = time.monotonic()
                return PlayResult(move, None, Analysis(None, time=float(message.seconds)))
            if isinstance(message, BackRequest):
                self._send(BackAccept(1))
                continue
            if isinstance(message, GameEnd):
                self._send(GameEnd(0, 0))
                self._game = None
                raise DxpGameEnded(message.reason, message.stop, self.name)
            raise self._unexpected(message, what)

    def analyse(self, board: Board, limit: Limit | None = None) -> Analysis:
        """DXP carries moves, not evaluations.

        :raises EngineError: always.
        """
        raise EngineError(f"{self.name} speaks DXP, which has no analysis; use play()")

    def end_game(
        self, board: Board | None = None, outcome: Outcome | None = None, *, stop: bool = False
    ) -> None:
        """End the current game. ``board`` is the final position: the move of
        ours that ended the game on it, if any, is sent first, and the
        program, now to move, may end the game itself. Otherwise (or if it
        plays on) we send GAMEEND, its reason taken from ``outcome`` (default:
        ``board.outcome()``) seen from our side, and wait for the answer.
        Nothing happens between games.

        :raises EngineError: if the program misbehaves (not when ``stop``).
        """
        if self._game is None or self._failed is not None:
            return
        if outcome is None and board is not None:
            outcome = board.outcome()
        try:
            self._end_game(board, outcome, stop)
        except EngineError:
            if not stop:
                raise
        finally:
            self._game = None

    def _end_game(self, board: Board | None, outcome: Outcome | None, stop: bool) -> None:
        game = self._game
        assert game is not None
        continues, ours = (False, None) if board is None else self._continuation(board)
        if continues and ours is not None:
            self._send(move_message(ours, time.monotonic() - self._returned_at))
            game.push(ours)
        if game.turn == self._peer_color and game.outcome() is not None:
            answer = self._receive(self._timeout, "the GAMEEND of the side that cannot move")
            if isinstance(answer, GameEnd):
                self._send(GameEnd(0, int(stop)))
                return
        sender = self._peer_color.opponent
        self._send(GameEnd(end_reason(outcome, sender), int(stop)))
        while not isinstance(self._receive(self._timeout, "the GAMEEND answer"), GameEnd):
            pass  # a move crossing our GAMEEND is dropped with the game

    def chat(self, text: str) -> None:
        """Send a CHAT message (at most 126 characters, ASCII).

        :raises ValueError: for text DXP cannot carry.
        """
        message = Chat(text)
        format_message(message)
        self._send(message)

    def quit(self) -> None:
        """End the game (stop code 1: no further game) and close the
        connection. Calling it twice is harmless."""
        try:
            self.end_game(stop=True)
        finally:
            if self._channel is not None:
                self._channel.close()
            if self._server is not None:
                self._server.close()
            self._failed = self._failed or "quit() was called"
