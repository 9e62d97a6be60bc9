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
            lines.append([first, reply])
        board.pop()
    random.Random(2026).shuffle(lines)
    write_ballots(lines, "international", "2-move ballot", OUT)


def write_ballots(lines: list[list[draughts.Move]], variant: str, event: str, out: Path) -> None:
    """Write each line as a game of its own (``Event`` tag *event*, ``Round``
    its number from 1), in the given order: a ballot file."""
    games = []
    for number, moves in enumerate(lines, start=1):
        game = pdn.Game(variant=variant)
        game.headers["Event"] = event
        game.headers["Round"] = str(number)
        game.add_line(moves)
        games.append(str(game).rstrip("\n"))
    out.parent.mkdir(exist_ok=True)
    out.write_text("\n\n".join(games) + "\n", encoding="utf-8")
    print(f"{len(games)} openings written to {out}")


if __name__ == "__main__":
    main()
