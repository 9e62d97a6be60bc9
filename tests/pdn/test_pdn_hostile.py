"""Hostile PDN input: huge, deep or malformed text is read or reported as an
error, without RecursionError and in time and memory that grow linearly.

Linearity is checked by timing the same input at two sizes, four times
apart: linear work takes about 4x as long, quadratic work 16x; the bound of 9x
leaves room for a noisy machine.

Each test runs at a tenth of its size by default (still past the recursion
limit and the sizes a regular expression or a copy per token would choke
on), and at full size, with the linearity check, in ``-m slow``.
"""

from __future__ import annotations

import io
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from draughts import pdn


def read(text: str) -> pdn.Game:
    game = pdn.read_game(io.StringIO(text))
    assert game is not None
    return game


def seconds(work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(2):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return max(best, 1e-3)


def assert_linear(make: Callable[[int], str], small: int) -> None:
    texts = make(small), make(4 * small)
    ratio = seconds(lambda: read(texts[1])) / seconds(lambda: read(texts[0]))
    assert ratio < 9, ratio


def sizes(full: int, small: int | None = None) -> list[object]:
    """``small`` (a tenth of ``full``) in the default run, ``full`` in ``-m slow``."""
    small = full // 10 if small is None else small
    return [
        pytest.param(small, False, id=f"{small:_}"),
        pytest.param(full, True, marks=pytest.mark.slow, id=f"{full:_}"),
    ]


def nested(depth: int) -> str:
    # Each "(" opens a variation on the move just played, inside the previous one.
    return "1. 32-28 " + "(1. 33-29 " * depth + ")" * depth + " *"


def shuffle(plies: int) -> str:
    # White's king 50-45-50, Black's king 1-6-1: the two never meet.
    return '[FEN "W:WK50:BK1"] ' + "50-45 1-6 45-50 6-1 " * (plies // 4) + "*"


@pytest.mark.parametrize(("depth", "full"), sizes(10_000, small=2_000))  # twice the recursion limit
def test_ten_thousand_nested_variations(depth: int, full: bool) -> None:
    game = read(nested(depth))
    assert game.errors == []
    assert len(game.variations) == depth + 1  # every variation replaces 32-28
    text = str(game)
    again = read(text)
    assert len(again.variations) == depth + 1 and again.errors == []
    if full:
        assert_linear(nested, depth // 4)


def test_deep_line_of_side_lines() -> None:
    # A variation on every move of a long shuffle: a tree 2,000 levels deep.
    text = '[FEN "W:WK50:BK1"] ' + "50-45 (50-44) 1-6 (1-7) 45-50 (45-40) 6-1 (6-11) " * 500
    game = read(text + "*")
    assert game.errors == []
    depth = len(game.mainline_moves())
    assert depth == 2_000
    assert len(game.end().parent.variations) == 2  # type: ignore[union-attr]
    assert read(str(game)).mainline_moves() == game.mainline_moves()


@pytest.mark.parametrize(("words", "full"), sizes(10_000_000))
def test_fifty_megabyte_comment(tmp_path: Path, words: int, full: bool) -> None:
    # "word " is five characters: 50 MB at full size
    path = tmp_path / "comment.pdn"
    path.write_text("1. 32-28 {" + "word " * words + "} 19-23 *")
    tracemalloc.start()
    with path.open() as handle:
        game = pdn.read_game(handle)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert game is not None and game.errors == []
    assert len(game.variations[0].comment) == 5 * words - 1
    assert [str(m) for m in game.mainline_moves()] == ["32-28", "19-23"]
    # The line, the comment and copies while folding spaces: no object per word.
    assert peak < 5 * 5 * words


@pytest.mark.parametrize(("size", "full"), sizes(1_000_000))
def test_million_character_line(size: int, full: bool) -> None:
    junk = read("x" * size)
    assert [e.kind for e in junk.errors] == ["syntax"]
    assert len(junk.errors[0].message) < 600  # the quoted text is cut short
    parens = read("(" * size)
    assert [e.message for e in parens.errors] == [
        "a variation must follow a move",
        "variation not closed before the end of the game",
    ]
    numbers = read("1. " * (size // 3) + "32-28 *")
    assert [str(m) for m in numbers.mainline_moves()] == ["32-28"]
    if full:
        assert_linear(lambda n: "(" * n, size // 4)


@pytest.mark.parametrize(("plies", "full"), sizes(100_000))
def test_hundred_thousand_plies(plies: int, full: bool) -> None:
    game = read(shuffle(plies))
    assert game.errors == [] and len(game.mainline_moves()) == plies
    assert game.end().board().fen() == "W:WK50:BK1"
    lines = str(game).splitlines()
    assert max(len(line) for line in lines) <= 80
    if full:
        assert_linear(shuffle, plies // 10)


@pytest.mark.parametrize(("count", "full"), sizes(1_000_000))
def test_fen_naming_a_million_squares(count: int, full: bool) -> None:
    squares = ",".join(str(n) for n in range(1, count + 1))
    game = read(f'[FEN "W:W{squares}:B"] 1. 32-28 *')
    assert [e.kind for e in game.errors] == ["fen"]
    assert len(game.errors[0].message) < 600
    assert game.mainline_moves() == []


def test_unclosed_comment_swallows_the_rest_as_an_error() -> None:
    handle = io.StringIO("1. 32-28 {open\n" + "more text\n" * 100_000 + '[Event "x"] *')
    game = pdn.read_game(handle)
    assert game is not None
    assert game.errors[0].message == "comment not closed before the end of the file"
    assert pdn.read_game(handle) is None


@pytest.mark.parametrize("digits", [10, 5000])
def test_a_nag_of_too_many_digits_is_an_error_not_a_crash(digits: int) -> None:
    text = "1. 11-15 $" + "9" * digits + " 24-20 0-1"
    game = pdn.read_game(io.StringIO(text), variant="english")
    assert game is not None
    assert [(e.kind, e.column) for e in game.errors] == [("syntax", 10)]
    assert "out of range" in game.errors[0].message
    assert [str(m) for m in game.mainline_moves()] == ["11-15", "24-20"]
    again = pdn.read_game(io.StringIO(str(game)), variant="english")
    assert again is not None and again.errors[0].kind == "syntax"
    assert (
        pdn.read_game(io.StringIO("1. 11-15 $123456789 24-20 0-1"), variant="english").errors == []
    )


@pytest.mark.parametrize("value", ["a\rb", "a\rb\rc", "\r"])
def test_a_line_break_in_a_tag_value_is_a_warning_not_a_crash(value: str) -> None:
    # Text read without newline translation keeps a bare carriage return
    # inside a line: the value reads with a space there, and says so.
    game = pdn.read_game(io.StringIO(f'[Event "{value}"]\n[GameType "20"]\n1. 32-28 *'))
    assert game is not None and not game.errors
    assert game.headers["Event"] == " ".join(value.splitlines())
    assert [w.kind for w in game.warnings] == ["syntax"]
    again = pdn.read_game(io.StringIO(str(game)))
    assert again is not None and again.headers["Event"] == game.headers["Event"]
