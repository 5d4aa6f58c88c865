"""Copying text out of the terminal, locally or over SSH.

Two routes: Textual's OSC 52 escape sequence, which asks the terminal
emulator itself to take the text (so it works over SSH in most terminals),
and pyperclip, which talks to this machine's system clipboard when there is
one, tried only when this machine is the person's (never for a visitor of a
server: the launch's policy says so).  Neither can report whether the text
really arrived, so the caller tells the player what was sent and offers a
fallback (view or save).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyperclip
from textual.app import App

from ..i18n import _


@dataclass(frozen=True)
class CopyReport:
    """What was done with the text."""

    osc52: bool
    """The OSC 52 sequence was sent to the terminal."""
    local: bool
    """pyperclip put the text on a local clipboard."""
    local_error: str = ""

    def describe(self, what: str) -> str:
        if self.osc52 and self.local:
            text = _("{what}: sent to the terminal's clipboard (OSC 52) and copied to the system clipboard")
        elif self.osc52:
            text = _("{what}: sent to the terminal's clipboard (OSC 52)")
        elif self.local:
            text = _("{what}: copied to the system clipboard")
        else:
            text = _("{what} could not be copied")
        text = text.format(what=what)
        if self.local_error:
            text += " " + _("(no local clipboard here)")
        return text + ". " + _("Nothing to paste? v shows it, Ctrl+S saves it.")


def copy_text(app: App[Any], text: str, *, system: bool) -> CopyReport:
    """Send ``text`` to the terminal's clipboard, and to this machine's if ``system``; never raises."""
    app.copy_to_clipboard(text)  # OSC 52, and App.clipboard for the app itself
    if not system:  # a visitor: this machine's clipboard is the server's, the text reaches them by OSC 52 alone
        return CopyReport(osc52=True, local=False)
    try:
        pyperclip.copy(text)
    except Exception as error:  # pyperclip raises its own exception types, or OSError from a helper tool
        return CopyReport(osc52=True, local=False, local_error=str(error).splitlines()[0])
    return CopyReport(osc52=True, local=True)
