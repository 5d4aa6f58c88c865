"""What a player has learnt, kept for the next time: the lessons done and the coordinate drill's best scores.

One small JSON file, ``learning.json`` in the data directory.  Every change re-reads the file and merges into it
(lessons done are a union, best scores a maximum) before writing it atomically, so two cescacs on one data
directory lose neither's progress.  A file that cannot be read (damaged, too large, not a file) is kept aside and
the progress starts again, said once.  Whether a person's progress is kept at all is the visitor policy's to
decide (``Need.PROGRESS``): a store without a path keeps it in memory only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from ..i18n import _
from .storage import RefusedFile, data_dir, keep_aside, read_limited, write_atomic

__all__ = ["PROGRESS_NAME", "Progress", "ProgressStore", "progress_path"]

PROGRESS_NAME: Final = "learning.json"
SIZE_LIMIT: Final = 64 * 1024
"""A progress file is a few hundred bytes; anything larger is not ours."""
_KEY_LIMIT: Final = 40


def progress_path(data: Path | None = None) -> Path:
    """``learning.json`` in ``data`` (default :func:`~cescacs_tui.data.storage.data_dir`)."""
    return (data_dir() if data is None else data) / PROGRESS_NAME


@dataclass(frozen=True)
class Progress:
    """The lessons done (by key) and the best score of each drill (by kind)."""

    lessons: frozenset[str] = frozenset()
    best: dict[str, int] = field(default_factory=dict)

    def merged(self, other: Progress) -> Progress:
        best = dict(self.best)
        for kind, score in other.best.items():
            best[kind] = max(score, best.get(kind, 0))
        return Progress(self.lessons | other.lessons, best)

    def to_json(self) -> str:
        return json.dumps({"lessons": sorted(self.lessons), "best": dict(sorted(self.best.items()))}, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Progress:
        """The progress ``text`` holds; ``ValueError`` if it is not a progress file (only its known, well-formed
        entries are kept: a key is a short string, a score a non-negative integer)."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        lessons = data.get("lessons", [])
        best = data.get("best", {})
        if not isinstance(lessons, list) or not isinstance(best, dict):
            raise ValueError("lessons must be a list and best an object")
        return cls(
            frozenset(key for key in lessons if isinstance(key, str) and len(key) <= _KEY_LIMIT),
            {
                kind: score
                for kind, score in best.items()
                if len(kind) <= _KEY_LIMIT and type(score) is int and 0 <= score < 1_000_000
            },
        )


class ProgressStore:
    """The player's progress, kept in ``path`` (``None``: in memory only, for as long as the process runs)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.problem: str | None = None
        """What went wrong reading or writing the file, if anything (the progress then lives in memory)."""
        self._progress = Progress()
        self._progress = self._read()

    @property
    def progress(self) -> Progress:
        return self._progress

    def _read(self) -> Progress:
        if self.path is None:
            return self._progress
        try:
            return Progress.from_json(read_limited(self.path, SIZE_LIMIT).decode("utf-8"))
        except FileNotFoundError:
            return Progress()
        except (RefusedFile, UnicodeDecodeError, ValueError) as error:
            try:
                kept = keep_aside(self.path)
            except OSError:
                kept = None
            said = _("{name} could not be read ({error}): it is kept aside as {kept}, and the progress starts again")
            self.problem = said.format(name=self.path.name, error=error, kept=kept.name if kept else "?")
            return Progress()
        except OSError as error:
            self.problem = _("{name} could not be read: {error}").format(
                name=self.path.name, error=error.strerror or error
            )
            return Progress()

    def _record(self, change: Progress) -> None:
        self._progress = self._read().merged(self._progress).merged(change)
        if self.path is None:
            return
        try:
            write_atomic(self.path, self._progress.to_json())
        except OSError as error:
            said = _("{name} could not be written: {error}")
            self.problem = said.format(name=self.path.name, error=error.strerror or error)

    def lesson_done(self, key: str) -> None:
        """Keep that the lesson ``key`` is done."""
        self._record(Progress(frozenset({key})))

    def drill_score(self, kind: str, score: int) -> bool:
        """Keep ``score`` of a drill of ``kind`` if it is the best; whether it is a new best."""
        record = score > self._read().merged(self._progress).best.get(kind, 0)
        self._record(Progress(best={kind: score}))
        return record
