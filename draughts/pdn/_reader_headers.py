"""The headers of a game, for the PDN reader (see :mod:`draughts.pdn._reader_state`):
its tags, the comments before its first move, and the board the tags describe."""

from __future__ import annotations

import re
from typing import Any

from draughts.pdn._reader_state import ReaderState
from draughts.pdn.headers import SKIP, PdnError, variant_of_tags
from draughts.pdn.infer import Evidence, board_of_fen
from draughts.pdn.pending import Unparsed, comment_text, raw_comment, short_message
from draughts.pdn.resolver import preset_numbering, resolver_for, start_board
from draughts.variant import Variant

# PDN 3.0 escapes only these two; any other backslash is kept ("C:\\games").
_UNESCAPE = re.compile(r'\\([\\"])')


class HeaderReading(ReaderState):
    """The reader's part that reads the headers and sets up the board."""

    __slots__ = ()

    def must_infer(self) -> bool:
        """Whether the variant is to be chosen from the evidence: nothing
        names it, neither the caller nor a tag."""
        if not self.infer:
            return False
        special = self.special
        return not any(special.get(name, ("",))[0].strip() for name in ("GameType", "Variant"))

    def move_number(self, match: re.Match[str], line: int, column: int) -> None:
        if self.in_headers:
            self.found = True
            self.start_moves(line, column)
            self.plain = not (self.skip_all or self.bad)
        if self.bad is not None:
            self.bad.add(match.group(0), line, match)

    def tag(self, kind: str, match: Any, line: int, column: int) -> None:
        """A tag pair among the headers."""
        self.found = True
        if kind == "tag_line":
            _, _, name, value = match
        elif kind == "tag":
            name = match.group("name")
            value = match.group("value")
            if "\\" in value:
                value = _UNESCAPE.sub(r"\1", value)
        else:
            name = match.group("name2")
            value = match.group("value2").strip().strip('"')
        if "\r" in value or "\n" in value:
            # A bare carriage return inside a line (text read without
            # newline translation): no tag value holds a line break.
            value = " ".join(value.splitlines())
            self.visitor.handle_warning(
                PdnError(line, column, f"the {name} tag's value holds a line break", "syntax")
            )
        self.visitor.visit_header(name, value)
        if name in ("GameType", "Variant", "FEN"):
            self.special[name] = (value, line, column)

    def comment(self, kind: str, match: re.Match[str] | str, line: int, column: int) -> None:
        """A comment: braces (maybe over several lines, maybe never closed), a
        ``;`` comment or a parenthesis of prose (both as text from the cursor)."""
        if isinstance(match, str):
            text = match
        elif kind == "semicolon":
            text = match.group("semicolon")[1:]
        else:
            text = match.group("comment")
        if kind == "open_comment":
            self.report(line, column, "comment not closed before the end of the file", "incomplete")
        if self.bad is not None:
            self.bad.add(
                raw_comment(kind, match, text),
                line,
                None if isinstance(match, str) else match,
            )
        elif not text.strip():
            pass  # an empty comment says nothing, before the moves or among them
        elif self.in_headers:
            self.early_comments.append(comment_text(text))
        elif not (self.skip_all or self.skipped):
            self.visitor.visit_comment(comment_text(text))

    def start_moves(self, line: int, column: int) -> None:
        """The headers are over: set up the board they describe."""
        self.in_headers = False
        if self.visitor.end_headers() is SKIP:
            self.skip_all = True
            return
        if self.must_infer():  # a game without moves: only its FEN tag tells
            self.set_up(self.inferred(Evidence(), None, line, column), None)
            return
        special = self.special
        gametype = special.get("GameType")
        variant_tag = special.get("Variant")
        try:
            variant = variant_of_tags(
                gametype and gametype[0], variant_tag and variant_tag[0], self.default
            )
        except ValueError as error:
            where = gametype or variant_tag or ("", line, column)
            self.reject_start(
                Unparsed(where[1], where[2], short_message(str(error)), "variant", None, 0)
            )
            return
        if gametype is not None and variant_tag is not None:
            self.check_variant_tag(variant, variant_tag)
        self.set_up(variant, gametype and gametype[0])

    def set_up(self, variant: Variant, gametype: str | None) -> None:
        """The board of the game: the FEN tag's, else the variant's start."""
        fen = self.special.get("FEN")
        fen_text = fen[0] if fen and fen[0].strip() else None
        try:
            board, crowned = (
                (start_board(variant), ()) if fen_text is None else board_of_fen(fen_text, variant)
            )
        except ValueError as error:
            assert fen is not None
            self.reject_start(
                Unparsed(fen[1], fen[2], short_message(f"invalid FEN tag: {error}"), "fen", None, 0)
            )
            return
        if crowned:
            assert fen is not None
            self.crowned_warning(crowned, fen[1], fen[2], board)
        self.board = board
        self.preset = preset_numbering(variant, gametype)
        self.resolver = resolver_for(variant)
        self.visitor.visit_board(board)
        for comment in self.early_comments:
            self.visitor.visit_comment(comment)
