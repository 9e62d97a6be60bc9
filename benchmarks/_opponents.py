"""What the opponent match scripts (``dame_match.py``, ``mobydam_match.py``)
share: running ``python -m draughts match`` with its games written to a PDN
file, and reading the games back as positions and moves for the opponent's
own rules to check.

A game is cross-checked position by position: the opponent's move generator
must list the same moves as ours (the same origins, destinations and
captured squares, as many of each) and the move played must be one of them.
Where the opponent also judges the end of a game (dame-rs does), the end
must agree too.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

import draughts  # noqa: E402
from draughts import pdn  # noqa: E402

OPENINGS = HERE / "openings" / "international-2move.pdn"

MoveKey = tuple[int, int, tuple[int, ...]]
"""A move as both sides can name it: origin, destination, captured squares
(sorted)."""


def move_key(move: draughts.Move) -> MoveKey:
    return (move.from_square, move.to_square, tuple(sorted(move.captures)))


def plain_fen(board: draughts.Board) -> str:
    """``board``'s FEN with every square listed (no ranges), which older
    programs read."""
    sides = []
    for color, letter in ((draughts.WHITE, "W"), (draughts.BLACK, "B")):
        squares = []
        for square in sorted(
            (*board.pieces(draughts.MAN, color), *board.pieces(draughts.KING, color))
        ):
            kind = board.piece_at(square)
            assert kind is not None
            squares.append(("K" if kind.kind == draughts.KING else "") + str(square))
        sides.append(letter + ",".join(squares))
    return f"{board.turn.letter}:{sides[0]}:{sides[1]}"


_MEN = {draughts.Piece(draughts.MAN, color) for color in (draughts.WHITE, draughts.BLACK)}
_KINGS = {draughts.Piece(draughts.KING, color) for color in (draughts.WHITE, draughts.BLACK)}


@dataclass
class Position:
    fen: str
    legal: list[MoveKey]
    played: MoveKey


@dataclass
class PlayedGame:
    number: int
    white: str
    black: str
    result: str
    ending: str
    positions: list[Position] = field(default_factory=list)
    final_fen: str = ""
    over: bool = False
    """Whether our rules end the game in its last position (not adjudicated)."""
    winner: str | None = None
    """``white``, ``black`` or None (a draw or no end), by our rules."""
    termination: str | None = None
    """How our rules end the game (``five-move-rule``, ...), or None."""
    plies_since_crowning: int | None = None
    """Plies played after the game's last crowning (None: no man crowned)."""
    plies_since_capture: int | None = None
    """Plies played after the game's last capture (None: nothing taken)."""


# Runs ``python -m draughts`` with settings made first (the names and values
# follow as a JSON object in argv[1]): an upper-case name is a constant of
# draughts.engine.search, a lower-case one a field of the hard level.
_WITH_SETTINGS = """
import importlib, json, runpy, sys
import attrs
search = importlib.import_module("draughts.engine.search")
builtin = importlib.import_module("draughts.engine.builtin")
for name, value in json.loads(sys.argv.pop(1)).items():
    if name.isupper():
        setattr(search, name, value)
    else:
        builtin._LEVELS["hard"] = attrs.evolve(builtin._LEVELS["hard"], **{name: value})
runpy.run_module("draughts", run_name="__main__", alter_sys=True)
"""


def _match_command(
    arguments: Sequence[str], pdn_path: Path, settings: dict[str, int] | None
) -> list[str]:
    start = [sys.executable, "-m", "draughts"]
    if settings:
        start = [sys.executable, "-c", _WITH_SETTINGS, json.dumps(settings)]
    command = [*start, "match", *arguments, "--pdn", str(pdn_path)]
    print("$", " ".join(command), flush=True)
    return command


def run_match(
    arguments: Sequence[str], pdn_path: Path, settings: dict[str, int] | None = None
) -> int:
    """``python -m draughts match ARGUMENTS --pdn PDN_PATH``, its output
    shown as it comes; returns its exit status. ``settings`` are made in
    that process before the match (search experiments, reaching every
    built-in engine of the match): an upper-case name is a constant of
    :mod:`draughts.engine.search`, a lower-case one a field of the hard
    level (``threats``, ``full_width``, ...)."""
    command = _match_command(arguments, pdn_path, settings)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(command, env=env, check=False).returncode


def run_matches(
    runs: Sequence[tuple[Sequence[str], Path]], settings: dict[str, int] | None = None
) -> int:
    """:func:`run_match` for each ``(arguments, pdn_path)`` of ``runs``, all
    at once; each one's output is shown when all have ended. Returns the
    first non-zero exit status, else 0."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    processes = [
        subprocess.Popen(
            _match_command(arguments, pdn_path, settings),
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for arguments, pdn_path in runs
    ]
    status = 0
    for number, process in enumerate(processes, 1):
        output, _ = process.communicate()
        print(f"-- match {number} of {len(processes)}:\n{output}", end="", flush=True)
        status = status or process.returncode
    return status


def share_openings(path: Path, games: int, parts: int, folder: Path) -> list[tuple[Path, int]]:
    """The openings of the first ``games`` games (two a ballot, colours
    swapped) shared out in ``parts`` runs of whole ballots, in order: each
    run's file of openings (in ``folder``) and its number of games."""
    with pdn.open_pdn(path) as handle:
        ballots = list(pdn.read_games(handle))[: (games + 1) // 2]
    if len(ballots) < parts:
        raise SystemExit(f"{path}: {len(ballots)} ballots for {games} games, too few for {parts}")
    shares: list[tuple[Path, int]] = []
    start = 0
    for part in range(parts):
        end = start + (len(ballots) - start) // (parts - part)
        copy = folder / f"openings-{part + 1}.pdn"
        copy.write_text("\n\n".join(str(game) for game in ballots[start:end]) + "\n")
        shares.append((copy, min(2 * (end - start), games - 2 * start)))
        start = end
    return shares


def read_played(pdn_path: Path) -> Iterator[PlayedGame]:
    """The games of a match's PDN file, replayed by our rules."""
    with pdn.open_pdn(pdn_path) as handle:
        number = 0
        while (game := pdn.read_game(handle)) is not None:
            number += 1
            headers = game.headers
            comment = game.end().comment or ""
            played = PlayedGame(
                number,
                headers.get("White", "?"),
                headers.get("Black", "?"),
                headers.get("Result", "*"),
                " ".join(comment.split()),
            )
            board = game.board()
            for move in game.mainline_moves():
                legal = [move_key(m) for m in board.legal_moves]
                played.positions.append(Position(plain_fen(board), legal, move_key(move)))
                was_man = board.piece_at(move.from_square) in _MEN
                board.push(move)
                if played.plies_since_crowning is not None:
                    played.plies_since_crowning += 1
                if played.plies_since_capture is not None:
                    played.plies_since_capture += 1
                if was_man and board.piece_at(move.to_square) in _KINGS:
                    played.plies_since_crowning = 0
                if move.is_capture:
                    played.plies_since_capture = 0
            played.final_fen = plain_fen(board)
            outcome = board.outcome(claim_draw=True)
            played.over = outcome is not None
            played.termination = None if outcome is None else outcome.termination.value
            if outcome is not None and outcome.winner is not None:
                played.winner = "white" if outcome.winner == draughts.WHITE else "black"
            yield played


def compare_moves(ours: list[MoveKey], theirs: list[MoveKey], played: MoveKey) -> str | None:
    """What is wrong with a position's moves as the opponent sees them, or
    None when both sides list the same moves and the move played is one."""
    if Counter(ours) != Counter(theirs):
        only_ours = sorted(set(ours) - set(theirs))
        only_theirs = sorted(set(theirs) - set(ours))
        return f"moves differ: only ours {only_ours}, only theirs {only_theirs}"
    if played not in theirs:
        return f"the move played {played} is not legal for the opponent"
    return None


def summary_line(text: str) -> str:
    """The W/D/L row of the match table for the first engine."""
    rows = [line for line in text.splitlines() if re.match(r"\S+\s+\d+\s+\d+\s+\d+\s+\d+", line)]
    return rows[0] if rows else "(no table)"


def skip_openings(path: Path, skip: int, folder: Path) -> Path:
    """A copy of the PDN file of openings without its first ``skip`` games."""
    with pdn.open_pdn(path) as handle:
        kept = list(pdn.read_games(handle))[skip:]
    if not kept:
        raise SystemExit(f"{path}: no opening left after skipping {skip}")
    copy = folder / "openings.pdn"
    copy.write_text("\n\n".join(str(game) for game in kept) + "\n")
    return copy
