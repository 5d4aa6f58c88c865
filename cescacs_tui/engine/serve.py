"""``cescacs engine``: the protocol on a pair of byte streams (stdin and stdout).

Input is read as bytes and decoded as UTF-8 with replacement, so no byte
sequence can raise; a line longer than :data:`~.protocol.MAX_LINE` is
reported and skipped instead of being held in memory.  Every answer is
flushed at once: a front end waits for each line.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import BinaryIO

from .protocol import MAX_LINE, EngineProtocol


def read_lines(stream: BinaryIO, protocol: EngineProtocol) -> Iterator[str]:
    """The command lines of ``stream``, decoded; over-long lines are reported and dropped."""
    while True:
        chunk = stream.readline(MAX_LINE + 1)
        if not chunk:
            return
        if len(chunk) > MAX_LINE and not chunk.endswith(b"\n"):
            while chunk and not chunk.endswith(b"\n"):  # skip the rest of the line
                chunk = stream.readline(MAX_LINE + 1)
            protocol.error(f"line longer than {MAX_LINE} bytes ignored")
            continue
        yield chunk.decode("utf-8", errors="replace")


def serve(stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Run the engine until ``quit`` or the end of input; the exit status (0)."""

    def write(line: str) -> None:
        stdout.write(line.encode("utf-8", errors="backslashreplace") + b"\n")
        stdout.flush()

    protocol = EngineProtocol(write)
    with contextlib.suppress(BrokenPipeError):  # the front end went away: nothing left to answer
        protocol.run(read_lines(stdin, protocol))
    return 0


__all__ = ["read_lines", "serve"]
