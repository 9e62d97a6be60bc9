"""Where :func:`draughts.pdn.validate` keeps a file's reports until the
file has settled the variants their moves leave open."""

from __future__ import annotations

import pickle
import tempfile
from collections.abc import Iterator
from typing import IO, Generic, TypeVar

__all__ = ["SPOOL_BATCH", "Spool"]

T = TypeVar("T")


class Spool(Generic[T]):
    """A file's games read once (:data:`draughts.pdn.validation.Flat`),
    kept in file order until the file is settled: in memory up to
    :data:`SPOOL_BATCH` games, the batches before the last in a temporary
    file (memory does not grow with the file)."""

    def __init__(self) -> None:
        self.items: list[T] = []
        self.file: IO[bytes] | None = None
        self.batches = 0
        self.count = 0

    def add(self, item: T) -> None:
        self.items.append(item)
        self.count += 1
        if len(self.items) >= SPOOL_BATCH:
            if self.file is None:
                # Closed by close(), from the caller's finally (it outlives this call).
                self.file = tempfile.TemporaryFile()  # noqa: SIM115
            # A batch a pickle: one pickle a game cost as much as checking it.
            pickle.dump(self.items, self.file, pickle.HIGHEST_PROTOCOL)
            self.batches += 1
            self.items = []

    def __iter__(self) -> Iterator[T]:
        if self.file is not None:
            self.file.seek(0)
            for _ in range(self.batches):
                batch: list[T] = pickle.load(self.file)
                yield from batch
        yield from self.items
        self.close()

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
        self.items = []


SPOOL_BATCH = 10_000
