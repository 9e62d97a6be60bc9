"""A tiny engine speaking the Hub protocol, for the tests of HubEngine.

Run as ``python fake_hub_engine.py [behaviour] [variant]``. It plays the
legal move that comes first in the library's move order, and reports an
``info`` line whose PV is that move and the first reply. The behaviours make
it misbehave on purpose:

- ``normal``: as above.
- ``crash``: completes the start-up, then dies (exit code 3, a message on
  stderr) when asked to search.
- ``dead``: exits before saying anything.
- ``garbage``: chatters unknown commands, then answers ``done move=banana``.
- ``illegal``: answers a well-formed move that is not legal.
- ``silent``: never answers a search.
- ``mute``: never answers at all, not even ``hub``.
- ``bad-info``: reports a score that is not a number.

A third argument names a file where every line received is logged, so that
the tests can check what was sent.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import draughts
from draughts.engine import hub as _hub


def board_from_hub(text: str, variant: str) -> draughts.Board:
    """A board from a Hub ``pos=`` value."""
    board = draughts.Board.empty(variant=variant)
    pieces = {
        "w": (draughts.MAN, draughts.WHITE),
        "b": (draughts.MAN, draughts.BLACK),
        "W": (draughts.KING, draughts.WHITE),
        "B": (draughts.KING, draughts.BLACK),
    }
    for square, letter in enumerate(text[1:], start=1):
        if letter in pieces:
            board.set_piece_at(square, draughts.Piece(*pieces[letter]))
    board.turn = draughts.WHITE if text[0] == "W" else draughts.BLACK
    return board


def main() -> int:
    behaviour = sys.argv[1] if len(sys.argv) > 1 else "normal"
    variant = sys.argv[2] if len(sys.argv) > 2 else "international"
    if behaviour == "dead":
        print("cannot find my evaluation file", file=sys.stderr)
        return 4
    log = open(sys.argv[3], "a") if len(sys.argv) > 3 else None  # noqa: SIM115
    board = draughts.Board(variant=variant)
    for line in sys.stdin:
        if log is not None:
            log.write(line)
            log.flush()
        command, args = _hub.parse_line(line) if line.strip() else ("", {})
        if behaviour == "mute":
            continue
        if command == "hub":
            print('id name=fake version=1.0 author="The draughts tests"')
            print('param name=variant value=normal type=enum values="normal killer"')
            if behaviour == "garbage":
                print("%%% not a protocol line %%%")
            print("wait")
        elif command == "init":
            print("ready")
        elif command == "ping":
            print("pong")
        elif command == "pos":
            board = board_from_hub(args["pos"], variant)
            for text in args.get("moves", "").split():
                move = _hub.parse_move(text, list(board.legal_moves))
                assert move is not None, text
                board.push(move)
        elif command == "go":
            if behaviour == "crash":
                print("fake engine: simulated crash", file=sys.stderr)
                sys.stderr.flush()
                return 3
            if behaviour == "silent":
                continue
            if behaviour == "garbage":
                print("bonjour tout le monde")
                print("done move=banana")
                continue
            if behaviour == "illegal":
                print("done move=1-2")
                continue
            move = next(iter(board.legal_moves))
            pv = [_hub.format_move(move)]
            board.push(move)
            reply = next(iter(board.legal_moves), None)
            if reply is not None:
                pv.append(_hub.format_move(reply))
            board.pop()
            print(
                _hub.format_line(
                    "info", depth="3", score="0.25", nodes="42", time="0.01", pv=" ".join(pv)
                )
            )
            if behaviour == "bad-info":
                print("info depth=4 score=lots")
            print(_hub.format_line("done", move=pv[0], **({"ponder": pv[1]} if reply else {})))
        elif command == "quit":
            return 0
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
