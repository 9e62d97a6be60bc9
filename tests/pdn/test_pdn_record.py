"""GameRecord: one game's summary, read without a tree."""

from __future__ import annotations

import io
import pickle

import attrs

from draughts import Board
from draughts.pdn import read_game
from draughts.pdn.record import GameRecord, read_record


def test_side_lines_do_not_count_and_the_final_position_is_the_main_lines() -> None:
    text = '[GameType "21"]\n1. 11-15 (1. 9-14 22-18) 23-19 2. 8-11 {c} 22-17 *'
    record = read_record(io.StringIO(text), file="x.pdn", offset=0, number=4)
    assert record is not None
    board = Board(variant="english")
    for move in ("11-15", "23-19", "8-11", "22-17"):
        board.push_pdn(move)
    assert (record.variant, record.plies, record.final_fen) == ("english", 4, board.fen())
    assert (record.file, record.number, record.result, record.errors) == ("x.pdn", 4, "*", 0)
    assert record.tags == (("GameType", "21"),)


def test_errors_are_counted_and_the_first_is_kept() -> None:
    text = "1. 32-28 19-23 2. 28-22 23x32 *"  # 28-22 is illegal: 28x19 must be played
    game = read_game(io.StringIO(text))
    record = read_record(io.StringIO(text))
    assert game is not None and record is not None
    assert record.errors == len(game.errors) == 1
    assert record.first_error == str(game.errors[0])
    assert record.plies == 2
    assert record.final_fen == game.end().board().fen()


def test_end_of_file_and_missing_result() -> None:
    assert read_record(io.StringIO("")) is None
    record = read_record(io.StringIO("1. 32-28"))
    assert record is not None and record.result is None and record.plies == 1


def test_a_record_is_plain_data() -> None:
    record = read_record(io.StringIO('[Event "e"]\n1. 32-28 *'), file="f.pdn")
    assert record is not None
    assert pickle.loads(pickle.dumps(record)) == record
    assert attrs.asdict(record)["tags"] == (("Event", "e"),)
    assert isinstance(record, GameRecord)
