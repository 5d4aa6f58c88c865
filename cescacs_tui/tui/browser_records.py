"""Records of a visitor: opened from text the visitor pastes or their browser sends, saved as a download.

A visitor of a server must never reach the server's files (the launch's
:class:`~cescacs_tui.session.policy.Policy` says who is one), so here no
path is ever built from what the player typed: opening reads the text pasted
into a box (or, in the browser, a file's text the page sends as a paste),
saving hands the record to Textual's ``App.deliver_text``, which
textual-serve turns into a download in the visitor's browser.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

from textual.app import App

from ..data.records import OpenedRecord
from ..i18n import N_, _
from ..session.policy import CHOOSE_FILE_URL

__all__ = ["PASTE_HINT", "UPLOAD_HINT", "ask_for_record", "deliver_record", "record_from_text"]

PASTE_HINT = N_("Paste a CTL-PGN record or a PDTL position here (your terminal's paste: Ctrl+Shift+V, Shift+Insert).")
UPLOAD_HINT = N_(
    "Paste a CTL-PGN record or a PDTL position here (Ctrl+V or Shift+Insert), "
    "or choose a .ctl-pgn file from this computer."
)


def record_from_text(text: str) -> OpenedRecord:
    """The first game of a pasted CTL-PGN record (and how many it holds), or a new game from a one-line PDTL.

    Only the first game is replayed, as for a file.  Raises
    :class:`~cescacs_tui.core.CescacsError` (a ``ValueError``) saying what is wrong.
    """
    from ..core.errors import PGNError
    from ..core.game import Game

    stripped = text.strip()
    if not stripped:
        raise PGNError(_("nothing was pasted"))
    if "\n" not in stripped and not stripped.startswith("[") and re.match(r"\d+\s*\.", stripped) is None:
        return OpenedRecord(Game.new(pdtl=stripped), 1)
    from ..core.pgn import count_games, read_pgn

    games = read_pgn(stripped, max_games=1)
    if not games:
        raise PGNError(_("the text holds no game"))
    return OpenedRecord(games[0], max(1, count_games(stripped)))


def deliver_record(app: App[Any], text: str, file_name: str) -> str:
    """Send the record to the browser as a download named ``file_name``; the sentence to tell the player."""
    app.deliver_text(io.StringIO(text), save_filename=file_name, open_method="download", mime_type="text/plain")
    return _("{name} sent to your browser (see its downloads)").format(name=file_name)


def ask_for_record(app: App[Any], show: Callable[[OpenedRecord], None], *, upload: bool) -> None:
    """A visitor's Open: a box for a pasted record or position, and, in the browser (``upload``), a button for a
    file of the visitor's computer."""
    from .dialogs.paste import PasteDialog

    def opened(record: OpenedRecord | None) -> None:
        if record is not None:
            show(record)

    def choose_file() -> None:
        app.open_url(CHOOSE_FILE_URL, new_tab=False)

    hint = _(UPLOAD_HINT) if upload else _(PASTE_HINT)
    dialog = PasteDialog(_("Open a game"), hint, record_from_text, choose_file=choose_file if upload else None)
    app.push_screen(dialog, opened)
