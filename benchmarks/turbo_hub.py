"""py-draughts' TurboEngine behind the Hub protocol, to play it through our
:class:`draughts.engine.HubEngine` (``hub:`` engines of the match scripts).

Run it with the Python of the py-draughts virtual environment that
``benchmarks/compare.py`` creates (py-draughts installs a package called
``draughts`` too, so it cannot share an interpreter with this library)::

    benchmarks/.venvs/py-draughts/bin/python benchmarks/turbo_hub.py

It only calls py-draughts' public interface (``Board.from_fen``, ``push``,
``legal_moves``, ``TurboEngine(time_limit=...).get_best_move``) and answers
the Hub commands our client sends (``hub``, ``init``, ``ping``, ``pos``,
``level``, ``go``, ``quit``; the format is in Scan 3.x's ``protocol.txt``).
TurboEngine plays International draughts only. Its time limit is the
``move-time`` of the last ``level`` command (1 s when none was given).
"""

from __future__ import annotations

import re
import sys
import time

from draughts.engines.turbo import TurboEngine

from draughts import Board  # py-draughts' Board, from its own venv

_TOKEN = re.compile(r'\s*([^\s="]+)(?:\s*=\s*(?:"([^"]*)"|([^\s="]+)))?')


def parse(line: str) -> tuple[str, dict[str, str]]:
    """A Hub line as its command and its ``name=value`` arguments."""
    words = [(m.group(1), m.group(2) or m.group(3) or "") for m in _TOKEN.finditer(line)]
    if not words:
        return "", {}
    return words[0][0], dict(words[1:])


def board_from_hub(position: str) -> Board:
    """A py-draughts board from a Hub ``pos=`` value (side to move, then one
    letter per square 1-50: ``w b W B e``)."""
    white = [f"K{i}" if c == "W" else str(i) for i, c in enumerate(position[1:], 1) if c in "wW"]
    black = [f"K{i}" if c == "B" else str(i) for i, c in enumerate(position[1:], 1) if c in "bB"]
    return Board.from_fen(f"{position[0]}:W{','.join(white)}:B{','.join(black)}")


def hub_text(move: object) -> str:
    """A py-draughts move (0-based ``square_list``/``captured_list``) in Hub notation."""
    squares = [s + 1 for s in move.square_list]  # type: ignore[attr-defined]
    captured = sorted(s + 1 for s in move.captured_list)  # type: ignore[attr-defined]
    if not captured:
        return f"{squares[0]}-{squares[-1]}"
    return "x".join(map(str, (squares[0], squares[-1], *captured)))


def find(board: Board, text: str) -> object:
    """The legal move of ``board`` written ``text`` in Hub notation."""
    for move in board.legal_moves:
        if hub_text(move) == text:
            return move
    raise ValueError(f"{text!r} is not legal in {board.fen}")


def main() -> int:
    board = Board()
    move_time = 1.0
    for line in sys.stdin:
        command, args = parse(line)
        if command == "hub":
            print("id name=TurboEngine author=py-draughts")
            print("wait")
        elif command == "init":
            print("ready")
        elif command == "ping":
            print("pong")
        elif command == "pos":
            board = board_from_hub(args["pos"])
            for text in args.get("moves", "").split():
                board.push(find(board, text))
        elif command == "level" and "move-time" in args:
            move_time = float(args["move-time"])
        elif command == "go":
            engine = TurboEngine(depth_limit=None, time_limit=move_time)
            start = time.perf_counter()
            move = engine.get_best_move(board)
            elapsed = time.perf_counter() - start
            print(f"info depth={engine.completed_depth} nodes={engine.nodes} time={elapsed:.3f}")
            print(f"done move={hub_text(move)}")
        elif command == "quit":
            return 0
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
