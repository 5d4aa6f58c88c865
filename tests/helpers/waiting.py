"""Waiting by condition: a test waits for what it needs, never for a time it guessed.

A time a test guesses is right on the machine it was written on and wrong on a
busy one (a CI runner, a laptop on battery, two CPU hogs beside the suite).
So a test waits until what it needs holds, with :data:`PATIENCE` as the only
time in it: a bound that matters only when something hangs.

Textual's pilot waits the other way: after each key and in ``pause()`` it
sleeps until the process *seems* idle, judged by its CPU time over 20 ms.  A
process starved of CPU seems idle too, so on a loaded machine a test went on
before its key had been handled.  :func:`app_settled` is the condition that
guess stands for, and :func:`steady_pilot` adds it to the pilot's waits.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.screen import Screen

PATIENCE = float(os.environ.get("CESCACS_TEST_PATIENCE", "120"))
"""The longest any one wait of a test may take, in seconds: it only ends a hang, so it is generous."""

POLL = 0.02
"""How often a condition is looked at again."""


def wait_until(done: Callable[[], object], what: str, patience: float = PATIENCE) -> None:
    """Return as soon as ``done()`` holds; fail, naming ``what``, after ``patience`` seconds."""
    deadline = time.monotonic() + patience
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {patience:g} s for {what}")
        time.sleep(POLL)


async def until(done: Callable[[], object], what: str, patience: float = PATIENCE) -> None:
    """The same in a coroutine: the event loop (an app under test, a server) runs while it waits."""
    deadline = time.monotonic() + patience
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {patience:g} s for {what}")
        await asyncio.sleep(POLL)


# --- the pilot's idea of "idle", made a condition --------------------------------------------------------


_in_hand = 0
"""Messages being handled now by any message pump (a handler may await: its pump's queue is empty meanwhile)."""


def app_settled() -> bool:
    """Whether the running app has handled every message sent so far: nothing queued, nothing being handled.

    No message pump of the app (the app, its screens, their widgets) has a
    message queued, set aside or in hand, or a callback waiting for its queue
    to empty, and the screen shown has no callbacks waiting for its next
    refresh (``call_after_refresh``) and no refresh asked for and not done yet
    (a layout that comes late on a busy machine would land in the test's next
    step).  Workers (the computer's search) are not waited for: a test waits
    for what they do by its own condition.
    """
    from textual._context import active_app

    try:
        app = active_app.get()
    except LookupError:
        return True
    if _in_hand:
        return False
    for pump in (app, *app._registry):
        if not pump._message_queue.empty() or pump._pending_message is not None or pump._next_callbacks:
            return False
    screen = app.screen  # a screen under a dialog is not refreshed: its callbacks wait for the dialog
    return not (screen._callbacks or screen_refresh_pending(screen))


def screen_refresh_pending(screen: Screen[object]) -> bool:
    """Whether the screen has a layout, a scroll or a repaint asked for that its next update (a timer, some
    16 ms later on an idle machine, any time later on a busy one) has not done yet."""
    return bool(
        screen._layout_required
        or screen._scroll_required
        or screen._repaint_required
        or screen._recompose_required
        or screen._dirty_widgets
    )


SETTLE_LIMIT = 10.0
"""How long the pilot waits for the app to settle at most: an app busy for longer (a handler that awaits an
engine) is let run on, as Textual's own wait would (a test then waits for its result by condition)."""


async def _settled(limit: float = SETTLE_LIMIT) -> None:
    deadline = time.monotonic() + limit
    while not app_settled() and time.monotonic() < deadline:
        await asyncio.sleep(0.005)


@contextmanager
def steady_pilot() -> Iterator[None]:
    """Make Textual's pilot wait, after each key and in ``pause()``, until the app has settled, at any load.

    In ``pause()`` Textual's own heuristic still runs first (it also lets
    timers due now go); after each key, the app's state alone is waited for
    (a key's effect that a timer brings is waited for with ``pause()``).
    """
    import textual.app
    import textual.pilot
    from textual._wait import wait_for_idle
    from textual.message_pump import MessagePump

    async def wait_for_idle_then_settled(min_sleep: float = 1 / 50, max_sleep: float = 1) -> None:
        await wait_for_idle(min_sleep, max_sleep)
        await _settled()

    async def settled_after_a_key(min_sleep: float = 0, max_sleep: float = 1) -> None:
        await asyncio.sleep(0)
        await _settled()

    dispatch = MessagePump._dispatch_message

    async def counted_dispatch(pump: MessagePump, message: object) -> None:
        global _in_hand
        _in_hand += 1
        try:
            await dispatch(pump, message)  # type: ignore[arg-type]
        finally:
            _in_hand -= 1

    modules = vars(textual.app), vars(textual.pilot)  # Textual's own names, imported into the two modules
    saved = [module["wait_for_idle"] for module in modules]
    modules[0]["wait_for_idle"] = settled_after_a_key
    modules[1]["wait_for_idle"] = wait_for_idle_then_settled
    MessagePump._dispatch_message = counted_dispatch  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        for module, original in zip(modules, saved, strict=True):
            module["wait_for_idle"] = original
        MessagePump._dispatch_message = dispatch  # type: ignore[method-assign]
