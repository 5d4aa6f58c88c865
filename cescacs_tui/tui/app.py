"""The C'escacs terminal app: themes, settings and start-up around one game screen.

The game itself is a :class:`~cescacs_tui.session.GameSession` (UI-free) shown
by a :class:`~cescacs_tui.tui.screens.game.GameScreen`; this module only
chooses what to start with, keeps the player's settings and themes, and saves
the game when the process is told to stop.
"""

from __future__ import annotations

import asyncio
import gc
import signal
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

from textual import events, on
from textual.app import SystemCommand
from textual.driver import Driver
from textual.notifications import SeverityLevel
from textual.screen import Screen

from ..core.clock import NO_CLOCK, TimeControl
from ..core.game import Game
from ..core.message import Message
from ..core.safe_text import safe_text
from ..data.autosave import SavedGame
from ..data.autosave_store import AutosaveStore
from ..data.settings import Settings, settings_path
from ..data.slots import open_autosave
from ..data.store import GameStore
from ..i18n import _
from ..session import Feedback, GamePort, GameSession
from ..session.opponent import Opponent
from ..session.players import TWO_PEOPLE, Players, player_names
from ..session.policy import Policy
from ..session.terms import say
from ..session.words import tolerated
from .dialogs.questions import DeliberateDialog
from .driver import InvalidTerminalInput, driver_class
from .keymap import keymap_problems
from .screens.game import BoardOptions, GameScreen
from .themes import BoardHostApp, known_themes
from .widgets.board import HexBoard

if TYPE_CHECKING:
    from .screens.review import ReviewJob

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
"""Signals that end the app after saving the game (SIGHUP: the terminal or the SSH link closed)."""


class CescacsApp(BoardHostApp[None]):
    """Two players, one keyboard: C'escacs on a 169-hex board.

    ``game`` is the game to show (default: a new one from the settings);
    ``store`` keeps it after every move (``None``: nowhere; a store whose
    autosave is open in another cescacs has the players choose a separate
    game or to wait for it); ``port`` is where it is played (``None``: here;
    a game held elsewhere is reached through its port); ``resume`` is an unfinished game found at
    start, which the players are offered to continue; ``notices`` are what
    the start found worth saying (damaged files kept aside...).
    ``settings`` are the player's preferences; with a ``settings_path``
    every change is saved there.  ``wide_glyphs`` are the FAN glyphs this
    terminal draws wider than a cell.  ``players`` say who plays the new game
    (``--white computer:3``); the computer thinks in the engine process of
    the ``engine`` setting, started the first time it is needed.  ``reviewer``
    makes a review's analysis (default :meth:`make_reviewer`; a fixed one in
    the screenshots).
    """

    TITLE = "C'escacs"
    CSS = """
    Toast { max-width: 100%; }
    """
    """Notifications as wide as the side panel they are kept over (:class:`~.widgets.side_panel.SidePanel`)."""

    def __init__(
        self,
        game: Game | None = None,
        *,
        store: GameStore | None = None,
        port: GamePort | None = None,
        resume: SavedGame | None = None,
        notices: Iterable[Message | str] = (),
        settings: Settings | None = None,
        settings_path: Path | None = None,
        wide_glyphs: frozenset[str] = frozenset(),
        players: Players = TWO_PEOPLE,
        policy: Policy | None = None,
        reviewer: Callable[[], ReviewJob] | None = None,
    ) -> None:
        settings = settings or Settings()
        super().__init__(theme=settings.theme)
        self._reviewer = reviewer
        self.policy = policy or Policy()
        """What the person at the keyboard may do with this machine, decided at launch (the owner by default)."""
        self.settings = settings
        self.settings_path = settings_path
        self.session = GameSession(game or self.settings_game(players), store=store, port=port)
        self.session.players = players
        self.opponent = self.make_opponent()
        """The engine behind the computer players, the hints and the analysis (its process starts when first needed)."""
        self._resume = resume
        self.start_notices = list(notices)
        self._wide_glyphs = wide_glyphs

    @property
    def game(self) -> Game:
        """The game on the table."""
        return self.session.game

    def make_opponent(self) -> Opponent:
        """The engine of the ``engine`` setting for the owner; this package's for a visitor, in the places the
        server shares among its visitors."""
        return Opponent(
            self.session, setting=self.policy.engine_setting(self.settings.engine), places=self.policy.engines
        )

    @property
    def game_screen(self) -> GameScreen:
        """The game screen, under any dialogs."""
        screen = self.screen_stack[0]
        assert isinstance(screen, GameScreen)
        return screen

    @property
    def board(self) -> HexBoard:
        return self.game_screen.board

    def get_default_screen(self) -> Screen[Any]:
        """The first screen: the game on the table (an app whose first screen is another, the lobby's, says so
        here, which is why this promises a screen and :meth:`make_game_screen` the game's)."""
        return self.make_game_screen()

    def make_game_screen(self) -> GameScreen:
        """The screen of the session's game, asking first what the start found (a game to resume...)."""
        start = self.session.offer_separate_game()
        if start is None and self._resume is not None:
            start = self.session.offer_resume(self._resume)
        return GameScreen(
            self.session,
            options=self.board_options(),
            start=start,
            opponent=self.opponent,
            policy=self.policy,
            reviewer=self._reviewer or self.make_reviewer,
        )

    def make_reviewer(self) -> ReviewJob:
        """The analysis of a review: the engine of the settings (this package's for a visitor, in one of the places
        the server shares), searching each position for the settings' ``review_seconds``."""
        from ..engine.computer import engine_command
        from .screens.review import engine_review

        command = engine_command(self.policy.engine_setting(self.settings.engine))
        places = self.policy.engines if self.policy.visitor else None
        return engine_review(command, self.settings.review_seconds, places)

    def board_options(self) -> BoardOptions:
        """How the player's settings (and this terminal) want the board."""
        settings = self.settings
        return BoardOptions(
            settings.piece_set,
            settings.board_layout,
            settings.auto_flip,
            settings.vim_keys,
            self._wide_glyphs,
            settings.keys,
            settings.bell,
        )

    def on_mount(self) -> None:
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        for problem in [*self.settings.problems, *keymap_problems(self.settings.keys)]:
            self.notify(say(problem), title=_("Settings"), severity="warning", timeout=10, markup=False)
        for notice in self.start_notices:
            self.notify(say(notice), title=_("Saved games"), severity="warning", timeout=12, markup=False)
        if not self.is_headless:  # start-up objects live as long as the app: keep them out of every GC pass
            self.call_after_refresh(_collect_from_now_on)
        loop = asyncio.get_running_loop()
        for stop in STOP_SIGNALS:
            loop.add_signal_handler(stop, self._stop)

    def _stop(self) -> None:
        """SIGTERM or SIGHUP: save the game (and its clock times, as they are now), then end."""
        self.session.save()
        self.exit()

    async def on_unmount(self) -> None:
        self.session.close()  # Ctrl+Q: the clock times at this moment; the autosave free for another cescacs
        await self.opponent.close()  # a search stopped, the engine process ended

    async def on_event(self, event: events.Event) -> None:
        """A key on its way to the bindings while a question is on top must have been heard by the question.

        Keys of a burst that Textual routed to the game screen before the question came arrive here after it
        (``Ry`` in one read: the ``y`` answered Yes); they are the question's to refuse, with a word.
        """
        if isinstance(event, events.Key) and event.is_forwarded and self.screen_stack:
            question = self.screen
            if isinstance(question, DeliberateDialog) and not question.admits(event):
                question.too_soon()
                return
        await super().on_event(event)

    # --- the terminal: input that cannot kill the app, output that cannot attack it ----------

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver, with an input loop that no byte from the terminal can kill (tui/driver.py)."""
        return driver_class(super().get_driver_class())

    @on(InvalidTerminalInput)
    def warn_terminal_encoding(self, event: InvalidTerminalInput) -> None:
        self.notify(_(event.advice), title=_("Terminal encoding"), severity="warning", timeout=20, markup=False)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Notifications quote records, files and settings: shown as safe text (safe_text.py), like the panels,
        and without this machine's folders for a visitor (the policy)."""
        shown = safe_text(self.policy.hide_paths(message))
        super().notify(shown, title=safe_text(title), severity=severity, timeout=timeout, markup=markup)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Textual's commands (theme, keys, quit...) and the action table's; the table's Screenshot, which asks
        the policy, replaces Textual's, which would write a file wherever the app runs."""
        for command in super().get_system_commands(screen):
            if command.title != "Screenshot":
                yield command
        if isinstance(screen, GameScreen):
            yield from screen.table_commands()

    # --- files and programs of this machine: only as the policy allows --------------------------

    def deliver_text(self, path_or_file: str | Path | TextIO, **options: Any) -> str | None:
        """Textual's delivery (saved on this machine, or a download in the browser), refused where the file
        would be written on a server for its visitor."""
        if not self.policy.delivers:
            self.notify(_("the server keeps no file for you: nothing was saved"), severity="warning", markup=False)
            return None
        return super().deliver_text(path_or_file, **options)

    def deliver_binary(self, path_or_file: str | Path | BinaryIO, **options: Any) -> str | None:
        if not self.policy.delivers:
            self.notify(_("the server keeps no file for you: nothing was saved"), severity="warning", markup=False)
            return None
        return super().deliver_binary(path_or_file, **options)

    def open_url(self, url: str, *, new_tab: bool = True) -> None:
        """Opened by the owner's browser or the visitor's page; never a browser started on a server."""
        if self.policy.opens_urls:
            super().open_url(url, new_tab=new_tab)

    # --- settings ----------------------------------------------------------------------

    def settings_game(self, players: Players = TWO_PEOPLE) -> Game:
        """A new game with the players, clock and castling option of the settings (the computer's name for its side)."""
        return settings_game(self.settings, players)

    def update_settings(self, **changes: object) -> None:
        """Change preferences and save them (when the app has a settings file)."""
        for name, value in changes.items():
            setattr(self.settings, name, value)
        if self.settings_path is not None:
            try:
                self.settings.save(self.settings_path)
            except OSError as error:
                said = _("settings not saved: {reason}").format(reason=error.strerror or error)
                self.game_screen.apply(Feedback.refused(said))

    def _theme_changed(self, theme: object) -> None:
        if self.theme != self.settings.theme:
            self.update_settings(theme=self.theme)

    @on(GameScreen.OptionsChanged)
    def board_options_changed(self, event: GameScreen.OptionsChanged) -> None:
        options = event.options
        self.update_settings(
            piece_set=options.piece_set,
            board_layout=options.layout,
            auto_flip=options.auto_flip,
            vim_keys=options.vim_keys,
            bell=options.bell,
        )

    @on(GameScreen.LanguageChanged)
    def language_changed(self, event: GameScreen.LanguageChanged) -> None:
        self.update_settings(language=event.code)

    @on(GameScreen.NewGameWanted)
    def ask_for_a_new_game(self) -> None:
        """Ask for the players, the clock and the options (the settings' defaults), then start."""
        from .dialogs.new_game import NewGameDialog, NewGameOptions

        settings = self.settings
        white_player, black_player = self.session.players  # the opponents of the game on the table, again
        defaults = NewGameOptions(
            white=settings.white.strip("?"),
            black=settings.black.strip("?"),
            time_control=settings.parsed_time_control,
            castling=settings.castling,
            white_player=white_player,
            black_player=black_player,
        )

        def start(options: NewGameOptions | None) -> None:
            if options is None:
                return
            white_player, black_player = options.players
            self.update_settings(
                white=(options.white or "?") if not white_player.is_computer else settings.white,
                black=(options.black or "?") if not black_player.is_computer else settings.black,
                time_control=options.time_control.to_tag(),
                castling=options.castling,
            )
            self.game_screen.apply(self.session.start_game(options.create_game(), players=options.players))

        self.push_screen(NewGameDialog(defaults), start)


def _collect_from_now_on() -> None:
    """After the first frame: the start-up's objects out of every collection (:func:`gc.freeze`), and the collector
    on again if the ``cescacs`` command turned it off for the start (cli.py).

    A Python function: Textual counts a callback's parameters with :func:`inspect.signature`, which, for a
    built-in, compiles the tokenizer's regular expressions (some 5 ms, just before the side panel)."""
    gc.freeze()
    gc.enable()


def settings_game(settings: Settings, players: Players = TWO_PEOPLE, time_control: TimeControl | None = None) -> Game:
    """A new game with the players, clock and castling option of ``settings``, played by ``players`` (with
    ``time_control`` instead of the settings' clock, if given)."""
    white, black = player_names(players, settings.white, settings.black)
    clock = settings.parsed_time_control if time_control is None else time_control
    return Game.new(white=white, black=black, time_control=clock, castling=settings.castling)


def measured_wide_glyphs(settings: Settings) -> frozenset[str]:
    """The chess glyphs this terminal draws wider than a cell, asked before the app takes the terminal.

    Only a player who chose glyphs waits for the answer (at most a fraction of a second).
    """
    if settings.piece_set == "letters":
        return frozenset()
    from .board_layout import RISKY_GLYPHS
    from .glyph_width import wide_glyphs

    return wide_glyphs(RISKY_GLYPHS)


def run_app(
    *,
    pgn_file: str | None = None,
    pdtl: str | None = None,
    castling: bool = True,
    players: Players = TWO_PEOPLE,
    policy: Policy | None = None,
    time_control: TimeControl | None = None,
) -> int:
    """Start the app (the ``cescacs`` command without a subcommand); ``players`` play a new game (``--white``),
    with ``time_control`` (``--clock``) instead of the settings' if given; ``policy`` says what the person may do
    with this machine (the owner's, unless a server started it).

    The autosave this process will own is taken first (:func:`open_autosave`
    never raises: damaged files are kept aside and reported).  An unfinished
    game found there is offered again, or, when a record or a position is
    opened instead, kept in the archive before anything is written over it.
    """
    settings = Settings.load(themes=known_themes())
    start = open_autosave()
    notices: list[Message | str] = list(start.notices)
    resume = start.saved
    game: Game | None = None
    if pgn_file is not None:
        from ..data.records import open_pgn_file

        game = open_pgn_file(pgn_file).game  # replays the first game only: a file of thousands opens at once
        game.go_to(game.ply)
        if game.warnings:
            notices.append(f"{Path(pgn_file).name}: {tolerated(game.warnings)}")
    elif pdtl is not None or not castling:
        white, black = player_names(players, settings.white, settings.black)
        clock = NO_CLOCK if time_control is None else time_control
        game = Game.new(pdtl=pdtl, castling=castling, white=white, black=black, time_control=clock)
    elif players != TWO_PEOPLE or time_control is not None:
        game = settings_game(settings, players, time_control)
    if game is not None and resume is not None and start.slot is not None:
        notices.append(_("the unfinished game was kept in {path}").format(path=start.slot.keep(resume.game)))
        resume = None
    wide = measured_wide_glyphs(settings)
    # Everything so far (modules, classes, geometry tables) lives as long as the process: out of every
    # garbage-collection pass with it.  Otherwise the first full collection, ~17 ms of scanning them,
    # falls right before the first paint.
    gc.freeze()
    app = CescacsApp(
        game,
        store=AutosaveStore.at_start(start),
        resume=resume,
        notices=notices,
        settings=settings,
        settings_path=settings_path(),
        wide_glyphs=wide,
        players=players,
        policy=policy,
    )
    app.run()
    return app.return_code or 0  # 1 when the app died of an exception (cli.py says so)
