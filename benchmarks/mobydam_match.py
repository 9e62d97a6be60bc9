"""A match against Moby Dam over DXP, every game cross-checked by Moby Dam's
own move generator.

Moby Dam (Harm Jetten's International draughts engine, GPL-3.0, public at
https://github.com/rhalbersma/mobydam, last commit 60cc8d1 of 2019) is built
outside this repository with gcc, the engine in ``main`` and the move
generator test program in ``test``::

    git clone https://github.com/rhalbersma/mobydam /tmp/mobydam
    rm /tmp/mobydam/test/*.o                  # committed objects gcc 12's LTO refuses
    make -C /tmp/mobydam/main                 # the engine: main/mobydam
    make -C /tmp/mobydam/test movegen         # test/movegen FEN: the legal moves
    python benchmarks/mobydam_match.py --mobydam /tmp/mobydam --games 10 --move-time 0.5

The script starts ``main/mobydam`` in a temporary folder as a DXP follower
on ``--port`` (no opening book: ``-b`` names a file that is not there; no
endgame databases: ``-e`` an empty folder; a 2**22-entry table, 64 MiB,
not its default 512 MiB), gives it a hard limit per move with its console
command ``time MS`` (``--mobydam-time``, by default ``--move-time``), and
plays ``python -m draughts match OURS dxp:127.0.0.1:PORT`` from 2-move
ballots with both colours. Then each game is replayed by our rules and
every position given to ``test/movegen``: it must list the same moves as
ours (as many from each origin to each destination: its output names the
landing squares, not the captured ones) and the move played must be one of
them. Exits with status 1 if a game disagrees. ``--set NAME=VALUE``
(repeatable) sets a constant of ``draughts.engine.search`` (upper case) or
a field of the hard level (lower case) in our match process first, to play
a search experiment against Moby Dam, e.g. ``--set LATE_PV=0`` or
``--set threats=1``. ``--concurrency N`` plays N games at once: N Moby
Dams, each in its own folder on its own port from ``--port`` on, and N
matches, the ballots shared out among them in runs of whole ballots; their
games are then put together in order, scored as one match and checked.
(Only one side of a game thinks at a time, so each game keeps about one
core busy.) Last, what Moby Dam's
engine log (``engine.log`` in its folder, where it sends its standard
output once it serves DXP) says of its searches: how many, the depth each
reached on average (its last iteration, complete or not) and the nodes each
took.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from _opponents import (
    OPENINGS,
    read_played,
    run_match,
    run_matches,
    share_openings,
    skip_openings,
)

from draughts.engine import MatchScore
from draughts.pdn import result_points

# Lines of Moby Dam's engine log after each search (main/search.c prints them).
REACHED = re.compile(r"^reached depth=(\d+) move=\d+", re.MULTILINE)
NODES = re.compile(r"^nodes total=(\d+)", re.MULTILINE)

# A move line of movegen's output: the move, then its landing squares.
MOVE_LINE = re.compile(r"^(\d+)[-x](\d+) (\d+(?:[-x]\d+)+) *$")


def mobydam_moves(movegen: Path, fen: str) -> list[tuple[int, int]]:
    """Origins and destinations of the moves ``movegen`` lists for ``fen``."""
    out = subprocess.run(
        [str(movegen), fen], capture_output=True, text=True, check=True, timeout=30
    ).stdout
    count = re.search(r"nr\. of moves = (\d+)", out)
    if count is None:
        raise SystemExit(f"{movegen} {fen!r}: no move count in its output:\n{out}")
    moves = [(int(m[1]), int(m[2])) for m in map(MOVE_LINE.match, out.splitlines()) if m]
    if len(moves) != int(count[1]):
        raise SystemExit(f"{movegen} {fen!r}: {count[1]} moves announced, {len(moves)} read")
    return moves


def start_follower(engine: Path, folder: Path, port: int, move_ms: int) -> subprocess.Popen[bytes]:
    """Moby Dam listening on ``port``, once it says it is ready. Its
    standard input stays open (it reads console commands from it, and
    would spin on a closed one); its output goes to ``folder/console.txt``."""
    console = open(folder / "console.txt", "wb")  # noqa: SIM115 - the process keeps it
    process = subprocess.Popen(
        [str(engine), "-p", str(port), "-t", "22", "-b", "no-book.opn", "-e", str(folder)],
        cwd=folder,
        stdin=subprocess.PIPE,
        stdout=console,
        stderr=subprocess.STDOUT,
    )
    console.close()
    assert process.stdin is not None
    process.stdin.write(f"time {move_ms}\n".encode())
    process.stdin.flush()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"{engine} exited with status {process.returncode}")
        if b"ready" in (folder / "console.txt").read_bytes():
            return process
        time.sleep(0.2)
    process.kill()
    raise SystemExit(f"{engine} did not say it was ready: see {folder / 'console.txt'}")


def stop_follower(process: subprocess.Popen[bytes]) -> None:
    if process.stdin is not None and process.poll() is None:
        try:
            process.stdin.write(b"exit\n")
            process.stdin.flush()
        except OSError:
            pass
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def search_figures(logs: Sequence[Path]) -> str:
    """Moby Dam's searches as its engine logs report them, in one line."""
    text = "".join(log.read_text(errors="replace") for log in logs if log.exists())
    depths = [int(d) for d in REACHED.findall(text)]
    nodes = [int(n) for n in NODES.findall(text)]
    if not depths:
        return f"Moby Dam: no search reported in {', '.join(map(str, logs))}"
    line = f"Moby Dam: {len(depths)} searches, depth {sum(depths) / len(depths):.1f} on average"
    if nodes:
        line += f", {sum(nodes) / len(nodes):,.0f} nodes each"
    return line


def cross_check(pdn_path: Path, movegen: Path) -> int:
    """Replay every game by our rules and Moby Dam's; the games that disagree."""
    wrong = 0
    games = 0
    for game in read_played(pdn_path):
        games += 1
        problems = []
        for ply, position in enumerate(game.positions, 1):
            ours = Counter((origin, dest) for origin, dest, _captured in position.legal)
            theirs = Counter(mobydam_moves(movegen, position.fen))
            if ours != theirs:
                problems.append(f"ply {ply} ({position.fen}): ours {ours}, Moby Dam's {theirs}")
            if position.played[:2] not in theirs:
                problems.append(f"ply {ply}: {position.played} is not legal for Moby Dam")
        # A win by our rules: the loser has no move (movegen cannot read a
        # side without pieces; those endings need no second opinion).
        both_sides = re.fullmatch(r"[WB]:W\S+:B\S+", game.final_fen)
        if game.winner is not None and both_sides and mobydam_moves(movegen, game.final_fen):
            problems.append(f"we end the game ({game.ending}), Moby Dam has moves")
        wrong += bool(problems)
        status = "ok" if not problems else "DISAGREES"
        print(f"game {game.number:>3}: {game.result:<4} {len(game.positions):>3} plies  {status}")
        for problem in problems[:5]:
            print(f"    {problem}")
    print(f"cross-check by Moby Dam's move generator: {games - wrong} of {games} games agree")
    return wrong


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mobydam", type=Path, required=True, help="the built source folder")
    parser.add_argument("--ours", default="builtin:hard", help="our engine (a match spec)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--move-time", type=float, default=0.5, help="our seconds a move")
    parser.add_argument("--mobydam-time", type=float, help="Moby Dam's (default: the same)")
    parser.add_argument("--port", type=int, default=27541)
    parser.add_argument("--openings", type=Path, default=OPENINGS)
    parser.add_argument("--skip", type=int, default=0, help="openings of the file to skip first")
    parser.add_argument("--pdn", type=Path, help="keep the games here (default: a temporary file)")
    parser.add_argument("--check-only", action="store_true", help="only cross-check --pdn")
    parser.add_argument(
        "--concurrency",
        type=int,
        default=1,
        help="games at once: a Moby Dam of its own for each, on ports from --port on",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a constant of draughts.engine.search (upper case) or a field of the hard level",
    )
    args = parser.parse_args()
    engine, movegen = args.mobydam / "main" / "mobydam", args.mobydam / "test" / "movegen"
    for program in (engine, movegen):
        if not program.exists():
            raise SystemExit(f"{program}: not built (see the commands at the top of this script)")
    folder = tempfile.TemporaryDirectory()
    pdn_path = args.pdn or Path(folder.name) / "mobydam.pdn"
    if args.skip:
        args.openings = skip_openings(args.openings, args.skip, Path(folder.name))
    if not args.check_only:
        status = play(args, engine, Path(folder.name), pdn_path)
        if status:
            return status
    return 1 if cross_check(pdn_path, movegen) else 0


def play(args: argparse.Namespace, engine: Path, folder: Path, pdn_path: Path) -> int:
    """The match (or, with ``--concurrency``, its parts at once), its games
    into ``pdn_path``; returns the first non-zero exit status, else 0."""
    settings = {name: int(value) for name, _, value in (s.partition("=") for s in args.set)}
    move_ms = round((args.mobydam_time or args.move_time) * 1000)
    if args.concurrency > 1:
        shares = share_openings(args.openings, args.games, args.concurrency, folder)
    else:
        shares = [(args.openings, args.games)]
    runs, followers, logs = [], [], []
    try:
        for part, (openings, games) in enumerate(shares):
            home = folder / f"mobydam-{part + 1}"
            home.mkdir()
            port = args.port + part
            followers.append(start_follower(engine, home, port, move_ms))
            logs.append(home / "engine.log")
            arguments = [
                args.ours,
                f"dxp:127.0.0.1:{port}",
                "--games", str(games),
                "--move-time", str(args.move_time),
                "--openings", str(openings),
                "--event", "draughts v Moby Dam",
            ]  # fmt: skip
            runs.append((arguments, home / "games.pdn" if len(shares) > 1 else pdn_path))
        status = run_match(*runs[0], settings) if len(runs) == 1 else run_matches(runs, settings)
    finally:
        for follower in followers:
            stop_follower(follower)
    if len(runs) > 1:
        parts = [path.read_text() for _, path in runs if path.exists()]
        pdn_path.write_text("\n".join(text.rstrip("\n") + "\n" for text in parts))
        print(combined_score(pdn_path, args.ours))
    print(search_figures(logs))
    return status


def combined_score(pdn_path: Path, ours: str) -> str:
    """The score of all the games of ``pdn_path`` for ``ours`` (named so in
    the games' White or Black header) against Moby Dam, as a table."""
    score = MatchScore(ours, "Moby Dam")
    for game in read_played(pdn_path):
        points = result_points(game.result, "international")
        ours_points = None if points is None else points[game.white != ours]
        ours_won = None if ours_points in (None, 0.5) else ours_points == 1.0
        score = score.add(ours_won, finished=points is not None)
    return score.table()


if __name__ == "__main__":
    sys.exit(main())
