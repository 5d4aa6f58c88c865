"""The autosave: the game in progress, written after every move, offered again on start.

The file is JSON holding the game as CTL-PGN (so it stays readable and uses
the same, tested reader), the exact clock times when it was written, and the
app's options.  It is written atomically, so a process killed at any moment
leaves the previous save or the new one, never a broken file.

The JSON and CTL-PGN modules are imported when a file is written or found,
not with this module: a first start of the app has neither to do.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import CescacsError
from ..core.game import Game
from ..core.pieces import Colour
from .storage import data_dir, write_atomic

AUTOSAVE_NAME = "autosave.json"
FORMAT_VERSION = 1


def autosave_path() -> Path:
    return data_dir() / AUTOSAVE_NAME


@dataclass
class SavedGame:
    """A game in progress and what is needed to continue it exactly."""

    game: Game
    options: dict[str, Any] = field(default_factory=dict)
    saved_at: str = ""


def save_autosave(game: Game, options: dict[str, Any] | None = None, path: Path | None = None) -> None:
    """Write the autosave (atomically).  A finished game clears it instead: nothing to resume."""
    import json

    from ..core.pgn import write_pgn

    target = path or autosave_path()
    if game.is_over:
        clear_autosave(target)
        return
    clock = None
    if game.clock is not None:
        clock = {
            "white": game.clock.remaining(Colour.WHITE),
            "black": game.clock.remaining(Colour.BLACK),
            "started": game.clock.to_move is not None,
            "paused": game.clock.paused,
        }
    document = {
        "format": "cescacs-tui autosave",
        "version": FORMAT_VERSION,
        "saved_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "pgn": write_pgn(game),
        "clock": clock,
        "options": options or {},
    }
    write_atomic(target, json.dumps(document, ensure_ascii=False, indent=1))


def load_autosave(path: Path | None = None) -> SavedGame | None:
    """The autosaved game, or ``None`` if there is none.

    A damaged autosave raises :class:`CescacsError` with the reason, so the
    app can say so instead of silently starting afresh.
    """
    source = path or autosave_path()
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise CescacsError(f"the autosave {source} cannot be read: {error}") from None
    import json

    from ..core.pgn import read_pgn

    try:
        document = json.loads(text)
        if document.get("format") != "cescacs-tui autosave":
            raise ValueError("not a cescacs-tui autosave")
        games = read_pgn(document["pgn"])
        if len(games) != 1:
            raise ValueError("it does not hold exactly one game")
        game = games[0]
        clock = document.get("clock")
        if clock and game.clock is not None:
            game.clock.set_remaining(float(clock["white"]), float(clock["black"]))
            if clock.get("started") and not game.is_over:
                game.clock.start(game.position.turn)
                game.clock.pause()  # the players resume it when they are back at the board
        return SavedGame(game, dict(document.get("options") or {}), str(document.get("saved_at", "")))
    except (ValueError, KeyError, TypeError) as error:
        raise CescacsError(f"the autosave {source} is damaged: {error}") from None


def clear_autosave(path: Path | None = None) -> None:
    (path or autosave_path()).unlink(missing_ok=True)
