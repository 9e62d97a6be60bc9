"""Collection settings for the whole tree (the doctests of ``draughts/``
included; the tests' own fixtures are in ``tests/conftest.py``)."""

from __future__ import annotations

import pytest

# Without a C compiler the extension is not built, and importing the native
# package raises ModuleNotFoundError by design (draughts._core then runs the
# pure generator): there are no doctests of it to collect.
collect_ignore: list[str] = []
try:
    import draughts._core.native  # noqa: F401
except ModuleNotFoundError:
    collect_ignore.append("draughts/_core/native/__init__.py")

# draughts.ml needs the ml extra (NumPy; Gymnasium and PettingZoo for its
# adapters): without it, its doctests and its page's examples are not collected
# (tests/ml skips with the reason).
_ML_NEEDS = {
    "draughts/ml": "numpy",
    "docs/ml.rst": "numpy",
    "draughts/ml/gym.py": "gymnasium",
    "draughts/ml/pettingzoo.py": "pettingzoo",
}
for _path, _module in _ML_NEEDS.items():
    try:
        __import__(_module)
    except ModuleNotFoundError:
        collect_ignore.append(_path)


@pytest.fixture(autouse=True)
def _board_names(doctest_namespace: dict[str, object]) -> None:
    """The doctests of the parts of ``Board`` (``draughts/_board_*.py``) see
    the names of ``draughts.board``, as the docs show them as ``Board``'s:
    those modules cannot import ``Board``, which is made of them."""
    import draughts
    from draughts.move import Move
    from draughts.piece import BLACK, KING, MAN, WHITE, Piece

    doctest_namespace.update(
        Board=draughts.Board, Move=Move, Piece=Piece, WHITE=WHITE, BLACK=BLACK, MAN=MAN, KING=KING
    )
