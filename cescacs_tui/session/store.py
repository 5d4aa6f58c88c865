"""Where a session keeps its game between runs: the autosave, and the archive of games that ended.

:class:`GameSession` only knows the :class:`GameStore` protocol, so tests and
front ends that keep nothing (a pipe, a benchmark) pass no store, and every
front end that does keep games keeps them the same way: in an owned, locked
autosave slot, :class:`cescacs_tui.data.slots.AutosaveSlot`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from ..core.game import Game
from ..core.message import Message

__all__ = ["GameStore"]


class GameStore(Protocol):
    """What a session asks of its storage; every method raises ``OSError`` when the disk refuses.

    ``notices`` are words for the player about what the store did besides
    (a damaged file kept aside, a replaced game archived); the session
    passes them on and empties the list.
    """

    notices: list[Message]

    def save(self, game: Game, options: Mapping[str, Any]) -> None:
        """Keep ``game`` (unfinished) so that it can be resumed, with the front end's ``options``."""

    def finish(self, game: Game) -> Path | None:
        """``game`` has ended: archive it, then forget the autosave; returns where it was archived."""

    def keep(self, game: Game) -> Path | None:
        """``game`` is unfinished but being replaced (a new game, a record opened): archive it as it is."""

    def release(self) -> None:
        """The session is over: let another process own this storage."""
