"""``python -m draughts hub``: the built-in engine as a Hub engine, spoken to
by a transcript written from Scan's protocol.txt, by our own HubEngine, by
the match runner, and by a GUI that sends nonsense."""

from __future__ import annotations

import io
import queue
import shlex
import sys
import time
from collections.abc import Iterator

import pytest

import draughts
from draughts._cli.hub import run_session
from draughts._cli.main import _parser, main
from draughts.engine import HubEngine, Limit, builtin, match
from draughts.engine.hub import Process, format_position, parse_line, parse_move
from draughts.engine.hub_server import HubServer, table_entries

HUB = [sys.executable, "-m", "draughts", "hub"]
START = "W" + "b" * 20 + "e" * 10 + "w" * 20
# The example of protocol.txt: black kings on 38 and 48 to move, a few king
# moves sent for repetition detection.
EXAMPLE = "BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee"


def read_until(
    process: Process, last: str, timeout: float = 30
) -> list[tuple[str, dict[str, str]]]:
    """Every line up to and including the first ``last`` command."""
    lines = []
    while True:
        command, args = process.receive(timeout, f"'{last}'")
        lines.append((command, args))
        if command == last:
            return lines


def check_search(lines: list[tuple[str, dict[str, str]]], board: draughts.Board) -> None:
    """The info lines of a search of ``board`` and its ``done``: every field
    there, depths rising, each PV and the move legal."""
    *infos, (done, answer) = lines
    assert done == "done" and infos
    depths = []
    for command, info in infos:
        assert command == "info"
        assert {"depth", "score", "nodes", "time", "nps", "pv"} <= set(info), info
        float(info["score"]), float(info["time"]), float(info["nps"])
        depths.append(int(info["depth"]))
        line = board.copy()
        for text in info["pv"].split():
            move = parse_move(text, list(line.legal_moves))
            assert move is not None, (text, info["pv"])
            line.push(move)
    assert depths == sorted(depths) and depths[0] == 1
    move = parse_move(answer["move"], list(board.legal_moves))
    assert move is not None
    if "ponder" in answer:
        after = board.copy()
        after.push(move)
        assert parse_move(answer["ponder"], list(after.legal_moves)) is not None


def test_a_session_written_from_the_protocol_document() -> None:
    process = Process.start(HUB)
    try:
        # The initialisation phase.
        process.send("hub")
        lines = read_until(process, "wait")
        assert lines[0][0] == "id" and lines[0][1]["name"] == "draughts"
        params = {args["name"]: args for command, args in lines if command == "param"}
        assert params["variant"]["type"] == "enum"
        assert {"normal", "killer", "bt", "frisian", "losing"} <= set(
            params["variant"]["values"].split()
        )
        assert params["level"]["values"] == "easy medium hard"
        assert (params["hash"]["type"], params["hash"]["min"]) == ("int", "0")
        assert params["hash"]["value"] == "0"  # the level's own table
        process.send("set-param name=variant value=normal")  # Scan's name: international
        process.send("set-param name=hash value=16")
        process.send("init")
        assert read_until(process, "ready") == [("ready", {})]

        # A search from the start, limited by time.
        process.send(f"pos pos={START}")
        process.send("level move-time=0.2")
        process.send("go think")
        check_search(read_until(process, "done"), draughts.Board())

        # The example with a few moves, pondered, then the ponder is hit.
        process.send(f'pos pos={EXAMPLE} moves="38-15 5-41 48-26"')
        process.send("level moves=9 time=2.7")
        process.send("go ponder")
        process.send("ping")
        process.send("ponder-hit")
        lines = read_until(process, "done")
        assert ("pong", {}) in lines
        lines.remove(("pong", {}))
        board = draughts.Board("W:WK4,25,35,36,K41:BK15,K26")
        check_search(lines, board)

        # Analysis without end, stopped.
        process.send("new-game")
        process.send(f"pos pos={START}")
        process.send("level infinite")
        process.send("go analyze")
        first = read_until(process, "info")
        process.send("ping")
        assert read_until(process, "pong")[-1] == ("pong", {})  # still searching
        asked = time.monotonic()
        process.send("stop")
        lines = first + read_until(process, "done")
        assert time.monotonic() - asked < 1.0
        check_search([line for line in lines if line[0] != "pong"], draughts.Board())

        process.send("quit")
        assert process._popen.wait(10) == 0
    finally:
        process.kill()


def test_our_hub_client_plays_and_analyses_as_the_builtin_engine_does() -> None:
    boards = [
        draughts.Board(),
        draughts.Board("W:W32,K46:B27,17,37,3"),  # captures, a king
        draughts.Board("B:WK4,25,35,36,K41:BK15,K26"),
    ]
    history = draughts.Board("B:WK4,K5,25,35,36:BK38,K48")
    for text in ("38-15", "5-41", "48-26", "41-5"):
        history.push_pdn(text)  # king moves: sent as moves, for repetitions
    local = builtin("hard")
    engine = HubEngine.popen(HUB)
    with engine:
        assert engine.name == "draughts" and "hash" in engine.params
        for board in [*boards, history]:
            for depth in (1, 4):
                expected = local.analyse(board, Limit(depth=depth))
                got = engine.analyse(board, Limit(depth=depth))
                assert (got.pv, got.depth, got.nodes) == (expected.pv, depth, expected.nodes)
                assert got.score is not None and expected.score is not None
                assert got.score.men == pytest.approx(expected.score.men)
            assert engine.play(board, Limit(depth=3)).move == local.play(board, Limit(depth=3)).move
        engine.ping()


# Ours, and two of Scan's names (breakthrough, antidraughts): one engine
# process each, so the default run starts two (test_every_preset_in_one_session
# plays every preset in one session without a process).
@pytest.mark.parametrize(
    "name",
    [
        "english",
        pytest.param("russian", marks=pytest.mark.slow),
        pytest.param("canadian", marks=pytest.mark.slow),
        pytest.param("turkish", marks=pytest.mark.slow),
        pytest.param("frisian", marks=pytest.mark.slow),
        pytest.param("bt", marks=pytest.mark.slow),
        "losing",
    ],
)
def test_every_variant_through_the_variant_parameter(name: str) -> None:
    scan = {"bt": "breakthrough", "losing": "antidraughts"}
    with HubEngine.popen(HUB, options={"variant": name, "level": "medium"}) as engine:
        board = draughts.Board(variant=scan.get(name, name))
        for _ in range(6):  # a few moves each way, the engine playing both sides
            if not board.legal_moves:
                break
            board.push(engine.play(board, Limit(depth=2)).move)
        assert len(board.move_stack) >= 4, name


def test_every_preset_in_one_session() -> None:
    lines: list[str] = []
    server = HubServer(lines.append, level="medium")
    for variant in draughts.variant.VARIANTS:
        board = draughts.Board(variant=variant)
        for command in (
            f"set-param name=variant value={variant.name}",
            f"pos pos={format_position(board)}",
            "level depth=2",
            "go think",
        ):
            assert server.handle(command)
        server.wait()
        command, args = parse_line(lines[-1])
        assert command == "done", (variant.name, lines[-3:])
        assert parse_move(args["move"], list(board.legal_moves)) is not None, variant.name


def test_stop_during_go_think_plays_the_best_move_so_far() -> None:
    lines: queue.Queue[str] = queue.Queue()
    server = HubServer(lines.put)
    server.handle(f"pos pos={START}")
    server.handle("level infinite")
    server.handle("go think")
    while not (line := lines.get(timeout=30)).startswith("info depth=3 "):
        pass
    server.handle("stop")
    server.wait(30)
    answers = [line]
    while not lines.empty():
        answers.append(lines.get())
    command, args = parse_line(answers[-1])
    assert command == "done" and parse_move(args["move"], list(draughts.Board().legal_moves))
    depths = [int(parse_line(a)[1]["depth"]) for a in answers if a.startswith("info")]
    assert depths[-1] < 64  # stopped, not at the end of its depth


def test_several_games_in_one_session_and_a_change_of_variant() -> None:
    lines: queue.Queue[str] = queue.Queue()
    server = HubServer(lines.put, level="medium")

    def search(*commands: str) -> list[str]:
        for command in commands:
            assert server.handle(command)
        server.wait()
        answers = []
        while not lines.empty():
            answers.append(lines.get())
        return answers

    for game in range(2):
        board = draughts.Board()
        search("new-game")
        while board.outcome() is None and len(board.move_stack) < 12:
            answers = search(f"pos pos={format_position(board)}", "level depth=2", "go think")
            command, args = parse_line(answers[-1])
            assert command == "done", answers
            move = parse_move(args["move"], list(board.legal_moves))
            assert move is not None
            board.push(move)
        assert len(board.move_stack) == 12, game
    search("set-param name=variant value=english")
    english = draughts.Board(variant="english")
    answers = search(f"pos pos={format_position(english)}", "level depth=3", "go analyze")
    command, args = parse_line(answers[-1])
    assert command == "done" and parse_move(args["move"], list(english.legal_moves))


@pytest.mark.slow  # four games against an engine process (tests/engine/test_match.py has one)
def test_the_match_command_with_our_hub_engine(capsys: pytest.CaptureFixture[str]) -> None:
    hub = "hub:" + shlex.join(HUB)
    code = main(
        ["match", "builtin:hard", hub, "--games", "2", "--move-time", "0.05", "--max-plies", "16"]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.count("game ") == 2 and "engine-error" not in out and "Elo difference" in out
    # Both engines report their depths (our Hub engine in its info lines).
    assert out.count("s a move, depth ") == 2, out
    # Under a clock, as a tournament manager would run it (the easy level,
    # given on the command line, for speed).
    result = match("builtin:easy", hub + " --level easy", games=2, time_control="3+0.02",
                   max_plies=16)  # fmt: skip
    assert result.score.games == 2
    assert all(game.termination != "engine-error" for game in result.games), result.games


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ('"unclosed', "cannot read the line"),
        ("frobnicate x=1", "unknown command 'frobnicate'"),
        ("set-param name=colour value=red", "unknown parameter 'colour'"),
        ("set-param name=level value=grandmaster", "level must be one of"),
        ("set-param name=hash value=-3", "hash must be a whole number"),
        ("set-param name=variant value=chess", "unknown variant 'chess'"),
        ("set-param value=3", "needs name=... and value=..."),
        ("pos pos=Wbbb", "is 51 characters"),
        (f"pos pos=X{START[1:]}", "side to move is W or B"),
        (f"pos pos=W{'q' * 50}", "square 1 holds 'q'"),
        (f"pos pos=W{'e' * 45}beeee", "black man cannot stand on square 46"),
        (f'pos pos={START} moves="32-28 32-28"', "'32-28' is not a legal move"),
        (f'pos pos={START} moves="banana"', "'banana' is not a legal move"),
        ("level depth=0", "depth='0' is not a valid depth"),
        ("level move-time=soon", "move-time='soon'"),
        ("level time=inf", "time='inf'"),
        ("level nodes=1.5", "nodes='1.5'"),
        ("level depth=100000", "depth='100000'"),
        ("go think", "no position"),
    ],
)
def test_bad_input_is_answered_with_one_error_line(line: str, words: str) -> None:
    lines: list[str] = []
    server = HubServer(lines.append, level="easy")
    assert server.handle(line)
    ((command, args),) = [parse_line(answer) for answer in lines]
    assert command == "error" and words in args["message"], args
    # The session goes on, and a bad pos leaves no position behind.
    assert server.handle("go think")
    assert parse_line(lines[-1]) == ("error", {"message": "go: no position (send pos first)"})
    server.handle(f"pos pos={START}")
    server.handle("level depth=1")
    server.handle("go think")
    server.wait()
    assert lines[-1].startswith("done move=")


def test_a_finished_game_and_commands_during_a_search() -> None:
    lines: queue.Queue[str] = queue.Queue()
    server = HubServer(lines.put)
    server.handle("pos pos=W" + "e" * 50)
    server.handle("go think")
    assert parse_line(lines.get(timeout=5))[1]["message"].startswith("go: the game is over")
    server.handle(f"pos pos={START}")
    server.handle("level infinite")
    server.handle("go analyze")
    for command in ("pos", "go think", "set-param name=level value=easy", "init", "new-game"):
        server.handle(command)
        while (answer := lines.get(timeout=5)).startswith("info"):
            pass
        assert "cannot be obeyed during a search" in answer, (command, answer)
    server.handle("stop")
    server.handle("stop")  # a second stop, or one after the answer, is ignored
    server.wait(10)
    answers = []
    while not lines.empty():
        answers.append(lines.get())
    assert answers[-1].startswith("done move=") and not any("error" in a for a in answers)
    assert not server.handle("quit")
    assert not server.handle("ping")  # nothing is answered after quit
    assert lines.empty()


def _binary_input() -> Iterator[bytes]:
    yield b"hub\n"
    yield b"\xff\xfe\x00 garbage\n"
    yield b"ping\n"


def test_the_command_line_survives_bytes_that_are_not_text() -> None:
    out, err = io.StringIO(), io.StringIO()
    args = _parser(["hub"]).parse_args(["hub", "--level", "easy", "--hash", "8"])
    source = io.BytesIO(b"".join(_binary_input()))
    assert run_session(args, source, out, err) == 0
    answers = out.getvalue().splitlines()
    assert answers[-1] == "pong" and answers[-2].startswith('error message="unknown command')
    assert answers[-2].isascii() and err.getvalue() == ""
    args = _parser(["hub"]).parse_args(["hub", "--variant", "chess"])
    assert run_session(args, io.BytesIO(b""), out, err) == 2
    assert "unknown variant 'chess'" in err.getvalue()


def test_the_hash_parameter_sizes_the_table() -> None:
    assert table_entries(200) == 2 * table_entries(100) > 0
    assert table_entries(10**6) == 10**8  # the most a search takes
    server = HubServer(lambda line: None)
    server.handle("set-param name=hash value=16")
    assert server._make_engine()._table_entries == table_entries(16)


def test_hash_0_leaves_the_table_to_the_level() -> None:
    # By default (hash 0) the Hub engine is builtin("hard"): its kept table
    # grows with the move's time, as a match against builtin:hard assumes.
    lines: list[str] = []
    server = HubServer(lines.append)
    assert server._make_engine()._table_entries is None
    server.handle("new-game")
    server.handle("set-param name=hash value=0")
    server.handle("set-param name=hash value=8193")
    assert (
        lines[-1].startswith("error") and "hash must be a whole number from 0 to 8192" in lines[-1]
    )
    assert server._make_engine()._table_entries is None
