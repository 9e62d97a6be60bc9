"""A match against dame-rs (PyPI ``dame-rs``, a Rust International draughts
engine with a Hub mode), every game cross-checked by dame-rs's own rules.

dame-rs lives in a venv of its own (it installs a module named ``dame`` and
a ``dame`` program)::

    python3 -m venv /work/venvs/dame && /work/venvs/dame/bin/pip install dame-rs
    python benchmarks/dame_match.py --dame-venv /work/venvs/dame --games 20 --move-time 0.2

``--concurrency 2`` plays two games at once: one side of a game thinks at
a time, so each game keeps about one core busy, and two fill a 2-core
machine that has nothing else to do (on a machine shared with other work,
both sides of both games lose the same share, but the figures then say
less about 1 s on a core).

The match is ``python -m draughts match OURS "hub:VENV/bin/dame hub"`` from
2-move ballots (``benchmarks/openings/international-2move.pdn``, each played
with both colours), its games written to a PDN file. Every game is then
replayed by ``VENV/bin/python benchmarks/_dame_replay.py``: at each position
dame's legal moves must be ours (origins, destinations and captured squares),
the move played one of them, and where our rules end the game dame's must
end it with the same winner. One known difference is named, not counted as a
disagreement: dame-rs starts the five- and sixteen-move counts again when a
man is crowned within the ending, where ours run on (see
``COUNTED_PLIES``). The script prints the match's lines and table, then the
cross-check, and exits with status 1 if any game disagrees.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _opponents import OPENINGS, PlayedGame, read_played, run_match, skip_openings

# Our five- and sixteen-move rules count from the moment the ending arises,
# through the crowning of a man within it (a king and a man against a king
# becoming two kings against a king) or a capture within it (a king and a
# man against a king becoming king against king), as FMJD's rules keep the
# 16 moves when a piece is taken within them; dame-rs 0.2 starts its count
# again at the crowning or the capture, so it ends such games later or, as
# our match stops at our end, not at all. Checked on dame-rs's own Board:
# from "W:WK46,13:BK25", the man crowning at ply 4, dame-rs ends the game by
# the five-move rule at ply 15 and ours at ply 10; with a second white king
# on 50, by the sixteen-move rule at 37 and 32; from "B:WK28,31:B26,K29"
# (26x37, then 28x46 takes the man at ply 2), dame-rs at ply 12, ours at 10.
COUNTED_PLIES = {"five-move-rule": 10, "sixteen-move-rule": 32}


def known_difference(game: PlayedGame) -> str | None:
    """Why dame-rs does not end a game our rules end, where that is its
    known difference from FMJD's counting; None otherwise."""
    plies = COUNTED_PLIES.get(game.termination or "")
    changes = [
        (since, what)
        for since, what in (
            (game.plies_since_crowning, "crowning"),
            (game.plies_since_capture, "capture"),
        )
        if since is not None
    ]
    if plies is None or not changes or game.winner is not None:
        return None
    since, what = min(changes)  # the latest: dame-rs counts from there
    if since >= plies:
        return None
    return (
        f"our {game.termination} counts from the start of the ending; dame-rs"
        f" restarts it at the {what} {since} plies before the end"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dame-venv", type=Path, default=Path("/work/venvs/dame"))
    parser.add_argument("--ours", default="builtin:hard", help="our engine (a match spec)")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--move-time", type=float, default=0.2, help="seconds a move, both")
    parser.add_argument("--openings", type=Path, default=OPENINGS)
    parser.add_argument("--skip", type=int, default=0, help="openings of the file to skip first")
    parser.add_argument("--pdn", type=Path, help="keep the games here (default: a temporary file)")
    parser.add_argument(
        "--concurrency",
        type=int,
        default=1,
        help="games played at once (each uses about one core: one side thinks at a time)",
    )
    parser.add_argument("--check-only", action="store_true", help="only cross-check --pdn")
    args = parser.parse_args()
    dame = args.dame_venv / "bin" / "dame"
    python = args.dame_venv / "bin" / "python"
    if not dame.exists():
        raise SystemExit(f"{dame}: no dame program (pip install dame-rs into that venv)")
    folder = tempfile.TemporaryDirectory()
    pdn_path = args.pdn or Path(folder.name) / "dame.pdn"
    if args.skip:
        args.openings = skip_openings(args.openings, args.skip, Path(folder.name))
    if not args.check_only:
        status = run_match(
            [
                args.ours,
                f"hub:{dame} hub",
                "--games", str(args.games),
                "--move-time", str(args.move_time),
                "--openings", str(args.openings),
                "--event", "draughts v dame-rs",
                "--concurrency", str(args.concurrency),
            ],
            pdn_path,
        )  # fmt: skip
        if status:
            return status
    games = list(read_played(pdn_path))
    verdicts = subprocess.run(
        [str(python), str(Path(__file__).with_name("_dame_replay.py"))],
        input=json.dumps([dataclasses.asdict(g) for g in games]),
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    wrong = known = 0
    for game, verdict in zip(games, json.loads(verdicts.stdout), strict=True):
        problems = list(verdict["problems"])
        difference = known_difference(game) if not verdict["over"] else None
        if difference is not None:
            known += 1
            problems.append(f"a known difference: {difference}")
        elif game.over and not verdict["over"]:
            problems.append(f"our rules end the game ({game.ending}); dame's do not")
        elif game.over and verdict["winner"] != game.winner:
            problems.append(f"winner: ours {game.winner}, dame's {verdict['winner']}")
        disagrees = len(problems) > (difference is not None)
        wrong += disagrees
        plies = len(game.positions)
        status = "DISAGREES" if disagrees else "ok"
        ended = f"dame: {verdict['termination'] or 'not over'}"
        print(f"game {game.number:>3}: {game.result:<4} {plies:>3} plies, {ended:<24} {status}")
        for problem in problems:
            print(f"    {problem}")
    print(
        f"cross-check by dame-rs's rules: {len(games) - wrong} of {len(games)} games agree"
        f" ({known} of them ended by a count dame-rs restarts at a crowning or a capture)"
    )
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
