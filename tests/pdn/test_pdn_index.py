"""draughts.pdn.index: the SQLite index of PDN files and its searches."""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import draughts.pdn.index as index_module
from draughts import Board, Move, pdn
from draughts.pdn.index import Index, signed_key, unsigned_key
from draughts.pdn.record import read_main_line, read_record
from draughts.pdn.settling import settle, survey_piece
from tests.conftest import SHARED_PDN, corpus_marks, shared_path

ROOT = Path(__file__).resolve().parents[2]

# Two English games that reach the same position after four plies by
# different move orders, and a third that never has it.
TRANSPOSED = (
    '[Event "one"]\n[White "Tinsley, M."]\n[Black "Oldbury, D."]\n[Result "1-0"]\n'
    "1. 11-15 23-19 2. 8-11 22-17 3. 10-14 17x10 1-0\n\n"
    '[Event "two"]\n[White "Long, A."]\n[Black "Tinsley, M."]\n[Result "0-1"]\n'
    "1. 11-15 22-17 2. 8-11 23-19 0-1\n\n"
    '[Event "three"]\n[White "Hellman, W."]\n[Black "Ryan, F."]\n'
    "1. 9-14 22-17 *\n"
)
AFTER_FOUR = "B:W17,19,21,24-32:B1-7,9-12,15"  # after 11-15 23-19 8-11 22-17, in either order


def write(path: Path, text: str, encoding: str = "utf-8", newline: str | None = None) -> Path:
    with open(path, "w", encoding=encoding, newline=newline) as handle:
        handle.write(text)
    return path


def dump(db_path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (but the time a file was indexed)."""
    db = sqlite3.connect(db_path)
    try:
        tables = {
            "files": "SELECT id, path, size, mtime_ns, sha256, encoding, default_variant,"
            " positions, games FROM files ORDER BY id",
            "games": "SELECT * FROM games ORDER BY id",
            "tags": "SELECT * FROM tags ORDER BY game_id, position",
            "positions": "SELECT * FROM positions ORDER BY game_id, ply",
            "meta": "SELECT * FROM meta",
        }
        return {name: db.execute(sql).fetchall() for name, sql in tables.items()}
    finally:
        db.close()


@pytest.fixture
def games(tmp_path: Path) -> Path:
    return write(tmp_path / "games.pdn", TRANSPOSED)


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    with Index(tmp_path / "games.sqlite") as opened:
        yield opened


# -- Searches ---------------------------------------------------------------------


def test_a_position_is_found_whatever_the_move_order(games: Path, index: Index) -> None:
    report = index.add_file(games, variant="english", positions=True)
    assert (report.status, report.games, report.games_with_errors) == ("added", 3, 0)
    assert report.positions == (6 + 1) + (4 + 1) + (2 + 1)
    hits = index.games_with_position(AFTER_FOUR, variant="english")
    assert [(hit.number, hit.white, hit.black, hit.result, hit.ply) for hit in hits] == [
        (1, "Tinsley, M.", "Oldbury, D.", "1-0", 4),
        (2, "Long, A.", "Tinsley, M.", "0-1", 4),
    ]
    assert hits[0].file == os.path.realpath(games)
    # A board works as well as its FEN, and the variant is the board's.
    board = Board(variant="english")
    for move in ("11-15", "22-17", "8-11", "23-19"):
        board.push_pdn(move)
    assert board.fen() == AFTER_FOUR
    assert index.games_with_position(board) == hits
    # The start position: every game, at ply 0.
    start = index.games_with_position(Board(variant="english"))
    assert [(hit.number, hit.ply) for hit in start] == [(1, 0), (2, 0), (3, 0)]


def test_the_first_moves_must_come_in_order(games: Path, index: Index) -> None:
    index.add_file(games, variant="english")  # no positions: the moves are searched as text
    assert [h.number for h in index.games_starting_with("11-15 23-19", variant="english")] == [1]
    assert [h.number for h in index.games_starting_with(["11-15"], variant="english")] == [1, 2]
    found = index.games_starting_with("1. 11-15 22-17 2. 8-11 23-19", variant="english")
    assert [(hit.number, hit.ply) for hit in found] == [(2, 4)]
    # The whole game, and one move more than the game has.
    assert len(index.games_starting_with("11-15 22-17 8-11 23-19", variant="english")) == 1
    assert index.games_starting_with("11-15 22-17 8-11 23-19 9-13", variant="english") == []
    # The variant comes from the database when it has one only.
    assert index.default_variant().name == "english"
    assert [hit.number for hit in index.games_starting_with("9-14")] == [3]
    assert len(index.games_starting_with("")) == 3
    with pytest.raises(ValueError, match="illegal move '11-1'"):
        index.games_starting_with("11-1")


def test_moves_and_positions_agree_with_a_capture(games: Path, index: Index) -> None:
    index.add_file(games, variant="english", positions=True)
    board = Board(variant="english")
    moves = [board.push_pdn(text) for text in ("11-15", "23-19", "8-11", "22-17", "10-14")]
    board.push_pdn("17x10")
    assert [h.ply for h in index.games_with_position(board)] == [6]
    assert [h.number for h in index.games_starting_with([*moves, "17x10"])] == [1]


def test_games_from_a_set_position_do_not_begin_with_the_moves(
    tmp_path: Path, index: Index
) -> None:
    path = write(
        tmp_path / "fen.pdn",
        '[FEN "B:W21-32:B1-12"]\n1. 11-15 23-19 *\n\n[FEN "B:W22-32:B1-12"]\n1. 11-15 22-18 *\n',
    )
    index.add_file(path, variant="english", positions=True)
    # The first game's FEN is the start position: it begins with the moves.
    assert [hit.number for hit in index.games_starting_with("11-15")] == [1]
    start = index.connection.execute("SELECT number, start_fen FROM games ORDER BY id").fetchall()
    assert start == [(1, None), (2, "B:W22-32:B1-12")]
    after = Board("B:W22-32:B1-12", variant="english")
    after.push_pdn("11-15")
    assert [hit.number for hit in index.games_with_position(after)] == [2]


def test_the_same_pieces_in_two_variants_are_two_positions(tmp_path: Path, index: Index) -> None:
    # Russian and Brazilian draughts share the board and the start position,
    # so their keys are equal: the variant is part of what a search matches.
    assert Board(variant="russian").position_key == Board(variant="brazilian").position_key
    path = write(
        tmp_path / "two.pdn",
        '[GameType "25"]\n1. c3-d4 *\n\n'
        '[GameType "26"]\n1. c3-b4 *\n\n'
        '[GameType "26"]\n1. g3-h4 *\n',
    )
    index.add_file(path, positions=True)
    assert index.variants() == ["brazilian", "russian"]
    assert index.default_variant().name == "international"
    start = "W:W21-32:B1-12"
    assert [h.number for h in index.games_with_position(start, variant="russian")] == [1]
    assert [h.number for h in index.games_with_position(start, variant="brazilian")] == [2, 3]
    assert [h.number for h in index.games_starting_with("c3-b4", variant="russian")] == []
    assert [h.number for h in index.games_starting_with("c3-b4", variant="brazilian")] == [2]


def test_tags_players_limits_and_counts(games: Path, index: Index) -> None:
    index.add_file(games, variant="english", positions=True)
    assert [hit.number for hit in index.games_with_tag("Event", "two")] == [2]
    assert [hit.number for hit in index.games_with_tag("White", "*n*")] == [1, 2, 3]
    assert index.games_with_tag("White", "tinsley*") == []  # a glob: case matters
    assert [hit.number for hit in index.search(player="TINSLEY")] == [1, 2]
    assert [hit.number for hit in index.search(player="g, a")] == [2]
    assert index.search(player="%") == []  # LIKE's wildcards are plain text
    both = index.search(position=AFTER_FOUR, tags=[("Result", "0-1")], variant="english")
    assert [hit.number for hit in both] == [2]
    assert [hit.number for hit in index.search(limit=2)] == [1, 2]
    assert index.count() == 3
    assert index.count(player="tinsley", moves="11-15") == 2
    assert [hit.ply for hit in index.search(player="Ryan")] == [None]


def test_a_record_and_a_game_come_back_from_the_index(games: Path, index: Index) -> None:
    index.add_file(games, variant="english")
    with pdn.open_pdn(games) as handle:
        expected = [pdn.read_game(handle, variant="english") for _ in range(3)]
    with pdn.open_pdn(games) as handle:
        records = [read_record(handle, variant="english") for _ in range(3)]
    for hit, game, record in zip(index.search(), expected, records, strict=True):
        assert game is not None and record is not None
        assert index.read_game(hit).mainline_moves() == game.mainline_moves()
        again = index.record(hit.game_id)
        assert (again.tags, again.final_fen) == (record.tags, game.end().board().fen())
        assert again == attrs.evolve(record, file=hit.file, offset=hit.offset, number=hit.number)
    with pytest.raises(KeyError):
        index.record(99)


def test_errors_are_kept(tmp_path: Path, index: Index) -> None:
    path = write(tmp_path / "bad.pdn", "1. 32-28 19-23 2. 28-22 23x32 *\n")
    report = index.add_file(path, positions=True)
    assert report.games_with_errors == 1
    record = read_record(io.StringIO(path.read_text()))
    assert record is not None
    row = index.connection.execute("SELECT plies, errors, first_error, moves FROM games").fetchone()
    assert row == (2, 1, record.first_error, "32-28 19-23")
    assert index.connection.execute("SELECT COUNT(*) FROM positions").fetchone() == (3,)


def test_keys_are_stored_signed(games: Path, index: Index) -> None:
    index.add_file(games, variant="english", positions=True)
    with pdn.open_pdn(games) as handle:
        found = read_main_line(handle, variant="english")
    assert found is not None
    keys = found[1].keys
    stored = index.connection.execute(
        "SELECT key FROM positions WHERE game_id = 1 ORDER BY ply"
    ).fetchall()
    assert [unsigned_key(key) for (key,) in stored] == list(keys)
    assert [key for (key,) in stored] == [signed_key(key) for key in keys]
    assert all(-(2**63) <= key < 2**63 for (key,) in stored)
    assert any(key >= 2**63 for key in keys)  # so the conversion was needed
    for key in (0, 1, 2**63 - 1, 2**63, 2**64 - 1):
        assert unsigned_key(signed_key(key)) == key


# -- Writing: idempotence, changes, interruptions ---------------------------------------


def test_indexing_twice_changes_nothing(games: Path, tmp_path: Path) -> None:
    db_path = tmp_path / "games.sqlite"
    with Index(db_path) as index:
        assert index.add_file(games, variant="english", positions=True).status == "added"
    before = dump(db_path)
    with Index(db_path) as index:
        report = index.add_file(games, variant="english", positions=True)
        assert (report.status, report.games) == ("unchanged", 3)
        # Without positions: the file has them already.
        assert index.add_file(games, variant="english").status == "unchanged"
        # By another path to the same file.
        relative = os.path.relpath(games)
        assert index.add_file(relative, variant="english").status == "unchanged"
    assert dump(db_path) == before
    # A new modification time with the same bytes: the hash says unchanged.
    os.utime(games, ns=(1_000_000_000, 1_000_000_000))
    with Index(db_path) as index:
        assert index.add_file(games, variant="english", positions=True).status == "unchanged"
    after = dump(db_path)
    assert after["files"][0][3] == 1_000_000_000
    assert {k: v for k, v in after.items() if k != "files"} == {
        k: v for k, v in before.items() if k != "files"
    }


def test_a_changed_file_is_indexed_again(games: Path, index: Index) -> None:
    index.add_file(games, variant="english")
    assert index.connection.execute("SELECT COUNT(*) FROM positions").fetchone() == (0,)
    # Asked for positions now: the file is read again.
    assert index.add_file(games, variant="english", positions=True).status == "replaced"
    assert index.connection.execute("SELECT COUNT(*) FROM positions").fetchone() == (15,)
    # Another default variant reads the games differently.
    report = index.add_file(games, variant="international", positions=True)
    assert (report.status, report.games_with_errors) == ("replaced", 3)
    write(games, TRANSPOSED.split("\n\n")[0] + "\n")
    report = index.add_file(games, variant="english", positions=True)
    assert (report.status, report.games) == ("replaced", 1)
    db = index.connection
    assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (1,)
    assert db.execute("SELECT COUNT(*) FROM tags").fetchone() == (4,)
    assert db.execute("SELECT COUNT(*) FROM positions").fetchone() == (7,)
    assert db.execute("SELECT COUNT(*) FROM files").fetchone() == (1,)
    assert [hit.number for hit in index.games_with_position(AFTER_FOUR)] == [1]
    assert index.remove_file(games) is True
    assert index.remove_file(games) is False
    assert db.execute("SELECT COUNT(*) FROM positions").fetchone() == (0,)
    assert index.files() == []


def many_games(path: Path, count: int) -> Path:
    return write(
        path, "".join(f'[Round "{n}"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n' for n in range(count))
    )


def test_an_interrupted_run_leaves_a_consistent_database(
    games: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    second = many_games(tmp_path / "second.pdn", 50)
    monkeypatch.setattr(index_module, "_BATCH", 10)  # rows go to SQLite before the failure
    db_path = tmp_path / "games.sqlite"
    calls = {"n": 0}
    real = index_module.file_games  # the games of a file, as the index reads them

    def failing(path: str, *args: Any) -> Any:
        for game in real(path, *args):
            if "second" in path:
                calls["n"] += 1
                if calls["n"] == 40:
                    raise KeyboardInterrupt
            yield game

    monkeypatch.setattr(index_module, "file_games", failing)
    with Index(db_path) as index:
        with pytest.raises(KeyboardInterrupt):
            for _ in index.add_files([games, second], variant="english", positions=True):
                pass
        assert calls["n"] == 40
        # The first file is there, nothing of the second.
        assert index.files() == [(os.path.realpath(games), 3, True)]
    interrupted = dump(db_path)
    assert len(interrupted["games"]) == 3 and len(interrupted["positions"]) == 15
    db = sqlite3.connect(db_path)
    assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    db.close()
    monkeypatch.setattr(index_module, "file_games", real)
    with Index(db_path) as index:
        reports = list(index.add_files([games, second], variant="english", positions=True))
    assert [report.status for report in reports] == ["unchanged", "added"]
    # The same database as one run that was never interrupted.
    clean_path = tmp_path / "clean.sqlite"
    with Index(clean_path) as index:
        list(index.add_files([games, second], variant="english", positions=True))
    assert dump(db_path) == dump(clean_path)


def test_a_killed_process_leaves_a_consistent_database(games: Path, tmp_path: Path) -> None:
    second = many_games(tmp_path / "second.pdn", 50)
    db_path = tmp_path / "games.sqlite"
    # The process dies in the middle of the second file, without cleaning up:
    # its rows so far are in the database file, the journal undoes them.
    script = f"""
import os, sys
sys.path.insert(0, {str(ROOT)!r})
import draughts.pdn.index as module
real, seen = module.file_games, [0]
module._BATCH = 10
def dying(path, *args):
    for game in real(path, *args):
        if "second" in path:
            seen[0] += 1
            if seen[0] == 45:
                os._exit(3)
        yield game
module.file_games = dying
with module.Index({str(db_path)!r}) as index:
    index.connection.execute("PRAGMA cache_size = 2")  # pages reach the file before COMMIT
    for path in ({str(games)!r}, {str(second)!r}):
        index.add_file(path, variant="english", positions=True)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 3, done.stderr
    assert Path(f"{db_path}-journal").exists()  # the transaction was cut on disk
    with Index(db_path) as index:
        assert index.files() == [(os.path.realpath(games), 3, True)]
        assert index.connection.execute("SELECT COUNT(*) FROM games").fetchone() == (3,)
        assert index.connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert index.add_file(second, variant="english").status == "added"
        assert index.count() == 53


def test_other_databases_are_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE stuff (x)")
    db.commit()
    db.close()
    with pytest.raises(ValueError, match="not an index"):
        Index(other)
    newer = tmp_path / "newer.sqlite"
    Index(newer).close()
    db = sqlite3.connect(newer)
    db.execute("UPDATE meta SET value = '99' WHERE name = 'schema'")
    db.commit()
    db.close()
    with pytest.raises(ValueError, match="schema 99"):
        Index(newer)


def test_read_game_refuses_a_changed_file(games: Path, index: Index) -> None:
    index.add_file(games, variant="english")
    hit = index.search()[1]
    write(games, "\n" + TRANSPOSED)
    with pytest.raises(ValueError, match="changed since it was indexed"):
        index.read_game(hit)


# -- Offsets ----------------------------------------------------------------------------


def assert_offsets_read_the_same_games(path: Path, variant: str | None) -> int:
    """Index ``path``; seeking to each game's offset must read that game."""
    with Index(":memory:") as index:
        index.add_file(path, variant=variant)
        hits = index.search()
        rows = index.connection.execute("SELECT moves, final_fen FROM games ORDER BY id").fetchall()
    # Without a variant, each game is read as its file settles it (as validate does).
    each = [variant] * len(hits)
    if variant is None:
        each = [verdict.variant for verdict in settle(survey_piece(str(path), None))]
    with pdn.open_pdn(path) as handle:
        sequential = []
        for own in each:
            record = read_record(handle, variant=own)
            assert record is not None
            sequential.append(record)
        assert read_record(handle) is None
    assert len(hits) == len(sequential)
    for hit, record, (moves, final_fen), own in zip(hits, sequential, rows, each, strict=True):
        # A new handle each time: the reader keeps the rest of the last line
        # it read for the next game of the same handle, even after a seek.
        with pdn.open_pdn(path) as handle:
            handle.seek(hit.offset)
            again = read_record(handle, variant=own)
            assert again is not None, (path, hit.number)
            same = (again.tags, again.plies, again.final_fen, again.result, again.errors)
            assert same == (
                record.tags,
                record.plies,
                record.final_fen,
                record.result,
                record.errors,
            )
            assert (hit.plies, final_fen) == (record.plies, record.final_fen)
            assert len(moves.split()) == record.plies
    return len(hits)


def test_offsets_with_every_kind_of_line_end_and_encoding(tmp_path: Path) -> None:
    text = (
        '[Event "Café"]\n1. 32-28 19-23 2-0 {après} [Event "b"]\n1. 31-27 *'
        '  \n\n\n; between\n[Event "ü"] 1. 33-29 * 1. 34-30 *\n1. 35-30\n'
        '[Event "ö"]\n1. 32-27 *'  # after a game without a terminator
    )
    cases = {
        "lf": ("utf-8", "\n"),
        "crlf": ("utf-8", "\r\n"),
        "cr": ("utf-8", "\r"),
        "bom": ("utf-8-sig", "\r\n"),
        "cp1252": ("cp1252", "\n"),
    }
    for name, (encoding, newline) in cases.items():
        path = write(tmp_path / f"{name}.pdn", text, encoding, newline)
        assert assert_offsets_read_the_same_games(path, None) == 6, name
        with Index(":memory:") as index:
            index.add_file(path)
            events = [hit.event for hit in index.search()]
        assert events == ["Café", "b", "ü", None, None, "ö"], name


def test_a_game_after_an_undecodable_byte_starts_at_its_first_byte(tmp_path: Path) -> None:
    # UTF-8 for 120 kB (the encoding is guessed from the first 64 kB), then,
    # right before the second game's tag, the first byte of a three-byte
    # character without the other two: the decoder gives its U+FFFD only
    # with the "[" after it. (Lines of 99 characters: 80,000 short lines
    # took 1.2 s of CPU time to index, 600 long ones take 0.03 s.)
    data = ("\u00e9" * 99 + "\n").encode() * 600 + b'1. 32-28 19-23 \xe9[White "X"]\n1. 31-27 *\n'
    path = tmp_path / "x.pdn"
    path.write_bytes(data)
    with Index(":memory:") as index:
        index.add_file(path)
        first, second = index.search()
        assert (first.offset, second.offset) == (0, data.index(b"[White"))
        game = index.read_game(second)
    assert game.headers["White"] == "X"
    assert game.mainline_moves() == [Move(31, 27)]


# Bytes that are not UTF-8: the first byte of a two- or three-byte character
# without the rest (the decoder gives its U+FFFD with the next character), a
# continuation byte alone, a byte UTF-8 never uses; and a whole character.
STRAY = [b"\xe9", b"\xc3", b"\xe2\x82", b"\x80", b"\xff", b"\xc3\xa9"]
PIECES = [
    '[Event "é"]',
    '[White "X"]',
    '[Black "Y"]',
    "1.",
    "32-28",
    "19-23",
    "28x19",
    "14x23",
    "31-27",
    "11-15",
    "{c}",
    "{é",
    "}",
    "(1. 33-29)",
    "; note",
    "2-0",
    "0-2",
    "*",
    "é",
]
LINE_ENDS = [b"\n", b"\r\n", b"\r", b"\n\n", b"\r\r\n", b"\n\r"]
# One line the encoding is guessed from, cheap to read: a comment to the end
# of the line (a line of blanks this long takes the reader 50 ms).
UTF8_HEAD = b";" + b" " * (1 << 16) + b"\n"


@st.composite
def stray_byte_files(draw: st.DrawFn) -> bytes:
    """PDN text with stray bytes glued to its tokens and every kind of line
    end (read as cp1252 unless it comes after :data:`UTF8_HEAD`)."""
    parts: list[bytes] = []
    for _ in range(draw(st.integers(1, 25))):
        if draw(st.integers(0, 3)) == 0:
            parts.append(draw(st.sampled_from(STRAY)))
        parts.append(draw(st.sampled_from(PIECES)).encode())
        parts.append(draw(st.sampled_from([b" ", b"", b"\t", *LINE_ENDS])))
    return b"".join(parts)


def message_free(game: pdn.Game) -> tuple[Any, ...]:
    """What reading gave: the game's tags, moves and errors, without where the
    errors are (lines and columns count from where reading started)."""
    errors = [(error.kind, error.message, error.unparsed) for error in game.errors]
    return dict(game.headers), game.mainline_moves(), errors


STRAY_BYTES = (
    stray_byte_files(),
    st.booleans(),
    st.sampled_from([None, "english", "international"]),
)


@settings(max_examples=25, deadline=None)
@given(*STRAY_BYTES)
@example(b'1. 32-28 19-23 \xe9[White "X"]\r1. 31-27 *', True, "english")
def test_every_offset_reads_its_game_with_stray_bytes(
    text: bytes, utf8: bool, variant: str | None
) -> None:
    _offsets_read_their_games(text, utf8, variant)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)  # about 1 s
@given(*STRAY_BYTES)
@example(b'1. 32-28 19-23 \xe9[White "X"]\r1. 31-27 *', True, "english")
def test_every_offset_reads_its_game_with_stray_bytes_many(
    text: bytes, utf8: bool, variant: str | None
) -> None:
    _offsets_read_their_games(text, utf8, variant)


def _offsets_read_their_games(text: bytes, utf8: bool, variant: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.pdn"
        path.write_bytes(UTF8_HEAD + text if utf8 else text)
        with pdn.open_pdn(path) as handle:
            expected = []
            while (game := pdn.read_game(handle, variant=variant)) is not None:
                expected.append(message_free(game))
        with Index(":memory:") as index:
            index.add_file(path, variant=variant)
            hits = index.search()
            again = [message_free(index.read_game(hit)) for hit in hits]
    assert again == expected


def corpus_paths() -> list[Any]:
    if not SHARED_PDN.is_dir():
        return [pytest.param("english/tinsley.pdn", id="corpus-absent")]
    params = []
    for path in sorted(SHARED_PDN.rglob("*")):
        if path.suffix not in (".pdn", ".phn"):
            continue
        relative = path.relative_to(SHARED_PDN).as_posix()
        params.append(pytest.param(relative, marks=corpus_marks(path), id=relative))
    return params


FOLDER_VARIANTS = {"english": "english", "italian": "italian", "czech": "czech"}


@pytest.mark.parametrize("relative", corpus_paths())
def test_offsets_over_the_corpus(relative: str) -> None:
    path = shared_path(relative)
    variant = FOLDER_VARIANTS.get(relative.split("/")[0])
    assert assert_offsets_read_the_same_games(path, variant) > 0


def test_a_search_does_not_wait_for_a_writer(games: Path, tmp_path: Path) -> None:
    db_path = tmp_path / "games.sqlite"
    with Index(db_path) as index:
        index.add_file(games, variant="english", positions=True)
    writer = sqlite3.connect(db_path, isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")  # as a run indexing another file holds it
        writer.execute("DELETE FROM tags")
        with Index(db_path) as index:
            assert len(index.games_with_position(AFTER_FOUR)) == 2
            assert len(index.games_with_tag("Event", "one")) == 1  # not deleted yet
    finally:
        writer.execute("ROLLBACK")
        writer.close()
