"""The ``draughts`` command line.

Subcommands live in small functions registered in :func:`_parser`; each
returns the process exit code.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import draughts
from draughts._cli import dxp as _dxp_cli
from draughts._cli import index as _index_cli
from draughts._cli import match as _match_cli
from draughts._cli import pdn as _pdn_cli
from draughts._cli import perft as _perft
from draughts._cli import play as _play
from draughts._cli import serve as _serve

# What --help says (the module docstring is for developers).
_DESCRIPTION = (
    "The rules of draughts in all their national variants: count moves, play the "
    "built-in engine, check and convert PDN files, index and search them, play in "
    "the browser, run engine matches and DXP games. 'draughts COMMAND --help' "
    "tells more of each command."
)


# Each subcommand's module registers its parser here.
def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="draughts", description=_DESCRIPTION)
    parser.add_argument(
        "--version",
        action="version",
        version=f"draughts {draughts.__version__} ({draughts.BACKEND} core)",
        help="print the version and which move generator runs (native or pure), then exit",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    _perft.add_parser(commands)
    _play.add_parser(commands)
    _pdn_cli.add_parsers(commands)
    _index_cli.add_parsers(commands)
    _serve.add_parser(commands)
    _match_cli.add_parser(commands)
    _dxp_cli.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``)."""
    args = _parser().parse_args(argv)
    code: int = args.run(args)
    return code
