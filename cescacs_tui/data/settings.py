"""The player's settings, kept between runs in ``settings.toml`` in the config directory.

The file is plain TOML with one key per setting, for example::

    theme = "cescacs-dark"
    piece_set = "letters"
    board_layout = "auto"
    auto_flip = false
    vim_keys = false
    bell = false
    white = "?"
    black = "?"
    time_control = "900+10"
    castling = true
    language = "ca"
    engine = ""

    [keys]
    takeback = "z"

Reading never fails: a missing file gives the defaults; a file that cannot be
read or is not TOML gives the defaults and one problem; a bad value or an
unknown key is ignored (its default is used) with one problem each.  A file
that is not settings at all (not TOML, not UTF-8, too large, nested too
deeply, a FIFO or a device) is first renamed aside with a time stamp
(:func:`~cescacs_tui.data.storage.keep_aside`), so that saving a setting
later never destroys it.  The app
shows :attr:`Settings.problems` to the player.  :meth:`Settings.save` writes
the file atomically (a crash leaves the old file or the new one), with
``tomli-w``; unknown keys read earlier are not written back.

``$CESCACS_CONFIG_DIR`` moves the config directory (for tests and portable
installs): see :func:`cescacs_tui.data.storage.config_dir`.
"""

from __future__ import annotations

import re
import shlex
import tomllib
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Final

from ..core.clock import ClockError, TimeControl
from ..core.message import N_, Message
from ..i18n import LANGUAGES
from .choices import DEFAULT_THEME, LAYOUT_CHOICES, PIECE_SETS, LayoutChoice, PieceSet
from .storage import RefusedFile, config_dir, keep_aside, read_limited, write_atomic

__all__ = ["MAX_SETTINGS_BYTES", "SETTINGS_NAME", "Settings", "read_language", "settings_path"]

SETTINGS_NAME: Final = "settings.toml"
MAX_NAME_LENGTH: Final = 100
"""The longest player name accepted (it becomes a PGN tag)."""
MAX_SETTINGS_BYTES: Final = 64 * 1024
"""Larger settings files are refused (the app writes about 200 bytes)."""


def settings_path() -> Path:
    """Where the settings live: ``settings.toml`` in :func:`~cescacs_tui.data.storage.config_dir`."""
    return config_dir() / SETTINGS_NAME


@dataclass
class Settings:
    """What the player chose last time, and the defaults for a new game.

    ``theme`` is a theme name: :data:`~cescacs_tui.data.choices.DEFAULT_THEME`
    or one the front end offers (see :meth:`load`); ``piece_set`` and ``board_layout``
    are the :class:`~cescacs_tui.tui.widgets.board.HexBoard` options; ``auto_flip``
    turns the board towards the side to move after each move; ``vim_keys``
    adds the board's vim-style cursor keys (hjkl, yubn), which then take
    those letters from the app's keys while the board has the focus; ``bell`` rings the terminal's bell
    (BEL) when the opponent, the computer or a player elsewhere, has moved.  ``white`` and
    ``black`` are the default player names (``"?"``: unknown, as in PGN);
    ``time_control`` is a CTL-PGN ``TimeControl`` tag (``"-"``: no clock,
    ``"900+10"``...: see :meth:`~cescacs_tui.core.clock.TimeControl.from_tag`);
    ``castling`` is ``False`` for the beginners' variant without castling;
    ``language`` is the interface's language (``"ca"``, ``"es"``, ``"en"``; ``""``:
    the locale's, see :func:`cescacs_tui.i18n.choose_language`); ``engine`` is
    the command line of the engine the computer opponent, hints and analysis
    use (``""``: this package's own, ``cescacs engine``; any program speaking
    docs/engine-protocol.md can be plugged in); ``review_seconds`` is how long
    the engine searches each position of a game reviewed in the app (0.05 to
    60, as ``cescacs review --movetime``).  ``keys`` gives bindings other
    keys: binding ids (an action's name, ``board.up_left``...) to Textual key
    names, comma-separated (the front end knows the ids: :mod:`cescacs_tui.tui.keymap`).

    ``problems`` lists, in words for the player, what :meth:`load` could not
    use: each a :class:`~cescacs_tui.core.message.Message` (English as a
    string, said in the interface's language by a front end); it is never
    saved and not compared.
    """

    theme: str = DEFAULT_THEME
    piece_set: PieceSet = "letters"
    board_layout: LayoutChoice = "auto"
    auto_flip: bool = False
    vim_keys: bool = False
    bell: bool = False
    white: str = "?"
    black: str = "?"
    time_control: str = "-"
    castling: bool = True
    language: str = ""
    engine: str = ""
    review_seconds: float = 0.5
    keys: dict[str, str] = field(default_factory=dict)
    problems: list[Message] = field(default_factory=list, compare=False, repr=False)

    @property
    def parsed_time_control(self) -> TimeControl:
        """``time_control`` as a :class:`~cescacs_tui.core.clock.TimeControl` (raises ``ClockError`` if invalid)."""
        return TimeControl.from_tag(self.time_control)

    def to_dict(self) -> dict[str, Any]:
        """The settings as the TOML file holds them (without ``problems``)."""
        return {name: getattr(self, name) for name in _KEYS}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, themes: Iterable[str] = (), source: str = SETTINGS_NAME) -> Settings:
        """Settings from a parsed TOML table: bad values and unknown keys become :attr:`problems`.

        ``themes`` are the theme names the front end offers (the default
        theme is always accepted); ``source`` names the file in the problems.
        """
        settings = cls()
        accepted = frozenset((DEFAULT_THEME, *themes))
        for key, value in data.items():
            check = _CHECKS.get(key)
            if check is None:
                settings.problems.append(
                    Message(N_("{file}: unknown setting {key} ignored"), file=source, key=repr(key))
                )
                continue
            try:
                setattr(settings, key, check(value, accepted))
            except _Refused as error:
                default = getattr(settings, key)
                said = N_("{file}: {key} = {value}: {reason}; using {default}")
                problem = Message(
                    said, file=source, key=key, value=_show(value), reason=error.reason, default=_show(default)
                )
                settings.problems.append(problem)
        return settings

    @classmethod
    def load(cls, path: Path | None = None, *, themes: Iterable[str] = ()) -> Settings:
        """Read the settings file (``path``, default :func:`settings_path`); never raises.

        A missing file gives the defaults without problems.  ``themes`` are
        the theme names the front end offers: the settings layer knows no
        user interface, so the app passes its own and Textual's
        (:func:`cescacs_tui.tui.themes.known_themes`).  A file that is not
        settings at all is kept aside (renamed with a time stamp) and named
        in the one problem.
        """
        target = settings_path() if path is None else path
        try:
            data = read_limited(target, MAX_SETTINGS_BYTES)
        except FileNotFoundError:
            return cls()
        except RefusedFile as error:
            said = N_("cannot read the settings in {file}: {reason}{kept}; using the defaults")
            return cls(problems=[Message(said, file=target, reason=error, kept=_kept(target))])
        except OSError as error:
            said = N_("cannot read the settings in {file}: {reason}; using the defaults")
            return cls(problems=[Message(said, file=target, reason=error.strerror or error)])
        try:
            table = tomllib.loads(data.decode("utf-8"))
        except UnicodeDecodeError:
            said = N_("{file} is not UTF-8 text{kept}; using the default settings")
            return cls(problems=[Message(said, file=target, kept=_kept(target))])
        except tomllib.TOMLDecodeError as error:
            said = N_("{file} is not valid TOML ({reason}){kept}; using the default settings")
            return cls(problems=[Message(said, file=target, reason=error, kept=_kept(target))])
        except RecursionError:
            said = N_("{file} is nested too deeply to read{kept}; using the default settings")
            return cls(problems=[Message(said, file=target, kept=_kept(target))])
        except Exception as error:  # whatever else the reader meets, the app must start
            said = N_("{file} cannot be read ({reason}){kept}; using the default settings")
            return cls(problems=[Message(said, file=target, reason=repr(error), kept=_kept(target))])
        return cls.from_dict(table, themes=themes, source=str(target))

    def save(self, path: Path | None = None) -> Path:
        """Write the settings atomically to ``path`` (default :func:`settings_path`) and return it.

        Raises ``OSError`` if the file cannot be written (the old file, if
        any, is then left as it was).
        """
        import tomli_w  # only a player who changes a setting needs the writer

        target = settings_path() if path is None else path
        write_atomic(target, tomli_w.dumps(self.to_dict()))
        return target


def read_language(path: Path | None = None) -> str | None:
    """Only the ``language`` setting, read before anything is shown (``--help`` speaks it); never raises.

    Unlike :meth:`Settings.load` it changes nothing: a file it cannot use
    just gives ``None``, and the app's own load reports it and keeps it aside.
    """
    target = settings_path() if path is None else path
    try:
        value = tomllib.loads(read_limited(target, MAX_SETTINGS_BYTES).decode("utf-8")).get("language")
    except Exception:  # missing, unreadable, not TOML...: the app says why when it loads the settings
        return None
    return value if isinstance(value, str) and value in LANGUAGES else None


def _kept(path: Path) -> Message:
    """Rename the unusable ``path`` aside; the words that say where it went, for a problem message."""
    try:
        return Message(N_("; it was kept as {file}"), file=keep_aside(path))
    except OSError as error:
        return Message(N_("; it could not be kept aside ({reason})"), reason=error.strerror or error)


class _Refused(ValueError):
    """A setting's value cannot be used: ``reason`` says why, for the player."""

    def __init__(self, template: str | Message, **values: Any) -> None:
        self.reason = template if isinstance(template, Message) else Message(template, **values)
        super().__init__(str(self.reason))


def _show(value: object) -> str:
    """A value as TOML would write it, for problem messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return str(value)


def _choice(choices: Iterable[str], refusal: str) -> Callable[[object, frozenset[str]], str]:
    """The check of a setting that takes one of ``choices``; ``refusal`` says so (a template with ``{options}``)."""
    options = tuple(choices)

    def check(value: object, themes: frozenset[str]) -> str:
        if not isinstance(value, str) or value not in options:
            raise _Refused(refusal, options=", ".join(options))
        return value

    return check


def _theme(value: object, themes: frozenset[str]) -> str:
    if not isinstance(value, str):
        raise _Refused(N_("a theme must be a name in quotes"))
    if value not in themes:
        raise _Refused(N_("no theme has that name"))
    return value


def _flag(value: object, themes: frozenset[str]) -> bool:
    if not isinstance(value, bool):
        raise _Refused(N_("must be true or false"))
    return value


def _name(value: object, themes: frozenset[str]) -> str:
    if not isinstance(value, str):
        raise _Refused(N_("a player name must be text in quotes"))
    name = value.strip()
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise _Refused(N_("a player name cannot hold control characters"))
    if len(name) > MAX_NAME_LENGTH:
        raise _Refused(N_("a player name has at most {count} characters"), count=MAX_NAME_LENGTH)
    return name or "?"


def _language(value: object, themes: frozenset[str]) -> str:
    if not isinstance(value, str) or value not in ("", *LANGUAGES):
        said = N_('the language must be one of {options} in quotes, or "" for the locale\'s')
        raise _Refused(said, options=", ".join(LANGUAGES))
    return value


def _time_control(value: object, themes: frozenset[str]) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)  # `time_control = 300`: five minutes, sudden death
    if not isinstance(value, str):
        raise _Refused(N_('a time control must be a TimeControl tag in quotes, such as "-" or "900+10"'))
    try:
        return TimeControl.from_tag(value).to_tag()
    except ClockError as error:
        raise _Refused(error.explanation) from None


def _engine(value: object, themes: frozenset[str]) -> str:
    if not isinstance(value, str):
        raise _Refused(N_('the engine must be a command line in quotes, or "" for the engine of cescacs'))
    if any(unicodedata.category(c).startswith("C") for c in value):
        raise _Refused(N_("the engine command cannot hold control characters"))
    try:
        shlex.split(value)
    except ValueError as error:
        raise _Refused(N_("the engine command cannot be read ({reason})"), reason=error) from None
    return value.strip()


REVIEW_SECONDS: Final = (0.05, 60.0)
"""The range of ``review_seconds``: the same as ``cescacs review --movetime``'s."""


def _review_seconds(value: object, themes: frozenset[str]) -> float:
    low, high = REVIEW_SECONDS
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise _Refused(N_("the time per position of a review is a number of seconds from {low} to {high}"), low=low,
                       high=high)  # fmt: skip
    return float(value)


MAX_KEYS: Final = 200
"""The most bindings the ``[keys]`` table may change (the app has about 50)."""
_KEY_LIST: Final = re.compile(r"[^\s,]{1,32}(?:\s*,\s*[^\s,]{1,32}){0,7}")
"""One to eight key names, comma-separated: ``"z"``, ``"h,H"``, ``"ctrl+z, question_mark"``."""
_BINDING_ID: Final = re.compile(r"[a-z_]{1,40}(?:\.[a-z_]{1,40})?")


def _keys(value: object, themes: frozenset[str]) -> dict[str, str]:
    if not isinstance(value, dict) or len(value) > MAX_KEYS:
        raise _Refused(
            N_('the keys must be a table of at most {count} names and keys, such as takeback = "z"'), count=MAX_KEYS
        )
    for name, keys in value.items():
        if not _BINDING_ID.fullmatch(name):
            raise _Refused(N_("{name} is not the name of an action or a board key"), name=repr(name[:40]))
        if not isinstance(keys, str) or not keys.isprintable() or not _KEY_LIST.fullmatch(keys.strip()):
            said = N_('{name}: the keys must be key names in quotes, separated by commas, such as "h,H"')
            raise _Refused(said, name=name)
    return {name: keys.strip() for name, keys in value.items()}


_CHECKS: Final[dict[str, Callable[[object, frozenset[str]], Any]]] = {
    "theme": _theme,
    "piece_set": _choice(PIECE_SETS, N_("the piece set must be one of {options}")),
    "board_layout": _choice(LAYOUT_CHOICES, N_("the board layout must be one of {options}")),
    "auto_flip": _flag,
    "vim_keys": _flag,
    "bell": _flag,
    "white": _name,
    "black": _name,
    "time_control": _time_control,
    "castling": _flag,
    "language": _language,
    "engine": _engine,
    "review_seconds": _review_seconds,
    "keys": _keys,
}
"""Per key, the function that checks a read value and returns the value to use (or raises ``ValueError``)."""

_KEYS: Final = tuple(f.name for f in fields(Settings) if f.name != "problems")
