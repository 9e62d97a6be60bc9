"""The score of an engine match: wins, draws and losses, the share of the
points, and the Elo difference with its confidence interval.

:mod:`draughts.engine.matches` imports everything here, and its names are
found there (and in :mod:`draughts.engine`).

>>> score = MatchScore("a", "b").add(True).add(None)
>>> score.points, score.games
(1.5, 2)
"""

from __future__ import annotations

import math
import statistics

import attrs


def elo_difference(fraction: float) -> float:
    """The Elo difference that makes ``fraction`` the expected score, by the
    logistic formula ``-400 log10(1 / fraction - 1)`` (Elo's rating system as
    chess rating lists use it); infinite for 0 and 1.

    >>> round(elo_difference(0.75), 1)
    190.8
    """
    if fraction <= 0:
        return -math.inf
    if fraction >= 1:
        return math.inf
    return -400 * math.log10(1 / fraction - 1)


def elo_error_margin(wins: int, draws: int, losses: int, confidence: float = 0.95) -> float:
    """Half the width of the ``confidence`` interval of the Elo difference.

    The interval is taken on the mean score per game, whose standard error
    is the standard deviation of the game scores (1, 1/2, 0) over the square
    root of the number of games, with the normal quantile for
    ``confidence`` (1.96 for 95 %); its ends are mapped through
    :func:`elo_difference`. This is the margin cutechess-cli reports.

    >>> round(elo_error_margin(60, 20, 20), 1)
    66.0

    :raises ValueError: for no games.
    """
    games = wins + draws + losses
    if games == 0:
        raise ValueError("no games: no error margin")
    mean = (wins + draws / 2) / games
    if mean in (0, 1):
        return math.inf  # all won or all lost: no finite interval
    low, high = _score_interval(wins, draws, losses, confidence)
    return (elo_difference(high) - elo_difference(low)) / 2


def _score_interval(wins: int, draws: int, losses: int, confidence: float) -> tuple[float, float]:
    """The ``confidence`` interval of the mean score per game (normal
    approximation; its ends may pass 0 or 1)."""
    games = wins + draws + losses
    mean = (wins + draws / 2) / games
    variance = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean**2) / games
    z = statistics.NormalDist().inv_cdf((1 + confidence) / 2)
    spread = z * math.sqrt(variance / games)
    return mean - spread, mean + spread


@attrs.frozen
class MatchScore:
    """The score of engine ``a`` against engine ``b``.

    >>> score = MatchScore("hard", "medium", wins=6, draws=2, losses=2)
    >>> score.points, score.fraction, round(score.elo, 1)
    (7.0, 0.7, 147.2)
    """

    a: str
    b: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    unfinished: int = 0
    """Games with no result (stopped by an error of neither engine)."""

    @property
    def games(self) -> int:
        """Games with a result."""
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        """Engine ``a``'s points: 1 a win, 1/2 a draw."""
        return self.wins + self.draws / 2

    @property
    def fraction(self) -> float:
        """Engine ``a``'s share of the points (0.5 before any game)."""
        return self.points / self.games if self.games else 0.5

    @property
    def elo(self) -> float:
        """The Elo difference ``a`` minus ``b`` (see
        :func:`~draughts.engine.matches.elo_difference`)."""
        return elo_difference(self.fraction)

    @property
    def margin(self) -> float:
        """The 95 % error margin of :attr:`elo` (see
        :func:`~draughts.engine.matches.elo_error_margin`)."""
        return elo_error_margin(self.wins, self.draws, self.losses) if self.games else math.inf

    def add(self, winner_is_a: bool | None, *, finished: bool = True) -> MatchScore:
        """The score after one more game (None: a draw)."""
        if not finished:
            return attrs.evolve(self, unfinished=self.unfinished + 1)
        if winner_is_a is None:
            return attrs.evolve(self, draws=self.draws + 1)
        if winner_is_a:
            return attrs.evolve(self, wins=self.wins + 1)
        return attrs.evolve(self, losses=self.losses + 1)

    def table(self) -> str:
        """The result table: each engine's wins, draws, losses and score,
        then the Elo difference with its margin."""
        width = max(len(self.a), len(self.b), 6)
        rows = [
            f"{'Engine':<{width}}  Games  Wins  Draws  Losses  Points  Score",
            self._row(self.a, self.wins, self.losses, width),
            self._row(self.b, self.losses, self.wins, width),
        ]
        rows.append(f"Elo difference ({self.a} - {self.b}){self._elo_text()}")
        if self.unfinished:
            rows.append(f"{self.unfinished} game(s) without a result are not counted")
        return "\n".join(rows)

    def _elo_text(self) -> str:
        """``: +147 +/- 66 (95 %)``, or a bound where the interval is open.

        >>> MatchScore("a", "b", wins=10)._elo_text()
        ' > +183 at 95 % (all 10 games won)'
        >>> MatchScore("a", "b", wins=9, draws=1)._elo_text()
        ': +512, > +311 at 95 %'
        >>> MatchScore("a", "b", wins=1, losses=1)._elo_text()
        ': +0, unbounded either way at 95 % (too few games)'
        """
        n = self.games
        if n == 0:
            return ": no game with a result yet"
        if self.wins == n or self.losses == n:
            # Were the expected score p, a game is won with a chance of p at
            # most (a draw counts 1/2), so n wins in n games with p**n at
            # most: p**n = 5 % gives the one-sided 95 % bound.
            bound = elo_difference(0.05 ** (1 / n))
            games = "the only game" if n == 1 else f"all {n} games"
            if self.wins == n:
                return f" > {bound:+.0f} at 95 % ({games} won)"
            return f" < {-bound:+.0f} at 95 % ({games} lost)"
        elo, margin = self.elo + 0.0, self.margin  # + 0.0: no "-0" for an even score
        if math.isfinite(margin):
            return f": {elo:+.0f} +/- {margin:.0f} (95 %)"
        # The interval reaches 0 % or 100 %: only its other end is a bound.
        low, high = _score_interval(self.wins, self.draws, self.losses, 0.95)
        if low <= 0 and high >= 1:
            return f": {elo:+.0f}, unbounded either way at 95 % (too few games)"
        if high >= 1:
            return f": {elo:+.0f}, > {elo_difference(low):+.0f} at 95 %"
        return f": {elo:+.0f}, < {elo_difference(high):+.0f} at 95 %"

    def _row(self, name: str, wins: int, losses: int, width: int) -> str:
        points = wins + self.draws / 2
        share = 100 * points / self.games if self.games else 50.0
        return (
            f"{name:<{width}}  {self.games:>5}  {wins:>4}  {self.draws:>5}  {losses:>6}  "
            f"{points:>6.1f}  {share:>4.1f}%"
        )
