"""The syntax of CTL-PGN (NOTATION.md 7, 8.3): tokens and records, without the rules.

This layer turns text into :class:`Record` trees (tags, numbered half-moves
with their assessments, indicators, comments and variations, the result)
and knows nothing about which moves are legal: :mod:`.pgn` replays the trees
through the rules core.  Every token keeps its line and column so that an
error can point at it.  Nothing read here is ever evaluated or interpreted
as markup: comments and tag values are kept as plain strings.

Records are parsed one at a time from a stream of tokens (:func:`iter_records`),
so a file of many games costs nothing until its games are asked for.  What a
record may hold is bounded: variations nest at most :data:`MAX_VARIATION_DEPTH`
deep and numbers have at most :data:`MAX_NUMBER_DIGITS` digits, so no input can
exhaust the stack or make a number too large to use; a record holds at most
:data:`MAX_TAGS` tags of :data:`MAX_TAG_CHARS` characters, comments of
:data:`MAX_COMMENT_CHARS`, :data:`MAX_HALF_MOVES` half-moves and
:data:`MAX_RECORD_TOKENS` tokens, and every token costs time linear in its
length, so no record under the file limit can take minutes or gigabytes.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

from .errors import PGNError
from .message import N_, Message
from .notation import split_trailer
from .outcome import RESULTS, UNFINISHED
from .pieces import BLACK, WHITE, Colour

# --- tokens ------------------------------------------------------------------

TAG, COMMENT, OPEN, CLOSE, COMMA, ELLIPSIS, NUMBER, RESULT, NAG, ASSESSMENT, INDICATOR, MOVE, NOTE = (
    "tag", "comment", "(", ")", ",", "ellipsis", "number", "result", "nag", "assessment", "indicator", "move", "note",
)  # fmt: skip

MAX_VARIATION_DEPTH: Final = 100
"""How deep variations may nest (a variation inside a variation ... of the main line); deeper is a
:class:`PGNError`.  Real records nest two or three levels; the limit keeps every recursive reader and
writer far from Python's recursion limit."""
MAX_NUMBER_DIGITS: Final = 6
"""Move numbers and NAGs have at most six digits: no game comes near a million moves."""
MAX_TAGS: Final = 200
"""Tags in one record (a game played here has eight or nine)."""
MAX_TAG_CHARS: Final = 1_000
"""Characters in a tag's name, and in its value as read (a player's name, a PDTL position: a few dozen)."""
MAX_COMMENT_CHARS: Final = 20_000
"""Characters in one comment (a long annotation is a few hundred)."""
MAX_HALF_MOVES: Final = 10_000
"""Half-moves in one record, its main line and every variation together (a long game has a few hundred)."""
MAX_RECORD_TOKENS: Final = 100_000
"""Tokens in one record: moves, move numbers, comments, NAGs, parentheses... (a record of the longest game with
every move commented has a few thousand)."""

_WHITESPACE = re.compile(r"\s+")
_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)[ \t]+"([^"\\\n]*(?:\\[^\n][^"\\\n]*)*)"[ \t]*\]')
"""A tag line; the value's loop is unrolled (runs of ordinary characters, then one escape), so that a value of
megabytes is matched in linear time and constant memory (an alternation repeated per character took 170 bytes of
backtracking stack for each)."""
_RESULT = re.compile(r"([0-3])[ \t]*[-\u2010\u2013][ \t]*([0-3])(?![\w\u2010-])|\*(?=\s|$|\))")
# Digits are ASCII only ([0-9]): "\d" would also take Arabic-Indic and other Unicode digits.
_NUMBER = re.compile(r"([0-9]+)[ \t]*([.?])(?![0-9])")
_NAG = re.compile(r"\$([0-9]+)")
_LABEL = re.compile(r"[ \t]*\$\[([0-9]+)\]")
_ASSESSMENT = re.compile(r"(\?\?|\?!|!\?|!!|\?|!|\u25c7)(?=[\s,(){}:]|$)")
"""An assessment apart from its move; an indicator may follow it glued (``E7-E13 ?!:``, as the writer writes the
last move of an unfinished record)."""
_INDICATOR = re.compile(r"\(=\):|\(=\)|:")
_MOVE = re.compile(r"[^\s,{}()\[\]]+")


# --- tag values: the one escaping rule of the writer and the reader -------------------

_ESCAPED_BY_CODE: Final = re.compile("[\\x00-\\x08\\x0a-\\x1f\\x7f-\\x9f\\u2028\\u2029]")
"""Written as ``\\uXXXX``: line breaks (which would end the tag's line) and the controls a terminal or an
editor acts on (so a record can be looked at with ``cat``).  Tab is kept as it is."""
_ESCAPE_READ: Final = re.compile(r'\\(?:(["\\])|u([0-9A-Fa-f]{4}))')


def escape_tag_value(value: str) -> str:
    """``value`` as it is written between a tag's quotes, so that :func:`unescape_tag_value` gives it back.

    PGN's ``\\\\`` and ``\\"`` (NOTATION.md 7.1 lets readers take them), and ``\\uXXXX`` for each line
    break or control character: the tag stays one line, whatever a player's name holds.
    """
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return _ESCAPED_BY_CODE.sub(lambda match: f"\\u{ord(match.group()):04x}", escaped)


def unescape_tag_value(written: str) -> str:
    """A tag value as written between the quotes, read: ``\\\\``, ``\\"`` and ``\\uXXXX`` undone.

    Any other backslash is an ordinary character (``[Site "C:\\Games"]`` from a writer that does not
    escape, or from this project's writer before it did), so such files stay readable.
    """
    if "\\" not in written:
        return written
    return _ESCAPE_READ.sub(lambda match: match.group(1) or chr(int(match.group(2), 16)), written)


def read_tag_line(line: str) -> tuple[str, str] | None:
    """``(name, value)`` of a line holding one tag (spaces around it allowed), or ``None``: for quick looks."""
    match = _TAG.fullmatch(line.strip(" \t\r\ufeff"))
    return None if match is None else (match.group(1), unescape_tag_value(match.group(2)))


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    line: int
    column: int
    value: tuple[str, ...] = ()


class _Scanner:
    """Splits CTL-PGN text into tokens, tracking line and column."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.line_starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def where(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.line_starts, offset)
        return line, offset - self.line_starts[line - 1] + 1

    def error(
        self, offset: int, message: str | Message, token: str | None = None, expected: str | Message | None = None
    ) -> PGNError:
        line, column = self.where(offset)
        return PGNError(message, line=line, column=column, token=token, expected=expected)

    def too_long(self, offset: int, what: Message, length: int, most: int, token: str) -> PGNError:
        said = Message(N_("a {what} of {count} characters is too long"), what=what, count=length)
        return self.error(offset, said, token, Message(N_("at most {count} characters"), count=most))

    def check_number(self, offset: int, digits: str, what: Message) -> None:
        if len(digits) > MAX_NUMBER_DIGITS:
            raise self.error(
                offset,
                Message(N_("a {what} of {count} digits is too large"), what=what, count=len(digits)),
                digits[:20],
                Message(N_("at most {count} digits"), count=MAX_NUMBER_DIGITS),
            )

    def tokens(self) -> Iterator[Token]:
        """The tokens of the text, in order; the cost of each is linear in its length (and its line's
        start is known without looking back), so the whole text costs linear time."""
        text = self.text
        i = 0
        previous = ""
        fresh_line = True  # nothing but spaces since the start of the line
        while i < len(text):
            match = _WHITESPACE.match(text, i)
            if match:
                fresh_line = fresh_line or text.find("\n", i, match.end()) >= 0
                i = match.end()
                continue
            at_line_start, fresh_line = fresh_line, False  # whatever comes now is on this line
            line, column = self.where(i)
            ch = text[i]
            if text.startswith(("//", "/*"), i) and at_line_start:
                # Notes of the official implementation's saved-game files: not CTL-PGN, skipped.
                end = text.find("\n", i) if text[i + 1] == "/" else text.find("*/", i + 2)
                if end < 0:
                    end = len(text)
                elif text[i + 1] == "*":
                    end += 2
                token = Token(NOTE, text[i:end], line, column)
                i = end
                yield token  # notes do not change what came before them
                continue
            if ch == "{":
                end = text.find("}", i + 1)
                if end < 0:
                    raise self.error(i, Message(N_("comment is never closed")), "{", "'}'")
                if end - i - 1 > MAX_COMMENT_CHARS:
                    raise self.too_long(i, Message(N_("comment")), end - i - 1, MAX_COMMENT_CHARS, "{")
                token = Token(COMMENT, text[i + 1 : end], line, column)
                i = end + 1
            elif ch == "[":
                match = _TAG.match(text, i)
                if not match or not at_line_start:
                    end = text.find("\n", i)
                    bad = text[i : end if end >= 0 else len(text)][:200]
                    raise self.error(
                        i, Message(N_("malformed tag")), bad, Message(N_('[Name "value"] on a line of its own'))
                    )
                name, value = match.group(1), unescape_tag_value(match.group(2))
                for part, what in ((name, N_("tag name")), (value, N_("tag value"))):
                    if len(part) > MAX_TAG_CHARS:
                        raise self.too_long(i, Message(what), len(part), MAX_TAG_CHARS, match.group()[:40])
                token = Token(TAG, match.group(), line, column, (name, value))
                i = match.end()
            elif ch == "}":
                raise self.error(i, Message(N_("'}' without a '{'")), "}")
            elif ch == "]":
                raise self.error(i, Message(N_("']' outside a tag")), "]")
            elif text.startswith("(=)", i):
                match = _INDICATOR.match(text, i)
                assert match is not None
                token = Token(INDICATOR, match.group(), line, column)
                i = match.end()
            elif ch == "(":
                label = _LABEL.match(text, i + 1)
                token = Token(OPEN, "(", line, column, (label.group(1),) if label else ())
                i = label.end() if label else i + 1
            elif ch == ")":
                token, i = Token(CLOSE, ")", line, column), i + 1
            elif ch == ",":
                token, i = Token(COMMA, ",", line, column), i + 1
            elif ch == "\u2026":
                token, i = Token(ELLIPSIS, ch, line, column), i + 1
            elif ch == ".":
                end = i
                while end < len(text) and text[end] == ".":
                    end += 1
                run, i = end - i, end
                if previous != NUMBER or run != 3:
                    continue  # level dots show nesting depth and are ignored (7.4.3)
                token = Token(ELLIPSIS, "...", line, column)
            elif match := _RESULT.match(text, i):
                result = UNFINISHED if match.group() == "*" else f"{match.group(1)}-{match.group(2)}"
                if result not in RESULTS:
                    said = Message(N_("{token} is not a result"), token=repr(match.group()))
                    raise self.error(i, said, match.group(), ", ".join(RESULTS))
                token = Token(RESULT, match.group(), line, column, (result,))
                i = match.end()
            elif match := _NUMBER.match(text, i):
                self.check_number(i, match.group(1), Message(N_("move number")))
                token = Token(NUMBER, match.group(), line, column, (match.group(1), match.group(2)))
                i = match.end()
            elif match := _NAG.match(text, i):
                self.check_number(i, match.group(1), Message.verbatim("NAG"))
                token = Token(NAG, match.group(), line, column, (match.group(1),))
                i = match.end()
            elif (match := _ASSESSMENT.match(text, i)) and previous in (MOVE, ASSESSMENT):
                token = Token(ASSESSMENT, match.group(), line, column)
                i = match.end()
            elif ch == ":" and previous in (MOVE, ASSESSMENT):
                token, i = Token(INDICATOR, ":", line, column), i + 1
            elif match := _MOVE.match(text, i):
                body, trailer = split_trailer(match.group())
                if not body:
                    said = Message(N_("unexpected {token}"), token=repr(match.group()))
                    raise self.error(i, said, match.group(), Message(N_("a move")))
                yield Token(MOVE, body, line, column)
                previous = MOVE
                i = match.end()
                offset = i - len(trailer)
                for part in _trailer_parts(trailer):
                    kind = INDICATOR if part in ("(=)", "(=):", ":") else ASSESSMENT
                    row, col = self.where(offset)
                    yield Token(kind, part, row, col)
                    offset += len(part)
                    previous = kind
                continue
            else:  # pragma: no cover - _MOVE matches any other non-space character
                raise self.error(i, Message(N_("unexpected {token}"), token=repr(ch)), ch)
            previous = token.kind
            yield token


def _trailer_parts(trailer: str) -> list[str]:
    """``"??(=):"`` → ``["??", "(=):"]``: a glued assessment, then a glued indicator."""
    parts = []
    for pattern in (r"\?\?|\?!|!\?|!!|\?|!|\u25c7", r"\(=\):|\(=\)|:"):
        match = re.match(pattern, trailer)
        if match:
            parts.append(match.group())
            trailer = trailer[match.end() :]
    return parts


# --- syntax tree ---------------------------------------------------------------


@dataclass
class HalfMove:
    """One half-move as written: the token and what surrounds it."""

    text: str
    number: int | None
    colour: Colour | None
    """The side the numbering gives it (``None`` when the record has no number for it)."""
    line: int
    column: int
    assessment: str = ""
    indicator: str = ""
    nags: list[int] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    variations: list[Variation] = field(default_factory=list)


@dataclass
class Variation:
    """An alternative line ``( ... )``; it replaces the half-move its first number names."""

    moves: list[HalfMove]
    label: str | None
    line: int
    column: int


@dataclass
class Record:
    """One game record: tags, then move text."""

    tags: list[tuple[str, str, int, int]]
    """``(name, value, line, column)`` in the order written."""
    intro_comments: list[str] = field(default_factory=list)
    moves: list[HalfMove] = field(default_factory=list)
    result: str | None = None
    result_token: Token | None = None
    final_comments: list[str] = field(default_factory=list)
    unknown_start_number: bool = False
    """The first move number was written ``1?`` (NOTATION.md 6.3)."""
    line: int = 1
    notes: list[Token] = field(default_factory=list)
    """``//`` and ``/* */`` notes that were skipped (they are not CTL-PGN)."""
    error: PGNError | None = None
    """Set when the record could not be parsed to its end: what it holds is what came before the error (see
    :func:`iter_records`' ``partial``), so that a reader can report an earlier problem first."""


class _Parser:
    """Builds :class:`Record` trees from tokens."""

    def __init__(self, scanner: _Scanner) -> None:
        self.scanner = scanner
        self.tokens = scanner.tokens()
        self.next: Token | None = None
        self.notes: list[Token] = []
        self.token_count = 0
        """Tokens read for the record being parsed (:data:`MAX_RECORD_TOKENS`)."""
        self.half_moves = 0
        """Half-moves of the record being parsed, in every line (:data:`MAX_HALF_MOVES`)."""

    def peek(self) -> Token | None:
        """The next token that is not a note (notes are kept aside for the record), without taking it."""
        while self.next is None:
            token = next(self.tokens, None)
            if token is None:
                return None
            self.token_count += 1
            if self.token_count > MAX_RECORD_TOKENS:
                said = Message(N_("the record holds more than {count} tokens"), count=MAX_RECORD_TOKENS)
                raise self.error(token, said, Message(N_("a shorter record (moves, numbers, comments, NAGs...)")))
            if token.kind == NOTE:
                self.notes.append(token)
            else:
                self.next = token
        return self.next

    def take(self) -> Token:
        token = self.peek()
        assert token is not None  # callers peek first
        self.next = None
        return token

    def error(self, token: Token | None, message: str | Message, expected: str | Message | None = None) -> PGNError:
        if token is None:
            line, column = self.scanner.where(len(self.scanner.text))
            return PGNError(message, line=line, column=column, token="end of text", expected=expected)
        return PGNError(message, line=token.line, column=token.column, token=token.text, expected=expected)

    def records(self) -> Iterator[Record]:
        while self.peek() is not None:
            yield self.record()  # a record's last peek has taken the notes after it: they are in record.notes

    def record(self) -> Record:
        """The next record; one cut short by a syntax error has :attr:`Record.error` set (and is the last)."""
        self.token_count = 1 if self.next is not None else 0  # the record's first token may be read already
        self.half_moves = 0
        first = self.peek()
        assert first is not None
        record = Record(tags=[], line=first.line)
        try:
            self.parse_into(record, first)
        except PGNError as error:
            record.error = error
        return record

    def parse_into(self, record: Record, first: Token) -> None:
        while (token := self.peek()) is not None and token.kind == TAG:
            if len(record.tags) == MAX_TAGS:
                said = Message(N_("the record holds more than {count} tags"), count=MAX_TAGS)
                raise self.error(token, said, Message(N_("at most {count} tags"), count=MAX_TAGS))
            self.take()
            record.tags.append((token.value[0], token.value[1], token.line, token.column))
        while (token := self.peek()) is not None and token.kind == COMMENT:
            record.intro_comments.append(self.take().text)
        self.line_of_play(record, record.moves, depth=0)
        token = self.peek()
        if token is not None and token.kind == RESULT:
            self.take()
            record.result, record.result_token = token.value[0], token
        while (token := self.peek()) is not None and token.kind == COMMENT:
            record.final_comments.append(self.take().text)
        token = self.peek()
        if token is not None and token.kind != TAG:
            said = Message(N_("unexpected {token} after the result"), token=repr(token.text))
            raise self.error(token, said, Message(N_("a new record starting with tags")))
        if not record.tags and not record.moves and record.result is None:
            raise self.error(first, Message(N_("no tags, moves or result in this record")))
        record.notes, self.notes = self.notes, []

    def line_of_play(self, record: Record | None, moves: list[HalfMove], depth: int) -> list[HalfMove]:
        """Half-moves up to the result (main line, ``depth`` 0) or the closing parenthesis (variation), appended to
        ``moves`` as they are read (so that a record cut short by an error keeps what came before it)."""
        top = depth == 0
        latest: dict[tuple[int | None, Colour | None], HalfMove] = {}
        """The last half-move of each number and side: where a variation that names it goes (7.4.3)."""
        number: int | None = None
        colour: Colour | None = None  # the side the numbering gives the next half-move
        while (token := self.peek()) is not None:
            kind = token.kind
            if kind == NUMBER:
                self.take()
                number, colour = int(token.value[0]), WHITE
                if token.value[1] == "?":
                    if moves or record is None or not top:
                        raise self.error(
                            token, Message(N_("'?' numbering is only for the first move of a record")), "'.'"
                        )
                    record.unknown_start_number = True
            elif kind == ELLIPSIS:
                self.take()
                if colour != WHITE or number is None:
                    said = N_("an ellipsis only stands for White's half-move after a move number")
                    raise self.error(token, Message(said))
                colour = BLACK
                following = self.peek()
                if following is not None and following.kind == COMMA:
                    self.take()
            elif kind == COMMA:
                self.take()
                if not moves or colour != BLACK:
                    raise self.error(token, Message(N_("unexpected ','")), Message(N_("a move")))
            elif kind == MOVE:
                self.take()
                self.half_moves += 1
                if self.half_moves > MAX_HALF_MOVES:
                    too_many = Message(N_("the record holds more than {count} half-moves"), count=MAX_HALF_MOVES)
                    expected = Message(N_("at most {count}, in its main line and variations"), count=MAX_HALF_MOVES)
                    raise self.error(token, too_many, expected)
                moves.append(HalfMove(token.text, number, colour, token.line, token.column))
                latest[number, colour] = moves[-1]
                if colour == WHITE:
                    colour = BLACK
                elif colour == BLACK:
                    assert number is not None
                    number, colour = number + 1, WHITE
            elif kind in (ASSESSMENT, INDICATOR, NAG):
                self.take()
                if not moves:
                    early = Message(N_("{token} before any move"), token=repr(token.text))
                    raise self.error(token, early, Message(N_("a move")))
                last = moves[-1]
                if kind == ASSESSMENT:
                    last.assessment = token.text
                elif kind == INDICATOR:
                    last.indicator = token.text
                else:
                    last.nags.append(int(token.value[0]))
            elif kind == COMMENT:
                self.take()
                if moves:
                    _attach_comment(moves, token.text)
                elif record is not None and top:
                    record.intro_comments.append(token.text)
                else:
                    misplaced = Message(N_("a comment before the first move of a variation"))
                    raise self.error(token, misplaced, Message(N_("a move number")))
            elif kind == OPEN:
                self.take()
                if not moves:
                    raise self.error(token, Message(N_("a variation before any move")), Message(N_("a move")))
                if depth == MAX_VARIATION_DEPTH:
                    raise self.error(
                        token,
                        Message(N_("variations are nested more than {count} deep"), count=MAX_VARIATION_DEPTH),
                        Message(N_("at most {count} levels of '('"), count=MAX_VARIATION_DEPTH),
                    )
                variation = Variation(
                    self.line_of_play(None, [], depth + 1),
                    token.value[0] if token.value else None,
                    token.line,
                    token.column,
                )
                closing = self.peek()
                if closing is None or closing.kind != CLOSE:
                    raise self.error(token, Message(N_("variation is never closed")), "')'")
                self.take()
                if not variation.moves:
                    raise self.error(token, Message(N_("empty variation")), Message(N_("moves")))
                first_move = variation.moves[0]
                latest.get((first_move.number, first_move.colour), moves[-1]).variations.append(variation)
            elif kind == CLOSE:
                if top:
                    raise self.error(token, Message(N_("')' without '('")))
                return moves
            elif kind in (RESULT, TAG):
                return moves  # a variation left open is reported at its "("
            else:  # pragma: no cover - every kind is handled above
                raise self.error(token, Message(N_("unexpected {token}"), token=repr(token.text)))
        return moves


def _marker(comment: str) -> str:
    """``"@W"``/``"@B"`` when a comment is about one player's half-move (NOTATION.md 7.4.2)."""
    text = comment.strip()
    if text.startswith(":"):
        text = text[1:].strip()
    return text[:2] if text[:2] in ("@W", "@B") else ""


def _attach_comment(moves: list[HalfMove], comment: str) -> None:
    """Comments follow the whole move line; ``@W`` sends one back to White's half-move."""
    last = moves[-1]
    if _marker(comment) == "@W" and last.colour == BLACK and len(moves) > 1:
        previous = moves[-2]
        if previous.colour == WHITE and previous.number == last.number:
            previous.comments.append(comment)
            return
    last.comments.append(comment)


def iter_records(text: str, *, partial: bool = False) -> Iterator[Record]:
    """Parse CTL-PGN text into records (syntax only), one at a time as they are asked for.

    Raises :class:`PGNError` when the record being parsed is malformed; the
    records before it have been yielded.  With ``partial`` the malformed
    record is yielded instead, cut short, with :attr:`Record.error` set: a
    reader that replays it finds an earlier problem (an illegal move before a
    syntax error) and reports that one first.  Every record is bounded (see
    :data:`MAX_RECORD_TOKENS` and the other limits), so parsing a record
    costs time linear in its text, and never more than those limits allow.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    for record in _Parser(_Scanner(text)).records():
        if record.error is not None and not partial:
            raise record.error
        yield record
        if record.error is not None:
            return


def parse_records(text: str) -> list[Record]:
    """Every record of CTL-PGN text (syntax only).  Raises :class:`PGNError`."""
    return list(iter_records(text))


_COMMENT_RE: Final = re.compile(r"\{[^}]*\}?")
_TAG_SECTION_RE: Final = re.compile(r"(?:^[ \t]*\[[^\n]*(?:\n|\Z)\s*)+", re.MULTILINE)


def count_records(text: str) -> int:
    """How many records ``text`` holds, by a fast scan that does not parse them.

    Every record after the first starts with its tags, so the count is the
    number of tag sections (runs of lines starting with ``[``, comments left
    out), plus one when move text comes before the first of them.  It agrees
    with :func:`parse_records` for every well-formed text; for a damaged one
    it is an estimate (parsing says what is wrong).
    """
    text = _COMMENT_RE.sub(" ", text.lstrip("\ufeff"))
    count = 0
    first = None
    for count, section in enumerate(_TAG_SECTION_RE.finditer(text), start=1):  # noqa: B007
        if first is None:
            first = section.start()
    if first is None:
        return 1 if text.strip() else 0
    return count + (1 if text[:first].strip() else 0)
