"""The opening book: built from PDN games, written and read back, refused
when broken, and played by the built-in engine."""

from __future__ import annotations

import gzip
import json
import random
from collections import Counter
from pathlib import Path

import pytest

import draughts
import draughts.pdn
from draughts._cli.main import main
from draughts.engine import Book, BookEntry, BookError, Limit, builtin, default_book
from draughts.engine.book import build, move_text
from tests.conftest import shared_path

# Two variants in one file: the reader decides each game's.
_MIXED = """[GameType "21"]
[Result "1-0"]
1. 11-15 23-19 2. 8-11 22-17 1-0

[GameType "21"]
[Result "1/2-1/2"]
1. 11-15 23-19 2. 9-14 1/2-1/2

[GameType "20"]
[Result "0-2"]
1. 32-28 19-23 2. 28x19 14x23 0-2

1. 32-28 18-23 *
"""


def _replayed(paths: list[Path], plies: int) -> Counter[tuple[str, int, str, str]]:
    """Per (variant, position key, move, outcome for the mover) the games,
    counted by replaying every game on a board: the book's oracle."""
    counts: Counter[tuple[str, int, str, str]] = Counter()
    for path in paths:
        # Each game in the variant validate reports for it, its file in view.
        reports = list(draughts.pdn.validate(path))
        with draughts.pdn.open_pdn(path) as handle:
            for report in reports:
                variant = None if report.decided_by == "tag" else report.variant
                game = draughts.pdn.read_game(handle, variant=variant)
                assert game is not None
                board = game.board()
                result = game.headers.get("Result", "*")
                # The first number is the score of the variant's first player.
                first_won = {"2-0": 1, "1-0": 1, "0-2": 0, "0-1": 0}.get(result)
                first = board.variant.first_color
                for move in game.mainline_moves()[:plies]:
                    if result in ("1-1", "1/2-1/2"):
                        outcome = "draw"
                    elif first_won is None:
                        outcome = "none"
                    else:
                        outcome = "win" if first_won == (board.turn == first) else "loss"
                    counts[board.variant.name, board.position_key, move_text(move), outcome] += 1
                    board.push(move)
    return counts


def _book_counts(book: Book) -> Counter[tuple[str, int, str, str]]:
    counts: Counter[tuple[str, int, str, str]] = Counter()
    for (name, key), entries in book.entries.items():
        for e in entries:
            none = e.games - e.wins - e.draws - e.losses
            for outcome, n in (("win", e.wins), ("draw", e.draws), ("loss", e.losses)):
                if n:
                    counts[name, key, e.move, outcome] += n
            if none:
                counts[name, key, e.move, "none"] += none
    return counts


def test_mixed_file_read_back(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pdn"
    path.write_text(_MIXED)
    book = build([path], plies=4)
    assert _book_counts(book) == _replayed([path], 4)
    english = draughts.Board(variant="english")
    ((move, entry),) = book.moves(english)
    assert (str(move), entry) == ("11-15", BookEntry("11-15", 2, 1, 1, 0))  # Black won ("1-0")
    ((move, entry),) = book.moves(draughts.Board())
    assert entry == BookEntry("32-28", 2, 0, 0, 1)  # White lost one, one had no result
    for name in ("book.jsonl", "book.jsonl.gz"):
        book.save(tmp_path / name)
        assert Book.load(tmp_path / name) == book
    assert (tmp_path / "book.jsonl.gz").read_bytes()[:2] == b"\x1f\x8b"


# Untagged games of one event: the first is Frisian by its moves (24x22
# takes sideways), the other two fit International too.
_FRISIAN_CLUB = """[Event "Club"]
1. 34-29 19-24 2. 29-23 24x22 *

[Event "Club"]
1. 32-28 19-23 2. 28x19 14x23 *

[Event "Club"]
1. 33-29 17-22 *
"""


def test_untagged_games_take_the_variant_their_file_settles(tmp_path: Path) -> None:
    path = tmp_path / "club.pdn"
    path.write_text(_FRISIAN_CLUB)
    reports = list(draughts.pdn.validate(path))
    assert [(r.variant, r.decided_by) for r in reports] == [
        ("frisian", "evidence"),
        ("frisian", "file"),
        ("frisian", "file"),
    ]
    book = build([path], plies=2)
    assert {name for name, _key in book.entries} == {"frisian"}
    frisian = draughts.Board(variant="frisian")
    assert sorted(str(move) for move, _ in book.moves(frisian)) == ["32-28", "33-29", "34-29"]
    assert draughts.Board() not in book  # read one by one, two were International
    assert _book_counts(book) == _replayed([path], 2)


def test_corpus_book_holds_every_position_and_move(tmp_path: Path) -> None:
    paths = [
        shared_path("international/wk2003.pdn"),
        shared_path("english/British_Computer_Championship_2002.pdn"),
    ]
    book = build(paths, plies=400)  # every ply of every main line
    expected = _replayed(paths, 400)
    assert sum(expected.values()) > 10_000
    assert _book_counts(book) == expected
    book.save(tmp_path / "b.jsonl.gz")
    assert Book.load(tmp_path / "b.jsonl.gz") == book


def test_min_games_keeps_only_repeated_moves(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pdn"
    path.write_text(_MIXED)
    book = build([path], plies=4, min_games=2)
    assert {e.move for entries in book.entries.values() for e in entries} == {
        "11-15",
        "23-19",
        "32-28",
    }


def _header(**changes: object) -> str:
    header: dict[str, object] = {
        "format": "draughts-book",
        "version": 1,
        "plies": 2,
        "keys": {"international": f"{draughts.Board().position_key:016x}"},
    }
    header.update(changes)
    return json.dumps(header)


@pytest.mark.parametrize(
    ("content", "line", "reason"),
    [
        (b"\x00\x01\xff\xfe binary", 1, "not UTF-8"),
        (b'[Event "x"]\n1. 32-28 *\n', 1, "not JSON"),
        (b'{"a": 1}\n', 1, "no 'draughts-book' header"),
        (_header(version=7).encode(), 1, "book version 7"),
        (_header(keys={"international": "0" * 16}).encode(), 1, "other position keys"),
        (_header(keys={"nosuch": "0"}).encode(), 1, "unknown variant"),
        ((_header() + '\n{"variant": "international"}\n').encode(), 2, "not a book position"),
        (
            (_header() + '\n{"variant": "international", "key": "zz", "moves": []}\n').encode(),
            2,
            "not a book position",
        ),
        (
            (
                _header() + '\n{"variant":"international","key":"1","moves":[["32-28",-1,0,0,0]]}'
            ).encode(),
            2,
            "not a book position",
        ),
        (
            (_header() + '\n{"variant": "english", "key": "1", "moves": []}\n').encode(),
            2,
            "not in the header",
        ),
        ((_header() + "\n{broken\n").encode(), 2, "not JSON"),
        (gzip.compress(_header().encode())[:-6], 1, "broken gzip"),
    ],
)
def test_bad_book_files_are_refused_clearly(
    tmp_path: Path, content: bytes, line: int, reason: str
) -> None:
    path = tmp_path / "bad.book"
    path.write_bytes(content)
    with pytest.raises(BookError, match=reason) as caught:
        Book.load(path)
    assert caught.value.line == line
    assert str(caught.value).startswith(f"{path}, line {line}:")
    with pytest.raises(BookError):
        builtin("medium", book=path)


def test_engine_plays_a_book_move_at_the_start() -> None:
    book = default_book()
    for variant in ("international", "english"):
        board = draughts.Board(variant=variant)
        booked = {move for move, _entry in book.moves(board)}
        assert len(booked) >= 2
        played = [builtin("hard", seed=seed, book=book).play(board).move for seed in range(12)]
        assert set(played) <= booked
        assert len(set(played)) >= 2  # weighted, not always the commonest
        again = [builtin("hard", seed=seed, book=book).play(board).move for seed in range(12)]
        assert again == played  # the seed decides


def test_book_none_searches_and_a_book_overrides(tmp_path: Path) -> None:
    board = draughts.Board(variant="english")
    searched = builtin("medium").play(board, Limit(depth=2)).move
    other = next(m for m in board.legal_moves if m != searched)
    book = Book({("english", board.position_key): (BookEntry(move_text(other), 1),)}, plies=1)
    assert builtin("medium", book=book).play(board, Limit(depth=2)).move == other
    assert builtin("medium", book=None).play(board, Limit(depth=2)).move == searched
    book.save(tmp_path / "one.jsonl")
    assert builtin("medium", book=str(tmp_path / "one.jsonl")).play(board).move == other
    # Out of the book the engine searches.
    board.push(other)
    assert board not in book
    assert builtin("medium", book=book).play(board, Limit(depth=2)).move in board.legal_moves


def test_book_move_illegal_by_history_is_skipped() -> None:
    board = draughts.Board()
    book = Book({("international", board.position_key): (BookEntry("1-2", 5),)}, plies=1)
    assert book.moves(board) == [] and board not in book
    assert book.choose(board, random.Random(0)) is None


def test_cli_book_build(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mixed.pdn"
    path.write_text(_MIXED)
    out = tmp_path / "mixed.jsonl.gz"
    assert main(["book", "build", str(path), "--plies", "3", "--out", str(out)]) == 0
    assert "positions" in capsys.readouterr().out
    assert Book.load(out) == build([path], plies=3)
    assert main(["book", "build", str(tmp_path / "absent.pdn"), "--out", str(out)]) == 1
    assert "absent.pdn" in capsys.readouterr().err
    binary = tmp_path / "binary.pdn"
    binary.write_bytes(b"\x00" * 100)
    assert main(["book", "build", str(binary), "--out", str(out)]) == 2
    assert "binary.pdn" in capsys.readouterr().err


def test_default_book_covers_both_variants() -> None:
    names = Counter(name for name, _key in default_book().entries)
    assert names["international"] > 500 and names["english"] > 5000


def test_results_give_the_first_players_score_first(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pdn"
    path.write_text(_MIXED)
    book = build([path], plies=4)
    english = draughts.Board(variant="english")  # Black starts: "1-0" is Black's win
    assert book.moves(english)[0][1] == BookEntry("11-15", 2, 1, 1, 0)
