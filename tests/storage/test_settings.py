"""Settings: defaults, the TOML round trip, bad files and values reported (never raised), atomic saves."""

from __future__ import annotations

import os
import stat
import sys
import tomllib
from pathlib import Path

import pytest
import tomli_w
from hypothesis import given
from hypothesis import strategies as st

from cescacs_tui.core.clock import ClockKind, TimeControl
from cescacs_tui.core.message import Message
from cescacs_tui.data.choices import DEFAULT_THEME, LAYOUT_CHOICES, PIECE_SETS
from cescacs_tui.data.settings import SETTINGS_NAME, Settings, settings_path
from cescacs_tui.tui.themes import THEMES, known_themes

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
    keys={"takeback": "z", "board.up_left": "q,7"},
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
    loaded = Settings.load(path, themes=THEMES)
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
        "bell",
        "white",
        "black",
        "time_control",
        "castling",
        "language",
        "engine",
        "review_seconds",
        "keys",
    ]


def test_the_config_dir_can_be_moved_by_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CESCACS_CONFIG_DIR", str(tmp_path / "config"))
    assert settings_path() == tmp_path / "config" / SETTINGS_NAME
    assert Settings.load() == Settings()
    written = CHOSEN.save()
    assert written == tmp_path / "config" / SETTINGS_NAME and written.is_file()
    assert Settings.load(themes=THEMES) == CHOSEN


def test_saving_is_atomic_and_leaves_no_temporary_file(tmp_path: Path):
    path = tmp_path / SETTINGS_NAME
    Settings().save(path)
    CHOSEN.save(path)
    assert [p.name for p in tmp_path.iterdir()] == [SETTINGS_NAME]
    assert Settings.load(path, themes=THEMES) == CHOSEN


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
    assert str(path) in str(settings.problems[0]) and "not valid TOML" in str(settings.problems[0])


def test_a_file_that_is_not_utf8_gives_the_defaults_and_one_problem(tmp_path: Path):
    path = tmp_path / SETTINGS_NAME
    path.write_bytes(b'white = "Jos\xe9"\n')
    settings = Settings.load(path)
    assert settings == Settings()
    assert len(settings.problems) == 1 and "UTF-8" in str(settings.problems[0])


def test_an_unreadable_file_gives_the_defaults_and_one_problem(tmp_path: Path):
    path = tmp_path / SETTINGS_NAME
    path.mkdir()  # a directory where the file should be: reading it fails
    settings = Settings.load(path)
    assert settings == Settings()
    assert len(settings.problems) == 1 and "cannot read" in str(settings.problems[0])


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
    problems = "\n".join(map(str, settings.problems))
    assert len(settings.problems) == 8, problems
    for key in ("theme", "piece_set", "board_layout", "auto_flip", "white", "time_control", "'colour'", "'extra'"):
        assert key in problems
    assert all(str(problem).startswith(str(path)) for problem in settings.problems)
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
    assert settings.black == "?" and len(settings.problems) == 1 and "black" in str(settings.problems[0])


def test_every_choice_is_accepted():
    for piece_set in PIECE_SETS:
        assert Settings.from_dict({"piece_set": piece_set}).piece_set == piece_set
    for layout in LAYOUT_CHOICES:
        assert Settings.from_dict({"board_layout": layout}).board_layout == layout
    for theme in known_themes():
        settings = Settings.from_dict({"theme": theme}, themes=known_themes())
        assert settings.theme == theme and settings.problems == []


def test_themes_known_to_the_app_are_accepted():
    assert {*THEMES, "textual-dark", "nord", "ansi-dark"} <= known_themes()
    assert DEFAULT_THEME in THEMES
    assert Settings.from_dict({"theme": "my-own"}, themes=known_themes()).problems
    settings = Settings.from_dict({"theme": "my-own"}, themes=known_themes(["my-own"]))
    assert settings.theme == "my-own" and settings.problems == []
    assert Settings.from_dict({"theme": "cescacs-light"}, themes=known_themes(["my-own"])).theme == "cescacs-light"


def test_the_theme_names_are_the_front_ends_to_offer():
    """The settings layer knows no UI: without the app's list only the default theme is accepted."""
    assert Settings.from_dict({"theme": DEFAULT_THEME}).problems == []
    assert Settings.from_dict({"theme": "cescacs-light"}).problems
    assert Settings.from_dict({"theme": "cescacs-light"}, themes=THEMES).theme == "cescacs-light"


def test_problems_do_not_count_in_equality():
    assert Settings(problems=[Message("something")]) == Settings()


toml_values = st.recursive(
    st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=30)
    | st.sampled_from([*PIECE_SETS, *LAYOUT_CHOICES, *THEMES, "?", "-", "900+10", "*30"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=5,
)


@pytest.mark.slow
@given(st.dictionaries(st.sampled_from([*CHOSEN.to_dict(), "other"]) | st.text(max_size=8), toml_values))
def test_any_table_gives_valid_settings(data: dict[str, object]):
    """Whatever the file holds, loading gives usable settings, which then load back cleanly."""
    settings = Settings.from_dict(data)
    again = Settings.from_dict(tomllib.loads(tomli_w.dumps(settings.to_dict())))
    assert again == settings and again.problems == []
    assert len(settings.problems) <= len(data)


# --- files that are not settings at all: kept aside, never fatal, never hanging -------------------------------


def _kept_copies(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.damaged-*"))


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(b'theme = "cescacs-light"\npiece_set = \n', id="not-toml"),
        pytest.param(b'white = "Jos\xe9"\n', id="not-utf8"),
        pytest.param(b"a = " + b"[" * 5000 + b"]" * 5000 + b"\n", id="nested-arrays"),
        pytest.param(b"a = " + b"{b = " * 5000 + b"1" + b"}" * 5000 + b"\n", id="nested-tables"),
        pytest.param(b"# " + b"x" * (65 * 1024) + b"\n", id="huge"),
    ],
)
def test_a_damaged_settings_file_is_kept_aside_and_the_defaults_used(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / SETTINGS_NAME
    path.write_bytes(content)
    settings = Settings.load(path)
    assert settings == Settings() and len(settings.problems) == 1
    [kept] = _kept_copies(path)
    assert kept.read_bytes() == content  # the player's file, untouched
    assert not path.exists()
    assert str(kept) in str(settings.problems[0]) and "using the default" in str(settings.problems[0])
    CHOSEN.save(path)  # a later save writes a fresh file and leaves the kept one alone
    assert kept.read_bytes() == content and Settings.load(path, themes=THEMES) == CHOSEN


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX FIFOs")
def test_a_fifo_in_place_of_the_settings_neither_hangs_nor_stays(tmp_path: Path) -> None:
    path = tmp_path / SETTINGS_NAME
    os.mkfifo(path)
    settings = Settings.load(path)  # without read_limited this open would block for ever
    assert settings == Settings() and "not a regular file" in str(settings.problems[0])
    [kept] = _kept_copies(path)
    assert stat.S_ISFIFO(kept.lstat().st_mode) and not path.exists()


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_link_to_dev_zero_in_place_of_the_settings_is_refused(tmp_path: Path) -> None:
    path = tmp_path / SETTINGS_NAME
    path.symlink_to("/dev/zero")
    settings = Settings.load(path)
    assert settings == Settings() and "not a regular file" in str(settings.problems[0])
    [kept] = _kept_copies(path)
    assert kept.is_symlink() and os.readlink(kept) == "/dev/zero"  # the link is moved, not what it points to


def test_an_unreadable_file_is_reported_but_left_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / SETTINGS_NAME
    path.write_text("auto_flip = true\n", encoding="utf-8")

    def denied(*args: object, **kwargs: object) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "open", denied)
    settings = Settings.load(path)
    monkeypatch.undo()
    assert settings == Settings() and "Permission denied" in str(settings.problems[0])
    assert path.exists() and _kept_copies(path) == []  # not damaged: nothing to keep aside


def test_a_lone_surrogate_in_a_name_never_stops_a_save(tmp_path: Path) -> None:
    path = tmp_path / SETTINGS_NAME
    Settings(white="Jos\udce9", black="Ann").save(path)
    loaded = Settings.load(path)
    assert loaded.problems == [] and loaded.white == "Jos\ufffd" and loaded.black == "Ann"


def test_the_keys_are_a_table_of_binding_ids_and_key_names(tmp_path: Path):
    path = CHOSEN.save(tmp_path / SETTINGS_NAME)
    assert '[keys]\ntakeback = "z"\n"board.up_left" = "q,7"' in path.read_text(encoding="utf-8")
    assert Settings.from_dict({"keys": {"hint": " ctrl+h , H "}}).keys == {"hint": "ctrl+h , H"}


@pytest.mark.parametrize(
    ("keys", "reason"),
    [
        ("z", "the keys must be a table of at most 200 names and keys"),
        ({f"a{i}": "z" for i in range(201)}, "the keys must be a table of at most 200 names and keys"),
        ({"Take back": "z"}, "'Take back' is not the name of an action or a board key"),
        ({"takeback": 7}, "takeback: the keys must be key names in quotes, separated by commas"),
        ({"takeback": ""}, "takeback: the keys must be key names in quotes"),
        ({"takeback": "z,,y"}, "takeback: the keys must be key names in quotes"),
        ({"takeback": "z\x1b[2J"}, "takeback: the keys must be key names in quotes"),
        ({"takeback": "a" * 33}, "takeback: the keys must be key names in quotes"),
    ],
)
def test_bad_keys_are_refused_whole_with_a_reason(keys: object, reason: str):
    settings = Settings.from_dict({"keys": keys, "auto_flip": True})
    assert settings.keys == {} and settings.auto_flip is True
    [problem] = settings.problems
    assert reason in str(problem) and "using a table" in str(problem)


@pytest.mark.parametrize(("written", "kept"), [(0.05, 0.05), (2, 2.0), (60, 60.0)])
def test_the_review_time_per_position_is_kept(written: float, kept: float) -> None:
    settings = Settings.from_dict({"review_seconds": written})
    assert settings.review_seconds == kept and not settings.problems


@pytest.mark.parametrize("bad", [0, 0.01, 61, "1", True, float("nan")])
def test_a_review_time_out_of_range_is_reported(bad: object) -> None:
    settings = Settings.from_dict({"review_seconds": bad})
    assert settings.review_seconds == 0.5
    [problem] = settings.problems
    assert "review_seconds" in str(problem) and "0.05" in str(problem)
