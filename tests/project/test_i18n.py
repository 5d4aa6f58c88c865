"""The interface in Catalan, Spanish and English: choosing the language, the catalogs, the words, the real command."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cescacs_tui import i18n
from cescacs_tui.core.game import Game
from cescacs_tui.data.settings import Settings, read_language
from cescacs_tui.session import GameSession
from cescacs_tui.session.words import announce_last_move, situation
from cescacs_tui.tui.widgets.panels import status_text
from scripts import catalogs
from tests.helpers.games import FOOLS_MATE, play
from tests.helpers.terminal import POSIX_ONLY, Terminal, terminal_environment

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def speak() -> Iterator[object]:
    """Set the interface's language for one test; English again afterwards, whatever happens."""
    yield i18n.set_language
    i18n.set_language("en")


# --- choosing the language -------------------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "ca_ES.UTF-8"}, "ca"),
        ({"LANG": "es_ES.UTF-8"}, "es"),
        ({"LANG": "ca_ES@valencia"}, "ca"),
        ({"LC_MESSAGES": "es_AR.UTF-8", "LANG": "ca_ES.UTF-8"}, "es"),
        ({"LC_ALL": "C.UTF-8", "LANG": "ca_ES.UTF-8"}, None),  # LC_ALL decides: C is no language of ours
        ({"LC_ALL": "ca", "LC_MESSAGES": "es_ES"}, "ca"),
        ({"LANG": "fr_FR.UTF-8"}, None),
        ({}, None),
    ],
)
def test_the_locale_names_a_language_posix_style(environ: dict[str, str], expected: str | None) -> None:
    assert i18n.language_from_locale(environ) == expected


def test_lang_beats_the_setting_which_beats_the_locale_which_beats_english() -> None:
    locale = {"LANG": "es_ES.UTF-8"}
    assert i18n.choose_language("en", "ca", locale) == "en"
    assert i18n.choose_language(None, "ca", locale) == "ca"
    assert i18n.choose_language(None, "", locale) == "es"
    assert i18n.choose_language(None, None, {}) == "en"


def test_an_unknown_language_is_refused(speak: object) -> None:
    with pytest.raises(ValueError, match="no interface language 'fr'"):
        i18n.set_language("fr")
    assert i18n.language() == "en"


def test_the_language_setting_round_trips_and_a_bad_one_is_a_problem(tmp_path: Path) -> None:
    path = Settings(language="ca").save(tmp_path / "settings.toml")
    assert Settings.load(path).language == "ca" and read_language(path) == "ca"
    path.write_text('language = "fr"\n', encoding="utf-8")
    loaded = Settings.load(path)
    assert loaded.language == "" and "language" in str(loaded.problems[0])
    assert read_language(path) is None
    path.write_text("not toml [", encoding="utf-8")
    assert read_language(path) is None and path.exists()  # reading the language alone keeps nothing aside


def test_a_settings_problem_is_said_in_the_language_and_stays_english_as_a_string(
    speak: object, tmp_path: Path
) -> None:
    from cescacs_tui.session.terms import say

    path = tmp_path / "settings.toml"
    path.write_text('auto_flip = "yes"\nwhite = 12\ncolour = 1\n', encoding="utf-8")
    problems = Settings.load(path).problems
    i18n.set_language("ca")
    assert [say(problem) for problem in problems] == [
        f'{path}: auto_flip = "yes": ha de ser true o false; s\'usa false',
        f"{path}: white = 12: el nom d'un jugador ha de ser text entre cometes; s'usa \"?\"",
        f"{path}: es deixa de banda l'opció desconeguda 'colour'",
    ]
    assert str(problems[0]) == f'{path}: auto_flip = "yes": must be true or false; using false'
    path.write_bytes(b"\xff\xfe")
    (problem,) = Settings.load(path).problems
    i18n.set_language("es")
    assert say(problem).startswith(f"{path} no es texto UTF-8; se ha guardado como {tmp_path}")
    assert say(problem).endswith("; se usa la configuración por defecto")


@pytest.mark.slow
def test_the_plain_mode_tells_a_settings_problem_in_the_language(tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.helpers.terminal import PATIENCE, terminal_environment

    environment = terminal_environment(tmp_path)
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_text("castling = 3\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "cescacs_tui", "--plain", "--lang", "es"],
        input=b"quit\n",
        capture_output=True,
        env=environment,
        timeout=PATIENCE * 3,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode().splitlines()
    assert f"Aviso: {tmp_path / 'config' / 'settings.toml'}: castling = 3: debe ser true o false; se usa true." in lines


@pytest.mark.slow
def test_a_damaged_autosave_is_reported_in_the_language_and_stays_english_as_a_string(tmp_path: Path) -> None:
    import subprocess
    import sys

    from cescacs_tui.data.autosave import load_autosave
    from tests.helpers.terminal import PATIENCE, terminal_environment

    environment = terminal_environment(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    (data / "autosave.json").write_text('{"format": "cescacs-tui autosave", "version": 1, "pgn": 3}', encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "cescacs_tui", "--plain", "--lang", "ca"],
        input=b"quit\n",
        capture_output=True,
        env=environment,
        timeout=PATIENCE * 3,
    )
    assert result.returncode == 0, result.stderr
    (kept,) = data.glob("autosave.json.*")
    said = f"Avís: la desada automàtica {data / 'autosave.json'} està malmesa (la seva partida no és text CTL-PGN)"
    assert f"{said}; s'ha guardat com a {kept}." in result.stdout.decode().splitlines()
    (data / "autosave.json").write_bytes(b"\xff")
    (problem,) = load_autosave(data / "autosave.json").problems
    assert str(problem).startswith(f"the autosave {data / 'autosave.json'} is damaged (it is not UTF-8 text)")


def test_a_records_syntax_error_is_said_in_the_language_and_stays_english_as_a_string(
    speak: object, tmp_path: Path
) -> None:
    from cescacs_tui.core.errors import PGNError
    from cescacs_tui.core.pgn import read_pgn
    from cescacs_tui.session import GameSession
    from cescacs_tui.session.terms import say

    text = '[Variant "C\'escacs"]\n[White "A" x]\n\n1. H6-H12 *\n'
    with pytest.raises(PGNError) as caught:
        read_pgn(text)
    assert str(caught.value) == 'line 2, column 1: malformed tag (expected [Name "value"] on a line of its own)'
    i18n.set_language("es")
    assert say(caught.value.explanation) == (
        'línea 2, columna 1: etiqueta mal formada (se esperaba [Nombre "valor"] en una línea aparte)'
    )
    record = tmp_path / "bad.ctl-pgn"
    record.write_text(text, encoding="utf-8")
    i18n.set_language("ca")
    feedback = GameSession(Game.new()).open_record(record)
    assert (
        feedback.text
        == 'bad.ctl-pgn: línia 2, columna 1: etiqueta mal formada (s\'esperava [Nom "valor"] en una línia a part)'
    )
    record.write_bytes(b"\xff")
    assert GameSession(Game.new()).open_record(record).text == (
        "bad.ctl-pgn: bad.ctl-pgn no és text UTF-8 (el byte 0 no es pot descodificar)"
    )


# --- the readers' reasons: PDTL, time controls, records, the autosave's owner ------------------


@pytest.mark.parametrize(
    ("text", "english", "catalan", "spanish"),
    [
        (
            "/14:5k1/10:K6/ w",
            "PDTL fields (column 17): fields 1-4 are mandatory; missing: castling, special",
            "PDTL, camps (columna 17): els camps 1-4 són obligatoris; en falten: enroc, especial",
            "PDTL, campos (columna 17): los campos 1-4 son obligatorios; faltan: enroque, especial",
        ),
        (
            "/14:7/10:K6/ w -- - 0 1",
            "PDTL position: the Black King is missing: each side has exactly one",
            "PDTL, posició: falta el Rei de les negres: cada bàndol en té exactament un",
            "PDTL, posición: falta el Rey de las negras: cada bando tiene exactamente uno",
        ),
        (
            "/14:5k1/10:K6/4:PPPPP/5:PPPPPP/6:P6/ w -- - 0 1",
            "PDTL position: White has 12 pieces of the kind Pawn (at most 11)",
            "PDTL, posició: les blanques tenen 12 peces del tipus Peó (com a màxim 11)",
            "PDTL, posición: las blancas tienen 12 piezas del tipo Peón (como máximo 11)",
        ),
        (
            "/14:5k1/10:K6/ w RX - 0 1",
            "PDTL castling (column 18): 'RX': rook rights without the King"
            " (White's part RKR, RK, KR, K or -, then Black's rkr, rk, kr, k or -)",
            "PDTL, enroc (columna 18): 'RX': drets de Roc sense el Rei"
            " (la part de les blanques RKR, RK, KR, K o -, després la de les negres rkr, rk, kr, k o -)",
            "PDTL, enroque (columna 18): 'RX': derechos de Roque sin el Rey"
            " (la parte de las blancas RKR, RK, KR, K o -, después la de las negras rkr, rk, kr, k o -)",
        ),
        (
            "/14:5k1/10:K6/ b -- G15@13 0 1",
            "PDTL special (column 21): en passant names G15, but there is no piece there",
            "PDTL, especial (columna 21): el camp de captura al pas indica G15, però no hi ha cap peça",
            "PDTL, especial (columna 21): el campo de captura al paso indica G15, pero no hay ninguna pieza",
        ),
        (
            "/14:5k1/10:K6/ w -- - 0 0",
            "PDTL move number (column 25): '0' is not a whole number >= 1 or '?'",
            "PDTL, número de jugada (columna 25): '0' no és un nombre enter >= 1 o '?'",
            "PDTL, número de jugada (columna 25): '0' no es un número entero >= 1 o '?'",
        ),
        (
            "/16:5k1/14:5R1/10:K6/ w -- - 0 1",
            "PDTL position: Black, who is not to move, is in check: the position cannot arise",
            "PDTL, posició: les negres, que no juguen, són en escac: la posició no es pot donar",
            "PDTL, posición: las negras, que no juegan, están en jaque: la posición no puede darse",
        ),
    ],
)
def test_a_pdtl_error_is_said_in_the_language_and_stays_english_as_a_string(
    speak: object, text: str, english: str, catalan: str, spanish: str
) -> None:
    from cescacs_tui.core import PDTLError, Position
    from cescacs_tui.session.terms import say
    from cescacs_tui.tui.dialogs.new_game import check_pdtl

    with pytest.raises(PDTLError) as caught:
        Position.from_pdtl(text)
    assert str(caught.value) == english
    i18n.set_language("ca")
    assert say(caught.value.explanation) == catalan
    assert str(caught.value) == english
    i18n.set_language("es")
    assert check_pdtl(text) == spanish  # the new-game dialog's note


def test_a_time_control_error_is_said_in_the_language_and_stays_english_as_a_string(
    speak: object, tmp_path: Path
) -> None:
    from cescacs_tui.core.clock import ClockError, TimeControl
    from cescacs_tui.session.terms import say

    with pytest.raises(ClockError) as caught:
        TimeControl.from_tag("0")
    assert str(caught.value) == "TimeControl '0': the base time must be more than 0 seconds"
    i18n.set_language("ca")
    assert say(caught.value.explanation) == "TimeControl '0': el temps de base ha de ser de més de 0 segons"
    with pytest.raises(ClockError) as caught:
        TimeControl.from_tag("40/9000")
    said = say(caught.value.explanation)
    assert said.startswith("TimeControl '40/9000': els períodes per nombre de jugades (jugades/segons) no s'admeten")
    assert "'<base>+<increment>' (Fischer), '<base>d<retard>' (retard simple)" in said
    assert "move-count periods" in str(caught.value)
    path = tmp_path / "settings.toml"
    path.write_text('time_control = "abc"\n', encoding="utf-8")
    (problem,) = Settings.load(path).problems
    i18n.set_language("es")
    assert say(problem).startswith(f"{path}: time_control = \"abc\": no se entiende TimeControl 'abc'; se esperaba '?'")
    assert say(problem).endswith('(como máximo 999999); se usa "-"')
    assert str(problem).startswith(f"{path}: time_control = \"abc\": TimeControl 'abc' is not understood")


@pytest.mark.parametrize(
    ("record", "english", "spanish"),
    [
        (
            '[Variant "Xiangqi"]\n\n*\n',
            "line 1, column 1: unknown variant 'Xiangqi' (expected C'escacs)",
            "línea 1, columna 1: variante desconocida 'Xiangqi' (se esperaba C'escacs)",
        ),
        (
            '[Variant "Grand C\'escacs"]\n\n*\n',
            "line 1, column 1: Grand C'escacs is not supported",
            "línea 1, columna 1: el Gran C'escacs no se admite",
        ),
        (
            '[Variant "C\'escacs"]\n[PDTL "/14:7/10:K6/ w -- - 0 1"]\n\n*\n',
            "line 2, column 1: PDTL tag: PDTL position: the Black King is missing: each side has exactly one",
            "línea 2, columna 1: etiqueta PDTL: PDTL, posición: falta el Rey de las negras:"
            " cada bando tiene exactamente uno",
        ),
        (
            '[Variant "C\'escacs"]\n\n1. H6-H13 *\n',
            "line 3, column 4: move 1 (White) H6-H13: H13 is not a hex of the board",
            "línea 3, columna 4: jugada 1 (las blancas) H6-H13: H13 no es un hexcaque del tablero",
        ),
        (
            '[Variant "C\'escacs"]\n[Redefine "X@J"]\n\n*\n',
            "line 2, column 1: Redefine: 'X@J' is not an allowed alias pair"
            " (expected pairs such as A@J, C@N, T@R, W@V, Q@D, H@E, at most one per piece)",
            "línea 2, columna 1: Redefine: 'X@J' no es un par de alias permitido"
            " (se esperaba pares como A@J, C@N, T@R, W@V, Q@D, H@E, como máximo uno por pieza)",
        ),
    ],
)
def test_a_records_replay_error_is_said_in_the_language_and_stays_english_as_a_string(
    speak: object, record: str, english: str, spanish: str
) -> None:
    from cescacs_tui.core.errors import PGNError
    from cescacs_tui.core.pgn import read_pgn
    from cescacs_tui.session.terms import say

    with pytest.raises(PGNError) as caught:
        read_pgn(record)
    assert str(caught.value) == english
    i18n.set_language("es")
    assert say(caught.value.explanation) == spanish


def test_the_autosaves_owner_is_said_in_the_language_and_stays_english_as_a_string(
    speak: object, tmp_path: Path
) -> None:
    from cescacs_tui.data.lock import AutosaveBusy, LockOwner
    from cescacs_tui.session.terms import say

    elsewhere = LockOwner(1234, "elsewhere")
    busy = AutosaveBusy(tmp_path / "autosave.json", elsewhere)
    assert (
        str(busy)
        == f"the game in {tmp_path / 'autosave.json'} is open in another cescacs (process 1234 on host 'elsewhere')"
    )
    i18n.set_language("ca")
    assert say(elsewhere.description()) == "el procés 1234 a la màquina 'elsewhere'"
    assert say(LockOwner().description()) == "un altre procés"
    from cescacs_tui.data.autosave_store import AutosaveStore

    feedback = GameSession(Game.new(), store=AutosaveStore(busy=busy)).offer_separate_game()
    assert feedback is not None and feedback.question is not None
    assert "el procés 1234 a la màquina 'elsewhere'" in feedback.question.prompt
    i18n.set_language("es")
    assert say(LockOwner(77).description()) == "el proceso 77"


@pytest.mark.slow
def test_a_pdtl_error_on_the_command_line_is_said_in_the_language_without_a_traceback() -> None:
    failed = cescacs("moves", "--pdtl", "/14:7/10:K6/ w -- - 0 1", "--lang", "ca")
    assert failed.returncode == 2 and "Traceback" not in failed.stderr
    assert (
        failed.stderr == "cescacs: error: PDTL, posició: falta el Rei de les negres: cada bàndol en té exactament un\n"
    )
    plain = cescacs("--plain", "--pdtl", "/14:5k1/10:K6/ w", lang="es_ES.UTF-8")
    assert plain.returncode == 2 and "Traceback" not in plain.stderr
    assert "los campos 1-4 son obligatorios; faltan: enroque, especial" in plain.stderr


# --- the catalogs ----------------------------------------------------------------------------


@pytest.mark.slow
def test_every_catalog_has_every_message_translated_and_its_mo_is_current() -> None:
    """A fresh extraction from the code, compared with each .po (no missing, fuzzy, untranslated or stale
    message) and each shipped .mo with its .po: ``python scripts/catalogs.py update`` / ``compile`` fix them."""
    assert catalogs.problems() == []


def test_the_catalogs_keep_every_placeholder() -> None:
    import re

    names = re.compile(r"\{(\w*)")
    for language in catalogs.TRANSLATED:
        for message in catalogs.read(language):
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            wanted = set(names.findall(str(ids[-1])))
            for string in strings:
                got = set(names.findall(str(string)))
                assert got <= wanted | {"owner"}, (language, message.id, string)
                assert wanted - got <= {"count", "owner"}, (language, message.id, string)


# --- the words ------------------------------------------------------------------------------


def fools_mate() -> Game:
    game = Game.new()
    play(game, *FOOLS_MATE)
    return game


@pytest.mark.parametrize(
    ("language", "to_move", "mate", "piece"),
    [
        ("en", "White to move", "Black mates", "White Pawn H6 to H12, triple step. Black to move."),
        ("ca", "Juguen les blanques", "Les negres fan mat", "Peó blanc H6 a H12, pas triple. Juguen les negres."),
        ("es", "Juegan las blancas", "Las negras dan mate", "Peón blanco H6 a H12, paso triple. Juegan las negras."),
    ],
)
def test_the_side_to_move_the_moves_and_the_result_in_each_language(
    speak: object, language: str, to_move: str, mate: str, piece: str
) -> None:
    i18n.set_language(language)
    assert to_move in status_text(Game.new()).plain
    game = Game.new()
    play(game, "H6-H12")
    assert announce_last_move(game) == piece
    over = fools_mate()
    assert mate in status_text(over).plain
    ended = {
        "en": "Game over: Black mates (0-3).",
        "ca": "Fi de la partida: les negres fan mat (0-3).",
        "es": "Fin de la partida: las negras dan mate (0-3).",
    }
    assert situation(over) == ended[language]


def test_the_cores_explanations_are_said_in_the_language_but_stay_english_in_str(speak: object) -> None:
    i18n.set_language("ca")
    session = GameSession()
    refused = session.play_text("e7-e15")
    assert refused.text == "e7-e15: el Peó de E7 no pot anar a E15"
    assert str(session.play_text("zz9").text).startswith("zz9: no és una jugada CTL-AN (s'esperava p. ex. E7-E13")
    from cescacs_tui.core import MoveError

    with pytest.raises(MoveError, match="the Pawn on E7 cannot go to E15"):
        session.game.position.parse_move("E7-E15")
    assert str(session.refusal("claim_draw")).startswith(
        "no hi ha taules per reclamar: aquesta posició s'ha donat una vegada"
    )


def test_records_stay_english_whatever_the_language(speak: object) -> None:
    """CTL-PGN tags are standard and the end comment is read back by the reader: records are written in English."""
    from cescacs_tui.core.pgn import read_pgn, write_pgn

    i18n.set_language("es")
    game = Game.new()
    play(game, "H6-H12", "I23-I19")
    game.offer_draw()
    game.accept_draw()
    text = write_pgn(game)
    assert "{: draw by agreement }" in text
    again = read_pgn(text)[0]
    assert again.outcome is not None
    from cescacs_tui.session.terms import termination

    assert termination(again) == "tablas por acuerdo"  # the record's standard words, said in the language


# --- switching at run time ------------------------------------------------------------------------


async def test_switching_language_in_the_app_redraws_the_footer_and_panels_and_is_saved(
    speak: object, tmp_path: Path
) -> None:
    from cescacs_tui.tui.app import CescacsApp
    from cescacs_tui.tui.widgets.panels import StatusPanel
    from tests.helpers.app import panels_ready

    settings_file = tmp_path / "settings.toml"
    app = CescacsApp(Game.new(), settings=Settings(), settings_path=settings_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await panels_ready(pilot)
        screen = app.game_screen
        descriptions = {active.binding.description for active in screen.active_bindings.values()}
        assert "Help" in descriptions
        screen.switch_language("ca")
        await pilot.pause()
        descriptions = {active.binding.description for active in screen.active_bindings.values()}
        assert "Ajuda" in descriptions and "Help" not in descriptions
        assert "Juguen les blanques" in str(app.screen.query_one(StatusPanel).render())
        assert str(app.screen.query_one("#message").render()).startswith("interfície en català")
        commands = [command.title for command in screen.table_commands()]
        assert "Llengua: Català, Español, English" in commands and "Gira el tauler" in commands
    assert read_language(settings_file) == "ca"


# --- the real command ---------------------------------------------------------------------


def cescacs(*args: str, lang: str | None = None, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in i18n.LOCALE_VARIABLES and k != "LANGUAGE"}
    env |= {"CESCACS_CONFIG_DIR": os.devnull + "-none", "PYTHONPATH": str(ROOT), **extra}
    if lang is not None:
        env["LANG"] = lang
    return subprocess.run([sys.executable, "-m", "cescacs_tui", *args], capture_output=True, text=True, env=env)


@pytest.mark.slow
def test_help_and_errors_speak_the_locale_and_lang_overrides_it() -> None:
    assert "mostra aquesta ajuda i surt" in cescacs("--help", lang="ca_ES.UTF-8").stdout
    assert "muestra esta ayuda y sale" in cescacs("--help", "--lang", "es", lang="ca_ES.UTF-8").stdout
    english = cescacs("--lang", "en", "--help", lang="ca_ES.UTF-8").stdout
    assert "show this help message and exit" in english and "--lang {en,ca,es}" in english
    failed = cescacs("moves", "--pdtl", "nonsense", "--lang", "ca")
    assert failed.returncode == 2 and failed.stderr.startswith("cescacs: error: ")
    refused = cescacs("--games", "--pdtl", "x", lang="es_ES.UTF-8")
    assert refused.returncode == 2 and "--games solo lista el archivo" in refused.stderr


@pytest.mark.slow
def test_what_the_tolerant_pdtl_reader_accepted_is_said_in_the_language_and_kept_english_in_its_warnings(
    speak: object,
) -> None:
    from cescacs_tui.core import INITIAL_PDTL, PDTLError, Position
    from cescacs_tui.session.terms import say

    irregular = INITIAL_PDTL.replace(" 0 1", " 00 1")  # a leading zero in the half-move clock
    found: list[str] = []
    Position.from_pdtl(irregular, warnings=found)
    assert found == ["PDTL half-move clock: '00' has a leading zero"]
    warned = cescacs("moves", "--pdtl", irregular, "--lang", "ca")
    assert warned.returncode == 0
    assert warned.stderr.splitlines() == [
        "cescacs: avís: PDTL, comptador de mitges jugades: '00' comença amb un zero",
        "68 jugades legals",
    ]
    with pytest.raises(PDTLError) as strict:
        Position.from_pdtl(irregular, strict=True)
    i18n.set_language("es")
    assert say(strict.value.explanation).endswith("'00' empieza con un cero (no canónico)")


@pytest.mark.slow
@POSIX_ONLY
@pytest.mark.parametrize(
    ("lang", "args", "expected"),
    [
        ("ca_ES.UTF-8", (), "Juguen les blanques"),
        ("ca_ES.UTF-8", ("--lang", "es"), "Juegan las blancas"),
        ("es_ES.UTF-8", ("--lang", "en"), "White to move"),
    ],
)
def test_the_first_screen_speaks_the_chosen_language(tmp_path: Path, lang: str, args: tuple[str, ...], expected: str):
    env = terminal_environment(tmp_path) | {"LANG": lang}
    for variable in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        env.pop(variable, None)
    terminal = Terminal(env, args)
    try:
        terminal.wait_for(expected)
        terminal.type("\x11")  # Ctrl+Q
        terminal.read_until(lambda: terminal.process.poll() is not None, "the app to quit")
    finally:
        assert terminal.close() == 0


# --- every screen at 80x24 in each language ---------------------------------------------------------------


async def _open_help(pilot: Any) -> None:
    await pilot.pause()
    await pilot.press("question_mark")
    await pilot.pause()


async def _open_new_game(pilot: Any) -> None:
    await pilot.pause()
    await pilot.press("n")
    await pilot.pause()


async def _start(pilot: Any) -> None:
    await pilot.pause()


SCREENS = {"start": _start, "help": _open_help, "new-game": _open_new_game}


@pytest.mark.parametrize("language", ["en", "ca", "es"])
@pytest.mark.parametrize("screen", list(SCREENS))
def test_each_screen_fits_80x24_in_each_language(speak: object, screen: str, language: str, snap_compare: Any) -> None:
    from cescacs_tui.tui.app import CescacsApp
    from scripts.screenshots import TRUE_COLOUR
    from scripts.screenshots import terminal_environment as colours

    i18n.set_language(language)
    with colours(TRUE_COLOUR):
        app = CescacsApp(Game.new(), settings=Settings())
    assert snap_compare(app, terminal_size=(80, 24), run_before=SCREENS[screen])


# --- no user-facing text left untranslated ----------------------------------------------------------------

CHECKED = [
    "cescacs_tui/tui", "cescacs_tui/session", "cescacs_tui/tui/app.py", "cescacs_tui/cli", "cescacs_tui/plain",
    "cescacs_tui/remote", "cescacs_tui/web",
]  # fmt: skip
"""Where every text a player reads must go through ``_()``."""
SHOWN_BY = {
    "Label", "Static", "Button", "RadioButton", "Checkbox", "Feedback", "refused", "Notice", "Confirm", "Choice",
    "notify", "say", "SystemCommand", "TextDialog", "PathDialog", "ChoiceDialog", "ConfirmDialog", "PasteDialog",
    "CescacsError", "ArgumentTypeError", "append", "update", "add_argument", "add_parser", "Parser", "print", "Text",
}  # fmt: skip
"""Calls whose text arguments a player reads (``append`` and ``update``: a rich Text, a panel or a list)."""
SHOWN_AS = {"placeholder", "title", "help", "description", "epilog", "prompt", "hint", "yes", "no"}
NAMED_FIRST = {"add_argument", "add_parser"}
"""Calls whose positional arguments are names (``--lang``, ``moves``), not words; their keywords are checked."""
ALLOWED = {"C'escacs", "CTL-AN\n", "⚠ ", "\u25cf ", "\u25cb ", " — ", "; ", ". ", " "}
"""Literal pieces that are not words: marks, separators."""


def _words(text: str) -> bool:
    import re

    return bool(re.search(r"[A-Za-z]{3,}", text)) and text not in ALLOWED


def _untranslated(path: Path) -> list[str]:
    import ast

    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        candidates = list(node.args) if name in SHOWN_BY and name not in NAMED_FIRST else []
        candidates += [k.value for k in node.keywords if k.arg in SHOWN_AS]
        for argument in candidates:
            parts = argument.values if isinstance(argument, ast.JoinedStr) else [argument]
            for part in parts:
                if isinstance(part, ast.Constant) and isinstance(part.value, str) and _words(part.value):
                    found.append(f"{path}:{node.lineno}: {part.value!r}")
    return found


@pytest.mark.slow
def test_no_text_a_player_reads_escapes_the_catalogs() -> None:
    """A text literal shown by a widget, a message, a dialog, a notification or the command line must be a
    ``_()`` call (whose argument is the message id), never a bare or f-string literal."""
    files = [
        p for entry in CHECKED for p in ([ROOT / entry] if entry.endswith(".py") else (ROOT / entry).rglob("*.py"))
    ]
    found = [line for path in files for line in _untranslated(path)]
    assert found == []
