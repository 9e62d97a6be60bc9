"""``draughts --help`` and a usage error list the commands without
importing any command's module (the engine, PDN and index packages took
about three quarters of the start-up); the list they print is the one the
commands' own parsers give."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from draughts._cli.main import _MODULES, _SUMMARIES, _parser

PROBE = """
import json, sys
from draughts._cli.main import main
try:
    main(sys.argv[1:])
except SystemExit as stop:
    code = stop.code
print(json.dumps([code, sorted(sys.modules)]))
"""


@pytest.mark.parametrize("argv", [["--help"], ["nosuch"], []])
def test_no_command_module_is_imported_without_a_command(argv: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=60
    )
    code, modules = json.loads(done.stdout.splitlines()[-1])
    assert code == (0 if argv == ["--help"] else 2)
    heavy = [
        name
        for name in modules
        if name.startswith(("draughts.engine", "draughts.pdn", "draughts.web", "sqlite3"))
        or (name.startswith("draughts._cli.") and name != "draughts._cli.main")
    ]
    assert heavy == []


def test_the_summaries_are_the_commands_own_help_lines() -> None:
    assert set(_SUMMARIES) == set(_MODULES)
    assert _parser(summaries=True).format_help() == _parser().format_help()


def test_a_command_still_gets_its_full_parser() -> None:
    args = _parser(["perft", "--depth", "2"], summaries=True).parse_args(["perft", "--depth", "2"])
    assert args.command == "perft" and args.depth == 2
