"""The remote protocol's checks, framing and pacing: what a peer sends is refused with a reason, or read exactly."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cescacs_tui.core.pieces import Colour
from cescacs_tui.remote.protocol import (
    MAX_REQUEST_BYTES,
    Answer,
    ClockTimes,
    Hello,
    LineBuffer,
    LineRefused,
    MoveRequest,
    Plain,
    RateLimiter,
    Seat,
    SeatView,
    Snapshot,
    clean_name,
    encode,
    parse_request,
)
from tests.helpers.clock import FakeTime


def refused(line: bytes) -> LineRefused:
    with pytest.raises(LineRefused) as caught:
        parse_request(line)
    return caught.value


def test_a_hello_is_read_with_its_seat_name_and_identity() -> None:
    line = encode({"type": "hello", "protocol": 1, "token": "t" * 16, "seat": "black", "name": "Ana", "client": "c1"})
    assert parse_request(line.rstrip(b"\n")) == Hello(1, "t" * 16, Seat.BLACK, "Ana", "c1")
    assert parse_request(b'{"type":"hello","protocol":1,"token":"x"}') == Hello(1, "x", None, "?", "")
    anyone = parse_request(b'{"type":"hello","protocol":1,"token":"x","seat":"any"}')
    assert isinstance(anyone, Hello) and anyone.seat is None


def test_requests_of_every_type_are_read() -> None:
    assert parse_request(b'{"type":"move","move":"H6-H12","ply":0}') == MoveRequest("H6-H12", 0, False)
    assert parse_request(b'{"type":"move","move":"H6-H12","ply":3,"draw":true}') == MoveRequest("H6-H12", 3, True)
    assert parse_request(b'{"type":"answer","to":"draw","accept":false}') == Answer("draw", False)
    for kind in ("takeback", "offer_draw", "claim_draw", "resign", "new_game", "ping"):
        assert parse_request(json.dumps({"type": kind}).encode()) == Plain(kind)
    assert parse_request(b'{"type":"ping","later_field":1}') == Plain("ping")  # unknown fields: later versions


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (b"not json", "bad_json"),
        (b"[1,2]", "bad_json"),
        (b'"hello"', "bad_json"),
        (b'{"no":"type"}', "bad_json"),
        (b'{"type":7}', "bad_json"),
        (b"\xff\xfe{}", "bad_json"),
        (b'{"type":"move","move":"H6-H12","ply":NaN}', "bad_json"),
        (b'{"type":"move","move":"H6-H12","ply":Infinity}', "bad_json"),
        (b"[" * 100_000, "too_long"),
        (b'{"type":"launch_missiles"}', "unknown_type"),
        (b'{"type":"move","move":"H6-H12"}', "bad_field"),
        (b'{"type":"move","move":"H6-H12","ply":true}', "bad_field"),
        (b'{"type":"move","move":"H6-H12","ply":-1}', "bad_field"),
        (b'{"type":"move","move":"H6-H12","ply":1.5}', "bad_field"),
        (b'{"type":"move","move":["H6-H12"],"ply":0}', "bad_field"),
        (b'{"type":"move","move":"H6-H12","ply":0,"draw":"yes"}', "bad_field"),
        (b'{"type":"answer","to":"everything","accept":true}', "bad_field"),
        (b'{"type":"answer","to":"draw","accept":1}', "bad_field"),
        (b'{"type":"hello","protocol":"1","token":"x"}', "bad_field"),
        (b'{"type":"hello","protocol":1,"token":"x","seat":"referee"}', "bad_field"),
        (b'{"type":"hello","protocol":1,"token":3}', "bad_field"),
        (json.dumps({"type": "hello", "protocol": 1, "token": "x" * 300}).encode(), "bad_field"),
    ],
)
def test_malformed_lines_are_refused_with_a_code_and_a_reason(line: bytes, code: str) -> None:
    error = refused(line)
    assert error.code == code
    assert error.reason
    assert not error.fatal
    assert error.message() == {"type": "error", "code": code, "reason": error.reason, "fatal": False}


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (b'{"type":"hello","protocol":1,"token":"\\ud800"}', "bad_json"),
        (b'{"type":"move","move":"H6-H12\\udfff","ply":0}', "bad_json"),
        (b'{"type":"ping","\\ud83d":1}', "bad_json"),
        (b'{"type":"ping","x":[{"y":["\\ud800"]}]}', "bad_json"),
        (b'{"type":"hello","protocol":1,"token":"x","name":"\\udc80Eve"}', "bad_json"),
        (b'{"type":"\\ud800"}', "bad_json"),
        (b'{"type":"move","move":"H6-H12","ply":1e400}', "bad_json"),
        (b'{"type":"move","move":"H6-H12","ply":-1e400}', "bad_json"),
        (b'{"type":"move","move":"H6-H12","ply":99999999999999999999}', "bad_field"),
        (b'{"type":"move","move":"H6-H12","ply":-5}', "bad_field"),
        (b'{"type":"move","move":"H6-H12\\u001b[2J","ply":0}', "bad_field"),
        (b'{"type":"move","move":"H6 H12","ply":0}', "bad_field"),
        (b'{"type":"move","move":"' + b"H" * 40 + b'","ply":0}', "bad_field"),
        (b'{"type":"move","move":"H6-H12","ply":' + b"9" * 4000 + b"}", "bad_field"),
        (b'{"type":"hello","protocol":1,"token":"tok\\u0000en"}', "bad_field"),
        (b'{"type":"hello","protocol":1,"token":"x","client":"id\\u202e"}', "bad_field"),
        (b'{"type":"hello","protocol":99999999999999999999999,"token":"x"}', "bad_field"),
    ],
)
def test_strings_that_are_not_unicode_text_and_absurd_numbers_are_refused(line: bytes, code: str) -> None:
    """A lone surrogate would break the first answer that quotes it (UTF-8 cannot encode one); an infinite or
    absurd number, or a control character in a token, an identity or a move, is refused as the line it is."""
    error = refused(line)
    assert (error.code, error.fatal) == (code, False)
    encode(error.message())  # the refusal itself can always be sent


def test_a_name_keeps_its_letters_and_loses_its_controls() -> None:
    hello = parse_request('{"type":"hello","protocol":1,"token":"x","name":"Àngel\\u0007 ☃"}'.encode())
    assert isinstance(hello, Hello) and hello.name == "Àngel ☃"


def test_deeply_nested_json_is_refused_not_a_crash() -> None:
    line = b'{"type":"ping","x":' + b"[" * 2000 + b"]" * 2000 + b"}"
    assert len(line) <= MAX_REQUEST_BYTES
    assert refused(line).code == "bad_json"


def test_names_from_peers_lose_control_characters_and_markup_is_left_as_text() -> None:
    assert clean_name("Ana\x1b[31m\x07 Bo\n\t") == "Ana [31m Bo"
    assert clean_name("[bold red]x[/]") == "[bold red]x[/]"  # shown as text (rich Text), never parsed as markup
    assert clean_name("\u202eevil\u200b") == "evil"
    assert clean_name("a" * 100) == "a" * 24
    assert clean_name("   ") == "?"
    hello = parse_request(b'{"type":"hello","protocol":1,"token":"x","name":"\\u001b]52;c;AAAA\\u0007Eve"}')
    assert isinstance(hello, Hello) and "\x1b" not in hello.name and "\x07" not in hello.name


def test_a_snapshot_survives_the_round_trip_and_a_bad_one_is_refused() -> None:
    snapshot = Snapshot(
        seq=4,
        pgn='[Variant "C\'escacs"]\n\n*\n',
        clock=ClockTimes(299.5, 300.0, Colour.WHITE, True, False, 300.0, 0.0, None),
        draw_offer=Colour.BLACK,
        request=None,
        white=SeatView("Ana", True, True),
        black=SeatView("Bo", True, False),
        watchers=2,
        said="Black played I23-I19",
    )
    message = json.loads(encode(snapshot.to_json()))
    assert Snapshot.from_json(message) == snapshot
    for field, value in (("seq", "4"), ("pgn", None), ("seats", []), ("draw_offer", "red"), ("watchers", 1.5)):
        with pytest.raises(LineRefused):
            Snapshot.from_json({**message, field: value})
    with pytest.raises(LineRefused):
        Snapshot.from_json({**message, "clock": {**message["clock"], "white": -1}})
    with pytest.raises(LineRefused):
        Snapshot.from_json({**message, "request": {"kind": "takeback", "by": "white", "plies": 9}})
    hostile_seats = {"white": {"name": "\x1bX"}}
    hostile = Snapshot.from_json({**message, "said": "\x1b[2J\x1b]0;pwned\x07gone", "seats": hostile_seats})
    assert "\x1b" not in hostile.said and "\x07" not in hostile.said
    assert hostile.white.name == "X"


def test_lines_are_cut_at_newlines_whatever_the_chunks() -> None:
    buffer = LineBuffer(100)
    assert buffer.feed(b'{"a":1}\n{"b"') == [b'{"a":1}']
    assert buffer.feed(b":2}\r\n\n") == [b'{"b":2}', b""]
    data = b"".join(encode({"type": "ping", "n": n}) for n in range(50))
    pieces: list[bytes | None] = []
    for start in range(0, len(data), 7):
        pieces += buffer.feed(data[start : start + 7])
    assert [json.loads(p or b"")["n"] for p in pieces] == list(range(50))


def test_a_line_beyond_the_limit_is_reported_once_and_never_held_whole() -> None:
    buffer = LineBuffer(10)
    assert buffer.feed(b"x" * 8) == []
    assert buffer.feed(b"x" * 8) == [LineBuffer.TOO_LONG]
    assert buffer.feed(b"y" * 10_000) == []  # still the long line: skipped, not stored
    assert len(buffer._pending) == 0
    assert buffer.feed(b"zz\nok\n") == [b"ok"]
    assert buffer.feed(b"a" * 30 + b"\nfine\n") == [LineBuffer.TOO_LONG, b"fine"]


def test_the_rate_limiter_allows_bursts_then_the_average_rate() -> None:
    clock = FakeTime()
    pace = RateLimiter(2.0, 4.0, time_source=clock)
    assert [pace.allow() for _ in range(6)] == [True] * 4 + [False] * 2
    clock.advance(1.0)
    assert [pace.allow() for _ in range(3)] == [True, True, False]


@pytest.mark.slow
def test_the_protocol_and_the_coordinator_load_without_textual_or_rich() -> None:
    code = (
        "import sys\n"
        "import cescacs_tui.remote.coordinator, cescacs_tui.remote.tcp, cescacs_tui.remote.client\n"
        "import cescacs_tui.remote.port, cescacs_tui.cli.remote\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert result.stdout.strip() == "[]"


def test_every_error_code_the_code_can_send_is_documented() -> None:
    import re
    from pathlib import Path

    root = Path(__file__).parents[2]
    source = "".join(path.read_text(encoding="utf-8") for path in (root / "cescacs_tui" / "remote").glob("*.py"))
    codes = set(re.findall(r'LineRefused\(\s*"(\w+)"', source))
    assert {"auth", "not_your_turn", "too_long", "flood", "closing", "internal"} <= codes
    document = (root / "docs" / "remote-protocol.md").read_text(encoding="utf-8")
    assert sorted(code for code in codes - {"bad_update"} if f"`{code}`" not in document) == []


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["host", "--port", "99999"], "is not a port number"),
        (["host", "--port", "0", "--time", "soon"], "TimeControl 'soon' is not understood"),
        (["host", "--port", "0", "--token", "short"], "a token needs at least 12 characters"),
        (["join", "somewhere", "--token", "x" * 20], "is not an address: write HOST:PORT"),
        (["join", "127.0.0.1:7469"], "a token is needed"),
        (["serve-ssh", "--port", "-1", "--host-key", "k"], "is not a port number"),
    ],
)
def test_remote_commands_refuse_bad_arguments_with_status_2_before_serving(
    arguments: list[str], words: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from cescacs_tui.cli import main

    monkeypatch.delenv("CESCACS_TOKEN", raising=False)
    try:
        status = main(arguments)
    except SystemExit as exit_:  # argparse's own refusals
        status = int(exit_.code or 0)
    assert status == 2
    assert words in capsys.readouterr().err
