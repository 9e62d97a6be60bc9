"""The worker processes of :func:`draughts.pdn.validate` (``jobs``): how
they start, and the sizes of the pieces of a file they are sent."""

from __future__ import annotations

import collections
import contextlib
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import concurrent.futures
    from multiprocessing.context import BaseContext

__all__ = ["LEAST_PIECE", "Pool", "piece_sizes"]

Call = tuple[Callable[..., Any], tuple[Any, ...]]
"""A task: a function and its arguments (they pickle)."""


LEAST_PIECE = 256 << 10
"""The bytes of the smallest piece :func:`piece_sizes` cuts."""


def piece_sizes(size: int, total: int, jobs: int) -> Callable[[int], int]:
    """The size of the piece of a file of ``total`` bytes that starts at an
    offset, for ``jobs`` workers: ``size``, smaller towards the end (a
    share of what is left, down to :data:`LEAST_PIECE`), so that the
    workers finish together rather than one reading the last big piece
    alone.

    >>> sized = piece_sizes(4 << 20, 100 << 20, 2)
    >>> sized(0) == 4 << 20, sized(96 << 20) == 1 << 20, sized(100 << 20) == LEAST_PIECE
    (True, True, True)
    """
    least = min(size, LEAST_PIECE)
    return lambda offset: max(least, min(size, (total - offset) // (2 * jobs)))


class Pool:
    """Runs tasks (see ``validation.Runner``) on a process pool, a few ahead of the results
    taken (two per process)."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.pool: concurrent.futures.ProcessPoolExecutor | None = None

    def __call__(self, calls: Iterable[Call]) -> Iterator[Any]:
        if self.pool is None:
            # Imported here: it and the logging it imports were 5 of the 63 ms
            # of importing draughts.pdn (-X importtime), which one job does
            # without.
            import concurrent.futures

            self.pool = concurrent.futures.ProcessPoolExecutor(
                self.jobs, _start_method(), initializer=_keep_heap
            )
        pool = self.pool
        running: collections.deque[concurrent.futures.Future[Any]] = collections.deque()
        for function, args in calls:
            running.append(pool.submit(function, *args))
            while len(running) > 2 * self.jobs:
                yield running.popleft().result()
        while running:
            yield running.popleft().result()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)


def _start_method() -> BaseContext:
    """How the workers start: forked where this process runs one thread
    (a worker then starts with the library loaded and its tables built,
    where a fresh interpreter spends a sixth of a second importing it);
    else from a fork server (forking a process that runs other threads may
    deadlock, and Python 3.12 warns of it) or a fresh interpreter."""
    import multiprocessing  # (here: it is a twentieth of importing draughts.pdn)
    import threading

    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


_TOP_PAD = 32 << 20
"""The bytes glibc's malloc keeps at the top of a worker's heap (M_TOP_PAD)."""


def _keep_heap() -> None:
    """Where the C library is glibc, make a worker's heap keep what it
    grows by (``mallopt(M_TOP_PAD)``) instead of giving it back to the
    system after every piece and faulting the pages in again for the next:
    the workers of ``--jobs 2`` on a 100 MB file spent 0.18 CPU-s in the
    kernel, 0.04 so, for the same peak memory (34 MB a worker)."""
    import os

    try:
        glibc = os.confstr("CS_GNU_LIBC_VERSION")
    except (ValueError, OSError, AttributeError):  # not a name, not glibc, not POSIX
        return
    if not glibc or not glibc.startswith("glibc"):
        return
    import ctypes

    m_top_pad = -2  # from glibc's malloc.h
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).mallopt(m_top_pad, _TOP_PAD)
