"""The client's link: it reconnects when the coordinator goes silent or away, and stops for good on a final refusal."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from cescacs_tui.core.errors import CescacsError
from cescacs_tui.remote.client import JoinRequest, Link, LinkStatus, RemoteRefused, check_join, parse_address
from cescacs_tui.remote.protocol import Seat
from tests.helpers.waiting import until

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def server(handler: Handler) -> tuple[asyncio.Server, int]:
    served = await asyncio.start_server(handler, "127.0.0.1", 0)
    return served, served.sockets[0].getsockname()[1]


def request(port: int) -> JoinRequest:
    return JoinRequest("127.0.0.1", port, "token-0123456789", Seat.WHITE, "Ana", "me")


def line(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\n"


WELCOME = {"type": "welcome", "protocol": 1, "seat": "white", "name": "Ana"}


async def test_a_coordinator_gone_silent_counts_as_dropped_and_the_link_reconnects_with_the_same_identity() -> None:
    hellos: list[dict[str, Any]] = []

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        hellos.append(json.loads(await reader.readline()))
        writer.write(line(WELCOME))
        await reader.read()  # reads the pings, answers nothing

    served, port = await server(silent)
    statuses: list[LinkStatus] = []
    link = Link(request(port), on_status=lambda status, _: statuses.append(status), silence_seconds=0.3)
    running = asyncio.ensure_future(link.run())
    # The second hello is read before the link has taken the welcome that makes it "connected" again.
    await until(lambda: len(hellos) >= 2 and len(statuses) >= 3, "the link to say hello again and be let in")
    assert statuses[:3] == [LinkStatus.CONNECTED, LinkStatus.RECONNECTING, LinkStatus.CONNECTED]
    assert hellos[0] == hellos[1] and hellos[0]["client"] == "me" and hellos[0]["seat"] == "white"
    link.stop()
    await running
    served.close()


async def test_a_link_sends_only_while_connected_and_hands_on_every_line_checked() -> None:
    got: list[dict[str, Any]] = []

    async def chatty(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()
        writer.write(line(WELCOME) + b"not json\n" + line({"type": "pong"}))
        got.append(json.loads(await reader.readline()))
        await reader.read()

    served, port = await server(chatty)
    messages: list[dict[str, Any]] = []
    link = Link(request(port), on_message=lambda m: messages.append(dict(m)))
    assert link.send({"type": "ping"}) is False  # not connected yet: nothing sent
    running = asyncio.ensure_future(link.run())
    await until(lambda: len(messages) == 3, "three messages")
    assert [m["type"] for m in messages] == ["welcome", "error", "pong"]
    assert messages[1]["code"] == "bad_update"
    assert link.send({"type": "resign"}) is True
    await until(lambda: bool(got), "an answer")
    assert got == [{"type": "resign"}]
    link.stop()
    await running
    served.close()


async def test_a_final_refusal_stops_the_link_with_the_reason_but_closing_is_waited_out() -> None:
    connections = 0

    async def refusing(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        await reader.readline()
        if connections == 1:
            writer.write(line({"type": "error", "code": "closing", "reason": "saved", "fatal": True}))
        else:
            writer.write(line({"type": "error", "code": "seat_taken", "reason": "White is taken by Bo", "fatal": True}))
        writer.close()

    served, port = await server(refusing)
    said: list[tuple[LinkStatus, str]] = []
    link = Link(request(port), on_status=lambda status, detail: said.append((status, detail)))
    await asyncio.wait_for(link.run(), 10)  # returns by itself: the second refusal is final
    assert connections == 2
    assert said[-1] == (LinkStatus.CLOSED, "that seat is someone else's")  # worded from its code, in the language
    served.close()


async def test_check_join_tells_a_refusal_and_something_that_is_not_a_coordinator() -> None:
    async def refusing(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        hello = json.loads(await reader.readline())
        assert hello["probe"] is True
        writer.write(line({"type": "error", "code": "auth", "reason": "wrong token", "fatal": True}))
        writer.close()

    async def web_server(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"HTTP/1.1 400 Bad Request\r\n\r\n")
        writer.close()

    for handler, error, words in (
        (refusing, RemoteRefused, "refused: wrong token"),
        (web_server, CescacsError, "is not a C'escacs coordinator"),
    ):
        served, port = await server(handler)
        with pytest.raises(error, match=words):
            await asyncio.to_thread(check_join, request(port))
        served.close()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("127.0.0.1:7469", ("127.0.0.1", 7469)),
        ("[::1]:80", ("::1", 80)),
        ("games.example.org:2", ("games.example.org", 2)),
    ],
)
def test_addresses_are_read(text: str, expected: tuple[str, int]) -> None:
    assert parse_address(text) == expected


@pytest.mark.parametrize("text", ["7469", "host:", "host:0", "host:70000", "a b:1", "::1:80"])
def test_bad_addresses_are_refused(text: str) -> None:
    with pytest.raises(CescacsError):
        parse_address(text)
