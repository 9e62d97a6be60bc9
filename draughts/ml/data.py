"""Training data: game records and self-play as arrays, saved as ``.npz``.

A :class:`Dataset` has one row per position where a move was played:

- ``observations`` ``(rows, planes, height, width)`` ``float32``: the
  position (:func:`~draughts.ml.encode`, from the side to move's view unless
  ``perspective=False``);
- ``actions`` ``int64``: the index of the move played
  (:func:`~draughts.ml.move_to_index`, also from the side to move's view
  unless ``perspective=False``: Black's 11-15 and White's 22-18 in English
  draughts are one index);
- ``results`` ``int8``: how the game ended for the side to move: 1 won,
  -1 lost, 0 drawn;
- ``plies`` ``int32``: the position's ply in its game (0 at the start);
- ``games`` ``int32``: which game of the source the row comes from (from 0).

All rows are of one variant (``variant``, its name); a game record of
another variant, without a result, or with an error is left out and counted
in ``skipped``.

>>> import io
>>> text = '[GameType "21"]\\n[Result "1-0"]\\n1. 11-15 23-19 2. 8-11 22-17 1-0'
>>> data = dataset(io.StringIO(text))
>>> data.variant, data.observations.shape, data.actions.tolist()
('english', (4, 8, 8, 8), [689, 722, 789, 688])
>>> data.results.tolist(), data.plies.tolist()
([-1, 1, -1, 1], [0, 1, 2, 3])
"""

from __future__ import annotations

import os
from typing import IO

import attrs
import numpy as np
import numpy.typing as npt

from draughts.ml._records import GameRows, Row, fast_columns, take
from draughts.ml.encoding import Observation, State, layout
from draughts.ml.env import Policy, VectorEnv
from draughts.pdn import open_pdn, read_game
from draughts.piece import WHITE
from draughts.variant import Variant, find_variant

__all__ = ["Dataset", "dataset", "load", "selfplay_dataset"]


@attrs.frozen(eq=False)
class Dataset:
    """Positions, moves and results as arrays (see the module's documentation).

    >>> data = selfplay_dataset(VectorEnv("english", 2, seed=5), steps=150)
    >>> len(data) == len(data.actions) == len(data.observations), data.perspective
    (True, True)
    """

    variant: str
    observations: npt.NDArray[np.float32]
    actions: npt.NDArray[np.int64]
    results: npt.NDArray[np.int8]
    plies: npt.NDArray[np.int32]
    games: npt.NDArray[np.int32]
    perspective: bool = True
    skipped: int = 0
    """Games left out (another variant, no result, an error, unfinished)."""

    def __len__(self) -> int:
        return len(self.actions)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the arrays to a compressed ``.npz`` file (:func:`load` reads it).

        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "games.npz")
        >>> data = selfplay_dataset(VectorEnv("english", 2, seed=1), steps=200)
        >>> data.save(path)
        >>> len(load(path)) == len(data), load(path).variant
        (True, 'english')
        """
        np.savez_compressed(
            path,
            variant=np.array(self.variant),
            observations=self.observations,
            actions=self.actions,
            results=self.results,
            plies=self.plies,
            games=self.games,
            perspective=np.array(self.perspective),
            skipped=np.array(self.skipped),
        )


def load(path: str | os.PathLike[str]) -> Dataset:
    """The :class:`Dataset` :meth:`Dataset.save` wrote to ``path``.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "none.npz")
    >>> np.savez(path, x=np.zeros(1))
    >>> load(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: ...none.npz is not a draughts.ml dataset: ...

    :raises ValueError: if the file is not such a dataset.
    """
    with np.load(path, allow_pickle=False) as data:
        try:
            return Dataset(
                variant=str(data["variant"]),
                observations=data["observations"],
                actions=data["actions"],
                results=data["results"],
                plies=data["plies"],
                games=data["games"],
                perspective=bool(data["perspective"]),
                skipped=int(data["skipped"]),
            )
        except KeyError as error:
            raise ValueError(f"{os.fspath(path)} is not a draughts.ml dataset: {error}") from None


_CHUNK = 4096
"""Rows encoded at a time: big enough for NumPy's calls to cost little per
row, small enough to keep the temporaries small."""


class _Rows:
    """The rows of a dataset as they are collected, game by game."""

    def __init__(self, variant: Variant, perspective: bool) -> None:
        self.variant = variant
        self.perspective = perspective
        self.states: list[State] = []
        self.observed: list[Observation] = []  # self-play's rows come observed
        self.actions: list[int] = []
        self.results: list[int] = []
        self.plies: list[int] = []
        self.games: list[int] = []
        self.skipped = 0

    def add_game(self, game: int, rows: list[Row], white_score: int) -> None:
        for ply, (state, action, white_to_move) in enumerate(rows):
            if isinstance(state, np.ndarray):
                self.observed.append(state)
            else:
                self.states.append(state)
            self.actions.append(action)
            self.results.append(white_score if white_to_move else -white_score)
            self.plies.append(ply)
            self.games.append(game)

    def dataset(self) -> Dataset:
        lay = layout(self.variant)
        states = self.states
        observations = np.empty((len(states) + len(self.observed), *lay.shape), dtype=np.float32)
        for start in range(0, len(states), _CHUNK):
            lay.fill(states[start : start + _CHUNK], observations[start : start + _CHUNK])
        if self.observed:  # one kind of row per dataset: these are all of them
            observations[...] = self.observed
        return Dataset(
            variant=self.variant.name,
            observations=observations,
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
                variant=columns.variant.name,
                observations=columns.observations,
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

    >>> data = selfplay_dataset(VectorEnv("english", 4, seed=2), steps=300)
    >>> bool(len(data) > 0), set(data.results.tolist()) <= {-1, 0, 1}
    (True, True)
    """
    rows = _Rows(env.variant, env.perspective)
    pending: list[list[Row]] = [[] for _ in range(env.num_envs)]
    game = 0
    for _ in range(steps):
        actions = np.asarray(
            env.sample() if policy is None else policy(env.observations, env.masks)
        ).astype(np.int64)
        # The environment's own observations (plane 4: Black to move), not
        # its boards, which a native environment makes by replaying games.
        observed = env.observations.copy()
        black = observed[:, 4, 0, 0].tolist()
        for i, action in enumerate(actions.tolist()):
            pending[i].append((observed[i], action, not black[i]))
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
