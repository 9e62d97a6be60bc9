"""Collection settings for the whole tree (the doctests of ``draughts/``
included; the tests' own fixtures are in ``tests/conftest.py``)."""

from __future__ import annotations

# Without a C compiler the extension is not built, and importing the native
# package raises ModuleNotFoundError by design (draughts._core then runs the
# pure generator): there are no doctests of it to collect.
collect_ignore: list[str] = []
try:
    import draughts._core.native  # noqa: F401
except ModuleNotFoundError:
    collect_ignore.append("draughts/_core/native/__init__.py")
