"""``cescacs engine``: the protocol on a pair of byte streams (stdin and stdout).

Input is read as bytes and decoded as UTF-8 with replacement, so no byte
sequence can raise; a line longer than :data:`~.protocol.MAX_LINE` is
reported and skipped instead of being held in memory.  Each line carries the
moment its last bytes arrived, so a ``go`` counts its time from when it was
sent, not from when the engine got round to it.  Every answer is flushed at
once: a front end waits for each line.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from typing import BinaryIO, Final

from .protocol import MAX_LINE, EngineProtocol, Line

CHUNK: Final = 1 << 16
"""Bytes read at a time: whatever has arrived, up to this."""


def read_lines(stream: BinaryIO, protocol: EngineProtocol) -> Iterator[Line]:
    """The command lines of ``stream``, decoded, with their arrival; over-long lines are reported and dropped."""
    pending = b""
    skipping = False  # inside a line already reported as too long
    while True:
        chunk = os.read(stream.fileno(), CHUNK)
        arrived = time.perf_counter()
        pending += chunk
        *complete, pending = pending.split(b"\n") if chunk else [*pending.split(b"\n"), b""]
        for raw in complete:
            if skipping or len(raw) > MAX_LINE:
                if not skipping:
                    protocol.error(f"line longer than {MAX_LINE} bytes ignored")
                skipping = False
                continue
            yield Line(raw.decode("utf-8", errors="replace"), arrived)
        if len(pending) > MAX_LINE:
            if not skipping:
                protocol.error(f"line longer than {MAX_LINE} bytes ignored")
            skipping = True
            pending = b""
        if not chunk:
            return


def serve(stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Run the engine until ``quit`` or the end of input; the exit status (0)."""
    closed = False

    def write(line: str) -> None:
        nonlocal closed
        if closed:
            return
        try:
            stdout.write(line.encode("utf-8", errors="backslashreplace") + b"\n")
            stdout.flush()
        except (BrokenPipeError, ValueError):  # the front end went away (or closed our end): nothing to answer
            closed = True

    protocol = EngineProtocol(write)
    protocol.run(read_lines(stdin, protocol))
    with contextlib.suppress(OSError):
        stdout.close()  # said here, so a broken pipe is not reported again at exit
    return 0


__all__ = ["read_lines", "serve"]
