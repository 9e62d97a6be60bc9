"""Where and why the games against Moby Dam are lost: Moby Dam's own
judgement of every position it moved in, beside ours.

    python benchmarks/mobydam_losses.py GAMES.pdn --log ENGINE.log --long 5

``GAMES.pdn`` is a match's ``--pdn`` file from ``benchmarks/mobydam_match.py``
and ``ENGINE.log`` Moby Dam's engine log of the same match (``engine.log`` in
the match's temporary folder: link it elsewhere while the match runs, the
folder goes with the match). After every search Moby Dam prints its score
(``score=``, in ten-millionths of a man, for the side to move); the
script reads it for each of Moby Dam's moves and turns it into hundredths
of a man for our side.

For every game ``builtin:hard`` lost it finds the **turn**: the first of
Moby Dam's positions from which on its score for us stays at or below
``--lost`` (half a man down by default) to the end of the game: where
Moby Dam, at the match's time, saw the win. With ``--mobydam`` (its
``main/mobydam``) it then walks back over our free choices before the
turn (at most ``--back``), judging each position by Moby Dam's profiling
mode (``-o FEN``: a 10-second search), to the **decisive move**: our last
position that Moby Dam's 10 s search still holds above ``--lost``, the next
one of ours being lost (without ``--mobydam``: our last choice before the
turn). That position is searched again by ours for ``--quick`` seconds (as
in the match, on a new searcher) and for ``--long`` seconds, the move
played alone as well, and the loss is put in a class:

``search``
    the long search plays another move, not lost, and scores the one
    played at least ``--margin`` below it: a longer search of ours avoids
    the fall (the horizon at ``--quick``);
``knowledge``
    the long search plays the move too, or prefers another by less, and
    does not find us lost where Moby Dam does: ours misjudges the position
    it heads for (the evaluation);
``late``
    the long search finds us lost whatever we play: lost before this
    position, beyond what Moby Dam's 10 s saw as lost;
``early``
    Moby Dam's 10 s search finds us lost at every one of the ``--back``
    choices it judged: the game was lost long before the turn.

Each game's lines give the ply, the pieces and kings on the board, Moby
Dam's 0.2 s scores before and at the turn and its 10 s judgements by ply,
our quick and long moves and scores (with the depth), and the position.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from _opponents import read_played  # noqa: E402
from shots import deepen  # noqa: E402

VAL_MAN = 10_000_000  # Moby Dam's man (core/eval.h): its scores are in these
MOVE = re.compile(r"^move=\d+\.(?:\.\.)? (\S+)")
SCORE = re.compile(r"score=(-?\d+)$")


@dataclass
class LoggedGame:
    """One game of Moby Dam's log: its moves from the set-up position and,
    for each of its own, its score in hundredths of a man for itself."""

    moves: list[str] = field(default_factory=list)
    scores: list[int | None] = field(default_factory=list)  # None: the opponent's move


def read_log(path: Path) -> dict[int, LoggedGame]:
    games: dict[int, LoggedGame] = {}
    game = None
    score: int | None = None
    received = False
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith("starting game number"):
            game = games.setdefault(int(line.split()[-1]), LoggedGame())
            score, received = None, False
        elif game is None:
            continue
        elif line.startswith("move received"):
            received = True
        elif (found := SCORE.search(line)) and line.startswith("evals="):
            score = round(int(found[1]) * 100 / VAL_MAN)
        elif found := MOVE.match(line):
            game.moves.append(found[1])
            # A forced move has no search: its score is the last one's.
            game.scores.append(None if received else (score if score is not None else 0))
            received = False
    return games


def origin(move: str) -> str:
    return re.split(r"[-x]", move)[0]


@dataclass
class Ply:
    fen: str
    played: str
    ours: bool
    pieces: int
    kings: int
    free: bool  # more than one legal move
    mobydam: int | None = None  # Moby Dam's score, hundredths of a man for us


def plies_of(game: object, logged: LoggedGame) -> list[Ply] | None:
    positions = game.positions  # type: ignore[attr-defined]
    ours_white = game.white.startswith("builtin")  # type: ignore[attr-defined]
    offset = len(positions) - len(logged.moves)
    if offset < 0:
        return None
    rows = []
    for i, pos in enumerate(positions):
        board = pos.fen.split(":")
        white_to_move = board[0] == "W"
        pieces = sum(len([s for s in part[1:].split(",") if s]) for part in board[1:])
        kings = pos.fen.count("K")
        rows.append(
            Ply(pos.fen, "", white_to_move == ours_white, pieces, kings, len(pos.legal) > 1)
        )
        rows[-1].played = f"{pos.played[0]}{'x' if pos.played[2] else '-'}{pos.played[1]}"
        j = i - offset
        if j >= 0:
            if origin(logged.moves[j]).lstrip("0") != str(pos.played[0]):
                return None
            if logged.scores[j] is not None:
                rows[-1].mobydam = -logged.scores[j]  # type: ignore[operator]
    return rows


def turn_of(rows: list[Ply], lost: int) -> int | None:
    """The index of the first of Moby Dam's plies from which on its score
    for us stays at or below ``lost``."""
    turn = None
    for i, row in enumerate(rows):
        if row.mobydam is None:
            continue
        turn = (i if turn is None else turn) if row.mobydam <= lost else None
    return turn


def mobydam_log(engine: Path, fen: str, port: int, commands: bytes = b"") -> str:
    """The engine log of Moby Dam's search of ``fen`` in its profiling mode
    (``-o FEN``: 10 seconds), ``commands`` written to its console first, a
    line each (``b"verbose\\n"``: a line in the log for every iteration;
    ``b"time 1000\\n"``: a search of a second)."""
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "engine.log"
        process = subprocess.Popen(
            [
                str(engine),
                "-p",
                str(port),
                "-t",
                "22",
                "-b",
                "no-book.opn",
                "-e",
                folder,
                "-o",
                fen,
            ],
            cwd=folder,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        assert process.stdin is not None
        for command in commands.splitlines(keepends=True):
            # Moby Dam takes one command a read of its console, so a pause
            # between them (it looks at its console every 100 ms or so).
            with contextlib.suppress(OSError):
                process.stdin.write(command)
                process.stdin.flush()
            time.sleep(0.15)
        deadline = time.monotonic() + 30
        text = ""
        while time.monotonic() < deadline and "evals=" not in text:
            time.sleep(0.1)
            text = log.read_text(errors="replace") if log.exists() else ""
        with contextlib.suppress(OSError):
            process.stdin.write(b"exit\n")
            process.stdin.flush()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return text


def mobydam_judge(engine: Path, fen: str, port: int) -> tuple[int, int]:
    """(depth, score in hundredths of a man for the side to move) of Moby
    Dam's search of ``fen`` in its profiling mode (``-o FEN``: 10 seconds)."""
    text = mobydam_log(engine, fen, port)
    depth = re.findall(r"reached depth=(\d+)", text)
    score = re.findall(r"^evals=\d+ score=(-?\d+)$", text, re.MULTILINE)
    if not depth or not score:
        raise SystemExit(f"Moby Dam judged nothing of {fen}")
    return int(depth[-1]), round(int(score[-1]) * 100 / VAL_MAN)


def walk_back(
    rows: list[Ply], turn: int, args: argparse.Namespace
) -> tuple[int | None, dict[int, int]]:
    """Our last position before the turn that Moby Dam's 10-second search
    still holds (above ``--lost``) with the next one of ours lost; None when
    all of the last ``--back`` are lost. Assumes that once lost, lost."""
    ours = [i for i in range(turn) if rows[i].ours and rows[i].free][::-1][: args.back]
    judged: dict[int, int] = {}

    def lost(k: int) -> bool:
        if ours[k] not in judged:
            judged[ours[k]] = mobydam_judge(args.mobydam, rows[ours[k]].fen, args.port)[1]
        return judged[ours[k]] <= args.lost

    if not lost(0):
        return ours[0], judged
    low, step = 0, 1  # lost at ours[low]; look further back
    while True:
        high = min(low + step, len(ours) - 1)
        if high == low:
            return None, judged
        if not lost(high):
            break
        low, step = high, step * 2
    while high - low > 1:
        middle = (low + high) // 2
        if lost(middle):
            low = middle
        else:
            high = middle
    return ours[high], judged


def pdn_move(move: str) -> str:
    parts = re.split(r"[-x]", move)
    return f"{parts[0]}{'x' if 'x' in move else '-'}{parts[-1]}"


def analyse(rows: list[Ply], turn: int, args: argparse.Namespace) -> tuple[str, str]:
    """The class of a lost game and its line (see the module's docstring)."""
    mine = turn - 1
    while mine >= 0 and not (rows[mine].ours and rows[mine].free):
        mine -= 1
    judged: dict[int, int] = {}
    if args.mobydam is not None:
        found, judged = walk_back(rows, turn, args)
        if found is None:
            held = ", ".join(f"{i + 1}: {v}" for i, v in sorted(judged.items()))
            return "early", f"Moby Dam's 10 s: lost at all of ours it judged ({held})"
        mine = found
    row = rows[mine]
    quick = deepen(row.fen, args.quick)[-1]
    long = deepen(row.fen, args.long)[-1]
    played = deepen(row.fen, args.long, only=pdn_move(row.played))[-1]
    before = [r.mobydam for r in rows[:turn] if r.mobydam is not None][-3:]
    if long[4] != pdn_move(row.played) and played[1] <= long[1] - args.margin:
        kind = "search" if long[1] > args.lost else "late"
    elif long[1] <= args.lost:
        kind = "late"
    else:
        kind = "knowledge"
    held = ", ".join(f"{i + 1}: {v}" for i, v in sorted(judged.items()))
    line = (
        f"ply {mine + 1:>3} (turn {turn + 1}) pieces {row.pieces:>2} kings {row.kings}"
        f"  Moby Dam 0.2 s {before} -> {rows[turn].mobydam}; 10 s {{{held}}}\n"
        f"    played {row.played:<6} quick {quick[4]:<6} {quick[1]:>5} (d{quick[0]})"
        f"  long {long[4]:<6} {long[1]:>5} (d{long[0]}), played {played[1]:>5}"
        f" (d{played[0]})\n    {row.fen}"
    )
    return kind, line


def see_turn(rows: list[Ply], turn: int, args: argparse.Namespace) -> str:
    """Our searches of the turn position itself (Moby Dam to move, where
    its search at the match's time found the win): the score for Moby
    Dam's side after ``--quick`` and ``--long`` seconds."""
    found = []
    for seconds in (args.quick, args.long):
        depth, score, nodes, _spent, move = deepen(rows[turn].fen, seconds)[-1]
        found.append(f"{seconds} s: {move:<6} {score:>5} (d{depth}, {nodes:,} nodes)")
    played = pdn_move(rows[turn].played)
    return f"ply {turn + 1:>3} Moby Dam played {played:<6} ours: " + "; ".join(found)


def squares(games: list[tuple[object, bool]], least: int) -> None:
    """How often each side has a man on each square (in White's frame: a
    black man on s counts on 51 - s), over the positions with ``least``
    pieces or more; and the outposts on 24 (27 for Black)."""
    held = {True: [0] * 51, False: [0] * 51}
    count = 0
    for game, ours_white in games:
        for pos in game.positions:  # type: ignore[attr-defined]
            _turn, white, black = pos.fen.split(":")
            men = [
                {int(sq) for sq in part[1:].split(",") if sq and not sq.startswith("K")}
                for part in (white, black)
            ]
            if len(men[0]) + len(men[1]) < least:
                continue
            count += 1
            for ours in (True, False):
                as_white = ours == ours_white
                for square in men[0] if as_white else {51 - sq for sq in men[1]}:
                    held[ours][square] += 1
    rows = sorted(range(1, 51), key=lambda sq: held[True][sq] - held[False][sq])
    print(f"{count} positions with {least} pieces or more; share of them with a man on:")
    for square in rows[:8] + rows[-8:]:
        ours, theirs = held[True][square] / count, held[False][square] / count
        print(f"  {square:>2}: ours {ours:.2f}, Moby Dam's {theirs:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pdn", type=Path)
    parser.add_argument("--log", type=Path, required=True, help="Moby Dam's engine.log")
    parser.add_argument("--quick", type=float, default=0.2)
    parser.add_argument("--long", type=float, default=5.0)
    parser.add_argument("--lost", type=int, default=-50, help="hundredths of a man for us")
    parser.add_argument("--margin", type=int, default=50)
    parser.add_argument("--trace", action="store_true", help="Moby Dam's scores by ply")
    parser.add_argument(
        "--mobydam", type=Path, help="main/mobydam: walk back from the turn by its 10 s search"
    )
    parser.add_argument("--port", type=int, default=27553, help="for --mobydam (it listens)")
    parser.add_argument("--back", type=int, default=16, help="our moves to walk back at most")
    parser.add_argument("--only", type=int, nargs="*", help="these games (numbers) only")
    parser.add_argument("--turns", action="store_true", help="search the turns' positions only")
    parser.add_argument(
        "--squares", type=int, metavar="PIECES", help="the squares each side holds, every game"
    )
    args = parser.parse_args()
    logged = read_log(args.log)
    if args.squares is not None:
        played = [(game, game.white.startswith("builtin")) for game in read_played(args.pdn)]
        squares(played, args.squares)
        return 0
    kinds: dict[str, int] = {}
    for game in read_played(args.pdn):
        ours_white = game.white.startswith("builtin")
        if game.result != ("0-2" if ours_white else "2-0"):
            continue
        if args.only and game.number not in args.only:
            continue
        rows = plies_of(game, logged.get(game.number, LoggedGame()))
        if rows is None:
            print(f"game {game.number:>2}: its log does not match the PDN")
            continue
        if args.trace:
            trace = [(i + 1, r.mobydam) for i, r in enumerate(rows) if r.mobydam is not None]
            print(f"game {game.number:>2} Moby Dam for us by ply: {trace}")
        turn = turn_of(rows, args.lost)
        if turn is None:
            print(f"game {game.number:>2}: no turn (Moby Dam never settled below {args.lost})")
            continue
        if args.turns:
            print(f"game {game.number:>2} {see_turn(rows, turn, args)}", flush=True)
            continue
        kind, line = analyse(rows, turn, args)
        kinds[kind] = kinds.get(kind, 0) + 1
        print(f"game {game.number:>2} {kind:<7} {line}", flush=True)
    print("classes:", ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
