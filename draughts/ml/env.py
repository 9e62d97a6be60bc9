"""Many games at once: :class:`VectorEnv`, random self-play and :func:`play`.

A :class:`VectorEnv` holds ``num_envs`` games of one variant and steps them
all with one array of action indices (see :mod:`draughts.ml.actions`). Its
arrays are made once and filled in place on every :meth:`~VectorEnv.step`
(a step in C rewrites only what changed: read or copy them, do not write
into them):

- ``observations`` ``(num_envs, planes, height, width)`` ``float32``: each
  game's position to move from (:func:`~draughts.ml.encode`, by default from
  the side to move's view); with ``dtype=np.uint8``, bytes: each value
  times 255, rounded (a quarter of the memory to write and to read);
- ``masks`` ``(num_envs, action_space_size)`` ``bool``: its legal moves
  (their indices as the side to move sees them, like the observations: see
  :func:`~draughts.ml.legal_indices`);
- ``rewards`` ``float32``: +1 to the side that just moved if its move won
  the game, -1 if it lost it (antidraughts), else 0;
- ``terminated``: the move ended the game, as :meth:`Board.outcome
  <draughts.Board.outcome>` decides (the variant's automatic draw rules
  included; claimable draws are taken only with ``claim_draw=True``);
- ``truncated``: the game reached ``max_plies`` without an end.

A game that ends starts again at once: the arrays then show the new game's
first position, ``final_observations`` the last position of the game that
ended and ``outcomes`` its :class:`~draughts.Outcome`.

>>> import draughts.ml
>>> env = draughts.ml.VectorEnv("english", 4, seed=1)
>>> obs, masks = env.reset()
>>> obs.shape, masks.shape, int(masks.sum())
((4, 8, 8, 8), (4, 2048), 28)
>>> obs, masks, rewards, terminated, truncated = env.step(env.sample())
>>> [board.ply() for board in env.boards]
[1, 1, 1, 1]

Where the native core is built, the games are stepped in C, all of them in
one call with no Python per game (the GIL released meanwhile): the moves,
the ends (the same as :meth:`Board.outcome <draughts.Board.outcome>`'s, draw
rules and, with ``claim_draw=True``, claims included), the observations and
the masks. :attr:`~VectorEnv.boards`
and :attr:`~VectorEnv.final_boards` are then made on demand, by replaying
the game's actions on a :class:`~draughts.Board`. With the pure core, or
with ``native=False``, every game is a
:class:`~draughts.Board` stepped in Python: about as fast as a Python loop
over the games (this path is the oracle the native one is tested against).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, Literal

import attrs
import numpy as np
import numpy.typing as npt

from draughts import _core
from draughts.board import Board
from draughts.errors import IllegalMoveError
from draughts.ml._native_env import native_games, outcome_of
from draughts.ml.actions import action_space_size, index_to_move, indexed, turned_squares
from draughts.ml.encoding import layout
from draughts.move import Move
from draughts.outcome import Outcome
from draughts.piece import Color
from draughts.variant import INTERNATIONAL, Variant, find_variant

__all__ = ["PlayStats", "VectorEnv", "play"]

Actions = npt.NDArray[np.int64]
Observations = npt.NDArray[Any]
"""A :class:`VectorEnv`'s observations: ``float32`` (an
observation of :func:`~draughts.ml.encode` per game), or ``uint8``."""
Policy = Callable[[Observations, npt.NDArray[np.bool_]], npt.ArrayLike]
StepResult = tuple[
    Observations,
    npt.NDArray[np.bool_],
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
]
"""What :meth:`VectorEnv.step` returns: observations, masks, rewards,
terminated and truncated flags."""


_GAMES_PER_THREAD = 512
"""The games a default thread steps: below it, waking a second thread costs
more than it saves (International random self-play on this project's 2-core
machine, steps/s with 1 and 2 threads: 2.37 M and 1.99 M at 256 games,
1.98 M and 2.69 M at 1,024, 1.45 M and 2.82 M at 4,096)."""


class VectorEnv:
    """``num_envs`` games of ``variant`` stepped together (see the module's
    documentation).

    ``seed`` seeds :meth:`sample`'s random numbers; ``fen`` starts every game
    from another position; ``perspective`` (the default) shows the observations and numbers the
    actions as the side to move sees them (:func:`~draughts.ml.encode`,
    :func:`~draughts.ml.legal_indices`);
    ``max_plies`` truncates longer games; ``claim_draw`` ends a game as soon
    as the side to move could claim a draw. An illegal action raises, or with
    ``illegal="lose"`` forfeits the game (an outcome by resignation: the
    convention of Gymnasium's and PettingZoo's board games). ``native``
    chooses how the games are stepped: None (the default) in C where the
    native core is built, True in C or not at all,
    False in Python on :class:`~draughts.Board` objects. ``threads`` (at
    most 16; by default one for every 512 games, up to the machine's
    processors, ``os.cpu_count()``) steps the native games on that many
    threads, a slice of at least 32 games each, while other Python threads
    run: the results do not depend on it. ``dtype`` is the observations'
    type: ``np.float32`` (the default, :func:`~draughts.ml.encode`'s values)
    or ``np.uint8`` (each value times 255, rounded half up: 0 and 255 for
    the planes of pieces, squares and the side to move): a quarter of the
    bytes to write and read, which counts where the observations do not fit
    in the processor's caches (4,096 International games on one thread: 1.9
    M steps per CPU second against 1.3 M, at a load average of 7.5).

    >>> env = VectorEnv("international", 2, seed=0)
    >>> env.observations.shape, env.masks.shape
    ((2, 10, 10, 10), (2, 5000))
    >>> env.native == (_core.BACKEND == "native")
    True
    >>> small = VectorEnv("international", 2, seed=0, dtype=np.uint8)
    >>> bool((small.observations == np.floor(env.observations * 255.0 + 0.5)).all())
    True

    :raises ValueError: for ``num_envs`` below 1, ``max_plies`` below 1,
        ``threads`` outside 1 to 16, a
        start position where the game is already over, or ``perspective``
        on a board that turning does not map onto itself (dark squares and
        an odd height), or a ``dtype`` other than ``float32`` and ``uint8``.
        ``native=True`` where the games cannot be stepped in C.
    :raises InvalidFenError: for a bad ``fen``.
    """

    def __init__(
        self,
        variant: Variant | str | int = INTERNATIONAL,
        num_envs: int = 1,
        *,
        seed: int | None = None,
        fen: str | None = None,
        perspective: bool = True,
        max_plies: int | None = None,
        claim_draw: bool = False,
        illegal: Literal["raise", "lose"] = "raise",
        native: bool | None = None,
        threads: int | None = None,
        dtype: npt.DTypeLike = np.float32,
    ) -> None:
        # Long only because it checks each argument in turn, each with its own
        # message, before the games are made.
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        if threads is None:
            # A thread for every _GAMES_PER_THREAD games, up to the processors.
            threads = max(1, min(os.cpu_count() or 1, 16, num_envs // _GAMES_PER_THREAD))
        if not 1 <= threads <= 16:
            raise ValueError(f"threads must be 1 to 16, not {threads}")
        if max_plies is not None and max_plies < 1:
            raise ValueError(f"max_plies must be at least 1, not {max_plies}")
        self.dtype = np.dtype(dtype)
        if self.dtype not in (np.float32, np.uint8):
            raise ValueError(f"dtype must be float32 or uint8, not {self.dtype}")
        self.variant = find_variant(variant)
        if perspective and turned_squares(self.variant) is None:
            raise ValueError(
                f"the {self.variant.name} board does not map onto itself turned half a turn: "
                "make the environment with perspective=False"
            )
        self.num_envs = num_envs
        self.fen = fen
        self.perspective = perspective
        self.max_plies = max_plies
        self.claim_draw = claim_draw
        self.illegal = illegal
        self._layout = layout(self.variant)
        self.action_space_size = action_space_size(self.variant)
        self.observation_shape = self._layout.shape
        shape = (num_envs, *self._layout.shape)
        self.observations: Observations = np.zeros(shape, dtype=self.dtype)
        self.final_observations: Observations = np.zeros(shape, dtype=self.dtype)
        self.masks = np.zeros((num_envs, self.action_space_size), dtype=np.bool_)
        self.rewards = np.zeros(num_envs, dtype=np.float32)
        self.terminated = np.zeros(num_envs, dtype=np.bool_)
        self.truncated = np.zeros(num_envs, dtype=np.bool_)
        self._outcomes: list[Outcome | None] = [None] * num_envs
        self._final_boards: list[Board | None] = [None] * num_envs
        start = Board(fen, variant=self.variant)
        over = start.outcome(claim_draw=claim_draw)
        if over is not None:
            raise ValueError(
                f"the start position {start.fen()} ({self.variant.name}) is already "
                f"over: {over.termination.value}"
            )
        self.rng = np.random.default_rng(seed)
        # The native games' end codes and winners (see _native_env).
        self._codes = np.zeros(num_envs, dtype=np.int8)
        self._winners = np.full(num_envs, -1, dtype=np.int8)
        self._native = None
        if native is not False:
            self._native = native_games(
                self.variant,
                num_envs,
                start,
                self._layout,
                perspective=perspective,
                max_plies=max_plies,
                lose=illegal == "lose",
                threads=threads,
                claim=claim_draw,
                u8=self.dtype == np.uint8,
            )
        if native and self._native is None:
            raise ValueError(
                f"the {self.variant.name} games cannot be stepped in C here (core: {_core.BACKEND})"
            )
        self._boards: list[Board] = []
        self._moves: list[dict[int, Move]] = []
        if self._native is not None:
            self._native_arrays = (
                self.observations,
                self.masks,
                self.rewards,
                self.terminated,
                self.truncated,
                self.final_observations,
                self._codes,
                self._winners,
            )
            # sample_step()'s actions and random numbers
            self._sampled = np.empty(num_envs, dtype=np.int64)
            self._uniforms = np.empty(num_envs, dtype=np.float64)
            self._native.reset(self.observations, self.masks)
            # Their buffers acquired once, not at every sample_step().
            self._native.bind(self._sampled, *self._native_arrays, self._uniforms)
            return
        self._boards = [start.copy() for _ in range(num_envs)]
        self._moves = [{} for _ in range(num_envs)]
        for i in range(num_envs):
            self._refresh(i)
        self._observe()

    @property
    def native(self) -> bool:
        """Whether the games are stepped in C (see the class documentation)."""
        return self._native is not None

    @property
    def boards(self) -> list[Board]:
        """Each game's board as it stands, with its moves (made by replaying
        the game's actions where the games run in C)."""
        if self._native is None:
            return self._boards
        return [self.board(i) for i in range(self.num_envs)]

    @property
    def final_boards(self) -> list[Board | None]:
        """The board of the last game each game ended (or truncated), with
        its moves: what to record or turn into training data (None where no
        game has ended since the reset)."""
        if self._native is None:
            return self._final_boards
        return [self.final_board(i) for i in range(self.num_envs)]

    @property
    def outcomes(self) -> list[Outcome | None]:
        """The outcome of the game each game ended at the last step (None
        where it goes on, or was truncated)."""
        if self._native is None:
            return self._outcomes
        return [
            outcome_of(self.variant, code, winner)
            for code, winner in zip(self._codes.tolist(), self._winners.tolist(), strict=True)
        ]

    def board(self, i: int) -> Board:
        """Game ``i``'s board (one item of :attr:`boards`, without making
        the others).

        >>> env = VectorEnv("english", 2, seed=0)
        >>> _ = env.step(env.sample())
        >>> env.board(1).ply()
        1
        """
        if self._native is None:
            return self._boards[i]
        actions = self._native.history(i, False)
        assert actions is not None  # a game always goes on
        return self._replay(actions)

    def final_board(self, i: int) -> Board | None:
        """The board of the last game game ``i`` ended (one item of
        :attr:`final_boards`, without making the others).

        >>> VectorEnv("english", 2, seed=0).final_board(0) is None
        True
        """
        if self._native is None:
            return self._final_boards[i]
        actions = self._native.history(i, True)  # None: no game ended since the reset
        return None if actions is None else self._replay(actions)

    def _replay(self, actions: list[int]) -> Board:
        board = Board(self.fen, variant=self.variant)
        for action in actions:
            board.push(index_to_move(board, action, perspective=self.perspective))
        return board

    def reset(self, *, seed: int | None = None) -> tuple[Observations, npt.NDArray[np.bool_]]:
        """Start every game again; with ``seed``, reseed :meth:`sample`.
        Returns the observations and the masks.

        :raises ValueError: if a start position has more moves between two
            squares than the action index has slots.
        """
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        if self._native is not None:
            self._native.reset(self.observations, self.masks)
        else:
            for i in range(self.num_envs):
                self._boards[i] = Board(self.fen, variant=self.variant)
                self._refresh(i)
            self._observe()
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self.truncated[:] = False
        self._codes[:] = 0
        self._outcomes = [None] * self.num_envs
        self._final_boards = [None] * self.num_envs
        return self.observations, self.masks

    def _viewer(self, board: Board) -> Color | None:
        return board.turn if self.perspective else None

    def _encode(self, boards: list[Board], out: Observations) -> None:
        """The observations of ``boards`` into ``out`` (of ``dtype``)."""
        lay = self._layout
        states = [lay.state(b, self._viewer(b)) for b in boards]
        if self.dtype == np.float32:
            lay.fill(states, out)
            return
        planes = np.empty(out.shape, dtype=np.float32)
        lay.fill(states, planes)
        # As the C side rounds: the float's exact product with 255 plus one half.
        out[...] = np.floor(planes.astype(np.float64) * 255.0 + 0.5)

    def _observe(self) -> None:
        """Fill every game's observation and mask from its board."""
        self._encode(self._boards, self.observations)
        # One pass over the whole mask array and one scatter: 130 us for 64
        # International games against 640 us for a clear and a scatter per
        # game (timeit, 10 moves a game, 2026-12-04), about 8 us a step.
        rows: list[int] = []
        cols: list[int] = []
        for i, moves in enumerate(self._moves):
            rows += [i] * len(moves)
            cols += moves
        self.masks[...] = False
        self.masks[rows, cols] = True

    def _refresh(self, i: int) -> None:
        """Index game ``i``'s legal moves (:meth:`_observe` marks them)."""
        moves, indices = indexed(self.boards[i], self.perspective)
        # Sorted by index: sample() picks among the indices in this order,
        # as the native games do.
        self._moves[i] = dict(sorted(zip(indices, moves, strict=True)))

    def step(self, actions: npt.ArrayLike) -> StepResult:
        """Play one move in every game: ``actions[i]`` is game ``i``'s
        action index. Returns ``observations, masks, rewards, terminated,
        truncated`` (the environment's own arrays, filled in place).

        :raises IllegalMoveError: if an action is not legal in its game
            (the games before it in the batch have moved) and ``illegal``
            is ``"raise"``.
        :raises ValueError: if ``actions`` does not hold one integer per game.
        """
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be {self.num_envs} integers, not {acts.dtype} {acts.shape}"
            )
        if self._native is not None:
            self._step_native(acts)
            return self.observations, self.masks, self.rewards, self.terminated, self.truncated
        ended: list[int] = []
        try:
            for i, action in enumerate(acts.tolist()):
                if self._step_one(i, action):
                    ended.append(i)
        finally:  # an illegal action stops the batch: the games played so far show
            if ended:
                final = np.empty((len(ended), *self._layout.shape), dtype=self.dtype)
                boards = [self._final_boards[i] for i in ended]
                self._encode([b for b in boards if b is not None], final)
                self.final_observations[ended] = final
            self._observe()
        return self.observations, self.masks, self.rewards, self.terminated, self.truncated

    def _step_native(self, actions: Actions) -> None:
        """Step every game in C (see the module's documentation)."""
        assert self._native is not None
        if actions.dtype != np.int64 or not actions.flags.c_contiguous:
            actions = np.ascontiguousarray(actions, dtype=np.int64)
        # The other arrays in one tuple, made once: the Python around a step
        # took 4.5 us of the 7.0 us a step and a sample of one game cost
        # before, 2.4 us after (timeit, 2026-12-05).
        illegal = self._native.step(actions, *self._native_arrays)
        if illegal >= 0:
            # The games before it have moved; it and those after have not
            # (their arrays and outcomes still show the step before).
            board = self.board(illegal)
            raise IllegalMoveError(
                f"game {illegal}: action {int(actions[illegal])} is not a legal move in "
                f"{board.fen()}"
            )

    def _step_one(self, i: int, action: int) -> bool:
        """Play ``action`` in game ``i``; whether the game ended (and started again)."""
        board = self._boards[i]
        mover = board.turn
        move = self._moves[i].get(action)
        if move is not None:
            board.push(move)
            outcome = board.outcome(claim_draw=self.claim_draw)
        elif self.illegal == "lose":
            outcome = board.outcome_on_resignation(mover)
        else:
            raise IllegalMoveError(
                f"game {i}: action {action} is not a legal move in {board.fen()}"
            )
        reward = 0.0
        if outcome is not None and outcome.winner is not None:
            reward = 1.0 if outcome.winner == mover else -1.0
        self.rewards[i] = reward
        self.terminated[i] = ended = outcome is not None
        self.truncated[i] = cut = (
            not ended and self.max_plies is not None and board.ply() >= self.max_plies
        )
        self._outcomes[i] = outcome
        if ended or cut:
            self._final_boards[i] = board
            self._boards[i] = Board(self.fen, variant=self.variant)
        self._refresh(i)
        return ended or cut

    def sample_step(
        self,
    ) -> StepResult:
        """Random self-play: :meth:`step` with :meth:`sample`'s actions, the
        same random numbers and the same results, in one call. In C, each
        thread picks its games' actions as it steps them, with no pass over
        all the games on the caller's thread before the threads start (the
        part of a step two threads cannot share); a call on one game took
        1.5 us against 2.7 to 3.9 us for ``step(sample())`` (timeit,
        International, 2026-12-05, load average 3.5).

        >>> env, twin = VectorEnv("english", 4, seed=2), VectorEnv("english", 4, seed=2)
        >>> obs = env.sample_step()[0]
        >>> bool((obs == twin.step(twin.sample())[0]).all())
        True
        """
        if self._native is None:
            return self.step(self.sample())
        # The same numbers as sample()'s, drawn in C into the array bind()
        # keeps, under the generator's lock as Generator.random draws them.
        bits = self.rng.bit_generator
        with bits.lock:
            # NumPy's PCG64 exactly (no subclass): its numbers drawn on the
            # stepping threads, each from its own place in the stream.
            self._native.step_sampled(bits.capsule, type(bits) is np.random.PCG64)
        return self.observations, self.masks, self.rewards, self.terminated, self.truncated

    def sample(self) -> Actions:
        """A legal action for every game, uniformly at random.

        >>> env = VectorEnv("english", 3, seed=7)
        >>> bool(env.masks[np.arange(3), env.sample()].all())
        True
        """
        # One draw of num_envs uniforms, not one generator call per game:
        # 1.2 us a game instead of 7.4 (64 International games, 2026-12-04).
        uniforms = self.rng.random(self.num_envs)
        actions = np.empty(self.num_envs, dtype=np.int64)
        if self._native is not None:
            self._native.sample(uniforms, actions)
            return actions
        picks = uniforms.tolist()
        for i, moves in enumerate(self._moves):
            keys = list(moves)
            actions[i] = keys[int(picks[i] * len(keys))]
        return actions


@attrs.frozen
class PlayStats:
    """What :func:`play` saw: moves played and how the games that ended did.

    >>> PlayStats(steps=100, games=2, white_wins=1, black_wins=0, draws=1, truncated=0).games
    2
    """

    steps: int
    """Moves played, over all games."""
    games: int
    """Games that ended (terminated or truncated)."""
    white_wins: int
    black_wins: int
    draws: int
    """Games terminated without a winner."""
    truncated: int
    """Games cut at ``max_plies``."""


def play(env: VectorEnv, policy: Policy | None = None, *, steps: int) -> PlayStats:
    """Step ``env`` ``steps`` times with ``policy(observations, masks)``, which
    returns an action per game (None: :meth:`VectorEnv.sample`, random
    self-play), and count the games that ended.

    >>> env = VectorEnv("english", 8, seed=3)
    >>> stats = play(env, steps=400)
    >>> stats.steps, stats.games == stats.white_wins + stats.black_wins + stats.draws
    (3200, True)
    >>> greedy = lambda obs, masks: masks.argmax(axis=1)  # the lowest legal index
    >>> play(env, greedy, steps=10).steps
    80
    """
    games = white = black = draws = cut = 0
    for _ in range(steps):
        if policy is None:
            env.sample_step()
        else:
            env.step(policy(env.observations, env.masks))
        for i in np.flatnonzero(env.terminated | env.truncated).tolist():
            games += 1
            outcome = env.outcomes[i]
            if outcome is None:
                cut += 1
            elif outcome.winner is None:
                draws += 1
            elif int(outcome.winner) == 0:
                white += 1
            else:
                black += 1
    return PlayStats(steps * env.num_envs, games, white, black, draws, cut)
