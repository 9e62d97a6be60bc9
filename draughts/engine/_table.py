"""The transposition table of the pure search (:mod:`draughts.engine.search`).

A fixed-size list of buckets of two entries, the first for the deeper
search, the second for the latest, where each new position takes the place
of an old one by the rule of :meth:`Table.store`. The C search
(``draughts/engine/_native/search.c``, ``tt_get`` and ``tt_put``) keeps the
same entries in the same places: the two searches visit the same nodes.
"""

from __future__ import annotations

from draughts._core import RawMove

Entry = tuple[int, int, int, int, RawMove | None, int]
"""A table entry: key, depth, score, bound, best move and the
:attr:`Table.generation` it was stored in."""


def table_size(entries: int) -> int:
    """``entries`` rounded down to a power of two, at least 2 (the
    table's size in entries: two a bucket).

    >>> table_size(1000), table_size(1)
    (512, 2)
    """
    if not 1 <= entries <= 10**8:
        raise ValueError(f"table_entries must be from 1 to 10**8, not {entries!r}")
    return max(2, 1 << (entries.bit_length() - 1))


class Table:
    """A transposition table of :func:`table_size` ``entries``."""

    def __init__(self, entries: int) -> None:
        self.entries: list[Entry | None] = [None] * table_size(entries)
        self.mask = len(self.entries) // 2 - 1
        self.generation = 0
        """Counts the searches begun (modulo 256, as the C table's byte):
        an entry of an older search gives its place up first."""

    def clear(self) -> None:
        """Forget every entry."""
        self.entries = [None] * len(self.entries)

    def count(self) -> int:
        """How many entries are in use."""
        return sum(entry is not None for entry in self.entries)

    def probe(self, key: int) -> Entry | None:
        """The entry for ``key``, if the table holds one."""
        at = ((key ^ key >> 29) & self.mask) << 1
        entry = self.entries[at]
        if entry is not None and entry[0] == key:
            return entry
        entry = self.entries[at + 1]
        return entry if entry is not None and entry[0] == key else None

    def store(
        self, key: int, depth: int, score: int, bound: int, move: RawMove | None, failed_low: bool
    ) -> None:
        """Put an entry in its key's bucket: in the first place unless that
        holds another position searched deeper in this generation (a deep
        entry saves more), which then stays and the new one takes the
        second place; an entry pushed out of the first place takes the
        second. So a position is never in both, and the entries of older
        searches give way whatever their depth. A search that ``failed_low``
        (every move refuted) keeps the move the entry it replaces had: its
        own best is only the least refuted, a worse first move to try."""
        entries = self.entries
        at = ((key ^ key >> 29) & self.mask) << 1
        first = entries[at]
        if failed_low:
            old = first if first is not None and first[0] == key else entries[at + 1]
            if old is not None and old[0] == key:
                move = old[4]
        entry = (key, depth, score, bound, move, self.generation)
        if first is None or first[0] == key:
            entries[at] = entry
        elif first[5] == self.generation and first[1] > depth:
            entries[at + 1] = entry
        else:
            entries[at + 1] = first
            entries[at] = entry
