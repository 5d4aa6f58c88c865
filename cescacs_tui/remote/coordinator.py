"""The coordinator: the one authoritative game of a remote match, and every client that plays or watches it.

The game is a :class:`~cescacs_tui.session.GameSession` played here (a
:class:`~cescacs_tui.session.LocalGame`) with a store (the autosave and the
archive of the coordinator's own directory), so a remote game is validated,
timed, saved and archived exactly like a local one.  A
client's requests (``docs/remote-protocol.md``) become session commands here,
after the checks a local screen never needs: is this connection a player, is
it their turn, was the move made in the position the game is in now.  Every
change goes to every client as a full :class:`~cescacs_tui.remote.protocol.Snapshot`.

The coordinator knows nothing of sockets: a transport (``tcp.py``) hands it
each connection as a :class:`Peer` and each checked line as a request.  All
its methods run on one asyncio event loop (its timers need one running).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..core.clock import ClockError
from ..core.game import Game
from ..core.pgn import write_pgn
from ..core.pieces import Colour
from ..data.store import GameStore, NoStore
from ..i18n import _
from ..session import Confirm, GameSession, LocalGame
from ..session.terms import say
from .protocol import (
    PROTOCOL_VERSION,
    Answer,
    ClockTimes,
    Event,
    EventKind,
    Hello,
    LineRefused,
    MoveRequest,
    PendingRequest,
    Plain,
    Request,
    Seat,
    Snapshot,
    encode,
)
from .seats import Seats
from .words import ending_words, event_words

__all__ = ["MAX_MEMBERS", "Coordinator", "Member", "Peer"]

MAX_MEMBERS = 32
"""Connections one game accepts: two players and their audience."""

CLOCK_SAVE_SECONDS = 10.0
"""How often the game is saved while a clock runs (every change is saved at once)."""


class Peer(Protocol):
    """A client connection, as the coordinator sees it (the transport implements it)."""

    def send(self, line: bytes) -> None:
        """Queue one line for the client; a client that does not read is dropped by the transport."""

    def close(self, error: LineRefused | None = None) -> None:
        """Say ``error`` (if any) and end the connection."""


@dataclass(eq=False)
class Member:
    """One connection admitted to the game, and when it was last heard from (the transport's clock)."""

    peer: Peer
    seat: Seat
    client: str
    name: str
    alive: bool = field(default=True)
    last_heard: float = 0.0
    """When the transport last received anything from it."""
    pinged_at: float | None = None
    """When it was sent a ``ping`` it has not answered yet (nothing heard since)."""
    _answered: asyncio.Event = field(default_factory=asyncio.Event)

    def heard(self, now: float) -> None:
        """Something arrived from this connection: it is alive."""
        self.last_heard = now
        self.pinged_at = None
        self._answered.set()

    def ping(self, now: float) -> None:
        """Ask it for a sign of life (a ``pong``), unless it has been asked already."""
        if self.pinged_at is None:
            self.pinged_at = now
            self._answered.clear()
            self.peer.send(encode({"type": "ping"}))

    async def answers(self, seconds: float) -> bool:
        """Whether it answers a ping within ``seconds`` of being asked (a ping is sent now unless one is waiting).

        A live client answers within a round trip; one whose process is
        stopped, or whose network went away without a word, never does.
        """
        now = asyncio.get_running_loop().time()
        self.ping(now)
        assert self.pinged_at is not None
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout_at(self.pinged_at + seconds):
                await self._answered.wait()
        return self.alive and self.pinged_at is None


class Coordinator:
    """One game, its seats and its clients.

    ``token`` is what every hello must carry; ``keyed`` ties seats to their
    identity for good (SSH rooms); ``new_game`` makes the game a finished one
    is replaced with when both players agree.  :meth:`open` resumes the game
    saved in a store.
    """

    def __init__(
        self,
        game: Game,
        *,
        token: str,
        store: GameStore | None = None,
        keyed: bool = False,
        new_game: Callable[[], Game] = Game.new,
        max_members: int = MAX_MEMBERS,
    ) -> None:
        self.token = token
        self.store: GameStore = store or NoStore()
        self.seats = Seats(keyed=keyed)
        self.table = LocalGame()
        """The game, played here: the session's port (a player resigns on either turn through it)."""
        self.session = GameSession(game, store=self.store, port=self.table)
        self.new_game = new_game
        self.max_members = max_members
        self.members: list[Member] = []
        self.seq = 0
        self.request: PendingRequest | None = None
        self._request_ply = 0
        self._draw_question: Confirm | None = None
        self._flag_timer: asyncio.TimerHandle | None = None
        self._save_timer: asyncio.TimerHandle | None = None
        self._saved_seats: dict[str, Any] | None = None
        """The seats as last saved with the game."""
        self.resumed = False
        """Whether the game was resumed from the store's autosave."""
        self.on_said: Callable[[str], None] = lambda said: None
        """Hears what happens, in words (the host prints it), and where each finished game was archived."""

    @classmethod
    def open(
        cls, store: GameStore, *, token: str, keyed: bool = False, new_game: Callable[[], Game] = Game.new
    ) -> Coordinator:
        """The coordinator of the game saved in ``store`` (its seats too), or of a new game.

        What the store found worth saying (a damaged file kept aside, a
        finished game archived) is in :meth:`notices`.
        """
        saved = store.load()
        coordinator = cls(saved.game if saved else new_game(), token=token, store=store, keyed=keyed, new_game=new_game)
        if saved is not None:
            seats = saved.options.get("seats")
            if isinstance(seats, dict):
                coordinator.seats.restore(seats)
            coordinator.resumed = True
        return coordinator

    @property
    def game(self) -> Game:
        return self.session.game

    def notices(self) -> list[str]:
        """What saving did besides, in words for the host (files kept aside or archived), once each."""
        said = [say(notice) for notice in self.store.notices]
        self.store.notices.clear()
        return said

    # --- connections ---------------------------------------------------------------------------

    def join(self, peer: Peer, hello: Hello) -> Member | None:
        """Admit a connection that said hello, or raise a fatal :class:`LineRefused` saying why not.

        A probing hello is only answered (the seat it would get) and the
        connection closed: ``None``, and nothing changes.
        """
        if hello.protocol != PROTOCOL_VERSION:
            raise LineRefused("version", f"this coordinator speaks protocol {PROTOCOL_VERSION}", fatal=True)
        if not hmac.compare_digest(hello.token.encode(), self.token.encode()):
            raise LineRefused("auth", "wrong token: ask the host for the join command", fatal=True)
        if len(self.members) >= self.max_members:
            raise LineRefused("full", f"this game already has {self.max_members} connections", fatal=True)
        client = hello.client or secrets.token_hex(16)
        if hello.probe:
            seat = self.seats.choose(client, hello.seat)
            peer.send(encode({"type": "welcome", "protocol": PROTOCOL_VERSION, "seat": seat.value, "name": hello.name}))
            peer.close()
            return None
        seat = self.seats.claim(client, hello.seat, hello.name)
        colour = seat.colour
        if colour is not None:
            for old in [m for m in self.members if m.seat is seat]:  # the same player, back before their old link died
                self._drop(old, LineRefused("replaced", "your seat was taken over by a newer connection", fatal=True))
            self.seats.arrive(colour, hello.name)
            name = self.seats.name(colour)
            if name and self.game.tags.get(colour.title, "?") in ("?", ""):
                self.game.tags[colour.title] = name
        else:
            name = hello.name if hello.name != "?" else "a watcher"
        member = Member(peer, seat, client, name)
        self.members.append(member)
        peer.send(encode({"type": "welcome", "protocol": PROTOCOL_VERSION, "seat": seat.value, "name": name}))
        self._resume_clock_when_both_are_here()
        self._broadcast(Event(EventKind.JOINED, colour, "" if colour is None and name == "a watcher" else name))
        return member

    async def admit(self, peer: Peer, hello: Hello, *, answer_seconds: float) -> Member | None:
        """:meth:`join`, except that a player's seat held by a link gone silent is taken over.

        Over TCP anyone with the token may take a seat whose player is away;
        a player whose network dropped without a word (no FIN: the old link
        looks connected) comes back with a new process and asks for their
        seat.  The old link is pinged: if it does not answer within
        ``answer_seconds`` it is told ``replaced`` and closed, and the seat
        is the newcomer's.  A link that answers keeps its seat
        (``seat_taken``).  Keyed seats (SSH) belong to their key: the same
        key coming back replaces its old link in :meth:`join` at once.
        """
        try:
            return self.join(peer, hello)
        except LineRefused as refused:
            holder = self._link_of(hello.seat) if refused.code == "seat_taken" and not self.seats.keyed else None
            if holder is None or await holder.answers(answer_seconds):
                raise
        if holder.alive:
            if hello.probe:  # only asking: the seat would be theirs, and nothing changes yet
                seat = holder.seat.value
                peer.send(encode({"type": "welcome", "protocol": PROTOCOL_VERSION, "seat": seat, "name": hello.name}))
                peer.close()
                return None
            colour = holder.seat.colour
            assert colour is not None
            silent = LineRefused("replaced", "your seat was taken over: this link had gone silent", fatal=True)
            self._drop(holder, silent)
            self.seats.leave(colour)
        return self.join(peer, hello)

    def _link_of(self, seat: Seat | None) -> Member | None:
        """The connection holding a player's ``seat``, if it is connected."""
        if seat is None or seat is Seat.WATCH:
            return None
        return next((member for member in self.members if member.seat is seat), None)

    def leave(self, member: Member) -> None:
        """A connection ended (the transport calls this once, whatever ended it)."""
        if not member.alive:
            return
        member.alive = False
        self.members.remove(member)
        colour = member.seat.colour
        if colour is not None and not any(m.seat is member.seat for m in self.members):
            self.seats.leave(colour)
            self._broadcast(Event(EventKind.LEFT, colour, member.name))
        else:
            self._broadcast()

    def _drop(self, member: Member, error: LineRefused) -> None:
        member.peer.close(error)
        member.alive = False
        self.members.remove(member)

    def close(self) -> None:
        """Stop: save the game with its clock times as they are now, and end every connection."""
        for timer in (self._flag_timer, self._save_timer):
            if timer is not None:
                timer.cancel()
        self.session.close()  # saved, and the autosave free for the next coordinator
        for member in list(self.members):
            self._drop(member, LineRefused("closing", "the coordinator is closing; the game is saved", fatal=True))

    # --- requests -----------------------------------------------------------------------------

    def handle(self, member: Member, request: Request) -> None:
        """Act on one request of ``member``; a :class:`LineRefused` refuses it (the game is untouched)."""
        if isinstance(request, Plain) and request.type in ("ping", "pong"):
            if request.type == "ping":
                member.peer.send(encode({"type": "pong"}))
            return  # a pong answers the coordinator's ping: the transport has heard the client
        if isinstance(request, Hello):
            raise LineRefused("hello_again", "this connection has already said hello")
        colour = member.seat.colour
        if colour is None:
            raise LineRefused("not_a_player", "you are watching: only the players can do that")
        if isinstance(request, MoveRequest):
            self._move(colour, request)
        elif isinstance(request, Answer):
            self._answer(colour, request)
        elif request.type == "takeback":
            self._ask_takeback(colour)
        elif request.type == "offer_draw":
            self._offer_draw(colour)
        elif request.type == "claim_draw":
            self._claim_draw(colour)
        elif request.type == "resign":
            self._resign(colour)
        elif request.type == "new_game":
            self._ask_new_game(colour)

    def _move(self, colour: Colour, request: MoveRequest) -> None:
        game = self.game
        self._refuse_if_over()
        if game.position.turn != colour:
            raise LineRefused("not_your_turn", f"it is {game.position.turn.title}'s turn")
        if request.ply != game.ply:
            raise LineRefused(
                "stale", f"the game changed before your move arrived (it has {game.ply} half-moves now): not played"
            )
        legal = {str(move): move for move in game.position.legal_moves()}
        move = legal.get(request.move)
        if move is None:
            raise LineRefused("illegal_move", f"{request.move[:32]} is not a legal move (canonical form) here")
        if self._draw_question is not None and game.draw_offered_by == colour.opponent:
            self._draw_question.answer(False)  # moving on instead of answering declines the offer
        self._draw_question = None
        feedback = self.session.play(move, offer_draw=request.draw)
        if not feedback.done:
            raise LineRefused("refused", feedback.text or "the move was not played")
        if isinstance(feedback.question, Confirm):
            self._draw_question = feedback.question
        self.request = None  # a move instead of an answer declines a takeback or new-game request
        offered = game.draw_offered_by == colour
        self._broadcast(Event(EventKind.PLAYED, colour, moves=game.nodes[-1].san, draw=offered), ending=True)

    def _offer_draw(self, colour: Colour) -> None:
        game = self.game
        self._refuse_if_over()
        if not game.nodes or game.nodes[-1].colour != colour:
            raise LineRefused("not_your_offer", "a draw is offered after your own move: make it, then offer")
        if (reason := self.session.refusal("offer_draw")) is not None:
            raise LineRefused("refused", reason)
        feedback = self.session.offer_draw()
        self._draw_question = feedback.question if isinstance(feedback.question, Confirm) else None
        self._broadcast(Event(EventKind.OFFERS_DRAW, colour))

    def _claim_draw(self, colour: Colour) -> None:
        self._refuse_if_over()
        if self.game.position.turn != colour:
            raise LineRefused("not_your_turn", "a draw is claimed by the player to move")
        if (reason := self.session.refusal("claim_draw")) is not None:
            raise LineRefused("refused", reason)
        self.session.claim_draw()
        self._finish_requests()
        self._broadcast(Event(EventKind.CLAIMS_DRAW, colour), ending=True)

    def _resign(self, colour: Colour) -> None:
        self._refuse_if_over()
        feedback = self.table.resign_side(colour)
        if not self.game.is_over:
            raise LineRefused("refused", feedback.text or "not resigned")
        self._finish_requests()
        self._broadcast(Event(EventKind.RESIGNS, colour), ending=True)

    def _ask_takeback(self, colour: Colour) -> None:
        game = self.game
        self._refuse_if_over()
        self._refuse_if_pending()
        if not any(node.colour == colour for node in game.nodes):
            raise LineRefused("nothing", "you have no move to take back")
        plies = 1 if game.nodes[-1].colour == colour else 2
        self.request = PendingRequest("takeback", colour, plies)
        self._request_ply = game.ply
        moves = ", ".join(node.san for node in game.nodes[-plies:])
        self._broadcast(Event(EventKind.ASKS_TAKEBACK, colour, moves=moves))

    def _ask_new_game(self, colour: Colour) -> None:
        if not self.game.is_over:
            raise LineRefused("game_on", "the game is not over: resign or agree a draw first")
        self._refuse_if_pending()
        self.request = PendingRequest("new_game", colour)
        self._broadcast(Event(EventKind.ASKS_NEW_GAME, colour))

    def _answer(self, colour: Colour, answer: Answer) -> None:
        if answer.to == "draw":
            question = self._draw_question
            if question is None or self.game.draw_offered_by != colour.opponent:
                raise LineRefused("no_request", "there is no draw offer for you to answer")
            self._draw_question = None
            question.answer(answer.accept)
            kind = EventKind.ACCEPTS_DRAW if answer.accept else EventKind.DECLINES_DRAW
            self._broadcast(Event(kind, colour), ending=True)
            return
        request = self.request
        if request is None or request.kind != answer.to or request.by != colour.opponent:
            raise LineRefused("no_request", f"there is no {answer.to.replace('_', '-')} request for you to answer")
        self.request = None
        if not answer.accept:
            declined = EventKind.DECLINES_TAKEBACK if request.kind == "takeback" else EventKind.DECLINES_NEW_GAME
            self._broadcast(Event(declined, colour))
        elif request.kind == "takeback":
            if self.game.ply != self._request_ply:  # a move clears the request: never take back blind anyway
                raise LineRefused("stale", "the game changed since the takeback was asked")
            taken = [self.session.takeback() for _ in range(request.plies)]
            self._draw_question = None
            self._broadcast(Event(EventKind.TOOK_BACK, colour, count=len(taken)))
        else:
            self._start_new_game()

    def _start_new_game(self) -> None:
        game = self.new_game()
        for colour in (Colour.WHITE, Colour.BLACK):
            if name := self.seats.name(colour):
                game.tags[colour.title] = name
        self._draw_question = None
        self.session.start_game(game)
        self._broadcast(Event(EventKind.NEW_GAME))

    def _refuse_if_over(self) -> None:
        if self.game.is_over:
            raise LineRefused("game_over", f"the game is over ({self.game.termination})")

    def _refuse_if_pending(self) -> None:
        if self.request is not None or self.game.draw_offered_by is not None:
            raise LineRefused("pending", "a request is waiting for an answer")

    def _finish_requests(self) -> None:
        self.request = None
        self._draw_question = None

    # --- the clock ------------------------------------------------------------------------------

    def _resume_clock_when_both_are_here(self) -> None:
        """A resumed game's clock waits, paused, until both players are back."""
        clock = self.game.clock
        if clock is None or not clock.paused or self.game.is_over:
            return
        if self.seats.is_connected(Colour.WHITE) and self.seats.is_connected(Colour.BLACK):
            clock.resume()

    def _schedule(self) -> None:
        """Watch the running clock: end the game when a flag falls, and save its times now and then."""
        for timer in (self._flag_timer, self._save_timer):
            if timer is not None:
                timer.cancel()
        self._flag_timer = self._save_timer = None
        clock = self.game.clock
        if clock is None or clock.running is None or self.game.is_over:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # driven without a loop (a test calling methods): no timers
            return
        left = clock.seconds_until_flag()
        if left is not None:
            self._flag_timer = loop.call_later(left + 0.05, self._flag_check)
        self._save_timer = loop.call_later(CLOCK_SAVE_SECONDS, self._save_running_clock)

    def _flag_check(self) -> None:
        self._flag_timer = None
        try:
            self.session.check_time()
        except ClockError:  # pragma: no cover - the core never raises here; never let a timer kill the loop
            return
        if self.game.is_over:
            self._finish_requests()
            self._broadcast(Event(EventKind.FLAG_FALL), ending=True)
        else:
            self._schedule()

    def _save_running_clock(self) -> None:
        self.session.save_running_clock()
        self._schedule()

    # --- telling everyone -------------------------------------------------------------------------

    def _save(self) -> None:
        """Save the seats with the game when they changed (a game that ended was archived by the session as it
        ended; every change of the game is saved by the session itself).  A watcher coming or going changes
        neither: it costs no write, so connecting again and again cannot keep the disk busy."""
        seats = self.seats.to_options()
        if not self.game.is_over and seats != self._saved_seats:
            self.session.options["seats"] = seats
            self.session.save()
            self._saved_seats = seats

    def snapshot(self, said: str = "", event: Event | None = None) -> Snapshot:
        game = self.game
        clock = None
        if game.clock is not None:
            state = game.clock.snapshot()
            clock = ClockTimes(
                white=state.remaining[0],
                black=state.remaining[1],
                to_move=state.to_move,
                running=game.clock.running is not None,
                paused=game.clock.paused,
                turn_start=state.turn_start,
                delay_left=state.delay_left,
                flagged=state.flagged,
            )
        return Snapshot(
            seq=self.seq,
            pgn=write_pgn(game),
            clock=clock,
            draw_offer=game.draw_offered_by,
            request=self.request,
            white=self.seats.view(Colour.WHITE),
            black=self.seats.view(Colour.BLACK),
            watchers=sum(1 for m in self.members if m.seat is Seat.WATCH),
            said=said,
            event=event,
        )

    def _broadcast(self, event: Event | None = None, *, ending: bool = False) -> None:
        """Tell every client the game as it is now and what just happened (``event``; ``ending``: it may have ended
        the game, which is then said too).  Each client words the event in its own language; ``said`` and what the
        host prints are in the coordinator's."""
        self.seq += 1
        self._save()
        said = "" if event is None else event_words(event)
        if ending and self.game.is_over:
            said = ending_words(said, self.game)
            if self.store.archived:  # the host hears where; the clients, nothing of the host's files
                self.on_said(_("the game is archived in {path}").format(path=self.store.archived[-1]))
        if said:
            self.on_said(said)
        for notice in self.notices():
            self.on_said(notice)
        line = encode(self.snapshot(said, event).to_json())
        for member in list(self.members):
            member.peer.send(line)
        self._schedule()
