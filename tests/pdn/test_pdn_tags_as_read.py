"""Tags are written as they were read: every tag line of a real file that is
in PDN 3.0 form (``[Name "value"]`` on a line of its own) comes out of
``str(game)`` byte for byte, and every tag reads back with its value."""

from __future__ import annotations

import io
import itertools
import re
from pathlib import Path

import pytest

from draughts import pdn
from draughts.pdn.lexer import guess_encoding
from tests.conftest import DATA, shared_path

_TAG_LINE = re.compile(r'\[[A-Za-z0-9_]+ "(?:[^"\\\n]|\\.)*"\]')


def tag_failures(path: Path) -> list[str]:
    """Each game of the file whose tags do not come out as they went in."""
    data = path.read_bytes()
    encoding = guess_encoding(data[: 1 << 16])
    starts = [*pdn.scan_offsets(io.BytesIO(data)), len(data)]
    failures = []
    for number, (start, end) in enumerate(itertools.pairwise(starts), 1):
        text = data[start:end].decode(encoding, errors="replace")
        game = pdn.read_game(io.StringIO(text))
        assert game is not None
        written = str(game)
        lines = written.splitlines()
        source = [line.strip() for line in text.splitlines()]
        # Each tag line in PDN 3.0 form, in its order (a Result tag the
        # game lacked comes last, a repeated tag once, with its last value).
        wanted = [line for line in source if _TAG_LINE.fullmatch(line)]
        kept = [line for line in wanted if line in lines]
        again = pdn.read_game(io.StringIO(written))
        assert again is not None
        # A game with no Result tag (and no terminator) is written with "*".
        expected = {**dict(game.headers), "Result": game.headers.get("Result", "*")}
        if kept != wanted or list(again.headers.items()) != list(expected.items()):
            missing = next((line for line in wanted if line not in lines), "order")
            failures.append(f"{path.name} game {number}: {missing}")
    return failures


LOCAL = sorted(p for p in (DATA / "pdn").iterdir() if p.suffix in (".pdn", ".phn"))


@pytest.mark.parametrize("path", LOCAL, ids=[p.name for p in LOCAL])
def test_test_files_tags_are_written_as_read(path: Path) -> None:
    assert tag_failures(path) == []


def test_tags_with_backslashes_and_other_result_styles() -> None:
    # Nemesis writes Windows paths in a Comment tag; wk2003.pdn writes draws
    # as 1/2-1/2 in International games.
    game = pdn.read_game(
        io.StringIO(
            '[Comment "C:\\nemesis\\games\\bham01.xml"]\n[GameType "20"]\n'
            '[Result "1/2-1/2"]\n1. 32-28 1/2-1/2'
        )
    )
    assert game is not None
    assert game.headers["Comment"] == "C:\\nemesis\\games\\bham01.xml"
    assert str(game).splitlines()[:3] == [
        '[Comment "C:\\nemesis\\games\\bham01.xml"]',
        '[GameType "20"]',
        '[Result "1/2-1/2"]',
    ]
    assert str(game).endswith("1. 32-28 1/2-1/2")


@pytest.mark.slow
def test_corpus_tags_are_written_as_read() -> None:
    root = shared_path("")
    paths = sorted(p for p in root.rglob("*") if p.suffix in (".pdn", ".phn"))
    failures = [failure for path in paths for failure in tag_failures(path)]
    assert failures == []
