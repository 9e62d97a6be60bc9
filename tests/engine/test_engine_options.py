"""The built-in engine's book and bitbases reached from outside Python: the
Hub parameters ``book`` and ``egtb``, ``builtin:LEVEL,book=...,egtb=...``
engine specs, and the ``--book``/``--egtb`` options of ``play``, ``dxp`` and
``hub``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import draughts
from draughts._cli.main import main
from draughts._cli.play import play
from draughts.engine import default_book
from draughts.engine.egtb import Bitbases
from draughts.engine.hub import format_position, parse_line
from draughts.engine.hub_server import HubServer
from draughts.engine.matches import engine_spec

# English, two men against a king: a draw that 27-24 throws away and 20-16
# keeps; a 4-ply search sees it only by probing the 2-piece bitbases below
# the root (tests/engine/test_egtb.py).
DRAWN = "W:W20,27:BK19"


@pytest.fixture(scope="module")
def egtb_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("egtb")
    Bitbases.build("english", 2).save(folder)
    return folder


def _hub_move(server: HubServer, lines: list[str], board: draughts.Board, depth: int) -> str:
    server.handle(f"pos pos={format_position(board)}")
    server.handle(f"level depth={depth}")
    server.handle("go think")
    server.wait()
    command, args = parse_line(lines[-1])
    assert command == "done", lines[-1]
    return args["move"]


def test_hub_parameters_book_and_egtb(egtb_dir: Path) -> None:
    lines: list[str] = []
    server = HubServer(lines.append, variant="english")
    server.handle("hub")
    params = {args["name"]: args for command, args in map(parse_line, lines) if command == "param"}
    assert params["book"]["value"] == params["egtb"]["value"] == "none"
    assert params["book"]["type"] == params["egtb"]["type"] == "string"
    board = draughts.Board(DRAWN, variant="english")
    assert _hub_move(server, lines, board, 4) == "27-24"
    server.handle(f"set-param name=egtb value={egtb_dir}")
    assert _hub_move(server, lines, board, 4) == "20-16"
    # The book: from the start, a move of the library's book, at once.
    start = draughts.Board(variant="english")
    server.handle("set-param name=book value=default")
    booked = {str(move) for move, _entry in default_book().moves(start)}
    assert _hub_move(server, lines, start, 30) in booked


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("set-param name=book value=/no/such/book", "book: [Errno 2]"),
        ("set-param name=egtb value=/no/such/dir", "egtb: /no/such/dir: not a directory"),
    ],
)
def test_hub_bad_book_or_egtb_is_an_error_line(line: str, words: str, tmp_path: Path) -> None:
    lines: list[str] = []
    server = HubServer(lines.append, variant="english")
    server.handle(line)
    command, args = parse_line(lines[-1])
    assert command == "error" and words in args["message"], args
    # A file that is not a book, a directory whose files are not bitbases.
    (tmp_path / "book.jsonl").write_text("hello\n")
    (tmp_path / "english.2.wdl").write_bytes(b"\x00garbage")
    server.handle(f"set-param name=book value={tmp_path / 'book.jsonl'}")
    server.handle(f"set-param name=egtb value={tmp_path}")
    messages = [parse_line(line)[1]["message"] for line in lines[-2:]]
    assert "line 1: not JSON" in messages[0] and "not a bitbase file" in messages[1], messages
    # The session goes on, without a book or bitbases.
    assert _hub_move(server, lines, draughts.Board(DRAWN, variant="english"), 4) == "27-24"


def test_builtin_specs_with_book_and_egtb(egtb_dir: Path) -> None:
    engine = engine_spec(f"builtin:hard:3,book=default,egtb={egtb_dir}").make()
    assert engine.book is default_book()
    board = draughts.Board(DRAWN, variant="english")
    assert str(engine.play(board, draughts.engine.Limit(depth=4)).move) == "20-16"
    assert engine_spec("builtin:medium,book=none").make().book is None
    for bad, words in [
        ("builtin:hard,colour=red", "'colour=red' is not an option"),
        ("builtin:hard,book", "'book' is not an option"),
        ("builtin:hard,book=default,book=none", "each once"),
        ("builtin:hard,egtb=/no/such/dir", "not a directory"),
    ]:
        with pytest.raises(ValueError, match=words):
            engine_spec(bad)
    with pytest.raises(OSError):
        engine_spec("builtin:hard,book=/no/such/book")


def test_match_command_refuses_a_bad_book(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "builtin:easy,book=/no/such/book", "builtin:easy"]) == 2
    assert "/no/such/book" in capsys.readouterr().err


def test_play_and_hub_and_dxp_commands_take_book_and_egtb(
    egtb_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The medium level searches 4 plies: the bitbases make it keep the draw.
    for egtb, move in (("none", "27-24"), (str(egtb_dir), "20-16")):
        out = io.StringIO()
        code = play(
            variant="english",
            level="medium",
            color="black",
            fen=DRAWN,
            egtb=egtb,
            stdin=io.StringIO("quit\n"),
            stdout=out,
        )
        assert code == 0 and f"Engine plays {move}" in out.getvalue(), out.getvalue()
    out = io.StringIO()
    code = play(
        variant="english",
        level="hard",
        color="white",
        book="/no/such/book",
        stdin=io.StringIO("quit\n"),
        stdout=out,
    )
    assert code == 2 and "/no/such/book" in out.getvalue()
    assert main(["hub", "--egtb", "/no/such/dir"]) == 2
    assert "not a directory" in capsys.readouterr().err
    assert main(["dxp", "--listen", "0", "--book", "/no/such/book"]) == 2
    assert "/no/such/book" in capsys.readouterr().err
