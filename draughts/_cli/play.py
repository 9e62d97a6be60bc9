"""``python -m draughts play``: a game against the built-in engine in a
terminal.

The player types moves in PDN notation (``11-15``, ``22x15``, ``c3-d4``) or
one of the commands of :data:`_HELP`. Everything goes through text streams
so that the game can be driven by tests as well as by a person.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path
from typing import TextIO

import draughts
from draughts import pdn
from draughts._cli.engine_options import add_engine_options, engine_options
from draughts.engine import BuiltinEngine, Level, Limit, builtin

_HELP = """\
Type a move in PDN notation (for example 11-15, 22x15 or c3-d4), or:
  moves        list your legal moves
  hint         ask the engine for a move
  undo         take back your last move (and the engine's reply)
  save FILE    write the game so far to FILE as PDN
  help         show this text
  quit         leave the game"""

_HINT_LIMIT = Limit(depth=6)


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``play`` subcommand."""
    play = commands.add_parser("play", help="play against the built-in engine")
    play.add_argument("--variant", default="international", help="variant name or GameType")
    play.add_argument(
        "--level",
        default="medium",
        choices=["easy", "medium", "hard"],
        help="the engine's strength (default medium)",
    )
    play.add_argument(
        "--color", default="white", choices=["white", "black"], help="the side you play"
    )
    play.add_argument("--seed", type=int, default=0, help="seed of the easy level's mistakes")
    play.add_argument("--fen", default=None, help="start from this position")
    add_engine_options(play)
    play.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The ``play`` subcommand on the process's standard streams."""
    return play(
        variant=args.variant,
        level=args.level,
        color=args.color,
        seed=args.seed,
        fen=args.fen,
        book=args.book,
        egtb=args.egtb,
        stdin=sys.stdin,
        stdout=sys.stdout,
    )


def play(
    *,
    variant: str,
    level: Level,
    color: str,
    seed: int = 0,
    fen: str | None = None,
    book: str = "none",
    egtb: str = "none",
    stdin: TextIO,
    stdout: TextIO,
) -> int:
    """Play one game; returns the exit code (0, or 2 for a bad setup).
    ``book`` and ``egtb`` are the engine's options as ``--book`` and
    ``--egtb`` give them."""
    try:
        board = draughts.Board(fen, variant=variant)
        opening_book, bitbases = engine_options(
            argparse.Namespace(book=book, egtb=egtb), board.variant.name
        )
    except (ValueError, OSError) as error:
        print(f"draughts play: {error}", file=stdout)
        return 2
    game = _Game(
        board,
        builtin(level, seed=seed, book=opening_book, egtb=bitbases),
        draughts.WHITE if color == "white" else draughts.BLACK,
        stdout,
    )
    return game.run(stdin)


class _Game:
    def __init__(
        self, board: draughts.Board, engine: BuiltinEngine, human: draughts.Color, out: TextIO
    ) -> None:
        self.board = board
        self.engine = engine
        self.human = human
        self.out = out

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def run(self, stdin: TextIO) -> int:
        variant = self.board.variant
        self.say(
            f"{variant.title}: you play {self.human.name.lower()}, the engine plays at "
            f"level {self.engine.level}. Type 'help' for the commands."
        )
        self.show()
        while True:
            if self.announce_end():
                return 0
            if self.board.turn != self.human:
                self.engine_move()
                self.show()
                continue
            self.out.write(f"{self.human.name.lower()} to move> ")
            self.out.flush()
            line = stdin.readline()
            if not line:
                self.say("")
                return 0
            if not self.command(line.strip()):
                return 0

    def command(self, text: str) -> bool:
        """Act on one line; False ends the game."""
        word, _, rest = text.partition(" ")
        if not text:
            return True
        if word in ("quit", "exit", "resign"):
            self.say("Game abandoned.")
            return False
        if word == "help":
            self.say(_HELP)
        elif word == "moves":
            self.say("Legal moves: " + ", ".join(self.board.pdn(m) for m in self.board.legal_moves))
        elif word == "hint":
            analysis = builtin("hard").analyse(self.board, _HINT_LIMIT)
            self.say(f"Hint: {self.board.pdn(analysis.pv[0])} (score {analysis.score})")
        elif word == "undo":
            self.undo()
        elif word == "save":
            self.save(rest.strip())
        else:
            try:
                move = self.board.parse_pdn(text)
            except ValueError as error:
                self.say(_explain(self.board, text, error))
                return True
            self.board.push(move)
            self.show()
        return True

    def engine_move(self) -> None:
        result = self.engine.play(self.board)
        text = self.board.pdn(result.move)
        self.board.push(result.move)
        score = result.analysis.score if result.analysis else None
        self.say(f"Engine plays {text}" + (f" (its score: {score})" if score else ""))

    def undo(self) -> None:
        # Back to the human's previous turn: the engine's reply and the
        # human's move before it.
        taken = []
        while self.board.move_stack:
            taken.append(self.board.pop())
            if self.board.turn == self.human:
                break
        if self.board.turn != self.human or not taken:
            for move in reversed(taken):
                self.board.push(move)
            self.say("Nothing to take back.")
            return
        self.say("Move taken back.")
        self.show()

    def save(self, name: str) -> None:
        if not name:
            self.say("Usage: save FILE")
            return
        try:
            Path(name).write_text(self.pdn().rstrip("\n") + "\n", encoding="utf-8")
        except OSError as error:
            self.say(f"Cannot save to {name!r}: {error.strerror or error}")
            return
        self.say(f"Game saved to {name}.")

    def pdn(self) -> str:
        """The game so far as a PDN record."""
        game = pdn.Game.from_board(self.board)
        human, machine = "You", f"draughts ({self.engine.level})"
        white, black = (human, machine) if self.human == draughts.WHITE else (machine, human)
        end = _result(self.board)
        game.headers["Event"] = "Casual game"
        game.headers["Date"] = datetime.date.today().strftime("%Y.%m.%d")
        game.headers["White"] = white
        game.headers["Black"] = black
        game.headers["Result"] = end[0] if end else "*"
        return str(game)

    def show(self) -> None:
        self.say(_diagram(self.board))

    def announce_end(self) -> bool:
        end = _result(self.board)
        if end is None:
            return False
        result, reason = end
        self.say(f"Game over: {reason}. Result {result}.")
        return True


def _diagram(board: draughts.Board) -> str:
    """The Unicode board with, beside it, the names of the playing squares."""
    variant = board.variant
    pictures = board.unicode().split("\n")
    width = max(len(line) for line in pictures)
    name_width = max(len(variant.square_name(s)) for s in variant.squares)
    lines = []
    for i, row in enumerate(reversed(range(variant.height))):
        names = []
        for col in range(variant.width):
            square = variant.square_at(row, col)
            names.append((variant.square_name(square) if square else "").rjust(name_width))
        lines.append(f"{pictures[i].ljust(width)}    {' '.join(names).rstrip()}")
    return "\n".join(lines)


def _result(board: draughts.Board) -> tuple[str, str] | None:
    """The result and why the game ended (the variant's draw rules
    included), or None while it goes on."""
    end = board.outcome()
    if end is None:
        return None
    reason = end.termination.value.replace("-", " ")
    if end.winner is None:
        return end.result(), f"draw ({reason})"
    return end.result(), f"{end.winner.name.lower()} wins ({reason})"


def _explain(board: draughts.Board, text: str, error: ValueError) -> str:
    """A short message for a move that was refused."""
    if isinstance(error, draughts.InvalidMoveError):
        return f"{text!r} is not a move. Type 'help' for what you can type."
    if isinstance(error, draughts.AmbiguousMoveError):
        options = " or ".join(
            board.pdn(m, long=True) for m in board.legal_moves if m in error.candidates
        )
        return f"{text!r} is ambiguous: write the whole route, {options}."
    moves = list(board.legal_moves)
    if moves and moves[0].is_capture:
        return (
            f"{text!r} is not legal: capture is mandatory: "
            + " or ".join(board.pdn(m) for m in moves)
            + "."
        )
    return f"{text!r} is not legal here. Legal moves: " + ", ".join(board.pdn(m) for m in moves)
