"""The driver's input loop (tui/driver.py), fed bytes as the terminal sends them.

These tests also pin what the driver takes from Textual's private parser
(``textual._xterm_parser.XTermParser``: ``feed``, ``tick`` and the Esc delay of
``textual.constants``): if Textual changes them, these fail first.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from textual import constants, events
from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver
from textual_serve._binary_encode import load as binary_load

from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.driver import CescacsDriver, InvalidTerminalInput, TerminalInput, driver_class
from tests.helpers.web import app_packets


def keys(messages) -> list[tuple[str, str | None]]:
    return [(m.key, m.character) for m in messages if isinstance(m, events.Key)]


def fed(*reads: bytes) -> tuple[list[tuple[str, str | None]], TerminalInput]:
    """The keys that these reads give, each read fed as the driver feeds one ``os.read``."""
    terminal = TerminalInput()
    result = []
    for data in reads:
        result += keys(terminal.feed(data))
    return result, terminal


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"\xff", [("replacement_character", "\ufffd")]),
        (b"\xe9a", [("replacement_character", "\ufffd"), ("a", "a")]),  # Latin-1 "\xe9" followed by "a"
        (b"\xc3\xa9", [("\xe9", "\xe9")]),  # the same letter in UTF-8
    ],
    ids=["0xFF", "Latin-1", "UTF-8"],
)
def test_bytes_that_are_not_utf8_become_replacement_characters(data, expected):
    got, terminal = fed(data)
    assert [character for _, character in got] == [character for _, character in expected]
    assert terminal.invalid_bytes == (0 if data == b"\xc3\xa9" else 1)


def test_a_character_split_between_two_reads_is_one_character_and_a_typed_replacement_character_is_no_error():
    got, terminal = fed(b"\xc3", b"\xa9", "\ufffd".encode())
    assert [character for _, character in got] == ["\xe9", "\ufffd"]
    assert terminal.invalid_bytes == 0


def test_esc_ending_a_read_and_a_key_in_the_next_read_are_esc_then_the_key():
    start = time.monotonic()
    got, _ = fed(b"\x1b", b"f")
    assert got == [("escape", "\x1b"), ("f", "f")]
    assert time.monotonic() - start >= constants.ESCAPE_DELAY  # the key waited for the Esc's delay: no reordering


def test_esc_and_a_key_in_one_read_stay_alt_and_the_key_as_in_textual():
    terminal = TerminalInput()
    assert keys(terminal.feed(b"\x1bg")) == []  # the parser waits for the rest of a sequence
    time.sleep(constants.ESCAPE_DELAY)
    assert keys(terminal.tick()) == [("alt+g", "g")]


@pytest.mark.parametrize("reads", [(b"\x1b[A",), (b"\x1b", b"[A"), (b"\x1b", b"OA")], ids=["one read", "CSI", "SS3"])
def test_an_escape_sequence_split_between_reads_is_still_one_key(reads):
    got, _ = fed(*reads)
    assert got == [("up", None)]


def test_a_lone_esc_is_reported_once_its_delay_has_run_out_and_the_thread_waits_no_longer_than_that():
    terminal = TerminalInput()
    assert terminal.wait_limit(0.1) == 0.1
    assert keys(terminal.feed(b"\x1b")) == []
    assert 0 < terminal.wait_limit(10.0) <= constants.ESCAPE_DELAY
    time.sleep(terminal.wait_limit(10.0))
    assert keys(terminal.tick()) == [("escape", "\x1b")]
    assert terminal.wait_limit(0.1) == 0.1


def test_a_bracketed_paste_with_an_escape_in_it_is_one_paste():
    terminal = TerminalInput()
    messages = [*terminal.feed(b"\x1b[200~E7"), *terminal.feed(b"\x1b"), *terminal.feed(b"[201~")]
    assert [m.text for m in messages if isinstance(m, events.Paste)] == ["E7"]


@pytest.fixture
def python_default_switch_interval() -> Iterator[float]:
    """The interpreter's default switch interval (5 ms) for the test, whatever ran before it; put back after."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.005)
    yield 0.005
    sys.setswitchinterval(before)


@pytest.fixture
def no_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual's own taking and giving back of the terminal made no-ops: there is no terminal in a test."""
    monkeypatch.setattr(LinuxDriver, "start_application_mode", lambda driver: None)
    monkeypatch.setattr(LinuxDriver, "stop_application_mode", lambda driver: None)


@pytest.mark.usefixtures("no_terminal")
async def test_the_switch_interval_is_a_millisecond_while_the_driver_runs_and_put_back_after(
    python_default_switch_interval: float,
) -> None:
    """Textual's writer thread waited a whole switch interval (5 ms) for the interpreter whenever the app's thread
    was busy, and a frame reached the terminal that much later.  The interval is put back when the terminal is given
    back, each time (a suspended app takes it again when resumed)."""
    driver = CescacsDriver(CescacsApp())
    for _ in range(2):
        driver.start_application_mode()
        try:
            assert sys.getswitchinterval() == 0.001
        finally:
            driver.stop_application_mode()
        assert sys.getswitchinterval() == python_default_switch_interval


@pytest.mark.usefixtures("no_terminal")
async def test_a_second_start_without_a_stop_still_puts_back_the_interval_from_before_the_first(
    python_default_switch_interval: float,
) -> None:
    """Textual starts the driver again on SIGCONT (after ``kill -STOP``, or Ctrl+Z then ``bg``) without stopping it."""
    driver = CescacsDriver(CescacsApp())
    driver.start_application_mode()
    driver.start_application_mode()
    driver.stop_application_mode()
    assert sys.getswitchinterval() == python_default_switch_interval


async def test_a_start_that_fails_puts_the_interval_back(
    monkeypatch: pytest.MonkeyPatch, python_default_switch_interval: float
) -> None:
    def fail(driver: LinuxDriver) -> None:
        raise OSError("no terminal")

    monkeypatch.setattr(LinuxDriver, "start_application_mode", fail)
    with pytest.raises(OSError, match="no terminal"):
        CescacsDriver(CescacsApp()).start_application_mode()
    assert sys.getswitchinterval() == python_default_switch_interval


def test_the_app_uses_the_safe_driver_where_textual_would_use_its_linux_driver():
    class Other(Driver):  # Windows' driver
        pass

    assert driver_class(LinuxDriver) is CescacsDriver
    assert driver_class(Other) is Other  # type: ignore[type-abstract]
    if sys.platform != "win32":
        assert CescacsApp().driver_class is CescacsDriver


def test_under_textual_serve_the_web_driver_gets_the_same_input_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.drivers.web_driver import WebDriver

    web = driver_class(WebDriver)
    assert web is not WebDriver and issubclass(web, WebDriver) and driver_class(WebDriver) is web
    monkeypatch.setattr(constants, "DRIVER", "textual.drivers.web_driver:WebDriver")  # textual-serve's TEXTUAL_DRIVER
    assert CescacsApp().driver_class is web


async def test_under_textual_serve_each_packet_is_written_whole_and_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A frame and a download's piece written at once from two threads, into a pipe that takes a little at a time
    (as ``os.write`` does when a signal interrupts it on a full pipe): the server reads two whole packets."""
    from textual.drivers.web_driver import WebDriver

    written: list[bytes] = []

    def write_a_little(fd: int, data: bytes) -> int:
        written.append(bytes(data[:1000]))
        time.sleep(0)  # the other thread's turn, as a blocked write gives it
        return min(len(data), 1000)

    server_side, app_side = os.pipe()
    with open(server_side, "rb") as stdin, open(app_side, "wb"):
        monkeypatch.setattr(sys, "__stdin__", stdin)  # what the driver's input reader watches: textual-serve's pipe
        monkeypatch.setattr(os, "write", write_a_little)
        driver = driver_class(WebDriver)(CescacsApp())
    frame, piece = "x" * 30_000, b"y" * 30_000
    threads = [
        threading.Thread(target=driver.write, args=(frame,)),
        threading.Thread(target=lambda: driver.write_binary_encoded(("deliver_chunk", "key", piece))),  # type: ignore[attr-defined]
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    packets = dict(app_packets(b"".join(written)))
    assert packets.keys() == {b"D", b"P"}
    assert packets[b"D"] == frame.encode()
    assert binary_load(packets[b"P"]) == ("deliver_chunk", "key", piece)


def test_the_first_bytes_that_are_not_utf8_tell_the_app_once():
    terminal = TerminalInput()
    messages = [*terminal.feed(b"a\xff"), *terminal.feed(b"\xe9a")]
    assert [type(m) for m in messages if not isinstance(m, events.Key)] == [InvalidTerminalInput]
    assert terminal.invalid_bytes == 2


async def test_the_app_says_that_the_terminal_encoding_looks_wrong():
    notes: list[str] = []

    class Notes(CescacsApp):
        def notify(self, message: str, **options: Any) -> None:
            notes.append(message)

    app = Notes()
    async with app.run_test(size=(120, 40)) as pilot:
        app.post_message(InvalidTerminalInput())
        await pilot.pause()
        assert notes == [InvalidTerminalInput.advice]


# --- broken escape sequences (issue 22): their characters are never typed -------------------------


def after_delay(terminal: TerminalInput) -> list[tuple[str, str | None]]:
    time.sleep(constants.ESCAPE_DELAY * 1.5)
    return keys(terminal.tick())


@pytest.mark.parametrize(
    "broken", [b"\x1b[99;99", b"\x1b[<0;12", b"\x1b]52;c;eA", b"\x1bOZZ"], ids=["CSI", "mouse", "OSC", "SS3"]
)
def test_a_sequence_left_unfinished_is_dropped_when_its_delay_runs_out(broken):
    terminal = TerminalInput()
    assert keys(terminal.feed(broken)) == []
    assert after_delay(terminal) == []  # Textual typed "[99;99" as keys
    assert keys(terminal.feed(b"e7")) == [("e", "e"), ("7", "7")]


def test_a_sequence_cut_by_another_esc_is_dropped_and_the_next_sequence_read():
    got, _ = fed(b"\x1b[99;9\x1b[A")
    assert got == [("up", None)]


def test_a_sequence_longer_than_any_terminal_sends_is_dropped():
    got, terminal = fed(b"\x1b[" + b"1;" * 20 + b"X" + b"e7")
    assert got == [("e", "e"), ("7", "7")]
    assert after_delay(terminal) == []


def test_esc_with_one_character_is_still_alt_and_the_key_but_esc_bracket_alone_is_dropped():
    terminal = TerminalInput()
    assert keys(terminal.feed(b"\x1b[")) == []
    assert after_delay(terminal) == []  # the start of a sequence never finished (Textual typed "[")
    assert keys(terminal.feed(b"\x1bg")) == []
    assert after_delay(terminal) == [("alt+g", "g")]


def test_a_mouse_report_split_between_two_quick_reads_is_still_one_event():
    terminal = TerminalInput()
    messages = [*terminal.feed(b"\x1b[<0;12"), *terminal.feed(b";5M")]
    assert [type(m) for m in messages] == [events.MouseDown]
