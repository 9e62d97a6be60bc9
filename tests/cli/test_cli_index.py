"""The command line: ``index`` and ``search``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from draughts._cli import main

ROOT = Path(__file__).resolve().parents[2]

GAMES = (
    '[White "Tinsley, M."]\n[Black "Oldbury, D."]\n[Event "one"]\n'
    "1. 11-15 23-19 2. 8-11 22-17 1-0\n\n"
    '[White "Long, A."]\n[Black "Tinsley, M."]\n[Event "two"]\n'
    "1. 11-15 22-17 2. 8-11 23-19 0-1\n\n"
    '[White "Hellman, W."]\n[Black "Ryan, F."]\n[Event "three"]\n'
    "1. 9-14 22-17 *\n"
)
AFTER_FOUR = "B:W17,19,21,24-32:B1-7,9-12,15"  # reached by games 1 and 2


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    pdn_path = tmp_path / "games.pdn"
    pdn_path.write_text(GAMES)
    return str(pdn_path), str(tmp_path / "games.sqlite")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_index_then_search_by_position(
    capsys: pytest.CaptureFixture[str], files: tuple[str, str]
) -> None:
    pdn_path, db = files
    code, out, _ = run(capsys, "index", pdn_path, "--db", db, "--positions", "--variant", "english")
    real = os.path.realpath(pdn_path)
    assert code == 0
    assert out.startswith(f"{real}: added, 3 games, 13 positions in ")
    code, out, _ = run(capsys, "index", pdn_path, "--db", db, "--positions", "--variant", "english")
    assert (code, out) == (0, f"{real}: unchanged, 3 games\n")
    code, out, _ = run(capsys, "search", "--db", db, "--fen", AFTER_FOUR)
    assert code == 0
    assert out.splitlines() == [
        f"{real}:1: Tinsley, M. - Oldbury, D. 1-0 (ply 4)",
        f"{real}:2: Long, A. - Tinsley, M. 0-1 (ply 4)",
        "2 games",
    ]


def test_search_by_moves_tags_players_with_limits_and_json(
    capsys: pytest.CaptureFixture[str], files: tuple[str, str]
) -> None:
    pdn_path, db = files
    assert run(capsys, "index", pdn_path, "--db", db, "--variant", "english")[0] == 0
    code, out, _ = run(capsys, "search", "--db", db, "--moves", "1. 11-15 23-19")
    assert code == 0 and out.splitlines()[-1] == "1 game"
    assert out.splitlines()[0].endswith(":1: Tinsley, M. - Oldbury, D. 1-0 (ply 2)")
    code, out, _ = run(capsys, "search", "--db", db, "--player", "tinsley", "--limit", "1")
    assert code == 0 and out.splitlines()[-1] == "1 of 2 games"
    code, out, _ = run(capsys, "search", "--db", db, "--tag", "Event=t*", "--json")
    hits = json.loads(out)
    assert [(hit["number"], hit["event"], hit["ply"]) for hit in hits] == [
        (2, "two", None),
        (3, "three", None),
    ]
    assert set(hits[0]) >= {"file", "number", "offset", "white", "black", "result", "plies"}
    # The criteria add up.
    code, out, _ = run(
        capsys, "search", "--db", db, "--moves", "11-15", "--tag", "Event=two", "--json"
    )
    assert [hit["number"] for hit in json.loads(out)] == [2]
    # Nothing found: exit 1, like grep.
    code, out, _ = run(capsys, "search", "--db", db, "--moves", "10-14")
    assert (code, out) == (1, "0 games\n")
    code, out, _ = run(capsys, "search", "--db", db, "--moves", "10-14", "--json")
    assert (code, json.loads(out)) == (1, [])


def test_search_errors(capsys: pytest.CaptureFixture[str], files: tuple[str, str]) -> None:
    pdn_path, db = files
    assert run(capsys, "index", pdn_path, "--db", db, "--variant", "english")[0] == 0
    code, _, err = run(capsys, "search", "--db", db, "--fen", AFTER_FOUR)
    assert code == 2 and "has no positions: index with --positions" in err
    code, _, err = run(capsys, "search", "--db", db, "--tag", "Event")
    assert code == 2 and "--tag wants NAME=VALUE" in err
    code, _, err = run(capsys, "search", "--db", db, "--moves", "11-17")
    assert code == 2 and "illegal move '11-17'" in err
    code, _, err = run(capsys, "index", pdn_path + ".missing", "--db", db)
    assert code == 2 and "No such file" in err
    code, _, err = run(capsys, "search", "--db", db + ".missing", "--moves", "11-15")
    assert code == 2 and "no database" in err and not os.path.exists(db + ".missing")


def test_index_errors_name_the_path_given(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    files: tuple[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, db = files
    (tmp_path / "program").write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(200))
    (tmp_path / "link.pdn").symlink_to(tmp_path / "program")
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder.pdn").symlink_to(tmp_path / "folder")
    monkeypatch.chdir(tmp_path / "folder")
    for given in ("../link.pdn", "../folder/../program"):
        code, _, err = run(capsys, "index", given, "--db", db)
        assert (code, err) == (
            2,
            f"draughts index: {given}: not a PDN file: binary data (a NUL byte at byte 7)\n",
        )
    code, _, err = run(capsys, "index", "../folder.pdn", "--db", db)
    assert code == 2 and err.endswith("Is a directory: '../folder.pdn'\n")
    code, _, err = run(capsys, "index", "../missing.pdn", "--db", db)
    assert code == 2 and err.endswith("No such file or directory: '../missing.pdn'\n")


def test_index_json(capsys: pytest.CaptureFixture[str], files: tuple[str, str]) -> None:
    pdn_path, db = files
    code, out, _ = run(capsys, "index", pdn_path, "--db", db, "--json")
    (report,) = json.loads(out)
    assert code == 0
    # No --variant: the variant of each game (no tags) is inferred, English.
    assert (report["status"], report["games"], report["games_with_errors"]) == ("added", 3, 0)


def test_end_to_end_in_a_new_process(files: tuple[str, str]) -> None:
    pdn_path, db = files
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "draughts"]
    done = subprocess.run(
        [*command, "index", pdn_path, "--db", db, "--positions", "--variant", "english"],
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    assert "added, 3 games" in done.stdout
    done = subprocess.run(
        [*command, "search", "--db", db, "--fen", AFTER_FOUR, "--json"],
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    assert [hit["white"] for hit in json.loads(done.stdout)] == ["Tinsley, M.", "Long, A."]
