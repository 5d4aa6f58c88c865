"""200 idle connections from one address, then a real player: how long until the player is seated (goal: 5 s).

    python benchmarks/idle_crowd.py              # cescacs host, then cescacs serve-ssh
    python benchmarks/idle_crowd.py --crowd 500

The crowd connects from 127.0.0.1 and says nothing (no hello, no SSH
banner), as a stranger holding places would.  The player is the real thing,
from the same address: ``cescacs join --as white`` (TCP) or the system's
``ssh -tt`` (SSH) in a pseudo-terminal, timed from its start to its seats
line saying ``(you)``, and once more with no crowd, for comparison.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the drivers live with the tests

from tests.helpers.remote import HostProcess, ServerProcess  # noqa: E402
from tests.helpers.ssh import make_keys, ssh_command  # noqa: E402
from tests.helpers.terminal import Terminal, terminal_environment  # noqa: E402


def seated(program: list[str], args: list[str], environment: dict[str, str]) -> float:
    """Seconds from starting ``program`` in a terminal to its seats line saying ``(you)``."""
    started = time.monotonic()
    terminal = Terminal(environment, args, live=True, program=program)
    try:
        terminal.wait_for("(you)")
        return time.monotonic() - started
    finally:
        terminal.close()


def crowd(port: int, count: int) -> list[socket.socket]:
    return [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--crowd", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cescacs-crowd-") as folder:
        environment = terminal_environment(Path(folder))
        host = HostProcess(environment)
        try:
            join = [sys.executable, "-m", "cescacs_tui"]
            alone = seated(join, [*host.join_args, "--as", "white"], environment)
            idle = crowd(host.port, args.crowd)
            among = seated(join, [*host.join_args, "--as", "white"], environment)
            for sock in idle:
                sock.close()
        finally:
            host.stop()
        print(f"cescacs join: seated in {alone:.2f} s alone, {among:.2f} s beside {args.crowd} idle connections")
        if shutil.which("ssh") is None:
            print("serve-ssh: no ssh client here")
            return
        (Path(folder) / "keys").mkdir()
        keys = make_keys(Path(folder) / "keys")
        server = ServerProcess(environment, ["serve-ssh", "--port", "0", "--host-key", str(keys / "host")])
        try:
            visitor = ssh_command(keys, server, "ana")
            alone = seated(visitor, ["-tt", "lobby"], environment)
            idle = crowd(server.port, args.crowd)
            among = seated(visitor, ["-tt", "lobby"], environment)
            for sock in idle:
                sock.close()
        finally:
            server.stop()
        print(f"ssh: seated in {alone:.2f} s alone, {among:.2f} s beside {args.crowd} idle connections")


if __name__ == "__main__":
    main()
