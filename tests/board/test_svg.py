"""draughts.svg: the pictures are parsed back and their squares and pieces
checked against the board."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import draughts
import draughts.svg

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def classes(root: ET.Element, word: str) -> list[list[str]]:
    return [
        el.get("class", "").split() for el in root.iter() if word in el.get("class", "").split()
    ]


def square_of(cls: list[str]) -> int:
    return next(int(c[1:]) for c in cls if c[0] == "s" and c[1:].isdigit())


def rect_corner(root: ET.Element, square: int) -> tuple[float, float]:
    for el in root.iter(f"{NS}rect"):
        cls = el.get("class", "").split()
        if "square" in cls and f"s{square}" in cls:
            return float(el.get("x", "")), float(el.get("y", ""))
    raise AssertionError(f"no square {square}")


@pytest.mark.parametrize("variant", [v.name for v in draughts.VARIANTS])
def test_squares_and_pieces_match_the_board(variant: str) -> None:
    board = draughts.Board(variant=variant)
    root = parse(draughts.svg.board(board))
    # Every square of the width x height grid is drawn once; the dark ones
    # are exactly the playing squares, each named once.
    squares = classes(root, "square")
    assert len(squares) == board.variant.width * board.variant.height
    dark = sorted(square_of(c) for c in squares if "dark" in c)
    assert dark == list(board.variant.squares)
    pieces = {square_of(c): (c[1], c[2]) for c in classes(root, "piece")}
    expected = {
        s: (p.color.name.lower(), p.kind.name.lower()) for s, p in board.piece_map().items()
    }
    assert pieces == expected


def test_kings_are_drawn_differently_from_men() -> None:
    board = draughts.Board("W:WK46,31:BK5,20", variant="international")
    root = parse(draughts.svg.board(board))
    groups = {
        square_of(el.get("class", "").split()): el
        for el in root.iter(f"{NS}g")
        if "piece" in el.get("class", "")
    }
    assert groups[46].get("class") == "piece white king s46"
    assert groups[31].get("class") == "piece white man s31"
    # A king carries a crown (a polygon) that a man does not.
    assert groups[46].find(f"{NS}polygon") is not None
    assert groups[5].find(f"{NS}polygon") is not None
    assert groups[31].find(f"{NS}polygon") is None


def test_orientation_puts_the_chosen_side_at_the_bottom() -> None:
    # International square 46 is White's bottom-left corner and 5 Black's.
    board = draughts.Board()
    white = parse(draughts.svg.board(board))
    black = parse(draughts.svg.board(board, orientation=draughts.BLACK))
    assert rect_corner(white, 46) == (0, 360) and rect_corner(white, 5) == (360, 0)
    assert rect_corner(black, 46) == (360, 0) and rect_corner(black, 5) == (0, 360)


def test_numeric_variants_number_the_squares() -> None:
    root = parse(draughts.svg.board(draughts.Board(variant="english")))
    numbers = sorted(int(el.text or "") for el in root.iter(f"{NS}text"))
    assert numbers == list(range(1, 33))
    bare = parse(draughts.svg.board(draughts.Board(variant="english"), coordinates=False))
    assert not list(bare.iter(f"{NS}text"))


def test_algebraic_variants_label_files_and_ranks() -> None:
    root = parse(draughts.svg.board(draughts.Board(variant="russian")))
    labels = [el.text for el in root.iter(f"{NS}text")]
    assert sorted(labels) == sorted([*"abcdefgh", *"12345678"])  # type: ignore[type-var]
    # a1 is the bottom-left playing square in Russian notation.
    (a1,) = [
        s
        for s in draughts.find_variant("russian").squares
        if draughts.find_variant("russian").square_name(s) == "a1"
    ]
    assert rect_corner(root, a1) == (draughts.svg.MARGIN, draughts.svg.MARGIN + 7 * 40)


def test_lastmove_route_and_captures() -> None:
    # The white king on 46 takes 28 and 19 along the long diagonal, stopping
    # on 23 between them (path 46, 23, 5).
    board = draughts.Board("W:WK46:B28,19,3", variant="international")
    move = board.parse_pdn("46x5")
    assert move.path == (46, 23, 5)
    board.push(move)
    root = parse(draughts.svg.board(board, lastmove=move))
    assert sorted(square_of(c) for c in classes(root, "lastmove")) == [5, 46]
    assert sorted(square_of(c) for c in classes(root, "captured")) == [19, 28]
    (route,) = [el for el in root.iter(f"{NS}polyline") if el.get("class") == "route"]
    points = [tuple(map(float, p.split(","))) for p in (route.get("points") or "").split()]
    # Square centres (40 units a square): 46 in the bottom-left corner, 23 in
    # column 5 and row 5 counted from 0 at the bottom left, 5 top right.
    assert points == [(20, 380), (220, 180), (380, 20)]


def test_highlights_and_arrows() -> None:
    board = draughts.Board(variant="english")
    root = parse(draughts.svg.board(board, squares={12: "red"}, arrows=[(22, 18)]))
    (mark,) = [el for el in root.iter(f"{NS}rect") if "highlight" in el.get("class", "")]
    assert mark.get("fill") == "red" and mark.get("class") == "highlight s12"
    assert len(classes(root, "arrow")) == 1
    plain = parse(draughts.svg.board(board, squares=[1, 2]))
    assert sorted(square_of(c) for c in classes(plain, "highlight")) == [1, 2]


def test_size_sets_width_and_height() -> None:
    root = parse(draughts.svg.board(draughts.Board(variant="russian"), size=200))
    assert (root.get("width"), root.get("height")) == ("200", "200")
    assert root.get("viewBox") == f"0 0 {320 + 2 * draughts.svg.MARGIN} {320 + 2 * 16}"


def test_bad_input_is_named() -> None:
    board = draughts.Board(variant="english")
    with pytest.raises(ValueError, match="no square 33 on the english board"):
        draughts.svg.board(board, squares=[33])
    with pytest.raises(ValueError, match="no square 0"):
        draughts.svg.board(board, arrows=[(0, 5)])
    with pytest.raises(ValueError, match="size must be positive"):
        draughts.svg.board(board, size=0)
    with pytest.raises(ValueError, match="orientation must be WHITE or BLACK, not 'black'"):
        draughts.svg.board(board, orientation="black")  # type: ignore[arg-type]


def test_board_renders_itself_in_notebooks() -> None:
    board = draughts.Board(variant="english")
    board.push_pdn("11-15")
    root = parse(board._repr_svg_())
    assert sorted(square_of(c) for c in classes(root, "lastmove")) == [11, 15]


def test_docs_pictures_are_current() -> None:
    import importlib.util

    static = Path(__file__).resolve().parents[2] / "docs" / "_static"
    spec = importlib.util.spec_from_file_location("diagrams", static / "diagrams.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, svg in module.diagrams().items():
        assert (static / name).read_text(encoding="utf-8") == svg + "\n", (
            f"docs/_static/{name} is stale: run python docs/_static/diagrams.py"
        )
