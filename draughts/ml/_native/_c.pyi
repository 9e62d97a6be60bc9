"""Types of draughts.ml's C module (see ``module.c``); the methods are
declared with their parameters in :class:`draughts.ml._native.NativeVecEnv`."""

from typing import Any

from draughts._core.native._native import Core

class VecEnv:
    """The games of draughts.ml.VectorEnv stepped in C (see ml_step.c)."""

    def __init__(
        self,
        core: Core,
        num_envs: int,
        params: tuple[int, ...],
        cells: bytes,
        turned: bytes,
        rules: bytes,
        long_diagonal: int,
        start: tuple[Any, ...],
        /,
    ) -> None: ...
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
    ) -> int: ...
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
    ) -> None: ...
    def step_sampled(self, bits: Any = None, pcg64: bool = False, /) -> int: ...
    def reset(self, observations: Any, masks: Any, /) -> None: ...
    def sample(self, uniforms: Any, actions: Any, /) -> None: ...
    def history(self, game: int, final: bool, /) -> list[int] | None: ...
    def encode(self, boards: list[Any], out: Any, ctx: Any, /) -> int: ...
    def replay(
        self, data: bytes, spans: bytes, numbers: bytes, dash_captures: bool, threads: int, /
    ) -> tuple[bytes, bytes, bytes, bytearray, bytearray, bytearray, bytearray, bytearray]: ...
    def expand(self, rows: Any, out: Any, threads: int, /) -> None: ...
