"""Text from outside shown safely (cescacs_tui/safe_text.py): in the sanitiser, the app, SVG exports and the CLI."""

from __future__ import annotations

import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.text import Text

from cescacs_tui.cli import main
from cescacs_tui.core.pgn import read_pgn
from cescacs_tui.core.safe_text import REPLACEMENT, is_safe, safe_text
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.safe_display import safe_rich
from tests.helpers.app import message
from tests.helpers.crafted import RECORD

UNSAFE = [chr(c) for c in range(0x20) if chr(c) not in "\t\n"] + ["\x7f"] + [chr(c) for c in range(0x80, 0xA0)]
BIDI = list("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
INVISIBLE = list("\u200b\u200c\u200d\u2060\ufeff\u00ad\U000e0041\u2028\u2029")


def test_control_characters_become_visible_placeholders_of_the_same_length():
    assert safe_text("a\x1b]0;x\x07b") == "a\u241b]0;x\u2407b"  # ␛ and ␇
    assert safe_text("\x00\x7f\r") == "\u2400\u2421\u240d"
    assert safe_text("\x9b2J\u202eabc\udcff") == f"{REPLACEMENT}2J{REPLACEMENT}abc{REPLACEMENT}"
    assert safe_text("tab\there\nnew line, E13×F16, ♔ 日本") == "tab\there\nnew line, E13×F16, ♔ 日本"


def test_every_invisible_and_bidi_character_and_line_separator_is_replaced():
    """Names that look alike must be told apart: zero-width and bidi characters, line separators (issue 22)."""
    assert (
        safe_text("A\u200bna\u200d\u2060\u200e\u200f\u061c\u2028\u2029") == "A" + REPLACEMENT + "na" + REPLACEMENT * 7
    )
    invisible = [code for code in range(0x110000) if unicodedata.category(chr(code)) in ("Cf", "Zl", "Zp", "Cc", "Cs")]
    assert [chr(code) for code in invisible if is_safe(chr(code)) and chr(code) not in "\t\n"] == []
    assert is_safe("Ana, Bru: 日本 ♔ é 👨\u200d👩".replace("\u200d", ""))  # what can be seen stays


@pytest.mark.slow
@given(st.text())
def test_nothing_unsafe_survives_and_the_length_stays(text: str) -> None:
    safe = safe_text(text)
    assert len(safe) == len(text)
    assert not any(char in safe for char in UNSAFE + BIDI + INVISIBLE)
    assert is_safe(safe) and safe_text(safe) == safe
    safe.encode("utf-8")  # no lone surrogate either: every terminal can be sent it


def test_styled_text_keeps_its_styles_on_the_same_characters():
    text = Text.assemble(("Ana\x1b[2J", "bold"), " vs ", ("Bru", "italic"))  # (Rich itself drops BEL, CR...)
    safe = safe_rich(text)
    assert safe.plain == "Ana\u241b[2J vs Bru"
    assert [(span.start, span.end, span.style) for span in safe.spans] == [(0, 7, "bold"), (11, 14, "italic")]
    assert text.plain.startswith("Ana\x1b")  # the original is not changed
    plain = Text("safe")
    assert safe_rich(plain) is plain


def _svg_text(svg: str) -> str:
    return "".join(ET.fromstring(svg).itertext()).replace("\xa0", " ")  # raises on what is not well-formed XML


@pytest.mark.parametrize("keys", [(), ("v",), ("left_curly_bracket",)], ids=["the game", "the record", "the intro"])
async def test_a_crafted_record_on_the_screen_and_in_an_svg_export_is_harmless(keys):
    game = read_pgn(RECORD)[0]
    game.go_to(game.ply)
    app = CescacsApp(game)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press(*keys)
        await pilot.pause()
        text = _svg_text(app.export_screenshot())
    assert is_safe(text)
    assert "\u241b]52;c;" in text or "\u241b[2J" in text  # the record's text is there, made visible


async def test_the_message_line_and_notifications_quote_file_names_and_errors_safely(tmp_path: Path):
    path = tmp_path / "bad\x1b]0;name\x07.ctl-pgn"
    path.write_text("1. E7-E1\x1bc *\n", encoding="utf-8")  # a move that cannot be read: ESC c resets a terminal
    app = CescacsApp()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        app.game_screen.apply(app.session.open_record(path))
        await pilot.pause()
        await pilot.pause()
        assert "\u241b]0;name" in message(app) and "E7-E1" in message(app) and is_safe(message(app))
        text = _svg_text(app.export_screenshot())
    assert is_safe(text)
    assert "Cannot open the record" in text  # the notification is on the screen


def test_the_command_echoes_a_bad_record_safely(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    record = tmp_path / "bad.ctl-pgn"
    record.write_text("1. E7-E1\x1bc *\n", encoding="utf-8")  # ESC c: a full terminal reset
    missing = tmp_path / "no\x1b[2Jsuch.ctl-pgn"
    assert main([str(record)]) == 2
    assert main([str(missing)]) == 2
    errors = capsys.readouterr().err
    assert "E7-E1" in errors and "such.ctl-pgn" in errors  # quoted, made visible (core.errors.printable)
    assert is_safe(errors)
