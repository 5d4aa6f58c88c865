"""One escaping rule for tag values, shared by the CTL-PGN writer and reader (issue 22).

A backslash in a player's name made the writer save ``[White "Ann\\Bob"]``, which the reader refused:
the autosave was set aside as damaged on the next start and archived games with that name did not
open.  Now every tag value, whatever it holds (backslashes, quotes, line breaks, controls), is written
so that it reads back equal: in a record, in the autosave and in the archive (and its list).
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import read_pgn, write_pgn
from cescacs_tui.core.pgn_syntax import MAX_TAG_CHARS, escape_tag_value, read_tag_line, unescape_tag_value
from cescacs_tui.data.archive import archive_game, list_archive
from cescacs_tui.data.autosave import read_autosave, save_autosave
from cescacs_tui.data.records import load_pgn_file
from tests.helpers.games import FOOLS_MATE, play
from tests.helpers.terminal import PATIENCE

TAGS = ("White", "Black", "Event", "Site", "Round", "Annotator")
ROUND_TRIPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
values = st.one_of(
    st.text(max_size=MAX_TAG_CHARS),  # all of Unicode but lone surrogates, which no UTF-8 file can hold
    st.lists(
        st.sampled_from(["\\", '"', "\n", "\r", "\x00", "\x1b", "\x85", "\u2028", "\\u0041", "]", "a", " "]),
        max_size=MAX_TAG_CHARS // 6,
    ).map("".join),
)
tag_sets = st.fixed_dictionaries({}, optional={name: values for name in TAGS})


def game_with(tags: dict[str, str], moves: tuple[str, ...] = ("E7-E13",)) -> Game:
    game = Game.new()
    game.tags.update(tags)
    play(game, *moves)
    return game


def test_a_backslash_and_a_quote_are_written_as_pgn_escapes() -> None:
    record = write_pgn(game_with({"White": "Ann\\Bob", "Black": 'The "Rook"'}))
    assert '[White "Ann\\\\Bob"]' in record
    assert '[Black "The \\"Rook\\""]' in record
    assert read_pgn(record)[0].tags["White"] == "Ann\\Bob"


def test_line_breaks_and_controls_are_escaped_so_the_tag_stays_one_line() -> None:
    written = escape_tag_value("a\nb\rc\x00d\x1b[2Je\u2028f\tg")
    assert written == "a\\u000ab\\u000dc\\u0000d\\u001b[2Je\\u2028f\tg"
    assert written.isprintable() or "\t" in written
    assert unescape_tag_value(written) == "a\nb\rc\x00d\x1b[2Je\u2028f\tg"


def test_an_unknown_escape_is_read_as_written() -> None:
    """Records from writers that do not escape (and this project's before it did) stay readable."""
    record = '[Variant "C\'escacs"]\n[White "Ann\\Bob"]\n[Site "C:\\Games\\u00"]\n\n1. E7-E13 *\n'
    game = read_pgn(record)[0]
    assert game.tags["White"] == "Ann\\Bob"
    assert game.tags["Site"] == "C:\\Games\\u00"
    assert read_tag_line('  [White "Ann\\Bob"]\r') == ("White", "Ann\\Bob")


@ROUND_TRIPS
@given(tag_sets)
def test_every_tag_value_reads_back_equal_from_a_record(tags: dict[str, str]) -> None:
    game = read_pgn(write_pgn(game_with(tags)))[0]
    assert {name: game.tags[name] for name in tags} == tags


@pytest.mark.slow
@ROUND_TRIPS
@given(tag_sets)
def test_every_tag_value_reads_back_equal_from_the_autosave(tmp_path_factory, tags: dict[str, str]) -> None:
    path = tmp_path_factory.mktemp("autosave") / "autosave.json"
    save_autosave(game_with(tags), {}, path)
    saved = read_autosave(path)
    assert saved is not None
    assert {name: saved.game.tags[name] for name in tags} == tags


@pytest.mark.slow
@ROUND_TRIPS
@given(tag_sets)
def test_every_tag_value_reads_back_equal_from_the_archive_and_its_list(tmp_path_factory, tags) -> None:
    folder = tmp_path_factory.mktemp("games")
    path = archive_game(game_with(tags, tuple(FOOLS_MATE)), folder)
    (listed,) = list_archive(folder)
    assert listed.problem is None
    assert (listed.white, listed.black) == (tags.get("White", "?"), tags.get("Black", "?"))
    (game,) = load_pgn_file(path)
    assert {name: game.tags[name] for name in tags} == tags


def test_a_name_with_a_backslash_in_the_settings_is_resumed_by_the_real_command(environment, tmp_path) -> None:
    """The issue's reproduction: the next start resumed nothing and set the autosave aside as damaged."""
    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    (config / "settings.toml").write_text("white = 'Ann\\Bob'\n", encoding="utf-8")

    def cescacs(text: str, *args: str) -> str:
        result = subprocess.run(
            [sys.executable, "-m", "cescacs_tui", "--plain", *args],
            input=text.encode(),
            capture_output=True,
            env={**environment, "CESCACS_CONFIG_DIR": str(config)},
            timeout=PATIENCE * 3,
        )
        assert result.returncode == 0 and result.stderr == b"", result.stderr
        return result.stdout.decode()

    cescacs("e7-e13\n", "--new")
    resumed = cescacs("moves\n")
    assert "damaged" not in resumed
    assert "Resumed the game" in resumed and "1. E7-E13" in resumed
    assert not list((tmp_path / "data").glob("*.damaged-*"))
