"""Settings: defaults, the TOML round trip, bad files and values reported (never raised), atomic saves."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
import tomli_w
from hypothesis import given
from hypothesis import strategies as st

from cescacs_tui.core.clock import ClockKind, TimeControl
from cescacs_tui.data.settings import SETTINGS_NAME, Settings, known_themes, settings_path
from cescacs_tui.tui.board_layout import LAYOUT_CHOICES, PIECE_SETS
from cescacs_tui.tui.themes import DEFAULT_THEME, THEMES

CHOSEN = Settings(
    theme="cescacs-ansi",
    piece_set="fan",
    board_layout="compact",
    auto_flip=True,
    vim_keys=True,
    white="Ann Example",
    black='Bob "the Rook" O\'Hara',
    time_control="900+10",
    castling=False,
)


def test_defaults():
    settings = Settings()
    assert settings.theme == DEFAULT_THEME
    assert (settings.piece_set, settings.board_layout, settings.auto_flip) == ("letters", "auto", False)
    assert settings.vim_keys is False
    assert (settings.white, settings.black) == ("?", "?")
    assert settings.time_control == "-" and not settings.parsed_time_control.enabled
    assert settings.castling is True
    assert settings.problems == []


def test_a_missing_file_gives_the_defaults_without_problems(tmp_path: Path):
    settings = Settings.load(tmp_path / "nowhere" / SETTINGS_NAME)
    assert settings == Settings() and settings.problems == []


def test_round_trip(tmp_path: Path):
    path = tmp_path / SETTINGS_NAME
    assert CHOSEN.save(path) == path
    loaded = Settings.load(path)
    assert loaded == CHOSEN and loaded.problems == []
    assert loaded.parsed_time_control == TimeControl(ClockKind.FISCHER, 900, increment=10)


def test_the_file_is_plain_toml_with_one_key_per_setting(tmp_path: Path):
    path = CHOSEN.save(tmp_path / SETTINGS_NAME)
    text = path.read_text(encoding="utf-8")
    assert tomllib.loads(text) == CHOSEN.to_dict()
    assert 'theme = "cescacs-ansi"' in text and "castling = false" in text
    assert "problems" not in text
    assert list(CHOSEN.to_dict()) == [
        "theme",
        "piece_set",
        "board_layout",
        "auto_flip",
        "vim_keys",
        "white",
        "black",
        "time_control",
        "castling",
    ]


def test_the_config_dir_can_be_moved_by_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CESCACS_CONFIG_DIR", str(tmp_path / "config"))
    assert settings_path() == tmp_path / "config" / SETTINGS_NAME
    assert Settings.load() == Settings()
    written = CHOSEN.save()
    assert written == tmp_path / "config" / SETTINGS_NAME and written.is_file()
    assert Settings.load() == CHOSEN


def test_saving_is_atomic_and_leaves_no_temporary_file(tmp_path: Path):
    path = tmp_path / SETTINGS_NAME
    Settings().save(path)
    CHOSEN.save(path)
    assert [p.name for p in tmp_path.iterdir()] == [SETTINGS_NAME]
    assert Settings.load(path) == CHOSEN


def test_a_failed_save_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / SETTINGS_NAME
    CHOSEN.save(path)
    before = path.read_bytes()

    def fail(source: object, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        Settings().save(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [SETTINGS_NAME]


def test_a_file_that_is_not_toml_gives_the_defaults_and_one_problem(tmp_path: Path):
    path = tmp_path / SETTINGS_NAME
    path.write_text('theme = "cescacs-light"\npiece_set = \n', encoding="utf-8")
    settings = Settings.load(path)
    assert settings == Settings()
    assert len(settings.problems) == 1
    assert str(path) in settings.problems[0] and "not valid TOML" in settings.problems[0]


def test_a_file_that_is_not_utf8_gives_the_defaults_and_one_problem(tmp_path: Path):
    path = tmp_path / SETTINGS_NAME
    path.write_bytes(b'white = "Jos\xe9"\n')
    settings = Settings.load(path)
    assert settings == Settings()
    assert len(settings.problems) == 1 and "UTF-8" in settings.problems[0]


def test_an_unreadable_file_gives_the_defaults_and_one_problem(tmp_path: Path):
    path = tmp_path / SETTINGS_NAME
    path.mkdir()  # a directory where the file should be: reading it fails
    settings = Settings.load(path)
    assert settings == Settings()
    assert len(settings.problems) == 1 and "cannot read" in settings.problems[0]


def test_bad_values_and_unknown_keys_are_reported_and_the_rest_is_kept(tmp_path: Path):
    path = tmp_path / SETTINGS_NAME
    path.write_text(
        "\n".join(
            [
                'theme = "solarised-ish"',
                'piece_set = "emoji"',
                "board_layout = 3",
                'auto_flip = "yes"',
                "white = 42",
                'black = "Bob"',
                'time_control = "40/9000"',
                "castling = false",
                'colour = "blue"',
                "[extra]",
                "a = 1",
            ]
        ),
        encoding="utf-8",
    )
    settings = Settings.load(path)
    assert settings == Settings(black="Bob", castling=False)
    problems = "\n".join(settings.problems)
    assert len(settings.problems) == 8, problems
    for key in ("theme", "piece_set", "board_layout", "auto_flip", "white", "time_control", "'colour'", "'extra'"):
        assert key in problems
    assert all(problem.startswith(str(path)) for problem in settings.problems)
    assert 'theme = "solarised-ish": no theme has that name' in problems
    assert f'using "{DEFAULT_THEME}"' in problems
    assert "move-count periods" in problems  # the clock's own explanation
    assert "unknown setting 'colour' ignored" in problems


def test_unknown_keys_are_not_written_back(tmp_path: Path):
    path = tmp_path / SETTINGS_NAME
    path.write_text('colour = "blue"\nauto_flip = true\n', encoding="utf-8")
    settings = Settings.load(path)
    assert settings.auto_flip and len(settings.problems) == 1
    settings.save(path)
    assert tomllib.loads(path.read_text(encoding="utf-8")) == Settings(auto_flip=True).to_dict()
    assert Settings.load(path).problems == []


@pytest.mark.parametrize(
    ("written", "kept"),
    [('"?"', "-"), ('"-"', "-"), ('" 900+10 "', "900+10"), ("300", "300"), ('"*30"', "*30"), ('"300d3"', "300d3")],
)
def test_time_controls_are_stored_as_canonical_tags(tmp_path: Path, written: str, kept: str):
    path = tmp_path / SETTINGS_NAME
    path.write_text(f"time_control = {written}\n", encoding="utf-8")
    settings = Settings.load(path)
    assert settings.problems == [] and settings.time_control == kept
    assert settings.parsed_time_control.to_tag() == kept


@pytest.mark.parametrize("bad", ['"0"', '"fast"', "true", "-5", '"300+5d2"'])
def test_bad_time_controls_are_reported(tmp_path: Path, bad: str):
    path = tmp_path / SETTINGS_NAME
    path.write_text(f"time_control = {bad}\n", encoding="utf-8")
    settings = Settings.load(path)
    assert settings.time_control == "-" and len(settings.problems) == 1


@pytest.mark.parametrize(
    ("written", "kept"), [('"  Ann  "', "Ann"), ('""', "?"), ('"José Raúl Capablanca"', "José Raúl Capablanca")]
)
def test_player_names_are_trimmed(written: str, kept: str):
    settings = Settings.from_dict(tomllib.loads(f"white = {written}"))
    assert settings.problems == [] and settings.white == kept


@pytest.mark.parametrize("bad", ['"a\\nb"', '"tab\\there"', f'"{"x" * 101}"', "[1, 2]"])
def test_bad_player_names_are_reported(bad: str):
    settings = Settings.from_dict(tomllib.loads(f"black = {bad}"))
    assert settings.black == "?" and len(settings.problems) == 1 and "black" in settings.problems[0]


def test_every_choice_is_accepted():
    for piece_set in PIECE_SETS:
        assert Settings.from_dict({"piece_set": piece_set}).piece_set == piece_set
    for layout in LAYOUT_CHOICES:
        assert Settings.from_dict({"board_layout": layout}).board_layout == layout
    for theme in known_themes():
        settings = Settings.from_dict({"theme": theme})
        assert settings.theme == theme and settings.problems == []


def test_themes_known_to_the_app_are_accepted():
    assert {*THEMES, "textual-dark", "nord", "ansi-dark"} <= known_themes()
    assert Settings.from_dict({"theme": "my-own"}).problems
    settings = Settings.from_dict({"theme": "my-own"}, themes=["my-own"])
    assert settings.theme == "my-own" and settings.problems == []
    assert Settings.from_dict({"theme": "cescacs-light"}, themes=["my-own"]).theme == "cescacs-light"


def test_problems_do_not_count_in_equality():
    assert Settings(problems=["something"]) == Settings()


toml_values = st.recursive(
    st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=30)
    | st.sampled_from([*PIECE_SETS, *LAYOUT_CHOICES, *THEMES, "?", "-", "900+10", "*30"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=5,
)


@given(st.dictionaries(st.sampled_from([*CHOSEN.to_dict(), "other"]) | st.text(max_size=8), toml_values))
def test_any_table_gives_valid_settings(data: dict[str, object]):
    """Whatever the file holds, loading gives usable settings, which then load back cleanly."""
    settings = Settings.from_dict(data)
    again = Settings.from_dict(tomllib.loads(tomli_w.dumps(settings.to_dict())))
    assert again == settings and again.problems == []
    assert len(settings.problems) <= len(data)
