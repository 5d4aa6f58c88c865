"""SSH public keys, the identity of a player on the server: read from OpenSSH's one-line form, and fingerprinted.

A visitor proves they hold a key when they log in (the SSH server checks
that); from then on the key *is* them.  Its fingerprint is OpenSSH's
(``SHA256:`` and the unpadded base64 of the SHA-256 of the key's bytes,
what ``ssh-keygen -lf`` prints), so a player can compare what ``keys``
lists with their own key.  Only the standard public-key algorithms are
taken, and a key's bytes must say the algorithm its line names.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass
from typing import Final

from ..core.message import Message
from ..core.safe_text import printable
from ..i18n import N_

__all__ = ["ALGORITHMS", "KeyRefused", "PublicKey"]

ALGORITHMS: Final = (
    "ssh-ed25519",
    "ecdsa-sha2-nistp256",
    "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521",
    "sk-ssh-ed25519@openssh.com",
    "sk-ecdsa-sha2-nistp256@openssh.com",
    "ssh-rsa",
)
"""The public-key algorithms OpenSSH offers today (DSA keys are long retired)."""
MAX_KEY_BYTES: Final = 4096
"""The largest key taken (a 16,384-bit RSA key is about 2,070 bytes)."""


class KeyRefused(ValueError):
    """A public key the server does not take; :attr:`reason` says why."""

    def __init__(self, reason: Message) -> None:
        super().__init__(str(reason))
        self.reason = reason


@dataclass(frozen=True)
class PublicKey:
    """A public key: its algorithm and its bytes as SSH encodes them."""

    algorithm: str
    blob: bytes

    @classmethod
    def parse(cls, line: str) -> PublicKey:
        """The key of an OpenSSH public-key line (``ssh-ed25519 AAAA... comment``; the comment is dropped)."""
        fields = line.strip().split()
        if len(fields) < 2:
            raise KeyRefused(Message(N_("a public key is a line such as: ssh-ed25519 AAAAC3Nza... you@host")))
        algorithm, encoded = fields[0], fields[1]
        if algorithm not in ALGORITHMS:
            said = N_("{algorithm} keys are not taken: use one of {algorithms}")
            raise KeyRefused(Message(said, algorithm=printable(algorithm, 40), algorithms=", ".join(ALGORITHMS)))
        if len(encoded) > 2 * MAX_KEY_BYTES:
            raise KeyRefused(Message(N_("the key is longer than any key of its kind")))
        try:
            blob = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            raise KeyRefused(Message(N_("the key's text is not base64"))) from None
        return cls.from_blob(algorithm, blob)

    @classmethod
    def from_blob(cls, algorithm: str, blob: bytes) -> PublicKey:
        """The key of these bytes, which must begin with the name of ``algorithm`` (RFC 4253's string)."""
        named = blob[4 : 4 + int.from_bytes(blob[:4], "big")] if len(blob) >= 4 else b""
        if len(blob) > MAX_KEY_BYTES or named != algorithm.encode("ascii") or len(blob) <= 4 + len(named):
            said = N_("the key's bytes are not a {algorithm} key")
            raise KeyRefused(Message(said, algorithm=printable(algorithm, 40)))
        return cls(algorithm, blob)

    @property
    def fingerprint(self) -> str:
        """OpenSSH's fingerprint: ``SHA256:`` and the unpadded base64 of the key's SHA-256."""
        digest = base64.b64encode(hashlib.sha256(self.blob).digest()).decode("ascii")
        return "SHA256:" + digest.rstrip("=")

    @property
    def text(self) -> str:
        """The key as one OpenSSH line, without a comment."""
        return f"{self.algorithm} {base64.b64encode(self.blob).decode('ascii')}"
