"""``draughts.pdn.validate``: typed reports, the variant of a game its moves
leave open decided by its file, the same reports in one piece or many."""

from __future__ import annotations

import io
import os
import pickle
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from draughts import _core, pdn
from draughts.pdn.settling import Seen, Verdict, settle, survey
from draughts.pdn.validation import GameReport
from tests.conftest import SHARED_ABSENT
from tests.conftest import SHARED_PDN as CORPUS

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "pdn"
TAG = re.compile(r'\[[ \t]*(?:GameType|Variant)[ \t]*"[^"\n]*"[ \t]*\]')

# Files of variants whose games the moves cannot tell from a commoner
# variant's: every legal antidraughts, breakthrough or (from the start)
# Brazilian move list is a legal international or Russian one, and frysk is
# frisian with fewer men. A file of them alone decides nothing.
UNDECIDABLE = {"antidraughts", "breakthrough", "brazilian", "frysk"}


def corpus(relative: str) -> Path:
    path = CORPUS / relative
    if not path.exists():
        pytest.skip(SHARED_ABSENT)
    return path


def stripped(path: Path) -> str:
    """The file's text with its GameType and Variant tags blanked out (lines
    and columns stay where they were)."""
    with pdn.open_pdn(path) as handle:
        text = handle.read()
    return TAG.sub(lambda match: " " * len(match.group(0)), text)


def reports_of(text: str, **options: object) -> list[GameReport]:
    with pdn.validate(io.BytesIO(text.encode()), **options) as validation:  # type: ignore[arg-type]
        return list(validation)


def assert_read_as_the_files_variant(path: Path, variant: str) -> None:
    reports = reports_of(stripped(path))
    assert reports
    if variant in UNDECIDABLE:
        # Nothing decides: each game is a guess that names the file's variant as fitting.
        for report in reports:
            assert report.decided_by == "guess" and report.reason is not None
            assert variant in report.reason.split("a guess")[1], report
        return
    wrong = [(r.number, r.variant, r.reason) for r in reports if r.variant != variant]
    assert not wrong, wrong[:5]


# -- The corpus, its tags stripped --------------------------------------------------


@pytest.mark.parametrize(
    "relative",
    [
        "czech/MR_Ceska_Dama_Druzstev_2008.pdn",  # 4 of 40 read as Russian game by game
        "russian/abatsiev.pdn",
        "italian/ci98-perani.pdn",
        "english/British_Computer_Championship_2002.pdn",
    ],
)
def test_a_file_decides_what_the_moves_cannot(relative: str) -> None:
    assert_read_as_the_files_variant(corpus(relative), relative.split("/")[0])


def corpus_files() -> list[object]:
    if not CORPUS.is_dir():
        return [pytest.param(Path(), marks=pytest.mark.skip(reason=SHARED_ABSENT))]
    paths = sorted(
        path
        for folder in CORPUS.iterdir()
        if folder.is_dir() and folder.name not in ("pdn3-conformance", "perft", "replay")
        for path in folder.glob("*.p?n")
    )
    return [pytest.param(p, id=str(p.relative_to(CORPUS))) for p in paths]


@pytest.mark.slow
@pytest.mark.parametrize("path", corpus_files())
def test_every_corpus_file_reads_as_its_variant(path: Path) -> None:
    variant = {"pool": "pool"}.get(path.parent.name, path.parent.name)
    assert_read_as_the_files_variant(path, variant)


def test_the_czech_championship_of_the_conformance_suite() -> None:
    reports = reports_of(stripped(corpus("pdn3-conformance/succeed/mrcd2007.pdn")))
    assert len(reports) == 102 and {r.variant for r in reports} == {"czech"}


@pytest.mark.slow  # the default run settles by event in test_settle_by_event_then_file_then_a_guess
def test_two_variants_under_two_events() -> None:
    czech = stripped(corpus("czech/MR_Ceska_Dama_Druzstev_2008.pdn"))
    russian = stripped(corpus("russian/abatsiev.pdn"))
    event = re.compile(r'\[Event\s+"[^"\n]*"\]')
    text = event.sub('[Event "Czech league"]', czech) + "\n" + event.sub('[Event "Cup"]', russian)
    reports = reports_of(text)
    assert len(reports) == 40 + 198
    assert Counter(r.variant for r in reports[:40]) == {"czech": 40}
    assert Counter(r.variant for r in reports[40:]) == {"russian": 198}
    # Open games of the Russian event were settled by that event's games,
    # though the Czech event decided more games (26 against 3).
    settled = [r for r in reports[40:] if r.decided_by == "file"]
    assert settled and all("with its Event tag were russian" in str(r.reason) for r in settled)
    # The same file as one event: the Czech games' majority decides the open ones.
    merged = reports_of(event.sub('[Event "All"]', text))
    assert any(r.variant == "czech" for r in merged[40:] if r.decided_by == "file")


# -- The same reports however the files are read -----------------------------------------


# Pieces in processes in the default run; pieces alone, one or two games
# each, in the slow run.
@pytest.mark.parametrize(
    ("jobs", "chunk"),
    [
        (2, 3000),
        pytest.param(1, 1, marks=pytest.mark.slow),
        pytest.param(2, 1, marks=pytest.mark.slow),
    ],
)
def test_pieces_and_processes_give_the_same_reports(tmp_path: Path, jobs: int, chunk: int) -> None:
    path = tmp_path / "czech.pdn"
    path.write_text(stripped(corpus("czech/MR_Ceska_Dama_Druzstev_2008.pdn")), encoding="utf-8")
    local = sorted(DATA.glob("*.pdn"))[:4]
    sources = [str(path), *map(str, local)]
    with pdn.validate(sources) as validation:
        one = list(validation)
        summary = validation.summary()
    assert [r.file for r in one if r.number == 1] == sources
    with pdn.validate(sources, jobs=jobs, chunk_size=chunk) as validation:
        assert list(validation) == one
        assert validation.summary() == summary


def problems(report: GameReport) -> bool:
    return bool(report.errors or report.warnings or report.guessed)


@pytest.mark.parametrize("strict", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_problems_only_gives_the_problems_and_the_same_summary(
    tmp_path: Path, strict: bool
) -> None:
    # Open games settled by their file, errors, warnings and clean games, in
    # pieces and processes: the problems come out as in the whole report
    # (strict mode, which reads every file twice, in the slow run).
    path = tmp_path / "czech.pdn"
    path.write_text(stripped(corpus("czech/MR_Ceska_Dama_Druzstev_2008.pdn")), encoding="utf-8")
    bad = tmp_path / "bad.pdn"
    bad.write_text(
        '[GameType "20"]\n1. 32-28 19-23 2. 28-22 *\n\n[GameType "20"]\n1. 31-27 *\n'
        '\n[GameType "20"]\n1. 33-28 18-23\n',  # an illegal move, a clean game, a cut one
        encoding="utf-8",
    )
    local = sorted(DATA.glob("*.pdn"))[:4]
    sources = [str(path), str(bad), *map(str, local)]
    with pdn.validate(sources, strict=strict) as validation:
        every = list(validation)
        summary = validation.summary()
    wanted = [r for r in every if problems(r)]
    assert {r.decided_by for r in wanted} >= {"file"}
    assert any(r.errors for r in wanted) and any(r.warnings for r in wanted)
    assert len(wanted) < len(every)
    for jobs, chunk in ((1, 1 << 20), (1, 1), (2, 1), (2, 3000)):
        with pdn.validate(
            sources, strict=strict, jobs=jobs, chunk_size=chunk, problems_only=True
        ) as validation:
            assert list(validation) == wanted, (jobs, chunk)
            assert validation.summary() == summary


def test_progress_is_told_piece_by_piece(tmp_path: Path) -> None:
    path = tmp_path / "czech.pdn"
    path.write_text(stripped(corpus("czech/MR_Ceska_Dama_Druzstev_2008.pdn")), encoding="utf-8")
    with pdn.validate(str(path)) as validation:
        every = list(validation)
    for jobs, only in ((1, False), (1, True), (2, True)):
        told: list[tuple[str, int]] = []
        with pdn.validate(
            str(path),
            jobs=jobs,
            chunk_size=3000,
            problems_only=only,
            progress=lambda file, offset, told=told: told.append((file, offset)),
        ) as validation:
            reports = list(validation)
        assert reports == (every if not only else [r for r in every if problems(r)])
        offsets = [offset for _, offset in told]
        assert len(told) > 5 and {file for file, _ in told} == {str(path)}
        assert offsets == sorted(offsets) and offsets[-1] == path.stat().st_size


def test_the_index_reads_games_as_validate_does(tmp_path: Path) -> None:
    from draughts.pdn.index import Index

    path = tmp_path / "czech.pdn"
    path.write_text(stripped(corpus("czech/MR_Ceska_Dama_Druzstev_2008.pdn")), encoding="utf-8")
    reports = list(pdn.validate(str(path)))
    with Index() as index:
        index.add_file(path, positions=True)
        rows = index.connection.execute("SELECT number, variant, plies, errors FROM games")
        # (The index counts the plies of the main line, validate those of side lines too.)
        assert rows.fetchall() == [(r.number, r.variant, r.plies, len(r.errors)) for r in reports]
        # A game read again from its offset is read as it was indexed.
        # The games read otherwise alone: their rows and positions are Czech ones.
        with pdn.open_pdn(path) as handle:
            alone = [pdn.read_game(handle) for _ in reports]
        changed = [
            r for r, game in zip(reports, alone, strict=True) if game.variant.name != "czech"
        ]
        assert len(changed) == 5 and all(r.decided_by == "file" for r in changed)  # 4 + 1 moveless
        for report in changed:
            hit = index.search()[report.number - 1]
            game = index.read_game(hit)
            assert game.variant.name == "czech"
            final = game.end().board()
            found = index.games_with_position(final.fen(), variant="czech")
            assert hit.game_id in [h.game_id for h in found]
            assert not index.games_with_position(final.fen(), variant="russian")
        total = index.connection.execute("SELECT COUNT(*) FROM positions").fetchone()[0]
        assert total == sum(r.plies + 1 for r in reports)  # no side lines in this file


# -- The API -------------------------------------------------------------------------


def test_reports_say_where_and_how() -> None:
    text = (
        '[GameType "21"]\n1. 11-15 23-19 *\n\n'
        "1. 32-28 19-23 2. 28-22 *\n\n"
        '[GameType "99"]\n1. 32-28 *\n'
    )
    first, second, third = reports_of(text)
    assert (first.number, first.offset, first.line, first.variant) == (1, 0, 1, "english")
    assert (first.decided_by, first.reason, first.plies, first.ok) == ("tag", None, 2, True)
    assert (second.number, second.line, second.offset) == (2, 4, text.index("1. 32-28"))
    assert second.decided_by in ("evidence", "guess") and second.reason.startswith("read as")
    assert [e.kind for e in second.errors] == ["illegal"] and second.plies == 2
    assert (third.variant, third.decided_by, [e.kind for e in third.errors]) == (
        "",
        "tag",
        ["variant"],
    )
    # Given a variant, games without tags are read as it.
    assert [(r.variant, r.decided_by) for r in reports_of(text, variant="english")][:2] == [
        ("english", "tag"),
        ("english", "caller"),
    ]


def test_summary_and_strict_mode() -> None:
    path = DATA / "fail_nested_comment.pdn"
    with pdn.validate(path, strict=True) as validation:
        reports = list(validation)
        summary = validation.summary()
    (file,) = summary.files
    assert file.file == str(path) and file.games == len(reports)
    assert file.pdn3_violations and summary.pdn3_violations == len(file.pdn3_violations)
    assert not summary.ok
    with pdn.validate(path) as validation:
        assert validation.summary().pdn3_violations is None


def test_summary_checks_the_games_not_iterated(tmp_path: Path) -> None:
    validation = pdn.validate([DATA / "prof2.pdn", DATA / "babasy4.pdn"])
    first = next(validation)
    summary = validation.summary()
    assert first.number == 1 and len(summary.files) == 2 and summary.games > 20


def test_sources_of_every_kind(tmp_path: Path) -> None:
    text = "1. 32-28 19-23 *\n\n1. 31-27 *\n"
    path = tmp_path / "g.pdn"
    path.write_text(text)
    expected = [(r.number, r.offset, r.variant, r.plies) for r in pdn.validate(str(path))]
    for source in (path, io.BytesIO(text.encode()), io.StringIO(text), [str(path)]):
        got = [(r.number, r.offset, r.variant, r.plies) for r in pdn.validate(source)]
        assert got == expected, source


def test_an_unknown_variant_is_refused_before_reading(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="nosuch"):
        pdn.validate(str(tmp_path / "absent.pdn"), variant="nosuch")
    validation = pdn.validate(str(tmp_path / "absent.pdn"))
    with pytest.raises(FileNotFoundError):
        next(validation)
    assert validation.file == str(tmp_path / "absent.pdn")


# -- Settling ------------------------------------------------------------------------


def chose(event: str | None, variant: str, *others: str) -> Seen:
    return Seen(event, None, (variant, others))


def test_settle_by_event_then_file_then_a_guess() -> None:
    seen = [
        chose("A", "czech"),
        chose("A", "czech"),
        chose("A", "russian", "czech", "pool"),
        chose("B", "russian"),
        chose("B", "russian", "czech"),
        chose("C", "russian", "czech"),  # its event decided nothing: the file's majority
        chose("C", "english", "pool"),  # nothing of the file fits: a guess
        Seen("C", "pool"),  # named by its tags: it counts for the file
        chose("D", "english", "pool"),
    ]
    verdicts = settle(seen)
    assert [(v.variant, v.decided_by) for v in verdicts] == [
        ("czech", "evidence"),
        ("czech", "evidence"),
        ("czech", "file"),
        ("russian", "evidence"),
        ("russian", "file"),
        ("czech", "file"),
        ("pool", "file"),
        (None, "tag"),
        ("pool", "file"),
    ]
    assert "of its file" in str(verdicts[5].reason) and "Event" in str(verdicts[2].reason)
    assert settle([chose(None, "english", "pool")]) == [Verdict("english", "guess")]
    # A tie goes to the commoner variant.
    tie = [chose(None, "czech"), chose(None, "russian"), chose(None, "pool", "russian", "czech")]
    assert settle(tie)[2].variant == "russian"
    # Games without an Event tag are not said to share one.
    reason = str(settle(tie)[2].reason)
    assert "1 other game without an Event tag was" in reason and "its Event" not in reason
    assert settle(tie, "english")[0] == Verdict("english", "caller")


def test_survey_reads_tags_and_choices_only() -> None:
    text = '[GameType "20"]\n1. 32-28 *\n[Event "E"]\n1. e3-d4 *\n1. 32-28\n'
    handle = io.StringIO(text)
    found = survey(handle)
    assert [(s.event, s.named) for s in found] == [
        (None, "international"),
        ("E", None),
        (None, None),
    ]
    assert found[1].choice is not None and found[1].choice[0] == "russian"
    assert found[2].choice is not None and found[2].choice[0] == "international"


def test_the_library_never_imports_the_command_line() -> None:
    import ast

    import draughts

    package = Path(draughts.__file__).resolve().parent
    for path in package.rglob("*.py"):
        if "_cli" in path.parts or path.name == "__main__.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            assert not [n for n in names if n.startswith("draughts._cli")], path


def test_workers_are_not_forked_from_a_process_with_threads() -> None:
    # Forking a process that runs other threads may deadlock (Python 3.12
    # warns of it): the workers then start another way, and read the same.
    import multiprocessing
    import threading
    import warnings

    from draughts.pdn import _pool

    sources = [str(path) for path in sorted(DATA.glob("*.pdn"))[:3]]
    if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods():
        assert _pool._start_method().get_start_method() == "fork"
    one = list(pdn.validate(sources))
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert _pool._start_method().get_start_method() != "fork"
        with warnings.catch_warnings():
            warnings.simplefilter("error", DeprecationWarning)
            with pdn.validate(sources, jobs=2, chunk_size=1) as validation:
                assert list(validation) == one
    finally:
        stop.set()
        other.join()


def test_pieces_shrink_towards_the_end_and_read_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    # The pieces sent to workers get smaller towards the end of a file (so
    # that the workers finish together); the reports stay the same.
    from draughts.pdn import _chunking, _pool

    path = max(DATA.glob("*.pdn"), key=lambda p: p.stat().st_size)
    size = path.stat().st_size
    monkeypatch.setattr(_pool, "LEAST_PIECE", 64)
    sized = _pool.piece_sizes(size // 4, size, 2)
    with path.open("rb") as stream:
        cut = list(_chunking.spans(stream, sized, "utf-8"))
    spans = [(size if span.stop is None else span.stop) - span.start for span in cut]
    assert len(cut) > 4 and spans[-1] < spans[0] / 2
    one = list(pdn.validate(str(path)))
    with pdn.validate(str(path), jobs=2, chunk_size=size // 4) as validation:
        assert list(validation) == one


# -- The native core and the pure one ------------------------------------------------

_PURE_REPORTS = """
import pickle, sys
from draughts import _core, pdn
assert not _core.STATE_IN_C, "DRAUGHTS_PURE=1 puts the pure core in place"
with pdn.validate(sys.argv[1:]) as validation:
    sys.stdout.buffer.write(pickle.dumps((list(validation), validation.summary())))
"""


@pytest.mark.slow
@pytest.mark.skipif(
    not _core.STATE_IN_C, reason="the native core is not built (or DRAUGHTS_PURE=1)"
)
def test_the_pure_core_gives_the_native_reports_on_the_corpus() -> None:
    # Every report, not only the problems --json writes: a process on the
    # pure core (its boards, its reader, no fast check) against this one.
    paths = [str(p) for p in sorted(corpus("").rglob("*.p?n")) if "perft" not in p.parts]
    with pdn.validate(paths) as validation:
        native = (list(validation), validation.summary())
    done = subprocess.run(
        [sys.executable, "-c", _PURE_REPORTS, *paths],
        cwd=ROOT,
        env={**os.environ, "DRAUGHTS_PURE": "1", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        check=True,
    )
    pure = pickle.loads(done.stdout)
    assert len(pure[0]) == len(native[0]) > 30_000
    for one, other in zip(pure[0], native[0], strict=True):
        assert one == other
    assert pure[1] == native[1]
