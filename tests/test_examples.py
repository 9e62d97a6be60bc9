"""The scripts of ``examples/`` run as the user would run them (in this
process, for speed) and print what they promise."""

from __future__ import annotations

import io
import runpy
import sys
from pathlib import Path

import pytest

import draughts
from draughts import pdn

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str
) -> tuple[int, str]:
    """The exit code and the standard output of ``python examples/ARGV...``."""
    monkeypatch.setattr(sys, "argv", [str(EXAMPLES / argv[0]), *argv[1:]])
    code = 0
    try:
        runpy.run_path(str(EXAMPLES / argv[0]), run_name="__main__")
    except SystemExit as stop:
        code = int(stop.code or 0)
    return code, capsys.readouterr().out


def test_every_script_is_tested() -> None:
    tested = {"validate_pdn.py", "random_game.py", "engine_search.py", "convert.py"}
    assert {path.name for path in EXAMPLES.glob("*.py")} == tested


def test_validate_pdn(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(monkeypatch, capsys, "validate_pdn.py")
    lines = out.splitlines()
    assert code == 0 and lines[-1] == "14 games, 0 with errors"
    assert "candidate95.pdn game 1: international, " in out
    bad = EXAMPLES.parent / "tests" / "data" / "pdn"
    files = sorted(bad.glob("*.pdn"))
    code, out = run(monkeypatch, capsys, "validate_pdn.py", *map(str, files))
    with pdn.validate([str(path) for path in files]) as validation:
        summary = validation.summary()
    assert out.splitlines()[-1] == f"{summary.games} games, {summary.games_with_errors} with errors"
    assert code == (0 if summary.ok else 1)


@pytest.mark.parametrize("variant", ["english", "frisian"])
def test_random_game(
    variant: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(monkeypatch, capsys, "random_game.py", "--variant", variant, "--seed", "3")
    assert code == 0
    game = pdn.read_game(io.StringIO(out))
    assert game is not None and game.errors == [] and game.headers.variant().name == variant
    board = game.end().board()
    assert board.is_game_over() or len(board.move_stack) == 300
    assert game.headers["Result"] == (board.outcome().result() if board.outcome() else "*")
    assert out.rstrip().splitlines()[-1].startswith("% ended: ")


def test_engine_search(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    fen = "B:W18,K25:B14,10"
    code, out = run(
        monkeypatch, capsys, "engine_search.py", "--variant", "english", fen, "--depth", "4"
    )
    assert code == 0 and out.startswith("score ") and ", depth 4, " in out
    line = out.splitlines()[1].removeprefix("best line: ")
    board = draughts.Board(fen, variant="english")
    assert line.startswith("1. 14x23")  # the capture is compulsory
    for text in line.split():
        if not text.endswith("."):
            board.push_pdn(text)  # every move of the line is legal


def test_convert(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(monkeypatch, capsys, "convert.py", "fen", str(EXAMPLES / "candidate95.pdn"))
    fens = out.splitlines()
    assert code == 0 and len(fens) == 8
    with pdn.open_pdn(EXAMPLES / "candidate95.pdn") as handle:
        first = pdn.read_game(handle)
    assert first is not None
    board = first.board()
    for move in first.mainline_moves():
        board.push(move)
    assert fens[0] == board.fen()
    code, out = run(
        monkeypatch,
        capsys,
        "convert.py",
        "pdn",
        "--variant",
        "english",
        "B:W18,K25:B14,10",
        "14-23",
    )
    game = pdn.read_game(io.StringIO(out))
    assert code == 0 and game is not None and game.errors == []
    assert game.headers["FEN"] == "B:W18,K25:B10,14"
    assert [str(move) for move in game.mainline_moves()] == ["14x23"]
