"""The server's storage under test: every backend the suite runs on, keys, a clock that moves when told.

:data:`BACKENDS` is what the storage tests are parametrised over: the
fixtures of tests/conftest.py give each test a fresh database of each
(``database``: what ``--db`` says for it, which a child process opens with
:func:`~cescacs_tui.server.storage.open_storage`; ``storage``: it opened),
SQLite in the test's folder, PostgreSQL on the test session's own server
(tests/helpers/postgres.py).
"""

from __future__ import annotations

import datetime
import os
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cescacs_tui.core.pieces import Colour
from cescacs_tui.server.keys import PublicKey
from cescacs_tui.server.lobby import Caller, Lobby, LobbyOptions
from cescacs_tui.server.storage import Storage

BACKENDS = ("sqlite", "postgresql")
"""The storage backends every storage test runs on."""

START = datetime.datetime(2026, 3, 1, 12, 0, tzinfo=datetime.UTC)


def sqlite_path(folder: Path) -> Path:
    """A SQLite database's file in ``folder``."""
    return folder / "server.sqlite"


def new_key() -> PublicKey:
    """A fresh Ed25519 public key (random bytes where the point goes: the storage never checks the curve)."""
    algorithm = b"ssh-ed25519"
    point = os.urandom(32)
    blob = struct.pack(">I", len(algorithm)) + algorithm + struct.pack(">I", len(point)) + point
    return PublicKey.from_blob("ssh-ed25519", blob)


@dataclass
class Clock:
    """Now, as the lobby reads it: moves only when a test says so."""

    now: datetime.datetime = START

    def __call__(self) -> datetime.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += datetime.timedelta(**delta)


@dataclass
class Turns:
    """The notification hook's calls, as a test reads them."""

    calls: list[tuple[str, int]] = field(default_factory=list)

    def __call__(self, name: str, game: int) -> None:
        self.calls.append((name, game))


def first(colours: Sequence[Colour]) -> Colour:
    """The side chooser that always picks the first (White): games between two players start predictably."""
    return colours[0]


def make_lobby(storage: Storage, options: LobbyOptions | None = None) -> tuple[Lobby, Clock, Turns]:
    clock, turns = Clock(), Turns()
    lobby = Lobby(storage, options or LobbyOptions(), clock=clock, choose=first, on_turn=turns)
    return lobby, clock, turns


def caller() -> Caller:
    return Caller(new_key())
