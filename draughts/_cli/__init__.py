"""The ``draughts`` command line (``python -m draughts``)."""

from draughts._cli.main import main

__all__ = ["main"]
