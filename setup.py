"""Build of the optional native core (a C11 extension).

Everything else about the package is in ``pyproject.toml``. Where no C
compiler works (``CC=false pip install .``), the build prints one warning
line and the package installs without the extension: the library then runs
its pure-Python generator. ``DRAUGHTS_REQUIRE_NATIVE=1`` turns that into an
error, for builds that must have it (CI's wheel). ``CFLAGS`` and ``LDFLAGS``
are honoured as usual (CI's sanitizer build sets them).
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

NATIVE = "draughts/_core/native"
PDN_NATIVE = "draughts/pdn/_native"
ENGINE_NATIVE = "draughts/engine/_native"
ML_NATIVE = "draughts/ml/_native"


class OptionalBuildExt(build_ext):
    """build_ext that leaves the native core out, with one line, on failure."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler at all: setuptools raises several kinds
            self._skip(error)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            self._skip(error)

    def _skip(self, error: Exception) -> None:
        if os.environ.get("DRAUGHTS_REQUIRE_NATIVE") == "1":
            raise error
        compiler = getattr(self.compiler, "compiler_so", None) or ["the C compiler"]
        reason = f"{compiler[0]} failed: {type(error).__name__}"
        if getattr(self.compiler, "compiler_type", "") == "msvc":
            # core.h stops the build with #error: a bitboard is an unsigned
            # __int128, which MSVC does not have (clang-cl does).
            reason = "MSVC has no unsigned __int128, which the native core's bitboards need"
        sys.stderr.write(
            f"warning: draughts: native core not built ({reason}); the pure-Python core runs\n"
        )


# The core: the move generator and the board state.
CORE_SOURCES = (
    "movegen",
    "steps",
    "convert",
    "load",
    "board_state",
    "module",
)
# The PDN reader's hot spots, a module of their own that reaches the core
# through its C API (a capsule: core_api.h; see docs/architecture.rst). A
# file moved here is one more name in this list.
PDN_SOURCES = (
    "pdn_lines",
    "pdn_split",
    "node_maker",
    "play_line",
    "pdn_check",
    "pdn_movetext",
    "pdn_tags",
    "pdn_trace",
    "module",
)
# draughts.engine._native: the built-in engine's search, a module of its own
# that reaches the core's move generator through its C API (core_api.h).
ENGINE_SOURCES = ("search", "search_smp", "evaluate", "search_module", "eval_patterns", "module")
# draughts.ml._native: VectorEnv's games, a module of their own that reaches
# the move generator through the core's C API too (not compiled in again):
# the indirect calls cost nothing measurable. International random
# self-play, 256 games, one thread, VecEnv.step and .sample: 3,374.8 C
# instructions a step with the generator in the same module, 3,376.1 through
# the capsule (valgrind --tool=callgrind, deterministic), and 1.86 M against
# 1.99 M steps per CPU second, interleaved runs at load average 6
# (2026-12-05).
ML_SOURCES = (
    "ml_step",
    "ml_pool",
    "ml_random",
    "ml_env",
    "ml_dataset",
    "module",
)
FLAGS = ["-std=c11", "-O3"] if os.name != "nt" else []


def beside_the_core(
    name: str, folder: str, sources: tuple[str, ...], headers: tuple[str, ...]
) -> Extension:
    """A native module of its own that reaches the core through its C API
    (core_api.h, with the core's types on its include path)."""
    return Extension(
        name,
        sources=[f"{folder}/{source}.c" for source in sources],
        include_dirs=[NATIVE],
        depends=[f"{folder}/{header}.h" for header in headers]
        + [
            f"{NATIVE}/{header}.h"
            for header in ("core_api", "core", "convert", "play", "capture_test", "step_count")
        ],
        extra_compile_args=FLAGS,
    )


setup(
    ext_modules=[
        Extension(
            "draughts._core.native._native",
            sources=[f"{NATIVE}/{name}.c" for name in CORE_SOURCES],
            depends=[
                f"{NATIVE}/{name}.h"
                for name in (
                    "core",
                    "convert",
                    "core_api",
                    "perft",
                    "route_tables",
                    "first_jumps",
                    "capture_test",
                    "step_count",
                    "play",
                )
            ],
            extra_compile_args=FLAGS,
        ),
        beside_the_core(
            "draughts.pdn._native._c",
            PDN_NATIVE,
            PDN_SOURCES,
            ("pdn_native", "pdn_lines", "pdn_trace", "pdn_movetext"),
        ),
        beside_the_core(
            "draughts.engine._native._c",
            ENGINE_NATIVE,
            ENGINE_SOURCES,
            (
                "search",
                "search_table",
                "search_quiesce",
                "search_staged",
                "eval_patterns",
                "eval_patterns_load",
            ),
        ),
        beside_the_core(
            "draughts.ml._native._c", ML_NATIVE, ML_SOURCES, ("ml_step", "ml_planes", "ml_moves")
        ),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
