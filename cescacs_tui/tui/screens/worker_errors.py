"""Workers whose failure the player is told of, and the log keeps, instead of losing it without a word.

The screens that follow a link (the lobby, a server game) run their loops in
workers that must not end the app when they fail (``exit_on_error=False``:
a visitor's session is not thrown away for one bad reply).  Textual then
drops the error: the loop stops, and the screen silently stops following
the game.  A screen with :class:`SaysWorkerErrors` says that its worker
stopped and why, and logs the traceback, so the player knows to go back and
reopen the game and the operator can see what broke.
"""

from __future__ import annotations

import logging

from textual.screen import Screen
from textual.worker import Worker, WorkerState

from ...core.safe_text import safe_text
from ...i18n import _

__all__ = ["SaysWorkerErrors"]

log = logging.getLogger(__name__)


class SaysWorkerErrors(Screen[None]):
    """A screen that reports each of its workers that ended with an error (a notification and the log)."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if event.state is not WorkerState.ERROR or worker.error is None:
            return
        error = worker.error
        log.error("worker %s stopped", worker.name or worker.group, exc_info=error)
        said = _("Something went wrong here ({error}): this screen no longer follows the server; reopen it.")
        self.notify(safe_text(said.format(error=f"{type(error).__name__}: {error}")), severity="error", timeout=30)
