"""Write the pictures shown in the docs: ``python docs/_static/diagrams.py``.

``tests/board/test_svg.py`` checks that the files here are what this script makes,
so the pictures cannot drift from the code.
"""

from __future__ import annotations

from pathlib import Path

import draughts
import draughts.svg


def diagrams() -> dict[str, str]:
    """File name -> SVG text of every picture in the docs."""
    # A flying king's capture: 46 takes 28, stops on 23, takes 19 and ends on 5.
    board = draughts.Board("W:WK46,33:B28,19,9,K3", variant="international")
    move = board.push_pdn("46x23x5")
    king = draughts.svg.board(board, lastmove=move, size=360)
    # Russian start position seen by Black, with an arrow and marked squares.
    russian = draughts.Board(variant="russian")
    c3, d4 = russian.variant.parse_square("c3"), russian.variant.parse_square("d4")
    start = draughts.svg.board(
        russian, orientation=draughts.BLACK, size=360, arrows=[(c3, d4)], squares=[c3, d4]
    )
    return {"international-capture.svg": king, "russian-black.svg": start}


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    for name, svg in diagrams().items():
        (here / name).write_text(svg + "\n", encoding="utf-8")
