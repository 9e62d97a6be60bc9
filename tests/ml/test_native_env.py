"""VectorEnv's games stepped in C against the same games on Board in Python
(``native=False``, the oracle): step by step the same observations, masks,
rewards, flags and outcomes, for every preset, endgame set-ups where the
draw rules end the games, and random custom variants. And encode_batch's C
reading of boards against its Python one."""

from __future__ import annotations

import os
import random
import signal
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="draughts.ml needs NumPy (the ml extra)")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import draughts  # noqa: E402
from draughts import VARIANTS, Board, IllegalMoveError, Termination  # noqa: E402
from draughts import variant as V  # noqa: E402
from draughts._core import BACKEND  # noqa: E402
from draughts.ml import VectorEnv, encode_batch  # noqa: E402
from draughts.ml._native_env import native_games  # noqa: E402
from draughts.ml.actions import move_to_index, turned_squares  # noqa: E402
from draughts.ml.encoding import layout  # noqa: E402
from tests.ml.helpers import custom_variants, random_positions  # noqa: E402

pytestmark = pytest.mark.skipif(BACKEND != "native", reason="the native core is not built")


def pair(
    variant: draughts.Variant, num_envs: int, seed: int, **options: object
) -> tuple[VectorEnv, VectorEnv]:
    native = VectorEnv(variant, num_envs, seed=seed, **options)  # type: ignore[arg-type]
    python = VectorEnv(variant, num_envs, seed=seed, native=False, **options)  # type: ignore[arg-type]
    return native, python


def run_both(native: VectorEnv, python: VectorEnv, steps: int) -> set[Termination]:
    """Random self-play on both with the same actions; every array compared
    after every step. Returns how the games ended."""
    ends: set[Termination] = set()
    for step in range(steps):
        assert (native.masks == python.masks).all(), step
        assert (native.observations == python.observations).all(), step
        actions = native.sample()
        assert (actions == python.sample()).all(), step
        native.step(actions)
        python.step(actions)
        for name in ("rewards", "terminated", "truncated"):
            assert (getattr(native, name) == getattr(python, name)).all(), (step, name)
        ended = np.flatnonzero(native.terminated | native.truncated)
        assert (native.final_observations[ended] == python.final_observations[ended]).all()
        outcomes = native.outcomes
        assert outcomes == python.outcomes, step
        ends |= {o.termination for o in outcomes if o is not None}
    return ends


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_native_steps_as_python(variant: draughts.Variant) -> None:
    native, python = pair(variant, 8, seed=5, max_plies=120)
    # Canadian's 12x12 board is beyond the native core's 128-index grids.
    assert native.native == (variant.name != "canadian")
    run_both(native, python, 300)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_native_steps_as_python_many_games(variant: draughts.Variant) -> None:
    native, python = pair(variant, 16, seed=6)
    run_both(native, python, 3000)


def crowns(board: Board, move: draughts.Move) -> bool:
    after = board.copy()
    after.push(move)
    return board.piece_at(move.from_square).kind != after.piece_at(move.to_square).kind  # type: ignore[union-attr]


def long_captures(variant: draughts.Variant, most: int) -> list[str]:
    """Up to ``most`` positions of random games where the side to move has a
    capture of more than one piece, or a king's capture, or one that
    crowns: the captures VectorEnv's C step searches itself where the rules
    allow (ml_moves.h's men_routes) or leaves to the core."""
    found: list[str] = []
    for board in random_positions(variant, 6, seed=11):
        if board.outcome() is not None:
            continue
        if any(
            len(m.captures) > 1
            or board.piece_at(m.from_square).kind == draughts.KING  # type: ignore[union-attr]
            or crowns(board, m)
            for m in board.legal_moves
            if m.is_capture
        ):
            found.append(board.fen())
        if len(found) == most:
            break
    return found


@pytest.mark.parametrize(
    "variant",
    [
        v
        if v.name in ("international", "english", "russian")
        else pytest.param(v, marks=pytest.mark.slow)
        for v in VARIANTS
        if v.name != "canadian"
    ],
    ids=lambda v: v.name,
)
def test_long_captures_as_python(variant: draughts.Variant) -> None:
    fens = long_captures(variant, 12)
    assert fens, "random play found no such capture"
    for fen in fens:
        native, python = pair(variant, 4, seed=3, fen=fen, max_plies=40)
        run_both(native, python, 6)


def default_sample(*names: str) -> list[Any]:
    """Every preset, those not named only in the slow run."""
    return [v if v.name in names else pytest.param(v, marks=pytest.mark.slow) for v in VARIANTS]


# The default run steps one variant of each set of automatic draw rules
# (international's 25/16/5-move rules, dama's king-move and ply limits,
# russian's, frisian's, spanish's, turkish's); -m slow steps every preset.
# Each is about 0.4 s of CPU time, stepped in Python too.
DRAW_RULES_SAMPLE = default_sample(
    "international", "dama", "russian", "frisian", "spanish", "turkish"
)
# The variants with draws to claim (english: repetition and the 40-move
# rule; dama: repetition and too little material), and international, whose
# automatic rules must still end the games with claim_draw=True.
CLAIMS_SAMPLE = default_sample("english", "dama", "international")


def endgames(variant: draughts.Variant) -> list[str]:
    """Set-ups of a few kings (men in breakthrough, where a king wins), where
    the variant's draw rules soon end random games."""
    n = draughts.Board(variant=variant)._ctx.core.square_count
    if variant.name == "breakthrough":
        return [f"W:W{n - 4},{n - 5}:B5,6"]
    return [
        f"W:WK{n},K{n - 1},K{n - 2}:BK1",
        f"W:WK{n},K{n - 2}:BK1",
        f"B:WK{n}:BK1",
        f"W:WK{n},K{n - 1}:BK1,K3",
        f"W:WK{n},{n // 2}:BK1",
        # Quiet moves played before the set-up (a FEN's halfmove clock):
        # the king-move and 25-move rules' counts start near their limits.
        f"W:WK{n},K{n - 2}:BK1:H36",
        f"W:WK{n},K{n - 2}:BK1:H76",
    ]


@pytest.mark.parametrize("variant", DRAW_RULES_SAMPLE, ids=lambda v: v.name)
def test_native_draw_rules_as_python(variant: draughts.Variant) -> None:
    ends: set[Termination] = set()
    for k, fen in enumerate(endgames(variant)):
        try:
            native, python = pair(variant, 8, seed=k, fen=fen, max_plies=200)
        except ValueError:  # the set-up is already over in this variant
            continue
        ends |= run_both(native, python, 150)
    rules = {rule.termination for rule in variant.draw_rules if rule.automatic}
    # Canadian runs in Python on both; in breakthrough a king wins; in
    # antidraughts a side gives its kings away before anything repeats.
    if variant.name not in ("canadian", "breakthrough", "antidraughts") and rules:
        assert ends & rules, ends  # some game ended by a draw rule


def test_illegal_actions_as_python() -> None:
    for illegal in ("raise", "lose"):
        native, python = pair(V.INTERNATIONAL, 4, seed=1, illegal=illegal)
        actions = native.sample()
        assert (actions == python.sample()).all()
        actions[2] = 0  # 1 to 1: never legal
        if illegal == "raise":
            for env in (native, python):
                with pytest.raises(IllegalMoveError, match="game 2: action 0"):
                    env.step(actions)
            assert [b.ply() for b in native.boards] == [1, 1, 0, 0]
            assert native.outcomes == python.outcomes
            for name in ("rewards", "terminated", "truncated", "masks", "observations"):
                assert (getattr(native, name) == getattr(python, name)).all(), name
            assert [b.fen() for b in native.boards] == [b.fen() for b in python.boards]
        else:
            native.step(actions)
            python.step(actions)
            assert native.outcomes == python.outcomes
            assert native.outcomes[2] is not None
            assert native.outcomes[2].termination is Termination.RESIGNATION
            assert (native.rewards == python.rewards).all()
            assert (native.final_observations[2] == python.final_observations[2]).all()
            run_both(native, python, 20)


def test_boards_replay_the_games() -> None:
    native, python = pair(V.FRISIAN, 3, seed=4, max_plies=30)
    run_both(native, python, 45)
    assert [b.fen() for b in native.boards] == [b.fen() for b in python.boards]
    assert [b.move_stack for b in native.boards] == [b.move_stack for b in python.boards]
    finals = native.final_boards
    assert all(f is not None for f in finals)
    assert [f.fen() for f in finals if f] == [f.fen() for f in python.final_boards if f]
    assert [native.board(i).fen() for i in range(3)] == [b.fen() for b in python.boards]
    assert [native.final_board(i).move_stack for i in range(3)] == [  # type: ignore[union-attr]
        f.move_stack for f in python.final_boards if f
    ]
    native.reset()
    assert native.final_boards == [None] * 3
    assert [b.ply() for b in native.boards] == [0, 0, 0]


def test_claim_draw_runs_in_c() -> None:
    assert VectorEnv("english", 2, claim_draw=True).native
    with pytest.raises(ValueError, match="cannot be stepped in C"):
        VectorEnv("canadian", 2, claim_draw=True, native=True)


def test_perspective_off_as_python() -> None:
    run_both(*pair(V.TURKISH, 4, seed=2, perspective=False, max_plies=60), 100)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=custom_variants(), seed=st.integers(0, 1000))
def test_custom_variants_as_python(variant: draughts.Variant, seed: int) -> None:
    perspective = turned_squares(variant) is not None
    native, python = pair(variant, 2, seed=seed, max_plies=40, perspective=perspective)
    run_both(native, python, 60)


def test_start_positions_agree_with_board() -> None:
    # The C side reads the set-up's counts from the board: a FEN's halfmove
    # clock starts the 25-move rule's count partway.
    fen = "W:WK46,K47:BK5:H48:F30"
    native, python = pair(V.INTERNATIONAL, 2, seed=0, fen=fen)
    assert Board(fen).halfmove_clock == 48
    ends = run_both(native, python, 4)
    assert Termination.TWENTY_FIVE_MOVE_RULE in ends


def test_threads_step_as_python() -> None:
    # 96 games on 3 threads: a slice of 32 each.
    native = VectorEnv("international", 96, seed=8, max_plies=80, threads=3)
    python = VectorEnv("international", 96, seed=8, max_plies=80, native=False)
    run_both(native, python, 120)
    with pytest.raises(ValueError, match="threads"):
        VectorEnv("international", 2, threads=0)


@pytest.mark.parametrize("variant", [V.INTERNATIONAL, V.ENGLISH, V.FRISIAN])
def test_threads_give_one_thread_s_trajectories(variant: draughts.Variant) -> None:
    """The same seed on 1, 2 and 4 threads (the step threads kept from one
    step to the next): the same arrays after every step, the same games."""
    envs = [
        VectorEnv(variant, 200, seed=5, max_plies=60, claim_draw=True, threads=t) for t in (1, 2, 4)
    ]
    for step in range(300):
        actions = envs[0].sample()
        for env in envs[1:]:
            assert (env.sample() == actions).all(), step
        results = [env.step(actions) for env in envs]
        for other in results[1:]:
            for ours, theirs in zip(results[0], other, strict=True):
                assert (ours == theirs).all(), step
    histories = [[env._native.history(i, True) for i in range(200)] for env in envs]
    assert histories[0] == histories[1] == histories[2]
    assert [b.fen() for b in envs[0].boards] == [b.fen() for b in envs[2].boards]
    assert VectorEnv(variant, 2, seed=5)._native is not None  # the default threads


def test_envs_on_threads_come_and_go() -> None:
    """Step threads are stopped with their environment (no thread left
    running, nothing shared between two environments)."""
    import threading

    before = threading.active_count()
    for seed in range(6):
        env = VectorEnv("english", 64, seed=seed, threads=3)
        env.step(env.sample())
        del env
    other = VectorEnv("english", 64, seed=0, threads=3)
    alone = VectorEnv("english", 64, seed=0, threads=1)
    for _ in range(50):
        actions = alone.sample()
        other.step(actions)
        alone.step(actions)
        assert (other.observations == alone.observations).all()
    assert threading.active_count() == before  # C threads are not Python threads either way


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="no /proc/self/task here")
def test_step_threads_are_one_per_slice_and_stop_with_their_env() -> None:
    def threads() -> int:
        return len(os.listdir("/proc/self/task"))

    before = threads()
    env = VectorEnv("international", 64, seed=1, threads=16)  # two slices of 32 games
    assert threads() == before  # none until the first step
    for _ in range(3):
        env.step(env.sample())
    assert threads() == before + 1  # the caller's and one more, kept between steps
    del env
    assert threads() == before


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork() here")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # fork() with threads (3.12+)
def test_a_forked_child_steps_on_threads_of_its_own() -> None:
    """A child process has none of its parent's step threads: it starts its
    own and steps as the parent does."""
    env = VectorEnv("international", 64, seed=3, threads=2)
    env.step(env.sample())  # the parent's threads start
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its games, stepped, written to the pipe
        signal.alarm(30)  # a child waiting for threads it does not have ends
        try:
            for _ in range(20):
                env.step(env.sample())
            os.write(write, env.observations.tobytes()[:4096])
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        child = pipe.read()
    os.waitpid(pid, 0)
    for _ in range(20):
        env.step(env.sample())
    assert child == env.observations.tobytes()[:4096]


def python_encoding(boards: list[Board], perspective: bool) -> Any:
    """encode_batch's Python reading of the boards, the C encoder's oracle."""
    lay = layout(boards[0].variant)
    out = np.empty((len(boards), *lay.shape), dtype=np.float32)
    lay.fill([lay.state(b, b.turn if perspective else None) for b in boards], out)
    return out


def random_boards(variant: draughts.Variant, fens: list[str | None], seed: int) -> list[Board]:
    """Every position of a random game from each set-up, with its history."""
    rng = random.Random(seed)
    boards: list[Board] = []
    for fen in fens:
        try:
            board = Board(fen, variant=variant)
        except ValueError:
            continue
        shuffle = board.copy()
        for _ in range(120):
            boards.append(board.copy())
            moves = list(board.legal_moves)
            if not moves or board.outcome() is not None:
                break
            board.push(rng.choice(moves))
        # Pieces moved back and forth: positions that repeat.
        for _ in range(10):
            moves = [m for m in shuffle.legal_moves if not m.captures]
            if not moves or shuffle.outcome() is not None:
                break
            back = shuffle.move_stack[-2] if shuffle.ply() >= 2 else None
            undo = [
                m
                for m in moves
                if back and (m.from_square, m.to_square) == (back.to_square, back.from_square)
            ]
            shuffle.push((undo or moves)[0])
            boards.append(shuffle.copy())
    return boards


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_native_encode_batch_as_python(variant: draughts.Variant) -> None:
    boards = random_boards(variant, [None, *endgames(variant)], seed=3)
    if variant.name in ("international", "frisian", "dama"):  # the shuffles repeat there
        assert any(b.is_repetition(2) for b in boards)
    for perspective in (False, True):
        assert (
            encode_batch(boards, perspective=perspective) == python_encoding(boards, perspective)
        ).all()


def test_native_encode_batch_checks_variants() -> None:
    boards = [Board(), Board(variant="english")]
    with pytest.raises(ValueError, match="board 1 plays english"):
        encode_batch(boards)


@pytest.mark.parametrize("action", [-1, 5000, 2**40])
def test_out_of_range_actions(action: int) -> None:
    env = VectorEnv("international", 2, seed=0)
    actions = env.sample()
    actions[1] = action
    with pytest.raises(IllegalMoveError, match=f"game 1: action {action} is not a legal move"):
        env.step(actions)
    assert [b.ply() for b in env.boards] == [1, 0]
    forfeit = VectorEnv("international", 2, seed=0, illegal="lose")
    forfeit.step(np.array([action, action]))
    assert forfeit.terminated.all() and (forfeit.rewards == -1).all()


@pytest.mark.parametrize("variant", CLAIMS_SAMPLE, ids=lambda v: v.name)
def test_native_claims_as_python(variant: draughts.Variant) -> None:
    """With ``claim_draw=True`` the games end on the draws the side to move
    could claim, a repetition one move ahead included, in C as on Board."""
    ends: set[Termination] = set()
    for k, fen in enumerate(endgames(variant)):
        try:
            native, python = pair(variant, 8, seed=k, fen=fen, max_plies=200, claim_draw=True)
        except ValueError:  # the set-up is already over in this variant
            continue
        assert native.native == (variant.name != "canadian")
        ends |= run_both(native, python, 120)
    claims = {rule.termination for rule in variant.draw_rules if not rule.automatic}
    if variant.name not in ("canadian", "breakthrough", "antidraughts") and claims:
        assert ends & claims, ends  # some game ended by a claim


def test_a_repetition_claimed_a_move_ahead() -> None:
    """English draughts lets a player claim the repetition their next move
    would make: the game ends there with ``claim_draw=True``, one move before
    the position occurs a third time, in C as on Board."""
    moves = ["4-8", "29-25", "8-4", "25-29", "4-8", "29-25", "8-4"]
    for env in pair(V.ENGLISH, 1, seed=0, fen="B:WK29:BK4", claim_draw=True, perspective=False):
        board = draughts.Board("B:WK29:BK4", variant="english")
        for ply, text in enumerate(moves):
            move = board.parse_pdn(text)
            env.step(np.array([move_to_index(board, move)]))
            board.push(move)
            assert bool(env.terminated[0]) == (ply == len(moves) - 1), (env.native, ply)
        assert not board.is_repetition() and board.can_claim_threefold_repetition()
        outcome = env.outcomes[0]
        assert outcome is not None and outcome.termination is Termination.REPETITION


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="no /proc/self/task here")
@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one processor: one thread by default")
def test_the_default_threads_come_with_the_games() -> None:
    # By default a thread for every 512 games: a small batch stays on the
    # caller's thread, a large one takes a second.
    def threads() -> int:
        return len(os.listdir("/proc/self/task"))

    before = threads()
    small = VectorEnv("english", 256, seed=1)
    small.step(small.sample())
    assert threads() == before
    large = VectorEnv("english", 1024, seed=1)
    large.step(large.sample())
    assert threads() == before + 1
    del small, large
    assert threads() == before


@pytest.mark.parametrize("variant", [V.INTERNATIONAL, V.FRISIAN])
def test_sample_step_is_step_of_sample_on_any_threads(variant: draughts.Variant) -> None:
    """sample_step() (each thread picks its games' actions in the C step)
    plays what step(sample()) plays with the same seed, on 1 and 3 threads,
    where the illegal actions raise and where they lose."""
    for illegal in ("raise", "lose"):
        split = VectorEnv(variant, 160, seed=9, max_plies=70, threads=1, illegal=illegal)
        fused = [
            VectorEnv(variant, 160, seed=9, max_plies=70, threads=t, illegal=illegal)
            for t in (1, 3)
        ]
        for step in range(200):
            expected = split.step(split.sample())
            for env in fused:
                for ours, theirs in zip(env.sample_step(), expected, strict=True):
                    assert (ours == theirs).all(), (illegal, step)
                assert env.outcomes == split.outcomes
        histories = {
            tuple(tuple(env._native.history(i, True) or ()) for i in range(160))
            for env in [split, *fused]
        }
        assert len(histories) == 1
    python = VectorEnv(variant, 8, seed=4, native=False)
    native = VectorEnv(variant, 8, seed=4)
    for _ in range(30):
        for ours, theirs in zip(python.sample_step(), native.sample_step(), strict=True):
            assert (ours == theirs).all()


def test_an_illegal_action_stops_the_batch_there_on_threads() -> None:
    """On 2 threads as on one: the games before the illegal action move (a
    chunk of 32 games cut short, the chunks after it empty), none after."""
    envs = [VectorEnv("international", 160, seed=6, threads=t) for t in (1, 2)]
    for _ in range(5):
        for env in envs:
            env.step(env.sample())
    before = envs[0].observations.copy()
    actions = envs[0].sample()
    assert (envs[1].sample() == actions).all()  # the random numbers kept in step
    actions[70] = -1
    for env in envs:
        with pytest.raises(IllegalMoveError, match="game 70"):
            env.step(actions)
    ours, theirs = envs[0].observations, envs[1].observations
    assert (ours == theirs).all()
    assert (ours[70:] == before[70:]).all() and (ours[:70] != before[:70]).any()
    for _ in range(20):
        actions = envs[0].sample()
        assert (envs[1].sample() == actions).all()
        for ours, theirs in zip(envs[0].step(actions), envs[1].step(actions), strict=True):
            assert (ours == theirs).all()


def test_step_threads_asleep_or_spinning_step_alike() -> None:
    """Steps that follow each other at once (the threads spinning) and steps
    a few milliseconds apart (the threads asleep, woken by the next step)
    give one thread's games."""
    import time

    envs = [VectorEnv("english", 128, seed=2, threads=t) for t in (1, 2)]
    for step in range(60):
        if step % 3 == 0:
            time.sleep(0.003)  # longer than the threads spin
        results = [env.sample_step() if step % 2 else env.step(env.sample()) for env in envs]
        for ours, theirs in zip(*results, strict=True):
            assert (ours == theirs).all(), step


def test_bound_arrays_are_checked_and_kept() -> None:
    """bind() checks every array's size before it lets go of the arrays it
    kept, step_sampled() needs a bind() first, and the bound arrays are the
    ones sample_step() fills."""
    env = VectorEnv("international", 6, seed=3)
    twin = VectorEnv("international", 6, seed=3)
    native = env._native
    arrays = (env._sampled, *env._native_arrays, env._uniforms)
    with pytest.raises(ValueError, match="uniforms"):
        native.bind(*arrays[:-1], np.empty(5))
    for _ in range(3):  # the first binding still holds
        for ours, theirs in zip(env.sample_step(), twin.step(twin.sample()), strict=True):
            assert (ours == theirs).all()
    start = Board(variant=env.variant)
    fresh = native_games(
        env.variant,
        2,
        start,
        layout(env.variant),
        perspective=True,
        max_plies=None,
        lose=False,
        threads=1,
    )
    assert fresh is not None
    with pytest.raises(RuntimeError, match="bind"):
        fresh.step_sampled()


class _OwnPCG64(np.random.PCG64):
    """A subclass: sample_step() draws its numbers through the capsule."""


@pytest.mark.parametrize("bits", [np.random.PCG64, _OwnPCG64])
@pytest.mark.parametrize(("num_envs", "threads"), [(1, 1), (2, 2), (33, 1), (100, 2), (257, 2)])
def test_sample_step_draws_pcg64s_numbers_on_the_threads(
    bits: type, num_envs: int, threads: int
) -> None:
    """With NumPy's PCG64, each stepping thread draws its games' uniforms
    from its own place in the stream: the numbers Generator.random draws
    (sample()'s), and the generator left where it leaves it, whatever the
    games' number and threads."""
    env = VectorEnv("international", num_envs, seed=1, threads=threads)
    twin = VectorEnv("international", num_envs, seed=1, threads=1)
    env.rng = np.random.Generator(bits(21))
    twin.rng = np.random.Generator(bits(21))
    for _ in range(6):
        for ours, theirs in zip(env.sample_step(), twin.step(twin.sample()), strict=True):
            assert (ours == theirs).all()
        assert env.rng.bit_generator.state == twin.rng.bit_generator.state
    assert (env._uniforms == np.random.Generator(bits(21)).random((6, num_envs))[-1]).all()


@pytest.mark.parametrize("bits", [np.random.PCG64, np.random.Philox, np.random.SFC64])
def test_sample_step_draws_the_generators_numbers_in_c(bits: type) -> None:
    """sample_step() draws its uniforms in C from the environment's
    generator, whatever its bit generator: the same numbers, and the
    generator left in the same state, as step(sample()); a capsule that is
    no bit generator's is refused."""
    env = VectorEnv("international", 40, seed=1)
    twin = VectorEnv("international", 40, seed=1)
    env.rng = np.random.Generator(bits(11))
    twin.rng = np.random.Generator(bits(11))
    for _ in range(5):
        for ours, theirs in zip(env.sample_step(), twin.step(twin.sample()), strict=True):
            assert (ours == theirs).all()
        assert (env.rng.random(3) == twin.rng.random(3)).all()  # the states agree
    assert (env._uniforms == np.random.Generator(bits(11)).random((5, 43))[-1, :40]).all()
    import datetime

    for other in (datetime.datetime_CAPI, 7):  # a capsule of another name, no capsule
        with pytest.raises(ValueError, match="PyCapsule"):
            env._native.step_sampled(other)
    with pytest.raises(TypeError, match="at most two"):
        env._native.step_sampled(None, None, None)
