"""PDN files on a Dask cluster: a bag of game records, and ``validate`` run
by the cluster's workers (needs the ``dask`` extra: ``pip install '.[dask]'``
in a clone, which installs ``dask[bag]`` and ``distributed``).

:func:`read_games` splits a file at game boundaries found by
:func:`draughts.pdn.scan_starts`, in a task on the cluster (the calling
process only reads the file's size and first bytes); each piece is a task
that opens the file by its path, seeks to its first game and reads its
games, so the workers must see the files by the same paths (one machine, or
a shared file system). A compressed file's size says nothing of its games:
it is scanned in the calling process, and each piece of it is found by
decompressing from the start of the file.

:func:`validation` is :func:`draughts.pdn.validate` with the pieces read by
the cluster's workers (cut at byte offsets, each task finding its games, as
``jobs=N`` cuts a file: see :mod:`draughts.pdn.validation`): the same
:class:`~draughts.pdn.GameReport` of every
game, each game's variant settled by its whole file in the calling process
(:mod:`draughts.pdn.validation`); :func:`validate` writes them out as
``draughts validate`` does. Both keep a few pieces on the cluster at a time
(two per worker thread) and take each piece's reports as soon as it is done:
the scheduler and the workers hold a few pieces and their reports, whatever
the size of the files. A Dask worker's own statistical
profiler (``distributed.worker.profile``) keeps the call trees of its last
1000 seconds of work, about 0.1 MB a second while it checks games: its memory
grows by that for the first 1000 seconds, and slowly after. Start the workers
with ``DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False`` for memory that is
flat from the start.

.. code-block:: python

    from distributed import Client
    import draughts.dask

    client = Client("tcp://scheduler:8786")           # or Client() for a local cluster
    games = draughts.dask.read_games(["a.pdn", "b.pdn.gz"])
    games.filter(lambda g: g.errors).pluck("first_error").compute()
    games.map(lambda g: g.result).frequencies().compute()
    print(draughts.dask.validate(["a.pdn", "b.pdn.gz"], client))
    with draughts.dask.validation(["a.pdn"], client) as checked:
        guessed = [report for report in checked if report.guessed]

See the documentation's "Large files" page for starting a cluster and for
``draughts validate --scheduler``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any

import attrs

from draughts.pdn import _validation_text
from draughts.pdn._chunking import Chunk, chunk_starts, chunks, open_chunk
from draughts.pdn._fastgame import FastRecord, each_game, fast_record, game_record
from draughts.pdn._opening import _compression
from draughts.pdn._text import source_list
from draughts.pdn.offsets import _open_binary
from draughts.pdn.record import GameRecord, read_record
from draughts.pdn.settling import Seen, read_piece, settle, survey_piece, variant_name
from draughts.pdn.validation import Validation
from draughts.variant import Variant

if TYPE_CHECKING:
    import dask.bag

__all__ = ["Summary", "read_games", "validate", "validation"]

_BLOCKSIZE = 8 << 20  # bytes of games per partition
# Tasks of validate on the cluster at a time, per worker thread: one running
# and one waiting, so that no thread waits for the next task.
_TASKS_PER_THREAD = 2

_Call = tuple[Callable[..., Any], tuple[Any, ...]]  # a task: a function and its arguments


def _dask() -> Any:
    """The ``dask`` package (imported when first needed, so that this module
    imports without it). Its functions have no annotations: they are called
    through this."""
    try:
        import dask.bag
        import dask.delayed
    except ImportError as error:
        raise ImportError(
            f"draughts.dask needs Dask: pip install 'dask[bag]' distributed ({error})"
        ) from error
    return dask


Paths = str | os.PathLike[str] | Iterable[str | os.PathLike[str]]


def _paths(paths: Paths) -> list[str]:
    """The paths given, as a list; anything else (a handle too: the workers
    open the files themselves) is a TypeError that says what to pass."""
    found: list[Any] = source_list(paths, "draughts.dask", handles=False)
    return [os.fspath(path) for path in found]


def _pieces(path: str, blocksize: int) -> list[Chunk]:
    """The pieces of a file (a task, or in this process for a compressed file)."""
    stream, encoding = _open_binary(path)
    with stream:
        return list(chunks(stream, blocksize, keep=False, encoding=encoding))


def _most_pieces(path: str, blocksize: int) -> int | None:
    """The most pieces :func:`_pieces` can cut the file into, from its size
    (None for a compressed file): each piece but the last holds ``blocksize``
    bytes at least (the next one starts at the first game past them). Opening
    the file here raises what reading it would (a missing file, binary data)."""
    stream, _ = _open_binary(path)
    stream.close()
    with open(path, "rb") as raw:
        if _compression(raw.read(6)) is not None:
            return None
        size = os.fstat(raw.fileno()).st_size
    return max(1, math.ceil(size / max(blocksize, 1)))


def _piece(pieces: Sequence[Chunk], place: int) -> Chunk | None:
    """The ``place``-th piece, None past the last (a bag's partition then
    holds no game)."""
    return pieces[place] if place < len(pieces) else None


def _survey(path: str, pieces: Sequence[Chunk], place: int) -> list[Seen]:
    """The survey of the ``place``-th piece of a file (a task)."""
    chunk = _piece(pieces, place)
    return [] if chunk is None else survey_piece(path, chunk)


def _piece_records(
    path: str,
    pieces: Sequence[Chunk],
    place: int,
    variant: Variant | str | None,
    settled: Sequence[str | None] | None,
) -> list[GameRecord]:
    """The records of the ``place``-th piece of a file (a task)."""
    chunk = _piece(pieces, place)
    return [] if chunk is None else _records(path, chunk, variant, settled)


def _records(
    path: str, chunk: Chunk, variant: Variant | str | None, settled: Sequence[str | None] | None
) -> list[GameRecord]:
    """The records of a piece's games (a task); ``settled``: the variant of
    each game as its file settles it (None: ``variant`` for every game).
    A plain record with no error is read in C
    (:func:`draughts.pdn._fastgame.fast_record`), the others by the reader."""
    data = read_piece(path, chunk)
    starts = list(chunk_starts(chunk, data))
    default = variant_name(variant)

    def variant_of(place: int) -> str | None:
        return default if settled is None else settled[place]

    def fast(text: str, place: int) -> FastRecord | None:
        return fast_record(text, variant_of(place))

    def slow(handle: IO[str], place: int) -> GameRecord | None:
        start = starts[place]
        return read_record(
            handle, file=path, offset=start.offset, number=start.number, variant=variant_of(place)
        )

    records = []
    with open_chunk(chunk, data) as handle:
        games = each_game(handle, starts, data, chunk.encoding, fast, slow)
        for start, found, record in games:
            if found is not None:
                record = game_record(path, start, found)
            assert record is not None
            records.append(record)
    return records


def _settled(parts: Sequence[Sequence[Seen]]) -> list[list[str | None]]:
    """The variant of each game of a file's pieces, from their surveys (a task)."""
    verdicts = iter(settle([seen for part in parts for seen in part]))
    return [[next(verdicts).variant for _ in part] for part in parts]


def read_games(
    paths: Paths, *, variant: Variant | str | None = None, blocksize: int = _BLOCKSIZE
) -> dask.bag.Bag:
    """A :class:`dask.bag.Bag` of the :class:`~draughts.pdn.record.GameRecord`
    of every game of the files, in file order, in partitions of about
    ``blocksize`` bytes of games (a partition never splits a game).

    ``variant`` is the variant of games without ``GameType`` or ``Variant``
    tags; if not given, each such game's is decided as
    :func:`draughts.pdn.validate` decides it, with its whole file in view
    (a survey task per piece and one per file come first). The files are
    scanned for game boundaries when the bag is computed, a task per file
    (compressed files now, in this process), and a file of ``size`` bytes
    makes ``ceil(size / blocksize)`` partitions (the last ones empty where
    its games make fewer pieces). Each record's ``offset`` is
    its game's start (see :func:`draughts.pdn.scan_offsets`) and ``number``
    its place in its file.

    .. code-block:: python

        # g.pdn: '[Result "2-0"]\\n1. 32-28 2-0\\n\\n1. 31-27 19-23 *\\n'
        games = read_games("g.pdn")
        [(g.number, g.offset, g.result, g.plies) for g in games.compute()]
        # [(1, 0, '2-0', 1), (2, 29, '*', 2)]
    """
    module = _dask()
    parts = []
    for path in _paths(paths):
        count = _most_pieces(path, blocksize)
        pieces: Any
        if count is None:
            pieces = _pieces(path, blocksize)
            count = len(pieces)
        else:  # scanned on the cluster: the caller does not read the file
            pieces = module.delayed(_pieces, pure=True)(path, blocksize)
        settled: list[Any] = [None] * count
        if variant is None:  # each game's variant settled by its file: a survey first
            surveys = [module.delayed(_survey, pure=True)(path, pieces, k) for k in range(count)]
            whole = module.delayed(_settled, pure=True)(surveys)
            settled = [whole[place] for place in range(count)]
        parts += [
            module.delayed(_piece_records, pure=True)(path, pieces, place, variant, own)
            for place, own in enumerate(settled)
        ]
    bag: dask.bag.Bag = (
        module.bag.from_delayed(parts) if parts else module.bag.from_sequence([], npartitions=1)
    )
    return bag


@attrs.frozen
class Summary:
    """What :func:`validate` found: the numbers of the summary line of
    ``draughts validate``, and in :attr:`lines` all that it prints (each
    error as ``file:line:col: message``, then the summary).

    >>> summary = Summary(1, 2, 3, 1, (("illegal", 1),), None, ("x:1:5: bad", "..."))
    >>> summary.ok, str(summary)
    (False, 'x:1:5: bad\\n...')
    """

    files: int
    games: int
    moves: int
    games_with_errors: int
    errors_by_kind: tuple[tuple[str, int], ...]
    """``(kind, games with an error of that kind)``, by kind."""
    pdn3_violations: int | None
    """In strict mode, the PDN 3.0 violations; else None."""
    lines: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """Whether no game has an error (and, in strict mode, no violation)."""
        return not (self.games_with_errors or self.pdn3_violations)

    def __str__(self) -> str:
        return "\n".join(self.lines)


def _current_client() -> Any:
    """The current :class:`distributed.Client`, or None."""
    try:
        import distributed
    except ImportError:
        return None
    current: Any = distributed.default_client
    try:
        return current()
    except ValueError:
        return None


def _in_order(calls: Iterable[_Call], client: Any) -> Iterator[Any]:
    """The results of ``calls``, in their order, computed on ``client`` with
    a few tasks at a time on the cluster (``_TASKS_PER_THREAD`` per worker
    thread): each result is taken from its worker as soon as it is done
    (the worker and the scheduler then forget the task) and held here until
    the results before it are in, and a new task replaces it. Submitting
    every task at once made each worker keep all its results, and the
    scheduler every task, until the last one was done."""
    import distributed

    window = max(2, _TASKS_PER_THREAD * sum(client.nthreads().values()))
    waiting = iter(enumerate(calls))
    running: dict[Any, int] = {}  # future: its call's index
    done: dict[int, Any] = {}  # results ahead of one still running
    as_completed: Any = distributed.as_completed
    completed = as_completed(loop=client.loop)  # without it, the default client's loop

    def submit() -> None:
        for index, (function, args) in waiting:
            future = client.submit(function, *args, pure=True)
            running[future] = index
            completed.add(future)
            return

    for _ in range(window):
        submit()
    first = 0
    try:
        for future in completed:
            done[running.pop(future)] = future.result()
            future.release()
            submit()
            while first in done:
                yield done.pop(first)
                first += 1
    finally:  # an error, or the caller stopped: leave nothing on the cluster
        if running:
            client.cancel(list(running))


def _results(calls: Iterable[_Call], client: Any) -> Iterator[Any]:
    """The results of ``calls``, in their order: on ``client``; else on the
    current Dask client if there is one, else by the scheduler Dask is
    configured with, else in local processes."""
    if client is None:
        client = _current_client()
    if client is not None:
        return _in_order(calls, client)
    dask = _dask()
    scheduler = dask.config.get("scheduler", None) or "processes"
    values = [dask.delayed(function, pure=True)(*args) for function, args in calls]
    return iter(dask.compute(*values, scheduler=scheduler))


def validation(
    paths: Paths,
    client: Any = None,
    *,
    address: str | None = None,
    variant: str | None = None,
    strict: bool = False,
    blocksize: int = _BLOCKSIZE,
    problems_only: bool = False,
) -> Validation:
    """:func:`draughts.pdn.validate` with the pieces of the files checked on a
    Dask cluster: the same :class:`~draughts.pdn.GameReport` of every game,
    in file order, and the same summary.

    ``client`` is a :class:`distributed.Client`; with ``address`` instead,
    a client of that scheduler is made (and closed with the validation);
    with neither, the current client if there is one, else local
    processes. Every file is split into pieces of about ``blocksize`` bytes
    of games, each a task. ``problems_only`` as for
    :func:`draughts.pdn.validate`: the games that are fine are only counted
    on the cluster, and only the others come back.

    .. code-block:: python

        with draughts.dask.validation(["a.pdn", "b.pdn"], client) as checked:
            bad = [report for report in checked if report.errors]
            print(checked.summary().games)
    """
    on_close = None
    if address is not None:
        import distributed

        connect: Any = distributed.Client
        client = connect(address)
        on_close = client.close
    return Validation(
        _paths(paths),
        variant=variant,
        strict=strict,
        jobs=1,
        chunk_size=blocksize,
        runner=lambda calls: _results(calls, client),
        on_close=on_close,
        problems_only=problems_only,
    )


def validate(
    paths: Paths,
    client: Any = None,
    *,
    variant: str | None = None,
    strict: bool = False,
    blocksize: int = _BLOCKSIZE,
) -> Summary:
    """Check every game of the files on a Dask cluster, as ``draughts
    validate`` does: the same errors, in file order, and the same summary.

    ``client`` is a :class:`distributed.Client`; without one, the current
    client if there is one, else local processes. ``variant`` is the variant
    of games without ``GameType`` or ``Variant`` tags; ``strict`` adds the
    PDN 3.0 grammar check; ``blocksize`` is the bytes of games per task.

    .. code-block:: python

        # g.pdn: "1. 32-28 19-23 2. 28-22 *\\n\\n1. 31-27 *\\n"
        summary = validate("g.pdn", client)
        summary.games, summary.ok  # (2, False)
        print(summary)
        # g.pdn:1:19: illegal move '28-22' in W:W28,31,33-50:B1-18,20,23: capture is ...
        # 1 file, 2 games, 3 moves, 1 game with errors (illegal 1)
    """
    # What is written out are the problems and the summary (text_lines).
    with validation(
        paths, client, variant=variant, strict=strict, blocksize=blocksize, problems_only=True
    ) as checked:
        lines = _validation_text.text_lines(checked)
        found = checked.summary()
    return Summary(
        files=len(found.files),
        games=found.games,
        moves=found.plies,
        games_with_errors=found.games_with_errors,
        errors_by_kind=found.errors_by_kind,
        pdn3_violations=found.pdn3_violations,
        lines=tuple(lines),
    )
