"""Argument types shared by the subcommands: numbers out of range are usage
errors (exit 2, with the option named by argparse), found before any work
starts."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def integer(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum``.

    >>> integer(1)("3")
    3
    >>> integer(1)("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be 1 or more, not 0
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {minimum} or more, not {value}")
        return value

    parse.__name__ = "whole number"  # argparse names the type so in its message
    return parse


def port(text: str) -> int:
    """An argparse type: a TCP port number, 0 to 65535 (0: any free port).

    >>> port("27531")
    27531
    """
    value = integer(0)(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"must be a port number, 0 to 65535, not {value}")
    return value


def positive(text: str) -> float:
    """An argparse type: a finite number above 0 (seconds, men).

    >>> positive("0.5")
    0.5
    >>> positive("nan")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a number above 0, not 'nan'
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a number above 0, not {text!r}")
    return value
