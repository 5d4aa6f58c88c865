"""Widgets mounted after the first paint (``MountLater``): at the screen's next layout refresh, without waiting for
the screen to have nothing left to draw, once, and never into an app that is quitting."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.message_pump import MessagePump
from textual.signal import Signal
from textual.widget import Widget
from textual.widgets import Label, Static

from cescacs_tui.tui.widgets.lazy_line import LazyLine, MountLater
from tests.helpers.waiting import until


class Later(Label):
    """The widget that arrives late; counts how often it is made and mounted."""

    made = 0
    mounts = 0

    def __init__(self, text: str, *, id: str) -> None:
        super().__init__(text, id=id)
        Later.made += 1

    def on_mount(self) -> None:
        Later.mounts += 1


class Panel(Static):
    def compose(self) -> ComposeResult:
        yield Label("in the panel", id="inner")


class LateApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("the board")
        yield LazyLine(lambda: Later("later", id="later"))
        yield MountLater(lambda: Panel(id="panel"))


@pytest.fixture(autouse=True)
def no_mounts_yet() -> None:
    Later.made = Later.mounts = 0


def never(*_: Any, **__: Any) -> bool:
    """A ``call_after_refresh`` whose callback never runs: a screen that always has something more to draw."""
    return False


def unheard_by_mount_later(monkeypatch: pytest.MonkeyPatch) -> None:
    """No signal reaches a ``MountLater`` (every other subscriber still hears its signals)."""
    subscribe = Signal.subscribe

    def subscribe_others(
        signal: Signal[Any], node: Any, callback: Callable[..., object], immediate: bool = False
    ) -> None:
        if not isinstance(node, MountLater):
            subscribe(signal, node, callback, immediate)

    monkeypatch.setattr(Signal, "subscribe", subscribe_others)


async def test_the_widget_is_mounted_once_and_takes_its_place() -> None:
    app = LateApp()
    async with app.run_test() as pilot:
        await until(lambda: app.query("#inner") and not app.query(MountLater), "the widgets in their places")
        assert [type(child).__name__ for child in app.screen.children] == ["Static", "Later", "Panel"]
        assert app.query_one("#panel").query_one("#inner")
        await pilot.pause()
        assert Later.mounts == 1  # both ways of starting the mount came; only the first mounted it


async def test_the_next_layout_refresh_mounts_it_when_the_screen_is_never_done_drawing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``Lazy``'s ``call_after_refresh`` waits until the screen has nothing left to draw: at the app's start that was
    two more frames, each a tick of Textual's update timer, before the side panel began to mount."""
    monkeypatch.setattr(MountLater, "call_after_refresh", never)
    app = LateApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.resize_terminal(100, 30)  # a layout refresh (the first of the app's posts Ready instead)
        await until(lambda: app.query("#later") and app.query("#inner"), "the late widgets")
        assert Later.mounts == 1


async def test_after_the_next_refresh_it_is_mounted_when_no_layout_refresh_comes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    unheard_by_mount_later(monkeypatch)
    app = LateApp()
    async with app.run_test():
        await until(lambda: app.query("#later") and app.query("#inner"), "the late widgets")
        assert Later.mounts == 1


async def test_nothing_is_mounted_into_an_app_that_is_quitting(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[Callable[[], None]] = []

    def hold(pump: MessagePump, callback: Callable[[], None], *_: Any) -> bool:
        started.append(callback)
        return True

    monkeypatch.setattr(MountLater, "call_after_refresh", hold)
    unheard_by_mount_later(monkeypatch)
    app = LateApp()
    async with app.run_test():
        await until(lambda: len(started) == 2, "both mounts to be held")
    for start in started:
        start()  # the held start, once the app has quit: nothing, and no MountError
    assert Later.mounts == 0 and not app.query("#inner")
    assert Later.made == 0  # nor made: its module would have been imported for nothing


async def test_the_widget_is_made_only_once_the_first_frame_is_drawn() -> None:
    """``make`` runs when the mount starts, so a module it imports is not loaded before the first frame."""
    app = LateApp()
    made_at_first_frame: list[int] = []
    display = app._display

    def probe(screen: Any, renderable: Any) -> None:
        if renderable is not None and not made_at_first_frame:
            made_at_first_frame.append(Later.made)
        display(screen, renderable)

    app._display = probe  # type: ignore[method-assign]
    async with app.run_test():
        await until(lambda: app.query("#later"), "the late widget")
    assert made_at_first_frame == [0] and Later.made == 1


async def test_every_placeholder_makes_its_widget_before_any_mount_begins() -> None:
    """The widgets are made (their modules imported) at once as the frame is drawn, then mounted together: a mount
    begun before the next widget is made would spread the mounts over more time than a frame, and a frame in between
    would show some of them (the move row came a frame late, some 15 ms)."""
    attached_at_make: dict[str, list[str]] = {}

    def make(name: str) -> Callable[[], Widget]:
        def made() -> Widget:
            attached_at_make[name] = [str(label.id) for label in app.query(Label)]
            return Label(name, id=name)

        return made

    class TwoLate(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("the board")
            yield MountLater(make("side"))
            yield LazyLine(make("row"))

    app = TwoLate()
    async with app.run_test():
        await until(lambda: app.query("#side") and app.query("#row"), "the late widgets")
    assert attached_at_make == {"side": [], "row": []}


async def test_a_widget_that_cannot_be_made_stops_the_app_with_its_error() -> None:
    """As a failing compose would: Textual's signal, which makes the widget, only logs what its callbacks raise."""

    def broken() -> Widget:
        raise ImportError("a late module failed to import")

    class BrokenApp(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("the board")
            yield MountLater(broken)

    app = BrokenApp()
    with pytest.raises(ImportError, match="a late module"):
        async with app.run_test() as pilot:
            await until(lambda: not app.is_running, "the app to stop")
            await pilot.pause()
    assert app.return_code == 1


def test_it_takes_a_function_not_children() -> None:
    with pytest.raises(TypeError, match="function"):
        MountLater(lambda: Static()).compose_add_child(Static())
