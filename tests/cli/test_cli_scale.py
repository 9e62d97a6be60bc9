"""``validate`` on large inputs: ``--jobs N`` prints exactly what ``--jobs 1``
prints; compressed files; ``-`` for standard input."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from draughts._cli import main
from tests.conftest import SHARED_ABSENT
from tests.conftest import SHARED_PDN as CORPUS

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "pdn"
EXAMPLES = ROOT / "examples"
LOCAL = sorted(DATA.glob("*.p?n")) + sorted(EXAMPLES.glob("*.pdn"))


def validate(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    """``python -m draughts validate ARGS`` in a new process (the pool's
    workers are forked from it, never from the test process)."""
    done = subprocess.run(
        [sys.executable, "-m", "draughts", "validate", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        input=stdin,
        capture_output=True,
        check=False,
    )
    return done.returncode, done.stdout.decode(), done.stderr.decode()


@pytest.fixture
def validate_here(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """``draughts validate ARGS`` run in this process, for the runs with no
    worker processes (``--jobs 1``) on files: the same code as in a new
    process, less its start-up (about 0.3 s of CPU time each). Standard
    input is read in a new process, whose ``sys.stdin`` is the real one."""

    def run(*args: str) -> tuple[int, str, str]:
        assert "--jobs" in args and args[args.index("--jobs") + 1] == "1"
        capsys.readouterr()
        code = main(["validate", *args])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def corpus(*relative: str) -> list[str]:
    if not CORPUS.is_dir():
        pytest.skip(SHARED_ABSENT)
    return [str(CORPUS / r) for r in relative]


@pytest.mark.parametrize(
    "options",
    [
        [],
        # Nine validate runs with worker processes: the default run has three.
        pytest.param(["--strict"], marks=pytest.mark.slow),
        pytest.param(["--json"], marks=pytest.mark.slow),
        pytest.param(["--variant", "english"], marks=pytest.mark.slow),
    ],
)
def test_jobs_print_what_one_job_prints(
    options: list[str], validate_here: Callable[..., tuple[int, str, str]]
) -> None:
    files = [str(p) for p in LOCAL]
    one = validate_here(*options, "--jobs", "1", *files)
    assert one[0] == 1 and one[1].count("\n") > 10  # the local files have errors
    # Every game its own piece, in two workers; and the default pieces
    # (the files are small: read in the main process).
    assert validate(*options, "--jobs", "2", "--chunk-size", "1", *files) == one
    assert validate(*options, "--jobs", "2", *files) == one


@pytest.mark.parametrize(
    ("variant", "files"),
    [
        pytest.param(
            "english",
            ["english/tinsley.pdn", "english/11_man_english.pdn"],
            marks=pytest.mark.slow,  # 1,100 games
        ),
        pytest.param(
            "russian",
            ["russian/abatsiev.pdn", "russian/World_Championship_1998.pdn"],
            marks=pytest.mark.slow,  # 700 games
        ),
        pytest.param(
            "international",
            ["international/wk2003.pdn", "pdn3-conformance/fail/abatsiev.pdn"],
            marks=pytest.mark.slow,  # 240 games
        ),
    ],
)
def test_jobs_on_corpus_files(variant: str, files: list[str]) -> None:
    paths = corpus(*files)
    for options in (["--variant", variant], ["--variant", variant, "--strict"]):
        one = validate(*options, "--jobs", "1", *paths)
        assert "games with errors" in one[1]
        assert validate(*options, "--jobs", "2", "--chunk-size", "20000", *paths) == one


def test_standard_input(tmp_path: Path, validate_here: Callable[..., tuple[int, str, str]]) -> None:
    path = DATA / "prof2.pdn"
    code, out, err = validate_here("--jobs", "1", str(path))
    expected = out.replace(f"{path}:", "-:")
    assert code == 1 and err == "" and expected.startswith("-:73:1: unexpected '9n'")
    data = path.read_bytes()
    assert validate("--jobs", "1", "-", stdin=data) == (1, expected, "")
    assert validate("--jobs", "2", "--chunk-size", "1", "-", stdin=data) == (1, expected, "")
    assert validate("-", stdin=gzip.compress(data)) == (1, expected, "")
    # Strict mode reads the input twice: standard input is kept meanwhile.
    code, strict, _ = validate_here("--strict", "--jobs", "1", str(path))
    for jobs in ("1", "2"):
        got = validate("--strict", "--jobs", jobs, "--chunk-size", "1", "-", stdin=data)
        assert got == (code, strict.replace(f"{path}:", "-:"), "")
    assert not list(Path(tmp_path).glob("draughts-stdin-*"))


def test_compressed_files(
    tmp_path: Path, validate_here: Callable[..., tuple[int, str, str]]
) -> None:
    path = DATA / "babasy4.pdn"
    packed = tmp_path / "babasy4.pdn.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    plain = validate_here("--jobs", "1", str(path))
    for run, jobs in ((validate_here, "1"), (validate, "2")):
        code, out, _ = run("--jobs", jobs, "--chunk-size", "1", str(packed))
        assert (code, out) == (plain[0], plain[1].replace(str(path), str(packed)))


def test_unreadable_files_stop_with_code_2(
    tmp_path: Path, validate_here: Callable[..., tuple[int, str, str]]
) -> None:
    missing = str(tmp_path / "none.pdn")
    one = validate_here("--jobs", "1", str(LOCAL[0]), missing)
    assert one[0] == 2 and one[1] == "" and f"draughts validate: {missing}: " in one[2]
    assert validate("--jobs", "2", "--chunk-size", "1", str(LOCAL[0]), missing) == one
    corrupt = tmp_path / "corrupt.pdn.gz"
    corrupt.write_bytes(gzip.compress(LOCAL[0].read_bytes())[:40])
    for run, jobs in ((validate_here, "1"), (validate, "2")):
        code, out, err = run("--jobs", jobs, str(corrupt))
        assert code == 2 and out == "" and f"draughts validate: {corrupt}: " in err


def test_zstd_without_zstandard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.pdn.zst"
    path.write_bytes(b"\x28\xb5\x2f\xfd" + b"\0" * 20)
    monkeypatch.setitem(sys.modules, "zstandard", None)
    assert main(["validate", "--jobs", "1", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"draughts validate: {path} is zstd-compressed")
    assert "pip install zstandard" in err


def test_jobs_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["validate", "--jobs", "0", str(LOCAL[0])])
    assert "must be at least 1" in capsys.readouterr().err
