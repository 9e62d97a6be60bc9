"""The variant of each game of a file, decided with the whole file in view:
the file decides what the moves cannot.

A game whose tags name its variant, or whose evidence leaves one variant
(:func:`draughts.pdn.infer.choose`), keeps it: it is *decided*. A game whose
evidence leaves several (:attr:`draughts.pdn.infer.Choice.alike`) takes, of
those, the one most decided games with its ``Event`` tag chose, else the one
most decided games of its file chose, else the one the evidence ranks first
(a guess: the commoner variant on a tie).

>>> import io
>>> text = ('[Event "A"]\\n1. c3-d4 f6-g5 2. g3-h4 g5xe3 3. d2xf4 *\\n'
...         '[Event "A"]\\n1. c3-d4 f6-g5 *\\n')
>>> [(v.variant, v.decided_by) for v in settle(survey(io.StringIO(text)))]
[('russian', 'evidence'), ('russian', 'file')]

What decides a game (:class:`Seen`) depends on the game alone; how it is
settled (:class:`Decided`, :func:`settle`) on the decided games of its file
in file order, so a file read in pieces, anywhere, settles the same.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from typing import IO, Literal

import attrs

from draughts.board import Board
from draughts.pdn._chunking import Chunk, chunk_starts, chunks, open_chunk
from draughts.pdn.headers import SKIP, BaseVisitor, SkipType, variant_of_tags
from draughts.pdn.infer import CANDIDATES, Choice
from draughts.pdn.offsets import _open_binary
from draughts.pdn.reader import read
from draughts.variant import Variant, find_variant

__all__ = [
    "Decided",
    "DecidedBy",
    "Seen",
    "Verdict",
    "settle",
    "survey",
    "variants_of",
]

DecidedBy = Literal["tag", "caller", "evidence", "file", "guess"]
"""How a game's variant was decided: its ``GameType`` or ``Variant`` tag,
the caller's ``variant=``, its evidence (its FEN tag, squares and moves
leave one variant), its
file's other games, or a guess (see the module's documentation)."""


@attrs.frozen
class Seen:
    """What decides one game's variant: its ``Event`` tag, and the variant
    its tags name or the variants its evidence leaves.

    >>> Seen("Cup", None, ("russian", ("czech",))).open
    True
    """

    event: str | None
    named: str | None
    """The variant its tags name (``""`` for one the library does not know),
    None if they name none."""
    choice: tuple[str, tuple[str, ...]] | None = None
    """For a game whose tags name no variant: the one its evidence chose,
    and the others its moves fit as well (:attr:`~draughts.pdn.infer.Choice.alike`)."""

    @property
    def decided(self) -> str | None:
        """The variant its tags or moves decide, None if they leave several."""
        if self.choice is None:
            return self.named or None
        return None if self.choice[1] else self.choice[0]

    @property
    def open(self) -> bool:
        """Whether its moves leave several variants."""
        return self.choice is not None and bool(self.choice[1])


def seen_of(event: str | None, named: str | None, choice: Choice | None) -> Seen:
    """The :class:`Seen` of a game read (its event name interned: a file
    has few events and many games)."""
    return Seen(*seen_fields(event, named, choice))


SeenFields = tuple[str | None, str | None, tuple[str, tuple[str, ...]] | None]


def seen_fields(event: str | None, named: str | None, choice: Choice | None) -> SeenFields:
    """The fields of :func:`seen_of`'s :class:`Seen`, as a tuple (what goes
    between processes)."""
    if event is not None:
        event = sys.intern(event)
    if choice is None:
        return event, named, None
    # The fast check makes one Choice for each outcome of its replays and
    # gives it to every game with that outcome: its names are made once (a
    # sixth of the time validation spends around the checks of the OCA).
    found = _CHOSEN.get(id(choice))
    if found is None or found[0] is not choice:
        found = choice, (choice.variant.name, tuple(v.name for v in choice.alike))
        if len(_CHOSEN) < 4096:
            _CHOSEN[id(choice)] = found
    return event, None, found[1]


# The names of a Choice's variants, by its identity (the Choice is kept in
# the entry, so its id is not reused while the entry stands).
_CHOSEN: dict[int, tuple[Choice, tuple[str, tuple[str, ...]]]] = {}


def named_by_tags(tags: dict[str, str]) -> str | None:
    """The variant a game's first ``GameType`` and ``Variant`` tags name
    (``""`` for one the library does not know), None if they name none:
    what every reader of a file counts as decided by its tags.

    >>> named_by_tags({"GameType": "21"}), named_by_tags({"GameType": "99"}), named_by_tags({})
    ('english', '', None)
    """
    if not any(value.strip() for value in tags.values()):
        return None
    try:
        return variant_of_tags(tags.get("GameType"), tags.get("Variant"), None).name
    except ValueError:
        return ""


# -- The survey: what decides each game, its moves not checked -----------------------


class _Chosen(Exception):
    """Ends the survey of a game once its variant is chosen."""


class _Surveyor(BaseVisitor[Seen]):
    """Reads a game's tags; for a game whose tags name no variant, stops the
    reader once the inference has chosen one (the reader has read the game's
    movetext ahead: the handle is at the next game)."""

    def begin_game(self) -> None:
        self.event: str | None = None
        self.tags: dict[str, str] = {}
        self.named: str | None = None
        self.choice: Choice | None = None

    def visit_header(self, name: str, value: str) -> None:
        if name == "Event" and self.event is None:
            self.event = value
        elif name in ("GameType", "Variant"):
            self.tags.setdefault(name, value)

    def end_headers(self) -> SkipType | None:
        self.named = named_by_tags(self.tags)
        if self.named is None:
            return None  # the reader infers the variant: see visit_choice
        return SKIP

    def visit_board(self, board: Board) -> None:  # pragma: no cover - skipped or stopped
        pass

    def visit_choice(self, choice: Choice) -> None:
        self.choice = choice
        raise _Chosen

    def result(self) -> Seen:
        return seen_of(self.event, self.named, None)

    def survey(self, handle: IO[str]) -> Seen | None:
        """What decides the next game of ``handle``, None at the end."""
        try:
            found: Seen | None = read(handle, self, None)
        except _Chosen:
            found = seen_of(self.event, None, self.choice)
        return found


def survey(handle: IO[str], count: int | None = None) -> list[Seen]:
    """What decides the variant of each of the next ``count`` games of
    ``handle`` (all if None), without checking their moves.

    >>> import io
    >>> text = '[GameType "21"]\\n1. 11-15 *\\n[Event "E"]\\n1. 32-28 19-23 *\\n'
    >>> [(s.event, s.named, s.choice and s.choice[0]) for s in survey(io.StringIO(text))]
    [(None, 'english', None), ('E', None, 'international')]
    """
    seen: list[Seen] = []
    surveyor = _Surveyor()
    while count is None or len(seen) < count:
        found = surveyor.survey(handle)
        if found is None:
            break
        seen.append(found)
    return seen


def read_piece(path: str, chunk: Chunk) -> bytes:
    """A piece's bytes, read from the file (decompressed)."""
    stream, _ = _open_binary(path)
    with stream:
        if stream.seekable():
            stream.seek(chunk.start.offset)
        else:
            left = chunk.start.offset
            while left > 0:
                skipped = stream.read(min(left, 1 << 20))
                if not skipped:
                    break
                left -= len(skipped)
        size = chunk.end - chunk.start.offset
        parts = []
        while size > 0:
            part = stream.read(size)
            if not part:
                break
            parts.append(part)
            size -= len(part)
    return b"".join(parts)


PIECE_BYTES = 4 << 20
"""The bytes of games of a piece of a file: read at a time by the fast
check, sent to a worker by ``--jobs N``."""


def pieces_of(path: str, chunk: Chunk | None) -> Iterator[tuple[Chunk, bytes]]:
    """A piece of a file and its bytes (None: every piece of the whole file,
    of :data:`PIECE_BYTES`, the bytes of one at a time in memory)."""
    if chunk is not None:
        yield chunk, chunk.data if chunk.data is not None else read_piece(path, chunk)
        return
    stream, encoding = _open_binary(path)
    with stream:
        for piece in chunks(stream, PIECE_BYTES, keep=True, encoding=encoding):
            assert piece.data is not None  # kept
            yield piece, piece.data


def survey_piece(path: str, chunk: Chunk | None) -> list[Seen]:
    """The survey of a piece of a file (None: the whole file), each game
    whose record the fast check reads (:func:`draughts.pdn._fastgame.each_game`)
    without the reader."""
    from draughts.pdn._fastgame import each_game, fast_game  # it imports this module

    seen: list[Seen] = []
    surveyor = _Surveyor()
    for piece, data in pieces_of(path, chunk):
        with open_chunk(piece, data) as handle:
            starts = chunk_starts(piece, data)
            games = each_game(
                handle,
                starts,
                data,
                piece.encoding,
                lambda text, _: fast_game(text, None),
                lambda handle, _: surveyor.survey(handle),
            )
            seen += [
                seen_of(*fast[2:]) if fast is not None else _read(slow) for _, fast, slow in games
            ]
    return seen


def _read(seen: Seen | None) -> Seen:
    assert seen is not None, "each_game ends where the reader finds no game"
    return seen


# -- Settling ---------------------------------------------------------------------


@attrs.frozen
class Verdict:
    """The variant a game is to be read as, and how it was decided
    (``variant`` None: as its tags name it)."""

    variant: str | None
    decided_by: DecidedBy
    reason: str | None = None


_RANK = {variant.name: place for place, variant in enumerate(CANDIDATES)}


class Decided:
    """The decided games of a file, counted by variant, per ``Event`` tag
    and in all: what settles the games their moves leave open.

    >>> decided = Decided()
    >>> decided.add(Seen("A", None, ("czech", ())))
    >>> decided.verdict(Seen("A", None, ("russian", ("czech",))), "read as russian").variant
    'czech'
    """

    def __init__(self) -> None:
        # Plain dicts, not Counters: an archive has thousands of events, and
        # making a Counter for each cost a twentieth of validating the OCA.
        self.by_event: dict[str | None, dict[str, int]] = {}
        self.in_file: dict[str, int] = {}

    def add(self, seen: Seen) -> None:
        """Count a game, if its tags or moves decide its variant."""
        self.add_fields((seen.event, seen.named, seen.choice))

    def add_fields(self, fields: SeenFields) -> None:
        """:meth:`add` for a game's :class:`Seen` given as its fields (as
        validation keeps them: making the object cost a twentieth of the
        time of validating the OCA)."""
        event, named, choice = fields
        decided = (named or None) if choice is None else None if choice[1] else choice[0]
        if decided:
            counts = self.by_event.get(event)
            if counts is None:
                counts = self.by_event[event] = {}
            counts[decided] = counts.get(decided, 0) + 1
            self.in_file[decided] = self.in_file.get(decided, 0) + 1

    def merge(self, other: Decided) -> None:
        """Count the games ``other`` counted (a verdict depends on the
        counts alone, not on the order the games came in)."""
        for event, counts in other.by_event.items():
            _add(self.by_event.setdefault(event, {}), counts)
        _add(self.in_file, other.in_file)

    def verdict(self, seen: Seen, reason: str | None) -> Verdict:
        """The verdict of a game of the file, once every decided game is
        counted (``reason``: why the evidence chose as it did)."""
        if seen.choice is None:
            return Verdict(None, "tag")
        chosen, alike = seen.choice
        if not alike:
            return Verdict(chosen, "evidence", reason)
        fits = (chosen, *alike)
        event = self.by_event.get(seen.event, {})
        alike_games = "with its Event tag" if seen.event is not None else "without an Event tag"
        for counts, where in ((event, alike_games), (self.in_file, "of its file")):
            found = [(name, counts[name]) for name in fits if counts.get(name)]
            if found:
                best, games = min(found, key=lambda item: (-item[1], _RANK.get(item[0], 99)))
                others = ", ".join(name for name in fits if name != best)
                because = (
                    f"read as {best} ({games} other game{'s' if games != 1 else ''} {where} "
                    f"{'were' if games != 1 else 'was'} {best} by their tags or moves; "
                    f"its moves fit {others} too)"
                )
                return Verdict(best, "file", because)
        return Verdict(chosen, "guess", reason)


def _add(counts: dict[str, int], more: dict[str, int]) -> None:
    for name, count in more.items():
        counts[name] = counts.get(name, 0) + count


def settle(seen: Sequence[Seen], variant: str | None = None) -> list[Verdict]:
    """The verdict of each game of a file from its survey (``variant``:
    the caller's, for every game whose tags name none).

    >>> czech = Seen("E", None, ("czech", ()))
    >>> open_ = Seen("E", None, ("russian", ("czech",)))
    >>> [(v.variant, v.decided_by) for v in settle([czech, open_])]
    [('czech', 'evidence'), ('czech', 'file')]
    >>> [(v.variant, v.decided_by) for v in settle([open_])]
    [('russian', 'guess')]
    """
    if variant is not None:
        return [Verdict(None if s.named is not None else variant, "caller") for s in seen]
    decided = Decided()
    for s in seen:
        decided.add(s)
    return [decided.verdict(s, None) for s in seen]


def variants_of(path: str, variant: Variant | str | int | None = None) -> Iterator[str | None]:
    """The variant to read each game of the file ``path`` as, in order,
    decided as :func:`draughts.pdn.validate` decides it (None: as its tags
    name it); what ``draughts convert`` and the index read games with.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "a.pdn")
    >>> _ = open(path, "w").write('[GameType "21"] 1. 11-15 *\\n1. 32-28 19-23 *\\n')
    >>> list(variants_of(path)), list(variants_of(path, "russian"))
    ([None, 'international'], [None, 'russian'])
    """
    name = variant_name(variant)
    for verdict in settle(survey_piece(path, None), name):
        yield verdict.variant


def variant_name(variant: Variant | str | int | None) -> str | None:
    """The name of the variant given (None for None).

    :raises ValueError: for a variant the library does not know.
    """
    if variant is None:
        return None
    return variant.name if isinstance(variant, Variant) else find_variant(variant).name
