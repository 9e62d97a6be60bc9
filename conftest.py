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
