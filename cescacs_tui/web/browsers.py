"""One game per browser: a random identity in a cookie, and a directory of its own for it.

The identity is the only thing that keeps one visitor's game from another's,
so it is 32 random bytes, and a cookie value is used only if it has exactly
the shape :func:`new_browser_id` gives (no path, no dot, no separator can come
through).  Its directory is named after a hash of it, not after the identity
itself: a listing of the server's state directory reveals no cookie.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Final

__all__ = ["BROWSER_COOKIE", "Browser", "browser_from_cookie", "new_browser_id"]

BROWSER_COOKIE: Final = "cescacs_browser"
AUTH_COOKIE: Final = "cescacs_auth"
_ID_BYTES: Final = 32
_ID_SHAPE: Final = re.compile(r"[A-Za-z0-9_-]{43}")
"""``secrets.token_urlsafe(32)``: 43 characters of the URL-safe base64 alphabet."""


def new_browser_id() -> str:
    return secrets.token_urlsafe(_ID_BYTES)


def browser_from_cookie(value: str | None) -> str | None:
    """The identity in a cookie, or ``None`` when it is missing or not one this server could have given."""
    if value is None or _ID_SHAPE.fullmatch(value) is None:
        return None
    return value


@dataclass(frozen=True)
class Browser:
    """One browser's identity and where its games and settings are kept under ``root``."""

    id: str
    root: Path

    @property
    def directory(self) -> Path:
        return self.root / hashlib.sha256(self.id.encode("ascii")).hexdigest()[:32]

    @property
    def data_dir(self) -> Path:
        """Its ``CESCACS_DATA_DIR``: autosave, archive."""
        return self.directory / "data"

    @property
    def config_dir(self) -> Path:
        """Its ``CESCACS_CONFIG_DIR``: settings."""
        return self.directory / "config"

    def prepare(self) -> None:
        """Create its directories, readable by the server's user only."""
        self.root.mkdir(mode=0o700, parents=True, exist_ok=True)
        for directory in (self.directory, self.data_dir, self.config_dir):
            directory.mkdir(mode=0o700, exist_ok=True)

    def auth_token(self, password: str) -> str:
        """The cookie that says this browser gave the password (bound to it: no use in another browser)."""
        return hmac.new(password.encode("utf-8"), self.id.encode("ascii"), hashlib.sha256).hexdigest()

    def has_auth(self, password: str, token: str | None) -> bool:
        return token is not None and hmac.compare_digest(self.auth_token(password), token)
