"""The lines a plain-mode player types, read so that no signal is lost while the program waits for them.

Ctrl+C (SIGINT), SIGTERM and SIGHUP end a plain session through Python
handlers, which run in the main thread between two bytecodes.  A signal that
arrived just before the main thread blocked in ``read`` (as it went back for
the next line), or that the kernel gave to another thread (the flag watch's),
interrupted nothing: the handler waited for the next line, and Ctrl+C did
nothing at all.  Beside two CPU hogs a real terminal lost it 2 times in 60.

So a terminal or a pipe is read here from its descriptor, and the wait for it
also watches Python's signal wake-up descriptor (:func:`signal.set_wakeup_fd`),
to which the C-level handler writes whatever thread it runs in: a signal that
came before the wait, or during it, ends the wait, and its handler runs.
Any other stream (a test's ``StringIO``) is read line by line as before.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import locale
import os
import select
import signal
import threading
from collections.abc import Iterator
from typing import Final, TextIO

__all__ = ["lines"]

CHUNK: Final = 1 << 16
"""The most read from the descriptor at once (a paste arrives whole)."""


def lines(stream: TextIO) -> Iterator[str]:
    """The lines of ``stream`` as they arrive, as its ``readline`` gives them, until it gives ``""``.

    As POSIX's standard input gives them: a line ends at ``\\n`` and keeps it
    (and a ``\\r`` before it); an end of input in the middle of a line (Ctrl+D
    after some text, in a terminal) ends that line, and reading goes on.  A
    terminal or a pipe is answered line by line, and a signal's handler runs
    as soon as the signal comes, even while this waits.  ``stream`` must not
    have been read from before (what it buffered would be skipped).
    """
    fd = _descriptor(stream)
    if fd is None or threading.current_thread() is not threading.main_thread():
        yield from iter(stream.readline, "")  # nothing to wait on with the signals (or no signal comes here)
        return
    encoding = getattr(stream, "encoding", None) or locale.getpreferredencoding(False)
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    unfinished: list[str] = []  # the line being typed, in pieces: joined once, however many reads it took
    with _wake_up_pipe() as (woken, wake):
        while True:
            chunk = _read(fd, woken, wake)
            if chunk is None:  # a signal: its handler runs now, between two bytecodes (it may end the session)
                continue
            *finished, rest = decoder.decode(chunk, final=not chunk).split("\n")
            if finished:
                finished[0] = "".join((*unfinished, finished[0]))
                unfinished.clear()
                for line in finished:
                    yield line + "\n"
            if rest:
                unfinished.append(rest)
            if not chunk:  # the end of input: for good in a pipe; a terminal may give more after Ctrl+D
                if not unfinished:
                    return
                yield "".join(unfinished)
                unfinished.clear()


def _descriptor(stream: TextIO) -> int | None:
    """``stream``'s file descriptor, if it has one this module can wait on (POSIX)."""
    if os.name != "posix":
        return None
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both an OSError and a ValueError
        return None


def _read(fd: int, woken: int, wake: int) -> bytes | None:
    """The next bytes of ``fd`` (``b""``: its end), or ``None``: nothing yet (a signal came first, or another reader).

    Signals wake the wait through ``wake`` only during it: between two lines
    the session may run an event loop of its own (the computer's), which sets
    its own wake-up descriptor.  A signal from before is handled as
    :func:`_wait` is entered (a Python call checks for pending handlers).
    """
    previous = -1
    try:
        previous = signal.set_wakeup_fd(wake, warn_on_full_buffer=False)
        return _wait(fd, woken)
    finally:
        signal.set_wakeup_fd(previous)


def _wait(fd: int, woken: int) -> bytes | None:
    """Wait for ``fd`` or a signal (``woken`` readable, then drained)."""
    ready, _, _ = select.select([fd, woken], [], [])
    if woken in ready:
        with contextlib.suppress(BlockingIOError):
            while os.read(woken, CHUNK):
                pass
        if fd not in ready:
            return None
    try:
        return os.read(fd, CHUNK)
    except BlockingIOError:  # another reader of a shared, non-blocking input took what there was
        return None
    except OSError as error:
        if error.errno == errno.EIO:  # the terminal hung up: the end of its input
            return b""
        raise


@contextlib.contextmanager
def _wake_up_pipe() -> Iterator[tuple[int, int]]:
    """A pipe, both ends non-blocking, as :func:`signal.set_wakeup_fd` needs: the end to wait on, the one to wake."""
    reader, writer = os.pipe()
    try:
        os.set_blocking(reader, False)
        os.set_blocking(writer, False)
        yield reader, writer
    finally:
        # A handler that raised as _read set the wake-up descriptor (before it could note the one before) left
        # it pointing here: never at a closed pipe, whose number the next file opened would take.
        if (current := signal.set_wakeup_fd(-1)) != writer:
            signal.set_wakeup_fd(current)
        os.close(reader)
        os.close(writer)
