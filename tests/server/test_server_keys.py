"""SSH public keys (server/keys.py) as OpenSSH writes and fingerprints them, and one-time codes (server/codes.py)."""

from __future__ import annotations

import base64
import shutil
import subprocess
from pathlib import Path

import pytest

from cescacs_tui.server.codes import ALPHABET, code_digest, new_code
from cescacs_tui.server.keys import KeyRefused, PublicKey


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="OpenSSH's ssh-keygen is not installed")
@pytest.mark.parametrize("kind", ["ed25519", "ecdsa", "rsa"])
def test_a_key_reads_as_openssh_writes_it_and_has_the_fingerprint_ssh_keygen_prints(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "key"
    subprocess.run(["ssh-keygen", "-q", "-t", kind, "-N", "", "-C", "me@host", "-f", str(path)], check=True)
    line = path.with_suffix(".pub").read_text()
    key = PublicKey.parse(line)
    printed = subprocess.run(["ssh-keygen", "-lf", str(path.with_suffix(".pub"))], capture_output=True, text=True)
    assert key.fingerprint == printed.stdout.split()[1]
    assert key.text == " ".join(line.split()[:2])


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("", "a public key is a line such as"),
        ("ssh-ed25519", "a public key is a line such as"),
        ("ssh-dss AAAAB3NzaC1kc3M=", "ssh-dss keys are not taken"),
        ("ssh-ed25519 not!base64", "not base64"),
        ("ssh-ed25519 " + base64.b64encode(b"\0\0\0\x07ssh-rsa" + b"x" * 40).decode(), "not a ssh-ed25519 key"),
        ("ssh-ed25519 " + base64.b64encode(b"\0\0\0\x0bssh-ed25519").decode(), "not a ssh-ed25519 key"),
        ("ssh-ed25519 " + "A" * 9000, "longer than any key"),
        ("\x1b[2Jssh-evil AAAA", "␛[2Jssh-evil keys are not taken"),
    ],
)
def test_a_line_that_is_no_public_key_is_refused_with_its_reason(line: str, reason: str) -> None:
    with pytest.raises(KeyRefused) as refused:
        PublicKey.parse(line)
    assert reason in str(refused.value)


def test_codes_are_typed_by_people_in_any_case_with_or_without_hyphens() -> None:
    code = new_code()
    assert len(code) == 14 and code.count("-") == 2 and set(code.replace("-", "")) <= set(ALPHABET)
    assert code_digest(code) == code_digest(code.lower().replace("-", " "))
    assert code_digest("0O1IL") == code_digest("00111")
    assert code_digest(code) != code_digest(new_code())
