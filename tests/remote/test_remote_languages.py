"""Remote play in each player's language: what happened travels as data (an event, an error code), and each
client says it in its own language, whatever the host speaks; the protocol's words stay English."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cescacs_tui import i18n
from cescacs_tui.core.game import Game
from cescacs_tui.core.pieces import Colour
from cescacs_tui.remote.coordinator import Coordinator
from cescacs_tui.remote.port import RemoteGame
from cescacs_tui.remote.protocol import Event, EventKind, Snapshot
from cescacs_tui.remote.ssh_server import visitor_language
from cescacs_tui.remote.words import event_words, refusal_words
from cescacs_tui.session import GameSession
from tests.helpers.games import FOOLS_MATE
from tests.helpers.remote import TOKEN, HostProcess, LineClient, canonical, move, request, seat
from tests.helpers.terminal import POSIX_ONLY, Terminal, terminal_environment


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def connected() -> RemoteGame:
    """The port of a client's session, its link up (its requests go nowhere)."""
    remote = RemoteGame(lambda message: True)
    GameSession(port=remote)
    return remote


def client(peer_lines: list[dict[str, object]], colour: str) -> tuple[RemoteGame, list[str]]:
    """A client's port that received ``peer_lines``; what it said, in the interface's language now."""
    remote = connected()
    remote.link_changed(True)
    said = []
    for line in peer_lines:
        feedback = remote.receive(line)
        if feedback.text:
            said.append(feedback.text)
    assert remote.seat is not None and remote.seat.value == colour
    return remote, said


def test_a_host_in_catalan_and_a_guest_in_spanish_each_read_their_own_words() -> None:
    i18n.set_language("ca")  # the coordinator's process speaks Catalan
    coordinator = Coordinator(Game.new(), token=TOKEN)
    white, white_peer = seat(coordinator, "white", name="Ana")
    black, black_peer = seat(coordinator, "black", name="Bo")
    heard: list[str] = []
    coordinator.on_said = heard.append
    move(coordinator, white, "H6-H12", draw=True)
    assert request(coordinator, black, {"type": "answer", "to": "draw", "accept": False}) is None
    for text in FOOLS_MATE[1:]:
        assert move(coordinator, white if coordinator.game.position.turn is Colour.WHITE else black, text) is None
    assert heard[0] == "Les blanques han jugat H6-H12 i ofereixen taules"  # the host reads Catalan
    assert heard[-1].startswith("Les negres han jugat GL5-H6#") and "0-3: les negres fan mat" in heard[-1]
    assert black_peer.last["event"]["kind"] == "played"  # the protocol's own words stay English
    assert black_peer.states[0]["event"] == {
        "kind": "joined", "colour": "black", "name": "Bo", "moves": "", "count": 0, "draw": False,
    }  # fmt: skip

    i18n.set_language("es")  # the guest's process speaks Spanish
    _, said = client(black_peer.lines, "black")
    assert said[:4] == [
        "jugáis con las negras",
        "Bo juega con las negras",
        "Las blancas han jugado H6-H12 y ofrecen tablas",
        "Las negras rechazan las tablas",
    ]
    assert said[-1].startswith("Las negras han jugado GL5-H6#") and said[-1].endswith("0-3: las negras dan mate")
    i18n.set_language("en")
    _, said = client(white_peer.lines, "white")
    assert said[1:4] == ["Ana plays White", "Bo plays Black", "White played H6-H12 and offers a draw"]


def test_an_error_is_worded_from_its_code_and_an_unknown_one_keeps_its_reason() -> None:
    i18n.set_language("ca")
    assert refusal_words("not_your_turn", "it is White's turn") == "no és el vostre torn"
    assert refusal_words("auth", "wrong token: ask the host") == (
        "testimoni incorrecte: demaneu a l'amfitrió l'ordre per unir-vos-hi"
    )
    assert refusal_words("a_later_code", "some reason") == "el coordinador ho ha refusat: some reason"
    line = {"type": "error", "code": "stale", "reason": "the game changed before your move arrived", "fatal": False}
    assert connected().receive(line).text == "la partida ha canviat abans que arribés la vostra jugada: no s'ha jugat"


def _state(event: object, said: str = "White played H6-H12") -> dict[str, object]:
    game = Coordinator(Game.new(), token=TOKEN)
    snapshot = game.snapshot(said).to_json()
    return {**snapshot, "seq": 5, "event": event}


@pytest.mark.parametrize(
    "event",
    [
        None,
        "played",
        {"kind": "a_later_kind", "colour": "white"},
        {"kind": "played", "colour": "green", "moves": "H6-H12"},
        {"kind": "played", "colour": "white", "moves": 12},
        {"kind": "took_back", "colour": "white", "count": 10**9},
        {"kind": "played", "colour": "white", "draw": "yes"},
    ],
)
def test_an_event_this_client_cannot_read_leaves_the_coordinators_words(event: object) -> None:
    i18n.set_language("es")
    snapshot = Snapshot.from_json(_state(event))  # never a reason to refuse the snapshot
    assert snapshot.event is None
    assert connected().receive(_state(event)).text == "White played H6-H12"


def test_an_event_is_data_whose_text_is_cleaned_like_every_peers_text() -> None:
    event = Event(EventKind.JOINED, Colour.BLACK, "Bo")
    assert Event.from_json(json.loads(json.dumps(event.to_json()))) == event
    hostile = {"kind": "joined", "colour": "black", "name": "\x1b[31mEve\x07" + "x" * 100}
    read = Event.from_json(hostile)
    assert read is not None and "\x1b" not in read.name and "\x07" not in read.name and len(read.name) <= 24
    i18n.set_language("ca")
    assert event_words(Event(EventKind.JOINED, None, "")) == "un espectador mira la partida"
    assert event_words(Event(EventKind.TOOK_BACK, Colour.BLACK, count=2)) == (
        "Les negres hi estan d'acord: les blanques han desfet 2 mitges jugades"
    )


@pytest.mark.parametrize(
    ("sent", "language"),
    [
        ({"LANG": "ca_ES.UTF-8"}, "ca"),
        ({"LC_ALL": "es_ES.UTF-8", "LANG": "ca_ES.UTF-8"}, "es"),
        ({"LANG": "de_DE.UTF-8"}, None),
        ({"LANG": "C"}, None),
        ({}, None),
        ({"LANG": "ca" + "x" * 10000}, None),
        ({"PATH": "/evil", "LC_MESSAGES": "es"}, "es"),
    ],
)
def test_an_ssh_visitors_locale_chooses_the_language_only_among_the_interfaces(
    sent: dict[str, str], language: str | None
) -> None:
    assert visitor_language(sent) == language


# --- the real commands ------------------------------------------------------------------------------


@pytest.mark.slow
@POSIX_ONLY
def test_a_catalan_host_and_a_spanish_player_in_a_terminal(tmp_path: Path) -> None:
    environment = terminal_environment(tmp_path)
    for variable in (*i18n.LOCALE_VARIABLES, "LANGUAGE"):
        environment.pop(variable, None)
    host = HostProcess(environment, ["--lang", "ca"])
    try:
        host.wait_for(b"cescacs: s'acull una partida a 127.0.0.1:")
        spanish = Terminal(
            environment | {"LANG": "es_ES.UTF-8"},
            [*host.join_args, "--as", "white", "--name", "Ana"],
            live=True,
        )
        try:
            spanish.wait_for("Juegan las blancas")
            spanish.wait_for("(vos)")  # the seats line, in Spanish
            black = LineClient(host.port)
            black.hello("black", name="Bo")
            spanish.wait_for("Bo juega con las negras")
            host.wait_for(b"cescacs: Bo juga amb les negres")
            spanish.type("/h6-h12\r")
            black.read_until(lambda m: m.get("type") == "state" and m.get("event", {}).get("kind") == "played")
            position = Coordinator(Game.new(), token=TOKEN)
            move(position, seat(position, "white")[0], "H6-H12")
            black.send_json({"type": "move", "move": canonical(position, "I23-I19"), "ply": 1, "draw": False})
            spanish.wait_for("Las negras han jugado I23-I19")
            host.wait_for(b"cescacs: Les negres han jugat I23-I19")
            black.close()
        finally:
            spanish.close()
    finally:
        host.stop()
