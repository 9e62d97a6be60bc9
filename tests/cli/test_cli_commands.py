"""The command line: ``perft``, ``validate`` and ``convert``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from draughts import pdn
from draughts._cli import main
from tests.conftest import shared_path

DATA = Path(__file__).resolve().parents[1] / "data" / "pdn"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_perft(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--variant", "english", "--depth", "3"]) == 0
    out = capsys.readouterr().out
    # English perft 1-3 from the start: 7, 49, 302 (published tables).
    assert "depth  3" in out and "302 nodes" in out


def test_validate_clean_files(capsys: pytest.CaptureFixture[str]) -> None:
    files = [
        str(EXAMPLES / "candidate95.pdn"),
        str(EXAMPLES / "First_Computers_Match_Moscow_1998.pdn"),
    ]
    assert main(["validate", *files]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("2 files, 14 games, ")
    assert out[-1].endswith(" 0 games with errors")


def test_validate_reports_errors_with_positions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.pdn"
    path.write_text('[Event "a"]\n1. 32-28 19-23 2. 28-22 *\n\n[Event "b"]\n1. 31-27 *\n')
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{path}:2:19: illegal move '28-22'")
    assert out[-1] == "1 file, 2 games, 3 moves, 1 game with errors (illegal 1)"


def test_validate_variant_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = DATA / "British_Computer_Championship_2002.pdn"
    assert main(["validate", "--json", "--variant", "english", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True
    (entry,) = report["files"]
    assert entry["games"] == 16 and entry["games_with_errors"] == 0
    assert (entry["variants"], entry["inferred"]) == ({"english": 16}, 0)
    # Without --variant the variant of each game is inferred (no tag names it).
    assert main(["validate", "--json", str(path)]) == 0
    (entry,) = json.loads(capsys.readouterr().out)["files"]
    assert (entry["variants"], entry["inferred"], entry["games_with_errors"]) == (
        {"english": 16},
        16,
        0,
    )
    assert entry["decided_by"] == {"evidence": 14, "file": 2}
    assert [(g["game"], g["variant"], g["decided_by"]) for g in entry["guessed"]] == [
        (8, "english", "file"),
        (16, "english", "file"),
    ]
    # PDN 3.0's international, asked for, fails at the first move of each.
    assert main(["validate", "--json", "--variant", "international", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["files"][0]["errors_by_kind"] == {"illegal": 16}
    assert report["files"][0]["errors"][0]["fen"] == "W:W31-50:B1-20"


def test_validate_summary_says_the_variants_read(capsys: pytest.CaptureFixture[str]) -> None:
    path = DATA / "British_Computer_Championship_2002.pdn"
    assert main(["validate", "--jobs", "1", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2] == (
        f"{path}: 16 games read as english 16 (by the evidence 14, by the file's other games 2)"
    )
    # The games whose moves fit another variant too are named, with why.
    assert [line for line in out if ": read as " in line] == [
        f"{path}:{line}:1: game {number}: read as english (14 other games with its Event tag "
        "were english by their tags or moves; its moves fit pool too)"
        for line, number in ((71, 8), (151, 16))
    ]
    # Its records have no result marker: each is told, a warning (exit 0).
    cut = [
        line for line in out if line.endswith(": warning: no result marker: the record may be cut")
    ]
    assert len(cut) == 16 and cut[-1].startswith(f"{path}:159:242: game 16: ")


def test_validate_strict(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--strict", str(DATA / "fail_nested_comment.pdn")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert f"{DATA / 'fail_nested_comment.pdn'}:1:46: unexpected '}}'" in out
    assert out[-1] == "2 PDN 3.0 violations" or out[-1] == "1 PDN 3.0 violation"
    # prof2's separator quirks are accepted, and reported in strict mode.
    assert main(["validate", str(DATA / "prof2.pdn")]) == 1  # the "9n" typo
    capsys.readouterr()
    # PDN 3.0's own test file ends without a result marker, which the reading
    # grammar allows; strict mode calls it an error (the record may be cut).
    variation = DATA / "succeed_variation.pdn"
    assert main(["validate", "--strict", str(variation)]) == 1
    assert f"{variation}:1:75: no result marker: the record may be cut" in (
        capsys.readouterr().out.splitlines()
    )
    # A file whose games all end with their result: nothing of the kind.
    assert main(["validate", "--strict", str(DATA / "candidate95.pdn")]) == 1
    assert "result marker" not in capsys.readouterr().out


def test_validate_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["validate", str(tmp_path / "none.pdn")]) == 2
    assert "none.pdn" in capsys.readouterr().err


def test_convert(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "out.pdn"
    source = EXAMPLES / "First_Computers_Match_Moscow_1998.pdn"
    assert main(["convert", "--tag-variant", str(source), str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"6 games written to {out}")
    text = out.read_text(encoding="utf-8")
    # Short "ed4" notation comes out as full squares, terminators in PDN 3.0
    # form, the Result tags as they were read.
    assert "1. e3-d4" in text and " 0-1\n" in text and " 0:1" not in text
    assert '[Result "0:1"]' in text
    assert all(len(line) <= 80 for line in text.splitlines())
    with pdn.open_pdn(out) as handle:
        first = pdn.read_game(handle)
    with pdn.open_pdn(source) as handle:
        original = pdn.read_game(handle)
    assert first is not None and original is not None
    assert first.mainline_moves() == original.mainline_moves()
    assert pdn.check_strict(text) == []


def test_convert_tags_the_variant_only_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, out = tmp_path / "in.pdn", tmp_path / "out.pdn"
    source.write_text("1. 11-15 23-19 *\n")
    assert main(["convert", "--variant", "english", str(source), str(out)]) == 0
    assert out.read_text().startswith('[Result "*"]\n\n1. 11-15 23-19 *\n\n')
    assert main(["convert", "--tag-variant", "--variant", "english", str(source), str(out)]) == 0
    assert out.read_text().startswith('[Result "*"]\n[GameType "21"]\n\n1. 11-15 23-19 *\n\n')
    # The variant each game was read as, here inferred: English, then International.
    source.write_text('1. 11-15 23-19 *\n\n[Result "1-0"]\n1. 32-28 1-0\n')
    assert main(["convert", "--tag-variant", "--results", "2-0", str(source), str(out)]) == 0
    assert out.read_text() == (
        '[Result "*"]\n[GameType "21"]\n\n1. 11-15 23-19 *\n\n'
        '[Result "2-0"]\n[GameType "20"]\n\n1. 32-28 2-0\n\n'
    )
    # A variant that shares its GameType: the Variant tag names it too.
    source.write_text("1. c3-d4 *\n")
    assert main(["convert", "--tag-variant", "--variant", "dama", str(source), str(out)]) == 0
    assert out.read_text().startswith('[Result "*"]\n[GameType "21"]\n[Variant "dama"]\n\n')
    with pdn.open_pdn(out) as handle:
        game = pdn.read_game(handle)
    assert game is not None and game.variant.name == "dama" and not game.errors
    with pytest.raises(SystemExit) as usage:
        main(["convert", "--results", "1-1", str(source), str(out)])
    assert usage.value.code == 2


def test_module_entry_point() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "draughts", "validate", str(EXAMPLES / "candidate95.pdn")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1].startswith("1 file, 8 games")


def test_progress_bar_only_on_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from draughts._cli import pdn as _pdn_cli

    path = str(DATA / "babasy4.pdn")
    assert main(["validate", path]) == 0
    assert capsys.readouterr().err == ""  # not a terminal: no progress bar
    monkeypatch.setattr(_pdn_cli, "_PROGRESS_BYTES", 1)
    monkeypatch.setattr(_pdn_cli, "_PROGRESS_SECONDS", 0)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["validate", path]) == 0
    err = capsys.readouterr().err
    assert f"\r{path}:" in err and "%" in err


@pytest.mark.parametrize(
    ("command", "unwanted"),
    [
        (
            ["validate", str(EXAMPLES / "candidate95.pdn")],
            ["draughts.engine", "draughts.pdn.index"],
        ),
        (["perft", "--depth", "1"], ["draughts.engine", "draughts.pdn.index", "draughts.dask"]),
    ],
)
def test_a_command_imports_only_what_it_runs(command: list[str], unwanted: list[str]) -> None:
    """A command's start-up pays for its own modules only (in a fresh
    interpreter: the tests have imported everything)."""
    code = (
        "import sys\nfrom draughts._cli import main\n"
        f"main({command!r})\nprint(sorted(m for m in {unwanted!r} if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "[]"


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    usage = capsys.readouterr().out
    for command in ("perft", "play", "validate", "convert", "index", "search", "serve"):
        assert command in usage
    from draughts._cli.main import _MODULES

    assert "variants" in _MODULES
    assert "{" + ",".join(_MODULES) + "}" in usage


def test_validate_refuses_an_unknown_variant_before_reading(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # The file does not exist: the variant is refused first, as a usage error.
    assert main(["validate", "--variant", "nosuch", str(tmp_path / "none.pdn")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("draughts validate: --variant: ")
    assert "nosuch" in captured.err and "none.pdn" not in captured.err


def test_convert_reads_games_as_validate_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # A Czech championship without tags: read game by game, 4 of its games
    # would be Russian; the file's other games make them Czech.
    source = shared_path("czech/MR_Ceska_Dama_Druzstev_2008.pdn")
    out = tmp_path / "out.pdn"
    assert main(["convert", "--tag-variant", str(source), str(out)]) == 0
    capsys.readouterr()
    with pdn.open_pdn(out) as handle:
        written = [pdn.read_game(handle) for _ in range(40)]
    assert {game.headers.get("GameType") for game in written if game} == {"29"}
    with pdn.open_pdn(source) as handle:
        alone = [pdn.read_game(handle) for _ in range(40)]
    assert sum(game.variant.name == "russian" for game in alone if game) == 4


def test_validate_names_the_guessed_games(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Nothing in this file tells international from frisian, antidraughts or
    # breakthrough: every game is a guess, named with why.
    path = tmp_path / "open.pdn"
    path.write_text("1. 32-28 19-23 *\n\n1. 31-27 *\n")
    assert main(["validate", "--jobs", "1", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(" (")[0] for line in out[:2]] == [
        f"{path}:1:1: game 1: read as international",
        f"{path}:3:1: game 2: read as international",
    ]
    assert all("a guess: frisian, antidraughts and breakthrough" in line for line in out[:2])
    assert out[2] == f"{path}: 2 games read as international 2 (guessed 2)"
    assert main(["validate", "--json", "--jobs", "1", str(path)]) == 0
    (entry,) = json.loads(capsys.readouterr().out)["files"]
    assert entry["decided_by"] == {"guess": 2}
    assert [(g["game"], g["line"], g["decided_by"]) for g in entry["guessed"]] == [
        (1, 1, "guess"),
        (2, 3, "guess"),
    ]
    assert entry["guessed"][0]["reason"].startswith("read as international (squares 1-32")
