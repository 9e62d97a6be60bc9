"""The ``variants`` subcommand of the command line: the preset variants,
with the names :func:`draughts.find_variant` accepts and their PDN
``GameType`` numbers."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from draughts.variant import VARIANTS, Variant


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``variants`` subcommand."""
    parser = commands.add_parser(
        "variants",
        help="list the variants, their aliases and PDN GameType numbers",
        description="List every preset variant: the name and aliases that --variant accepts, "
        "the PDN GameType number (with the Variant tag that tells apart presets sharing a "
        "number), the board and the title. A GameType number or a full GameType value "
        '("20,W,10,10,N2,0") is accepted wherever a variant is asked for, too.',
    )
    parser.add_argument("--json", action="store_true", help="print a JSON list")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The ``variants`` subcommand: always 0."""
    write(sys.stdout, as_json=args.json)
    return 0


def write(out: TextIO, *, as_json: bool = False) -> None:
    """Write the table (or JSON list) of the preset variants to ``out``."""
    if as_json:
        rows = [
            {
                "name": v.name,
                "aliases": list(v.aliases),
                "gametype": v.gametype,
                "variant_tag": v.variant_tag,
                "gametype_value": v.gametype_string,
                "board": [v.width, v.height],
                "title": v.title,
            }
            for v in VARIANTS
        ]
        print(json.dumps(rows, indent=2, ensure_ascii=False), file=out)
        return
    table = [("Variant", "GameType", "Board", "Title", "Aliases")]
    table += [
        (v.name, _gametype(v), f"{v.width}x{v.height}", v.title, ", ".join(v.aliases) or "-")
        for v in VARIANTS
    ]
    widths = [max(len(row[i]) for row in table) for i in range(4)]
    for row in table:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        print("  ".join([*cells, row[4]]), file=out)


def _gametype(variant: Variant) -> str:
    """The number, and the Variant tag where presets share the number."""
    if variant.variant_tag is None:
        return str(variant.gametype)
    return f'{variant.gametype}, Variant "{variant.variant_tag}"'
