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


setup(
    ext_modules=[
        Extension(
            "draughts._core.native._native",
            sources=[
                f"{NATIVE}/{name}.c"
                for name in (
                    "movegen",
                    "convert",
                    "load",
                    "board_state",
                    "pdn_lines",
                    "pdn_split",
                    "pdn_check",
                    "node_maker",
                    "module",
                    "search",
                    "search_module",
                    "eval_patterns",
                    "ml_step",
                    "ml_env",
                )
            ],
            depends=[
                f"{NATIVE}/{name}.h"
                for name in (
                    "core",
                    "convert",
                    "pdn_lines",
                    "search",
                    "ml_step",
                    "eval_patterns",
                    "eval_patterns_load",
                )
            ],
            extra_compile_args=["-std=c11", "-O3"] if os.name != "nt" else [],
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
