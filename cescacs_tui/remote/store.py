"""Where a coordinator keeps its game: an autosave slot and an archive of its own, in its own directory.

A hosted game (``cescacs host``) and every SSH room keep their game apart
from the player's local autosave, so a coordinator never overwrites the game
someone plays at this terminal, and two rooms never share a file.  The store
is the data layer's :class:`~cescacs_tui.data.autosave_store.AutosaveStore`
on a locked :class:`~cescacs_tui.data.slots.AutosaveSlot`: the same file
format as a local game (a restarted coordinator resumes from it, seats
included), finished games archived in ``games/`` before the autosave is
cleared, and one owner at a time, so two coordinators started on the same
directory can never write over each other's game.
"""

from __future__ import annotations

from pathlib import Path

from ..core.errors import CescacsError
from ..core.message import N_, Message
from ..data.autosave import AUTOSAVE_NAME
from ..data.autosave_store import AutosaveStore
from ..data.lock import AutosaveBusy
from ..data.slots import AutosaveSlot

__all__ = ["RoomBusy", "open_store"]


class RoomBusy(CescacsError):
    """Another process holds the game of this directory (a coordinator still running)."""


def open_store(directory: Path) -> AutosaveStore:
    """Own the autosave of ``directory`` (``autosave.json``; its archive is ``games/`` beside it)."""
    directory.mkdir(parents=True, exist_ok=True)
    try:
        return AutosaveStore(AutosaveSlot.acquire(directory / AUTOSAVE_NAME))
    except AutosaveBusy as busy:
        said = Message(
            N_("the game in {directory} is open in another process ({who})"),
            directory=str(directory),
            who=busy.owner.description(),
        )
        raise RoomBusy(said) from None
