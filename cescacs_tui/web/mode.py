"""How the app of a browser's visitor asks the page for a file of the visitor's computer.

``cescacs-web`` starts each browser's app as a visitor's
(:class:`~cescacs_tui.session.policy.Policy`, handed over in the process's
environment and read once at launch): records come from the browser (pasted,
or a file the page uploads) and go back to it as a download.  This module
imports nothing, so the app can use it cheaply.
"""

from __future__ import annotations

from typing import Final

__all__ = ["CHOOSE_FILE_URL"]

CHOOSE_FILE_URL: Final = "cescacs-web:choose-file"
"""Opened with ``App.open_url``: the server asks the page to show the browser's file chooser.

``open_url`` is the one public way a Textual app sends a message to the page;
``cescacs-web`` recognises this address and turns it into its own message
instead of opening a window.
"""
