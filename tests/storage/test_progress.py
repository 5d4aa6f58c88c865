"""The player's progress file: merged across processes, a damaged one kept aside, where the policy says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cescacs_tui.data.progress import SIZE_LIMIT, Progress, ProgressStore, progress_path
from cescacs_tui.session.policy import LaunchKind, Policy


def test_two_stores_on_one_file_keep_what_each_has_done(tmp_path: Path) -> None:
    path = progress_path(tmp_path)
    first, second = ProgressStore(path), ProgressStore(path)
    first.lesson_done("king")
    second.lesson_done("queen")
    assert second.drill_score("name", 12)
    assert not first.drill_score("name", 7)  # the other's 12 is the best
    assert ProgressStore(path).progress == Progress(frozenset({"king", "queen"}), {"name": 12})


@pytest.mark.parametrize("content", [b"{not json", b"[1, 2]", b'{"lessons": 3}', b"\xff\xfe", b"x" * (SIZE_LIMIT + 1)])
def test_a_file_that_cannot_be_read_is_kept_aside_and_the_progress_starts_again(tmp_path: Path, content: bytes) -> None:
    path = progress_path(tmp_path)
    path.write_bytes(content)
    store = ProgressStore(path)
    assert store.progress == Progress()
    assert store.problem is not None and "learning.json" in store.problem
    assert [p.name.startswith("learning.json.damaged-") for p in tmp_path.iterdir()] == [True]
    store.lesson_done("rook")
    assert json.loads(path.read_text())["lessons"] == ["rook"]


def test_only_well_formed_entries_are_read() -> None:
    text = json.dumps({"lessons": ["king", 3, "x" * 99], "best": {"name": 5, "pick": -1, "odd": "9", "big": True}})
    assert Progress.from_json(text) == Progress(frozenset({"king"}), {"name": 5})


def test_a_store_without_a_path_keeps_the_progress_in_memory(tmp_path: Path) -> None:
    store = ProgressStore(None)
    store.lesson_done("king")
    assert store.progress.lessons == {"king"}
    assert list(tmp_path.iterdir()) == []


def test_the_policy_keeps_the_owners_and_a_visitors_progress_in_their_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CESCACS_DATA_DIR", str(tmp_path))
    for kind in LaunchKind:
        assert Policy(kind).progress_path() == tmp_path / "learning.json"
