"""Files that must survive a crash: saved games, the autosave, settings.

Every write goes to a temporary file in the same directory, is flushed to
disk, and then atomically renamed over the target: a process killed at any
moment leaves either the old file or the new one, never half of one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from platformdirs import user_config_dir, user_data_dir

APP_NAME = "cescacs-tui"


def data_dir() -> Path:
    """Where the autosave lives (``$CESCACS_DATA_DIR`` overrides it, for tests and portable installs)."""
    override = os.environ.get("CESCACS_DATA_DIR")
    return Path(override) if override else Path(user_data_dir(APP_NAME, appauthor=False))


def config_dir() -> Path:
    """Where settings live (``$CESCACS_CONFIG_DIR`` overrides it)."""
    override = os.environ.get("CESCACS_CONFIG_DIR")
    return Path(override) if override else Path(user_config_dir(APP_NAME, appauthor=False))


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) so that readers never see a partial file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
