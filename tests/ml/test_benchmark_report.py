"""benchmarks/ml.py's report over several rounds (``--repeat``): each row's
median and range, the ratios from the medians and the median of the
rounds' own ratios, read from rounds made up here (no process is run)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "ml.py"
INTERNATIONAL = "ours VectorEnv international (native, 2 threads, sample_step)"
PEER = "py-draughts international"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("benchmark_ml", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["benchmark_ml"] = module
    spec.loader.exec_module(module)
    return module


def rounds(ours: list[float], peer: list[float]) -> list[list[tuple[str, float, str, float]]]:
    return [[(INTERNATIONAL, a, "", a), (PEER, b, "", b)] for a, b in zip(ours, peer, strict=True)]


def report(bench: ModuleType, made: list[list[tuple[str, float, str, float]]]) -> list[str]:
    args = argparse.Namespace(threads=2, num_envs=256, seconds=1.0, pdn=Path("x.pdn"))
    lines: list[str] = []
    original = print
    try:
        bench.print = lambda *a, **k: lines.append(" ".join(str(x) for x in a))  # type: ignore[attr-defined]
        bench._report(made, args, [1.0, 2.0])
    finally:
        bench.print = original  # type: ignore[attr-defined]
    return lines


def test_rows_show_their_median_and_range(bench: ModuleType) -> None:
    lines = report(bench, rounds([4e6, 10e6, 8e6], [20_000, 40_000, 16_000]))
    row = next(line for line in lines if line.startswith(INTERNATIONAL))
    assert row.split()[-9:-5] == ["8,000,000", "4,000,000", "10,000,000", "2.50x"]
    assert "8,000,000 per CPU second (median)" in row


def test_ratios_from_the_medians_and_per_round(bench: ModuleType) -> None:
    # Medians 8e6 and 20,000: 400; the rounds' own ratios 200, 250, 500.
    lines = report(bench, rounds([4e6, 10e6, 8e6], [20_000, 40_000, 16_000]))
    ratio = next(line for line in lines if line.startswith(f"ratio {INTERNATIONAL} / {PEER}"))
    assert ratio.endswith(": 400.00 [250.00, 200.00 - 500.00]")
    target = next(line for line in lines if "/ py-draughts >= 1,000" in line)
    assert "400.0 (medians), missed (0.40 of it)" in target


def test_one_round_prints_as_before(bench: ModuleType) -> None:
    lines = report(bench, rounds([8e6], [20_000]))
    assert lines[0].split()[:3] == ["row", "per", "second"]
    ratio = next(line for line in lines if line.startswith(f"ratio {INTERNATIONAL} / {PEER}"))
    assert ratio.endswith(": 400.00")  # no rounds' ratios
