"""The coordinator on a real TCP port: tokens, caps, pacing, stalled clients, and a seeded fuzz of hostile lines."""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import write_pgn
from cescacs_tui.remote.coordinator import Coordinator
from cescacs_tui.remote.protocol import MAX_REQUEST_BYTES, LineRefused, parse_request
from cescacs_tui.remote.store import open_store
from cescacs_tui.remote.tcp import HostThread, Limits
from tests.helpers.hostile import hostile_lines
from tests.helpers.remote import TOKEN, LineClient


def served(coordinator: Coordinator, limits: Limits | None = None) -> Iterator[tuple[Coordinator, int]]:
    thread = HostThread(coordinator, "127.0.0.1", 0, limits=limits or Limits())
    port = thread.start()
    try:
        yield coordinator, port
    finally:
        thread.stop()


@pytest.fixture
def host(tmp_path: Path) -> Iterator[tuple[Coordinator, int]]:
    yield from served(Coordinator(Game.new(), token=TOKEN, store=open_store(tmp_path / "room")))


def state_after(client: LineClient, said: str | None = None) -> dict[str, Any]:
    """The next snapshot (the next saying ``said``, if given)."""
    return client.read_until(lambda m: m["type"] == "state" and (said is None or m["said"] == said))


def test_a_client_says_hello_and_gets_its_seat_then_the_game(host: tuple[Coordinator, int]) -> None:
    _, port = host
    client = LineClient(port)
    assert client.hello(name="Ana") == {"type": "welcome", "protocol": 1, "seat": "white", "name": "Ana"}
    state = state_after(client)
    assert state["said"] == "Ana plays White" and '[Variant "C\'escacs"]' in str(state["pgn"])
    client.close()


def test_a_wrong_token_gets_a_reason_and_the_connection_is_closed(host: tuple[Coordinator, int]) -> None:
    coordinator, port = host
    client = LineClient(port)
    answer = client.hello(token="not-the-token-at-all")
    assert answer["type"] == "error" and answer["code"] == "auth" and answer["fatal"] is True
    assert client.closed_by_peer()
    assert coordinator.members == []


def test_the_first_line_must_be_a_hello(host: tuple[Coordinator, int]) -> None:
    _, port = host
    client = LineClient(port)
    client.send_json({"type": "move", "move": "H6-H12", "ply": 0})
    assert client.read()["code"] == "hello_expected"
    assert client.closed_by_peer()


def test_a_connection_that_says_nothing_is_closed() -> None:
    coordinator = Coordinator(Game.new(), token=TOKEN)
    for _, port in served(coordinator, Limits(hello_seconds=0.2)):
        client = LineClient(port)
        assert client.read()["code"] == "hello_expected"
        assert client.closed_by_peer()


def test_a_line_too_long_is_refused_and_the_connection_goes_on(host: tuple[Coordinator, int]) -> None:
    coordinator, port = host
    client = LineClient(port)
    client.hello()
    state_after(client)
    client.send(b"x" * (MAX_REQUEST_BYTES * 3) + b"\n")
    assert client.read()["code"] == "too_long"
    client.send_json({"type": "move", "move": "H6-H12", "ply": 0})
    assert state_after(client)["said"] == "White played H6-H12"
    assert coordinator.game.ply == 1


def test_too_many_lines_too_fast_are_ignored_then_the_connection_is_closed_with_flood() -> None:
    coordinator = Coordinator(Game.new(), token=TOKEN)
    for _, port in served(coordinator, Limits(rate=1.0, burst=5.0, flood_strikes=20)):
        client = LineClient(port)
        client.hello()
        state_after(client)
        client.send(b'{"type":"ping"}\n' * 10)
        answers = [client.read()]
        while answers[-1]["type"] == "pong":  # the burst's pongs
            answers.append(client.read())
        assert len(answers) in (5, 6, 7) and answers[-1]["code"] == "rate_limited"  # then one refusal for the run
        client.send(b'{"type":"ping"}\n' * 100)
        assert client.closed_by_peer()
        assert b'"code":"flood"' in client.buffer and client.buffer.count(b"rate_limited") <= 1


def test_a_flood_is_told_flood_before_the_connection_closes_even_at_full_speed(host: tuple[Coordinator, int]) -> None:
    _, port = host
    client = LineClient(port)
    client.hello()
    state_after(client)
    client.send(b'{"type":"ping"}\n' * 5000)
    assert client.closed_by_peer()
    assert b'"code":"flood"' in client.buffer


def test_strangers_who_never_say_hello_never_take_the_players_places() -> None:
    """Connections that have not said hello are counted apart, a few per address: the newest pushes the oldest
    of its address out, so an idle crowd from one address cannot keep a player out."""
    coordinator = Coordinator(Game.new(), token=TOKEN, max_members=2)
    for _, port in served(coordinator, Limits(max_waiting_per_address=3, max_waiting=5)):
        idle = [LineClient(port) for _ in range(10)]
        player = LineClient(port)
        assert player.hello(name="Ana")["type"] == "welcome"
        pushed_out = [client for client in idle[:7] if client.closed_by_peer()]
        assert len(pushed_out) == 7 and all(b'"code":"full"' in client.buffer for client in pushed_out)
        second = LineClient(port)
        assert second.hello(name="Bo")["type"] == "welcome"
        third = LineClient(port)
        assert third.hello()["code"] == "full"  # the game's own cap counts admitted connections only
        for client in (*idle, player, second, third):
            client.close()


@pytest.mark.slow
def test_a_client_that_does_not_read_is_dropped_and_never_holds_up_the_others() -> None:
    coordinator = Coordinator(Game.new(), token=TOKEN)
    for _, port in served(coordinator, Limits(outbox=4, rate=1e6, burst=1e6)):
        white, black = LineClient(port), LineClient(port)
        white.hello(name="Ana")
        black.hello(name="Bo")
        stalled = socket.socket()
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stalled.connect(("127.0.0.1", port))
        stalled.sendall(json.dumps({"type": "hello", "protocol": 1, "token": TOKEN, "seat": "watch"}).encode() + b"\n")
        white.read_until(lambda m: m["type"] == "state" and m["said"] == "a watcher is watching")
        white.send_json({"type": "move", "move": "H6-H12", "ply": 0})
        state_after(white, "White played H6-H12")
        rounds = 0
        while _watchers(coordinator) and rounds < 2000:  # a takeback asked and declined: two snapshots, no change
            white.send_json({"type": "takeback"})
            black.read_until(lambda m: m["type"] == "state" and m["request"] is not None)
            black.send_json({"type": "answer", "to": "takeback", "accept": False})
            for player in (white, black):
                said = player.read_until(lambda m: m["type"] == "state" and "declines" in str(m["said"]))["said"]
                assert said == "Black declines the takeback"
            rounds += 1
        assert _watchers(coordinator) == 0, "the stalled watcher was never dropped"
        assert rounds > 2, rounds  # dropped once its queue was full, not at once
        black.send_json({"type": "move", "move": "I23-I19", "ply": 1})
        state_after(black, "Black played I23-I19")
        stalled.close()


def _watchers(coordinator: Coordinator) -> int:
    return sum(1 for member in coordinator.members if member.seat.value == "watch")


# --- fuzz --------------------------------------------------------------------------------------------


def _ends_burst(message: dict[str, Any], end: str) -> bool:
    return bool(message["type"] == "error" and end in message["reason"])


def send_in_bursts(client: LineClient, lines: list[bytes], size: int = 30) -> None:
    """Send ``lines`` a burst at a time, reading the answers after each (a client that never reads is dropped)."""
    for start in range(0, len(lines), size):
        end = f"end-of-burst-{start}"
        client.send(b"\n".join(lines[start : start + size]) + f'\n{{"type":"{end}"}}\n'.encode())
        client.read_until(partial(_ends_burst, end=end))


def malformed(line: bytes) -> bool:
    try:
        parse_request(line)
    except LineRefused:
        return True
    return False


@pytest.mark.slow
def test_random_and_malformed_lines_never_crash_the_coordinator_nor_change_the_game(tmp_path: Path) -> None:
    coordinator = Coordinator(Game.new(), token=TOKEN, store=open_store(tmp_path / "room"))
    for _, port in served(coordinator, Limits(rate=1e6, burst=1e6)):
        white, black = LineClient(port), LineClient(port)
        white.hello(client="ana", name="Ana")
        black.hello(client="bo", name="Bo")
        white.send_json({"type": "move", "move": "H6-H12", "ply": 0})
        state_after(white, "White played H6-H12")
        before = (write_pgn(coordinator.game), coordinator.seats.to_options(), coordinator.request)
        watcher = LineClient(port)
        watcher.hello("watch")
        lines = list(hostile_lines(seed=14, count=1500))
        send_in_bursts(watcher, lines)  # a watcher may send anything at all: it can change nothing
        send_in_bursts(black, [line for line in lines if malformed(line)])  # the player to move: junk only
        for seed in range(3):  # strangers with no hello: anything, until they are shown the door
            stranger = LineClient(port)
            with contextlib.suppress(ConnectionError):  # it may be shown the door before it has said it all
                stranger.send(b"\n".join(hostile_lines(seed, 50)) + b"\n")
            assert stranger.closed_by_peer()
        for client in (watcher, black):
            client.send_json({"type": "ping"})
            client.read_until(lambda m: m["type"] == "pong")
        assert (write_pgn(coordinator.game), coordinator.seats.to_options(), coordinator.request) == before
        black.send_json({"type": "move", "move": "I23-I19", "ply": 1})
        assert black.read_until(lambda m: m["type"] == "state" and bool(m["said"]))["said"] == "Black played I23-I19"


# --- liveness ----------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_quiet_client_is_pinged_and_one_that_never_answers_is_dropped_its_seat_left() -> None:
    coordinator = Coordinator(Game.new(), token=TOKEN)
    for _, port in served(coordinator, Limits(silence_seconds=0.9)):
        silent, watcher = LineClient(port), LineClient(port)
        silent.hello("white", name="Ana")
        watcher.hello("watch")
        assert silent.read_until(lambda m: m["type"] == "ping") == {"type": "ping"}
        assert silent.closed_by_peer()
        assert b'"code":"silent"' in silent.buffer
        left = watcher.read_until(lambda m: m["type"] == "state" and m["event"] and m["event"]["kind"] == "left")
        assert left["seats"]["white"] == {"name": "Ana", "held": True, "connected": False}


@pytest.mark.slow
def test_a_client_that_answers_the_pings_stays_however_long_it_is_quiet() -> None:
    coordinator = Coordinator(Game.new(), token=TOKEN)
    for _, port in served(coordinator, Limits(silence_seconds=0.6)):
        client = LineClient(port)
        client.hello("white")
        for _ in range(6):  # six pings: three times the silence allowed, answered each time
            client.read_until(lambda m: m["type"] == "ping")
            client.send_json({"type": "pong"})
        client.send_json({"type": "move", "move": "H6-H12", "ply": 0})
        assert state_after(client, "White played H6-H12")["seats"]["white"]["connected"] is True


def test_a_player_asking_for_a_seat_held_by_a_silent_link_takes_it_over_at_once() -> None:
    """A network gone without a word leaves the old link looking connected: the newcomer's hello pings it, and
    when no answer comes within the answer time the seat is the newcomer's and the old link is told why."""
    coordinator = Coordinator(Game.new(), token=TOKEN)
    for _, port in served(coordinator, Limits(answer_seconds=0.3)):
        old = LineClient(port)
        old.hello("white", client="old-process", name="Ana")
        new = LineClient(port)
        assert new.hello("white", client="new-process", name="Ana")["seat"] == "white"
        assert old.closed_by_peer() and b'"code":"replaced"' in old.buffer
        new.send_json({"type": "move", "move": "H6-H12", "ply": 0})
        assert state_after(new, "White played H6-H12")["seats"]["white"]["connected"] is True


def test_a_seat_whose_link_answers_the_ping_stays_taken() -> None:
    coordinator = Coordinator(Game.new(), token=TOKEN)
    for _, port in served(coordinator, Limits(answer_seconds=5.0)):
        holder = LineClient(port)
        holder.hello("white", client="ana")
        state_after(holder)
        other = LineClient(port)
        other.send_json({"type": "hello", "protocol": 1, "token": TOKEN, "seat": "white", "client": "eve"})
        holder.read_until(lambda m: m["type"] == "ping")
        holder.send_json({"type": "pong"})
        refusal = other.read()
        assert refusal["code"] == "seat_taken" and refusal["fatal"] is True
        assert [m.client for m in coordinator.members] == ["ana"]
