"""The computer at the table: it plays the session's computer players, and gives hints and a live analysis.

An :class:`Opponent` owns one engine process (:class:`~cescacs_tui.engine.client.EngineClient`,
any program speaking docs/engine-protocol.md), started the first time it is
needed and closed with :meth:`Opponent.close`.  Everything is asynchronous, so
a front end on an event loop (the Textual app) never waits for the engine,
and free of any user interface, so the plain mode drives it too.

The game may change while the engine thinks: the player takes back, starts a
new game, quits.  Every answer is checked against the position it was asked
about (:class:`Asked`) and dropped when that is no longer on the table, so no
move is ever played into the wrong position; a front end that cancels the
task running :meth:`Opponent.play_turn` also stops the engine's search.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ..core.game import Game, Node
from ..core.pieces import WHITE
from ..core.position import Position
from ..data.engine_slots import EngineSlot, EngineSlots
from ..i18n import _, ngettext
from .feedback import Feedback, Redraw, Tone
from .game_session import GameSession
from .highlights import move_hexes
from .players import TWO_PEOPLE
from .terms import capitalised, side

if TYPE_CHECKING:  # the engine's client and search are loaded when the computer is first needed
    from ..engine.client import EngineClient, EngineError, EngineInfo
    from ..engine.search import Limits

__all__ = ["Analysis", "Asked", "EngineBusy", "Opponent", "score_words"]

HINT_SECONDS: Final = 1.0
"""How long the engine looks for a hint."""

PLACE_POLL_SECONDS: Final = 0.5
"""How often the computer's turn asks again for an engine place, on a server whose places are all taken."""


class EngineBusy(Exception):
    """Every engine place the server shares among its visitors is taken (``count`` of them)."""

    def __init__(self, count: int) -> None:
        super().__init__(f"all {count} engine places of this server are taken")
        self.count = count

    def reason(self) -> str:
        said = ngettext(
            "the server's engine is busy with another visitor: try again in a moment",
            "the server's {count} engines are all busy with other visitors: try again in a moment",
            self.count,
        )
        return said.format(count=self.count)


def score_words(info: EngineInfo) -> str:
    """An engine's score as a player reads it, from White's side: ``+1.3``, ``-0.4``, ``White mates in 2``."""
    mate = info.white_mate
    if mate is not None:
        winner = WHITE if mate > 0 else WHITE.opponent
        return capitalised(_("{side} mates in {moves}").format(side=side(winner), moves=abs(mate)))
    score = info.white_score
    if score is None:
        return "?"
    pawns = round(score / 100, 1)
    return "0.0" if pawns == 0 else f"{pawns:+.1f}"


@dataclass(frozen=True)
class Analysis:
    """One report of the engine's analysis, ready to show: the score (White's side), the depth, the line in CTL-AN."""

    score: str
    depth: int | None
    line: str
    nodes: int | None


def analysis_of(position: Position, info: EngineInfo) -> Analysis:
    """What an ``info`` report about ``position`` says, for a player."""
    from ..engine.pv import pv_to_ctl_an

    return Analysis(score_words(info), info.depth, pv_to_ctl_an(position, info.moves), info.nodes)


@dataclass(frozen=True)
class Asked:
    """The position an engine was asked about: a game, how far into it, and its last half-move then.

    A takeback followed by another move reaches the same ply with another
    last half-move; a new game is another game: either way the answer is stale.
    """

    game: Game
    ply: int
    last: Node | None

    @classmethod
    def of(cls, game: Game, ply: int | None = None) -> Asked:
        at = game.ply if ply is None else ply
        return cls(game, at, game.nodes[at - 1] if at else None)

    def still(self, game: Game, ply: int | None = None) -> bool:
        """Whether ``game`` (after ``ply`` half-moves, default its end) is still the position asked about."""
        now = Asked.of(game, ply)
        return now.game is self.game and now.ply == self.ply and now.last is self.last


class Opponent:
    """The engine behind the session's computer players, hints and analysis.

    ``command`` is the engine to run (``None``: this package's), or
    ``setting`` the ``engine`` setting to read it from
    (:func:`~cescacs_tui.engine.computer.engine_command`) when it is first
    needed: the engine's client and search are loaded only then, so a game
    between people never waits for them.  ``options`` are set once it starts
    (``{"Seed": 1}`` makes it repeatable), ``limits`` replace the clock's for
    the computer's moves (``Limits(nodes=...)`` in tests).
    """

    def __init__(
        self,
        session: GameSession,
        command: Sequence[str] | None = None,
        *,
        setting: str | None = None,
        options: Mapping[str, str | int | bool] | None = None,
        limits: Limits | None = None,
        hint_limits: Limits | None = None,
        timeout: float = 10.0,
        places: EngineSlots | None = None,
    ) -> None:
        self.session = session
        self.places = places
        """The engine places a server shares among its visitors (``None``: the owner's machine, no count): the
        engine runs only while it holds one, and ends when its search does, so the place is free again."""
        self._place: EngineSlot | None = None
        self._command = list(command) if command is not None else None
        self._setting = setting
        self.options = dict(options or {})
        self.limits = limits
        self.hint_limits = hint_limits
        self.timeout = timeout
        self.thinking = False
        """Whether the computer is searching for its move now (the front end shows it)."""
        self.problem: str | None = None
        """Why the engine could not be used, the last time it failed."""
        self.analysing: Asked | None = None
        """The position the running analysis is about."""
        self._client: EngineClient | None = None
        self._starting = asyncio.Lock()

    # --- the engine process ----------------------------------------------------------------

    @property
    def command(self) -> list[str] | None:
        """The engine's command line (``None``: this package's engine), read from the setting when first asked."""
        if self._command is None and self._setting is not None:
            from ..engine.computer import engine_command

            self._command = engine_command(self._setting)
        return self._command

    @command.setter
    def command(self, command: list[str] | None) -> None:
        self._command = command

    async def client(self) -> EngineClient:
        """The engine, started (and greeted) the first time; :class:`EngineError` if it cannot be,
        :class:`EngineBusy` if the server's engine places are all taken."""
        from ..engine.client import EngineClient

        async with self._starting:
            if self._client is None or not self._client.alive:
                self._take_place()
                try:
                    self._client = await EngineClient.start(self.command, options=self.options, timeout=self.timeout)
                except BaseException:
                    self._give_place_back()
                    raise
            return self._client

    def _take_place(self) -> None:
        if self.places is None or self._place is not None:
            return
        self._place = self.places.take()
        if self._place is None:
            raise EngineBusy(self.places.count)

    def _give_place_back(self) -> None:
        place, self._place = self._place, None
        if place is not None:
            place.release()

    async def _done(self) -> None:
        """A search is over: an engine of the server's shared places ends, and its place is free for another."""
        if self.places is not None and self.analysing is None:
            await self.close()

    async def _client_for_the_computer(self) -> EngineClient:
        """The engine for the computer's move: on a server whose places are all taken, it waits for one."""
        while True:
            try:
                return await self._idle_client()
            except EngineBusy:
                await asyncio.sleep(PLACE_POLL_SECONDS)

    async def _idle_client(self) -> EngineClient:
        """The engine with no search running: options (the level) can only be set between searches."""
        client = await self.client()
        await client.stop()
        return client

    async def close(self) -> None:
        """Stop any search and end the engine process (the front end quits, or unmounts)."""
        client, self._client = self._client, None
        self.analysing = None
        try:
            if client is not None:
                await client.close()
        finally:
            self._give_place_back()

    async def stop(self) -> None:
        """Stop whatever the engine is doing (its answer is dropped)."""
        self.analysing = None
        if self._client is not None and self._client.alive:
            from ..engine.client import EngineError

            with contextlib.suppress(EngineError):
                await self._client.stop()
        await self._done()

    async def _failed(self, error: EngineError) -> Feedback:
        """The engine failed: say why, and let people play both sides rather than wait for it forever.

        The process is ended (one that refused a command may still run); the
        next search starts a fresh one.
        """
        self.problem = str(error)
        await self.close()
        computer = self.session.players != TWO_PEOPLE
        if computer:
            self.session.players = TWO_PEOPLE
            self.session.save()
        said = _("the computer cannot play: {reason}").format(reason=error)
        if computer:
            said += " — " + _("people play both sides now; the engine setting chooses another engine")
        return Feedback(said, Tone.ERROR, Redraw.PANELS)

    # --- the computer's turn ---------------------------------------------------------------

    async def play_turn(self, on_info: Callable[[EngineInfo], None] | None = None) -> Feedback:
        """If the computer is to move, think (by the game's clock) and play its move through the session.

        An empty feedback when it is not its turn, or when the position changed
        while it thought (the answer is dropped).  Cancelling the task running
        this stops the engine's search.
        """
        session = self.session
        if not session.computer_to_move:
            return Feedback()
        game = session.game
        level = session.players[game.position.turn].level
        assert level is not None  # the computer is to move
        asked = Asked.of(game)
        self.analysing = None  # its own search replaces any analysis
        self.thinking = True
        from ..engine.client import EngineError
        from ..engine.computer import computer_move

        try:
            client = await self._client_for_the_computer()
            move = await computer_move(client, game, level, limits=self.limits, on_info=on_info)
        except EngineError as error:
            return await self._failed(error) if asked.still(session.game) else Feedback()
        except asyncio.CancelledError:
            await asyncio.shield(self.stop())
            raise
        finally:
            self.thinking = False
        await self._done()
        if not asked.still(session.game) or not session.computer_to_move:
            return Feedback()  # taken back, another game, a flag fallen while it thought: the move is not wanted
        return session.play_computer(move)

    # --- hints and analysis ----------------------------------------------------------------

    async def hint(self) -> Feedback:
        """The engine's best move in the position shown, previewed on the board (not played), with its score."""
        session = self.session
        if (reason := session.refusal("hint")) is not None:
            return Feedback.refused(reason)
        shown = session.shown
        asked = Asked.of(shown, shown.cursor)
        position = shown.reviewed_position()
        self.analysing = None
        from ..engine.client import EngineError
        from ..engine.computer import hint

        try:
            client = await self._idle_client()
            best = await hint(client, shown, shown.cursor, movetime=HINT_SECONDS, limits=self.hint_limits)
        except EngineBusy as busy:
            return Feedback.refused(busy.reason())
        except EngineError as error:
            return await self._failed(error)
        await self._done()
        if not asked.still(session.shown, session.shown.cursor) or best.move is None:
            return Feedback()
        session.preview = move_hexes(position, best.move)
        move = position.ctl_an(best.move)
        score = score_words(best.info) if best.info is not None else "?"
        said = _("hint: {move} (score {score}, from White's side)").format(move=move, score=score)
        if shown is session.game and shown.is_live:
            session.show_hint(tuple(shown.moves), best.move)
            if session.available("play_hint"):
                said += " · " + _("{key} plays it").format(key=session.how("play_hint"))
        return Feedback(said, Tone.INFO, Redraw.BOARD)

    async def analyse(self, on_analysis: Callable[[Analysis], None]) -> Feedback:
        """Start (or restart) the live analysis of the position shown; reports go to ``on_analysis``.

        It runs until :meth:`stop`, another search, or the position shown
        changes (the front end then calls this again, see :meth:`analysis_stale`).
        """
        session = self.session
        shown = session.shown
        if session.computer_to_move:
            await self.stop()
            return Feedback()
        asked = Asked.of(shown, shown.cursor)
        position = shown.reviewed_position()
        if not position.has_legal_moves():
            await self.stop()
            self.analysing = asked
            return Feedback()

        def report(info: EngineInfo) -> None:
            if self.analysing is asked and info.moves:
                on_analysis(analysis_of(position, info))

        from ..engine.client import EngineError
        from ..engine.computer import analyse

        # Asked before the running search is stopped: what it still reports while it stops is about the
        # position shown before, and ``report`` of that search drops it (the engine's last lines come late on
        # a loaded machine).
        self.analysing = asked
        try:
            client = await self._idle_client()
            await analyse(client, shown, shown.cursor, report)  # it runs until the engine's next command
        except EngineBusy as busy:  # ``analysing`` stays: not asked again for this position, it says why instead
            return Feedback.refused(busy.reason())
        except EngineError as error:
            self.analysing = None
            return await self._failed(error)
        return Feedback()

    def analysis_stale(self) -> bool:
        """Whether the running analysis (if any) is about another position than the one shown now."""
        shown = self.session.shown
        return self.analysing is None or not self.analysing.still(shown, shown.cursor)
