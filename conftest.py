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


# The browser tests' modules. Under xdist they all run in one worker, which
# starts one headless Chromium and one Playwright driver (about 400 MB
# together) instead of one pair a worker. pytest 9 ignores the nodeid suffix
# by which xdist 3.8's own ``--dist loadgroup`` groups tests, hence a scheduler
# of our own. tests/web/test_browser_grouping.py keeps this list complete.
BROWSER_MODULES = (
    "tests/web/test_browser.py",
    "tests/web/test_page.py",
    "tests/web/test_tools_page.py",
)
# Modules whose module-scoped fixture is costly, kept on one worker so that it
# is built once: test_egtb.py's English 3-piece bitbases take 3.4 s to build,
# test_import_graph.py's reading of the package's imports 0.6 s.
ONE_WORKER_MODULES = ("tests/engine/test_egtb.py", "tests/core/test_import_graph.py")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """Under ``-n N`` (xdist's default ``--dist load``), schedule every test
    on its own except the browser tests, which go to one worker together,
    and each module of ``ONE_WORKER_MODULES``, whose tests go to one worker;
    an explicit other ``--dist`` mode is left to xdist."""
    if config.getoption("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class BrowserTestsTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            if nodeid.startswith(BROWSER_MODULES):
                return "browser"
            module = nodeid.partition("::")[0]
            return module if module in ONE_WORKER_MODULES else nodeid

    return BrowserTestsTogether(config, log)
