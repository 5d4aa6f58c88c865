"""Every command of the plain mode, once: its words, its arguments, what it does.

``help`` is generated from :data:`COMMANDS`, so the list a player reads and
the commands the front end understands can never disagree.  A command that is
a session action (takeback, draw, resign...) names it in ``action``: its help
is the action's own (:data:`~cescacs_tui.session.ACTIONS`), the session's
method of that name runs it and says why when it cannot act now.

The words a player types follow the interface's language, and the English
ones always work too: a Catalan player types ``ajuda``, ``desfés`` or
``surt``, a Spanish one ``ayuda``, ``deshacer`` or ``salir``, and scripts,
documentation and habits written with ``help``, ``takeback`` or ``quit`` keep
working in every language.  The one-letter questions (``b p s x m a l c r``,
adapted from Lichess's blind mode) are the same letters everywhere, like the
piece letters and CTL-AN; their long names are translated.  Each command's
words in a language are the translation of its English name in the context
:data:`COMMAND_CONTEXT` (several words, space-separated: the first is the one
the help shows).  Words are matched in any case and without their accents
(``desfes`` is ``desfés``), since not every keyboard or braille table makes
accents easy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from ..i18n import N_, NC_, _, folded
from ..session import ACTIONS
from ..session.answers import words_of

__all__ = ["COMMANDS", "COMMAND_CONTEXT", "Command", "find_command", "help_lines", "typed"]

COMMAND_CONTEXT: Final = "command typed in plain mode"
"""The catalogs' context of the commands' words (the same English word may be another word elsewhere)."""


def typed(word: str) -> str:
    """A word as it is compared: lower case, without accents (``Desfés`` → ``desfes``)."""
    return folded(word)


@dataclass(frozen=True)
class Command:
    """One command: ``name`` (English) and ``aliases`` are typed as the first word of a line (any case).

    ``arguments`` describes what follows (``""``: nothing; an English message
    id, said in the interface's language); ``optional`` says the command also
    works without them.  ``reads_only`` commands only answer a question about
    the game, so they may be asked while a question of the game waits for its
    answer.  ``method`` is the front end's method that runs it (``None``: the
    session action ``action`` runs it).  ``summary`` is an English message id.
    """

    name: str
    summary: str = ""
    arguments: str = ""
    aliases: tuple[str, ...] = ()
    optional: bool = False
    reads_only: bool = False
    action: str | None = None
    method: str | None = None

    @property
    def words(self) -> tuple[str, ...]:
        """Every word that names the command now: the language's first, then the English name and aliases."""
        return tuple(dict.fromkeys((*words_of(COMMAND_CONTEXT, self.name), *self.aliases)))

    @property
    def word(self) -> str:
        """The word the help shows and the session's hints use: the language's own."""
        return self.words[0]

    @property
    def help(self) -> str:
        """What the command does, in words: its own, or the session action's."""
        if self.summary:
            return _(self.summary)
        assert self.action is not None
        return _(ACTIONS[self.action].help)

    @property
    def usage(self) -> str:
        words = self.word
        if self.arguments:
            arguments = _(self.arguments)
            words += f" [{arguments}]" if self.optional else f" {arguments}"
        return words

    def help_line(self) -> str:
        others = self.words[1:]
        also = _(" (also {words})").format(words=", ".join(others)) if others else ""
        return f"{self.usage}{also}: {self.help}"


def _ask(
    name: str, summary: str, arguments: str = "", *, optional: bool = False, aliases: tuple[str, ...] = ()
) -> Command:
    """A question about the game: it changes nothing."""
    return Command(name, summary, arguments, aliases, optional, reads_only=True, method=f"ask_{name}")


def _do(name: str, action: str, *, aliases: tuple[str, ...] = ()) -> Command:
    """A session action, run by the session's method of that name."""
    return Command(name, aliases=aliases, action=action)


# Translators: each NC_("command typed in plain mode", ...) below is a command's name; translate it with the
# word(s) a player of your language would type, space-separated, the one the help shows first (e.g. "ajuda",
# "m legals").  The English words keep working.  Keep every word distinct from the other commands' words.
_TABLE: Final = (
    _ask(NC_("command typed in plain mode", "help"), N_("this list; help COMMAND for one command"),
         N_("COMMAND"), optional=True, aliases=("?",)),
    _ask(NC_("command typed in plain mode", "b"), N_("the whole position: where the game stands, then every piece"),
         aliases=("board",)),
    _ask(
        NC_("command typed in plain mode", "p"),
        N_("where the pieces are: p N White's Knights, p n Black's, p white, p black, p alone all"),
        N_("LETTER"), optional=True, aliases=("pieces",),
    ),
    _ask(NC_("command typed in plain mode", "s"), N_("what stands on a column (s F) or a line (s 13)"),
         N_("COLUMN|LINE"), aliases=("scan",)),
    _ask(
        NC_("command typed in plain mode", "x"),
        N_("around a hex, ray by ray in the 12 directions (x E7; x E7 up for one direction)"),
        N_("HEX [DIRECTION]"), aliases=("around",),
    ),
    _ask(NC_("command typed in plain mode", "m"), N_("the legal moves of the piece on a hex (m E7)"), N_("HEX"),
         aliases=("legal",)),
    _ask(NC_("command typed in plain mode", "a"), N_("which pieces of each side attack a hex (a F14)"), N_("HEX"),
         aliases=("attacks",)),
    _ask(
        NC_("command typed in plain mode", "explain"),
        N_("what the position shows: the check and how to answer it, the pieces under attack, the last move's threats"),
        aliases=("e",),
    ),
    _ask(NC_("command typed in plain mode", "l"), N_("the last move, and whose turn it is"), aliases=("last",)),
    _ask(NC_("command typed in plain mode", "c"), N_("the clocks"), aliases=("clock",)),
    _ask(NC_("command typed in plain mode", "r"), N_("the pieces each side could regain by promotion"),
         aliases=("regain",)),
    _ask(NC_("command typed in plain mode", "moves"), N_("the moves played, in CTL-AN"), aliases=("list",)),
    _ask(NC_("command typed in plain mode", "pdtl"), N_("the position shown, as PDTL")),
    _ask(NC_("command typed in plain mode", "pgn"), N_("the game record, as CTL-PGN"), aliases=("record",)),
    _do(NC_("command typed in plain mode", "takeback"), "takeback", aliases=("u", "undo")),
    _do(NC_("command typed in plain mode", "redo"), "redo"),
    _do(NC_("command typed in plain mode", "draw"), "offer_draw", aliases=("offer",)),
    _do(NC_("command typed in plain mode", "claim"), "claim_draw"),
    _do(NC_("command typed in plain mode", "resign"), "resign"),
    _do(NC_("command typed in plain mode", "pause"), "pause_clock"),
    _do(NC_("command typed in plain mode", "back"), "review_back"),
    _do(NC_("command typed in plain mode", "forward"), "review_forward", aliases=("next",)),
    _do(NC_("command typed in plain mode", "start"), "review_start"),
    _do(NC_("command typed in plain mode", "live"), "review_live"),
    _do(NC_("command typed in plain mode", "variation"), "follow_variation"),
    _do(NC_("command typed in plain mode", "leave"), "leave_variation"),
    Command(NC_("command typed in plain mode", "save"),
            N_("save the game as a CTL-PGN file (default: a name from its date and players)"), N_("FILE"),
            optional=True, method="do_save"),
    Command(NC_("command typed in plain mode", "open"), N_("open a CTL-PGN record (its first game)"), N_("FILE"),
            method="do_open"),
    Command(NC_("command typed in plain mode", "new"),
            N_("a new game (asks first if one is under way); new 900+10 with a clock"), N_("TIMECONTROL"),
            optional=True, method="do_new"),
    Command(NC_("command typed in plain mode", "hint"),
            N_("the engine's best move in the position shown, with its score (White's side)"), method="do_hint"),
    Command(NC_("command typed in plain mode", "lessons"),
            N_("the lessons: each piece and special rule, its moves in words and a task (quit returns to the game)"),
            method="do_lessons"),
    Command(NC_("command typed in plain mode", "quit"),
            N_("end the session; an unfinished game is kept and offered next time"), aliases=("exit", "q"),
            method="do_quit"),
)  # fmt: skip

COMMANDS: Final[Mapping[str, Command]] = MappingProxyType({command.name: command for command in _TABLE})
"""Every command by its English name, in the order ``help`` lists them."""


def find_command(word: str) -> Command | None:
    """The command a line's first word names (any case, accents or not, English or the language's), or ``None``.

    The language's words are looked up as the line is read, so a language switched at run time is understood at once.
    """
    wanted = typed(word)
    for command in _TABLE:
        if any(typed(name) == wanted for name in command.words):
            return command
    return None


MOVE_HELP: Final = (
    N_(
        "Moves: type CTL-AN, lower case and x for captures are fine: e7-e13, ne3-d8, e13xf16, krk-hio, p21=j; "
        "(=) after a move offers a draw with it."
    ),
    N_("Or give the two hexes, e7 e13: when several moves lead there (a promotion, a leap or castling) you are asked."),
    N_("A hex alone (e7) says what stands there. Several moves on one line are played in turn."),
)


def help_lines(word: str | None = None) -> list[str]:
    """The help: every command and how to move, or one command (``None`` if ``word`` names none)."""
    if word is not None:
        command = find_command(word)
        return [] if command is None else [command.help_line()]
    return [*(_(line) for line in MOVE_HELP), _("Commands:"), *(command.help_line() for command in _TABLE)]
