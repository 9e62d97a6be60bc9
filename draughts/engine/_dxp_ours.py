"""Our engine playing a DXP program: :func:`serve` (we follow: programs
connect and ask for games) and :func:`initiate` (we ask). Users import them
from :mod:`draughts.engine.dxp`; the messages are those of
:mod:`draughts.engine._dxp_wire`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable

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
    ) -> None:
        self.channel = channel
        self.engine = engine
        self.request = request
        self.our_color = our_color
        self.limit = limit
        self.timeout = timeout
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
    idle_timeout: float = 3600.0,
    on_listening: Callable[[int], None] | None = None,
    on_game: Callable[[pdn.Game], None] | None = None,
) -> list[pdn.Game]:
    """Play ``engine`` as DXP follower: wait on ``host:port`` for a program
    to connect, then accept and play its games until it closes the
    connection, and wait for the next program; stop when a program's GAMEEND
    asks for no further game, after ``games`` games, or when nothing happens
    for ``idle_timeout`` seconds. One program is served at a time.

    Each move is searched within ``limit``, else within a share of the clock
    the GAMEREQ gave. The program may take back moves (BACKREQ is accepted
    when the game has reached that move). ``on_listening`` is called with the
    port once it is bound (useful with port 0); ``on_game`` with each game.

    :raises EngineError: if the program misbehaves (the game in progress is
        then lost to the error).
    """
    server = listen_socket(host, port)
    played: list[pdn.Game] = []
    try:
        if on_listening is not None:
            on_listening(server.getsockname()[1])
        stopped = False
        while not stopped and (games is None or len(played) < games):
            try:
                channel = accept(server, idle_timeout)
            except EngineError:
                break  # nobody came: the idle timeout ends the service
            try:
                while games is None or len(played) < games:
                    request = _next_request(channel, idle_timeout)
                    if request is None:
                        break
                    game, stopped = _follow(channel, engine, request, name, limit, timeout)
                    if game is None:
                        continue  # refused: the program may ask for another
                    played.append(game)
                    if on_game is not None:
                        on_game(game)
                    if stopped:
                        break
            finally:
                channel.close()
    finally:
        server.close()
    return played


def _next_request(channel: Channel, idle_timeout: float) -> GameRequest | None:
    """The next GAMEREQ, or None when the peer has closed the connection."""
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
                "for a GAMEREQ"
            )


def _follow(
    channel: Channel,
    engine: Engine,
    request: GameRequest,
    name: str,
    limit: Limit | None,
    timeout: float,
) -> tuple[pdn.Game | None, bool]:
    """Accept and play one game (None: refused, its position being over)."""
    side = _OurSide(channel, engine, request, request.follower_color, limit, timeout)
    if not side.board.legal_moves:
        channel.send(GameAccept(name, 2))
        return None, False
    channel.send(GameAccept(name, 0))
    side.play()
    return side.record(request.name, name), side.stop


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
