"""The match runner: clocks, openings, adjudication, errors, Elo, PDN output,
concurrency, and a DXP engine in a match."""

from __future__ import annotations

import math
import shlex
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

import draughts
from draughts import pdn
from draughts.engine import Engine, EngineError, Limit, PlayResult, builtin
from draughts.engine.base import Analysis
from draughts.engine.hub import HubEngine
from draughts.engine.matches import (
    EngineSpec,
    MatchScore,
    TimeControl,
    elo_difference,
    elo_error_margin,
    engine_spec,
    load_openings,
    match,
    play_game,
)
from tests.engine.fake_dxp_peer import serve_in_thread

FAST = Limit(depth=1)


class FirstMove(Engine):
    """Plays the first legal move, after ``delay`` seconds; ``fail_after``
    moves in, raises EngineError instead."""

    def __init__(self, delay: float = 0.0, fail_after: int | None = None) -> None:
        self.delay = delay
        self.fail_after = fail_after
        self.moves = 0

    @property
    def name(self) -> str:
        return "first move"

    def play(self, board: draughts.Board, limit: Limit | None = None) -> PlayResult:
        if self.fail_after is not None and self.moves >= self.fail_after:
            raise EngineError("the test engine broke down")
        self.moves += 1
        time.sleep(self.delay)
        return PlayResult(next(iter(board.legal_moves)))

    def analyse(self, board: draughts.Board, limit: Limit | None = None) -> Analysis:
        return Analysis(None, pv=(self.play(board, limit).move,))


def slow() -> Engine:
    return FirstMove(delay=0.2)


# -- Time controls, engine descriptions ---------------------------------------------


def test_time_controls() -> None:
    assert TimeControl.parse("60+1") == TimeControl(60, 1)
    assert TimeControl.parse("90") == TimeControl(90, 0)
    assert TimeControl.parse(" 0.5+0.05 ") == TimeControl(0.5, 0.05)
    for bad in ("", "60+", "+1", "0", "1m", "60-1"):
        with pytest.raises(ValueError, match="SECONDS or SECONDS\\+INCREMENT"):
            TimeControl.parse(bad)
    clock = TimeControl(60, 1)
    assert clock.budget(60) == pytest.approx(60 / 25 + 0.9)
    assert clock.budget(1) == pytest.approx(0.4)  # never more than 40 % of what is left


def test_engine_descriptions() -> None:
    assert engine_spec("builtin:hard") == EngineSpec("builtin", "hard")
    assert engine_spec("builtin:easy:7").make().name == "draughts built-in (easy)"
    assert engine_spec("hub:/opt/scan/scan hub").argument == "/opt/scan/scan hub"
    assert engine_spec("dxp:localhost:27531") == EngineSpec("dxp", "localhost:27531")
    for bad, words in [
        ("builtin:strong", "builtin:easy, :medium or :hard"),
        ("hub:", "give the command"),
        ("dxp:localhost", "dxp:HOST:PORT"),
        ("scan", "an engine is builtin:LEVEL"),
    ]:
        with pytest.raises(ValueError, match=words):
            engine_spec(bad)


# -- Elo ---------------------------------------------------------------------------


def test_elo_difference_matches_the_logistic_formula() -> None:
    assert elo_difference(0.5) == 0
    # 75 %: the expected score 1 / (1 + 10 ** (-d / 400)) is 3/4 for d = 400 log10 3.
    assert elo_difference(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_difference(0.25) == pytest.approx(-400 * math.log10(3))
    assert elo_difference(0.0) == -math.inf and elo_difference(1.0) == math.inf
    for d in (-300.0, -35.5, 12.0, 250.0):
        assert elo_difference(1 / (1 + 10 ** (-d / 400))) == pytest.approx(d)


def test_elo_error_margin_against_a_hand_computation() -> None:
    # 60 wins, 20 draws, 20 losses: mean 0.7; the game scores' variance is
    # (60 * 0.3**2 + 20 * 0.2**2 + 20 * 0.7**2) / 100 = 0.16, the standard
    # error sqrt(0.16 / 100) = 0.04, times 1.959964 = 0.0784; the interval
    # 0.6216 .. 0.7784 is -400 log10(1/p - 1) = 86.17 .. 218.20 Elo.
    assert elo_error_margin(60, 20, 20) == pytest.approx((218.20 - 86.17) / 2, abs=0.05)
    # Ten times the games: about sqrt(10) times narrower.
    ratio = elo_error_margin(60, 20, 20) / elo_error_margin(600, 200, 200)
    assert ratio == pytest.approx(math.sqrt(10), rel=0.05)
    assert elo_error_margin(0, 30, 0) == 0  # all draws: no spread
    assert elo_error_margin(5, 0, 0) == math.inf
    with pytest.raises(ValueError, match="no games"):
        elo_error_margin(0, 0, 0)


def test_the_score_table() -> None:
    score = MatchScore("hard", "medium")
    for winner in (True, True, None, False, True):
        score = score.add(winner)
    score = score.add(None, finished=False)
    assert (score.wins, score.draws, score.losses, score.unfinished) == (3, 1, 1, 1)
    table = score.table()
    rows = [line.split() for line in table.splitlines()]
    assert rows[1] == ["hard", "5", "3", "1", "1", "3.5", "70.0%"]
    assert rows[2] == ["medium", "5", "1", "1", "3", "1.5", "30.0%"]
    # 3.5/5: the 95 % interval of the score passes 100 %, so only its lower
    # end bounds the difference (0.7 - 1.96 * 0.4 / sqrt(5) = 0.349: -108).
    assert "Elo difference (hard - medium): +147, > -108 at 95 %" in table
    assert "1 game(s) without a result" in table


def test_a_score_of_all_or_nothing_is_a_bound() -> None:
    # Ten wins in ten: an expected score p gives ten wins with a chance of
    # p**10 at most, 5 % at p = 0.05 ** 0.1 = 0.7411, that is +183 Elo.
    table = MatchScore("a", "b", wins=10).table()
    assert table.splitlines()[-1] == "Elo difference (a - b) > +183 at 95 % (all 10 games won)"
    table = MatchScore("a", "b", losses=10).table()
    assert table.splitlines()[-1] == "Elo difference (a - b) < -183 at 95 % (all 10 games lost)"
    assert "inf" not in MatchScore("a", "b", wins=9, draws=1).table()
    assert MatchScore("a", "b").table().endswith(": no game with a result yet")
    table = MatchScore("a", "b", wins=60, draws=20, losses=20).table()
    assert table.endswith("Elo difference (a - b): +147 +/- 66 (95 %)")


# -- Games -------------------------------------------------------------------------


def test_time_forfeit() -> None:
    board, termination, reason, outcome = play_game(
        FirstMove(), FirstMove(delay=0.3), draughts.Board(), time_control=TimeControl(0.5)
    )
    assert termination == "timeout" and reason == "black ran out of time"
    assert outcome is not None and outcome.winner == draughts.WHITE
    assert len(board.move_stack) == 3  # white, black, white: black's second move is late


def test_an_engine_that_fails_loses() -> None:
    _, termination, reason, outcome = play_game(
        FirstMove(), FirstMove(fail_after=2), draughts.Board(variant="english")
    )
    assert termination == "engine-error"
    assert "black's engine failed: the test engine broke down" in reason
    assert outcome is not None and outcome.winner == draughts.WHITE


def test_adjudication() -> None:
    _, termination, reason, outcome = play_game(
        FirstMove(), FirstMove(), draughts.Board(), max_plies=10
    )
    assert (termination, reason) == ("adjudication", "adjudicated a draw at 10 plies")
    assert outcome is not None and outcome.winner is None
    # White has four men to one: adjudicated a win after two quiet plies.
    ahead = draughts.Board("W:W31,32,33,34:B2")
    board, termination, reason, outcome = play_game(
        FirstMove(), FirstMove(), ahead, material_margin=3, material_plies=2
    )
    assert termination == "adjudication" and "white 3 men ahead for 2 plies" in reason
    assert outcome is not None and outcome.winner == draughts.WHITE
    assert len(board.move_stack) == 1


class Scripted(Engine):
    """Plays the moves of ``script`` in turn (PDN text); past its end, the
    first legal move."""

    def __init__(self, script: list[str]) -> None:
        self.script = list(script)

    @property
    def name(self) -> str:
        return "scripted"

    def play(self, board: draughts.Board, limit: Limit | None = None) -> PlayResult:
        if self.script:
            return PlayResult(board.parse_pdn(self.script.pop(0)))
        return PlayResult(next(iter(board.legal_moves)))

    def analyse(self, board: draughts.Board, limit: Limit | None = None) -> Analysis:
        return Analysis(None, pv=(self.play(board, limit).move,))


# Two English kings shuttling: after Black's 8-4 (ply 7) White may claim,
# since his 29-25 would make the position for the third time (WCDF).
_SHUTTLE_FEN = "B:WK29:BK4"
_SHUTTLE = {"black": ["4-8", "8-4"] * 6, "white": ["29-25", "25-29"] * 6}


def _shuttle(
    claim_draws: bool = True, max_plies: int | None = None
) -> tuple[draughts.Board, str, str, draughts.Outcome | None]:
    board = draughts.Board(_SHUTTLE_FEN, variant="english")
    white, black = Scripted(_SHUTTLE["white"]), Scripted(_SHUTTLE["black"])
    return play_game(white, black, board, claim_draws=claim_draws, max_plies=max_plies)


def test_a_claimable_draw_ends_the_game() -> None:
    board, termination, reason, outcome = _shuttle()
    assert board.outcome() is None and board.can_claim_draw()
    assert len(board.move_stack) == 7 and board.turn == draughts.WHITE
    assert (termination, reason) == ("repetition", "draw claimed by white (repetition)")
    assert outcome is not None and outcome.winner is None and outcome.result() == "1/2-1/2"


def test_claims_can_be_turned_off() -> None:
    board, termination, reason, _ = _shuttle(claim_draws=False, max_plies=12)
    assert (termination, reason) == ("adjudication", "adjudicated a draw at 12 plies")
    assert len(board.move_stack) == 12 and board.can_claim_draw()


class Fresh(Engine):
    """Plays a move that makes a position not seen before in the game and
    leaves the opponent no capture: the quiet plies pile up without a
    repetition."""

    @property
    def name(self) -> str:
        return "fresh"

    def play(self, board: draughts.Board, limit: Limit | None = None) -> PlayResult:
        seen = set()
        earlier = board.copy()
        while earlier.move_stack:
            earlier.pop()
            seen.add(earlier.position_key)
        seen.add(board.position_key)
        for move in board.legal_moves:
            board.push(move)
            try:
                if board.position_key not in seen and not board.has_captures():
                    return PlayResult(move)
            finally:
                board.pop()
        raise EngineError("no fresh move")

    def analyse(self, board: draughts.Board, limit: Limit | None = None) -> Analysis:
        return Analysis(None, pv=(self.play(board, limit).move,))


def test_the_forty_move_rule_is_claimed() -> None:
    start = draughts.Board("W:WK1,K5:BK28,K32", variant="english")
    board, termination, reason, outcome = play_game(Fresh(), Fresh(), start)
    assert (termination, reason) == ("forty-move-rule", "draw claimed by white (forty move rule)")
    assert len(board.move_stack) == 80 and outcome is not None and outcome.result() == "1/2-1/2"
    # Unclaimed, the game goes on past the count.
    board, termination, _, _ = play_game(Fresh(), Fresh(), start, claim_draws=False, max_plies=90)
    assert termination == "adjudication" and len(board.move_stack) == 90


def test_a_match_records_claimed_draws(tmp_path: Path) -> None:
    out = tmp_path / "games.pdn"
    result = match(
        Fresh,
        Fresh,
        variant="english",
        openings=[draughts.Board("W:WK1,K5:BK28,K32", variant="english")],
        limit=FAST,
        pdn_path=out,
    )
    assert [(r.termination, r.result, r.plies) for r in result.games] == [
        ("forty-move-rule", "1/2-1/2", 80)
    ] * 2
    with out.open() as handle:
        game = pdn.read_game(handle)
    assert game is not None and game.headers["Termination"] == "forty-move-rule"
    assert game.headers["Result"] == "1/2-1/2"
    assert game.end().comment == "draw claimed by white (forty move rule)"


# -- Openings ------------------------------------------------------------------------


def test_openings_from_fen_and_pdn(tmp_path: Path) -> None:
    fens = tmp_path / "openings.txt"
    fens.write_text('# two positions\nW:W31,32:B19,20\n\n"B:W40:B10"\n')
    boards = load_openings(fens)
    assert [b.fen() for b in boards] == ["W:W31-32:B19-20", "B:W40:B10"]
    games = tmp_path / "openings.pdn"
    games.write_text('1. 32-28 18-23 *\n\n[FEN "W:W31:B20"]\n1. 31-27 *\n')
    boards = load_openings(games)
    assert [len(b.move_stack) for b in boards] == [2, 1]
    assert boards[0].fen() == "W:W28,31,33-50:B1-17,19-20,23"
    bad = tmp_path / "bad.txt"
    bad.write_text("W:W31:B20\nW:W99:B20\n")
    with pytest.raises(ValueError, match=r"bad\.txt, line 2"):
        load_openings(bad)
    illegal = tmp_path / "illegal.pdn"
    illegal.write_text("1. 32-28 *\n\n1. 32-26 *\n")
    with pytest.raises(ValueError, match=r"illegal\.pdn, game 2"):
        load_openings(illegal)
    with pytest.raises(OSError):
        load_openings(tmp_path / "missing.pdn")


# -- Matches -------------------------------------------------------------------------


def test_the_english_three_move_ballot() -> None:
    """benchmarks/openings/english-3move.pdn: the ACF deck's 156 openings,
    each three legal moves from the start, no two alike, none of the deck's
    barred ones; what make_english_ballot.py writes."""
    benchmarks = Path(__file__).resolve().parents[2] / "benchmarks"
    path = benchmarks / "openings" / "english-3move.pdn"
    boards = load_openings(path, "english")
    assert len(boards) == 156
    assert all(len(board.move_stack) == 3 and board.turn == draughts.WHITE for board in boards)
    assert len({board.position_key for board in boards}) == 156
    with pdn.open_pdn(path) as handle:
        written = {
            " ".join(str(move) for move in game.mainline_moves()) for game in pdn.read_games(handle)
        }
    barred = {"9-14 22-18 14-17", "12-16 23-19 16x23", "11-15 21-17 10-14"}  # losing: not dealt
    assert "9-14 23-18 14x23" in written and not written & barred
    # Black's first moves all come in, 9-13 in more openings than 12-16.
    firsts = Counter(line.split()[0] for line in written)
    assert set(firsts) == {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}
    assert firsts["9-13"] > firsts["12-16"]


def test_a_small_match_swaps_colours_and_writes_pdn(tmp_path: Path) -> None:
    openings = tmp_path / "openings.pdn"
    openings.write_text("1. 32-28 18-23 *\n\n1. 34-29 17-21 *\n")
    out = tmp_path / "games.pdn"
    seen: list[float] = []
    result = match(
        "builtin:easy",
        "builtin:medium",
        games=4,
        openings=openings,
        limit=FAST,
        max_plies=40,
        pdn_path=out,
        on_game=lambda record, score: seen.append(score.points),
    )
    records = result.games
    assert [(r.opening, r.white, r.black) for r in records] == [
        (0, "builtin:easy", "builtin:medium"),
        (0, "builtin:medium", "builtin:easy"),
        (1, "builtin:easy", "builtin:medium"),
        (1, "builtin:medium", "builtin:easy"),
    ]
    assert len(seen) == 4
    score = result.score
    assert score.games == 4 and score.points == seen[-1]
    # Every game is in the file, read back with its moves, result and ending.
    with out.open() as handle:
        read = [pdn.read_game(handle) for _ in range(4)]
        assert pdn.read_game(handle) is None
    for record, game in zip(records, read, strict=True):
        assert game is not None and not game.errors
        assert game.headers["Result"] == record.result
        assert game.headers["Termination"] == record.termination
        assert game.headers["White"] == record.white
        assert game.mainline_moves() == record.game.mainline_moves()
        assert len(game.mainline_moves()) == record.plies
        assert game.end().comment == record.reason
    first = read[0]
    assert first is not None and [str(m) for m in first.mainline_moves()[:2]] == ["32-28", "18-23"]
    points = sum(
        1.0
        if (r.winner is not None and (r.winner == draughts.WHITE) == (r.white == "builtin:easy"))
        else 0.5
        if r.winner is None
        else 0.0
        for r in records
    )
    assert score.points == points


def test_concurrent_games_give_the_same_games() -> None:
    kwargs = dict(games=4, variant="english", limit=Limit(depth=2), max_plies=30)
    one = match("builtin:medium", "builtin:easy", concurrency=1, **kwargs)  # type: ignore[arg-type]
    two = match("builtin:medium", "builtin:easy", concurrency=2, **kwargs)  # type: ignore[arg-type]
    assert [r.game.mainline_moves() for r in one.games] == [
        r.game.mainline_moves() for r in two.games
    ]
    assert one.score == two.score


def test_engines_given_as_functions() -> None:
    result = match(slow, lambda: builtin("easy"), games=2, time_control="0.5", variant="english")
    assert [r.termination for r in result.games] == ["timeout", "timeout"]
    # The slow engine lost both, on time: 2 moves take 0.4 s, the third is late.
    assert (result.score.wins, result.score.losses) == (0, 2)
    assert result.score.a == "engine A"


def test_a_dxp_engine_in_a_match() -> None:
    port, served = serve_in_thread(
        builtin("easy", seed=2), limit=Limit(depth=1), games=2, idle_timeout=10
    )
    result = match(f"dxp:127.0.0.1:{port}", "builtin:medium", games=2, limit=FAST)
    games = served()
    assert len(games) == 2  # both games on the one connection
    for record, theirs in zip(result.games, games, strict=True):
        ours = record.game.mainline_moves()
        # The follower's record starts where the GAMEREQ was sent: at the
        # start when it plays white, after our first move when it plays black.
        assert theirs.mainline_moves() == (ours if record.white.startswith("dxp") else ours[1:])
        assert theirs.headers["Result"] == record.result


def test_bad_match_arguments() -> None:
    with pytest.raises(ValueError, match="an engine is"):
        match("scan", "builtin:easy")
    with pytest.raises(ValueError, match="time control"):
        match("builtin:easy", "builtin:easy", time_control="fast")
    with pytest.raises(ValueError, match="at least 1"):
        match("builtin:easy", "builtin:easy", games=0)


def test_the_match_command(capsys: pytest.CaptureFixture[str]) -> None:
    from draughts._cli.main import main

    code = main(
        [
            "match",
            "builtin:easy",
            "builtin:easy:3",
            "--variant",
            "english",
            "--games",
            "2",
            "--depth",
            "1",
            "--max-plies",
            "20",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "builtin:easy v builtin:easy:3, 2 games, depth 1 a move\n" in out
    assert out.count("game ") >= 2 and "Elo difference (builtin:easy - builtin:easy:3)" in out
    assert main(["match", "builtin:easy", "nothing"]) == 2
    assert "an engine is builtin:LEVEL" in capsys.readouterr().err


def test_the_match_command_claims_draws(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from draughts._cli.main import main

    # An opening whose moves leave White a repetition to claim at once.
    openings = tmp_path / "shuttle.pdn"
    openings.write_text(
        f'[GameType "21"]\n[FEN "{_SHUTTLE_FEN}"]\n\n1... 4-8 2. 29-25 8-4 3. 25-29 4-8 '
        "4. 29-25 8-4 *\n"
    )
    command = ["match", "builtin:easy", "builtin:easy:3", "--variant", "english"]
    command += ["--depth", "1", "--openings", str(openings), "--max-plies", "9"]
    assert main(command) == 0
    out = capsys.readouterr().out
    assert out.count("1/2-1/2 draw claimed by white (repetition), 7 plies") == 2
    assert main([*command, "--no-draw-claims"]) == 0
    out = capsys.readouterr().out
    assert "claimed" not in out and out.count("adjudicated a draw at 9 plies, 9 plies") == 2


@pytest.mark.parametrize(
    ("variant", "fen", "line"),
    [
        # English results give Black's score first: White's win is 0-1 in PDN.
        ("english", "W:W18:B14", "1-0 (PDN 0-1) white wins (no pieces), 1 plies"),
        ("english", "B:W18:B14", "0-1 (PDN 1-0) black wins (no pieces), 1 plies"),
        ("international", "W:W33:B28", "2-0     white wins (no pieces), 1 plies"),
    ],
)
def test_match_lines_give_white_s_score_first(
    variant: str, fen: str, line: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Each line lists White's engine first: its result does so too, whatever
    # side the variant's PDN results name first; the PDN result follows.
    from draughts._cli.main import main

    openings = tmp_path / "openings.txt"
    openings.write_text(fen + "\n")
    command = ["match", "builtin:easy", "builtin:easy:3", "--variant", variant, "--depth", "1"]
    assert main([*command, "--openings", str(openings), "--pdn", str(tmp_path / "out.pdn")]) == 0
    out = capsys.readouterr().out
    assert "builtin:easy - builtin:easy:3  " + line in out
    assert "builtin:easy:3 - builtin:easy  " + line in out
    with pdn.open_pdn(tmp_path / "out.pdn") as handle:
        games = list(pdn.read_games(handle))
    pdn_result = line.split()[2].strip("()") if "PDN" in line else line.split()[0]
    assert [g.headers["Result"] for g in games] == [pdn_result, pdn_result]
    assert all(
        record.result_white_first == line.split()[0]
        for record in match(
            "builtin:easy",
            "builtin:easy",
            variant=variant,
            games=2,
            openings=str(openings),
            limit=FAST,
        ).games
    )


def test_hub_engines_in_a_match() -> None:
    fake = Path(__file__).resolve().parent / "fake_hub_engine.py"
    hub = f"hub:{shlex.quote(sys.executable)} {shlex.quote(str(fake))}"
    result = match(hub + " normal", "builtin:easy", games=2, limit=FAST, max_plies=12)
    assert [r.termination for r in result.games] == ["adjudication", "adjudication"]
    assert result.games[0].white == hub + " normal"
    # A Hub engine that dies while searching loses, and the error says so.
    result = match(hub + " crash", "builtin:easy", games=2, limit=FAST)
    assert [r.termination for r in result.games] == ["engine-error", "engine-error"]
    assert "ended (exit code 3)" in result.games[0].reason
    assert (result.score.wins, result.score.losses) == (0, 2)


def test_a_hub_engine_in_a_match_is_told_the_variant() -> None:
    # Our own Hub engine plays international unless told: an English match
    # must tell it, else its moves are refused or wrong for the board.
    ours = f"hub:{shlex.quote(sys.executable)} -m draughts hub"
    result = match(ours, "builtin:easy", variant="english", games=2, limit=FAST, max_plies=12)
    assert all(r.termination not in ("engine-error", "illegal-move") for r in result.games)
    assert all(r.game.board().variant.name == "english" for r in result.games)
    engine = engine_spec(ours).make(variant=draughts.variant.ENGLISH)
    try:
        assert isinstance(engine, HubEngine) and engine.variant == draughts.variant.ENGLISH
    finally:
        engine.quit()


def test_dxp_games_without_a_clock_ask_for_the_whole_game(monkeypatch: pytest.MonkeyPatch) -> None:
    # A count of moves would end the game there for some programs (Moby Dam
    # sends GAMEEND after its 75 moves): without a clock none is asked for.
    from draughts.engine import matches

    asked: list[tuple[int, int]] = []

    def connect(host: str, port: int, *, minutes: int, moves: int) -> None:
        asked.append((minutes, moves))

    monkeypatch.setattr(matches.DxpEngine, "connect", connect)
    spec = engine_spec("dxp:localhost:27531")
    spec.make()
    spec.make(TimeControl(60, 1))
    assert asked == [(10, 0), (3, 75)]


def test_a_match_records_each_sides_time_and_depth() -> None:
    # White's moves, then Black's: one entry per move played after the
    # opening, with the depth the engine reported (the built-in engine
    # reports the depth of its search; FirstMove reports none).
    result = match(
        "builtin:medium", lambda: FirstMove(), games=2, limit=Limit(depth=3), max_plies=12
    )
    for game in result.games:
        white, black = game.thinking
        assert len(white) + len(black) == game.plies and len(white) == len(black)
        ours = white if game.white == "builtin:medium" else black
        theirs = black if ours is white else white
        assert all(depth >= 3 and seconds >= 0 for seconds, depth in ours)
        assert all(depth == 0 for _seconds, depth in theirs)
