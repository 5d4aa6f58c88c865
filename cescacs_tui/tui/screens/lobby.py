"""The C'escacs server's lobby, on a terminal: who is here, the games, the offers, the ratings, and what to do.

:class:`LobbyScreen` is what ``ssh -t -p P host`` opens on a server run with
``--db``.  Everything on it is read from the server through the
:class:`~cescacs_tui.remote.lobby_link.LobbyLink` (:func:`~cescacs_tui.remote.lobby_view.read_lobby`)
and read again whenever the link hears that something changed, so a seek,
a challenge, a move or a player arriving anywhere shows at once.  Every
action is one of the server's commands sent through the link; the server
decides, and its answer (done, or why not) is the message line.  The list
puts first the games where it is the visitor's move, soonest deadline first;
Enter opens the game under the cursor (or accepts the seek or challenge
there, once confirmed).
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option, OptionDoesNotExist

from ...core.clock import ClockError, TimeControl
from ...core.safe_text import safe_text
from ...i18n import N_, _, ngettext
from ...remote.lobby_link import Change, LinkClosed, LobbyLink, Reply
from ...remote.lobby_view import GameEntry, LobbyView, read_lobby
from ...session import Tone
from ...session.terms import say
from ..dialogs.ask_word import WordDialog
from ..dialogs.questions import ChoiceDialog, ConfirmDialog
from ..translated import TranslatedBindings
from ..widgets.message_line import MessageLine
from .worker_errors import SaysWorkerErrors

__all__ = ["TERMS", "LobbyScreen", "game_line"]

TERMS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("1", N_("correspondence, 1 day per move"), ("--days", "1")),
    ("3", N_("correspondence, 3 days per move"), ("--days", "3")),
    ("7", N_("correspondence, 7 days per move"), ("--days", "7")),
    ("b", N_("live, 5 min + 3 s"), ("--clock", "300+3")),
    ("r", N_("live, 10 min + 5 s"), ("--clock", "600+5")),
    ("c", N_("live, 30 min + 20 s"), ("--clock", "1800+20")),
)
"""The games the lobby offers to seek or challenge with: a key, its words, and the command's options."""

READ_INTERVAL = 0.5
"""The least time between two reads of the lobby, in seconds: on a busy server every move anywhere is a change,
and a visitor's app reads the lobby at most twice a second, however many there are."""

RATED_SHOWN = 10
"""Players shown in each rating table at the side."""


def _moment(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _timing(entry: GameEntry) -> str:
    if entry.kind == "correspondence" and entry.days_per_move is not None:
        count = entry.days_per_move
        return ngettext("{count} day per move", "{count} days per move", count).format(count=count)
    try:
        return _("live, {clock}").format(clock=say(TimeControl.from_tag(entry.time_control).description()))
    except ClockError:
        return entry.time_control


def _side(word: str | None) -> str:
    """The side the maker of a seek or a challenge plays."""
    return {"white": _("playing White"), "black": _("playing Black")}.get(word or "", _("sides by lot"))


def game_line(entry: GameEntry, me: str | None) -> str:
    """One game as the lobby lists it: its number, players, time and where it stands for ``me``."""
    if entry.status == "seek":
        state = _("seek by {name}, {side}").format(name=entry.creator, side=_side(entry.creator_plays))
        if entry.creator == me:
            state = _("your seek, {side}: anyone may accept it").format(side=_side(entry.creator_plays))
        return f"{entry.id:>4}  {state}  ({_timing(entry)})"
    if entry.status == "challenge":
        if entry.creator == me:
            state = _("your challenge to {name}: waiting for an answer").format(name=entry.opponent)
        else:
            state = _("{name} challenges you, {side}").format(name=entry.creator, side=_side(entry.creator_plays))
        return f"{entry.id:>4}  {state}  ({_timing(entry)})"
    if entry.status == "finished":
        return f"{entry.id:>4}  {entry.players}  {entry.result or '*'}"
    state = _("your move") if entry.your_move else _("{name}'s move").format(name=entry.mover or "?")
    if entry.deadline is not None:
        state = _("{state}, until {deadline}").format(state=state, deadline=_moment(entry.deadline))
    if entry.draw_offer is not None:
        offerer = entry.white if entry.draw_offer == "white" else entry.black
        state += "; " + _("{name} offers a draw").format(name=offerer)
    return f"{entry.id:>4}  {entry.players}  ({_timing(entry)})  {state}"


SECTIONS: tuple[tuple[str, str, str], ...] = (
    ("your_move", "game", N_("Your move")),
    ("challenges", "challenge", N_("Challenges to you")),
    ("offers", "offer", N_("Your seeks and challenges")),
    ("their_move", "game", N_("Their move")),
    ("seeks", "seek", N_("Open seeks")),
    ("watch", "watch", N_("Games to watch")),
    ("finished", "finished", N_("Your finished games")),
)
"""The lobby's lists, in order: the view's field, what a row of it is, and its heading."""


def side_text(view: LobbyView) -> Text:
    """Who is here, and the rating tables: names are plain text, never markup."""
    text = Text()
    text.append(_("Here now ({count})").format(count=len(view.online)) + "\n", style="bold")
    text.append((", ".join(safe_text(name) for name in view.online) or "-") + "\n")
    for pool, title in (("correspondence", _("Correspondence ratings")), ("live", _("Live ratings"))):
        text.append("\n" + title + "\n", style="bold")
        rows = [entry for entry in view.ratings if entry.pool == pool][:RATED_SHOWN]
        if not rows:
            text.append(_("no rated games yet") + "\n")
        for place, entry in enumerate(rows, 1):
            text.append(f"{place:>2}. {safe_text(entry.name)}  {entry.rating:.0f} ±{entry.deviation:.0f}\n")
    return text


class LobbyScreen(SaysWorkerErrors, TranslatedBindings, Screen[None]):
    """The lobby: its lists at the left, who is here and the ratings at the right, the server's answers below."""

    DEFAULT_CSS = """
    LobbyScreen #lobby-title { height: 1; padding: 0 1; background: $panel; text-style: bold; }
    LobbyScreen #lobby-body { height: 1fr; }
    LobbyScreen #lobby-list { width: 1fr; height: 100%; border: none; scrollbar-gutter: stable; }
    LobbyScreen #lobby-side { width: 32; height: 100%; padding: 0 1; border-left: solid $panel; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("o", "open", N_("Open")),
        Binding("a", "accept", N_("Accept")),
        Binding("d", "decline", N_("Decline")),
        Binding("s", "seek", N_("Seek")),
        Binding("c", "challenge", N_("Challenge")),
        Binding("r", "register", N_("Register")),
    ]

    def __init__(self, link: LobbyLink, *, open_game: Callable[[int], None]) -> None:
        super().__init__()
        self.link = link
        self.open_game = open_game
        """Opens game ``number`` on its own screen (the app's)."""
        self.view = LobbyView()
        self.loaded = False
        """Whether the lobby has been read once."""
        self._dirty = asyncio.Event()
        self._busy = False
        self._asked_name = False
        self._stop_listening: Callable[[], None] = lambda: None

    def compose(self) -> ComposeResult:
        yield Static(_("C'escacs server"), id="lobby-title")
        with Horizontal(id="lobby-body"):
            yield OptionList(id="lobby-list")
            with VerticalScroll(id="lobby-side"):
                yield Static(id="lobby-people")
        yield MessageLine(id="lobby-message")
        yield Footer()

    def on_mount(self) -> None:
        self._stop_listening = self.link.listen(self._heard)
        self._dirty.set()
        self.run_worker(self._follow(), name="lobby", exit_on_error=False)
        self.query_one(OptionList).focus()

    def on_unmount(self) -> None:
        self._stop_listening()

    def _heard(self, change: Change | None) -> None:
        if change is None:
            self.say(_("the server has closed the link: quit with Ctrl+Q"), Tone.ERROR)
            return
        self._dirty.set()

    async def _follow(self) -> None:
        """Read the lobby whenever something changed (changes heard while reading, or within :data:`READ_INTERVAL`
        of the last read, make one more read)."""
        try:
            await self.link.open()
            loop = asyncio.get_running_loop()
            last = -READ_INTERVAL
            while True:
                await self._dirty.wait()
                if (wait := last + READ_INTERVAL - loop.time()) > 0:
                    await asyncio.sleep(wait)  # changes meanwhile are read together, once
                self._dirty.clear()
                last = loop.time()
                self._busy = True
                try:
                    view = await read_lobby(self.link)
                finally:
                    self._busy = False
                self.show(view)
        except LinkClosed:
            self.say(_("the server has closed the link: quit with Ctrl+Q"), Tone.ERROR)

    @property
    def reading(self) -> bool:
        """Whether the lobby is being read, or is to be read again."""
        return self._busy or self._dirty.is_set() or not self.loaded

    # --- showing it --------------------------------------------------------------------------------

    def say(self, text: str, tone: Tone = Tone.PLAIN) -> None:
        self.query_one(MessageLine).say(text, tone)

    def show(self, view: LobbyView) -> None:
        self.view = view
        first = not self.loaded
        self.loaded = True
        title = _("C'escacs server")
        if view.name is not None:
            title += "  \u00b7  " + _("you are {name}").format(name=view.name)
        else:
            title += "  \u00b7  " + _("your key has no name yet: r chooses one")
        self.query_one("#lobby-title", Static).update(Text(safe_text(title)))
        self.query_one("#lobby-people", Static).update(side_text(view))
        self._fill(view)
        self.refresh_bindings()
        if view.name is None and not self._asked_name:
            self._asked_name = True
            self.say(view.unregistered, Tone.INFO)
            self.action_register()
        elif first and view.name is not None:
            self.say(_("Enter opens a game or answers an offer; s seeks a game, c challenges a player"))

    def _fill(self, view: LobbyView) -> None:
        options = self.query_one(OptionList)
        highlighted = options.highlighted_option.id if options.highlighted_option is not None else None
        rows: list[Option] = []
        for field, kind, heading in SECTIONS:
            entries: Sequence[GameEntry] = getattr(view, field)
            if not entries:
                continue
            rows.append(Option(Text(_(heading), style="bold underline"), disabled=True))
            rows += [Option(Text(safe_text(game_line(entry, view.name))), id=f"{kind}:{entry.id}") for entry in entries]
        if not rows:
            rows.append(Option(Text(_("Nothing here yet: s seeks a game, c challenges a player")), disabled=True))
        options.clear_options()
        options.add_options(rows)
        if highlighted is not None:
            try:
                options.highlighted = options.get_option_index(highlighted)
                return
            except OptionDoesNotExist:  # the row is gone (a seek taken): the first row instead
                pass
        options.highlighted = next((index for index, row in enumerate(rows) if not row.disabled), None)

    # --- what the visitor does ---------------------------------------------------------------------

    def _row(self) -> tuple[str, int] | None:
        option = self.query_one(OptionList).highlighted_option
        if option is None or option.id is None:
            return None
        kind, _colon, number = option.id.partition(":")
        return kind, int(number)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        registered = self.view.name is not None
        if action == "register":
            return not registered
        if action in ("seek", "challenge", "accept", "decline"):
            return registered
        return True

    def send(self, *argv: str) -> None:
        """Send one of the server's commands; its answer goes to the message line."""
        self.run_worker(self._send(argv), group="commands", exit_on_error=False)

    async def _send(self, argv: Sequence[str]) -> Reply | None:
        try:
            reply = await self.link.ask(*argv)
        except LinkClosed:
            self.say(_("the server has closed the link: quit with Ctrl+Q"), Tone.ERROR)
            return None
        self.say(reply.text, Tone.INFO if reply.ok else Tone.ERROR)
        self._dirty.set()  # a refusal changes nothing, but the lobby may have moved on meanwhile
        return reply

    @on(OptionList.OptionSelected, "#lobby-list")
    def row_chosen(self, event: OptionList.OptionSelected) -> None:
        row = self._row()
        if row is None:
            return
        kind, number = row
        if kind in ("game", "watch", "finished"):
            self.open_game(number)
        elif kind in ("seek", "challenge"):
            self._confirm_accept(kind, number)
        else:
            self.say(_("game {game} waits for an opponent: d withdraws it").format(game=number))

    def _confirm_accept(self, kind: str, number: int) -> None:
        entry = next((e for e in (*self.view.seeks, *self.view.challenges) if e.id == number), None)
        if entry is None:
            return
        question = _("Play game {game}: {line}?").format(game=number, line=game_line(entry, self.view.name).strip())

        def answered(yes: bool | None) -> None:
            if yes:
                self.send("accept", str(number))

        self.app.push_screen(ConfirmDialog(question, yes=_("Accept"), no=_("Not now")), answered)

    def action_open(self) -> None:
        row = self._row()
        if row is None or row[0] not in ("game", "watch", "finished"):
            self.say(_("the cursor is on no game: move it to one (Up, Down) and press o"), Tone.ERROR)
            return
        self.open_game(row[1])

    def action_accept(self) -> None:
        row = self._row()
        if row is None or row[0] not in ("seek", "challenge"):
            self.say(_("the cursor is on no seek or challenge to you: move it to one and press a"), Tone.ERROR)
            return
        self.send("accept", str(row[1]))

    def action_decline(self) -> None:
        row = self._row()
        if row is None or row[0] not in ("challenge", "offer"):
            said = _("the cursor is on no challenge to you and no offer of yours: move it to one and press d")
            self.say(said, Tone.ERROR)
            return
        self.send("decline", str(row[1]))

    def _ask_terms(self, title: str, then: Callable[[tuple[str, ...]], None]) -> None:
        options = [(key, _(words), value) for key, words, value in TERMS]

        def chosen(value: tuple[str, ...] | None) -> None:
            if value is not None:
                then(value)

        self.app.push_screen(ChoiceDialog(title, options), chosen)

    def action_seek(self) -> None:
        self._ask_terms(_("Seek a game of any player: which time?"), lambda terms: self.send("seek", *terms))

    def action_challenge(self) -> None:
        def named(name: str | None) -> None:
            if name:
                title = _("Challenge {name}: which time?").format(name=name)
                self._ask_terms(title, lambda terms: self.send("challenge", name, *terms))

        self.app.push_screen(WordDialog(_("Challenge which player? (their name)")), named)

    def action_register(self) -> None:
        def named(words: str | None) -> None:
            if words:
                self.send("register", *words.split()[:2])

        question = _("Choose your name on this server (add the invitation code after it, if it asks for one)")
        self.app.push_screen(WordDialog(question), named)
