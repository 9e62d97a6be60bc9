"""The terminal game, driven through its input stream."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import draughts
from draughts._cli.play import play


def run(
    lines: list[str],
    *,
    variant: str = "english",
    color: str = "white",
    fen: str | None = None,
    level: str = "medium",
) -> tuple[int, str]:
    out = io.StringIO()
    code = play(
        variant=variant,
        level=level,
        color=color,
        fen=fen,  # type: ignore[arg-type]
        stdin=io.StringIO("".join(f"{line}\n" for line in lines)),
        stdout=out,
    )
    return code, out.getvalue()


def test_mandatory_capture_is_explained() -> None:
    # English, White to move: the black man on 18 stands in front of the
    # white men on 22 and 23, so White must capture: 22 jumps it to 15, or
    # 23 jumps it to 14. A quiet move is refused with both captures named.
    code, out = run(["22-17", "quit"], fen="W:W22,23:B18,1")
    assert code == 0
    assert "'22-17' is not legal: capture is mandatory: 22x15 or 23x14." in out


def test_bad_text_and_illegal_moves_are_explained() -> None:
    _, out = run(["hello", "21-14", "quit"])
    assert "'hello' is not a move." in out
    # 21 to 14 is two rows away: not a step; White's legal steps are listed.
    assert "'21-14' is not legal here. Legal moves: 21-17, 22-17, 22-18" in out


def test_moves_engine_reply_undo_and_hint() -> None:
    _, out = run(["moves", "22-18", "undo", "hint", "quit"], color="black")
    # Black moves first in English: the engine (White) waits for us.
    assert "Legal moves: 9-13, 9-14, 10-14, 10-15, 11-15, 11-16, 12-16" in out
    assert "'22-18' is not legal here" in out
    assert "Nothing to take back." in out
    hint = next(line for line in out.splitlines() if "Hint: " in line)
    text = hint.split("Hint: ")[1].split()[0]
    assert draughts.Board(variant="english").parse_pdn(text)


def test_undo_takes_back_the_move_and_the_reply() -> None:
    _, out = run(["22-18", "undo", "quit"], color="white", fen="W:W22,31:B1,5")
    assert "Engine plays" in out
    assert "Move taken back." in out
    # The last diagram printed is the start position again: White men on 22
    # and 31 in the bottom half, black men on 1 and 5 at the top.
    start = draughts.Board("W:W22,31:B1,5", variant="english").unicode()
    assert out.rsplit("Move taken back.\n", 1)[1].startswith(start.split("\n")[0])


def test_win_is_announced() -> None:
    # White's man on 22 takes Black's last piece on 18: White wins at once.
    code, out = run(["22x15"], fen="W:W22:B18")
    assert code == 0
    # English results give Black's score first (Black moves first).
    assert "Game over: white wins" in out and "Result 0-1." in out


def test_blocked_side_loses() -> None:
    # White to move: its only man, on 29, is blocked by the black men on 25
    # and 22 (the jump over 25 would land on 22). White has lost.
    _, out = run([], fen="W:W29:B22,25")
    assert "Game over: black wins" in out and "Result 1-0." in out


def test_save_writes_a_pdn_that_replays(tmp_path: Path) -> None:
    target = tmp_path / "game.pdn"
    _, out = run(["22-18", f"save {target}", "quit"])
    assert f"Game saved to {target}." in out
    text = target.read_text()
    assert '[GameType "21"]' in text and '[Result "*"]' in text
    assert '[White "You"]' in text and '[Black "draughts (medium)"]' in text
    assert "FEN" not in text  # the game began at the start position
    # The engine (Black) moved first, we played 22-18, the engine replied.
    moves = text.split("\n\n", 1)[1].split()
    board = draughts.Board(variant="english")
    for token in moves:
        if token[0].isdigit() and not token.endswith("."):
            board.push_pdn(token)
    assert board.ply() == 3 and board.move_stack[1] == draughts.Move(22, 18)


def test_save_errors_are_reported(tmp_path: Path) -> None:
    _, out = run(["save", f"save {tmp_path}/missing/dir/game.pdn", "quit"])
    assert "Usage: save FILE" in out
    assert "Cannot save to" in out


def test_end_of_input_leaves_quietly() -> None:
    code, out = run([])
    assert code == 0 and out.endswith("white to move> \n")


def test_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "draughts", "play", "--variant", "russian", "--level", "easy"],
        input="c3-d4\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    assert "Russian draughts" in done.stdout and "Engine plays" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "draughts", "play", "--variant", "chess"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert bad.returncode == 2 and "unknown variant: 'chess'" in bad.stdout
