"""The core's tests run on both backends: each test in this folder runs once
with the native generator (skipped where it is not built, or under
``DRAUGHTS_PURE=1``) and once with the pure one, patched into
:mod:`draughts._core` in place of the native functions. A module that
compares the two itself sets ``BOTH_BACKENDS = False`` and runs once.

The tables a context holds are the native backend's, which are the pure
generator's tables with more beside them, so the pure functions run on them
unchanged.
"""

from __future__ import annotations

import pytest

from draughts import _core
from draughts._core import pure


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames and getattr(metafunc.module, "BOTH_BACKENDS", True):
        metafunc.parametrize("backend", ["native", "pure"], indirect=True)


@pytest.fixture(autouse=True)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The backend this run of the test uses (the installed one where the
    module compares both itself)."""
    wanted = getattr(request, "param", _core.BACKEND)
    if wanted == "native" and _core.BACKEND != "native":
        pytest.skip("the native core is not built here (or DRAUGHTS_PURE=1)")
    if wanted == "pure":
        for name, function in pure.FUNCTIONS.items():
            monkeypatch.setattr(_core, name, function)
    return str(wanted)
