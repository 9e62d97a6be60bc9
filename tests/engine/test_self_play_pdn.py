"""``benchmarks/self_play_pdn.py``: the self-play games it writes read back
as legal International games from a 2-move ballot, each with a result that
its last position bears out."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import draughts
from draughts import pdn

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def ballot_openings() -> set[tuple[str, ...]]:
    out = set()
    with pdn.open_pdn(BENCHMARKS / "openings/international-2move.pdn") as handle:
        while (game := pdn.read_game(handle, variant="international")) is not None:
            out.add(tuple(str(move) for move in game.mainline_moves()))
    return out


def test_the_games_written_are_legal_and_their_results_hold(tmp_path: Path) -> None:
    out = tmp_path / "games.pdn"
    command = [sys.executable, str(BENCHMARKS / "self_play_pdn.py"), "--depth", "2"]
    command += ["--games", "6", "--seed", "3", "--out", str(out)]
    subprocess.run(command, check=True, capture_output=True, timeout=120)
    openings = ballot_openings()
    games = 0
    with pdn.open_pdn(out) as handle:
        while (game := pdn.read_game(handle, variant="international")) is not None:
            games += 1
            assert not game.errors
            board = game.board()
            moves = list(game.mainline_moves())
            assert tuple(str(move) for move in moves[:2]) in openings
            for move in moves:
                assert move in board.legal_moves
                board.push(move)
            result = game.headers["Result"]
            assert result in ("2-0", "1-1", "0-2")
            if not board.legal_moves:  # the side to move has lost
                assert result == ("0-2" if board.turn == draughts.WHITE else "2-0")
            elif result == "1-1":  # a draw rule or the ply limit ended it
                outcome = board.outcome(claim_draw=True)
                assert len(moves) > 300 or (outcome is not None and outcome.winner is None)
            else:  # a search found the win: the game goes on by the rules
                assert board.outcome() is None
    assert games == 6
