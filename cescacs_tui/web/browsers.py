"""One game per browser: a random identity in a cookie, and a directory of its own for it.

The identity is the only thing that keeps one visitor's game from another's,
so it is 32 random bytes, and a cookie value is used only if it has exactly
the shape :func:`new_browser_id` gives (no path, no dot, no separator can come
through).  Its directory is named after a hash of it, not after the identity
itself: a listing of the server's state directory reveals no cookie.  Each
game started there marks it as seen; :func:`forget_browsers` removes the
folders of browsers not seen for a while (a browser that came once leaves
its folder behind otherwise).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import shutil
import time
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Final

__all__ = ["BROWSER_COOKIE", "Browser", "browser_from_cookie", "forget_browsers", "new_browser_id"]

BROWSER_COOKIE: Final = "cescacs_browser"
AUTH_COOKIE: Final = "cescacs_auth"
_ID_BYTES: Final = 32
_ID_SHAPE: Final = re.compile(r"[A-Za-z0-9_-]{43}")
"""``secrets.token_urlsafe(32)``: 43 characters of the URL-safe base64 alphabet."""
_FOLDER_SHAPE: Final = re.compile(r"[0-9a-f]{32}")
"""A browser's folder: the first 32 hex digits of its identity's hash (nothing else in the state folder is one)."""
SEEN: Final = "seen"
"""The file in a browser's folder whose time is when the browser last started a game."""


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
        """Create its directories, readable by the server's user only, and mark it seen now."""
        self.root.mkdir(mode=0o700, parents=True, exist_ok=True)
        for directory in (self.directory, self.data_dir, self.config_dir):
            directory.mkdir(mode=0o700, exist_ok=True)
        (self.directory / SEEN).touch(mode=0o600)

    def auth_token(self, password: str) -> str:
        """The cookie that says this browser gave the password (bound to it: no use in another browser)."""
        return hmac.new(password.encode("utf-8"), self.id.encode("ascii"), hashlib.sha256).hexdigest()

    def has_auth(self, password: str, token: str | None) -> bool:
        return token is not None and hmac.compare_digest(self.auth_token(password), token)


def forget_browsers(root: Path, seconds: float, keep: Collection[str] = (), *, now: float | None = None) -> int:
    """Remove the folders under ``root`` of browsers not seen for ``seconds`` (their games and settings), except
    the folders named in ``keep`` (browsers playing now); how many were removed.

    Only folders of a browser's shape are looked at, and nothing is followed
    out of them (a symbolic link is removed, never what it points to).
    """
    now = time.time() if now is None else now
    forgotten = 0
    try:
        entries = list(os.scandir(root))
    except OSError:
        return 0
    for entry in entries:
        if not _FOLDER_SHAPE.fullmatch(entry.name) or entry.name in keep or not entry.is_dir(follow_symlinks=False):
            continue
        try:
            seen = os.stat(Path(entry.path) / SEEN, follow_symlinks=False).st_mtime
        except OSError:
            seen = entry.stat(follow_symlinks=False).st_mtime  # a folder made before it was marked
        if now - seen >= seconds:
            shutil.rmtree(entry.path, ignore_errors=True)
            forgotten += 1
    return forgotten
