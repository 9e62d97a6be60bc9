"""The match benchmarks' cross-check helpers (``benchmarks/_opponents.py``,
``benchmarks/dame_match.py``): the known difference from dame-rs's draw
counts is named only where a man was crowned within the counted plies."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import draughts
from draughts import pdn
from tests.conftest import benchmark_module


@pytest.fixture(scope="module")
def dame_match() -> Iterator[ModuleType]:
    yield from benchmark_module("dame_match")


def play_ending(fen: str, opening: list[tuple[int, int]], seed: int) -> draughts.Board:
    """The ``opening`` moves (origin, destination), then random moves of both
    sides that leave nothing to capture, until the game ends: no piece is
    taken, so a draw rule ends it."""
    board = draughts.Board(fen, variant="international")
    rng = random.Random(seed)
    for wanted in opening:
        board.push(next(m for m in board.legal_moves if (m.from_square, m.to_square) == wanted))
    while board.outcome() is None:
        safe = []
        for move in board.legal_moves:
            board.push(move)
            if not any(reply.is_capture for reply in board.legal_moves):
                safe.append(move)
            board.pop()
        board.push(rng.choice(safe))
    assert not any(move.is_capture for move in board.move_stack)
    return board


def played(board: draughts.Board, tmp_path: Path, dame_match: ModuleType) -> Any:
    path = tmp_path / "game.pdn"
    path.write_text(str(pdn.Game.from_board(board)) + "\n")
    (game,) = dame_match.read_played(path)
    return game


@pytest.mark.parametrize(
    ("fen", "termination", "counted"),
    [("W:WK46,13:BK25", "five-move-rule", 10), ("W:WK46,K50,13:BK25", "sixteen-move-rule", 32)],
)
def test_a_crowning_within_the_ending_is_the_known_difference(
    fen: str, termination: str, counted: int, tmp_path: Path, dame_match: ModuleType
) -> None:
    # The man steps at ply 2 and is crowned at ply 4 (counting from 0).
    board = play_ending(fen, [(46, 41), (25, 20), (13, 8), (20, 25), (8, 2)], seed=3)
    game = played(board, tmp_path, dame_match)
    assert (game.termination, len(game.positions)) == (termination, counted)
    assert game.plies_since_crowning == counted - 5
    assert f"crowning {counted - 5} plies before the end" in dame_match.known_difference(game)


def test_a_capture_within_the_ending_is_the_known_difference(
    tmp_path: Path, dame_match: ModuleType
) -> None:
    # The end of a match game: a king and a man against a king after 26x37
    # (ply 0); 28x46 takes the man at ply 1, leaving king against king. Our
    # count runs from ply 0 and ends the game at ply 10; dame-rs's, from the
    # capture, would end it at ply 11.
    board = draughts.Board("B:WK28,31:B26,K29", variant="international")
    kings = [(29, 18), (46, 5), (18, 22), (5, 46), (22, 33), (46, 5), (33, 29), (5, 46), (29, 18)]
    for wanted in [(26, 37), (28, 46), *kings]:
        board.push(next(m for m in board.legal_moves if (m.from_square, m.to_square) == wanted))
    game = played(board, tmp_path, dame_match)
    assert (game.termination, len(game.positions)) == ("five-move-rule", 11)
    assert (game.plies_since_capture, game.plies_since_crowning) == (9, None)
    assert "capture 9 plies before the end" in dame_match.known_difference(game)
    game.plies_since_capture = 10  # the capture that began the ending: no difference
    assert dame_match.known_difference(game) is None


def test_an_ending_without_a_crowning_is_no_known_difference(
    tmp_path: Path, dame_match: ModuleType
) -> None:
    board = play_ending("W:WK46,K50:BK25", [], seed=1)
    game = played(board, tmp_path, dame_match)
    assert game.termination == "five-move-rule" and game.plies_since_crowning is None
    assert dame_match.known_difference(game) is None


def test_a_crowning_before_the_counted_plies_is_no_known_difference(
    dame_match: ModuleType,
) -> None:
    # A crowning before the ending's count began (the ending arose by a later
    # capture), a win, or another rule: dame-rs counts as we do.
    game = dame_match.PlayedGame(1, "a", "b", "1-1", "", over=True)
    for termination, since, winner in [
        ("five-move-rule", 10, None),
        ("sixteen-move-rule", 32, None),
        ("five-move-rule", 3, "white"),
        ("twenty-five-move-rule", 3, None),
        ("five-move-rule", None, None),
    ]:
        game.termination, game.plies_since_crowning, game.winner = termination, since, winner
        assert dame_match.known_difference(game) is None
    game.termination, game.plies_since_crowning, game.winner = "sixteen-move-rule", 31, None
    assert dame_match.known_difference(game) is not None


def test_skip_openings_leaves_out_the_first_ballots(tmp_path: Path, dame_match: ModuleType) -> None:
    with pdn.open_pdn(dame_match.OPENINGS) as handle:
        ballots = [list(map(str, game.mainline_moves())) for game in pdn.read_games(handle)]
    copy = dame_match.skip_openings(dame_match.OPENINGS, 20, tmp_path)
    with pdn.open_pdn(copy) as handle:
        kept = [list(map(str, game.mainline_moves())) for game in pdn.read_games(handle)]
    assert kept == ballots[20:] and len(kept) == len(ballots) - 20 > 0
    with pytest.raises(SystemExit, match="no opening left"):
        dame_match.skip_openings(dame_match.OPENINGS, len(ballots), tmp_path)


def _ballots(path: Path) -> list[list[str]]:
    with pdn.open_pdn(path) as handle:
        return [list(map(str, game.mainline_moves())) for game in pdn.read_games(handle)]


@pytest.mark.parametrize(("games", "parts"), [(40, 2), (41, 2), (7, 3), (6, 1)])
def test_share_openings_gives_each_part_whole_ballots_in_order(
    tmp_path: Path, dame_match: ModuleType, games: int, parts: int
) -> None:
    opponents = sys.modules["_opponents"]  # imported by dame_match
    ballots = _ballots(opponents.OPENINGS)
    shares = opponents.share_openings(opponents.OPENINGS, games, parts, tmp_path)
    assert len(shares) == parts
    shared = [_ballots(path) for path, _ in shares]
    # Together, in order, the first (games + 1) // 2 ballots, none twice.
    assert [b for part in shared for b in part] == ballots[: (games + 1) // 2]
    # As even as whole ballots allow, and each part plays both colours of
    # each of its ballots, but the last when games is odd.
    assert max(map(len, shared)) - min(map(len, shared)) <= 1
    assert sum(count for _, count in shares) == games
    for (_, count), part in zip(shares[:-1], shared[:-1], strict=True):
        assert count == 2 * len(part)
    with pytest.raises(SystemExit, match="too few"):
        opponents.share_openings(opponents.OPENINGS, 2, 2, tmp_path)
