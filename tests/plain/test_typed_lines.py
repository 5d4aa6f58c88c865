"""The plain mode's input: the lines as typed, and no signal lost while it waits for them (Ctrl+C, SIGTERM)."""

from __future__ import annotations

import io
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import pytest

from cescacs_tui.plain.typed_lines import lines
from tests.helpers.waiting import PATIENCE, POLL

POSIX_ONLY = pytest.mark.skipif(os.name != "posix", reason="descriptors and select: POSIX")


@pytest.fixture
def pipe() -> Iterator[tuple[io.TextIOWrapper, int]]:
    """A pipe: the stream the session reads, and the descriptor the test writes to."""
    reader, writer = os.pipe()
    stream = open(reader, encoding="utf-8", errors="replace")  # noqa: SIM115 (closed below)
    try:
        yield stream, writer
    finally:
        stream.close()
        os.close(writer)


def test_a_stream_without_a_descriptor_is_read_line_by_line() -> None:
    assert list(lines(io.StringIO("e7-e13\nb\n"))) == ["e7-e13\n", "b\n"]


@POSIX_ONLY
def test_a_pipe_gives_its_lines_as_the_standard_input_would(pipe: tuple[io.TextIOWrapper, int]) -> None:
    """As Python's standard input on POSIX (``newline="\\n"``): nothing translated, invalid bytes replaced."""
    stream, writer = pipe
    typed_in = "e7-e13\r\nx f14\rm e21\nÉ".encode() + b"\xff\n" + b"last"
    standard = io.TextIOWrapper(io.BytesIO(typed_in + b" word\n"), encoding="utf-8", errors="replace", newline="\n")
    os.write(writer, typed_in)
    typed = lines(stream)
    assert [next(typed) for _ in range(3)] == ["e7-e13\r\n", "x f14\rm e21\n", "É\ufffd\n"]
    os.write(writer, b" word\n")  # the rest of the line comes later
    assert next(typed) == "last word\n"
    os.close(os.dup(writer))
    assert list(iter(standard.readline, "")) == ["e7-e13\r\n", "x f14\rm e21\n", "É\ufffd\n", "last word\n"]


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads a thread's state in /proc (Linux)")
def test_a_character_split_between_two_reads_is_whole(pipe: tuple[io.TextIOWrapper, int]) -> None:
    stream, writer = pipe
    main = threading.current_thread()
    encoded = "Peó\n".encode()
    os.write(writer, encoded[:3])  # the first byte of "ó" only

    def the_rest_once_the_first_part_is_read() -> None:
        until_waiting_for_input(main)
        os.write(writer, encoded[3:])

    threading.Thread(target=the_rest_once_the_first_part_is_read, daemon=True).start()
    assert next(lines(stream)) == "Peó\n"


@POSIX_ONLY
def test_in_a_terminal_ctrl_d_twice_after_some_text_ends_that_line_and_reading_goes_on() -> None:
    """As ``readline`` on a terminal: the first Ctrl+D hands over the text typed, the second gives an empty read
    that ends the line; only Ctrl+D at the start of a line is the end of input."""
    import pty

    controller, terminal = pty.openpty()
    stream = open(terminal, encoding="utf-8")  # noqa: SIM115 (closed below)
    try:
        os.write(controller, b"abc\x04\x04next\n\x04")
        assert list(lines(stream)) == ["abc", "next\n"]
    finally:
        stream.close()
        os.close(controller)


@POSIX_ONLY
def test_the_end_of_input_ends_the_lines() -> None:
    reader, writer = os.pipe()
    os.write(writer, b"help\nunfinished")
    os.close(writer)  # Ctrl+D, or the end of a script
    with open(reader, encoding="utf-8") as stream:
        assert list(lines(stream)) == ["help\n", "unfinished"]


def until_waiting_for_input(thread: threading.Thread) -> None:
    """Wait until ``thread`` waits for input (at most :data:`PATIENCE`: the test then goes on as it can)."""
    deadline = time.monotonic() + PATIENCE
    while not waiting_for_input(thread) and time.monotonic() < deadline:
        time.sleep(POLL)


def waiting_for_input(thread: threading.Thread) -> bool:
    """Whether ``thread`` sleeps in the kernel on something other than a lock (the GIL): its read, or its select."""
    task = Path(f"/proc/self/task/{thread.native_id}")
    state = (task / "stat").read_text().rsplit(")", 1)[1].split()[0]
    where = (task / "wchan").read_text()
    return state == "S" and where not in ("", "0") and "futex" not in where


class Interrupted(Exception):
    """What the test's signal handler raises, as Python's raises KeyboardInterrupt for Ctrl+C."""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads a thread's state in /proc (Linux)")
def test_a_signal_taken_by_another_thread_ends_the_wait_at_once(pipe: tuple[io.TextIOWrapper, int]) -> None:
    """The kernel may give the signal to any thread; Python runs its handler in the main thread, between two
    bytecodes: a main thread blocked in ``read`` never got there, and Ctrl+C did nothing until the next line."""
    stream, writer = pipe
    main = threading.current_thread()
    interrupted = threading.Event()
    unblocked_by_a_line = threading.Event()

    def signal_from_another_thread() -> None:
        until_waiting_for_input(main)
        signal.pthread_kill(threading.get_ident(), signal.SIGUSR1)  # this thread's C handler wakes the main one
        if not interrupted.wait(PATIENCE):  # the wait was not ended by the signal: end it with a line
            unblocked_by_a_line.set()
            os.write(writer, b"a line\n")

    def handler(signum: int, frame: FrameType | None) -> None:
        raise Interrupted

    wake_up = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(wake_up)
    previous = signal.signal(signal.SIGUSR1, handler)
    try:
        typed = lines(stream)
        with pytest.raises(Interrupted):
            try:
                threading.Thread(target=signal_from_another_thread, daemon=True).start()
                next(typed)
            finally:
                interrupted.set()
    finally:
        signal.signal(signal.SIGUSR1, previous)
    assert not unblocked_by_a_line.is_set()
    assert signal.set_wakeup_fd(wake_up) == wake_up  # Python's wake-up descriptor as it was


@POSIX_ONLY
def test_a_long_paste_and_a_line_over_many_reads_come_whole(pipe: tuple[io.TextIOWrapper, int]) -> None:
    stream, writer = pipe
    pasted = "".join(f"m e{n % 29}\n" for n in range(10_000)) + "x" * 200_000 + "\n"
    threading.Thread(target=os.write, args=(writer, pasted.encode()), daemon=True).start()
    typed = lines(stream)
    assert [next(typed) for _ in range(10_001)] == pasted.splitlines(keepends=True)
