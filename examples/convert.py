"""Between FEN positions and PDN game records.

    python examples/convert.py fen examples/candidate95.pdn
    python examples/convert.py pdn --variant english "B:W18,K25:B14,10" 14-23

``fen FILE`` prints, for each game of a PDN file, the FEN of its final
position. ``pdn FEN MOVE...`` plays the moves (as written in PDN) from the
position and prints the game as a PDN record (with its ``FEN`` tag).
"""

from __future__ import annotations

import argparse

import draughts
from draughts import pdn


def final_positions(path: str) -> list[str]:
    """The FEN of the last position of each game of the file at ``path``."""
    fens = []
    with pdn.open_pdn(path) as handle:
        for game in pdn.read_games(handle):
            fens.append(game.end().board().fen())
    return fens


def record(fen: str, moves: list[str], variant: str) -> str:
    """The PDN record of ``moves`` played from ``fen``."""
    board = draughts.Board(fen, variant=variant)
    for text in moves:
        board.push_pdn(text)
    return str(pdn.Game.from_board(board))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    to_fen = commands.add_parser("fen", help="the final position of each game of a PDN file")
    to_fen.add_argument("file")
    to_pdn = commands.add_parser("pdn", help="a PDN record of moves played from a FEN")
    to_pdn.add_argument("--variant", default="international")
    to_pdn.add_argument("fen")
    to_pdn.add_argument("moves", nargs="*")
    args = parser.parse_args()
    if args.command == "fen":
        for fen in final_positions(args.file):
            print(fen)
    else:
        print(record(args.fen, args.moves, args.variant))


if __name__ == "__main__":
    main()
