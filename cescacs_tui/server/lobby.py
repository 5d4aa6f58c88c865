"""The lobby: what a player may do on the server, decided with the rules core and kept in the storage.

Every request comes with the player's identity (the SSH key they logged in
with, :class:`Caller`, or the :class:`~.model.Account` it belongs to) and is
either done (the storage has committed it when the method returns) or
refused with a :class:`Refusal`, whose reason a front end says in the
player's language.  A move is validated by replaying the game in the rules
core and written only if the game is still where the player saw it (see
:mod:`.storage`): when another move got there first, the lobby reads the game
again, so the slower of two simultaneous moves is refused for what it is
("it is not your move") rather than lost or doubled.

Several lobbies, in several server processes on one or several machines,
may share one database (PostgreSQL): none keeps anything the others need.
Each hears every change through :meth:`Lobby.changes` (what changed; the
state is read from the storage) and says who is connected through it
(:meth:`Lobby.arrive`, :meth:`Lobby.leave`, and :meth:`Lobby.beat` every
:data:`BEAT` so that the players of a process that was killed are
forgotten).

Nothing here prints, parses a command line or knows SSH: :mod:`.commands`
turns argv into these calls and their answers into text.  The clock and the
random choice of sides are injected, and so is what happens when it becomes
a player's move (:attr:`Lobby.on_turn`: the operator's notification hook).
"""

from __future__ import annotations

import datetime
import os
import random
import secrets
import socket
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Hashable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Final

from ..core.clock import ClockKind, TimeControl
from ..core.errors import MoveError
from ..core.game import Game, GameError
from ..core.message import Message, Nn_
from ..core.outcome import Outcome
from ..core.pieces import BLACK, WHITE, Colour
from ..core.safe_text import printable
from ..data.archive import archive_game
from ..i18n import N_
from .codes import code_digest, new_code
from .games import (
    ReplayError,
    Timing,
    after_move,
    correspondence_control,
    flagged,
    replay,
    start_timing,
    time_control,
)
from .keys import PublicKey
from .model import (
    Account,
    Change,
    CodeKind,
    CodeRefused,
    GameKind,
    GameStatus,
    KeyTaken,
    NameTaken,
    NewGame,
    PoolRating,
    SidePreference,
    StoredGame,
    StoredKey,
    StoredMove,
    Update,
)
from .names import NameRefused, look_alike_keys, parse_name
from .storage import Storage

__all__ = [
    "BEAT",
    "STALE",
    "Caller",
    "DrawAnswer",
    "Lobby",
    "LobbyOptions",
    "Played",
    "Refusal",
    "Registration",
    "Terms",
]

KEPT_CHANGING: Final = N_("game {game} kept changing while your move was played: look at it again")
OUT_OF_TIME: Final = N_("game {game} is over: {side} ran out of time")
ATTEMPTS: Final = 3
"""How often a move is tried again when another change to its game was written first."""
REPLAYED: Final = 256
"""Games kept replayed in memory (the most recently used): a move in one of them is judged without replaying it."""


BEAT: Final = datetime.timedelta(seconds=30)
"""How often a server process says it is alive (:meth:`Lobby.beat`)."""
STALE: Final = 3 * BEAT
"""How long a server process may go unheard of before its players are no longer online."""


def utc_now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


class Refusal(Exception):
    """A request the lobby does not carry out; :attr:`reason` says why, for the player's language."""

    def __init__(self, reason: Message) -> None:
        super().__init__(str(reason))
        self.reason = reason


class Registration(StrEnum):
    OPEN = "open"
    """Any key that reaches the server may register a name (``--authorized-keys`` still decides which reach it)."""
    INVITATION = "invitation"
    """A new player needs an invitation code (:meth:`Lobby.invite`)."""


@dataclass(frozen=True)
class LobbyOptions:
    """What the operator decided."""

    registration: Registration = Registration.OPEN
    site: str = "?"
    """The records' ``Site`` tag (NOTATION.md 7.3.1: ``City, Region CCC``)."""
    server: str = "cescacs"
    """The records' ``AnnotatorId``: this server's name as a publisher of records."""
    max_offers: int = 20
    """Seeks and challenges one player may have open at once."""
    max_games: int = 200
    """Games one player may have under way at once."""
    link_minutes: int = 15
    """How long a code to add a key to an account works."""


@dataclass(frozen=True)
class Caller:
    """Who sends a request: the key they logged in with."""

    key: PublicKey


@dataclass(frozen=True)
class Terms:
    """The time of a game offered: a live clock, or days per move, and the side its maker wants."""

    kind: GameKind
    control: TimeControl
    side: SidePreference = SidePreference.RANDOM

    @classmethod
    def correspondence(cls, days: int, side: SidePreference = SidePreference.RANDOM) -> Terms:
        return cls(GameKind.CORRESPONDENCE, correspondence_control(days), side)

    @classmethod
    def live(cls, control: TimeControl, side: SidePreference = SidePreference.RANDOM) -> Terms:
        if not control.enabled:
            raise Refusal(Message(N_("a live game has a clock: give one, such as --clock 600+5")))
        if control.kind is ClockKind.PER_MOVE and control.base > 3600:
            raise Refusal(Message(N_("a game with hours per move is a correspondence game: use --days")))
        return cls(GameKind.LIVE, control, side)


@dataclass(frozen=True)
class Played:
    """A move written: the game as stored now, the move as the record writes it, and the game in the core (the
    lobby's own, to read and never change, as :meth:`Lobby.look` gives it)."""

    game: StoredGame
    move: str
    core: Game


class DrawAnswer(StrEnum):
    OFFERED = "offered"
    ACCEPTED = "accepted"
    CLAIMED = "claimed"


def _nothing(name: str, game: int) -> None:
    return None


def new_node() -> str:
    """A name for this server process, never another's: its machine, its process id and a random part."""
    return f"{printable(socket.gethostname(), 40)}:{os.getpid()}:{secrets.token_hex(4)}"


@dataclass
class Lobby:
    """The server's rules for accounts, offers and games, over a :class:`~.storage.Storage`."""

    storage: Storage
    options: LobbyOptions = field(default_factory=LobbyOptions)
    clock: Callable[[], datetime.datetime] = utc_now
    """Now, as an aware datetime: injected by tests (deadlines, time-outs)."""
    choose: Callable[[Sequence[Colour]], Colour] = field(default=random.SystemRandom().choice)
    """Picks the side of a player who wants either."""
    on_turn: Callable[[str, int], None] = _nothing
    """Told the player's name and the game's id when it becomes the move of a player who wants to know."""
    node: str = field(default_factory=new_node)
    """This server process, as the presence of its players names it."""
    _replayed: OrderedDict[int, tuple[Hashable, Game]] = field(default_factory=OrderedDict, init=False, repr=False)
    """Games replayed lately, each with the stored state it stands for (:func:`_stored_key`)."""

    # --- accounts -------------------------------------------------------------------------------------------

    async def whoami(self, caller: Caller) -> Account | None:
        return await self.storage.account_by_key(caller.key.fingerprint)

    async def account_of(self, caller: Caller) -> Account:
        """The caller's account, or a refusal that tells them how to make one."""
        account = await self.whoami(caller)
        if account is None:
            raise Refusal(Message(N_("your key has no account on this server yet: choose a name with register NAME")))
        return account

    async def register(self, caller: Caller, text: str, invitation: str | None = None) -> Account:
        """Make the caller's account, of the name ``text``."""
        existing = await self.whoami(caller)
        if existing is not None:
            raise Refusal(Message(N_("your key is {name}'s already"), name=existing.name))
        try:
            name = parse_name(text)
        except NameRefused as refused:
            raise Refusal(refused.reason) from None
        digest = None
        if self.options.registration is Registration.INVITATION:
            if not invitation:
                said = N_("this server takes new players by invitation: register NAME CODE, with the code you got")
                raise Refusal(Message(said))
            digest = code_digest(invitation)
        try:
            return await self.storage.create_account(name, caller.key, self.clock(), digest)
        except NameTaken as taken:
            said = N_("{name} looks too much like {taken}, a player's name already: choose another")
            raise Refusal(Message(said, name=name.text, taken=taken.existing)) from None
        except KeyTaken:
            raise Refusal(Message(N_("your key belongs to an account already"))) from None
        except CodeRefused:
            said = N_("that invitation code does not work: it is unknown, used up or expired")
            raise Refusal(Message(said)) from None

    async def invite(self, uses: int = 1, days: int = 7, by: Account | None = None) -> str:
        """A new invitation code, good for ``uses`` registrations within ``days``."""
        code = new_code()
        expires = self.clock() + datetime.timedelta(days=days)
        await self.storage.create_code(code_digest(code), CodeKind.INVITATION, by.id if by else None, uses, expires)
        return code

    async def keys(self, account: Account) -> Sequence[StoredKey]:
        return await self.storage.keys(account.id)

    async def link_code(self, account: Account) -> tuple[str, datetime.datetime]:
        """A code that adds the key of whoever uses it to ``account`` (once), and when it stops working."""
        code = new_code()
        expires = self.clock() + datetime.timedelta(minutes=self.options.link_minutes)
        await self.storage.create_code(code_digest(code), CodeKind.LINK, account.id, 1, expires)
        return code, expires

    async def link(self, caller: Caller, code: str) -> Account:
        """Add the caller's key to the account whose link code this is."""
        existing = await self.whoami(caller)
        if existing is not None:
            raise Refusal(Message(N_("your key is {name}'s already"), name=existing.name))
        try:
            return await self.storage.link_key(code_digest(code), caller.key, self.clock())
        except CodeRefused:
            said = N_("that code does not work: it is unknown, used or expired (run keys add again)")
            raise Refusal(Message(said)) from None
        except KeyTaken:
            raise Refusal(Message(N_("your key belongs to an account already"))) from None

    async def remove_key(self, account: Account, caller: Caller, fingerprint: str) -> None:
        if fingerprint == caller.key.fingerprint:
            said = N_("you are logged in with that key: remove it while logged in with another of your keys")
            raise Refusal(Message(said))
        if not await self.storage.remove_key(account.id, fingerprint):
            said = N_("you have no other key {fingerprint}: keys lists yours")
            raise Refusal(Message(said, fingerprint=printable(fingerprint, 60)))

    async def set_notify(self, account: Account, on: bool) -> None:
        await self.storage.set_notify(account.id, on)

    # --- offers ---------------------------------------------------------------------------------------------

    async def challenge(self, account: Account, name: str, terms: Terms) -> StoredGame:
        """Offer a game to the player called ``name`` (any case, any look-alike spelling)."""
        opponent = await self.storage.account_named(look_alike_keys(name)[0])
        if opponent is None:
            raise Refusal(Message(N_("there is no player called {name}"), name=printable(name, 40)))
        if opponent.id == account.id:
            raise Refusal(Message(N_("you cannot challenge yourself: seek offers a game to everyone")))
        return await self._offer(account, terms, opponent.id)

    async def seek(self, account: Account, terms: Terms) -> StoredGame:
        """Offer a game to anyone."""
        return await self._offer(account, terms, None)

    async def _offer(self, account: Account, terms: Terms, opponent: int | None) -> StoredGame:
        if await self.storage.offers_by(account.id) >= self.options.max_offers:
            said = Nn_(
                "you have {count} seek or challenge open already: withdraw it with decline GAME",
                "you have {count} seeks and challenges open already: withdraw one with decline GAME",
            )
            raise Refusal(Message(said, count=self.options.max_offers))
        new = NewGame(terms.kind, terms.control.to_tag(), account.id, terms.side, opponent)
        return await self.storage.create_game(new, self.clock())

    async def seeks(self) -> Sequence[StoredGame]:
        return await self.storage.seeks()

    async def under_way(self) -> Sequence[StoredGame]:
        """The games being played now, by anyone (any player may watch any game)."""
        return await self.storage.under_way()

    async def accept(self, account: Account, number: int) -> StoredGame:
        """Start the seek or challenge ``number``, with ``account`` as the other player."""
        game = await self._game(number)
        if game.status is GameStatus.SEEK and game.creator == account.id:
            raise Refusal(Message(N_("game {game} is your own seek: withdraw it with decline {game}"), game=number))
        if game.status is GameStatus.CHALLENGE and game.opponent != account.id:
            refused = N_("game {game} is a challenge to {name}, not to you")
            raise Refusal(Message(refused, game=number, name=game.opponent_name or "?"))
        if game.status not in (GameStatus.SEEK, GameStatus.CHALLENGE):
            raise Refusal(Message(N_("game {game} is not open to accept: it has started already"), game=number))
        if await self.storage.games_under_way(account.id) >= self.options.max_games:
            said = Nn_(
                "you have {count} game under way already: finish it first",
                "you have {count} games under way already: finish one first",
            )
            raise Refusal(Message(said, count=self.options.max_games))
        if await self.storage.games_under_way(game.creator) >= self.options.max_games:
            said = Nn_(
                "{name} has {count} game under way already: try again later",
                "{name} has {count} games under way already: try again later",
            )
            raise Refusal(Message(said, name=game.creator_name, count=self.options.max_games))
        creator_colour = {SidePreference.WHITE: WHITE, SidePreference.BLACK: BLACK}.get(game.creator_plays)
        if creator_colour is None:
            creator_colour = self.choose([WHITE, BLACK])
        white, black = (game.creator, account.id) if creator_colour == WHITE else (account.id, game.creator)
        now = self.clock()
        timing = start_timing(game.kind, time_control(game), now)
        started = await self.storage.start_game(
            number, account.id, white, black, now, (timing.white, timing.black), timing.deadline
        )
        if started is None:
            gone = N_("game {game} was taken or withdrawn just now: seeks lists those still open")
            raise Refusal(Message(gone, game=number))
        if started.white != account.id:
            await self._tell_turn(started)
        return started

    async def decline(self, account: Account, number: int) -> None:
        """Withdraw one's own seek or challenge, or decline a challenge."""
        if not await self.storage.withdraw_game(number, account.id):
            said = N_("game {game} is no seek or challenge of yours (any more)")
            raise Refusal(Message(said, game=number))

    # --- games ----------------------------------------------------------------------------------------------

    async def games(self, account: Account, *, finished: bool = False) -> Sequence[StoredGame]:
        return await self.storage.games_of(account.id, finished=finished)

    async def _game(self, number: int) -> StoredGame:
        game = await self.storage.game(number)
        if game is None:
            raise Refusal(Message(N_("there is no game {game}"), game=number))
        return game

    async def look(self, number: int) -> tuple[StoredGame, Game]:
        """A game as stored and replayed in the core (anyone may look at any game, as watchers do).

        The game in the core is the lobby's own: read it, never change it (:meth:`_take` gives one to change).
        """
        game, core = await self._take(number)
        self._keep(game.id, core)
        return game, core

    async def _take(self, number: int) -> tuple[StoredGame, Game]:
        """The game as stored and in the core, the core now the caller's to change (:meth:`_keep` gives it back).

        A game replayed lately from the same stored state is not replayed again.
        """
        found = await self.storage.game_and_moves(number)
        if found is None:
            raise Refusal(Message(N_("there is no game {game}"), game=number))
        game, moves = found
        key = _stored_key(game, moves)
        kept = self._replayed.pop(number, None)
        if kept is not None and kept[0] == key:
            return game, kept[1]
        try:
            return game, replay(game, moves, site=self.options.site, server=self.options.server)
        except ReplayError as damaged:
            said = N_("game {game} cannot be read back: {reason}")
            raise Refusal(Message(said, game=number, reason=Message.verbatim(str(damaged)))) from None

    def _keep(self, number: int, core: Game) -> None:
        """Keep ``core``, as it is now stored, for the next request about the game."""
        self._replayed[number] = (_core_key(core), core)
        self._replayed.move_to_end(number)
        while len(self._replayed) > REPLAYED:
            self._replayed.popitem(last=False)

    async def pgn(self, number: int) -> str:
        """The game's CTL-PGN record, as the project's writer writes it."""
        from ..core.pgn import write_pgn

        return write_pgn((await self.look(number))[1])

    async def archive(self, number: int, folder: Path) -> Path:
        """Write a finished game to the archive in ``folder`` (:func:`~cescacs_tui.data.archive.archive_game`)."""
        game, core = await self.look(number)
        if not game.over:
            raise Refusal(Message(N_("game {game} is not finished: only finished games are archived"), game=number))
        return archive_game(core, folder)

    async def _seated(self, account: Account, number: int) -> tuple[StoredGame, Game, Colour]:
        """The game (stored, and in the core for the caller to change) and the side ``account`` plays in it, if
        they may act in it now; a game whose deadline has passed is ended on time first."""
        game, core = await self._take(number)
        try:
            colour = self._refuse_unless_seated(account, game, core)
            if await self._time_out(game, core):
                raise Refusal(Message(OUT_OF_TIME, game=number, side=game.to_move))
        except Refusal:
            self._keep(number, core)  # as it is now stored, or as it was if another change came first: see _take
            raise
        return game, core, colour

    @staticmethod
    def _refuse_unless_seated(account: Account, game: StoredGame, core: Game) -> Colour:
        number = game.id
        colour = game.colour_of(account.id)
        if colour is None:
            if game.status in (GameStatus.SEEK, GameStatus.CHALLENGE):
                raise Refusal(Message(N_("game {game} has not started: accept {game} starts it"), game=number))
            raise Refusal(
                Message(
                    N_("game {game} is between {white} and {black}: you do not play in it"),
                    game=number,
                    white=game.white_name or "?",
                    black=game.black_name or "?",
                )
            )
        if game.status is GameStatus.FINISHED:
            said = N_("game {game} is over: {result}, {reason}")
            raise Refusal(Message(said, game=number, result=game.result, reason=core.outcome_message()))
        return colour

    async def _time_out(self, game: StoredGame, core: Game, loser: Colour | None = None) -> bool:
        """End ``game`` on time if its deadline has passed (or ``loser``'s clock says their time ran out);
        whether it has (by this call or another's)."""
        loser = loser or flagged(game, self.clock())
        if loser is None:
            return False
        core.set_recorded_outcome(Outcome.time_forfeit(loser))
        await self._write(game, None, core)
        return True

    async def sweep(self) -> Sequence[StoredGame]:
        """End on time every game whose deadline has passed (the server runs this now and then); those ended."""
        ended = []
        for game in await self.storage.overdue(self.clock()):
            try:
                game, core = await self._take(game.id)
            except Refusal:
                continue  # damaged, or gone: left as it is, for the operator
            if await self._time_out(game, core):
                ended.append(game)
            self._keep(game.id, core)
        return ended

    async def play(self, account: Account, number: int, text: str, *, offer_draw: bool = False) -> Played:
        """Play ``text`` (CTL-AN) in game ``number`` for ``account``, offering a draw with it if asked."""
        for _ in range(ATTEMPTS):
            game, core, colour = await self._seated(account, number)
            if game.to_move != colour:
                self._keep(number, core)
                opponent = game.player(game.to_move)
                name = game.white_name if opponent == game.white else game.black_name
                said = N_("it is not your move in game {game}: {name} ({side}) is to move")
                raise Refusal(Message(said, game=number, name=name or "?", side=game.to_move))
            now = self.clock()
            timing = after_move(game, time_control(game), now)
            if timing is None:  # the clock, read now, says the mover's time is up
                await self._time_out(game, core, colour)
                self._keep(number, core)
                raise Refusal(Message(OUT_OF_TIME, game=number, side=colour))
            try:
                move = core.position.parse_move(text)
                node = core.play(move, offer_draw=offer_draw)
            except (MoveError, GameError) as error:  # refused before the game changed
                self._keep(number, core)
                said = N_("{move} cannot be played in game {game}: {reason}")
                raise Refusal(Message(said, move=printable(text, 40), game=number, reason=error.explanation)) from None
            node.clock = timing.mover_left
            played = StoredMove(game.ply + 1, node.san, now, node.clock, offer_draw)
            stored = await self._write(game, played, core, timing=timing, now=now)
            if stored is not None:
                self._keep(number, core)
                if not stored.over:
                    await self._tell_turn(stored)
                return Played(stored, node.san, core)
        raise Refusal(Message(KEPT_CHANGING, game=number))

    async def draw(self, account: Account, number: int) -> tuple[DrawAnswer, StoredGame]:
        """Offer a draw (after one's own move), accept the opponent's offer, or claim a draw the rules allow."""
        for _ in range(ATTEMPTS):
            game, core, colour = await self._seated(account, number)
            try:
                answer = self._answer_draw(game, core, colour)
            except Refusal:
                self._keep(number, core)  # refused before the game changed
                raise
            stored = await self._write(game, None, core, marks_offer=answer is DrawAnswer.OFFERED)
            if stored is not None:
                self._keep(number, core)
                return answer, stored
        raise Refusal(Message(KEPT_CHANGING, game=number))

    @staticmethod
    def _answer_draw(game: StoredGame, core: Game, colour: Colour) -> DrawAnswer:
        """Make in ``core`` the draw ``colour`` asks for, or refuse it (the core unchanged)."""
        if game.to_move == colour:
            if game.draw_offer is not None and game.draw_offer != colour:
                core.accept_draw()
                return DrawAnswer.ACCEPTED
            if core.claimable_draw() is not None:
                core.claim_draw()
                return DrawAnswer.CLAIMED
            said = N_("{reason}; to offer a draw, offer it with your move: play {game} MOVE --draw")
            raise Refusal(Message(said, reason=core.claim_status().explanation(), game=game.id))
        if game.ply == 0:
            raise Refusal(Message(N_("a draw is offered together with a move: make your first move")))
        if game.draw_offer == colour:
            raise Refusal(Message(N_("you have offered a draw already: your opponent answers it")))
        core.offer_draw()
        return DrawAnswer.OFFERED

    async def resign(self, account: Account, number: int) -> StoredGame:
        for _ in range(ATTEMPTS):
            game, core, colour = await self._seated(account, number)
            core.resign(colour)
            stored = await self._write(game, None, core)
            if stored is not None:
                self._keep(number, core)
                return stored
        raise Refusal(Message(KEPT_CHANGING, game=number))

    async def _write(
        self,
        game: StoredGame,
        move: StoredMove | None,
        core: Game,
        *,
        timing: Timing | None = None,
        now: datetime.datetime | None = None,
        marks_offer: bool = False,
    ) -> StoredGame | None:
        """Write what happened in ``core`` since ``game`` was read (a move brings its ``timing``, the clocks
        after it); ``None`` if the game changed meanwhile."""
        moment = now or self.clock()
        over = core.outcome is not None
        turn_started: datetime.datetime | None
        if timing is not None:
            clocks, deadline, turn_started = (timing.white, timing.black), timing.deadline, moment
        else:
            clocks, deadline, turn_started = (game.white_clock, game.black_clock), game.deadline, game.turn_started
        update = Update(
            move=move,
            draw_offer=None if over else core.draw_offered_by,
            result=core.result,
            ending=core.outcome.ending.value if core.outcome is not None else None,
            white_clock=clocks[0],
            black_clock=clocks[1],
            deadline=None if over else deadline,
            turn_started=turn_started,
            marks_offer=marks_offer,
        )
        return await self.storage.update_game(game.id, game.ply, update, moment)

    async def _tell_turn(self, game: StoredGame) -> None:
        """Run the notification hook for the player to move, if they want it."""
        player = game.player(game.to_move)
        account = None if player is None else await self.storage.account(player)
        if account is not None and account.notify:
            self.on_turn(account.name, game.id)

    # --- ratings --------------------------------------------------------------------------------------------

    async def ratings(self, pool: GameKind) -> Sequence[PoolRating]:
        return await self.storage.ratings(pool)

    # --- who is here, and what changed -----------------------------------------------------------------------

    def changes(self) -> AbstractAsyncContextManager[AsyncIterator[Change]]:
        """Listen for what changes in the lobby, through any server process sharing its storage
        (:meth:`~.fanout.Fanout.listen`): a screen reads again what a change names."""
        return self.storage.fanout.listen()

    async def arrive(self, account: Account) -> None:
        """A session of ``account`` began through this process: they are online."""
        await self.storage.arrive(account.id, self.node, self.clock())

    async def leave(self, account: Account) -> None:
        """A session of ``account`` through this process ended."""
        await self.storage.leave(account.id, self.node)

    async def online(self) -> Sequence[Account]:
        """The players connected through any server process, by name."""
        return await self.storage.online()

    async def beat(self) -> int:
        """Say this process is alive (every :data:`BEAT`), and forget the players of processes unheard of for
        :data:`STALE`; how many processes were forgotten."""
        now = self.clock()
        return await self.storage.beat(self.node, now, now - STALE)


def _stored_key(game: StoredGame, moves: Sequence[StoredMove]) -> Hashable:
    """What a replay of ``game`` depends on: its moves with their clocks and offers, its offer, its ending."""
    return (tuple((m.move, m.clock, m.draw_offer) for m in moves), game.draw_offer, game.result, game.ending)


def _core_key(core: Game) -> Hashable:
    """:func:`_stored_key` of the stored game ``core`` was replayed from, or has just been written as."""
    ending = core.outcome.ending.value if core.outcome is not None else None
    nodes = tuple((node.san, node.clock, node.draw_offer) for node in core.nodes)
    return (nodes, None if core.outcome is not None else core.draw_offered_by, core.result, ending)
