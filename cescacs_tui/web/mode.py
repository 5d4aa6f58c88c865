"""Whether this app process serves a web visitor, and how it asks the page for a file.

``cescacs-web`` sets :data:`WEB_MODE_VARIABLE` for every process it starts.
Then the player is a visitor of a web page, not the owner of this machine:
the app never offers the server's file system (no file dialog, no typed path
is ever opened or written).  Records come from the browser (pasted, or a file
the page uploads) and go back to it as a download.

This module imports nothing, so the app can ask cheaply.  ``textual serve
cescacs`` does not set the variable: that is the owner playing locally.
"""

from __future__ import annotations

import os
from typing import Final

__all__ = ["CHOOSE_FILE_URL", "WEB_MODE_VARIABLE", "web_mode"]

WEB_MODE_VARIABLE: Final = "CESCACS_WEB"

CHOOSE_FILE_URL: Final = "cescacs-web:choose-file"
"""Opened with ``App.open_url``: the server asks the page to show the browser's file chooser.

``open_url`` is the one public way a Textual app sends a message to the page;
``cescacs-web`` recognises this address and turns it into its own message
instead of opening a window.
"""


def web_mode() -> bool:
    """True in a process ``cescacs-web`` started for a browser."""
    return os.environ.get(WEB_MODE_VARIABLE) == "1"
