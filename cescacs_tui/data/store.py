"""Where a game is kept between runs: the one protocol a session, a remote coordinator and a server ask it through.

A :class:`~cescacs_tui.session.GameSession` tells its :class:`GameStore`
what happens to the game (it changed, it is about to be replaced, the
players quit) and asks it nothing else: which file is written, when a game
that ended is archived, what to do when the disk is full, and how two
``cescacs`` on one data directory hand the autosave over are the store's.
So every front end keeps games the same way, and a new kind of storage (a
server's database) is a new class, not a change to the session.

* :class:`NoStore` keeps nothing (a test, a benchmark, a client of a game
  kept by its host);
* :class:`~cescacs_tui.data.autosave_store.AutosaveStore` keeps the game in
  an owned autosave :class:`Slot` and its archive, and hands the autosave
  over between two processes.

Every method is safe to call at any moment: what goes wrong is said by
:attr:`GameStore.problem` (the front ends keep it in view) or, where the
session must answer the player at once, raised as :class:`StoreError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..core.errors import CescacsError
from ..core.game import Game
from ..core.message import Message
from .autosave import LoadedAutosave, SavedGame

__all__ = ["GameStore", "NoStore", "Slot", "StoreError", "TakenOver"]


class StoreError(CescacsError):
    """What the player asked of the store could not be done; its explanation says why (and is :attr:`problem`)."""


@dataclass(frozen=True)
class TakenOver:
    """The autosave another process had open is this store's now: ``saved`` is its unfinished game to offer
    (``None``: it held none, and the game on the table is saved there from now on)."""

    saved: SavedGame | None


class GameStore(Protocol):
    """What a session asks of the place its game is kept.

    ``notices`` are words for the player about what the store did besides
    (a damaged file kept aside, a replaced game archived): front ends say
    them, then empty the list.  ``archived`` is where each game that ended
    was archived, oldest first.
    """

    notices: list[Message]
    archived: list[Path]

    @property
    def problem(self) -> Message | None:
        """Why the game on the table is not kept as it should be (the disk is full...); ``None`` once it is."""

    @property
    def held_elsewhere(self) -> Message | None:
        """Who holds the game this store would keep (another ``cescacs`` on the same data directory) while this
        store keeps nothing: the players choose a separate game (:meth:`separate`) or to wait (:meth:`wait`)."""

    @property
    def waiting(self) -> bool:
        """Whether the store waits to take over the game another process holds (see :meth:`take_over`)."""

    def load(self) -> SavedGame | None:
        """The unfinished game kept here, to resume (what the store found besides goes to :attr:`notices`)."""

    def save(self, game: Game, options: Mapping[str, Any]) -> Path | None:
        """The game changed: keep it (with the front end's ``options``), or archive it if it has ended.

        Returns where an ended game was archived.  Never raises: :attr:`problem` says what failed.
        """

    def keep(self, game: Game) -> Path | None:
        """Archive the unfinished ``game`` as it is (it is being replaced, or its resume was declined).

        Returns where (``None``: this store keeps nothing); :class:`StoreError` if it could not be archived.
        """

    def close(self, game: Game, options: Mapping[str, Any]) -> None:
        """The players quit: keep ``game`` as it is now and let another process have this storage."""

    def separate(self, game: Game, options: Mapping[str, Any]) -> str:
        """Keep ``game`` apart from the one held elsewhere, from now on; returns the name it is kept under.

        :class:`StoreError` if no place of its own could be made.
        """

    def wait(self) -> None:
        """Wait to take over the game held elsewhere (:meth:`take_over` asks whether it is free now)."""

    def take_over(self, game: Game, options: Mapping[str, Any]) -> TakenOver | None:
        """While waiting: own what the other process held, once it has let go (``None`` while it has not).

        ``game`` is the one on the table, kept (apart, or in its place) before anything else is.
        """


class Slot(Protocol):
    """One place a game is written: what :class:`~cescacs_tui.data.autosave_store.AutosaveStore` keeps a game in.

    :class:`~cescacs_tui.data.slots.AutosaveSlot` is the file one process
    owns; a test may keep games in memory.  Every method but :meth:`load`
    and :meth:`release` raises ``OSError`` when the disk refuses.
    """

    notices: list[Message]

    def load(self) -> LoadedAutosave:
        """What the slot holds; never raises."""

    def save(self, game: Game, options: Mapping[str, Any]) -> None:
        """Write the unfinished ``game`` (what it replaces is archived first)."""

    def finish(self, game: Game) -> Path:
        """``game`` has ended: archive it and clear the slot; returns where it was archived."""

    def keep(self, game: Game) -> Path:
        """Archive the unfinished ``game`` as it is; returns where."""

    def release(self) -> None:
        """Let another process own this slot."""


class NoStore:
    """A store that keeps nothing: a game in a test or a benchmark, or one kept elsewhere (a remote game's host)."""

    def __init__(self) -> None:
        self.notices: list[Message] = []
        self.archived: list[Path] = []

    @property
    def problem(self) -> Message | None:
        return None

    @property
    def held_elsewhere(self) -> Message | None:
        return None

    @property
    def waiting(self) -> bool:
        return False

    def load(self) -> SavedGame | None:
        return None

    def save(self, game: Game, options: Mapping[str, Any]) -> Path | None:
        return None

    def keep(self, game: Game) -> Path | None:
        return None

    def close(self, game: Game, options: Mapping[str, Any]) -> None:
        return None

    def separate(self, game: Game, options: Mapping[str, Any]) -> str:
        raise StoreError("this game is kept nowhere: there is no separate place to keep it")

    def wait(self) -> None:
        return None

    def take_over(self, game: Game, options: Mapping[str, Any]) -> TakenOver | None:
        return None
