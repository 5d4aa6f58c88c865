"""The learning screens' look in Catalan and Spanish, at 80x24 and 120x40 (English: test_snapshots.py, with the
README's pictures): the same scenes as scripts/screenshots.py, their analysis replayed from a recording."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cescacs_tui import i18n
from scripts.screenshots import SCENES

LEARNING_SCENES = [name for name in SCENES if name.startswith(("review-", "puzzle-"))]


@pytest.fixture
def speak() -> Iterator[object]:
    yield i18n.set_language
    i18n.set_language("en")


@pytest.mark.parametrize("language", ["ca", "es"])
@pytest.mark.parametrize("name", LEARNING_SCENES)
def test_learning_scene_in_each_language(speak: Any, name: str, language: str, snap_compare: Any) -> None:
    speak(language)
    scene = SCENES[name]
    assert snap_compare(scene.app(), terminal_size=scene.size, run_before=scene.then)
