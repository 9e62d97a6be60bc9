"""Work in worker threads for the web application: a bounded number of
slots (more requests are refused with 503, never queued), and a search
whose progress is streamed to the page as Server-Sent Events.

>>> print(event("info", {"depth": 1, "best": "32-28"}), end="")
event: info
data: {"depth": 1, "best": "32-28"}
<BLANKLINE>
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio.to_thread

from draughts.engine.search import StopSignal
from draughts.web.positions import BadRequest

__all__ = ["Slots", "analysis_events", "event"]

Search = Callable[[Callable[[dict[str, Any]], None], StopSignal], dict[str, Any]]
"""A search run in a thread: given a function to report each step's view
to and a signal that stops it, it returns its final view."""


class Slots:
    """At most ``size`` pieces of work at once, for ``who`` (named in the
    503 message). Only the event loop's thread takes and gives back slots,
    so a plain counter is enough.

    >>> slots = Slots(1, "the engine")
    >>> slots.take()
    >>> try:
    ...     slots.take()
    ... except BadRequest as error:
    ...     print(error.status, error)
    503 the engine is busy with 1 other searches: try again in a moment
    """

    def __init__(self, size: int, who: str) -> None:
        self.size = size
        self.who = who
        self.busy = 0

    def take(self) -> None:
        """Take a slot.

        :raises BadRequest: (503) when all are taken.
        """
        if self.busy >= self.size:
            raise BadRequest(
                f"{self.who} is busy with {self.busy} other searches: try again in a moment",
                status=503,
            )
        self.busy += 1

    def give_back(self) -> None:
        """Give a slot back."""
        self.busy -= 1

    async def run(self, work: Callable[[], dict[str, Any] | str]) -> Any:
        """Run ``work`` in a worker thread in a slot and return its answer."""
        self.take()
        try:
            # A thread cannot be stopped: if the client leaves, the slot
            # stays taken until the (time-bounded) work ends.
            return await anyio.to_thread.run_sync(work)
        finally:
            self.give_back()


def event(name: str, data: dict[str, Any]) -> str:
    """One Server-Sent Event (its data JSON on one line).

    >>> event("info", {"depth": 3})
    'event: info\\ndata: {"depth": 3}\\n\\n'
    """
    return f"event: {name}\ndata: {json.dumps(data)}\n\n"


async def analysis_events(slots: Slots, search: Search) -> AsyncIterator[str]:
    """The events of ``search``, run in a thread in one of ``slots``: an
    ``info`` event for each deeper step, then ``done`` with the final view
    (or ``error`` with a message). The slot is taken before the first event
    (so a busy server answers an ``error`` event at once) and given back when
    the thread ends; a client that leaves stops the search.
    """
    try:
        slots.take()
    except BadRequest as error:
        yield event("error", {"error": str(error), "status": error.status})
        return
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
    stop = StopSignal()

    def put(name: str, data: dict[str, Any]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed: the server stopped
            loop.call_soon_threadsafe(queue.put_nowait, (name, data))

    def work() -> None:
        try:
            put("done", search(lambda view: put("info", view), stop))
        except Exception as error:  # said to the page: a thread has no one to raise to
            put("error", {"error": f"the search failed: {error}", "status": 500})
        finally:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(slots.give_back)

    threading.Thread(target=work, name="analysis", daemon=True).start()
    try:
        while True:
            name, data = await queue.get()
            yield event(name, data)
            if name != "info":
                return
    finally:
        stop.set()  # the client left, or the search ended: no harm either way
