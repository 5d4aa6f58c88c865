"""Shared fixtures: the reference data files in tests/data."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.reference import DATA


@pytest.fixture
def data_dir() -> Path:
    return DATA
