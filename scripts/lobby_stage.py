"""A C'escacs server's lobby on a stage: a real SQLite database, a few players, and the lobby app of one of them.

The lobby screen's pictures (``scripts/screenshots.py``) and its tests use
this: :class:`Stage` is the server's side (a real
SQLite storage and
:class:`~cescacs_tui.server.lobby.Lobby` on a clock that stands still, and
for each visitor a link served as ``serve-ssh --db`` serves it, in the same
event loop); :func:`seed` fills it with the games of a lobby in full swing;
:class:`StagedLobbyApp` is the lobby app of one player of a seeded stage,
which opens its stage when it starts and closes it when it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import hashlib
import shutil
import socket
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from textual import events, on
from textual.pilot import Pilot

from cescacs_tui.core.clock import TimeControl
from cescacs_tui.core.pieces import Colour
from cescacs_tui.data.settings import Settings
from cescacs_tui.remote.lobby_link import LobbyLink, link_pair, serve_link
from cescacs_tui.server.keys import PublicKey
from cescacs_tui.server.lobby import Caller, Lobby, Terms
from cescacs_tui.server.model import Account, SidePreference
from cescacs_tui.server.storage import Storage, open_storage
from cescacs_tui.tui.lobby_app import LobbyApp

START = datetime.datetime(2026, 3, 1, 12, 0, tzinfo=datetime.UTC)
"""The stage's time: deadlines read the same on every run."""


def _key(name: str) -> PublicKey:
    """A fixed Ed25519 public key per name (a hash stands for the point: the storage never checks the curve)."""
    algorithm = b"ssh-ed25519"
    point = hashlib.sha256(name.encode()).digest()
    blob = len(algorithm).to_bytes(4, "big") + algorithm + len(point).to_bytes(4, "big") + point
    return PublicKey.from_blob("ssh-ed25519", blob)


def _white(colours: object) -> Colour:
    return Colour.WHITE  # a game's maker plays White when they leave it to chance: the same stage every run


@dataclass
class Stage:
    """The server's side of the lobby: a SQLite database in ``folder``, the lobby on it, the visitors' links."""

    storage: Storage
    lobby: Lobby
    now: list[datetime.datetime] = field(default_factory=lambda: [START])
    _serving: list[asyncio.Task[None]] = field(default_factory=list)

    @classmethod
    async def open(cls, folder: Path) -> Stage:
        storage = await open_storage(folder / "server.sqlite")
        now = [START]
        lobby = Lobby(storage, clock=lambda: now[0], choose=_white)
        return cls(storage, lobby, now)

    @staticmethod
    def caller(name: str) -> Caller:
        return Caller(_key(name))

    async def register(self, *names: str) -> list[Account]:
        return [await self.lobby.register(self.caller(name), name) for name in names]

    def link(self, name: str, language: str = "en") -> LobbyLink:
        """A link for ``name``'s app, served as ``serve-ssh --db`` serves a visitor's (in this event loop)."""
        server_end, app_end = link_pair()
        self._serving.append(asyncio.ensure_future(self._serve(server_end, name, language)))
        return LobbyLink(app_end)

    async def _serve(self, server_end: socket.socket, name: str, language: str) -> None:
        reader, writer = await asyncio.open_unix_connection(sock=server_end)
        await serve_link(self.lobby, self.caller(name), language, reader, writer)

    async def drop_links(self) -> None:
        """End every visitor's link, as the server does when it stops."""
        for task in self._serving:
            task.cancel()
        await asyncio.gather(*self._serving, return_exceptions=True)
        self._serving.clear()

    async def close(self) -> None:
        await self.drop_links()
        await self.storage.close()


async def seed(stage: Stage) -> None:
    """A lobby in full swing, as ana sees it: her move in one game (a draw offered), bo's in another, a challenge
    to her, her own seek, others' seeks, a game between others to watch, a finished game and the ratings."""
    lobby = stage.lobby
    ana, bo, cy, di = await stage.register("ana", "bo", "cy", "di")
    game = await lobby.accept(bo, (await lobby.challenge(ana, "bo", Terms.correspondence(3, SidePreference.WHITE))).id)
    for player, move in ((ana, "H6-H12"), (bo, "I23-I19")):
        await lobby.play(player, game.id, move)
    stage.now[0] += datetime.timedelta(hours=5)
    await lobby.play(ana, game.id, "E7-E13")
    await lobby.play(bo, game.id, "G21-G17", offer_draw=True)
    other = await lobby.accept(ana, (await lobby.challenge(cy, "ana", Terms.correspondence(7))).id)
    await lobby.play(cy, other.id, "H6-H12")
    await lobby.play(ana, other.id, "I23-I19")
    finished = await lobby.accept(di, (await lobby.seek(ana, Terms.correspondence(1))).id)
    await lobby.resign(di, finished.id)
    watched = await lobby.accept(di, (await lobby.challenge(cy, "di", Terms.live(TimeControl.from_tag("600+5")))).id)
    await lobby.play(cy, watched.id, "H6-H12")
    await lobby.challenge(di, "ana", Terms.correspondence(3, SidePreference.BLACK))
    await lobby.seek(bo, Terms.live(TimeControl.from_tag("300+3")))
    await lobby.seek(cy, Terms.correspondence(7, SidePreference.BLACK))
    await lobby.seek(ana, Terms.correspondence(3))
    for player in (bo, cy):
        await lobby.arrive(player)


async def lobby_shown(pilot: Pilot[None]) -> None:
    """Wait until the staged lobby has been read and shown, with nothing more to read."""
    app = pilot.app
    assert isinstance(app, StagedLobbyApp)
    for _ in range(2000):
        await pilot.pause()
        lobby = app.lobby
        if lobby is not None and lobby.loaded and not lobby.reading:
            await pilot.pause()
            return
    raise AssertionError("the lobby was never shown")


class StagedLobbyApp(LobbyApp):
    """``who``'s lobby app on a seeded stage of its own (in a temporary folder, gone when the app ends)."""

    def __init__(self, who: str = "ana", *, language: str = "en", theme: str = "cescacs-dark") -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="cescacs-lobby-"))
        self.who = who
        self.language = language
        self.stage: Stage | None = None
        server_end, app_end = link_pair()
        self._server_end = server_end
        super().__init__(LobbyLink(app_end), settings=Settings(theme=theme), now=lambda: self._now())

    def _now(self) -> datetime.datetime:
        return START if self.stage is None else self.stage.now[0]

    @on(events.Mount)
    async def open_stage(self) -> None:
        stage = await Stage.open(self.folder)
        await seed(stage)
        self.stage = stage
        reader, writer = await asyncio.open_unix_connection(sock=self._server_end)
        stage._serving.append(
            asyncio.ensure_future(serve_link(stage.lobby, stage.caller(self.who), self.language, reader, writer))
        )

    async def on_unmount(self) -> None:
        if self.stage is not None:
            await self.stage.close()
        with contextlib.suppress(OSError):
            shutil.rmtree(self.folder)
