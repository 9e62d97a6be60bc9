"""Write ``openings/international-2move.pdn``: every opening of one move
each side in international draughts (9 x 9 = 81), in a shuffled order
(seed 2026) so that the first openings of the file, which a short match
uses, are varied. The file is the ballot of ``draughts match --openings``.

Run from the repository root: ``python benchmarks/make_ballot.py``.
"""

from __future__ import annotations

import random
from pathlib import Path

import draughts
from draughts import pdn

OUT = Path(__file__).resolve().parent / "openings" / "international-2move.pdn"


def main() -> None:
    board = draughts.Board()
    lines = []
    for first in board.legal_moves:
        board.push(first)
        for reply in board.legal_moves:
            lines.append((first, reply))
        board.pop()
    random.Random(2026).shuffle(lines)
    games = []
    for number, (first, reply) in enumerate(lines, start=1):
        game = pdn.Game()
        game.headers["Event"] = "2-move ballot"
        game.headers["Round"] = str(number)
        game.add_line([first, reply])
        games.append(str(game).rstrip("\n"))
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text("\n\n".join(games) + "\n", encoding="utf-8")
    print(f"{len(games)} openings written to {OUT}")


if __name__ == "__main__":
    main()
