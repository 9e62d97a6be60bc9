"""Shared test helpers: where the data lives."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data"
SHARED = Path(__file__).resolve().parents[2] / "shared"
SHARED_PDN = SHARED / "data" / "pdn"


def shared_path(relative: str) -> Path:
    """A file under ``../shared/data/pdn``, or skip the test when the shared
    folder is not beside the repository (a user's clone)."""
    path = SHARED_PDN / relative
    if not path.exists():
        pytest.skip(f"{path} is absent: the shared test corpus is only present in CI")
    return path
