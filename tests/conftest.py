"""Shared fixtures: the reference data files in tests/data."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.reference import DATA


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture(autouse=True)
def _own_state_directories(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """No test reads or writes the player's real autosave, archive or settings (a test may still set its own)."""
    state = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("CESCACS_DATA_DIR", str(state / "data"))
    monkeypatch.setenv("CESCACS_CONFIG_DIR", str(state / "config"))
