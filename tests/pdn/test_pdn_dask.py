"""``draughts.dask`` on a local cluster of two workers: the bag of game
records is the records read sequentially, ``validate`` and ``draughts
validate --scheduler`` print what ``draughts validate --jobs 1`` prints.

The default run's workers are threads of the test process; ``-m slow`` runs
every test again on two worker processes, where every task and result
crosses a process boundary. Two spawned workers hold about 230 MB, a
fifth of the default run's memory budget."""

from __future__ import annotations

import contextlib
import functools
import gzip
import io
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("dask.bag", reason="dask is not installed (pip install '.[dask]')")
distributed = pytest.importorskip(
    "distributed", reason="distributed is not installed (pip install '.[dask]')"
)

import draughts.dask  # noqa: E402
from draughts import pdn  # noqa: E402
from draughts._cli import main  # noqa: E402
from draughts.pdn.record import GameRecord, read_record  # noqa: E402
from draughts.pdn.settling import variants_of  # noqa: E402
from tests.conftest import SHARED_PDN as CORPUS  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "pdn"
EXAMPLES = ROOT / "examples"
LOCAL = [str(p) for p in [*sorted(DATA.glob("*.p?n")), *sorted(EXAMPLES.glob("*.pdn"))]]


@pytest.fixture(
    scope="module",
    params=[
        pytest.param(False, id="threads"),
        pytest.param(True, id="processes", marks=pytest.mark.slow),
    ],
)
def client(request: pytest.FixtureRequest) -> Iterator[Any]:
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=request.param,
            protocol="tcp",  # the command line connects to it by address
            dashboard_address=":0",
        ) as cluster,
        distributed.Client(cluster) as connected,
    ):
        yield connected


def sequential_records(path: str, variant: str | None = None) -> list[GameRecord]:
    with open(path, "rb") as raw:
        starts = list(pdn.scan_starts(raw))
    # Each game read as its file settles its variant (as validate does).
    settled = list(variants_of(path)) if variant is None else [variant] * len(starts)
    records = []
    with pdn.open_pdn(path) as handle:
        for start, own in zip(starts, settled, strict=True):
            record = read_record(
                handle, file=path, offset=start.offset, number=start.number, variant=own
            )
            assert record is not None
            records.append(record)
        assert read_record(handle) is None
    return records


@functools.cache  # the tests compare with the same few runs: each made once
@functools.cache
def one_process(*args: str) -> tuple[int, str]:
    """``draughts validate --jobs 1 ARGS`` (status and standard output), run
    in the test process: with no worker processes it is the same code as in
    a new one, less the start-up (about 0.3 s of CPU time a run). Kept for
    the tests that compare with the same run."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["validate", "--jobs", "1", *args])
    return code, out.getvalue()


def cli(*args: str) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "draughts", "validate", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode, done.stdout


@pytest.mark.parametrize(
    "corpus",
    [pytest.param(False, id="local"), pytest.param(True, marks=pytest.mark.slow, id="tinsley")],
)
def test_the_bag_holds_the_records_read_sequentially(client: Any, corpus: bool) -> None:
    paths = list(LOCAL)
    if corpus and CORPUS.is_dir():  # 724 games more
        paths.append(str(CORPUS / "english" / "tinsley.pdn"))
        paths.append(str(CORPUS / "czech" / "MR_Ceska_Dama_Druzstev_2008.pdn"))
    bag = draughts.dask.read_games(paths, blocksize=20_000)
    assert bag.npartitions > len(paths)
    expected = [record for path in paths for record in sequential_records(path)]
    assert bag.compute() == expected
    if corpus and CORPUS.is_dir():  # the Czech games the moves leave open are Czech by their file
        assert {r.variant for r in expected if "czech" in r.file} == {"czech"}
    # A bag is a bag: the records can be counted and filtered on the cluster.
    bad = bag.filter(lambda r: r.errors > 0).map(lambda r: (r.file, r.number)).compute()
    assert bad == [(r.file, r.number) for r in expected if r.errors]


def test_the_caller_does_not_scan_a_plain_file(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Building the bag reads a file's size and first bytes only: its games
    # are found by a task. A compressed file is still scanned by the caller.
    source = DATA / "babasy4.pdn"
    packed = tmp_path / "babasy4.pdn.gz"
    packed.write_bytes(gzip.compress(source.read_bytes()))
    scanned: list[str] = []
    cut = draughts.dask.chunks

    def counted(stream: Any, *args: Any, **kwargs: Any) -> Any:
        scanned.append(stream.name)
        return cut(stream, *args, **kwargs)

    monkeypatch.setattr(draughts.dask, "chunks", counted)
    plain = draughts.dask.read_games(str(source), blocksize=10_000)
    assert scanned == []
    assert plain.npartitions == -(-source.stat().st_size // 10_000)
    draughts.dask.read_games(str(packed), blocksize=10_000)
    assert len(scanned) == 1
    monkeypatch.undo()  # the tasks of the threads' cluster scan with the real one
    assert plain.compute() == sequential_records(str(source))


@pytest.mark.parametrize("blocksize", [0, 1, 200, 1000, 4096, 10_000, 46_125, 1 << 20])
def test_a_file_makes_no_more_pieces_than_its_size_says(blocksize: int) -> None:
    # The bag's partitions are counted from a file's size before it is
    # scanned: the scan must never cut more pieces than that.
    for path in LOCAL:
        bound = draughts.dask._most_pieces(path, blocksize)
        assert bound is not None and len(draughts.dask._pieces(path, blocksize)) <= bound


def test_the_variant_and_compressed_files(client: Any, tmp_path: Path) -> None:
    source = CORPUS / "english" / "tinsley.pdn"
    if not source.exists():
        source = DATA / "British_Computer_Championship_2002.pdn"
    packed = tmp_path / "games.pdn.gz"
    packed.write_bytes(gzip.compress(source.read_bytes()))
    records = draughts.dask.read_games(packed, variant="english", blocksize=30_000).compute()
    expected = sequential_records(str(source), "english")
    assert [attrs_without_file(r) for r in records] == [attrs_without_file(r) for r in expected]
    assert {r.file for r in records} == {str(packed)} and records[0].variant == "english"


def attrs_without_file(record: GameRecord) -> tuple[Any, ...]:
    return (record.offset, record.number, record.result, record.plies, record.final_fen)


# Strict on the cluster is also checked by test_validate_keeps_a_few_tasks_on_the_cluster.
@pytest.mark.parametrize("strict", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_validate_gives_what_the_command_line_prints(client: Any, strict: bool) -> None:
    options = ["--strict"] if strict else []
    code, out = one_process(*options, *LOCAL)
    summary = draughts.dask.validate(LOCAL, client, strict=strict, blocksize=10_000)
    assert summary.lines == tuple(out.splitlines())
    assert str(summary) + "\n" == out
    assert summary.ok == (code == 0) and summary.files == len(LOCAL)
    # Without a client: the current one.
    assert draughts.dask.validate(LOCAL, strict=strict) == summary


TASK_NAMES = ("check_piece", "check_problems", "strict_violations")


class TasksOnScheduler(distributed.diagnostics.plugin.SchedulerPlugin):
    """The most tasks of ``validate`` the scheduler held at once: in all, and
    not yet done (waiting, queued or running)."""

    def __init__(self, scheduler: Any) -> None:
        self.scheduler = scheduler
        self.submitted: set[str] = set()
        self.most_held = self.most_unfinished = 0

    def transition(self, key: Any, start: str, finish: str, *args: Any, **kwargs: Any) -> None:
        tasks = [
            task
            for name, task in self.scheduler.tasks.items()
            if distributed.utils.key_split(name) in TASK_NAMES
            and task.state != "forgotten"  # the task being forgotten, still listed
        ]
        self.submitted.update(task.key for task in tasks)
        unfinished = [task for task in tasks if task.state not in ("memory", "erred", "released")]
        self.most_held = max(self.most_held, len(tasks))
        self.most_unfinished = max(self.most_unfinished, len(unfinished))


def test_validate_keeps_a_few_tasks_on_the_cluster(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One task per worker thread: two on the cluster's two threads.
    monkeypatch.setattr(draughts.dask, "_TASKS_PER_THREAD", 1)
    scheduler = client.cluster.scheduler
    watch = TasksOnScheduler(scheduler)
    scheduler.add_plugin(watch, name="tasks-on-scheduler")
    try:
        summary = draughts.dask.validate(LOCAL, client, strict=True, blocksize=5_000)
    finally:
        scheduler.remove_plugin(name="tasks-on-scheduler")
    assert summary.lines == tuple(one_process("--strict", *LOCAL)[1].splitlines())
    assert len(watch.submitted) > 40  # 32 pieces and 18 strict checks
    # Never more than two tasks to run; a result is taken, and its task
    # forgotten, as soon as it is done. (A task can be seen done beside the
    # two that replaced it: the client's release of a key reaches the
    # scheduler a step after the next task it submits.) Submitted all at
    # once, all 50 were held until the last one was done.
    assert watch.most_unfinished <= 2
    assert watch.most_held <= 4
    # The last releases reach the scheduler a moment after the results.
    deadline = time.monotonic() + 2
    while [k for k in scheduler.tasks if k in watch.submitted] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [k for k in scheduler.tasks if k in watch.submitted]


def test_a_file_given_twice(client: Any) -> None:
    # Its tasks have the same keys: each result must still come back twice.
    paths = [LOCAL[3], LOCAL[3]]
    summary = draughts.dask.validate(paths, client, strict=True, blocksize=2_000)
    assert summary.lines == tuple(one_process("--strict", *paths)[1].splitlines())


def test_a_client_that_is_not_the_default(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # As if no client were the default one (a Client made with
    # set_as_default=False): validate uses the client it is given.
    def no_default() -> Any:
        raise ValueError("No clients found")

    monkeypatch.setattr(distributed.client, "default_client", no_default)
    paths = LOCAL[:4]
    summary = draughts.dask.validate(paths, client, blocksize=5_000)
    assert summary.lines == tuple(one_process(*paths)[1].splitlines())


@pytest.mark.slow  # four command lines, two of them as Dask clients
def test_validate_on_a_scheduler_from_the_command_line(client: Any) -> None:
    address = client.scheduler.address
    for options in ([], ["--strict", "--json", "--variant", "english"]):
        expected = one_process(*options, *LOCAL)
        assert cli(*options, "--scheduler", address, "--chunk-size", "5000", *LOCAL) == expected


def test_an_empty_list_and_a_missing_file(client: Any, tmp_path: Path) -> None:
    assert draughts.dask.read_games([]).compute() == []
    with pytest.raises(FileNotFoundError):
        draughts.dask.read_games([str(tmp_path / "none.pdn")])


def test_validation_gives_the_reports_of_one_process(client: Any) -> None:
    # A Czech championship without tags: 14 of its games take the variant the
    # other games decided, in pieces on the cluster as in one process.
    source = CORPUS / "czech" / "MR_Ceska_Dama_Druzstev_2008.pdn"
    paths = list(LOCAL[:3])
    if source.exists():
        paths.append(str(source))
    with pdn.validate(paths) as local:
        expected = list(local)
        summary = local.summary()
    with draughts.dask.validation(paths, client, blocksize=3_000) as checked:
        assert list(checked) == expected
        assert checked.summary() == summary
    if source.exists():
        assert {r.variant for r in expected if r.file == paths[-1]} == {"czech"}


@pytest.mark.parametrize(
    ("paths", "what"),
    [
        (42, "not an object of type int"),
        (b"1. 32-28 *", "not bytes"),
        ([io.BytesIO(b"1. 32-28 *")], "not a list holding an object of type BytesIO"),
    ],
)
def test_wrong_arguments_say_what_to_pass(paths: object, what: str) -> None:
    # The workers open the files by their paths: a handle cannot go to them.
    for call in (draughts.dask.read_games, draughts.dask.validation):
        with pytest.raises(TypeError, match=r"draughts\.dask reads files") as wrong:
            call(paths)  # type: ignore[arg-type]
        assert f"{what}: pass a path or a list of them" in str(wrong.value)
