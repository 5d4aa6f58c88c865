"""Every command of the plain mode, once: its words, its arguments, what it does.

``help`` is generated from :data:`COMMANDS`, so the list a player reads and
the commands the front end understands can never disagree.  A command that is
a session action (takeback, draw, resign...) names it in ``action``: its help
is the action's own (:data:`~cescacs_tui.session.ACTIONS`), the session's
method of that name runs it and says why when it cannot act now.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from ..session import ACTIONS

__all__ = ["COMMANDS", "Command", "find_command", "help_lines"]


@dataclass(frozen=True)
class Command:
    """One command: ``name`` and ``aliases`` are typed as the first word of a line (any case).

    ``arguments`` describes what follows (``""``: nothing); ``optional``
    says the command also works without them.  ``reads_only`` commands only
    answer a question about the game, so they may be asked while a question
    of the game waits for its answer.  ``method`` is the front end's method
    that runs it (``None``: the session action ``action`` runs it).
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
    def help(self) -> str:
        """What the command does, in words: its own, or the session action's."""
        if self.summary:
            return self.summary
        assert self.action is not None
        return ACTIONS[self.action].help

    @property
    def usage(self) -> str:
        words = self.name
        if self.arguments:
            words += f" [{self.arguments}]" if self.optional else f" {self.arguments}"
        return words

    def help_line(self) -> str:
        also = f" (also {', '.join(self.aliases)})" if self.aliases else ""
        return f"{self.usage}{also}: {self.help}"


def _ask(
    name: str, summary: str, arguments: str = "", *, optional: bool = False, aliases: tuple[str, ...] = ()
) -> Command:
    """A question about the game: it changes nothing."""
    return Command(name, summary, arguments, aliases, optional, reads_only=True, method=f"ask_{name}")


def _do(name: str, action: str, *, aliases: tuple[str, ...] = ()) -> Command:
    """A session action, run by the session's method of that name."""
    return Command(name, aliases=aliases, action=action)


_TABLE: Final = (
    _ask("help", "this list; help COMMAND for one command", "COMMAND", optional=True, aliases=("?",)),
    _ask("b", "the whole position: where the game stands, then every piece", aliases=("board",)),
    _ask(
        "p", "where the pieces are: p N White's Knights, p n Black's, p white, p black, p alone all",
        "LETTER", optional=True, aliases=("pieces",),
    ),
    _ask("s", "what stands on a column (s F) or a line (s 13)", "COLUMN|LINE", aliases=("scan",)),
    _ask(
        "x", "around a hex, ray by ray in the 12 directions (x E7; x E7 up for one direction)",
        "HEX [DIRECTION]", aliases=("around",),
    ),
    _ask("m", "the legal moves of the piece on a hex (m E7)", "HEX", aliases=("legal",)),
    _ask("a", "which pieces of each side attack a hex (a F14)", "HEX", aliases=("attacks",)),
    _ask("l", "the last move, and whose turn it is", aliases=("last",)),
    _ask("c", "the clocks", aliases=("clock",)),
    _ask("r", "the pieces each side could regain by promotion", aliases=("regain",)),
    _ask("moves", "the moves played, in CTL-AN", aliases=("list",)),
    _ask("pdtl", "the position shown, as PDTL"),
    _ask("pgn", "the game record, as CTL-PGN", aliases=("record",)),
    _do("takeback", "takeback", aliases=("u", "undo")),
    _do("redo", "redo"),
    _do("draw", "offer_draw", aliases=("offer",)),
    _do("claim", "claim_draw"),
    _do("resign", "resign"),
    _do("pause", "pause_clock"),
    _do("back", "review_back"),
    _do("forward", "review_forward", aliases=("next",)),
    _do("start", "review_start"),
    _do("live", "review_live"),
    _do("variation", "follow_variation"),
    _do("leave", "leave_variation"),
    Command("save", "save the game as a CTL-PGN file (default: a name from its date and players)", "FILE",
            optional=True, method="do_save"),
    Command("open", "open a CTL-PGN record (its first game)", "FILE", method="do_open"),
    Command("new", "a new game (asks first if one is under way); new 900+10 with a clock", "TIMECONTROL",
            optional=True, method="do_new"),
    Command("hint", "the engine's best move in the position shown, with its score (White's side)",
            method="do_hint"),
    Command("quit", "end the session; an unfinished game is kept and offered next time", aliases=("exit", "q"),
            method="do_quit"),
)  # fmt: skip

COMMANDS: Final[Mapping[str, Command]] = MappingProxyType({command.name: command for command in _TABLE})
"""Every command by name, in the order ``help`` lists them."""

_BY_WORD: Final = MappingProxyType({word: command for command in _TABLE for word in (command.name, *command.aliases)})


def find_command(word: str) -> Command | None:
    """The command a line's first word names (any case), or ``None``."""
    return _BY_WORD.get(word.lower())


MOVE_HELP: Final = (
    "Moves: type CTL-AN, lower case and x for captures are fine: e7-e13, ne3-d8, e13xf16, krk-hio, p21=j; "
    "(=) after a move offers a draw with it.",
    "Or give the two hexes, e7 e13: when several moves lead there (a promotion, a leap or castling) you are asked.",
    "A hex alone (e7) says what stands there. Several moves on one line are played in turn.",
)


def help_lines(word: str | None = None) -> list[str]:
    """The help: every command and how to move, or one command (``None`` if ``word`` names none)."""
    if word is not None:
        command = find_command(word)
        return [] if command is None else [command.help_line()]
    return [*MOVE_HELP, "Commands:", *(command.help_line() for command in _TABLE)]
