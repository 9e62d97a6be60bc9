"""``python -m draughts egtb build``: endgame bitbases (see
:mod:`draughts.engine.egtb`)."""

from __future__ import annotations

import argparse
import sys
import time

from draughts._cli.arguments import integer


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``egtb`` subcommand and its ``build`` action."""
    parser = commands.add_parser("egtb", help="build endgame bitbases (win/loss/draw)")
    actions = parser.add_subparsers(dest="action", required=True, help="what to do (build)")
    build = actions.add_parser(
        "build",
        help="solve every position with few pieces by retrograde analysis",
        description=(
            "Solve every position of the variant with 2 up to --pieces pieces (win, loss "
            "or draw for the side to move) and write one file per piece count into the "
            "directory, for the built-in engine (egtb=DIR) and draughts.engine.probe "
            "(DRAUGHTS_EGTB=DIR)."
        ),
    )
    build.add_argument(
        "--variant", default="international", help="variant name (default international)"
    )
    build.add_argument(
        "--pieces",
        type=integer(2),
        default=3,
        help="the most pieces, 2 to 4 (default 3; 4 take minutes)",
    )
    build.add_argument("--out", required=True, help="the directory to write the files into")
    build.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``egtb build``: 0 once the files are written, 2 for a variant or
    piece count the bitbases do not cover, 1 if the files cannot be
    written."""
    import draughts
    from draughts.engine.egtb import Bitbases, Material

    start = time.monotonic()

    def progress(material: Material, positions: int) -> None:
        wm, wk, bm, bk = material
        print(
            f"white {wm} men {wk} kings, black {bm} men {bk} kings: {positions:,d} positions "
            f"({time.monotonic() - start:.1f} s)",
            flush=True,
        )

    try:
        variant = draughts.find_variant(args.variant)
        if args.pieces > 4:
            raise ValueError(f"--pieces must be from 2 to 4, not {args.pieces}")
        bases = Bitbases.build(variant, args.pieces, progress=progress)
    except ValueError as error:
        print(f"draughts egtb: {error}", file=sys.stderr)
        return 2
    try:
        paths = bases.save(args.out)
    except OSError as error:
        print(f"draughts egtb: {error}", file=sys.stderr)
        return 1
    for path in paths:
        print(f"{path}: {path.stat().st_size:,d} bytes")
    return 0
