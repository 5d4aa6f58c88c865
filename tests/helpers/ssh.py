"""Visitors of ``cescacs serve-ssh`` as the system's ``ssh`` client: keys, the command line, a visitor's terminal."""

from __future__ import annotations

import os
from pathlib import Path

from tests.helpers.remote import ServerProcess
from tests.helpers.terminal import Terminal

PEOPLE = ("ana", "bo", "cy", "eve")
LISTED = ("ana", "bo", "cy")
"""Everyone has a key; ``--authorized-keys`` lists these (eve's key is refused)."""


def make_keys(folder: Path) -> Path:
    """A host key and a key for each person in ``folder``, and ``allowed``: the listed people's public keys."""
    import asyncssh

    for name in ("host", *PEOPLE):
        key = asyncssh.generate_private_key("ssh-ed25519")
        key.write_private_key(str(folder / name))
        key.write_public_key(str(folder / f"{name}.pub"))
        os.chmod(folder / name, 0o600)
    (folder / "allowed").write_text("".join((folder / f"{name}.pub").read_text() for name in LISTED))
    return folder


def ssh_command(keys: Path, server: ServerProcess, who: str, *, log_level: str = "ERROR") -> list[str]:
    return [
        "ssh", "-F", "/dev/null", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes", "-o", f"LogLevel={log_level}",
        "-i", str(keys / who), "-p", str(server.port), f"{who}@127.0.0.1",
    ]  # fmt: skip


def visit(environment: dict[str, str], keys: Path, server: ServerProcess, who: str, room: str) -> Terminal:
    """``who`` at the board of ``room``: ``ssh -tt -p PORT who@127.0.0.1 ROOM`` in a terminal of their own."""
    terminal = Terminal(environment, ["-tt", room], live=True, program=ssh_command(keys, server, who))
    terminal.wait_for("Move:")
    terminal.wait_for("You are watching" if who == "cy" else "(you)")
    terminal.type("/")  # the move box keeps the focus from now on (the keys after "/" wait for the focus to move)
    return terminal
