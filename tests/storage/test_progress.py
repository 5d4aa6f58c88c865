"""The player's one progress file: lessons, drill, puzzle rating and deck merged across processes under a lock, the
files of earlier versions read while it is absent, a damaged one kept aside, a failed write kept for the next, where
the policy says."""

from __future__ import annotations

import errno
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cescacs_tui.data import progress as progress_module
from cescacs_tui.data import storage as storage_module
from cescacs_tui.data.lock import LockUnavailable, exclusive
from cescacs_tui.data.progress import (
    SIZE_LIMIT,
    MemoryProgress,
    Progress,
    ProgressFile,
    PuzzleStanding,
    drill_score,
    lesson_done,
    progress_path,
    progress_store,
)
from cescacs_tui.data.ratings import Rating
from cescacs_tui.session.policy import LaunchKind, Policy
from tests.helpers.waiting import PATIENCE

RATED = PuzzleStanding(Rating(1612.5, 80.0, 0.06), 7, 4)
ENTRY = {"id": "Mabc", "pdtl": "x", "moves": ["A1-A2"], "themes": [], "rating": 1200}


def rated(progress: Progress) -> Progress:
    """A puzzle result, as the trainer's is: applied to the standing kept at that moment."""
    standing = progress.puzzles
    return Progress(progress.lessons, progress.best, PuzzleStanding(standing.rating, standing.tried + 1), progress.deck)


def with_entry(entry: dict[str, object]) -> progress_module.Change:
    return lambda progress: Progress(progress.lessons, progress.best, progress.puzzles, (*progress.deck, entry))


def test_two_stores_on_one_file_keep_what_each_has_done(tmp_path: Path) -> None:
    path = progress_path(tmp_path)
    first, second = ProgressFile(path), ProgressFile(path)
    lesson_done(first, "king")
    lesson_done(second, "queen")
    assert drill_score(second, "name", 12)
    assert not drill_score(first, "name", 7)  # the other's 12 is the best
    assert ProgressFile(path).progress == Progress(frozenset({"king", "queen"}), {"name": 12})


def test_a_deck_entry_added_elsewhere_survives_a_rating_kept_here(tmp_path: Path) -> None:
    path = progress_path(tmp_path)
    puzzles = ProgressFile(path)  # `cescacs puzzles`, started first
    review = ProgressFile(path)  # `cescacs review` adds a blunder meanwhile
    review.update(with_entry(ENTRY))
    puzzles.update(rated)
    puzzles.update(rated)
    kept = ProgressFile(path).progress
    assert kept.deck == (ENTRY,) and kept.puzzles.tried == 2
    assert puzzles.progress == kept  # the store shows what is kept now, the other's entry too


def test_the_whole_progress_goes_to_the_file_and_back(tmp_path: Path) -> None:
    path = progress_path(tmp_path)
    whole = Progress(frozenset({"king", "rook"}), {"name": 5}, RATED, (ENTRY, {**ENTRY, "id": "Mdef", "é": "ü"}))
    ProgressFile(path).update(lambda _progress: whole)
    assert ProgressFile(path).progress == whole
    assert len(path.read_text(encoding="utf-8").splitlines()) == 9  # one deck entry a line


def test_the_files_of_earlier_versions_are_read_while_there_is_none_and_carried_over(tmp_path: Path) -> None:
    (tmp_path / "learning.json").write_text(json.dumps({"lessons": ["king"], "best": {"name": 4}}), encoding="utf-8")
    (tmp_path / "puzzles.json").write_text(json.dumps(RATED.to_dict()), encoding="utf-8")
    deck = [ENTRY, "not an object", {"id": 3}, {**ENTRY, "id": "Mdef"}]
    text = "\n".join(json.dumps(entry) for entry in deck) + "\n{not json\n"
    (tmp_path / "my-puzzles.jsonl").write_text(text, encoding="utf-8")
    path = progress_path(tmp_path)
    store = progress_store(path)
    former = Progress(frozenset({"king"}), {"name": 4}, RATED, (ENTRY, {**ENTRY, "id": "Mdef"}))
    assert store.progress == former and store.notices == []
    assert not path.exists()  # read, not written, until something changes
    lesson_done(store, "rook")
    assert ProgressFile(path).progress == Progress(former.lessons | {"rook"}, former.best, former.puzzles, former.deck)
    (tmp_path / "learning.json").write_text(json.dumps({"lessons": ["queen"]}), encoding="utf-8")
    assert "queen" not in ProgressFile(path).progress.lessons  # the new file is the one read once it exists
    assert (tmp_path / "puzzles.json").exists()  # the old files are left as they were


def test_a_damaged_former_file_is_said_and_the_others_are_still_read(tmp_path: Path) -> None:
    (tmp_path / "learning.json").write_text(json.dumps({"lessons": ["king"]}), encoding="utf-8")
    (tmp_path / "puzzles.json").write_text('{"rating": 1e308}', encoding="utf-8")
    store = ProgressFile(progress_path(tmp_path))
    assert store.progress == Progress(frozenset({"king"}))
    assert len(store.notices) == 1 and "puzzles.json" in store.notices[0]


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b"[1, 2]",
        b'{"lessons": 3}',
        b"\xff\xfe",
        b"x" * (SIZE_LIMIT + 1),
        b'{"puzzles": {"rating": 1500, "deviation": 0, "volatility": 0.06, "tried": 1, "solved": 1}}',
        b'{"puzzles": {"rating": true, "deviation": 50, "volatility": 0.06, "tried": 1, "solved": 1}}',
        b'{"puzzles": {"rating": 1500, "deviation": 50, "volatility": 0.06, "tried": -1, "solved": 1}}',
    ],
)
def test_a_file_that_cannot_be_read_is_kept_aside_and_the_progress_starts_again(tmp_path: Path, content: bytes) -> None:
    path = progress_path(tmp_path)
    path.write_bytes(content)
    store = ProgressFile(path)
    assert store.progress == Progress()
    assert len(store.notices) == 1 and "progress.json" in store.notices[0] and "kept aside" in store.notices[0]
    [kept] = [p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock")]
    assert kept.startswith("progress.json.damaged-")
    lesson_done(store, "rook")
    assert json.loads(path.read_text())["lessons"] == ["rook"]
    assert store.problem is None


def test_only_well_formed_entries_are_read() -> None:
    text = json.dumps(
        {
            "lessons": ["king", 3, "x" * 99],
            "best": {"name": 5, "pick": -1, "odd": "9", "big": True},
            "deck": [ENTRY, [1], {"id": ""}, {"id": "x" * 41}],
        }
    )
    assert Progress.from_json(text) == Progress(frozenset({"king"}), {"name": 5}, deck=(ENTRY,))


def test_a_change_not_written_is_kept_in_memory_and_written_with_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = progress_path(tmp_path)
    store = ProgressFile(path)
    real = storage_module.write_atomic

    def full(path: Path, text: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(progress_module, "write_atomic", full)
    lesson_done(store, "king")
    assert store.problem == "progress.json could not be written: No space left on device"
    assert store.progress.lessons == {"king"} and not path.exists()
    monkeypatch.setattr(progress_module, "write_atomic", real)
    store.update(rated)
    assert store.problem is None
    assert ProgressFile(path).progress == Progress(frozenset({"king"}), puzzles=PuzzleStanding(tried=1))


def test_a_change_waits_for_the_lock_and_gives_up_on_a_holder_that_never_lets_go(tmp_path: Path) -> None:
    path = progress_path(tmp_path)
    now = [0.0]
    waited = exclusive(path, patience=2.0, clock=lambda: now[0], pause=lambda s: now.__setitem__(0, now[0] + s))
    with exclusive(path):
        with pytest.raises(LockUnavailable, match="more than 2 s"), waited:
            pass  # pragma: no cover
        assert now[0] >= 2.0
        store = ProgressFile(path, patience=0.0)  # read without the lock: nothing kept aside, nothing lost
        lesson_done(store, "king")
        assert store.problem is not None and "locked" not in store.problem and "held" in store.problem
    lesson_done(store, "rook")  # the lock free again: both kept
    assert ProgressFile(path).progress.lessons == {"king", "rook"}


_WRITER = """
import sys
from pathlib import Path
from cescacs_tui.data.progress import Progress, ProgressFile, PuzzleStanding

store = ProgressFile(Path(sys.argv[1]))
name = sys.argv[2]
for number in range(40):
    entry = {"id": f"{name}{number}"}
    store.update(lambda p, e=entry: Progress(p.lessons | {e["id"]}, p.best,
                 PuzzleStanding(p.puzzles.rating, p.puzzles.tried + 1), (*p.deck, e)))
"""


def test_two_processes_changing_the_progress_at_once_lose_nothing(tmp_path: Path) -> None:
    path = progress_path(tmp_path)
    writers = [subprocess.Popen([sys.executable, "-c", _WRITER, str(path), name]) for name in ("a", "b")]
    assert [writer.wait(timeout=PATIENCE) for writer in writers] == [0, 0]
    kept = ProgressFile(path).progress
    assert kept.puzzles.tried == 80 and len(kept.lessons) == 80 and len(kept.deck) == 80


def test_a_store_without_a_path_keeps_the_progress_in_memory(tmp_path: Path) -> None:
    store = progress_store(None)
    assert isinstance(store, MemoryProgress)
    lesson_done(store, "king")
    assert store.progress.lessons == {"king"} and store.problem is None
    assert list(tmp_path.iterdir()) == []


def test_the_policy_keeps_the_owners_and_a_visitors_progress_in_their_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CESCACS_DATA_DIR", str(tmp_path))
    for kind in LaunchKind:
        assert Policy(kind).progress_path() == tmp_path / "progress.json"
