"""Fuzz the PDN round trip: read a mutated game, write it, read it again.

    python tests/fuzz/fuzz_pdn.py --minutes 30 --seed 1
    python tests/fuzz/fuzz_pdn.py --minutes 1 --corpus DIR --failures DIR

Each input is one to three consecutive games of a corpus file (the shared
corpus beside the repository, else ``tests/data/pdn``) changed by one to four
mutations: a tag's text, the FEN tag, the move text, brackets, parentheses
and braces, results, line breaks, truncation and byte garbage. Every input is
read with :func:`draughts.pdn.read_game` game by game; each game is written
with ``str(game)`` and read again, and all of them are written with a
:class:`~draughts.pdn.FileExporter` and read again as one file (text is read
as files are, with any line ending). It is a failure when anything raises,
when an input takes more than ``--timeout`` seconds, when an export reads
back as another number of games (or :func:`~draughts.pdn.scan_offsets`
finds another number in it), or when a
game reads back with other errors (kind, message and position: see
:func:`comparable_errors`), other tags or other moves, comments and NAGs.

The script prints the inputs tried and the distinct failures (by what failed
and where, numbers and quoted text left out); each distinct failure is shrunk
to a small input that fails the same way and saved in the ``--failures``
directory, for a regression test. Exit status 1 when anything failed.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import itertools
import os
import random
import re
import signal
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

REPO = Path(__file__).resolve().parents[2]
if __name__ == "__main__":  # this checkout's package, not another one installed
    sys.path.insert(0, str(REPO))

from draughts import pdn  # noqa: E402
from draughts.pdn.lexer import guess_encoding  # noqa: E402
from draughts.variant import Variant  # noqa: E402

# The shared corpus where DRAUGHTS_SHARED says (as for the tests), else beside the repository.
SHARED_CORPUS = Path(os.environ.get("DRAUGHTS_SHARED") or REPO.parent / "shared") / "data" / "pdn"
LOCAL_CORPUS = REPO / "tests" / "data" / "pdn"

REPAIRED = frozenset(("variation not closed before the end of the game",))
"""The errors an export mends rather than keeps: it closes every variation
(left open, it would swallow the games written after it), and the errors of
kind ``"incomplete"`` (a record the end of its file cut: a comment not
closed, the text of a move or a tag the end stops in the middle of)."""


# -- The round trip ---------------------------------------------------------------


def comparable_errors(game: pdn.Game) -> list[tuple[str, str, str | None]]:
    """What reading an export must find again: each error's kind, message and
    position (FEN), in any order (a side line of a side line is written after
    it, so its errors come later), but for the errors in :data:`REPAIRED`.
    Lines and columns change with the layout."""
    return sorted(
        (error.kind, error.message, error.fen)
        for error in game.errors
        if error.message not in REPAIRED and error.kind != "incomplete"
    )


def tree(game: pdn.GameNode) -> list[object]:
    """The moves, comments and NAGs of the whole tree, without recursion."""
    out: list[object] = []
    stack: list[tuple[pdn.GameNode, list[object]]] = [(game, out)]
    while stack:
        node, sink = stack.pop()
        for child in node.variations:
            entry: list[object] = [
                child.move,
                _written(child.comment),
                _written(child.starting_comment),
                sorted(child.nags),
            ]
            sink.append(entry)
            stack.append((child, entry))
    return out


def _written(comment: str) -> str:
    """A comment as the exporters write it: a ``}`` (from a ``;`` comment)
    would end it, and becomes ``]``."""
    return comment.replace("}", "]")


def read_all(text: str, variant: Variant | None = None) -> list[pdn.Game]:
    """The games of ``text``, read as a file is (any line ending)."""
    handle = io.StringIO(text, newline=None)
    games = []
    while (game := pdn.read_game(handle, variant=variant)) is not None:
        games.append(game)
    return games


def read_as(game: pdn.Game) -> Variant | None:
    """The variant ``game`` was read as, None if its tags name none the library knows."""
    try:
        return game.variant
    except ValueError:
        return None


def difference(first: pdn.Game, again: pdn.Game) -> str | None:
    """What differs between a game and its export read back, or None."""
    if comparable_errors(first) != comparable_errors(again):
        lost = set(comparable_errors(first)) - set(comparable_errors(again))
        new = set(comparable_errors(again)) - set(comparable_errors(first))
        return f"errors differ: lost {sorted(lost)[:1]} new {sorted(new)[:1]}"
    # Every tag as it was read; a game without a Result tag gets "*".
    expected = {**dict(first.headers), "Result": first.headers.get("Result", "*")}
    for name, value in again.headers.items():
        if expected.get(name) != value:
            return f"tag {name} differs"
    if len(again.headers) != len(expected):
        return "tags lost"
    if _written(first.comment) != again.comment or tree(first) != tree(again):
        return "moves, comments or NAGs differ"
    return None


def round_trip_failure(text: str, counts: Counter[str] | None = None) -> str | None:
    """Why ``text`` fails the round trip (a line that names the failure and
    where), None when it passes; ``counts`` gets the games read and those
    with errors."""
    try:
        games = read_all(text)
        if counts is not None:
            counts["games"] += len(games)
            counts["games with errors"] += sum(1 for game in games if game.errors)
        for game in games:
            # A game without a GameType is read again as the variant it was
            # read as: its variant may have been inferred, from moves the
            # export writes in the variant's own notation.
            again = read_all(str(game), read_as(game))
            if len(again) != 1:
                return f"str(game) reads back as {len(again)} games"
            found = difference(game, again[0])
            if found is not None:
                return f"str(game): {found}"
        out = io.StringIO()
        exporter = pdn.FileExporter(out)
        for game in games:
            variant = read_as(game)
            if "GameType" not in game.headers and variant is not None:
                pdn.set_variant_tags(game.headers, variant)  # as draughts convert does
            game.accept(exporter)
        written = out.getvalue()
        again = read_all(written)
        if len(again) != len(games):
            return f"FileExporter: {len(games)} games read back as {len(again)}"
        starts = sum(1 for _ in pdn.scan_offsets(io.BytesIO(written.encode())))
        if starts != len(games):
            return f"FileExporter: {len(games)} games, scan_offsets finds {starts}"
        for number, (game, other) in enumerate(zip(games, again, strict=True), 1):
            found = difference(game, other)
            if found is not None:
                return f"FileExporter, game {number}: {found}"
    except _Timeout:
        return "timeout"
    except Exception as error:  # what the fuzzing is for: anything that escapes
        frame = traceback.extract_tb(error.__traceback__)[-1]
        where = f"{Path(frame.filename).name}:{frame.lineno}"
        return f"{type(error).__name__} at {where}: {str(error)[:300]}"
    return None


def signature(failure: str) -> str:
    """A failure without its numbers and quoted text: failures that differ
    only there are the same bug."""
    failure = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", failure)
    return re.sub(r"[0-9]+", "N", failure)[:200]


class _Timeout(Exception):
    """An input took too long."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _Timeout


def bounded(
    check: Callable[[str, Counter[str] | None], str | None], seconds: float
) -> Callable[[str, Counter[str] | None], str | None]:
    """``check`` that gives up (a "timeout" failure) after ``seconds``."""

    def run(text: str, counts: Counter[str] | None = None) -> str | None:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return check(text, counts)
        except _Timeout:
            return "timeout"
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    return run


# -- Inputs -----------------------------------------------------------------------


class Corpus:
    """Games of the corpus files as text, a file's games split on first use."""

    def __init__(self, root: Path) -> None:
        self.paths = sorted(p for p in root.rglob("*") if p.suffix in (".pdn", ".phn"))
        if not self.paths:
            raise SystemExit(f"no .pdn files under {root}")
        self.games: dict[Path, list[str]] = {}

    def of(self, path: Path) -> list[str]:
        games = self.games.get(path)
        if games is None:
            data = path.read_bytes()
            encoding = guess_encoding(data[: 1 << 16])
            starts = [*list(pdn.scan_offsets(io.BytesIO(data))), len(data)]
            games = self.games[path] = [
                data[start:end].decode(encoding, errors="replace")
                for start, end in itertools.pairwise(starts)
                if end - start <= _LONGEST
            ]
        return games

    def sample(self, rng: random.Random) -> str:
        games: list[str] = []
        while not games:
            games = self.of(rng.choice(self.paths))
        first = rng.randrange(len(games))
        return "".join(games[first : first + rng.choice((1, 1, 1, 2, 3))])


_LONGEST = 20_000  # characters of a game worth mutating

_GARBAGE = "()[]{}\"'\\/;%$!?*.:-x0123456789KWB \t\n\r\x00\x0b\ufeff…éЖ♛"
_TOKENS = [
    "(", ")", "{", "}", "[", "]", '"', "\n", "1-0", "0-1", "2-0", "0-2", "1-1", "1/2-1/2",
    "*", "0-0", "1:0", "$3", "!?", "(!)", "%", ";", "/", "...", "1.", "12...", "-", "--",
    "x", "32-28", "28x19", "a3-b4", "ed4", "3228", '[FEN "W:W1:B2"]', '/FEN "B:W5:B1"/',
    '[GameType "21"]', '[GameType "20,W,10,10,N2,0"]', '[Variant "x"]', "K", "W:", ":B",
]  # fmt: skip
_TAGS = ("GameType", "Variant", "FEN", "Result", "Event", "SetUp")


def _cut(rng: random.Random, text: str) -> int:
    return rng.randint(0, len(text))


def _insert(rng: random.Random, text: str, piece: str) -> str:
    at = _cut(rng, text)
    return text[:at] + piece + text[at:]


def _delete(rng: random.Random, text: str) -> str:
    at = _cut(rng, text)
    return text[:at] + text[at + rng.randint(1, 12) :]


def _replace_match(rng: random.Random, text: str, pattern: str, new: Callable[[str], str]) -> str:
    found = list(re.finditer(pattern, text))
    if not found:
        return text
    match = rng.choice(found)
    return text[: match.start()] + new(match.group(0)) + text[match.end() :]


def _garbage(rng: random.Random) -> str:
    return "".join(rng.choice(_GARBAGE) for _ in range(rng.randint(1, 6)))


def _tag(rng: random.Random, text: str) -> str:
    name = rng.choice(_TAGS)
    value = rng.choice(
        ["", "21", "99", "20,W,10,10,N2,0", "25,W,8,8,A0,0", "x", "dama", _garbage(rng)]
    )
    if name == "FEN":
        value = rng.choice(["W:W51:B1", "B:W1-12:B21-32", "W:WK1:B", "W::", _garbage(rng)])
    if rng.random() < 0.5:
        return _insert(rng, text, f'[{name} "{value}"]\n')
    return _replace_match(rng, text, rf'\[{name} "[^"\n]*"\]', lambda _: f'[{name} "{value}"]')


def _fen(rng: random.Random, text: str) -> str:
    def change(fen: str) -> str:
        return _replace_match(
            rng, fen, r"[0-9]+|[WBK:,-]", lambda _: rng.choice(["", "K", "W", ":", ",", "99", "0"])
        )

    return _replace_match(rng, text, r'(?<=\[FEN ")[^"\n]*', change)


def _move(rng: random.Random, text: str) -> str:
    return _replace_match(
        rng,
        text,
        r"[0-9]+|[a-h][1-8]|[-x:]",
        lambda _: rng.choice(["", "-", "x", "13", "50", "0", "99", "c3", "i9", "x14"]),
    )


def _swap_lines(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    if len(lines) < 2:
        return text
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


MUTATIONS: list[Callable[[random.Random, str], str]] = [
    _tag,
    _fen,
    _move,
    _move,
    _move,
    lambda rng, text: _insert(rng, text, rng.choice(_TOKENS)),
    lambda rng, text: _insert(rng, text, rng.choice(_TOKENS)),
    lambda rng, text: _insert(rng, text, rng.choice("()[]{}")),
    lambda rng, text: _replace_match(rng, text, r"[()\[\]{}]", lambda _: ""),
    lambda rng, text: _replace_match(
        rng, text, r"[012](?:/2)?-[012](?:/2)?|\*", lambda _: rng.choice([*_TOKENS[8:16], ""])
    ),
    lambda rng, text: text[: _cut(rng, text)],
    lambda rng, text: _insert(rng, text, _garbage(rng)),
    _delete,
    _swap_lines,
    lambda rng, text: _replace_match(rng, text, r"\n", lambda _: rng.choice([" ", "\n\n", ""])),
]


def mutate(rng: random.Random, text: str) -> str:
    """``text`` changed by one to four random mutations."""
    for _ in range(rng.choice((1, 1, 2, 2, 3, 4))):
        text = rng.choice(MUTATIONS)(rng, text)
    return text


# -- Shrinking ----------------------------------------------------------------------


def shrink(text: str, fails: Callable[[str], bool], seconds: float) -> str:
    """A shorter text that still ``fails``: drops lines, then ever smaller
    pieces, while it fails and time remains."""
    deadline = time.monotonic() + seconds
    for unit in ("line", "chars"):
        pieces = text.splitlines(keepends=True) if unit == "line" else list(text)
        size = max(len(pieces) // 2, 1)
        while size >= 1 and time.monotonic() < deadline:
            start, changed = 0, False
            while start < len(pieces) and time.monotonic() < deadline:
                candidate = pieces[:start] + pieces[start + size :]
                if fails("".join(candidate)):
                    pieces, changed = candidate, True
                else:
                    start += size
            if not changed:
                size //= 2
        text = "".join(pieces)
    return text


# -- The run ----------------------------------------------------------------------


def run(corpus: Corpus, minutes: float, seed: int, failures: Path, timeout: float) -> Iterator[str]:
    """Fuzz for ``minutes``; yields a line for each distinct failure, then the totals."""
    rng = random.Random(seed)
    check = bounded(round_trip_failure, timeout)
    found: dict[str, str] = {}
    counts: Counter[str] = Counter()
    tried = 0
    end = time.monotonic() + 60 * minutes
    while time.monotonic() < end:
        text = mutate(rng, corpus.sample(rng))
        tried += 1
        failure = check(text, counts)
        if failure is None:
            continue
        key = signature(failure)
        if key in found:
            continue

        def same(candidate: str, key: str = key) -> bool:
            return signature(check(candidate, None) or "") == key

        small = shrink(text, same, 60)
        found[key] = small
        failures.mkdir(parents=True, exist_ok=True)
        name = hashlib.sha1(key.encode()).hexdigest()[:12]
        (failures / f"{name}.pdn").write_text(small, encoding="utf-8")
        (failures / f"{name}.txt").write_text(f"{failure}\n", encoding="utf-8")
        yield f"failure {len(found)} after {tried} inputs: {failure}\n  input {small!r}"
    yield (
        f"{tried} inputs tried ({counts['games']} games read, {counts['games with errors']} "
        f"with errors), {len(found)} distinct failures (seed {seed})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per input")
    parser.add_argument(
        "--corpus",
        type=Path,
        default=SHARED_CORPUS if SHARED_CORPUS.exists() else LOCAL_CORPUS,
    )
    parser.add_argument("--failures", type=Path, default=Path("fuzz-failures"))
    args = parser.parse_args(argv)
    signal.signal(signal.SIGALRM, _alarm)
    print(f"fuzzing {args.corpus} for {args.minutes} minutes, seed {args.seed}", flush=True)
    failed = False
    for line in run(Corpus(args.corpus), args.minutes, args.seed, args.failures, args.timeout):
        failed = failed or line.startswith("failure")
        print(line, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
