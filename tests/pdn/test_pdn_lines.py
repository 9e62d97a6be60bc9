"""The native core's reading of plain PDN lines (``pdn_lines.c``) against
its oracle, the lexer's regular expression :data:`draughts.pdn.lexer.PLAIN_LINE`:
whether a line is plain and where its result starts, on random text, on
every line of the test files and of the shared corpus."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draughts.pdn import _native, lexer
from tests.conftest import SHARED_ABSENT
from tests.conftest import SHARED_PDN as CORPUS

pytestmark = pytest.mark.skipif(
    _native.plain_line_end is None, reason="the native modules are not built (or DRAUGHTS_PURE=1)"
)

ROOT = Path(__file__).resolve().parents[2]

# What plain lines are made of, what comes close, and every kind of space
# Python's \s knows (ASCII, the separators below 0x20, NEL, no-break, em).
ALPHABET = '0123456789.-x/* \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u2003X:!{}()[]"a'
PIECES = ["1-1", "1-0", "2-0", "0-1", "0-2", "0-0", "1/2-1/2", "32-28", "12.", "1.", " ", "x"]

# The random lines: 100 of each kind by default (about 0.15 s of CPU time
# each), 3,000 in -m slow (which .ci/native also runs on the sanitizer build).
FAST = settings(max_examples=100, deadline=None)
SLOW = settings(max_examples=3000, deadline=None)


def c_end(line: str) -> int:
    assert _native.plain_line_end is not None
    return _native.plain_line_end(line)


TEXT = st.text(alphabet=ALPHABET, max_size=30)
LINE_PIECES = st.lists(
    st.sampled_from(PIECES) | st.text(alphabet=ALPHABET, max_size=3), max_size=12
)


@FAST
@given(TEXT)
def test_random_text_reads_as_the_regular_expression_reads_it(line: str) -> None:
    assert c_end(line) == lexer._plain_line_end_python(line)


@pytest.mark.slow
@SLOW
@given(TEXT)
def test_random_text_reads_as_the_regular_expression_reads_it_many(line: str) -> None:
    assert c_end(line) == lexer._plain_line_end_python(line)


@FAST
@given(LINE_PIECES)
def test_random_pieces_read_as_the_regular_expression_reads_them(pieces: list[str]) -> None:
    line = "".join(pieces)
    assert c_end(line) == lexer._plain_line_end_python(line)


@pytest.mark.slow
@SLOW
@given(LINE_PIECES)
def test_random_pieces_read_as_the_regular_expression_reads_them_many(pieces: list[str]) -> None:
    line = "".join(pieces)
    assert c_end(line) == lexer._plain_line_end_python(line)


@pytest.mark.parametrize(
    ("line", "end"),
    [
        ("1. 32-28 19-23\n", 15),
        ("1. 32-28 19-23 2-0\n", 15),
        ("12.1-0", 3),  # a move number, then the result
        ("32-28 1-1\n", 6),  # "1-1" with a space after it is a result
        ("32-28 1-10\n", 11),  # ...and with a digit after it a move
        ("\u20031. 32-28\u2003\n", 11),
        ("1. 32-28 1-1 19-23\n", -1),
        ("32-28*", -1),  # a move is followed by a space or the end
        ("", -1),
        ("1-0", -1),  # a result alone is not a plain line
    ],
)
def test_where_the_result_starts(line: str, end: int) -> None:
    assert c_end(line) == lexer._plain_line_end_python(line) == end


def test_a_str_is_required() -> None:
    assert _native.plain_line_end is not None
    with pytest.raises(TypeError, match="must be a str"):
        _native.plain_line_end(b"32-28")  # type: ignore[arg-type]


def lines(folder: Path) -> Iterator[str]:
    for path in sorted(folder.rglob("*.p?n")):
        yield from path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)


# -- Lines of one tag pair -------------------------------------------------------

TAG_ALPHABET = '[] \t\n"\\Eve1_x-:\u2003\x85'
TAG_PIECES = ["[", "]", '"', "Event", " ", "\t", "\\", '"x"', "1. 32-28", "{", "\n"]


def c_tag(line: str) -> tuple[str, str, int] | None:
    assert _native.tag_line is not None
    return _native.tag_line(line)


TAG_LINE_PIECES = st.lists(
    st.sampled_from(TAG_PIECES) | st.text(alphabet=TAG_ALPHABET, max_size=3), max_size=10
)


@FAST
@given(TAG_LINE_PIECES)
def test_random_tag_lines_read_as_the_regular_expression_reads_them(pieces: list[str]) -> None:
    line = "".join(pieces)
    assert c_tag(line) == lexer._tag_line_python(line)


@pytest.mark.slow
@SLOW
@given(TAG_LINE_PIECES)
def test_random_tag_lines_read_as_the_regular_expression_reads_them_many(
    pieces: list[str],
) -> None:
    line = "".join(pieces)
    assert c_tag(line) == lexer._tag_line_python(line)


@pytest.mark.parametrize(
    ("line", "tag"),
    [
        ('[Event "Open"]\n', ("Event", "Open", 0)),
        (' \t[ Site\t"a b" ]  \n', ("Site", "a b", 2)),
        ('[Round ""]', ("Round", "", 0)),
        ('[Event "a \\"b\\""]\n', None),  # an escape: the regular expression reads it
        ('[Event "a"] [Site "b"]\n', None),  # two tags
        ('[Event "a"b"]\n', None),  # a tag2 token
        ("[Event Open]\n", None),
        ('[Event "Open"] 1. 32-28\n', None),
        ('[ "Open"]\n', None),
    ],
)
def test_tag_lines(line: str, tag: tuple[str, str, int] | None) -> None:
    assert c_tag(line) == lexer._tag_line_python(line) == tag


# -- Every line of the test files and of the corpus, both readers ------------------

# Each C reading beside its oracle, with how many lines of the test files
# (the corpus has a hundred times more) it finds at the least.
READERS = [
    pytest.param(c_end, lexer._plain_line_end_python, lambda end: end >= 0, 800, id="plain"),
    pytest.param(c_tag, lexer._tag_line_python, lambda tag: tag is not None, 500, id="tag"),
]


@pytest.mark.parametrize(("c_reader", "oracle", "found", "least"), READERS)
def test_every_line_of_the_test_files(
    c_reader: Callable[[str], object],
    oracle: Callable[[str], object],
    found: Callable[[object], bool],
    least: int,
) -> None:
    answers = [(line, c_reader(line)) for line in lines(ROOT / "tests" / "data" / "pdn")]
    assert sum(found(answer) for _, answer in answers) >= least
    assert [line for line, answer in answers if answer != oracle(line)] == []


@pytest.mark.slow
@pytest.mark.parametrize(("c_reader", "oracle", "found", "least"), READERS)
def test_every_line_of_the_corpus(
    c_reader: Callable[[str], object],
    oracle: Callable[[str], object],
    found: Callable[[object], bool],
    least: int,
) -> None:
    if not CORPUS.is_dir():
        pytest.skip(SHARED_ABSENT)
    count = 0
    for line in lines(CORPUS):
        answer = c_reader(line)
        assert answer == oracle(line), repr(line)
        count += found(answer)
    assert count >= 100 * least


# -- The whole corpus, read by the native reader and by the pure one ---------------


def read_everything(text: str) -> list[object]:
    from draughts import pdn

    handle = io.StringIO(text)
    games: list[object] = []
    while (game := pdn.read_game(handle)) is not None:
        games.append((dict(game.headers), str(game), game.errors, game.warnings))
    return games


FOLDERS = sorted(p.name for p in CORPUS.iterdir()) if CORPUS.is_dir() else ["(no corpus)"]


@pytest.mark.slow
@pytest.mark.parametrize("folder", FOLDERS)
def test_the_corpus_reads_alike_with_and_without_the_native_reading(
    folder: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every game of the corpus (variants inferred where no tag names one),
    read with the native core's lines, loop and nodes and again with the
    pure reader's in the same process: the same tags, text, errors and
    warnings."""
    from draughts.pdn import builders, tree
    from draughts.pdn.resolver import Resolver

    if not CORPUS.is_dir():
        pytest.skip(SHARED_ABSENT)
    texts = [
        path.read_bytes().decode("utf-8", errors="replace")
        for path in sorted((CORPUS / folder).rglob("*.p?n"))
    ]
    native = [read_everything(text) for text in texts]
    monkeypatch.setattr(lexer, "plain_line_end", lexer._plain_line_end_python)
    monkeypatch.setattr(lexer, "tag_line", None)
    monkeypatch.setattr(Resolver, "play_line", Resolver._play_line_python)
    monkeypatch.setattr(Resolver, "play_lines", Resolver._play_lines_python)
    monkeypatch.setattr(builders, "add_child", None)
    monkeypatch.setattr(tree, "add_child", None)
    monkeypatch.setattr(tree, "grow_line", None)
    for text, games in zip(texts, native, strict=True):
        assert read_everything(text) == games
