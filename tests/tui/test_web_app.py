"""The app in web mode: no file of the server is offered; records come pasted or uploaded and leave as downloads."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pyperclip
import pytest
from textual import events
from textual.widgets import TextArea

from cescacs_tui.core import CescacsError, PDTLError, PGNError
from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import write_pgn
from cescacs_tui.data.records import record_file_name
from cescacs_tui.session.policy import CHOOSE_FILE_URL, VISITOR_VARIABLE, LaunchKind, Policy
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.browser_records import deliver_record, record_from_text
from cescacs_tui.tui.dialogs.files import PathDialog
from cescacs_tui.tui.dialogs.paste import PasteDialog
from tests.helpers.app import message
from tests.helpers.games import FOOLS_MATE, play
from tests.helpers.waiting import until

RECORD = '[Variant "C\'escacs"]\n[White "Ros, Xus"]\n\n1. E7-E13 D22-D16 *\n'


WEB = Policy(LaunchKind.WEB)
"""A browser's visitor: what cescacs-web's processes are started as."""


class Deliveries:
    """What the app handed to ``deliver_text``, instead of Textual's driver (which would write a file)."""

    def __init__(self) -> None:
        self.files: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, file: io.StringIO, **options: Any) -> str:
        self.files.append((file.read(), options))
        return "key"


def test_a_web_visitor_is_what_cescacs_web_hands_its_process_and_the_owner_otherwise() -> None:
    assert Policy.from_environment({}, LaunchKind.LOCAL) == Policy(LaunchKind.LOCAL)
    handed = Policy.from_environment(WEB.environment(), LaunchKind.LOCAL)
    assert handed.kind is LaunchKind.WEB and handed.visitor
    assert VISITOR_VARIABLE in WEB.environment()


def test_a_pasted_record_or_position_becomes_a_game() -> None:
    game, count = record_from_text(RECORD)
    assert [n.san for n in game.nodes] == ["E7-E13", "D22-D16"] and count == 1
    start = Game.new()
    play(start, "E7-E13")
    from_position, _ = record_from_text("  " + start.position.to_pdtl() + "\n")
    assert from_position.position.to_pdtl() == start.position.to_pdtl()
    assert len(record_from_text("1. E7-E13 *").game.nodes) == 1  # move text alone is a record, not a PDTL
    assert record_from_text(RECORD + "\n" + RECORD).games_in_file == 2


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", PGNError),
        ("   \n ", PGNError),
        ("/etc/hostname", PDTLError),
        ('[Variant "C\'escacs"]\n\n1. E7-E40 *', PGNError),
    ],
)
def test_text_that_is_neither_is_a_clear_error(text: str, error: type[CescacsError]) -> None:
    with pytest.raises(error):
        record_from_text(text)


@pytest.mark.parametrize(
    ("tags", "name"),
    [
        ({}, "cescacs-game.ctl-pgn"),
        (
            {"Date": "2026.05.01", "White": "Ros, Xus", "Black": "Sasal, Cesc"},
            "cescacs-2026.05.01-Ros_Xus-Sasal_Cesc.ctl-pgn",
        ),
        ({"White": "Sánchez Ñúñez", "Black": "?"}, "cescacs-Sanchez_Nunez.ctl-pgn"),
        ({"White": '../../etc/passwd"; x=\r\n\x1b[31m'}, "cescacs-etcpasswd_x31m.ctl-pgn"),
        ({"White": "名人"}, "cescacs-game.ctl-pgn"),
    ],
)
def test_a_record_file_name_is_plain_ascii_without_separators(tags: dict[str, str], name: str) -> None:
    game = Game.new()
    game.tags.update({"Date": "?", "White": "?", "Black": "?", **tags})
    assert record_file_name(game) == name


async def test_web_open_offers_a_paste_box_and_no_file_dialog() -> None:
    app = CescacsApp(policy=WEB)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(app.screen, PasteDialog)
        assert not app.screen.query(PathDialog) and not app.screen.query("DirectoryTree")
        app.screen.query_one("#paste-text").insert(RECORD)  # type: ignore[attr-defined]
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert not isinstance(app.screen, PasteDialog)
        assert [n.san for n in app.game.nodes] == ["E7-E13", "D22-D16"]
        assert "opened the record: 2 half-moves" in message(app)
        await pilot.press("ctrl+o")
        await pilot.pause()
        app.screen.query_one("#paste-text").insert(RECORD + "\n" + RECORD)
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert "(the text holds 2 games: the first is shown)" in message(app)


async def test_a_typed_path_is_never_opened_and_the_game_is_kept(tmp_path: Path) -> None:
    secret = tmp_path / "secret.ctl-pgn"
    secret.write_text(RECORD.replace("Ros, Xus", "SECRET-CONTENT"), encoding="utf-8")
    game = Game.new()
    play(game, "F8-F12")
    app = CescacsApp(game, policy=WEB)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+o")
        await pilot.pause()
        app.screen.query_one("#paste-text").insert(str(secret))  # type: ignore[attr-defined]
        await pilot.click("#open")
        await pilot.pause()
        assert isinstance(app.screen, PasteDialog)  # still open, with the reason, the text kept
        error = str(app.screen.query_one("#paste-error").render())
        assert error and "SECRET" not in error
        await pilot.press("escape")
        assert [n.san for n in app.game.nodes] == ["F8-F12"]


async def test_choose_a_file_asks_the_page_and_the_file_arrives_as_a_paste() -> None:
    app = CescacsApp(policy=WEB)
    opened: list[str] = []
    app.open_url = lambda url, *, new_tab=True: opened.append(url)  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+o")
        await pilot.pause()
        await pilot.click("#choose-file")
        assert opened == [CHOOSE_FILE_URL]
        assert app.focused is app.screen.query_one("#paste-text")
        app.screen.query_one("#paste-text").post_message(events.Paste(RECORD))
        await pilot.pause()
        await pilot.click("#open")
        await pilot.pause()
        assert [n.san for n in app.game.nodes] == ["E7-E13", "D22-D16"]


async def test_tab_tab_enter_in_one_burst_presses_choose_a_file() -> None:
    """Keys a loaded machine reads at once: each goes where the keys before it left the focus.

    Textual routes a key to the widget focused when the app reads it, and a Tab moves the focus only when the
    widget it was routed to has handled it: the Enter of Tab Tab Enter read at once went into the box (a new line)
    and nothing was chosen.  A dialog's Tab moves the focus as it is read (:class:`TabsAsRead`)."""
    app = CescacsApp(policy=WEB)
    opened: list[str] = []
    app.open_url = lambda url, *, new_tab=True: opened.append(url)  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+o")
        await pilot.pause()
        box = app.screen.query_one("#paste-text", TextArea)
        assert app.focused is box
        for key, character in (("tab", "\t"), ("tab", "\t"), ("enter", "\r")):
            app.post_message(events.Key(key, character))  # one read: no pause between them
        await until(lambda: opened or box.text, "the Enter handled")  # a choice, or a new line in the box
        assert opened == [CHOOSE_FILE_URL] and box.text == ""
        for key, character in (("tab", "\t"), ("enter", "\r")):
            app.post_message(events.Key(key, character))  # from the box (focused again) to Open, pressed
        error = app.screen.query_one("#paste-error")
        await until(lambda: str(error.render()) or box.text, "the Enter handled")
        assert "nothing was pasted" in str(error.render()) and box.text == ""


async def test_web_save_delivers_the_record_to_the_browser(tmp_path: Path) -> None:
    game = Game.new(white="Ros, Xus", black="Sasal, Cesc")
    play(game, *FOOLS_MATE)
    app = CescacsApp(game, policy=WEB)
    deliveries = Deliveries()
    app.deliver_text = deliveries  # type: ignore[assignment]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, PathDialog)
        ((text, options),) = deliveries.files
        assert text == write_pgn(game)
        assert options["save_filename"] == record_file_name(game) and options["open_method"] == "download"
        assert "sent to your browser" in message(app)
    assert list(tmp_path.iterdir()) == []


def test_deliver_record_hands_textual_the_record_and_its_name() -> None:
    deliveries = Deliveries()

    class App:
        deliver_text = deliveries

    assert "cescacs-x.ctl-pgn sent to your browser" in deliver_record(App(), RECORD, "cescacs-x.ctl-pgn")  # type: ignore[arg-type]
    ((text, options),) = deliveries.files
    assert text == RECORD
    assert options == {"save_filename": "cescacs-x.ctl-pgn", "open_method": "download", "mime_type": "text/plain"}


async def test_copy_in_web_mode_leaves_the_servers_clipboard_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    copied: list[str] = []
    monkeypatch.setattr(pyperclip, "copy", copied.append)
    app = CescacsApp(policy=WEB)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("y")
        assert app.clipboard == write_pgn(app.game)  # the browser gets it by OSC 52
        assert copied == []
        assert "OSC 52" in message(app) and "system clipboard" not in message(app)


async def test_the_owner_keeps_the_file_dialogs() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+o")
        assert isinstance(app.screen, PathDialog)
