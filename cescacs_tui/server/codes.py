"""One-time codes: invitations to register, and links that add a key to an account.

A code is typed by a person (read aloud, copied from a mail), so it is
written in Crockford's base 32 (no ``I``, ``L``, ``O`` or ``U``; read back
case-insensitively, ``O`` as ``0`` and ``I``/``L`` as ``1``) in groups of
four: ``K7PM-3QXD-9RTA`` (60 random bits).  The storage keeps only its
SHA-256, so a copy of the database gives nobody a code that still works.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Final

__all__ = ["code_digest", "new_code"]

ALPHABET: Final = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
GROUPS: Final = 3
_READ_AS: Final = str.maketrans({"O": "0", "I": "1", "L": "1"})


def new_code() -> str:
    """A new random code, ``XXXX-XXXX-XXXX``."""
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(4)) for _ in range(GROUPS))


def code_digest(text: str) -> str:
    """What the storage keeps of a code as a person typed it: spaces, hyphens and case do not matter."""
    normal = "".join(text.split()).replace("-", "").upper().translate(_READ_AS)
    return hashlib.sha256(normal.encode("utf-8", "replace")).hexdigest()
