"""Training data from game records and self-play: rows that replay on Board."""

from __future__ import annotations

import gzip
import io
import random
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy", reason="draughts.ml needs NumPy (the ml extra)")

import draughts.pdn  # noqa: E402
from draughts import WHITE, Board  # noqa: E402
from draughts._core import BACKEND  # noqa: E402
from draughts.ml import (  # noqa: E402
    Dataset,
    VectorEnv,
    _compact,
    _records,
    dataset,
    encode,
    index_to_move,
    load,
    selfplay_dataset,
)
from draughts.ml import data as data_module  # noqa: E402
from draughts.ml.actions import turned_squares  # noqa: E402
from draughts.ml.encoding import layout  # noqa: E402
from draughts.pdn import NotTextError, normal_result  # noqa: E402
from draughts.variant import RUSSIAN, Variant  # noqa: E402
from tests.conftest import SHARED_PDN, shared_path  # noqa: E402
from tests.ml.helpers import custom_variants  # noqa: E402


def replay(
    data: Dataset,
    results: dict[int, int] | None = None,
    games: list[int] | None = None,
    start: Board | None = None,
) -> int:
    """Play each game's actions (of ``games``, all by default) from the
    start (``start`` or the variant's) on a Board: the rows' expanded
    observations are encode()'s of the board at every position, the plies
    the board's, the results the game's (White's score per game in
    ``results`` when given). Returns the games seen."""
    seen = 0
    for game in np.unique(data.games).tolist() if games is None else games:
        rows = np.flatnonzero(data.games == game)
        assert data.plies[rows].tolist() == list(range(len(rows)))
        observations = data.observations(rows)
        board = Board(variant=data.variant) if start is None else start.copy()
        for k, row in enumerate(rows.tolist()):
            expected = encode(board, perspective=data.perspective)
            assert (observations[k].dtype, observations[k].shape) == (
                expected.dtype,
                expected.shape,
            )
            assert (observations[k] == expected).all(), (game, row)
            if results is not None:
                score = results[game] if board.turn == WHITE else -results[game]
                assert data.results[row] == score
            board.push(index_to_move(board, int(data.actions[row]), perspective=data.perspective))
        seen += 1
    return seen


ARRAYS = (
    "pieces",
    "black_to_move",
    "rule_values",
    "king_moves",
    "actions",
    "results",
    "plies",
    "games",
)


def test_a_corpus_file() -> None:
    path = shared_path("english/OCA_2.0.pdn")
    data = dataset(path, max_games=150)
    assert data.variant.name == "english" and len(data) > 150 * 20
    assert data.pieces.shape == (len(data), 32) and data.pieces.dtype == np.uint8
    assert data.observations().shape == (len(data), 8, 8, 8)
    assert data.observations().dtype == np.float32 and data.actions.dtype == np.int64
    # White's score per game, from the game's own Result tag: English results
    # give the first player's (Black's) score first.
    scores = {}
    with open(path, encoding="utf-8", errors="replace") as handle:
        for number in range(150):
            game = draughts.pdn.read_game(handle)
            assert game is not None
            text = normal_result(game.headers.get("Result", "*"), "english")
            scores[number] = {"0-1": 1, "1-0": -1, "1/2-1/2": 0}.get(text or "", 99)
    assert replay(data, scores) + data.skipped == 150


def test_games_left_out_are_counted() -> None:
    text = (
        '[GameType "21"]\n1. 11-15 23-19 1-0\n\n'  # kept
        '[GameType "21"]\n1. 11-15 23-19 *\n\n'  # no result
        '[GameType "20"]\n1. 32-28 2-0\n\n'  # another variant
        '[GameType "21"]\n1. 11-15 11-16 0-1\n\n'  # an illegal move
    )
    data = dataset(io.StringIO(text))
    assert (len(data), data.skipped, data.games.tolist()) == (2, 3, [0, 0])
    assert data.results.tolist() == [1, -1]  # Black moved first and won ("1-0")


def test_garbage_and_empty_sources(tmp_path: Path) -> None:
    junk = tmp_path / "junk.pdn"
    junk.write_bytes(bytes(range(256)) * 20)
    with pytest.raises(NotTextError, match=r"junk\.pdn: not a PDN file"):
        dataset(junk)
    garbage = dataset(io.StringIO("}{ ]] 99-99 xyz\n" * 20))
    assert len(garbage) == 0 and garbage.observations().shape == (0, 10, 10, 10)
    empty = dataset(io.StringIO(""), variant="frisian")
    assert len(empty) == 0 and empty.variant.name == "frisian"


def test_save_and_load(tmp_path: Path) -> None:
    data = selfplay_dataset(VectorEnv("russian", 3, seed=4), steps=250)
    path = tmp_path / "games.npz"
    data.save(path)
    back = load(path)
    for name in ARRAYS:
        mine, theirs = getattr(back, name), getattr(data, name)
        assert mine.dtype == theirs.dtype and mine.shape == theirs.shape, name
        assert (mine == theirs).all(), name
    assert (back.variant, back.perspective, back.skipped) == (RUSSIAN, True, data.skipped)
    assert (back.observations() == data.observations()).all()
    assert replay(back) >= 1
    other = tmp_path / "other.npz"
    np.savez(other, x=np.zeros(3))
    with pytest.raises(ValueError, match=r"not a draughts\.ml dataset"):
        load(other)


@pytest.mark.parametrize("variant", ["english", "frisian", "turkish", "antidraughts"])
def test_selfplay_rows_replay(variant: str) -> None:
    env = VectorEnv(variant, 4, seed=8, max_plies=120)
    data = selfplay_dataset(env, steps=300)
    assert replay(data) >= 1
    # Each game's rows end where the game ended: its last row's move ends it.
    for game in np.unique(data.games).tolist():
        rows = np.flatnonzero(data.games == game)
        board = Board(variant=variant)
        for row in rows.tolist():
            board.push(index_to_move(board, int(data.actions[row]), perspective=True))
        outcome = board.outcome()
        assert outcome is not None
        winner = 0 if outcome.winner is None else (1 if outcome.winner == WHITE else -1)
        first = rows[0]
        assert data.results[first] == (winner if Board(variant=variant).turn == WHITE else -winner)


def test_selfplay_needs_float32_observations() -> None:
    env = VectorEnv("international", 2, seed=1, dtype=np.uint8)
    with pytest.raises(ValueError, match="float32 observations, not uint8"):
        selfplay_dataset(env, steps=10)


# -- Compact positions expanded into observations ------------------------------


@pytest.fixture(params=["native", "numpy"])
def expansion(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test twice: with the C expansion where the native core runs, and
    with the NumPy one (the pure core's)."""
    if request.param == "numpy":
        monkeypatch.setattr(data_module, "_expander", lambda variant, perspective: None)
    elif BACKEND != "native":
        pytest.skip("the C expansion needs the native core (DRAUGHTS_PURE=1 runs NumPy's)")
    return str(request.param)


def sampled(data: Dataset, count: int) -> list[int]:
    """``count`` of the dataset's games, spread over it."""
    games = np.unique(data.games)
    return games[np.linspace(0, len(games) - 1, min(count, len(games))).astype(int)].tolist()


@pytest.mark.parametrize(
    ("name", "count"),
    [
        ("english/OCA_2.0.pdn", 25),  # the C replay
        ("international/wk2003.pdn", 15),  # the C replay
        ("frisian/lidraughts_frisian.pdn", 10),  # the reader (a king-move limit)
    ],
)
@pytest.mark.parametrize("perspective", [True, False])
def test_observations_are_encode_of_real_games(
    name: str, count: int, perspective: bool, expansion: str
) -> None:
    # The OCA's first 1,000 games: the whole file takes a minute on the pure core.
    data = dataset(shared_path(name), perspective=perspective, max_games=1000)
    assert replay(data, games=sampled(data, count)) == count
    if data.variant.king_move_limit:
        assert data.king_moves.any()  # the king-move planes were shown
    else:
        assert not data.king_moves.any()


@pytest.mark.parametrize("perspective", [True, False])
def test_observations_are_encode_of_the_test_files(perspective: bool, expansion: str) -> None:
    for name in ("candidate95.pdn", "British_Computer_Championship_2002.pdn"):
        data = dataset(DATA / name, perspective=perspective)
        assert replay(data, games=sampled(data, 8)) == 8


@settings(max_examples=8, deadline=None)
@given(variant=custom_variants(), seed=st.integers(0, 10**6))
def test_observations_are_encode_in_custom_variants(variant: Variant, seed: int) -> None:
    """Random games of a custom variant, written as PDN and read back by the
    reader (C replays only the presets), expanded on both paths."""
    rng = random.Random(seed)
    texts = []
    for _ in range(3):
        board = Board(variant=variant)
        while board.outcome() is None and board.ply() < 80:
            board.push(rng.choice(list(board.legal_moves)))
        game = draughts.pdn.Game.from_board(board)
        game.headers["Result"] = rng.choice(["2-0", "0-2", "1-1"])
        texts.append(str(game))
    perspective = turned_squares(variant) is not None and rng.random() < 0.5
    data = dataset(io.StringIO("\n\n".join(texts)), variant=variant, perspective=perspective)
    assert data.skipped == 0
    native = data.observations()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(data_module, "_expander", lambda variant, perspective: None)
        assert replay(data) == 3
        assert (data.observations() == native).all()


def random_rows(data: Dataset, count: int, seed: int) -> Dataset:
    """``data`` with ``count`` random compact positions: any pieces, either
    side to move, rule values, king moves on any square."""
    rng = np.random.default_rng(seed)
    squares = data.pieces.shape[1]
    kings = np.zeros((count, 2, 2), dtype=np.uint8)
    if data.variant.king_move_limit:
        kings[:, :, 0] = rng.integers(0, squares + 1, (count, 2))
        kings[:, :, 1] = rng.integers(0, data.variant.king_move_limit + 1, (count, 2))
    return Dataset(
        data.variant,
        rng.integers(0, 5, (count, squares)).astype(np.uint8),
        rng.random(count) < 0.5,
        rng.random((count, data.rule_values.shape[1])).astype(np.float32),
        kings,
        *(np.zeros(count, dtype=getattr(data, name).dtype) for name in ARRAYS[4:]),
        perspective=data.perspective,
    )


@pytest.mark.skipif(BACKEND != "native", reason="the C expansion needs the native core")
@pytest.mark.parametrize("variant", ["english", "international", "frisian", "turkish"])
@pytest.mark.parametrize("perspective", [True, False])
def test_the_c_expansion_is_numpys(variant: str, perspective: bool) -> None:
    """Random compact rows (positions no game reaches included) expand the
    same in C (on two threads: 3,000 rows) and in NumPy."""
    empty = dataset(io.StringIO(""), variant=variant, perspective=perspective)
    data = random_rows(empty, 3000, seed=len(variant))
    assert data_module._expander(data.variant, perspective) is not None
    native = data.observations()
    numpy_rows = np.empty_like(native)
    _compact.expand(
        layout(data.variant),
        perspective,
        (data.pieces, data.black_to_move, data.rule_values, data.king_moves),
        numpy_rows,
    )
    assert (native == numpy_rows).all()
    back = _compact.from_observations(layout(data.variant), native, perspective)
    for mine, theirs in zip(
        back, (data.pieces, data.black_to_move, data.rule_values), strict=False
    ):
        assert (mine == theirs).all()


def test_observations_of_rows_and_batches(expansion: str) -> None:
    data = selfplay_dataset(VectorEnv("russian", 3, seed=9), steps=200)
    every = data.observations()
    assert (data.observations(5) == every[5]).all() and data.observations(5).shape == every.shape[
        1:
    ]
    assert (data.observations([7, 2, 7]) == every[[7, 2, 7]]).all()
    assert (data.observations(slice(3, 9, 2)) == every[3:9:2]).all()
    assert (data.observations(np.array([], dtype=np.int64))).shape == (0, *every.shape[1:])
    with pytest.raises(IndexError):
        data.observations(len(data))
    # Shuffled: every row once, in the order the seed draws.
    order = np.random.default_rng(3).permutation(len(data))
    start = 0
    for x, y, z in data.batches(50, shuffle=True, seed=3):
        rows = order[start : start + 50]
        assert len(x) == len(y) == len(z) == len(rows) > 0
        assert (x == every[rows]).all() and (y == data.actions[rows]).all()
        assert (z == data.results[rows]).all()
        start += len(rows)
    assert start == len(data)
    plain = [y for _, y, _ in data.batches(64)]
    assert (np.concatenate(plain) == data.actions).all()
    with pytest.raises(ValueError, match="batch_size"):
        next(data.batches(0))


def test_load_refuses_arrays_that_do_not_fit(tmp_path: Path) -> None:
    data = selfplay_dataset(VectorEnv("english", 2, seed=4), steps=120)
    arrays = {name: getattr(data, name) for name in ARRAYS}
    base = {"variant": np.array("english"), "perspective": np.array(True), "skipped": np.array(0)}
    path = tmp_path / "bad.npz"
    for change, message in [
        ({"pieces": np.where(data.pieces == 1, 9, data.pieces).astype(np.uint8)}, "code over 4"),
        ({"pieces": data.pieces.astype(np.int64)}, r"pieces is int64"),
        ({"rule_values": data.rule_values[:, :1]}, r"rule_values is float32 \(\d+, 1\)"),
        ({"games": data.games[:-1]}, r"games is int32"),
        ({"variant": np.array("no such game")}, "unknown variant 'no such game'"),
    ]:
        np.savez(path, **{**base, **arrays, **change})
        with pytest.raises(ValueError, match=message):
            load(path)
    custom = attrs.evolve(RUSSIAN, name="my russian")
    mine = selfplay_dataset(VectorEnv(custom, 2, seed=1), steps=100)
    mine.save(path)
    with pytest.raises(ValueError, match="pass variant="):
        load(path)
    with pytest.raises(ValueError, match="holds my russian games, not english"):
        load(path, variant=draughts.variant.ENGLISH)
    back = load(path, variant=custom)
    assert back.variant == custom and (back.observations() == mine.observations()).all()


# -- The C replay of game records against the reader -------------------------

DATA = Path(__file__).resolve().parents[1] / "data" / "pdn"


def same(fast: Dataset, slow: Dataset) -> None:
    assert (fast.variant, fast.perspective, fast.skipped) == (
        slow.variant,
        slow.perspective,
        slow.skipped,
    )
    for name in ARRAYS:
        mine, theirs = getattr(fast, name), getattr(slow, name)
        assert mine.dtype == theirs.dtype and mine.shape == theirs.shape, name
        assert (mine == theirs).all(), name
        assert mine.flags.writeable, name  # C's own arrays too, where they are the dataset's


def both(path: Path, **options: object) -> tuple[Dataset, Dataset]:
    """The dataset of ``path`` from its path (the C replay where the native
    core is built) and from an open handle (the reader alone, the oracle)."""
    fast = dataset(path, **options)  # type: ignore[arg-type]
    with draughts.pdn.open_pdn(path) as handle:
        slow = dataset(handle, **options)  # type: ignore[arg-type]
    return fast, slow


@pytest.mark.parametrize(
    "name", sorted(p.name for p in DATA.iterdir() if p.suffix in (".pdn", ".phn"))
)
@pytest.mark.parametrize("perspective", [True, False])
def test_the_c_replay_gives_the_readers_arrays(name: str, perspective: bool) -> None:
    same(*both(DATA / name, perspective=perspective))


def test_the_c_replay_on_the_games_it_refuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Games the C replay leaves to the reader sit between games it reads:
    the rows stay in the games' order, the games left out counted."""
    read: list[int] = []
    reader = draughts.pdn.read_game

    def counted(*args: object, **options: object) -> object:
        read.append(1)
        return reader(*args, **options)  # type: ignore[call-overload]

    monkeypatch.setattr(_records, "read_game", counted)
    path = tmp_path / "mixed.pdn"
    path.write_text(
        '[Result "1-0"]\n1. 11-15 23-19 2. 8-11 22-17 1-0\n\n'  # read in C
        "1. 11-15 23-19 {a comment} 2. 9-14 $1 22-17 2-0\n\n"  # read in C
        "1. 11-15 (1. 10-14 22-17) 23-19 1-0\n\n"  # a variation: the reader
        "1. 11-15 23-19 *\n\n"  # "*": the reader (and no Result tag: left out)
        '[Result "0-1"]\n1. 11-15 23-19 *\n\n'  # the reader, the tag's result
        '[GameType "20"]\n1. 32-28 2-0\n\n'  # another variant: left out
        "1. 11x15 23-19 0-1\n\n"  # the wrong separator: the reader (a warning: kept)
        "1. 11-15 23-19 2. 15-16 0-1\n\n"  # an illegal move: left out
        '[FEN "B:W18:B14"]\n1. 14x23 0-1\n\n'  # a set-up: the reader (kept)
        "1. 11-15 23-19 1/2-1/2\n",
        encoding="utf-8",
    )
    fast = dataset(path)
    if BACKEND == "native":  # the first game (it sets the variant) and the seven refused
        assert len(read) == 8
    with draughts.pdn.open_pdn(path) as handle:
        slow = dataset(handle)
    same(fast, slow)
    assert fast.variant.name == "english" and fast.skipped == 3
    assert np.unique(fast.games).tolist() == [0, 1, 2, 4, 6, 8, 9]
    fast, slow = both(path, max_games=3, perspective=False)
    same(fast, slow)
    fast, slow = both(path, variant="international")
    same(fast, slow)


@pytest.mark.slow
@pytest.mark.parametrize(
    "path",
    sorted(p for p in SHARED_PDN.rglob("*") if p.suffix in (".pdn", ".phn"))
    if SHARED_PDN.exists()
    else [],
    ids=str,
)
def test_the_c_replay_on_the_corpus(path: Path) -> None:
    same(*both(path))


# 16 records by default (0.7 s of CPU time), 40 more in the slow run.
@pytest.mark.parametrize(
    "cases",
    [
        pytest.param(range(16), id="16"),
        pytest.param(range(16, 56), id="40", marks=pytest.mark.slow),
    ],
)
def test_the_c_replay_on_mutated_records(tmp_path: Path, cases: range) -> None:
    """Game records with characters changed, added or removed here and there
    (separators, digits, results, braces, NAGs, stray bytes): the C replay
    reads a game only as the reader does, and leaves it to the reader
    otherwise."""
    alphabet = b'x-0123456789 .{}$*/\n\t\r[]"' + bytes([0x0B, 0xA0, 0xC3, 0xE9])
    for case in cases:
        rng = random.Random(case)
        data = bytearray((DATA / ("candidate95.pdn", "prof2.pdn")[case % 2]).read_bytes())
        for _ in range(rng.choice((3, 10, 40))):
            at = rng.randrange(len(data))
            kind = rng.randrange(3)
            if kind == 0:
                del data[at]
            elif kind == 1:
                data.insert(at, rng.choice(alphabet))
            else:
                data[at] = rng.choice(alphabet)
        path = tmp_path / f"mutated{case}.pdn"
        path.write_bytes(bytes(data))
        for perspective in (True, False):
            same(*both(path, perspective=perspective))


def test_the_c_replay_of_a_compressed_file(tmp_path: Path) -> None:
    path = tmp_path / "candidate95.pdn.gz"
    with gzip.open(path, "wb") as file:
        file.write((DATA / "candidate95.pdn").read_bytes())
    fast, slow = both(path)
    same(fast, slow)
    assert len(fast) > 500
