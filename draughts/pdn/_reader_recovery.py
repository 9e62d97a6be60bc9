"""Recovery, for the PDN reader (see :mod:`draughts.pdn._reader_state`): text
kept after a rejected move, variations the visitor skips, and moves that wait
for the next ones to be read (an ambiguous move, a capture split in two)."""

from __future__ import annotations

import re

from draughts.move import Move
from draughts.pdn._reader_state import ReaderState
from draughts.pdn.headers import PdnError
from draughts.pdn.pending import Guess

_LOOKAHEAD = 100  # moves to follow an ambiguous move before taking its first reading


class Recovery(ReaderState):
    """The reader's part that recovers from what is not an ordinary move."""

    __slots__ = ()

    def swallowed(self, kind: str, match: re.Match[str], line: int) -> bool:
        """Whether the token belongs to text kept after a rejected move (or a
        side line with no move before it), or to a variation that is skipped:
        then it only counts the parentheses."""
        bad = self.bad
        if bad is not None:
            if kind == "open":
                bad.nesting += 1
            elif kind == "close":
                if bad.nesting == 0 and (bad.depth > 0 or bad.closes):
                    if bad.closes:
                        bad.add(")", line, match)
                    self.error(bad.error())
                    self.bad = None  # the caller closes the variation it was in
                    return bad.closes
                bad.nesting -= 1
            bad.add(match.group(0), line, match)
            return True
        if self.skipped:
            if kind == "open":
                self.skipped += 1
            elif kind == "close":
                self.skipped -= 1
            self.plain = not self.skipped
            return True
        return False

    def settle(self, match: re.Match[str], line: int, column: int) -> None:
        """Follow every reading of an ambiguous move with the moves after it
        until only one reading can play them."""
        guess = self.guess
        assert guess is not None
        guess.later.append((match, line, column))
        text = match.group("squares")
        alive = []
        for line_board, line_moves in guess.lines:
            try:
                move = self.resolver.resolve(line_board, text)
            except ValueError:
                continue
            line_board.push(move)
            line_moves.append(move)
            alive.append((line_board, line_moves))
        guess.lines = alive
        if len(alive) == 1:
            self.adopt(guess, alive[0][1], "the only one the moves after it can follow")
        elif not alive or len(guess.later) >= _LOOKAHEAD:
            self.unsettled()

    def adopt(self, guess: Guess, chosen: list[Move], why: str) -> None:
        """Read an ambiguous move as the first of ``chosen``, and the moves
        read since as the rest."""
        self.guess = None
        first = guess.first
        self.visitor.handle_warning(
            PdnError(
                guess.line,
                guess.column,
                f"ambiguous move {first.group('squares')!r} read as "
                f"{self.board.pdn(chosen[0], long=True)}, {why}",
                "notation",
                self.board.fen(),
            )
        )
        self.commit(chosen[0], first.group("squares"), first, guess.line, guess.column)
        for move, (later_match, later_line, later_column) in zip(
            chosen[1:], guess.later, strict=True
        ):
            self.commit(move, later_match.group("squares"), later_match, later_line, later_column)

    def unsettled(self) -> None:
        """A move waiting for the next one, which did not come: an error,
        unless every reading of an ambiguous move fits the moves after it
        (then the first is taken, and the warning says so)."""
        split, guess = self.split, self.guess
        if split is not None:
            self.fail(split.error, split.line, split.column, split.raw, split.match)
        elif guess is not None and len(guess.lines) > 1:
            others = ", ".join(self.board.pdn(moves[0], long=True) for _, moves in guess.lines[1:])
            self.adopt(
                guess,
                guess.lines[0][1],
                f"the first of the readings the moves after it fit ({others} fits too)",
            )
        elif guess is not None:
            self.fail(guess.error, guess.line, guess.column, guess.raw, guess.first)
            assert self.bad is not None
            for later, later_line, _ in guess.later:
                self.bad.add(later.group(0), later_line, later)
        self.split = self.guess = None
