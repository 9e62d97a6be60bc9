"""The ``draughts`` command line.

Each subcommand lives in a module of :mod:`draughts._cli` that registers
its parser (see :data:`_MODULES`); its function returns the process exit
code.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Sequence

import draughts

# What --help says (the module docstring is for developers).
_DESCRIPTION = (
    "The rules of draughts in all their national variants: count moves, play the "
    "built-in engine, check and convert PDN files, index and search them, play in "
    "the browser, run engine matches and DXP games, serve the engine over Hub. "
    "'draughts COMMAND --help' tells more of each command."
)

# Each command's module (in draughts._cli) and the function that registers
# its parsers, in the order --help lists them. Only the module of the command
# given is imported: the engine's modules (DXP, Hub, matches) and the index's
# took a quarter of the start-up of every other command.
_MODULES = {
    "perft": ("perft", "add_parser"),
    "play": ("play", "add_parser"),
    "validate": ("pdn", "add_parsers"),
    "convert": ("pdn", "add_parsers"),
    "index": ("index", "add_parsers"),
    "search": ("index", "add_parsers"),
    "serve": ("serve", "add_parser"),
    "match": ("match", "add_parser"),
    "dxp": ("dxp", "add_parser"),
    "hub": ("hub", "add_parser"),
    "book": ("book", "add_parser"),
    "egtb": ("egtb", "add_parser"),
    "variants": ("variants", "add_parser"),
}


# Each command's help line, for the list that ``draughts --help`` and a usage
# error print without importing a single command's module: importing them all
# took about three quarters of the start-up (the engine, PDN and index
# packages: 0.27 s instead of 0.08 s; measured with python -X importtime).
# A test holds these lines equal to the ones the modules register.
_SUMMARIES = {
    "perft": "count move sequences to a depth",
    "play": "play against the built-in engine",
    "validate": "read PDN files and check every move",
    "convert": "rewrite a PDN file as clean PDN 3.0",
    "index": "index PDN files in a SQLite database",
    "search": "find games in a database made by index",
    "serve": "play in the web browser (needs the web extra)",
    "match": "play a match between two engines",
    "dxp": "play the built-in engine against a DXP program (international)",
    "hub": "run the built-in engine as a Hub engine (Scan's protocol) on stdin/stdout",
    "book": "build an opening book from PDN games",
    "egtb": "build endgame bitbases (win/loss/draw)",
    "variants": "list the variants, their aliases and PDN GameType numbers",
}


def _parser(argv: Sequence[str] = (), *, summaries: bool = False) -> argparse.ArgumentParser:
    """The parser, with the parsers of the command ``argv`` names; when it
    names none it knows (--help, a usage error), those of every command, or
    with ``summaries`` only their names and help lines."""
    parser = argparse.ArgumentParser(prog="draughts", description=_DESCRIPTION)
    parser.add_argument(
        "--version",
        action="version",
        version=f"draughts {draughts.__version__} ({draughts.BACKEND} core)",
        help="print the version and which move generator runs (native or pure), then exit",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    command = next((word for word in argv if not word.startswith("-")), None)
    if command not in _MODULES and summaries:
        for name, line in _SUMMARIES.items():
            commands.add_parser(name, help=line)
        return parser
    wanted = [_MODULES[command]] if command in _MODULES else list(_MODULES.values())
    for module, register in dict.fromkeys(wanted):  # each module once, in order
        getattr(importlib.import_module(f"draughts._cli.{module}"), register)(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``)."""
    words = sys.argv[1:] if argv is None else list(argv)
    args = _parser(words, summaries=True).parse_args(words)
    try:
        code: int = args.run(args)
        sys.stdout.flush()  # here, not at exit, where a closed pipe could not be caught
    except BrokenPipeError:
        # The reader went away (`draughts perft | head -1`): end quietly, as
        # a tool killed by SIGPIPE does, with its status 128 + 13. Standard
        # output is pointed at /dev/null so that Python's own flush at exit
        # does not fail again (the recipe of the signal module's docs).
        with contextlib.suppress(OSError, ValueError):  # ValueError: no file number
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return _BROKEN_PIPE
    except KeyboardInterrupt:
        return _INTERRUPTED
    except TypeError as error:
        # A file that is not text, whatever the command reads it for. The PDN
        # package is imported here only: not every command loads it.
        from draughts.pdn import NotTextError

        if not isinstance(error, NotTextError):
            raise
        print(f"draughts {args.command}: {error}", file=sys.stderr)
        return 2
    return code


_BROKEN_PIPE = 141
_INTERRUPTED = 130  # 128 + SIGINT, what a shell shows for a tool stopped by Ctrl+C
