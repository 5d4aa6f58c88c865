"""``cescacs join --plain`` (and ``host --play --plain``): a hosted game played in plain lines, for a screen reader.

The plain front end (:class:`~cescacs_tui.plain.PlainGame`) on a session
whose game is held by a coordinator (its port a
:class:`~cescacs_tui.remote.port.RemoteGame`): every command, question and
announcement is the plain mode's, so the opponent's move is said
as the player's own is ("Black Pawn I23 to I19. White to move.").  What makes
it a client is that things happen while the player may be typing: the
opponent's moves and requests, the link dropping and coming back.  So it runs
an asyncio loop that reads the input lines (from a thread, which blocks on the
descriptor where the loop must not) and the link's messages at once, and
answers each in whole plain lines, one at a time, from the loop's thread.

:class:`PlainClient` is that front end without the loop or the link (what
arrives, what is typed, in calls), :func:`run_plain_join` runs it on the
process's input and output.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Final, TextIO

from ..core.pieces import Colour
from ..i18n import N_, _
from ..remote.client import FINAL, JoinRequest, Link, LinkStatus
from ..remote.port import RemoteGame
from ..remote.protocol import Seat
from ..session import Feedback, GameSession, Question, Tone
from ..session.terms import side_label
from ..tasks import stop_tasks
from .front_end import PlainGame
from .output import LineWriter

__all__ = ["PlainClient", "RemotePlainGame", "run_plain_join", "seats_words"]

Write = Callable[[str], None]

EXIT_CLOSED: Final = 2
"""The coordinator ended the link for good (the seat taken over, the token changed): as a refused join."""

SETTLE_SECONDS: Final = 10.0
"""At the end of input, how long the client waits for the game (and the answer to a move sent) before it leaves."""

_WHO: Final = "who"
_WHO_HELP: Final = N_("who: who plays each side and who is here (in a game played from two places)")


def seats_words(remote: RemoteGame) -> str:
    """Who plays and who is here, in a sentence: "White: Ana (you), here. Black: Bo, away. 1 watching."

    Names are the coordinator's, cleaned by the protocol, and written through
    the plain mode's line writer like everything else: never interpreted.
    """
    parts = []
    for colour, seat in ((Colour.WHITE, remote.white), (Colour.BLACK, remote.black)):
        # Translators: a seat nobody has taken yet ("Black: free.")
        name = seat.name or ("?" if seat.held else _("free"))
        if remote.colour == colour:
            name = _("{name} (you)").format(name=name)
        if seat.held:
            # Translators: whether a seated player's link is up ("White: Ana, here.") or down ("..., away.")
            state = _("here") if seat.connected else _("away")
            parts.append(_("{side}: {name}, {state}.").format(side=side_label(colour), name=name, state=state))
        else:
            parts.append(_("{side}: {name}.").format(side=side_label(colour), name=name))
    if remote.seat is Seat.WATCH:
        parts.append(_("You are watching."))
    if remote.watchers:
        parts.append(_("{count} watching.").format(count=remote.watchers))
    return " ".join(parts)


class RemotePlainGame(PlainGame):
    """The plain front end on a game held by a coordinator: ``who`` answers who is here, ``new`` takes no clock.

    Every command goes through the session's port as in a local game: ``new``
    asks the other player, ``open`` is refused (the port says why).
    """

    def __init__(self, remote: RemoteGame, session: GameSession, write: Write) -> None:
        super().__init__(session, write)
        self.remote = remote

    def handle(self, line: str) -> None:
        if line.strip().lower() == _WHO:  # a question about the game, even while another question waits
            self.write(seats_words(self.remote))
            return
        super().handle(line)

    def ask_help(self, argument: str) -> None:
        """The plain mode's help, with ``who``, the one command only a game from two places has."""
        if argument.strip().lower() == _WHO:
            self.write(_(_WHO_HELP))
            return
        super().ask_help(argument)
        if not argument.strip():
            self.write(_(_WHO_HELP))

    def player_names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in (self.remote.white, self.remote.black) if seat.name)

    def do_new(self, argument: str) -> None:
        if argument:
            self.write(_("In a game played from two places, the host chooses the clock: type new alone."))
            return
        super().do_new(argument)


class PlainClient:
    """The plain front end of a remote game, fed what arrives (:meth:`received`, :meth:`link_changed`) and what is
    typed (:meth:`typed`); ``write`` shows lines, ``send`` delivers a request to the coordinator.

    It greets the player once the coordinator has described the game (until
    then there is nothing to say of it).  A request of the opponent that
    arrives while the player is answering another question (a promotion
    piece, a confirmation) waits for that answer, then is asked if it still
    stands; one asked and then withdrawn (the opponent resigned meanwhile) is
    said to be gone, so an answer is never sent to nothing.
    """

    def __init__(self, write: Write, send: Callable[[Mapping[str, Any]], bool], address: str) -> None:
        self.write = write
        self.address = address
        self.remote = RemoteGame(send)
        self.session = GameSession(port=self.remote)
        self.plain: RemotePlainGame | None = None
        """The front end, from the first description of the game on."""
        self.status = LinkStatus.CONNECTING
        self.closed_for_good = ""
        """Why the coordinator ended the link for good ("" while it has not)."""
        self._welcome: Feedback | None = None
        self._early: list[str] = []
        """Lines typed (or piped) before the game was described: handled as soon as it is."""
        self._left = False
        self._deferred: Question | None = None
        self._asked: Question | None = None
        """The opponent's request being asked now, to drop it when it no longer stands."""

    @property
    def running(self) -> bool:
        """Whether the session goes on: not after ``quit``, nor once the link is closed for good."""
        return not (self.closed_for_good or self._left) and (self.plain is None or self.plain.running)

    # --- what arrives ---------------------------------------------------------------------------

    def received(self, message: Mapping[str, Any]) -> None:
        """One message of the coordinator."""
        if message.get("type") == "error" and message.get("fatal") is True and message.get("code") in FINAL:
            return  # the link closes for good next, and says why once
        feedback = self.remote.receive(message)
        plain = self.plain
        if plain is None:
            if message.get("type") == "welcome":
                self._welcome = feedback
            elif self.remote.snapshot is not None:
                self._greet(feedback)
            elif feedback.tone is Tone.ERROR and feedback.text:
                self.write(feedback.text)
            return
        if feedback.question is not None:
            if plain.pending is not None:  # said now, asked once the player has answered
                self._deferred, feedback = feedback.question, replace(feedback, question=None)
            else:  # the question says what the coordinator said: once is enough
                feedback = replace(feedback, text=None)
        plain.show(feedback)
        if feedback.question is not None:
            self._asked = feedback.question
        self._forget_withdrawn()

    def _greet(self, feedback: Feedback) -> None:
        """The first description of the game: the plain mode's greeting, where the game stands, who is who."""
        self.plain = plain = RemotePlainGame(self.remote, self.session, self.write)
        if self._welcome is not None:
            plain.show(self._welcome)
        self.write(seats_words(self.remote))
        plain.start()
        self.write(_("Type who to hear who plays and who is here."))
        plain.show(feedback)
        self._asked = feedback.question
        early, self._early = self._early, []
        for line in early:
            self.typed(line)

    def link_changed(self, status: LinkStatus, detail: str) -> None:
        """The link came up, dropped or closed: said once per change (a link retrying says nothing new)."""
        previous, self.status = self.status, status
        connected = status is LinkStatus.CONNECTED
        self.remote.link_changed(connected, "" if connected else detail)
        if status is previous:
            return
        if connected:
            if previous is LinkStatus.CONNECTING:
                self.write(_("Connected to {address}.").format(address=self.address))
            else:
                self.write(_("Reconnected to the game."))
        elif status is LinkStatus.RECONNECTING:
            self.write(_("The connection to the game was lost: reconnecting. The board can still be asked about."))
        elif status is LinkStatus.CLOSED and self.running:
            self.closed_for_good = detail or _("the coordinator closed the connection")
            self.write(_("Disconnected for good: {reason}.").format(reason=self.closed_for_good))

    # --- what is typed --------------------------------------------------------------------------

    def typed(self, line: str) -> None:
        """One line of the player (before the game is described: kept until it is)."""
        plain = self.plain
        if plain is None:
            self._early.append(line)
            return
        plain.handle(line)
        self._forget_withdrawn()
        if plain.pending is None and self._deferred is not None:
            question, self._deferred = self._deferred, None
            if self._opponent_asks():
                self._asked = question
                plain.show(Feedback(question=question))

    def _opponent_asks(self) -> bool:
        """Whether the opponent's offer or request addressed to this player still stands."""
        snapshot, me = self.remote.snapshot, self.remote.colour
        if snapshot is None or me is None:
            return False
        request = snapshot.request
        return snapshot.draw_offer is me.opponent or (request is not None and request.by is me.opponent)

    def _forget_withdrawn(self) -> None:
        plain = self.plain
        if plain is None or self._asked is None:
            return
        if plain.pending is not self._asked:
            self._asked = None  # answered
        elif not self._opponent_asks():
            plain.pending = self._asked = None
            self.write(_("That question no longer stands: nothing to answer."))

    def leave(self, why: str = "") -> None:
        """Say goodbye: nothing is lost here, the coordinator holds the game (``why``: how the session ended)."""
        self._left = True
        game = self.session.game
        if game.nodes and not game.is_over and self.remote.seat not in (None, Seat.WATCH):
            self.write(_("{why}Goodbye. The game goes on at the host: join it again to come back.").format(why=why))
        else:
            self.write(_("{why}Goodbye.").format(why=why))


def run_plain_join(request: JoinRequest, *, input_fd: int = 0, output: TextIO | None = None) -> int:
    """Play (or watch) the coordinator's game in plain lines on ``input_fd`` and ``output`` (default: the process's).

    Returns the exit status: 0 at the end of input, after ``quit``, Ctrl+C,
    SIGTERM or SIGHUP, or when the reader of the output went away; 2 when the
    coordinator closed the link for good.
    """
    target = output or sys.stdout
    if hasattr(target, "reconfigure"):  # an unencodable character becomes "?", never an exception
        target.reconfigure(errors="replace")
    return asyncio.run(_play(request, input_fd, target))


async def _play(request: JoinRequest, input_fd: int, target: TextIO) -> int:
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    ended = asyncio.Event()
    """Set by what ends the session other than a line: a signal, the link closed for good, the output gone."""
    stopped_by = ""
    writer = LineWriter(target)
    output_gone = False

    def write(text: str) -> None:
        nonlocal output_gone
        if output_gone:
            return
        try:
            writer(text)
        except BrokenPipeError:  # cescacs join ... | head: end, and write nothing more (not even at exit)
            output_gone = True
            ended.set()
            with contextlib.suppress(OSError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), target.fileno())

    def stop(why: str) -> None:
        nonlocal stopped_by
        stopped_by = why
        ended.set()

    link = Link(request)
    client = PlainClient(write, link.send, request.address)
    link.on_message = client.received
    link.on_status = client.link_changed
    loop.add_signal_handler(signal.SIGINT, stop, _("Interrupted. "))  # as the plain mode: a goodbye, status 0
    for signum in (signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(signum, stop, _("{signal}: stopping. ").format(signal=signum.name))
    threading.Thread(target=_read_lines, args=(input_fd, loop, lines), daemon=True).start()
    link_task = asyncio.create_task(link.run())
    link_task.add_done_callback(lambda task: ended.set())
    why = ""
    try:
        while client.running and not ended.is_set():  # a signal is heard even amid a long paste
            next_line = asyncio.create_task(lines.get())
            interrupted = asyncio.create_task(ended.wait())
            await asyncio.wait((next_line, interrupted), return_when=asyncio.FIRST_COMPLETED)
            interrupted.cancel()
            if not next_line.done():
                next_line.cancel()
                break
            line = next_line.result()
            if line is None:
                why = _("End of input. ")
                await _settle(client)
                break
            client.typed(line)
        why = stopped_by or why
        if not client.closed_for_good:
            client.leave(why)
    finally:
        link.stop()
        await stop_tasks(link_task)  # it may be pausing before it tries to reconnect
    return EXIT_CLOSED if client.closed_for_good else 0


async def _settle(client: PlainClient) -> None:
    """Before leaving at the end of input, wait (a little) for the game to arrive and a move sent to be answered.

    A script (``cescacs join ... < moves``) ends its input before the game is
    even described: its lines are played once it is, and the last move is
    confirmed, rather than the session ending with nothing done.
    """
    remote = client.remote
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(SETTLE_SECONDS):
            while client.running and (client.plain is None or (remote.sent_move is not None and remote.connected)):
                await asyncio.sleep(0.05)


def _read_lines(fd: int, loop: asyncio.AbstractEventLoop, lines: asyncio.Queue[str | None]) -> None:
    """Hand the loop each line read from ``fd``, then ``None`` at the end of input.

    It reads the descriptor itself, not ``sys.stdin``: a daemon thread left
    blocked in a read of a buffered stream would hold its lock when the
    interpreter closes it at exit.  Undecodable bytes become U+FFFD.
    """
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    pending = ""

    def hand(line: str | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed: the session is over
            loop.call_soon_threadsafe(lines.put_nowait, line)

    while True:
        try:
            data = os.read(fd, 1 << 16)
        except OSError:  # a terminal hung up
            data = b""
        pending += decoder.decode(data, final=not data)
        *complete, pending = pending.split("\n")
        for line in complete:
            hand(line)
        if not data:
            if pending:
                hand(pending)
            hand(None)
            return
