"""The end of the game, by the rules of each variant: outcomes, draw rules
and their counts, repetitions (a part of :class:`draughts.Board`, see
:mod:`draughts._board_base`)."""

from __future__ import annotations

from collections.abc import Iterator

from draughts import _draw_rules
from draughts._board_base import BoardBase
from draughts._core import UNDO_KEY
from draughts.outcome import DrawRule, Goal, Outcome, Termination
from draughts.piece import BLACK, WHITE, Color

_COLORS = (WHITE, BLACK)


class GameEnd(BoardBase):
    """Board methods about the end of the game (see :class:`draughts.Board`)."""

    __slots__ = ()

    @property
    def halfmove_clock(self) -> int:
        """Plies played since the last capture or man move (or since the
        position was set up): the count of the 25-move, 40-move and
        king-moves rules.

        >>> board = Board("W:WK46:BK4", variant="international")
        >>> _ = board.push_pdn("46-41"); _ = board.push_pdn("4-9")
        >>> board.halfmove_clock
        2
        """
        return len(self._stack) - self._quiet_from

    @property
    def position_key(self) -> int:
        """A 64-bit Zobrist key of the pieces and the side to move: equal
        positions have equal keys. It is kept up to date move by move.

        >>> Board().position_key == Board().copy().position_key
        True
        """
        key = self._key
        if key is None:
            key = self._key = self._ctx.keys.of(self._turn, self._men, self._kings)
        return key

    def draw_rule_counts(self) -> list[tuple[DrawRule, int | None]]:
        """Each counting draw rule of the variant with how far its count has
        got (plies, or the strong side's moves for rules counted that way),
        None while the rule's material is not on the board.

        >>> board = Board("W:WK46:BK5,K23", variant="international")
        >>> [(rule.termination.name, n) for rule, n in board.draw_rule_counts()]
        [('TWENTY_FIVE_MOVE_RULE', 0), ('SIXTEEN_MOVE_RULE', None), ('FIVE_MOVE_RULE', 0)]
        """
        return [(rule, self._count(i)) for i, rule in enumerate(self._ctx.tracker.counting)]

    def _count(self, index: int) -> int | None:
        tracker = self._ctx.tracker
        mode, slot = tracker.modes[index]
        ply = len(self._stack)
        start: int | None
        if mode == _draw_rules.QUIET:
            start = self._quiet_from
        elif mode == _draw_rules.PLIES:
            start = self._ply_origin
        else:
            start = self._starts[slot]
        return tracker.count(index, start, ply, self._turn, self._men, self._kings)

    def king_moves(self, color: Color) -> int:
        """How many non-capturing moves in a row ``color`` has made with the
        same king while it still has men: the count of
        :attr:`~draughts.variant.Variant.king_move_limit` (always 0 in variants without it).

        >>> board = Board("W:WK46,50:B1", variant="frisian")
        >>> _ = board.push_pdn("46-41"); _ = board.push_pdn("1-7")
        >>> board.king_moves(WHITE)
        1
        """
        return self._kmoves[2 * int(color) + 1]

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the position, with the same side to move, has occurred
        ``count`` times (this time included) since the last capture or man
        move, neither of which can be undone.

        >>> board = Board("W:WK46:BK4", variant="international")
        >>> for text in ["46-41", "4-9", "41-46", "9-4"] * 2:
        ...     _ = board.push_pdn(text)
        >>> board.is_repetition(3), board.is_repetition(4)
        (True, False)
        """
        key = self.position_key
        seen = 1
        stack = self._stack
        for ply in range(len(stack) - 2, max(self._quiet_from, 0) - 1, -2):
            if stack[ply][UNDO_KEY] == key:
                seen += 1
                if seen >= count:
                    return True
        return seen >= count

    def can_claim_threefold_repetition(self) -> bool:
        """Whether the player to move may claim a draw by repetition: the
        position has occurred as often as the variant's repetition rule asks,
        or, where the rule allows it (:attr:`DrawRule.claim_on_next_move
        <draughts.outcome.DrawRule.claim_on_next_move>`, the WCDF wording:
        "with their next move they would create the same position for the
        third time"), one of the legal moves would make it so. False in a
        variant without a repetition rule.

        >>> board = Board("B:WK29:BK4", variant="english")
        >>> for text in ["4-8", "29-25", "8-4", "25-29", "4-8", "29-25", "8-4"]:
        ...     _ = board.push_pdn(text)
        >>> board.is_repetition(), board.can_claim_threefold_repetition()
        (False, True)
        """
        rule = self._ctx.tracker.repetition
        if rule is None:
            return False
        if self.is_repetition(rule.limit):
            return True
        if not rule.claim_on_next_move:
            return False
        for move in self._legal_list():
            self.push(move)
            try:
                if self.is_repetition(rule.limit):
                    return True
            finally:
                self.pop()
        return False

    def _met(self, rule: DrawRule, index: int) -> bool:
        """Whether a rule is met on the board (``index`` into the tracker's
        counting rules, -1 for repetition)."""
        if index < 0:
            return self.is_repetition(rule.limit)
        count = self._count(index)
        if count is None or count < rule.limit:
            return False
        if rule.limit:
            return True
        # A pure material rule ("a king against a king is drawn") judges the
        # material that stays on the board: not while the side to move has a
        # capture, which it must make and which changes the material (with a
        # piece each, it takes the last one and wins). See "Choices made" in
        # docs/termination.rst.
        return not any(move.captures for move in self._legal_list())

    def _draws(self, automatic: bool) -> Iterator[DrawRule]:
        """The automatic or the claimable draw rules met now, in the order
        the variant lists them."""
        for rule, index in self._ctx.tracker.order:
            if rule.automatic != automatic:
                continue
            if (
                self.can_claim_threefold_repetition()
                if index < 0 and not automatic
                else self._met(rule, index)
            ):
                yield rule

    def can_claim_draw(self) -> bool:
        """Whether the player to move may claim a draw under one of the
        variant's claimable rules (automatic ones end the game by themselves,
        see :meth:`outcome`).

        >>> Board("B:WK29:BK4", variant="dama").can_claim_draw()
        True
        """
        return next(self._draws(False), None) is not None

    def outcome(self, *, claim_draw: bool = False) -> Outcome | None:
        """How the game has ended, or None while it goes on.

        A win comes first: the side to move has no legal move (it loses, or
        wins under :attr:`Goal.ANTIDRAUGHTS <draughts.outcome.Goal>`), or a
        side has made a king in breakthrough. Then the variant's automatic
        draw rules; with ``claim_draw`` also the draws the player to move
        could claim now.

        >>> board = Board("W:W28:B23", variant="international")
        >>> board.outcome() is None
        True
        >>> board.push_pdn("28x19").captures
        (23,)
        >>> outcome = board.outcome()
        >>> outcome.termination.name, outcome.winner.name, outcome.result()
        ('NO_PIECES', 'WHITE', '2-0')
        """
        variant = self._variant
        turn = self._turn
        if variant.goal is Goal.BREAKTHROUGH:
            for side in (1 - turn, turn):
                if self._kings[side]:
                    return self._outcome(Termination.BREAKTHROUGH, _COLORS[side])
        if not self._legal_list():
            termination = (
                Termination.BLOCKED
                if self._men[turn] | self._kings[turn]
                else Termination.NO_PIECES
            )
            winner = turn if variant.goal is Goal.ANTIDRAUGHTS else 1 - turn
            return self._outcome(termination, _COLORS[winner])
        rule = next(self._draws(True), None)
        if rule is None and claim_draw:
            rule = next(self._draws(False), None)
        return None if rule is None else self._outcome(rule.termination, None)

    def _outcome(self, termination: Termination, winner: Color | None) -> Outcome:
        """An end of this board's game, its result written as its variant's are."""
        variant = self._variant
        return Outcome(termination, winner, variant.result_style, variant.first_color)

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        """Whether :meth:`outcome` is not None.

        >>> Board().is_game_over()
        False
        """
        return self.outcome(claim_draw=claim_draw) is not None

    def outcome_on_timeout(self, color: Color) -> Outcome:
        """The result when ``color`` runs out of time: a loss, or a draw when
        a rule marked :attr:`~draughts.outcome.DrawRule.on_timeout` is met
        (``dama``: a threefold repetition on the board, or a single piece
        against a single king while the side to move has no capture).

        >>> Board("B:W5,K29:BK4", variant="dama").outcome_on_timeout(BLACK).winner
        <Color.WHITE: 0>
        >>> Board("B:WK29:BK4", variant="dama").outcome_on_timeout(BLACK).winner is None
        True
        """
        for rule, index in self._ctx.tracker.order:
            if rule.on_timeout and self._met(rule, index):
                return self._outcome(Termination.TIMEOUT, None)
        return self._outcome(Termination.TIMEOUT, _COLORS[1 - int(color)])

    def outcome_on_resignation(self, color: Color) -> Outcome:
        """The result when ``color`` resigns: its opponent wins.

        >>> Board().outcome_on_resignation(WHITE).result()
        '0-2'
        """
        return self._outcome(Termination.RESIGNATION, _COLORS[1 - int(color)])

    def outcome_by_agreement(self) -> Outcome:
        """The result of a draw agreed by the players.

        >>> Board(variant="english").outcome_by_agreement().result()
        '1/2-1/2'
        """
        return self._outcome(Termination.AGREEMENT, None)
