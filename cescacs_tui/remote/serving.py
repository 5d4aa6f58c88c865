"""Serving until told to stop: the one way every server of the package waits for its end.

``cescacs host``, ``cescacs serve-ssh`` and ``cescacs-web`` each start
listening, say where (the line an operator's script, or a test, waits for),
then serve until a stop signal arrives (or, in a thread or a test, until an
:class:`asyncio.Event` is set), and only then close, saving what they hold.
The signals are handled *before* the ready line is said, so a signal sent the
moment it is read still stops the server the orderly way.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable, Sequence
from typing import Final

__all__ = ["STOP_SIGNALS", "until_stopped"]

STOP_SIGNALS: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""Ctrl+C, a service manager's stop, and the terminal (or the SSH link) of the server closing."""


async def until_stopped(
    ready: Callable[[], None], stop: asyncio.Event | None = None, *, signals: Sequence[signal.Signals] = STOP_SIGNALS
) -> None:
    """Say ``ready``, then wait until ``stop`` is set, or, when none is given, until one of ``signals`` arrives.

    The caller has started listening, and closes what it serves when this returns (a ``finally``: a cancelled
    wait closes it too).  Signal handlers can only be set in the main thread: a server in another thread passes
    its own ``stop``.
    """
    if stop is None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in signals:
            loop.add_signal_handler(signum, stop.set)
    ready()
    await stop.wait()
