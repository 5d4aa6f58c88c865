"""Play in a web browser: ``cescacs-web`` serves the app through textual-serve, safe to serve.

Each browser that opens the page gets its own identity (a cookie), its own
game and settings, and one ``cescacs`` process at a time, driven through a
websocket that only this site's own page may open.  The process runs as a
web visitor's (:class:`~cescacs_tui.session.policy.Policy`): no file of the
server is ever offered.
Needs the optional ``web`` extra: ``pip install 'cescacs-tui[web]'``.  (With
textual-dev installed, ``textual serve cescacs`` serves the plain app to a
local browser, for the machine's owner.)

This package's ``__init__`` imports nothing heavy: the console script
imports the server only when it runs.
"""

from __future__ import annotations

from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cescacs-web`` console script."""
    from .command import main as run

    return run(argv)
