"""The plain front end: a game session driven one line at a time, answered in lines of words.

:class:`PlainGame` reads what the player types (a command of
:data:`~cescacs_tui.plain.commands.COMMANDS`, a move in CTL-AN, two hexes, a
hex) and writes plain lines through a callable: no escape sequence, no
colour, no cursor movement, so it works with a screen reader, a braille
display, over SSH, in a pipe or a script.  Everything it does goes through the
:class:`~cescacs_tui.session.GameSession`, with the same rules, clocks and
saving as the full-screen app.

:meth:`PlainGame.show` is the one way a session's answer reaches the player:
it announces every move the game gained since the last answer, in words
(:func:`~cescacs_tui.session.words.announce_last_move`), whoever played it,
so a computer or a remote opponent only has to play through the session and
pass the feedback on.
"""

from __future__ import annotations

import re
import textwrap
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final, NamedTuple

from ..core import HEX_NAMES, Move, Position, find_hex
from ..core.clock import TimeControl
from ..core.errors import AmbiguousMoveError, CescacsError
from ..core.game import Game
from ..core.geometry import COLUMNS, HEX_COLOUR, LINES
from ..core.notation import normalise_typed
from ..core.pieces import ALIASES, LETTERS, PIECE_BY_LETTER, Colour, PieceType
from ..data.settings import Settings
from ..i18n import _, pgettext
from ..session import ACTIONS, Choice, Confirm, Feedback, GameSession, Option, Question, Tone
from ..session.answers import CANCEL, NO, YES, answer_key, answer_words
from ..session.explain import explain
from ..session.game_session import DRAW_OFFER_MARK
from ..session.players import TWO_PEOPLE, Players, player_names
from ..session.terms import hex_words, piece_words, say, side_label
from ..session.words import announce_last_move, describe_move, half_moves, situation
from . import questions
from .commands import COMMANDS, Command, find_command, help_lines, typed
from .computer import PlainComputer

if TYPE_CHECKING:
    from .lessons import PlainLessons  # loaded when the player asks for the lessons

__all__ = ["PlainGame", "new_game", "plain_how"]

Write = Callable[[str], None]

_REVIEWING: Final = frozenset({"review_back", "review_forward", "review_start", "review_live"})
_VARIATIONS: Final = frozenset({"follow_variation", "leave_variation"})
_MOVE_NUMBER: Final = re.compile(r"[0-9]+(?:\.+|\u2026)")
_HEX_NAME: Final = re.compile(r"[A-Z][0-9]+")
_CHECK_MARK: Final = re.compile(r"([+#^\u221e]*)$")


def new_game(
    settings: Settings,
    *,
    castling: bool = True,
    time_control: TimeControl | None = None,
    players: Players = TWO_PEOPLE,
) -> Game:
    """A new game with the players and clock of the settings (as the app starts one), ``castling`` as asked,
    played by ``players`` (the computer's name in the tags of a side it plays)."""
    white, black = player_names(players, settings.white, settings.black)
    return Game.new(
        white=white,
        black=black,
        time_control=settings.parsed_time_control if time_control is None else time_control,
        castling=castling and settings.castling,
    )


_SCREEN_COMMANDS: Final = {"new_game": "new", "save": "save", "open": "open"}
"""The app's own actions that the plain mode has a command for."""


def plain_how(action: str) -> str:
    """How the plain mode does an action: the command typed for it (the hints in the session's messages)."""
    for command in COMMANDS.values():
        if command.action == action:
            return command.word
    if action in _SCREEN_COMMANDS:
        return COMMANDS[_SCREEN_COMMANDS[action]].word
    return _(ACTIONS[action].title).lower()


def _sentence(text: str, typed: str = "", names: Iterable[str] = ()) -> str:
    """A session message as a sentence: a capital first letter, a full stop.

    A first word that repeats an argument the player typed (a file name:
    ``open game`` answers ``game: No such file or directory``) or a player's
    name (``root plays White``) keeps its case: a name is quoted, not corrected.
    """
    text = text.strip()
    if not text:
        return text
    first = text.split()[0].rstrip(":,;")
    quoted = {name for word in typed.split()[1:] for name in (word, Path(word).name)}  # a command's arguments
    quoted.update(word for name in names for word in name.split())
    if first.isalpha() and first not in quoted:
        text = text[0].upper() + text[1:]
    return text if text[-1] in ".?!)" else text + "."


def _option_words(label: str) -> str:
    """A choice's label read aloud: spaces collapsed, an arrow between two hexes said in words."""
    to = pgettext("from one hex to another", "to")
    return " ".join(label.split()).replace("\u2192", f" {to} ")


class PlainGame:
    """The session on the table, driven by lines of text; ``write`` takes one or several lines to show.

    ``settings`` give a new game its players, clock and castling option, as in the app.
    """

    def __init__(
        self,
        session: GameSession,
        write: Write,
        *,
        settings: Settings | None = None,
        computer: PlainComputer | None = None,
    ) -> None:
        self.session = session
        self.computer = computer
        """The engine for the computer's players and hints (``None``: none was asked for, hints are refused)."""
        session.how = plain_how
        self.write = write
        self.settings = settings or Settings()
        """The player's settings: a new game takes its players, clock and castling option from them."""
        self.pending: Question | None = None
        """The question waiting for the player's next line (a promotion piece, a confirmation)."""
        self.running = True
        """False once the player asked to quit."""
        self._seen = self._snapshot()
        self._save_problem: str | None = None
        self._typed = ""
        """The line being answered, whose words the answer quotes as they were typed."""
        self.lessons: PlainLessons | None = None
        """The lessons, while the player is in them (``lessons``): every line goes to them until they leave."""
        self.lock = threading.RLock()
        """Held while a line (and the computer's turn after it) is handled: a :class:`~.flag_watch.FlagWatch`
        announcing a flag fall meanwhile waits for it."""

    # --- start and end -----------------------------------------------------------------

    def start(
        self,
        opening: Feedback | None = None,
        *,
        answer: bool | None = None,
        why: str = "",
        problems: Iterable[str] = (),
    ) -> None:
        """Greet the player, say the ``problems`` found at start, then where the game stands or the ``opening``
        question (:meth:`~cescacs_tui.session.GameSession.offer_resume`, ``offer_separate_game``).

        ``answer`` answers that question without asking (``None``: ask), for
        the reason ``why`` (said to the player).
        """
        help_word = COMMANDS["help"].word
        self.write(
            _("C'escacs in plain text. Type {help} for the commands, or a move such as e7-e13.").format(help=help_word)
        )
        for problem in problems:
            self.write(_("Warning: {problem}.").format(problem=problem))
        question = None if opening is None else opening.question
        if opening is None or not isinstance(question, Confirm):
            self.write(situation(self.session.game))
            self._computer_plays()
            return
        if answer is None:
            self.show(opening)
            return
        self.write(question.prompt)
        self.write(f"{_yes(question) if answer else _no(question)}: {why}")
        self.show(question.answer(answer))
        self._computer_plays()

    def finish(self, why: str = "") -> None:
        """Save the game, free its autosave for another cescacs, and say goodbye (``why``: how the session ended)."""
        self.session.close()
        if self.computer is not None:
            self.computer.close()
        game = self.session.game
        said = [why] if why else []
        said.append(_("Goodbye."))
        if self.session.save_problem is not None:  # not "saved" when it is not
            said.append(_("Warning: {problem}.").format(problem=self.session.save_problem))
        elif game.nodes and not game.is_over:
            said.append(_("The game is saved: cescacs offers to resume it."))
        self._notices()
        self.write(" ".join(said))

    def run(self, lines: Iterable[str]) -> None:
        """Handle ``lines`` until they end or the player quits."""
        for line in lines:
            with self.lock:
                self.handle(line)
                if not self.running:
                    return
                self._computer_plays()

    def _computer_plays(self) -> None:
        """The computer's turn, if it is: it thinks, then its move is announced like a person's."""
        if self.computer is not None:
            self.computer.play_turns(self.show, asking=lambda: self.pending is not None)

    # --- one line ------------------------------------------------------------------------

    def player_names(self) -> tuple[str, ...]:
        """Names an answer may start with, which keep their case (a remote front end knows its players')."""
        return ()

    def handle(self, line: str) -> None:
        """One line typed by the player: the answer to a question, a command, a move, hexes."""
        text = line.strip()
        self._typed = text
        try:
            self._handle(text)
        finally:
            self._typed = ""

    def _handle(self, text: str) -> None:
        self._notice_time()
        if self.session.waiting and (taken := self.session.try_take_over()) is not None:
            self.show(taken)  # the other cescacs has closed the game this one waited for
        if self.pending is not None:
            self._answer(self.pending, text)
            return
        if self.lessons is not None:
            self.lessons.handle(text)
            if not self.lessons.running:
                self.lessons = None
                self.write(_("Back to the game. {situation}").format(situation=situation(self.session.game)))
            return
        if not text or text.startswith("#"):
            return
        word, _space, argument = text.partition(" ")
        command = find_command(word)
        if command is not None:
            self._run(command, argument.strip())
        else:
            self._play_or_look(text)

    def _run(self, command: Command, argument: str) -> None:
        if command.action is not None:
            if argument:
                self.write(
                    _("{command} takes nothing after it: {help}").format(command=command.word, help=command.help_line())
                )
                return
            self._perform(command.action)
            return
        if command.arguments and not command.optional and not argument:
            self.write(
                _("{command} needs {arguments}: {help}").format(
                    command=command.word, arguments=_(command.arguments), help=command.help_line()
                )
            )
            return
        assert command.method is not None
        runner: Callable[[str], None] = getattr(self, command.method)
        runner(argument)

    def _perform(self, action: str) -> None:
        """Run the session action ``action``; a step through the record says where it now stands."""
        feedback: Feedback = getattr(self.session, action)()
        self.show(feedback)
        if feedback.tone is not Tone.ERROR and (action in _REVIEWING or action in _VARIATIONS):
            self.write(questions.last_move(self.session.shown))

    def _notice_time(self) -> None:
        """A line arrived: a flag may have fallen since (when no :class:`~.flag_watch.FlagWatch` said so)."""
        self.announce_flag()
        self.session.save_running_clock()

    def announce_flag(self) -> None:
        """Say that a flag has fallen, if it has (the game ends on time), at once."""
        feedback = self.session.check_time()
        if feedback.text:
            self.show(feedback)

    # --- showing what the session said ----------------------------------------------------

    def _snapshot(self) -> _Seen:
        game = self.session.game
        return _Seen(game.start.to_pdtl(), tuple(game.moves), (game.result, game.termination))

    def show(self, feedback: Feedback) -> None:
        """Show a session's answer: the moves it played in words, the end of the game, its text, its question.

        Call it after anything that may have changed the game, whoever did it:
        a command typed here, a computer's or a remote opponent's move played
        with :meth:`~cescacs_tui.session.GameSession.play`.  Moves are
        announced from what the game holds compared with what was last shown,
        not from the feedback's words, so none is missed or said twice, even by
        a session that puts a new copy of the game on the table for each move
        (a remote client's).
        """
        session = self.session
        game = session.game
        seen, now = self._seen, self._snapshot()
        if feedback.new_game or now.start != seen.start:
            if feedback.text:
                self.write(_sentence(feedback.text, self._typed, self.player_names()))
            self.write(situation(game))
        else:
            common = 0
            while common < min(len(seen.moves), len(now.moves)) and seen.moves[common] == now.moves[common]:
                common += 1
            if len(now.moves) > common:
                for index in range(common, game.ply - 1):
                    self.write(f"{describe_move(game.position_at(index), game.nodes[index].move)}.")
                self.write(announce_last_move(game))
            elif len(seen.moves) > common:
                self.write(_took_back(game, common, seen.moves[common:]))
            elif now.ending != seen.ending:
                self.write(situation(game))
            elif feedback.text:
                self.write(_sentence(feedback.text, self._typed, self.player_names()))
        if feedback.archived is not None:
            self.write(_("The game is archived in {path}.").format(path=feedback.archived))
        self._seen = now
        self._notices()
        if session.save_problem != self._save_problem:
            self._save_problem = session.save_problem
            problem = session.save_problem
            self.write(_("Warning: {problem}.").format(problem=problem) if problem else _("The game is saved again."))
        if feedback.question is not None:
            self._ask(feedback.question)

    def _notices(self) -> None:
        """What the autosave did besides saving (a game archived, a damaged file kept aside), said once."""
        for notice in self.session.notices:
            self.write(_sentence(say(notice), self._typed, self.player_names()))
        self.session.notices.clear()

    # --- questions of the game ------------------------------------------------------------

    def _ask(self, question: Question) -> None:
        self.pending = question
        if isinstance(question, Confirm):
            yes, no = _yes(question), _no(question)
            default = yes if question.default else no
            said = _("{question} {y}: {yes}, {n}: {no} (an empty line: {default}).")
            self.write(
                said.format(
                    question=question.prompt, y=answer_key(True), yes=yes, n=answer_key(False), no=no, default=default
                )
            )
            return
        self.write(question.prompt)
        for number, option in enumerate(question.options, 1):
            key = (
                option.key
                if option.key == str(number)
                else _("{key} or {number}").format(key=option.key, number=number)
            )
            self.write(f"{key}: {_option_words(option.label)}")
        self.write(_("Type the key of your choice; an empty line cancels."))

    def _answer(self, question: Question, text: str) -> None:
        word = text.lower()
        if isinstance(question, Confirm):
            choices = {
                **dict.fromkeys(map(typed, (*answer_words(YES), _yes(question))), True),
                **dict.fromkeys(map(typed, (*answer_words(NO), _no(question))), False),
            }
            answer: bool | None = question.default if not text else choices.get(typed(word))
            if answer is not None:
                self.pending = None
                self.show(question.answer(answer))
                return
        else:
            found = _chosen(question, word)
            if found is not None or not text or typed(word) in map(typed, answer_words(CANCEL)):
                self.pending = None
                self.show(question.answer(None if found is None else found.value))
                return
        command = find_command(text.partition(" ")[0])
        if command is not None and command.reads_only:  # look at the board before answering
            self._run(command, text.partition(" ")[2].strip())
        else:
            self.write(_("{text}: not an answer.").format(text=text))
        self.write(_reminder(question))

    # --- moves, hexes ---------------------------------------------------------------------

    def _play_or_look(self, text: str) -> None:
        tokens = text.split()
        hexes = [find_hex(token.upper()) for token in tokens]
        if len(tokens) == 1 and hexes[0] is not None:
            self._say_hex(hexes[0])
        elif len(tokens) == 2 and hexes[0] is not None and hexes[1] is not None:
            self._pick(hexes[0], hexes[1])
        elif tokens[0].isalpha():
            said = _("{word}: not a command or a move. Type {help} for the commands.")
            self.write(said.format(word=tokens[0], help=COMMANDS["help"].word))
        else:
            self._play(_moves_in(tokens))

    def _play(self, moves: Sequence[str]) -> None:
        """Play the typed moves in turn; stop at the first refused or at a question.

        A promotion typed without its piece (``b22-b24``) is asked, as a pick
        of the two hexes would ask it, instead of refused.
        """
        for move in moves:
            if (hexes := self._promotion_without_piece(move)) is not None:
                self._pick(*hexes)
                return
            feedback = self.session.play_text(move)
            self.show(feedback)
            if not feedback.done or self.pending is not None:
                return

    def _promotion_without_piece(self, text: str) -> tuple[int, int] | None:
        """The origin and target of ``text`` if it names a promotion but not the piece regained, else ``None``."""
        if self.session.blocked() is not None or text.rstrip().endswith(DRAW_OFFER_MARK):
            return None
        position = self.session.game.position
        typed = normalise_typed(text.lstrip("/:"))
        try:
            position.parse_move(typed)
        except AmbiguousMoveError:  # only a displacement whose promotion piece is missing is ambiguous
            origin, target = (find_hex(name) for name in _HEX_NAME.findall(typed)[:2])
            assert origin is not None and target is not None  # the move named them
            regained = next(m.promotion for m in position.legal_moves() if (m.origin, m.target) == (origin, target))
            body, mark = _CHECK_MARK.split(typed, maxsplit=1)[:2]
            try:  # the rest of what was typed must be right (the piece letter, the separator)
                position.parse_move(f"{body}={LETTERS[regained]}{mark}")
            except CescacsError:
                return None
            return origin, target
        except CescacsError:
            pass
        return None

    def _say_hex(self, h: int) -> None:
        position = self.session.shown.reviewed_position()
        said = _("{hex}, {a_hex}: {content}.")
        self.write(
            said.format(hex=HEX_NAMES[h], a_hex=hex_words(HEX_COLOUR[h]), content=questions.hex_content(position, h))
        )

    def _pick(self, origin: int, target: int) -> None:
        """Move by naming two hexes, as a click on each would: the session asks when several moves lead there."""
        session = self.session
        if (reason := session.blocked()) is not None:
            self.show(Feedback.refused(reason))
            return
        selection = session.selection
        assert selection is not None  # not blocked
        selection.cancel()
        first = session.pick(origin)
        if first.question is not None or first.tone is Tone.ERROR:
            self.show(first)
            return
        if origin == target:
            selection.cancel()
            self.write(_("{hex} twice: give the piece's hex, then the hex it goes to.").format(hex=HEX_NAMES[origin]))
            return
        second = session.pick(target)
        if not second.done and second.question is None and second.tone is not Tone.ERROR:
            selection.cancel()  # the second hex holds another piece of the mover's: it was selected instead
            piece = session.game.position.piece_at(target)
            assert piece is not None  # another piece of the mover's
            self.write(_("{hex} holds your own {piece}.").format(hex=HEX_NAMES[target], piece=piece_words(piece)))
            return
        self.show(second)

    # --- the commands ------------------------------------------------------------------

    @property
    def _position(self) -> Position:
        """The position the player is looking at: the live one, or the one reviewed."""
        return self.session.shown.reviewed_position()

    def _hex(self, text: str, command: str) -> int | None:
        h = find_hex(text.strip().upper())
        if h is None:
            said = _("{text}: not a hex of the board; {command} needs a hex such as E7 or F14.")
            self.write(said.format(text=text, command=COMMANDS[command].word))
        return h

    def ask_help(self, argument: str) -> None:
        lines = help_lines(argument or None)
        if not lines:
            said = _("{word}: no such command. Type {help} for the list.")
            lines = [said.format(word=argument, help=COMMANDS["help"].word)]
        self.write("\n".join(wrapped for line in lines for wrapped in help_wrapped(line)))

    def ask_b(self, argument: str) -> None:
        self.write("\n".join(questions.position_words(self.session.shown)))

    def ask_p(self, argument: str) -> None:
        word = argument.strip()
        colour: Colour | None = None
        kind: PieceType | None = None
        sides = {typed(name): side for side in Colour for name in _side_words(side)}
        if typed(word) in sides:
            colour = sides[typed(word)]
        elif word:
            letters = {**ALIASES, **PIECE_BY_LETTER}
            if len(word) != 1 or word.upper() not in letters:
                said = _(
                    "{word}: not a piece letter. p N lists White's Knights, p n Black's; letters K D V R G N J E P."
                )
                self.write(said.format(word=word))
                return
            kind = letters[word.upper()]
            colour = Colour.WHITE if word.isupper() else Colour.BLACK
        self.write("\n".join(questions.pieces(self._position, colour, kind)))

    def ask_s(self, argument: str) -> None:
        word = argument.strip().upper()
        if word.isascii() and word.isdigit() and int(word) < LINES:
            self.write(questions.scan_line(self._position, int(word)))
        elif len(word) == 1 and word in COLUMNS:
            self.write(questions.scan_column(self._position, COLUMNS.index(word)))
        else:
            said = _("{text}: give a column letter ({columns}) or a line number (0 to {last}).")
            self.write(said.format(text=argument, columns=" ".join(COLUMNS), last=LINES - 1))

    def ask_x(self, argument: str) -> None:
        where, _space, direction = argument.partition(" ")
        h = self._hex(where, "x")
        if h is None:
            return
        wanted = questions.find_direction(direction) if direction.strip() else None
        if direction.strip() and wanted is None:
            names = ", ".join(questions.direction_name(name) for name, _delta in questions.DIRECTIONS)
            self.write(_("{text}: not a direction; the directions are {names}.").format(text=direction, names=names))
            return
        self.write("\n".join(questions.around(self._position, h, wanted)))

    def ask_m(self, argument: str) -> None:
        if (h := self._hex(argument, "m")) is not None:
            self.write(questions.moves_of(self._position, h))

    def ask_a(self, argument: str) -> None:
        if (h := self._hex(argument, "a")) is not None:
            self.write(questions.attacks_on(self._position, h))

    def ask_explain(self, argument: str) -> None:
        self.write("\n".join(explain(self.session.shown)))

    def ask_l(self, argument: str) -> None:
        self.write(questions.last_move(self.session.shown))

    def ask_c(self, argument: str) -> None:
        self.write(questions.clocks(self.session.game))

    def ask_r(self, argument: str) -> None:
        self.write("\n".join(questions.regainable(self._position)))

    def ask_moves(self, argument: str) -> None:
        self.write("\n".join(questions.move_list(self.session.shown)))

    def ask_pdtl(self, argument: str) -> None:
        self.write(self.session.position_text())

    def ask_pgn(self, argument: str) -> None:
        self.write(self.session.record_text().rstrip("\n"))

    def do_save(self, argument: str) -> None:
        path = Path(argument).expanduser() if argument else Path.cwd() / self.session.suggested_file_name()
        self.show(self.session.save_record(path))

    def do_open(self, argument: str) -> None:
        if (reason := self.session.refusal("open")) is not None:  # a game held elsewhere takes no record
            self.show(Feedback.refused(reason))
            return
        self.show(self.session.open_record(Path(argument).expanduser()))

    def do_new(self, argument: str) -> None:
        if (asked := self.session.request_new_game()) is not None:  # a game held elsewhere: the other player is asked
            self.show(asked)
            return
        try:
            control = TimeControl.from_tag(argument) if argument else None
        except CescacsError as error:
            self.write(f"{say(error.explanation)}.")
            return
        game = self.session.game

        def start(yes: bool) -> Feedback:
            if not yes:
                return Feedback(_("the game goes on"))
            return self.session.start_game(
                new_game(
                    self.settings, castling=game.castling_enabled, time_control=control, players=self.session.players
                )
            )

        if game.nodes and not game.is_over:
            self.show(Feedback(question=Confirm(_("Abandon this game and start a new one?"), start)))
        else:
            self.show(start(True))

    def do_hint(self, argument: str) -> None:
        if self.computer is None:
            self.write(_("there is no engine in this session to give hints"))
            return
        self.show(self.computer.hint())

    def do_lessons(self, argument: str) -> None:
        from ..data.progress import progress_store
        from ..session.policy import Policy
        from .lessons import PlainLessons

        store = progress_store(Policy().progress_path())  # the plain mode is the owner's
        self.lessons = PlainLessons(self.write, store)
        self.lessons.start()

    def do_quit(self, argument: str) -> None:
        self.running = False


HELP_WIDTH: Final = 80
"""The help's lines are cut to fit a terminal of 80 columns (its other lines are one sentence each, and short)."""


def help_wrapped(line: str) -> list[str]:
    """One help entry as lines of at most :data:`HELP_WIDTH` columns, the following ones indented by two spaces,
    so that a reader (or a braille display) still finds every entry by its first word; words are never cut."""
    return textwrap.wrap(line, HELP_WIDTH, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False) or [
        line
    ]


def _reminder(question: Question) -> str:
    """The question waiting, in one line: asked again after a line that did not answer it."""
    if isinstance(question, Confirm):
        return _("{question} {y} or {n}.").format(question=question.prompt, y=answer_key(True), n=answer_key(False))
    keys = ", ".join(option.key for option in question.options)
    return _("{question} Keys: {keys}; an empty line cancels.").format(question=question.prompt, keys=keys)


def _chosen(choice: Choice, word: str) -> Option[Move] | None:
    """The option ``word`` picks: its key, its number, or the first word of its label ("rook")."""
    for number, option in enumerate(choice.options, 1):
        if typed(word) in (typed(option.key), str(number), typed(option.label.split()[0])):
            return option
    return None


def _moves_in(tokens: Sequence[str]) -> list[str]:
    """The moves of a line of movetext: move numbers left out, a ``(=)`` kept with the move it follows."""
    moves: list[str] = []
    for token in tokens:
        if token == "(=)" and moves:
            moves[-1] += " (=)"
        elif not _MOVE_NUMBER.fullmatch(token):
            moves.append(_MOVE_NUMBER.sub("", token, count=1) if _MOVE_NUMBER.match(token) else token)
    return moves


class _Seen(NamedTuple):
    """What the player was last told of the game: its start, its moves, how it ended (``("*", "")``: it goes on)."""

    start: str
    moves: tuple[Move, ...]
    ending: tuple[str, str]


def _took_back(game: Game, common: int, removed: Sequence[Move]) -> str:
    """The half-moves taken back, in words, then where the game stands."""
    position = game.position_at(common)
    said = []
    for move in removed:
        said.append(describe_move(position, move))
        position.push(move)
    what = said[0] if len(said) == 1 else f"{half_moves(len(said))}: {'; '.join(said)}"
    return _("Took back: {moves}. {situation}").format(moves=what, situation=situation(game))


def _side_words(colour: Colour) -> tuple[str, ...]:
    """What names a side after ``p``: ``white``, and the language's word (``blanques``, ``blancas``)."""
    return (colour.title.lower(), side_label(colour).lower())


def _yes(question: Confirm) -> str:
    return question.yes or _("Yes")


def _no(question: Confirm) -> str:
    return question.no or _("No")
