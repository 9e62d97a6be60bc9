"""``draughts dxp --pdn PATH``: a path games cannot be written to is a usage
error of one line, found before any game is played or any port opened."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize("role", [["--listen", "0"], ["--connect", "127.0.0.1:9"]])
@pytest.mark.parametrize("where", ["missing/dir/games.pdn", "."])
def test_an_unwritable_record_is_refused_first(tmp_path: Path, role: list[str], where: str) -> None:
    target = tmp_path / where
    done = subprocess.run(
        [sys.executable, "-m", "draughts", "dxp", *role, "--pdn", str(target)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stdout == ""  # no "waits for a DXP program": refused before listening
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"draughts dxp: cannot write the games to --pdn {target}: ")
    assert "Traceback" not in done.stderr
