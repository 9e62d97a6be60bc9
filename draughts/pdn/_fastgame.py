"""A whole game record (its tags, its movetext, its result) checked from its
text without the reader, for validation: the tags read in one call into
C (:mod:`draughts.pdn._native`), the variant decided as the reader decides
it, the moves checked in one call into C (:mod:`draughts.pdn._fastcheck`).

:func:`fast_game` answers only for a record the reader would read with no
error and no warning; everywhere else (a tag it does not read plainly, a FEN
tag, a movetext outside the native loop's subset, any error or warning, the
pure core) it answers None and the caller reads the game with the reader,
which stays the oracle (``tests/pdn/test_pdn_fastgame.py`` holds every
corpus game to it).

>>> record = '[Event "Club"]\\n[GameType "21"]\\n1. 11-15 24-20 2. 8-11 28-24 0-1\\n'
>>> fast = fast_game(record, None)  # None on the pure core
>>> fast is None or fast[:4] == ("english", 4, "Club", "english")
True

Inference replays each candidate variant once, and the replay of the one
chosen is the check of the game: the game is not read again.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, TypeVar

from draughts._fen import FenCodec, format_fen
from draughts.pdn import _native
from draughts.pdn._fastcheck import Setup, setup_of
from draughts.pdn.headers import tag_is_unknown, variant_of_tags
from draughts.pdn.infer import CANDIDATES, Choice, Evidence, choose
from draughts.pdn.offsets import GameStart, _fast_encoding, seek_game
from draughts.pdn.record import GameRecord
from draughts.pdn.resolver import may_start, preset_numbering, start_board
from draughts.pdn.settling import named_by_tags
from draughts.variant import Variant

__all__ = ["FastGame", "FastRecord", "each_game", "fast_game", "fast_record", "game_record"]

FastGame = tuple[str, int, "str | None", "str | None", "Choice | None"]
"""What :func:`fast_game` found: the variant's name, the moves played, the
first ``Event`` tag, the variant the tags name (see
:func:`~draughts.pdn.settling.named_by_tags`) and the inference's choice."""

_SPECIAL = ("GameType", "Variant", "FEN")
_OK, _ERROR = 0, 1


# The variant each (GameType, Variant, caller's variant) reads as, None
# where the reader would warn or renumber; a file repeats a handful.
_TAGGED: dict[tuple[str | None, str | None, str | None], Variant | None] = {}
_NAMED: dict[tuple[str | None, str | None], str | None] = {}
# The candidates a first move may start, by the move as written and the
# squares used (the highest number, the files and the highest rank of the
# algebraic names), with how each writes a line: infer_each's entry;
# the choice of each outcome of their replays.
Writing = tuple[tuple[str, ...], str]
Starters = tuple[tuple[Setup, ...] | None, tuple[int, ...], tuple[Writing, ...]]
Squares = tuple[int, int, int]
"""The squares a movetext uses: :class:`~draughts.pdn.infer.Evidence`'s
``numbers``, ``files`` and ``ranks``."""
_STARTERS: dict[tuple[str, int, int, int], Starters] = {}
_CHOICES: dict[tuple[Squares, tuple[int, ...], tuple[int, ...]], Choice] = {}


def _tagged(gametype: str | None, variant_tag: str | None, default: str | None) -> Variant | None:
    key = (gametype, variant_tag, default)
    if key in _TAGGED:
        return _TAGGED[key]
    try:
        variant: Variant | None = variant_of_tags(gametype, variant_tag, default)
    except ValueError:
        variant = None  # the reader's error
    if variant is not None and (
        (gametype is not None and variant_tag is not None and tag_is_unknown(variant, variant_tag))
        or preset_numbering(variant, gametype) is not None
    ):
        variant = None  # the reader's warning, or another numbering
    if len(_TAGGED) < 256:
        _TAGGED[key] = variant
    return variant


def _named(gametype: str | None, variant_tag: str | None) -> str | None:
    key = (gametype, variant_tag)
    named = _NAMED.get(key, "?")
    if named == "?":
        tags = {
            name: value for name, value in zip(_SPECIAL, key, strict=False) if value is not None
        }
        named = _NAMED[key] = named_by_tags(tags)
    return named


# What a record whose tags read as (GameType, Variant) decides, with the
# caller's variant: its variant, the setups check_each takes for it and the
# variant its tags name (_named); no variant where its moves decide (no tag
# names one, none given); None where the reader reads it. A file repeats a
# handful.
_PlainEntry = tuple["Variant | None", tuple[Setup, ...], "str | None"]
_PLAIN: dict[tuple[str | None, str | None, str | None], _PlainEntry | None] = {}
# Compared by identity, so built at run time: as a literal the compiler made
# it the very tuple _plain answers for records whose moves decide, and those
# were looked up afresh every time.
_UNSEEN: _PlainEntry = (None, tuple(), None)


def _plain(
    gametype: str | None, variant_tag: str | None, default: str | None
) -> _PlainEntry | None:
    """:data:`_PLAIN`'s entry for those tags and ``default``, kept."""
    entry: _PlainEntry | None = (None, (), None)
    tagged = bool((gametype or "").strip() or (variant_tag or "").strip())
    if tagged or default is not None:
        named = _named(gametype, variant_tag) if tagged else None
        variant = _tagged(gametype, variant_tag, default)
        setup = None if variant is None else setup_of(variant, None)
        entry = None if variant is None or setup is None else (variant, (setup,), named)
    if len(_PLAIN) < 256:
        _PLAIN[(gametype, variant_tag, default)] = entry
    return entry


def _head(text: str, default: str | None) -> tuple[int, str | None, _PlainEntry] | None:
    """Where the record's movetext starts, its Event and what its tags decide
    (:data:`_PLAIN`'s entry); None where the reader reads it."""
    record_tags = _native.record_tags
    if record_tags is None:
        return None
    # The tags, each alone on its line with a plain value, as the reader
    # reads them (a regular expression took a quarter of the time here).
    tags = record_tags(text)
    if tags is None:
        return None  # a FEN tag, or a variant's tag twice: the reader's
    start, event, gametype, variant_tag = tags
    plain = _PLAIN.get((gametype, variant_tag, default), _UNSEEN)
    if plain is _UNSEEN:
        plain = _plain(gametype, variant_tag, default)
    return None if plain is None else (start, event, plain)


def _starters(first: str, squares: Squares) -> Starters:
    """The setups of the candidates, in their order, whose board has the
    squares used and whose start a first move written as ``first`` may be
    played from (None where one has none: the reader reads the game), and
    the candidates' ids and how each writes a line (its square names and
    capture separator, as :data:`draughts.pdn._native.play_final` takes them)."""
    key = (first, *squares)
    found = _STARTERS.get(key)  # the key infer_each looks up
    if found is None:
        numbers, files, ranks = squares
        evidence = Evidence(numbers=numbers, files=files, ranks=ranks)
        fits = [v for v in CANDIDATES if evidence.fits(v)]
        starters = tuple(v for v in fits if may_start(v, first))
        setups = [setup_of(v, None) for v in starters]
        kept = tuple(setup for setup in setups if setup is not None)
        ids = tuple(map(id, starters))
        writings = tuple((_writing(v)[1], v.capture_separator) for v in starters)
        found = kept if len(kept) == len(setups) else None, ids, writings
        if len(_STARTERS) < 4096:
            _STARTERS[key] = found
    return found


def fast_game(text: str, default: str | None) -> FastGame | None:
    """The check of the game record ``text`` (from its first tag to the
    end of its result, maybe followed by blanks) read as its tags name it,
    else as ``default`` (a variant's name), else as its evidence chooses;
    None where the reader must read it (see the module)."""
    # The commonest record (its variant named by its tags or the caller)
    # checked here, not through _fast: the calls of _fast were a third of
    # the time around the native checks of the International corpus. And
    # _head's work is done here, without the call.
    record_tags = _native.record_tags
    tags = None if record_tags is None else record_tags(text)
    if tags is None:
        return None  # the pure core; a FEN tag, or a variant's tag twice: the reader's
    start, event, gametype, variant_tag = tags
    plain = _PLAIN.get((gametype, variant_tag, default), _UNSEEN)
    if plain is _UNSEEN:
        plain = _plain(gametype, variant_tag, default)
    if plain is None:
        return None
    variant, setups, named = plain
    choice = None
    if variant is None:  # the moves decide
        inferred = _inferred(text, start, None)
        if inferred is None:
            return None
        choice, run = inferred
        variant = choice.variant
    else:
        assert _native.check_each is not None
        run = _native.check_each(setups, text, start, 0)[0]
    if run is None or run[0] != _OK or run[2] or run[3] < 0:
        return None  # an error, a warning, no result marker: the reader's
    return variant.name, run[1], event, named, choice


_Found = tuple[Variant, tuple[Any, ...], "str | None", "str | None", "Choice | None", int]


def _fast(text: str, default: str | None, final: bool | None) -> _Found | None:
    """:func:`fast_game`'s answer with the variant itself, its replay's
    answer and where the movetext starts. ``final``: None for the answer of
    :data:`~draughts.pdn._native.check_each`, else for that of
    :data:`~draughts.pdn._native.play_final` (the final position), with the
    line where it is true. A game inferred with a first move and squares
    seen for the first time answers check_each's all the same (its
    candidates are replayed before they are kept for infer_each)."""
    head = _head(text, default)
    if head is None:
        return None
    start, event, (variant, setups, named) = head
    if variant is None:  # the moves decide
        found = _inferred(text, start, final)
        if found is None:
            return None
        choice, run = found
        return _answer(choice.variant, run, event, None, choice, start)
    setup = setups[0]
    if final is None:
        assert _native.check_each is not None
        run = _native.check_each(setups, text, start, 0)[0]
    else:  # the check and the final position in one replay
        assert _native.play_final is not None
        names = _writing(variant)[1] if final else None
        run = _native.play_final(setup, text, start, names, variant.capture_separator)
    return _answer(variant, run, event, named, None, start)


def _answer(
    variant: Variant,
    run: Any,
    event: str | None,
    named: str | None,
    choice: Choice | None,
    start: int,
) -> _Found | None:
    """The game's check from its native replay, None unless it has no
    error, no warning and a result marker."""
    if run is None or run[0] != _OK or run[2] or run[3] < 0:
        return None
    return variant, run, event, named, choice, start


FastRecord = tuple[
    str,
    str,
    int,
    str,
    tuple[tuple[str, str], ...],
    tuple[tuple[str, ...], tuple[int, ...]] | None,
    "Choice | None",
]
"""What :func:`fast_record` found: the variant's name, the result marker,
the moves played, the final position's FEN, the tag pairs as written, the
main line's moves and position keys if asked for (else None), and the
inference's choice (None where the tags or the caller named the variant)."""

# A tag pair as record_tags reads one (a tag alone on its line, its value
# without an escape), for the pairs of a record it has read.
_TAG = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]*"([^"\\\r\n]*)"')
# The comments a record may start with, before its tags, as record_tags
# skips them: their text is not searched for tags.
_HEAD_COMMENTS = re.compile(r"(?:[ \t\r\n]*\{[^{}]*\})*")


def fast_record(text: str, default: str | None, line: bool = False) -> FastRecord | None:
    """What a :class:`~draughts.pdn.record.GameRecord` keeps of the game
    record ``text``, read as :func:`fast_game` reads it, for a game with no
    error and no warning, and with ``line`` the moves and position keys of
    its main line (as :class:`~draughts.pdn.record.MainLine` keeps them,
    from the variant's start); None where the reader must read it.

    >>> record = '[Event "Club"]\\n[GameType "21"]\\n1. 11-15 24-20 2. 8-11 28-24 0-1\\n'
    >>> found = fast_record(record, None)  # None on the pure core
    >>> found is None or found[:3] == ("english", "0-1", 4)
    True
    """
    found = _fast(text, default, line)
    if found is None:
        return None
    variant, run, _, _, choice, start = found
    codec, names = _writing(variant)
    if len(run) < 9:  # check_each's answer: replayed again for the final position
        setup = setup_of(variant, None)
        assert setup is not None and _native.play_final is not None  # the check played from it
        separator = variant.capture_separator
        run = _native.play_final(setup, text, start, names if line else None, separator)
    state, plies, _, result_start, result_end, men, kings, turn, moves_keys = run
    if state != _OK or men is None or kings is None:
        return None
    fen = format_fen(codec, (turn, (men[0], men[1]), (kings[0], kings[1])))
    head = _HEAD_COMMENTS.match(text)  # always matches, maybe nothing
    tags = tuple(_TAG.findall(text, head.end() if head else 0, start))
    return variant.name, text[result_start:result_end], plies, fen, tags, moves_keys, choice


def game_record(file: str, start: GameStart, found: FastRecord) -> GameRecord:
    """The :class:`~draughts.pdn.record.GameRecord` of a game of ``file``
    starting at ``start``, from :func:`fast_record`'s answer (a game read
    fast has no error)."""
    name, result, plies, fen, tags, _, _ = found
    return GameRecord(file, start.offset, start.number, name, result, plies, fen, 0, None, tags)


def _writing(variant: Variant) -> tuple[FenCodec, tuple[str, ...]]:
    """The variant's FEN codec and the name of each square number (index
    0 unused), as its boards write them: its start board's context's."""
    cached = _WRITING.get(id(variant))
    if cached is None or cached[0] is not variant:
        ctx = start_board(variant)._ctx
        cached = variant, (ctx.fen, tuple(ctx.core.name_of_square))
        if len(_WRITING) < 64:
            _WRITING[id(variant)] = cached
    return cached[1]


# By the variant's identity, the variant kept in the entry (as _fastcheck keeps setups).
_WRITING: dict[int, tuple[Variant, tuple[FenCodec, tuple[str, ...]]]] = {}


def _inferred(text: str, start: int, final: bool | None) -> tuple[Choice, Any] | None:
    """The inference's choice for a game with no tag naming its variant
    (its movetext: ``text[start:]``), and the replay of the chosen variant
    (``final``: as :func:`_fast` answers it); None where the reader must
    tell.

    Each candidate that may start the game is replayed once, in full (as
    :func:`~draughts.pdn.infer.choose` replays them), in one call that reads
    the text once; the choice depends on nothing else but the squares used,
    so it is made once for each such outcome (choosing was half the time of
    the fast check of a file)."""
    assert _native.infer_each is not None and _native.check_each is not None
    found = _native.infer_each(text, start, _STARTERS, 0 if final is None else 2 if final else 1)
    if found is None:
        return None  # a game without moves is chosen by its FEN tag alone: the reader's
    numbers, files, ranks, moves, first_start, first_end, starters, runs = found
    squares = (numbers, files, ranks)
    if starters is None:
        starters = _starters(text[first_start:first_end], squares)
    setups, ids, _ = starters
    if setups is None:
        return None
    if runs is None:
        runs = _native.check_each(setups, text, start, 0)
    states = tuple([run[0] for run in runs])  # _OK, _ERROR, or more: not known here
    if _OK not in states or max(states) > _ERROR:
        # No candidate replays every move (the reader reports the errors),
        # or one the native loop cannot tell.
        return None
    if runs[states.index(_OK)][3] < 0:
        # No result marker (a candidate that replays every move reads the
        # whole text, and every such replay finds the same end): the
        # reader's warning, and it tells a move error at the end of a cut
        # record as no error.
        return None
    key = (squares, ids, states)
    choice = _CHOICES.get(key)
    if choice is None:
        by_variant = dict(zip(ids, runs, strict=True))

        def replay(variant: Variant, limit: int | None) -> tuple[bool, int]:
            run = by_variant.get(id(variant))
            if run is None:
                return False, 0  # it may not start the game
            if limit is not None and run[1] >= limit:
                return True, limit
            return run[0] == _OK, run[1]

        first = text[first_start:first_end]
        evidence = Evidence(numbers=numbers, files=files, ranks=ranks, moves=moves, first=first)
        choice = choose(evidence, None, replay)
        if len(_CHOICES) < 4096:
            _CHOICES[key] = choice
    return choice, runs[ids.index(id(choice.variant))]


F = TypeVar("F")
T = TypeVar("T")


def each_game(
    handle: IO[str],
    starts: Iterable[GameStart],
    data: bytes,
    encoding: str,
    fast: Callable[[str, int], F | None],
    read: Callable[[IO[str], int], T | None],
) -> Iterator[tuple[GameStart, F | None, T | None]]:
    """Each game of a piece of a file: its start, and what ``fast`` (such
    as :func:`fast_game`) makes of its record, or where it has nothing what
    ``read`` (the reader) makes of the game from ``handle``, which reads the
    piece's bytes ``data`` (decoded from ``encoding``; the first game starts
    at the handle's offset 0). Both are also given the game's place in the
    piece, from 0. The handle is moved to a game only when the reader is to
    read it. The end: after the last start, or when ``read`` finds no game."""
    native = _native.record_tags is not None and _fast_encoding(encoding)
    # Text of one byte a character (most files) is decoded once, and each
    # game sliced from it: a slice and a decoding a game were a tenth of
    # the time around the fast checks.
    ascii_text = data.decode("ascii") if native and data.isascii() else None
    in_step = True  # the handle stands where the next game starts
    base: int | None = None
    following = iter(starts)
    start = next(following, None)
    place = 0
    while start is not None:
        after = next(following, None)
        if base is None:
            base = start.offset
        found = None
        if native:
            begin, end = start.offset - base, len(data) if after is None else after.offset - base
            record = (
                ascii_text[begin:end]
                if ascii_text is not None
                else data[begin:end].decode(encoding, "replace")
            )
            found = fast(record, place)
        if found is not None:
            in_step = False
            yield start, found, None
        else:
            if not in_step:
                seek_game(handle, start._replace(offset=start.offset - base))
                in_step = True
            slow = read(handle, place)
            if slow is None:
                return
            yield start, None, slow
        start = after
        place += 1
