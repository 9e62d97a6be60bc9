"""The built-in engine's ``--book`` and ``--egtb`` options, shared by the
commands that run it (``play``, ``dxp``, ``hub``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from draughts.engine.book import Book, book_option
from draughts.engine.egtb import egtb_option


def add_engine_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--book`` and ``--egtb`` to ``parser``."""
    parser.add_argument(
        "--book",
        default="none",
        help="opening book: none (default), default (the library's) or a book file",
    )
    parser.add_argument(
        "--egtb",
        default="none",
        metavar="DIR",
        help="directory of endgame bitbase files (draughts egtb build), or none (default)",
    )


def engine_options(args: argparse.Namespace, variant: str) -> tuple[Book | None, Path | None]:
    """The book and bitbase directory ``args`` name, read now (the
    bitbases of ``variant``).

    >>> engine_options(argparse.Namespace(book="none", egtb="none"), "english")
    (None, None)

    :raises ValueError: for a book or a bitbase file that is not one, an
        unknown variant.
    :raises OSError: for a book file that cannot be read.
    """
    return book_option(args.book), egtb_option(args.egtb, variant)
