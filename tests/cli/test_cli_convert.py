"""``draughts convert`` on files with errors: every game written, every error
printed with its game number, the exit status says which."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from draughts import pdn
from draughts._cli import main
from tests.conftest import shared_path
from tests.fuzz.fuzz_pdn import comparable_errors

BAD_GAMES = (
    '[Event "fen"]\n[GameType "20"]\n[FEN "W:W18,K15,51:BK30,K26,2."]\n1. 15-10 *\n\n'
    '[Event "variant"]\n[Variant "Turkish-ish"]\n1. 32-28 19-23 *\n\n'
    '[Event "clean"]\n1. 32-28 19-23 *\n\n'
    '[Event "illegal"]\n1. 32-28 19-23 2. 28-22 23x32 *\n\n'
    '[Event "gametype"]\n[GameType "99"]\n{before} 1. 32-28 *\n'
)


def read_all(path: Path) -> list[pdn.Game]:
    with pdn.open_pdn(path) as handle:
        games = []
        while (game := pdn.read_game(handle)) is not None:
            games.append(game)
    return games


def test_convert_writes_every_game_and_keeps_its_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, out = tmp_path / "in.pdn", tmp_path / "out.pdn"
    source.write_text(BAD_GAMES, encoding="utf-8")
    assert main(["convert", str(source), str(out)]) == 1
    captured = capsys.readouterr()
    assert captured.out == f"5 games written to {out}, 4 with errors\n"
    assert captured.err.splitlines() == [
        f"{source}:3:1: game 1: invalid FEN tag: '51' is not a square of the international "
        "board in 'W:W18,K15,51:BK30,K26,2.'",
        f"{source}:7:1: game 2: unknown Variant 'Turkish-ish'",
        f"{source}:14:19: game 4: illegal move '28-22' in W:W28,31,33-50:B1-18,20,23: "
        "capture is mandatory: 28x19",
        f"{source}:17:1: game 5: unknown GameType '99'",
    ]
    games, again = read_all(source), read_all(out)
    assert [g.headers["Event"] for g in again] == ["fen", "variant", "clean", "illegal", "gametype"]
    for game, other in zip(games, again, strict=True):
        assert comparable_errors(other) == comparable_errors(game)
        assert other.mainline_moves() == game.mainline_moves()
    # The tags as they were, the text the errors left out as it was.
    assert again[0].headers["FEN"] == "W:W18,K15,51:BK30,K26,2."
    assert again[1].headers["Variant"] == "Turkish-ish" and "GameType" not in again[1].headers
    text = out.read_text(encoding="utf-8")
    assert '[Variant "Turkish-ish"]\n[Result "*"]\n\n1. 32-28 19-23\n*\n' in text
    assert "{before}\n1. 32-28\n*" in text


def test_convert_of_its_own_output_finds_the_same_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, first, second = tmp_path / "in.pdn", tmp_path / "1.pdn", tmp_path / "2.pdn"
    source.write_text(BAD_GAMES, encoding="utf-8")
    assert main(["convert", str(source), str(first)]) == 1
    errors = [line.split(": game ", 1)[1] for line in capsys.readouterr().err.splitlines()]
    assert main(["convert", str(first), str(second)]) == 1
    again = [line.split(": game ", 1)[1] for line in capsys.readouterr().err.splitlines()]
    assert again == errors
    assert second.read_text(encoding="utf-8") == first.read_text(encoding="utf-8")


def test_convert_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean, out = tmp_path / "clean.pdn", tmp_path / "out.pdn"
    clean.write_text("1. 32-28 19-23 *\n", encoding="utf-8")
    assert main(["convert", str(clean), str(out)]) == 0
    assert capsys.readouterr().err == ""
    assert main(["convert", str(tmp_path / "missing.pdn"), str(out)]) == 2
    assert "missing.pdn" in capsys.readouterr().err
    assert main(["convert", str(clean), str(tmp_path / "no" / "such" / "dir.pdn")]) == 2
    assert "dir.pdn" in capsys.readouterr().err
    assert main(["convert", "--variant", "nonsense", str(clean), str(out)]) == 2
    assert "--variant" in capsys.readouterr().err
    with pytest.raises(SystemExit) as usage:
        main(["convert", str(clean)])
    assert usage.value.code == 2


def test_convert_reads_and_writes_standard_streams(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "draughts", "convert", "-", "-"],
        input=BAD_GAMES.encode(),
        capture_output=True,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 1
    assert done.stderr.decode().splitlines()[-1] == (
        "5 games written to standard output, 4 with errors"
    )
    assert "-:7:1: game 2: unknown Variant 'Turkish-ish'" in done.stderr.decode()
    games = []
    handle = io.StringIO(done.stdout.decode())
    while (game := pdn.read_game(handle)) is not None:
        games.append(game)
    assert len(games) == 5 and len(games[0].errors) == 1


def test_convert_conformance_file_with_crowning_row_fen_tags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # beginner.pdn: 58 problems, two with a man on its crowning row in the FEN
    # tag; convert used to stop at the first of them (game 10). They read now
    # (the man plays as the rules let it), and every game is written.
    source = shared_path("pdn3-conformance/succeed/beginner.pdn")
    out = tmp_path / "out.pdn"
    assert main(["convert", str(source), str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.out == f"58 games written to {out}, 0 with errors\n"
    assert captured.err == ""
    again = read_all(out)
    assert len(again) == 58 and not any(game.errors for game in again)
