"""The reader's loop over a game's plain lines (``play_lines``, in C) against
its oracle, :meth:`draughts.pdn.resolver.Resolver._play_lines_python`: the
same moves visited and played, the same line handed back and the same place
in it, the same lines read, on random movetext cut into lines with blank
lines, lines that are not plain, results and wrong moves among them."""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import draughts
from draughts import variant as V
from draughts.move import Move
from draughts.pdn import _native, lexer
from draughts.pdn.resolver import Resolver

pytestmark = pytest.mark.skipif(
    _native.play_lines is None, reason="the native modules are not built (or DRAUGHTS_PURE=1)"
)

VARIANTS = [V.INTERNATIONAL, V.ENGLISH, V.RUSSIAN, V.THAI, V.FRISIAN]
NOT_PLAIN = ["{a comment}\n", "12. 32-28!\n", '[Event "x"]\n', "(\n", "$3\n"]


def movetext_lines(variant: draughts.Variant, rng: random.Random) -> list[str]:
    """A random game's moves as PDN lines, maybe with a wrong move, blank
    lines, a line that is not plain and a result among them."""
    board = draughts.Board(variant=variant)
    words = []
    # Now and then lines longer than the moves the C loop keeps of a line
    # it reads (KEPT_MOVES in play_line.c), which it reads again move by move.
    breaks = rng.choice([0.25, 0.25, 0.01])
    for ply in range(rng.randrange(1, 50 if breaks > 0.1 else 200)):
        legal = list(board.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        word = f"{move.from_square}{'x' if move.captures else '-'}{move.to_square}"
        if rng.random() < 0.02:
            word = f"{move.to_square}-{move.from_square}"  # not a legal move
        words.append((f"{ply // 2 + 1}. " if ply % 2 == 0 else "") + word)
        board.push(move)
    lines, line = [], []
    for word in words:
        line.append(word)
        if rng.random() < breaks:
            lines.append(" ".join(line) + "\n")
            line = []
            if rng.random() < 0.2:
                lines.append(rng.choice(["\n", " \t\n", "\u2003\n"]))
            if rng.random() < 0.05:
                lines.append(rng.choice(NOT_PLAIN))
    lines.append(" ".join(line) + rng.choice(["", " *", " 2-0", " 1-1"]) + rng.choice(["", "\n"]))
    return lines


def replay(
    play: object, variant: draughts.Variant, lines: list[str], kept: bool = False
) -> tuple[object, ...]:
    """What ``play`` does with ``lines``, each move visited, or (``kept``)
    appended to a list."""
    board = draughts.Board(variant=variant)
    first = lines[0]
    end = lexer._plain_line_end_python(first)
    handle = io.StringIO("".join(lines[1:]))
    seen: list[tuple[int, Move]] = []

    def visit(b: draughts.Board, move: Move) -> None:
        seen.append((b.ply(), move))

    if end < 0:
        return ("not plain",)
    moves: list[Move] = []
    answer = play(board, first, end, moves if kept else visit, handle.readline)  # type: ignore[operator]
    if kept:
        seen = list(enumerate(moves))
    return answer, seen, board.fen(), board.move_stack, handle.read()


@settings(max_examples=300, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1))
def test_the_native_loop_reads_and_plays_as_the_python_one(
    variant: draughts.Variant, seed: int
) -> None:
    lines = movetext_lines(variant, random.Random(seed))
    native = replay(Resolver(variant)._play_lines_native, variant, lines)
    assert native == replay(Resolver(variant)._play_lines_python, variant, lines)
    # The moves kept in a list rather than visited: the same moves, in order.
    kept = replay(Resolver(variant)._play_lines_native, variant, lines, kept=True)
    assert kept == replay(Resolver(variant)._play_lines_python, variant, lines, kept=True)
    assert kept[1:] == native[1:] and kept[0] == native[0]


@pytest.mark.parametrize(
    ("lines", "answer"),
    [
        (["32-28 19-23\n", "28x19 14x23\n"], (4, "28x19 14x23\n", 12, 1)),  # to the end of the file
        (["32-28\n", "\n", "19-23 *\n"], (2, "19-23 *\n", 6, 2)),  # a blank line passed over
        (["32-28\n", "{c}\n", "19-23\n"], (1, "{c}\n", 0, 1)),  # not plain: handed back whole
        (["32-28 2-0\n", "19-23\n"], (1, "32-28 2-0\n", 6, 0)),  # the result ends the loop
        (["32-28\n", "28-32\n"], (1, "28-32\n", 0, 1)),  # a wrong move: back from there
    ],
)
def test_where_the_loop_stops(lines: list[str], answer: tuple[int, str, int, int]) -> None:
    resolver = Resolver(V.INTERNATIONAL)
    assert replay(resolver._play_lines_native, V.INTERNATIONAL, lines)[0] == answer
    assert replay(resolver._play_lines_python, V.INTERNATIONAL, lines)[0] == answer


def test_the_loop_checks_its_readline() -> None:
    assert _native.play_lines is not None
    board = draughts.Board()
    numbers = Resolver(board.variant).numbers
    with pytest.raises(TypeError):
        _native.play_lines(board, "32-28\n", 6, numbers, print, None)
    with pytest.raises(TypeError, match="str"):
        _native.play_lines(board, "32-28\n", 6, numbers, lambda b, m: None, lambda: b"19-23")
    assert len(board.move_stack) == 1  # the first line's move, played before


def test_a_line_longer_than_the_moves_kept_is_played_whole() -> None:
    # A line read in C with more moves than it keeps as it checks the line
    # (KEPT_MOVES in play_line.c) is read again move by move.
    board = draughts.Board(variant=V.INTERNATIONAL)
    rng = random.Random(7)
    words = []
    while len(words) < 90 and board.legal_moves:
        move = rng.choice(list(board.legal_moves))
        words.append(f"{move.from_square}{'x' if move.captures else '-'}{move.to_square}")
        board.push(move)
    assert len(words) == 90
    lines = [words[0] + "\n", " ".join(words[1:]) + " *\n"]
    for kept in (False, True):
        native = replay(Resolver(V.INTERNATIONAL)._play_lines_native, V.INTERNATIONAL, lines, kept)
        assert native == replay(
            Resolver(V.INTERNATIONAL)._play_lines_python, V.INTERNATIONAL, lines, kept
        )
        assert native[0] == (90, lines[1], len(lines[1]) - 2, 1)  # stopped at the "*"
