"""The hash of a PDN file's bytes, for the index (:mod:`draughts.pdn.index`):
whether a file that was touched changed.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "a.pdn")
>>> _ = open(path, "wb").write(b"1. 32-28 *")
>>> file_sha256(path)[:16]
'100fd6229b432b3b'
"""

from __future__ import annotations

import hashlib


def file_sha256(path: str) -> str:
    """The SHA-256 of a file's bytes, in hex (as :attr:`Source.sha256` ends)."""
    digest = hashlib.sha256()
    with open(path, "rb") as raw:
        for block in iter(lambda: raw.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
