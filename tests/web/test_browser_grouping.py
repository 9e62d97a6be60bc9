"""The root conftest's list of browser test modules (the tests an xdist run
keeps on one worker, so that it starts one Chromium) names exactly the
modules marked ``browser``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_browser_modules_are_the_ones_marked_browser(pytestconfig: pytest.Config) -> None:
    marked = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "tests").rglob("test_*.py")
        if re.search(r"^pytestmark = .*pytest\.mark\.browser", path.read_text(), re.MULTILINE)
    }
    assert marked  # the scan found the browser tests
    # The root conftest.py as pytest loaded it (the tests' conftests share its name).
    root_conftest = next(
        plugin
        for plugin in pytestconfig.pluginmanager.get_plugins()
        if getattr(plugin, "__file__", None) == str(ROOT / "conftest.py")
    )
    assert set(root_conftest.BROWSER_MODULES) == marked
