"""What a player has learnt, kept for the next time: one store for the lessons, the drill, the puzzles and the deck.

Everything a learner earns lives in one small JSON file, ``progress.json`` in
the data directory: the lessons done, the coordinate drill's best scores, the
puzzle rating (a Glicko-2 :class:`~.ratings.Rating` with the tries and the
puzzles solved) and the personal deck (the blunders of reviewed games, kept as
puzzles: JSON objects this layer only carries; :mod:`cescacs_tui.learn.deck`
reads them).  What the numbers mean (how a rating moves, which blunder joins
the deck) is :mod:`cescacs_tui.learn`'s; this module only keeps them.

**Two processes, one file.**  Every change is a function of the progress
(:data:`Change`), applied by :meth:`ProgressStore.update` to the file as it
is *now*: the store takes the file's lock (:func:`~.lock.exclusive`), reads
the file again, applies the change, writes the result atomically and lets go.
So a deck entry added by a review in one ``cescacs`` while another rates a
puzzle is kept with the new rating, and two ratings in a row both count.  A
change that cannot be written (a full disk) is kept in memory and applied
again with the next one.

**Migration.**  Earlier versions kept ``learning.json`` (lessons, drill),
``puzzles.json`` (rating) and ``my-puzzles.jsonl`` (the deck).  While
``progress.json`` does not exist, those are read instead, and the first change
writes them all into it; the old files are left as they are (an earlier
version still finds its own).

A file that cannot be read (damaged, too large, not a file) is kept aside and
the progress starts again, said once.  Whether a person's progress is kept at
all is the visitor policy's to decide (``Need.PROGRESS``): :class:`MemoryProgress`
keeps it in memory only.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final, Protocol

from ..i18n import _
from .lock import exclusive
from .ratings import MAX_DEVIATION, Rating
from .storage import RefusedFile, data_dir, keep_aside, read_limited, write_atomic

__all__ = [
    "FORMER_NAMES",
    "PROGRESS_NAME",
    "Change",
    "MemoryProgress",
    "Progress",
    "ProgressFile",
    "ProgressStore",
    "PuzzleStanding",
    "drill_score",
    "lesson_done",
    "progress_path",
    "progress_store",
]

PROGRESS_NAME: Final = "progress.json"
FORMER_NAMES: Final = ("learning.json", "puzzles.json", "my-puzzles.jsonl")
"""The files earlier versions kept the progress in (lessons and drill, rating, deck), read while there is no
:data:`PROGRESS_NAME`."""
SIZE_LIMIT: Final = 4 * 1024 * 1024
"""A progress file is at most a thousand puzzles of the deck (some 300 KB); anything much larger is not ours."""
_KEY_LIMIT: Final = 40
_DECK_LIMIT: Final = 5000
"""The most deck entries read (the deck keeps fewer: :data:`cescacs_tui.learn.deck.MAX_DECK`)."""


def progress_path(data: Path | None = None) -> Path:
    """``progress.json`` in ``data`` (default :func:`~cescacs_tui.data.storage.data_dir`)."""
    return (data_dir() if data is None else data) / PROGRESS_NAME


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _count(value: object) -> bool:
    return type(value) is int and 0 <= value < 10**9


@dataclass(frozen=True)
class PuzzleStanding:
    """A player's puzzle rating, the puzzles tried and those solved."""

    rating: Rating = field(default_factory=Rating)
    tried: int = 0
    solved: int = 0

    def to_dict(self) -> dict[str, float | int]:
        rating = self.rating
        return {"rating": rating.rating, "deviation": rating.deviation, "volatility": rating.volatility,
                "tried": self.tried, "solved": self.solved}  # fmt: skip

    @classmethod
    def from_dict(cls, data: object) -> PuzzleStanding:
        """The standing ``data`` holds; ``ValueError`` saying what is wrong (a hand-edited file cannot make the
        next result overflow)."""
        if not isinstance(data, dict):
            raise ValueError("the puzzle rating is not a JSON object")
        value, deviation, volatility = (data.get(k) for k in ("rating", "deviation", "volatility"))
        tried, solved = data.get("tried"), data.get("solved")
        if not (_number(value) and _number(deviation) and _number(volatility)):
            raise ValueError("rating, deviation and volatility are numbers")
        if not (_count(tried) and _count(solved)):
            raise ValueError("tried and solved are counts")
        rating = Rating(float(value), float(deviation), float(volatility))  # type: ignore[arg-type]
        if not (0 <= rating.rating <= 5000 and 0 < rating.deviation <= MAX_DEVIATION and 0 < rating.volatility <= 1):
            raise ValueError("the rating is out of range")
        return cls(rating, tried, solved)  # type: ignore[arg-type]


def _deck_entry(entry: object) -> bool:
    """Whether ``entry`` may be a puzzle of the deck: a JSON object with a short string ``id`` (the rest is
    :mod:`cescacs_tui.learn`'s to check)."""
    if not isinstance(entry, dict):
        return False
    ident = entry.get("id")
    return isinstance(ident, str) and 0 < len(ident) <= _KEY_LIMIT


@dataclass(frozen=True)
class Progress:
    """The lessons done (by key), the best score of each drill (by kind), the puzzle standing and the personal
    deck (puzzles as JSON objects, oldest first)."""

    lessons: frozenset[str] = frozenset()
    best: Mapping[str, int] = field(default_factory=dict)
    puzzles: PuzzleStanding = field(default_factory=PuzzleStanding)
    deck: tuple[Mapping[str, Any], ...] = ()

    def with_lesson(self, key: str) -> Progress:
        return replace(self, lessons=self.lessons | {key})

    def with_score(self, kind: str, score: int) -> Progress:
        """The best score of ``kind`` is the higher of the one kept and ``score``."""
        return replace(self, best={**self.best, kind: max(score, self.best.get(kind, 0))})

    def to_json(self) -> str:
        """The file's text: one deck entry a line, so the file stays readable and small."""
        compact = {"ensure_ascii": False, "separators": (",", ":")}
        deck = ",\n".join("  " + json.dumps(dict(entry), **compact) for entry in self.deck)  # type: ignore[arg-type]
        return (
            "{\n"
            f' "lessons": {json.dumps(sorted(self.lessons))},\n'
            f' "best": {json.dumps(dict(sorted(self.best.items())))},\n'
            f' "puzzles": {json.dumps(self.puzzles.to_dict())},\n'
            f' "deck": [{chr(10) + deck + chr(10) + " " if deck else ""}]\n'
            "}\n"
        )

    @classmethod
    def from_json(cls, text: str) -> Progress:
        """The progress ``text`` holds (``progress.json``, or ``learning.json`` of earlier versions); ``ValueError``
        if it is not a progress file.  Only the well-formed lessons, scores and deck entries are kept; a puzzle
        rating out of range makes the whole file unusable."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        lessons, best, deck = data.get("lessons", []), data.get("best", {}), data.get("deck", [])
        if not isinstance(lessons, list) or not isinstance(best, dict) or not isinstance(deck, list):
            raise ValueError("lessons and deck must be lists and best an object")
        return cls(
            frozenset(key for key in lessons if isinstance(key, str) and len(key) <= _KEY_LIMIT),
            {
                kind: score
                for kind, score in best.items()
                if len(kind) <= _KEY_LIMIT and type(score) is int and 0 <= score < 1_000_000
            },
            PuzzleStanding.from_dict(data["puzzles"]) if "puzzles" in data else PuzzleStanding(),
            tuple(entry for entry in deck[:_DECK_LIMIT] if _deck_entry(entry)),
        )


Change = Callable[[Progress], Progress]
"""A change to a player's progress: the progress after it, from the progress before (a pure function: it may be
applied again to a newer progress read from the file)."""


class ProgressStore(Protocol):
    """Where a player's progress is kept, as the data layer's other stores: front ends and :mod:`cescacs_tui.learn`
    ask it through this protocol, whatever keeps it.

    ``notices`` are what happened reading it (a damaged file kept aside), for a front end to say once.
    """

    notices: list[str]

    @property
    def progress(self) -> Progress:
        """The progress as this store last read or changed it."""

    @property
    def problem(self) -> str | None:
        """Why the last change is not kept (the file could not be written); ``None`` once one is."""

    def update(self, change: Change) -> Progress:
        """Apply ``change`` to the progress as it is kept now, keep the result (it is :attr:`progress` then) and
        return the progress *before* it.  Never raises: :attr:`problem` says what failed."""


class MemoryProgress:
    """A progress kept nowhere, for as long as the process runs (a visitor the policy keeps no files for, a test)."""

    def __init__(self, progress: Progress | None = None) -> None:
        self.notices: list[str] = []
        self._progress = progress or Progress()

    @property
    def progress(self) -> Progress:
        return self._progress

    @property
    def problem(self) -> str | None:
        return None

    def update(self, change: Change) -> Progress:
        before, self._progress = self._progress, change(self._progress)
        return before


class ProgressFile:
    """The progress in the file ``path`` (``progress.json``), shared with any other process on the same data
    directory (see the module's docstring); ``patience`` is how long a change waits for another's."""

    def __init__(self, path: Path, *, patience: float = 5.0) -> None:
        self.path = path
        self.patience = patience
        self.notices: list[str] = []
        self._problem: str | None = None
        self._pending: list[Change] = []
        try:
            with exclusive(path, patience=patience):
                self._progress = self._read(locked=True)
        except OSError:  # a folder that cannot be locked (read-only): read only, never keep anything aside
            self._progress = self._read(locked=False)

    @property
    def progress(self) -> Progress:
        return self._progress

    @property
    def problem(self) -> str | None:
        return self._problem

    def update(self, change: Change) -> Progress:
        self._pending.append(change)
        before = self._progress
        try:
            with exclusive(self.path, patience=self.patience):
                current = before = self._read(locked=True)
                for each in self._pending:
                    current = each(current)
                write_atomic(self.path, current.to_json())
        except OSError as error:
            self._progress = change(self._progress)
            said = _("{name} could not be written: {error}")
            self._problem = said.format(name=self.path.name, error=error.strerror or error)
            return before
        self._pending.clear()
        self._progress = current
        self._problem = None
        return before

    def _read(self, *, locked: bool) -> Progress:
        """The progress in the file (the former files while it does not exist); a damaged file is kept aside if
        this process holds the lock (else another may just have replaced it with a good one)."""
        try:
            return Progress.from_json(read_limited(self.path, SIZE_LIMIT).decode("utf-8"))
        except FileNotFoundError:
            return self._former()
        except (RefusedFile, UnicodeDecodeError, ValueError, RecursionError) as error:
            if not locked:
                self._unreadable(self.path, error)
                return Progress()
            try:
                kept = keep_aside(self.path)
            except OSError:
                kept = None
            said = _("{name} could not be read ({error}): it is kept aside as {kept}, and the progress starts again")
            self._notice(said.format(name=self.path.name, error=error, kept=kept.name if kept else "?"))
            return Progress()
        except OSError as error:
            self._unreadable(self.path, error)
            return Progress()

    def _former(self) -> Progress:
        """What earlier versions kept beside ``progress.json``: lessons and drill, rating, deck (each file that
        cannot be read is said and left as it is)."""
        learning, rating, deck = (self.path.with_name(name) for name in FORMER_NAMES)
        progress = Progress()
        if (text := self._former_text(learning)) is not None:
            try:
                progress = Progress.from_json(text)
            except (ValueError, RecursionError) as error:
                self._unreadable(learning, error)
        if (text := self._former_text(rating)) is not None:
            try:
                progress = replace(progress, puzzles=PuzzleStanding.from_dict(json.loads(text)))
            except (ValueError, RecursionError) as error:
                self._unreadable(rating, error)
        if (text := self._former_text(deck)) is not None:
            entries = []
            for line in text.splitlines():
                try:
                    entry = json.loads(line)
                except (ValueError, RecursionError):
                    continue  # the deck's reader says which puzzle is wrong; a line that is not JSON is not carried
                if _deck_entry(entry):
                    entries.append(entry)
            progress = replace(progress, deck=tuple(entries[-_DECK_LIMIT:]))
        return progress

    def _former_text(self, path: Path) -> str | None:
        """The text of a former file (``None``: there is none, or it cannot be read, which is said)."""
        try:
            return read_limited(path, SIZE_LIMIT).decode("utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as error:
            self._unreadable(path, error)
            return None

    def _unreadable(self, path: Path, error: Exception) -> None:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        self._notice(_("{name} could not be read: {error}").format(name=path.name, error=reason))

    def _notice(self, said: str) -> None:
        if said not in self.notices:  # said once, however often the file is read
            self.notices.append(said)


def progress_store(path: Path | None) -> ProgressStore:
    """The store of the progress kept in ``path`` (``None``: in memory only, as the visitor policy may decide)."""
    return MemoryProgress() if path is None else ProgressFile(path)


def lesson_done(store: ProgressStore, key: str) -> None:
    """Keep that the lesson ``key`` is done."""
    store.update(lambda progress: progress.with_lesson(key))


def drill_score(store: ProgressStore, kind: str, score: int) -> bool:
    """Keep ``score`` of a drill of ``kind`` if it is the best; whether it is a new best (of every process's)."""
    before = store.update(lambda progress: progress.with_score(kind, score))
    return score > before.best.get(kind, 0)
