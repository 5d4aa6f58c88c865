"""CTL-PGN game records: read them into :class:`Game` objects, write them back.

The reader is a full, tolerant reader (NOTATION.md 7): tags in any order,
comments, nested variations, ``@W``/``@B`` notes, assessments, ``…``
continuations, ``1?`` numbering, legacy check marks, U+2010 hyphens, a
missing result line, several games in one file, ``Redefine`` aliases and
CTL-FAN.  It replays the main line and every variation through the rules
core; the first illegal move is reported with its move number, side, line,
column and the reason.  What it tolerates or finds contradictory (a result
that the moves contradict, a wrong check mark) goes into ``game.warnings``.

It is a total reader: for any text it returns games or raises
:class:`PGNError`, nothing else, and never more than it is asked for.
:func:`iter_pgn` replays the games one at a time as they are asked for,
``read_pgn(..., max_games=n)`` stops after ``n``, and :func:`count_games`
counts the records of a text without replaying any, so a file of thirty
thousand games opens as fast as a file of one.  What a record may hold is
bounded (:data:`~.pgn_syntax.MAX_VARIATION_DEPTH`, numbers of at most six
digits, and tags, characters, half-moves and tokens: see :mod:`.pgn_syntax`);
the writer refuses variations nested deeper than the reader reads.  A record
cut short by a syntax error is replayed as far as it goes, so that an illegal
move before the syntax error is the problem reported: the first in the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from . import notation, pgn_comments
from .clock import NO_CLOCK, ClockError, TimeControl
from .errors import MoveError, PDTLError, PGNError, printable
from .game import VARIANT, Game, Node
from .message import N_, Message
from .outcome import UNFINISHED, Ending, Outcome
from .pdtl import FAN_LETTERS, Letters, letters_with_aliases
from .pgn_syntax import (
    MAX_COMMENT_CHARS,
    MAX_HALF_MOVES,
    MAX_RECORD_TOKENS,
    MAX_TAG_CHARS,
    MAX_TAGS,
    MAX_VARIATION_DEPTH,
    HalfMove,
    Record,
    Variation,
    count_records,
    escape_tag_value,
    iter_records,
)
from .pieces import ALIASES, PIECE_BY_LETTER, WHITE, PieceType
from .position import INITIAL_PDTL, Position

__all__ = ["MAX_VARIATION_DEPTH", "PGNError", "count_games", "iter_pgn", "read_pgn", "write_pgn"]

_ROSTER: Final = ("Variant", "Event", "Site", "Date", "Round", "White", "Black", "Result")
_ENDING_WORDS: Final = (
    ("resigns", Ending.RESIGNATION),
    ("agreement", Ending.AGREEMENT),
    ("on time", Ending.TIME_FORFEIT),
    ("threefold", Ending.THREEFOLD_REPETITION),
    ("fifty-move", Ending.FIFTY_MOVES),
)
_RESULT_HYPHEN: Final = re.compile(r"[ \t]*[-\u2010\u2013][ \t]*")
_LONE_SURROGATE: Final = re.compile(r"[\ud800-\udfff]")
_TAG_NAME: Final = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


# --- reading ---------------------------------------------------------------------


def iter_pgn(text: str, *, strict: bool = False) -> Iterator[Game]:
    """The games of a CTL-PGN text, each parsed and replayed only when it is asked for.

    Raises :class:`PGNError` at the first problem of the game being read; the
    games before it have been yielded.
    """
    for record in iter_records(text, partial=True):
        yield _GameReader(record, strict).read()


def read_pgn(text: str, *, strict: bool = False, max_games: int | None = None) -> list[Game]:
    """The games in a CTL-PGN text: all of them, or the first ``max_games``.

    Raises :class:`PGNError` at the first problem; with ``max_games`` the
    text after the last game read is not looked at.
    """
    if max_games is None:
        return list(iter_pgn(text, strict=strict))
    games: list[Game] = []
    if max_games > 0:
        for game in iter_pgn(text, strict=strict):
            games.append(game)
            if len(games) == max_games:
                break
    return games


def count_games(text: str) -> int:
    """How many games a CTL-PGN text holds, by a fast scan that replays none of them.

    Exact for well-formed records (every record after the first starts with
    its tags); for a damaged text an estimate, as only reading it says what
    is wrong.  A few milliseconds for a 4 MB file.
    """
    return count_records(text)


def _result_value(value: str) -> str:
    """A ``Result`` tag value as the result line writes it: no spaces around the hyphen, ``‐`` and ``–`` as ``-``."""
    return _RESULT_HYPHEN.sub("-", value.strip())


def _parse_redefine(value: str, line: int, column: int) -> tuple[dict[str, PieceType], bool]:
    """``"A@J, C@N, T@R"`` → alias letters; ``"FAN"`` → glyphs (NOTATION.md 7.3.4)."""
    if value.strip() == "FAN":
        return {}, True
    aliases: dict[str, PieceType] = {}
    for pair in value.split(","):
        alias, _, standard = pair.strip().partition("@")
        kind = PIECE_BY_LETTER.get(standard)
        if kind is None or ALIASES.get(alias) != kind or kind in aliases.values():
            raise PGNError(
                Message(N_("Redefine: {pair} is not an allowed alias pair"), pair=repr(pair.strip())),
                line=line,
                column=column,
                token=value,
                expected=Message(N_("pairs such as A@J, C@N, T@R, W@V, Q@D, H@E, at most one per piece")),
            )
        aliases[alias] = kind
    return aliases, False


class _GameReader:
    """Replays one syntax record into a :class:`Game`."""

    def __init__(self, record: Record, strict: bool) -> None:
        self.record = record
        self.strict = strict
        self.warnings: list[str] = []
        self.aliases: dict[str, PieceType] | None = None
        self.letters: Letters | None = None

    def warn(self, message: str, line: int | None = None) -> None:
        self.warnings.append(printable(f"line {line}: {message}" if line is not None else message))

    def tolerate(self, message: str, line: int, column: int, token: str | None = None) -> None:
        if self.strict:
            raise PGNError(message, line=line, column=column, token=token)
        self.warn(message, line)

    def read(self) -> Game:
        """The game, replayed; for a record cut short by a syntax error, the first problem in the text: a problem
        found replaying what came before the syntax error, else that error (the record is not read further)."""
        game = self.replay()
        if self.record.error is not None:
            raise self.record.error
        return game

    def replay(self) -> Game:
        record = self.record
        tags: dict[str, str] = {}
        repeated: list[tuple[str, str]] = []
        for name, value, *_ in record.tags:
            if name in tags:
                repeated.append((name, value))
            else:
                tags[name] = value
        for note in record.notes:
            self.tolerate(f"skipped a note that is not CTL-PGN: {note.text[:40]!r}", note.line, note.column)
        self.check_variant(tags)
        start, castling = self.start_position(tags)
        time_control = self.time_control(tags)
        game = Game(start, tags=tags)  # replayed without clocks; they are set from the record below
        game.repeated_tags = repeated
        game.intro_comments = list(record.intro_comments)
        game.final_comments = list(record.final_comments)
        if not castling:
            game.tags["Castling"] = "No"
        recorded_tag = _result_value(tags["Result"]) if "Result" in tags else None
        self.replay_main_line(game)
        self.settle_result(game, recorded_tag)
        if time_control.enabled:
            game.set_time_control(time_control)
        game.warnings.extend(self.warnings)
        return game

    # --- tags ----------------------------------------------------------------

    def check_variant(self, tags: dict[str, str]) -> None:
        record = self.record
        if not record.tags:
            self.tolerate("record without tags: read as C'escacs", record.line, 1)
            return
        name, _, line, column = record.tags[0]
        variant = tags.get("Variant")
        if variant is not None and variant != VARIANT:
            if "grand" in variant.lower():
                said = Message(N_("Grand C'escacs is not supported"))
                raise PGNError(said, line=line, column=column, token=variant)
            said = Message(N_("unknown variant {variant}"), variant=repr(variant))
            raise PGNError(said, line=line, column=column, token=variant, expected=VARIANT)
        if variant is None:
            self.tolerate('no [Variant "C\'escacs"] tag', line, column)
        elif name != "Variant":
            self.tolerate("the Variant tag should come first", line, column)
        if "Redefine" in tags:
            where = next((ln, col) for n, _, ln, col in record.tags if n == "Redefine")
            aliases, fan = _parse_redefine(tags["Redefine"], *where)
            self.aliases = aliases
            self.letters = FAN_LETTERS if fan else letters_with_aliases(aliases)

    def start_position(self, tags: dict[str, str]) -> tuple[Position, bool]:
        castling = tags.get("Castling", "").strip().lower() not in ("no", "false", "0")
        name = "PDTL" if "PDTL" in tags else "DPTL" if "DPTL" in tags else None
        if name is None:
            return Position.initial(castling=castling), castling
        line, column = next((ln, col) for n, _, ln, col in self.record.tags if n == name)
        if name == "DPTL":
            self.tolerate("the tag is spelled DPTL: read as PDTL", line, column, "DPTL")
            tags["PDTL"] = tags.pop("DPTL")
        try:
            found: list[str] = []
            position = Position.from_pdtl(
                tags["PDTL"], strict=self.strict, castling=castling, letters=self.letters, warnings=found
            )
        except PDTLError as error:
            said = Message(N_("PDTL tag: {reason}"), reason=error.explanation)
            raise PGNError(said, line=line, column=column, token=tags["PDTL"]) from None
        for warning in found:
            self.warn(warning, line)
        tags["PDTL"] = position.to_pdtl()
        return position, castling

    def time_control(self, tags: dict[str, str]) -> TimeControl:
        value = tags.get("TimeControl")
        if value is None:
            return NO_CLOCK
        try:
            return TimeControl.from_tag(value)
        except ClockError as error:
            line = next(ln for n, _, ln, _ in self.record.tags if n == "TimeControl")
            self.warn(f"TimeControl tag ignored: {error}", line)
            return NO_CLOCK

    # --- moves -----------------------------------------------------------------

    def resolve(self, position: Position, half: HalfMove, number: int | None) -> notation.ParsedMove:
        """The legal move a half-move token names, or a :class:`PGNError` saying why not."""
        side = position.turn
        if half.colour is not None and half.colour != side:
            raise PGNError(
                Message(
                    N_("move {number} gives {given}'s move {token}, but {side} is to move"),
                    number=half.number,
                    given=half.colour,
                    token=repr(half.text),
                    side=side,
                ),
                line=half.line,
                column=half.column,
                token=half.text,
            )
        if half.number is not None and number is not None and half.number != number:
            self.tolerate(
                f"move number {half.number} where the position is at move {number}", half.line, half.column, half.text
            )
        try:
            parsed = notation.parse_move(position, half.text, strict=self.strict, canonical=False, aliases=self.aliases)
        except MoveError as error:
            label = half.number if half.number is not None else "?"
            raise PGNError(
                Message(
                    N_("move {number} ({side}) {token}: {reason}"),
                    number=label,
                    side=side,
                    token=half.text,
                    reason=error.explanation,
                ),
                line=half.line,
                column=half.column,
                token=half.text,
            ) from None
        for warning in parsed.warnings:
            self.warn(warning, half.line)
        return parsed

    def replay_main_line(self, game: Game) -> None:
        record = self.record
        first = game.start.fullmove_number
        if record.unknown_start_number and first is not None:
            self.warn("the record numbers its first move '1?' but the start position has a move number")
        if first is None:  # "1?" numbering: relative to the first move written
            first = (record.moves[0].number if record.moves else None) or 1
        black_first = game.start.turn != WHITE
        for index, half in enumerate(record.moves):
            if game.is_over:
                raise PGNError(
                    Message(
                        N_("{token} follows the end of the game ({termination})"),
                        token=repr(half.text),
                        termination=game.outcome_message(),
                    ),
                    line=half.line,
                    column=half.column,
                    token=half.text,
                )
            expected = first + (index + black_first) // 2
            parsed = self.resolve(game.position, half, expected)
            before = game.position.copy() if half.variations else None  # not position_at(index): replaying from
            node = game.play(parsed.move)  # the start for each variation would cost the square of the game's length
            self.annotate(node, half)
            if half.indicator.startswith("(=)") and game.outcome is None:
                game.offer_draw()
            for variation in half.variations:
                assert before is not None
                node.variations.append(self.replay_variation(before, variation))

    def replay_variation(self, start: Position, variation: Variation) -> list[Node]:
        """An alternative line from ``start``; nested variations branch inside it."""
        position = start.copy()
        nodes: list[Node] = []
        for half in variation.moves:
            parsed = self.resolve(position, half, None)
            move = parsed.move
            node = Node.before(position, move, half.number)
            self.annotate(node, half)
            for nested in half.variations:  # from the position before this move (the nested line copies it)
                node.variations.append(self.replay_variation(position, nested))
            position.push(move)
            nodes.append(node)
        return nodes

    def annotate(self, node: Node, half: HalfMove) -> None:
        node.assessment = half.assessment
        node.draw_offer = half.indicator.startswith("(=)")
        found = pgn_comments.split(half.comments, _who(node))
        node.clock = found.clock
        node.comments.extend([*found.words, *found.commands])

    # --- result -----------------------------------------------------------------

    def settle_result(self, game: Game, tag: str | None) -> None:
        """Compare what the record says with what the moves decide (NOTATION.md 6.4)."""
        record = self.record
        written = record.result
        if written is not None and tag is not None and tag not in ("*", written):
            self.warn(f"the result line says {written} but the Result tag says {tag}")
        stated = written if written is not None else tag
        if game.outcome is not None:
            if stated is not None and stated not in (UNFINISHED, game.outcome.result):
                self.warn(f"the record says {stated}, but the moves end in {game.outcome.result} ({game.termination})")
            return
        if stated is None or stated == UNFINISHED:
            return
        reason = None
        ending = Ending.RECORDED
        for comment in record.final_comments:
            text = comment.strip()
            if text.startswith(":"):
                for words, kind in _ENDING_WORDS:
                    if words in text:
                        reason, ending = text[1:].strip(), kind
        if game.tags.get("Termination") == "time forfeit":
            ending = Ending.TIME_FORFEIT
        try:
            outcome = Outcome.recorded(stated, ending, note=reason)
        except ValueError:  # a Result tag that is not a result
            line, column = next(((ln, col) for n, _, ln, col in record.tags if n == "Result"), (record.line, 1))
            self.tolerate(f"the Result tag {stated!r} is not a result: ignored", line, column, stated)
            return
        game.set_recorded_outcome(outcome)
        if reason is not None:
            game.final_comments = [c for c in game.final_comments if c.strip()[1:].strip() != reason]


# --- writing -------------------------------------------------------------------------


def write_pgn(game: Game, *, fan: bool = False) -> str:
    """The game as a CTL-PGN record in the canonical layout (NOTATION.md 7, 8.3).

    ``fan`` writes the moves and the ``PDTL`` tag in CTL-FAN glyphs, declared
    with ``[Redefine "FAN"]``.  A game played without castling gets
    ``[Castling "No"]``, whatever its tags say.  The text can always be
    encoded as UTF-8: a lone surrogate in a tag or comment becomes U+FFFD.
    Raises :class:`PGNError` (and nothing else) for a game no record read
    here can hold: variations nested deeper than :data:`MAX_VARIATION_DEPTH`,
    tags, comments, half-moves or tokens beyond the reader's limits (a name
    of 5,000 characters given through the API): what is written reads back.
    """
    comments = _checked_comments(game)
    lines = _tag_lines(game, fan)
    lines.append("")
    lines.extend(_comment_lines(game.intro_comments, 0))
    if not game.castling_enabled and not any("without castling" in c for c in game.intro_comments):
        lines.append("{ Played without castling. }")
    writer = _LineWriter(fan, last=game.nodes[-1] if game.nodes else None, comments=comments)
    first = game.start.fullmove_number
    lines.extend(writer.line_of_play(game.start, game.nodes, 0, first or 1, unknown=first is None))
    lines.append(game.result)
    if game.outcome is not None and game.outcome.ending not in (Ending.CHECKMATE, Ending.STALEMATE, Ending.RECORDED):
        lines.append(f"{{: {game.termination} }}")
    lines.extend(_comment_lines(game.final_comments, 0))
    return _LONE_SURROGATE.sub("\ufffd", "\n".join(lines) + "\n")


def _checked_comments(game: Game) -> dict[int, str]:
    """Each half-move's comment as it will be written (its comments and clock merged), by ``id`` of its node.

    Refuses a game whose record the reader would refuse: variations nested deeper than
    :data:`MAX_VARIATION_DEPTH`, more half-moves, longer comments or (counted generously) more tokens than a
    record may hold (:mod:`.pgn_syntax`).  The tree is walked without recursion; the writer takes the comments
    checked here rather than merging them again."""
    merged: dict[int, str] = {}  # as written: one comment a half-move
    half_moves = tokens = 0
    pending = [(game.nodes, 0)]
    while pending:
        line, depth = pending.pop()
        for node in line:
            if node.variations and depth == MAX_VARIATION_DEPTH:
                raise PGNError(f"variations are nested more than {MAX_VARIATION_DEPTH} deep: a record cannot hold them")
            pending.extend((variation, depth + 1) for variation in node.variations)
            half_moves += 1
            tokens += 5 + len(node.comments) + 2 * len(node.variations)  # number, move, marks, clock; parentheses
            if (comment := pgn_comments.merge(node.comments, node.clock, _who(node))) is not None:
                merged[id(node)] = comment
    comments = [*game.intro_comments, *game.final_comments, *merged.values()]
    if half_moves > MAX_HALF_MOVES:
        raise PGNError(f"the game has {half_moves} half-moves: a record holds at most {MAX_HALF_MOVES}")
    if tokens + len(comments) > MAX_RECORD_TOKENS:
        raise PGNError(f"the game has too many moves and comments for a record (at most {MAX_RECORD_TOKENS} tokens)")
    if any(len(comment) > MAX_COMMENT_CHARS or "}" in comment for comment in comments):
        raise PGNError(f"a comment holds '}}' or more than {MAX_COMMENT_CHARS} characters: a record cannot hold it")
    return merged


def _tag_lines(game: Game, fan: bool) -> list[str]:
    tags = dict(game.tags)
    tags["Variant"] = VARIANT
    tags["Result"] = game.result
    pdtl = tags.pop("PDTL", None)
    tags.pop("DPTL", None)
    redefine = tags.pop("Redefine", None)
    start_pdtl = game.start.to_pdtl(fan=fan)
    if pdtl is not None or game.start.to_pdtl() != INITIAL_PDTL:
        pdtl = start_pdtl
    if fan:
        redefine = "FAN"
    elif redefine is not None:
        redefine = None  # moves are written with standard letters
    if game.time_control.enabled:
        tags["TimeControl"] = game.time_control.to_tag()
    if game.castling_enabled:
        tags.pop("Castling", None)
    else:
        tags["Castling"] = "No"  # without it the record would read back as a game with castling
    ordered = [name for name in _ROSTER if name in tags] + [name for name in tags if name not in _ROSTER]
    repeated = getattr(game, "repeated_tags", [])
    for name, value in [*tags.items(), *repeated]:
        if not _TAG_NAME.fullmatch(name) or len(name) > MAX_TAG_CHARS or len(value) > MAX_TAG_CHARS:
            raise PGNError(f"the tag {name[:40]!r} cannot be written: a name of letters and digits, and at most "
                           f"{MAX_TAG_CHARS} characters for it and its value")  # fmt: skip
    if len(tags) + len(repeated) + 2 > MAX_TAGS:
        raise PGNError(f"the game has more tags than a record holds ({MAX_TAGS})")
    out = []
    for name in ordered:
        out.append(f'[{name} "{escape_tag_value(tags[name])}"]')
        out.extend(f'[{other} "{escape_tag_value(value)}"]' for other, value in repeated if other == name)
    if redefine is not None:
        out.append(f'[Redefine "{redefine}"]')
    if pdtl is not None:
        out.append(f'[PDTL "{pdtl}"]')
    return out


def _comment_lines(comments: list[str], depth: int) -> list[str]:
    """Each comment on lines of its own, as written (only the braces are added)."""
    prefix = "." * depth
    return [f"{prefix}{{{comment}}}" for comment in comments]


def _who(node: Node) -> str:
    """The marker of ``node``'s mover in comments: ``@W`` or ``@B``."""
    return "@W" if node.colour == WHITE else "@B"


def _about_white(comment: str) -> bool:
    """Whether a comment carries the ``@W`` marker that ties it to White's half-move."""
    return comment.strip().lstrip(":").strip().startswith("@W")


class _LineWriter:
    """Writes numbered move lines with their comments and variations (NOTATION.md 7.4)."""

    def __init__(self, fan: bool, last: Node | None, comments: dict[int, str]) -> None:
        self.fan = fan
        self.last = last
        self.comments = comments

    def half(self, position: Position, node: Node) -> str:
        text = notation.write_move(position, node.move, fan=True) if self.fan else node.san
        if node.assessment:
            text += f" {node.assessment}"
        indicator = "(=)" if node.draw_offer else ""
        if node is self.last and not node.san.endswith("#"):
            indicator += ":"  # the record ends here other than by mate (6.4)
        if indicator:
            text += indicator if node.assessment else f" {indicator}"
        return text

    def line_of_play(self, start: Position, nodes: list[Node], depth: int, number: int, unknown: bool) -> list[str]:
        out: list[str] = []
        prefix = "." * depth
        position = start.copy()
        index = 0
        while index < len(nodes):
            node = nodes[index]
            label = f"{prefix}{number}{'?' if unknown and index == 0 else '.'}"
            before = position.copy()
            if node.colour != WHITE:
                out.append(f"{label} \u2026, {self.half(position, node)}")
                out.extend(self.annex(before, node, depth, number))
                position.push(node.move)
                number += 1
                index += 1
                continue
            white = node
            black = nodes[index + 1] if index + 1 < len(nodes) else None
            text = f"{label} {self.half(position, white)}"
            position.push(white.move)
            if black is not None and any(not _about_white(c) for c in white.comments):
                # A plain comment on White's move must come before Black's half-move.
                out.append(text)
                out.extend(self.annex(before, white, depth, number))
                index += 1
                continue
            if black is None:
                out.append(text)
                out.extend(self.annex(before, white, depth, number))
                index += 1
                continue
            out.append(f"{text}, {self.half(position, black)}")
            before_black = position.copy()
            position.push(black.move)
            out.extend(self.annex(before, white, depth, number))
            out.extend(self.annex(before_black, black, depth, number))
            number += 1
            index += 2
        return out

    def annex(self, before: Position, node: Node, depth: int, number: int) -> list[str]:
        """A half-move's clock, comments and variations, on the lines after its move line."""
        prefix = "." * depth
        out = []
        if (comment := self.comments.get(id(node))) is not None:
            out.extend(_comment_lines([comment], depth))
        for variation in node.variations:
            inner = self.line_of_play(before, variation, depth + 1, number, unknown=False)
            inner[0] = prefix + "(" + inner[0][depth + 1 :]
            if inner[-1].endswith("}"):
                inner.append(")")  # a comment's ``}`` ends its line (7.4.2), so the ``)`` gets one of its own
            else:
                inner[-1] += ")"
            out.extend(inner)
        return out
