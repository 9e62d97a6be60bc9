"""Hostile PDN input: huge, deep or malformed text is read or reported as an
error, without RecursionError and in time and memory that grow linearly.

Linearity is checked by timing the same input at two sizes, four times
apart: linear work takes about 4x as long, quadratic work 16x; the bound of 9x
leaves room for a noisy machine.
"""

from __future__ import annotations

import io
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

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


def nested(depth: int) -> str:
    # Each "(" opens a variation on the move just played, inside the previous one.
    return "1. 32-28 " + "(1. 33-29 " * depth + ")" * depth + " *"


def shuffle(plies: int) -> str:
    # White's king 50-45-50, Black's king 1-6-1: the two never meet.
    return '[FEN "W:WK50:BK1"] ' + "50-45 1-6 45-50 6-1 " * (plies // 4) + "*"


def test_ten_thousand_nested_variations() -> None:
    game = read(nested(10_000))
    assert game.errors == []
    assert len(game.variations) == 10_001  # every variation replaces 32-28
    text = str(game)
    again = read(text)
    assert len(again.variations) == 10_001 and again.errors == []
    assert_linear(nested, 2_500)


def test_deep_line_of_side_lines() -> None:
    # A variation on every move of a long shuffle: a tree 2,000 levels deep.
    text = '[FEN "W:WK50:BK1"] ' + "50-45 (50-44) 1-6 (1-7) 45-50 (45-40) 6-1 (6-11) " * 500
    game = read(text + "*")
    assert game.errors == []
    depth = len(game.mainline_moves())
    assert depth == 2_000
    assert len(game.end().parent.variations) == 2  # type: ignore[union-attr]
    assert read(str(game)).mainline_moves() == game.mainline_moves()


def test_fifty_megabyte_comment(tmp_path: Path) -> None:
    words = 10_000_000  # "word " is five characters: 50 MB
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
    assert peak < 5 * 50_000_000


def test_million_character_line() -> None:
    junk = read("x" * 1_000_000)
    assert [e.kind for e in junk.errors] == ["syntax"]
    assert len(junk.errors[0].message) < 600  # the quoted text is cut short
    parens = read("(" * 1_000_000)
    assert [e.message for e in parens.errors] == [
        "a variation must follow a move",
        "variation not closed before the end of the game",
    ]
    numbers = read("1. " * 333_333 + "32-28 *")
    assert [str(m) for m in numbers.mainline_moves()] == ["32-28"]
    assert_linear(lambda n: "(" * n, 250_000)


def test_hundred_thousand_plies() -> None:
    game = read(shuffle(100_000))
    assert game.errors == [] and len(game.mainline_moves()) == 100_000
    assert game.end().board().fen() == "W:WK50:BK1"
    lines = str(game).splitlines()
    assert max(len(line) for line in lines) <= 80
    assert_linear(shuffle, 10_000)


def test_fen_naming_a_million_squares() -> None:
    squares = ",".join(str(n) for n in range(1, 1_000_001))
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
