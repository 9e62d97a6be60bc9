"""Validation's fast check of whole game records (:mod:`draughts.pdn._fastgame`)
against the reader: every report :func:`draughts.pdn.validate` gives, and
every game record Dask's ``read_games`` makes, is the same with the fast
check and without it (the reader reading every game), for the test files and
hand-made records, given a variant and not (and for every file of the shared
corpus, ``slow``); the records the fast check must leave to the reader are
left to it. The fast check is turned off where every caller reaches it
(the native ``record_tags``, see :func:`reader_only`).
"""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from draughts.dask import _pieces, _records, _settled
from draughts.pdn import _fastgame, scan_starts, validate
from draughts.pdn import _native as pdn_native
from draughts.pdn.record import read_main_line, read_record
from draughts.pdn.settling import survey_piece
from tests.conftest import SHARED_ABSENT, SHARED_PDN, shared_path

native = pytest.mark.skipif(pdn_native.infer_each is None, reason="the native core is not built")

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "tests" / "data" / "pdn").glob("*.p[dh]n"))

# Records on the edges of what the fast check reads: each must be reported
# as the reader reports it, whoever reads it.
RECORDS = [
    '[Event "a"]\n[GameType "21"]\n1. 11-15 24-20 2. 8-11 28-24 0-1\n',
    '[GameType "21"]\n[GameType "20"]\n1. 11-15 24-20 *\n',  # the reader takes the last
    '[Event "b"]\n1. 11-15 24-20 2. 8-11 28-24 1-0\n',  # inferred: english, pool alike
    '[Event "b"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n',  # international
    '[FEN "W:W31-50:B1-20"]\n1. 32-28 19-23 *\n',  # a FEN tag: the reader's
    '[Event "c\\"q"]\n1. 11-15 24-20 *\n',  # an escape
    '[Event "d"] [Site "e"]\n1. 11-15 24-20 *\n',  # two tags on a line
    '[Event "e"]\n1. 11-15 24-20 2. 8-11\n',  # no result marker
    '[Event "f"]\n1. 11-15 24-20 2. 8-11 28-24 1-0 junk\n',  # text after the result
    '[Event "g"]\n1. 11-15 24-19 2. 8-11 1-0\n',  # an illegal move
    '[Event "h"]\n1. 11x15 24-20 1-0\n',  # the wrong separator: a warning
    '[Event "i"]\n1. 11-15 (1. 9-13) 24-20 1-0\n',  # a variation
    '[Event "j"]\n{a comment} 1. 11-15 $1 24-20 {another} 0-1\n',
    '[Event "k"]\n1. 11-15 23-19 2. 8-11 22-17 3. 4-8 25-22 4. 9-13 27-23 5. 6-9 23-18 '
    "6. 9-14 18x9 7. 5x14 26-23 8. 1-6 30-25 9. 15-18 22x15 10. 11x18x27 32x23 1/2-1/2\n",
    '[GameType "20"]\n[Variant "mine"]\n1. 32-28 19-23 *\n',  # an unknown Variant tag
    '[GameType "20,W,10,10,N1,0"]\n1. 32-28 19-23 *\n',  # a full GameType
    '[GameType "99"]\n1. 32-28 19-23 *\n',  # an unknown GameType
    '[GameType ""]\n1. 11-15 24-20 *\n',  # a blank tag
    "1. 11-15 24-20 * 1. 9-14 22-17 *\n",  # games without tags, on one line
    '[Event "l"]\n1. 11-15 24-20\r\n2. 8-11 28-24 0-1\r\n',
    '[Event "m"]\n1. 11-15 $' + "9" * 5000 + " 24-20 0-1\n",  # a NAG out of range: an error
    '[Event "n"]\n1. 11-15 $123456789 24-20 0-1\n',  # the longest NAG read as one
    # Characters beyond Latin-1 (the native check reads a copy of such a
    # text, a byte a character): in a tag, a comment, as spaces.
    '[Event "\u20ac cup"]\n{ \u6771\u4eac } 1. 11-15 24-20 2. 8-11\u300028-24 0-1\n',
    '[Event "o"]\n1. 11\u3000-15 24-20 0-1\n',  # not a blank within a move
    '[Event "p"]\n1. 11-15\u2003$1 24-20 {\u2028} 1-0\n',
    # Algebraic squares, ":" captures (inferred: russian, others alike).
    '[Event "q"]\n1. c3-d4 f6-g5 2. d4-c5 b6:d4 3. e3:c5 d6:b4 4. a3:c5 1-0\n',
    '[Event "r"]\n1. c3-d4 b6-c5 2. d4xb6 a7xc5 0-1\n',
    '[Event "s"]\n1. c3-d4 f6-g5 2. d4-c5 b6-d4 1-0\n',  # a capture with "-": a warning
    '[Event "t"]\n1. c3-d4 f6-g5 2. d4-c4 1-0\n',  # a light square: an error
    '[Event "u"]\n1. C3-D4 F6-G5 1-0\n',  # upper case: the reader's
    '[GameType "25"]\n1. c3-d4 f6-g5 2. d4-c5 b6:d4 1-0\n',  # tagged russian
]
ALGEBRAIC = RECORDS[-6]


def reader_only(patch: pytest.MonkeyPatch) -> None:
    """Turn the fast check off: the reader reads every game."""
    patch.setattr(pdn_native, "record_tags", None)
    assert _fastgame.fast_game(RECORDS[0], None) is None


def records(path: Path, variant: str | None, fast: bool, monkeypatch: pytest.MonkeyPatch) -> list:
    """Dask's records of every game of the file, its tasks run here (in
    pieces of 4 KB: several a file)."""
    with monkeypatch.context() as patch:
        if not fast:
            reader_only(patch)
        pieces = _pieces(str(path), 1 << 12)
        settled: list = [None] * len(pieces)
        if variant is None:
            settled = _settled([survey_piece(str(path), piece) for piece in pieces])
        return [
            record
            for piece, own in zip(pieces, settled, strict=True)
            for record in _records(str(path), piece, variant, own)
        ]


def reports(path: Path, variant: str | None, fast: bool, monkeypatch: pytest.MonkeyPatch) -> list:
    with monkeypatch.context() as patch:
        if not fast:
            reader_only(patch)
        return list(validate(path, variant=variant))


def assert_same(path: Path, variant: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    for made in (reports, records):
        fast = made(path, variant, True, monkeypatch)
        slow = made(path, variant, False, monkeypatch)
        assert len(fast) == len(slow)
        for one, other in zip(fast, slow, strict=True):
            assert one == other, (path.name, variant, one, other)


@native
@pytest.mark.parametrize("variant", [None, "english", "international"])
@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_the_fast_check_reports_as_the_reader(
    path: Path, variant: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_same(path, variant, monkeypatch)


@native
@pytest.mark.parametrize("variant", [None, "english"])
def test_records_on_the_edges(
    variant: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "edges.pdn"
    path.write_bytes("\n".join(RECORDS).encode())
    assert_same(path, variant, monkeypatch)


@native
@pytest.mark.parametrize(
    "record",
    [record for record in RECORDS if "FEN" in record or '\\"' in record or "] [" in record]
    + [RECORDS[1], RECORDS[7], RECORDS[8], RECORDS[9], RECORDS[10], RECORDS[11], RECORDS[14]]
    + RECORDS[-4:-1],
)
def test_what_the_fast_check_leaves_to_the_reader(record: str) -> None:
    assert _fastgame.fast_game(record, None) is None
    assert _fastgame.fast_game(record, "english") is None or "GameType" not in record


@native
def test_what_the_fast_check_reads() -> None:
    tagged = _fastgame.fast_game(RECORDS[0], None)
    assert tagged is not None and tagged[:4] == ("english", 4, "a", "english")
    inferred = _fastgame.fast_game(RECORDS[2], None)
    assert inferred is not None
    name, plies, event, named, choice = inferred
    assert (name, plies, event, named) == ("english", 4, "b", None)
    assert choice is not None and choice.guess and "pool" in [v.name for v in choice.alike]
    given = _fastgame.fast_game(RECORDS[3], "international")
    assert given is not None and given[:4] == ("international", 4, "b", None)
    algebraic = _fastgame.fast_game(ALGEBRAIC, None)
    assert algebraic is not None
    name, plies, event, named, choice = algebraic
    assert (name, plies, event, named) == ("russian", 7, "q", None)
    assert choice is not None and "algebraic squares a1-g6" in choice.reason
    tagged = _fastgame.fast_game(RECORDS[-1], None)
    assert tagged is not None and tagged[:2] == ("russian", 4)


# Files of algebraic games without a GameType tag, reported the same with
# the fast check and without it (their variants inferred natively), and
# how many of their games the fast check must read.
ALGEBRAIC_FILES = [
    ("russian/abatsiev.pdn", 0.9),
    ("russian/lidraughts_russian.pdn", 0.9),
    ("czech/MR_Ceska_Dama_Druzstev_2008.pdn", 0.8),
    # Its captures of several pieces are written in parts, which the reader joins.
    ("english/playstrategy_american.pdn", 0.25),
]


@native
@pytest.mark.parametrize(("name", "share"), ALGEBRAIC_FILES)
def test_algebraic_files_report_as_the_reader(
    name: str, share: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = shared_path(name)
    assert_same(path, None, monkeypatch)
    data = path.read_bytes()
    starts = list(scan_starts(io.BytesIO(data)))
    read = sum(
        _fastgame.fast_game(data[start.offset : after.offset].decode("latin-1"), None) is not None
        for start, after in itertools.pairwise([*starts, starts[-1]._replace(offset=len(data))])
    )
    assert read >= share * len(starts), (read, len(starts))


def test_the_pure_core_leaves_every_game_to_the_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdn_native, "record_tags", None)
    assert _fastgame.fast_game(RECORDS[0], None) is None


@native
@pytest.mark.slow
def test_every_corpus_file_reports_as_the_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted(SHARED_PDN.rglob("*.pdn")) if SHARED_PDN.exists() else []
    if not files:
        pytest.skip(SHARED_ABSENT)
    for path in files:
        assert_same(path, None, monkeypatch)


@native
def test_the_fast_check_reads_most_of_a_real_file() -> None:
    path = shared_path("english/OCA_2.0.pdn")
    data = path.read_bytes()[: 1 << 20]
    starts = list(scan_starts(io.BytesIO(data)))
    read = sum(
        _fastgame.fast_game(data[start.offset : after.offset].decode(), None) is not None
        for start, after in itertools.pairwise(starts)
    )
    assert read >= 0.95 * (len(starts) - 1)


@native
@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_the_survey_is_the_same_with_the_fast_check(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = survey_piece(str(path), None)
    with monkeypatch.context() as patch:
        reader_only(patch)
        slow = survey_piece(str(path), None)
    assert fast == slow


@native
def test_a_first_move_no_candidate_may_start_is_left_to_the_reader() -> None:
    # No candidate's start has a first move from 14 to 10: the choice is
    # among no replays at all.
    record = '[Event "x"]\n1. 14-10 7-11 *\n'
    assert _fastgame.fast_game(record, None) is None


@native
@pytest.mark.parametrize(
    "record",
    [
        RECORDS[0],
        RECORDS[2],
        RECORDS[13],
        '[GameType "20"]\n[White "A"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n',
    ],
)
def test_a_fast_record_is_the_readers(record: str) -> None:
    found = _fastgame.fast_record(record, None)
    assert found is not None
    read = read_record(io.StringIO(record))
    assert read is not None and read.errors == 0
    assert found[:6] == (read.variant, read.result, read.plies, read.final_fen, read.tags, None)
    with_line = _fastgame.fast_record(record, None, line=True)
    _, main_line = read_main_line(io.StringIO(record))
    assert with_line is not None and with_line[5] == (main_line.moves, main_line.keys)


# Whole records made of the pieces the fast check reads and those it must
# leave to the reader, tags included (the movetext alone is fuzzed against the
# reader in test_pdn_fastcheck.py): validate reports each game the same.
PIECES = st.sampled_from(
    [
        '[Event "a"]\n',
        '[Event "b"]\n',
        '[GameType "20"]\n',
        '[GameType "21"]\n',
        '[GameType "99"]\n',
        '[Variant "russian"]\n',
        '[FEN "W:W31-50:B1-20"]\n',
        '[Result "1-0"]\n',
        '[Event "c\\"q"] ',
        "[Ev",
        "1.",
        "2...",
        "11-15",
        "24-20",
        "8-11",
        "28-24",
        "32-28",
        "19-23",
        "28x19",
        "14x23",
        "11x15",
        "9-13",
        "22-17",
        "(1. 9-13)",
        "{c}",
        "{",
        "$1",
        "1-0",
        "0-1",
        "2-0",
        "*",
        "1/2-1/2",
        "\n",
        "\n\n",
        " ",
        "\u3000",
    ]
)


@native
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECES, max_size=40), st.sampled_from([None, "english", "international"]))
def test_random_records_report_as_the_reader(pieces: list[str], variant: str | None) -> None:
    data = " ".join(pieces).encode()
    with pytest.MonkeyPatch.context() as patch:
        fast = list(validate(io.BytesIO(data), variant=variant))
        reader_only(patch)
        slow = list(validate(io.BytesIO(data), variant=variant))
    assert fast == slow, data
