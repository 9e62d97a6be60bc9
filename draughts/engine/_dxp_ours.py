"""Our engine playing a DXP program: :func:`serve` (we follow: programs
connect and ask for games) and :func:`initiate` (we ask). Users import them
from :mod:`draughts.engine.dxp`; the messages are those of
:mod:`draughts.engine._dxp_wire`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator

import attrs

from draughts import pdn
from draughts.board import Board
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
    Engine,
    EngineError,
    EngineProtocolError,
    EngineTerminatedError,
    Limit,
)
from draughts.outcome import Outcome
from draughts.piece import WHITE, Color

__all__ = ["initiate", "serve"]

_logger = logging.getLogger("draughts.engine.dxp")

_SLACK = 10.0  # seconds a peer may overrun its own clock before we give up on it


def _ply_of(start: Board, move_number: int, color: Color) -> int:
    """The ply (from ``start``) at which move ``move_number`` of ``color``
    begins; move 1 is the first move of the side to move at the start."""
    return 2 * (move_number - 1) + int(color) - int(start.turn)


class _OurSide:
    """Our engine's side of one DXP game: the board, the clock the GAMEREQ
    gave, takebacks, and the PDN record."""

    def __init__(
        self,
        channel: Channel,
        engine: Engine,
        request: GameRequest,
        our_color: Color,
        limit: Limit | None,
        timeout: float,
        idle_timeout: float | None = None,
    ) -> None:
        self.channel = channel
        self.engine = engine
        self.request = request
        self.our_color = our_color
        self.limit = limit
        self.timeout = timeout
        self.idle_timeout = idle_timeout
        """The longest the peer may stay silent on its move (None: its clock)."""
        self.start = Board() if request.position is None else board_from_position(request.position)
        self.board = self.start.copy()
        self.used = 0.0
        self.stop = False
        self.outcome: Outcome | None = None
        self.ended_by = ""

    def our_limit(self) -> Limit:
        """The search limit: the one given, else a share of what is left of
        the GAMEREQ's clock."""
        if self.limit is not None:
            return self.limit
        clock = max(self.request.minutes, 1) * 60.0 - self.used
        made = len(self.board.move_stack) // 2
        left = self.request.moves - made if self.request.moves > made else 30
        return Limit(time=max(0.05, clock / max(left, 10)))

    def play(self) -> None:
        """Play until GAMEEND, sent or received."""
        while self.outcome is None and not self.ended_by:
            if self.board.turn == self.our_color:
                self.our_turn()
            else:
                self.their_turn()

    def our_turn(self) -> None:
        outcome = self.board.outcome()
        if outcome is not None:
            self.outcome = outcome
            self.ended_by = "us"
            self.channel.send(GameEnd(end_reason(outcome, self.our_color), 0))
            self.await_end_answer()
            return
        began = time.monotonic()
        move = self.engine.play(self.board, self.our_limit()).move
        spent = time.monotonic() - began
        self.used += spent
        self.channel.send(move_message(move, spent))
        self.board.push(move)

    def await_end_answer(self) -> None:
        while True:
            message = self.channel.receive(self.timeout, "the GAMEEND answer")
            if isinstance(message, GameEnd):
                self.stop = self.stop or message.stop == 1
                return

    def their_turn(self) -> None:
        wait = max(self.request.minutes, 1) * 60.0 + _SLACK
        if self.idle_timeout is not None:
            wait = min(wait, self.idle_timeout)
        what = f"the peer's move in {self.board.fen()}"
        message = self.channel.receive(wait, what)
        if isinstance(message, MoveMessage):
            move = find_move(self.board, message)
            if move is None:
                self.channel.send(GameEnd(0, 1))
                raise EngineProtocolError(
                    f"DXP peer {self.request.name} sent {format_message(message)!r}, which is "
                    f"not a legal move in {self.board.fen()}"
                )
            self.board.push(move)
        elif isinstance(message, GameEnd):
            self.channel.send(GameEnd(0, 0))
            self.stop = message.stop == 1
            ended = DxpGameEnded(message.reason, message.stop, self.request.name)
            self.outcome = ended.outcome(self.board, self.our_color.opponent)
            self.ended_by = str(ended)
        elif isinstance(message, BackRequest):
            self.take_back(message)
        elif not isinstance(message, Chat):
            raise EngineProtocolError(
                f"DXP peer {self.request.name} sent {format_message(message)!r} while we "
                f"waited for {what}"
            )

    def take_back(self, request: BackRequest) -> None:
        """Go back to the move the peer names, if the game has been there."""
        ply = _ply_of(self.start, request.move_number, request.color)
        if not 0 <= ply <= len(self.board.move_stack):
            self.channel.send(BackAccept(2))
            return
        while len(self.board.move_stack) > ply:
            self.board.pop()
        self.channel.send(BackAccept(0))

    def record(self, peer_name: str, our_name: str) -> pdn.Game:
        game = pdn.Game.from_board(self.board)
        white, black = (our_name, peer_name) if self.our_color == WHITE else (peer_name, our_name)
        game.headers["Event"] = "DXP game"
        game.headers["Date"] = time.strftime("%Y.%m.%d")
        game.headers["White"] = white
        game.headers["Black"] = black
        game.headers["Result"] = self.outcome.result() if self.outcome else "*"
        termination = self.outcome.termination.value if self.outcome else "unterminated"
        game.headers["Termination"] = termination
        if self.ended_by and self.ended_by != "us":
            game.end().comment = self.ended_by
        return game


def serve(
    engine: Engine,
    port: int = DEFAULT_PORT,
    *,
    host: str = "127.0.0.1",
    name: str = "draughts",
    limit: Limit | None = None,
    games: int | None = None,
    timeout: float = 10.0,
    idle_timeout: float = 300.0,
    accept_timeout: float | None = None,
    on_listening: Callable[[int], None] | None = None,
    on_game: Callable[[pdn.Game], None] | None = None,
    on_error: Callable[[str], None] | None = None,
) -> list[pdn.Game]:
    """Play ``engine`` as DXP follower: wait on ``host:port`` for programs
    to connect, one at a time, and play every game each asks for. The
    service ends after ``games`` games, or when no program connects for
    ``accept_timeout`` seconds (None: it waits for ever).

    A program's connection ends when it closes it, when its GAMEEND asks for
    no further game, or at its first error: a message that cannot be read
    or that does not belong where it comes, an illegal move (answered with a
    GAMEEND), or silence for ``idle_timeout`` seconds whenever we wait for
    it (for its GAMEREQ, for the rest of a message, and for its move, even
    where its clock would allow more). An error abandons the game in
    progress (it is not returned, nor counted in ``games``), is logged on
    the ``draughts.engine.dxp`` logger and passed to ``on_error``; then the
    next program is served. So a program that stalls keeps the others out
    ``idle_timeout`` seconds at most.

    Each move is searched within ``limit``, else within a share of the clock
    the GAMEREQ gave. The program may take back moves (BACKREQ is accepted
    when the game has reached that move). ``on_listening`` is called with the
    port once it is bound (useful with port 0); ``on_game`` with each game
    played to its end; ``timeout`` bounds the wait for a GAMEEND answer.

    >>> from draughts.engine import builtin
    >>> games = serve(builtin("hard"), 27531, games=10, on_error=print)  # doctest: +SKIP

    :raises EngineError: if the port cannot be bound.
    """
    server = listen_socket(host, port)
    played: list[pdn.Game] = []
    settings = _Follower(engine, name, limit, timeout, idle_timeout)
    try:
        if on_listening is not None:
            on_listening(server.getsockname()[1])
        while games is None or len(played) < games:
            try:
                channel = accept(server, accept_timeout)
            except EngineError:
                break  # nobody came: the service ends
            try:
                for game in settings.games(channel):
                    played.append(game)
                    if on_game is not None:
                        on_game(game)
                    if games is not None and len(played) >= games:
                        break
            except EngineError as error:
                _logger.warning("%s", error)
                if on_error is not None:
                    on_error(str(error))
            finally:
                channel.close()
    finally:
        server.close()
    return played


@attrs.frozen
class _Follower:
    """How :func:`serve` plays: the engine, our name and the limits."""

    engine: Engine
    name: str
    limit: Limit | None
    timeout: float
    idle_timeout: float

    def games(self, channel: Channel) -> Iterator[pdn.Game]:
        """The games the program on ``channel`` asks for, each played to its
        end, until it closes the connection or asks for no further game.

        :raises EngineError: at the program's first error (naming the game
            it abandons, if one was under way).
        """
        while True:
            request = _next_request(channel, self.idle_timeout)
            if request is None:
                return
            side = _OurSide(
                channel,
                self.engine,
                request,
                request.follower_color,
                self.limit,
                self.timeout,
                self.idle_timeout,
            )
            if not side.board.legal_moves:
                channel.send(GameAccept(self.name, 2))
                continue  # refused: the program may ask for another
            channel.send(GameAccept(self.name, 0))
            try:
                side.play()
            except EngineError as error:
                plies = len(side.board.move_stack)
                raise EngineError(
                    f"{error}; the game from {side.start.fen()} is abandoned after {plies} "
                    f"{'ply' if plies == 1 else 'plies'} and the connection closed"
                ) from None
            yield side.record(request.name, self.name)
            if side.stop:
                return


def _next_request(channel: Channel, idle_timeout: float) -> GameRequest | None:
    """The next GAMEREQ, or None when the peer has closed the connection.

    :raises EngineError: for another message, or silence.
    """
    while True:
        try:
            message = channel.receive(idle_timeout, "a GAMEREQ")
        except EngineTerminatedError:
            return None
        if isinstance(message, GameRequest):
            return message
        if not isinstance(message, Chat | GameEnd):
            raise EngineProtocolError(
                f"DXP peer {channel.peer} sent {format_message(message)!r} while we waited "
                "for a GAMEREQ; the connection is closed"
            )


def initiate(
    engine: Engine,
    host: str,
    port: int = DEFAULT_PORT,
    *,
    boards: Iterable[Board] = (),
    colors: Iterable[Color] = (),
    name: str = "draughts",
    minutes: int = 10,
    moves: int = 0,
    limit: Limit | None = None,
    timeout: float = 10.0,
    on_game: Callable[[pdn.Game], None] | None = None,
) -> list[pdn.Game]:
    """Play ``engine`` as DXP initiator against the follower at
    ``host:port``: one game from each of ``boards`` (default: one from the
    start position), ours the colour from ``colors`` (default: white in
    every game), each with GAMEREQ giving ``minutes`` for ``moves`` moves.

    >>> from draughts.engine import builtin
    >>> games = initiate(builtin("hard"), "localhost", 27531, minutes=5)  # doctest: +SKIP

    :raises EngineError: if the program cannot be reached, refuses a game or
        misbehaves.
    """
    channel = Channel.connect(host, port, timeout)
    played: list[pdn.Game] = []
    color_list = list(colors)
    try:
        for index, board in enumerate(list(boards) or [Board()]):
            check_variant(board.variant, "the board")
            ours = color_list[index] if index < len(color_list) else WHITE
            request = GameRequest(name, ours.opponent, minutes, moves, position_of(board))
            channel.send(request)
            answer = channel.receive(timeout, "the GAMEACC answering our GAMEREQ")
            if not isinstance(answer, GameAccept):
                raise EngineProtocolError(
                    f"DXP peer {channel.peer} sent {format_message(answer)!r} instead of GAMEACC"
                )
            if answer.code != 0:
                meaning = ACCEPT_CODES.get(answer.code, "an unknown code")
                raise EngineError(
                    f"DXP peer {answer.name} refused the game: code {answer.code} ({meaning})"
                )
            side = _OurSide(channel, engine, request, ours, limit, timeout)
            side.play()
            game = side.record(answer.name, name)
            played.append(game)
            if on_game is not None:
                on_game(game)
            if side.stop:
                break
    finally:
        channel.close()
    return played
