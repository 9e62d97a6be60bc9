"""Game records read into a dataset's rows: by the PDN reader, one game at a
time (the oracle), and where the native core is built, most games of a file
in one call into C (``VecEnv.replay`` in ``draughts/ml/_native/ml_dataset.c``).

The fast path reads a file's games in order. A game goes to C when its tags
are plain tag lines that name no other variant and no FEN (as
:mod:`draughts.pdn._fastgame` reads them), and C replays its movetext only
where it reads it exactly as the reader's fast check does, with no error, no
warning and a result: the positions' states and the actions played, on two
threads, in the compact form of :class:`draughts.ml.Dataset`. Every other
game, and every game C refuses, is read by the reader, in its place.
``tests/ml/test_data.py`` holds the two paths to the same arrays.
"""

from __future__ import annotations

import codecs
import functools
import gc
import io
import itertools
import os
from array import array
from typing import IO, Any, cast

import attrs
import numpy as np
import numpy.typing as npt

from draughts import _core
from draughts.board import Board
from draughts.ml import _compact
from draughts.ml._compact import Compact
from draughts.ml._native_env import encoder
from draughts.ml.actions import move_to_index, turned_squares
from draughts.ml.encoding import Layout, State, layout
from draughts.move import Move
from draughts.pdn import _native as pdn_native
from draughts.pdn import open_pdn, read_game
from draughts.pdn._fastcheck import setup_of
from draughts.pdn._fastgame import _tagged
from draughts.pdn.headers import BaseVisitor, PdnError
from draughts.pdn.offsets import GameStart, scan_starts, seek_game
from draughts.pdn.writer import result_points
from draughts.piece import WHITE
from draughts.variant import Variant, find_variant

Position = tuple[npt.NDArray[np.uint8], bool, npt.NDArray[np.float32], npt.NDArray[np.uint8]]
"""One compact position (a row of each of :data:`draughts.ml._compact.Compact`'s
arrays), as self-play reads it from an observation."""

Row = tuple[State | Position, int, bool]
"""A position (a board's state read with no viewer, or a compact position),
the move played there, whether White was to move."""

_THREADS = 2
"""Threads of the C replay (the machine's two cores; the results do not
depend on it)."""

# ml_dataset.c's RESULTS, in its order.
_RESULTS = ("1/2-1/2", "1-0", "0-1", "2-0", "0-2", "1-1", "0-0", "*")


@attrs.define
class Game:
    """The main line of one game record, as :class:`GameRows` reads it."""

    variant: Variant | None = None
    rows: list[Row] = attrs.Factory(list)
    result: str | None = None
    errors: bool = False


class GameRows(BaseVisitor[Game]):
    """Reads the main line's positions and moves of one game record."""

    def __init__(self, perspective: bool) -> None:
        self.perspective = perspective  # of the actions; positions are read as they are

    def begin_game(self) -> None:
        self.game = Game()
        self.depth = 0
        self.tag_result: str | None = None

    def visit_header(self, name: str, value: str) -> None:
        if name == "Result":
            self.tag_result = value

    def visit_board(self, board: Board) -> None:
        self.game.variant = board.variant

    def visit_move(self, board: Board, move: Move) -> None:
        if self.depth == 0:
            lay = layout(board.variant)
            state = lay.state(board, None)
            action = move_to_index(board, move, perspective=self.perspective)
            self.game.rows.append((state, action, board.turn == WHITE))

    def begin_variation(self) -> None:
        self.depth += 1

    def end_variation(self) -> None:
        self.depth -= 1

    def visit_result(self, result: str) -> None:
        self.game.result = result

    def handle_error(self, error: PdnError) -> None:
        self.game.errors = True

    def result(self) -> Game:
        if self.game.result in (None, "*"):
            self.game.result = self.tag_result
        return self.game


def white_score(result: str | None, variant: Variant) -> int | None:
    """The game's result for White (1, 0, -1), None for no result (or a
    double forfeit), read as ``variant`` writes results (the first number is
    the first player's)."""
    points = result_points(result or "*", variant)
    if points is None or points == (0.0, 0.0):
        return None
    return round(points[0] - points[1])


def take(game: Game, wanted: Variant | None) -> tuple[Variant | None, int | None]:
    """What a dataset makes of ``game`` read while keeping ``wanted`` (None:
    the first game's variant): the variant kept from now on, and the game's
    score for White, None where the game is left out (another variant, no
    result, an error, no move)."""
    if game.variant is None or (wanted is not None and game.variant != wanted):
        return wanted, None
    score = white_score(game.result, game.variant)
    if score is None or game.errors or not game.rows:
        return game.variant, None
    return game.variant, score


Replayed = tuple[bytes, bytes, bytes, bytearray, bytearray, bytearray, bytearray, bytearray]
"""What ``VecEnv.replay`` answers (see ``ml_dataset.c``)."""


@attrs.frozen
class Columns:
    """A dataset's arrays, row by row (see :class:`draughts.ml.Dataset`)."""

    variant: Variant
    positions: Compact
    actions: npt.NDArray[np.int64]
    results: npt.NDArray[np.int8]
    plies: npt.NDArray[np.int32]
    games: npt.NDArray[np.int32]
    skipped: int


@attrs.frozen
class _Native:
    """What the C replay of one variant needs."""

    env: Any  # the one-game VecEnv whose tables it reads
    numbers: bytes  # the square of each written number 0-99, 100 int16
    dash_captures: bool
    white_first: bool
    plain: bool  # a game whose tags name no variant is read as this one


def _native(variant: Variant, perspective: bool) -> _Native | None:
    if find_variant(variant.name) != variant or (perspective and turned_squares(variant) is None):
        return None  # a variant the tags cannot name, or one perspective cannot turn
    setup = setup_of(variant, None)
    env = encoder(variant, perspective)
    if setup is None or env is None:
        return None
    white_first = Board(variant=variant).turn == WHITE
    plain = _tagged(None, None, variant.name) == variant
    # The reader's setup codes algebraic names after the numbers 0-99; the C
    # replay reads numbers only (an algebraic game is left to the reader).
    numbers = setup[4][: 100 * array("h").itemsize]
    return _Native(env, numbers, setup[5], white_first, plain)


def _span(
    data: bytes, start: int, end: int, native: _Native, wanted: Variant, encoding: str
) -> int:
    """Where the movetext of the game in ``data[start:end]`` starts, when the
    fast check would read the game as ``wanted`` from its start; -1 when the
    reader must read it."""
    assert pdn_native.record_tags is not None  # see fast_columns
    text = data[start:end].decode(encoding, "replace")
    tags = pdn_native.record_tags(text)  # as draughts.pdn._fastgame.fast_game reads the tags
    if tags is None:
        return -1  # a FEN tag, or a variant's tag twice
    length, _, gametype, variant_tag = tags
    head = text[:length]
    if not head.isascii():  # the movetext's start in bytes, if its tags encode back
        encoded = head.encode(encoding, "replace")
        if data[start : start + len(encoded)] != encoded:
            return -1
        length = len(encoded)
    if gametype is None and variant_tag is None:
        return start + length if native.plain else -1
    return start + length if _tagged(gametype, variant_tag, wanted.name) == wanted else -1


def fast_columns(
    path: str | os.PathLike[str], wanted: Variant | None, perspective: bool, max_games: int | None
) -> Columns | None:
    """The dataset of the file at ``path`` (see :func:`draughts.ml.dataset`),
    most games replayed in C; None where the native core is not built or the
    file's encoding is not one the C replay reads (the caller reads it all)."""
    if _core.BACKEND != "native" or pdn_native.record_tags is None:
        return None
    # The cyclic garbage collector paused meanwhile: the games' starts and
    # tags, objects it tracks, made it walk the heap again and again, a tenth
    # of the CPU time of the OCA file (0.34 to 0.40 s with it, 0.31 to 0.32 s
    # without; 2026-12-05). Its work is only put off.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _columns(path, wanted, perspective, max_games)
    finally:
        if collecting:
            gc.enable()


def _columns(
    path: str | os.PathLike[str], wanted: Variant | None, perspective: bool, max_games: int | None
) -> Columns | None:
    """:func:`fast_columns`, the garbage collector paused."""
    with open_pdn(path) as handle:
        assert isinstance(handle, io.TextIOWrapper)  # what open_pdn opens a path as
        encoding = handle.encoding
        data = handle.buffer.read()
    if codecs.lookup(encoding).name not in ("utf-8", "utf-8-sig", "cp1252"):
        return None
    text = io.TextIOWrapper(io.BytesIO(data), encoding=encoding, errors="replace")
    starts = list(itertools.islice(scan_starts(text), max_games))
    read = _Reading(text, perspective)
    native: _Native | None = None  # what C needs, once the variant is known (None: no C)
    looked = False
    fast: list[int] = []  # the games sent to C, and their movetexts' spans
    spans = array("q")

    def sent_to_c(number: int, native: _Native, wanted: Variant) -> bool:
        """Whether game ``number`` goes to C (its span noted), not to the reader."""
        end = starts[number + 1].offset if number + 1 < len(starts) else len(data)
        position = _span(data, starts[number].offset, end, native, wanted, encoding)
        if position < 0:
            return False
        fast.append(number)
        spans.extend((position, end))
        return True

    for number, start in enumerate(starts):
        if wanted is not None and not looked:
            native, looked = _native(wanted, perspective), True
        if native is not None:
            assert wanted is not None
            if sent_to_c(number, native, wanted):
                continue
        game = read.game(start, wanted)
        if game is None:
            return None  # the reader ends here: read it all with the reader
        deciding = wanted is None
        wanted, score = take(game, wanted)
        read.keep(number, game, score)
        if deciding and wanted is not None:
            # The game that made the variant known goes to C as well (its rows
            # taken from there when C reads it): C's rows then start at the
            # file's first game, and may be the dataset's arrays as they are.
            native, looked = _native(wanted, perspective), True
            if native is not None:
                sent_to_c(number, native, wanted)
    if wanted is None:
        return _assemble(find_variant("international"), read, None, [], len(starts), None)
    replayed = None
    if fast:
        assert native is not None
        replayed = native.env.replay(
            data, spans.tobytes(), native.numbers, native.dash_captures, _THREADS
        )
        status = replayed[0]
        for k, number in enumerate(fast):
            if not status[k]:
                read.kept.pop(number, None)  # C's rows, not the reader's
            elif number not in read.kept:  # refused: the reader reads it
                game = read.game(starts[number], wanted)
                if game is None:
                    return None
                read.keep(number, game, take(game, wanted)[1])
    return _assemble(wanted, read, replayed, fast, len(starts), native)


class _Reading:
    """The games the reader reads, kept by number."""

    def __init__(self, text: IO[str], perspective: bool) -> None:
        self.text = text
        self.perspective = perspective
        self.kept: dict[int, tuple[Game, int | None]] = {}

    def game(self, start: GameStart, wanted: Variant | None) -> Game | None:
        seek_game(self.text, start)
        game: Game | None = read_game(
            self.text, variant=wanted, Visitor=lambda: GameRows(self.perspective)
        )
        return game

    def keep(self, number: int, game: Game, score: int | None) -> None:
        self.kept[number] = (game, score)


_LEFT_OUT = -128
"""A game's score where it is left out of the dataset."""


@functools.cache
def _result_scores(variant: Variant) -> npt.NDArray[np.int64]:
    """White's score for each of ml_dataset.c's results (its index)."""
    scores = [white_score(result, variant) for result in _RESULTS]
    return np.array([_LEFT_OUT if s is None else s for s in scores], dtype=np.int64)


def _assemble(
    variant: Variant,
    read: _Reading,
    replayed: Replayed | None,
    fast: list[int],
    count: int,
    native: _Native | None,
) -> Columns:
    """The columns of the ``count`` games in order: the C rows of the games
    C read (``fast``, the games sent to it), the reader's rows of the others.
    (In arrays over the games, not a Python loop: the loop was a tenth of
    the time of the OCA file.)"""
    # Per game: its rows, their first C row (-1: the reader's), its score.
    rows = np.zeros(count, dtype=np.int64)
    sources = np.full(count, -1, dtype=np.int64)
    scores = np.full(count, _LEFT_OUT, dtype=np.int64)
    for number, (game, score) in read.kept.items():
        if score is not None:
            rows[number], scores[number] = len(game.rows), score
    if replayed is not None:
        in_c = np.frombuffer(replayed[0], np.int8) == 0
        numbers = np.array(fast, dtype=np.int64)[in_c]
        plies = np.frombuffer(replayed[2], np.int32)[in_c].astype(np.int64)
        rows[numbers] = plies
        sources[numbers] = np.cumsum(plies) - plies
        scores[numbers] = _result_scores(variant)[np.frombuffer(replayed[1], np.int8)[in_c]]
    kept = np.flatnonzero((scores != _LEFT_OUT) & (rows > 0))
    counts, sources, scores = rows[kept], sources[kept], scores[kept]
    firsts = np.cumsum(counts) - counts
    total = int(counts.sum())
    lay = layout(variant)
    # In int32 from the start (the dataset's type): with int64 temporaries
    # the plies and results of the OCA file's rows took 9 ms of CPU time, 4 ms
    # now (2026-12-05).
    plies_array = np.arange(total, dtype=np.int32) - np.repeat(firsts.astype(np.int32), counts)
    from_c = _c_arrays(lay, replayed)
    # Runs of games one after another in C's rows.
    joins = np.zeros(len(kept), dtype=np.bool_)
    joins[1:] = (sources[:-1] >= 0) & (sources[1:] == sources[:-1] + counts[:-1])
    if from_c and len(kept) and sources[0] == 0 and joins[1:].all() and total == len(from_c[4]):
        # Every row is C's, in C's order: its arrays are the dataset's. A
        # copy of them took 0.03 s of the OCA file's 0.3 (2026-12-05).
        assert native is not None
        positions, actions = cast(Compact, from_c[:4]), cast(npt.NDArray[np.int64], from_c[4])
        white = (plies_array % 2 == 0) == native.white_first
    else:
        positions, actions, white = _copied(
            lay, read, (kept, counts, sources, firsts, joins), from_c, plies_array, native
        )
    score_rows = np.repeat(scores.astype(np.int8), counts)
    return Columns(
        variant=variant,
        positions=positions,
        actions=actions,
        results=np.where(white, score_rows, -score_rows),
        plies=plies_array,
        games=np.repeat(kept.astype(np.int32), counts),
        skipped=count - len(kept),
    )


def _c_arrays(lay: Layout, replayed: Replayed | None) -> tuple[npt.NDArray[np.generic], ...]:
    """C's rows as arrays (writable views of its bytearrays): pieces, Black
    to move, rule values, king moves, actions; none without C."""
    if replayed is None:
        return ()
    count = len(replayed[7]) // 8
    shapes = ((len(lay.bits),), (), (lay.rule_planes,), (2, 2), ())
    kinds = (np.uint8, np.bool_, np.float32, np.uint8, np.int64)
    return tuple(
        np.frombuffer(data, kind).reshape(count, *shape)
        for data, kind, shape in zip(replayed[3:], kinds, shapes, strict=True)
    )


def _copied(
    lay: Layout,
    read: _Reading,
    games: tuple[npt.NDArray[Any], ...],
    from_c: tuple[npt.NDArray[np.generic], ...],
    plies: npt.NDArray[np.int32],
    native: _Native | None,
) -> tuple[Compact, npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """The rows of the kept games (``games``: their numbers, rows, first C
    row or -1, first row here, and whether each follows the one before in
    C's rows), copied from C's arrays a run of games at a time and read from
    the reader's boards: positions, actions, White to move."""
    kept, counts, sources, firsts, joins = games
    total = len(plies)
    positions = _compact.empty(lay, total)
    actions = np.empty(total, dtype=np.int64)
    columns: tuple[npt.NDArray[np.generic], ...] = (*positions, actions)
    white = np.empty(total, dtype=np.bool_)
    runs = np.flatnonzero(~joins).tolist()  # a game the reader read is a run of its own
    for first, after in zip(runs, [*runs[1:], len(kept)][: len(runs)], strict=True):
        row, source = int(firsts[first]), int(sources[first])
        end = int(firsts[after - 1] + counts[after - 1])
        if source < 0:
            game_rows = read.kept[int(kept[first])][0].rows
            read_rows: tuple[npt.NDArray[np.generic], ...] = _compact.from_states(
                lay, [cast(State, state) for state, _, _ in game_rows]
            )
            for column, part in zip(columns[: len(positions)], read_rows, strict=True):
                column[row:end] = part
            actions[row:end] = [action for _, action, _ in game_rows]
            white[row:end] = [is_white for _, _, is_white in game_rows]
            continue
        assert native is not None
        stop = source + end - row
        for column, part in zip(columns, from_c, strict=True):
            column[row:end] = part[source:stop]
        # From the variant's start: White moves at even plies, or at odd ones.
        white[row:end] = (plies[row:end] % 2 == 0) == native.white_first
    return positions, actions, white
