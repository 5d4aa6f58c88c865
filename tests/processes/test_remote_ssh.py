"""``cescacs serve-ssh`` reached with the system's ``ssh`` client: rooms, keys as seats, visitors refused.

The keys are generated with asyncssh for each test session; each visitor is
the real ``ssh`` in a pseudo-terminal of its own, and the app they see runs,
on the server, in a pseudo-terminal the server relays.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cescacs_tui.data.autosave import read_autosave
from tests.helpers.remote import ServerProcess
from tests.helpers.ssh import make_keys, ssh_command, visit
from tests.helpers.terminal import PATIENCE, POSIX_ONLY, Terminal
from tests.helpers.waiting import until

asyncssh = pytest.importorskip("asyncssh")
pytestmark = [
    POSIX_ONLY,
    pytest.mark.skipif(shutil.which("ssh") is None, reason="the system's ssh client (openssh-client)"),
]


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_keys(tmp_path_factory.mktemp("keys"))


@pytest.fixture
def server(environment: dict[str, str], keys: Path) -> Iterator[ServerProcess]:
    served = ServerProcess(
        environment,
        ["serve-ssh", "--port", "0", "--host-key", str(keys / "host"), "--authorized-keys", str(keys / "allowed")],
    )
    try:
        yield served
    finally:
        served.stop()


def room_moves(data: Path, room: str) -> list[str]:
    saved = read_autosave(data / "rooms" / room / "autosave.json")
    return [] if saved is None else [node.san for node in saved.game.nodes]


def test_two_players_in_one_room_see_each_others_moves_and_the_room_keeps_the_game(
    environment: dict[str, str], keys: Path, server: ServerProcess, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    ana = visit(environment, keys, server, "ana", "room1")
    bo = visit(environment, keys, server, "bo", "room1")
    try:
        ana.wait_for_text("Black: bo ● here")
        bo.wait_for_text("White: ana ● here")
        ana.type_move("h6-h12")
        bo.wait_for("White played H6-H12")
        bo.type_move("i23-i19")
        ana.wait_for("Black played I23-I19")
        ana.read_until(lambda: room_moves(data, "room1") == ["H6-H12", "I23-I19"], "the room's autosave")
        seen = len(ana.output)
        ana.terminal_size(130, 50)  # the window grows: the app on the server redraws for 50 rows
        ana.wait_for("\x1b[50;", since=seen)
    finally:
        ana.close()
        bo.close()


def test_a_key_not_listed_is_refused(keys: Path, server: ServerProcess) -> None:
    result = subprocess.run(
        [*ssh_command(keys, server, "eve"), "room1"], capture_output=True, text=True, timeout=PATIENCE
    )
    assert result.returncode == 255 and "Permission denied (publickey)" in result.stderr


def test_a_dropped_player_gets_the_seat_back_and_a_later_key_only_watches(
    environment: dict[str, str], keys: Path, server: ServerProcess, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    ana = visit(environment, keys, server, "ana", "room2")
    bo = visit(environment, keys, server, "bo", "room2")
    cy: Terminal | None = None
    try:
        ana.type_move("h6-h12")
        bo.wait_for("White played H6-H12")
        ana.process.kill()  # the link drops
        ana.close()
        bo.wait_for("○ away")
        cy = visit(environment, keys, server, "cy", "room2")  # the seat is ana's key's: cy watches
        cy.type_move("i23-i19")
        cy.wait_for("you are watching: only White and Black play")
        ana = visit(environment, keys, server, "ana", "room2")
        ana.wait_for_text("White: ana (you) ● here")
        bo.type_move("i23-i19")
        ana.wait_for("Black played I23-I19")
        assert room_moves(data, "room2") == ["H6-H12", "I23-I19"]
    finally:
        ana.close()
        bo.close()
        if cy is not None:
            cy.close()


def test_without_a_terminal_or_with_a_bad_room_name_the_visitor_is_told_how(keys: Path, server: ServerProcess) -> None:
    for room, words in (("room1", "needs a terminal: ssh -t"), ("no/such$room", "a room is named by")):
        result = subprocess.run(
            [*ssh_command(keys, server, "ana"), room], capture_output=True, text=True, timeout=PATIENCE
        )
        assert result.returncode == 1 and words in result.stdout, result


def test_serve_ssh_refuses_a_missing_host_key_with_status_2(environment: dict[str, str], tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cescacs_tui", "serve-ssh", "--host-key", str(tmp_path / "none")],
        capture_output=True,
        text=True,
        env=environment,
        timeout=PATIENCE,
    )
    assert result.returncode == 2 and "is not a host key file" in result.stderr and "Traceback" not in result.stderr


async def test_a_room_closes_after_it_empties_and_reopens_with_its_game(tmp_path: Path, keys: Path) -> None:
    from cescacs_tui.remote.ssh_server import Full, Hub, ServerOptions

    options = ServerOptions(host_key=keys / "host", data_dir=tmp_path, room_seconds=0.05, max_rooms=1, max_visitors=2)
    hub = Hub(options)
    room = await hub.enter("lobby")
    room.server.coordinator.game.play_text("H6-H12")
    room.server.coordinator.session.save()
    with pytest.raises(Full, match="1 room open already"):
        await hub.enter("other")
    await hub.enter("lobby")
    with pytest.raises(Full, match="2 visitors already"):
        await hub.enter("lobby")
    hub.leave(room)
    hub.leave(room)
    await until(lambda: not hub.rooms, "the empty room to close")
    assert hub.rooms == {}
    again = await hub.enter("lobby")
    assert again is not room and [n.san for n in again.server.coordinator.game.nodes] == ["H6-H12"]
    await hub.close()


async def test_a_visitor_who_comes_while_the_room_is_still_closing_gets_its_game(tmp_path: Path, keys: Path) -> None:
    """The room's close (its game saved, its autosave let go) may still be under way on a loaded machine when the
    next visitor comes: they wait for it, and the room opens again on its game (it said RoomBusy)."""
    from cescacs_tui.remote.ssh_server import Hub, ServerOptions

    hub = Hub(ServerOptions(host_key=keys / "host", data_dir=tmp_path, room_seconds=0.0))
    room = await hub.enter("lobby")
    room.server.coordinator.game.play_text("H6-H12")
    closing = asyncio.Event()
    finish = room.server.close

    async def slow_close() -> None:
        await closing.wait()  # as slow as a starved machine makes it
        await finish()

    room.server.close = slow_close  # type: ignore[method-assign]
    hub.leave(room)
    await until(lambda: room.closed is not None, "the empty room to start closing")
    again = asyncio.ensure_future(hub.enter("lobby"))
    await asyncio.sleep(0)  # the visitor has come (a yield to the loop, not a wait for a time)
    assert not again.done()
    closing.set()
    reopened = await again
    assert reopened is not room and [n.san for n in reopened.server.coordinator.game.nodes] == ["H6-H12"]
    await hub.close()


async def test_connections_beyond_the_cap_are_turned_away_before_they_log_in(tmp_path: Path, keys: Path) -> None:
    from cescacs_tui.remote.ssh_server import ServerOptions, serve_ssh

    stop = asyncio.Event()
    ports: list[int] = []
    options = ServerOptions(host_key=keys / "host", data_dir=tmp_path, port=0, max_connections=1)
    server = asyncio.ensure_future(serve_ssh(options, ready=ports.append, stop=stop))
    await until(lambda: ports, "the server to listen")
    login = {"known_hosts": None, "client_keys": [str(keys / "ana")], "username": "ana", "config": None}
    try:
        async with asyncssh.connect("127.0.0.1", ports[0], **login):
            with pytest.raises((asyncssh.Error, OSError)):
                async with asyncssh.connect("127.0.0.1", ports[0], **login):
                    pass
        async with asyncssh.connect("127.0.0.1", ports[0], **login):  # the first has left: room for one again
            pass
    finally:
        stop.set()
        await server


def test_an_ssh_visitors_lang_chooses_their_language(
    environment: dict[str, str], keys: Path, server: ServerProcess
) -> None:
    """OpenSSH sends ``LANG`` when asked to (``SendEnv``, on by default in Debian's ssh_config): the refusal and
    the visitor's game are in that language, whatever the server speaks."""
    spanish = environment | {"LANG": "es_ES.UTF-8"}
    *options, destination = ssh_command(keys, server, "ana")
    sending = [*options, "-o", "SendEnv=LANG", destination]
    result = subprocess.run([*sending, "no/such$room"], capture_output=True, text=True, timeout=PATIENCE, env=spanish)
    assert result.returncode == 1 and "cescacs: el nombre de una sala tiene de 1 a 32 letras" in result.stdout, result
    terminal = Terminal(spanish, ["-tt", "sala"], live=True, program=sending)
    try:
        terminal.wait_for("Juegan las blancas")
        terminal.wait_for("(vos)")
    finally:
        terminal.close()
