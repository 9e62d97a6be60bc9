"""Every command of the command line behaves like a Unix tool: hostile
arguments and files (a file that is not there, a binary file, an empty file,
a directory, bad numbers, an unknown variant) end with exit 0, 1 or 2 and a
one-line message, never a traceback; a reader that goes away (``| head``)
ends the command quietly; every command and option says what it is for."""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from draughts._cli import main
from draughts._cli.main import _parser

ROOT = Path(__file__).resolve().parents[2]
GOOD_PDN = ROOT / "tests" / "data" / "pdn" / "candidate95.pdn"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Hostile files, by the placeholder the cases below use."""
    root = tmp_path_factory.mktemp("hostile")
    binary = root / "binary.pdn"
    binary.write_bytes(bytes(range(256)) * 8 + b"\x00\xff\xfe" * 100)
    empty = root / "empty.pdn"
    empty.write_bytes(b"")
    return {
        "MISSING": str(root / "missing.pdn"),
        "BINARY": str(binary),
        "EMPTY": str(empty),
        "DIRECTORY": str(root),
        "NO_DIR": str(root / "no" / "such" / "dir" / "out.pdn"),
        "GOOD": str(GOOD_PDN),
        "OUT": str(root / "out.pdn"),
        "DB": str(root / "index.sqlite"),
    }


def _case(*argv: str, usage: bool = False) -> Any:
    """A command line, and whether it must be refused as a usage error (exit
    2: an unknown variant or a number out of range, before any work)."""
    return pytest.param(list(argv), usage, id=" ".join(argv))


CASES = [
    # no command, an unknown one, an unknown option
    _case(usage=True),
    _case("nosuch", usage=True),
    _case("--nosuch", usage=True),
    _case("variants", "--nosuch", usage=True),
    _case("variants", "extra", usage=True),
    # perft
    _case("perft", "--depth", "-1", usage=True),
    _case("perft", "--depth", "0", usage=True),
    _case("perft", "--depth", "x", usage=True),
    _case("perft", "--depth", "1e999", usage=True),
    _case("perft", "--variant", "nosuch", usage=True),
    _case("perft", "--variant", "9999", usage=True),
    _case("perft", "--variant", "20,Q,0,0,N9,7", usage=True),
    _case("perft", "--variant", ""),
    _case("perft", "--fen", "garbage", "--depth", "1", usage=True),
    _case("perft", "--fen", "", "--depth", "1"),
    _case("perft", "--fen", "W:W" + ",".join(["99999"] * 2000) + ":B1", "--depth", "1", usage=True),
    _case("perft", "--fen", "W:W\x00:B\udcff", "--depth", "1"),
    # play (its messages go to standard output: it is interactive)
    _case("play", "--variant", "nosuch", usage=True),
    _case("play", "--fen", "garbage", usage=True),
    _case("play", "--level", "godlike", usage=True),
    _case("play", "--seed", "x", usage=True),
    _case("play", "--color", "green", usage=True),
    # validate
    _case("validate", usage=True),
    _case("validate", "MISSING"),
    _case("validate", "BINARY"),
    _case("validate", "EMPTY"),
    _case("validate", "DIRECTORY"),
    _case("validate", "--variant", "nosuch", "GOOD", usage=True),
    _case("validate", "--variant", "nosuch", "MISSING", usage=True),
    _case("validate", "--jobs", "0", "GOOD", usage=True),
    _case("validate", "--jobs", "x", "GOOD", usage=True),
    _case("validate", "--chunk-size", "-5", "GOOD", usage=True),
    _case("validate", "--json", "MISSING"),
    _case("validate", "--json", "BINARY"),
    # convert
    _case("convert", "GOOD", usage=True),
    _case("convert", "MISSING", "OUT"),
    _case("convert", "BINARY", "OUT"),
    _case("convert", "EMPTY", "OUT"),
    _case("convert", "DIRECTORY", "OUT"),
    _case("convert", "GOOD", "NO_DIR"),
    _case("convert", "GOOD", "DIRECTORY"),
    _case("convert", "--variant", "nosuch", "GOOD", "OUT", usage=True),
    # index
    _case("index", "GOOD", usage=True),
    _case("index", "MISSING", "--db", "DB"),
    _case("index", "BINARY", "--db", "DB"),
    _case("index", "EMPTY", "--db", "DB"),
    _case("index", "DIRECTORY", "--db", "DB"),
    _case("index", "GOOD", "--db", "NO_DIR"),
    _case("index", "GOOD", "--db", "BINARY"),
    _case("index", "GOOD", "--db", "DIRECTORY"),
    _case("index", "GOOD", "--db", "DB", "--variant", "nosuch", usage=True),
    # search
    _case("search", usage=True),
    _case("search", "--db", "MISSING"),
    _case("search", "--db", "BINARY"),
    _case("search", "--db", "EMPTY"),
    _case("search", "--db", "DIRECTORY"),
    _case("search", "--db", "EMPTY", "--fen", "garbage"),
    _case("search", "--db", "EMPTY", "--moves", "99-99 zz"),
    _case("search", "--db", "EMPTY", "--variant", "nosuch", "--moves", "11-15", usage=True),
    _case("search", "--db", "EMPTY", "--tag", "novalue"),
    _case("search", "--db", "EMPTY", "--limit", "-1", usage=True),
    _case("search", "--db", "EMPTY", "--limit", "x", usage=True),
    # serve: refused before a server starts
    _case("serve", "--port", "-1", usage=True),
    _case("serve", "--port", "99999", usage=True),
    _case("serve", "--port", "x", usage=True),
    _case("serve", "--host", "256.0.0.1", "--port", "0", usage=True),
    _case("serve", "--port", "0", "--db", "/nonexistent/games.sqlite", usage=True),
    _case("serve", "--port", "0", "--db", "/dev/null", usage=True),
    # match: refused before a game is played
    _case("match", "builtin:easy", usage=True),
    _case("match", "builtin:easy", "nothing", usage=True),
    _case("match", "builtin:godlike", "builtin:easy", usage=True),
    _case("match", "builtin:easy", "builtin:easy", "--games", "0", usage=True),
    _case("match", "builtin:easy", "builtin:easy", "--games", "-3", usage=True),
    _case("match", "builtin:easy", "builtin:easy", "--depth", "-1", usage=True),
    _case("match", "builtin:easy", "builtin:easy", "--move-time", "nan", usage=True),
    _case("match", "builtin:easy", "builtin:easy", "--move-time", "-1", usage=True),
    _case("match", "builtin:easy", "builtin:easy", "--time", "soon", usage=True),
    _case("match", "builtin:easy", "builtin:easy", "--time", "-5", usage=True),
    _case("match", "builtin:easy", "builtin:easy", "--concurrency", "0", usage=True),
    _case("match", "builtin:easy", "builtin:easy", "--max-plies", "-1", usage=True),
    _case("match", "builtin:easy", "builtin:easy", "--material", "inf", usage=True),
    _case("match", "builtin:easy", "builtin:easy", "--variant", "nosuch", usage=True),
    _case("match", "builtin:easy", "builtin:easy", "--openings", "MISSING"),
    _case("match", "builtin:easy", "builtin:easy", "--openings", "BINARY"),
    _case("match", "builtin:easy", "builtin:easy", "--openings", "EMPTY"),
    _case("match", "builtin:easy", "builtin:easy", "--openings", "DIRECTORY"),
    # dxp: refused before a connection is made or accepted
    # hub: refused before it reads the GUI's first command
    _case("hub", "--variant", "nosuch", usage=True),
    _case("hub", "--level", "godlike", usage=True),
    _case("hub", "--hash", "-1", usage=True),
    _case("hub", "--hash", "x", usage=True),
    _case("hub", "--seed", "x", usage=True),
    _case("hub", "extra", usage=True),
    _case("hub", "--book", "MISSING"),
    _case("hub", "--book", "BINARY"),
    _case("hub", "--egtb", "MISSING"),
    _case("hub", "--egtb", "BINARY"),
    _case("dxp", usage=True),
    _case("dxp", "--listen", "-1", usage=True),
    _case("dxp", "--listen", "70000", usage=True),
    _case("dxp", "--listen", "1", "--connect", "127.0.0.1:1", usage=True),
    _case("dxp", "--connect", "nohost", usage=True),
    _case("dxp", "--connect", "127.0.0.1:x", usage=True),
    _case("dxp", "--connect", "127.0.0.1:1", "--level", "godlike", usage=True),
    _case("dxp", "--connect", "127.0.0.1:1", "--games", "0", usage=True),
    _case("dxp", "--connect", "127.0.0.1:1", "--minutes", "-1", usage=True),
    _case("dxp", "--connect", "127.0.0.1:1", "--move-time", "0", usage=True),
    _case("dxp", "--connect", "127.0.0.1:1", "--fen", "garbage"),
    _case("dxp", "--connect", "127.0.0.1:1", "--openings", "MISSING"),
    _case("dxp", "--connect", "127.0.0.1:1", "--openings", "BINARY"),
    # book, egtb
    _case("book", usage=True),
    _case("book", "build", "GOOD", usage=True),  # no --out
    _case("book", "build", "GOOD", "--plies", "0", "--out", "OUT", usage=True),
    _case("book", "build", "GOOD", "--plies", "-3", "--out", "OUT", usage=True),
    _case("book", "build", "GOOD", "--min-games", "0", "--out", "OUT", usage=True),
    _case("book", "build", "MISSING", "--out", "OUT"),
    _case("book", "build", "BINARY", "--out", "OUT"),
    _case("book", "build", "EMPTY", "--out", "OUT"),
    _case("book", "build", "DIRECTORY", "--out", "OUT"),
    _case("book", "build", "GOOD", "--out", "NO_DIR"),
    _case("egtb", usage=True),
    _case("egtb", "build", "--variant", "nosuch", "--out", "OUT", usage=True),
    _case("egtb", "build", "--pieces", "1", "--out", "OUT", usage=True),
    _case("egtb", "build", "--pieces", "9", "--out", "OUT", usage=True),
    _case("egtb", "build", "--variant", "antidraughts", "--pieces", "2", "--out", "OUT"),
    _case("egtb", "build", "--variant", "english", "--pieces", "2", "--out", "GOOD"),
]


def _message_lines(text: str) -> list[str]:
    """The lines of ``text`` that are not argparse's usage block."""
    lines = []
    in_usage = False
    for line in text.splitlines():
        if line.startswith("usage:"):
            in_usage = True
        elif in_usage and line.startswith(" "):
            continue
        else:
            in_usage = False
            if line.strip():
                lines.append(line)
    return lines


@pytest.mark.parametrize(("argv", "usage"), CASES)
def test_hostile_arguments_get_a_one_line_message(
    argv: list[str],
    usage: bool,
    files: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # play and hub: the end of their input (hub reads its bytes)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    words = [files.get(word, word) for word in argv]
    try:
        code = main(words)
    except SystemExit as stop:  # argparse's usage errors, --help
        code = stop.code if isinstance(stop.code, int) else 1
    out, err = capsys.readouterr()
    assert code in ((2,) if usage else (0, 1, 2)), (code, out, err)
    assert "Traceback" not in out + err
    if code == 2:
        # A usage or input error: one line saying what is wrong (after
        # argparse's usage), on standard error, or on standard output for
        # the interactive commands that print everything there.
        message = _message_lines(err) or _message_lines(out)
        assert len(message) == 1, (out, err)
        assert message[0].startswith("draughts"), message


def test_every_hostile_file_and_command_is_covered() -> None:
    # A command added later gets hostile cases too.
    commands = _subcommands(_parser())
    covered = {case.values[0][0] for case in CASES if case.values[0]}
    assert set(commands) <= covered, set(commands) - covered


# -- Help --------------------------------------------------------------------------


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def _undocumented(parser: argparse.ArgumentParser) -> list[str]:
    return [
        "/".join(action.option_strings) or action.dest
        for action in parser._actions
        if not action.help or action.help == argparse.SUPPRESS
    ]


def _help_cases() -> list[str]:
    return list(_subcommands(_parser()))


@pytest.mark.parametrize("command", _help_cases())
def test_every_command_and_option_has_a_help_line(command: str) -> None:
    parser = _parser()
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    helps = {choice.dest: choice.help for choice in action._choices_actions}
    assert helps.get(command), f"{command} has no help line in 'draughts --help'"
    assert _undocumented(_subcommands(parser)[command]) == []


def test_the_main_parser_has_help_lines() -> None:
    assert [name for name in _undocumented(_parser()) if name != "command"] == []


# -- The variants command -------------------------------------------------------------


def test_variants_lists_names_aliases_and_gametypes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["Variant", "GameType", "Board", "Title", "Aliases"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert len(rows) == 19
    assert rows["international"].split()[1:3] == ["20", "10x10"]
    assert rows["international"].endswith("standard, fmjd, 10x10, polish")
    assert rows["english"].split()[1] == "21"
    assert '21, Variant "dama"' in rows["dama"]
    assert rows["thai"].split()[1] == "31" and rows["thai"].endswith("mak-hot, makhos")


def test_variants_json_names_what_find_variant_accepts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import draughts
    from draughts.variant import gametype_preset

    assert main(["variants", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["name"] for row in rows] == [v.name for v in draughts.variant.VARIANTS]
    for row in rows:
        variant = draughts.find_variant(row["name"])
        assert all(draughts.find_variant(alias) is variant for alias in row["aliases"])
        assert gametype_preset(row["gametype"], row["variant_tag"]) is variant
        assert (
            draughts.find_variant(row["gametype_value"]).gametype_string == variant.gametype_string
        )


# -- A reader that goes away --------------------------------------------------------


def _piped_to_head(argv: list[str], cwd: Path) -> tuple[int, bytes, bytes]:
    """Run ``draughts ARGV | head -1``: the command's exit code, the line
    ``head`` printed and the command's standard error."""
    command = subprocess.Popen(
        [sys.executable, "-m", "draughts", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
    )
    assert command.stdout is not None and command.stderr is not None
    first = command.stdout.readline()
    command.stdout.close()  # what head does after its line
    err = command.stderr.read()
    command.stderr.close()
    return command.wait(timeout=60), first, err


@pytest.fixture(scope="module")
def many_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A PDN file whose every game has an error: validate prints a line each."""
    path = tmp_path_factory.mktemp("pipe") / "bad.pdn"
    path.write_text("".join(f'[Event "{n}"]\n1. 32-28 99-98 *\n\n' for n in range(3000)))
    return path


def test_perft_validate_and_search_end_quietly_when_the_reader_goes(
    many_games: Path, tmp_path: Path
) -> None:
    code, first, err = _piped_to_head(["perft", "--depth", "12"], tmp_path)
    assert first.startswith(b"variant international")
    assert (code, err) == (141, b"")
    code, first, err = _piped_to_head(["validate", "--jobs", "1", str(many_games)], tmp_path)
    assert first.startswith(str(many_games).encode() + b":2:")
    assert (code, err) == (141, b"")
    db = tmp_path / "games.sqlite"
    assert main(["index", str(many_games), "--db", str(db), "--variant", "international"]) == 0
    code, first, err = _piped_to_head(["search", "--db", str(db), "--tag", "Event=*"], tmp_path)
    assert first == f"{os.path.realpath(many_games)}:1: ? - ? *\n".encode()
    assert (code, err) == (141, b"")
