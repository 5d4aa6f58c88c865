"""The player's games on this machine: an owned autosave, the archive, and the handover between two ``cescacs``.

An :class:`AutosaveStore` is the :class:`~cescacs_tui.data.store.GameStore`
of every front end that keeps games in a data directory (the app, the plain
mode, a coordinator's room).  It writes to the :class:`~.store.Slot` this
process owns (:class:`~cescacs_tui.data.slots.AutosaveSlot`): the game after
every change, the archive when it ends.  When a second ``cescacs`` starts on
a data directory whose autosave the first owns, its store owns nothing: the
players choose a separate game (a slot of its own, :func:`~.slots.fresh_slot`)
or to wait until the first has exited and take its autosave over.  While it
waits nothing is written, except a game that ends (or is still on the table
when the players quit), which gets a slot of its own: no game is lost.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..core.game import Game
from ..core.message import N_, Message
from .autosave import SavedGame
from .lock import AutosaveBusy
from .slots import AutosaveSlot, AutosaveStart, fresh_slot
from .store import Slot, StoreError, TakenOver

__all__ = ["AutosaveStore"]


class AutosaveStore:
    """The game kept in ``slot`` (``None``: nowhere yet), its finished games archived beside it.

    ``busy`` says the main autosave is open in another process: with no
    slot, the players are asked whether to play a separate game or to wait
    for that one (:attr:`held_elsewhere`).
    """

    def __init__(self, slot: Slot | None = None, *, busy: AutosaveBusy | None = None) -> None:
        self.slot = slot
        self.busy = busy
        self.notices: list[Message] = []
        self.archived: list[Path] = []
        self.waiting_for: Path | None = None
        """The autosave another process has open, which this store takes over once that process exits."""
        self._problem: Message | None = None

    @classmethod
    def at_start(cls, start: AutosaveStart) -> AutosaveStore:
        """The store of what :func:`~cescacs_tui.data.slots.open_autosave` found (its notices are the front
        end's to say at start)."""
        return cls(start.slot, busy=start.busy)

    @property
    def problem(self) -> Message | None:
        return self._problem

    @property
    def held_elsewhere(self) -> Message | None:
        if self.slot is not None or self.busy is None or self.waiting_for is not None:
            return None
        return self.busy.owner.description()

    @property
    def waiting(self) -> bool:
        return self.waiting_for is not None

    def load(self) -> SavedGame | None:
        if self.slot is None:
            return None
        saved = self.slot.load().saved
        self._collect(self.slot)
        return saved

    def save(self, game: Game, options: Mapping[str, Any]) -> Path | None:
        if self.slot is None and game.is_over:
            self._separate_while_waiting(game)
        slot = self.slot
        if slot is None:
            return None
        try:
            if game.is_over:
                path: Path | None = slot.finish(game)
            else:
                slot.save(game, options)
                path = None
        except OSError as error:
            if game.is_over:  # kept by the slot, archived before it writes anything else
                said = N_("the game that ended is not archived yet ({reason}): it will be as soon as the disk allows")
                self._problem = Message(said, reason=_first_cause(error))
            else:
                self._problem = Message(N_("the game is not being saved: {reason}"), reason=_reason(error))
            return None
        finally:
            self._collect(slot)
        self._problem = None
        if path is not None and path not in self.archived:
            self.archived.append(path)
        return path

    def keep(self, game: Game) -> Path | None:
        if self.slot is None:
            return None
        try:
            return self.slot.keep(game)
        except OSError as error:
            self._problem = Message(N_("the unfinished game could not be kept: {reason}"), reason=_reason(error))
            raise StoreError(self._problem) from error

    def close(self, game: Game, options: Mapping[str, Any]) -> None:
        self._separate_while_waiting(game)
        self.save(game, options)
        if self.slot is not None:
            self.slot.release()

    # --- the handover between two processes on one data directory ----------------------------------------

    def separate(self, game: Game, options: Mapping[str, Any]) -> str:
        assert self.busy is not None, "a separate game is offered only while the autosave is held elsewhere"
        try:
            slot = fresh_slot(self.busy.path.parent)
        except OSError as error:
            self._problem = Message(N_("no autosave of its own could be made: {reason}"), reason=_reason(error))
            raise StoreError(self._problem) from error
        self.slot = slot
        self.save(game, options)
        return slot.path.name

    def wait(self) -> None:
        if self.busy is not None:
            self.waiting_for = self.busy.path

    def take_over(self, game: Game, options: Mapping[str, Any]) -> TakenOver | None:
        if self.waiting_for is None:
            return None
        if self.slot is not None and self._problem is not None:
            self.save(game, options)  # a separate slot is let go of below: what it holds must be on disk first
            if self._problem is not None:
                return None
        try:
            slot = AutosaveSlot.acquire(self.waiting_for)
        except AutosaveBusy:
            return None
        self.waiting_for = self.busy = None
        if self.slot is not None:  # a separate slot taken while waiting: what it holds is offered at the next start
            self.slot.release()
        self.slot = slot
        saved = slot.load().saved
        if saved is None:
            self.save(game, options)
        return TakenOver(saved)

    def _separate_while_waiting(self, game: Game) -> None:
        """Waiting to take another cescacs' game over, the moves played here meanwhile must still reach the disk.

        Nothing is saved while waiting (the autosave is the other process's),
        but a game that ends here, or that is on the table when the players
        quit first, gets a separate slot of its own: the archive, or the
        autosave offered at the next start.
        """
        if self.slot is not None or self.waiting_for is None or not game.nodes:
            return
        try:
            self.slot = fresh_slot(self.waiting_for.parent)
        except OSError as error:
            self._problem = Message(N_("no autosave of its own could be made: {reason}"), reason=_reason(error))

    def _collect(self, slot: Slot) -> None:
        """What the slot did besides (a file kept aside, a game archived) is this store's to tell, once."""
        self.notices.extend(slot.notices)
        slot.notices.clear()


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def _first_cause(error: BaseException) -> str:
    """What the system said at the bottom of a chain of errors ("No space left on device"), else the error's words."""
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, OSError) and cause.strerror:
            return cause.strerror
        cause = cause.__cause__
    return str(error)
