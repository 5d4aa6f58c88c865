"""The terminal driver: Textual's own, with an input loop that no byte from the terminal can kill.

Textual's :class:`~textual.drivers.linux_driver.LinuxDriver` decodes what the
terminal sends with a strict UTF-8 decoder: one byte that is not UTF-8 (``0xFF``,
or ``é`` from a terminal or SSH link set to Latin-1) raises in its input
thread, and the app dies (with exit status 0).  It also reads a lone Esc as
the start of an escape sequence for ``ESCDELAY`` (100 ms): a key pressed
within that time after Esc joins it as Alt+key, so Esc and then ``/``
quickly lose the ``/``.

:class:`CescacsDriver` keeps everything of Textual's driver but its input
loop, which :class:`TerminalInput` drives:

* bytes that are not UTF-8 become U+FFFD, and the app is told once
  (:class:`InvalidTerminalInput`) so it can say that the terminal's encoding
  looks wrong;
* an Esc that ends one read stays an Esc when what comes next arrives in a
  later read and cannot continue an escape sequence (anything but ``[`` or
  ``O``): terminals write a key's whole sequence, Alt+key included, at once, so
  a later byte is another key.  The later key is held until the Esc's delay
  has run out, so the Esc is reported first and nothing is reordered.  Esc and
  a key that arrive in the same read are still Alt+key, as in Textual.
* a broken escape sequence (one that never ends, is cut by another Esc, or
  grows longer than any the terminal sends) is dropped: Textual types its
  characters as keys (``[99;99``), which then went into the move box before
  the next move typed there.  Only a lone Esc (Esc) and Esc with one character
  (Alt+key) are keys when their delay runs out.
* anything else that goes wrong while reading input ends the app as any
  exception does (the terminal restored, exit status 1), not with Textual's
  silent panic.

The parser is Textual's ``XTermParser`` (a private module; Textual is pinned to
8.x and ``tests/tui/test_driver.py`` checks the parts used).
"""

from __future__ import annotations

import asyncio
import codecs
import errno
import os
import selectors
import sys
import threading
import time
from collections.abc import Callable, Iterator
from functools import cache, partial
from typing import TYPE_CHECKING, Any

from textual import constants
from textual._xterm_parser import _MAX_SEQUENCE_SEARCH_THRESHOLD, XTermParser
from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver
from textual.message import Message

from ..i18n import N_

if TYPE_CHECKING:
    from textual.app import App

ESCAPE = "\x1b"
SEQUENCE_INTRODUCERS = ("[", "O")
"""What follows Esc in the keys' escape sequences (CSI and SS3): after a lone Esc, these continue it."""

READ_SIZE = 4096
POLL_SECONDS = 0.1
"""How long the input thread waits for input before it looks at the exit flag again (as Textual's)."""
OUTPUT_SWITCH_SECONDS = 0.001
"""The interpreter's thread switch interval while the driver runs (Python's default is 5 ms): see
:meth:`CescacsDriver.start_application_mode`."""

_UTF8_REPLACEMENT = "\ufffd".encode()


class InvalidTerminalInput(Message):
    """The terminal sent bytes that are not UTF-8 (they were read as U+FFFD); posted to the app once."""

    advice = N_(
        "The terminal sent characters that are not UTF-8 (shown as \ufffd). Set a UTF-8 locale in the terminal "
        "and for SSH, e.g. LANG=C.UTF-8."
    )


class TerminalInput:
    """What the terminal sends, as Textual's messages (keys, mouse, paste, focus), in order; never raises on bytes.

    The first bytes that are not UTF-8 also give an :class:`InvalidTerminalInput`.

    ``sleep`` and ``clock`` are the thread's own (``time.sleep``/``time.monotonic``);
    the parser times a lone Esc with the same monotonic clock.
    """

    def __init__(
        self,
        *,
        debug: bool = False,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        self._parser = XTermParser(debug)
        self._sleep = sleep
        self._clock = clock
        self._held = ""
        """The start of an escape sequence the parser holds, waiting for the rest ("" when it holds none)."""
        self._held_at = 0.0
        """When the last character of :attr:`_held` was read (the parser's delay runs from then)."""
        self._overlong = False
        """Whether the parser gave up a sequence at its longest, whose rest (up to its final byte) is still to come."""
        self.invalid_bytes = 0
        """How many undecodable byte sequences were replaced so far."""

    def feed(self, data: bytes, *, final: bool = False) -> Iterator[Message]:
        """The messages that one read from the terminal completes (``final``: the terminal is closing)."""
        text = self._decode(data, final)
        invalid = text.count("\ufffd") - data.count(_UTF8_REPLACEMENT)
        if invalid > 0:
            if not self.invalid_bytes:
                yield InvalidTerminalInput()
            self.invalid_bytes += invalid
        if not text:
            return
        if self._held == ESCAPE and text[0] not in SEQUENCE_INTRODUCERS:
            yield from self._release_escape()
        yield from self._parse(text)
        if self._held:
            self._held_at = self._clock()

    def _parse(self, text: str) -> Iterator[Message]:
        """The parser's messages for ``text``, but none made of a broken sequence's characters.

        Text outside a sequence goes to the parser in runs (up to an Esc); inside
        one, a character at a time, so that what the parser does with the sequence
        it holds is known: Textual types the characters of a sequence that another
        Esc cuts, or that grows past its longest, as keys, and they are dropped.
        """
        i = 0
        while i < len(text):
            if self._overlong:  # the rest of a sequence cut at its longest: up to and with its final byte
                character = text[i]
                self._overlong = " " <= character <= "?"  # parameters and intermediates; a final byte ends it
                if " " <= character <= "~":
                    i += 1
                    continue
            if not self._held:
                end = text.find(ESCAPE, i)
                end = len(text) if end < 0 else end + 1
                yield from self._parser.feed(text[i:end])
                self._held = ESCAPE if self._holding() else ""
                i = end
                continue
            character = text[i]
            i += 1
            messages = list(self._parser.feed(character))
            if character == ESCAPE:  # what was held is flushed, and this Esc starts a new sequence
                broken = len(self._held) > 1
                self._held = ESCAPE if self._holding() else ""
            elif self._holding():
                broken = False
                self._held += character
            else:  # the sequence ended: a key, a mouse event, a paste... or its characters, once it grew too long
                broken = self._overlong = len(self._held) + 1 > _MAX_SEQUENCE_SEARCH_THRESHOLD
                self._held = ""
            if not broken:
                yield from messages

    def _holding(self) -> bool:
        """Whether the parser holds the start of an escape sequence (it waits with the Esc delay for the rest)."""
        return self._parser._timeout_time is not None

    def tick(self) -> Iterator[Message]:
        """Messages that are due without new input: a lone Esc (or Alt+key) once its delay has run out.

        A longer sequence left unfinished (or an Esc [ or Esc O alone) is broken: its characters are dropped.
        """
        messages = list(self._parser.tick())
        if not messages and self._holding():
            return
        held, self._held = self._held, ""
        broken = len(held) > 2 or held[1:] in SEQUENCE_INTRODUCERS  # Esc [ never ended reads as "[": dropped too
        if not broken:
            yield from messages

    def wait_limit(self, longest: float) -> float:
        """How long the thread may wait for input before :meth:`tick` is due (at most ``longest``)."""
        if not self._held:
            return longest
        due = self._held_at + constants.ESCAPE_DELAY - self._clock()
        return min(longest, max(due, 0.0))

    def close(self) -> Iterator[Message]:
        """The end of input: whatever the parser still holds."""
        yield from self._parser.feed("")

    def _release_escape(self) -> Iterator[Message]:
        """Let the parser's wait for the rest of the sequence run out, so it reports the lone Esc now."""
        deadline = self._held_at + constants.ESCAPE_DELAY
        while (remaining := deadline - self._clock()) > 0:
            self._sleep(remaining)
        self._held = ""
        yield from self._parser.tick()


class CescacsDriver(LinuxDriver):
    """Textual's Linux/macOS driver with the safe input loop of :class:`TerminalInput`."""

    def __init__(
        self, app: App[Any], *, debug: bool = False, mouse: bool = True, size: tuple[int, int] | None = None
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        self._debug_input = debug
        self._app_loop = asyncio.get_running_loop()
        self._switch_interval_before: float | None = None
        """The switch interval to put back when the terminal is given back; ``None`` while it is not lowered."""

    def start_application_mode(self) -> None:
        """Take the terminal, as Textual's driver does, with a switch interval that lets each frame out at once.

        Textual hands each frame to a writer thread, which writes it while the
        app's thread goes on with its work; a busy app's thread gives the
        interpreter's lock up only every switch interval, and the writer needs
        it to start and again after each write.  At Python's 5 ms a 30 kB frame
        written so reached a pseudo-terminal 5-9 ms late while the app's thread
        computed (1.5-2 ms at 1 ms), and the board's first frame 10 ms later
        when the side panel's mount began right after it (``benchmarks/ui.py``,
        section 3c).  The interval is put back when the terminal is given back
        (or taking it failed); a second start without a stop (Textual's own on
        SIGCONT, after ``kill -STOP`` or Ctrl+Z and ``bg``) keeps the first's.
        """
        if self._switch_interval_before is None:
            self._switch_interval_before = sys.getswitchinterval()
            sys.setswitchinterval(min(self._switch_interval_before, OUTPUT_SWITCH_SECONDS))
        try:
            super().start_application_mode()  # type: ignore[no-untyped-call]  # Textual leaves it unannotated
        except BaseException:
            self._restore_switch_interval()
            raise

    def stop_application_mode(self) -> None:
        try:
            super().stop_application_mode()
        finally:
            self._restore_switch_interval()

    def _restore_switch_interval(self) -> None:
        if self._switch_interval_before is not None:
            sys.setswitchinterval(self._switch_interval_before)
            self._switch_interval_before = None

    def run_input_thread(self) -> None:
        """Read the terminal until the app stops reading it.

        When the terminal goes away (end of file, or ``EIO`` once the terminal
        or the SSH link has closed) the app is asked to exit as with Ctrl+Q;
        any other error ends the app as an exception does.
        """
        try:
            self._read_input()
        except OSError as error:
            if error.errno != errno.EIO:
                self._fail(error)
            else:
                self._app_loop.call_soon_threadsafe(self._app.exit)
        except Exception as error:
            self._fail(error)

    def _fail(self, error: Exception) -> None:
        self._app_loop.call_soon_threadsafe(self._app.call_later, _raise, error)

    def _read_input(self) -> None:
        terminal = TerminalInput(debug=self._debug_input)
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        try:
            while not self.exit_event.is_set():
                if selector.select(terminal.wait_limit(POLL_SECONDS)):
                    data = os.read(self.fileno, READ_SIZE)
                    if not data:  # end of file: the terminal has gone
                        self._app_loop.call_soon_threadsafe(self._app.exit)
                        return
                    self._dispatch(terminal.feed(data))
                self._dispatch(terminal.tick())
            if selector.select(POLL_SECONDS):
                self._dispatch(terminal.feed(os.read(self.fileno, READ_SIZE), final=True))
        finally:
            selector.close()
            for _ in terminal.close():  # as Textual: what is left of an unfinished sequence is dropped
                pass

    def _dispatch(self, messages: Iterator[Message]) -> None:
        for message in messages:
            self.process_message(message)


def _raise(error: Exception) -> None:
    """Re-raise an input thread's exception in the app, where Textual handles it (terminal restored, status 1)."""
    raise error


def driver_class(default: type[Driver]) -> type[Driver]:
    """The driver for the app: :class:`CescacsDriver` where Textual would use its Linux driver, else ``default``.

    ``default`` is what :meth:`textual.app.App.get_driver_class` chose.  Under
    textual-serve (``TEXTUAL_DRIVER``) it is Textual's web driver, which gets
    the same input loop (:func:`web_driver_class`); Windows' driver stays.
    """
    if default is LinuxDriver:
        return CescacsDriver
    web = web_driver_class()  # imported only off the terminal: the usual start needs none of it
    return web if issubclass(web, default) else default


@cache
def web_driver_class() -> type[Driver]:
    """Textual's web driver with the input loop of :class:`TerminalInput`, each stdin packet taken as one read,
    and every packet to the server written whole, one at a time.

    The page's terminal sends each key (an escape sequence whole) in a message
    of its own, which textual-serve forwards as one stdin packet: Esc and a key
    typed right after it are two packets, so they stay two keys, as with
    :class:`CescacsDriver` (Textual's web driver made them Alt+key within the
    Esc delay: Esc then ``/`` lost the ``/``).

    Textual's web driver writes each packet (a frame, a message, a piece of a
    download) with one ``os.write`` and never looks at how much it wrote.  Into
    a full pipe (a server slow to read, on a busy machine) a write that a signal
    interrupts (a process stopped and continued, a frozen container thawed) writes
    only part; and the input thread writes a download's pieces while the app's
    thread writes frames, so two large packets could interleave.  Either way the
    server read the rest as garbage and ended the session (textual-serve's
    ``DecodeError``).
    """
    from textual.drivers._byte_stream import ByteStream
    from textual.drivers.web_driver import WebDriver, _ExitInput

    class CescacsWebDriver(WebDriver):
        def __init__(
            self, app: App[Any], *, debug: bool = False, mouse: bool = True, size: tuple[int, int] | None = None
        ) -> None:
            super().__init__(app, debug=debug, mouse=mouse, size=size)
            self._app_loop = asyncio.get_running_loop()
            self._output_lock = threading.Lock()
            self._write = partial(self._write_whole)  # where Textual's driver keeps its partial of os.write

        def _write_whole(self, packet: bytes) -> int:
            """Write all of ``packet`` to the server before any other packet (Textual's ``_write``, made whole)."""
            with self._output_lock:
                unwritten = memoryview(packet)
                while unwritten:
                    unwritten = unwritten[os.write(self.fileno, unwritten) :]
            return len(packet)

        def run_input_thread(self) -> None:
            """As Textual's web driver: stdin packets are keys, the others the server's meta messages.

            An error ends the app as in :class:`CescacsDriver` (Textual's only logged it, and input stopped).
            """
            terminal = TerminalInput(debug=self._debug)
            packets = ByteStream()
            try:
                for data in self._input_reader:
                    for kind, payload in packets.feed(data) if data else ():
                        if kind == "D":
                            for message in terminal.feed(payload):
                                self.process_message(message)
                        else:
                            self._on_meta(kind, payload)
                    for message in terminal.tick():
                        self.process_message(message)
            except _ExitInput:
                pass
            except Exception as error:
                self._app_loop.call_soon_threadsafe(self._app.call_later, _raise, error)
            finally:
                self._input_reader.close()

    return CescacsWebDriver
