"""Copying text out of the terminal, locally or over SSH.

Two routes, both tried: Textual's OSC 52 escape sequence, which asks the
terminal emulator itself to take the text (so it works over SSH in most
terminals), and pyperclip, which talks to the local system clipboard when
there is one.  Neither can report whether the text really arrived, so the
caller tells the player what was sent and offers a fallback (view or save).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyperclip
from textual.app import App

from ..web.mode import web_mode


@dataclass(frozen=True)
class CopyReport:
    """What was done with the text."""

    osc52: bool
    """The OSC 52 sequence was sent to the terminal."""
    local: bool
    """pyperclip put the text on a local clipboard."""
    local_error: str = ""

    def describe(self, what: str) -> str:
        routes = ["sent to the terminal's clipboard (OSC 52)"] if self.osc52 else []
        if self.local:
            routes.append("copied to the system clipboard")
        text = (f"{what}: " + " and ".join(routes)) if routes else f"{what} could not be copied"
        if self.local_error:
            text += " (no local clipboard here)"
        return text + ". Nothing to paste? v shows it, Ctrl+S saves it."


def copy_text(app: App[Any], text: str) -> CopyReport:
    """Send ``text`` to the clipboard by every route available; never raises."""
    app.copy_to_clipboard(text)  # OSC 52, and App.clipboard for the app itself
    if web_mode():  # the "local" clipboard would be the server's: the browser gets the text by OSC 52 alone
        return CopyReport(osc52=True, local=False)
    try:
        pyperclip.copy(text)
    except Exception as error:  # pyperclip raises its own exception types, or OSError from a helper tool
        return CopyReport(osc52=True, local=False, local_error=str(error).splitlines()[0])
    return CopyReport(osc52=True, local=True)
