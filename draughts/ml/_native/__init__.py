"""draughts.ml's native module: ``draughts.ml._native._c``, a C11 module of
its own (the files beside this one), so that the native core,
:mod:`draughts._core.native`, is the move generator and the board state only.

It holds one type, :data:`VecEnv`: the games of
:class:`~draughts.ml.VectorEnv` stepped in C with no Python per game, the C
reading of boards for :func:`~draughts.ml.encode_batch`, and game records
replayed for :func:`~draughts.ml.dataset`. The pure Python of
:mod:`draughts.ml` stays the definition and is the oracle in the tests.

The module reaches the move generator through the native core's C API (a
capsule, ``draughts/_core/native/core_api.h``), so it runs exactly when the
native core does: :data:`VecEnv` is None when :data:`draughts._core.BACKEND`
is ``"pure"`` (the core not built, or ``DRAUGHTS_PURE=1``) or when the module
was not built. :class:`NativeVecEnv` declares its methods with their
parameters; the tests hold the module to it.

>>> from draughts import _core
>>> (VecEnv is None) == (_core.BACKEND == "pure")
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from draughts import _core

if TYPE_CHECKING:
    from draughts.ml._native._c import VecEnv as _VecEnv


class NativeVecEnv(Protocol):
    """What a ``draughts.ml._native._c.VecEnv`` offers, with each method's
    parameters (all by position only). Its constructor, which takes the
    tables :func:`draughts.ml._native_env.native_games` makes, is declared in
    the module's stub file."""

    def step(
        self,
        actions: Any,
        observations: Any,
        masks: Any,
        rewards: Any,
        terminated: Any,
        truncated: Any,
        final_observations: Any,
        codes: Any,
        winners: Any,
        uniforms: Any = None,
        /,
    ) -> int:
        """Every game plays its action: -1, or the first game whose action is
        illegal (the games before it have moved). With ``uniforms``, the
        actions they pick (as :meth:`sample`) are written into ``actions``
        and played, in the same call."""

    def bind(
        self,
        actions: Any,
        observations: Any,
        masks: Any,
        rewards: Any,
        terminated: Any,
        truncated: Any,
        final_observations: Any,
        codes: Any,
        winners: Any,
        uniforms: Any,
        /,
    ) -> None:
        """Keep :meth:`step`'s arrays, ``uniforms`` included (their buffers
        held until the next ``bind`` or the end), for :meth:`step_sampled`."""

    def step_sampled(self, bits: Any = None, pcg64: bool = False, /) -> int:
        """:meth:`step` on the arrays :meth:`bind` keeps, with its uniforms
        (drawn first from ``bits``, a NumPy bit generator's ``capsule``, as
        ``Generator.random`` draws them, where given; on the stepping
        threads where ``pcg64``, ``bits`` being a ``numpy.random.PCG64``'s):
        -1 (sampled actions are legal)."""

    def reset(self, observations: Any, masks: Any, /) -> None:
        """Every game from the start again."""

    def sample(self, uniforms: Any, actions: Any, /) -> None:
        """The legal action each uniform in [0, 1) picks, per game."""

    def encode(self, boards: Any, out: Any, ctx: Any, /) -> int:
        """Observations of boards into out: -1, or the first board of
        another context than ctx."""

    def replay(
        self,
        data: bytes,
        spans: bytes,
        numbers: bytes,
        dash_captures: bool,
        threads: int,
        /,
    ) -> tuple[bytes, bytes, bytes, bytearray, bytearray, bytearray, bytearray, bytearray]:
        """Game records' positions and actions (see ``ml_dataset.c``): per
        game its status, result and plies, then the rows' compact positions
        (pieces, Black to move, rule values, king moves) and actions."""

    def expand(self, rows: Any, out: Any, threads: int, /) -> None:
        """The observations of compact positions (a tuple of
        :class:`~draughts.ml.Dataset`'s four position arrays) into out."""

    def history(self, game: int, final: bool, /) -> list[int] | None:
        """The actions of a game (final: of its last ended game, None where
        none has ended since the reset)."""


_loaded: Any = None
if _core.BACKEND == "native":
    try:
        from draughts.ml._native import _c as _loaded
    except ImportError:  # not built, or built against another core
        _loaded = None

if TYPE_CHECKING:
    # mypy holds the type to the protocol (the tests hold its parameters to
    # it at run time: tests/ml/test_ml_native_module.py).
    def _checked(env: _VecEnv) -> NativeVecEnv:
        return env


BUILT = _loaded is not None
"""Whether draughts.ml's native module runs (with the native core)."""
VecEnv: type[_VecEnv] | None = _loaded and _loaded.VecEnv
"""The C games of :class:`~draughts.ml.VectorEnv`; None where the module
does not run."""

__all__ = ["BUILT", "NativeVecEnv", "VecEnv"]
