"""What the person at the keyboard may do with the machine the app runs on: decided once, when the app starts.

The same app serves four people.  The owner at their own terminal
(``cescacs``), or playing a game held elsewhere (``cescacs join``, ``host
--play``), may use this machine as they like: its files, its clipboard, as
many engines as they start.  A visitor is not the owner: ``cescacs-web``
runs the app for a browser and ``cescacs serve-ssh`` for an SSH login, on
the server's account.  For them the record goes to the *visitor* (OSC 52 to
their terminal's clipboard, the record view to select by hand, a download in
the browser) and comes *from* them (a paste box, an upload from the
browser); nothing they do reads or writes a file of the server by a path,
touches its clipboard, starts a program of its settings, or shows a path of
it; and engines run only in the few places the server shares among all its
visitors (:class:`~cescacs_tui.data.engine_slots.EngineSlots`).

:class:`Policy` is made once at launch (:meth:`Policy.from_environment`: a
server hands its visitor's process :meth:`Policy.environment`, read once) and
passed down to the screens and the app.  Each action of the action table
says what it needs from the machine (:class:`Need`); :meth:`Policy.decide`
says, for each need, how it is met (a :class:`Route`) or why not (a reason),
so nothing about who may do what is decided anywhere else.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum, StrEnum, auto
from pathlib import Path
from typing import TYPE_CHECKING, Final

from ..core.message import Message
from ..data.engine_slots import EngineSlots
from ..i18n import N_
from .terms import say

if TYPE_CHECKING:
    from .actions import Action

__all__ = [
    "CHOOSE_FILE_URL",
    "VISITOR_VARIABLE",
    "Decision",
    "LaunchKind",
    "Need",
    "Policy",
    "PolicyError",
    "Route",
]

VISITOR_VARIABLE: Final = "CESCACS_VISITOR"
"""Set by ``cescacs-web`` and ``serve-ssh`` for each visitor's process (:meth:`Policy.environment`)."""

CHOOSE_FILE_URL: Final = "cescacs-web:choose-file"
"""How a web visitor's app meets :attr:`Route.PASTE_OR_UPLOAD`'s upload: opened with ``App.open_url`` (the one
public way a Textual app sends the page a message), it asks the page to show the browser's file chooser;
``cescacs-web`` recognises it and turns it into its own message instead of opening a window."""


class LaunchKind(StrEnum):
    """How the app was started, which says who sits at the keyboard."""

    LOCAL = "local"
    """``cescacs``: the owner of this machine, at its terminal."""
    JOINED = "joined"
    """``cescacs join`` (and ``host --play``): the owner of this machine, playing a game held elsewhere."""
    WEB = "web"
    """A browser's visitor, in a process ``cescacs-web`` started."""
    SSH = "ssh"
    """An SSH visitor, in a process ``cescacs serve-ssh`` started."""

    @property
    def visitor(self) -> bool:
        """Whether the person is a visitor of someone else's server (not the owner of this machine)."""
        return self in (LaunchKind.WEB, LaunchKind.SSH)


class Need(Enum):
    """What an action needs from the machine the app runs on."""

    RECORD_OUT = auto()
    """The record leaves the app (Ctrl+S)."""
    RECORD_IN = auto()
    """A record comes in (Ctrl+O)."""
    CLIPBOARD = auto()
    """Text copied (y, Y): always the terminal's clipboard by OSC 52, and the machine's own, if it is the person's."""
    SCREENSHOT = auto()
    """An SVG picture of the screen."""
    SETTINGS = auto()
    """A preference kept for the next time (theme, pieces, layout, language, the new-game defaults)."""
    ENGINE = auto()
    """An engine process on this machine (the computer's moves, a hint, the analysis)."""
    ARCHIVE = auto()
    """The archive of finished games kept on this machine, browsed and opened in the app."""
    PROGRESS = auto()
    """What the player has learnt, kept for the next time: the lessons done, the coordinate drill's best scores, the
    puzzle rating and their own deck of puzzles (their blunders)."""


class Route(Enum):
    """How an allowed need is met."""

    HOST_FILE = auto()
    """A file of this machine, at a path the person chooses or is shown."""
    DOWNLOAD = auto()
    """A download in the visitor's browser."""
    TERMINAL = auto()
    """The visitor's own terminal: its clipboard, by OSC 52 (and the record view, to select by hand)."""
    PASTE = auto()
    """A box the visitor pastes into."""
    PASTE_OR_UPLOAD = auto()
    """The paste box, or a file the visitor's browser uploads."""
    TERMINAL_AND_SYSTEM = auto()
    """The terminal's clipboard by OSC 52, and this machine's clipboard."""
    OWN_SETTINGS = auto()
    """The owner's settings file."""
    VISITOR_SETTINGS = auto()
    """The visitor's own folder on the server (never read for a program to start): their settings, their progress."""
    OWN_ENGINE = auto()
    """An engine process of the owner's, as many as they start, of the ``engine`` setting."""
    SHARED_ENGINE = auto()
    """This package's engine, in one of the few places the server shares among its visitors."""


@dataclass(frozen=True)
class Decision:
    """A need met by ``route``, or refused for ``reason``."""

    route: Route | None = None
    reason: Message | None = None

    @property
    def allowed(self) -> bool:
        return self.reason is None


# Translators: said to an SSH visitor of a server who asks for a screenshot.
NO_SCREENSHOT: Final = N_("a screenshot would be a file on the server: your terminal can take one of its window")
NO_ENGINES: Final = N_("this server runs no engine for its visitors")
# Translators: said to a visitor of a server (web or SSH) who asks for the archive of finished games.
NO_ARCHIVE: Final = N_("the archive is the server's: a visitor opens records by pasting them")
NO_ENGINES_FOR_WATCHERS: Final = N_("this server runs engines for its players only: watchers start none")


class PolicyError(ValueError):
    """The launch description a server handed this process cannot be read: the app does not start on a guess."""


@dataclass(frozen=True)
class Policy:
    """What the person at the keyboard may do with this machine (see the module's docstring).

    ``engines`` is, for a visitor, the folder and count of the engine places
    the server shares among its visitors (``None``: none at all);
    ``watchers_use_engines`` lets an SSH room's watchers start one too.
    ``hidden`` are this machine's folders whose paths a visitor never reads
    (their data and settings folders, the server's home and working folder).
    """

    kind: LaunchKind = LaunchKind.LOCAL
    engines: EngineSlots | None = None
    watchers_use_engines: bool = False
    hidden: tuple[str, ...] = field(default=())

    @property
    def visitor(self) -> bool:
        return self.kind.visitor

    # --- the decisions ------------------------------------------------------------------------------

    def decide(self, need: Need, *, watching: bool = False) -> Decision:
        """How ``need`` is met for this person, or why it is not (``watching``: they only watch a remote game)."""
        kind = self.kind
        if not kind.visitor:
            return Decision(_OWNER_ROUTES[need])
        if need is Need.RECORD_OUT:
            return Decision(Route.DOWNLOAD if kind is LaunchKind.WEB else Route.TERMINAL)
        if need is Need.RECORD_IN:
            return Decision(Route.PASTE_OR_UPLOAD if kind is LaunchKind.WEB else Route.PASTE)
        if need is Need.CLIPBOARD:
            return Decision(Route.TERMINAL)
        if need is Need.SCREENSHOT:
            return Decision(Route.DOWNLOAD) if kind is LaunchKind.WEB else Decision(reason=Message(NO_SCREENSHOT))
        if need is Need.SETTINGS:
            return Decision(Route.VISITOR_SETTINGS)
        if need is Need.ARCHIVE:
            return Decision(reason=Message(NO_ARCHIVE))
        if need is Need.PROGRESS:
            return Decision(Route.VISITOR_SETTINGS)  # the visitor's own folder, where their settings are
        if self.engines is None or self.engines.count < 1:
            return Decision(reason=Message(NO_ENGINES))
        if watching and not self.watchers_use_engines:
            return Decision(reason=Message(NO_ENGINES_FOR_WATCHERS))
        return Decision(Route.SHARED_ENGINE)

    def refusal(self, action: Action, *, watching: bool = False) -> str | None:
        """Why this person may not do ``action`` with this machine (in the interface's language), or ``None``."""
        for need in action.needs:
            reason = self.decide(need, watching=watching).reason
            if reason is not None:
                return say(reason)
        return None

    @property
    def delivers(self) -> bool:
        """Whether files may be delivered to the person (Textual's ``deliver_*``): saved on the owner's machine,
        or downloaded by the visitor's browser; never saved on a server for an SSH visitor."""
        return self.kind is not LaunchKind.SSH

    @property
    def opens_urls(self) -> bool:
        """Whether a URL may be opened: by the owner's browser, or the visitor's page; never a browser of the
        server started for an SSH visitor."""
        return self.kind is not LaunchKind.SSH

    def engine_setting(self, setting: str) -> str:
        """The ``engine`` setting to use: the owner's; for a visitor, always this package's engine (a program
        named in a settings file is never started for them)."""
        return "" if self.visitor else setting

    def progress_path(self) -> Path | None:
        """Where the player's progress (lessons done, best drill scores, puzzle rating, own deck) is kept: the data
        directory, which for a visitor is the folder their server gave them; ``None`` if the policy keeps it in
        memory only."""
        from ..data.progress import progress_path

        return progress_path() if self.decide(Need.PROGRESS).allowed else None

    def hide_paths(self, text: str) -> str:
        """``text`` with this machine's folders taken out of every path in it, for a visitor
        (``/srv/cescacs/web/ab12/data/games/x.ctl-pgn`` → ``games/x.ctl-pgn``); as it is for the owner."""
        for folder in self.hidden:
            text = text.replace(folder + os.sep, "").replace(folder, "~")
        return text

    # --- handed from a server to its visitor's process -----------------------------------------------

    def environment(self) -> dict[str, str]:
        """The variable a server sets for its visitor's process, which :meth:`from_environment` reads there."""
        import json  # a server's only: the app's start does not load it

        description: dict[str, object] = {"kind": self.kind.value, "watchers_use_engines": self.watchers_use_engines}
        if self.engines is not None:
            description["engines"] = {"folder": str(self.engines.folder), "count": self.engines.count}
        return {VISITOR_VARIABLE: json.dumps(description)}

    @classmethod
    def from_environment(cls, environ: Mapping[str, str], owner: LaunchKind, *, folders: Iterable[Path] = ()) -> Policy:
        """The policy of this process: a visitor's, as its server described it in ``environ``, else the
        ``owner``'s (``LOCAL`` or ``JOINED``).  ``folders`` are hidden from a visitor (with the home and working
        folders).  :class:`PolicyError` if the description cannot be read: refused, never guessed."""
        text = environ.get(VISITOR_VARIABLE)
        if text is None:
            return cls(owner)
        import json  # a visitor's process only: the owner's start does not load it

        try:
            description = json.loads(text)
            kind = LaunchKind(description["kind"])
            engines = description.get("engines")
            slots = None if engines is None else EngineSlots(Path(engines["folder"]), int(engines["count"]))
            watchers = description.get("watchers_use_engines", False)
        except (ValueError, TypeError, KeyError) as error:
            raise PolicyError(f"{VISITOR_VARIABLE} cannot be read: {error}"[:200]) from None
        if not kind.visitor or type(watchers) is not bool or (slots is not None and slots.count < 0):
            raise PolicyError(f"{VISITOR_VARIABLE} does not describe a visitor")
        hidden = {str(folder) for folder in (*folders, Path.home(), Path.cwd()) if len(folder.parts) > 1}
        return cls(kind, slots, watchers, tuple(sorted(hidden, key=len, reverse=True)))


_OWNER_ROUTES: Final = {
    Need.RECORD_OUT: Route.HOST_FILE,
    Need.RECORD_IN: Route.HOST_FILE,
    Need.CLIPBOARD: Route.TERMINAL_AND_SYSTEM,
    Need.SCREENSHOT: Route.HOST_FILE,
    Need.SETTINGS: Route.OWN_SETTINGS,
    Need.ENGINE: Route.OWN_ENGINE,
    Need.ARCHIVE: Route.HOST_FILE,
    Need.PROGRESS: Route.HOST_FILE,
}
"""The owner's machine is theirs: every need is met on it."""
