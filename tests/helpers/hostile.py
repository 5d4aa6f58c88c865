"""Hostile peers of a coordinator: seeded junk lines, and a whole fuzz run against a host while two people play.

:func:`hostile_lines` makes lines of every kind a stranger can send: junk
bytes, JSON of every shape, real messages with fields of the wrong type,
lone surrogates, control and bidirectional characters, huge, negative and
infinite numbers, deep nesting, lines over the limit.  :func:`fuzz_host`
sends thousands of them to a running host over real sockets (strangers who
never say hello, watchers who send anything, a flooder) while two players
play a real game on it, and reports what a hostile peer must never cause: a
line left unanswered (a hang), a game that did not go on.  The test suite
runs a bounded count; ``benchmarks/remote_fuzz.py`` runs the full one and
watches the host's memory and output.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from cescacs_tui.core import Position, read_pgn
from cescacs_tui.remote.protocol import MAX_REQUEST_BYTES
from tests.helpers.games import FOOLS_MATE

BURST = 30
"""Lines sent at once before waiting for the answer to a marker line: under the host's pace (40 at once)."""
FLOOD = 2000
"""Lines a flooder sends at once."""
PACE_SECONDS = 1.6
"""A watcher sends one burst per this long: 30 lines in 1.6 s stays under the host's 20 lines a second."""

_STRINGS: list[object] = [
    "", "white", "black", "watch", "any", "draw", "takeback", "new_game", "H6-H12", "I23-I19", "KRK-HIO",
    "\x1b[2J\x1b]0;pwned\x07", "\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07", "\u202eevil\u2066", "\x00", "\r\n", "\u200b",
    "é" * 50, "x" * 300, "𝕏" * 70, "$(touch pwned)", "../../etc/passwd", "%s%n%x", "\ufeff", "\ud800", "\udfff",
    "\ud83d", "a\udc80b",
]  # fmt: skip
_NUMBERS: list[object] = [
    0, -1, 1, 2, 1.5, -0.0, 2**31, 2**31 - 1, -(2**31), 2**63, 2**70, -(2**70), 10**300, 1e308, -1e308, 1e-320,
]  # fmt: skip
_SHAPES: list[object] = [None, True, False, [], {}, [1, [2, [3]]], {"type": "move"}, {"\ud800": 1}]
VALUES: list[object] = [*_STRINGS, *_NUMBERS, *_SHAPES]
KINDS = ["hello", "move", "answer", "takeback", "offer_draw", "claim_draw", "resign", "new_game", "ping", "pong", "x"]
FIELDS = ["type", "move", "ply", "draw", "to", "accept", "token", "seat", "name", "client", "protocol", "probe"]
_RAW_NUMBERS = [b"1e400", b"-1e400", b"NaN", b"Infinity", b"-Infinity", b"9" * 4000, b"-" + b"9" * 4000, b"1e-400"]


def _dumps(value: object) -> bytes:
    """JSON as a hostile peer writes it: lone surrogates escaped (``"\\ud800"``), which a strict encoder refuses."""
    return json.dumps(value, ensure_ascii=True).encode()


def hostile_lines(seed: int, count: int) -> Iterator[bytes]:
    """Seeded random lines: junk bytes, JSON of every shape, real messages with broken or hostile fields."""
    rng = random.Random(seed)
    for _ in range(count):
        shape = rng.randrange(10)
        if shape == 0:
            line = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80))).replace(b"\n", b"")
        elif shape == 1:
            line = _dumps(rng.choice(VALUES))
        elif shape in (2, 3):
            message = {rng.choice(FIELDS): rng.choice(VALUES) for _ in range(rng.randrange(6))}
            message["type"] = rng.choice([*KINDS, rng.choice(_STRINGS)])
            line = _dumps(message)
        elif shape == 4:
            good = {"type": "move", "move": rng.choice(["H6-H12", "I23-I19", "ZZ9"]), "ply": rng.randrange(4)}
            text = json.dumps(good)
            cut = rng.randrange(len(text))
            line = (text[:cut] + text[cut + 1 :]).encode()  # one character lost
        elif shape == 5:
            line = rng.choice([b"{", b"["]) * rng.randrange(1, 3000)
        elif shape == 6:
            line = b"x" * rng.randrange(MAX_REQUEST_BYTES - 10, MAX_REQUEST_BYTES * 2)
        elif shape == 7:  # a number JSON cannot hold, or one Python would choke on, in a field that wants one
            field_name = rng.choice(["ply", "protocol", "accept", "draw"])
            line = b'{"type":"' + rng.choice([b"move", b"hello"]) + b'","' + field_name.encode() + b'":'
            line += rng.choice(_RAW_NUMBERS) + b"}"
        elif shape == 8:  # raw bytes that are not UTF-8 inside a string: an encoded surrogate, an overlong form
            line = (
                b'{"type":"hello","protocol":1,"token":"' + rng.choice([b"\xed\xa0\x80", b"\xc0\xaf", b"\xff"]) + b'"}'
            )
        else:
            line = json.dumps({"type": rng.choice(KINDS), "n": rng.random()}).encode() + b"\r"
        yield line


@dataclass
class FuzzReport:
    """What a fuzz run saw."""

    lines: int = 0
    """Hostile lines sent by watchers and strangers."""
    flood_lines: int = 0
    """Lines sent by the flooder, besides."""
    answered_bursts: int = 0
    slowest_answer: float = 0.0
    """The longest wait for the answer to a burst's marker line, in seconds (a hang would be a timeout)."""
    strangers_shown_out: int = 0
    floods_told: int = 0
    moves_played: int = 0
    problems: list[str] = field(default_factory=list)
    """What went wrong (a burst unanswered, a move not played): empty for a good run."""


class _Client:
    """A raw protocol connection: lines out, lines in, pings answered."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int) -> _Client:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=8 * 1024 * 1024)
        return cls(reader, writer)

    async def send(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def send_json(self, message: dict[str, Any]) -> None:
        await self.send(json.dumps(message).encode() + b"\n")

    async def read(self, seconds: float) -> dict[str, Any] | None:
        """The next line (a ``ping`` is answered and skipped), or ``None`` when the connection closed."""
        while True:
            line = await asyncio.wait_for(self.reader.readline(), seconds)
            if not line:
                return None
            message: dict[str, Any] = json.loads(line)
            if message.get("type") == "ping":
                await self.send_json({"type": "pong"})
                continue
            return message

    async def read_until(self, wanted: Any, seconds: float) -> dict[str, Any] | None:
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            message = await self.read(left)
            if message is None or wanted(message):
                return message
        raise TimeoutError

    def close(self) -> None:
        self.writer.close()


async def _seated(port: int, token: str, seat: str, client: str, patience: float) -> _Client:
    """A connection that has said hello and been welcomed (one at a time: a crowd of connections from one address
    that have not said hello yet pushes its oldest out, as the host's doorway does with strangers)."""
    connection = await _Client.open(port)
    await connection.send_json({"type": "hello", "protocol": 1, "token": token, "seat": seat, "client": client})
    welcome = await connection.read_until(lambda m: m.get("type") in ("welcome", "error"), patience)
    if welcome is None or welcome.get("type") != "welcome":
        raise ConnectionError(f"{client} was not seated: {welcome}")
    return connection


async def _watcher(client: _Client, lines: list[bytes], number: int, report: FuzzReport, patience: float) -> None:
    """A watcher sending ``lines`` in paced bursts, each followed by a marker whose refusal must come back."""
    try:
        for start in range(0, len(lines), BURST):
            began = time.monotonic()
            marker = f"end-of-burst-{number}-{start}"
            await client.send(b"\n".join(lines[start : start + BURST]) + f'\n{{"type":"{marker}"}}\n'.encode())
            report.lines += len(lines[start : start + BURST])
            try:
                answer = await client.read_until(lambda m, marker=marker: marker in str(m.get("reason")), patience)
            except TimeoutError:
                report.problems.append(f"watcher {number}: no answer to burst {start} within {patience} s")
                return
            if answer is None:
                report.problems.append(f"watcher {number}: closed after burst {start}")
                return
            report.answered_bursts += 1
            report.slowest_answer = max(report.slowest_answer, time.monotonic() - began)
            await asyncio.sleep(max(0.0, began + PACE_SECONDS - time.monotonic()))  # keep the host's pace
    finally:
        client.close()


async def _stranger(port: int, lines: list[bytes], report: FuzzReport, patience: float) -> None:
    """A connection that never says hello: it sends anything, and must be shown the door."""
    client = await _Client.open(port)
    report.lines += len(lines)
    try:
        with contextlib.suppress(ConnectionError):  # closed before it has said it all
            await client.send(b"\n".join(lines) + b"\n")
        with contextlib.suppress(ConnectionError):  # a reset is the door too (its unread lines were dropped)
            while await client.read(patience) is not None:  # the fatal refusal, then the end of the connection
                pass
        report.strangers_shown_out += 1
    except TimeoutError:
        report.problems.append(f"a stranger was not shown the door within {patience} s")
    finally:
        client.close()


async def _flooder(client: _Client, report: FuzzReport, patience: float) -> None:
    """A watcher that sends far too many lines at once: it is told ``flood``, then closed."""
    try:
        with contextlib.suppress(ConnectionError):
            await client.send(b'{"type":"ping"}\n' * FLOOD)
        report.flood_lines += FLOOD
        told = await client.read_until(lambda m: m.get("code") == "flood", patience)
        if told is not None:
            report.floods_told += 1
        else:
            report.problems.append("the flooder was closed without being told flood")
    except TimeoutError:
        report.problems.append("the flooder was never told flood")
    finally:
        client.close()


async def _players(white: _Client, black: _Client, done: asyncio.Event, report: FuzzReport, patience: float) -> None:
    """White and Black play the model game on from where the host's game is (and agree on a new one at its end)
    until ``done``."""
    try:
        state = await white.read_until(lambda m: m.get("type") == "state", patience)
        assert state is not None
        (game,) = read_pgn(state["pgn"])
        position, ply = game.position, game.ply  # the model game's first moves, played by an earlier run
        if ply == len(FOOLS_MATE):
            await _new_game(white, black, patience)
            position, ply = Position.initial(), 0
        while not done.is_set():
            mover = white if ply % 2 == 0 else black
            move = position.parse_move(FOOLS_MATE[ply])
            message = {"type": "move", "move": str(move), "ply": ply, "draw": False}
            await mover.send_json(message)
            said = await mover.read_until(_played_or_refused, patience)
            if said is None or said.get("type") == "error":
                report.problems.append(f"the real game's move {FOOLS_MATE[ply]} was refused: {said}")
                return
            position.push(move)
            ply += 1
            report.moves_played += 1
            if ply == len(FOOLS_MATE):  # mate: both agree to a new game
                await _new_game(white, black, patience)
                position, ply = Position.initial(), 0
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), 0.5)  # a person's pace between moves
    except (TimeoutError, ConnectionError) as error:
        report.problems.append(f"the real game stalled: {error!r}")
    finally:
        white.close()
        black.close()


async def _new_game(white: _Client, black: _Client, patience: float) -> None:
    await white.send_json({"type": "new_game"})
    await black.read_until(lambda m: (m.get("request") or {}).get("kind") == "new_game", patience)
    await black.send_json({"type": "answer", "to": "new_game", "accept": True})
    await white.read_until(lambda m: (m.get("event") or {}).get("kind") == "new_game", patience)


def _played_or_refused(message: dict[str, Any]) -> bool:
    return message.get("type") == "error" or (message.get("event") or {}).get("kind") == "played"


async def fuzz_host(
    port: int, token: str, *, lines: int, seed: int = 0, watchers: int = 24, patience: float = 20.0
) -> FuzzReport:
    """Send ``lines`` hostile lines to the host on ``port`` (most through ``watchers`` paced watchers, some from
    strangers and a flooder) while two players play; the report says what happened."""
    report = FuzzReport()
    stranger_lines = max(1, lines // 20)
    share, extra = divmod(lines - 3 * stranger_lines, watchers)
    white = await _seated(port, token, "white", f"white-{seed}", patience)
    black = await _seated(port, token, "black", f"black-{seed}", patience)
    seated = [await _seated(port, token, "watch", f"fuzz-{seed}-{n}", patience) for n in range(watchers + 1)]
    done = asyncio.Event()
    game = asyncio.ensure_future(_players(white, black, done, report, patience))
    hostile = [
        _watcher(client, list(hostile_lines(seed * 1000 + n, share + (n < extra))), n, report, patience)
        for n, client in enumerate(seated[:-1])
    ]
    strangers = [_stranger(port, list(hostile_lines(seed * 1000 + 900 + n, stranger_lines)), report, patience)
                 for n in range(3)]  # fmt: skip
    try:
        await asyncio.gather(*hostile, *strangers, _flooder(seated[-1], report, patience))
    finally:
        done.set()
        await game
    return report
