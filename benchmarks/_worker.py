"""One library's side of ``compare.py``: run timed workloads on request.

``compare.py`` starts one of these per library, each in its own interpreter
(``--lib ours`` with this repository first on ``sys.path``, the peers with their
virtual environment's Python, since all three install a package called
``draughts``), and sends one JSON request per line on stdin::

    {"workload": "legal_moves", "variant": "russian", "fens": [...], "repeat": 20}

``"clock": "wall"`` times with the wall clock instead of the process's CPU
time. The worker answers with one JSON line: ``{"seconds": s, "ops": n, "check": c}``
(``ops`` is what the seconds were spent on: calls, leaves or games; ``check`` a
count that must agree between libraries) or ``{"error": "..."}``. Only the work
itself is inside the timer; setting up boards from FENs is not, except in the
``fen`` workload, where it is the work.

``--lib ours --repo PATH`` imports ``draughts`` from the repository root
``PATH`` instead of this one (``compare.py --baseline`` points it at a git
worktree of an older commit); the worker refuses to start if ``draughts``
came from anywhere else.

Each adapter class below speaks one library's public API. The peers' API was
learnt from their installed sources; nothing of them is copied here. Ours
imports only public names (``draughts.Board``, ``draughts.perft``,
``draughts.pdn``), so that the same adapter runs an older or a reorganised
version of the package; the one private thing it touches is the board's move
cache ``_legal``, and the ``legal_moves`` rows say so when that is gone.
"""

from __future__ import annotations

import argparse
import functools
import gc
import io
import json
import re
import sys
import time
from pathlib import Path
from typing import Any, ClassVar

REPO = Path(__file__).resolve().parents[1]


# -- Adapters ----------------------------------------------------------------


class Ours:
    """This repository's ``draughts``."""

    name = "ours"

    def __init__(self, repo: Path = REPO) -> None:
        repo = repo.resolve()
        sys.path.insert(0, str(repo))
        import draughts

        self.d = draughts
        if Path(draughts.__file__).resolve().parent != repo / "draughts":
            raise RuntimeError(f"imported draughts from {draughts.__file__}, not from {repo}")

    def board(self, variant: str, fen: str | None) -> Any:
        return self.d.Board(fen, variant=variant)

    def legal(self, board: Any) -> list[Any]:
        # The board keeps the moves of its position in ``_legal`` until the
        # position changes; the peers keep none, so forget them to time the
        # generation itself (the public ways to do that also recompute the
        # position key and draw counts). Checked here, not in board(), so
        # that only the legal_moves rows stop if the cache is renamed.
        if not isinstance(getattr(board, "_legal", "absent"), list | None):
            raise RuntimeError("Board no longer caches its moves in _legal: update legal()")
        board._legal = None
        return list(board.legal_moves)

    def perft_api(self, board: Any, depth: int) -> int:
        moves = list(board.legal_moves)
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            board.push(move)
            total += self.perft_api(board, depth - 1)
            board.pop()
        return total

    def perft_fn(self, board: Any, depth: int) -> int:
        n: int = self.d.perft(board, depth)
        return n

    def push_pop_pairs(self, board: Any) -> tuple[Any, Any, Any]:
        return board.push, board.pop, board.legal_moves.__iter__().__next__()

    def fen_roundtrip(self, variant: str, fen: str) -> str:
        out: str = self.d.Board(fen, variant=variant).fen()
        return out

    def pdn_replay(self, variant: str, text: str, infer: bool = False) -> tuple[int, int]:
        """Read every game of ``text`` and play its moves: (games, plies).

        The variant is given, as every library here is told it, unless
        ``infer``: then the reader infers the variant of each game that has
        no GameType tag (two thirds of the International corpus), which is
        another workload, with a row of its own."""
        import draughts.pdn as pdn  # absent until the PDN reader lands

        stream = io.StringIO(text)
        games = plies = 0
        given = None if infer else variant
        while (game := pdn.read_game(stream, variant=given)) is not None:
            if game.errors:
                raise ValueError(f"game {games + 1}: {game.errors[0]}")
            # The reader plays every move as it reads it, to check it: a game
            # without errors has been replayed to its end.
            games += 1
            plies += len(game.mainline_moves())
        return games, plies


class PyDraughts:
    """PyPI ``py-draughts`` (module ``draughts``, one board class per variant)."""

    name = "py-draughts"

    def __init__(self) -> None:
        import draughts

        self.d = draughts
        self.classes = {
            "international": draughts.StandardBoard,
            "russian": draughts.RussianBoard,
            "brazilian": draughts.BrazilianBoard,
            "english": draughts.AmericanBoard,
        }

    def board(self, variant: str, fen: str | None) -> Any:
        cls = self.classes[variant]
        return cls() if fen is None else cls.from_fen(fen)

    def legal(self, board: Any) -> list[Any]:
        moves: list[Any] = board.legal_moves
        return moves

    def perft_api(self, board: Any, depth: int) -> int:
        moves = board.legal_moves
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            board.push(move)
            total += self.perft_api(board, depth - 1)
            board.pop()
        return total

    perft_fn = None

    def push_pop_pairs(self, board: Any) -> tuple[Any, Any, Any]:
        return board.push, board.pop, board.legal_moves[0]

    def fen_roundtrip(self, variant: str, fen: str) -> str:
        out: str = self.classes[variant].from_fen(fen).fen
        return out

    def pdn_replay(self, variant: str, text: str) -> tuple[int, int]:
        # py-draughts reads one game per call: split the file at each game's
        # first tag (a blank line followed by "[").
        cls = self.classes[variant]
        games = plies = 0
        for chunk in _split_games(text):
            board = cls.from_pdn(chunk)
            games += 1
            plies += len(board._moves_stack)
        return games, plies


class PyDraughtsOld:
    """PyPI ``pydraughts`` (module ``draughts``, variants by name)."""

    name = "pydraughts"
    variants: ClassVar[dict[str, str]] = {
        "international": "standard",
        "russian": "russian",
        "brazilian": "brazilian",
        "english": "english",
    }

    def __init__(self) -> None:
        import draughts.PDN  # binds draughts too

        self.d = draughts
        self.pdn = draughts.PDN

    def board(self, variant: str, fen: str | None) -> Any:
        name = self.variants[variant]
        if fen is None:
            return self.d.Board(name)
        return self.d.Board(name, fen=fen)

    def legal(self, board: Any) -> list[Any]:
        moves: list[Any] = board.legal_moves()
        return moves

    def perft_api(self, board: Any, depth: int) -> int:
        moves = board.legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            board.push(move)
            total += self.perft_api(board, depth - 1)
            board.pop()
        return total

    perft_fn = None

    def push_pop_pairs(self, board: Any) -> tuple[Any, Any, Any]:
        return board.push, board.pop, board.legal_moves()[0]

    def fen_roundtrip(self, variant: str, fen: str) -> str:
        out: str = self.board(variant, fen).fen
        return out

    def pdn_replay(self, variant: str, text: str) -> tuple[int, int]:
        name = self.variants[variant]
        games = plies = 0
        for game in self.pdn.PDNReader(pdn_text=text).games:
            fen = game.tags.get("FEN")
            board = self.d.Board(name, fen=fen) if fen else self.d.Board(name)
            for text_move in game.moves:
                board.push(self.d.Move(board, pdn_move=text_move))
            games += 1
            plies += len(board.move_stack)
        return games, plies


_GAME_START = re.compile(r"\n\s*\n(?=\s*\[)")
_COMMENTS = re.compile(r"\{[^}]*\}|;[^\n]*|^%[^\n]*", re.MULTILINE)


def _split_games(text: str) -> list[str]:
    """The games of a PDN file, split before each tag block that follows a
    blank line. Text with no game in it (a file's opening comment, such as
    "{ Candidate matches 1995 }") stays with the game after it: on its own
    it would count as a game that no library can replay."""
    games: list[str] = []
    pending = ""
    for chunk in _GAME_START.split(text):
        if not _COMMENTS.sub("", chunk).strip():
            pending += chunk + "\n\n"
        else:
            games.append(pending + chunk)
            pending = ""
    return games


ADAPTERS = {"ours": Ours, "py-draughts": PyDraughts, "pydraughts": PyDraughtsOld}


# -- Workloads -----------------------------------------------------------------


# The clock a request asks for: the process's CPU time by default, since on a
# shared machine the wall clock also counts the time other processes ran.
_CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def _timed(clock: str, fn: Any, *args: Any) -> tuple[float, Any]:
    now = _CLOCKS[clock]
    gc.collect()
    start = now()
    result = fn(*args)
    return now() - start, result


def run(lib: Any, request: dict[str, Any]) -> dict[str, Any]:
    kind = request["workload"]
    variant = request.get("variant", "international")
    repeat = int(request.get("repeat", 1))
    clock = request.get("clock", "cpu")

    if kind in ("perft_api", "perft_fn"):
        board = lib.board(variant, request.get("fen"))
        fn = lib.perft_api if kind == "perft_api" else lib.perft_fn
        if fn is None:
            return {"error": f"{lib.name} has no perft function"}
        seconds, leaves = _timed(clock, fn, board, int(request["depth"]))
        return {"seconds": seconds, "ops": leaves, "check": leaves}

    if kind == "legal_moves":
        boards = [lib.board(variant, fen) for fen in request["fens"]]
        legal = lib.legal

        def body() -> int:
            total = 0
            for _ in range(repeat):
                for board in boards:
                    total += len(legal(board))
            return total

        seconds, total = _timed(clock, body)
        return {"seconds": seconds, "ops": repeat * len(boards), "check": total // repeat}

    if kind == "push_pop":
        triples = [lib.push_pop_pairs(lib.board(variant, fen)) for fen in request["fens"]]

        def body() -> None:
            for _ in range(repeat):
                for push, pop, move in triples:
                    push(move)
                    pop()

        seconds, _ = _timed(clock, body)
        return {"seconds": seconds, "ops": repeat * len(triples), "check": len(triples)}

    if kind == "fen":
        fens = request["fens"]
        roundtrip = lib.fen_roundtrip

        def body() -> int:
            written = 0
            for _ in range(repeat):
                for fen in fens:
                    written += len(roundtrip(variant, fen)) > 0
            return written

        seconds, written = _timed(clock, body)
        return {"seconds": seconds, "ops": repeat * len(fens), "check": written // repeat}

    if kind == "pdn":
        replay = lib.pdn_replay
        if request.get("infer"):
            replay = functools.partial(replay, infer=True)
        seconds, (games, plies) = _timed(clock, replay, variant, request["text"])
        return {"seconds": seconds, "ops": games, "check": plies}

    if kind == "pdn_check":
        # Which games this library replays to the end (untimed): the timed
        # set is the games every library replays, so all do the same work.
        lib.pdn_replay(variant, "")  # fails here if the library cannot read PDN at all
        ok = []
        for index, chunk in enumerate(request["games"]):
            try:
                games, plies = lib.pdn_replay(variant, chunk)
            except Exception:
                continue
            if games == 1:
                ok.append([index, plies])
        return {"seconds": 0.0, "ops": len(ok), "check": ok}

    return {"error": f"unknown workload {kind!r}"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lib", choices=sorted(ADAPTERS), required=True)
    parser.add_argument(
        "--repo",
        type=Path,
        default=None,
        help="with --lib ours: the repository root to import draughts from "
        "(default: the one this file is in)",
    )
    args = parser.parse_args()
    if args.repo is not None and args.lib != "ours":
        parser.error("--repo is only for --lib ours")
    try:
        lib = ADAPTERS[args.lib]() if args.repo is None else Ours(args.repo)
    except Exception as error:
        print(json.dumps({"error": f"cannot load {args.lib}: {error!r}"}), flush=True)
        return
    print(json.dumps({"ready": lib.name}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        try:
            answer = run(lib, request)
        except Exception as error:
            answer = {"error": f"{type(error).__name__}: {error}"}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
