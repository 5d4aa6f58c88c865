"""Stopping tasks (cescacs_tui/tasks.py): cancelled and waited for, and no cancellation of the caller lost."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from cescacs_tui.tasks import stop_tasks


async def test_the_tasks_are_cancelled_and_their_clean_up_waited_for() -> None:
    cleaned: list[str] = []

    async def working(name: str) -> None:
        try:
            await asyncio.Event().wait()
        finally:
            await asyncio.sleep(0)  # a clean-up that takes a step
            cleaned.append(name)

    tasks = [asyncio.ensure_future(working(name)) for name in ("one", "two")]
    await asyncio.sleep(0)
    await stop_tasks(*tasks)
    assert all(task.cancelled() for task in tasks) and sorted(cleaned) == ["one", "two"]


async def test_what_a_task_raised_is_raised() -> None:
    async def failing() -> None:
        try:
            await asyncio.Event().wait()
        finally:
            raise ValueError("its clean-up failed")

    task = asyncio.ensure_future(failing())
    await asyncio.sleep(0)
    with pytest.raises(ValueError, match="its clean-up failed"):
        await stop_tasks(task)


async def stopping(task: asyncio.Task[None], waiting: asyncio.Event) -> None:
    waiting.set()
    await stop_tasks(task)


async def test_a_caller_cancelled_while_it_waits_is_cancelled() -> None:
    """``cancel(); suppress(CancelledError): await task`` swallowed the caller's cancellation with the task's."""
    release = asyncio.Event()

    async def slow_to_end() -> None:
        try:
            await asyncio.Event().wait()
        finally:
            await release.wait()

    task = asyncio.ensure_future(slow_to_end())
    waiting = asyncio.Event()
    caller = asyncio.ensure_future(stopping(task, waiting))
    await waiting.wait()
    await asyncio.sleep(0)  # the caller waits for the task to end
    caller.cancel()
    release.set()
    await asyncio.wait([caller])
    assert task.cancelled() and caller.cancelled()


async def test_a_caller_cancelled_while_it_waits_for_a_task_that_returns_when_cancelled_is_cancelled() -> None:
    """textual-serve's relay returns normally when cancelled: awaiting it, the caller's cancellation was lost."""

    async def returns_when_cancelled() -> None:
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.Event().wait()

    task = asyncio.ensure_future(returns_when_cancelled())
    await asyncio.sleep(0)
    waiting = asyncio.Event()
    caller = asyncio.ensure_future(stopping(task, waiting))
    await waiting.wait()  # the caller has cancelled the task, which has not yet run
    caller.cancel()
    await asyncio.wait([caller])
    assert task.done() and not task.cancelled() and caller.cancelled()


async def test_a_clean_up_run_because_the_caller_is_cancelled_goes_on_after_the_stop() -> None:
    after: list[str] = []

    async def caller_body(task: asyncio.Task[None]) -> None:
        try:
            await asyncio.Event().wait()
        finally:
            await stop_tasks(task)
            after.append("the rest of the clean-up")

    async def forever() -> None:
        await asyncio.Event().wait()

    task = asyncio.ensure_future(forever())
    caller = asyncio.ensure_future(caller_body(task))
    await asyncio.sleep(0)
    caller.cancel()
    await asyncio.wait([caller])
    assert caller.cancelled() and task.cancelled() and after == ["the rest of the clean-up"]
