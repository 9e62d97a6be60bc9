"""``benchmarks/mobydam_losses.py``: Moby Dam's engine log read into its
moves and scores, lined up with a match's PDN, and the turn of a game
found where Moby Dam's score settles below the threshold for good."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import draughts
from tests.conftest import BENCHMARKS, benchmark_module

# The shape of Moby Dam's log (main/search.c and main/dxp.c print it): a
# search's lines end with its score, then the move; a move received is
# announced first.
LOG = """\
starting game number 1
reached depth=13 move=0
evals=720801 score=-1503
move=1. 32-28
move received from draughts
move=1... 19-23
reached depth=14 move=0
evals=1186831 score=10000000
move=2. 28x19
move received from draughts
move=2... 14x23
"""

GAME = """\
[White "dxp:127.0.0.1:27551"]
[Black "builtin:hard"]
[Result "2-0"]

1. 32-28 19-23 2. 28x19 14x23 2-0
"""


@pytest.fixture(scope="module")
def losses() -> Iterator[ModuleType]:
    yield from benchmark_module("mobydam_losses")


def test_the_log_gives_moby_dams_moves_and_scores(losses: ModuleType, tmp_path: Path) -> None:
    log = tmp_path / "engine.log"
    log.write_text(LOG)
    game = losses.read_log(log)[1]
    assert game.moves == ["32-28", "19-23", "28x19", "14x23"]
    # Ten-millionths of a man into hundredths; None for the opponent's moves.
    assert game.scores == [0, None, 100, None]


def test_the_plies_carry_moby_dams_score_for_us(losses: ModuleType, tmp_path: Path) -> None:
    (tmp_path / "engine.log").write_text(LOG)
    (tmp_path / "games.pdn").write_text(GAME)
    game = next(losses.read_played(tmp_path / "games.pdn"))
    rows = losses.plies_of(game, losses.read_log(tmp_path / "engine.log")[1])
    assert [row.ours for row in rows] == [False, True, False, True]
    assert [row.played for row in rows] == ["32-28", "19-23", "28x19", "14x23"]
    # Moby Dam a man up after its capture: a man down for us.
    assert [row.mobydam for row in rows] == [0, None, -100, None]
    assert rows[0].pieces == 40 and rows[0].free and not rows[2].free


def test_a_log_of_other_moves_is_refused(losses: ModuleType, tmp_path: Path) -> None:
    (tmp_path / "engine.log").write_text(LOG.replace("move=1. 32-28", "move=1. 31-27"))
    (tmp_path / "games.pdn").write_text(GAME)
    game = next(losses.read_played(tmp_path / "games.pdn"))
    assert losses.plies_of(game, losses.read_log(tmp_path / "engine.log")[1]) is None


def test_the_turn_is_where_the_score_settles(losses: ModuleType) -> None:
    def rows(scores: list[int | None]) -> list[object]:
        return [losses.Ply("", "", False, 40, 0, True, score) for score in scores]

    # Below -50 at ply 4, back to -20, then below for good from ply 8.
    assert losses.turn_of(rows([None, 0, None, -100, None, -20, None, -100, -120]), -50) == 7
    assert losses.turn_of(rows([0, -10, None, -49]), -50) is None
    assert losses.turn_of(rows([-50, None, -60]), -50) == 0


def test_the_turn_positions_hold_moby_dams_moves() -> None:
    # benchmarks/mobydam_turns.json: Moby Dam to move in each, its move legal there.
    entries = json.loads((BENCHMARKS / "mobydam_turns.json").read_text())
    assert len(entries) == 29
    for entry in entries:
        board = draughts.Board(entry["fen"], variant="international")
        assert entry["wins"] in {str(move) for move in board.legal_moves}, entry


@pytest.fixture(scope="module")
def turns() -> Iterator[ModuleType]:
    yield from benchmark_module("mobydam_turns")


# A verbose Moby Dam log (main/search.c prints a line each iteration):
# half a man reached at depth 12, dropped at 13, held from 14 on.
VERBOSE = """\
11.complete, 14 ms, score=63072 move=10-14
12.complete, 19 ms, score=5000000 move=10-14
13.complete, 24 ms, score=4000000 move=9-13
14.complete, 52 ms, score=9987841 move=10-14
15.complete, 64 ms, score=9984064 move=10-14
"""


def test_moby_dams_iterations_are_read_from_its_log(turns: ModuleType) -> None:
    rows = turns.iterations("open_endfile: end4.idx not found\n" + VERBOSE)
    assert rows[0] == (11, 14, 1, "10-14")
    assert [depth for depth, _ms, _score, _move in rows] == [11, 12, 13, 14, 15]
    assert rows[3][2] == 100


def test_the_man_is_seen_from_the_iteration_that_holds_it(turns: ModuleType) -> None:
    scores = [score for _depth, _ms, score, _move in turns.iterations(VERBOSE)]
    assert turns.held_from(scores, 50) == 3
    assert turns.held_from([60, 70], 50) == 0
    assert turns.held_from([60, 40], 50) is None
    assert turns.held_from([], 50) is None
