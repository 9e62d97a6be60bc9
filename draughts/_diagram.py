"""Text diagrams of a position (``str(board)`` and ``board.unicode()``)."""

from __future__ import annotations

from collections.abc import Sequence

from draughts._core.geometry import Geometry


def text_diagram(
    t: Geometry,
    men: Sequence[int],
    kings: Sequence[int],
    symbols: tuple[tuple[str, str], tuple[str, str]],
    empty: str,
) -> str:
    """Rows from the top (Black's side) down, one cell per square of the
    board: a symbol ``symbols[colour][kind]`` for a piece, ``empty`` for an
    empty playing square, a space for a square nobody plays on."""
    rows = []
    for row in reversed(range(t.height)):
        cells = []
        for col in range(t.width):
            index = row * t.stride + col
            if not t.square_of_index[index]:
                cells.append(" ")
                continue
            cell = empty
            for c in (0, 1):
                if (men[c] >> index) & 1:
                    cell = symbols[c][0]
                elif (kings[c] >> index) & 1:
                    cell = symbols[c][1]
            cells.append(cell)
        rows.append(" ".join(cells).rstrip())
    return "\n".join(rows)
