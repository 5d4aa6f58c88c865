"""The suite's own waits (tests/helpers/waiting.py): a pause returns when the app has settled, not before."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

from tests.helpers.waiting import app_settled, until


class OneLabel(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("label")


def messages_handled(app: App[None]) -> bool:
    return all(pump._message_queue.empty() and pump._pending_message is None for pump in (app, *app._registry))


async def test_an_app_that_still_owes_a_layout_has_not_settled() -> None:
    """A layout asked for is done by the screen's next update, a timer that a busy machine runs late: a test
    that went on before it saw the layout land in its next step (a key it pressed seemed to lay the screen out)."""
    app = OneLabel()
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app_settled()
        screen = app.screen
        timer = screen._update_timer
        update = timer._callback
        assert update is not None
        late = True

        def late_update() -> None:  # the machine is busy: the screen's timer comes, but not its turn yet
            if not late:
                update()

        timer._callback = late_update
        app.query_one(Static).refresh(layout=True)
        await until(lambda: messages_handled(app), "the refresh's messages to be handled")
        assert screen._layout_required
        assert not app_settled()
        late = False
        await pilot.pause()
        assert not screen._layout_required and app_settled()
