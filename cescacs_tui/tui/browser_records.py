"""Records in web mode: opened from text the browser sends, saved as a download to the browser.

A web visitor must never reach the server's files (:mod:`cescacs_tui.web.mode`),
so here no path is ever built from what the player typed: opening reads the
text pasted into a box (or a file's text the page sends as a paste), saving
hands the record to Textual's ``App.deliver_text``, which textual-serve turns
into a download in the visitor's browser.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Callable
from typing import Any

from textual.app import App

from ..core.game import Game
from ..web.mode import CHOOSE_FILE_URL

__all__ = ["ask_for_record", "deliver_record", "games_from_text", "opened_message", "record_file_name"]

OpenGames = Callable[[list[Game], str], None]
"""The app's way to show the first of the games read, and to say where they came from."""

PASTE_HINT = (
    "Paste a CTL-PGN record or a PDTL position here (Ctrl+V or Shift+Insert), "
    "or choose a .ctl-pgn file from this computer."
)


def record_file_name(game: Game) -> str:
    """``cescacs-DATE-WHITE-BLACK.ctl-pgn`` from the game's tags, in plain ASCII letters, digits, ``._-`` only.

    The name goes into a download header and onto the player's disk: no
    separator, quote or control character from a tag survives.
    """
    parts = []
    for name in ("Date", "White", "Black"):
        value = game.tags.get(name, "")
        if not value or value == "?":
            continue
        ascii_value = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
        part = re.sub(r"[^A-Za-z0-9._-]+", "", ascii_value.replace(",", "").replace(" ", "_")).strip("._-")
        if part:
            parts.append(part[:40])
    return f"cescacs-{'-'.join(parts) or 'game'}.ctl-pgn"


def deliver_record(app: App[Any], game: Game) -> str:
    """Send the record to the browser as a download; the sentence to tell the player."""
    from ..core.pgn import write_pgn

    name = record_file_name(game)
    app.deliver_text(io.StringIO(write_pgn(game)), save_filename=name, open_method="download", mime_type="text/plain")
    return f"{name} sent to your browser (see its downloads)"


def games_from_text(text: str) -> list[Game]:
    """The games of a pasted CTL-PGN record, or a new game from a pasted one-line PDTL position.

    Raises :class:`~cescacs_tui.core.CescacsError` (a ``ValueError``) saying what is wrong.
    """
    from ..core.errors import PGNError

    stripped = text.strip()
    if not stripped:
        raise PGNError("nothing was pasted")
    if "\n" not in stripped and not stripped.startswith("[") and re.match(r"\d+\s*\.", stripped) is None:
        return [Game.new(pdtl=stripped)]
    from ..core.pgn import read_pgn

    games = read_pgn(stripped)
    if not games:
        raise PGNError("the text holds no game")
    return games


def opened_message(source: str, games: list[Game]) -> str:
    """What the player is told when a record is opened."""
    extra = f" ({source} holds {len(games)} games: the first is shown)" if len(games) > 1 else ""
    warnings_note = f"; {len(games[0].warnings)} irregularities tolerated" if games[0].warnings else ""
    return f"opened {source}: {games[0].ply} half-moves{extra}{warnings_note}"


def ask_for_record(app: App[Any], open_games: OpenGames) -> None:
    """The web mode's Open: a box for a pasted record or position, and a button for a file of this computer."""
    from .paste_dialog import PasteDialog

    def opened(games: list[Game] | None) -> None:
        if games is not None:
            open_games(games, "the record")

    def choose_file() -> None:
        app.open_url(CHOOSE_FILE_URL, new_tab=False)

    app.push_screen(PasteDialog("Open a game", PASTE_HINT, games_from_text, choose_file=choose_file), opened)
