"""The link between ``serve-ssh --db`` and a visitor's lobby app (remote/lobby_link.py), and the server's tick.

The server's end is served as ``serve-ssh --db`` serves it, on a real SQLite
lobby (scripts/lobby_stage.py); the app's end is the real
:class:`LobbyLink`, or a hostile peer writing raw lines.
"""

from __future__ import annotations

import asyncio
import datetime
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cescacs_tui.remote.lobby_link import concerns_game, link_pair, serve_link
from cescacs_tui.remote.lobby_view import read_lobby
from cescacs_tui.remote.ssh_lobby import LobbyDoor
from cescacs_tui.server.lobby import Terms
from cescacs_tui.server.model import Change, ChangeKind
from scripts.lobby_stage import Stage, seed
from tests.helpers.waiting import until


@pytest.fixture
async def stage(tmp_path: Path) -> AsyncIterator[Stage]:
    stage = await Stage.open(tmp_path)
    yield stage
    await stage.close()


async def raw_peer(stage: Stage, name: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, asyncio.Task[None]]:
    """A peer at the app's end that writes what it likes, and the server's end serving it."""
    server_end, app_end = link_pair()
    server_reader, server_writer = await asyncio.open_unix_connection(sock=server_end)
    serving = asyncio.ensure_future(serve_link(stage.lobby, stage.caller(name), "en", server_reader, server_writer))
    reader, writer = await asyncio.open_unix_connection(sock=app_end)
    return reader, writer, serving


async def test_the_lobby_read_through_the_link_sorts_the_visitors_games(stage: Stage) -> None:
    await seed(stage)
    link = stage.link("ana")
    await link.open()
    view = await read_lobby(link)
    assert view.name == "ana" and view.online == ["ana", "bo", "cy"]
    assert [g.id for g in view.your_move] == [1] and view.your_move[0].draw_offer == "black"
    assert [g.id for g in view.their_move] == [2]
    assert [g.id for g in view.challenges] == [5] and [g.id for g in view.offers] == [8]
    assert [g.id for g in view.seeks] == [6, 7] and [g.id for g in view.watch] == [4]
    assert [(g.id, g.result) for g in view.finished] == [(3, "3-0")]
    assert {(r.name, r.pool) for r in view.ratings} == {("ana", "correspondence"), ("di", "correspondence")}
    await link.close()


async def test_every_change_is_heard_and_the_visitor_is_online_while_the_link_lasts(stage: Stage) -> None:
    _ana, bo = await stage.register("ana", "bo")
    link = stage.link("ana")
    heard: list[Change | None] = []
    link.listen(heard.append)
    await link.open()
    assert (await link.ask("whoami")).text == "ana"
    await until(lambda: any(c is not None and c.kind is ChangeKind.PRESENCE for c in heard), "her arrival heard")
    assert [account.name for account in await stage.lobby.online()] == ["ana"]
    offer = await stage.lobby.challenge(bo, "ana", Terms.correspondence(2))
    await until(lambda: any(c is not None and concerns_game(c, offer.id) for c in heard), "bo's challenge")
    await link.close()
    await until(lambda: heard[-1] is None, "the link's end told")
    await stage.drop_links()  # the server's end has seen the link close: the visitor is gone
    assert await stage.lobby.online() == []


async def test_requests_are_answered_as_the_key_that_logged_in_whatever_the_app_says(stage: Stage) -> None:
    ana, bo = await stage.register("ana", "bo")
    game = await stage.lobby.accept(bo, (await stage.lobby.challenge(ana, "bo", Terms.correspondence(3))).id)
    link = stage.link("bo")  # bo's link: bo may not move White's pieces in ana's name
    await link.open()
    refused = await link.ask("play", str(game.id), "H6-H12")
    assert refused.status == 2 and "it is not your move" in refused.text
    assert (await stage.lobby.look(game.id))[0].ply == 0
    await link.close()


@pytest.mark.parametrize(
    "line",
    [
        b"not json\n",
        b'{"id": 1}\n',
        b'{"id": 1, "argv": "games"}\n',
        b'{"id": -1, "argv": ["games"]}\n',
        b'{"id": true, "argv": ["games"]}\n',
        b'{"id": 1, "argv": ["games"], "as": "bo"}\n',
        b'{"id": 1, "argv": [1, 2]}\n',
        b'{"id": 1, "argv": ["' + b"x" * 500 + b'"]}\n',
        b"\xff\xfe\n",
        b"{" * 100_000 + b"\n",
    ],
)
async def test_a_line_that_is_not_a_request_closes_the_link_and_is_never_run(stage: Stage, line: bytes) -> None:
    await stage.register("ana")
    reader, writer, serving = await raw_peer(stage, "ana")
    writer.write(line)
    await writer.drain()
    await asyncio.wait_for(serving, 30)
    assert all(b'"id"' not in chunk for chunk in [await reader.read()])  # no reply: the line ran nothing
    writer.close()


async def test_a_good_request_gets_its_reply_with_its_number(stage: Stage) -> None:
    await stage.register("ana")
    reader, writer, serving = await raw_peer(stage, "ana")
    writer.write(b'{"id": 41, "argv": ["whoami"]}\n')
    await writer.drain()
    while True:
        reply = json.loads(await reader.readuntil(b"\n"))
        if "id" in reply:
            break
    assert reply == {"id": 41, "status": 0, "text": "ana"}
    writer.close()
    await asyncio.wait_for(serving, 30)


async def test_the_servers_tick_ends_a_game_on_time_when_nobody_acts_in_it(stage: Stage) -> None:
    ana, bo = await stage.register("ana", "bo")
    game = await stage.lobby.accept(bo, (await stage.lobby.challenge(ana, "bo", Terms.correspondence(1))).id)
    door = LobbyDoor(stage.lobby)
    await door.tick()
    assert not (await stage.lobby.look(game.id))[0].over
    stage.now[0] += datetime.timedelta(days=1, seconds=1)
    await door.tick()
    ended, _core = await stage.lobby.look(game.id)
    assert ended.over and ended.result == "0-3" and ended.ending == "time forfeit"
