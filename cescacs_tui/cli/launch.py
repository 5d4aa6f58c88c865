"""What every command that starts a game decides before it starts one: where to draw it, and for whom.

``cescacs`` and its ``join`` and ``host --play`` subcommands all ask the same
two questions (:func:`interactive`: the full-screen app, or plain lines?
:func:`launch_policy`: the owner of this machine, or a visitor a server
started this process for?) and say the same thing when the app dies
(:data:`CRASH_NOTE`).  They live here, below both, so the subcommands never
reach into the main command's module.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Final

from ..core.errors import CescacsError
from ..i18n import N_

if TYPE_CHECKING:
    from ..session.policy import LaunchKind, Policy

__all__ = ["CRASH_NOTE", "interactive", "launch_policy"]

CRASH_NOTE: Final = N_("cescacs: the app stopped on an unexpected error (above); the game is saved up to its last move")
"""Printed after Textual has restored the terminal and printed the traceback of an app that died (status 1)."""


def interactive() -> bool:
    """Whether the full-screen app can be drawn (else: the plain mode).

    It can when both ends are a terminal, or when Textual was given a driver
    of its own (``TEXTUAL_DRIVER``: textual-serve's web driver talks to the
    browser over pipes).
    """
    return bool(os.environ.get("TEXTUAL_DRIVER")) or (sys.stdin.isatty() and sys.stdout.isatty())


def launch_policy(owner: LaunchKind) -> Policy:
    """What the person at the keyboard may do with this machine, decided once, now: a visitor's, as the server
    that started this process described it (its data and settings folders hidden from them), else the owner's."""
    from ..data.storage import config_dir, data_dir
    from ..session.policy import Policy, PolicyError

    try:
        return Policy.from_environment(os.environ, owner, folders=(data_dir(), config_dir()))
    except PolicyError as error:
        raise CescacsError(str(error)) from None
