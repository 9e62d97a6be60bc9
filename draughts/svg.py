"""Board diagrams as SVG images.

:func:`board` draws any variant's board: the playing squares with their
numbers (numeric variants) or the files and ranks at the edges (algebraic
variants), men and kings, the last move with its capture route, arrows and
highlighted squares.

>>> import draughts, draughts.svg
>>> board = draughts.Board(variant="english")
>>> move = board.push_pdn("11-15")
>>> svg = draughts.svg.board(board, lastmove=move, size=320)
>>> svg.startswith("<svg")
True

The result is a :class:`str` that Jupyter displays as a picture, and so is a
:class:`~draughts.Board` on its own.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping

import attrs

from draughts.board import Board
from draughts.move import Move
from draughts.piece import BLACK, KING, WHITE, Color

__all__ = ["Arrow", "SvgText", "board"]

SQUARE = 40
"""The side of a square, in SVG user units."""
MARGIN = 16
"""The width of the border that holds the coordinates."""

_COLORS = {
    "light": "#f0d9b5",
    "dark": "#b58863",
    "white": "#fbf7ee",
    "white-edge": "#5a4a3a",
    "black": "#2b2b2b",
    "black-edge": "#000000",
    "lastmove": "#cdd26a",
    "route": "#2d6cdf",
    "captured": "#c0392b",
    "highlight": "#6fa8dc",
    "arrow": "#15781b",
    "coord": "#e8e0d0",
    "border": "#3d2b1f",
}


class SvgText(str):
    """SVG text that notebooks (Jupyter, IPython) show as an image.

    >>> SvgText("<svg/>")._repr_svg_()
    '<svg/>'
    """

    def _repr_svg_(self) -> str:
        return str(self)


@attrs.frozen
class Arrow:
    """An arrow from ``tail`` to ``head`` (square numbers).

    >>> Arrow(32, 28, color="red")
    Arrow(tail=32, head=28, color='red')
    """

    tail: int
    head: int
    color: str = _COLORS["arrow"]


def board(
    board: Board,
    *,
    orientation: Color = WHITE,
    lastmove: Move | None = None,
    arrows: Iterable[Arrow | tuple[int, int]] = (),
    squares: Mapping[int, str] | Iterable[int] = (),
    size: int | None = None,
    coordinates: bool = True,
) -> SvgText:
    """An SVG picture of ``board``.

    :param orientation: the side shown at the bottom.
    :param lastmove: a move to mark: its origin and destination are tinted,
        its route (``move.path``) is drawn as a line and its captured squares
        (``move.captures``) are crossed out. Usually the move just played,
        whose captured pieces are already gone.
    :param arrows: :class:`Arrow` values or ``(tail, head)`` pairs.
    :param squares: squares to highlight: a collection of square numbers, or
        a mapping from square number to a CSS colour.
    :param size: the width in pixels (the height follows the board's shape);
        None leaves the picture at its natural size.
    :param coordinates: write the square numbers in the playing squares
        (numeric variants) or the files and ranks around the board
        (algebraic ones).

    Elements carry classes for styling and inspection: ``square dark s12``
    for playing square 12, ``piece white king s12`` for the piece on it,
    ``lastmove``, ``route``, ``captured``, ``highlight`` and ``arrow``.

    >>> import draughts
    >>> svg = board(draughts.Board("W:WK46:B23", variant="international"),
    ...             squares=[46], arrows=[(46, 19)])
    >>> "piece white king s46" in svg, "piece black man s23" in svg
    (True, True)

    :raises ValueError: for a square that is not on the board.
    """
    if orientation not in (WHITE, BLACK):
        raise ValueError(f"orientation must be WHITE or BLACK, not {orientation!r}")
    variant = board.variant
    geometry = _Geometry(
        variant.width,
        variant.height,
        orientation,
        MARGIN if coordinates and variant.notation == "algebraic" else 0,
    )
    svg = _canvas(board, geometry, size)
    marked, tinted = _marks(board, lastmove, squares)
    _squares(
        svg, board, geometry, marked, tinted, numbers=coordinates and variant.notation == "numeric"
    )
    if coordinates and variant.notation == "algebraic":
        _edges(svg, board, geometry)
    _pieces(svg, board, geometry)
    if lastmove is not None:
        _route(svg, board, geometry, lastmove)
    _arrows(svg, board, geometry, arrows)
    return SvgText(ET.tostring(svg, encoding="unicode"))


def _canvas(board: Board, geometry: _Geometry, size: int | None) -> ET.Element:
    """The ``<svg>`` element with its description and, when the board has a
    margin for coordinates, the border behind it.

    :raises ValueError: for a size that is not positive.
    """
    variant = board.variant
    full = geometry.full_size()
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "version": "1.1",
            "viewBox": f"0 0 {full[0]} {full[1]}",
            "class": f"draughts-board {variant.name}",
        },
    )
    if size is not None:
        if size <= 0:
            raise ValueError(f"the picture size must be positive, not {size!r}")
        svg.set("width", str(size))
        svg.set("height", str(round(size * full[1] / full[0])))
    ET.SubElement(svg, "desc").text = f"{variant.title}: {board.fen()}"
    if geometry.margin:
        ET.SubElement(
            svg,
            "rect",
            {
                "x": "0",
                "y": "0",
                "width": str(full[0]),
                "height": str(full[1]),
                "fill": _COLORS["border"],
            },
        )
    return svg


def _marks(
    board: Board, lastmove: Move | None, squares: Mapping[int, str] | Iterable[int]
) -> tuple[dict[int, str], dict[int, str]]:
    """The squares the last move tints and the highlighted squares with their
    colours, each checked to be on the board.

    :raises ValueError: for a square that is not on the board.
    """
    marked = {} if lastmove is None else {lastmove.from_square: "", lastmove.to_square: ""}
    for square in marked:
        _check(board, square)
    if isinstance(squares, Mapping):
        tinted = {_check(board, s): color for s, color in squares.items()}
    else:
        tinted = {_check(board, s): _COLORS["highlight"] for s in squares}
    return marked, tinted


def _squares(
    svg: ET.Element,
    board: Board,
    geometry: _Geometry,
    marked: dict[int, str],
    tinted: dict[int, str],
    *,
    numbers: bool,
) -> None:
    """Every square of the grid, each with its last-move tint, highlight and
    (if ``numbers``) its number over it."""
    variant = board.variant
    for row in range(variant.height):
        for col in range(variant.width):
            x, y = geometry.corner(row, col)
            number = variant.square_at(row, col)
            cell = ET.SubElement(
                svg,
                "rect",
                {
                    "x": str(x),
                    "y": str(y),
                    "width": str(SQUARE),
                    "height": str(SQUARE),
                    "fill": _COLORS["dark" if number else "light"],
                    "class": f"square dark s{number}" if number else "square light",
                },
            )
            if variant.all_squares:  # one colour everywhere: lines tell squares apart
                cell.set("stroke", _COLORS["border"])
                cell.set("stroke-width", "0.75")
            if number in marked:
                _overlay(svg, x, y, _COLORS["lastmove"], f"lastmove s{number}")
            if number in tinted:
                _overlay(svg, x, y, tinted[number], f"highlight s{number}")
            if number and numbers:
                _number(svg, x, y, number)


def _number(svg: ET.Element, x: int, y: int, number: int) -> None:
    """A square's number in the top-left corner of the square at ``(x, y)``."""
    text = ET.SubElement(
        svg,
        "text",
        {
            "x": str(x + 2),
            "y": str(y + 9),
            "font-size": "8",
            "font-family": "sans-serif",
            "fill": _COLORS["coord"],
            "class": "coord",
        },
    )
    text.text = str(number)


def _pieces(svg: ET.Element, board: Board, geometry: _Geometry) -> None:
    variant = board.variant
    for square, piece in board.piece_map().items():
        _piece(
            svg,
            geometry.center(*variant.coordinates(square)),
            piece.color,
            piece.kind == KING,
            square,
        )


def _arrows(
    svg: ET.Element, board: Board, geometry: _Geometry, arrows: Iterable[Arrow | tuple[int, int]]
) -> None:
    """:raises ValueError: for an arrow end that is not on the board."""
    variant = board.variant
    for arrow in arrows:
        if not isinstance(arrow, Arrow):
            arrow = Arrow(*arrow)
        _arrow(
            svg,
            geometry.center(*variant.coordinates(_check(board, arrow.tail))),
            geometry.center(*variant.coordinates(_check(board, arrow.head))),
            arrow.color,
        )


@attrs.frozen
class _Geometry:
    width: int
    height: int
    orientation: Color
    margin: int

    def full_size(self) -> tuple[int, int]:
        return (self.width * SQUARE + 2 * self.margin, self.height * SQUARE + 2 * self.margin)

    def corner(self, row: int, col: int) -> tuple[int, int]:
        """The top-left corner of the square at (row, col), row 0 nearest White."""
        if self.orientation == WHITE:
            return (self.margin + col * SQUARE, self.margin + (self.height - 1 - row) * SQUARE)
        return (self.margin + (self.width - 1 - col) * SQUARE, self.margin + row * SQUARE)

    def center(self, row: int, col: int) -> tuple[float, float]:
        x, y = self.corner(row, col)
        return (x + SQUARE / 2, y + SQUARE / 2)


def _check(board: Board, square: int) -> int:
    board.variant.coordinates(square)  # raises ValueError naming the square
    return square


def _overlay(svg: ET.Element, x: int, y: int, color: str, cls: str) -> None:
    ET.SubElement(
        svg,
        "rect",
        {
            "x": str(x),
            "y": str(y),
            "width": str(SQUARE),
            "height": str(SQUARE),
            "fill": color,
            "fill-opacity": "0.6",
            "class": cls,
        },
    )


def _edges(svg: ET.Element, board: Board, geometry: _Geometry) -> None:
    """File letters under and ranks beside the board, read from the names of
    the squares in each column and row (the variant decides where a1 is)."""
    variant = board.variant
    files: dict[int, str] = {}
    ranks: dict[int, str] = {}
    for square in variant.squares:
        row, col = variant.coordinates(square)
        name = variant.square_name(square)
        files.setdefault(col, name[0])
        ranks.setdefault(row, name[1:])
    style = {
        "font-size": "11",
        "font-family": "sans-serif",
        "fill": _COLORS["coord"],
        "text-anchor": "middle",
        "class": "coord",
    }
    full_height = geometry.full_size()[1]
    for col, letter in files.items():
        x, _ = geometry.center(0, col)
        text = ET.SubElement(svg, "text", {"x": f"{x:g}", "y": str(full_height - 4), **style})
        text.text = letter
    for row, rank in ranks.items():
        _, y = geometry.center(row, 0)
        text = ET.SubElement(
            svg, "text", {"x": str(geometry.margin // 2), "y": f"{y + 4:g}", **style}
        )
        text.text = rank


def _piece(
    svg: ET.Element, center: tuple[float, float], color: Color, king: bool, square: int
) -> None:
    name = "white" if color == WHITE else "black"
    group = ET.SubElement(
        svg, "g", {"class": f"piece {name} {'king' if king else 'man'} s{square}"}
    )
    cx, cy = center
    fill, edge = _COLORS[name], _COLORS[f"{name}-edge"]
    radius = SQUARE * 0.4
    ET.SubElement(
        group,
        "circle",
        {
            "cx": f"{cx:g}",
            "cy": f"{cy:g}",
            "r": f"{radius:g}",
            "fill": fill,
            "stroke": edge,
            "stroke-width": "1.5",
        },
    )
    ET.SubElement(
        group,
        "circle",
        {
            "cx": f"{cx:g}",
            "cy": f"{cy:g}",
            "r": f"{radius * 0.7:g}",
            "fill": "none",
            "stroke": edge,
            "stroke-width": "1",
        },
    )
    if king:
        # A crown: three points over a band, in the opposite colour.
        mark = _COLORS["black" if color == WHITE else "white"]
        w, h = radius * 0.9, radius * 0.7
        left, top = cx - w / 2, cy - h / 2
        points = [
            (left, top + h),
            (left, top),
            (left + w / 4, top + h / 2),
            (cx, top),
            (left + 3 * w / 4, top + h / 2),
            (left + w, top),
            (left + w, top + h),
        ]
        ET.SubElement(
            group,
            "polygon",
            {
                "points": " ".join(f"{px:.1f},{py:.1f}" for px, py in points),
                "fill": mark,
            },
        )


def _route(svg: ET.Element, board: Board, geometry: _Geometry, move: Move) -> None:
    variant = board.variant
    path = move.path if len(move.path) >= 2 else (move.from_square, move.to_square)
    points = [geometry.center(*variant.coordinates(_check(board, s))) for s in path]
    ET.SubElement(
        svg,
        "polyline",
        {
            "points": " ".join(f"{x:g},{y:g}" for x, y in points),
            "fill": "none",
            "stroke": _COLORS["route"],
            "stroke-width": "3",
            "stroke-opacity": "0.8",
            "stroke-linecap": "round",
            "stroke-linejoin": "round",
            "class": "route",
        },
    )
    for square in move.captures:
        cx, cy = geometry.center(*variant.coordinates(_check(board, square)))
        d = SQUARE * 0.25
        ET.SubElement(
            svg,
            "path",
            {
                "d": f"M{cx - d:g},{cy - d:g}L{cx + d:g},{cy + d:g}M{cx - d:g},{cy + d:g}"
                f"L{cx + d:g},{cy - d:g}",
                "stroke": _COLORS["captured"],
                "stroke-width": "4",
                "class": f"captured s{square}",
            },
        )


def _arrow(
    svg: ET.Element, tail: tuple[float, float], head: tuple[float, float], color: str
) -> None:
    (x1, y1), (x2, y2) = tail, head
    length = math.hypot(x2 - x1, y2 - y1)
    group = ET.SubElement(svg, "g", {"class": "arrow"})
    if length == 0:
        ET.SubElement(
            group,
            "circle",
            {
                "cx": f"{x1:g}",
                "cy": f"{y1:g}",
                "r": str(SQUARE * 0.45),
                "fill": "none",
                "stroke": color,
                "stroke-width": "3",
            },
        )
        return
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    tip = SQUARE * 0.35
    bx, by = x2 - ux * tip, y2 - uy * tip
    ET.SubElement(
        group,
        "line",
        {
            "x1": f"{x1:g}",
            "y1": f"{y1:g}",
            "x2": f"{bx:.1f}",
            "y2": f"{by:.1f}",
            "stroke": color,
            "stroke-width": "5",
            "stroke-opacity": "0.8",
        },
    )
    wing = SQUARE * 0.2
    points = [(x2, y2), (bx - uy * wing, by + ux * wing), (bx + uy * wing, by - ux * wing)]
    ET.SubElement(
        group,
        "polygon",
        {
            "points": " ".join(f"{px:.1f},{py:.1f}" for px, py in points),
            "fill": color,
            "fill-opacity": "0.8",
        },
    )
