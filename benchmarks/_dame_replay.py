"""Replays games with dame-rs's own rules; run by the dame-rs venv's Python
(``dame_match.py`` starts it), so it imports ``dame`` and not ``draughts``.

Reads JSON on standard input: a list of games, each ``{"number", "positions":
[{"fen", "legal", "played"}, ...]}`` with moves as ``[origin, destination,
[captured...]]``. The first position's FEN starts a ``dame.Board``; at each
position dame's legal moves are compared with ours, then the move played is
pushed (so that dame keeps the game's history for its draw rules). Writes
JSON on standard output: per game ``{"number", "problems", "over", "winner",
"termination"}``, ``winner`` being "white", "black" or null.
"""

from __future__ import annotations

import json
import sys
from collections import Counter

import dame


def key(move: dame.Move) -> tuple[int, int, tuple[int, ...]]:
    return (move.from_square, move.to_square, tuple(sorted(move.captured)))


def replay(game: dict) -> dict:
    problems: list[str] = []
    positions = game["positions"]
    board = dame.Board(positions[0]["fen"]) if positions else dame.Board()
    for ply, position in enumerate(positions):
        ours = [(m[0], m[1], tuple(m[2])) for m in position["legal"]]
        theirs = {key(m): m for m in board.legal_moves}
        if Counter(ours) != Counter(key(m) for m in board.legal_moves):
            problems.append(
                f"ply {ply + 1} ({position['fen']}): moves differ: only ours "
                f"{sorted(set(ours) - set(theirs))}, only dame's {sorted(set(theirs) - set(ours))}"
            )
        played = (position["played"][0], position["played"][1], tuple(position["played"][2]))
        if played not in theirs:
            problems.append(f"ply {ply + 1}: {played} is not legal for dame; replay stopped")
            break
        board.push(theirs[played])
    outcome = board.outcome()
    winner = None
    if outcome is not None and outcome.winner is not None:
        winner = "white" if outcome.winner == dame.WHITE else "black"
    return {
        "number": game["number"],
        "problems": problems,
        "over": outcome is not None,
        "winner": winner,
        "termination": None if outcome is None else str(outcome.termination).rpartition(".")[2],
    }


def main() -> None:
    games = json.load(sys.stdin)
    json.dump([replay(game) for game in games], sys.stdout)


if __name__ == "__main__":
    main()
