"""The real ``cescacs`` command given hostile arguments (issue 22): a clear error and status 2, nothing raw printed.

A ``--bind`` of 100,000 characters or of bytes that are not UTF-8 reached
``getaddrinfo`` and came back as a traceback (status 1); a ``--data-dir``
holding an OSC 52 clipboard write was printed raw; ``computer:٣`` was level
3; ``serve-ssh --host-key`` read a whole 50 MB file before refusing it.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from cescacs_tui.arguments import decimal, host_name, whole_number
from cescacs_tui.core.safe_text import is_safe
from tests.helpers.terminal import PATIENCE

OSC_52 = "\x1b]52;c;aGVsbG8=\x07"


def cescacs(environment: dict[str, str], *args: str | bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "cescacs_tui", *args],
        capture_output=True,
        env=environment,
        timeout=PATIENCE * 3,
        stdin=subprocess.DEVNULL,
    )


def refused(result: subprocess.CompletedProcess[bytes], words: str) -> None:
    err = result.stderr.decode(errors="replace")
    assert result.returncode == 2, err
    assert "Traceback" not in err and words in err, err
    assert is_safe(err) and b"\x1b" not in result.stderr and result.stdout == b""


@pytest.mark.parametrize(
    "arguments",
    [
        ["host", "--bind", "a" * 100_000],
        ["host", "--bind", b"\xff\xfe"],
        ["host", "--bind", "bad host!"],
        ["host", "--bind", "a" * 64 + ".example"],
        ["serve-ssh", "--host-key", "k", "--bind", "a" * 100_000],
        ["join", "a" * 100_000 + ":7469", "--token", "x" * 16],
        ["join", b"\xff\xfe:7469", "--token", "x" * 16],
    ],
    ids=["host-long", "host-bytes", "host-space", "host-label", "ssh-long", "join-long", "join-bytes"],
)
def test_a_host_name_that_cannot_be_one_is_refused_in_one_line(environment, arguments) -> None:
    refused(cescacs(environment, *arguments), "is not a host name or address")


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["--white", "computer:\u0663"], "is not a player"),
        (["--black", "computer:\u00b3"], "is not a player"),
        (["host", "--port", "\u0667\u0664\u0666\u0669"], "is not a port number"),
        (["join", "127.0.0.1:\u0667\u0664\u0666\u0669", "--token", "x" * 16], "is not an address"),
        (["serve-ssh", "--host-key", "k", "--max-rooms", "\u0663"], "is not a whole number from 1 to 10000"),
        (["serve-ssh", "--host-key", "k", "--max-visitors", "0"], "is not a whole number from 1 to 10000"),
        (["serve-ssh", "--host-key", "k", "--room-minutes", "inf"], "is not a number from 0 to 10080"),
        (["serve-ssh", "--host-key", "k", "--room-minutes", "1e308"], "is not a number from 0 to 10080"),
        (["host", "--time", "\u0663\u0660\u0660"], "TimeControl '٣٠٠' is not understood"),
        (["perft", "\u0663"], "the depth must be a whole number"),
    ],
)
def test_unicode_digits_and_unbounded_numbers_are_refused(environment, arguments, words) -> None:
    refused(cescacs(environment, *arguments), words)


def test_what_argparse_quotes_is_printable(environment) -> None:
    refused(cescacs(environment, "moves", OSC_52), "unrecognized arguments: \u241b]52;c;aGVsbG8=\u2407")
    refused(cescacs(environment, "--lang", OSC_52), "invalid choice")


def test_a_printed_data_directory_cannot_write_to_the_terminal(environment, tmp_path: Path) -> None:
    host = subprocess.Popen(
        [sys.executable, "-m", "cescacs_tui", "host", "--port", "0", "--data-dir", OSC_52],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=environment,
        cwd=tmp_path,
    )
    try:
        assert host.stdout is not None
        first = host.stdout.readline()  # "hosting a game on ...; its files are in <the directory>"
    finally:
        host.terminate()
        host.wait(timeout=PATIENCE)
    assert b"its files are in" in first
    assert b"\x1b" not in first and b"\x07" not in first and "\u241b]52;c;".encode() in first


def test_a_huge_host_key_is_refused_before_it_is_read(environment, tmp_path: Path) -> None:
    pytest.importorskip("asyncssh")
    key = tmp_path / "huge_key"
    with key.open("wb") as handle:
        handle.truncate(50 * 1024 * 1024)  # 50 MB that cost no disk: only its size is looked at
    started = time.monotonic()
    result = cescacs(environment, "serve-ssh", "--host-key", str(key), "--port", "0")
    refused(result, "holds 52428800 bytes: a key file has at most 1048576")
    assert time.monotonic() - started < PATIENCE


def test_the_checks_accept_what_they_should() -> None:
    assert [host_name(name) for name in ("", "127.0.0.1", "::1", "fe80::1%eth0", "localhost", "chess.example.lan.")]
    assert host_name("xn--bcher-kva.example") and host_name("bücher.example")
    assert host_name("a" * 63 + "." + "b" * 63)
    assert whole_number(1, 10)("10") == 10 and decimal(0, 60)("2.5") == 2.5


@pytest.mark.parametrize(
    ("clock", "words"),
    [("5 minutes", "'5 minutes' is not a time control"), ("40/9000", "not supported"), ("300+٣", "not a time control")],
)
def test_a_clock_that_is_no_time_control_is_refused_with_its_reason(environment, clock: str, words: str) -> None:
    refused(cescacs(environment, "--clock", clock), words)


def test_a_clock_cannot_go_with_a_record(environment, tmp_path: Path) -> None:
    record = tmp_path / "game.ctl-pgn"
    record.write_text('[White "A"]\n\n1. E7-E13 *\n', encoding="utf-8")
    refused(cescacs(environment, "--clock", "300", str(record)), "--clock starts a new game")
