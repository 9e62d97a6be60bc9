"""Training data: game records and self-play as arrays, saved as ``.npz``.

A :class:`Dataset` has one row per position where a move was played. The
positions are kept compact, and their observations are made on demand, a
batch at a time (:meth:`Dataset.observations`, :meth:`Dataset.batches`): a
million positions hold 62 MB of arrays in English draughts (88 MB in
International draughts), where their observations would take 2 GB (4 GB).

- ``pieces`` ``(rows, squares)`` ``uint8``: what stands on each playing
  square, square 1 first: 0 nothing, 1 a white man, 2 a white king, 3 a black
  man, 4 a black king (the colours and the board as they are, whatever the
  perspective);
- ``black_to_move`` ``(rows,)`` ``bool``;
- ``rule_values`` ``(rows, planes)`` ``float32``: the values of the
  observation's rule planes after ``squares`` (repetition, counting draw
  rules; see :func:`~draughts.ml.plane_names`), one number per plane;
- ``king_moves`` ``(rows, 2, 2)`` ``uint8``: for White then Black, the square
  of the king it has moved in a row (0 for none) and how many times, where
  the variant limits them (Frisian); zeros elsewhere;
- ``actions`` ``int64``: the index of the move played
  (:func:`~draughts.ml.move_to_index`, from the side to move's view unless
  ``perspective=False``: Black's 11-15 and White's 22-18 in English
  draughts are one index);
- ``results`` ``int8``: how the game ended for the side to move: 1 won,
  -1 lost, 0 drawn (read as the variant writes results: the first number
  is the first player's score, Black's in English draughts);
- ``plies`` ``int32``: the position's ply in its game (0 at the start);
- ``games`` ``int32``: which game of the source the row comes from (from 0).

:meth:`Dataset.observations` gives the observations of rows exactly as
:func:`~draughts.ml.encode` gives them for the positions
(``perspective=True`` unless the dataset was made without), shape ``(rows,
planes, height, width)``, ``float32``.

All rows are of one variant (``variant``); a game record of another
variant, without a result, or with an error is left out and counted in
``skipped``.

>>> import io
>>> text = '[GameType "21"]\\n[Result "1-0"]\\n1. 11-15 23-19 2. 8-11 22-17 1-0'
>>> data = dataset(io.StringIO(text))
>>> data.variant.name, data.pieces.shape, data.actions.tolist()
('english', (4, 32), [689, 722, 789, 688])
>>> data.pieces[1].tolist()  # after 11-15: Black's men (3) on 1-10, 12, 15
[3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 3, 0, 0, 3, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
>>> data.observations().shape, data.results.tolist(), data.plies.tolist()  # Black won
((4, 8, 8, 8), [1, -1, 1, -1], [0, 1, 2, 3])
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import IO, Any

import attrs
import numpy as np
import numpy.typing as npt

from draughts import _core
from draughts.ml import _compact
from draughts.ml._records import GameRows, Position, Row, fast_columns, take
from draughts.ml.encoding import Observation, State, layout
from draughts.ml.env import Policy, VectorEnv
from draughts.pdn import open_pdn, read_game
from draughts.piece import WHITE
from draughts.variant import Variant, find_variant

__all__ = ["Batch", "Dataset", "dataset", "load", "selfplay_dataset"]

Batch = tuple[Observation, npt.NDArray[np.int64], npt.NDArray[np.int8]]
"""A batch of :meth:`Dataset.batches`: observations, actions, results."""

Rows = int | slice | Sequence[int] | npt.NDArray[np.integer] | None
"""Which rows :meth:`Dataset.observations` expands: one (an ``int``), a
slice, indices, or all of them (None)."""

_THREADS = 2
"""Threads of the C expansion of a large batch (the machine's two cores;
it uses one below 1,024 rows)."""


@attrs.frozen(eq=False)
class Dataset:
    """Positions, moves and results as arrays (see the module's documentation).

    >>> data = selfplay_dataset(VectorEnv("english", 2, seed=5), steps=150)
    >>> len(data) == len(data.actions) == len(data.pieces), data.perspective
    (True, True)
    >>> data.observations(slice(0, 3)).shape
    (3, 8, 8, 8)
    """

    variant: Variant
    pieces: npt.NDArray[np.uint8]
    black_to_move: npt.NDArray[np.bool_]
    rule_values: npt.NDArray[np.float32]
    king_moves: npt.NDArray[np.uint8]
    actions: npt.NDArray[np.int64]
    results: npt.NDArray[np.int8]
    plies: npt.NDArray[np.int32]
    games: npt.NDArray[np.int32]
    perspective: bool = True
    skipped: int = 0
    """Games left out (another variant, no result, an error, unfinished)."""

    def __len__(self) -> int:
        return len(self.actions)

    def observations(self, rows: Rows = None) -> Observation:
        """The observations of ``rows`` (all by default: mind the memory,
        2 KB a position in English draughts), as :func:`~draughts.ml.encode`
        gives them for the positions: ``(len(rows), planes, height, width)``
        ``float32``, or one observation for an ``int``.

        >>> import draughts, io
        >>> data = dataset(io.StringIO("1. 32-28 19-23 2. 28x19 14x23 2-0"))
        >>> x = data.observations(2)  # after 32-28 19-23, from White's side
        >>> board = draughts.Board("W:W28,31,33-50:B1-18,20,23", variant="international")
        >>> bool((x == draughts.ml.encode(board)).all())
        True
        >>> data.observations([3, 0]).shape
        (2, 10, 10, 10)

        :raises IndexError: for a row out of range.
        """
        single = isinstance(rows, (int, np.integer))
        index: slice | npt.NDArray[np.intp]
        if rows is None:
            index = slice(None)
        elif isinstance(rows, slice):
            index = rows
        else:
            index = np.atleast_1d(np.asarray(rows, dtype=np.intp))
        chosen = (
            np.ascontiguousarray(self.pieces[index]),
            np.ascontiguousarray(self.black_to_move[index]),
            np.ascontiguousarray(self.rule_values[index]),
            np.ascontiguousarray(self.king_moves[index]),
        )
        lay = layout(self.variant)
        out = np.empty((len(chosen[0]), *lay.shape), dtype=np.float32)
        native = _expander(self.variant, self.perspective)
        if native is not None:
            native.expand(chosen, out, _THREADS)
        else:
            _compact.expand(lay, self.perspective, chosen, out)
        result: Observation = out[0] if single else out
        return result

    def batches(
        self, batch_size: int, *, shuffle: bool = False, seed: int | None = None
    ) -> Iterator[Batch]:
        """The rows in batches of ``batch_size`` (the last one may be
        smaller): ``(observations, actions, results)``, each batch's
        observations made when it is reached. ``shuffle`` takes the rows in
        an order drawn from ``seed``, different at each call without one.

        >>> data = selfplay_dataset(VectorEnv("english", 4, seed=2), steps=100)
        >>> x, y, z = next(data.batches(64, shuffle=True, seed=1))
        >>> x.shape, y.shape, z.shape
        ((64, 8, 8, 8), (64,), (64,))
        >>> sum(len(y) for _, y, _ in data.batches(64)) == len(data)
        True

        :raises ValueError: for a batch size below 1.
        """
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size}")
        order = np.random.default_rng(seed).permutation(len(self)) if shuffle else None
        for start in range(0, len(self), batch_size):
            if order is None:
                rows: slice | npt.NDArray[np.intp] = slice(start, start + batch_size)
            else:
                rows = order[start : start + batch_size]
            yield self.observations(rows), self.actions[rows], self.results[rows]

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the arrays to a compressed ``.npz`` file (:func:`load` reads
        it): the compact positions, not their observations.

        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "games.npz")
        >>> data = selfplay_dataset(VectorEnv("english", 2, seed=1), steps=200)
        >>> data.save(path)
        >>> len(load(path)) == len(data), load(path).variant.name
        (True, 'english')
        """
        np.savez_compressed(
            path,
            variant=np.array(self.variant.name),
            **{name: getattr(self, name) for name in _ARRAYS},
            perspective=np.array(self.perspective),
            skipped=np.array(self.skipped),
        )


_ARRAYS = {
    "pieces": np.uint8,
    "black_to_move": np.bool_,
    "rule_values": np.float32,
    "king_moves": np.uint8,
    "actions": np.int64,
    "results": np.int8,
    "plies": np.int32,
    "games": np.int32,
}
"""A dataset's arrays and their types, as :meth:`Dataset.save` writes them."""


def _expander(variant: Variant, perspective: bool) -> Any | None:
    """The C expansion of ``variant``'s compact rows (a one-game VecEnv), or
    None where it does not run."""
    if _core.BACKEND != "native":
        return None
    from draughts.ml._native_env import encoder

    return encoder(variant, perspective)


def load(path: str | os.PathLike[str], *, variant: Variant | None = None) -> Dataset:
    """The :class:`Dataset` :meth:`Dataset.save` wrote to ``path``. The file
    names its variant; a custom variant's name is all it keeps of it, so
    ``variant`` gives that variant (its name must be the file's).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "none.npz")
    >>> np.savez(path, x=np.zeros(1))
    >>> load(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: ...none.npz is not a draughts.ml dataset: no 'variant' array

    :raises ValueError: if the file is not such a dataset, or its arrays do
        not fit its variant.
    """
    where = os.fspath(path)
    with np.load(path, allow_pickle=False) as data:
        for name in ("variant", "perspective", "skipped", *_ARRAYS):
            if name not in data:
                raise ValueError(f"{where} is not a draughts.ml dataset: no {name!r} array")
        name = str(data["variant"])
        if variant is not None and variant.name != name:
            raise ValueError(f"{where} holds {name} games, not {variant.name}")
        try:
            rules = variant or find_variant(name)
        except ValueError:
            raise ValueError(f"{where}: unknown variant {name!r} (pass variant=)") from None
        arrays = {key: data[key] for key in _ARRAYS}
        dataset = Dataset(
            rules,
            **arrays,
            perspective=bool(data["perspective"]),
            skipped=int(data["skipped"]),
        )
    _check(dataset, where)
    return dataset


def _check(data: Dataset, where: str) -> None:
    """Raise ValueError where ``data``'s arrays do not fit together or its
    variant (what :meth:`Dataset.observations` relies on)."""
    lay = layout(data.variant)
    rows = len(data.actions)
    shapes = {
        "pieces": (rows, len(lay.bits)),
        "black_to_move": (rows,),
        "rule_values": (rows, lay.rule_planes),
        "king_moves": (rows, 2, 2),
        "actions": (rows,),
        "results": (rows,),
        "plies": (rows,),
        "games": (rows,),
    }
    for name, kind in _ARRAYS.items():
        array = getattr(data, name)
        if array.dtype != kind or array.shape != shapes[name]:
            raise ValueError(
                f"{where}: {name} is {array.dtype} {array.shape}, "
                f"not {np.dtype(kind)} {shapes[name]}"
            )
    if rows and int(data.pieces.max()) > 4:
        raise ValueError(f"{where}: pieces holds a code over 4")
    if rows and int(data.king_moves[:, :, 0].max()) > len(lay.bits):
        raise ValueError(f"{where}: king_moves names a square over {len(lay.bits)}")


_CHUNK = 4096
"""Rows read at a time: big enough for NumPy's calls to cost little per
row, small enough to keep the temporaries small."""


class _Rows:
    """The rows of a dataset as they are collected, game by game."""

    def __init__(self, variant: Variant, perspective: bool) -> None:
        self.variant = variant
        self.perspective = perspective
        self.states: list[State] = []
        self.positions: list[Position] = []  # self-play's rows come compact
        self.actions: list[int] = []
        self.results: list[int] = []
        self.plies: list[int] = []
        self.games: list[int] = []
        self.skipped = 0

    def add_game(self, game: int, rows: list[Row], white_score: int) -> None:
        for ply, (state, action, white_to_move) in enumerate(rows):
            if isinstance(state[0], bytes):
                self.states.append(state)
            else:
                self.positions.append(state)
            self.actions.append(action)
            self.results.append(white_score if white_to_move else -white_score)
            self.plies.append(ply)
            self.games.append(game)

    def dataset(self) -> Dataset:
        lay = layout(self.variant)
        states = self.states
        compact = _compact.empty(lay, len(states) + len(self.positions))
        columns: tuple[npt.NDArray[np.generic], ...] = compact
        for start in range(0, len(states), _CHUNK):
            read: tuple[npt.NDArray[np.generic], ...] = _compact.from_states(
                lay, states[start : start + _CHUNK]
            )
            for column, part in zip(columns, read, strict=True):
                column[start : start + _CHUNK] = part
        if self.positions:  # one kind of row per dataset: these are all of them
            for k, column in enumerate(compact):
                column[...] = np.array([position[k] for position in self.positions])
        return Dataset(
            self.variant,
            *compact,
            actions=np.array(self.actions, dtype=np.int64),
            results=np.array(self.results, dtype=np.int8),
            plies=np.array(self.plies, dtype=np.int32),
            games=np.array(self.games, dtype=np.int32),
            perspective=self.perspective,
            skipped=self.skipped,
        )


def dataset(
    pdn_source: str | os.PathLike[str] | IO[str],
    *,
    variant: Variant | str | int | None = None,
    perspective: bool = True,
    max_games: int | None = None,
) -> Dataset:
    """The positions and moves of the main lines of the games of
    ``pdn_source`` (a path, compressed or not, see
    :func:`draughts.pdn.open_pdn`, or an open text handle), with each game's
    result (see the module's documentation). ``variant`` keeps the games of
    that variant (by default the first game's); ``max_games`` stops after
    that many games read.

    >>> import io
    >>> text = "1. 32-28 19-23 2. 28x19 14x23 0-2\\n\\n1. 31-27 2-0\\n\\n1. 31-26 *"
    >>> data = dataset(io.StringIO(text))
    >>> data.games.tolist(), data.results.tolist(), data.skipped
    ([0, 0, 0, 0, 1], [-1, 1, -1, 1, 1], 1)
    """
    wanted = None if variant is None else find_variant(variant)
    if isinstance(pdn_source, (str, os.PathLike)):
        columns = fast_columns(pdn_source, wanted, perspective, max_games)
        if columns is not None:
            return Dataset(
                columns.variant,
                *columns.positions,
                actions=columns.actions,
                results=columns.results,
                plies=columns.plies,
                games=columns.games,
                perspective=perspective,
                skipped=columns.skipped,
            )
    handle = open_pdn(pdn_source) if isinstance(pdn_source, (str, os.PathLike)) else pdn_source
    rows: _Rows | None = None
    skipped = number = 0
    try:
        while max_games is None or number < max_games:
            game = read_game(handle, variant=wanted, Visitor=lambda: GameRows(perspective))
            if game is None:
                break
            number += 1
            wanted, score = take(game, wanted)
            if score is None:
                skipped += 1
                continue
            assert wanted is not None
            if rows is None:
                rows = _Rows(wanted, perspective)
            rows.add_game(number - 1, game.rows, score)
    finally:
        if handle is not pdn_source:
            handle.close()
    if rows is None:
        rows = _Rows(wanted or find_variant("international"), perspective)
    rows.skipped = skipped
    return rows.dataset()


def selfplay_dataset(env: VectorEnv, *, steps: int, policy: Policy | None = None) -> Dataset:
    """Play ``steps`` steps in ``env`` (``policy`` as in :func:`~draughts.ml.play`,
    random by default) and keep the games that ended with a result; games
    still going at the end or truncated are left out (counted in
    ``skipped``). Games are numbered in the order they ended.

    The positions are read from the environment's observations, so they
    must be ``float32`` ones: a ``uint8`` environment's rounded rule planes
    would not give the rule counts back (a ``ValueError``).

    >>> data = selfplay_dataset(VectorEnv("english", 4, seed=2), steps=300)
    >>> bool(len(data) > 0), set(data.results.tolist()) <= {-1, 0, 1}
    (True, True)
    """
    if env.dtype != np.float32:
        raise ValueError(
            f"selfplay_dataset reads positions from float32 observations, not {env.dtype}: "
            "make the VectorEnv with dtype=np.float32 (the default)"
        )
    rows = _Rows(env.variant, env.perspective)
    lay = layout(env.variant)
    pending: list[list[Row]] = [[] for _ in range(env.num_envs)]
    game = 0
    for _ in range(steps):
        actions = np.asarray(
            env.sample() if policy is None else policy(env.observations, env.masks)
        ).astype(np.int64)
        # Read from the environment's own observations, not its boards,
        # which a native environment makes by replaying games.
        pieces, black, values, kings = _compact.from_observations(
            lay, env.observations, env.perspective
        )
        for i, action in enumerate(actions.tolist()):
            position = (pieces[i], bool(black[i]), values[i], kings[i])
            pending[i].append((position, action, not black[i]))
        env.step(actions)
        for i in np.flatnonzero(env.terminated | env.truncated).tolist():
            outcome = env.outcomes[i]
            if outcome is None:
                rows.skipped += 1
            else:
                score = 0 if outcome.winner is None else (1 if outcome.winner == WHITE else -1)
                rows.add_game(game, pending[i], score)
                game += 1
            pending[i] = []
    rows.skipped += sum(1 for p in pending if p)
    return rows.dataset()
